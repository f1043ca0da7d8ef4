"""Rows of data: how a message names one, and the distinct rows of integer codes.

Naming a row: one convention for the whole package.

* Data given in Python (a DataFrame, an array, records): a row is named by its 0-based
  position, ``row 21`` being ``X.iloc[21]`` whatever the index holds.
* Data read from a file by the command line: a row is named by its line in the file, the header
  being line 1, so data row ``i`` (0-based) of a CSV file is ``line i + 2``. The command line
  labels such a frame's index with its line numbers (:func:`label_file_lines`, index named
  :data:`LINE_INDEX`), and every message then names the line, however deep in the package it
  is raised and whatever rows were dropped or reordered on the way (the labels travel with the
  rows).

Distinct rows (:func:`distinct_rows`): every count table is a sum of weights over identical rows
of codes, so the package groups rows once, here. A row of codes ``-1 .. K_j - 1`` is read as a
number in a mixed radix (:func:`row_keys`, first column most significant), so the distinct rows
come out in lexicographic order, ``-1`` first, whichever way they are grouped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["LINE_INDEX", "distinct_rows", "label_file_lines", "row_keys", "row_name"]

#: The name of an index that holds file line numbers.
LINE_INDEX = "line"


def row_name(index: Any, position: int) -> str:
    """The name of the row at ``position`` of data whose index is ``index`` (None for an
    array): ``line N`` where the index holds file lines, else ``row <position>``.

    Examples
    --------
    >>> row_name(pd.RangeIndex(5), 3)
    'row 3'
    >>> row_name(label_file_lines(pd.DataFrame({"a": [1, 2, 3]})).index, 1)
    'line 3'
    """
    if isinstance(index, pd.Index) and index.name == LINE_INDEX:
        return f"line {index[position]}"
    return f"row {position}"


def label_file_lines(frame: pd.DataFrame, header_lines: int = 1) -> pd.DataFrame:
    """``frame`` (rows read from a file, its index the 0-based data row numbers, as pandas'
    readers give it, chunks included) with its index turned into file line numbers: data row
    ``i`` is line ``i + header_lines + 1``. A new frame (pandas shares the columns).

    Examples
    --------
    >>> label_file_lines(pd.DataFrame({"a": [1, 2]})).index.tolist()
    [2, 3]
    """
    index = frame.index if isinstance(frame.index, pd.RangeIndex) else pd.RangeIndex(len(frame))
    return frame.set_axis(pd.Index(index + header_lines + 1, name=LINE_INDEX), axis=0)


# --------------------------------------------------------------------------- distinct rows
#: Keys below this (2**62) cannot overflow an int64 while they are built.
_KEY_LIMIT = float(2**62)
#: Group by a table over every key (a counting pass, no sort) up to this many keys per row.
_DENSE_KEYS_PER_ROW = 4
#: ... or up to this many keys, whatever the number of rows.
_DENSE_KEYS = 1 << 16


def _ranges(codes: np.ndarray, n_states: Any) -> tuple[np.ndarray, np.ndarray]:
    """Each column's lowest code and number of digits: ``-1`` and ``K_j + 1`` for vocabulary
    sizes ``n_states``, else the column's own range (all zero for no row)."""
    if n_states is not None:
        radix = np.asarray(n_states, dtype=np.int64).reshape(-1) + 1
        return np.full(codes.shape[1], -1, dtype=np.int64), radix
    if codes.shape[0] == 0 or codes.shape[1] == 0:
        return np.zeros(codes.shape[1], np.int64), np.ones(codes.shape[1], np.int64)
    # numpy reduces an (n, few) array over its rows some 30 times slower than a wide one: fold
    # 64 rows into one first
    n, d = codes.shape
    q = n - n % 64
    parts = [codes[q:]]
    if q:
        wide = codes[:q].reshape(-1, 64 * d)
        parts += [wide.min(axis=0).reshape(64, d), wide.max(axis=0).reshape(64, d)]
    both = np.concatenate(parts).astype(np.int64)
    lo = both.min(axis=0)
    return lo, both.max(axis=0) - lo + 1


def _keys(codes: np.ndarray, lo: np.ndarray, radix: np.ndarray, last: bool = False) -> np.ndarray:
    """The mixed-radix number of each row, code ``c`` of column ``j`` the digit ``c - lo[j]``;
    with ``last``, a missing code (-1) is the highest digit instead."""
    keys = np.zeros(codes.shape[0], dtype=np.int64)
    for j in range(codes.shape[1]):
        col = codes[:, j]
        keys *= int(radix[j])
        keys += col  # cast to int64 by numpy, one column at a time
        if last and lo[j] < 0:  # -1 -> radix - 1, the others stay themselves
            keys += (col < 0) * int(radix[j])
        else:
            keys -= int(lo[j])
    return keys


def row_keys(codes: np.ndarray, n_states: Any = None) -> np.ndarray | None:
    """One int64 per row of a 2-D array of codes, ordered as the rows are lexicographically:
    codes ``-1 .. K_j - 1`` read as the digits ``0 .. K_j`` of a mixed radix, the first column
    most significant (``n_states`` the sizes ``K_j``; None: each column's own range, so keys
    are comparable only within one call). None when the keys would overflow.

    Examples
    --------
    >>> row_keys(np.array([[0, 1], [-1, 2], [1, -1]]), [2, 3]).tolist()
    [6, 3, 8]
    """
    codes = np.asarray(codes)
    lo, radix = _ranges(codes, n_states)
    if float(np.prod(radix.astype(np.float64))) >= _KEY_LIMIT:
        return None
    return _keys(codes, lo, radix)


