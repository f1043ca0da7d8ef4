"""The conditional-distribution protocol: the tabular CPD follows it and agrees with the network
(counts, estimates, log-likelihood, sampling), and a toy noisy-OR distribution written only
through the protocol serves generic forward sampling and log-likelihood code."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.factors import CPD, ConditionalDistribution, Factor
from bayeskit.networks import DAG, BayesianNetwork, VariableElimination, fit_parameters, read_bif

ASIA = read_bif(Path(__file__).parent / "data" / "asia.bif.gz")


# ---------------------------------------------------------------- code that knows only the protocol
def forward_sample(dag: DAG, cpds: dict, n: int, seed: int) -> dict:
    """Each node's draws, in topological order, each given its parents' draws."""
    rng = np.random.default_rng(seed)
    draws: dict = {}
    for node in dag.topological_order():
        cpd = cpds[node]
        parents = (
            np.column_stack([draws[p] for p in cpd.parents])
            if cpd.parents
            else np.empty((n, 0), dtype=np.int64)
        )
        draws[node] = cpd.sample(parents, rng)
    return draws


def log_likelihood(cpds: dict, columns: dict) -> np.ndarray:
    """Each row's log-likelihood: the sum of its nodes' log densities."""
    n = len(next(iter(columns.values())))
    total = np.zeros(n)
    for cpd in cpds.values():
        parents = (
            np.column_stack([columns[p] for p in cpd.parents])
            if cpd.parents
            else np.empty((n, 0), dtype=np.int64)
        )
        total += cpd.log_density(columns[cpd.variable], parents)
    return total


# ---------------------------------------------------------------- a toy distribution
class NoisyOr:
    """A binary node (states "0", "1") that is on unless each of its on parents is inhibited
    (probability ``inhibit[i]``) and the leak stays off (``1 - leak``)."""

    def __init__(self, variable, parents, inhibit, leak=0.0):
        self.variable, self.parents = variable, tuple(parents)
        self.inhibit, self.leak = np.asarray(inhibit, dtype=np.float64), float(leak)

    def _p_on(self, parents: np.ndarray) -> np.ndarray:
        parents = np.asarray(parents, dtype=np.int64).reshape(-1, len(self.parents))
        off = (1.0 - self.leak) * np.prod(np.where(parents == 1, self.inhibit, 1.0), axis=1)
        return 1.0 - off

    def statistic(self, child, parents, weights=None):
        # the counts of each parent configuration's child states, as a table
        table = self.to_factor().values
        cpd = CPD(self.variable, self.parents, table, self._states())
        return cpd.statistic(child, parents, weights)

    def estimate(self, statistic, **options):
        return NoisyOr(self.variable, self.parents, self.inhibit, self.leak)  # fixed parameters

    def log_density(self, child, parents):
        p_on = self._p_on(parents)
        with np.errstate(divide="ignore"):
            return np.log(np.where(np.asarray(child) == 1, p_on, 1.0 - p_on))

    def sample(self, parents, rng):
        return (rng.random(len(parents)) < self._p_on(parents)).astype(np.int64)

    def _states(self):
        return {v: ["0", "1"] for v in (*self.parents, self.variable)}

    def to_factor(self):
        k = len(self.parents)
        configs = np.indices((2,) * k).reshape(k, -1).T
        p_on = self._p_on(configs)
        table = np.stack([1.0 - p_on, p_on], axis=-1).reshape((2,) * k + (2,))
        return Factor([*self.parents, self.variable], table, self._states())


def test_the_tabular_cpd_and_the_toy_follow_the_protocol():
    assert isinstance(ASIA.cpd("dysp"), ConditionalDistribution)
    assert isinstance(NoisyOr("c", ["a", "b"], [0.2, 0.4]), ConditionalDistribution)
    assert not isinstance(np.zeros(2), ConditionalDistribution)


def test_the_tabular_cpd_counts_and_estimates_as_the_network_fit_does():
    data = ASIA.sample(3000, seed=1)
    fitted = fit_parameters(ASIA.dag, data, estimator="lidstone", alpha=1.0).network
    codes = ASIA.encode(data)
    pos = {n: j for j, n in enumerate(ASIA.nodes)}
    for node in ASIA.nodes:
        cpd = ASIA.cpd(node)
        parents = codes[:, [pos[p] for p in cpd.parents]]
        counts = cpd.statistic(codes[:, pos[node]], parents)
        assert counts.sum() == len(data)
        estimated = cpd.estimate(counts, estimator="lidstone", alpha=1.0)
        np.testing.assert_allclose(estimated.values, fitted.cpt(node), rtol=1e-12)
        assert estimated.parents == cpd.parents
        assert estimated.states == cpd.states


def test_the_tabular_cpds_log_densities_sum_to_the_networks_log_likelihood():
    data = ASIA.sample(500, seed=2)
    codes = ASIA.encode(data)
    columns = {n: codes[:, j] for j, n in enumerate(ASIA.nodes)}
    cpds = {n: ASIA.cpd(n) for n in ASIA.nodes}
    np.testing.assert_allclose(
        log_likelihood(cpds, columns), ASIA.log_likelihood(data, per_row=True), rtol=1e-12
    )


def test_the_tabular_cpds_forward_sampling_follows_the_tables():
    cpds = {n: ASIA.cpd(n) for n in ASIA.nodes}
    draws = forward_sample(ASIA.dag, cpds, 40_000, seed=3)
    for node in ("asia", "smoke", "either"):
        exact = VariableElimination(ASIA).query([node]).values
        seen = np.bincount(draws[node], minlength=len(exact)) / 40_000
        np.testing.assert_allclose(seen, exact, atol=0.01)


def test_a_noisy_or_written_through_the_protocol_samples_and_scores():
    dag = DAG(edges=[("a", "c"), ("b", "c")])
    two = {"a": ["0", "1"]}
    cpds = {
        "a": CPD("a", [], [0.7, 0.3], two),
        "b": CPD("b", [], [0.4, 0.6], {"b": ["0", "1"]}),
        "c": NoisyOr("c", ["a", "b"], [0.2, 0.5], leak=0.1),
    }
    # the same network as tables, built from each distribution's factor form
    tables = {n: cpd.to_factor().values for n, cpd in cpds.items()}
    states = {n: ["0", "1"] for n in dag.nodes}
    net = BayesianNetwork(dag, tables, states=states)
    draws = forward_sample(dag, cpds, 50_000, seed=4)
    frame = pd.DataFrame({n: pd.Categorical.from_codes(draws[n], ["0", "1"]) for n in dag.nodes})
    np.testing.assert_allclose(
        log_likelihood(cpds, draws), net.log_likelihood(frame, per_row=True), rtol=1e-12
    )
    seen = draws["c"].mean()
    assert seen == pytest.approx(VariableElimination(net).query(["c"]).values[1], abs=0.01)
    counts = cpds["c"].statistic(draws["c"], np.column_stack([draws["a"], draws["b"]]))
    assert counts.shape == (2, 2, 2)
    assert counts.sum() == 50_000
