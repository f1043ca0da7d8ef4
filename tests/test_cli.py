"""The bayeskit command line, driven through typer's CliRunner."""

from __future__ import annotations

import itertools
import statistics
import sys
from pathlib import Path

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
    # a numeric column is binned by NaiveBayes's default discretizer: it then has cut points
    kinds = {c.name: "numeric" if c.cuts is not None else c.kind for c in model.schema_.columns}
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
    expected = model.predict(X, cost=lam)
    # the file's true/false read as pandas reads them, by the command line too: booleans
    got = pd.read_csv(out)["prediction"].to_numpy()
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
def _table_cells(text: str) -> list[list[str]]:
    """The cells of every row of the printed tables."""
    return [[c.strip() for c in line.split("│")[1:-1]] for line in text.splitlines()]


def test_evaluate_bundled(melon_csv):
    result = run("evaluate", "watermelon3", "--folds", "3")
    assert result.exit_code == 0, result.output
    cells = _table_cells(result.output)
    folds = [r for r in cells if r and r[0] in ("1", "2", "3")]
    (mean,) = [r for r in cells if r and r[0] == "mean"]
    labels = ("false", "true")
    cm = np.array([[int(v) for v in r[1:]] for r in cells if len(r) == 3 and r[0] in labels])
    # watermelon 3.0 (Zhou, Machine Learning, Table 4.3): 17 melons, 8 ripe and 9 not; three
    # stratified folds of 6, 6 and 5
    assert cm.sum(axis=1).tolist() == [9, 8]
    assert [int(r[1]) for r in folds] == [6, 6, 5]
    assert mean[1] == "17"
    # each fold's accuracy times its rows is its correct predictions: together the confusion
    # matrix's diagonal; the mean and the population std of the three accuracies
    accuracy = [float(r[2]) for r in folds]
    assert round(sum(a * int(r[1]) for a, r in zip(accuracy, folds, strict=True))) == np.trace(cm)
    assert mean[2] == f"{statistics.fmean(accuracy):.3f} ± {statistics.pstdev(accuracy):.3f}"


def test_evaluate_csv(iris_csv):
    result = run("evaluate", iris_csv, "--target", "species", "--model", "naive-bayes", "-k", "5")
    assert result.exit_code == 0, result.output
    assert "5-fold" in result.output
    # Fisher's iris: 50 flowers of each species, so five stratified folds of 30 test rows
    cells = _table_cells(result.output)
    species = ("setosa", "versicolor", "virginica")
    assert [r[:2] for r in cells if r and r[0] in "12345"] == [[str(k), "30"] for k in range(1, 6)]
    assert [r[-1] for r in cells if len(r) == 5 and r[0] in species] == ["50", "50", "50"]
    cm = np.array([[int(v) for v in r[1:]] for r in cells if len(r) == 4 and r[0] in species])
    assert cm.sum(axis=1).tolist() == [50, 50, 50]
    # naive Bayes separates setosa from the others on iris (Fisher 1936: petal measurements)
    assert cm[0].tolist() == [50, 0, 0]


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
    # the majority baseline's printed figures against their closed forms in car's class shares
    # p (1210, 384, 69, 65 of 1728): accuracy max p, log-loss the entropy -sum p log p, Brier
    # 1 - sum p^2, ROC AUC 1/2, macro F1 (2 p_max / (1 + p_max)) / 4 (up to the folds' shares)
    _, y = datasets.load("car")
    p = y.value_counts(normalize=True).to_numpy()
    (baseline,) = [line for line in result.output.splitlines() if "baseline (majority)" in line]
    cells = [c.strip() for c in baseline.split("│")[1:-1]]
    accuracy, _, log_loss, brier, auc, f1 = cells[1:7]
    assert float(accuracy.split(" ± ")[0]) == pytest.approx(p.max(), abs=1e-3)
    assert float(log_loss) == pytest.approx(-(p * np.log(p)).sum(), abs=2e-3)
    assert float(brier) == pytest.approx(1 - (p**2).sum(), abs=2e-3)
    assert float(auc) == 0.5
    assert float(f1) == pytest.approx(2 * p.max() / (1 + p.max()) / len(p), abs=2e-3)


