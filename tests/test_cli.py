"""The bayeskit command line, driven through typer's CliRunner."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import bayeskit
from bayeskit.classifiers import MODELS
from bayeskit.cli import NEEDS_COUNTS, app, main
from bayeskit.data import datasets

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def melon_csv(tmp_path):
    X, y = datasets.load("watermelon3")
    path = tmp_path / "melon.csv"
    X.assign(ripe=y).to_csv(path, index=False)
    return path


@pytest.fixture
def iris_csv(tmp_path):
    X, y = datasets.load("iris")
    path = tmp_path / "iris.csv"
    X.assign(species=y).to_csv(path, index=False)
    return path


# -------------------------------------------------------------------------- datasets, version
def test_datasets_lists_every_bundled_set():
    result = run("datasets")
    assert result.exit_code == 0, result.output
    for name in datasets.names():
        assert name in result.output
    assert "1728 x 6" in result.output
    assert "car (default)" in result.output


def test_version_and_main(monkeypatch, capsys):
    result = run("--version")
    assert result.exit_code == 0
    assert bayeskit.__version__ in result.output
    monkeypatch.setattr(sys, "argv", ["bayeskit", "--version"])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 0
    assert bayeskit.__version__ in capsys.readouterr().out


def test_no_arguments_shows_help():
    result = run()
    assert "fit" in result.output
    assert "compare" in result.output


# -------------------------------------------------------------------------- fit and predict
def test_fit_bundled_then_predict_round_trip(tmp_path):
    model_path = tmp_path / "car.bayeskit"
    result = run("fit", "car", "--model", "naive-bayes", "-o", model_path)
    assert result.exit_code == 0, result.output
    assert "saved to" in result.output
    out = tmp_path / "pred.csv"
    result = run("predict", model_path, "car", "-o", out)
    assert result.exit_code == 0, result.output
    X, y = datasets.load("car")
    expected = bayeskit.load(model_path).predict(X)
    got = pd.read_csv(out)["prediction"].to_numpy()
    np.testing.assert_array_equal(got, expected)
    assert np.mean(got == y.to_numpy()) > 0.8


def test_fit_csv_uses_the_column_rule(tmp_path):
    frame = pd.DataFrame(
        {
            "rooms": [1, 2, 3, 1, 2, 3, 1, 2],  # few whole numbers: categorical
            "area": [50.5, 72.0, 90.1, 48.2, 70.3, 95.4, 52.8, 69.9],
            "city": ["a", "b", "a", "b", "a", "b", "a", "b"],
            "sold": ["y", "n", "y", "n", "y", "n", "y", "y"],
        }
    )
    data = tmp_path / "houses.csv"
    frame.to_csv(data, index=False)
    model_path = tmp_path / "houses.bayeskit"
    result = run("fit", data, "--target", "sold", "-o", model_path)
    assert result.exit_code == 0, result.output
    model = bayeskit.load(model_path)
    assert model.categorical_features == ["rooms", "city"]
    kinds = {c.name: c.kind for c in model.schema_.columns}
    assert kinds == {"rooms": "categorical", "area": "numeric", "city": "categorical"}


def test_predict_to_stdout_with_probabilities(tmp_path, melon_csv):
    model_path = tmp_path / "melon.bayeskit"
    assert run("fit", melon_csv, "-t", "ripe", "-o", model_path).exit_code == 0
    result = run("predict", model_path, melon_csv, "--proba")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 18  # header + 17 melons
    header = lines[0].split(",")
    assert header[0] == "prediction"
    assert len(header) == 3
    assert all(h.startswith("proba_") for h in header[1:])
    probs = np.array([[float(v) for v in line.split(",")[1:]] for line in lines[1:]])
    np.testing.assert_allclose(probs.sum(axis=1), 1.0)


def test_predict_with_a_cost_matrix(tmp_path, melon_csv):
    model_path = tmp_path / "melon.bayeskit"
    assert run("fit", melon_csv, "-t", "ripe", "-o", model_path).exit_code == 0
    model = bayeskit.load(model_path)
    X = pd.read_csv(melon_csv).drop(columns=["ripe"])
    # rows: predicted class, columns: true class; calling an unripe melon ripe costs 10
    labels = [str(c) for c in model.classes_]
    cost = pd.DataFrame([[0, 1], [10, 0]], index=labels, columns=labels)
    cost_path = tmp_path / "cost.csv"
    cost.to_csv(cost_path)
    out = tmp_path / "pred.csv"
    result = run("predict", model_path, melon_csv, "--cost", cost_path, "-o", out)
    assert result.exit_code == 0, result.output
    lam = np.array([[0, 1], [10, 0]])
    expected = model.predict(X.astype({"ripe": str}) if "ripe" in X else X, cost=lam)
    got = pd.read_csv(out, dtype=str)["prediction"].to_numpy()
    np.testing.assert_array_equal(got, expected)
    assert (got != model.predict(X)).any()  # the costs changed some decisions
    risk = pd.read_csv(out)["expected_risk"].to_numpy()
    lam_by_class = model.predict_proba(X) @ lam.T
    chosen = np.searchsorted(model.classes_, got)
    np.testing.assert_allclose(risk, lam_by_class[np.arange(len(got)), chosen])
    np.testing.assert_allclose(risk, lam_by_class.min(axis=1))


def test_predict_cost_labels_match_case_insensitively(tmp_path, melon_csv):
    # pandas reads the CSV's "true"/"false" target as booleans True/False
    model_path = tmp_path / "melon.bayeskit"
    assert run("fit", melon_csv, "-t", "ripe", "-o", model_path).exit_code == 0
    cost_path = tmp_path / "cost.csv"
    pd.DataFrame([[0, 5], [1, 0]], index=["false", "true"], columns=["false", "true"]).to_csv(
        cost_path
    )
    result = run("predict", model_path, melon_csv, "--cost", cost_path)
    assert result.exit_code == 0, result.output


def test_predict_cost_with_unknown_labels_fails_cleanly(tmp_path, melon_csv):
    model_path = tmp_path / "melon.bayeskit"
    assert run("fit", melon_csv, "-t", "ripe", "-o", model_path).exit_code == 0
    cost_path = tmp_path / "cost.csv"
    pd.DataFrame([[0, 1], [1, 0]], index=["a", "b"], columns=["a", "b"]).to_csv(cost_path)
    result = run("predict", model_path, melon_csv, "--cost", cost_path)
    assert result.exit_code == 1
    assert "cost matrix" in result.output


def test_parquet_data(tmp_path):
    pytest.importorskip("pyarrow")
    X, y = datasets.load("iris")
    data = tmp_path / "iris.parquet"
    X.assign(species=y.astype(str)).to_parquet(data)
    model_path = tmp_path / "iris.bayeskit"
    result = run("fit", data, "-t", "species", "-o", model_path)
    assert result.exit_code == 0, result.output
    assert run("predict", model_path, data).exit_code == 0


# -------------------------------------------------------------------------- evaluate, compare
def test_evaluate_bundled(melon_csv):
    result = run("evaluate", "watermelon3", "--folds", "3")
    assert result.exit_code == 0, result.output
    text = result.output
    for word in ("accuracy", "log-loss", "Brier", "confusion matrix", "mean", "true", "false"):
        assert word in text


def test_evaluate_csv(iris_csv):
    result = run("evaluate", iris_csv, "--target", "species", "--model", "naive-bayes", "-k", "5")
    assert result.exit_code == 0, result.output
    assert "versicolor" in result.output
    assert "5-fold" in result.output


def test_compare_default_is_car_with_ten_folds():
    result = run("compare")
    assert result.exit_code == 0, result.output
    assert "on car: 10-fold" in result.output
    for name in MODELS:
        assert name in result.output
    lines = {line.split()[1]: line for line in result.output.splitlines() if "│" in line}
    assert NEEDS_COUNTS in lines["multinomial-nb"]
    assert NEEDS_COUNTS in lines["bernoulli-nb"]
    assert NEEDS_COUNTS not in lines["naive-bayes"]


def test_compare_numeric_csv_runs_the_count_models_too(iris_csv):
    result = run("compare", iris_csv, "--target", "species", "--folds", "3")
    assert result.exit_code == 0, result.output
    assert NEEDS_COUNTS not in result.output


# -------------------------------------------------------------------------- errors
def test_unknown_model_lists_known_names():
    result = run("evaluate", "car", "--model", "no-such-model")
    assert result.exit_code == 2
    text = flat(result.output)
    assert "unknown model 'no-such-model'" in text
    for name in MODELS:
        assert name in text


def test_missing_file():
    result = run("fit", "no/such/file.csv", "--target", "y", "-o", "m.bayeskit")
    assert result.exit_code == 2
    assert "file not found: no/such/file.csv" in flat(result.output)


def test_unknown_data_set_name_lists_bundled_ones():
    result = run("evaluate", "nosuchset")
    assert result.exit_code == 2
    assert "neither a file nor a bundled data set" in flat(result.output)
    assert "watermelon3" in result.output


def test_unknown_target_lists_columns(melon_csv):
    result = run("evaluate", melon_csv, "--target", "colour")
    assert result.exit_code == 2
    text = flat(result.output)
    assert "unknown target column 'colour'" in text
    assert "color, root, sound" in text


def test_file_needs_a_target(melon_csv, tmp_path):
    result = run("fit", melon_csv, "-o", tmp_path / "m.bayeskit")
    assert result.exit_code == 2
    assert "needs --target" in flat(result.output)


def test_count_model_on_categorical_data_is_refused(tmp_path):
    result = run("fit", "car", "--model", "multinomial-nb", "-o", tmp_path / "m.bayeskit")
    assert result.exit_code == 2
    assert "needs numeric counts" in flat(result.output)


def test_predict_missing_model_file(melon_csv, tmp_path):
    result = run("predict", tmp_path / "absent.bayeskit", melon_csv)
    assert result.exit_code == 2
    assert "no model file" in flat(result.output)


def test_predict_corrupt_model_file(melon_csv, tmp_path):
    bad = tmp_path / "bad.bayeskit"
    bad.write_bytes(b"not a zip at all")
    result = run("predict", bad, melon_csv)
    assert result.exit_code == 1
    assert "not a bayeskit model file" in flat(result.output)


def test_predict_data_without_the_model_columns(tmp_path, iris_csv):
    model_path = tmp_path / "car.bayeskit"
    assert run("fit", "car", "-o", model_path).exit_code == 0
    result = run("predict", model_path, iris_csv)
    assert result.exit_code == 2
    assert "lacks the model's feature columns" in flat(result.output)


def test_too_few_folds_is_a_usage_error():
    result = run("evaluate", "car", "--folds", "1")
    assert result.exit_code == 2


def test_unreadable_csv_fails_cleanly(tmp_path):
    data = tmp_path / "empty.csv"
    data.write_text("")
    result = run("evaluate", data, "--target", "y")
    assert result.exit_code == 1
    assert "error:" in result.output


def test_predict_matches_categories_by_text_across_files(tmp_path):
    # the training file reads "code" as text (one cell is "A"), the prediction file as numbers
    train = tmp_path / "codes.csv"
    rows = (
        ["code,v,class"]
        + [f"1,{i % 3},yes" for i in range(20)]
        + [f"{c},{i % 3},no" for i, c in enumerate(["2", "A"] * 10)]
    )
    train.write_text("\n".join(rows) + "\n")
    query = tmp_path / "q.csv"
    query.write_text("code,v\n1,0\n")
    model = tmp_path / "c.bkm"
    assert runner.invoke(app, ["fit", str(train), "-t", "class", "-o", str(model)]).exit_code == 0
    out = tmp_path / "pred.csv"
    result = runner.invoke(app, ["predict", str(model), str(query), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert pd.read_csv(out)["prediction"].tolist() == ["yes"]
