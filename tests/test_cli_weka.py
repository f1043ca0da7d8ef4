"""What users coming from Weka asked of the command line: `compare --models`, a separate test
file (`--test`, Weka's -T), cost-sensitive evaluation (`--cost`), and `show` / `explain` of a
saved classifier."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import bayeskit
from bayeskit import NaiveBayes
from bayeskit.classifiers import MODELS
from bayeskit.cli import BASELINE, EXPLAINED, app
from bayeskit.data import datasets

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def records(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -------------------------------------------------------------------------- compare --models
def test_compare_runs_the_models_named_in_their_order_after_the_baseline():
    result = run("compare", "iris", "-k", "2", "--models", "tan,naive-bayes", "-m", "kdb",
                 "--models", "tan", "-f", "json")  # fmt: skip
    assert [r["model"] for r in records(result)] == [BASELINE, "tan", "naive-bayes", "kdb"]


def test_compare_models_table_counts_the_models_it_ran():
    result = run("compare", "iris", "-k", "2", "--models", "naive-bayes")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "1 model and a baseline on iris: 2-fold cross-validation" in text
    assert "tan" not in text.split()
    assert BASELINE in text


def test_compare_unknown_model_is_an_error_listing_the_valid_names():
    result = run("compare", "iris", "--models", "naive-bayes,j48")
    assert result.exit_code == 2
    text = flat(result.output)
    assert "unknown model 'j48'" in text
    assert all(name in text for name in MODELS)
    assert "baseline is always included" in text


def test_compare_params_are_checked_against_the_models_named():
    result = run("compare", "iris", "--models", "naive-bayes", "-p", "n_neighbors=3")
    assert result.exit_code == 2
    assert "unknown parameter 'n_neighbors' for 'naive-bayes'" in flat(result.output)


def test_compare_of_count_models_only_on_categorical_data_is_refused():
    result = run("compare", "car", "--models", "multinomial-nb")
    assert result.exit_code == 2
    assert "multinomial-nb needs numeric counts" in flat(result.output)


# -------------------------------------------------------------------------- --test FILE
@pytest.fixture
def iris_halves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short file names in titles, which would wrap
    X, y = datasets.load("iris")
    frame = X.assign(species=y)
    train, test = Path("train.csv"), Path("test.csv")
    frame.iloc[::2].to_csv(train, index=False)
    frame.iloc[1::2].to_csv(test, index=False)
    return train, test


@pytest.fixture
def zero_one_costs(tmp_path):
    # rows: predicted, columns: true, labels in another order than the classes
    path = tmp_path / "costs.csv"
    path.write_text(
        ",virginica,setosa,versicolor\nvirginica,0,1,1\nsetosa,1,0,1\nversicolor,1,1,0\n"
    )
    return path


def _holdout_accuracy(train, test):
    a, b = pd.read_csv(train), pd.read_csv(test)
    model = NaiveBayes().fit(a.drop(columns="species"), a["species"])
    return float(np.mean(model.predict(b.drop(columns="species")) == b["species"]))


def test_evaluate_test_fits_on_data_and_scores_on_the_file(iris_halves):
    train, test = iris_halves
    doc = json.loads(run("evaluate", train, "-t", "species", "--test", test, "-f", "json").stdout)
    assert doc["evaluation"] == "test set"
    assert (doc["train_rows"], doc["test_rows"]) == (75, 75)
    assert doc["scores"]["accuracy"] == pytest.approx(_holdout_accuracy(train, test))
    assert sum(map(sum, doc["confusion_matrix"])) == 75
    table = run("evaluate", train, "-t", "species", "--test", test)
    assert table.exit_code == 0, table.output
    text = flat(table.output)
    assert f"naive-bayes fitted on {train}, scored on {test} (test set)" in text
    assert "fold" not in text
    assert "±" not in text
    assert "per class (test set predictions)" in text


def test_test_file_columns_are_matched_by_name(iris_halves, tmp_path):
    train, test = iris_halves
    shuffled = pd.read_csv(test)
    shuffled = shuffled[shuffled.columns[::-1]].assign(id=range(len(shuffled)))
    other = tmp_path / "shuffled.csv"
    shuffled.to_csv(other, index=False)
    result = run("evaluate", train, "-t", "species", "--test", other, "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scores"]["accuracy"] == pytest.approx(
        _holdout_accuracy(train, test)
    )
    assert "ignored the columns of" in flat(result.output)
    assert "['id']" in result.output
    shuffled.drop(columns=["petal_width"]).to_csv(other, index=False)
    lacking = run("evaluate", train, "-t", "species", "--test", other)
    assert lacking.exit_code == 2
    assert "lacks the columns ['petal_width'] of DATA" in flat(lacking.output)
    shuffled.drop(columns=["species"]).to_csv(other, index=False)
    classless = run("evaluate", train, "-t", "species", "--test", other)
    assert classless.exit_code == 2
    assert "has no class column 'species'" in flat(classless.output)


def test_test_file_columns_get_the_training_kinds(iris_halves, tmp_path):
    train, _ = iris_halves
    # a few whole numbers: read alone, the rule would make these columns categorical
    small = tmp_path / "small.csv"
    small.write_text(
        "sepal_length,sepal_width,petal_length,petal_width,species\n"
        "5,3,1,0,setosa\n6,3,4,1,versicolor\n7,3,6,2,virginica\n"
    )
    doc = json.loads(run("evaluate", train, "-t", "species", "--test", small, "-f", "json").stdout)
    assert doc["scores"]["accuracy"] == 1.0
    bad = tmp_path / "bad.csv"
    bad.write_text(small.read_text().replace("6,3,4,1", "six,3,4,1"))
    refused = run("evaluate", train, "-t", "species", "--test", bad)
    assert refused.exit_code == 1
    assert f"holds 'six' (line 3 of {bad})" in flat(refused.output)


def test_compare_test_has_one_split_and_no_t_test(iris_halves):
    train, test = iris_halves
    args = ("compare", train, "-t", "species", "--test", test, "-m", "naive-bayes,tan")
    rows = records(run(*args, "-f", "json"))
    assert [r["model"] for r in rows] == [BASELINE, "naive-bayes", "tan"]
    assert not {"p_vs_best", "t_vs_best", "accuracy_std"} & set(rows[1])
    assert rows[1]["accuracy"] == pytest.approx(_holdout_accuracy(train, test))
    text = flat(run(*args).output)
    assert f"2 models and a baseline fitted on {train}, scored on {test} (test set)" in text
    assert "p vs best" not in text
    assert "-fold" not in text


def test_folds_with_test_are_noted_as_unused(iris_halves):
    train, test = iris_halves
    result = run("evaluate", train, "-t", "species", "--test", test, "-k", "3")
    assert result.exit_code == 0, result.output
    assert "--folds unused with --test" in flat(result.output)
    assert "unused" not in run("evaluate", train, "-t", "species", "--test", test).output


# -------------------------------------------------------------------------- --cost FILE
def test_evaluate_cost_of_zero_one_costs_is_the_error_rate(iris_halves, zero_one_costs):
    train, _ = iris_halves
    args = ("evaluate", train, "-t", "species", "-k", "3", "--cost", zero_one_costs)
    doc = json.loads(run(*args, "-f", "json").stdout)
    for fold in doc["folds"]:
        assert fold["cost"] == pytest.approx(1 - fold["accuracy"])
        assert fold["total_cost"] == pytest.approx(fold["cost"] * fold["test_rows"])
    assert doc["total_cost"] == pytest.approx(sum(f["total_cost"] for f in doc["folds"]))
    assert doc["mean"]["cost"] == pytest.approx(1 - doc["mean"]["accuracy"])
    text = flat(run(*args).output)
    assert f"total cost: {doc['total_cost']:g} over 75 test rows" in text
    assert "rows: predicted class, columns: true class" in text
    table = pd.read_csv(io.StringIO(run(*args, "-f", "csv").stdout))
    assert table["fold"].tolist() == ["1", "2", "3", "mean", "std", "total"]
    assert table["total_cost"].iloc[-1] == pytest.approx(doc["total_cost"])


def test_a_costly_miss_changes_the_decisions(iris_halves, tmp_path):
    train, test = iris_halves
    costs = tmp_path / "costs.csv"
    # predicting setosa or versicolor for a virginica costs 20
    costs.write_text(
        ",setosa,versicolor,virginica\nsetosa,0,1,20\nversicolor,1,0,20\nvirginica,1,1,0\n"
    )
    args = ("evaluate", train, "-t", "species", "--test", test, "-f", "json")
    plain = json.loads(run(*args).stdout)
    costed = json.loads(run(*args, "--cost", costs).stdout)
    missed = lambda doc: sum(doc["confusion_matrix"][2][:2])  # noqa: E731
    assert missed(costed) < missed(plain)
    cm = np.array(costed["confusion_matrix"])  # rows: true class; the costs: rows predicted
    lam = np.array(costed["cost_matrix"]["matrix"])
    assert costed["total_cost"] == pytest.approx((cm * lam.T).sum())
    assert costed["scores"]["cost"] == pytest.approx(costed["total_cost"] / 75)


def test_compare_cost_columns_in_every_format(iris_halves, zero_one_costs):
    train, test = iris_halves
    args = ("compare", train, "-t", "species", "--test", test, "-m", "naive-bayes")
    args += ("--cost", zero_one_costs)
    table = pd.read_csv(io.StringIO(run(*args, "-f", "csv").stdout)).set_index("model")
    np.testing.assert_allclose(table["cost"], 1 - table["accuracy"], atol=1e-12)
    np.testing.assert_allclose(table["total_cost"], 75 * table["cost"], atol=1e-9)
    rows = records(run(*args, "-f", "json"))
    assert rows[1]["total_cost"] == pytest.approx(table.loc["naive-bayes", "total_cost"])
    text = flat(run(*args).output)
    assert "total cost" in text
    assert "mean cost per test row" in text
    folds = records(run("compare", train, "-t", "species", "-k", "3", "-m", "tan", "--cost",
                        zero_one_costs, "-f", "json"))  # fmt: skip
    assert folds[1]["cost"] == pytest.approx(1 - folds[1]["accuracy"])


def test_cost_file_errors(iris_halves, tmp_path):
    train, _ = iris_halves
    absent = run("evaluate", train, "-t", "species", "--cost", tmp_path / "none.csv")
    assert absent.exit_code == 2
    assert "no cost file at" in flat(absent.output)
    bad = tmp_path / "bad.csv"
    bad.write_text(",setosa,versicolor,virginia\nsetosa,0,1,1\nversicolor,1,0,1\nvirginia,1,1,0\n")
    refused = run("compare", train, "-t", "species", "--cost", bad)
    assert refused.exit_code == 1
    assert "missing classes: 'virginica'" in flat(refused.output)


# -------------------------------------------------------------------------- show MODEL
@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Models fitted by the command line: name -> file."""
    folder = tmp_path_factory.mktemp("models")
    files = {}
    for key, args in {
        "tan": ("car", "-m", "tan"),
        "aode": ("car", "-m", "aode"),
        "nb-iris": ("iris", "-m", "naive-bayes"),
        "gauss-iris": ("iris", "-m", "naive-bayes", "-p", "discretize=none"),
        "multinomial": ("iris", "-m", "multinomial-nb"),
    }.items():
        files[key] = folder / f"{key}.bkm"
        result = run("fit", *args, "-o", files[key])
        assert result.exit_code == 0, result.output
    return files