def test_compare_numeric_csv_runs_the_count_models_too(iris_csv):
    result = run("compare", iris_csv, "--target", "species", "--folds", "3")
    assert result.exit_code == 0, result.output
    assert NEEDS_COUNTS not in result.output
    rows = {r[0]: r for r in _table_cells(result.output) if len(r) > 2}
    # iris has 50 rows per class; three stratified folds deal each class 17, 17 and 16 test
    # rows, in turn, so every fold tests 50 rows and trains on 34 of one class, 33 of the
    # others: the majority baseline picks the class with 16 test rows, right on 16 / 50 = 0.32
    # of every fold
    assert rows["baseline (majority)"][1] == "0.320 ± 0.000"
    for name in ("multinomial-nb", "bernoulli-nb"):  # the count models print an accuracy
        assert 0.0 < float(rows[name][1].split(" ± ")[0]) <= 1.0


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


# -------------------------------------------------------------------------- small data, folds
def _write(path, text):
    path.write_text(text)
    return path


@pytest.fixture
def twelve_rows(tmp_path):
    # 3 rows of class a, 9 of class b: 10 folds requested, 9 used
    lines = ["x,c"] + [f"{v},a" for v in (0.1, 0.2, 0.3)] + [f"{v},b" for v in range(9)]
    return _write(tmp_path / "twelve.csv", "\n".join(lines) + "\n")


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_evaluate_uses_the_folds_it_says(twelve_rows):
    result = run("evaluate", twelve_rows, "-t", "c")
    assert result.exit_code == 0, result.output
    assert "using 9 folds" in result.output
    assert "9-fold cross-validation" in flat(result.output)
    assert "10-fold" not in result.output


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_compare_on_eight_rows_falls_back_instead_of_na(tmp_path):
    lines = ["x,c"] + [f"{i * 1.5},{'ab'[i % 2]}" for i in range(8)]
    data = _write(tmp_path / "eight.csv", "\n".join(lines) + "\n")
    result = run("compare", data, "-t", "c", "--format", "csv")
    assert result.exit_code == 0, result.output
    table = pd.read_csv(__import__("io").StringIO(result.stdout))
    scored = table.set_index("model")
    assert np.isfinite(scored.loc["naive-bayes", "accuracy"])
    assert np.isfinite(scored.loc["baseline (majority)", "accuracy"])
    assert "using 4 folds" in result.output
    text = run("compare", data, "-t", "c").output
    assert "4-fold cross-validation" in flat(text)


def test_header_only_csv_is_an_error(tmp_path):
    data = _write(tmp_path / "header.csv", "a,b,c\n")
    for command in ("compare", "evaluate", "fit"):
        args = [command, data, "-t", "c"] + (["-o", tmp_path / "m.bk"] if command == "fit" else [])
        result = run(*args)
        assert result.exit_code == 1, result.output
        assert "header (3 columns) but no data rows" in flat(result.output)
        assert "header.csv" in flat(result.output)


def test_empty_file_is_named(tmp_path):
    data = _write(tmp_path / "empty.csv", "")
    result = run("evaluate", data, "--target", "y")
    assert result.exit_code == 1
    assert "empty.csv is empty" in flat(result.output)


def test_latin1_file_is_read_with_a_note(tmp_path):
    data = tmp_path / "latin.csv"
    rows = ["city,t,c"] + [
        f"{'Zürich' if i % 2 else 'Köln'},{i * 0.7},{'ab'[i % 2]}" for i in range(12)
    ]
    data.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    result = run("schema", data, "-t", "c")
    assert result.exit_code == 0, result.output
    assert "not valid UTF-8" in flat(result.output)
    assert "latin-1" in result.output
    assert "Zürich" in result.output
    strict = run("schema", data, "-t", "c", "--encoding", "utf-8")
    assert strict.exit_code == 1
    assert "is not valid utf-8" in flat(strict.output)


