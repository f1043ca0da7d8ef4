"""SubclassNaiveBayes: each class a mixture of naive Bayes components learned by EM (seed 004,
"reform the data")."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import bayeskit
from bayeskit import NaiveBayes
from bayeskit.classifiers import MODELS
from bayeskit.classifiers.subclass import SubclassNaiveBayes, fit_mixture, n_free_parameters
from bayeskit.data import datasets
from bayeskit.exceptions import SchemaError, ZeroEvidenceWarning


@pytest.fixture(scope="module")
def car():
    return datasets.load("car")


def planted(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Class 0 is a mixture of two product distributions over a, b, e (all 1 or all 0, each
    value flipped with probability 0.1): every feature is 1 half the time in both classes, so
    naive Bayes learns nothing from them. Class 1 has them independent and uniform. c is weakly
    informative for naive Bayes, d is noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    component = rng.integers(0, 2, n)
    p = np.where(y == 0, np.where(component == 0, 0.9, 0.1), 0.5)
    cols = {f: (rng.random(n) < p).astype(int).astype(str) for f in "abe"}
    cols["c"] = (rng.random(n) < np.where(y == 0, 0.4, 0.6)).astype(int).astype(str)
    cols["d"] = rng.integers(0, 3, n).astype(str)
    return pd.DataFrame(cols), y


@pytest.fixture(scope="module")
def planted_fit():
    X, y = planted(1000, 1)
    return SubclassNaiveBayes().fit(X, y), X, y


# ------------------------------------------------------------------ one component = naive Bayes
@pytest.mark.parametrize(
    ("name", "params"),
    [("car", {}), ("car", {"alpha": 0.5, "prior_alpha": 0.0}), ("nursery", {"alpha": 2.0})],
)
def test_one_component_equals_naive_bayes(name, params):
    X, y = datasets.load(name)
    ours = SubclassNaiveBayes(n_components=1, **params).fit(X, y)
    nb = NaiveBayes(**params).fit(X, y)
    assert ours.n_components_.tolist() == [1] * len(ours.classes_)
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X), nb.predict_joint_log_proba(X), rtol=0, atol=1e-10
    )
    np.testing.assert_allclose(ours.predict_proba(X), nb.predict_proba(X), rtol=0, atol=1e-10)
    for a, b in zip(ours.log_cpt_, nb.log_cpt_, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)  # (C, 1, V): one component


# ------------------------------------------------------------------ EM
@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_em_objective_never_decreases(car, k, alpha):
    X, y = car
    nb = NaiveBayes().fit(X, y)  # its schema gives the codes
    enc = nb.schema_.encode(X)
    rows = np.asarray(y) == 2  # the largest class (1210 rows)
    fit = fit_mixture(
        enc.codes[rows], nb.schema_.n_states, k, alpha=alpha, tol=0.0, max_iter=60, n_init=2
    )
    h = fit.history
    assert len(h) >= 10  # tol=0: runs until nothing changes (or max_iter)
    assert np.all(np.diff(h) >= -1e-10 * np.abs(h[:-1])), np.diff(h).min()
    assert h[-1] == fit.objective
    # the expected counts account for every row: each row is shared out among the components
    np.testing.assert_allclose(fit.component_count.sum(), rows.sum(), rtol=1e-12)
    for table in fit.feature_count:
        np.testing.assert_allclose(table.sum(axis=1), fit.component_count, rtol=1e-10)


def test_recorded_log_likelihood_is_that_of_the_fitted_tables(planted_fit):
    model, X, y = planted_fit
    per_class = model.predict_joint_log_proba(X) - model.log_prior_  # log P(x | c)
    for c in range(2):
        k = model.n_components_[c]
        ll = per_class[y == c, c].sum()
        np.testing.assert_allclose(model.log_likelihood_[c, k - 1], ll, rtol=1e-12)
        bic = -2 * ll + n_free_parameters(k, model.schema_.n_states) * np.log((y == c).sum())
        np.testing.assert_allclose(model.bic_[c, k - 1], bic, rtol=1e-12)
        assert model.bic_[c, k - 1] == model.bic_[c].min()


def test_planted_mixture_is_recovered_and_beats_naive_bayes(planted_fit):
    model, X, y = planted_fit
    # BIC: two subclasses for the mixture class, one for the naive one
    assert model.n_components_.tolist() == [2, 1]
    assert np.isfinite(model.bic_).all()  # every K from 1 to 5 was tried for both classes
    assert model.n_iter_[0] >= 2
    np.testing.assert_allclose(model.weights_[0], [0.5, 0.5], atol=0.05)
    # each subclass of class 0 has a, b and e mostly equal to one value (0.9 planted)
    p_a = np.exp(model.log_cpt_[model.schema_.names.index("a")][0, :2, :])  # (component, value)
    assert sorted(p_a[:, 1].round(1).tolist()) == pytest.approx([0.1, 0.9], abs=0.051)
    X_test, y_test = planted(4000, 2)
    ours = (model.predict(X_test) == y_test).mean()
    nb = (NaiveBayes().fit(X, y).predict(X_test) == y_test).mean()
    assert ours > 0.70
    assert ours - nb > 0.08, (ours, nb)
    # and in log-loss
    ll_ours = -np.log(model.predict_proba(X_test)[np.arange(len(y_test)), y_test]).mean()
    ll_nb = -np.log(NaiveBayes().fit(X, y).predict_proba(X_test)[np.arange(len(y_test)), y_test])
    assert ll_ours < ll_nb.mean() - 0.05


def test_fixed_number_of_components_and_fewer_for_small_classes():
    X = pd.DataFrame({"u": ["a", "b", "a", "b", "c", "a", "b", "c"], "v": list("pqpqrpqr")})
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    model = SubclassNaiveBayes(n_components=4).fit(X, y)
    # class 0 has 2 distinct rows, class 1 has 3: no more components than that
    assert model.n_components_.tolist() == [2, 3]
    assert [len(w) for w in model.weights_] == [2, 3]
    assert model.log_weights_.shape == (2, 3)
    assert model.log_weights_[0, 2] == -np.inf
    for w in model.weights_:
        assert (w > 0).all()
        np.testing.assert_allclose(w.sum(), 1.0)
    # only the K used was tried: its record is finite, the others are -inf / +inf
    assert np.isfinite(model.log_likelihood_[0]).tolist() == [False, True, False]
    assert model.bic_[1, 0] == np.inf


# ------------------------------------------------------------------ determinism, weights
def test_deterministic_given_random_state(car):
    X, y = car
    X, y = X.iloc[::2], np.asarray(y)[::2]
    a = SubclassNaiveBayes(random_state=3).fit(X, y)
    b = SubclassNaiveBayes(random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(a.stats_.component_count, b.stats_.component_count)
    # the rows' order does not matter either (the distinct rows are taken in sorted order)
    perm = np.random.default_rng(0).permutation(len(y))
    c = SubclassNaiveBayes(random_state=3).fit(X.iloc[perm], y[perm])
    np.testing.assert_allclose(c.predict_proba(X), a.predict_proba(X), rtol=0, atol=1e-12)


def test_integer_weights_equal_repeated_rows(car):
    X, y = car
    X, y = X.iloc[::3].reset_index(drop=True), np.asarray(y)[::3]
    w = np.random.default_rng(5).integers(0, 4, len(y))
    weighted = SubclassNaiveBayes().fit(X, y, sample_weight=w)
    repeated = SubclassNaiveBayes().fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    assert weighted.n_components_.tolist() == repeated.n_components_.tolist()
    assert weighted.n_components_.max() > 1  # the test exercises EM, not only counting
    np.testing.assert_allclose(weighted.bic_, repeated.bic_, rtol=1e-12)
    np.testing.assert_allclose(
        weighted.predict_proba(X), repeated.predict_proba(X), rtol=0, atol=1e-12
    )


# ------------------------------------------------------------------ missing values
def test_missing_values_are_skipped_in_both_steps(car):
    X, y = car
    X = X.astype(object).copy()
    rng = np.random.default_rng(2)
    X = X.mask(rng.random(X.shape) < 0.2)  # 20% of the cells missing
    model = SubclassNaiveBayes().fit(X, y)
    assert model.n_components_.max() > 1
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # M-step: a missing value is counted nowhere, so feature j's expected counts of class c
    # add up to the rows of c where x_j is observed
    y_idx = np.searchsorted(model.classes_, y)
    for j, name in enumerate(model.schema_.names):
        observed = X[name].notna().to_numpy()
        per_class = np.bincount(y_idx[observed], minlength=len(model.classes_))
        table = model.stats_.feature_count[j]
        np.testing.assert_allclose(table.sum(axis=(1, 2)), per_class, rtol=1e-10)
    # E-step / prediction: a missing value contributes no factor: recompute log P(x | c) by
    # hand from the weights and tables, skipping missing values
    enc = model.schema_.encode(X.iloc[:50])
    by_hand = np.empty((50, len(model.classes_)))
    for c, k in enumerate(model.n_components_):
        terms = np.tile(np.log(model.weights_[c]), (50, 1))
        for j in range(enc.codes.shape[1]):
            x = enc.codes[:, j]
            seen = x >= 0
            terms[seen] += model.log_cpt_[j][c, :k, x[seen]]  # (rows, k)
        by_hand[:, c] = np.log(np.exp(terms).sum(axis=1))
    np.testing.assert_allclose(
        model.predict_joint_log_proba(X.iloc[:50]) - model.log_prior_, by_hand, rtol=1e-12
    )
    # a row with nothing observed gets the class prior
    empty = pd.DataFrame([[None] * X.shape[1]], columns=X.columns)
    prior = np.exp(model.log_prior_ - np.logaddexp.reduce(model.log_prior_))
    np.testing.assert_allclose(model.predict_proba(empty)[0], prior)


def test_alpha_zero_gives_no_nan():
    X, y = planted(300, 4)
    model = SubclassNaiveBayes(alpha=0.0).fit(X, y)
    unseen = pd.DataFrame({"a": ["1"], "b": ["0"], "c": ["1"], "d": ["7"], "e": ["1"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroEvidenceWarning)
        proba = model.predict_proba(pd.concat([X.iloc[:20], unseen]))
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# ------------------------------------------------------------------ partial_fit and saving
def test_partial_fit_keeps_the_components_and_adds_expected_counts(car):
    X, y = car
    y = np.asarray(y)
    first, second = np.arange(len(y)) % 2 == 0, np.arange(len(y)) % 2 == 1
    model = SubclassNaiveBayes().partial_fit(X[first], y[first], classes=np.unique(y))
    k = model.n_components_.copy()
    one_shot = SubclassNaiveBayes().fit(X[first], y[first])
    np.testing.assert_array_equal(model.predict_proba(X), one_shot.predict_proba(X))
    model.partial_fit(X[second], y[second])
    np.testing.assert_array_equal(model.n_components_, k)
    np.testing.assert_allclose(model.class_count_, np.unique(y, return_counts=True)[1])
    np.testing.assert_allclose(model.stats_.component_count.sum(axis=1), model.class_count_)
    assert (model.predict(X) == y).mean() > 0.85


def test_save_and_load_give_identical_predictions_and_attributes(planted_fit, tmp_path):
    model, X, _ = planted_fit
    assert MODELS["subclass-nb"] is SubclassNaiveBayes
    loaded = bayeskit.load(bayeskit.save(model, tmp_path / "sub.bayeskit"))
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    for attr in ("n_components_", "log_weights_", "log_likelihood_", "bic_", "n_iter_"):
        np.testing.assert_array_equal(getattr(loaded, attr), getattr(model, attr))
    for a, b in zip(loaded.weights_, model.weights_, strict=True):
        np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    ("param", "value", "error"),
    [
        ("n_components", 0, ValueError),
        ("n_components", 2.5, TypeError),
        ("n_components", "3", TypeError),
        ("max_components", 0, ValueError),
        ("alpha", -1.0, ValueError),
        ("alpha", np.nan, ValueError),
        ("max_iter", 0, ValueError),
        ("tol", -1e-3, ValueError),
        ("n_init", 0, ValueError),
        ("n_init", True, TypeError),
        ("random_state", -1, ValueError),
        ("random_state", None, TypeError),
    ],
)
def test_bad_arguments_are_refused_by_name(param, value, error):
    X = pd.DataFrame({"u": ["a", "b", "a", "b"]})
    with pytest.raises(error, match=param):
        SubclassNaiveBayes(**{param: value}).fit(X, [0, 0, 1, 1])


def test_unbinned_numeric_columns_are_refused_by_name():
    X = pd.DataFrame({"u": ["a", "b", "a", "b"], "height": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(SchemaError, match=r"numeric columns \['height'\].*discretize"):
        SubclassNaiveBayes(discretize=None).fit(X, [0, 0, 1, 1])
    # binned (the default), the same data are fine
    SubclassNaiveBayes().fit(X, [0, 0, 1, 1])


def test_fit_mixture_refuses_more_components_than_distinct_rows():
    with pytest.raises(ValueError, match="n_components must be from 1 to the 2 distinct rows"):
        fit_mixture([[0, 1], [1, 0], [0, 1]], [2, 2], 3)