def test_show_a_tan_model(saved):
    model = bayeskit.load(saved["tan"])
    doc = json.loads(run("show", saved["tan"], "-f", "json").stdout)
    assert (doc["model"], doc["class"], doc["training_rows"]) == ("tan", "TAN", 1728)
    assert doc["parameters"]["alpha"] == model.alpha
    assert [c["class"] for c in doc["classes"]] == list(model.classes_)
    assert sum(c["prior"] for c in doc["classes"]) == pytest.approx(1.0)
    assert sum(c["rows"] for c in doc["classes"]) == 1728
    parents = {f["feature"]: tuple(f["parents"]) for f in doc["features"]}
    assert parents == {str(k): tuple(map(str, v)) for k, v in model.structure_.items()}
    assert doc["fitted"]["root_"] == model.root_
    result = run("show", saved["tan"])
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "tan (TAN), fitted on 1,728 rows, 6 features, 4 classes" in text
    assert "alpha=1.0" in text
    assert "the class is a parent of every feature" in text
    lines = [flat(line).split() for line in result.output.splitlines()]
    root = next(words for words in lines if words[:2] == [model.root_, "categorical"])
    assert root[-1] == "-"  # the root has the class as its only parent


def test_show_names_numeric_features_and_their_bins(saved):
    binned = json.loads(run("show", saved["nb-iris"], "-f", "json").stdout)
    kinds = {f["feature"]: f for f in binned["features"]}
    model = bayeskit.load(saved["nb-iris"])
    petal = model.schema_.column("petal_length")
    assert kinds["petal_length"]["kind"] == "numeric, binned"
    assert kinds["petal_length"]["bins"] == list(petal.categories)
    assert kinds["petal_length"]["cuts"] == pytest.approx(list(petal.cuts))
    gauss = json.loads(run("show", saved["gauss-iris"], "-f", "json").stdout)
    assert {f["kind"] for f in gauss["features"]} == {"numeric"}
    assert all(f["states"] is None for f in gauss["features"])
    csv = pd.read_csv(io.StringIO(run("show", saved["tan"], "-f", "csv").stdout))
    assert list(csv.columns) == ["feature", "kind", "states", "parents"]


