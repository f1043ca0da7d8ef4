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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.data._int_codes import integer_codes
from bayeskit.data._schema_steps import (
    binned_codes,
    binned_columns,
    column_kinds,
    columns_from_json,
    columns_json,
    grown_vocabularies,
    select_features,
)
from bayeskit.data.codes import code_dtype
from bayeskit.data.discretize import Discretizer
from bayeskit.data.encode import (
    _encode_numeric,
    category_codes,
    encode_columns,
)
from bayeskit.data.frames import (
    _has_names,
    as_frame,
    is_records,
)
from bayeskit.data.frames import (  # other packages import these from here too
    column_mismatch as column_mismatch,
)
from bayeskit.data.frames import (
    is_temporal_value as is_temporal_value,
)
from bayeskit.data.frames import (
    refuse_bool_number_mix as refuse_bool_number_mix,
)
from bayeskit.data.kinds import CATEGORICAL, NUMERIC
from bayeskit.exceptions import SchemaError

__all__ = ["Column", "Encoded", "Schema", "as_frame", "category_codes", "is_records"]

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

    Examples
    --------
    >>> import pandas as pd
    >>> schema = Schema.infer(pd.DataFrame({"outlook": ["sun", "rain"], "temp": [30.0, 12.0]}))
    >>> schema.column("outlook")
    Column(name='outlook', kind='categorical', categories=('rain', 'sun'), cuts=None)
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
    """Encoded data: categorical codes (-1 = missing) and numeric values (NaN = missing).

    Attributes
    ----------
    codes : ndarray of shape (n_samples, n_categorical)
        Each categorical column's codes, in the schema's order of categorical columns, in the
        smallest integer type that holds them.
    values : ndarray of shape (n_samples, n_numeric)
        Each numeric column's values (float64).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"outlook": ["sun", "rain", None], "temp": [30.0, 12.0, None]})
    >>> encoded = Schema.infer(X).encode(X)
    >>> encoded.codes.ravel().tolist(), encoded.values.ravel().tolist(), encoded.n_samples
    ([1, 0, -1], [30.0, 12.0, nan], 3)
    """

    codes: np.ndarray
    values: np.ndarray

    @property
    def n_samples(self) -> int:
        return self.codes.shape[0]


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
    _index: dict = field(default_factory=dict, compare=False, repr=False)  # (__post_init__)

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
        """The column named ``name``.

        Parameters
        ----------
        name : str
            The column's name (``"x0"``, ``"x1"``, ... for data fitted without names).

        Returns
        -------
        column : Column
            Its kind, vocabulary and (for a binned numeric column) cut points.

        Raises
        ------
        SchemaError
            If the schema has no such column; the message lists the known ones.

        Examples
        --------
        >>> schema = Schema.infer(pd.DataFrame({"color": ["red", "blue"], "size": [1.5, 2.0]}))
        >>> schema.column("color")
        Column(name='color', kind='categorical', categories=('blue', 'red'), cuts=None)
        """
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

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The training data; at least one row and one column, column names distinct.
        categorical_features : None, "infer", "all", list of str or int, or array of bool
            Which columns are categorical: None (the default) by the dtype rule, ``"infer"``
            by the dtype rule plus the rule for integer codes, ``"all"`` every column, or
            exactly the columns listed (by name or position) or masked.
        categories : mapping of str to sequence, optional
            Declared vocabularies, column name -> its categories in code order; such a column
            is categorical, and a value outside its categories is refused.

        Returns
        -------
        schema : Schema
            The features (identifier columns left out), each with its kind and vocabulary.

        Raises
        ------
        SchemaError
            If ``X`` has no row, no column or repeated column names; ``categories`` names an
            unknown column, repeats a value or misses one the data hold; a column holds dates,
            durations or complex numbers, or one declared numeric is not numbers; or every column
            looks like an identifier.

        Warns
        -----
        IdentifierWarning
            For a column that looks like an identifier, naming it: a categorical one is left
            out (recorded in :attr:`ignored`), a numeric one kept.

        Examples
        --------
        >>> X = pd.DataFrame({"color": ["red", "blue", "red"], "size": [1.5, 2.0, 0.5]})
        >>> [(c.name, c.kind) for c in Schema.infer(X).columns]
        [('color', 'categorical'), ('size', 'numeric')]
        >>> Schema.infer(X, categories={"color": ["red", "green", "blue"]}).column("color")
        Column(name='color', kind='categorical', categories=('red', 'green', 'blue'), cuts=None)
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
        columns = [
            Column(name, kind, vocab)
            for name, kind, vocab in column_kinds(X, frame, names, categorical_features, categories)
        ]
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

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            New data, with the schema's features.
        declared : mapping, optional
            The columns whose categories were declared (column name -> categories): their
            vocabularies are fixed.

        Returns
        -------
        schema : Schema
            The schema with grown vocabularies (this one is unchanged).
        remap : dict of int to ndarray
            For each grown categorical column, by its position among the categorical
            columns: the new code of each old code.

        Raises
        ------
        SchemaError
            If ``X`` does not have the schema's features, or a declared column gets a value
            outside its categories.

        Examples
        --------
        >>> schema = Schema.infer(pd.DataFrame({"color": ["red", "blue"]}))
        >>> grown, remap = schema.extend(pd.DataFrame({"color": ["green"]}))
        >>> grown.column("color").categories, remap[0].tolist()
        (('blue', 'green', 'red'), [0, 2])
        """
        new_columns, remap = grown_vocabularies(self, X, declared)
        return replace(self, columns=tuple(new_columns)), remap

    # ------------------------------------------------------------------ encoding
    def _select(self, X: Any) -> pd.DataFrame:
        """The features of ``X``, in the schema's order, named as in the schema; the ignored
        columns (identifiers) left out, and not needed where columns are matched by name."""
        return select_features(self, X)

    def encode(self, X: Any, *, handle_unknown: str = "missing") -> Encoded:
        """Encode data into categorical codes and numeric values (see :class:`Encoded`).

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            Data with the schema's features (matched by name where both have names, else by
            position); identifier columns left out at fit are not needed.
        handle_unknown : {"missing", "warn", "error"}, default="missing"
            What a category not in the vocabulary becomes: missing (code -1), missing with
            an :class:`~bayeskit.exceptions.UnknownCategoryWarning`, or a SchemaError.

        Returns
        -------
        encoded : Encoded
            ``codes`` of shape ``(n_samples, n_categorical)`` and ``values`` of shape
            ``(n_samples, n_numeric)``, columns in the schema's order of each kind.

        Raises
        ------
        SchemaError
            Columns differ from fit, a numeric column holds text or infinity, or (with
            ``handle_unknown="error"``) a category was not seen in fit.
        ValueError
            If ``handle_unknown`` is not one of the three below.

        Examples
        --------
        >>> schema = Schema.infer(pd.DataFrame({"color": ["red", "blue"], "size": [1.5, 2.0]}))
        >>> enc = schema.encode(pd.DataFrame({"color": ["blue", "green"], "size": [1.0, None]}))
        >>> enc.codes.tolist(), enc.values.tolist()  # green: unseen, so missing
        ([[0], [-1]], [[1.0], [nan]])
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
            fast = integer_codes(X, [c.categories or () for c in cats], dtype)
            if fast is not None and (fast[1] == 0 or handle_unknown == "missing"):
                return Encoded(fast[0], np.empty((n, 0), dtype=np.float64))
        return Encoded(*encode_columns(frame, cats, nums, handle_unknown, dtype))

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

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The training data, with the schema's features.
        y : ndarray of int, shape (n_samples,), optional
            Class codes; required by ``method="mdl"``.
        n_classes : int, optional
            Number of classes (default ``y.max() + 1``); only for ``"mdl"``.
        method : {"mdl", "equal-width", "equal-frequency"}, default="mdl"
            How the cut points are chosen.
        n_bins : int, default=5
            Bins of the unsupervised methods (``"mdl"`` chooses its own number).
        sample_weight : ndarray of float, shape (n_samples,), optional
            Non-negative row weights (used by ``"mdl"`` and ``"equal-frequency"``).

        Returns
        -------
        schema : Schema
            A new schema whose numeric columns are categorical, their categories the bins'
            labels and ``cuts`` the cut points; this schema itself when it has no numeric
            column.

        Raises
        ------
        ValueError
            If ``method`` or ``n_bins`` is invalid, a value is infinite, or ``"mdl"`` gets no
            valid ``y``.

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
        return self.binned(disc.cuts_)

    def binned(self, cuts: Sequence[Any]) -> Schema:
        """This schema with its numeric columns binned at given cut points.

        Parameters
        ----------
        cuts : sequence of array-like of float
            Strictly increasing inner cut points, an array per numeric column, in order.

        Returns
        -------
        schema : Schema
            The numeric columns categorical, of categories the bins' labels.

        Raises
        ------
        ValueError
            If ``cuts`` are not one finite, strictly increasing array per numeric column.

        Examples
        --------
        >>> s = Schema.infer(pd.DataFrame({"x": [1.0, 7.0], "c": ["a", "b"]})).binned([[2.5]])
        >>> [(c.name, c.kind, c.categories) for c in s.columns]
        [('x', 'categorical', ('(-inf, 2.5]', '(2.5, inf)')), ('c', 'categorical', ('a', 'b'))]
        """
        return replace(self, columns=binned_columns(self, cuts))

    def bin_encoded(self, enc: Encoded, binned: Schema) -> Encoded:
        """Rows this schema encoded (``enc``), as ``binned`` (this schema, numeric columns
        binned by :meth:`binned`) encodes them, without reading the data again.

        Parameters
        ----------
        enc, binned : Encoded, Schema

        Returns
        -------
        encoded : Encoded
            ``codes`` of every column of ``binned``, in its order; no numeric values.

        Raises
        ------
        ValueError
            If ``binned`` has other columns, or still a numeric one.

        Examples
        --------
        >>> X = pd.DataFrame({"x": [1.0, 7.0, None], "c": ["a", "b", "a"]})
        >>> s = Schema.infer(X)
        >>> s.bin_encoded(s.encode(X), s.binned([[2.5]])).codes.tolist()
        [[0, 0], [1, 1], [-1, 0]]
        """
        codes = binned_codes(self, enc, binned)
        return Encoded(codes, np.empty((enc.n_samples, 0), dtype=np.float64))

    # ------------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        """The schema as plain JSON-compatible data, as a model file stores it.

        Returns
        -------
        data : dict
            ``input_names``, ``inputs`` (only when identifier columns were left out) and
            ``columns``: one dict per feature with its ``name``, ``kind``, ``categories`` and
            ``cuts`` (None where absent). :meth:`from_dict` reads it back.

        Raises
        ------
        SchemaError
            If a category is not a str, int, float or bool (JSON could not hold it).

        Examples
        --------
        >>> schema = Schema.infer(pd.DataFrame({"color": ["red", "blue"]}))
        >>> schema.to_dict()
        {'input_names': True, 'columns': [{'name': 'color', 'kind': 'categorical',
         'categories': ['blue', 'red'], 'cuts': None}]}
        >>> Schema.from_dict(schema.to_dict()) == schema
        True
        """
        extra = {"inputs": list(self.inputs)} if self.inputs else {}
        return {"input_names": self.input_names, **extra, "columns": columns_json(self.columns)}

    @classmethod
    def from_dict(cls, d: Mapping) -> Schema:
        """The schema that :meth:`to_dict` wrote.

        Parameters
        ----------
        d : mapping
            ``input_names``, optionally ``inputs``, and ``columns``, each a mapping with
            ``name``, ``kind`` (``"categorical"`` or ``"numeric"``), ``categories`` and
            optionally ``cuts``.

        Returns
        -------
        schema : Schema
            The schema described, equal to the one written.

        Raises
        ------
        SchemaError
            If a column's kind is neither categorical nor numeric.

        Examples
        --------
        >>> Schema.from_dict({"input_names": False, "columns": [
        ...     {"name": "x0", "kind": "numeric", "categories": None}]}).columns
        (Column(name='x0', kind='numeric', categories=None, cuts=None),)
        """
        cols = columns_from_json(d["columns"], Column)
        inputs = tuple(str(n) for n in d.get("inputs") or ())
        return cls(tuple(cols), input_names=bool(d["input_names"]), inputs=inputs)
