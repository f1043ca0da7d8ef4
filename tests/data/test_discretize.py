"""Tests of bayeskit.data.discretize: right-closed bins, equal width / frequency, MDL."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayeskit.data.discretize import (
    Discretizer,
    apply_cuts,
    equal_frequency_cuts,
    equal_width_cuts,
    mdl_cuts,
)


@pytest.fixture(scope="module")
def sepal_length() -> np.ndarray:
    datasets = pytest.importorskip("sklearn.datasets")
    return datasets.load_iris().data[:, 0].astype(np.float64)


# --------------------------------------------------------------------------- a reference MDL
def _entropy(counts: np.ndarray) -> tuple[float, int]:
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum()), int(p.size)


def _reference_mdl(x: np.ndarray, y: np.ndarray, n_classes: int) -> list[float]:
    """Fayyad & Irani by the book: every midpoint between distinct values is a candidate."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    cuts: list[float] = []

    def counts(lo: int, hi: int) -> np.ndarray:
        return np.bincount(ys[lo:hi], minlength=n_classes).astype(float)

    def split(lo: int, hi: int) -> None:
        total = counts(lo, hi)
        n = total.sum()
        ent, k = _entropy(total)
        scored = []
        for i in range(lo + 1, hi):
            if xs[i] != xs[i - 1]:
                left, right = counts(lo, i), counts(i, hi)
                e = (left.sum() * _entropy(left)[0] + right.sum() * _entropy(right)[0]) / n
                scored.append((e, i))
        if not scored or k < 2:
            return
        best = min(e for e, _ in scored)
        i = min(i for e, i in scored if e <= best + 1e-9)  # leftmost of (near-)ties
        (e1, k1), (e2, k2) = _entropy(counts(lo, i)), _entropy(counts(i, hi))
        n1, n2 = i - lo, hi - i
        gain = ent - (n1 * e1 + n2 * e2) / n
        delta = math.log2(3**k - 2) - (k * ent - k1 * e1 - k2 * e2)
        if gain > (math.log2(n - 1) + delta) / n:
            cuts.append((xs[i - 1] + xs[i]) / 2)
            split(lo, i)
            split(i, hi)

    split(0, x.size)
    return sorted(cuts)


# --------------------------------------------------------------------------- apply_cuts
def test_bins_are_right_closed():
    codes = apply_cuts(np.array([0.5, 1.0, 1.5, 2.0, 2.5]), np.array([1.0, 2.0]))
    assert codes.tolist() == [0, 0, 1, 1, 2]
    assert codes.dtype == np.int64


def test_apply_cuts_is_searchsorted_left():
    x = np.random.default_rng(0).normal(size=200).round(1)
    cuts = np.array([-1.0, 0.0, 0.3, 1.2])
    np.testing.assert_array_equal(apply_cuts(x, cuts), np.searchsorted(cuts, x, side="left"))


def test_zaki_table_18_1_bins(sepal_length):
    codes = apply_cuts(sepal_length, np.array([5.2, 6.1, 7.0]))
    assert np.bincount(codes).tolist() == [45, 50, 43, 12]
    lows = [sepal_length[codes == b].min() for b in range(4)]
    highs = [sepal_length[codes == b].max() for b in range(4)]
    assert lows[0] == 4.3
    assert highs == [5.2, 6.1, 7.0, 7.9]  # the upper edge of each bin is in the bin


def test_nan_gets_code_minus_one():
    codes = apply_cuts(np.array([np.nan, 1.0, np.nan, 3.0]), np.array([2.0]))
    assert codes.tolist() == [-1, 0, -1, 1]


def test_out_of_range_values_go_to_end_bins():
    cuts = equal_width_cuts(np.array([0.0, 10.0]), 5)
    codes = apply_cuts(np.array([-1e9, -np.inf, 1e9, np.inf]), cuts)
    assert codes.tolist() == [0, 0, 5 - 1, 5 - 1]


def test_no_cuts_means_one_bin():
    assert apply_cuts(np.array([-5.0, 0.0, np.nan, 7.0]), np.array([])).tolist() == [0, 0, -1, 0]