# -------------------------------------------------------------------------- column kinds
def _schema_kinds(*args):
    result = run("schema", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = __import__("json").loads(result.stdout)
    return {r["column"]: r for r in rows}


def test_question_mark_is_missing_and_keeps_a_column_numeric(tmp_path):
    # hepatitis: AGE with a '?' became a 50-category feature
    ages = [str(20 + i) for i in range(59)] + ["?"]
    lines = ["AGE,class"] + [f"{a},{'ab'[i % 2]}" for i, a in enumerate(ages)]
    data = _write(tmp_path / "hep.csv", "\n".join(lines) + "\n")
    kinds = _schema_kinds(data, "-t", "class")
    assert kinds["AGE"]["kind"] == "numeric"
    assert kinds["AGE"]["missing"] == 1


def test_extra_missing_marks(tmp_path):
    lines = ["v,class"] + [f"{i * 0.5},a" for i in range(10)] + ["unknown,b", "3.5,b"]
    data = _write(tmp_path / "na.csv", "\n".join(lines) + "\n")
    text = run("schema", data, "-t", "class")
    assert "holds numbers but also text" in flat(text.output)  # not silent
    kinds = _schema_kinds(data, "-t", "class", "--na-values", "unknown")
    assert kinds["v"]["kind"] == "numeric"
    assert kinds["v"]["missing"] == 1


def test_integer_codes_are_categorical_and_written_decimals_numeric(tmp_path):
    # adult: native-country (42 integer codes) became Gaussian, education-num (16 whole
    # numbers written as 13.0) categorical
    rng = np.random.default_rng(0)
    n = 42 * 25
    frame = pd.DataFrame(
        {
            "country": rng.permutation(np.arange(n) % 42),
            "edu_num": [f"{v:.1f}" for v in rng.integers(1, 17, n)],
            "age": rng.integers(17, 91, n),
            "target": rng.choice(["<=50K", ">50K"], n),
        }
    )
    data = tmp_path / "adult.csv"
    frame.to_csv(data, index=False)
    kinds = _schema_kinds(data, "-t", "target")
    assert kinds["country"]["kind"] == "categorical"
    assert kinds["edu_num"]["kind"] == "numeric"
    assert kinds["age"]["kind"] == "numeric"  # 74 distinct values: not codes
    over = _schema_kinds(
        data, "-t", "target", "--numeric", "country", "--categorical", "edu_num,age"
    )
    assert [over[c]["kind"] for c in ("country", "edu_num", "age")] == [
        "numeric",
        "categorical",
        "categorical",
    ]
    assert over["country"]["why"] == "--numeric"


def test_kind_options_name_unknown_and_conflicting_columns(melon_csv):
    result = run("schema", melon_csv, "--categorical", "colour")
    assert result.exit_code == 2
    assert "unknown columns ['colour']" in flat(result.output)
    result = run("schema", melon_csv, "--categorical", "sugar", "--numeric", "sugar")
    assert result.exit_code == 2
    assert "both --categorical and --numeric" in flat(result.output)


def test_declared_numeric_text_names_cell_column_and_line(melon_csv):
    result = run("fit", melon_csv, "-t", "ripe", "--numeric", "color", "-o", "m.bk")
    assert result.exit_code == 1
    text = flat(result.output)
    assert "column 'color' is numeric but holds 'green' (line 2)" in text


def test_count_models_use_the_cli_schema_not_codes(tmp_path):
    # integer-coded categories: the count models must not read the codes as counts
    lines = ["colour,size,class"] + [f"{i % 3},{i % 4},{'ab'[i % 2]}" for i in range(40)]
    data = _write(tmp_path / "codes.csv", "\n".join(lines) + "\n")
    result = run("fit", data, "-t", "class", "-m", "multinomial-nb", "-o", tmp_path / "m.bk")
    assert result.exit_code == 2
    assert "columns ['colour', 'size'] are categorical" in flat(result.output)
    result = run("compare", data, "-t", "class", "--folds", "3")
    assert result.exit_code == 0, result.output
    lines_out = {ln.split()[1]: ln for ln in result.output.splitlines() if "│" in ln}
    assert NEEDS_COUNTS in lines_out["multinomial-nb"]
    declared = run(
        "fit",
        data,
        "-t",
        "class",
        "-m",
        "multinomial-nb",
        "--numeric",
        "colour,size",
        "-o",
        tmp_path / "m.bk",
    )
    assert declared.exit_code == 0, declared.output


# -------------------------------------------------------------------------- --param
def test_param_sets_a_hyperparameter(tmp_path):
    model_path = tmp_path / "m.bk"
    result = run("fit", "car", "--param", "alpha=0.5", "-p", "discretize=none", "-o", model_path)
    assert result.exit_code == 0, result.output
    model = bayeskit.load(model_path)
    assert model.alpha == 0.5
    assert model.discretize is None


def test_param_unknown_name_lists_the_valid_ones():
    result = run("evaluate", "car", "--param", "alph=0.5")
    assert result.exit_code == 2
    text = flat(result.output)
    assert "unknown parameter 'alph'" in text
    assert "alpha" in text
    assert "var_smoothing" in text


def test_param_bad_value_is_checked_by_the_model(tmp_path):
    result = run("fit", "car", "--param", "alpha=-1", "-o", tmp_path / "m.bk")
    assert result.exit_code == 1
    assert "alpha" in flat(result.output)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.5", 0.5),
        ("3", 3),
        ("true", True),
        ("False", False),
        ("none", None),
        ("[0.2, 0.8]", [0.2, 0.8]),
        ("mdl", "mdl"),
        ('"5"', "5"),
        ("__import__('os')", "__import__('os')"),  # text, never evaluated
    ],
)
def test_param_values_are_parsed_safely(text, value):
    from bayeskit.cli import _parse_value

    assert _parse_value(text) == value
    assert type(_parse_value(text)) is type(value)


