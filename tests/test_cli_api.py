"""The command line as an interface: start-up that loads nothing it does not need, help text
with plain metavars, one registry of models behind every list of them, ARFF files, and
machine-readable output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from bayeskit import cli
from bayeskit._models import MODEL_CLASSES
from bayeskit.cli import app
from bayeskit.data import datasets

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.split())


# -------------------------------------------------------------------------- start-up
def _modules_after(args: list[str]) -> tuple[str, list[str]]:
    """Run the console script's entry point in a fresh interpreter; its output and which of
    the heavy dependencies it imported."""
    code = (
        "import sys\n"
        "from bayeskit.cli import main\n"
        f"sys.argv = ['bayeskit', *{args!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('sklearn', 'pandas', 'numba', 'numpy', 'scipy')\n"
        "print('LOADED', [m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={"COLUMNS": "120", "NO_COLOR": "1", "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    out, _, loaded = done.stdout.rpartition("LOADED ")
    return out, json.loads(loaded.replace("'", '"'))


@pytest.mark.parametrize(
    "args",
    [["--version"], ["--help"], ["evaluate", "--help"], ["network", "fit", "--help"]],
    ids=" ".join,
)
def test_version_and_help_import_no_heavy_dependency(args):
    out, loaded = _modules_after(args)
    assert loaded == []
    assert ("bayeskit " if args == ["--version"] else "Usage") in out


# -------------------------------------------------------------------------- help text
def _commands():
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            for sub in command.commands:
                yield [name, sub]
        else:
            yield [name]


@pytest.mark.parametrize("command", [[], *_commands()], ids=lambda c: " ".join(c) or "root")
def test_help_shows_plain_metavars(command):
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    text = result.output
    for typed in ("<bool>", "<str>", "<int>", "<float>", "<list", "<path>", "{DATA}", "{MODEL}"):
        assert typed not in text, (typed, command)
    help_line = next(line for line in text.splitlines() if "--help" in line)
    assert flat(help_line).startswith("│ --help Show this message")


def test_an_option_without_metavar_shows_its_type_in_words():
    text = run("network", "fit", "--help").output
    assert "--max-iter" in text
    line = next(line for line in text.splitlines() if "--max-iter" in line)
    assert "INTEGER" in line
    usage = next(line for line in text.splitlines() if "Usage" in line)
    assert usage.split()[-1] == "DATA"
    compare_usage = next(ln for ln in run("compare", "--help").output.splitlines() if "Usage" in ln)
    assert compare_usage.split()[-1] == "[DATA]"  # optional: the bundled default


# -------------------------------------------------------------------------- the model registry
def test_every_list_of_models_is_the_registry():
    from bayeskit.classifiers import MODELS

    assert list(cli.MODELS) == list(MODEL_CLASSES) == list(MODELS)
    assert all(cli.MODELS[name] is MODELS[name] for name in MODEL_CLASSES)
    text = flat(run("evaluate", "--help").output.replace("│", " "))
    listed = text[text.index("Model:") : text.index("[default: naive-bayes]")]
    assert [w.strip(",.") for w in listed.split()[1:]] == list(MODEL_CLASSES)
    bad = run("evaluate", "iris", "--model", "bogus")
    assert bad.exit_code == 2
    assert all(name in flat(bad.output) for name in MODEL_CLASSES)


def test_compare_default_data_is_the_bundled_default():
    assert cli._DEFAULT_DATA == datasets.DEFAULT


# -------------------------------------------------------------------------- ARFF files
WEATHER = """% the weather data (Witten, Frank and Hall, Data Mining, Table 1.2)
@relation weather

@attribute outlook {sunny, overcast, rainy}
@attribute temperature {hot, mild, cool}
@attribute humidity {high, normal}
@attribute windy {TRUE, FALSE}
@attribute play {yes, no}

