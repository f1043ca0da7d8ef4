"""Steps of :class:`bayeskit.data.Schema` kept out of its module, which imports them from
here: each column's kind and vocabulary as :meth:`~bayeskit.data.Schema.infer` learns them,
the vocabularies grown by new data (:meth:`~bayeskit.data.Schema.extend`), and the features of
data selected and ordered as a schema reads them, numeric columns binned at given cut points
(:meth:`~bayeskit.data.Schema.binned`, :meth:`~bayeskit.data.Schema.bin_encoded`), and the
columns as a model file's JSON holds them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.data._columns import (
    _check_declared,
    _dtype_kind,
    _forced_categorical,
    _is_identifier,
    _sorted_vocabulary,
    _warn_numeric_identifier,
)
from bayeskit.data._int_codes import integer_vocabularies
from bayeskit.data.codes import category_key, code_dtype
from bayeskit.data.discretize import apply_cuts, bin_labels, cut_problem
from bayeskit.data.encode import _interleave, _key_index
from bayeskit.data.frames import _has_names, _plain, _refuse_temporal, as_frame, column_mismatch
from bayeskit.data.kinds import CATEGORICAL, NUMERIC, column_kind, number_kind
from bayeskit.exceptions import SchemaError

__all__ = [
    "binned_codes",
    "binned_columns",
    "column_kinds",
    "columns_from_json",
    "columns_json",
    "grown_vocabularies",
    "select_features",
]


def column_kinds(
    X: Any,
    frame: pd.DataFrame,
    names: list[str],
    categorical_features: Any,
    categories: Mapping[str, Sequence] | None,
) -> list[tuple[str, str, tuple | None]]:
    """``(name, kind, vocabulary)`` of each column of ``X`` (as ``frame``, its columns named
    ``names``) that :meth:`~bayeskit.data.Schema.infer` keeps as a feature, in order (the
    vocabulary None for a numeric one): the rules of :mod:`bayeskit.data.schema`."""
    forced = _forced_categorical(categorical_features, names)
    declared = dict(categories or {})
    unknown = sorted(set(map(str, declared)) - set(names))
    if unknown:
        msg = f"categories given for unknown columns {unknown}; known: {names}"
        raise SchemaError(msg)
    # integer arrays (codes): every column's vocabulary in one compiled pass
    fast = integer_vocabularies(X) if isinstance(X, np.ndarray) else None
    out: list[tuple[str, str, tuple | None]] = []
    for pos, (name, (_, s)) in enumerate(zip(names, frame.items(), strict=True)):
        s = s.rename(name)
        _refuse_temporal(s)
        if forced is None:
            kind = _dtype_kind(s)
        elif forced == "infer":
            kind = _dtype_kind(s)
            if kind == NUMERIC:
                kind = (
                    number_kind(len(s), len(fast[pos]), whole=True, integers=True)[0]
                    if fast is not None
                    else column_kind(s)[0]
                )
        else:
            kind = CATEGORICAL if name in forced else NUMERIC
            if kind == NUMERIC:
                _dtype_kind(s)  # refuse complex data early
        if name in declared:
            kind = CATEGORICAL
        if kind == NUMERIC and not (pd.api.types.is_numeric_dtype(s.dtype) or s.dtype == object):
            msg = (
                f"column {name!r} was declared numeric but has dtype {s.dtype}; "
                "convert it or declare it categorical"
            )
            raise SchemaError(msg)
        if kind == CATEGORICAL:
            if name in declared:
                vocab = tuple(_plain(v) for v in declared[name])
                if len(set(vocab)) != len(vocab):
                    msg = f"categories for column {name!r} repeat a value: {list(vocab)}"
                    raise SchemaError(msg)
                seen = set(_sorted_vocabulary(s))
                _check_declared(name, [v for v in seen if v not in set(vocab)], vocab)
            elif isinstance(s.dtype, pd.CategoricalDtype):
                vocab = tuple(_plain(v) for v in s.dtype.categories)
            elif fast is not None:
                vocab = fast[pos]
            else:
                vocab = _sorted_vocabulary(s)
            if name not in declared and _is_identifier(s, vocab):
                continue  # left out, and recorded in inputs
            out.append((name, CATEGORICAL, vocab))
        else:
            _warn_numeric_identifier(s)
            out.append((name, NUMERIC, None))
    return out


def select_features(schema: Any, X: Any) -> pd.DataFrame:
    """The features of ``X``, in ``schema``'s order, named as in ``schema``:
    :meth:`bayeskit.data.Schema._select`."""
    frame = as_frame(X)
    named = _has_names(X) and schema.input_names
    if schema.inputs and named:  # identifiers: left out wherever they are, if they are
        ignored = set(schema.ignored)
        keep = [c for c in frame.columns if str(c) not in ignored]
        if len(keep) < frame.shape[1]:
            frame = frame[keep]
    elif schema.inputs:  # by position: the columns given at fit, identifiers included
        if frame.shape[1] != len(schema.inputs):
            msg = (
                f"X has {frame.shape[1]} features, but the model was fitted with "
                f"{len(schema.inputs)} ({', '.join(schema.inputs)})"
            )
            raise SchemaError(msg)
        frame = frame.set_axis(list(schema.inputs), axis=1)[schema.names]
    if frame.shape[1] != len(schema.columns):
        msg = (
            f"X has {frame.shape[1]} features, but the model was fitted with "
            f"{len(schema.columns)} ({', '.join(schema.names)})"
        )
        raise SchemaError(msg)
    if named:  # names on both sides: matched by name
        got = [str(c) for c in frame.columns]
        frame = frame.set_axis(got, axis=1)
        if got != schema.names:
            missing = [n for n in schema.names if n not in got]
            extra = [n for n in got if n not in schema.names]
            if missing or extra:
                msg = column_mismatch(missing, extra)
                raise SchemaError(msg)
            frame = frame[schema.names]  # same names, other order: select by name
    else:
        frame = frame.set_axis(schema.names, axis=1)
    return frame


def grown_vocabularies(
    schema: Any, X: Any, declared: Mapping[Any, Any] | None
) -> tuple[list, dict[int, np.ndarray]]:
    """The columns of ``schema`` with the categories first seen in ``X`` added, and for each
    grown categorical position the new code of every old code:
    :meth:`bayeskit.data.Schema.extend`."""
    fixed = {str(k) for k in (declared or {})}
    frame = select_features(schema, X)
    new_columns = list(schema.columns)
    remap: dict[int, np.ndarray] = {}
    for pos, col in enumerate(schema.categorical):
        if col.cuts is not None:  # bins are fixed by the data the cut points were learned on
            continue
        s = frame[col.name]
        seen = _sorted_vocabulary(s)
        categories = col.categories or ()  # (a categorical column has a tuple)
        known = set(categories)
        keys = _key_index(categories)
        # a value that names a known category (the text "1" for 1) is no new category
        fresh = [v for v in seen if v not in known and category_key(v) not in keys]
        if not fresh:
            continue
        if col.name in fixed:
            _check_declared(col.name, fresh, col.categories)
        old = list(categories)
        if isinstance(s.dtype, pd.CategoricalDtype):
            vocab = tuple(old + fresh)
        else:
            try:
                vocab = tuple(sorted(old + fresh))
            except TypeError:
                vocab = tuple(sorted(old + fresh, key=lambda v: (type(v).__name__, str(v))))
        index = {v: i for i, v in enumerate(vocab)}
        remap[pos] = np.array([index[v] for v in old], dtype=np.int64)
        new_columns[schema._index[col.name]] = replace(col, categories=vocab)
    return new_columns, remap


def binned_columns(schema: Any, cuts: Sequence[Any]) -> tuple:
    """``schema``'s columns, the numeric ones binned at ``cuts`` (one array per numeric column):
    :meth:`bayeskit.data.Schema.binned`."""
    numeric = schema.numeric
    if len(cuts) != len(numeric):
        msg = f"cuts: {len(cuts)} arrays given for {len(numeric)} numeric columns"
        raise ValueError(msg)
    binned = {}
    for c, raw in zip(numeric, cuts, strict=True):
        at = np.asarray(raw, dtype=np.float64)
        problem = cut_problem(at)
        if problem is not None:
            msg = f"cuts of column {c.name!r} {problem}"
            raise ValueError(msg)
        labels = tuple(bin_labels(at))
        binned[c.name] = replace(c, kind=CATEGORICAL, categories=labels, cuts=tuple(at.tolist()))
    return tuple(binned.get(c.name, c) for c in schema.columns)


def binned_codes(schema: Any, enc: Any, binned: Any) -> np.ndarray:
    """The codes of every column of ``binned`` for rows ``schema`` encoded as ``enc``:
    :meth:`bayeskit.data.Schema.bin_encoded`."""
    if binned.names != schema.names or binned.numeric:
        msg = "binned must have this schema's columns, each categorical"
        raise ValueError(msg)
    code_columns, cat, num = [], 0, 0
    for mine, theirs in zip(schema.columns, binned.columns, strict=True):
        if mine.kind == CATEGORICAL:
            code_columns.append(enc.codes[:, cat])
            cat += 1
        else:
            code_columns.append(apply_cuts(enc.values[:, num], np.asarray(theirs.cuts)))
            num += 1
    dtype = code_dtype(max((c.n_states for c in binned.columns), default=1))
    return _interleave(code_columns, enc.n_samples, dtype)


def columns_json(columns: Sequence[Any]) -> list[dict]:
    """The columns as :meth:`bayeskit.data.Schema.to_dict` writes them."""
    return [
        {
            "name": c.name,
            "kind": c.kind,
            "categories": _json_list(c.categories),
            "cuts": None if c.cuts is None else list(c.cuts),
        }
        for c in columns
    ]


def columns_from_json(columns: Any, make: Any) -> list:
    """The columns :func:`columns_json` wrote, each made by ``make(name, kind, categories,
    cuts)``: :meth:`bayeskit.data.Schema.from_dict`."""
    cols = []
    for c in columns:
        if c["kind"] not in (CATEGORICAL, NUMERIC):
            msg = f"column {c['name']!r} has unknown kind {c['kind']!r}"
            raise SchemaError(msg)
        cats = None if c["categories"] is None else tuple(c["categories"])
        cuts = c.get("cuts")
        cuts = None if cuts is None else tuple(float(v) for v in cuts)
        cols.append(make(str(c["name"]), c["kind"], cats, cuts))
    return cols


def _json_list(cats: tuple | None) -> list | None:
    if cats is None:
        return None
    for v in cats:
        if not isinstance(v, (str, int, float, bool)):
            msg = f"category {v!r} of type {type(v).__name__} cannot be saved"
            raise SchemaError(msg)
    return list(cats)