# -------------------------------------------------------------------------- predict extras
def test_predict_keeps_identifier_columns(tmp_path, melon_csv):
    model_path = tmp_path / "melon.bk"
    assert run("fit", melon_csv, "-t", "ripe", "-o", model_path).exit_code == 0
    frame = pd.read_csv(melon_csv)
    frame.insert(0, "id", [f"m{i}" for i in range(len(frame))])
    data = tmp_path / "with_id.csv"
    frame.to_csv(data, index=False)
    result = run("predict", model_path, data, "--keep", "id", "--target", "ripe")
    assert result.exit_code == 0, result.output
    out = pd.read_csv(__import__("io").StringIO(result.stdout))
    assert list(out.columns) == ["id", "prediction"]
    assert out["id"].tolist() == frame["id"].tolist()
    # a kept column that is also a feature is still used as one
    both = run("predict", model_path, data, "--keep", "id,color", "--target", "ripe")
    assert both.exit_code == 0, both.output
    out = pd.read_csv(__import__("io").StringIO(both.stdout))
    assert list(out.columns) == ["id", "color", "prediction"]


def test_predict_notes_unseen_categories_per_column(tmp_path, melon_csv):
    model_path = tmp_path / "melon.bk"
    assert run("fit", melon_csv, "-t", "ripe", "-o", model_path).exit_code == 0
    frame = pd.read_csv(melon_csv).drop(columns=["ripe"])
    frame.loc[[0, 1], "color"] = "purple"
    frame.loc[2, "root"] = "square"
    data = tmp_path / "unseen.csv"
    frame.to_csv(data, index=False)
    result = run("predict", model_path, data)
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "not seen in training, treated as missing" in text
    assert "'color': 2 cell(s) ('purple')" in text
    assert "'root': 1 cell(s) ('square')" in text


