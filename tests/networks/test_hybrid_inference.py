"""Exact inference in conditional linear Gaussian networks, against independent computations:
the discrete engines on a discrete network, the Gaussian engine on a continuous one, and the
closed-form densities of a small CLG network written out by hand with scipy."""

import numpy as np
import pytest
from scipy import stats
from tests.networks.test_gaussian_networks import random_gaussian_network

from bayeskit.factors import CPD, InferenceTooLarge, LinearGaussianCPD
from bayeskit.graphs import DAG
from bayeskit.inference import hybrid
from bayeskit.networks import (
    BayesianNetwork,
    ExactInference,
    GaussianInference,
    HybridNetwork,
    ZeroProbabilityEvidence,
    example_network,
)


def test_a_discrete_network_answers_as_the_discrete_engine():
    net = example_network("asia")
    hybrid_net = HybridNetwork(net.dag, [net.cpd(v) for v in net.nodes])
    engine, exact = hybrid.HybridInference(hybrid_net), ExactInference(net)
    evidence = {"xray": "yes", "smoke": "no"}
    for query in (["lung"], ["tub", "either"]):
        got = engine.query(query, evidence)
        want = exact.query(query, evidence)
        np.testing.assert_allclose(got.values, want.values, rtol=1e-12)
    want_log = exact.probability_of_evidence(evidence, log=True)
    assert engine.log_probability_of_evidence(evidence) == pytest.approx(want_log, rel=1e-12)


def test_a_continuous_network_answers_as_the_gaussian_engine():
    net, names, _, _ = random_gaussian_network(6, np.random.default_rng(0))
    evidence = {"x5": 1.5, "x2": -0.5}
    mix = hybrid.HybridInference(net).query(["x0", "x3"], evidence)
    post = GaussianInference(net).query(["x0", "x3"], evidence)
    assert mix.weights.tolist() == [1.0]
    np.testing.assert_allclose(mix.mean, post.mean, rtol=1e-12)
    np.testing.assert_allclose(mix.covariance, post.covariance, rtol=1e-12)


AB = {"a": ["a0", "a1"], "b": ["b0", "b1", "b2"]}
P_A = np.array([0.3, 0.7])
P_B = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
MU_Y, VAR_Y = 1.0, 4.0
C, D, S = np.array([0.5, -1.0]), np.array([2.0, -0.5]), np.array([1.0, 0.25])  # x | a, y
E, F, T = np.array([0.0, 1.0, -2.0]), np.array([1.0, -1.0, 0.5]), np.array([0.5, 1.0, 2.0])


def _clg():
    return HybridNetwork(
        DAG(edges=[("a", "b"), ("a", "x"), ("y", "x"), ("x", "z"), ("b", "z")]),
        [
            CPD("a", [], P_A, AB),
            CPD("b", ["a"], P_B, AB),
            LinearGaussianCPD("y", [], MU_Y, [], VAR_Y),
            LinearGaussianCPD("x", ["a", "y"], C, D[:, None], S, AB),
            LinearGaussianCPD("z", ["x", "b"], E, F[:, None], T, AB),
        ],
    )


def _by_hand(x, z):
    """p(a, b, x, z) with y integrated out: x | a ~ N(C + D mu_y, D^2 var_y + S)."""
    joint = np.empty((2, 3))
    for a in range(2):
        px = stats.norm.pdf(x, C[a] + D[a] * MU_Y, np.sqrt(D[a] ** 2 * VAR_Y + S[a]))
        for b in range(3):
            pz = stats.norm.pdf(z, E[b] + F[b] * x, np.sqrt(T[b]))
            joint[a, b] = P_A[a] * P_B[a, b] * px * pz
    return joint


