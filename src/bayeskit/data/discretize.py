"""Discretization of numeric columns into right-closed bins.

This module sees only ``float64`` arrays (``NaN`` = missing) and integer class codes; it knows
nothing about pandas. A discretization is a sorted array of inner cut points
``c_1 < ... < c_k`` giving ``k + 1`` bins, closed on the right::

    code 0 : x <= c_1,    code i : c_i < x <= c_{i+1},    code k : x > c_k,    NaN -> -1

which is ``np.searchsorted(cuts, x, side="left")``. Values outside the training range fall in
the end bins. With the cuts ``[5.2, 6.1, 7.0]`` this reproduces the equal-width bins of Iris
``sepal length`` in Zaki & Meira, *Data Mining and Machine Learning* (2nd ed.), Table 18.1.

Three ways to choose the cuts:

* ``equal_width_cuts``: ``n_bins - 1`` cuts evenly spaced between the minimum and maximum.
* ``equal_frequency_cuts``: cuts at (weighted) quantiles, duplicates dropped.
* ``mdl_cuts``: the supervised entropy / MDLP method of Fayyad & Irani (1993), "Multi-interval
  discretization of continuous-valued attributes for classification learning", IJCAI-93.

The MDL search sorts each column once, merges runs of rows that cannot hold a boundary point,
builds a cumulative class-count matrix over the blocks and recurses on index ranges; a compiled
kernel scans every candidate cut of a segment in one pass.
"""

from __future__ import annotations

import math
import numbers
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sklearn.exceptions import NotFittedError

from bayeskit._compiled import planned_threads, serial_kernel
from bayeskit._text import shown
from bayeskit.data.codes import code_dtype
from bayeskit.data.validation import check_sample_weight

__all__ = [
    "Discretizer",
    "apply_cuts",
    "equal_frequency_cuts",
    "equal_width_cuts",
    "mdl_cuts",
]

METHODS = ("equal-width", "equal-frequency", "mdl")
_EMPTY = np.empty(0, dtype=np.float64)
# work per value of an MDL fit, in the units of bayeskit._compiled (about one addition): a sort
# and a scan of the class counts; with PARALLEL_MIN_WORK = 500,000, columns go to threads from
# about 170,000 values, the same one rule that picks every parallel kernel
_MDL_WORK_PER_VALUE = 3


# --------------------------------------------------------------------------- argument checks
def _check_n_bins(n_bins: object) -> int:
    ok = isinstance(n_bins, numbers.Integral) and not isinstance(n_bins, bool) and n_bins >= 1
    if not ok:
        msg = f"n_bins must be an integer >= 1, got {shown(n_bins)}"
        raise ValueError(msg)
    return int(n_bins)


def _float_array(values: object, name: str, ndim: int, *, finite: bool) -> np.ndarray:
    """``values`` as float64 of ``ndim`` dimensions; with ``finite``, infinity is refused (NaN is
    a missing value). Every public entry point checks its values here."""
    try:
        v = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        msg = f"{name} must be an array of numbers, got {type(values).__name__}"
        raise ValueError(msg) from exc
    if v.ndim != ndim:
        shape = "1-D" if ndim == 1 else "2-D (n_samples, n_columns)"
        msg = f"{name} must be {shape}, got an array of shape {v.shape}"
        raise ValueError(msg)
    if finite and np.isinf(v).any():
        msg = f"{name} must not contain infinite values (NaN marks a missing value)"
        raise ValueError(msg)
    return v


def _check_values(values: object) -> np.ndarray:
    return _float_array(values, "values", 1, finite=True)


def _check_y(y: object, n: int, n_classes: object) -> tuple[np.ndarray, int]:
    if y is None:
        msg = "mdl discretization needs y (the class codes)"
        raise ValueError(msg)
    ya = np.asarray(y)
    if ya.ndim != 1:
        msg = f"y must be 1-D, got an array of shape {ya.shape}"
        raise ValueError(msg)
    if ya.shape[0] != n:
        msg = f"y has {ya.shape[0]} entries but values has {n} rows"
        raise ValueError(msg)
    if ya.dtype.kind == "f" and ya.size and np.all(np.isfinite(ya)) and np.all(ya == np.round(ya)):
        ya = ya.astype(np.int64)
    if ya.size and ya.dtype.kind not in "iub":
        msg = f"y must hold integer class codes, got dtype {ya.dtype}"
        raise ValueError(msg)
    ya = ya.astype(np.int64, copy=False)
    if n_classes is None:
        n_classes = int(ya.max()) + 1 if ya.size else 1
    ok = isinstance(n_classes, numbers.Integral) and not isinstance(n_classes, bool)
    if not ok or n_classes < 1:
        msg = f"n_classes must be an integer >= 1, got {shown(n_classes)}"
        raise ValueError(msg)
    if ya.size and (ya.min() < 0 or ya.max() >= n_classes):
        msg = f"y must hold codes in [0, {n_classes}), got values in [{ya.min()}, {ya.max()}]"
        raise ValueError(msg)
    return ya, int(n_classes)


