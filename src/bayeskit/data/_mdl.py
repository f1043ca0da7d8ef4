"""The supervised MDL search of Fayyad & Irani (1993) behind :func:`bayeskit.data.discretize.
mdl_cuts`: each column sorted once (a compiled radix sort), runs of rows that cannot hold a
boundary point merged into blocks, a cumulative class-count matrix over the blocks, and a
recursion on index ranges whose candidate cuts a compiled kernel scans in one pass."""

from __future__ import annotations

import math

import numpy as np

from bayeskit._compiled import serial_kernel
from bayeskit.data._bins import _EMPTY, _observed
from bayeskit.data.codes import code_dtype


@serial_kernel
def _best_split(cum, tot, lo, hi, table):  # pragma: no cover - compiled
    """Block index t in (lo, hi) minimising n1*Ent(S1) + n2*Ent(S2) (bits) for segment [lo, hi).

    ``cum`` (n_blocks + 1, n_classes) and ``tot`` (n_blocks + 1,) are cumulative (weighted)
    class counts and totals over the blocks. When ``table`` is non-empty the counts are whole
    numbers and ``table[m] = m * log2(m)``; otherwise x*log2(x) is computed. Near-ties (within
    rounding) go to the leftmost candidate, so the choice does not hang on the last bit.
    """
    k = cum.shape[1]
    use_table = table.shape[0] > 0
    n_all = tot[hi] - tot[lo]
    eps = 1e-11 * n_all
    best = np.inf
    best_t = -1
    for t in range(lo + 1, hi):
        nl = tot[t] - tot[lo]
        nr = n_all - nl
        if use_table:
            s = table[np.int64(nl)] + table[np.int64(nr)]
            for c in range(k):
                s -= table[np.int64(cum[t, c] - cum[lo, c])]
                s -= table[np.int64(cum[hi, c] - cum[t, c])]
        else:
            s = 0.0
            if nl > 0.0:
                s += nl * math.log2(nl)
            if nr > 0.0:
                s += nr * math.log2(nr)
            for c in range(k):
                a = cum[t, c] - cum[lo, c]
                b = cum[hi, c] - cum[t, c]
                if a > 0.0:
                    s -= a * math.log2(a)
                if b > 0.0:
                    s -= b * math.log2(b)
        if s < best - eps:
            best = s
            best_t = t
    return best_t, best


def _entropy(counts: np.ndarray, tol: float) -> tuple[float, float, int]:
    """(total, class entropy in bits, number of classes present) of a count vector."""
    counts = np.where(counts > tol, counts, 0.0)
    n = float(counts.sum())
    if n <= 0.0:
        return 0.0, 0.0, 0
    p = counts[counts > 0.0] / n
    return n, float(-(p * np.log2(p)).sum()), int(p.size)


def _xlogx_table(n: int) -> np.ndarray:
    """table[m] = m * log2(m) for m = 0..n (0 for m = 0)."""
    m = np.arange(n + 1, dtype=np.float64)
    m[1:] *= np.log2(m[1:])
    return m


_RADIX_BITS = 8
_RADIX_PASSES = 64 // _RADIX_BITS


@serial_kernel
def _radix_sort(v, y, w):  # pragma: no cover - compiled
    """Sort the finite float64 ``v``, carrying the class codes ``y`` and weights ``w`` along.

    LSD radix sort, one byte a pass, on order-preserving 64-bit keys; ``w`` is empty for unit
    weights. Three to four times faster than ``np.argsort`` on a million doubles, and the
    class codes come out in order without a random-access gather.
    """
    n = v.size
    weighted = w.size > 0
    sign = np.uint64(1) << np.uint64(63)
    mask = np.uint64((1 << _RADIX_BITS) - 1)
    bits = v.view(np.uint64)
    keys = np.empty(n, np.uint64)
    hist = np.zeros((_RADIX_PASSES, 1 << _RADIX_BITS), np.int64)
    for i in range(n):
        b = bits[i]
        key = ~b if b & sign else b | sign  # unsigned order of keys = numeric order of values
        keys[i] = key
        for p in range(_RADIX_PASSES):
            hist[p, np.int64((key >> np.uint64(p * _RADIX_BITS)) & mask)] += 1
    ys = y.copy()
    ws = w.copy()
    keys2 = np.empty_like(keys)
    ys2 = np.empty_like(ys)
    ws2 = np.empty_like(ws)
    offsets = np.empty(1 << _RADIX_BITS, np.int64)
    for p in range(_RADIX_PASSES):
        h = hist[p]
        total = 0
        trivial = False
        for d in range(1 << _RADIX_BITS):
            offsets[d] = total
            total += h[d]
            if h[d] == n:
                trivial = True  # every key has this digit: the pass would not move anything
        if trivial:
            continue
        shift = np.uint64(p * _RADIX_BITS)
        for i in range(n):
            key = keys[i]
            d = np.int64((key >> shift) & mask)
            pos = offsets[d]
            offsets[d] = pos + 1
            keys2[pos] = key
            ys2[pos] = ys[i]
            if weighted:
                ws2[pos] = ws[i]
        keys, keys2 = keys2, keys
        ys, ys2 = ys2, ys
        ws, ws2 = ws2, ws
    for i in range(n):
        key = keys[i]
        keys[i] = key ^ sign if key & sign else ~key
    return keys.view(np.float64), ys, ws


