"""NaiveBayes and the event models: parity with scikit-learn, incremental learning, missing
values, explanations, decisions and bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from bayeskit import NaiveBayes
from bayeskit.classifiers import BernoulliNaiveBayes, MultinomialNaiveBayes
from bayeskit.data import datasets
from bayeskit.exceptions import (
    CostMatrixError,
    SchemaError,
    UnknownCategoryWarning,
    ZeroEvidenceWarning,
)

# scikit-learn's settings: Gaussian numeric features (the default discretizes them, MDL),
# relative-frequency class prior (the default is Laplace-smoothed), GaussianNB's variance floor
SKLEARN = {"discretize": None, "prior_alpha": 0.0, "var_smoothing": 1e-9}
# Gaussian numeric features, for tests of the Gaussian model itself
GAUSSIAN = {"discretize": None}


def _mixed(n=400, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    df = pd.DataFrame(
        {
            "a": np.array(["u", "v", "w", "z"])[(y + rng.integers(0, 2, n)) % 4],
            "b": rng.normal(y, 1.0),
            "c": np.array(["p", "q"])[rng.integers(0, 2, n)],
            "d": rng.normal(-y, 2.0),
        }
    )
    if missing:
        for col in df.columns:
            df.loc[rng.random(n) < missing, col] = None if df[col].dtype == object else np.nan
    return df, np.array(["x", "y", "z"])[y]


# ---------------------------------------------------------------- parity with scikit-learn
def test_gaussian_matches_sklearn_gaussiannb():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6)) + rng.integers(0, 3, 300)[:, None]
    y = rng.integers(0, 3, 300)
    ours, theirs = NaiveBayes(**SKLEARN).fit(X, y), GaussianNB().fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_ + ours.var_floor_, theirs.var_, rtol=1e-12)


def test_gaussian_matches_sklearn_with_sample_weight():
    rng = np.random.default_rng(1)
    X, y, w = rng.normal(size=(200, 3)), rng.integers(0, 2, 200), rng.random(200)
    ours = NaiveBayes(**{**SKLEARN, "var_smoothing": 0.0}).fit(X, y, sample_weight=w)
    theirs = GaussianNB(var_smoothing=0.0).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-9)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_categorical_matches_sklearn_categoricalnb(alpha):
    rng = np.random.default_rng(2)
    X = rng.integers(0, 5, size=(500, 7))
    y = (X[:, 0] + rng.integers(0, 3, 500)) % 3
    ours = NaiveBayes(**SKLEARN, alpha=alpha, categorical_features="all").fit(X, y)
    theirs = CategoricalNB(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-9)
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X), atol=1e-9
    )


def test_pandas_categoricals_match_codes():
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 4, size=(300, 3))
    y = codes[:, 0] % 2
    frame = pd.DataFrame(
        {f"f{j}": pd.Categorical.from_codes(codes[:, j], list("abcd")) for j in range(3)}
    )
    a = NaiveBayes(**SKLEARN).fit(frame, y).predict_proba(frame)
    b = CategoricalNB().fit(codes, y).predict_proba(codes)
    np.testing.assert_allclose(a, b, atol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
def test_multinomial_matches_sklearn(sparse):
    rng = np.random.default_rng(4)
    X = rng.poisson(1.0, size=(200, 30)).astype(float)
    y = rng.integers(0, 3, 200)
    Xs = sp.csr_matrix(X) if sparse else X
    ours = MultinomialNaiveBayes(alpha=0.7).fit(Xs, y)
    theirs = MultinomialNB(alpha=0.7).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Xs), theirs.predict_proba(X), atol=1e-9)


@pytest.mark.parametrize("sparse", [False, True])
def test_bernoulli_matches_sklearn(sparse):
    rng = np.random.default_rng(5)
    X = rng.poisson(0.5, size=(200, 20)).astype(float)
    y = rng.integers(0, 2, 200)
    Xs = sp.csr_matrix(X) if sparse else X
    ours = BernoulliNaiveBayes(alpha=1.0).fit(Xs, y)
    theirs = BernoulliNB(alpha=1.0).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(Xs), theirs.predict_proba(X), atol=1e-9)


def test_multinomial_partial_fit_equals_fit_on_sparse_chunks():
    rng = np.random.default_rng(6)
    X = sp.random(300, 50, density=0.1, random_state=6, format="csr") * 5
    y = rng.integers(0, 2, 300)
    whole = MultinomialNaiveBayes().fit(X, y)
    inc = MultinomialNaiveBayes()
    for lo in range(0, 300, 70):
        inc.partial_fit(X[lo : lo + 70], y[lo : lo + 70], classes=[0, 1])
    np.testing.assert_allclose(inc.feature_count_, whole.feature_count_, rtol=1e-12)


def test_multinomial_refuses_negative_counts():
    with pytest.raises(ValueError, match="Negative values"):
        MultinomialNaiveBayes().fit(np.array([[1.0, -1.0], [0.0, 2.0]]), [0, 1])


def test_unsmoothed_multinomial_has_no_nan():
    X = np.array([[2.0, 0.0], [0.0, 3.0]])
    proba = MultinomialNaiveBayes(alpha=0.0).fit(X, [0, 1]).predict_proba(np.array([[1.0, 0.0]]))
    np.testing.assert_allclose(proba, [[1.0, 0.0]])


# ---------------------------------------------------------------- incremental learning
def test_partial_fit_equals_fit_with_growing_vocabulary_and_missing_values():
    df, y = _mixed(600, missing=0.1)
    df = df.sort_values("a", na_position="first").reset_index(
        drop=True
    )  # later chunks bring new categories
    y = y[df.index]
    whole = NaiveBayes().fit(df, y)
    inc = NaiveBayes()
    for lo in range(0, 600, 137):
        inc.partial_fit(df.iloc[lo : lo + 137], y[lo : lo + 137], classes=["x", "y", "z"])
    assert inc.schema_ == whole.schema_
    np.testing.assert_allclose(
        inc.predict_joint_log_proba(df), whole.predict_joint_log_proba(df), rtol=1e-12, atol=1e-12
    )
    for a, b in zip(inc.log_cpt_, whole.log_cpt_, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(inc.var_, whole.var_, rtol=1e-12)


def test_partial_fit_requires_classes_first():
    df, y = _mixed(20)
    with pytest.raises(ValueError, match="classes must be passed on the first call"):
        NaiveBayes().partial_fit(df, y)


def test_partial_fit_rejects_label_outside_classes():
    df, y = _mixed(20)
    with pytest.raises(ValueError, match=r"labels \['x'\] not in classes"):
        NaiveBayes().partial_fit(df, y, classes=["y", "z"])


def test_refit_forgets_previous_data():
    df, y = _mixed(100)
    model = NaiveBayes().fit(df, y)
    first = model.predict_proba(df)
    model.fit(df.iloc[:50], y[:50])
    model.fit(df, y)
    np.testing.assert_allclose(model.predict_proba(df), first)


# ---------------------------------------------------------------- weights
def test_integer_weights_equal_duplicated_rows():
    df, y = _mixed(150, missing=0.05)
    w = np.arange(150) % 3
    rep = np.repeat(np.arange(150), w)
    a = NaiveBayes().fit(df, y, sample_weight=w)
    b = NaiveBayes().fit(df.iloc[rep], y[rep])
    np.testing.assert_allclose(a.predict_proba(df), b.predict_proba(df), atol=1e-10)


@pytest.mark.parametrize(
    ("weights", "match"),
    [
        ([1.0, -1.0, 1.0, 1.0], "negative"),
        ([1.0, np.nan, 1.0, 1.0], "finite"),
        ([1.0, 2.0], "shape"),
        ([0.0, 0.0, 0.0, 0.0], "sums to zero"),
    ],
)
def test_bad_sample_weight(weights, match):
    X = pd.DataFrame({"a": ["u", "v", "u", "v"]})
    with pytest.raises(ValueError, match=match):
        NaiveBayes().fit(X, [0, 1, 0, 1], sample_weight=weights)


# ---------------------------------------------------------------- missing values
def test_missing_value_is_marginalised():
    df, y = _mixed(300)
    full = NaiveBayes().fit(df, y)
    without_b = NaiveBayes().fit(df.drop(columns="b"), y)
    query = df.iloc[:5].copy()
    query["b"] = np.nan
    np.testing.assert_allclose(
        full.predict_joint_log_proba(query),
        without_b.predict_joint_log_proba(query.drop(columns="b")),
        rtol=1e-12,
    )


def test_unseen_category_is_marginalised():
    df, y = _mixed(200)
    model = NaiveBayes().fit(df, y)
    a = df.iloc[:3].assign(c="never-seen")
    b = df.iloc[:3].assign(c=None)
    np.testing.assert_allclose(model.predict_proba(a), model.predict_proba(b))


def test_posteriors_finite_with_missing_everywhere():
    df, y = _mixed(200, missing=0.3)
    proba = NaiveBayes().fit(df, y).predict_proba(df)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_zero_evidence_gives_uniform_posterior_and_warning():
    X = pd.DataFrame({"a": ["u", "v"]})
    # "w" is in the declared domain but never seen: with alpha=0 both classes give it probability 0
    model = NaiveBayes(alpha=0.0, categories={"a": ["u", "v", "w"]}).fit(X, [0, 1])
    with pytest.warns(ZeroEvidenceWarning):
        proba = model.predict_proba(pd.DataFrame({"a": ["w"]}))
    np.testing.assert_allclose(proba, [[0.5, 0.5]])
    np.testing.assert_allclose(model.predict_proba(pd.DataFrame({"a": ["u"]})), [[1.0, 0.0]])


def test_constant_numeric_feature_gives_finite_posteriors():
    X = pd.DataFrame({"k": [1.0] * 6, "x": [0.0, 0.1, 0.2, 1.0, 1.1, 1.2]})
    proba = NaiveBayes().fit(X, [0, 0, 0, 1, 1, 1]).predict_proba(X)
    assert np.isfinite(proba).all()


def test_zero_variance_point_mass_without_floor():
    # Zaki Exercise Q1: class L is a point mass at age 25; no NaN, P(H | age=23) = 1
    X = pd.DataFrame({"age": [25.0, 25.0, 20.0, 35.0]})
    model = NaiveBayes(**GAUSSIAN, prior_alpha=0.0, var_smoothing=0.0).fit(X, ["L", "L", "H", "H"])
    np.testing.assert_allclose(
        model.predict_proba(pd.DataFrame({"age": [23.0, 25.0]})), [[1, 0], [0, 1]]
    )


# ---------------------------------------------------------------- explanations
def test_explain_adds_up_to_the_posterior():
    df, y = _mixed(300, missing=0.05)
    model = NaiveBayes().fit(df, y)
    ex = model.explain(df.iloc[:20])
    assert ex.shape == (20, 4, 3)
    score = model.log_prior_ + ex.sum(axis=1)
    score -= score.max(axis=1, keepdims=True)
    proba = np.exp(score) / np.exp(score).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(proba, model.predict_proba(df.iloc[:20]), atol=1e-12)


def test_explain_is_zero_for_missing_feature():
    df, y = _mixed(100)
    model = NaiveBayes().fit(df, y)
    assert np.all(model.explain(df.iloc[:2].assign(b=np.nan))[:, 1, :] == 0)


# ---------------------------------------------------------------- decisions
def test_cost_matrix_changes_the_decision():
    X = pd.DataFrame({"t": [36.5, 37.0, 37.2, 38.5, 39.0, 36.8, 37.9, 38.2]})
    y = ["healthy"] * 3 + ["ill"] * 2 + ["healthy", "ill", "ill"]
    model = NaiveBayes().fit(X, y)
    q = pd.DataFrame({"t": [37.4]})
    p_ill = model.predict_proba(q)[0, 1]
    assert model.predict(q)[0] == ("ill" if p_ill > 0.5 else "healthy")
    # missing an illness costs 100 times a false alarm
    cost = pd.DataFrame([[0, 100], [1, 0]], index=["healthy", "ill"], columns=["healthy", "ill"])
    expect = "ill" if 100 * p_ill > 1 - p_ill else "healthy"
    assert model.predict(q, cost=cost)[0] == expect == "ill"


def test_decide_with_reject_option():
    X = pd.DataFrame({"x": [0.0, 0.1, 0.2, 1.0, 1.1, 1.2]})
    model = NaiveBayes(**GAUSSIAN).fit(X, [0, 0, 0, 1, 1, 1])
    q = pd.DataFrame({"x": [0.05, 0.6, 1.15]})
    out = model.decide(q, reject_threshold=0.1, reject_label="?")
    assert list(out) == [0, "?", 1]


def test_invalid_cost_matrix_is_refused():
    df, y = _mixed(50)
    model = NaiveBayes().fit(df, y)
    with pytest.raises(CostMatrixError, match=r"shape \(3, 3\)"):
        model.predict(df, cost=np.ones((2, 2)))
    with pytest.raises(CostMatrixError, match="nan"):
        model.predict(df, cost=np.full((3, 3), np.nan))


# ---------------------------------------------------------------- bad input
def test_single_class_is_refused():
    with pytest.raises(ValueError, match="only 1 class"):
        NaiveBayes().fit(pd.DataFrame({"a": ["u", "v"]}), ["k", "k"])


def test_missing_label_is_refused():
    with pytest.raises(ValueError, match="missing class label at position 1"):
        NaiveBayes().fit(pd.DataFrame({"a": ["u", "v"]}), np.array(["k", None], dtype=object))


def test_infinite_value_is_refused():
    with pytest.raises(SchemaError, match="column 'b' holds an infinite value"):
        NaiveBayes().fit(pd.DataFrame({"b": [1.0, np.inf]}), [0, 1])


def test_length_mismatch_is_refused():
    with pytest.raises(ValueError, match="X has 2 samples but y has 3"):
        NaiveBayes().fit(pd.DataFrame({"b": [1.0, 2.0]}), [0, 1, 1])


def test_wrong_dtype_at_predict():
    df, y = _mixed(50)
    model = NaiveBayes().fit(df, y)
    with pytest.raises(SchemaError, match="column 'b' is numeric but holds 'oops'"):
        model.predict(df.iloc[:2].assign(b="oops"))


def test_mismatched_columns_at_predict():
    df, y = _mixed(50)
    model = NaiveBayes().fit(df, y)
    with pytest.raises(ValueError, match="d"):
        model.predict(df.drop(columns="d"))


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ({"alpha": -1}, ValueError, "alpha must be >= 0, got -1"),
        ({"alpha": "one"}, TypeError, "alpha must be a number"),
        ({"smoothing": "good-turing"}, ValueError, "smoothing must be one of"),
        ({"ddof": 0.5}, TypeError, "ddof must be an integer"),
        ({"var_smoothing": -1e-9}, ValueError, "var_smoothing must be >= 0"),
        ({"handle_unknown": "ignore"}, ValueError, "handle_unknown must be one of"),
        ({"priors": [0.2, 0.2]}, ValueError, "priors must sum to 1"),
        ({"priors": [1.0]}, ValueError, "priors must be 2 non-negative"),
        ({"smoothing": "dirichlet-map", "alpha": 0.5}, ValueError, "alpha >= 1"),
    ],
)
def test_bad_parameters_are_named(params, error, match):
    X = pd.DataFrame({"a": ["u", "v"]})
    with pytest.raises(error, match=match):
        NaiveBayes(**params).fit(X, [0, 1])


def test_set_params_is_checked_at_fit():
    model = NaiveBayes()
    model.set_params(alpha=-2)
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        model.fit(pd.DataFrame({"a": ["u", "v"]}), [0, 1])


def test_input_is_left_unchanged():
    df, y = _mixed(80, missing=0.1)
    before, y_before = df.copy(), y.copy()
    NaiveBayes().fit(df, y).predict_proba(df)
    pd.testing.assert_frame_equal(df, before)
    np.testing.assert_array_equal(y, y_before)


# ---------------------------------------------------------------- scikit-learn tooling
def test_pipeline_grid_search_and_cross_val_score():
    X, y = datasets.load("iris")
    pipe = make_pipeline(StandardScaler(), NaiveBayes())
    scores = cross_val_score(pipe, X, y, cv=5)
    assert scores.mean() > 0.9
    grid = GridSearchCV(NaiveBayes(), {"var_smoothing": [1e-9, 1e-3], "ddof": [0, 1]}, cv=3).fit(
        X, y
    )
    assert grid.best_score_ > 0.9


def test_bundled_car_accuracy():
    X, y = datasets.load("car")
    scores = cross_val_score(NaiveBayes(), X, y, cv=5)
    assert scores.mean() > 0.7


# ---------------------------------------------------------------- automatic discretization
def test_discretized_naive_bayes_bins_numeric_features():
    X, y = datasets.load("iris")
    model = NaiveBayes(discretize="mdl").fit(X, y)
    assert all(c.kind == "categorical" and c.cuts is not None for c in model.schema_.columns)
    assert model.score(X, y) > 0.9
    assert (
        cross_val_score(NaiveBayes(discretize="equal-frequency", n_bins=4), X, y, cv=5).mean()
        > 0.85
    )


def test_partial_fit_keeps_the_bins_of_the_first_chunk():
    X, y = datasets.load("iris")
    perm = np.random.default_rng(0).permutation(len(y))
    X, y = X.iloc[perm], y.to_numpy()[perm]
    model = NaiveBayes(discretize="equal-width").partial_fit(
        X.iloc[:75], y[:75], classes=np.unique(y)
    )
    cuts = [c.cuts for c in model.schema_.columns]
    model.partial_fit(X.iloc[75:], y[75:])
    assert [c.cuts for c in model.schema_.columns] == cuts
    assert model.class_count_.sum() == 150


def test_bad_discretize_argument():
    with pytest.raises(ValueError, match="discretize must be one of"):
        NaiveBayes(discretize="kmeans").fit(pd.DataFrame({"x": [1.0, 2.0]}), [0, 1])


# ---------------------------------------------------------------- review findings
def test_failed_refit_leaves_the_model_as_it_was():
    df, y = _mixed(60)
    model = NaiveBayes().fit(df, y)
    before = model.predict_proba(df)
    with pytest.raises(ValueError, match="sums to zero"):
        model.fit(df, y, sample_weight=np.zeros(len(y)))
    np.testing.assert_array_equal(model.predict_proba(df), before)


def test_failed_first_fit_leaves_the_model_unfitted():
    from sklearn.exceptions import NotFittedError

    df, y = _mixed(30)
    model = NaiveBayes(priors=[0.5, 0.6])
    with pytest.raises(ValueError, match="priors must sum to 1"):
        model.fit(df, y)
    with pytest.raises(NotFittedError):
        model.predict(df)


def test_mixed_type_lists_keep_their_values():
    X = [[1.5, "a"], [2.5, "b"], [3.5, "a"], [4.5, "b"]]
    model = NaiveBayes(**GAUSSIAN).fit(X, ["p", "q", "p", "q"])
    assert [c.kind for c in model.schema_.columns] == ["numeric", "categorical"]


def test_missing_label_given_as_pandas_na():
    X = pd.DataFrame({"a": ["u", "v", "u"]})
    y = pd.array(["k", pd.NA, "m"], dtype="string")
    with pytest.raises(ValueError, match="missing class label at position 1"):
        NaiveBayes().fit(X, y)


def test_warnings_point_at_the_callers_line():
    X = pd.DataFrame({"a": ["u", "v"]})
    model = NaiveBayes(handle_unknown="warn").fit(X, [0, 1])
    with pytest.warns(UnknownCategoryWarning) as record:
        model.predict_proba(pd.DataFrame({"a": ["w"]}))
    assert record[0].filename == __file__


def test_class_without_observations_of_a_feature_backs_off_to_pooled():
    # class 1 never observed "b": "b" says nothing about class 1, so "a" decides
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [1.0, 2.0, np.nan, np.nan]})
    model = NaiveBayes(**GAUSSIAN).fit(X, [0, 0, 1, 1])
    assert model.predict(pd.DataFrame({"a": [3.6], "b": [1.5]}))[0] == 1
    np.testing.assert_allclose(model.theta_[1, 1], 1.5)  # the pooled mean of b


def test_feature_never_observed_is_ignored():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [np.nan] * 4})
    gaussian = NaiveBayes(**GAUSSIAN)
    with_b = gaussian.fit(X, [0, 0, 1, 1]).predict_proba(pd.DataFrame({"a": [3.6], "b": [9.0]}))
    without = gaussian.fit(X[["a"]], [0, 0, 1, 1]).predict_proba(pd.DataFrame({"a": [3.6]}))
    np.testing.assert_allclose(with_b, without)


@pytest.mark.filterwarnings("ignore::bayeskit.exceptions.ZeroEvidenceWarning")
@pytest.mark.parametrize(
    ("model", "query"),
    [
        (NaiveBayes(var_smoothing=0.0), pd.DataFrame({"a": [1.0]})),
        (NaiveBayes(alpha=0.0, categories={"a": [1.0, 3.0, 4.0, 9.0]}), pd.DataFrame({"a": [9.0]})),
    ],
)
def test_explain_never_returns_nan(model, query):
    X = pd.DataFrame({"a": [1.0, 1.0, 3.0, 4.0]})
    ex = model.fit(X, [0, 0, 1, 1]).explain(query)
    assert not np.isnan(ex).any()


def test_huge_values_are_refused_by_name():
    X = pd.DataFrame({"big": [1e300, -1e300, 2e300, -2e300], "ok": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(SchemaError, match=r"numeric columns \['big'\]"):
        NaiveBayes(**GAUSSIAN).fit(X, [0, 0, 1, 1])


def test_constant_feature_changes_nothing():
    X = pd.DataFrame({"k": [1.0] * 6, "x": [0.0, 0.1, 0.2, 1.0, 1.1, 1.2]})
    y = [0, 0, 0, 1, 1, 1]
    with_k = NaiveBayes(**GAUSSIAN).fit(X, y).predict_proba(X)
    without = NaiveBayes(**GAUSSIAN).fit(X[["x"]], y).predict_proba(X[["x"]])
    np.testing.assert_allclose(with_k, without, atol=1e-12)


def test_bernoulli_without_binarize_refuses_non_binary_data():
    with pytest.raises(ValueError, match="needs binary X"):
        BernoulliNaiveBayes(binarize=None).fit(np.array([[-3.0, 5.0], [1.0, 0.0]]), [0, 1])


def test_decide_dtype_depends_on_arguments_not_on_data():
    X = pd.DataFrame({"x": [0.0, 0.1, 0.2, 1.0, 1.1, 1.2]})
    model = NaiveBayes().fit(X, [0, 0, 0, 1, 1, 1])
    sure = pd.DataFrame({"x": [0.05, 1.15]})
    assert model.decide(sure).dtype == model.classes_.dtype
    assert model.decide(sure, reject_threshold=0.1, reject_label="?").dtype == object


def test_discretizer_unfitted_raises_not_fitted():
    from sklearn.exceptions import NotFittedError

    from bayeskit.data import Discretizer

    with pytest.raises(NotFittedError, match="not fitted"):
        Discretizer().transform(np.zeros((2, 1)))


def test_explain_as_a_labelled_long_frame():
    X = pd.DataFrame(
        {"colour": ["red", "red", "blue", "blue"], "size": [1.0, 2.0, 8.0, 9.0]},
        index=["a", "b", "c", "d"],
    )
    y = ["apple", "apple", "plum", "plum"]
    model = NaiveBayes(discretize=None).fit(X, y)
    query = X.iloc[[3, 0], ::-1]  # other row order, columns reordered: matched by name
    array = model.explain(query)
    frame = model.explain(query, as_frame=True)
    assert list(frame.columns) == ["row", "feature", "value", "class", "contribution"]
    assert len(frame) == 2 * 2 * 2
    first = frame[(frame["row"] == "d") & (frame["feature"] == "colour")]
    assert first["value"].tolist() == ["blue", "blue"]
    assert first["class"].tolist() == ["apple", "plum"]
    np.testing.assert_array_equal(first["contribution"], array[0, 0])
    np.testing.assert_array_equal(
        frame.pivot_table(index="row", columns=["feature", "class"], values="contribution")
        .loc[["d", "a"]]
        .to_numpy(),
        array.reshape(2, -1),
    )
    unnamed = NaiveBayes(discretize=None).fit(X.to_numpy(dtype=object)[:, 1:].astype(float), y)
    plain = unnamed.explain(np.array([[8.5]]), as_frame=True)
    assert plain["row"].tolist() == [0, 0]
    assert plain["feature"].tolist() == ["x0", "x0"]
