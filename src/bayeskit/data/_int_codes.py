"""Integer categories straight from a 2-D integer array: one compiled pass each for the
vocabularies and the codes, reading the array row by row as it lies in memory.

The general path of :class:`bayeskit.data.Schema` compares values as Python objects (pandas
``Index.get_indexer``), which dominated fitting on integer codes; these kernels read each value
once, as the array's own integer type, and use a per-column look-up table over the column's
range. They apply when every column's range is narrow (``MAX_RANGE`` values), as integer codes
are; the general path handles everything else.
"""

from __future__ import annotations

import numpy as np

from bayeskit._compiled import serial_kernel

__all__ = ["MAX_RANGE", "integer_codes", "integer_vocabularies"]

#: The widest range of values (max - min + 1) a column may span to use the look-up table.
MAX_RANGE = 1 << 16


@serial_kernel
def _ranges(x):  # pragma: no cover - compiled
    n, d = x.shape
    lo = np.empty(d, dtype=np.int64)
    hi = np.empty(d, dtype=np.int64)
    for j in range(d):
        lo[j] = x[0, j]
        hi[j] = x[0, j]
    for i in range(1, n):
        for j in range(d):
            v = x[i, j]
            if v < lo[j]:
                lo[j] = v
            elif v > hi[j]:
                hi[j] = v
    return lo, hi


@serial_kernel
def _presence(x, lo, width):  # pragma: no cover - compiled
    n, d = x.shape
    seen = np.zeros((d, width), dtype=np.bool_)
    for i in range(n):
        for j in range(d):
            seen[j, np.int64(x[i, j]) - lo[j]] = True
    return seen


@serial_kernel
def _codes(x, lut, lo, width, out):  # pragma: no cover - compiled
    """out[i, j] = lut[j, x[i, j] - lo[j]] (-1 outside the table); returns the -1 count."""
    n, d = x.shape
    unknown = 0
    for i in range(n):
        for j in range(d):
            k = np.int64(x[i, j]) - lo[j]
            c = lut[j, k] if 0 <= k < width else -1
            out[i, j] = c
            if c < 0:
                unknown += 1
    return unknown


def integer_vocabularies(x: np.ndarray) -> list[tuple[int, ...]] | None:
    """The sorted distinct values of each column of a 2-D integer array, as Python ints, or
    None if some column spans more than ``MAX_RANGE`` values (or the array is empty).

    Examples
    --------
    >>> integer_vocabularies(np.array([[3, -1], [1, -1], [3, 7]], dtype=np.int8))
    [(1, 3), (-1, 7)]
    """
    if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0 or x.dtype.kind not in "iu":
        return None
    if x.dtype.itemsize <= 2:  # the type's whole range fits the table: no pass for the range
        info = np.iinfo(x.dtype)
        lo = np.full(x.shape[1], info.min, dtype=np.int64)
        width = int(info.max) - int(info.min) + 1
    else:
        lo, hi = _ranges(x)
        width = int((hi - lo).max()) + 1
        if width > MAX_RANGE:
            return None
    seen = _presence(x, lo, width)
    return [tuple((np.flatnonzero(seen[j]) + lo[j]).tolist()) for j in range(x.shape[1])]


def integer_codes(
    x: np.ndarray, vocabularies: list[tuple], dtype: np.dtype
) -> tuple[np.ndarray, int] | None:
    """Codes of a 2-D integer array in the given vocabularies (one per column, integers), as a
    C-ordered ``dtype`` array, and the number of values not in their vocabulary (coded -1).
    None if a vocabulary is not all integers or spans more than ``MAX_RANGE`` values.

    Examples
    --------
    >>> codes, unknown = integer_codes(np.array([[3, 5], [1, 7]]), [(1, 3), (7, 5)], np.int8)
    >>> codes.tolist(), unknown
    ([[1, 1], [0, 0]], 0)
    """
    if x.ndim != 2 or x.dtype.kind not in "iu" or len(vocabularies) != x.shape[1]:
        return None
    los, widths = [], []
    for vocab in vocabularies:
        if not vocab or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in vocab
        ):
            return None
        los.append(min(vocab))
        widths.append(max(vocab) - min(vocab) + 1)
    width = max(widths)
    if width > MAX_RANGE:
        return None
    if all(lo == 0 and w == len(v) for lo, w, v in zip(los, widths, vocabularies, strict=True)):
        # vocabularies 0 .. K-1: the values are their own codes, wherever they are in range
        top = np.asarray(widths)
        if x.dtype.kind == "u" or int(x.min(initial=0)) >= 0:
            if (x.max(axis=0, initial=0) < top).all():
                return x.astype(dtype, copy=True), 0
    lut = np.full((x.shape[1], width), -1, dtype=np.int64)
    for j, vocab in enumerate(vocabularies):
        lut[j, np.asarray(vocab, dtype=np.int64) - los[j]] = np.arange(len(vocab))
    out = np.empty(x.shape, dtype=dtype)
    unknown = _codes(x, lut, np.asarray(los, dtype=np.int64), width, out)
    return out, int(unknown)
