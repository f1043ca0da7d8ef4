"""Linear-Gaussian and conditional linear Gaussian networks: validation, learning, sampling and
exact inference, against the joint Gaussian in moment form (the structural-equation formula
``Sigma = (I - B)^-1 D (I - B)^-T``, conditioned by Schur complements) and scipy's densities."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.graphs import DAG
from bayeskit.networks import GaussianInference, HybridNetwork


def random_gaussian_network(n, rng, max_parents=3):
    names = [f"x{i}" for i in range(n)]
    B, c, d = np.zeros((n, n)), rng.normal(size=n), rng.uniform(0.3, 2.0, size=n)
    edges, cpds = [], []
    for i in range(n):
        k = min(i, int(rng.integers(0, max_parents + 1)))
        parents = sorted(rng.choice(i, size=k, replace=False).tolist()) if k else []
        B[i, parents] = rng.normal(size=k) * 0.8
        edges += [(names[p], names[i]) for p in parents]
        cpds.append(LinearGaussianCPD(names[i], [names[p] for p in parents], c[i], B[i, parents],
                                      d[i]))  # fmt: skip
    inv = np.linalg.inv(np.eye(n) - B)
    mean, cov = inv @ c, inv @ np.diag(d) @ inv.T
    return HybridNetwork(DAG(names, edges), cpds), names, mean, cov


def conditional(mean, cov, q, e, values):
    s_qe = cov[np.ix_(q, e)]
    gain = s_qe @ np.linalg.inv(cov[np.ix_(e, e)])
    return mean[q] + gain @ (values - mean[e]), cov[np.ix_(q, q)] - gain @ s_qe.T


@pytest.mark.parametrize("n", [1, 5, 30])
def test_queries_equal_the_moment_form(n):
    rng = np.random.default_rng(n)
    net, names, mean, cov = random_gaussian_network(n, rng)
    engine = GaussianInference(net)
    for _ in range(5):
        perm = rng.permutation(n)
        n_e = int(rng.integers(0, n))
        e, q = perm[:n_e], perm[n_e:][: max(1, min(4, n - n_e))]
        values = rng.normal(size=n_e) * 2
        evidence = {names[i]: v for i, v in zip(e, values, strict=True)}
        post = engine.query([names[i] for i in q], evidence)
        want_mean, want_cov = conditional(mean, cov, q, e, values)
        np.testing.assert_allclose(post.mean, want_mean, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(post.covariance, want_cov, rtol=1e-9, atol=1e-9)
        evidence = {names[i]: v for i, v in zip(e, values, strict=False)}
        want = stats.multivariate_normal(mean[e], cov[np.ix_(e, e)]).logpdf(values) if n_e else 0.0
        assert engine.log_probability_of_evidence(evidence) == pytest.approx(want, abs=1e-9)


def test_a_batch_with_gaps_equals_one_query_per_row():
    rng = np.random.default_rng(7)
    net, names, _, _ = random_gaussian_network(12, rng)
    engine = GaussianInference(net)
    frame = pd.DataFrame(rng.normal(size=(40, 3)), columns=["x3", "x7", "x11"])
    frame[rng.random(frame.shape) < 0.3] = np.nan
    batch = engine.query_batch(["x0", "x5"], frame)
    for i, row in frame.iterrows():
        post = engine.query(["x0", "x5"], row.dropna().to_dict())
        np.testing.assert_allclose(batch.loc[i, [("x0", "mean"), ("x5", "mean")]], post.mean,
                                   rtol=1e-10, atol=1e-12)  # fmt: skip
        np.testing.assert_allclose(batch.loc[i, [("x0", "std"), ("x5", "std")]], post.std,
                                   rtol=1e-10)  # fmt: skip


def test_sampling_and_fitting_recover_the_network():
    rng = np.random.default_rng(3)
    net, names, mean, cov = random_gaussian_network(6, rng)
    data = net.sample(200_000, seed=4)
    np.testing.assert_allclose(
        data[names].mean().to_numpy(), mean, atol=0.03 * np.sqrt(cov.diagonal().max())
    )
    np.testing.assert_allclose(
        np.cov(data[names].to_numpy().T), cov, atol=0.05 * cov.diagonal().max()
    )
    fitted = HybridNetwork.fit(net.dag, data)
    assert fitted.continuous_nodes == tuple(names)
    for v in names:
        np.testing.assert_allclose(fitted.cpd(v).coefficients, net.cpd(v).coefficients, atol=0.02)
        assert float(fitted.cpd(v).variance) == pytest.approx(float(net.cpd(v).variance), rel=0.02)
    rows = data.iloc[:5]
    want = stats.multivariate_normal(mean, cov).logpdf(rows[names].to_numpy())
    np.testing.assert_allclose(net.log_likelihood(rows, per_row=True), want, rtol=1e-9)


def test_a_clg_network_fits_its_tables_and_regressions():
    rng = np.random.default_rng(5)
    n = 40_000
    a = rng.integers(0, 2, n)
    y = rng.normal(size=n)
    x = np.where(a == 1, 3.0 - 2.0 * y, -1.0 + 0.5 * y) + rng.normal(size=n) * np.where(a, 0.5, 1.5)
    data = pd.DataFrame({"a": np.where(a, "on", "off"), "y": y, "x": x})
    dag = DAG(edges=[("a", "x"), ("y", "x")])
    net = HybridNetwork.fit(dag, data)
    assert net.discrete_nodes == ("a",)
    assert set(net.continuous_nodes) == {"x", "y"}
    lg = net.cpd("x")
    assert lg.discrete_parents == ("a",)
    np.testing.assert_allclose(lg.intercept, [-1.0, 3.0], atol=0.05)  # states off, on
    np.testing.assert_allclose(lg.coefficients, [[0.5], [-2.0]], atol=0.03)
    np.testing.assert_allclose(lg.variance, [2.25, 0.25], rtol=0.05)
    share = (a == 1).mean()
    np.testing.assert_allclose(net.cpd("a").values, [1 - share, share], rtol=1e-12)
    row = data.iloc[:1]
    want = (
        np.log([1 - share, share][a[0]])
        + stats.norm.logpdf(y[0], net.cpd("y").intercept, np.sqrt(net.cpd("y").variance))
        + stats.norm.logpdf(
            x[0], lg.intercept[a[0]] + lg.coefficients[a[0], 0] * y[0], np.sqrt(lg.variance[a[0]])
        )  # fmt: skip
    )
    assert net.log_likelihood(row) == pytest.approx(float(want), rel=1e-12)
    sample = net.sample(5, seed=0)
    assert list(sample["a"].cat.categories) == ["off", "on"]
    assert sample["x"].dtype == np.float64


def test_structures_that_break_the_rules_are_refused():
    yn = {"a": ["no", "yes"]}
    table = CPD("a", [], [0.5, 0.5], yn)
    gauss = LinearGaussianCPD("x", [], 0.0, [], 1.0)
    on_x = CPD("a", ["x"], [[0.5, 0.5], [0.5, 0.5]], {**yn, "x": ["lo", "hi"]})
    with pytest.raises(ValueError, match="edge 'x' -> 'a': a discrete node may not have"):
        HybridNetwork(DAG(edges=[("x", "a")]), [gauss, on_x])
    data = pd.DataFrame({"x": np.linspace(0, 1, 50), "a": ["no", "yes"] * 25})
    with pytest.raises(ValueError, match="edge 'x' -> 'a'"):
        HybridNetwork.fit(DAG(edges=[("x", "a")]), data)
    with pytest.raises(ValueError, match="sums to 1.1, not 1"):
        HybridNetwork(DAG(["a"]), [CPD("a", [], [0.5, 0.6], yn)])
    with pytest.raises(ValueError, match="node 'x' has no distribution"):
        HybridNetwork(DAG(["a", "x"]), [table])
    with pytest.raises(ValueError, match="the parents of 'x' are"):
        HybridNetwork(DAG(edges=[("a", "x")]), [table, gauss])
    wrong = LinearGaussianCPD("x", ["a"], [0.0, 0.0], [[], []], [1.0, 1.0], {"a": ["n", "y"]})
    with pytest.raises(ValueError, match="gives its parent 'a' the states"):
        HybridNetwork(DAG(edges=[("a", "x")]), [table, wrong])
    as_cont = LinearGaussianCPD("x", ["a"], 0.0, [1.0], 1.0)
    with pytest.raises(ValueError, match="treats its parent 'a' as continuous, but it is discrete"):
        HybridNetwork(DAG(edges=[("a", "x")]), [table, as_cont])


def test_bad_evidence_and_data_are_refused_with_the_rule():
    rng = np.random.default_rng(0)
    net, names, _, _ = random_gaussian_network(3, rng)
    engine = GaussianInference(net)
    with pytest.raises(ValueError, match="must be a number, got 'high'"):
        engine.query("x0", {"x1": "high"})
    with pytest.raises(ValueError, match="must be finite"):
        engine.query("x0", {"x1": np.inf})
    with pytest.raises(ValueError, match="both queried and observed"):
        engine.query("x0", {"x0": 1.0})
    with pytest.raises(ValueError, match="no node"):
        engine.query("zz")
    with pytest.raises(ValueError, match="must hold numbers"):
        net.log_likelihood(pd.DataFrame({"x0": ["a"], "x1": [1.0], "x2": [1.0]}))
    with pytest.raises(ValueError, match="infinite value"):
        net.log_likelihood(pd.DataFrame({"x0": [np.inf], "x1": [1.0], "x2": [1.0]}))
    # a missing value is integrated out: the row scores the density of what it observes
    row = pd.DataFrame({names[0]: [np.nan], names[1]: [1.0], names[2]: [-0.5]})
    marginal = engine.log_probability_of_evidence({names[1]: 1.0, names[2]: -0.5})
    assert net.log_likelihood(row) == pytest.approx(marginal, abs=1e-9)
    table = CPD("a", [], [0.5, 0.5], {"a": ["no", "yes"]})
    with pytest.raises(ValueError, match="not linear-Gaussian"):
        GaussianInference(HybridNetwork(DAG(["a"]), [table]))
