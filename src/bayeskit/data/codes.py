"""Category codes and names: the smallest signed integer type that holds every code and -1, and
the text that names a value (a file carries no types, so ``1``, ``1.0`` and ``"1"`` name one
category)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["code_dtype", "value_text", "value_texts"]


def value_text(value: Any) -> str:
    """A value as the text that names it, whole floats written as integers.

    Examples
    --------
    >>> value_text(1.0), value_text(-1), value_text("a"), value_text(2.5)
    ('1', '-1', 'a', '2.5')
    """
    if isinstance(value, float | np.floating) and np.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return str(value)


def value_texts(values: Any) -> np.ndarray:
    """:func:`value_text` of every value (None where missing), as an object array; each
    distinct value is named once (``pd.factorize``), not every row.

    Examples
    --------
    >>> value_texts(pd.Series([1.0, None, 2.0, 1.0])).tolist()
    ['1', None, '2', '1']
    """
    codes, distinct = pd.factorize(pd.Series(values, dtype=object) if not isinstance(
        values, pd.Series) else values)  # fmt: skip
    names = np.array([value_text(v) for v in distinct] + [None], dtype=object)
    return names[codes]  # code -1 (missing) takes the last entry, None


def code_dtype(max_code: int) -> np.dtype:
    """The smallest signed integer dtype holding ``0 .. max_code`` and the missing mark ``-1``.

    Examples
    --------
    >>> code_dtype(10), code_dtype(200), code_dtype(70_000)
    (dtype('int8'), dtype('int16'), dtype('int32'))
    """
    for dt in (np.int8, np.int16, np.int32):
        if max_code <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)
