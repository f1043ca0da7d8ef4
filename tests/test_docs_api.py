"""The API reference (docs/api/*.rst) against the package: every public name is documented.

Each public package has its page, ``docs/api/<package>.rst``; each name of its ``__all__`` is
either an entry of one of the page's autosummary tables or a line of its "Also importable from
here" list that points at the page documenting it (the package that defines it), so a name is
documented once. A new public name fails here until it has its line. Reads the ``.rst`` files
only: no Sphinx needed.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[1] / "docs" / "api"
PACKAGES = [
    "bayeskit",
    "bayeskit.data",
    "bayeskit.data.datasets",
    "bayeskit.stats",
    "bayeskit.estimate",
    "bayeskit.decision",
    "bayeskit.graphs",
    "bayeskit.factors",
    "bayeskit.inference",
    "bayeskit.learning",
    "bayeskit.networks",
    "bayeskit.classifiers",
    "bayeskit.sequences",
    "bayeskit.io",
    "bayeskit.dask",
    "bayeskit.evaluate",
    "bayeskit.plot",
    "bayeskit.exceptions",
]
ENTRY = re.compile(r"^   ([A-Za-z_]\w*)\s*$")  # a line of an autosummary table
ALSO = re.compile(r"^- ``(\w+)``: :\w+:`([\w.]+)`\s*$")  # a re-export and where it is documented


def _page(package: str) -> Path:
    short = package.split(".", 1)[1] if "." in package else "bayeskit"
    return API / f"{short}.rst"


def _read(package: str) -> tuple[set[str], dict[str, str]]:
    """The names a package's page documents, and those it points elsewhere for."""
    path = _page(package)
    if not path.is_file():
        if not API.is_dir():  # an installed package without its sources
            pytest.skip("docs/api is not next to the tests")
        pytest.fail(f"{package} has no API page: add {path.name} to docs/api")
    documented, pointers = set(), {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := ENTRY.match(line):
            documented.add(m.group(1))
        elif m := ALSO.match(line):
            pointers[m.group(1)] = m.group(2)
    return documented, pointers


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_on_its_package_page(package):
    module = importlib.import_module(package)
    documented, pointers = _read(package)
    missing = [name for name in module.__all__ if name not in documented and name not in pointers]
    assert missing == [], (
        f"add these names of {package}.__all__ to docs/api/{_page(package).name}: {missing}"
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_every_pointer_leads_to_the_same_documented_object(package):
    module = importlib.import_module(package)
    _, pointers = _read(package)
    for name, target in pointers.items():
        home, _, target_name = target.rpartition(".")
        assert home in PACKAGES, f"{package}.{name} points at {target}, not a public package"
        assert home != package, f"{package}.{name} points at its own page"
        assert getattr(importlib.import_module(home), target_name) is getattr(module, name)
        assert target_name in _read(home)[0], f"{target} is not documented on its page"


def test_no_page_documents_a_name_its_package_does_not_export():
    for package in PACKAGES:
        documented, pointers = _read(package)
        extra = (documented | set(pointers)) - set(importlib.import_module(package).__all__)
        assert extra == set(), f"docs/api/{_page(package).name} lists names {package} lacks"
