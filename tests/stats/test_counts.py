"""Count tables and Gaussian moments: correct, weighted, and mergeable (a + b)."""

from __future__ import annotations

import numpy as np

from bayeskit.stats import (
    categorical_counts,
    class_counts,
    count_table,
    gaussian_moments,
    scatter_moments,
)


def _data(n=500, seed=0):
    rng = np.random.default_rng(seed)
    codes = rng.integers(-1, 4, size=(n, 3)).astype(np.int8)
    values = rng.normal(size=(n, 2))
    values[rng.random((n, 2)) < 0.1] = np.nan
    y = rng.integers(0, 3, size=n)
    w = rng.random(n)
    return codes, values, y, w


def test_categorical_counts_match_bincount():
    codes, _, y, w = _data()
    cc = categorical_counts(codes, y, 3, np.array([4, 4, 4]), w)
    for f in range(3):
        ok = codes[:, f] >= 0
        expect = np.zeros((3, 4))
        np.add.at(expect, (y[ok], codes[ok, f]), w[ok])
        np.testing.assert_allclose(cc.feature_count[f], expect, rtol=1e-12)
    np.testing.assert_allclose(cc.class_count, np.bincount(y, w, minlength=3))


def test_categorical_counts_merge_equals_concatenation():
    codes, _, y, w = _data()
    a = categorical_counts(codes[:200], y[:200], 3, np.array([4, 4, 4]), w[:200])
    b = categorical_counts(codes[200:], y[200:], 3, np.array([4, 4, 4]), w[200:])
    whole = categorical_counts(codes, y, 3, np.array([4, 4, 4]), w)
    merged = a + b
    for s, t in zip(merged.feature_count, whole.feature_count, strict=True):
        np.testing.assert_allclose(s, t, rtol=1e-12)


def test_regrow_moves_columns():
    codes = np.array([[0], [1]], dtype=np.int8)
    cc = categorical_counts(codes, np.array([0, 1]), 2, np.array([2]))
    grown = cc.regrow({0: np.array([1, 3])}, np.array([4]))
    assert grown.feature_count[0].tolist() == [[0, 1, 0, 0], [0, 0, 0, 1]]


def test_count_table_axis_order():
    t = count_table(np.array([1]), np.array([2]), np.array([0]), 2, 3, 2)
    assert t.shape == (2, 3, 2)
    assert t[1, 2, 0] == 1
    assert t.sum() == 1


def test_class_counts_weighted():
    assert class_counts(np.array([0, 0, 2]), 3, np.array([0.5, 1.0, 2.0])).tolist() == [1.5, 0, 2]


def test_gaussian_moments_match_numpy_and_skip_nan():
    _, values, y, w = _data()
    gm = gaussian_moments(values, y, 3, w)
    for c in range(3):
        for f in range(2):
            x = values[y == c, f]
            ww = w[y == c]
            ok = ~np.isnan(x)
            mean = np.average(x[ok], weights=ww[ok])
            np.testing.assert_allclose(gm.mean[c, f], mean, rtol=1e-12)
            np.testing.assert_allclose(
                gm.m2[c, f], np.sum(ww[ok] * (x[ok] - mean) ** 2), rtol=1e-12
            )


def test_gaussian_moments_merge_is_exact():
    _, values, y, w = _data()
    whole = gaussian_moments(values, y, 3, w)
    merged = gaussian_moments(values[:123], y[:123], 3, w[:123]) + gaussian_moments(
        values[123:], y[123:], 3, w[123:]
    )
    np.testing.assert_allclose(merged.count, whole.count, rtol=1e-12)
    np.testing.assert_allclose(merged.mean, whole.mean, rtol=1e-12)
    np.testing.assert_allclose(merged.m2, whole.m2, rtol=1e-12)


def test_gaussian_moments_merge_with_empty_part():
    _, values, y, _ = _data()
    whole = gaussian_moments(values, y, 3)
    empty = gaussian_moments(values[:0], y[:0], 3)
    merged = empty + whole
    np.testing.assert_array_equal(merged.mean, whole.mean)
    assert np.isfinite(merged.m2).all()


def test_scatter_moments_merge_is_exact():
    rng = np.random.default_rng(1)
    values = rng.normal(size=(300, 3))
    y = rng.integers(0, 2, 300)
    whole = scatter_moments(values, y, 2)
    merged = scatter_moments(values[:100], y[:100], 2) + scatter_moments(values[100:], y[100:], 2)
    np.testing.assert_allclose(merged.scatter, whole.scatter, rtol=1e-12)
    np.testing.assert_allclose(merged.scatter[0] / whole.count[0], np.cov(values[y == 0].T, ddof=0))


def test_integer_weights_equal_duplicated_rows():
    codes, values, y, _ = _data(100)
    w = np.arange(100) % 3
    rep = np.repeat(np.arange(100), w)
    a = categorical_counts(codes, y, 3, np.array([4, 4, 4]), w.astype(float))
    b = categorical_counts(codes[rep], y[rep], 3, np.array([4, 4, 4]))
    np.testing.assert_allclose(a.feature_count[1], b.feature_count[1])
    ga, gb = (
        gaussian_moments(values, y, 3, w.astype(float)),
        gaussian_moments(values[rep], y[rep], 3),
    )
    np.testing.assert_allclose(ga.m2, gb.m2, rtol=1e-10)