def test_missing_class_rows_dropped_with_one_note(tmp_path, melon_csv):
    frame = pd.read_csv(melon_csv, dtype=str)
    frame.loc[[3, 7], "ripe"] = ""
    data = tmp_path / "gaps.csv"
    frame.to_csv(data, index=False)
    note = "dropped 2 row(s) whose class 'ripe' is missing (line 5, line 9)"
    fitted = run("fit", data, "-t", "ripe", "-o", tmp_path / "m.bk")
    assert fitted.exit_code == 0, fitted.output
    assert note in flat(fitted.output)
    assert "on 15 rows" in fitted.output
    evaluated = run("evaluate", data, "-t", "ripe", "-k", "3")
    assert evaluated.exit_code == 0, evaluated.output
    assert note in flat(evaluated.output)


# -------------------------------------------------------------------------- reports
def test_compare_has_baseline_legend_and_test():
    result = run("compare", "watermelon3", "--folds", "3")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "baseline (majority)" in text
    assert "± is" in text or "mean ± standard deviation" in text
    assert "numba compilation is excluded" in text
    assert "Nadeau & Bengio" in text
    assert "np." not in text


def test_compare_machine_readable_formats():
    as_json = run("compare", "iris", "--folds", "3", "--format", "json")
    assert as_json.exit_code == 0, as_json.output
    rows = {r["model"]: r for r in __import__("json").loads(as_json.stdout)}
    assert set(rows) == {"baseline (majority)", *MODELS}
    assert 0.3 <= rows["baseline (majority)"]["accuracy"] <= 0.34  # 50 per class
    for key in ("roc_auc", "f1_macro", "p_vs_best", "seconds"):
        assert key in rows["naive-bayes"]
    as_csv = run("compare", "iris", "--folds", "3", "--format", "csv")
    table = pd.read_csv(__import__("io").StringIO(as_csv.stdout))
    assert table["model"].tolist()[0] == "baseline (majority)"
    assert run("compare", "iris", "--format", "xml").exit_code == 2


def test_evaluate_reports_per_class_precision_recall_and_json():
    result = run("evaluate", "iris", "-k", "3")
    assert result.exit_code == 0, result.output
    for word in ("ROC AUC", "F1", "per class", "precision", "recall"):
        assert word in result.output
    # the printed figures against what the printed confusion matrix implies: three folds of 50
    # rows, so the mean accuracy is its diagonal over 150; precision and recall of class k are
    # cm[k, k] over column k and over row k
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in result.output.splitlines()]
    classes = ["setosa", "versicolor", "virginica"]
    cm = np.array([[int(v) for v in r[1:]] for r in cells if len(r) == 4 and r[0] in classes])
    per_class = {r[0]: r[1:] for r in cells if len(r) == 5 and r[0] in classes}
    assert cm.shape == (3, 3)
    assert cm.sum(axis=1).tolist() == [50, 50, 50]
    (mean,) = [r for r in cells if r and r[0] == "mean"]
    assert mean[2].split(" ± ")[0] == f"{np.trace(cm) / 150:.3f}"
    # each fold's number and its test rows print as integers (a fold of 50 rows, not 50.0)
    assert [r[:2] for r in cells if r and r[0] in ("1", "2", "3")] == [
        ["1", "50"], ["2", "50"], ["3", "50"]
    ]  # fmt: skip
    for k, name in enumerate(classes):
        precision, recall, f1, rows = per_class[name]
        p, r = cm[k, k] / cm[:, k].sum(), cm[k, k] / cm[k].sum()
        assert (precision, recall) == (f"{p:.3f}", f"{r:.3f}")
        assert f1 == f"{2 * p * r / (p + r):.3f}"  # their harmonic mean
        assert rows == "50"
    doc = __import__("json").loads(run("evaluate", "iris", "-k", "3", "-f", "json").stdout)
    assert doc["n_splits"] == 3
    assert [r["class"] for r in doc["per_class"]] == ["setosa", "versicolor", "virginica"]
    assert 0 <= doc["per_class"][0]["recall"] <= 1
    assert len(doc["folds"]) == 3
    as_csv = run("evaluate", "iris", "-k", "3", "-f", "csv")
    table = pd.read_csv(__import__("io").StringIO(as_csv.stdout))
    assert table["fold"].tolist() == ["1", "2", "3", "mean", "std"]
    assert {"accuracy", "log_loss", "roc_auc", "f1_macro"} <= set(table.columns)


