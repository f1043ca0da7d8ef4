"""Tests of conditional independence from count tables and correlations."""

import numpy as np
import pytest
from scipy import stats as sps

from bayeskit.stats.independence import discrete_test, fisher_z


def _tables(rng, shape, n=200):
    return rng.multinomial(n, np.full(np.prod(shape), 1 / np.prod(shape))).reshape(shape) * 1.0


@pytest.mark.parametrize("shape", [(2, 2), (3, 4), (5, 2)])
def test_unconditional_statistics_are_scipys_chi2_contingency(shape):
    rng = np.random.default_rng(0)
    for _ in range(5):
        t = _tables(rng, shape) + 1.0  # no empty row or column
        for method, lam in (("x2", "pearson"), ("g2", "log-likelihood"), ("mi", "log-likelihood")):
            stat, df, p = discrete_test(t[None], method)
            ref = sps.chi2_contingency(t, correction=False, lambda_=lam)
            assert stat == pytest.approx(ref.statistic, rel=1e-10, abs=1e-10)
            assert df == ref.dof
            assert p == pytest.approx(ref.pvalue, rel=1e-10, abs=1e-12)


def test_conditional_statistics_add_up_over_strata_and_batch_like_single_tables():
    rng = np.random.default_rng(1)
    tables = np.stack([_tables(rng, (4, 3, 2)) + 1.0 for _ in range(6)])  # 6 tests, m = 4
    for method, lam in (("x2", "pearson"), ("g2", "log-likelihood")):
        stat, df, p = discrete_test(tables, method)
        for k, t in enumerate(tables):
            parts = [sps.chi2_contingency(s, correction=False, lambda_=lam) for s in t]
            assert stat[k] == pytest.approx(sum(r.statistic for r in parts), rel=1e-10)
            assert df[k] == sum(r.dof for r in parts) == 4 * 2 * 1
            assert p[k] == pytest.approx(sps.chi2.sf(stat[k], df[k]), rel=1e-10)


def test_adjusted_degrees_of_freedom_count_the_values_seen_per_stratum():
    t = np.zeros((3, 3, 3))
    t[0] = [[5, 1, 0], [2, 7, 0], [0, 0, 0]]  # X: 2 values seen, Y: 2 -> 1
    t[1] = [[4, 3, 2], [1, 1, 1], [6, 0, 2]]  # 3 x 3 -> 4
    # t[2] empty -> 0
    assert discrete_test(t, "g2")[1] == 12.0
    assert discrete_test(t, "g2", adjusted_df=True)[1] == 5.0
    # no degree of freedom left: p-value 1
    one = np.zeros((1, 2, 2))
    one[0, 0, 0] = 10
    assert discrete_test(one, "g2", adjusted_df=True)[1:] == (0.0, 1.0)


def test_shrinkage_statistic_follows_hausser_and_strimmer():
    t = np.array([[[10.0, 20.0], [30.0, 15.0]]])
    n, theta = 75.0, t.ravel() / 75.0
    lam = (1 - (theta**2).sum()) / ((n - 1) * ((0.25 - theta) ** 2).sum())
    p = (lam / 4 + (1 - lam) * theta).reshape(2, 2)
    mi = sps.entropy(p.sum(1)) + sps.entropy(p.sum(0)) - sps.entropy(p.ravel())
    stat, df, pv = discrete_test(t, "mi-sh")
    assert stat == pytest.approx(2 * n * mi, rel=1e-10)
    assert stat < discrete_test(t, "g2")[0]  # shrunk towards independence
    assert pv == pytest.approx(sps.chi2.sf(stat, 1), rel=1e-10)


def test_permutation_p_values_are_seeded_and_near_the_asymptotic_ones():
    rng = np.random.default_rng(2)
    t = np.stack([_tables(rng, (2, 3, 3), n=600) for _ in range(2)])
    a = discrete_test(t, "mc-mi", permutations=2000, random_state=0)[2]
    b = discrete_test(t, "mc-mi", permutations=2000, random_state=0)[2]
    asymptotic = discrete_test(t, "g2")[2]
    assert np.array_equal(a, b)
    assert np.all((a > 0) & (a <= 1))
    assert np.allclose(a, asymptotic, atol=0.05)
    dependent = np.array([[[50.0, 0.0], [0.0, 50.0]]])
    assert discrete_test(dependent, "mc-mi", permutations=200, random_state=0)[2] == 1 / 201


@pytest.mark.parametrize(
    ("tables", "kwargs", "match"),
    [
        (np.ones((2, 2)), {}, "shape"),
        (-np.ones((1, 2, 2)), {}, "non-negative"),
        (np.full((1, 2, 2), np.nan), {}, "finite"),
        (np.ones((1, 2, 2)), {"method": "chi"}, "method must be one of"),
    ],
)
def test_bad_tables_and_methods_are_refused(tables, kwargs, match):
    with pytest.raises(ValueError, match=match):
        discrete_test(tables, **kwargs)


def test_fisher_z_is_the_partial_correlation_of_the_residuals():
    rng = np.random.default_rng(3)
    z = rng.normal(size=(4000, 2))
    x = z @ [1.0, -0.5] + rng.normal(size=4000)
    y = z @ [0.3, 0.8] + 0.2 * x + rng.normal(size=4000)
    data = np.column_stack([x, y, z])
    R = np.corrcoef(data, rowvar=False)
    design = np.column_stack([np.ones(4000), z])
    rx = x - design @ np.linalg.lstsq(design, x, rcond=None)[0]
    ry = y - design @ np.linalg.lstsq(design, y, rcond=None)[0]
    r = np.corrcoef(rx, ry)[0, 1]
    stat, p = fisher_z(R, 4000, 0, 1, [2, 3])
    assert stat == pytest.approx(np.arctanh(r) * np.sqrt(4000 - 2 - 3), rel=1e-9)
    assert p == pytest.approx(2 * sps.norm.sf(abs(stat)), rel=1e-9)
    assert fisher_z(R, 4, 0, 1, [2, 3]) == (0.0, 1.0)  # too few rows to test
    with pytest.raises(ValueError, match="distinct"):
        fisher_z(R, 100, 0, 0)


@pytest.mark.parametrize("method", ["g2", "x2", "mi-sh"])
@pytest.mark.parametrize("adjusted", [False, True])
def test_a_list_of_tables_of_any_shapes_is_each_table_tested_alone(method, adjusted):
    rng = np.random.default_rng(8)
    shapes = [(1, 2, 2), (3, 2, 2), (4, 3, 2), (5, 2, 2), (1, 3, 2), (2, 2, 4)]
    tables = [_tables(rng, s, n=150) for s in shapes]
    tables[1][2] = 0.0  # an empty stratum
    stat, df, p = discrete_test(tables, method, adjusted_df=adjusted)
    for k, t in enumerate(tables):
        one = discrete_test(t, method, adjusted_df=adjusted)
        assert stat[k] == pytest.approx(float(one[0]), rel=1e-12, abs=1e-12)
        assert df[k] == one[1]
        assert p[k] == pytest.approx(float(one[2]), rel=1e-12, abs=1e-15)
    with pytest.raises(ValueError, match="3-D"):
        discrete_test([np.ones((2, 2))])
