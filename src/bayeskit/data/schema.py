"""The schema of a data set: which columns are categorical (with their vocabularies) or numeric.

`Schema` is the only object in bayeskit that knows about pandas, strings and dtypes. It is learned
at fit and turns any accepted input (a pandas DataFrame, a 2-D numpy array, a list of dicts) into an
:class:`Encoded` pair of arrays that the layers below work on:

* ``codes``: integer codes of the categorical columns, shape ``(n_samples, n_categorical)``, the
  smallest signed integer dtype that holds the largest vocabulary; ``-1`` marks a missing value.
* ``values``: the numeric columns as ``float64``, shape ``(n_samples, n_numeric)``; ``NaN`` marks a
  missing value.

Kinds are inferred by a documented rule, which a user can override column by column:

* ``categorical_features=None`` (the dtype rule): pandas ``category``, ``object``, ``string`` and
  ``bool`` columns are categorical; every numeric dtype is numeric. In a numpy ``object`` array a
  column whose values are all real numbers is numeric, anything else categorical.
* ``categorical_features="infer"``: the dtype rule, and also whole numbers with at most 10
  distinct values, or integers with at most 50 seen 20 times each on average (integer codes),
  are categorical: :mod:`bayeskit.data.kinds`, the rule the command line applies to CSV files
  (which carry no dtypes), with the same thresholds.
* ``categorical_features="all"`` or a list of names / positions / a boolean mask: exactly those.

Identifiers: a categorical column whose values are all distinct (at least 20 rows; for text, all
but 1 in 100) is left out of the model with an :class:`~bayeskit.exceptions.IdentifierWarning`
that names it, and recorded (:attr:`Schema.ignored`), so that encoding later data leaves it out
too (and does not need it). Declare its categories (``categories={"id": [...]}``) to keep it. A
numeric column of distinct whole numbers is kept, with the same warning.

Vocabularies: a pandas ``category`` column keeps its dtype's categories in their order (so a
declared domain with unused values is honoured); any other categorical column gets its sorted
distinct values. ``categories={"color": [0, 1, 2, 3]}`` declares a domain explicitly. A value is
matched to a category by equality, and failing that by its canonical key
(:func:`bayeskit.data.codes.category_key`), so the text ``"TRUE"`` finds a category learnt as
``True``, ``"1"`` one learnt as ``1`` or ``1.0``, and the other way round: the same file gives
the same codes read by ``pandas.read_csv`` or as text.

Discretization: :meth:`Schema.discretize` turns numeric columns into categorical ones whose
categories are bins, with cut points learned on the training data only (supervised MDL by default,
or equal width / equal frequency) and stored in the schema. Values outside the training range fall
in the end bins; a missing value stays missing. Models that need categorical data do this
automatically through their ``discretize`` parameter.

At predict time a category not seen in fit is treated as missing (``handle_unknown="missing"``,
the default), optionally with an :class:`~bayeskit.exceptions.UnknownCategoryWarning`
(``"warn"``), or refused (``"error"``). Infinite numeric values are refused; NaN is missing.
Messages name a row by its 0-based position (:mod:`bayeskit.data.rows`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._warnings import warn
from bayeskit.data._int_codes import integer_codes, integer_vocabularies
from bayeskit.data.codes import category_key, category_keys, code_dtype
from bayeskit.data.discretize import Discretizer, apply_cuts
from bayeskit.data.kinds import (
    MIN_IDENTIFIER_ROWS,
    column_kind,
    identifier_reason,
    number_kind,
    numeric_identifier_reason,
)
from bayeskit.data.rows import row_name
from bayeskit.exceptions import IdentifierWarning, SchemaError, UnknownCategoryWarning

__all__ = ["Column", "Encoded", "Schema", "as_frame", "category_codes", "is_records"]

CATEGORICAL = "categorical"
NUMERIC = "numeric"
HANDLE_UNKNOWN = ("missing", "warn", "error")


@dataclass(frozen=True)
class Column:
    """One column of a schema.

    Attributes
    ----------
    name : str
        The column's name (``"x0"``, ``"x1"``, ... for arrays without names).
    kind : {"categorical", "numeric"}
    categories : tuple or None
        The vocabulary of a categorical column, in code order.
    cuts : tuple of float or None
        For a numeric column binned into a categorical one: the sorted inner cut points of its
        right-closed bins (see :mod:`bayeskit.data.discretize`); ``categories`` then holds the
        bins' labels, such as ``"(5.2, 6.1]"``.
    """

    name: str
    kind: str
    categories: tuple | None = None
    cuts: tuple[float, ...] | None = None

    @property
    def n_states(self) -> int:
        return 0 if self.categories is None else len(self.categories)


@dataclass(frozen=True)
class Encoded:
    """Encoded data: categorical codes (-1 = missing) and numeric values (NaN = missing)."""

    codes: np.ndarray
    values: np.ndarray

    @property
    def n_samples(self) -> int:
        return self.codes.shape[0]


def as_frame(X: Any, names: Sequence[str] | None = None) -> pd.DataFrame:
    """Turn accepted input into a DataFrame without copying numeric data where possible.

    Accepts a DataFrame (returned as is), a 2-D array-like, or a list of dicts (one per row).
    Arrays get the column names ``x0, x1, ...`` unless ``names`` is given.

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
    except TypeError as exc:
        bad = next(v for v in s if not _hashable(v))
        msg = (
            f"column {s.name!r} value {bad!r}: argument must be a string or a number "
            f"(a hashable category), got {type(bad).__name__}"
        )
        raise TypeError(msg) from exc
    try:
        uniq = sorted(uniq)
    except TypeError:  # mixed types (e.g. 1 and "a"): order by text, then by type name
        uniq = sorted(uniq, key=lambda v: (type(v).__name__, str(v)))
    return tuple(_plain(v) for v in uniq)