def test_a_clg_network_equals_its_densities_written_out():
    engine = hybrid.HybridInference(_clg())
    x, z = 1.3, 0.4
    joint = _by_hand(x, z)
    evidence = {"x": x, "z": z}
    assert engine.log_probability_of_evidence(evidence) == pytest.approx(
        np.log(joint.sum()), rel=1e-12
    )
    got = engine.query(["a", "b"], evidence).values
    np.testing.assert_allclose(got, joint / joint.sum(), rtol=1e-10)
    # y | x, a is Gaussian (z tells nothing more once x is seen); the mixture over a
    mix = engine.query(["y"], evidence)
    w = joint.sum(axis=1) / joint.sum()
    prec = 1 / VAR_Y + D**2 / S
    means = (MU_Y / VAR_Y + D * (x - C) / S) / prec
    # a component per configuration of (a, b); those of one a share y's posterior
    which = np.argmin(np.abs(mix.means[:, 0, None] - means[None, :]), axis=1)
    np.testing.assert_allclose(mix.means[:, 0], means[which], rtol=1e-10)
    np.testing.assert_allclose(np.bincount(which, mix.weights, 2), w, rtol=1e-10)
    assert mix.mean[0] == pytest.approx(w @ means, rel=1e-10)
    second = w @ (1 / prec + means**2)
    assert mix.covariance[0, 0] == pytest.approx(second - (w @ means) ** 2, rel=1e-10)
    # discrete evidence alone: x's mixture over a with b irrelevant
    mix = engine.query(["x"], {"a": "a1"})
    assert mix.mean[0] == pytest.approx(C[1] + D[1] * MU_Y)
    assert mix.covariance[0, 0] == pytest.approx(D[1] ** 2 * VAR_Y + S[1])


def test_refusals():
    engine = hybrid.HybridInference(_clg())
    with pytest.raises(ValueError, match="either discrete or continuous"):
        engine.query(["a", "x"])
    with pytest.raises(ValueError, match="'a9' is no state of 'a'"):
        engine.query(["x"], {"a": "a9"})
    with pytest.raises(ValueError, match="must be a number"):
        engine.query(["a"], {"x": "high"})
    with pytest.raises(ValueError, match="both queried and observed"):
        engine.query(["x"], {"x": 1.0})
    zero = HybridNetwork(DAG(edges=[("a", "x")]), [
        CPD("a", [], [1.0, 0.0], {"a": ["on", "off"]}),
        LinearGaussianCPD("x", ["a"], [0.0, 0.0], [[], []], [1.0, 1.0], {"a": ["on", "off"]}),
    ])  # fmt: skip
    with pytest.raises(ZeroProbabilityEvidence):
        hybrid.HybridInference(zero).query(["x"], {"a": "off"})
    assert hybrid.HybridInference(zero).log_probability_of_evidence({"a": "off"}) == -np.inf


def test_too_many_configurations_are_refused_before_work(monkeypatch):
    monkeypatch.setattr(hybrid, "MAX_CONFIGURATIONS", 5)
    with pytest.raises(InferenceTooLarge, match="6 joint configurations"):
        hybrid.HybridInference(_clg())


def test_likelihood_weighting_converges_to_the_exact_posterior():
    from bayeskit.inference import hybrid_likelihood_weighting

    net = _clg()
    evidence = {"x": 1.3, "z": 0.4}
    exact = hybrid.HybridInference(net)
    p_a = exact.query(["a"], evidence).values
    mean_y = exact.query(["y"], evidence).mean[0]

    def errors(n):
        out = []
        for seed in range(20):
            post = hybrid_likelihood_weighting(net, ["a", "y"], evidence, n_samples=n, seed=seed)
            out.append((abs(post["a"].values[1] - p_a[1]), abs(post["y"].mean[0] - mean_y)))
        return np.sqrt(np.mean(np.square(out), axis=0))

    small, large = errors(500), errors(32_000)
    # 64 times the samples: the root-mean-square error falls about 8-fold (1 / sqrt(n))
    assert np.all(small / large > 4)
    sd_y = np.sqrt(exact.query(["y"], evidence).covariance[0, 0])
    assert large[0] < 0.02  # a probability
    assert large[1] < 0.05 * sd_y  # a mean, on the scale of its posterior spread
    on_off = {"a": ["on", "off"]}
    zero = HybridNetwork(DAG(edges=[("a", "x")]), [
        CPD("a", [], [1.0, 0.0], on_off),
        LinearGaussianCPD("x", ["a"], [0.0, 0.0], [[], []], [1.0, 1.0], on_off),
    ])  # fmt: skip
    with pytest.raises(ZeroProbabilityEvidence):
        hybrid_likelihood_weighting(zero, "x", {"a": "off"}, n_samples=100, seed=0)