@serial_kernel
def _boundary_blocks(sv, sy, sw, n_classes):  # pragma: no cover - compiled
    """Group the sorted rows into blocks whose borders are the boundary points.

    A border between two consecutive distinct values is a boundary point unless both values
    carry one and the same single class (Fayyad & Irani 1993, Theorem 1: the entropy-minimising
    cut is always a boundary point). ``sw`` is empty for unit weights. Returns the cumulative
    class counts at the block borders, (n_blocks + 1, n_classes), their row sums and the cut
    value of each inner border, (n_blocks - 1,).
    """
    n = sv.size
    weighted = sw.size > 0
    cum = np.empty((n + 1, n_classes))
    tot = np.empty(n + 1)
    mid = np.empty(n)
    run = np.zeros(n_classes)
    for c in range(n_classes):  # element loops: slice assignment costs seconds of compile time
        cum[0, c] = 0.0
    tot[0] = 0.0
    run_total = 0.0
    n_borders = 0
    prev_label = -2
    i = 0
    while i < n:
        x = sv[i]
        label = np.int64(sy[i])
        j = i + 1
        while j < n and sv[j] == x:
            if sy[j] != label:
                label = -1  # mixed classes on one value
            j += 1
        if i > 0 and (label < 0 or prev_label < 0 or label != prev_label):
            n_borders += 1
            for c in range(n_classes):
                cum[n_borders, c] = run[c]
            tot[n_borders] = run_total
            a = sv[i - 1]
            m = 0.5 * a + 0.5 * x
            if not (a <= m and m < x):  # a must go left and x right, even for neighbours
                m = a
            mid[n_borders - 1] = m
        for r in range(i, j):
            wr = sw[r] if weighted else 1.0
            run[sy[r]] += wr
            run_total += wr
        prev_label = label
        i = j
    for c in range(n_classes):
        cum[n_borders + 1, c] = run[c]
    tot[n_borders + 1] = run_total
    return cum[: n_borders + 2], tot[: n_borders + 2], mid[:n_borders]


def _mdl_blocks(v: np.ndarray, y: np.ndarray, w: np.ndarray | None, n_classes: int):
    """Sort ``v`` once and return ``_boundary_blocks`` of it."""
    v = np.ascontiguousarray(v)
    sv, sy, sw = _radix_sort(v, y, _EMPTY if w is None else np.ascontiguousarray(w))
    return _boundary_blocks(sv, sy, sw, n_classes)


def _compact_codes(y: np.ndarray, n_classes: int) -> tuple[np.ndarray, int]:
    """Renumber the classes present as 0..k-1 in the smallest integer type that holds them.

    Absent classes change nothing in MDL (only classes present are counted) but would cost a
    column each in the count matrices; a small dtype leaves less to move in the sort.
    """
    present = np.bincount(y, minlength=n_classes) > 0
    k = max(int(present.sum()), 1)
    if k < n_classes:
        y = (np.cumsum(present) - 1)[y]
    return y.astype(code_dtype(k), copy=False), k


def _mdl_column(v, y, w, n_classes, table=None) -> np.ndarray:
    """MDLP cuts of one validated column; ``table`` may be a precomputed ``_xlogx_table``."""
    v, w, y = _observed(v, w, y)
    if v.size < 2:
        return _EMPTY.copy()
    cum, tot, mid = _mdl_blocks(v, y, w, n_classes)
    if mid.size == 0:
        return _EMPTY.copy()
    total = float(tot[-1])
    integral = w is None or bool(np.all(w == np.round(w)))
    tol = 0.0 if integral else 1e-12 * total
    if integral and total <= 4 * v.size + 1024:
        if table is None or table.shape[0] <= total:
            table = _xlogx_table(int(round(total)))
    else:
        table = _EMPTY
    accepted = []
    stack = [(0, cum.shape[0] - 1)]
    while stack:
        lo, hi = stack.pop()
        if hi - lo < 2:
            continue
        n, ent, k = _entropy(cum[hi] - cum[lo], tol)
        if k < 2 or n <= 1.0:
            continue
        t, _ = _best_split(cum, tot, lo, hi, table)
        n1, ent1, k1 = _entropy(cum[t] - cum[lo], tol)
        n2, ent2, k2 = _entropy(cum[hi] - cum[t], tol)
        gain = ent - (n1 * ent1 + n2 * ent2) / n
        # log2(3**k - 2), written so that it cannot overflow for many classes
        log_3k_2 = k * math.log2(3.0) + math.log2(1.0 - 2.0 * 3.0 ** (-k))
        delta = log_3k_2 - (k * ent - k1 * ent1 - k2 * ent2)
        if gain > (math.log2(n - 1.0) + delta) / n:
            accepted.append(t)
            stack.append((t, hi))
            stack.append((lo, t))
    return np.sort(mid[np.asarray(accepted, dtype=np.int64) - 1])
