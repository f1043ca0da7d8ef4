"""Structure learning on continuous data: linear-Gaussian family scores from the scatter
matrix, against least squares on the rows with an intercept column, and the climb on data
sampled from a known network."""

import math

import numpy as np
import pandas as pd
import pytest
from tests.networks.test_gaussian_networks import random_gaussian_network

from bayeskit.graphs import DAG
from bayeskit.learning import learn_structure, learn_tree, score
from bayeskit.learning.gaussian_scores import GaussianScores


def _direct(values, v, parents, kind, weights=None):
    """A family's score by weighted least squares on the rows (an intercept column)."""
    w = np.ones(len(values)) if weights is None else weights
    design = np.column_stack([np.ones(len(values)), values[:, parents]])
    sw = np.sqrt(w)
    coef = np.linalg.lstsq(design * sw[:, None], values[:, v] * sw, rcond=None)[0]
    n = w.sum()
    rss = float(w @ (values[:, v] - design @ coef) ** 2)
    ll = -n / 2 * (math.log(2 * math.pi * rss / n) + 1)
    k = len(parents) + 2
    return {"ll": ll, "aic": ll - k, "bic": ll - k * math.log(n) / 2}[kind]


@pytest.mark.parametrize("kind", ["ll", "aic", "bic"])
def test_family_scores_and_extensions_equal_least_squares(kind):
    rng = np.random.default_rng(0)
    values = rng.normal(size=(400, 5)) @ rng.normal(size=(5, 5))
    weights = rng.uniform(0.2, 3.0, size=400)
    for w in (None, weights):
        scorer = GaussianScores(values, kind, w)
        for v, parents in [(0, []), (1, [0]), (4, [0, 2, 3])]:
            want = _direct(values, v, parents, kind, w)
            assert scorer(v, frozenset(parents)) == pytest.approx(want, rel=1e-10)
            ext = scorer.extensions(v, frozenset(parents))
            for u in range(5):
                if u == v or u in parents:
                    assert ext[u] == -np.inf
                else:
                    want_u = _direct(values, v, [*parents, u], kind, w)
                    assert ext[u] == pytest.approx(want_u, rel=1e-10)


def test_collinear_and_determined_families_stay_finite():
    rng = np.random.default_rng(1)
    u = rng.normal(size=200)
    values = np.column_stack([u, 2 * u, 3 * u + 1, rng.normal(size=200)])
    scorer = GaussianScores(values, "bic")
    ext = scorer.extensions(2, frozenset({0}))
    assert np.isfinite(ext[[1, 3]]).all()
    assert ext[1] == pytest.approx(scorer(2, frozenset({0})) - math.log(200) / 2)  # no gain
    assert np.isfinite(scorer(2, frozenset({0, 1})))


def test_the_climb_finds_the_skeleton_and_beats_the_truth_score():
    rng = np.random.default_rng(2)
    net, names, _, _ = random_gaussian_network(8, rng, max_parents=2)
    data = net.sample(20_000, seed=3)
    learned = learn_structure(data)
    truth = {frozenset(e) for e in net.dag.edges}
    assert {frozenset(e) for e in learned.edges} == truth
    assert score(learned, data) >= score(net.dag, data) - 1e-6
    tree = learn_tree(data)
    assert len(tree.edges) <= len(names) - 1


def test_weights_are_repeated_rows_and_scores_need_numbers():
    rng = np.random.default_rng(4)
    data = pd.DataFrame(rng.normal(size=(300, 3)), columns=list("abc"))
    data["c"] += data["a"]
    w = rng.integers(0, 3, 300)
    repeated = data.loc[data.index.repeat(w)].reset_index(drop=True)
    dag = DAG(edges=[("a", "c"), ("b", "c")])
    assert score(dag, data, sample_weight=w) == pytest.approx(score(dag, repeated), rel=1e-10)
    with pytest.raises(ValueError, match="'k2' is for discrete data"):
        learn_structure(data, "k2")
    holed = data.copy()
    holed.iloc[5, 1] = np.nan
    with pytest.raises(ValueError, match="column 'b' has a missing or infinite value"):
        learn_structure(holed)
    data["d"] = 1.5
    with pytest.raises(ValueError, match="column 'd' is constant"):
        learn_structure(data)


def _gaussian_test_model():
    """bnlearn's ``gaussian.test`` model, from the script that generates its data set:
    A ~ N(1, 1), B ~ N(2, 3^2), E ~ N(3.5, 2^2), G ~ N(5, 2^2), C = 2 (A + B) + N(2, 0.5^2),
    D = 1.5 B + N(6, 0.33^2), F = 2 A + D + E + 1.5 G + N(0, 1)."""
    from bayeskit.factors import LinearGaussianCPD
    from bayeskit.networks import HybridNetwork

    cpds = [
        LinearGaussianCPD("A", [], 1.0, [], 1.0),
        LinearGaussianCPD("B", [], 2.0, [], 9.0),
        LinearGaussianCPD("C", ["A", "B"], 2.0, [2.0, 2.0], 0.25),
        LinearGaussianCPD("D", ["B"], 6.0, [1.5], 0.33**2),
        LinearGaussianCPD("E", [], 3.5, [], 4.0),
        LinearGaussianCPD("F", ["A", "D", "E", "G"], 0.0, [2.0, 1.0, 1.0, 1.5], 1.0),
        LinearGaussianCPD("G", [], 5.0, [], 4.0),
    ]
    edges = [("A", "C"), ("B", "C"), ("B", "D"), ("A", "F"), ("D", "F"), ("E", "F"), ("G", "F")]
    return HybridNetwork(DAG(list("ABCDEFG"), edges), cpds)


@pytest.mark.parametrize(("n", "tol"), [(5_000, 0.05), (50_000, 0.02)])
def test_bnlearn_gaussian_test_model_is_recovered(n, tol):
    from bayeskit.networks import HybridNetwork

    truth = _gaussian_test_model()
    data = truth.sample(n, seed=11)
    learned = HybridNetwork.learn(data)
    assert {frozenset(e) for e in learned.dag.edges} == {frozenset(e) for e in truth.dag.edges}
    # the edges into the two colliders are compelled (the v-structures); B - D is not
    compelled = {("A", "C"), ("B", "C"), ("A", "F"), ("D", "F"), ("E", "F"), ("G", "F")}
    assert compelled <= set(learned.dag.edges)
    for node in ("C", "F"):
        got, want = learned.cpd(node), truth.cpd(node)
        order = [got.parents.index(p) for p in want.parents]
        np.testing.assert_allclose(got.coefficients[order], want.coefficients, atol=tol)
        assert float(got.variance) == pytest.approx(float(want.variance), rel=4 * tol)