def test_apply_cuts_rejects_unsorted_cuts():
    with pytest.raises(ValueError, match="strictly increasing"):
        apply_cuts(np.array([1.0]), np.array([2.0, 1.0]))


# --------------------------------------------------------------------------- equal width
def test_equal_width_reproduces_zaki(sepal_length):
    cuts = equal_width_cuts(sepal_length, 4)
    np.testing.assert_allclose(cuts, [5.2, 6.1, 7.0])
    assert np.bincount(apply_cuts(sepal_length, cuts)).tolist() == [45, 50, 43, 12]


def test_equal_width_ignores_nan():
    cuts = equal_width_cuts(np.array([np.nan, 0.0, 4.0, np.nan]), 4)
    np.testing.assert_allclose(cuts, [1.0, 2.0, 3.0])


@pytest.mark.parametrize(
    "values", [np.full(10, 3.5), np.array([np.nan, 2.0, np.nan]), np.full(4, np.nan), np.array([])]
)
def test_equal_width_constant_or_missing_column_has_no_cuts(values):
    assert equal_width_cuts(values, 5).size == 0


def test_one_bin_has_no_cuts():
    x = np.arange(10.0)
    assert equal_width_cuts(x, 1).size == 0
    assert equal_frequency_cuts(x, 1).size == 0


# --------------------------------------------------------------------------- equal frequency
def test_equal_frequency_balances_bins():
    x = np.random.default_rng(1).normal(size=1000)
    cuts = equal_frequency_cuts(x, 4)
    assert cuts.size == 3
    assert np.bincount(apply_cuts(x, cuts)).tolist() == [250, 250, 250, 250]


def test_equal_frequency_heavy_ties_give_fewer_bins_never_empty():
    x = np.array([0.0] * 50 + [1.0] * 30 + [2.0] * 5 + [3.0] * 5 + [4.0] * 10)
    cuts = equal_frequency_cuts(x, 10)
    assert np.all(np.diff(cuts) > 0)
    assert cuts.size < 9
    counts = np.bincount(apply_cuts(x, cuts), minlength=cuts.size + 1)
    assert np.all(counts > 0)


def test_equal_frequency_constant_column_has_no_cuts():
    assert equal_frequency_cuts(np.full(20, 1.5), 4).size == 0


def test_equal_frequency_integer_weights_equal_duplicated_rows():
    rng = np.random.default_rng(2)
    x = rng.normal(size=60).round(1)
    w = rng.integers(0, 4, size=60)
    np.testing.assert_array_equal(
        equal_frequency_cuts(x, 5, sample_weight=w), equal_frequency_cuts(np.repeat(x, w), 5)
    )


# --------------------------------------------------------------------------- MDL
def test_mdl_finds_the_obvious_cut():
    x = np.arange(20.0)
    assert mdl_cuts(x, (x >= 10).astype(int), 2).tolist() == [9.5]


def test_mdl_three_separable_classes():
    x = np.arange(30.0)
    y = (x >= 10).astype(int) + (x >= 20).astype(int)
    assert mdl_cuts(x, y, 3).tolist() == [9.5, 19.5]


def test_mdl_single_class_gives_no_cut():
    x = np.random.default_rng(3).normal(size=500)
    assert mdl_cuts(x, np.ones(500, dtype=int), 3).size == 0


def test_mdl_pure_noise_gives_no_cut():
    rng = np.random.default_rng(4)
    x = rng.normal(size=300)
    y = rng.integers(0, 2, size=300)
    assert mdl_cuts(x, y, 2).size == 0


def test_mdl_rejects_a_split_that_does_not_pay_for_itself():
    x = np.arange(12.0)
    y = np.array([0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1])
    assert mdl_cuts(x, y, 2).size == 0
    assert mdl_cuts(np.arange(8.0), np.array([0, 1] * 4), 2).size == 0


