"""The command line reads a file as Python does: one typing rule, the same model whichever way
it was trained, identifiers left out, --ignore on every command, rows named by file line."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import bayeskit
from bayeskit import TAN
from bayeskit.cli import app
from bayeskit.data import Schema, datasets
from bayeskit.exceptions import IdentifierWarning

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.split())


def _kinds(*args) -> dict:
    result = run("schema", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return {r["column"]: r for r in json.loads(result.stdout)}


@pytest.fixture
def mixed_csv(tmp_path):
    """TRUE/FALSE, yes/no, integer codes (one with a gap, 11-50 of them), decimals, whole
    numbers written 1.0, and missing cells; the class is TRUE/FALSE too."""
    rng = np.random.default_rng(0)
    n = 800
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame(
        {
            "flag": np.where(rng.random(n) < 0.3 + 0.4 * y, "TRUE", "FALSE"),
            "answer": np.where(rng.random(n) < 0.4 + 0.2 * y, "yes", "no"),
            "code": rng.integers(1, 5, n) + y,
            "region": rng.integers(0, 20, n) + 10 * y,  # 30 integer codes, 20 rows each
            "score": np.round(rng.normal(y, 1, n), 2),
            "level": rng.integers(0, 3, n) * 1.0,
            "ripe": np.where(y == 1, "TRUE", "FALSE"),
        }
    ).astype(object)
    for c in ["flag", "answer", "code", "region", "score", "level"]:
        frame.loc[rng.random(n) < 0.05, c] = None
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)
    text = path.read_text()
    assert "TRUE" in text  # as described
    assert ",1.0," in text
    assert ",," in text
    return path


def _python_features(path):
    return pd.read_csv(path).drop(columns="ripe")


def _cli_predictions(model_path, data, *extra):
    result = run("predict", model_path, data, "-t", "ripe", "--proba", *extra)
    assert result.exit_code == 0, result.output
    assert "not seen in training" not in flat(result.output)
    lines = [line for line in result.stdout.splitlines() if line]
    header, *rows = [line.split(",") for line in lines]
    return header, rows


def test_the_file_gets_the_same_kinds_from_python_and_the_command_line(mixed_csv):
    cli = _kinds(mixed_csv, "-t", "ripe")
    python = Schema.infer(pd.read_csv(mixed_csv), categorical_features="infer")
    assert {n: r["kind"] for n, r in cli.items()} == {c.name: c.kind for c in python.columns}
    assert cli["region"]["kind"] == "categorical"  # integer codes, though a cell is missing
    assert cli["flag"]["why"] == "booleans"


@pytest.mark.parametrize("model", ["tan", "naive-bayes"])
def test_trained_in_python_predicted_on_the_command_line(tmp_path, mixed_csv, model):
    X = _python_features(mixed_csv)
    y = pd.read_csv(mixed_csv)["ripe"]
    cls = bayeskit.classifiers.MODELS[model]
    for spec in (None, "infer"):  # booleans (and with infer, codes) as pandas typed them
        estimator = cls(categorical_features=spec).fit(X, y)
        path = bayeskit.save(estimator, tmp_path / f"{model}-{spec}.bkm")
        header, rows = _cli_predictions(path, mixed_csv)
        assert header[0] == "prediction"
        got = np.array([[float(v) for v in r[1:]] for r in rows])
        np.testing.assert_allclose(got, estimator.predict_proba(X), rtol=0, atol=1e-12)
        assert [r[0] for r in rows] == [str(v) for v in estimator.predict(X)]


@pytest.mark.parametrize("model", ["tan", "naive-bayes"])
def test_trained_on_the_command_line_predicted_in_python(tmp_path, mixed_csv, model):
    path = tmp_path / f"{model}.bkm"
    result = run("fit", mixed_csv, "-t", "ripe", "-m", model, "-o", path)
    assert result.exit_code == 0, result.output
    estimator = bayeskit.load(path)
    header, rows = _cli_predictions(path, mixed_csv)
    X = _python_features(mixed_csv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unknown category, no feature-name warning
        proba = estimator.predict_proba(X)
        labels = estimator.predict(X)
    got = np.array([[float(v) for v in r[1:]] for r in rows])
    np.testing.assert_allclose(got, proba, rtol=0, atol=1e-12)
    assert [r[0] for r in rows] == [str(v) for v in labels]
    # and it is the model Python learns with the same rule
    python = bayeskit.classifiers.MODELS[model](categorical_features="infer")
    python.fit(X, pd.read_csv(mixed_csv)["ripe"])
    np.testing.assert_allclose(python.predict_proba(X), proba, rtol=0, atol=1e-12)


def test_a_model_learnt_from_text_reads_booleans_and_numbers(tmp_path):
    # a model whose categories are text (as --chunksize reads them) on pandas' values
    text = pd.DataFrame({"f": ["TRUE", "FALSE"] * 20, "c": ["1", "2", "3", "4"] * 10})
    y = ["a", "b"] * 20
    model = TAN().fit(text, y)
    typed = pd.DataFrame({"f": [True, False] * 20, "c": [1.0, 2.0, 3.0, 4.0] * 10})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(
            model.set_params(handle_unknown="warn").predict_proba(typed), model.predict_proba(text)
        )


# ---------------------------------------------------------------- identifiers
@pytest.fixture
def car_with_id(tmp_path):
    X, y = datasets.load("car")
    frame = X.assign(patient_id=[f"P{i:05d}" for i in range(len(X))], label=y)
    path = tmp_path / "car_id.csv"
    frame.to_csv(path, index=False)
    plain = tmp_path / "car.csv"
    frame.drop(columns="patient_id").to_csv(plain, index=False)
    return path, plain


def _log_loss(*args):
    result = run("evaluate", *args, "-m", "tan", "-k", "5", "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["mean"]["log_loss"], flat(result.output)


def test_identifier_is_left_out_with_a_note(car_with_id):
    path, plain = car_with_id
    with_id, text = _log_loss(path, "-t", "label")
    assert "column 'patient_id' has a different value in each of its 1728 rows" in text
    assert "--ignore patient_id" in text
    assert text.count("patient_id") < 6  # one note, not one per fold
    without, _ = _log_loss(plain, "-t", "label")
    assert with_id == pytest.approx(without, abs=1e-12)
    ignored, text = _log_loss(path, "-t", "label", "--ignore", "patient_id")
    assert ignored == pytest.approx(without, abs=1e-12)
    assert "as an identifier does" not in text
    kept, text = _log_loss(path, "-t", "label", "--categorical", "patient_id")
    assert kept > without + 0.1
    assert "kept as a feature" in text


def test_schema_shows_the_identifier_and_fit_leaves_it_out(tmp_path, car_with_id):
    path, _ = car_with_id
    kinds = _kinds(path, "-t", "label")
    assert kinds["patient_id"]["role"] == "identifier (left out)"
    model_path = tmp_path / "tan.bkm"
    result = run("fit", path, "-t", "label", "-m", "tan", "-o", model_path)
    assert result.exit_code == 0, result.output
    assert "6 (left out: patient_id) features" in flat(result.output)
    model = bayeskit.load(model_path)
    assert model.schema_.ignored == ("patient_id",)
    # the file to predict need not have the identifier
    new = tmp_path / "new.csv"
    pd.read_csv(path).drop(columns=["patient_id", "label"]).head(20).to_csv(new, index=False)
    assert run("predict", model_path, new).exit_code == 0
    frame = pd.read_csv(path)
    python = TAN(categorical_features="infer")
    with pytest.warns(IdentifierWarning):
        python.fit(frame.drop(columns="label"), frame["label"])
    assert python.schema_ == model.schema_


# ---------------------------------------------------------------- --ignore on every command
@pytest.mark.parametrize(
    "command",
    [
        ["schema", "{data}", "-t", "label"],
        ["fit", "{data}", "-t", "label", "-o", "{out}/m.bkm"],
        ["evaluate", "{data}", "-t", "label", "-k", "3"],
        ["compare", "{data}", "-t", "label", "-k", "3"],
        ["network", "learn", "{data}", "-o", "{out}/n.bif"],
        ["network", "learn", "{data}", "-o", "{out}/n.bif", "--chunksize", "100"],
        ["fit", "{data}", "-t", "label", "-o", "{out}/m.bkm", "--chunksize", "100"],
    ],
    ids=lambda c: " ".join(w for w in c if not w.startswith(("{", "-")) and "/" not in w),
)
def test_every_command_that_reads_data_takes_ignore(tmp_path, command):
    X, y = datasets.load("car")
    frame = X.head(400).assign(row=np.arange(400), label=y.head(400))
    data = tmp_path / "car.csv"
    frame.to_csv(data, index=False)
    if command[0] == "network":
        frame.drop(columns="label").to_csv(data, index=False)
    args = [a.format(data=data, out=tmp_path) for a in command]
    bad = run(*args, "--ignore", "nope")
    assert bad.exit_code == 2, bad.output
    assert "unknown columns ['nope']; columns: buying, maint" in flat(bad.output)
    assert "'--ignore'" in bad.output
    good = run(*args, "--ignore", "row")
    assert good.exit_code == 0, good.output
    if command[0] == "network":
        assert "row" not in bayeskit.networks.read_bif(tmp_path / "n.bif").nodes
    if command[0] == "fit":
        assert "row" not in bayeskit.load(tmp_path / "m.bkm").feature_names_in_
    if command[0] == "schema":
        shown = run(*args, "--ignore", "row", "-f", "json")
        assert "row" not in {r["column"] for r in json.loads(shown.stdout)}


def test_network_fit_and_predict_take_ignore(tmp_path):
    X, y = datasets.load("car")
    frame = X.head(300).assign(label=y.head(300))
    data = tmp_path / "car.csv"
    frame.to_csv(data, index=False)
    net = tmp_path / "n.bif"
    assert run("network", "learn", data, "-o", net).exit_code == 0
    bad = run("network", "fit", data, "-s", net, "-o", tmp_path / "f.bif", "--ignore", "nope")
    assert bad.exit_code == 2
    assert "unknown columns ['nope']" in flat(bad.output)
    # an ignored node has no column: latent, learnt by EM
    good = run("network", "fit", data, "-s", net, "-o", tmp_path / "f.bif", "--ignore", "safety")
    assert good.exit_code == 0, good.output
    assert "latent nodes: 1" in flat(good.output)
    model = tmp_path / "m.bkm"
    assert run("fit", data, "-t", "label", "-o", model).exit_code == 0
    full = run("predict", model, data, "--proba")
    part = run("predict", model, data, "--proba", "--ignore", "safety")
    assert part.exit_code == 0, part.output
    assert "--ignore safety: the model's feature(s) treated as missing" in flat(part.output)
    assert full.stdout != part.stdout
    bad = run("predict", model, data, "--ignore", "nope")
    assert bad.exit_code == 2
    assert "unknown columns ['nope']" in flat(bad.output)


def test_ignore_and_a_kind_for_one_column_is_refused(tmp_path, mixed_csv):
    result = run("schema", mixed_csv, "-t", "ripe", "--ignore", "code", "--categorical", "code")
    assert result.exit_code == 2
    assert "given both --ignore and --categorical" in flat(result.output)


# ---------------------------------------------------------------- rows named by file line
def test_messages_name_the_line_of_the_file(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(["x", "y"], 40), "b": rng.choice(["u", "v"], 40)})
    frame.loc[21, "a"] = None  # data row 21: line 23 (the header is line 1)
    data = tmp_path / "net.csv"
    frame.to_csv(data, index=False)
    result = run("network", "learn", data, "-o", tmp_path / "n.bif")
    assert result.exit_code != 0
    assert "column 'a' has a missing value (line 23)" in flat(result.output)
    numbers = tmp_path / "inf.csv"
    numbers.write_text("x,y,c\n1,2,a\n3,inf,b\n4,5,a\n")
    result = run("fit", numbers, "-t", "c", "-o", tmp_path / "m.bkm", "--numeric", "x,y")
    assert "column 'y' holds an infinite value (line 3)" in flat(result.output)
    result = run("schema", numbers, "-t", "c", "--numeric", "c")
    assert "holds 'a' (line 2)" in flat(result.output)
