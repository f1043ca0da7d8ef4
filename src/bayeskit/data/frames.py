"""Data as given, made a DataFrame (:func:`as_frame`: a DataFrame, a 2-D array or a list of
dicts), and the refusals of columns that are neither categories nor numbers: dates and
durations, booleans mixed with numbers; and the message for columns that differ from those seen
in fit. :class:`bayeskit.data.Schema` starts from these."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.exceptions import SchemaError

__all__ = [
    "as_frame",
    "column_mismatch",
    "is_records",
    "is_temporal_value",
    "refuse_bool_number_mix",
    "refuse_unhashable",
]


def as_frame(X: Any, names: Sequence[str] | None = None) -> pd.DataFrame:
    """Turn accepted input into a DataFrame without copying numeric data where possible.

    Accepts a DataFrame (returned as is), a 2-D array-like, or a list of dicts (one per row).
    Arrays get the column names ``x0, x1, ...`` unless ``names`` is given.

    Parameters
    ----------
    X : DataFrame, array-like of shape (n_samples, n_features), or list of dict
    names : sequence of str, optional
        Column names for an array.

    Returns
    -------
    DataFrame

    Raises
    ------
    SchemaError
        ``X`` is not 2-D (a Series, a 1-D array) or holds complex numbers.
    TypeError
        ``X`` is a sparse matrix.

    Examples
    --------
    >>> as_frame([{"a": 1, "b": "u"}, {"a": 2, "b": "v"}]).columns.tolist()
    ['a', 'b']
    >>> as_frame(np.zeros((2, 3))).columns.tolist()
    ['x0', 'x1', 'x2']
    """
    if isinstance(X, pd.DataFrame):
        return X
    if isinstance(X, pd.Series):
        msg = "X must be 2-D (n_samples, n_features), got a pandas Series; use X.to_frame()"
        raise SchemaError(msg)
    if is_records(X):
        return pd.DataFrame.from_records(list(X))
    if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
        msg = (
            "X is a sparse matrix; this model needs dense input. The multinomial and Bernoulli "
            "naive Bayes models accept sparse counts"
        )
        raise TypeError(msg)
    arr = np.asarray(X) if not isinstance(X, np.ndarray) else X
    if arr.ndim != 2:
        msg = f"X must be 2-D (n_samples, n_features), got an array of shape {arr.shape}"
        raise SchemaError(msg)
    if np.iscomplexobj(arr):
        msg = "X holds complex numbers, which are neither categories nor real values"
        raise SchemaError(msg)
    cols = list(names) if names is not None else [f"x{i}" for i in range(arr.shape[1])]
    if arr.dtype.kind in "fiub":
        return pd.DataFrame(arr, columns=cols, copy=False)
    return pd.DataFrame({c: arr[:, i] for i, c in enumerate(cols)})


def _is_real_number(v: Any) -> bool:
    return isinstance(v, Real) and not isinstance(v, (bool, np.bool_))


_TEMPORAL_TYPES = (
    pd.Timestamp,
    pd.Timedelta,
    pd.Period,
    np.datetime64,
    np.timedelta64,
    datetime.date,
    datetime.time,
    datetime.timedelta,
)


def is_temporal_value(v: Any) -> bool:
    """Whether ``v`` is a date, time, duration or period (pandas, numpy or datetime)."""
    return isinstance(v, _TEMPORAL_TYPES)


def _refuse_temporal(s: pd.Series) -> None:
    """Dates and durations are neither categories (every new date would be unseen) nor plain
    numbers (their unit is a choice): refuse them, naming the column and a conversion."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype):  # categories that are dates are dates
        dt = dt.categories.dtype
    temporal = (
        pd.api.types.is_datetime64_any_dtype(dt)
        or pd.api.types.is_timedelta64_dtype(dt)
        or isinstance(dt, pd.PeriodDtype)
    )
    if not temporal and pd.api.types.is_object_dtype(dt):
        temporal = any(is_temporal_value(v) for v in s.dropna().head(1000))
    if temporal:
        msg = (
            f"column {s.name!r} holds dates or durations (dtype {dt}), which bayeskit does not "
            "model directly: as categories every new date would be unseen. Convert the column "
            f"first, to a number (e.g. (X[{s.name!r}] - X[{s.name!r}].min()).dt.days) or to "
            f"categories (e.g. X[{s.name!r}].dt.dayofweek or .dt.month)"
        )
        raise SchemaError(msg)


def refuse_bool_number_mix(s: pd.Series) -> None:
    """pandas and numpy treat True as 1 and False as 0, so an object column holding both
    booleans and numbers would silently merge them into one category: refuse it."""
    if not pd.api.types.is_object_dtype(s.dtype):
        return
    if not pd.api.types.infer_dtype(s, skipna=True).startswith("mixed"):
        return  # one type throughout (pandas' compiled scan): nothing can merge
    values = s.dropna()
    has_bool = any(isinstance(v, (bool, np.bool_)) for v in values)
    if has_bool and any(_is_real_number(v) for v in values):
        msg = (
            f"column {s.name!r} mixes booleans (True/False) with numbers, which pandas and numpy "
            "treat as equal (True == 1), so they would merge into one category; convert the "
            f"column to one type first (e.g. X[{s.name!r}].astype(str) keeps them apart)"
        )
        raise SchemaError(msg)


def _is_missing(v: Any) -> bool:
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):  # a list or an array in a cell is not "missing"
        return False


def refuse_unhashable(s: pd.Series) -> None:
    """TypeError naming the column and the value when an object column holds a value that
    cannot be a category (a dict, a list). A column of one type throughout is cleared by
    pandas' compiled scan; only a mixed one is looked at value by value.

    Examples
    --------
    >>> refuse_unhashable(pd.Series(["a", "b"], name="c"))
    >>> try:
    ...     refuse_unhashable(pd.Series(["a", {"k": 1}], name="c"))
    ... except TypeError as err:
    ...     print(str(err).split(": argument")[0])
    column 'c' value {'k': 1}
    """
    if not pd.api.types.is_object_dtype(s.dtype):
        return
    if not pd.api.types.infer_dtype(s, skipna=True).startswith("mixed"):
        return
    bad = next((v for v in s.dropna() if not _hashable(v)), None)
    if bad is not None:
        msg = (
            f"column {s.name!r} value {bad!r}: argument must be a string or a number "
            f"(a hashable category), got {type(bad).__name__}"
        )
        raise TypeError(msg)


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _plain(v: Any) -> Any:
    """numpy scalars to Python scalars, so vocabularies serialise to JSON and compare simply."""
    return v.item() if isinstance(v, np.generic) else v


def is_records(X: Any) -> bool:
    """Whether ``X`` is a non-empty list of dicts, one per row."""
    return isinstance(X, Sequence) and len(X) > 0 and all(isinstance(r, Mapping) for r in X)


def _has_names(X: Any) -> bool:
    return isinstance(X, pd.DataFrame) or is_records(X)


def column_mismatch(missing: Sequence[str], extra: Sequence[str]) -> str:
    """The message for columns that differ from those seen in fit, naming only what differs.

    Examples
    --------
    >>> column_mismatch([], ["extra"])
    "X's columns differ from those seen in fit: unexpected ['extra']; columns are matched by name"
    """
    parts = [f"missing {list(missing)}"] if len(missing) else []
    parts += [f"unexpected {list(extra)}"] if len(extra) else []
    differ = ", ".join(parts)
    return f"X's columns differ from those seen in fit: {differ}; columns are matched by name"