def test_mdl_matches_reference_on_random_data():
    rng = np.random.default_rng(5)
    for trial in range(25):
        n = int(rng.integers(20, 200))
        k = int(rng.integers(2, 5))
        x = rng.normal(size=n)
        if trial % 2:
            x = x.round(1)  # ties, including ties across classes
        score = x + rng.normal(scale=0.5, size=n)
        y = np.searchsorted(np.quantile(score, np.arange(1, k) / k), score)
        expected = _reference_mdl(x, y, k)
        np.testing.assert_allclose(mdl_cuts(x, y, k), expected, rtol=0, atol=1e-12)


def test_mdl_cuts_are_midpoints_between_distinct_values():
    x = np.array([1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0] * 3)
    y = (x >= 3).astype(int)
    assert mdl_cuts(x, y, 2).tolist() == [2.5]


def test_mdl_ignores_nan_rows():
    x = np.arange(20.0)
    y = (x >= 10).astype(int)
    x_nan = np.concatenate([x, [np.nan, np.nan]])
    y_nan = np.concatenate([y, [0, 1]])
    np.testing.assert_array_equal(mdl_cuts(x_nan, y_nan, 2), mdl_cuts(x, y, 2))


def test_mdl_integer_weights_equal_duplicated_rows():
    rng = np.random.default_rng(6)
    x = rng.normal(size=400).round(2)
    y = (x + rng.normal(scale=0.7, size=400) > 0).astype(int) + (x > 1).astype(int)
    w = rng.integers(0, 4, size=400)
    weighted = mdl_cuts(x, y, 3, sample_weight=w)
    duplicated = mdl_cuts(np.repeat(x, w), np.repeat(y, w), 3)
    assert weighted.size > 0
    np.testing.assert_array_equal(weighted, duplicated)


def test_mdl_total_weight_is_the_sample_size():
    x = np.arange(12.0)
    y = np.array([0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1])
    tripled = mdl_cuts(x, y, 2, sample_weight=np.full(12, 3))
    assert tripled.tolist() == [3.5]  # 36 points of evidence: now the split pays
    np.testing.assert_array_equal(tripled, mdl_cuts(np.repeat(x, 3), np.repeat(y, 3), 2))


def test_mdl_fractional_weights():
    rng = np.random.default_rng(9)
    x = rng.normal(size=300).round(2)
    y = (x + rng.normal(scale=0.8, size=300) > 0).astype(int)
    cuts = mdl_cuts(x, y, 2)
    assert cuts.size > 0
    # halved weights on doubled rows are the same evidence as the original rows
    halves = mdl_cuts(np.repeat(x, 2), np.repeat(y, 2), 2, sample_weight=np.full(600, 0.5))
    np.testing.assert_array_equal(halves, cuts)
    # a tenth of the evidence does not support any cut
    assert mdl_cuts(x, y, 2, sample_weight=np.full(300, 0.1)).size == 0


def test_mdl_cut_between_adjacent_floats_keeps_them_apart():
    a = 1.0
    b = np.nextafter(a, 2.0)
    x = np.array([a] * 10 + [b] * 10)
    y = np.array([0] * 10 + [1] * 10)
    cuts = mdl_cuts(x, y, 2)
    assert cuts.size == 1
    assert apply_cuts(x, cuts).tolist() == y.tolist()


def test_mdl_handles_negative_values_and_signed_zero():
    x = np.array([-3.0, -2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 3.0] * 4)
    y = (x > 0.5).astype(int)
    assert mdl_cuts(x, y, 2).tolist() == [0.5]


# --------------------------------------------------------------------------- Discretizer
def test_discretizer_equal_width_fit_transform_and_labels():
    x = np.array([[4.3, 1.0], [5.0, 2.0], [6.0, np.nan], [7.9, 4.0]])
    d = Discretizer("equal-width", n_bins=4).fit(x)
    assert len(d.cuts_) == 2
    assert d.n_bins_.tolist() == [4, 4]
    codes = d.transform(x)
    assert codes.dtype == np.int64
    assert codes.tolist() == [[0, 0], [0, 1], [1, -1], [3, 3]]
    assert d.bin_labels(0) == ["(-inf, 5.2]", "(5.2, 6.1]", "(6.1, 7]", "(7, inf)"]