def test_show_plot_draws_the_network(saved, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "tan.png"
    result = run("show", saved["tan"], "--plot", png)
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert "drew the network to" in flat(result.output)


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("aode", "model 'aode' (AODE) cannot be drawn: AODE is no single network"),
        ("multinomial", "model 'multinomial-nb' (MultinomialNaiveBayes) has no network form"),
    ],
)
def test_show_plot_of_a_model_without_a_network_form_is_refused(saved, tmp_path, key, words):
    result = run("show", saved[key], "--plot", tmp_path / "x.png")
    assert result.exit_code == 1
    assert words in flat(result.output)
    assert not (tmp_path / "x.png").exists()


def test_show_plot_of_gaussian_naive_bayes_draws_its_hybrid_network(saved, tmp_path):
    png = tmp_path / "g.png"
    result = run("show", saved["gauss-iris"], "--plot", png)
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_show_missing_model_file(tmp_path):
    result = run("show", tmp_path / "none.bkm")
    assert result.exit_code == 2
    assert "no model file at" in flat(result.output)


# -------------------------------------------------------------------------- explain
@pytest.fixture
def melon(tmp_path):
    X, y = datasets.load("watermelon3")
    X = X.select_dtypes(exclude="number")  # categorical features: every model takes them
    frame = X.assign(ripe=y)
    data = tmp_path / "melon.csv"
    frame.to_csv(data, index=False)
    model = tmp_path / "melon.bkm"
    assert run("fit", data, "-t", "ripe", "-m", "tan", "-o", model).exit_code == 0
    return data, model, frame


