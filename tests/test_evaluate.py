"""bayeskit.evaluate: stratified cross-validation, metrics and model comparison."""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import Perceptron
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB

from bayeskit.classifiers import MultinomialNaiveBayes, NaiveBayes
from bayeskit.data import datasets
from bayeskit.evaluate import (
    brier_score,
    class_report,
    compare,
    corrected_ttest,
    cross_validate,
)

RARE_CLASS = "ignore:The least populated class:UserWarning"


@pytest.fixture(scope="module")
def iris():
    return datasets.load("iris")


def test_result_has_per_fold_and_mean_scores(iris):
    X, y = iris
    result = cross_validate(NaiveBayes(), X, y, n_splits=5)
    for key in ("accuracy", "log_loss", "brier", "fit_time", "predict_time", "n_test"):
        assert result[key].shape == (5,)
    # the mean and population std of each metric, from five folds refitted and scored here
    # (default random_state 0), summarised with the statistics module
    y_arr = np.asarray(y)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(X, y_arr)
    by_hand = {"accuracy": [], "log_loss": [], "brier": []}
    for train, test in folds:
        model = NaiveBayes().fit(X.iloc[train], y_arr[train])
        proba = model.predict_proba(X.iloc[test])
        truth = (model.classes_[None, :] == y_arr[test][:, None]).astype(float)
        by_hand["accuracy"].append(float(np.mean(model.predict(X.iloc[test]) == y_arr[test])))
        by_hand["log_loss"].append(-float(np.mean(np.log(proba[truth == 1]))))
        by_hand["brier"].append(float(np.mean(((proba - truth) ** 2).sum(axis=1))))
    for key, values in by_hand.items():
        assert result["mean"][key] == pytest.approx(statistics.fmean(values), rel=1e-12)
        assert result["std"][key] == pytest.approx(statistics.pstdev(values), rel=1e-9, abs=1e-15)
    assert result["n_test"].sum() == len(y)
    # five folds of 30 rows: the mean accuracy is the summed confusion matrix's diagonal share
    cm = result["confusion_matrix"].to_numpy()
    assert result["mean"]["accuracy"] == pytest.approx(np.trace(cm) / 150, rel=1e-12)
    assert list(result["classes"]) == ["setosa", "versicolor", "virginica"]


def test_fold_scores_match_a_manual_computation(iris):
    X, y = iris
    y = np.asarray(y)
    result = cross_validate(NaiveBayes(), X, y, n_splits=4, random_state=3)
    folds = StratifiedKFold(n_splits=4, shuffle=True, random_state=3).split(X, y)
    train, test = next(iter(folds))
    model = NaiveBayes().fit(X.iloc[train], y[train])
    proba = model.predict_proba(X.iloc[test])
    assert result["accuracy"][0] == pytest.approx(np.mean(model.predict(X.iloc[test]) == y[test]))
    assert result["log_loss"][0] == pytest.approx(log_loss(y[test], proba, labels=model.classes_))
    assert result["brier"][0] == pytest.approx(brier_score(y[test], proba, model.classes_))


def test_confusion_matrix_is_summed_and_labelled(iris):
    X, y = iris
    cm = cross_validate(NaiveBayes(), X, y, n_splits=5)["confusion_matrix"]
    assert cm.index.name == "true"
    assert cm.columns.name == "predicted"
    assert list(cm.index) == list(cm.columns) == ["setosa", "versicolor", "virginica"]
    assert cm.sum(axis=1).tolist() == [50, 50, 50]  # rows are the true classes


def test_brier_score_values():
    assert brier_score([0, 1], [[1.0, 0.0], [0.0, 1.0]], [0, 1]) == 0.0
    assert brier_score([0], [[0.0, 1.0]], [0, 1]) == 2.0
    assert brier_score(["a", "b", "c"], [[0.5, 0.25, 0.25]] * 3, ["a", "b", "c"]) == pytest.approx(
        np.mean([0.375, 0.875, 0.875])
    )


@pytest.mark.filterwarnings(RARE_CLASS)
def test_class_missing_from_a_training_fold_gets_probability_zero():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.choice(["u", "v"], 31), "b": rng.normal(size=31)})
    y = np.array(["common"] * 20 + ["other"] * 10 + ["rare"])
    result = cross_validate(NaiveBayes(), X, y, n_splits=5)
    assert list(result["classes"]) == ["common", "other", "rare"]
    assert np.isfinite(result["log_loss"]).all()
    cm = result["confusion_matrix"]
    assert cm.loc["rare"].sum() == 1
    assert cm["rare"].sum() == 0  # never predicted: it was never in training with itself tested


@pytest.mark.filterwarnings(RARE_CLASS)
def test_training_fold_with_a_single_class_does_not_crash():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    y = np.array([0, 0, 0, 0, 1])
    result = cross_validate(NaiveBayes(), X, y, n_splits=4)
    assert result["confusion_matrix"].to_numpy().sum() == 5
    assert np.isfinite(result["brier"]).all()


