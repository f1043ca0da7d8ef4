"""A column's kind and vocabulary as :meth:`bayeskit.data.Schema.infer` learns them: the dtype
rule, ``categorical_features`` read, the sorted distinct values, declared categories checked,
and the identifiers said (the rules: :mod:`bayeskit.data.schema`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bayeskit._warnings import warn
from bayeskit.data.frames import (
    _is_real_number,
    _plain,
    refuse_bool_number_mix,
    refuse_unhashable,
)
from bayeskit.data.kinds import (
    CATEGORICAL,
    MIN_IDENTIFIER_ROWS,
    NUMERIC,
    identifier_reason,
    numeric_identifier_reason,
)
from bayeskit.exceptions import IdentifierWarning, SchemaError


def _dtype_kind(s: pd.Series) -> str:
    """The kind the dtype rule gives a column."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dt):
        return CATEGORICAL
    if pd.api.types.is_complex_dtype(dt):
        msg = (
            f"column {s.name!r} holds complex numbers, which are neither categories nor real values"
        )
        raise SchemaError(msg)
    if pd.api.types.is_numeric_dtype(dt):
        return NUMERIC
    if pd.api.types.is_object_dtype(dt):
        non_missing = s[s.notna()]
        if len(non_missing) and all(_is_real_number(v) for v in non_missing):
            return NUMERIC
    return CATEGORICAL


def _sorted_vocabulary(s: pd.Series) -> tuple:
    refuse_bool_number_mix(s)
    try:
        uniq = pd.unique(s.dropna())
    except TypeError:
        refuse_unhashable(s)  # names the value
        raise
    try:
        ordered = sorted(uniq)
    except TypeError:  # mixed types (e.g. 1 and "a"): order by text, then by type name
        ordered = sorted(uniq, key=lambda v: (type(v).__name__, str(v)))
    return tuple(_plain(v) for v in ordered)


def _forced_categorical(spec: Any, names: list[str]) -> Any:
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec == "infer":
            return "infer"
        if spec == "all":
            return set(names)
        if spec in names:
            return {spec}
        msg = (
            "categorical_features must be None, 'infer', 'all', or a list of column names, "
            f"positions or a boolean mask; got {spec!r}"
        )
        raise SchemaError(msg)
    items = list(spec)
    if len(items) == len(names) and all(isinstance(v, (bool, np.bool_)) for v in items):
        return {n for n, b in zip(names, items, strict=True) if b}
    out = set()
    for v in items:
        if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            if not -len(names) <= v < len(names):
                msg = f"categorical_features position {v} is out of range for {len(names)} columns"
                raise SchemaError(msg)
            out.add(names[v])
        elif str(v) in names:
            out.add(str(v))
        else:
            msg = f"categorical_features names unknown column {v!r}; known: {names}"
            raise SchemaError(msg)
    return out


def _is_identifier(s: pd.Series, vocab: tuple) -> bool:
    """Whether categorical column ``s`` (with distinct values ``vocab``) looks like an
    identifier (:func:`bayeskit.data.kinds.identifier_reason`); if so, says so."""
    if len(vocab) < MIN_IDENTIFIER_ROWS:
        return False
    counted = None if isinstance(s.dtype, pd.CategoricalDtype) else len(vocab)
    if identifier_reason(s, counted) is None:
        return False
    msg = (
        f"column {s.name!r} looks like an identifier (a different value in nearly every row): "
        "it is left out of the model, since a category seen once tells nothing about a new "
        "row. Drop the column to silence this; to use it as a feature, declare its categories "
        f"(categories={{{s.name!r}: [...]}})"
    )
    warn(msg, IdentifierWarning)
    return True


def _warn_numeric_identifier(s: pd.Series) -> None:
    """Say so where numeric column ``s`` holds a different whole number in every row, as a row
    number or an identifier does (:func:`bayeskit.data.kinds.numeric_identifier_reason`); it
    stays a feature."""
    if numeric_identifier_reason(s) is None:
        return
    msg = (
        f"column {s.name!r} holds a different whole number in every row, as an identifier "
        "does; it is used as a number. If it names the rows rather than measuring something, "
        f"leave it out (drop the column; on the command line, --ignore {s.name})"
    )
    warn(msg, IdentifierWarning)


def _check_declared(name: str, extra: list, vocab: Any) -> None:
    """SchemaError when column ``name`` holds values ``extra`` outside its declared
    categories ``vocab``."""
    if extra:
        msg = (
            f"column {name!r} has values {sorted(map(str, extra))} outside its declared "
            f"categories {list(vocab)}"
        )
        raise SchemaError(msg)
