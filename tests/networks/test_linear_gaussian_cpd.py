"""The conditional distribution of a continuous node (linear-Gaussian and conditional linear
Gaussian), checked against independent computations: numpy's least squares on the design
matrix, scipy's normal density, repeated rows for weights, and the dense Gaussian density for
the canonical form."""

import numpy as np
import pytest
from scipy import stats

from bayeskit.factors import ConditionalDistribution
from bayeskit.factors.gaussian import LinearGaussianCPD

STATES = {"a": ["lo", "hi"], "b": ["x", "y", "z"]}


def _clg_data(n, rng):
    a = rng.integers(0, 2, n)
    b = rng.integers(0, 3, n)
    y1, y2 = rng.normal(size=n), rng.normal(2.0, 3.0, size=n)
    b0 = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])
    slopes = np.array(
        [[[1.0, 0.5], [2.0, 0.0], [-1.0, 1.0]], [[0.0, -0.5], [1.5, 2.0], [3.0, 1.0]]]
    )
    sd = np.array([[0.5, 1.0, 2.0], [1.5, 0.3, 1.0]])
    mean = b0[a, b] + slopes[a, b, 0] * y1 + slopes[a, b, 1] * y2
    x = mean + sd[a, b] * rng.normal(size=n)
    # the columns in the order of the parents: y1, a, y2, b
    parents = np.column_stack([y1, a, y2, b]).astype(float)
    return x, parents, (b0, slopes, sd**2)


def _template():
    return LinearGaussianCPD(
        "x", ["y1", "a", "y2", "b"], np.zeros((2, 3)), np.zeros((2, 3, 2)), np.ones((2, 3)),
        STATES,
    )  # fmt: skip


def test_it_follows_the_protocol_and_splits_its_parents():
    cpd = _template()
    assert isinstance(cpd, ConditionalDistribution)
    assert cpd.discrete_parents == ("a", "b")
    assert cpd.continuous_parents == ("y1", "y2")


def test_a_clg_fit_recovers_every_configuration_and_equals_least_squares():
    rng = np.random.default_rng(0)
    x, parents, (b0, slopes, var) = _clg_data(60_000, rng)
    fit = _template().estimate(_template().statistic(x, parents))
    np.testing.assert_allclose(fit.intercept, b0, atol=0.1)
    np.testing.assert_allclose(fit.coefficients, slopes, atol=0.05)
    np.testing.assert_allclose(fit.variance, var, rtol=0.05)
    # configuration (a=hi, b=y) by numpy's least squares on its rows, with an intercept column
    rows = (parents[:, 1] == 1) & (parents[:, 3] == 1)
    design = np.column_stack([np.ones(rows.sum()), parents[rows][:, [0, 2]]])
    coef, rss = np.linalg.lstsq(design, x[rows], rcond=None)[:2]
    assert fit.intercept[1, 1] == pytest.approx(coef[0], rel=1e-9, abs=1e-9)
    np.testing.assert_allclose(fit.coefficients[1, 1], coef[1:], rtol=1e-9)
    assert fit.variance[1, 1] == pytest.approx(rss[0] / rows.sum(), rel=1e-9)  # the MLE


