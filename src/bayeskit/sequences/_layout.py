"""The column layout of a product emission, kept as a float array so that it lives on the model
like every other parameter (and survives copying, pickling and refitting as one)."""

from __future__ import annotations

import numpy as np

#: Column kinds, by their code in the layout array; code 3 marks a category of a column.
KINDS = ("categorical", "gaussian", "poisson")
_CATEGORY = 3


def _text(codes: np.ndarray) -> str:
    """The text of a record's code points (whole numbers of valid characters, then -1s)."""
    codes = np.asarray(codes)
    used = codes[codes != -1]
    if np.any(used != np.round(used)) or np.any(used < 0) or np.any(used > 0x10FFFF):
        msg = "layout_ holds a text that is not whole code points followed by -1 padding"
        raise ValueError(msg)
    if np.any(codes[len(used) :] != -1):
        msg = "layout_ holds a text with padding inside it"
        raise ValueError(msg)
    text = "".join(chr(int(c)) for c in used)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        msg = "layout_ holds a text that is not valid Unicode (a lone surrogate)"
        raise ValueError(msg) from exc
    return text


def encode(names: list[str], kinds: list[str], categories: dict[int, list[str]]) -> np.ndarray:
    """Rows ``[position, kind code, code points of the text, -1 padding]``: one per column
    (its name), then one per category of each categorical column, in code order."""
    rows = [(p, KINDS.index(k), n) for p, (n, k) in enumerate(zip(names, kinds, strict=True))]
    rows += [(p, _CATEGORY, c) for p, labels in sorted(categories.items()) for c in labels]
    width = max((len(t) for *_, t in rows), default=0)
    out = np.full((len(rows), 2 + width), -1.0)
    for i, (p, k, t) in enumerate(rows):
        out[i, :2] = p, k
        out[i, 2 : 2 + len(t)] = [ord(ch) for ch in t]
    return out


def decode(layout) -> tuple[list[str], list[str], dict[int, list[str]]]:
    """The column names, kinds and each categorical column's categories of a layout array."""
    a = np.asarray(layout, dtype=float)
    if a.ndim != 2 or a.shape[1] < 2 or not np.all(np.isfinite(a)):
        msg = f"layout_ must be a 2-d array of column records, got shape {a.shape}"
        raise ValueError(msg)
    names: list[str] = []
    kinds: list[str] = []
    categories: dict[int, list[str]] = {}
    if np.any(a[:, :2] != np.round(a[:, :2])):
        msg = "layout_'s positions and kind codes must be whole numbers"
        raise ValueError(msg)
    for row in a:
        p, k = int(row[0]), int(row[1])
        if k == _CATEGORY:
            if not (0 <= p < len(kinds)) or kinds[p] != "categorical":
                msg = f"layout_ lists a category of column {p}, which is not categorical"
                raise ValueError(msg)
            categories.setdefault(p, []).append(_text(row[2:]))
        elif 0 <= k < len(KINDS) and p == len(names):
            names.append(_text(row[2:]))
            kinds.append(KINDS[k])
        else:
            msg = f"layout_ has a bad record (position {p}, kind {k})"
            raise ValueError(msg)
    if len(set(names)) != len(names):
        msg = f"layout_ names a column twice: {names}"
        raise ValueError(msg)
    for p, kind in enumerate(kinds):
        if kind == "categorical" and not categories.get(p):
            msg = f"layout_ gives column {names[p]!r} no categories"
            raise ValueError(msg)
        if len(set(categories.get(p, []))) != len(categories.get(p, [])):
            msg = f"layout_ gives column {names[p]!r} a category twice"
            raise ValueError(msg)
    return names, kinds, categories


def column_kind(series, asked: str | None) -> str:
    """A column's emission: the one asked for, else categorical unless the column is numeric
    (booleans count as categorical)."""
    import pandas as pd

    if asked is not None:
        if asked not in KINDS:
            msg = f"column_emissions values must be among {KINDS}, got {asked!r}"
            raise ValueError(msg)
        return asked
    dtype = series.dtype
    numeric = pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
    return "gaussian" if numeric and not isinstance(dtype, pd.CategoricalDtype) else "categorical"


def _label(value) -> str:
    """A category's text; a whole float reads as the integer (1.0 -> "1"), so that a column of
    integer codes matches whether NaN made it float or not."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def labels_of(series) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """A categorical column's values as text, where they are missing, and its declared
    categories (those of a pandas category dtype, else none)."""
    import pandas as pd

    missing = np.asarray(series.isna(), dtype=bool)
    text = np.array([_label(v) for v in series.to_numpy(dtype=object)], dtype=object)
    declared: list[str] = []
    if isinstance(series.dtype, pd.CategoricalDtype):
        declared = [_label(c) for c in series.cat.categories]
    return text, missing, declared
