"""Covariance estimation from scatter moments: MLE/ddof, ridge to the diagonal, Ledoit-Wolf, the
fallback ridge, and Cholesky-based normal densities."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.covariance import ledoit_wolf

from bayeskit.estimate import (
    RIDGE_FACTOR,
    ledoit_wolf_intensity,
    log_determinant,
    mahalanobis_squared,
    mvn_log_density,
    regularised_cholesky,
    ridge_start,
    ridge_to_diagonal,
    scatter_covariance,
    shrink_to_identity,
    shrunk_covariance,
)
from bayeskit.stats import scatter_moments, shrinkage_moments


def _data(n=120, d=5, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)) @ rng.normal(size=(d, d)) + rng.normal(size=d)
    return x, rng.integers(0, 2, n)


@pytest.mark.parametrize("ddof", [0, 1, 2])
def test_scatter_covariance_matches_numpy(ddof):
    x, y = _data()
    cov = scatter_covariance(scatter_moments(x, y, 2), ddof)
    for c in range(2):
        np.testing.assert_allclose(cov[c], np.cov(x[y == c].T, ddof=ddof), rtol=1e-10)


def test_scatter_covariance_is_zero_without_degrees_of_freedom():
    x = np.array([[1.0, 2.0]])
    cov = scatter_covariance(scatter_moments(x, np.array([0]), 2), ddof=1)
    assert np.all(cov == 0)


def test_ridge_to_diagonal_goes_from_the_covariance_to_its_diagonal():
    x, y = _data()
    cov = scatter_covariance(scatter_moments(x, y, 2))
    np.testing.assert_allclose(ridge_to_diagonal(cov, 0.0), cov)
    np.testing.assert_allclose(ridge_to_diagonal(cov[0], 1.0), np.diag(np.diag(cov[0])))
    half = ridge_to_diagonal(cov, 0.5)
    np.testing.assert_allclose(
        np.diagonal(half, axis1=1, axis2=2), np.diagonal(cov, axis1=1, axis2=2)
    )


@pytest.mark.parametrize(("n", "d"), [(4, 2), (40, 5), (8, 20), (200, 1), (3, 3)])
def test_ledoit_wolf_matches_scikit_learn(n, d):
    x, _ = _data(n, d, seed=n + d)
    y = np.zeros(n, dtype=int)
    expected, intensity = ledoit_wolf(x)
    sm = shrinkage_moments(x, y, 1)
    np.testing.assert_allclose(ledoit_wolf_intensity(sm), [intensity], rtol=1e-9, atol=1e-12)
    cov, used = shrunk_covariance(sm, ddof=0, shrinkage="ledoit-wolf")
    np.testing.assert_allclose(cov[0], expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(used, [intensity], rtol=1e-9, atol=1e-12)


def test_ledoit_wolf_from_merged_moments_equals_one_pass():
    x, y = _data(300, 6)
    whole = ledoit_wolf_intensity(shrinkage_moments(x, y, 2))
    merged = ledoit_wolf_intensity(
        shrinkage_moments(x[:77], y[:77], 2) + shrinkage_moments(x[77:], y[77:], 2)
    )
    np.testing.assert_allclose(merged, whole, rtol=1e-9)


def test_ledoit_wolf_of_an_empty_or_single_row_class_is_zero():
    x = np.array([[1.0, 2.0], [3.0, 1.0]])
    sm = shrinkage_moments(x, np.array([0, 1]), 3)
    assert ledoit_wolf_intensity(sm).tolist() == [0.0, 0.0, 0.0]


def test_shrink_to_identity_keeps_the_trace():
    x, y = _data()
    cov = scatter_covariance(scatter_moments(x, y, 2))
    out = shrink_to_identity(cov, [0.3, 1.0])
    np.testing.assert_allclose(np.trace(out, axis1=1, axis2=2), np.trace(cov, axis1=1, axis2=2))
    np.testing.assert_allclose(out[1], np.eye(5) * np.trace(cov[1]) / 5)


def test_shrunk_covariance_dispatches_on_the_setting():
    x, y = _data()
    sm = shrinkage_moments(x, y, 2)
    plain, a = shrunk_covariance(sm, ddof=1)
    np.testing.assert_allclose(plain, scatter_covariance(sm.scatter, 1))
    assert a.tolist() == [0.0, 0.0]
    ridged, a = shrunk_covariance(sm, ddof=1, shrinkage=0.25)
    np.testing.assert_allclose(ridged, ridge_to_diagonal(plain, 0.25))
    assert a.tolist() == [0.25, 0.25]
    with pytest.raises(ValueError, match="'oas'"):
        shrunk_covariance(sm, shrinkage="oas")


def test_ridge_start_is_a_fraction_of_the_largest_pooled_variance():
    x, y = _data()
    assert ridge_start(scatter_moments(x, y, 2)) == pytest.approx(
        RIDGE_FACTOR * x.var(axis=0).max()
    )
    constant = scatter_moments(np.ones((4, 2)), np.array([0, 0, 1, 1]), 2)
    assert ridge_start(constant) == RIDGE_FACTOR


def test_regularised_cholesky_leaves_a_positive_definite_matrix_alone():
    x, _ = _data()
    cov = np.cov(x.T)
    chol, tau = regularised_cholesky(cov, 1e-9)
    assert tau == 0.0
    np.testing.assert_allclose(chol @ chol.T, cov, rtol=1e-12)


@pytest.mark.parametrize(
    "cov",
    [
        np.zeros((3, 3)),  # one row: no spread at all
        np.array([[2.0, 2.0], [2.0, 2.0]]),  # duplicated column
        np.cov(np.random.default_rng(0).normal(size=(3, 6)).T),  # fewer rows than features
    ],
    ids=["zero", "duplicate-columns", "rank-deficient"],
)
def test_regularised_cholesky_adds_a_ridge_to_singular_matrices(cov):
    chol, tau = regularised_cholesky(cov, 1e-9)
    assert tau >= 1e-9
    np.testing.assert_allclose(chol @ chol.T, cov + tau * np.eye(len(cov)), atol=1e-12)
    assert np.all(np.isfinite(chol))
    assert np.all(np.diagonal(chol) > 0)


def test_mvn_log_density_matches_scipy():
    x, _ = _data(50, 4)
    mean, cov = x.mean(axis=0), np.cov(x.T)
    chol = np.linalg.cholesky(cov)
    np.testing.assert_allclose(
        mvn_log_density(x, mean, chol), multivariate_normal(mean, cov).logpdf(x), rtol=1e-12
    )


def test_mahalanobis_and_log_determinant_match_numpy():
    x, _ = _data(30, 3)
    mean, cov = x.mean(axis=0), np.cov(x.T)
    chol = np.linalg.cholesky(cov)
    dev = x - mean
    expected = np.einsum("ij,jk,ik->i", dev, np.linalg.inv(cov), dev)
    np.testing.assert_allclose(mahalanobis_squared(x, mean, chol), expected, rtol=1e-10)
    assert log_determinant(chol) == pytest.approx(np.linalg.slogdet(cov)[1], rel=1e-12)


def test_mvn_log_density_is_finite_for_a_tiny_ridge():
    # A point mass regularised by the smallest ridge: a sharp but finite density, never NaN.
    chol, _ = regularised_cholesky(np.zeros((2, 2)), 1e-9)
    out = mvn_log_density(np.array([[0.0, 0.0], [1.0, -1.0]]), np.zeros(2), chol)
    assert np.all(np.isfinite(out))
    assert out[0] > out[1]
