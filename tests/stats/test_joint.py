"""Sparse joint counts and the Ledoit-Wolf row-norm moments: correct, weighted, mergeable."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayeskit.stats import JointCounts, joint_counts, shrinkage_moments


def _codes(n=300, d=3, k=3, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, size=(n, d)).astype(np.int8)
    codes[rng.random((n, d)) < missing] = -1
    y = rng.integers(0, 2, size=n)
    w = rng.random(n)
    return codes, y, w


def _brute(codes, y, w, n_classes):
    out = defaultdict(lambda: np.zeros(n_classes))
    for row, c, wi in zip(codes.tolist(), y, w, strict=True):
        out[tuple(row)][c] += wi
    return out


def _as_dict(jc: JointCounts):
    return {tuple(r): c for r, c in zip(jc.combos.tolist(), jc.counts, strict=True)}


def _assert_same(a: JointCounts, b: JointCounts):
    np.testing.assert_array_equal(a.combos, b.combos)
    np.testing.assert_allclose(a.counts, b.counts, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.class_count, b.class_count, rtol=1e-12)
    np.testing.assert_array_equal(a.n_states, b.n_states)


# ---------------------------------------------------------------- joint counts
def test_joint_counts_match_a_brute_force_count():
    codes, y, w = _codes(missing=0.1)
    jc = joint_counts(codes, y, 2, [3, 3, 3], w)
    brute = _brute(codes, y, w, 2)
    got = _as_dict(jc)
    assert set(got) == set(brute)
    for key, counts in brute.items():
        np.testing.assert_allclose(got[key], counts)
    np.testing.assert_allclose(jc.class_count, np.bincount(y, weights=w, minlength=2))


def test_combinations_are_distinct_and_sorted():
    codes, y, _ = _codes(missing=0.2)
    combos = joint_counts(codes, y, 2, [3, 3, 3]).combos
    order = np.lexsort(combos.T[::-1])
    np.testing.assert_array_equal(order, np.arange(len(combos)))
    assert len(np.unique(combos, axis=0)) == len(combos)


def test_storage_grows_with_the_rows_not_the_cells():
    # 40 attributes of 10 values: 1e40 cells, but only as many combinations as rows.
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 10, size=(200, 40))
    jc = joint_counts(codes, rng.integers(0, 2, 200), 2, np.full(40, 10))
    assert jc.combos.shape == (200, 40)
    assert jc.counts.shape == (200, 2)


def test_missing_codes_stay_in_their_combination():
    jc = joint_counts(np.array([[0, -1], [0, -1], [1, 1]]), np.array([0, 1, 1]), 2, [2, 2])
    assert jc.combos.tolist() == [[0, -1], [1, 1]]
    assert jc.counts.tolist() == [[1.0, 1.0], [0.0, 1.0]]


def test_integer_weights_equal_repeated_rows():
    codes, y, _ = _codes()
    w = np.random.default_rng(3).integers(0, 4, len(y))
    weighted = joint_counts(codes, y, 2, [3, 3, 3], w.astype(float))
    repeated = joint_counts(np.repeat(codes, w, axis=0), np.repeat(y, w), 2, [3, 3, 3])
    _assert_same(weighted.project([0, 1, 2]), repeated.project([0, 1, 2]))
    np.testing.assert_allclose(weighted.class_count, repeated.class_count)


@settings(max_examples=40, deadline=None)
@given(split=st.integers(0, 300), seed=st.integers(0, 1000))
def test_counts_of_two_parts_add_up_to_the_counts_of_the_whole(split, seed):
    codes, y, w = _codes(seed=seed, missing=0.1)
    whole = joint_counts(codes, y, 2, [3, 3, 3], w)
    parts = joint_counts(codes[:split], y[:split], 2, [3, 3, 3], w[:split]) + joint_counts(
        codes[split:], y[split:], 2, [3, 3, 3], w[split:]
    )
    _assert_same(parts, whole)


def test_adding_counts_over_different_domains_is_refused():
    a = joint_counts(np.array([[0]]), np.array([0]), 2, [2])
    b = joint_counts(np.array([[0]]), np.array([0]), 2, [3])
    with pytest.raises(ValueError, match="domains of sizes"):
        a + b


def test_regrow_equals_counting_with_the_grown_vocabulary():
    # Column 0 grows from {a, c} (codes 0, 1) to {a, b, c}: old code 1 becomes 2.
    old = joint_counts(np.array([[0, 1], [1, 0], [1, -1]]), np.array([0, 1, 1]), 2, [2, 2])
    grown = old.regrow({0: np.array([0, 2])}, np.array([3, 2]))
    direct = joint_counts(np.array([[0, 1], [2, 0], [2, -1]]), np.array([0, 1, 1]), 2, [3, 2])
    _assert_same(grown, direct)


def test_regrow_promotes_the_code_type_when_a_domain_outgrows_it():
    old = joint_counts(np.array([[0], [1]], dtype=np.int8), np.array([0, 1]), 2, [2])
    grown = old.regrow({0: np.array([0, 300])}, np.array([301]))
    assert grown.combos.ravel().tolist() == [0, 300]


def test_project_marginalises_over_rows_observing_the_columns():
    codes, y, w = _codes(missing=0.15)
    jc = joint_counts(codes, y, 2, [3, 3, 3], w)
    p = jc.project([2, 0])
    keep = (codes[:, [2, 0]] >= 0).all(axis=1)
    direct = joint_counts(codes[keep][:, [2, 0]], y[keep], 2, [3, 3], w[keep])
    np.testing.assert_array_equal(p.combos, direct.combos)
    np.testing.assert_allclose(p.counts, direct.counts)
    np.testing.assert_array_equal(p.n_states, [3, 3])


def test_find_returns_the_row_of_each_seen_combination():
    codes, y, _ = _codes()
    jc = joint_counts(codes, y, 2, [3, 3, 3])
    idx = jc.find(codes)
    np.testing.assert_array_equal(jc.combos[idx], codes)


def test_find_answers_minus_one_for_unseen_and_out_of_domain_rows():
    jc = joint_counts(np.array([[0, 1], [1, 0]]), np.array([0, 1]), 2, [2, 2])
    assert jc.find(np.array([[1, 1], [5, 0], [0, 1]])).tolist() == [-1, -1, 0]
    assert jc.find(np.zeros((0, 2), dtype=int)).tolist() == []


def test_many_wide_columns_fall_back_to_row_comparison():
    # 80 attributes of 4 values: 5^80 mixed-radix keys overflow int64, so whole rows are compared.
    rng = np.random.default_rng(2)
    codes = rng.integers(0, 4, size=(60, 80)).astype(np.int8)
    codes = np.concatenate([codes, codes[:10]])
    y = rng.integers(0, 2, len(codes))
    n_states = np.full(80, 4)
    jc = joint_counts(codes[:30], y[:30], 2, n_states) + joint_counts(
        codes[30:], y[30:], 2, n_states
    )
    assert len(jc.combos) == 60
    np.testing.assert_array_equal(jc.combos[jc.find(codes)], codes)
    assert jc.find(np.full((1, 80), 3)).tolist() == [-1]
    assert jc.counts.sum() == len(codes)


def test_dense_table_holds_the_complete_rows():
    codes, y, w = _codes(missing=0.1)
    dense = joint_counts(codes, y, 2, [3, 3, 3], w).dense()
    expected = np.zeros((2, 3, 3, 3))
    ok = (codes >= 0).all(axis=1)
    np.add.at(expected, (y[ok], *codes[ok].T), w[ok])
    np.testing.assert_allclose(dense, expected)


def test_dense_refuses_huge_tables():
    jc = joint_counts(np.zeros((1, 30), dtype=int), np.array([0]), 2, np.full(30, 10))
    with pytest.raises(ValueError, match="max_cells"):
        jc.dense()


def test_no_categorical_columns_gives_one_empty_combination():
    jc = joint_counts(np.zeros((4, 0), dtype=np.int8), np.array([0, 1, 1, 1]), 2, [])
    assert jc.combos.shape == (1, 0)
    assert jc.counts.tolist() == [[1.0, 3.0]]


# ---------------------------------------------------------------- shrinkage moments
def _values(n=200, d=4, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)) @ rng.normal(size=(d, d)) + rng.normal(size=d)
    x[rng.random((n, d)) < missing] = np.nan
    return x, rng.integers(0, 3, n), rng.random(n)


def test_row_norm_moments_match_their_definition():
    x, y, w = _values(missing=0.05)
    sm = shrinkage_moments(x, y, 3, w)
    complete = ~np.isnan(x).any(axis=1)
    for c in range(3):
        rows = complete & (y == c)
        dev = x[rows] - np.average(x[rows], axis=0, weights=w[rows])
        r = (dev**2).sum(axis=1)
        np.testing.assert_allclose(sm.norm3[c], (w[rows] * r) @ dev, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(sm.norm4[c], w[rows] @ r**2, rtol=1e-10)
        np.testing.assert_allclose(sm.count[c], w[rows].sum())


@settings(max_examples=40, deadline=None)
@given(split=st.integers(0, 200), seed=st.integers(0, 1000))
def test_moments_of_two_parts_add_up_to_the_moments_of_the_whole(split, seed):
    x, y, w = _values(seed=seed, missing=0.05)
    whole = shrinkage_moments(x, y, 3, w)
    parts = shrinkage_moments(x[:split], y[:split], 3, w[:split]) + shrinkage_moments(
        x[split:], y[split:], 3, w[split:]
    )
    np.testing.assert_allclose(parts.count, whole.count, rtol=1e-12)
    np.testing.assert_allclose(parts.mean, whole.mean, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(parts.scatter.scatter, whole.scatter.scatter, rtol=1e-9, atol=1e-8)
    np.testing.assert_allclose(parts.norm3, whole.norm3, rtol=1e-8, atol=1e-6)
    np.testing.assert_allclose(parts.norm4, whole.norm4, rtol=1e-9)


def test_a_class_without_rows_has_zero_moments():
    x, _, _ = _values(n=10)
    sm = shrinkage_moments(x, np.zeros(10, dtype=int), 2)
    assert sm.count.tolist() == [10.0, 0.0]
    assert np.all(sm.norm3[1] == 0)
    assert sm.norm4[1] == 0
