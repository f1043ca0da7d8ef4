"""Compiled counting kernels: the hot path of learning.

One pass over the rows, each thread counting into its own table, then a sum. numba pays here
because the codes are read once, in their own small integer type, with no index arrays built (one
``np.bincount`` per column builds one); benchmarks/RESULTS.md has the kernel's timings. Compilation,
caching and threads are set up in :mod:`bayeskit._compiled`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel

_ROWS_PER_TASK = 1 << 14


def _count_codes(codes, y, weights, offsets, n_classes, total):  # pragma: no cover - compiled
    """counts[c, offsets[f] + codes[i, f]] += weights[i] for every row i with y[i] = c.

    ``codes`` is (n_samples, n_features) of any integer type, -1 = missing (skipped);
    ``weights`` is float64 (n_samples,). Returns float64 (n_classes, total).
    """
    n, d = codes.shape
    n_tasks = (n + _ROWS_PER_TASK - 1) // _ROWS_PER_TASK
    partial = np.zeros((max(n_tasks, 1), n_classes, total))
    for t in nb.prange(n_tasks):
        lo = t * _ROWS_PER_TASK
        hi = min(n, lo + _ROWS_PER_TASK)
        out = partial[t]
        for i in range(lo, hi):
            c = y[i]
            w = weights[i]
            row = codes[i]
            for f in range(d):
                v = row[f]
                if v >= 0:
                    out[c, offsets[f] + v] += w
    return partial.sum(axis=0)


def _moment_sums(values, y, weights, n_classes):  # pragma: no cover - compiled
    """Weighted count, mean and M2 = sum w (x - mean)^2 per (class, feature), NaN skipped.

    Two passes over the rows (mean first, then squared deviations from it), as accurate as
    Welford's update; each pass reads the row-major array in order, one block of rows per task.
    Returns three float64 arrays of shape (n_classes, n_features).
    """
    n, d = values.shape
    n_tasks = max((n + _ROWS_PER_TASK - 1) // _ROWS_PER_TASK, 1)
    cnt = np.zeros((n_tasks, n_classes, d))
    tot = np.zeros((n_tasks, n_classes, d))
    for t in nb.prange(n_tasks):
        lo = t * _ROWS_PER_TASK
        hi = min(n, lo + _ROWS_PER_TASK)
        for i in range(lo, hi):
            c = y[i]
            w = weights[i]
            for f in range(d):
                x = values[i, f]
                if not np.isnan(x):
                    cnt[t, c, f] += w
                    tot[t, c, f] += w * x
    count = cnt.sum(axis=0)
    total = tot.sum(axis=0)
    mean = np.zeros((n_classes, d))
    for c in range(n_classes):
        for f in range(d):
            if count[c, f] > 0:
                mean[c, f] = total[c, f] / count[c, f]
    sq = np.zeros((n_tasks, n_classes, d))
    for t in nb.prange(n_tasks):
        lo = t * _ROWS_PER_TASK
        hi = min(n, lo + _ROWS_PER_TASK)
        for i in range(lo, hi):
            c = y[i]
            w = weights[i]
            for f in range(d):
                x = values[i, f]
                if not np.isnan(x):
                    dev = x - mean[c, f]
                    sq[t, c, f] += w * dev * dev
    return count, mean, sq.sum(axis=0)


# work: cells read (moments read every cell twice); the row blocks are what threads share
count_codes = parallel_kernel(lambda codes, *_: codes.size)(_count_codes)
moment_sums = parallel_kernel(lambda values, *_: 2 * values.size)(_moment_sums)