# -------------------------------------------------------------------------- help text
def test_help_lists_models_and_shows_flags_plainly():
    text = flat(run("evaluate", "--help").output)
    for name in MODELS:
        assert name in text
    assert "bayeskit.classifiers.MODELS" not in text
    predict_help = run("predict", "--help").output
    proba_line = next(line for line in predict_help.splitlines() if "--proba" in line)
    assert "<bool>" not in proba_line
    usage = next(line for line in predict_help.splitlines() if "Usage" in line)
    assert "MODEL" in usage
    assert "DATA" in usage
    assert "data" not in usage.replace("DATA", "")


def test_compare_param_applies_to_the_models_that_have_it():
    result = run("compare", "iris", "-k", "3", "-p", "n_neighbors=3", "-f", "json")
    assert result.exit_code == 0, result.output
    rows = {r["model"]: r for r in __import__("json").loads(result.stdout)}
    assert rows["knn-bayes"]["note"] == ""
    bad = run("compare", "iris", "-p", "bogus=1")
    assert bad.exit_code == 2
    assert "unknown parameter 'bogus'" in flat(bad.output)
    assert "n_neighbors" in flat(bad.output)


# ---------------------------------------------------------------- networks
def _u_index(net, parents, u) -> tuple:
    """The index of parent configuration ``u`` (state names) in a CPT's leading axes."""
    return tuple(net.states(p).index(v) for p, v in zip(parents, u, strict=True))