def _observed(v: np.ndarray, w: np.ndarray | None, *others: np.ndarray):
    """Drop NaN rows and rows of weight zero."""
    keep = ~np.isnan(v)
    if w is not None:
        keep &= w > 0
    if keep.all():
        return (v, w, *others)
    return (v[keep], None if w is None else w[keep], *(o[keep] for o in others))


# --------------------------------------------------------------------------- unsupervised
def equal_width_cuts(values: np.ndarray, n_bins: int) -> np.ndarray:
    """Cut points of ``n_bins`` bins of equal width between the minimum and the maximum.

    Parameters
    ----------
    values : array of float, shape (n_samples,)
        ``NaN`` marks a missing value and is ignored.
    n_bins : int
        Number of bins wanted, >= 1.

    Returns
    -------
    cuts : ndarray of float64, shape (n_bins - 1,)
        Empty when the column is constant or all missing (one bin).

    Examples
    --------
    Zaki & Meira, Table 18.1: four equal-width bins of Iris sepal length on [4.3, 7.9].

    >>> equal_width_cuts(np.array([4.3, 5.0, np.nan, 7.9]), 4).round(2).tolist()
    [5.2, 6.1, 7.0]
    >>> equal_width_cuts(np.array([2.0, 2.0]), 4).tolist()
    []
    """
    n_bins = _check_n_bins(n_bins)
    v = _check_values(values)
    v = v[~np.isnan(v)]
    if v.size == 0 or n_bins == 1:
        return _EMPTY.copy()
    lo, hi = float(v.min()), float(v.max())
    if hi <= lo:
        return _EMPTY.copy()
    cuts = lo + (hi - lo) * (np.arange(1, n_bins) / n_bins)
    return np.unique(cuts[(cuts > lo) & (cuts < hi)])


def equal_frequency_cuts(values: np.ndarray, n_bins: int, sample_weight=None) -> np.ndarray:
    """Cut points of ``n_bins`` bins holding about equal (weighted) numbers of points.

    The ``j``-th cut is the observed value whose cumulative weight is nearest to
    ``j / n_bins`` of the total (excluding the largest value, which would leave an empty last
    bin); repeated cuts are dropped, so heavy ties give fewer bins, never empty ones.

    Parameters
    ----------
    values : array of float, shape (n_samples,)
        ``NaN`` marks a missing value and is ignored.
    n_bins : int
        Number of bins wanted, >= 1.
    sample_weight : array of float, shape (n_samples,), optional
        Non-negative weights; rows of weight zero are ignored.

    Returns
    -------
    cuts : ndarray of float64, at most ``n_bins - 1`` sorted observed values.

    Examples
    --------
    >>> equal_frequency_cuts(np.arange(12.0), 3).tolist()
    [3.0, 7.0]

    Ties: six of eight values are 1, so only two bins survive.

    >>> equal_frequency_cuts(np.array([1.0, 1, 1, 1, 1, 1, 2, 3]), 4).tolist()
    [1.0]
    """
    n_bins = _check_n_bins(n_bins)
    v = _check_values(values)
    w = check_sample_weight(sample_weight, v.shape[0])
    v, w = _observed(v, w)
    if v.size < 2 or n_bins == 1:
        return _EMPTY.copy()
    if w is None:
        sv = np.sort(v)
        cw = np.arange(1, sv.size + 1, dtype=np.float64)
    else:
        order = np.argsort(v)
        sv = v[order]
        cw = np.cumsum(w[order])
    last = np.empty(sv.size, dtype=bool)  # last row of each run of equal values
    last[:-1] = sv[1:] != sv[:-1]
    last[-1] = True
    u, cwu = sv[last], cw[last]
    if u.size < 2:
        return _EMPTY.copy()
    cand, cand_w = u[:-1], cwu[:-1]
    targets = cwu[-1] * (np.arange(1, n_bins) / n_bins)
    pos = np.searchsorted(cand_w, targets)
    above = np.minimum(pos, cand.size - 1)
    below = np.maximum(pos - 1, 0)
    nearer_below = np.abs(cand_w[below] - targets) <= np.abs(cand_w[above] - targets)
    pick = np.where(nearer_below, below, above)
    return np.unique(cand[pick])


