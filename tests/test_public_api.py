"""The public API against its documentation: every name the README shows exists, the models have
one registry that every list of them comes from, and ``import bayeskit`` stays lazy and quiet."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bayeskit
from bayeskit._models import MODEL_CLASSES
from bayeskit.classifiers import MODELS

README = Path(__file__).resolve().parents[1] / "README.md"
HEAVY = ("numpy", "pandas", "scipy", "sklearn", "numba")


def _readme() -> str:
    if not README.is_file():  # an installed package without its sources
        pytest.skip("README.md is not next to the tests")
    return README.read_text(encoding="utf-8")


def _resolve(dotted: str):
    """The object a dotted name names: attributes, importing submodules as needed."""
    parts = dotted.split(".")
    obj = importlib.import_module(parts[0])
    for k, part in enumerate(parts[1:], start=2):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(".".join(parts[:k]))
    return obj


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_every_dotted_name_the_readme_shows_exists():
    names = set(re.findall(r"(?<![\w/.-])bayeskit(?:\.[A-Za-z_]\w*)+", _readme()))
    names.discard("bayeskit.json")  # the metadata member of a model file, not a Python name
    assert "bayeskit.NetworkClassifier" in names
    missing = []
    for name in sorted(names):
        try:
            _resolve(name)
        except (AttributeError, ImportError):
            missing.append(name)
    assert missing == []


def test_every_name_the_readme_code_imports_exists():
    imported = []
    for block in _python_blocks(_readme()):
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bayeskit"):
                imported += [f"{node.module}.{alias.name}" for alias in node.names]
    assert "bayeskit.networks.JunctionTree" in imported
    missing = []
    for name in imported:
        try:
            _resolve(name)
        except (AttributeError, ImportError):
            missing.append(name)
    assert missing == []


def test_every_model_of_the_readme_table_is_a_public_class():
    text = _readme()
    table = text[text.index("## The models") :].split("\n\n")[1]
    shown = re.findall(r"^\| `(\w+)` \|", table, flags=re.MULTILINE)
    assert "NaiveBayes" in shown
    assert set(shown) <= set(MODEL_CLASSES.values())
    for name in shown:
        assert getattr(bayeskit, name) is getattr(bayeskit.classifiers, name)


def test_the_readme_lists_every_model_of_the_registry_by_name():
    text = " ".join(_readme().split())
    listed = re.search(r"Model names: (.*?) \(`bayeskit evaluate --help`", text)
    assert listed is not None
    assert re.findall(r"`([\w-]+)`", listed.group(1)) == list(MODEL_CLASSES)


def test_models_registry_and_public_names_agree():
    assert list(MODELS) == list(MODEL_CLASSES)
    for name, cls_name in MODEL_CLASSES.items():
        cls = MODELS[name]
        assert cls.__name__ == cls_name
        assert getattr(bayeskit, cls_name) is cls
        assert cls_name in bayeskit.__all__
        assert cls_name in bayeskit.classifiers.__all__
        assert cls_name in dir(bayeskit)


def test_network_classifier_is_public_at_the_top_and_with_the_classifiers():
    from bayeskit.classifiers import NetworkClassifier

    assert bayeskit.NetworkClassifier is NetworkClassifier
    assert "NetworkClassifier" in bayeskit.classifiers.__all__
    assert "NetworkClassifier" not in bayeskit.networks.__all__  # the layer below: no cycle
    with pytest.raises(AttributeError, match="no attribute 'Nonexistent'"):
        _ = bayeskit.networks.Nonexistent


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    "statement",
    ["import bayeskit", "from bayeskit.classifiers import NetworkClassifier"],
    ids=["import bayeskit", "classifiers.NetworkClassifier"],
)
def test_imports_are_quiet_and_networks_import_no_cycle(statement):
    done = _run(f"{statement}\nprint('ok')")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert done.stderr == ""


def test_import_bayeskit_loads_no_heavy_dependency():
    heavy = repr(HEAVY)
    done = _run(f"import sys, bayeskit\nprint([m for m in {heavy} if m in sys.modules])")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
