"""Structure learning on data with discrete and continuous columns: conditional linear Gaussian
family scores against least squares per configuration on the rows, the rule that no discrete
node has a continuous parent, and a sampled network learned back."""

import math

import numpy as np
import pandas as pd
import pytest
from tests.networks.test_hybrid_inference import _clg

from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.graphs import DAG
from bayeskit.learning import learn_structure, score
from bayeskit.networks import HybridNetwork

TWO = {"a": ["a0", "a1"], "b": ["b0", "b1", "b2"]}


def _two_parent_model():
    """``w`` depends on two discrete parents and a continuous one (a regression per (a, b))."""
    b0 = np.array([[0.0, 2.0, -1.0], [1.0, 3.0, 5.0]])
    slope = np.array([[[1.0], [-1.0], [0.5]], [[2.0], [0.0], [-2.0]]])
    var = np.array([[1.0, 0.5, 2.0], [0.25, 1.0, 1.5]])
    return HybridNetwork(
        DAG(edges=[("a", "w"), ("b", "w"), ("y", "w"), ("a", "b")]),
        [
            CPD("a", [], [0.4, 0.6], TWO),
            CPD("b", ["a"], [[0.2, 0.5, 0.3], [0.5, 0.2, 0.3]], TWO),
            LinearGaussianCPD("y", [], 0.0, [], 1.0),
            LinearGaussianCPD("w", ["a", "b", "y"], b0, slope, var, TWO),
        ],
    )


def _direct(data, child, discrete, continuous, kind):
    """A CLG family's score by least squares on the rows of each configuration."""
    groups = [data] if not discrete else [g for _, g in data.groupby(discrete, observed=True)]
    ll, q = 0.0, 1
    for d in discrete:
        q *= data[d].nunique()
    for g in groups:
        design = np.column_stack([np.ones(len(g)), g[continuous].to_numpy()])
        coef = np.linalg.lstsq(design, g[child].to_numpy(), rcond=None)[0]
        rss = float(np.sum((g[child].to_numpy() - design @ coef) ** 2))
        ll += -len(g) / 2 * (math.log(2 * math.pi * rss / len(g)) + 1)
    k = q * (len(continuous) + 2)
    return {"ll": ll, "aic": ll - k, "bic": ll - k * math.log(len(data)) / 2}[kind]


@pytest.mark.parametrize("kind", ["ll", "aic", "bic"])
def test_clg_family_scores_equal_least_squares_per_configuration(kind):
    net = _two_parent_model()
    data = net.sample(3000, seed=1)
    dag = DAG(list(data.columns), [("a", "w"), ("b", "w"), ("y", "w")])
    got = score(dag, data, kind)
    want = _direct(data, "w", ["a", "b"], ["y"], kind)
    # the other families: a, b (counts, no parents here) and y (a root)
    rest = score(DAG(list(data.columns), []), data[["a", "b", "y", "w"]], kind)
    alone = _direct(data, "w", [], [], kind)
    assert got - rest == pytest.approx(want - alone, rel=1e-9)


@pytest.mark.parametrize("model", [_clg, _two_parent_model])
def test_sampled_clg_networks_are_learned_back(model):
    truth = model()
    data = truth.sample(20_000, seed=3)
    learned = HybridNetwork.learn(data)
    assert {frozenset(e) for e in learned.dag.edges} == {frozenset(e) for e in truth.dag.edges}
    assert score(learned.dag, data) >= score(truth.dag, data) - 1e-6
    for u, v in learned.dag.edges:  # the rule: no continuous parent of a discrete node
        assert not (learned.is_continuous(u) and not learned.is_continuous(v))
    if "w" in truth.nodes:  # the node whose regressions depend on two discrete parents
        got, want = learned.cpd("w"), truth.cpd("w")
        order = [got.discrete_parents.index(p) for p in want.discrete_parents]
        np.testing.assert_allclose(np.transpose(got.intercept, order), want.intercept, atol=0.1)
        np.testing.assert_allclose(
            np.transpose(got.coefficients, [*order, 2]), want.coefficients, atol=0.1
        )


def test_mixed_data_takes_gaussian_scores_only():
    data = pd.DataFrame({"a": ["x", "y"] * 50, "v": np.linspace(0, 1, 100)})
    with pytest.raises(ValueError, match="'bdeu' is for discrete data"):
        learn_structure(data, "bdeu")