def test_progress_is_called_after_each_fold(iris):
    X, y = iris
    calls = []
    cross_validate(NaiveBayes(), X, y, n_splits=3, progress=lambda *a: calls.append(a))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_model_is_cloned_not_fitted(iris):
    X, y = iris
    model = NaiveBayes()
    cross_validate(model, X, y, n_splits=3)
    assert not hasattr(model, "classes_")


def test_same_seed_same_result_other_seed_other_folds(iris):
    X, y = iris
    a = cross_validate(NaiveBayes(), X, y, n_splits=5, random_state=1)
    b = cross_validate(NaiveBayes(), X, y, n_splits=5, random_state=1)
    c = cross_validate(NaiveBayes(), X, y, n_splits=5, random_state=2)
    np.testing.assert_array_equal(a["log_loss"], b["log_loss"])
    assert not np.array_equal(a["log_loss"], c["log_loss"])


def test_numpy_and_list_inputs(iris):
    X, y = iris
    arr = cross_validate(NaiveBayes(), X.to_numpy(), np.asarray(y), n_splits=3)
    rows = cross_validate(NaiveBayes(), X.to_numpy().tolist(), list(y), n_splits=3)
    np.testing.assert_allclose(arr["log_loss"], rows["log_loss"])


def test_scikit_learn_estimators_work(iris):
    X, y = iris
    ours = cross_validate(NaiveBayes(discretize=None, prior_alpha=0.0), X, y, n_splits=5)
    theirs = cross_validate(GaussianNB(), X, y, n_splits=5)
    np.testing.assert_allclose(ours["accuracy"], theirs["accuracy"])


def test_model_without_predict_proba_has_nan_probabilistic_scores(iris):
    X, y = iris
    result = cross_validate(Perceptron(random_state=0), X, y, n_splits=3)
    assert np.isnan(result["log_loss"]).all()
    assert np.isnan(result["brier"]).all()
    assert np.isfinite(result["accuracy"]).all()


@pytest.mark.parametrize("bad", [1, 0, 2.5, True])
def test_invalid_n_splits(iris, bad):
    X, y = iris
    with pytest.raises(ValueError, match="n_splits"):
        cross_validate(NaiveBayes(), X, y, n_splits=bad)


def test_length_mismatch(iris):
    X, y = iris
    with pytest.raises(ValueError, match="X has 150 samples but y has 149"):
        cross_validate(NaiveBayes(), X, y[:-1], n_splits=3)


# -------------------------------------------------------------------------- compare
def test_compare_one_row_per_model_in_order(iris):
    X, y = iris
    table = compare({"nb": NaiveBayes(), "gnb": GaussianNB()}, X, y, n_splits=3)
    assert list(table.index) == ["nb", "gnb"]
    assert table.index.name == "model"
    assert list(table.columns) == [
        "accuracy",
        "accuracy_std",
        "log_loss",
        "brier",
        "roc_auc",
        "f1_macro",
        "seconds",
        "n_splits",
        "t_vs_best",
        "p_vs_best",
        "note",
    ]
    timings = table["seconds"].to_numpy()  # recorded, never judged: speed lives in benchmarks/
    assert np.isfinite(timings).all()
    assert (table["note"] == "").all()
    single = cross_validate(NaiveBayes(), X, y, n_splits=3)
    assert table.loc["nb", "accuracy"] == pytest.approx(single["mean"]["accuracy"])
    assert table.loc["nb", "accuracy_std"] == pytest.approx(single["std"]["accuracy"])


def test_compare_progress_counts_over_all_models(iris):
    X, y = iris
    calls = []
    compare(
        {"a": NaiveBayes(), "b": NaiveBayes(alpha=2.0)},
        X,
        y,
        n_splits=2,
        progress=lambda *args: calls.append(args),
    )
    assert calls == [(1, 4, "a"), (2, 4, "a"), (3, 4, "b"), (4, 4, "b")]


def test_compare_notes_a_model_that_cannot_take_the_data(iris):
    X, y = iris
    X = X - X.mean()  # negative values: not counts
    calls = []
    table = compare(
        {"nb": NaiveBayes(), "mnb": MultinomialNaiveBayes()},
        X,
        y,
        n_splits=3,
        errors="note",
        progress=lambda *a: calls.append(a),
    )
    assert table.loc["mnb", "note"].startswith("n/a: Negative values")
    assert np.isnan(table.loc["mnb", "accuracy"])
    assert np.isfinite(table.loc["nb", "accuracy"])
    assert calls[-1] == (6, 6, "mnb")


def test_compare_raises_by_default(iris):
    X, y = iris
    with pytest.raises(ValueError, match="Negative values"):
        compare({"mnb": MultinomialNaiveBayes()}, X - X.mean(), y, n_splits=3)