def test_discretizer_fit_transform_equals_fit_then_transform():
    rng = np.random.default_rng(11)
    x = np.column_stack([np.r_[rng.normal(0, 1, 60), rng.normal(4, 1, 60)], rng.normal(size=120)])
    x[::17, 1] = np.nan
    y = np.r_[[0] * 60, [1] * 60]
    w = rng.integers(1, 4, 120).astype(float)
    for method, args in [("mdl", (y, 2, w)), ("equal-frequency", ()), ("equal-width", ())]:
        both = Discretizer(method, n_bins=3).fit_transform(x, *args)
        apart = Discretizer(method, n_bins=3).fit(x, *args).transform(x)
        np.testing.assert_array_equal(both, apart)
        assert (both[::17, 1] == -1).all()  # missing stays missing
    assert Discretizer("mdl").fit_transform(x, y, 2)[:, 0].max() >= 1  # the informative cut


def test_discretizer_mdl_on_two_columns():
    rng = np.random.default_rng(7)
    informative = np.arange(40.0)
    y = (informative >= 20).astype(int)
    x = np.column_stack([informative, rng.normal(size=40), np.full(40, 2.0)])
    d = Discretizer().fit(x, y)
    assert d.cuts_[0].tolist() == [19.5]
    assert d.cuts_[2].size == 0
    assert d.n_bins_.tolist() == [2, d.cuts_[1].size + 1, 1]
    assert d.transform(x)[:, 0].tolist() == y.tolist()
    assert d.bin_labels(0) == ["(-inf, 19.5]", "(19.5, inf)"]
    assert d.bin_labels(2) == ["(-inf, inf)"]


def test_discretizer_equal_frequency_per_column():
    x = np.column_stack([np.arange(12.0), np.arange(12.0)[::-1] * 10])
    d = Discretizer("equal-frequency", n_bins=3).fit(x)
    assert all(np.bincount(col).tolist() == [4, 4, 4] for col in d.transform(x).T)


def test_discretizer_threaded_fit_matches_column_by_column():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(60_000, 4))  # big enough for the threaded path
    y = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(size=60_000) > 0).astype(int)
    d = Discretizer("mdl").fit(x, y, 2)
    for j in range(4):
        np.testing.assert_array_equal(d.cuts_[j], mdl_cuts(x[:, j], y, 2))
    assert d.cuts_[0].size > 0


def test_bin_labels_stay_distinct_for_close_cuts():
    d = Discretizer("equal-width", n_bins=2).fit(np.array([[1.0], [1.0000002]]))
    labels = d.bin_labels(0)
    assert len(set(labels)) == 2
    assert labels[0].endswith("]")
    assert labels[1].endswith("inf)")


# --------------------------------------------------------------------------- argument checks
@pytest.mark.parametrize("n_bins", [0, -2, 2.5, True, "3"])
def test_n_bins_must_be_a_positive_integer(n_bins):
    with pytest.raises(ValueError, match=rf"n_bins must be an integer >= 1, got {n_bins!r}"):
        equal_width_cuts(np.arange(5.0), n_bins)
    with pytest.raises(ValueError, match="n_bins must be an integer >= 1"):
        Discretizer("equal-width", n_bins=n_bins).fit(np.ones((3, 1)))


def test_unknown_method_is_named():
    with pytest.raises(
        ValueError,
        match="method must be one of 'equal-width', 'equal-frequency', 'mdl', got 'foo'",
    ):
        Discretizer("foo").fit(np.ones((3, 1)))


def test_mdl_needs_y():
    with pytest.raises(ValueError, match=r"mdl discretization needs y \(the class codes\)"):
        Discretizer("mdl").fit(np.ones((3, 1)))
    with pytest.raises(ValueError, match="needs y"):
        mdl_cuts(np.arange(3.0), None, 2)


def test_y_length_mismatch_names_both_lengths():
    with pytest.raises(ValueError, match="y has 4 entries but values has 5 rows"):
        mdl_cuts(np.arange(5.0), np.zeros(4, dtype=int), 2)
    with pytest.raises(ValueError, match="y has 2 entries but values has 3 rows"):
        Discretizer().fit(np.ones((3, 2)), np.zeros(2, dtype=int))


