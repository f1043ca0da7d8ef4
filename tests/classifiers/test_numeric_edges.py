"""Numbers at the edges of float64 (issue 10, section 2): every term stays finite wherever the
mathematics is finite, a value beyond float64 is left out of its row with a warning naming its
column, and the warnings name the real cause."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayeskit import FullBayes, KNNBayes, NaiveBayes
from bayeskit.estimate import beyond_float64, gaussian_log_density, gaussian_log_terms
from bayeskit.exceptions import ZeroEvidenceWarning
from bayeskit.stats import gaussian_moments, underflowed_features


def GAUSSIAN_NB():  # noqa: N802 - a model factory, named like the classes beside it
    """Naive Bayes with Gaussian numeric features (the default discretizes them)."""
    return NaiveBayes(discretize=None)


def _two_blobs(n=30, seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-3, 1, (n, 2)), rng.normal(3, 1, (n, 2))]
    return X, np.r_[[0] * n, [1] * n]


# ---------------------------------------------------------------- Gaussian terms
def test_gaussian_log_density_is_finite_while_the_mathematics_is():
    # (1e154)^2 / 2 = 5e307 < 1.8e308: finite, although (1e154)^2 alone overflows
    assert gaussian_log_density(1e154, 0.0, 1.0) == pytest.approx(-0.5 * np.log(2 * np.pi) - 5e307)
    assert gaussian_log_density(1e155, 0.0, 1.0) == -np.inf  # -5e309: beyond float64
    # x - mean and 2 var overflow, (x - mean) / sqrt(2 var) does not: (2e308)^2 / 3e308 = 1.3e308
    assert np.isfinite(gaussian_log_density(1e308, -1e308, 1.5e308))


def test_beyond_float64_flags_only_values_lost_for_every_class():
    log_norm, scale = gaussian_log_terms(np.array([[1.0, 1.0], [1.0, 1e300]]))
    mean = np.zeros((2, 2))
    values = np.array([[1e155, 1e155], [1.0, 2.0], [np.nan, -1e200]])
    mask = beyond_float64(values, mean, scale)
    # column 1 has a class of variance 1e300, under which 1e155 and -1e200 are ordinary
    assert mask.tolist() == [[True, False], [False, False], [False, False]]
    assert beyond_float64(values[1:2], mean, scale) is None


@pytest.mark.parametrize("model", [GAUSSIAN_NB(), FullBayes()], ids=["naive", "full"])
def test_a_huge_value_keeps_the_other_features_evidence(model):
    X, y = _two_blobs()
    model.fit(X, y)
    ordinary = model.predict_proba([[0.0, 3.0], [0.0, -3.0]])
    # 1e154: finite terms (float64 cannot tell the classes' means apart from there, but the
    # terms are finite, so nothing is left out and no warning is given)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isfinite(model.predict_log_proba([[1e154, -3.0]])).any()
    # 1e155 and beyond: no class can represent it; it is left out and the other feature decides
    for big in (1e155, -1e200, 1e300):
        with pytest.warns(UserWarning, match=r"'x0' \(2\)"):
            proba = model.predict_proba([[big, 3.0], [big, -3.0]])
        np.testing.assert_allclose(proba, model.predict_proba([[np.nan, 3.0], [np.nan, -3.0]]))
        assert proba[0, 1] > 0.99
        assert proba[1, 0] > 0.99
    assert np.isfinite(ordinary).all()


def test_explain_leaves_out_values_beyond_float64():
    X, y = _two_blobs()
    model = GAUSSIAN_NB().fit(X, y)
    with pytest.warns(UserWarning, match="'x0'"):
        contrib = model.explain([[1e200, 3.0]])
    assert contrib[0, 0].tolist() == [0.0, 0.0]
    assert np.isfinite(contrib).all()


@pytest.mark.filterwarnings("ignore::bayeskit.exceptions.SingularCovarianceWarning")
@pytest.mark.parametrize("model", [GAUSSIAN_NB(), FullBayes()], ids=["naive", "full"])
def test_variance_underflow_is_named_as_the_cause(model):
    X, y = _two_blobs()
    with pytest.warns(UserWarning, match=r"\['x0', 'x1'\].*squares underflow"):
        model.fit(X * 1e-300, y)


def test_underflowed_features_needs_differing_values():
    gm = gaussian_moments(np.array([[1e-300, 5.0], [1e-300, 5.0]]), np.array([0, 1]), 2)
    assert underflowed_features(gm).tolist() == [True, False]  # tiny and nonzero
    gm = gaussian_moments(np.array([[0.0, 1.0], [0.0, 2.0]]), np.array([0, 1]), 2)
    assert underflowed_features(gm).tolist() == [False, False]  # zero, or a real variance


def test_zero_evidence_posterior_is_the_prior_not_uniform():
    import pandas as pd

    X = pd.DataFrame({"a": ["u", "v", "v", "v"]})
    model = NaiveBayes(alpha=0.0, prior_alpha=0.0, categories={"a": ["u", "v", "w"]})
    model.fit(X, [0, 1, 1, 1])
    with pytest.warns(ZeroEvidenceWarning, match="class prior"):
        proba = model.predict_proba(pd.DataFrame({"a": ["w"]}))
    np.testing.assert_allclose(proba, [[0.25, 0.75]])
    model.set_params(priors=[1.0, 0.0]).fit(X, [0, 1, 1, 1])
    with pytest.warns(ZeroEvidenceWarning):
        np.testing.assert_array_equal(model.predict_proba(pd.DataFrame({"a": ["w"]})), [[1, 0]])


# ---------------------------------------------------------------- KNN
QUERIES = np.array([[1e155, 1e155], [-1e155, -1e155], [1e200, 1e200], [-1e200, -1e200]])


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev", "minkowski"])
def test_knn_far_queries_get_the_neighbours_on_their_side(weights, metric):
    X, y = _two_blobs()
    model = KNNBayes(weights=weights, metric=metric, p=3).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proba = model.predict_proba(QUERIES)
    # far to the upper right the nearest rows are class 1's, to the lower left class 0's
    np.testing.assert_array_equal(proba, [[0, 1], [1, 0], [0, 1], [1, 0]])
    radius = model.radius(QUERIES[:2])
    assert np.isfinite(radius).all()
    assert (radius >= 1e155).all()


def test_knn_far_query_neighbours_are_the_extreme_rows():
    X = np.array([[-2.0], [-1.0], [0.0], [1.0], [2.0]])
    model = KNNBayes(n_neighbors=2).fit(X, [0, 0, 0, 1, 1])
    dist, ind = model.kneighbors([[1e200], [-1e200]])
    assert ind.tolist() == [[4, 3], [0, 1]]
    np.testing.assert_allclose(dist, [[1e200, 1e200], [1e200, 1e200]])


@pytest.mark.parametrize("scale", [1e300, 1e-300])
@pytest.mark.parametrize("standard", [None, "standard"])
def test_knn_data_at_the_ends_of_float64(scale, standard):
    X, y = _two_blobs()
    model = KNNBayes(scale=standard).fit(X * scale, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proba = model.predict_proba(X * scale)
        radius = model.radius(X[:3] * scale)
    reference = KNNBayes(scale=standard).fit(X, y)
    np.testing.assert_array_equal(proba, reference.predict_proba(X))
    # radii are in the data's units, or in standard deviations with scale="standard"
    expected = reference.radius(X[:3]) * (scale if standard is None else 1.0)
    np.testing.assert_allclose(radius, expected, rtol=1e-6)


def test_knn_zero_prior_class_gets_zero_probability():
    X, _ = _two_blobs(20)
    y = np.r_[[0] * 10, [1] * 15, [2] * 15]
    model = KNNBayes(priors=[1.0, 0.0, 0.0]).fit(X, y)
    with pytest.warns(ZeroEvidenceWarning):  # rows with no class-0 neighbour: the prior
        proba = model.predict_proba(X)
    np.testing.assert_array_equal(proba, np.tile([1.0, 0.0, 0.0], (len(X), 1)))
    model = KNNBayes(priors=[0.5, 0.5, 0.0]).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroEvidenceWarning)
        proba = model.predict_proba(X)
    assert (proba[:, 2] == 0).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# ---------------------------------------------------------------- any magnitude
@settings(max_examples=30, deadline=None)
@given(
    train_exp=st.integers(-300, 300),
    query=st.lists(
        st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=2, max_size=2
    ),
)
@pytest.mark.parametrize(
    "make", [GAUSSIAN_NB, NaiveBayes, FullBayes, KNNBayes, lambda: KNNBayes(weights="distance")]
)
def test_posteriors_are_finite_at_any_magnitude(make, train_exp, query):
    X, y = _two_blobs(10)
    model = make()
    if isinstance(model, (NaiveBayes, FullBayes)) and abs(train_exp) > 150:
        # variances beyond float64 (1e600, or 1e-600 where values differ): refused by name or
        # named in a warning (the tests above); queries at any magnitude are still checked
        train_exp = 0
    model.fit(X * 10.0**train_exp, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # values left out, variance underflow, ridges: all said
        proba = model.predict_proba(np.array([query, [0.0, 0.0]]))
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
