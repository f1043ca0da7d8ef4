"""Small data sets bundled with bayeskit.

Two kinds of tables ship with the package, as plain CSV files next to this
module and described by ``catalog.json``:

* the worked-example tables of the textbook chapters (Zhou ch. 7, Zaki & Meira
  ch. 18, the lecture notes after Han, Kamber & Pei 6.3 and Nanjing lecture
  5): ``watermelon3``, ``buys_computer``, ``age_credit_a``,
  ``age_credit_b``, ``age_numeric_credit``, ``dice_coin``, ``sweet``,
  ``zaki_q1``, ``zaki_q2`` and ``iris`` (the UCI-archive Iris);
* three all-categorical benchmark sets from PMLB (UCI originals, integer
  coded): ``car`` (the default for demos, see :data:`DEFAULT`),
  ``mushroom`` and ``nursery``.

The files are read with :mod:`importlib.resources`, so they also load from
an installed wheel or zip.

Examples
--------
>>> from bayeskit.data import datasets
>>> datasets.DEFAULT
'car'
>>> X, y = datasets.load("sweet")
>>> list(X["weight"].cat.categories)
[0, 1, 2, 3, 4]
>>> y.name, list(y.cat.categories)
('sweet', ['no', 'yes'])
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import numpy as np
import pandas as pd

__all__ = ["DEFAULT", "describe", "load", "names"]

#: The data set the documentation and demos use by default.
DEFAULT = "car"

_CATALOG_FILE = "catalog.json"
_INT_RE = re.compile(r"[+-]?\d+\Z")


@lru_cache(maxsize=1)
def _catalog() -> dict[str, dict[str, Any]]:
    text = resources.files(__name__).joinpath(_CATALOG_FILE).read_text(encoding="utf-8")
    return {entry["name"]: entry for entry in json.loads(text)["datasets"]}


def _entry(name: str) -> dict[str, Any]:
    catalog = _catalog()
    if not isinstance(name, str) or name not in catalog:
        known = ", ".join(sorted(catalog))
        msg = f"unknown data set {name!r}; known: {known}"
        raise ValueError(msg)
    return catalog[name]


def names() -> list[str]:
    """Names of the bundled data sets.

    Returns
    -------
    list of str
        The names, sorted alphabetically.

    Examples
    --------
    >>> from bayeskit.data.datasets import names
    >>> names()[:4]
    ['age_credit_a', 'age_credit_b', 'age_numeric_credit', 'buys_computer']
    >>> len(names())
    13
    """
    return sorted(_catalog())


def describe(name: str) -> dict[str, Any]:
    """Catalog entry of a bundled data set.

    Parameters
    ----------
    name : str
        One of :func:`names`.

    Returns
    -------
    dict
        A deep copy of the entry in ``catalog.json``: ``name``, ``file``,
        ``collection`` (``"textbook"`` or ``"pmlb"``), ``target``,
        ``features`` (a list of ``{"name", "type"}`` with ``type`` either
        ``"categorical"`` or ``"numeric"``, plus ``categories`` where the
        source declares a domain larger than the data), ``drop`` (identifier
        columns left out of the features), ``rows``, ``n_features``,
        ``class_counts``, ``description``, ``source``, ``citation``,
        ``license`` and ``sha256``. Changing the copy does not change the
        catalog.

    Raises
    ------
    ValueError
        If `name` is not a bundled data set.

    Examples
    --------
    >>> from bayeskit.data.datasets import describe
    >>> info = describe("zaki_q1")
    >>> info["target"], info["drop"]
    ('class', ['id'])
    >>> [(f["name"], f["type"]) for f in info["features"]]
    [('age', 'numeric'), ('car', 'categorical')]
    >>> info["features"][1]["categories"]
    ['sports', 'vintage', 'suv', 'truck']
    >>> describe("dice_coin")["target"]
    'coin'
    """
    return copy.deepcopy(_entry(name))


def _read_raw(file: str) -> pd.DataFrame:
    """Read a bundled file with every cell as a string (no type guessing)."""
    resource = resources.files(__name__).joinpath(file)
    compression: Literal["gzip"] | None = "gzip" if file.endswith(".gz") else None
    with resource.open("rb") as handle:
        return pd.read_csv(
            handle,
            compression=compression,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
        )


def _categorical(values: pd.Series, declared: list[Any] | None) -> pd.Categorical:
    """Turn a column of strings into a categorical.

    Integer-looking columns become integer categories; the categories are the
    declared domain when one is given, otherwise the sorted distinct values.
    """
    strings = values.astype(str).tolist()
    if declared is not None:
        by_text = {str(c): c for c in declared}
        unknown = sorted(set(strings) - set(by_text))
        if unknown:
            msg = f"column {values.name!r} has values {unknown} outside its declared domain"
            raise ValueError(msg)
        return pd.Categorical([by_text[s] for s in strings], categories=list(declared))
    if strings and all(_INT_RE.match(s) for s in strings):
        ints = [int(s) for s in strings]
        return pd.Categorical(ints, categories=sorted(set(ints)))
    return pd.Categorical(strings, categories=sorted(set(strings)))


def load(name: str, *, as_frame: bool = True) -> tuple[Any, Any]:
    """Load a bundled data set as features and target.

    Parameters
    ----------
    name : str
        One of :func:`names`, for example ``"car"`` (:data:`DEFAULT`),
        ``"watermelon3"`` or ``"iris"``.
    as_frame : bool, default True
        If True, return a DataFrame and a Series. If False, return NumPy
        arrays: ``X`` is float64 when every feature is numeric and an object
        array otherwise (category values and floats), and ``y`` holds the
        class labels.

    Returns
    -------
    X : pandas.DataFrame or numpy.ndarray
        The features, in file order, without the target and the identifier
        columns listed in the catalog's ``drop``. Categorical features have
        pandas ``category`` dtype whose categories are the declared domain
        (``describe(name)["features"][i]["categories"]``) if the source gives
        one, else the sorted distinct values; integer-coded columns keep
        integer categories. Numeric features are float64.
    y : pandas.Series or numpy.ndarray
        The target, with ``category`` dtype (sorted distinct values as
        categories), named after the target column. For ``dice_coin`` the
        target is ``coin``; the textbook table itself has no class.

    Raises
    ------
    ValueError
        If `name` is not a bundled data set.

    Notes
    -----
    ``iris`` is the UCI-archive Iris (``iris_uci.csv``), not scikit-learn's
    ``load_iris``: the two differ in rows 35 and 38 (1-based). The class
    labels of ``watermelon3`` are the strings ``"true"`` and ``"false"``.

    Examples
    --------
    >>> from bayeskit.data.datasets import load
    >>> X, y = load("watermelon3")
    >>> X.shape
    (17, 8)
    >>> load("watermelon3")[0].shape
    (17, 8)
    >>> str(X["density"].dtype), str(X["color"].dtype)
    ('float64', 'category')
    >>> list(X["color"].cat.categories)
    ['dark', 'green', 'light']
    >>> y.value_counts().sort_index().to_dict()
    {'false': 9, 'true': 8}
    >>> X, y = load("car")
    >>> X.shape, y.name
    ((1728, 6), 'target')
    >>> X, y = load("iris", as_frame=False)
    >>> X.dtype, X.shape, y[:2].tolist()
    (dtype('float64'), (150, 4), ['setosa', 'setosa'])
    """
    entry = _entry(name)
    raw = _read_raw(entry["file"])

    columns: dict[str, Any] = {}
    for feature in entry["features"]:
        col = raw[feature["name"]]
        if feature["type"] == "numeric":
            columns[feature["name"]] = col.astype(np.float64).to_numpy()
        else:
            columns[feature["name"]] = _categorical(col, feature.get("categories"))
    X = pd.DataFrame(columns, index=pd.RangeIndex(len(raw)))

    target = entry["target"]
    y = pd.Series(_categorical(raw[target], None), name=target, index=X.index)

    if as_frame:
        return X, y
    if all(f["type"] == "numeric" for f in entry["features"]):
        X_arr = X.to_numpy(dtype=np.float64)
    else:
        X_arr = np.empty(X.shape, dtype=object)
        for j, column in enumerate(X.columns):
            X_arr[:, j] = np.asarray(X[column], dtype=object)
    return X_arr, np.asarray(y)
