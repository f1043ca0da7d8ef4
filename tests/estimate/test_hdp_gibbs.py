"""Hierarchical Dirichlet smoothing by Gibbs sampling (bayeskit.estimate.hdp_gibbs, issue 12)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import digamma

from bayeskit import KDB, TAN
from bayeskit.data import datasets
from bayeskit.estimate import hierarchical_dirichlet, hierarchical_gibbs, log_probabilities
from bayeskit.estimate.hdp_gibbs import _antoniak, _concentration


def test_normalised_finite_and_seeded():
    rng = np.random.default_rng(0)
    counts = rng.poisson(0.8, size=(3, 2, 4, 3, 5)).astype(float)
    logp = hierarchical_gibbs(counts, batch_axes=1, n_iter=60)
    assert logp.shape == counts.shape
    assert np.isfinite(logp).all()
    np.testing.assert_allclose(np.exp(logp).sum(axis=-1), 1.0, atol=1e-12)
    again = hierarchical_gibbs(counts, batch_axes=1, n_iter=60)
    np.testing.assert_array_equal(logp, again)
    other = hierarchical_gibbs(counts, batch_axes=1, n_iter=60, seed=1)
    assert not np.array_equal(logp, other)
    assert np.abs(np.exp(logp) - np.exp(other)).max() < 0.1  # two chains, one posterior


def test_unseen_configurations_share_their_parent_level():
    counts = np.array(
        [[[30.0, 10.0], [1.0, 0.0], [9.0, 3.0]], [[5.0, 15.0], [0.0, 0.0], [0.0, 0.0]]]
    )
    p = np.exp(hierarchical_gibbs(counts))
    np.testing.assert_allclose(p[1, 1], p[1, 2], atol=1e-12)
    assert 0.65 < p[0, 1, 0] < 0.85  # one row of value 0, pulled toward class 0's 3 : 1


def test_many_rows_approach_the_relative_frequencies():
    rng = np.random.default_rng(1)
    probs = rng.dirichlet(np.ones(4), size=(2, 3))
    counts = np.round(probs * 20000)
    p = np.exp(hierarchical_gibbs(counts, n_iter=40))
    np.testing.assert_allclose(p, counts / counts.sum(axis=-1, keepdims=True), atol=0.01)


def test_close_to_the_empirical_bayes_estimate():
    rng = np.random.default_rng(2)
    theta = rng.dirichlet(np.ones(3) * 2, size=(2, 4))
    counts = np.stack([rng.multinomial(40, t) for t in theta.reshape(-1, 3)]).reshape(2, 4, 3)
    g = np.exp(hierarchical_gibbs(counts.astype(float), n_iter=300))
    e = np.exp(hierarchical_dirichlet(counts.astype(float)))
    # one concentration per level here, one per node there: close, not equal
    assert np.abs(g - e).mean() < 0.03
    assert np.abs(g - e).max() < 0.15


def test_no_conditioning_axis_is_lidstone():
    counts = np.array([[3.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(
        hierarchical_gibbs(counts, 0.5, batch_axes=1), log_probabilities(counts, "lidstone", 0.5)
    )


def test_weighted_counts_and_zero_alpha():
    counts = np.array([[[2.5, 0.0, 0.25], [0.0, 0.0, 0.0]], [[0.0, 1.75, 0.0], [4.0, 0.0, 0.0]]])
    p = np.exp(hierarchical_gibbs(counts, 0.0, n_iter=50))
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, atol=1e-12)
    assert np.isfinite(hierarchical_gibbs(counts, 1.0, n_iter=50)).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_iter": 0}, "n_iter"),
        ({"n_iter": 10, "burn_in": 10}, "burn_in"),
        ({"burn_in": -1}, "burn_in"),
        ({"batch_axes": 4}, "batch_axes"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hierarchical_gibbs(np.ones((2, 3, 2)), **kwargs)
    with pytest.raises(ValueError, match="non-negative"):
        hierarchical_gibbs(np.array([[1.0, -1.0]]))


@pytest.mark.parametrize("n", [1.0, 7.0, 50.0, 500.0, 20000.0])
def test_antoniak_draws_have_the_chinese_restaurant_mean(n):
    # E[tables] = a (psi(a + n) - psi(a)); beyond 64 customers the sum is drawn as a normal
    rng = np.random.default_rng(3)
    a = np.array([0.3, 2.0, 40.0])
    draws = np.stack([_antoniak(rng, np.full(3, n), a) for _ in range(3000)])
    expected = a * (digamma(a + n) - digamma(a))
    assert (draws >= 1).all()
    assert (draws <= n).all()
    np.testing.assert_allclose(draws.mean(axis=0), expected, rtol=0.05, atol=0.02)


def test_concentration_sampler_finds_the_concentration_that_made_the_tables():
    # 400 restaurants of 60 customers each, seated with concentration 5
    rng = np.random.default_rng(4)
    n = np.full((1, 400), 60.0)
    t = np.array([(rng.random((400, 60)) < 5.0 / (5.0 + np.arange(60))).sum(axis=1)], float)
    s = np.array([1.0])
    kept = []
    for sweep in range(400):
        s = _concentration(rng, s, n, t)
        if sweep >= 100:
            kept.append(s[0])
    assert 4.0 < np.mean(kept) < 6.0


def test_as_a_classifier_smoothing():
    X, y = datasets.load("car")
    gibbs = KDB(smoothing="hierarchical-gibbs").fit(X, y)
    assert gibbs.score(X, y) > 0.9
    proba = gibbs.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    again = KDB(smoothing="hierarchical-gibbs").fit(X, y)
    np.testing.assert_array_equal(again.predict_proba(X), proba)  # seeded
    assert TAN(smoothing="hierarchical-gibbs").fit(X, y).score(X, y) > 0.9


def test_a_table_is_a_function_of_its_own_counts():
    # estimated alone or beside others (as a model's tables of one shape are), the same
    rng = np.random.default_rng(5)
    counts = rng.poisson(0.6, size=(4, 3, 2, 4)).astype(float)
    together = hierarchical_gibbs(counts, batch_axes=1, n_iter=40)
    for b in range(4):
        alone = hierarchical_gibbs(counts[b], n_iter=40)
        np.testing.assert_array_equal(alone, together[b])


def test_sparse_tables_never_get_probability_zero():
    # tiny Dirichlet parameters make sampled distributions underflow to 0; the estimate
    # integrates them out, so it stays positive wherever the root is
    rng = np.random.default_rng(6)
    counts = (rng.random((2, 4, 4, 4, 30)) < 0.02) * rng.integers(1, 4, (2, 4, 4, 4, 30))
    for alpha, batch in [(1.0, 0), (1e-3, 1)]:
        logp = hierarchical_gibbs(counts.astype(float), alpha, batch_axes=batch, n_iter=30)
        assert np.isfinite(logp).all()
