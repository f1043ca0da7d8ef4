"""distinct_rows: the distinct rows of integer codes with their summed weights, checked against a
dictionary count row by row, on every way it groups (a table over the keys, sorted keys, rows
too wide for one key)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from bayeskit.data.rows import distinct_rows, row_keys


def _brute(codes: np.ndarray, weights: np.ndarray, missing: str = "first") -> tuple[list, list]:
    """The distinct rows (Python's tuple order: lexicographic, -1 first, or last where
    ``missing`` says) and their total weights, by a dictionary."""
    total: dict = defaultdict(float)
    for row, w in zip(codes.tolist(), weights.tolist(), strict=True):
        total[tuple(row)] += w
    last = missing == "last"
    keys = sorted(total, key=lambda k: [c if c >= 0 or not last else float("inf") for c in k])
    return [list(k) for k in keys], [total[k] for k in keys]


def _codes(n, d, k, seed, missing=0.1, dtype=np.int8):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, size=(n, d)).astype(dtype)
    codes[rng.random((n, d)) < missing] = -1
    return codes, rng.random(n)


# (n, d, k): few keys (a table), many keys (a sort), 40 columns of 10 states (11**40 keys: wider
# than an int64, sorted column by column), 300 states (int16 codes)
SHAPES = [(500, 3, 3), (2000, 8, 6), (800, 40, 10), (600, 5, 300)]


@pytest.mark.parametrize(("n", "d", "k"), SHAPES)
@pytest.mark.parametrize("given_states", [True, False])
@pytest.mark.parametrize("missing", ["first", "last"])
def test_distinct_rows_match_a_dictionary_count(n, d, k, given_states, missing):
    codes, w = _codes(n, d, k, seed=n + d, dtype=np.int8 if k < 128 else np.int16)
    n_states = [k] * d if given_states else None
    rows, summed, inverse = distinct_rows(codes, w, n_states, missing=missing, return_inverse=True)
    want_rows, want_weights = _brute(codes, w, missing)
    assert rows.tolist() == want_rows
    assert rows.dtype == codes.dtype
    np.testing.assert_allclose(summed, want_weights, rtol=1e-12)
    np.testing.assert_array_equal(rows[inverse], codes)
    _, counts = distinct_rows(codes, None, n_states, missing=missing)
    assert counts.dtype == np.float64
    np.testing.assert_array_equal(counts, np.bincount(inverse))


def test_weights_are_summed_in_row_order_bit_for_bit():
    # the sum of a group's weights is taken row by row, as np.bincount does: the same floats
    # as a plain left-to-right loop, not merely close to them
    codes = np.array([[0], [1], [0], [0], [1]])
    w = np.array([0.1, 0.7, 0.2, 0.3, 1e-17])
    _, summed = distinct_rows(codes, w)
    assert summed.tolist() == [0.1 + 0.2 + 0.3, 0.7 + 1e-17]


def test_two_dimensional_weights_are_summed_per_column():
    codes = np.array([[1, 0], [0, 2], [1, 0]])
    w = np.array([[1.0, 0.0], [0.0, 2.0], [0.5, 4.0]])
    rows, summed = distinct_rows(codes, w, [2, 3])
    assert rows.tolist() == [[0, 2], [1, 0]]
    assert summed.tolist() == [[0.0, 2.0], [1.5, 4.0]]


def test_missing_codes_sort_first_or_last_and_stay_distinct():
    codes = np.array([[0, -1], [-1, 0], [0, 0], [0, -1], [-1, -1]])
    rows, counts = distinct_rows(codes, None, [1, 1])
    assert rows.tolist() == [[-1, -1], [-1, 0], [0, -1], [0, 0]]
    assert counts.tolist() == [1.0, 1.0, 2.0, 1.0]
    rows, counts = distinct_rows(codes, None, [1, 1], missing="last")
    assert rows.tolist() == [[0, 0], [0, -1], [-1, 0], [-1, -1]]
    assert counts.tolist() == [1.0, 2.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="missing must be 'first' or 'last', got 'middle'"):
        distinct_rows(codes, missing="middle")


def test_no_rows_and_no_columns():
    rows, w, inverse = distinct_rows(np.zeros((0, 3), np.int8), None, return_inverse=True)
    assert (rows.shape, w.shape, inverse.shape) == ((0, 3), (0,), (0,))
    rows, w = distinct_rows(np.zeros((0, 2), np.int8), np.zeros((0, 4)), [2, 2])
    assert (rows.shape, w.shape) == ((0, 2), (0, 4))
    rows, w = distinct_rows(np.zeros((4, 0), np.int8), np.arange(4.0))
    assert (rows.shape, w.tolist()) == ((1, 0), [6.0])
    rows, w = distinct_rows(np.zeros((100, 0), np.int8))  # more rows than one fold of 64
    assert (rows.shape, w.tolist()) == ((1, 0), [100.0])


def test_row_keys_read_the_codes_as_a_mixed_radix_number():
    # codes -1..K-1 are the digits 0..K: (1, -1) over sizes (2, 3) is 2 * 4 + 0
    assert row_keys(np.array([[1, -1], [-1, 2], [0, 0]]), [2, 3]).tolist() == [8, 3, 5]
    assert row_keys(np.zeros((1, 40), np.int8), [10] * 40) is None  # 11**40 > 2**62


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        np.int16,
        st.tuples(st.integers(0, 40), st.integers(1, 5)),
        elements=st.integers(-1, 4),
    ),
    st.booleans(),
    st.sampled_from(["first", "last"]),
)
def test_any_codes_give_the_dictionary_count(codes, given_states, missing):
    w = np.linspace(0.5, 2.0, len(codes))
    n_states = [5] * codes.shape[1] if given_states else None
    rows, summed = distinct_rows(codes, w, n_states, missing=missing)
    want_rows, want_weights = _brute(codes, w, missing)
    assert rows.tolist() == want_rows
    np.testing.assert_allclose(summed, want_weights, rtol=1e-12)