@data
sunny,hot,high,FALSE,no
sunny,hot,high,TRUE,no
overcast,hot,high,FALSE,yes
rainy,mild,high,FALSE,yes
rainy,cool,normal,FALSE,yes
rainy,cool,normal,TRUE,no
overcast,cool,normal,TRUE,yes
sunny,mild,high,FALSE,no
sunny,cool,normal,FALSE,yes
rainy,mild,normal,FALSE,yes
sunny,mild,normal,TRUE,yes
overcast,mild,high,TRUE,yes
overcast,hot,normal,FALSE,yes
rainy,mild,high,TRUE,no
"""


@pytest.fixture
def weather(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(WEATHER)
    return path


def test_evaluate_an_arff_file_by_its_target(weather):
    result = run("evaluate", weather, "--target", "play", "-k", "2", "-f", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["classes"] == ["no", "yes"]
    assert sum(fold["test_rows"] for fold in doc["folds"]) == 14


def test_a_gzipped_arff_file(tmp_path):
    import gzip

    path = tmp_path / "weather.arff.gz"
    with gzip.open(path, "wt") as handle:
        handle.write(WEATHER)
    result = run("schema", path, "-f", "json")
    assert result.exit_code == 0, result.output
    assert [row["role"] for row in json.loads(result.stdout)][-1] == "target"


def test_the_last_arff_attribute_is_the_class_by_default(weather):
    result = run("evaluate", weather, "-k", "2", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["classes"] == ["no", "yes"]
    assert "the class is the last attribute, 'play'" in flat(result.stderr)


def test_arff_types_are_declared_not_guessed(tmp_path):
    # a numeric attribute of few whole numbers stays numeric (the CSV rule would call it
    # categorical); a nominal one of numbers is categorical
    rows = "\n".join(f"{i % 3},{1 + i % 2},{'xy'[i % 2]}" for i in range(30))
    path = tmp_path / "typed.arff"
    path.write_text(
        "@relation t\n@attribute n integer\n@attribute code {1, 2, 3}\n@attribute c {x, y}\n"
        f"@data\n{rows}\n"
    )
    doc = json.loads(run("schema", path, "-f", "json").stdout)
    kinds = {row["column"]: (row["kind"], row["why"], row["role"]) for row in doc}
    assert kinds == {
        "n": ("numeric", "ARFF numeric attribute", "feature"),
        "code": ("categorical", "ARFF nominal attribute", "feature"),
        "c": ("categorical", "ARFF nominal attribute", "target"),
    }
    assert run("schema", path, "--categorical", "n", "-f", "json").exit_code == 0


def test_a_declared_value_the_data_never_uses_is_a_category(weather, tmp_path):
    # 'foggy' is declared but never seen: the model knows it (Laplace over 4 outlooks, as Weka),
    # and predicting a row with it is no unseen category
    path = tmp_path / "foggy.arff"
    path.write_text(WEATHER.replace("{sunny, overcast, rainy}", "{sunny, overcast, rainy, foggy}"))
    model = tmp_path / "m.bkm"
    assert run("fit", path, "-o", model).exit_code == 0
    import bayeskit

    fitted = bayeskit.load(model)
    outlook = next(c for c in fitted.schema_.categorical if c.name == "outlook")
    assert sorted(outlook.categories) == ["foggy", "overcast", "rainy", "sunny"]
    new = tmp_path / "new.arff"
    new.write_text(path.read_text().replace("sunny,hot,high,FALSE,no", "foggy,hot,high,FALSE,no"))
    result = run("predict", model, new)
    assert result.exit_code == 0, result.output
    assert "not seen in training" not in flat(result.stderr)
    assert len(result.stdout.splitlines()) == 15


def test_arff_files_that_cannot_be_read_are_refused_by_name(weather, tmp_path):
    text = tmp_path / "text.arff"
    text.write_text("@relation r\n@attribute s string\n@attribute c {a, b}\n@data\nhi,a\n")
    result = run("evaluate", text)
    assert result.exit_code == 1
    assert "String attributes" in flat(result.stderr)
    assert "declare text attributes as nominal" in flat(result.stderr)
    chunked = run("fit", weather, "-o", tmp_path / "m.bkm", "--target", "play", "--chunksize", 5)
    assert chunked.exit_code == 1
    assert "read whole" in flat(chunked.stderr)


# -------------------------------------------------------------------------- output formats
def test_evaluate_json_has_integer_folds_and_snake_case_keys():
    doc = json.loads(run("evaluate", "iris", "-k", "3", "-f", "json").stdout)
    assert [fold["fold"] for fold in doc["folds"]] == [1, 2, 3]
    assert all(isinstance(fold["test_rows"], int) for fold in doc["folds"])
    assert all(row["support"] == 50 and isinstance(row["support"], int) for row in doc["per_class"])

    def keys(node):
        if isinstance(node, dict):
            for k, v in node.items():
                yield k
                yield from keys(v)
        elif isinstance(node, list):
            for v in node:
                yield from keys(v)

    assert all(" " not in k for k in keys(doc))


def test_every_json_output_has_keys_without_spaces(tmp_path):
    outputs = [
        run("compare", "iris", "-k", "2", "-f", "json"),
        run("schema", "iris", "-f", "json"),
    ]
    for result in outputs:
        assert result.exit_code == 0, result.output
        for row in json.loads(result.stdout):
            assert all(" " not in k and k == k.lower() for k in row), row


def test_python_dash_m_bayeskit_runs_the_command():
    import bayeskit

    done = subprocess.run([sys.executable, "-m", "bayeskit", "--version"], capture_output=True,
                          text=True, check=False, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"bayeskit {bayeskit.__version__}"
