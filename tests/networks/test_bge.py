"""The BGe score: a one-variable marginal likelihood against direct numerical integration over
the Normal-Gamma prior, score equivalence, and a network learned back with it."""

import math

import numpy as np
import pytest
from scipy import integrate
from tests.networks.test_gaussian_structure import _gaussian_test_model

from bayeskit.graphs import DAG
from bayeskit.learning import learn_structure, score
from bayeskit.learning.bge import BGeScores


def test_one_variable_equals_numerical_integration():
    """With one variable, mu | tau ~ N(nu, 1 / (alpha_mu tau)) and tau ~ Gamma(alpha_w / 2,
    rate T0 / 2): integrate the likelihood over both, numerically."""
    x = np.array([0.3, -1.2, 2.1, 0.7, 1.5, -0.4])
    alpha_mu, alpha_w = 1.0, 3.0  # the defaults for one variable (n + 2)
    t0 = alpha_mu * (alpha_w - 1 - 1) / (alpha_mu + 1)
    nu = x.mean()

    n, s1, s2 = len(x), float(x.sum()), float((x**2).sum())
    shape, rate = alpha_w / 2, t0 / 2
    log_gamma_norm = shape * math.log(rate) - math.lgamma(shape)

    def density(mu, tau):  # the normal and gamma densities written out
        log_like = n / 2 * math.log(tau / (2 * math.pi)) - tau / 2 * (s2 - 2 * mu * s1 + n * mu**2)
        k = alpha_mu * tau
        log_mu = 0.5 * math.log(k / (2 * math.pi)) - k / 2 * (mu - nu) ** 2
        log_tau = log_gamma_norm + (shape - 1) * math.log(tau) - rate * tau
        return math.exp(log_like + log_mu + log_tau)

    value, err = integrate.dblquad(density, 0, 40, -8, 8, epsabs=1e-15, epsrel=1e-9)
    assert err < 1e-6 * value
    got = BGeScores(x[:, None], alpha_mu, alpha_w).log_marginal(frozenset({0}))
    assert got == pytest.approx(math.log(value), abs=1e-6)


def test_markov_equivalent_dags_score_alike():
    rng = np.random.default_rng(0)
    a = rng.normal(size=400)
    b = a + rng.normal(size=400)
    c = -b + rng.normal(size=400)
    import pandas as pd

    data = pd.DataFrame({"a": a, "b": b, "c": c})
    nodes = ["a", "b", "c"]
    chain = score(DAG(nodes, [("a", "b"), ("b", "c")]), data, "bge")
    back = score(DAG(nodes, [("c", "b"), ("b", "a")]), data, "bge")
    fork = score(DAG(nodes, [("b", "a"), ("b", "c")]), data, "bge")
    collider = score(DAG(nodes, [("a", "b"), ("c", "b")]), data, "bge")
    assert chain == pytest.approx(back, rel=1e-12)
    assert chain == pytest.approx(fork, rel=1e-12)
    assert collider < chain - 1.0  # another equivalence class, worse on this data


def test_the_gaussian_test_model_is_learned_with_bge():
    truth = _gaussian_test_model()
    data = truth.sample(5000, seed=4)
    learned = learn_structure(data, "bge")
    assert {frozenset(e) for e in learned.edges} == {frozenset(e) for e in truth.dag.edges}
    with pytest.raises(ValueError, match="'bge' is for continuous data"):
        learn_structure(data.assign(k=np.where(data["A"] > 1, "hi", "lo")), "bge")