# --------------------------------------------------------------------------- MDL (Fayyad-Irani)
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


def mdl_cuts(values: np.ndarray, y: np.ndarray, n_classes: int, sample_weight=None) -> np.ndarray:
    """Supervised cut points by recursive entropy splitting with the MDLP stopping rule.

    Fayyad & Irani (1993), "Multi-interval discretization of continuous-valued attributes for
    classification learning". A segment ``S`` of ``N`` points is split at the boundary point
    ``T`` minimising the class-information entropy, and the split is kept only when

        Gain(A, T; S) > log2(N - 1) / N + Delta(A, T; S) / N,
        Delta = log2(3**k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)],

    ``k``, ``k1``, ``k2`` being the numbers of classes present in ``S``, ``S1``, ``S2``. Each
    half is then treated the same way. Cuts are midpoints between consecutive distinct values.

    Parameters
    ----------
    values : array of float, shape (n_samples,)
        ``NaN`` marks a missing value; those rows are ignored.
    y : array of int, shape (n_samples,)
        Class codes in ``[0, n_classes)``.
    n_classes : int
        Number of classes.
    sample_weight : array of float, shape (n_samples,), optional
        Non-negative weights used as (fractional) frequencies: counts are weighted and ``N`` is
        the total weight. Integer weights give the same cuts as duplicated rows.

    Returns
    -------
    cuts : ndarray of float64, sorted; empty when no split pays for itself.

    Examples
    --------
    >>> x = np.arange(20.0)
    >>> mdl_cuts(x, (x >= 10).astype(int), 2).tolist()
    [9.5]
    >>> mdl_cuts(x, np.zeros(20, dtype=int), 2).tolist()
    []
    """
    v = _check_values(values)
    ya, n_classes = _check_y(y, v.shape[0], n_classes)
    w = check_sample_weight(sample_weight, v.shape[0])
    codes, k = _compact_codes(ya, n_classes)
    return _mdl_column(v, codes, w, k)