def test_y_codes_must_be_in_range():
    with pytest.raises(ValueError, match=r"y must hold codes in \[0, 2\)"):
        mdl_cuts(np.arange(3.0), np.array([0, 1, 2]), 2)
    with pytest.raises(ValueError, match="y must hold integer class codes"):
        mdl_cuts(np.arange(3.0), np.array([0.5, 1.0, 0.0]), 2)


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="sample_weight must be finite and >= 0"):
        mdl_cuts(np.arange(3.0), np.array([0, 1, 1]), 2, sample_weight=[1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(3,\)"):
        equal_frequency_cuts(np.arange(3.0), 2, sample_weight=[1.0, 1.0])


def test_infinite_values_are_refused_when_fitting():
    with pytest.raises(ValueError, match="infinite"):
        equal_width_cuts(np.array([0.0, np.inf]), 3)
    with pytest.raises(ValueError, match="infinite"):
        Discretizer("equal-width").fit(np.array([[0.0], [-np.inf]]))


def test_shape_errors():
    with pytest.raises(ValueError, match=r"values must be 1-D, got an array of shape \(2, 2\)"):
        equal_width_cuts(np.ones((2, 2)), 3)
    with pytest.raises(ValueError, match="values_2d must be 2-D"):
        Discretizer("equal-width").fit(np.ones(4))
    d = Discretizer("equal-width").fit(np.ones((3, 2)))
    with pytest.raises(ValueError, match="values_2d has 3 columns but the Discretizer was fitted"):
        d.transform(np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"j must be a column index in \[0, 2\), got 5"):
        d.bin_labels(5)


def test_transform_before_fit_is_refused():
    with pytest.raises(ValueError, match="not fitted"):
        Discretizer().transform(np.ones((2, 2)))


# --------------------------------------------------------------------------- properties
_finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.one_of(_finite, st.just(float("nan")), st.just(float("inf"))), max_size=60),
    cuts=st.lists(_finite, max_size=8, unique=True),
)
def test_codes_in_range_and_monotone(values, cuts):
    x = np.array(values, dtype=np.float64)
    c = np.sort(np.array(cuts, dtype=np.float64))
    codes = apply_cuts(x, c)
    assert np.all((codes >= -1) & (codes <= c.size))
    assert np.all((codes == -1) == np.isnan(x))
    observed = ~np.isnan(x)
    by_x = codes[observed][np.argsort(x[observed], kind="stable")]
    assert np.all(np.diff(by_x) >= 0)


@settings(max_examples=100, deadline=None)
@given(
    data=st.lists(st.tuples(_finite, st.integers(0, 2)), min_size=1, max_size=80),
    method=st.sampled_from(["equal-width", "equal-frequency", "mdl"]),
    n_bins=st.integers(1, 6),
)
def test_fitted_cuts_are_increasing_and_inside_the_data(data, method, n_bins):
    x = np.array([v for v, _ in data])
    y = np.array([c for _, c in data])
    d = Discretizer(method, n_bins=n_bins).fit(x[:, None], y, 3)
    cuts = d.cuts_[0]
    assert np.all(np.diff(cuts) > 0)
    assert cuts.size <= (x.size - 1 if method == "mdl" else n_bins - 1)
    assert np.all((cuts >= x.min()) & (cuts < x.max()))
    if method != "equal-width":  # cuts at observed values or midpoints never leave a bin empty
        counts = np.bincount(d.transform(x[:, None])[:, 0], minlength=cuts.size + 1)
        assert np.all(counts > 0)


def test_mdl_absent_classes_change_nothing():
    x = np.arange(30.0)
    y = (x >= 10).astype(int) * 3 + (x >= 20).astype(int) * 4  # codes 0, 3, 7 of 50
    assert mdl_cuts(x, y, 50).tolist() == [9.5, 19.5]
    assert Discretizer().fit(x[:, None], y, 50).cuts_[0].tolist() == [9.5, 19.5]
