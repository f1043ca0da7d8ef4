"""Encoding data into the arrays the layers below work on: a categorical column into integer
codes in its vocabulary (by equality, else by canonical key; -1 where missing or unseen), a
numeric one into float64 (NaN where missing, infinity refused), and the columns interleaved into
one C-ordered array a block of rows at a time. :meth:`bayeskit.data.Schema.encode` calls these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._warnings import warn
from bayeskit.data.codes import category_key, category_keys
from bayeskit.data.discretize import apply_cuts
from bayeskit.data.frames import _is_missing, _is_real_number, _plain
from bayeskit.data.rows import row_name
from bayeskit.exceptions import SchemaError, UnknownCategoryWarning

__all__ = ["category_codes", "encode_columns"]


_BLOCK_BYTES = 1 << 21


def _interleave(columns: list[np.ndarray], n: int, dtype: np.dtype) -> np.ndarray:
    """Stack 1-D columns into a C-ordered ``(n, len(columns))`` array, a block of rows at a time.

    Writing one whole column at a time into a row-major array touches every cache line of the
    output once per column (50 passes over 50 MB for 1,000,000 x 50 int8 codes); a block of
    about 2 MB of output stays in cache while all its columns are written.
    """
    out = np.empty((n, len(columns)), dtype=dtype)
    if not columns:
        return out
    step = max(1, _BLOCK_BYTES // (out.itemsize * len(columns)))
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        for j, col in enumerate(columns):
            out[lo:hi, j] = col[lo:hi]
    return out


def _float64_block(frame: pd.DataFrame, names: list[str]) -> np.ndarray | None:
    """The numeric columns as one C-ordered float64 array, when every one of them is float64.

    Without a copy when the frame wraps a C-ordered float64 array (as ``as_frame`` does for a
    numpy input), with one transposing copy for a DataFrame's own column-major block. ``None``
    (use the column-by-column path) when any column has another dtype. Infinity is refused
    here as in :func:`_encode_numeric`, checking a block of rows at a time.
    """
    if not names or any(frame[name].dtype != np.float64 for name in names):
        return None
    sub = frame if [str(c) for c in frame.columns] == names else frame[names]
    values = np.ascontiguousarray(sub.to_numpy(dtype=np.float64))
    step = max(1, _BLOCK_BYTES // (values.itemsize * values.shape[1]))
    for lo in range(0, values.shape[0], step):
        bad = np.isinf(values[lo : lo + step])
        if bad.any():
            row, j = np.argwhere(bad)[0]
            msg = (
                f"column {names[j]!r} holds an infinite value "
                f"({row_name(frame.index, lo + int(row))}); infinity is not a valid measurement "
                "(NaN is read as missing)"
            )
            raise SchemaError(msg)
    return values


#: The widest range of integer categories coded through a look-up table (else a binary search).
_LUT_RANGE = 1 << 16


def _numeric_codes(v: np.ndarray, categories: tuple) -> np.ndarray | None:
    """Codes of a numeric (non-boolean) array in a vocabulary of numbers, without building
    Python objects: a look-up table for integers in a narrow range, a binary search otherwise.
    None when the vocabulary is not all numbers (the general path then compares as objects).
    Matches as the general path does (1 == 1.0); NaN gets -1."""
    if not categories or not all(_is_real_number(c) for c in categories):
        return None
    vocab = np.asarray(categories, dtype=np.float64)
    if v.dtype.kind in "iu" and np.all(vocab == np.round(vocab)):
        lo, hi = int(vocab.min()), int(vocab.max())
        if hi - lo < _LUT_RANGE:
            lut = np.full(hi - lo + 2, -1, dtype=np.int64)  # the last slot: out of range
            lut[(vocab - lo).astype(np.int64)] = np.arange(len(vocab))
            shifted = v.astype(np.int64) - lo
            shifted[(shifted < 0) | (shifted > hi - lo)] = hi - lo + 1
            return lut[shifted]
    order = np.argsort(vocab, kind="stable")
    ordered = vocab[order]
    x = v.astype(np.float64, copy=False)
    pos = np.minimum(np.searchsorted(ordered, x), len(ordered) - 1)
    return np.where(ordered[pos] == x, order[pos], -1)


def _encode_categorical(
    s: pd.Series, name: str, categories: tuple, handle_unknown: str
) -> np.ndarray:
    """The codes of column ``name``'s cells ``s`` in its vocabulary ``categories``: by equality,
    else by canonical key; -1 where missing, and where unseen as ``handle_unknown`` says."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype) and tuple(dt.categories) == categories:
        return s.array.codes  # fast path: already coded in our vocabulary (a view, no copy)
    codes = None
    if pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt):
        if not pd.api.types.is_complex_dtype(dt):
            codes = _numeric_codes(s.to_numpy(dtype=None, na_value=np.nan), categories)
    if codes is None:
        try:
            codes = pd.Index(list(categories), dtype=object).get_indexer(s.astype(object))
        except TypeError as exc:
            msg = f"column {name!r}: {exc}"
            raise TypeError(msg) from exc
    present = s.notna().to_numpy()
    unknown = (codes < 0) & present
    if unknown.any():  # not equal to a category: matched by canonical key (module docstring)
        codes = _match_keys(s, unknown, categories, codes)
        unknown = (codes < 0) & present
    if unknown.any():
        bad = sorted({str(v) for v in s[unknown]})[:5]
        if handle_unknown == "error":
            known = ", ".join(map(repr, categories[:10]))
            msg = (
                f"column {name!r} has categories {bad} not seen in fit (known: {known}); "
                "pass handle_unknown='missing' to treat them as missing"
            )
            raise SchemaError(msg)
        if handle_unknown == "warn":
            msg = f"column {name!r} has categories {bad} not seen in fit; treated as missing"
            warn(msg, UnknownCategoryWarning)
    return codes


