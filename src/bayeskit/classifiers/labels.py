"""Class labels: checked once and encoded once, at the cost of one feature column.

A classifier sees ``y`` as what the user gave (integers, text, booleans, a pandas categorical
or string column) and learns from integer codes into its sorted ``classes_``. The labels are
hashed once (:func:`pandas.factorize`) and every check (missing labels, mixed types, a
continuous target) runs on the few distinct labels, never on each row: sorting 2,000,000 text
labels, as ``np.unique`` does, costs seconds where hashing them costs a tenth of one.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import column_or_1d

__all__ = ["Targets", "class_labels", "encode_targets"]


@dataclasses.dataclass(frozen=True)
class Targets:
    """Encoded class labels.

    Attributes
    ----------
    labels : ndarray of shape (n_labels,)
        The distinct labels, sorted, in the dtype ``np.unique`` would give them.
    index : ndarray of int64, shape (n_samples,)
        Each row's position in ``labels``; ``-1`` marks a row without a label.
    """

    labels: np.ndarray
    index: np.ndarray

    def __len__(self) -> int:
        return len(self.index)

    def take(self, rows: np.ndarray) -> Targets:
        """The targets of some rows (a mask or positions); the labels stay as they are."""
        return Targets(self.labels, self.index[rows])

    def values(self) -> np.ndarray:
        """The label of every row (unlabelled rows get the first label as a placeholder)."""
        return self.labels[np.maximum(self.index, 0)] if len(self.labels) else self.labels

    def present(self) -> np.ndarray:
        """The sorted labels that some labelled row carries."""
        seen = np.zeros(len(self.labels), dtype=bool)
        seen[self.index[self.index >= 0]] = True
        return self.labels[seen]

    def codes_in(self, classes: np.ndarray) -> np.ndarray:
        """Each row's position in ``classes`` (``-1`` stays ``-1``); a label outside
        ``classes`` is refused by name."""
        where = np.searchsorted(classes, self.labels) if len(classes) else np.zeros(0, int)
        where = np.minimum(where, max(len(classes) - 1, 0))
        known = np.zeros(len(self.labels), dtype=bool)
        if len(classes):
            known = np.asarray(classes[where] == self.labels, dtype=bool)
        used = np.zeros(len(self.labels), dtype=bool)
        used[self.index[self.index >= 0]] = True
        if (used & ~known).any():
            bad = sorted((_plain(v) for v in self.labels[used & ~known]), key=str)
            msg = f"y has labels {bad} not in classes {[_plain(c) for c in classes]}"
            raise ValueError(msg)
        out = np.full(len(self.index), -1, dtype=np.int64)
        has = self.index >= 0
        out[has] = where[self.index[has]]
        return out


def _plain(v: Any) -> Any:
    """A label as the user wrote it: numpy scalars as Python ones (``0.0``, not
    ``np.float64(0.0)``)."""
    return v.item() if isinstance(v, np.generic) else v


def plain_repr(v: Any) -> str:
    """``repr`` of a label as the user wrote it."""
    return repr(_plain(v))


def _label_kind(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (int, float, np.integer, np.floating)):
        return "number"
    return "text" if isinstance(v, str) else type(v).__name__


def check_label_types(labels: np.ndarray) -> str | None:
    """Class labels of different kinds cannot be sorted, and True == 1 would merge two
    classes: refuse them with the kinds and an example of each. Returns the one kind
    (``"text"``, ``"number"``, ``"bool"``, ...), None for no labels."""
    first: dict[str, Any] = {}
    for v in labels:
        first.setdefault(_label_kind(v), v)
        if len(first) == 3:  # enough kinds to say what is mixed
            break
    if len(first) > 1:
        shown = ", ".join(f"{kind} ({plain_repr(v)})" for kind, v in first.items())
        msg = (
            f"y mixes class labels of different types: {shown}; give every label the same type, "
            "e.g. y.astype(str)"
        )
        raise ValueError(msg)
    return next(iter(first), None)


#: What pandas' infer_dtype calls an array of labels of one kind (a compiled scan of the
#: rows): labels of any other make-up are checked row by row (:func:`check_label_types`).
_ONE_KIND = frozenset(
    {"string", "integer", "floating", "mixed-integer-float", "boolean", "bytes", "empty"}
)


def _as_1d(y: Any, n_samples: int) -> Any:
    """``y`` as a 1-D array or pandas Series of ``n_samples`` rows, or a clear error."""
    if y is None:
        msg = (
            "this classifier requires y to be passed, but the target y is None: a classifier "
            "needs the class of every training sample"
        )
        raise ValueError(msg)
    if isinstance(y, pd.DataFrame) and y.shape[1] == 1:
        y = column_or_1d(y, warn=True)
    if isinstance(y, pd.api.extensions.ExtensionArray):  # a pandas Categorical, say
        y = pd.Series(y, copy=False)
    arr: Any
    if isinstance(y, (pd.Series, pd.Index)):
        arr = y
    else:
        arr = np.asarray(y)
        if (
            arr.dtype.kind in "US"
            and isinstance(y, (list, tuple))
            and not all(isinstance(v, str) for v in y)
        ):
            # numpy turns [1, "a"] into ["1", "a"]: keep the labels the user gave
            arr = np.empty(len(y), dtype=object)
            arr[:] = list(y)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = column_or_1d(arr, warn=True)
    if arr.ndim != 1:
        msg = f"y must be 1-D (n_samples,), got shape {arr.shape}"
        raise ValueError(msg)
    if arr.shape[0] != n_samples:
        msg = f"X has {n_samples} samples but y has {arr.shape[0]}"
        raise ValueError(msg)
    return arr


def encode_targets(y: Any, n_samples: int) -> Targets:
    """Check class labels and encode them as positions in their sorted distinct values.

    Refused, by position or by example: a missing label (None, NaN), infinity, labels of
    mixed types (text and numbers, booleans and numbers), a continuous target (floats that
    are not whole numbers) and anything that is not 1-D of ``n_samples`` rows.
    """
    arr = _as_1d(y, n_samples)
    if isinstance(arr, (pd.Series, pd.Index)) and isinstance(arr.dtype, pd.CategoricalDtype):
        codes = np.asarray(
            arr.cat.codes if isinstance(arr, pd.Series) else cast(pd.CategoricalIndex, arr).codes
        )
        index, uniques = codes.astype(np.int64), np.asarray(arr.dtype.categories)
    elif isinstance(arr, (pd.Series, pd.Index)) and isinstance(arr.dtype, np.dtype):
        return encode_targets(arr.to_numpy(), n_samples)
    elif isinstance(arr, (pd.Series, pd.Index)):  # an extension dtype: strings, nullable ints
        index, found = pd.factorize(arr, use_na_sentinel=True)
        uniques = np.asarray(found.astype(object) if len(found) else [], dtype=object)
    elif arr.dtype.kind in "biuf":
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            pos = int(np.flatnonzero(~np.isfinite(arr))[0])
            msg = (
                f"Input y contains NaN or infinity (position {pos}); every sample needs a "
                "class label"
            )
            raise ValueError(msg)
        labels, index = np.unique(arr, return_inverse=True)
        check_classification_targets(labels)
        return Targets(labels, index.astype(np.int64).reshape(-1))
    else:
        if arr.dtype == object and pd.api.types.infer_dtype(arr, skipna=True) not in _ONE_KIND:
            # hashing merges True with 1 and 1 with 1.0: a mix of kinds is found row by row
            check_label_types(arr[~pd.isna(arr)])
        index, uniques = pd.factorize(arr, use_na_sentinel=True)
        if arr.dtype.kind in "US":
            uniques = np.asarray(uniques, dtype=arr.dtype)
    index = np.asarray(index, dtype=np.int64)
    if (index < 0).any():
        pos = int(np.flatnonzero(index < 0)[0])
        msg = f"y has a missing class label at position {pos}"
        raise ValueError(msg)
    used = np.bincount(index, minlength=len(uniques)) > 0
    if not used.all():  # categories no row carries do not make classes
        index = (np.cumsum(used) - 1)[index]
        uniques = uniques[used]
    if uniques.dtype == object:
        if check_label_types(uniques) in ("number", "bool"):
            uniques = np.asarray(uniques.tolist())  # numbers held as objects: numbers
    order = np.argsort(uniques, kind="stable")
    labels = uniques[order]
    check_classification_targets(labels)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return Targets(labels, rank[index])


def class_labels(labels: Any) -> np.ndarray:
    """Class labels gathered from parts of the data (chunks, partitions): one type (a mix,
    such as ``1`` in one chunk and ``"other"`` in another, is refused by name rather than
    merged as text), at least two, sorted."""
    arr = np.empty(len(labels), dtype=object)
    arr[:] = list(labels)
    if len(arr):
        check_label_types(arr)
    classes = np.unique(np.asarray(arr.tolist())) if len(arr) else arr
    if len(classes) < 2:
        msg = f"the data hold {len(classes)} class label(s); a classifier needs at least 2"
        raise ValueError(msg)
    return classes