def _is_missing(v: Any) -> bool:
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):  # a list or an array in a cell is not "missing"
        return False


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _plain(v: Any) -> Any:
    """numpy scalars to Python scalars, so vocabularies serialise to JSON and compare simply."""
    return v.item() if isinstance(v, np.generic) else v


@dataclass(frozen=True)
class Schema:
    """Columns, their kinds and vocabularies, learned at fit.

    Parameters
    ----------
    columns : tuple of Column
        The features, in the order of the training data.
    input_names : bool
        Whether the training data carried column names (a DataFrame or a list of dicts).
    inputs : tuple of str
        Every column of the training data, in order, when some are not features (identifiers:
        :attr:`ignored`); empty when every column is one.

    Examples
    --------
    >>> X = pd.DataFrame({"color": ["red", "blue", "red"], "size": [1.5, 2.0, 0.5]})
    >>> schema = Schema.infer(X)
    >>> [(c.name, c.kind, c.categories) for c in schema.columns]
    [('color', 'categorical', ('blue', 'red')), ('size', 'numeric', None)]
    >>> enc = schema.encode(X)
    >>> enc.codes.ravel().tolist(), enc.values.ravel().tolist()
    ([1, 0, 1], [1.5, 2.0, 0.5])
    """

    columns: tuple[Column, ...]
    input_names: bool = True
    inputs: tuple[str, ...] = ()
    _index: dict = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {c.name: i for i, c in enumerate(self.columns)})

    # ------------------------------------------------------------------ views
    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def ignored(self) -> tuple[str, ...]:
        """The columns of the training data left out of the model (identifiers), in order."""
        return tuple(n for n in self.inputs if n not in self._index)

    @property
    def categorical(self) -> list[Column]:
        return [c for c in self.columns if c.kind == CATEGORICAL]

    @property
    def numeric(self) -> list[Column]:
        return [c for c in self.columns if c.kind == NUMERIC]

    @property
    def n_states(self) -> np.ndarray:
        """Vocabulary sizes of the categorical columns, in code order."""
        return np.array([c.n_states for c in self.categorical], dtype=np.int64)

    def column(self, name: str) -> Column:
        try:
            return self.columns[self._index[name]]
        except KeyError:
            msg = f"unknown column {name!r}; known: {', '.join(map(repr, self.names))}"
            raise SchemaError(msg) from None

    # ------------------------------------------------------------------ learning
    @classmethod
    def infer(
        cls,
        X: Any,
        *,
        categorical_features: Any = None,
        categories: Mapping[str, Sequence] | None = None,
    ) -> Schema:
        """Learn kinds and vocabularies from training data (the rules: the module docstring).

        Warns
        -----
        IdentifierWarning
            For a column that looks like an identifier, naming it: a categorical one is left
            out (recorded in :attr:`ignored`), a numeric one kept.
        """
        frame = as_frame(X)
        if frame.shape[0] == 0:
            msg = f"X has 0 samples (shape {frame.shape}); at least one is required"
            raise SchemaError(msg)
        if frame.shape[1] == 0:
            msg = f"X has 0 features (shape {frame.shape}); at least one is required"
            raise SchemaError(msg)
        names = [str(c) for c in frame.columns]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            msg = f"X has duplicate column names: {dup}"
            raise SchemaError(msg)
        forced = _forced_categorical(categorical_features, names)
        declared = dict(categories or {})
        unknown = sorted(set(map(str, declared)) - set(names))
        if unknown:
            msg = f"categories given for unknown columns {unknown}; known: {names}"
            raise SchemaError(msg)
        # integer arrays (codes): every column's vocabulary in one compiled pass
        fast = integer_vocabularies(X) if isinstance(X, np.ndarray) else None
        columns = []
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
            if kind == NUMERIC and not (
                pd.api.types.is_numeric_dtype(s.dtype) or s.dtype == object
            ):
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
                columns.append(Column(name, CATEGORICAL, vocab))
            else:
                _warn_numeric_identifier(s)
                columns.append(Column(name, NUMERIC))
        inputs = tuple(names) if len(columns) < len(names) else ()
        if not columns:
            msg = (
                f"X has no feature left: every column looks like an identifier "
                f"({', '.join(map(repr, names))}); declare the categories of those to use"
            )
            raise SchemaError(msg)
        return cls(tuple(columns), input_names=_has_names(X), inputs=inputs)

    def extend(
        self, X: Any, declared: Mapping[Any, Any] | None = None
    ) -> tuple[Schema, dict[int, np.ndarray]]:
        """Grow the vocabularies with categories first seen in ``X`` (for ``partial_fit``).

        Returns the new schema and, for each categorical position whose vocabulary grew, the new
        code of every old code (so count tables can be re-laid out). Sorted vocabularies stay
        sorted, so chunk-by-chunk learning ends with the same vocabulary as one fit. A column
        whose categories were ``declared`` (the model's ``categories``) does not grow: a value
        outside them is a SchemaError, as in :meth:`infer`.
        """
        fixed = {str(k) for k in (declared or {})}
        frame = self._select(X)
        new_columns = list(self.columns)
        remap: dict[int, np.ndarray] = {}
        for pos, col in enumerate(self.categorical):
            if col.cuts is not None:  # bins are fixed by the data the cut points were learned on
                continue
            s = frame[col.name]
            seen = _sorted_vocabulary(s)
            known = set(col.categories)
            keys = _key_index(col.categories)
            # a value that names a known category (the text "1" for 1) is no new category
            fresh = [v for v in seen if v not in known and category_key(v) not in keys]
            if not fresh:
                continue
            if col.name in fixed:
                _check_declared(col.name, fresh, col.categories)
            old = list(col.categories)
            if isinstance(s.dtype, pd.CategoricalDtype):
                vocab = tuple(old + fresh)
            else:
                try:
                    vocab = tuple(sorted(old + fresh))
                except TypeError:
                    vocab = tuple(sorted(old + fresh, key=lambda v: (type(v).__name__, str(v))))
            index = {v: i for i, v in enumerate(vocab)}
            remap[pos] = np.array([index[v] for v in old], dtype=np.int64)
            new_columns[self._index[col.name]] = replace(col, categories=vocab)
        return replace(self, columns=tuple(new_columns)), remap

    # ------------------------------------------------------------------ encoding
    def _select(self, X: Any) -> pd.DataFrame:
        """The features of ``X``, in the schema's order, named as in the schema; the ignored
        columns (identifiers) left out, and not needed where columns are matched by name."""
        frame = as_frame(X)
        named = _has_names(X) and self.input_names
        if self.inputs and named:  # identifiers: left out wherever they are, if they are
            ignored = set(self.ignored)
            keep = [c for c in frame.columns if str(c) not in ignored]
            if len(keep) < frame.shape[1]:
                frame = frame[keep]
        elif self.inputs:  # by position: the columns given at fit, identifiers included
            if frame.shape[1] != len(self.inputs):
                msg = (
                    f"X has {frame.shape[1]} features, but the model was fitted with "
                    f"{len(self.inputs)} ({', '.join(self.inputs)})"
                )
                raise SchemaError(msg)
            frame = frame.set_axis(list(self.inputs), axis=1)[self.names]
        if frame.shape[1] != len(self.columns):
            msg = (
                f"X has {frame.shape[1]} features, but the model was fitted with "
                f"{len(self.columns)} ({', '.join(self.names)})"
            )
            raise SchemaError(msg)
        if named:  # names on both sides: matched by name
            got = [str(c) for c in frame.columns]
            frame = frame.set_axis(got, axis=1)
            if got != self.names:
                missing = [n for n in self.names if n not in got]
                extra = [n for n in got if n not in self.names]
                if missing or extra:
                    msg = column_mismatch(missing, extra)
                    raise SchemaError(msg)
                frame = frame[self.names]  # same names, other order: select by name
        else:
            frame = frame.set_axis(self.names, axis=1)
        return frame

    def encode(self, X: Any, *, handle_unknown: str = "missing") -> Encoded:
        """Encode data into categorical codes and numeric values (see :class:`Encoded`).

        Raises
        ------
        SchemaError
            Columns differ from fit, a numeric column holds text or infinity, or (with
            ``handle_unknown="error"``) a category was not seen in fit.
        """
        if handle_unknown not in HANDLE_UNKNOWN:
            msg = f"handle_unknown must be one of {HANDLE_UNKNOWN}, got {handle_unknown!r}"
            raise ValueError(msg)
        frame = self._select(X)
        n = frame.shape[0]
        cats, nums = self.categorical, self.numeric
        dtype = code_dtype(max((c.n_states for c in cats), default=1))
        if isinstance(X, np.ndarray) and not nums and all(c.cuts is None for c in cats):
            # integer codes: one compiled pass (the general path below words any message)
            fast = integer_codes(X, [c.categories for c in cats], dtype)
            if fast is not None and (fast[1] == 0 or handle_unknown == "missing"):
                return Encoded(fast[0], np.empty((n, 0), dtype=np.float64))
        code_columns = []
        for col in cats:
            if col.cuts is not None:
                values_j = _encode_numeric(frame[col.name], col.name)
                code_columns.append(apply_cuts(values_j, np.asarray(col.cuts, dtype=np.float64)))
            else:
                code_columns.append(_encode_categorical(frame[col.name], col, handle_unknown))
        codes = _interleave(code_columns, n, dtype)
        values = _float64_block(frame, [c.name for c in nums])
        if values is None:
            values = np.empty((n, len(nums)), dtype=np.float64)
            for j, col in enumerate(nums):
                values[:, j] = _encode_numeric(frame[col.name], col.name)
        return Encoded(codes, values)

    # ------------------------------------------------------------------ discretization
    def discretize(
        self,
        X: Any,
        y: np.ndarray | None = None,
        n_classes: int | None = None,
        *,
        method: str = "mdl",
        n_bins: int = 5,
        sample_weight: np.ndarray | None = None,
    ) -> Schema:
        """A schema whose numeric columns are binned into categorical ones.

        Cut points are learned from ``X`` (and the class codes ``y`` for ``method="mdl"``,
        Fayyad and Irani 1993); see :class:`bayeskit.data.discretize.Discretizer`.

        Examples
        --------
        >>> X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0]})
        >>> s = Schema.infer(X).discretize(X, np.array([0, 0, 0, 1, 1, 1]), 2)
        >>> s.column("x").cuts, s.column("x").categories
        ((6.5,), ('(-inf, 6.5]', '(6.5, inf)'))
        >>> s.encode(pd.DataFrame({"x": [0.0, 7.0, np.nan]})).codes.ravel().tolist()
        [0, 1, -1]
        """
        numeric = self.numeric
        if not numeric:
            return self
        frame = self._select(X)
        values = np.column_stack([_encode_numeric(frame[c.name], c.name) for c in numeric])
        disc = Discretizer(method, n_bins).fit(values, y, n_classes, sample_weight)
        binned = {
            c.name: Column(
                c.name, CATEGORICAL, tuple(disc.bin_labels(j)), tuple(disc.cuts_[j].tolist())
            )
            for j, c in enumerate(numeric)
        }
        return replace(self, columns=tuple(binned.get(c.name, c) for c in self.columns))

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        extra = {"inputs": list(self.inputs)} if self.inputs else {}
        return {
            "input_names": self.input_names,
            **extra,
            "columns": [
                {
                    "name": c.name,
                    "kind": c.kind,
                    "categories": _json_list(c.categories),
                    "cuts": None if c.cuts is None else list(c.cuts),
                }
                for c in self.columns
            ],
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> Schema:
        cols = []
        for c in d["columns"]:
            if c["kind"] not in (CATEGORICAL, NUMERIC):
                msg = f"column {c['name']!r} has unknown kind {c['kind']!r}"
                raise SchemaError(msg)
            cats = None if c["categories"] is None else tuple(c["categories"])
            cuts = c.get("cuts")
            cuts = None if cuts is None else tuple(float(v) for v in cuts)
            cols.append(Column(str(c["name"]), c["kind"], cats, cuts))
        inputs = tuple(str(n) for n in d.get("inputs") or ())
        return cls(tuple(cols), input_names=bool(d["input_names"]), inputs=inputs)


def _json_list(cats: tuple | None) -> list | None:
    if cats is None:
        return None
    for v in cats:
        if not isinstance(v, (str, int, float, bool)):
            msg = f"category {v!r} of type {type(v).__name__} cannot be saved"
            raise SchemaError(msg)
    return list(cats)


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


def _encode_categorical(s: pd.Series, col: Column, handle_unknown: str) -> np.ndarray:
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype) and tuple(dt.categories) == col.categories:
        return s.array.codes  # fast path: already coded in our vocabulary (a view, no copy)
    codes = None
    if pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt):
        if not pd.api.types.is_complex_dtype(dt):
            codes = _numeric_codes(s.to_numpy(dtype=None, na_value=np.nan), col.categories)
    if codes is None:
        try:
            codes = pd.Index(list(col.categories), dtype=object).get_indexer(s.astype(object))
        except TypeError as exc:
            msg = f"column {col.name!r}: {exc}"
            raise TypeError(msg) from exc
    present = s.notna().to_numpy()
    unknown = (codes < 0) & present
    if unknown.any():  # not equal to a category: matched by canonical key (module docstring)
        codes = _match_keys(s, unknown, col.categories, codes)
        unknown = (codes < 0) & present
    if unknown.any():
        bad = sorted({str(v) for v in s[unknown]})[:5]
        if handle_unknown == "error":
            known = ", ".join(map(repr, col.categories[:10]))
            msg = (
                f"column {col.name!r} has categories {bad} not seen in fit (known: {known}); "
                "pass handle_unknown='missing' to treat them as missing"
            )
            raise SchemaError(msg)
        if handle_unknown == "warn":
            msg = f"column {col.name!r} has categories {bad} not seen in fit; treated as missing"
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
    column = Column(str(s.name), CATEGORICAL, tuple(categories))
    return np.asarray(_encode_categorical(s, column, "missing"), dtype=np.int64)


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


def _check_declared(name: str, extra: list, vocab: Any) -> None:
    """SchemaError when column ``name`` holds values ``extra`` outside its declared
    categories ``vocab``."""
    if extra:
        msg = (
            f"column {name!r} has values {sorted(map(str, extra))} outside its declared "
            f"categories {list(vocab)}"
        )
        raise SchemaError(msg)