def test_explain_gives_the_evidence_for_the_predicted_class_largest_first(melon):
    data, path, frame = melon
    doc = json.loads(run("explain", path, data, "--row", "5,2", "-f", "json").stdout)
    assert [e["row"] for e in doc] == [5, 2]  # file lines: the header is line 1
    model = bayeskit.load(path)
    X = frame.drop(columns="ripe").iloc[[3, 0]]  # lines 5 and 2
    expected = model.explain(X)
    for k, entry in enumerate(doc):
        c = model.predict(X)[k]
        assert entry["predicted"] == c
        assert entry["probability"] == pytest.approx(model.predict_proba(X)[k].max())
        column = list(model.classes_).index(c)
        by_feature = dict(zip(model.schema_.names, expected[k, :, column], strict=True))
        got = [item["evidence"] for item in entry["evidence"]]
        assert got == pytest.approx([by_feature[item["feature"]] for item in entry["evidence"]])
        assert [abs(v) for v in got] == sorted((abs(v) for v in got), reverse=True)
        assert {item["value"] for item in entry["evidence"]} <= set(X.iloc[k])
    top = json.loads(run("explain", path, data, "-r", "2", "--top", "2", "-f", "json").stdout)
    assert [item["feature"] for item in top[0]["evidence"]] == [
        item["feature"] for item in doc[1]["evidence"][:2]
    ]


def test_explain_table_prints_zero_evidence_as_0(melon, tmp_path):
    data, path, frame = melon
    query = tmp_path / "query.csv"
    one = frame.drop(columns="ripe").iloc[[0]].copy()
    one.iloc[0, 0] = None  # a missing value carries no evidence
    one.to_csv(query, index=False)
    result = run("explain", path, query)
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if "(missing)" in ln)
    assert flat(line).split()[-1] == "0"
    assert "line 2: predicted" in flat(result.output)
    assert "largest first" in flat(result.output)
    csv = pd.read_csv(io.StringIO(run("explain", path, query, "-f", "csv").stdout))
    assert list(csv.columns) == ["row", "predicted", "probability", "feature", "value", "evidence"]
    assert csv["row"].unique().tolist() == [2]


def test_explain_unknown_row_names_the_lines(melon):
    data, path, _ = melon
    for bad in ("1", "19", "x"):
        result = run("explain", path, data, "--row", bad)
        assert result.exit_code == 2
        text = flat(result.output)
        assert f"--row '{bad}' is no row of DATA" in text
        assert "DATA has lines 2 to 18" in text


def test_explain_of_a_model_of_several_structures_is_refused(saved):
    result = run("explain", saved["aode"], "car", "--row", "0")
    assert result.exit_code == 1
    text = flat(result.output)
    assert "model 'aode' (AODE) has no per-feature evidence" in text
    assert "naive-bayes, spode, tan, kdb, selective-kdb" in text


def test_explained_models_are_those_whose_explain_works():
    X, y = datasets.load("car")
    X, y = X.iloc[::6], y.iloc[::6]
    for name, cls in MODELS.items():
        if "categorical_features" not in cls().get_params():  # count models
            assert name not in EXPLAINED
            continue
        model = cls().fit(X, y)
        try:
            model.explain(X.iloc[:2])
        except AttributeError:
            assert name not in EXPLAINED
        else:
            assert name in EXPLAINED
