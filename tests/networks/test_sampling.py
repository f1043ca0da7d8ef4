"""Approximate inference: Gibbs sampling, likelihood weighting, rejection sampling (issue 14)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bayeskit.inference.sampling import (
    DeterministicCPTWarning,
    GibbsSampler,
    likelihood_weighting,
    rejection_sampling,
    split_r_hat,
)
from bayeskit.networks import DAG, BayesianNetwork, JunctionTree, read_bif

ASIA = read_bif(Path(__file__).parent / "data" / "asia.bif.gz")
SPRINKLER = BayesianNetwork(
    DAG(edges=[("cloudy", "rain"), ("cloudy", "sprinkler"), ("rain", "wet"), ("sprinkler", "wet")]),
    {"cloudy": [0.5, 0.5], "rain": [[0.8, 0.2], [0.2, 0.8]], "sprinkler": [[0.1, 0.9], [0.5, 0.5]],
     "wet": [[[0.99, 0.01], [0.9, 0.1]], [[0.9, 0.1], [0.05, 0.95]]]},
    states=dict.fromkeys(["cloudy", "rain", "sprinkler", "wet"], ["T", "F"]),
)  # fmt: skip


def _tolerance(p: np.ndarray, n_effective: float) -> np.ndarray:
    """Five standard errors of a share estimated from ``n_effective`` independent draws."""
    return 5 * np.sqrt(np.maximum(p * (1 - p), 1e-4) / n_effective)


@pytest.mark.parametrize("evidence", [{"wet": "T"}, {"wet": "T", "cloudy": "F"}, {}])
def test_gibbs_converges_to_the_exact_posterior(evidence):
    exact = JunctionTree(SPRINKLER)
    sampler = GibbsSampler(SPRINKLER)
    for n_draws in (2_000, 20_000):
        result = sampler.query(["rain", "sprinkler"], evidence, n_draws=n_draws, seed=1)
        for node in ("rain", "sprinkler"):
            p = exact.query(node, evidence).values
            # the chains' draws are correlated: count a tenth of them as independent
            tol = _tolerance(p, 4 * n_draws / 10)
            assert (np.abs(result.marginals[node].values - p) <= tol).all()
            assert result.r_hat[node] < 1.05
    assert len(result.draws) == 4 * 20_000
    assert set(result.draws.columns) == {"rain", "sprinkler", "chain", "draw"}


@pytest.mark.filterwarnings("ignore::bayeskit.inference.sampling.DeterministicCPTWarning")
def test_gibbs_is_reproducible_whatever_the_threads(monkeypatch):
    from bayeskit import num_threads

    monkeypatch.setattr("bayeskit._compiled.PARALLEL_MIN_WORK", 0)  # the parallel build runs
    sampler = GibbsSampler(ASIA)
    evidence = {"xray": "yes", "dysp": "yes"}
    with num_threads(1):
        one = sampler.query(["lung", "bronc"], evidence, n_draws=3000, seed=7, thin=2)
    with num_threads(2):
        two = sampler.query(["lung", "bronc"], evidence, n_draws=3000, seed=7, thin=2)
    assert one.draws.equals(two.draws)
    other = sampler.query(["lung", "bronc"], evidence, n_draws=3000, seed=8, thin=2)
    assert not one.draws.equals(other.draws)


def test_deterministic_cpts_are_reported_and_r_hat_sees_a_stuck_chain():
    # b copies a exactly: single-node moves can never change either
    net = BayesianNetwork(DAG(edges=[("a", "b")]), {"a": [0.5, 0.5], "b": [[1.0, 0.0], [0.0, 1.0]]},
                          states={"a": ["0", "1"], "b": ["0", "1"]})  # fmt: skip
    with pytest.warns(DeterministicCPTWarning, match="entries of exactly 0 or 1"):
        result = GibbsSampler(net).query("a", n_draws=500, n_chains=8, seed=3)
    assert result.r_hat["a"] > 1.1
    # ASIA's 'either' is a logical OR: reported too
    with pytest.warns(DeterministicCPTWarning, match="'either'"):
        GibbsSampler(ASIA).query("lung", n_draws=50, seed=0)


def test_split_r_hat():
    rng = np.random.default_rng(0)
    mixed = rng.normal(size=(4000, 4))
    assert split_r_hat(mixed) == pytest.approx(1.0, abs=0.01)
    apart = mixed + np.array([0.0, 0.0, 3.0, 3.0])
    assert split_r_hat(apart) > 1.5
    assert split_r_hat(np.ones((100, 3))) == 1.0


@pytest.mark.parametrize("n_samples", [5_000, 80_000])
def test_likelihood_weighting_and_rejection_sampling_converge(n_samples):
    exact = JunctionTree(ASIA)
    evidence = {"smoke": "yes", "dysp": "yes"}
    lw = likelihood_weighting(ASIA, ["lung", "bronc"], evidence, n_samples=n_samples, seed=0)
    rs = rejection_sampling(ASIA, ["lung", "bronc"], evidence, n_samples=n_samples, seed=0)
    accepted = n_samples * exact.probability_of_evidence(evidence)
    for node in ("lung", "bronc"):
        p = exact.query(node, evidence).values
        assert (np.abs(lw[node].values - p) <= _tolerance(p, n_samples / 2)).all()
        assert (np.abs(rs[node].values - p) <= _tolerance(p, accepted)).all()


@pytest.mark.filterwarnings("ignore::bayeskit.inference.sampling.DeterministicCPTWarning")
def test_sampling_errors_are_named():
    with pytest.raises(ValueError, match="'nowhere' is no node"):
        GibbsSampler(ASIA).query("nowhere")
    with pytest.raises(ValueError, match="both queried and observed"):
        likelihood_weighting(ASIA, "lung", {"lung": "yes"})
    with pytest.raises(ValueError, match="no such state"):
        rejection_sampling(ASIA, "lung", {"xray": "maybe"})
    with pytest.raises(ValueError, match="n_draws must be an integer >= 1"):
        GibbsSampler(ASIA).query("lung", n_draws=0)
    # impossible evidence: refused as exact inference refuses it (tests/networks/
    # test_zero_evidence.py has the possible-but-unmet case)
    impossible = {"either": "no", "lung": "yes"}
    with pytest.raises(ValueError, match="has probability zero"):
        likelihood_weighting(ASIA, "tub", impossible, n_samples=1000)
    with pytest.raises(ValueError, match="has probability zero"):
        rejection_sampling(ASIA, "tub", impossible, n_samples=1000)
    with pytest.raises(ValueError, match="has probability zero"):
        GibbsSampler(ASIA).query("tub", impossible, n_draws=10)