# --------------------------------------------------------------------------- apply
def apply_cuts(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin codes of ``values`` for the right-closed bins given by sorted ``cuts``.

    Code 0 is ``x <= cuts[0]``, code ``i`` is ``cuts[i-1] < x <= cuts[i]``, code ``len(cuts)``
    is ``x > cuts[-1]``; ``NaN`` gives -1. Values beyond the cuts fall in the end bins.

    Examples
    --------
    Zaki & Meira, Table 18.1 (Iris sepal length, bins [4.3, 5.2], (5.2, 6.1], ...):

    >>> apply_cuts(np.array([4.3, 5.2, 5.25, 7.0, 7.9, 9.0, np.nan]), [5.2, 6.1, 7.0]).tolist()
    [0, 0, 1, 2, 3, 3, -1]
    """
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(cuts, dtype=np.float64)
    if c.ndim != 1 or np.isnan(c).any() or (c.size > 1 and np.any(c[1:] <= c[:-1])):
        msg = f"cuts must be a 1-D strictly increasing array without NaN, got {shown(c)}"
        raise ValueError(msg)
    codes = np.searchsorted(c, v, side="left").astype(np.int64, copy=False)
    codes[np.isnan(v)] = -1
    return codes


# --------------------------------------------------------------------------- estimator
def _format_cuts(cuts: np.ndarray) -> list[str]:
    """Shortest %g formatting (from 6 significant digits up) that keeps the cuts distinct."""
    for digits in range(6, 18):
        text = [f"{c:.{digits}g}" for c in cuts]
        if len(set(text)) == len(text):
            return text
    return [repr(float(c)) for c in cuts]


class Discretizer:
    """Fits cut points per column of a 2-D float array.

    Parameters
    ----------
    method : {"mdl", "equal-width", "equal-frequency"}, default "mdl"
        ``"mdl"`` is supervised (Fayyad & Irani 1993) and needs ``y`` in :meth:`fit`.
    n_bins : int, default 5
        Number of bins for the unsupervised methods (ignored by ``"mdl"``).

    Attributes
    ----------
    cuts_ : list of ndarray
        The sorted inner cut points of each column.
    n_bins_ : ndarray of int
        ``len(cuts_[j]) + 1`` for each column.

    Examples
    --------
    >>> X = np.array([[4.3, 1.0], [5.0, 2.0], [6.0, np.nan], [7.9, 4.0]])
    >>> d = Discretizer("equal-width", n_bins=4).fit(X)
    >>> d.n_bins_.tolist()
    [4, 4]
    >>> d.transform(X).tolist()
    [[0, 0], [0, 1], [1, -1], [3, 3]]
    >>> d.bin_labels(0)
    ['(-inf, 5.2]', '(5.2, 6.1]', '(6.1, 7]', '(7, inf)']
    """

    def __init__(self, method: str = "mdl", n_bins: int = 5):
        self.method = method
        self.n_bins = n_bins

    def _check_params(self) -> None:
        if self.method not in METHODS:
            allowed = ", ".join(repr(m) for m in METHODS)
            msg = f"method must be one of {allowed}, got {self.method!r}"
            raise ValueError(msg)
        _check_n_bins(self.n_bins)

    def fit(self, values_2d, y=None, n_classes=None, sample_weight=None) -> Discretizer:
        """Learn the cut points of every column.

        Parameters
        ----------
        values_2d : array of float, shape (n_samples, n_columns)
            ``NaN`` marks a missing value; infinite values are refused.
        y : array of int, shape (n_samples,), optional
            Class codes; required by ``"mdl"``, ignored otherwise.
        n_classes : int, optional
            Number of classes (default ``y.max() + 1``); only for ``"mdl"``.
        sample_weight : array of float, shape (n_samples,), optional
            Non-negative weights, used by ``"mdl"`` and ``"equal-frequency"``
            (``"equal-width"`` only looks at the range of the values).

        Returns
        -------
        self : Discretizer
        """
        self._check_params()
        x = _float_array(values_2d, "values_2d", 2, finite=True)
        n = x.shape[0]
        w = check_sample_weight(sample_weight, n)
        cuts: list[np.ndarray] = []
        if self.method == "mdl":
            ya, k = _check_y(y, n, n_classes)
            ya, k = _compact_codes(ya, k)
            table = _xlogx_table(n) if w is None else None

            def one(j: int) -> np.ndarray:
                return _mdl_column(np.ascontiguousarray(x[:, j]), ya, w, k, table)

            # The compiled kernels release the GIL, so columns run in parallel on threads, as
            # many as the kernels' one dispatch rule gives this much work (planned_threads).
            workers = min(planned_threads(_MDL_WORK_PER_VALUE * x.size), x.shape[1])
            if workers > 1:
                with ThreadPoolExecutor(max_workers=workers) as pool:
                    cuts = list(pool.map(one, range(x.shape[1])))
            else:
                cuts = [one(j) for j in range(x.shape[1])]
        elif self.method == "equal-width":
            cuts = [equal_width_cuts(x[:, j], self.n_bins) for j in range(x.shape[1])]
        else:
            cuts = [equal_frequency_cuts(x[:, j], self.n_bins, w) for j in range(x.shape[1])]
        self.cuts_ = cuts
        self.n_bins_ = np.array([c.size + 1 for c in cuts], dtype=np.int64)
        self.n_features_in_ = x.shape[1]
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "cuts_"):
            msg = "this Discretizer is not fitted yet; call fit first"
            raise NotFittedError(msg)

    def transform(self, values_2d) -> np.ndarray:
        """Bin codes (n_samples, n_columns) as int64; -1 marks a missing value."""
        self._check_fitted()
        x = _float_array(values_2d, "values_2d", 2, finite=False)
        if x.shape[1] != self.n_features_in_:
            msg = (
                f"values_2d has {x.shape[1]} columns but the Discretizer was fitted on "
                f"{self.n_features_in_}"
            )
            raise ValueError(msg)
        out = np.empty(x.shape, dtype=np.int64)
        for j, c in enumerate(self.cuts_):
            out[:, j] = apply_cuts(x[:, j], c)
        return out

    def fit_transform(self, values_2d, y=None, n_classes=None, sample_weight=None) -> np.ndarray:
        """``fit`` then ``transform`` on the same data."""
        return self.fit(values_2d, y, n_classes, sample_weight).transform(values_2d)

    def bin_labels(self, j: int) -> list[str]:
        """Readable labels of column ``j``'s bins, e.g. ``"(-inf, 4.3]"``, ..., ``"(5.1, inf)"``."""
        self._check_fitted()
        if not isinstance(j, numbers.Integral) or not 0 <= j < self.n_features_in_:
            msg = f"j must be a column index in [0, {self.n_features_in_}), got {shown(j)}"
            raise ValueError(msg)
        text = _format_cuts(self.cuts_[j])
        edges = ["-inf", *text]
        labels = [f"({a}, {b}]" for a, b in zip(edges[:-1], edges[1:], strict=True)]
        labels.append(f"({edges[-1]}, inf)")
        return labels