def test_statistics_of_pieces_add_up_and_weights_are_repeated_rows():
    rng = np.random.default_rng(1)
    x, parents, _ = _clg_data(3_000, rng)
    cpd = _template()
    whole = cpd.estimate(cpd.statistic(x, parents))
    halves = cpd.statistic(x[:1000], parents[:1000]) + cpd.statistic(x[1000:], parents[1000:])
    merged = cpd.estimate(halves)
    np.testing.assert_allclose(merged.coefficients, whole.coefficients, rtol=1e-10)
    np.testing.assert_allclose(merged.variance, whole.variance, rtol=1e-10)
    w = rng.integers(0, 4, len(x))
    weighted = cpd.estimate(cpd.statistic(x, parents, weights=w))
    repeated = cpd.estimate(cpd.statistic(np.repeat(x, w), np.repeat(parents, w, axis=0)))
    np.testing.assert_allclose(weighted.coefficients, repeated.coefficients, rtol=1e-9)
    np.testing.assert_allclose(weighted.intercept, repeated.intercept, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(weighted.variance, repeated.variance, rtol=1e-9)


def test_rows_with_a_missing_value_are_left_out():
    rng = np.random.default_rng(2)
    x, parents, _ = _clg_data(2_000, rng)
    cpd = _template()
    holed_x, holed_p = x.copy(), parents.copy()
    holed_x[:5] = np.nan
    holed_p[5:10, 0] = np.nan
    holed_p[10:15, 3] = -1
    got = cpd.estimate(cpd.statistic(holed_x, holed_p))
    want = cpd.estimate(cpd.statistic(x[15:], parents[15:]))
    np.testing.assert_allclose(got.coefficients, want.coefficients, rtol=1e-10)


def test_ridge_is_the_penalised_solution():
    rng = np.random.default_rng(3)
    y = rng.normal(size=(200, 2))
    x = 1.0 + y @ [2.0, -1.0] + rng.normal(size=200)
    cpd = LinearGaussianCPD("x", ["u", "v"], 0.0, [0.0, 0.0], 1.0)
    fit = cpd.estimate(cpd.statistic(x, y), ridge=50.0)
    yc, xc = y - y.mean(axis=0), x - x.mean()
    want = np.linalg.solve(yc.T @ yc + 50.0 * np.eye(2), yc.T @ xc)
    np.testing.assert_allclose(fit.coefficients, want, rtol=1e-10)
    assert float(fit.intercept) == pytest.approx(x.mean() - y.mean(axis=0) @ want)


def test_collinear_parents_get_the_least_norm_solution():
    rng = np.random.default_rng(4)
    u = rng.normal(size=100)
    y = np.column_stack([u, 2 * u])  # v = 2u exactly
    x = 3 * u + rng.normal(size=100) * 0.1
    cpd = LinearGaussianCPD("x", ["u", "v"], 0.0, [0.0, 0.0], 1.0)
    fit = cpd.estimate(cpd.statistic(x, y))
    b = fit.coefficients
    assert b[0] + 2 * b[1] == pytest.approx(np.polyfit(u, x, 1)[0], rel=1e-8)
    assert b[1] == pytest.approx(2 * b[0], rel=1e-8)  # least norm: along (1, 2)


def test_a_determined_or_constant_node_is_refused_unless_floored():
    u = np.arange(10.0)
    cpd = LinearGaussianCPD("x", ["u"], 0.0, [0.0], 1.0)
    with pytest.raises(ValueError, match="'x' is a linear function of its parents"):
        cpd.estimate(cpd.statistic(2 * u + 1, u[:, None]))
    root = LinearGaussianCPD("x", [], 0.0, [], 1.0)
    with pytest.raises(ValueError, match="'x' is constant"):
        root.estimate(root.statistic(np.full(5, 3.0), np.zeros((5, 0))))
    floored = root.estimate(root.statistic(np.full(5, 3.0), np.zeros((5, 0))), min_variance=1e-3)
    assert float(floored.variance) == 1e-3
    assert float(floored.intercept) == 3.0


def test_a_configuration_without_rows_is_named():
    cpd = LinearGaussianCPD("x", ["a"], [0.0, 0.0], [[], []], [1.0, 1.0], {"a": ["lo", "hi"]})
    stat = cpd.statistic(np.array([1.0, 2.0]), np.array([[0.0], [0.0]]))
    with pytest.raises(ValueError, match="no complete rows for the configuration a=hi"):
        cpd.estimate(stat)


def test_bad_input_is_refused_with_the_rule():
    cpd = LinearGaussianCPD("x", ["u"], 0.0, [1.0], 1.0)
    with pytest.raises(ValueError, match="infinite"):
        cpd.statistic(np.array([np.inf]), np.array([[0.0]]))
    with pytest.raises(ValueError, match="shape"):
        cpd.statistic(np.array([1.0]), np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="non-negative"):
        cpd.statistic(np.array([1.0]), np.array([[0.0]]), weights=[-1.0])
    with pytest.raises(ValueError, match="variance of 'x' must be positive"):
        LinearGaussianCPD("x", [], 0.0, [], 0.0)
    with pytest.raises(ValueError, match=r"coefficients of 'x' must have shape \(1,\)"):
        LinearGaussianCPD("x", ["u"], 0.0, [1.0, 2.0], 1.0)
    clg = LinearGaussianCPD("x", ["a"], [0.0, 0.0], [[], []], [1.0, 1.0], {"a": ["lo", "hi"]})
    with pytest.raises(ValueError, match="state codes"):
        clg.statistic(np.array([1.0]), np.array([[2.0]]))
    with pytest.raises(ValueError, match="must all be given"):
        clg.log_density(np.array([1.0]), np.array([[np.nan]]))


def test_density_sampling_and_canonical_form_agree_with_independent_formulas():
    rng = np.random.default_rng(5)
    cpd = LinearGaussianCPD(
        "x", ["a", "y"], [1.0, -2.0], [[0.5], [3.0]], [0.25, 4.0], {"a": ["lo", "hi"]}
    )
    parents = np.column_stack([rng.integers(0, 2, 50), rng.normal(size=50)]).astype(float)
    x = rng.normal(size=50)
    a, y = parents[:, 0].astype(int), parents[:, 1]
    mean = np.array([1.0, -2.0])[a] + np.array([0.5, 3.0])[a] * y
    sd = np.sqrt(np.array([0.25, 4.0]))[a]
    np.testing.assert_allclose(cpd.log_density(x, parents), stats.norm.logpdf(x, mean, sd))
    form = cpd.to_factor()
    assert form.discrete == ("a",)
    assert form.continuous == ("y", "x")
    np.testing.assert_allclose(
        form.log_value(a, np.column_stack([y, x])), cpd.log_density(x, parents), rtol=1e-12
    )
    fixed = np.tile([[1.0, 0.5]], (200_000, 1))  # a = hi, y = 0.5: mean -0.5, variance 4
    draws = cpd.sample(fixed, np.random.default_rng(6))
    assert abs(draws.mean() + 0.5) < 4 * 2 / np.sqrt(len(draws))
    assert draws.var() == pytest.approx(4.0, rel=0.02)
