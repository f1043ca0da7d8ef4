"""The diagonal and spherical Gaussian E-step, compiled in one pass, against the generic steps
(emission log-likelihoods, forward-backward, weighted moments) on the same sequences."""

import numpy as np
import pytest

from bayeskit.sequences import GaussianEmission, expected_statistics


def _generic(e, params, X, offsets):
    # known states all unknown: the same E-step by the generic steps
    return expected_statistics(e, params, X, offsets, known=np.full(len(X), -1))


def _compare(e, params, X, offsets):
    fast, ll_fast = expected_statistics(e, params, X, offsets)
    slow, ll_slow = _generic(e, params, X, offsets)
    assert fast.keys() == slow.keys()
    np.testing.assert_allclose(ll_fast, ll_slow, rtol=1e-12)
    for key in slow:
        np.testing.assert_allclose(fast[key], slow[key], rtol=1e-10, atol=1e-12, err_msg=key)
    return ll_fast


@pytest.mark.parametrize("kind", ["diag", "spherical"])
def test_many_sequences_with_missing_values_and_an_empty_one(kind):
    rng = np.random.default_rng(0)
    n, d = 3, 4
    params = {
        "startprob_": rng.dirichlet(np.ones(n)),
        "transmat_": rng.dirichlet(np.ones(n), size=n),
        "means_": rng.normal(size=(n, d)) * 2,
        "covars_": rng.uniform(0.5, 2.0, size=(n, d) if kind == "diag" else n),
    }
    X = rng.normal(size=(60, d)) * 2
    X[rng.random(X.shape) < 0.15] = np.nan
    X[7] = np.nan  # a step with nothing observed
    e = GaussianEmission({"covariance_type": kind})
    offsets = np.array([0, 25, 25, 26, 60])  # lengths 25, 0, 1 and 34
    _compare(e, params, e.check(X), offsets)


def test_a_sequence_beyond_the_scaled_range_is_redone_in_log_space():
    # State 0 must go to state 1, whose density at x = 100 is about exp(-5000): the scaled
    # pass underflows there, while the log-space pass gives the sequence its true probability.
    params = {
        "startprob_": np.array([1.0, 0.0]),
        "transmat_": np.array([[0.0, 1.0], [0.5, 0.5]]),
        "means_": np.array([[100.0], [0.0]]),
        "covars_": np.array([[1.0], [1.0]]),
    }
    e = GaussianEmission({"covariance_type": "diag"})
    X = e.check([[100.0], [100.0], [0.0], [100.0], [1.0], [0.5]])
    ll = _compare(e, params, X, np.array([0, 3, 4, 6]))
    assert ll[0] < -4000
    assert np.isfinite(ll).all()
    # the second sequence alone is within range: the redo touched only the first
    single, _ = expected_statistics(e, params, X[3:4], np.array([0, 1]))
    np.testing.assert_allclose(single["start"], [1.0, 0.0])