def _long_chain(m: int, seed: int) -> HybridNetwork:
    """``m`` binary discrete nodes in a chain; x given d3, y given x and d7, z given y: only
    two discrete nodes are parents of continuous ones."""
    rng = np.random.default_rng(seed)
    names = [f"d{i}" for i in range(m)]
    states = {n: ["lo", "hi"] for n in names}
    cpds = [CPD("d0", [], rng.dirichlet([2.0, 2.0]), states)]
    cpds += [CPD(names[i], [names[i - 1]], rng.dirichlet([2.0, 2.0], size=2), states)
             for i in range(1, m)]  # fmt: skip
    cpds += [
        LinearGaussianCPD("x", ["d3"], [-1.0, 1.5], [[], []], [1.0, 0.5], states),
        LinearGaussianCPD("y", ["d7", "x"], [0.0, 2.0], [[1.0], [-0.5]], [0.3, 0.8], states),
        LinearGaussianCPD("z", ["y"], 1.0, [2.0], 1.0, states),
    ]
    edges = [(names[i - 1], names[i]) for i in range(1, m)]
    edges += [("d3", "x"), ("d7", "y"), ("x", "y"), ("y", "z")]
    return HybridNetwork(DAG([*names, "x", "y", "z"], edges=edges), cpds)


def test_discrete_nodes_off_the_continuous_part_are_summed_out_not_enumerated():
    from bayeskit.inference.hybrid_estep import row_log_likelihood

    net = _long_chain(12, seed=0)  # 4,096 configurations: the full enumeration as reference
    engine = hybrid.HybridInference(net)
    evidence = {"z": 2.5, "d11": "hi", "x": 0.3}
    columns = {n: np.array([np.nan]) for n in net.continuous_nodes}
    columns |= {n: np.array([-1]) for n in net.discrete_nodes}
    for node, value in evidence.items():
        columns[node] = np.array([net.states(node).index(value)] if node in net.discrete_nodes
                                 else [value])  # fmt: skip
    log_pe = row_log_likelihood(net, columns)[0]
    assert engine.log_probability_of_evidence(evidence) == pytest.approx(log_pe, abs=1e-9)
    post = engine.query(["d0", "d7"], evidence)  # one enumerated node, one summed out
    for i in range(2):
        for j in range(2):
            both = dict(columns) | {"d0": np.array([i]), "d7": np.array([j])}
            want = np.exp(row_log_likelihood(net, both)[0] - log_pe)
            assert post.values[i, j] == pytest.approx(want, abs=1e-9)
    # 2**24 configurations of the discrete nodes: refused by full enumeration, not here
    big = _long_chain(24, seed=1)
    with pytest.raises(InferenceTooLarge):
        hybrid.Configurations(big)
    table = hybrid.HybridInference(big).query(["d0"], {"d23": "hi"})
    discrete = [big.cpd(n) for n in big.discrete_nodes]
    part = BayesianNetwork(DAG(list(big.discrete_nodes), edges=[
        (u, v) for u, v in big.dag.edges if v in big.discrete_nodes]),
        {c.variable: c.values for c in discrete},
        states={n: ["lo", "hi"] for n in big.discrete_nodes})  # fmt: skip
    want = ExactInference(part).query(["d0"], {"d23": "hi"})
    np.testing.assert_allclose(table.values, want.values, atol=1e-12)
    mix = hybrid.HybridInference(big).query(["x"], {"z": 1.0, "d20": "lo"})
    assert mix.weights.sum() == pytest.approx(1.0)