def _group_by_keys(keys: np.ndarray, cells: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Group rows by their keys: for each distinct key (in increasing order) the index of one of
    its rows and its number of rows; for each row its key's index among the distinct keys."""
    n = len(keys)
    if cells <= max(_DENSE_KEYS, _DENSE_KEYS_PER_ROW * n):  # a table over every key
        times = np.bincount(keys, minlength=int(cells))
        distinct = np.flatnonzero(times)
        where = np.empty(int(cells), dtype=np.intp)
        where[keys] = np.arange(n)  # some row of each key
        one = where[distinct]
        where[distinct] = np.arange(len(distinct))
        return one, where[keys], times[distinct]
    order = np.argsort(keys)
    ordered = keys[order]
    new = np.ones(n, dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    return _runs(order, new)


def _runs(order: np.ndarray, new: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_group_by_keys`' answer from the rows in sorted ``order`` and where a new group
    starts in it."""
    starts = np.flatnonzero(new)
    inverse = np.empty(len(order), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return order[starts], inverse, np.diff(np.append(starts, len(order)))


def _group_by_columns(codes: np.ndarray, lo: np.ndarray, radix: np.ndarray, last: bool):
    """:func:`_group_by_keys` for rows too wide for one key: a key per run of columns whose
    product fits, the rows sorted by these keys (``np.lexsort``)."""
    parts, start, size = [], 0, 1.0
    for j, k in enumerate(radix.astype(np.float64).tolist()):
        if size * k >= _KEY_LIMIT:
            parts.append(_keys(codes[:, start:j], lo[start:j], radix[start:j], last))
            start, size = j, 1.0
        size *= k
    parts.append(_keys(codes[:, start:], lo[start:], radix[start:], last))
    order = np.lexsort(parts[::-1])
    new = np.zeros(len(order), dtype=bool)
    new[:1] = True
    for part in parts:
        ordered = part[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    return _runs(order, new)


def _sum_by_group(inverse: np.ndarray, m: int, weights: np.ndarray) -> np.ndarray:
    """``out[g]``: the sum of ``weights[i]`` over the rows ``i`` of group ``g`` (row by row)."""
    if weights.ndim == 1:
        return np.bincount(inverse, weights=weights, minlength=m)
    k = weights.shape[1]
    flat = inverse[:, None] * k + np.arange(k)
    return np.bincount(flat.ravel(), weights=weights.ravel(), minlength=m * k).reshape(m, k)


def distinct_rows(
    codes: np.ndarray,
    weights: np.ndarray | None = None,
    n_states: Any = None,
    *,
    missing: str = "first",
    return_inverse: bool = False,
) -> tuple[np.ndarray, ...]:
    """The distinct rows of a 2-D array of integer codes (-1 = missing), each with its number
    of rows or their total weight: a sparse count table.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), integer
    weights : ndarray of shape (n_samples,) or (n_samples, k), optional
        Each row's weight, or ``k`` weights per row summed separately (None: 1 each).
    n_states : array-like of shape (n_features,), optional
        Vocabulary sizes, when known (the codes are then in ``-1 .. K_j - 1``; None: read from
        the codes, one pass more).
    missing : {"first", "last"}, default="first"
        Where a missing code sorts among its column's codes: before every state (the rows'
        lexicographic order), or after every state (the order in which the rows' bytes compare
        as int8 codes: what the networks' EM has always summed in).
    return_inverse : bool, default=False
        Also return each row's index among the distinct rows.

    Returns
    -------
    rows : ndarray of shape (m, n_features), the dtype of ``codes``
        The distinct rows in lexicographic order (first column most significant, -1 first or
        last as ``missing`` says).
    weights : ndarray of shape (m,) or (m, k), float64
        Each distinct row's number of rows, or their total weight, summed in the order of the
        rows of ``codes``.
    inverse : ndarray of shape (n_samples,), intp
        Only with ``return_inverse``: ``rows[inverse]`` is ``codes``.

    Rows are grouped by their :func:`row_keys`: with a table over every key when there are
    few (a counting pass), else by sorting the keys; rows too wide for one int64 key are
    sorted column by column (``np.lexsort``).

    Examples
    --------
    >>> rows, w = distinct_rows(np.array([[1, 0], [0, -1], [1, 0]]))
    >>> rows.tolist(), w.tolist()
    ([[0, -1], [1, 0]], [1.0, 2.0])
    >>> distinct_rows(np.array([[0], [-1], [1]]), missing="last")[0].tolist()
    [[0], [1], [-1]]
    >>> rows, w, inverse = distinct_rows(np.array([[2], [0], [2]]), np.array([0.5, 1.0, 2.0]),
    ...                                  return_inverse=True)
    >>> rows.tolist(), w.tolist(), inverse.tolist()
    ([[0], [2]], [1.0, 2.5], [1, 0, 1])
    """
    if missing not in ("first", "last"):
        msg = f"missing must be 'first' or 'last', got {missing!r}"
        raise ValueError(msg)
    last = missing == "last"
    codes = np.asarray(codes)
    lo, radix = _ranges(codes, n_states)
    cells = float(np.prod(radix.astype(np.float64)))
    if cells < _KEY_LIMIT:
        one, inverse, times = _group_by_keys(_keys(codes, lo, radix, last), cells)
    else:
        one, inverse, times = _group_by_columns(codes, lo, radix, last)
    rows = codes[one]
    if weights is None:
        summed = times.astype(np.float64)
    else:
        summed = _sum_by_group(inverse, len(rows), np.asarray(weights, dtype=np.float64))
    return (rows, summed, inverse) if return_inverse else (rows, summed)