def test_compare_rejects_unknown_errors_mode(iris):
    X, y = iris
    with pytest.raises(ValueError, match="errors must be 'raise' or 'note'"):
        compare({"nb": NaiveBayes()}, X, y, errors="ignore")


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_more_folds_than_the_largest_class_falls_back_with_a_warning():
    from bayeskit.data import datasets

    X, y = datasets.load("watermelon3")  # 17 rows: 8 and 9 per class
    with pytest.warns(UserWarning, match="using 9 folds"):
        result = cross_validate(NaiveBayes(), X, y, n_splits=10)
    assert result["n_splits"] == 9
    assert result["accuracy"].shape == (9,)


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_fewer_rows_than_folds_falls_back_instead_of_failing():
    # 8 rows (4 per class) and 10 folds requested: 4 folds are used, no error
    X = np.arange(8.0).reshape(-1, 1)
    y = np.array([0, 1] * 4)
    with pytest.warns(UserWarning, match="using 4 folds"):
        result = cross_validate(NaiveBayes(), X, y, n_splits=10)
    assert result["n_splits"] == 4
    assert result["accuracy"].shape == (4,)
    with pytest.warns(UserWarning, match="using 4 folds"):
        table = compare({"nb": NaiveBayes()}, X, y, n_splits=10, errors="note")
    assert table.loc["nb", "note"] == ""
    assert table.loc["nb", "n_splits"] == 4


def test_fewer_than_two_rows_is_refused():
    with pytest.raises(ValueError, match="at least 2 samples, got 0"):
        cross_validate(NaiveBayes(), np.zeros((0, 1)), np.array([]), n_splits=3)


def test_corrected_ttest_matches_a_hand_computed_value():
    # d = (0.02, 0.04, 0.06, 0.08): mean 0.05, sample variance 2e-3 / 3; 4-fold CV, so
    # n_test / n_train = 1/3 and t = 0.05 / sqrt((1/4 + 1/3) * 2e-3 / 3) = sqrt(45 / 7)
    a = np.array([0.92, 0.94, 0.96, 0.98])
    b = np.array([0.90, 0.90, 0.90, 0.90])
    t, p = corrected_ttest(a, b, n_train=30, n_test=10)
    assert t == pytest.approx(np.sqrt(45 / 7))
    # two-sided p from Student's t with 3 degrees of freedom (tables: t = 2.5355 -> p = 0.0850)
    assert p == pytest.approx(0.0850, abs=2e-4)
    # the uncorrected paired t-test would say t = sqrt(4) * 0.05 / 0.0258 = 3.87
    t_plain = np.sqrt(4) * 0.05 / np.std(a - b, ddof=1)
    assert t < t_plain
    assert corrected_ttest(b, a, 30, 10)[0] == pytest.approx(-t)


def test_corrected_ttest_degenerate_differences():
    assert corrected_ttest([0.5, 0.6], [0.5, 0.6], 10, 5) == (0.0, 1.0)
    assert corrected_ttest([0.6, 0.7], [0.5, 0.6], 10, 5) == (np.inf, 0.0)
    with pytest.raises(ValueError, match="same length"):
        corrected_ttest([0.5], [0.5], 10, 5)


def test_compare_tests_every_model_against_the_best(iris):
    X, y = iris
    table = compare({"nb": NaiveBayes(), "mnb": MultinomialNaiveBayes()}, X, y, n_splits=5)
    best = table["accuracy"].idxmax()
    other = "mnb" if best == "nb" else "nb"
    assert np.isnan(table.loc[best, "p_vs_best"])
    assert 0.0 <= table.loc[other, "p_vs_best"] <= 1.0
    assert table.loc[other, "t_vs_best"] <= 0


def test_roc_auc_and_macro_f1_match_scikit_learn(iris):
    from sklearn.metrics import f1_score, roc_auc_score

    X, y = iris
    y = np.asarray(y)
    result = cross_validate(NaiveBayes(), X, y, n_splits=3, random_state=1)
    train, test = next(iter(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y)))
    model = NaiveBayes().fit(X.iloc[train], y[train])
    proba = model.predict_proba(X.iloc[test])
    auc = roc_auc_score(y[test], proba, multi_class="ovr", average="macro")
    assert result["roc_auc"][0] == pytest.approx(auc)
    f1 = f1_score(y[test], model.predict(X.iloc[test]), average="macro")
    assert result["f1_macro"][0] == pytest.approx(f1)


def test_class_report_precision_and_recall():
    cm = pd.DataFrame([[3, 1, 0], [0, 4, 0], [2, 0, 0]], index=list("abc"), columns=list("abc"))
    report = class_report(cm)
    assert report.loc["a", "precision"] == pytest.approx(3 / 5)
    assert report.loc["a", "recall"] == pytest.approx(3 / 4)
    assert report.loc["b", "precision"] == pytest.approx(4 / 5)
    assert np.isnan(report.loc["c", "precision"])  # never predicted: undefined
    assert report.loc["c", "recall"] == 0.0
    assert report["support"].tolist() == [4, 4, 2]
