"""Category codes and names: the smallest signed integer type that holds every code and -1, the
text that names a value (a file carries no types, so ``1``, ``1.0`` and ``"1"`` name one
category), and the canonical key that matches a category however its column was read.

Canonical keys (:func:`category_key`). The same file gives ``True`` read by ``pandas.read_csv``
and ``"TRUE"`` read as text, ``1`` or ``1.0`` (an integer column with a missing cell) or ``"1"``.
A category's key is the text that names it with those differences taken out:

* booleans, and text that pandas reads as one (``True``/``TRUE``/``true``, any case): ``"True"``
  or ``"False"``;
* numbers, and text that is a number (``"1"``, ``"+1"``, ``"1.0"``, ``"1e0"``): the number's
  :func:`value_text`, whole numbers as integers (``"1"``), others as Python writes the float
  (``"2.5"``);
* any other text: itself, unchanged (case and spaces kept: ``"Yes"`` and ``"yes"`` differ);
* a missing value (None, NaN, ``pd.NA``): no key (None).

:meth:`bayeskit.data.Schema.encode` matches a cell to a category by equality first and by key
only where that fails, so a model learnt from booleans reads the text ``"TRUE"`` as ``True``
(and the other way round), while a vocabulary that holds both ``1`` and ``"1"`` keeps them
apart.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["category_key", "category_keys", "code_dtype", "value_text", "value_texts"]

#: Text that is a decimal number (what ``pandas.read_csv`` reads as one), spaces around allowed.
_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*")
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")
_BOOLEANS = {"true": "True", "false": "False"}


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


def category_key(value: Any) -> str | None:
    """The canonical key of a category (the module docstring): how a file names it, whichever
    way the file was read; None for a missing value.

    Examples
    --------
    >>> category_key(True), category_key("TRUE"), category_key("true")
    ('True', 'True', 'True')
    >>> category_key(1), category_key(1.0), category_key("1"), category_key("1.0")
    ('1', '1', '1', '1')
    >>> category_key(2.5), category_key("2.50"), category_key("yes"), category_key(float("nan"))
    ('2.5', '2.5', 'yes', None)
    """
    if isinstance(value, bool | np.bool_):
        return "True" if value else "False"
    if isinstance(value, str):
        word = _BOOLEANS.get(value.strip().lower())
        if word is not None:
            return word
        if _INTEGER.fullmatch(value):
            return str(int(value))
        if _NUMBER.fullmatch(value):
            return _number_key(float(value))
        return value
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return _number_key(float(value))
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    return value_text(value)


def _number_key(v: float) -> str | None:
    if math.isnan(v):
        return None
    if math.isfinite(v) and v.is_integer():
        return str(int(v))
    return repr(v)


def category_keys(values: Any) -> np.ndarray:
    """:func:`category_key` of every value (None where missing), as an object array; each
    distinct value is keyed once.

    Examples
    --------
    >>> category_keys(pd.Series(["TRUE", None, "FALSE", "TRUE"])).tolist()
    ['True', None, 'False', 'True']
    """
    series = values if isinstance(values, pd.Series) else pd.Series(values, dtype=object)
    codes, distinct = pd.factorize(series)
    keys = np.array([category_key(v) for v in distinct] + [None], dtype=object)
    return keys[codes]  # code -1 (missing) takes the last entry, None


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
