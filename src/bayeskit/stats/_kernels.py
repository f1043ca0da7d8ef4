"""Compiled counting kernels: the hot path of learning.

One pass over the rows, each thread counting into its own table, then a sum. numba pays here
because the codes are read once, in their own small integer type, with no index arrays built (one
``np.bincount`` per column builds one); benchmarks/RESULTS.md has the kernel's timings. Compilation,
caching and threads are set up in :mod:`bayeskit._compiled`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel, serial_kernel

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


def _family_cell(row, cols, strides, lo, hi, start):  # pragma: no cover - compiled
    """The cell of a row in a family's table: ``start + sum_k row[cols[k]] * strides[k]`` over
    ``k`` in ``lo:hi``, or -1 when one of those columns is missing."""
    idx = start
    for k in range(lo, hi):
        v = row[cols[k]]
        if v < 0:
            return -1
        idx += v * strides[k]
    return idx


family_cell = serial_kernel(_family_cell)


def _count_families(codes, weights, cols, strides, fam_ptr, fam_offset, total, n_tasks):  # noqa: E501  # pragma: no cover
    """counts[fam_offset[f] + sum_k codes[i, cols[k]] * strides[k]] += weights[i] for every row i
    and family f (its columns are ``cols[fam_ptr[f]:fam_ptr[f + 1]]``), skipping a family in a
    row where any of its columns is missing (-1). Returns float64 (total,).

    One pass over the rows for all families: a row's codes are read while in cache. Each thread
    fills its own table over a block of rows (``n_tasks`` blocks, as many as threads, from
    :func:`bayeskit._compiled.planned_threads`, so memory is the table times the thread count,
    not times the rows), then the tables are added.
    """
    n = codes.shape[0]
    n_fam = fam_offset.shape[0]
    per_task = (n + n_tasks - 1) // n_tasks
    partial = np.zeros((n_tasks, total))
    for t in nb.prange(n_tasks):
        lo = t * per_task
        hi = min(n, lo + per_task)
        out = partial[t]
        for i in range(lo, hi):
            w = weights[i]
            row = codes[i]
            for f in range(n_fam):
                idx = family_cell(row, cols, strides, fam_ptr[f], fam_ptr[f + 1], fam_offset[f])
                if idx >= 0:
                    out[idx] += w
    if n_tasks == 1:
        return partial[0]
    return partial.sum(axis=0)


def _count_families_into(codes, weights, cols, strides, fam_ptr, fam_offset, out, task_ptr):  # noqa: E501  # pragma: no cover
    """As :func:`_count_families`, but each thread counts its own families (``task_ptr[t]`` to
    ``task_ptr[t + 1]``) one after the other over every row, adding into ``out`` in place: for
    tables of more cells than rows, where a copy of every table per thread and their sum would
    cost more than the counting, and where the tables together miss the cache but one alone
    does not. Each cell is summed in row order, whatever the number of threads.
    """
    n = codes.shape[0]
    for t in nb.prange(task_ptr.shape[0] - 1):
        for f in range(task_ptr[t], task_ptr[t + 1]):  # one table at a time stays in cache
            for i in range(n):
                idx = family_cell(
                    codes[i], cols, strides, fam_ptr[f], fam_ptr[f + 1], fam_offset[f]
                )
                if idx >= 0:
                    out[idx] += weights[i]


def _count_pairs(codes, weights, given, given_states, members, states, colpos, total, splits):  # noqa: E501  # pragma: no cover
    """The all-pairs table of the ``members`` columns given the ``given`` columns (the class,
    for classifiers), in a layout made for counting: for each member ``a`` (position ``ia``) a
    block of ``G * K_a`` rows (``G`` joint states of the given columns), each ``W`` wide, where
    member ``b``'s ``K_b`` counts start at column ``colpos[ib]`` for every ``a`` alike and the
    last column (``W - 1``) takes the counts of missing values. So a row's column of every
    member, ``colpos[ib] + x_b`` (or ``W - 1``), is worked out once per row, and each pair adds
    with one load and one increment, no branch, into a stretch of ``W`` cells that stays in
    cache (100,000 x 50, one thread: 0.136 s, against 0.167 s counting into one table per pair
    and 0.36 s with the generic family kernel). The diagonal
    (``b = a``) counts ``(given, x_a)``, the single families, in the same pass; cells of pairs
    ``b < a`` and the trash column are never read.

    Threads split the members, not the rows: task ``t`` counts the blocks of members
    ``splits[t] <= ia < splits[t + 1]`` (chosen so each has about as many pairs) over every row,
    into its own part of one table. Each thread's cells are then its share of the table alone
    (they stay in its core's cache), and no per-thread copies are added up at the end.
    :func:`bayeskit.stats.families.family_counts` cuts the blocks into the pairs' tables. Rows
    missing a ``given`` column are skipped.
    """
    n = codes.shape[0]
    n_given = given.shape[0]
    d = members.shape[0]
    width = colpos[d]  # sum of the states, plus the trash column
    trash = width - 1
    n_g = 1
    for k in range(n_given):
        n_g *= given_states[k]
    out = np.zeros(total)
    n_tasks = splits.shape[0] - 1
    for t in nb.prange(n_tasks):
        first = splits[t]
        last = splits[t + 1]
        col = np.empty(d, dtype=np.int64)
        vals = np.empty(d, dtype=np.int64)
        for i in range(n):
            w = weights[i]
            row = codes[i]
            g = 0
            for k in range(n_given):
                v = row[given[k]]
                if v < 0:
                    g = -1
                    break
                g = g * given_states[k] + v
            if g < 0:
                continue
            for ib in range(first, d):
                v = row[members[ib]]
                vals[ib] = v
                col[ib] = colpos[ib] + v if v >= 0 else trash
            for ia in range(first, last):
                va = vals[ia]
                if va >= 0:  # block of a starts at row n_g * colpos[ia]
                    base = (n_g * colpos[ia] + g * states[ia] + va) * width
                    out[base + col[ia]] += w  # the diagonal: counts of (given, x_a)
                    for ib in range(ia + 1, d):
                        out[base + col[ib]] += w
    return out


def _extension_tables(codes, cand, cell, stride, weights, out):  # pragma: no cover - compiled
    """Add each row's weight (1 when ``weights`` is empty) to ``out[codes[cand, i] * stride +
    cell[i]]``: one candidate's table for :func:`_count_extensions`. A small table (the usual
    case: a few parents of a few states) is counted in four interleaved copies, rows ``i % 4``
    apart, then summed: consecutive rows mostly hit the same few cells, and one copy would make
    every addition wait for the previous one to be stored."""
    n = cell.shape[0]
    xu = codes[cand]
    size = out.shape[0]
    weighted = weights.shape[0] > 0
    if size > 4096:
        for i in range(n):
            out[xu[i] * stride + cell[i]] += weights[i] if weighted else 1.0
        return
    lanes = np.zeros((4, size))
    n4 = n - n % 4
    if weighted:
        for i in range(0, n4, 4):
            lanes[0, xu[i] * stride + cell[i]] += weights[i]
            lanes[1, xu[i + 1] * stride + cell[i + 1]] += weights[i + 1]
            lanes[2, xu[i + 2] * stride + cell[i + 2]] += weights[i + 2]
            lanes[3, xu[i + 3] * stride + cell[i + 3]] += weights[i + 3]
    else:
        for i in range(0, n4, 4):
            lanes[0, xu[i] * stride + cell[i]] += 1.0
            lanes[1, xu[i + 1] * stride + cell[i + 1]] += 1.0
            lanes[2, xu[i + 2] * stride + cell[i + 2]] += 1.0
            lanes[3, xu[i + 3] * stride + cell[i + 3]] += 1.0
    for i in range(n4, n):
        lanes[0, xu[i] * stride + cell[i]] += weights[i] if weighted else 1.0
    for j in range(size):  # the same order of sums whatever the rows' split
        out[j] += (lanes[0, j] + lanes[1, j]) + (lanes[2, j] + lanes[3, j])


extension_tables = serial_kernel(_extension_tables)


def _count_extensions(codes, cands, cell, stride, weights, offsets, task_ptr):  # noqa: E501  # pragma: no cover
    """One family's counts extended by each candidate parent, for structure search: candidate
    ``c`` (node ``cands[c]``) adds the row's weight (1 when ``weights`` is empty) to cell
    ``offsets[c] + codes[cands[c], i] * stride + cell[i]``, where ``cell[i]`` is the row's cell
    in the family's own table (parent configuration times states plus the node's state) and
    ``stride`` that table's size: the candidate's state is the slowest axis.

    ``codes`` is node-major, (n_nodes, n_rows), so a candidate reads one contiguous column of
    small integers. Task ``t`` (a thread) counts candidates ``task_ptr[t]`` to
    ``task_ptr[t + 1]`` into their own tables: no copies, no sums of copies. The counting is a
    separate compiled function: inside the ``prange`` body numba compiles the same loop about
    half as fast.
    """
    out = np.zeros(offsets[offsets.shape[0] - 1])
    for t in nb.prange(task_ptr.shape[0] - 1):
        for c in range(task_ptr[t], task_ptr[t + 1]):
            extension_tables(
                codes, cands[c], cell, stride, weights, out[offsets[c] : offsets[c + 1]]
            )
    return out


def families_work(codes, w, cols, *_) -> int:
    return codes.shape[0] * cols.shape[0]


def pairs_work(codes, *_) -> int:
    return codes.shape[0] * codes.shape[1] ** 2 // 2


def _count_families_numpy(codes, weights, cols, strides, fam_ptr, fam_offset, total, n_tasks):
    """:func:`_count_families` by numpy, for small inputs: one ``bincount`` over every
    family's cells, each family's rows in order (the families' cells are apart, so each cell
    adds its weights in row order, as the serial kernel does)."""
    cells, rows = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for f in range(len(fam_offset)):
        sub = codes[:, cols[fam_ptr[f] : fam_ptr[f + 1]]].astype(np.int64)
        ok = (sub >= 0).all(axis=1)
        cells.append(fam_offset[f] + sub[ok] @ strides[fam_ptr[f] : fam_ptr[f + 1]])
        rows.append(np.flatnonzero(ok))
    index, order = np.concatenate(cells), np.concatenate(rows)
    return np.bincount(index, weights=weights[order], minlength=total).astype(np.float64)


# numpy's fancy indexing and bincount take a few milliseconds up to here: one call per fit
count_families = parallel_kernel(families_work, small=_count_families_numpy, small_below=400_000)(
    _count_families
)
count_families_into = parallel_kernel(families_work)(_count_families_into)
count_pairs = parallel_kernel(pairs_work)(_count_pairs)


def extensions_work(codes, cands, cell, *_) -> int:
    """A 40th of the additions: threads (which split the candidates) pay only on large inputs.
    On the 2-CPU benchmark machine 100,000 rows x 36 candidates take 2.6 ms serially and 2.8 ms
    on two threads (the additions compete for the same load and store units), 1,000,000 rows
    26 ms and 19 ms."""
    return cell.shape[0] * cands.shape[0] // 40


def _count_extensions_numpy(codes, cands, cell, stride, weights, offsets, task_ptr):
    """:func:`_count_extensions` by numpy, for small inputs whose weights are whole numbers (the
    counts of distinct rows): sums exact in any order. Other weights are left to the kernel,
    whose order of additions differs."""
    weighted = weights.shape[0] > 0
    if weighted and not (weights == np.rint(weights)).all():
        return NotImplemented
    out = np.zeros(offsets[-1])
    cell = cell.astype(np.int64)
    for c in range(len(cands)):
        size = int(offsets[c + 1] - offsets[c])
        index = codes[cands[c]].astype(np.int64) * stride + cell
        counted = np.bincount(index, weights=weights if weighted else None, minlength=size)
        out[offsets[c] : offsets[c + 1]] = counted
    return out


# a search calls this once per node and step: numpy only where it is as quick (1M additions)
count_extensions = parallel_kernel(
    extensions_work, small=_count_extensions_numpy, small_below=25_000
)(_count_extensions)