def test_network_learn_show_and_fit(tmp_path):
    from bayeskit.networks import read_bif, read_xmlbif

    asia = read_bif(Path(__file__).parent / "networks" / "data" / "asia.bif.gz")
    data = tmp_path / "asia.csv"
    asia.sample(3000, seed=1).to_csv(data, index=False)
    learned = tmp_path / "learned.bif"
    result = run("network", "learn", data, "-o", learned, "--score", "bic", "--tabu", "3",
                 "--max-parents", "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "learned a network of 8 nodes" in result.output
    net = read_bif(learned)
    assert set(net.nodes) == set(asia.nodes)
    assert all(len(net.dag.parents(n)) <= 2 for n in net.nodes)
    shown = run("network", "show", learned, "--plot", tmp_path / "dag.png")
    assert shown.exit_code == 0, shown.output
    assert "8 nodes" in shown.output
    assert (tmp_path / "dag.png").stat().st_size > 5_000
    fitted = tmp_path / "fitted.xml.gz"
    result = run("network", "fit", data, "--structure", learned, "-o", fitted,
                 "--estimator", "lidstone", "--alpha", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert read_xmlbif(fitted).dag == net.dag
    # the file holds Laplace's estimates (Lidstone, alpha 1), counted here row by row:
    # P(x | u) = (N(u, x) + 1) / (N(u) + r) for each parent configuration u
    written, rows = read_xmlbif(fitted), pd.read_csv(data, dtype=str)
    for node in written.nodes:
        parents = list(written.dag.parents(node))
        r = len(written.states(node))
        for u in itertools.product(*(written.states(p) for p in parents)):
            match = rows[list(parents)].eq(list(u)).all(axis=1) if parents else rows.index >= 0
            seen = rows.loc[match, node]
            want = [((seen == x).sum() + 1) / (len(seen) + r) for x in written.states(node)]
            np.testing.assert_allclose(written.cpt(node)[_u_index(written, parents, u)], want)
    tree = tmp_path / "tree.bif"
    assert run("network", "learn", data, "-o", tree, "--tree").exit_code == 0
    assert len(read_bif(tree).dag.edges) <= 7
    # --start empty --tabu 0 is the classic greedy climb, as in the library
    from bayeskit.networks import learn_structure

    greedy = tmp_path / "greedy.bif"
    result = run("network", "learn", data, "-o", greedy, "--start", "empty", "--tabu", "0")
    assert result.exit_code == 0, result.output
    states = {n: asia.states(n) for n in asia.nodes}
    frame = pd.read_csv(data, dtype=str)
    expected = learn_structure(frame, "bic", start="empty", tabu_length=0, states=states)
    assert set(read_bif(greedy).dag.edges) == set(expected.edges)
    refused = run("network", "learn", data, "-o", greedy, "--start", "nowhere")
    assert refused.exit_code != 0
    assert "--start must be auto, ges, tree or empty" in refused.output


def test_network_learn_in_chunks(tmp_path):
    # --chunksize: the same network as DATA read whole, from its distinct rows or from a pass
    # per climbing step; the CPTs counted chunk by chunk
    from bayeskit.networks import read_bif

    asia = read_bif(Path(__file__).parent / "networks" / "data" / "asia.bif.gz")
    data = tmp_path / "asia.csv"
    asia.sample(3000, seed=2).to_csv(data, index=False)
    whole, parts = tmp_path / "whole.bif", tmp_path / "parts.bif"
    assert run("network", "learn", data, "-o", whole).exit_code == 0
    for limit in ("2000000", "0"):
        result = run("network", "learn", data, "-o", parts, "--chunksize", "700",
                     "--max-distinct-rows", limit)  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "in chunks of 700 rows" in flat(result.output)
        a, b = read_bif(whole), read_bif(parts)
        assert a.dag == b.dag
        for node in a.nodes:
            np.testing.assert_allclose(a.cpt(node), b.cpt(node), atol=1e-12)
    tree = run("network", "learn", data, "-o", parts, "--tree", "--chunksize", "1000")
    assert tree.exit_code == 0, tree.output
    wide = tmp_path / "wide.csv"
    pd.DataFrame({"x": np.arange(200), "y": ["a", "b"] * 100}).to_csv(wide, index=False)
    result = run("network", "learn", wide, "-o", parts, "--chunksize", "50")
    assert result.exit_code != 0
    # refused at the end of the states' pass (text in a later chunk would make it a column of
    # text, as DATA read whole), or once it shows more than MAX_PENDING_VALUES distinct values
    assert "column 'x' has 200 distinct values, whole numbers" in flat(result.output)
    bad = run("network", "learn", "asia", "-o", parts, "--chunksize", "50")
    assert bad.exit_code != 0
    assert "reads a file" in flat(bad.output)
    assert run("network", "learn", data, "-o", parts, "--chunksize", "0").exit_code != 0
    alone = run("network", "learn", data, "-o", parts, "--max-distinct-rows", "0")
    assert alone.exit_code != 0
    assert "goes with --chunksize" in flat(alone.output)
    # a Parquet file of numbers and dates: states named as when the file is read whole
    frame = asia.sample(2000, seed=4)
    frame["either"] = (frame["either"] == "yes").astype(float)
    frame["asia"] = np.where(frame["asia"] == "yes", pd.Timestamp("2020-01-01"),
                             pd.Timestamp("2021-06-30"))  # fmt: skip
    frame.to_parquet(tmp_path / "mixed.parquet", row_group_size=500)
    whole = tmp_path / "mixed_whole.bif"
    assert run("network", "learn", tmp_path / "mixed.parquet", "-o", whole).exit_code == 0
    result = run("network", "learn", tmp_path / "mixed.parquet", "-o", parts, "--chunksize",
                 "300", "--max-distinct-rows", "0")  # fmt: skip
    assert result.exit_code == 0, result.output
    a, b = read_bif(whole), read_bif(parts)
    assert a.states("either") == b.states("either") == ("0.0", "1.0")
    assert a.states("asia") == b.states("asia")
    assert a.dag == b.dag


def test_network_query_prints_the_posterior(tmp_path):
    import json

    from bayeskit.networks import VariableElimination, read_bif

    path = Path(__file__).parent / "networks" / "data" / "asia.bif.gz"
    result = run("network", "query", path, "--evidence", "xray=yes,smoke=no", "--target", "lung",
                 "--target", "tub", "--format", "json")  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    ve = VariableElimination(read_bif(path))
    lung = ve.query("lung", {"xray": "yes", "smoke": "no"}).values
    got = [r["probability"] for r in rows if r["node"] == "lung"]
    np.testing.assert_allclose(got, lung, atol=1e-12)
    table = run("network", "query", path, "-e", "xray=yes", "-t", "lung")
    assert table.exit_code == 0, table.output
    assert "P(evidence)" in table.output
    # the printed figures against a brute-force sum of the joint over all 256 assignments
    # (Lauritzen & Spiegelhalter's asia: P(xray=yes) = 0.11029)
    import itertools
    import re

    net = read_bif(path)
    joint = {}
    for values in itertools.product(*(net.states(n) for n in net.nodes)):
        assignment = dict(zip(net.nodes, values, strict=True))
        if assignment["xray"] == "yes":
            joint[assignment["lung"]] = joint.get(assignment["lung"], 0.0) + net.probability(
                assignment
            )
    evidence = sum(joint.values())
    printed = re.search(r"P\(evidence\) = ([0-9.]+) \(log (-[0-9.]+)\)", table.output)
    assert float(printed.group(1)) == pytest.approx(evidence, abs=5e-6)
    assert float(printed.group(2)) == pytest.approx(np.log(evidence), abs=5e-7)
    for state in ("yes", "no"):
        (row,) = [line for line in table.output.splitlines() if f"│ lung │ {state:>5} │" in line]
        assert row.split("│")[3].strip() == f"{joint[state] / evidence:.3f}"
    bad = run("network", "query", path, "-e", "xray", "-t", "lung")
    assert bad.exit_code != 0
    assert "NODE=STATE" in bad.output
    unknown = run("network", "query", path, "-e", "xray=perhaps", "-t", "lung")
    assert unknown.exit_code != 0
    assert "no such state" in unknown.output


def test_network_commands_refuse_bad_input(tmp_path):
    bad = tmp_path / "bad.bif"
    bad.write_text("network n { }\nvariable a { type discrete [ 2 ] { x, y }\n")
    result = run("network", "show", bad)
    assert result.exit_code == 1
    assert "line 2" in result.output
    assert run("network", "show", tmp_path / "none.bif").exit_code != 0
    wide = tmp_path / "wide.csv"
    pd.DataFrame({"x": np.arange(200), "y": ["a", "b"] * 100}).to_csv(wide, index=False)
    result = run("network", "learn", wide, "-o", tmp_path / "w.bif")
    assert result.exit_code != 0
    assert "200 distinct values" in result.output


def test_network_fit_by_em_with_missing_values_and_a_latent_node(tmp_path):
    from bayeskit.networks import fit_em, read_bif

    asia_path = Path(__file__).parent / "networks" / "data" / "asia.bif.gz"
    asia = read_bif(asia_path)
    rows = asia.sample(2000, seed=3).astype(object)
    rows = rows.mask(np.random.default_rng(4).random(rows.shape) < 0.2).drop(columns=["tub"])
    data = tmp_path / "holed.csv"
    rows.to_csv(data, index=False)
    out = tmp_path / "em.bif"
    result = run("network", "fit", data, "-s", asia_path, "-o", out, "--estimator", "lidstone",
                 "--seed", "5", "--max-iter", "30")  # fmt: skip
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "by EM" in text
    assert "latent nodes: 1" in text
    states = {n: asia.states(n) for n in asia.nodes if n != "tub"}
    expected = fit_em(asia.dag, pd.read_csv(data, dtype=str), states=states,
                      latent={"tub": asia.states("tub")}, estimator="lidstone", seed=5,
                      max_iter=30)  # fmt: skip
    got = read_bif(out)
    for node in asia.nodes:
        np.testing.assert_allclose(got.cpt(node), expected.network.cpt(node), atol=1e-6)
    counted = run("network", "fit", data, "-s", asia_path, "-o", out, "--method", "count")
    assert counted.exit_code != 0  # counting needs complete data: a named refusal
    assert "use --method em" in flat(counted.output)
    bad = run("network", "fit", data, "-s", asia_path, "-o", out, "--method", "magic")
    assert bad.exit_code != 0
    assert "--method must be" in flat(bad.output)
