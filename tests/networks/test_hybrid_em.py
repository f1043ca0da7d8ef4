"""EM for networks with continuous nodes: the E-step's expected statistics against a dense
reference, fixed points against the observed-data likelihood and independent EM
implementations (scikit-learn's Gaussian mixture and factor analysis), recovery of known
parameters, and the refusals."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.decomposition import FactorAnalysis
from sklearn.mixture import GaussianMixture

from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.graphs import DAG
from bayeskit.inference import ZeroProbabilityEvidence
from bayeskit.inference.hybrid_estep import expected_statistics
from bayeskit.networks import HybridNetwork, fit_hybrid_em

STATES = {"a": ["p", "q"], "b": ["u", "v", "w"]}


def clg_network() -> HybridNetwork:
    dag = DAG(edges=[("a", "b"), ("a", "x"), ("b", "y"), ("x", "y"), ("y", "z")])
    return HybridNetwork(dag, [
        CPD("a", [], [0.3, 0.7], STATES),
        CPD("b", ["a"], [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], STATES),
        LinearGaussianCPD("x", ["a"], [1.0, -2.0], [[], []], [1.0, 0.5], STATES),
        LinearGaussianCPD("y", ["b", "x"], [0.0, 1.0, 2.0], [[1.0], [-1.0], [0.5]],
                          [0.3, 0.4, 2.0], STATES),
        LinearGaussianCPD("z", ["y"], 5.0, [2.0], 1.0, STATES),
    ])  # fmt: skip


def with_holes(frame: pd.DataFrame, share: float, seed: int) -> pd.DataFrame:
    """``frame`` with each value missing at random with probability ``share``."""
    rng = np.random.default_rng(seed)
    out = frame.copy()
    for col in out.columns:
        drop = rng.random(len(out)) < share
        out.loc[drop, col] = None if out[col].dtype == object else np.nan
    return out


def dense_reference(net: HybridNetwork, frame: pd.DataFrame) -> dict:
    """Each node's expected statistic, row by row, from the joint Gaussian of every discrete
    configuration in covariance form (x = b0 + B x + noise, so Sigma = A D A^T with
    A = (I - B)^-1), conditioned by the textbook formulas."""
    disc, cont = list(net.discrete_nodes), list(net.continuous_nodes)
    at = {v: i for i, v in enumerate(cont)}
    moments = {v: {} for v in cont}  # node -> config -> [w, sum v, sum v v^T]
    counts = {v: np.zeros([len(net.states(u)) for u in (*net.cpd(v).parents, v)]) for v in disc}
    for _, row in frame.iterrows():
        joint = []
        for codes in itertools.product(*[range(len(net.states(v))) for v in disc]):
            d = dict(zip(disc, codes, strict=True))
            if any(not pd.isna(row[v]) and net.states(v).index(row[v]) != d[v] for v in disc):
                continue
            prob = np.prod([net.cpd(v).values[tuple(d[u] for u in (*net.cpd(v).parents, v))]
                            for v in disc])  # fmt: skip
            b0, B, noise = np.zeros(len(cont)), np.zeros((len(cont), len(cont))), []
            for v in cont:
                cpd = net.cpd(v)
                c = tuple(d[p] for p in cpd.discrete_parents)
                b0[at[v]] = cpd.intercept[c]
                B[at[v], [at[p] for p in cpd.continuous_parents]] = cpd.coefficients[c]
                noise.append(cpd.variance[c])
            A = np.linalg.inv(np.eye(len(cont)) - B)
            mu, sigma = A @ b0, A @ np.diag(noise) @ A.T
            seen = [at[v] for v in cont if not pd.isna(row[v])]
            rest = [at[v] for v in cont if pd.isna(row[v])]
            x_o = np.array([row[cont[i]] for i in seen], dtype=float)
            density = stats.multivariate_normal(mu[seen], sigma[np.ix_(seen, seen)]).pdf(x_o) if (
                seen) else 1.0  # fmt: skip
            solve = sigma[np.ix_(rest, seen)] @ np.linalg.inv(sigma[np.ix_(seen, seen)]) if (
                seen) else np.zeros((len(rest), 0))  # fmt: skip
            mean = mu.copy()
            mean[rest] = mu[rest] + solve @ (x_o - mu[seen])
            mean[seen] = x_o
            cov = np.zeros((len(cont), len(cont)))
            cov[np.ix_(rest, rest)] = sigma[np.ix_(rest, rest)] - solve @ sigma[np.ix_(seen, rest)]
            joint.append((d, prob * density, mean, cov))
        total = sum(j[1] for j in joint)
        for d, weight, mean, cov in joint:
            p = weight / total
            for v in disc:
                counts[v][tuple(d[u] for u in (*net.cpd(v).parents, v))] += p
            for v in cont:
                cpd = net.cpd(v)
                key = tuple(d[u] for u in cpd.discrete_parents)
                idx = [at[u] for u in (*cpd.continuous_parents, v)]
                m = mean[idx]
                acc = moments[v].setdefault(key, [0.0, 0.0, 0.0])
                acc[0] += p
                acc[1] = acc[1] + p * m
                acc[2] = acc[2] + p * (np.outer(m, m) + cov[np.ix_(idx, idx)])
    return {"counts": counts, "moments": moments}


def test_expected_statistics_equal_a_dense_reference_row_by_row():
    net = clg_network()
    frame = with_holes(net.sample(60, seed=3), 0.35, seed=4)
    got, _ = expected_statistics(net, net._columns(frame))
    ref = dense_reference(net, frame)
    for v in net.discrete_nodes:
        np.testing.assert_allclose(got[v], ref["counts"][v], atol=1e-9)
    for v in net.continuous_nodes:
        cpd = net.cpd(v)
        cards = [len(cpd.states[p]) for p in cpd.discrete_parents]
        for key, (w, s1, s2) in ref["moments"][v].items():
            c = int(np.ravel_multi_index(key, cards)) if cards else 0
            mean = s1 / w
            assert got[v].count[c] == pytest.approx(w, abs=1e-9)
            np.testing.assert_allclose(got[v].mean[c], mean, atol=1e-8)
            np.testing.assert_allclose(got[v].scatter[c], s2 - w * np.outer(mean, mean), atol=1e-7)


def test_on_complete_data_em_is_the_complete_data_fit():
    net = clg_network()
    frame = net.sample(2000, seed=0)
    direct = HybridNetwork.fit(net.dag, frame)
    result = fit_hybrid_em(net.dag, frame, tol=1e-12)
    assert result.converged
    assert result.n_iter <= 3
    for v in net.continuous_nodes:
        np.testing.assert_allclose(result.network.cpd(v).coefficients,
                                   direct.cpd(v).coefficients, atol=1e-9)  # fmt: skip
        np.testing.assert_allclose(result.network.cpd(v).variance, direct.cpd(v).variance,
                                   rtol=1e-9)  # fmt: skip
    for v in net.discrete_nodes:
        np.testing.assert_allclose(result.network.cpd(v).values, direct.cpd(v).values, atol=1e-9)
    assert result.history[-1] == pytest.approx(direct.log_likelihood(frame), rel=1e-12)


def test_em_climbs_to_a_maximum_of_the_observed_data_likelihood():
    net = clg_network()
    frame = with_holes(net.sample(1500, seed=1), 0.25, seed=2)
    result = fit_hybrid_em(net.dag, frame, tol=1e-13, max_iter=500)
    assert result.converged
    steps = np.diff(result.objective)
    assert np.all(steps >= -1e-9 * np.abs(np.asarray(result.objective[1:])))
    fitted = result.network
    best = fitted.log_likelihood(frame)  # integrates the missing values out
    assert best == pytest.approx(result.history[-1], rel=1e-6)
    for v in fitted.continuous_nodes:  # every nudge of a regression lowers it
        cpd = fitted.cpd(v)
        for eps in (1e-2, -1e-2):
            for what in ("intercept", "coefficients"):
                values = getattr(cpd, what).copy()
                if values.size == 0:
                    continue
                values.flat[0] += eps
                moved = dict(intercept=cpd.intercept, coefficients=cpd.coefficients) | {
                    what: values}  # fmt: skip
                nudged = LinearGaussianCPD(
                    v,
                    cpd.parents,
                    moved["intercept"],
                    moved["coefficients"],
                    cpd.variance,
                    cpd.states,
                )
                other = HybridNetwork(fitted.dag, {**{n: fitted.cpd(n) for n in fitted.nodes},
                                                   v: nudged})  # fmt: skip
                assert other.log_likelihood(frame) < best


def test_em_recovers_the_generating_parameters_with_a_third_missing():
    net = clg_network()
    frame = with_holes(net.sample(20000, seed=5), 0.3, seed=6)
    fitted = fit_hybrid_em(net.dag, frame, tol=1e-9).network
    for v in net.continuous_nodes:
        np.testing.assert_allclose(fitted.cpd(v).intercept, net.cpd(v).intercept, atol=0.15)
        np.testing.assert_allclose(fitted.cpd(v).coefficients, net.cpd(v).coefficients,
                                   atol=0.06)  # fmt: skip
        np.testing.assert_allclose(fitted.cpd(v).variance, net.cpd(v).variance, rtol=0.1)
    for v in net.discrete_nodes:
        np.testing.assert_allclose(fitted.cpd(v).values, net.cpd(v).values, atol=0.03)


def test_a_latent_discrete_parent_is_a_gaussian_mixture_as_scikit_learn_fits_it():
    rng = np.random.default_rng(7)
    z = rng.random(3000) < 0.35
    centre = np.where(z[:, None], [-1.5, 2.0], [2.0, -0.5])
    cov = np.array([[1.0, 0.6], [0.6, 1.0]])
    x = centre + rng.multivariate_normal([0, 0], cov, size=3000)
    frame = pd.DataFrame(x, columns=["v1", "v2"])
    dag = DAG(edges=[("z", "v1"), ("z", "v2"), ("v1", "v2")])  # full covariance per component
    result = fit_hybrid_em(dag, frame, latent={"z": 2}, tol=1e-12, max_iter=1000)
    mixture = GaussianMixture(2, covariance_type="full", tol=1e-10, max_iter=1000, reg_covar=0,
                              random_state=0).fit(x)  # fmt: skip
    assert result.history[-1] / len(x) == pytest.approx(mixture.score(x), abs=1e-6)
    weights = np.sort(result.network.cpd("z").values)
    np.testing.assert_allclose(weights, np.sort(mixture.weights_), atol=1e-4)
    means = np.sort(result.network.cpd("v1").intercept)
    np.testing.assert_allclose(means, np.sort(mixture.means_[:, 0]), atol=1e-3)


def test_a_latent_continuous_parent_is_factor_analysis_as_scikit_learn_fits_it():
    rng = np.random.default_rng(8)
    h = rng.normal(size=2000)
    x = np.column_stack([1.0 + 2.0 * h, -1.0 + 0.5 * h, 3.0 - 1.0 * h])
    x += rng.normal(size=x.shape) * [0.5, 0.3, 0.8]
    frame = pd.DataFrame(x, columns=["x1", "x2", "x3"])
    dag = DAG(edges=[("h", "x1"), ("h", "x2"), ("h", "x3")])
    start = HybridNetwork(dag, [
        LinearGaussianCPD("h", [], 0.0, [], 1.0),
        *[LinearGaussianCPD(f"x{i}", ["h"], 0.0, [1.0], 1.0) for i in (1, 2, 3)],
    ])  # fmt: skip
    result = fit_hybrid_em(dag, frame, latent={"h": None}, start=start, tol=1e-13,
                           max_iter=5000)  # fmt: skip
    analysis = FactorAnalysis(n_components=1, tol=1e-12, max_iter=5000).fit(x)
    assert result.history[-1] / len(x) == pytest.approx(analysis.score(x), abs=1e-6)
    # the factor's scale is free: loadings agree up to the factor's standard deviation
    net = result.network
    scale = np.sqrt(net.cpd("h").variance)
    loadings = np.array([net.cpd(f"x{i}").coefficients[0] for i in (1, 2, 3)]) * scale
    np.testing.assert_allclose(np.abs(loadings), np.abs(analysis.components_[0]), atol=1e-3)


def test_weights_count_rows_and_a_prior_keeps_the_objective_climbing():
    net = clg_network()
    frame = with_holes(net.sample(400, seed=9), 0.3, seed=10)
    doubled = pd.concat([frame, frame], ignore_index=True)
    # the same number of iterations for both (tol=0), so only rounding may differ
    once = fit_hybrid_em(net.dag, doubled, tol=0, max_iter=8).network
    weighted = fit_hybrid_em(net.dag, frame, sample_weight=np.full(400, 2.0), tol=0,
                             max_iter=8).network  # fmt: skip
    np.testing.assert_allclose(weighted.cpd("y").coefficients, once.cpd("y").coefficients,
                               atol=1e-9)  # fmt: skip
    result = fit_hybrid_em(net.dag, frame, estimator="lidstone", alpha=2.0, tol=1e-12)
    steps = np.diff(result.objective)
    assert np.all(steps >= -1e-9 * np.abs(np.asarray(result.objective[1:])))
    assert result.objective[-1] < result.history[-1]  # the prior's log density is negative


def test_restarts_keep_the_best_run_and_the_data_is_left_as_given():
    rng = np.random.default_rng(11)
    v = np.where(rng.random(600) < 0.5, -3.0, 3.0) + rng.normal(size=600)
    frame = pd.DataFrame({"v": v})
    before = frame.copy()
    one = fit_hybrid_em([("z", "v")], frame, latent={"z": 2}, seed=1)
    more = fit_hybrid_em([("z", "v")], frame, latent={"z": 2}, restarts=3, seed=1)
    assert more.objective[-1] >= one.objective[-1] - 1e-9
    pd.testing.assert_frame_equal(frame, before)


def test_bad_input_is_refused_with_the_rule():
    net = clg_network()
    frame = net.sample(50, seed=0)
    with pytest.raises(ValueError, match="no column for node 'z'.*latent"):
        fit_hybrid_em(net.dag, frame.drop(columns="z"))
    with pytest.raises(ValueError, match="latent node 'q' is no node"):
        fit_hybrid_em(net.dag, frame, latent={"q": 2})
    with pytest.raises(ValueError, match="latent node 'z' has a column"):
        fit_hybrid_em(net.dag, frame, latent={"z": None})
    with pytest.raises(TypeError, match="start must be a HybridNetwork"):
        fit_hybrid_em(net.dag, frame, start="net")
    with pytest.raises(ValueError, match="start must have the DAG"):
        fit_hybrid_em(DAG(edges=[("a", "x")]), frame[["a", "x"]], start=net)
    with pytest.raises(ValueError, match="discrete node may not have a continuous parent"):
        fit_hybrid_em([("x", "a")], frame[["a", "x"]])
    with pytest.raises(ValueError, match="estimator"):
        fit_hybrid_em(net.dag, frame, estimator="nonsense")
    # an observed combination the start calls impossible
    sure = HybridNetwork(net.dag, {**{n: net.cpd(n) for n in net.nodes},
                                   "a": CPD("a", [], [1.0, 0.0], STATES)})  # fmt: skip
    odd = frame.copy()
    odd.loc[0, "a"] = "q"
    with pytest.raises(ZeroProbabilityEvidence, match="row 0 has probability zero"):
        fit_hybrid_em(net.dag, odd, start=sure)
