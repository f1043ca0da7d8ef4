"""Column kinds: the one rule that says whether a column is categorical or numeric, and which
columns are identifiers, for data given in Python and for files read by the command line.

The kind rule (``categorical_features="infer"`` in Python; the only rule of ``bayeskit`` for
CSV files, shown by ``bayeskit schema``):

* text, booleans and pandas categoricals are categorical;
* a column of numbers is numeric, except whole numbers with at most :data:`FEW_VALUES` (10)
  distinct values, or integers with at most :data:`MAX_CODES` (50) distinct values seen
  :data:`ROWS_PER_CODE` (20) times each on average (integer codes), which are categorical.
  Integers: an integer column; in a file, one whose every cell is written without a decimal
  point. ``13.0`` marks a measurement (PMLB, and the UCI files it copies, write them so), but
  ``pandas.read_csv`` reads an integer column with a missing cell as floats, so a float column
  with missing values whose values are all whole counts as integers too.

The command line types a CSV file's text cells as ``pandas.read_csv`` does
(:func:`read_text_column`: ``TRUE``/``FALSE`` cells are booleans, numbers are numbers, a column
with any other text stays text) and then applies this rule, so a file gets the same kinds read
either way, and ``categorical_features="infer"`` on ``pandas.read_csv(file)`` gives the command
line's model.

Identifiers (:func:`identifier_reason`): a categorical column whose values are all distinct
(:data:`MIN_IDENTIFIER_ROWS` (20) rows at least; for text, all but 1 in 100) names rows rather
than describing them: each category is seen once, so it tells nothing about a new row, and it
harms the models that choose a structure from the data (it has the highest mutual information
with everything). :meth:`bayeskit.data.Schema.infer` leaves such a column out of the model with
an :class:`~bayeskit.exceptions.IdentifierWarning` and records it, so that predicting ignores
it too; a column whose categories are declared (``categories={...}``) is kept. A numeric column
of distinct whole numbers is kept, with the same warning.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "CATEGORICAL",
    "FEW_VALUES",
    "MAX_CODES",
    "MIN_IDENTIFIER_ROWS",
    "NUMERIC",
    "ROWS_PER_CODE",
    "column_kind",
    "continuous_columns",
    "identifier_reason",
    "number_kind",
    "numeric_identifier_reason",
    "read_text_column",
]

CATEGORICAL = "categorical"
NUMERIC = "numeric"

FEW_VALUES = 10  #: whole numbers with at most this many distinct values are categorical
MAX_CODES = 50  #: integer codes: at most this many distinct whole numbers ...
ROWS_PER_CODE = 20  #: ... each seen this many times on average
MIN_IDENTIFIER_ROWS = 20  #: the fewest rows (values) in which all-distinct values are an identifier

#: The cells ``pandas.read_csv`` reads as booleans (its default ``true_values``/``false_values``).
_TRUE = frozenset({"True", "TRUE", "true"})
_FALSE = frozenset({"False", "FALSE", "false"})


def number_kind(n_values: int, n_distinct: int, *, whole: bool, integers: bool) -> tuple[str, str]:
    """The kind of a column of ``n_values`` numbers (missing ones left out) with
    ``n_distinct`` distinct values, ``whole`` if every one is a whole number, ``integers`` if
    the column holds integers (module docstring); and why.

    Examples
    --------
    >>> number_kind(100, 3, whole=True, integers=False)
    ('categorical', '3 distinct whole numbers (at most 10)')
    >>> number_kind(1000, 40, whole=True, integers=True)[0]
    'categorical'
    >>> number_kind(100, 40, whole=True, integers=True)[0]
    'numeric'
    >>> number_kind(1000, 40, whole=True, integers=False)  # written 13.0: measurements
    ('numeric', 'numbers (40 distinct)')
    """
    if n_values and whole:
        if n_distinct <= FEW_VALUES:
            return CATEGORICAL, f"{n_distinct} distinct whole numbers (at most {FEW_VALUES})"
        if integers and n_distinct <= MAX_CODES and n_values >= ROWS_PER_CODE * n_distinct:
            return CATEGORICAL, (
                f"integer codes: {n_distinct} distinct values (at most {MAX_CODES}), "
                f"{n_values // n_distinct} rows each on average (at least {ROWS_PER_CODE})"
            )
    return NUMERIC, f"numbers ({n_distinct} distinct)"


def _integers(s: pd.Series) -> bool:
    """Whether a column of whole numbers holds integers (module docstring): an integer dtype,
    Python ints, or floats with a missing value (pandas' integer column with a gap)."""
    dt = s.dtype
    if pd.api.types.is_integer_dtype(dt):
        return True
    if pd.api.types.is_float_dtype(dt):
        return bool(s.isna().any())
    present = s[s.notna()].tolist()
    return all(isinstance(v, int | np.integer) for v in present) or len(present) < len(s)


def _numbers(s: pd.Series) -> np.ndarray | None:
    """The non-missing values of a column of real numbers as float64, or None if it holds
    anything else (text, booleans, ...)."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dt):
        return None
    if pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_complex_dtype(dt):
        v = s.to_numpy(dtype=np.float64, na_value=np.nan)
        return v[~np.isnan(v)]
    if pd.api.types.is_object_dtype(dt):
        values = s[s.notna()].tolist()
        if values and all(
            isinstance(v, int | float | np.integer | np.floating)
            and not isinstance(v, bool | np.bool_)
            for v in values
        ):
            return np.asarray(values, dtype=np.float64)
    return None


def column_kind(s: pd.Series) -> tuple[str, str]:
    """The kind the rule (module docstring) gives a column, and why.

    Examples
    --------
    >>> column_kind(pd.Series(["a", "b"]))
    ('categorical', 'text')
    >>> column_kind(pd.Series([True, False, None]))
    ('categorical', 'booleans')
    >>> column_kind(pd.Series([1.0, 2.0, None, 1.0]))
    ('categorical', '2 distinct whole numbers (at most 10)')
    >>> column_kind(pd.Series(np.arange(1000) % 40))[0]  # integer codes
    'categorical'
    >>> column_kind(pd.Series(np.arange(1000.0) % 40))[0]  # written 13.0: measurements
    'numeric'
    >>> column_kind(pd.Series([np.nan, *(np.arange(999.0) % 40)]))[0]  # pandas' ints with a gap
    'categorical'
    >>> column_kind(pd.Series(np.linspace(0, 1, 50)))
    ('numeric', 'numbers (50 distinct)')
    """
    values = _numbers(s)
    if values is None:
        dt = s.dtype
        if isinstance(dt, pd.CategoricalDtype):
            return CATEGORICAL, "pandas categorical"
        present = s[s.notna()]
        if pd.api.types.is_bool_dtype(dt) or (
            len(present) and all(isinstance(v, bool | np.bool_) for v in present.tolist())
        ):
            return CATEGORICAL, "booleans"
        return CATEGORICAL, "text"
    whole = bool(values.size) and bool(np.all(np.isfinite(values) & (values == np.round(values))))
    integers = whole and _integers(s)
    return number_kind(values.size, np.unique(values).size, whole=whole, integers=integers)


def read_text_column(s: pd.Series) -> pd.Series:
    """A column of text cells (missing cells already None/NaN) typed as ``pandas.read_csv``
    types a column: booleans if every cell is ``True``/``TRUE``/``true`` or a false one,
    integers if every cell is an integer and none is missing, numbers (float64) if every cell
    is a number, else the text unchanged. Each distinct cell is parsed once.

    Examples
    --------
    >>> read_text_column(pd.Series(["TRUE", "false", None])).tolist()
    [True, False, None]
    >>> read_text_column(pd.Series(["1", "2"])).tolist()
    [1, 2]
    >>> read_text_column(pd.Series(["1", None])).tolist()
    [1.0, nan]
    >>> read_text_column(pd.Series(["1", "x"])).tolist()
    ['1', 'x']
    """
    codes, distinct = pd.factorize(s)
    texts = [str(v) for v in distinct]
    missing = bool((codes < 0).any())
    if not texts:  # every cell missing: pandas reads floats
        return pd.Series(np.nan, index=s.index, dtype=np.float64)
    if all(t in _TRUE or t in _FALSE for t in texts):
        flags = np.array([t in _TRUE for t in texts])
        if not missing:
            return pd.Series(flags[codes], index=s.index, dtype=bool)
        lookup = np.array([*flags.tolist(), None], dtype=object)
        return pd.Series(lookup[codes], index=s.index, dtype=object)
    parsed = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan
    )
    if np.isnan(parsed).any():  # some cell is not a number
        return s.astype(object).where(s.notna(), None)
    if not missing and all(_is_integer_text(t) for t in texts):
        try:
            ints = np.array([int(t) for t in texts], dtype=np.int64)
        except OverflowError:  # beyond int64: pandas reads floats too
            pass
        else:
            return pd.Series(ints[codes], index=s.index, dtype=np.int64)
    padded = np.append(parsed, np.nan)  # code -1 (missing) takes NaN
    return pd.Series(padded[codes], index=s.index, dtype=np.float64)


def _is_integer_text(t: str) -> bool:
    t = t.strip()
    return t.lstrip("+-").isdigit() and t.count("-") + t.count("+") <= 1


def identifier_reason(s: pd.Series, n_distinct: int | None = None) -> str | None:
    """Why column ``s`` looks like an identifier (module docstring), or None: its values are
    all distinct over at least :data:`MIN_IDENTIFIER_ROWS` rows, or for text all but 1 in 100.
    ``n_distinct`` saves counting them where they are known.

    Examples
    --------
    >>> identifier_reason(pd.Series([f"P{i:03d}" for i in range(30)]))
    'a different value in each of its 30 rows'
    >>> identifier_reason(pd.Series(["a", "b"] * 15)) is None
    True
    """
    present = s[s.notna()]
    n = len(present)
    if n < MIN_IDENTIFIER_ROWS:
        return None
    allowed = n // 100  # repeated values a text identifier may hold
    try:
        if n_distinct is None:
            head = present.iloc[: allowed + 1000]  # more repeats than allowed: no identifier
            if len(head) - head.nunique() > allowed:
                return None
            n_distinct = int(present.nunique())
    except TypeError:  # unhashable cells: refused elsewhere, with their column named
        return None
    if n_distinct == n:
        return f"a different value in each of its {n} rows"
    if n - n_distinct <= allowed and _numbers(present) is None:
        return f"{n_distinct} different values in its {n} rows"
    return None


def numeric_identifier_reason(s: pd.Series) -> str | None:
    """Why numeric column ``s`` looks like a row number or an identifier, or None: a different
    whole number in each of at least :data:`MIN_IDENTIFIER_ROWS` rows. Cheap for measurements:
    the first values rule them out, and a range narrower than the rows (integer codes) rules a
    column out without sorting it.

    Examples
    --------
    >>> numeric_identifier_reason(pd.Series(np.arange(100, 130)))
    'a different whole number in each of its 30 rows'
    >>> numeric_identifier_reason(pd.Series(np.linspace(0, 1, 30))) is None
    True
    """
    dt = s.dtype
    if len(s) < MIN_IDENTIFIER_ROWS or not pd.api.types.is_numeric_dtype(dt):
        return None
    if pd.api.types.is_bool_dtype(dt) or pd.api.types.is_complex_dtype(dt):
        return None
    v = s.to_numpy()
    if v.dtype.kind not in "iu":
        v = s.to_numpy(dtype=np.float64, na_value=np.nan)
        head = v[:256]
        head = head[~np.isnan(head)]
        if not np.all(head == np.floor(head)):
            return None
        v = v[~np.isnan(v)]
        if v.size < MIN_IDENTIFIER_ROWS or not np.all(np.abs(v) < 2.0**52):
            return None  # from 2**52 up every float is whole: no sign of integers there
        if np.any(v != np.floor(v)):
            return None
    if float(v.max()) - float(v.min()) + 1 < v.size or np.unique(v).size != v.size:
        return None
    return f"a different whole number in each of its {v.size} rows"


def continuous_columns(frame: pd.DataFrame, columns: Any = None, discrete: Any = ()) -> list:
    """The columns of ``frame`` (``columns``, default all) that the rule calls numeric and
    ``discrete`` does not name: the continuous nodes of a network learned from it.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": ["x", "y"] * 30, "v": np.linspace(0, 1, 60), "k": [1, 2] * 30})
    >>> continuous_columns(frame), continuous_columns(frame, discrete=["v"])
    (['v'], [])
    """
    named = set(discrete or ())
    return [
        c
        for c in (frame.columns if columns is None else columns)
        if c not in named and column_kind(frame[c])[0] != CATEGORICAL
    ]
