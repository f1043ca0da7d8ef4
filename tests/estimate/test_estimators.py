"""Estimators: the seed formulas, and no NaN on empty tables."""

from __future__ import annotations

import numpy as np
import pytest

from bayeskit.estimate import (
    dirichlet_map,
    dirichlet_posterior_mean,
    gaussian_log_density,
    gaussian_parameters,
    laplace,
    lidstone,
    log_probabilities,
    m_estimate,
    mle,
    variance_floor,
)
from bayeskit.stats import gaussian_moments


def test_mle_relative_frequencies():
    np.testing.assert_allclose(np.exp(mle(np.array([3.0, 1.0, 0.0]))), [0.75, 0.25, 0.0])
    assert mle(np.array([1.0, 0.0]))[1] == -np.inf


def test_empty_table_is_uniform_not_nan():
    for est in (mle(np.zeros(4)), lidstone(np.zeros(4), 0.0), m_estimate(np.zeros(4), 0.0)):
        np.testing.assert_allclose(np.exp(est), 0.25)


def test_laplace_is_zhou_7_20():
    # Zhou eq. 7.20: P(x_i | c) = (|D_c,x_i| + 1) / (|D_c| + N_i); (3 + 1) / (8 + 3)
    assert np.exp(laplace(np.array([3.0, 5.0, 0.0]))[0]) == pytest.approx(4 / 11)


def test_lidstone_along_axis():
    counts = np.array([[1.0, 3.0], [0.0, 0.0]])
    out = np.exp(lidstone(counts, 0.5, axis=1))
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    np.testing.assert_allclose(out[0], [1.5 / 5, 3.5 / 5])


def test_m_estimate_with_prior():
    out = np.exp(m_estimate(np.array([2.0, 0.0]), m=4, prior=np.array([0.25, 0.75])))
    np.testing.assert_allclose(out, [3 / 6, 3 / 6])


def test_m_estimate_rejects_bad_prior():
    with pytest.raises(ValueError, match="prior must be 2 non-negative probabilities"):
        m_estimate(np.array([1.0, 1.0]), 1.0, prior=np.array([0.9, 0.9]))


def test_dirichlet_map_and_mean():
    counts = np.array([4.0, 0.0, 1.0])
    np.testing.assert_allclose(np.exp(dirichlet_map(counts, 2.0)), [5 / 8, 1 / 8, 2 / 8])
    np.testing.assert_allclose(
        np.exp(dirichlet_posterior_mean(counts, 2.0)), [6 / 11, 2 / 11, 3 / 11]
    )
    np.testing.assert_allclose(np.exp(dirichlet_map(counts, 1.0)), np.exp(mle(counts)))


def test_dirichlet_map_needs_alpha_at_least_one():
    with pytest.raises(ValueError, match="alpha >= 1"):
        dirichlet_map(np.array([1.0]), 0.5)


def test_log_probabilities_dispatch_and_error():
    np.testing.assert_allclose(
        log_probabilities(np.array([1.0, 2.0]), "lidstone", 1.0),
        lidstone(np.array([1.0, 2.0]), 1.0),
    )
    with pytest.raises(ValueError, match="smoothing must be one of"):
        log_probabilities(np.array([1.0]), "kneser-ney", 1.0)


def test_gaussian_parameters_ddof_and_empty_class():
    values = np.array([[1.0], [3.0], [5.0]])
    gm = gaussian_moments(values, np.array([0, 0, 0]), 2)
    mean, var0 = gaussian_parameters(gm, ddof=0)
    _, var1 = gaussian_parameters(gm, ddof=1)
    assert mean[0, 0] == 3.0
    assert var0[0, 0] == pytest.approx(8 / 3)
    assert var1[0, 0] == 4.0
    # class 1 has no data: it backs off to the pooled estimate (here: class 0's)
    assert mean[1, 0] == 3.0
    assert var0[1, 0] == pytest.approx(8 / 3)
    raw_mean, raw_var = gaussian_parameters(gm, ddof=0, backoff=False)
    assert raw_mean[1, 0] == 0.0  # without backoff: mean 0 and variance inf (density 0, no NaN)
    assert raw_var[1, 0] == np.inf


def test_one_sample_with_ddof_one_has_zero_variance():
    gm = gaussian_moments(np.array([[2.0]]), np.array([0]), 1)
    assert gaussian_parameters(gm, ddof=1)[1][0, 0] == 0.0


def test_gaussian_log_density_matches_scipy():
    from scipy.stats import norm

    x = np.array([-1.0, 0.3, 2.0])
    np.testing.assert_allclose(gaussian_log_density(x, 0.2, 1.7), norm.logpdf(x, 0.2, np.sqrt(1.7)))


def test_gaussian_log_density_point_mass_and_no_data():
    assert gaussian_log_density(1.0, 1.0, 0.0) == np.inf
    assert gaussian_log_density(1.5, 1.0, 0.0) == -np.inf
    assert gaussian_log_density(1.5, 0.0, np.inf) == -np.inf


def test_variance_floor_uses_largest_pooled_variance():
    values = np.array([[0.0, 0.0], [2.0, 10.0], [4.0, 20.0]])
    gm = gaussian_moments(values, np.array([0, 1, 1]), 2)
    assert variance_floor(gm, 0.1) == pytest.approx(0.1 * np.var(values[:, 1]))


def test_lidstone_where_zero_smooths_only_distributions_with_a_zero():
    from bayeskit.estimate import lidstone, lidstone_where_zero, log_probabilities, mle

    counts = np.array([[[0.0, 4.0], [2.0, 2.0]], [[1.0, 3.0], [0.0, 0.0]]])
    got = lidstone_where_zero(counts, 0.5)
    np.testing.assert_allclose(got[0, 0], lidstone(counts[0, 0], 0.5))
    np.testing.assert_allclose(got[0, 1], mle(counts[0, 1]))
    np.testing.assert_allclose(got[1, 0], mle(counts[1, 0]))
    np.testing.assert_allclose(got[1, 1], np.log([0.5, 0.5]))  # an empty row: uniform
    # along another axis, each column is its own distribution
    np.testing.assert_allclose(
        lidstone_where_zero(counts[0], 1.0, axis=0)[:, 1], mle(counts[0][:, 1])
    )
    np.testing.assert_allclose(log_probabilities(counts, "lidstone-where-zero", 0.5), got)
