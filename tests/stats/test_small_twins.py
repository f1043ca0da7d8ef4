"""The numpy twins that spare small problems numba's set-up give the compiled kernels' counts
bit for bit: families with missing values and any weights, extensions with whole-number weights
(and decline other weights, left to the kernel)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from bayeskit.stats import _kernels as kernels

SERIAL_FAMILIES = numba.njit(kernels._count_families)
SERIAL_EXTENSIONS = numba.njit(kernels._count_extensions)


def _families(rng, n_rows: int, n_cols: int, n_states: int):
    codes = rng.integers(-1, n_states, (n_rows, n_cols)).astype(np.int8)
    fams = [np.sort(rng.choice(n_cols, size=int(rng.integers(1, n_cols + 1)), replace=False))
            for _ in range(4)]  # fmt: skip
    cols = np.concatenate(fams).astype(np.int64)
    ptr = np.cumsum([0] + [len(f) for f in fams]).astype(np.int64)
    strides = np.concatenate([n_states ** np.arange(len(f) - 1, -1, -1) for f in fams]).astype(
        np.int64
    )
    sizes = [n_states ** len(f) for f in fams]
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return codes, cols, strides, ptr, offsets, int(sum(sizes))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["ones", "counts", "fractions"])
def test_family_counts_equal_the_kernel(seed, weights):
    rng = np.random.default_rng(seed)
    n_rows = int(rng.integers(0, 400))
    codes, cols, strides, ptr, offsets, total = _families(rng, n_rows, 5, 3)
    w = {"ones": np.ones(n_rows), "counts": rng.integers(1, 9, n_rows).astype(float),
         "fractions": rng.random(n_rows)}[weights]  # fmt: skip
    got = kernels._count_families_numpy(codes, w, cols, strides, ptr, offsets, total, 1)
    want = SERIAL_FAMILIES(codes, w, cols, strides, ptr, offsets, total, 1)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["none", "counts"])
def test_extension_counts_equal_the_kernel(seed, weights):
    rng = np.random.default_rng(seed)
    n_nodes, n_rows, stride = 6, int(rng.integers(1, 500)), 6
    codes = rng.integers(0, 3, (n_nodes, n_rows)).astype(np.int8)
    cands = rng.choice(n_nodes, size=4, replace=False).astype(np.int64)
    cell = rng.integers(0, stride, n_rows).astype(np.int16)
    w = np.zeros(0) if weights == "none" else rng.integers(1, 50, n_rows).astype(float)
    offsets = np.arange(len(cands) + 1, dtype=np.int64) * 3 * stride
    tasks = np.array([0, len(cands)], dtype=np.int64)
    got = kernels._count_extensions_numpy(codes, cands, cell, stride, w, offsets, tasks)
    want = SERIAL_EXTENSIONS(codes, cands, cell, stride, w, offsets, tasks)
    assert np.array_equal(got, want)


def test_fractional_weights_are_left_to_the_kernel():
    codes = np.zeros((2, 3), dtype=np.int8)
    got = kernels._count_extensions_numpy(
        codes, np.array([0]), np.zeros(3, dtype=np.int16), 1, np.array([0.5, 1.0, 2.0]),
        np.array([0, 1]), np.array([0, 1]),
    )  # fmt: skip
    assert got is NotImplemented