def category_codes(values: Any, categories: Sequence) -> np.ndarray:
    """Each value's code in ``categories`` as :meth:`Schema.encode` finds it: by equality, else
    by canonical key (:func:`bayeskit.data.codes.category_key`); -1 where missing or unseen.

    Examples
    --------
    >>> category_codes(pd.Series(["TRUE", "false", None, "maybe"]), (False, True)).tolist()
    [1, 0, -1, -1]
    >>> category_codes(pd.Series([2.0, 1]), ("1", "2")).tolist()
    [1, 0]
    """
    s = values if isinstance(values, pd.Series) else pd.Series(values, dtype=object)
    return np.asarray(
        _encode_categorical(s, str(s.name), tuple(categories), "missing"), dtype=np.int64
    )


def _key_index(categories: tuple) -> dict[str, int]:
    """Each category's code by its canonical key, for the keys that name one category only
    (a vocabulary holding both ``1`` and ``"1"`` keeps them apart: neither is found by key)."""
    out: dict[str, int] = {}
    shared: set[str] = set()
    for code, v in enumerate(categories):
        key = category_key(v)
        if key is None:
            continue
        if key in out:
            shared.add(key)
        out.setdefault(key, code)
    for key in shared:
        del out[key]
    return out


def _match_keys(s: pd.Series, rows: np.ndarray, categories: tuple, codes: np.ndarray) -> np.ndarray:
    """``codes`` with the cells of ``rows`` (a mask: not equal to any category) coded by their
    canonical key where it names a category; each distinct cell is keyed once."""
    keys = _key_index(categories)
    if not keys:
        return codes
    found = pd.Series(category_keys(s.iloc[np.flatnonzero(rows)]), dtype=object).map(keys)
    out = np.array(codes, dtype=np.int64)
    out[rows] = found.fillna(-1).to_numpy(dtype=np.int64)
    return out


def _encode_numeric(s: pd.Series, name: str) -> np.ndarray:
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.to_numpy(dtype=np.float64)
    if pd.api.types.is_numeric_dtype(s.dtype):
        v = s.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        try:
            v = pd.to_numeric(s, errors="raise").to_numpy(dtype=np.float64, na_value=np.nan)
        except (ValueError, TypeError) as exc:
            # the first cell that is neither missing nor a number (text "2.5" is a number)
            numbers = pd.to_numeric(s, errors="coerce")
            row = next(
                i
                for i, (x, v) in enumerate(zip(s.tolist(), numbers.tolist(), strict=True))
                if pd.isna(v) and not _is_missing(x)
            )
            bad = _plain(s.iloc[row])
            msg = (
                f"column {name!r} is numeric but holds {bad!r} ({type(bad).__name__}) in "
                f"{row_name(s.index, row)}, which is not a number"
            )
            raise SchemaError(msg) from exc
    if np.isinf(v).any():
        row = int(np.flatnonzero(np.isinf(v))[0])
        msg = (
            f"column {name!r} holds an infinite value ({row_name(s.index, row)}); infinity is "
            "not a valid measurement (NaN is read as missing)"
        )
        raise SchemaError(msg)
    return v


def encode_columns(
    frame: pd.DataFrame, cats: list, nums: list, handle_unknown: str, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """The codes of the categorical columns ``cats`` (binned numeric ones by their cuts) and
    the values of the numeric columns ``nums`` of ``frame``: what
    :meth:`bayeskit.data.Schema.encode` returns."""
    n = frame.shape[0]
    code_columns = []
    for col in cats:
        if col.cuts is not None:
            values_j = _encode_numeric(frame[col.name], col.name)
            code_columns.append(apply_cuts(values_j, np.asarray(col.cuts, dtype=np.float64)))
        else:
            codes_j = _encode_categorical(
                frame[col.name], col.name, col.categories or (), handle_unknown
            )
            code_columns.append(codes_j)
    codes = _interleave(code_columns, n, dtype)
    values = _float64_block(frame, [c.name for c in nums])
    if values is None:
        values = np.empty((n, len(nums)), dtype=np.float64)
        for j, col in enumerate(nums):
            values[:, j] = _encode_numeric(frame[col.name], col.name)
    return codes, values
