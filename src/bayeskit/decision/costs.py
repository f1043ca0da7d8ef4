"""Cost matrices: the 0/1 loss, and a cost matrix given as an array, a DataFrame or a dict
checked and put in the classifier's order of classes.

Zhou ch. 7, section 7.1: ``cost[i, j] = lambda_ij`` is the cost of *predicting* class ``c_i``
when the *true* class is ``c_j`` (eq. 7.1); rows are predicted classes, columns true classes.
The 0/1 loss (eq. 7.4) costs 0 for a correct prediction and 1 otherwise.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bayeskit._text import shown
from bayeskit.exceptions import CostMatrixError

__all__ = ["cost_matrix", "zero_one_cost"]

_CONVENTION = "rows are predicted classes, columns true classes"


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def _label(value: Any) -> str:
    """``repr`` of a class label, with numpy scalars shown as the Python value they hold."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def _labels(values: Sequence[Any]) -> str:
    return ", ".join(_label(v) for v in values)


def _check_classes(classes: ArrayLike) -> list[Any]:
    """Return ``classes`` as a list of distinct labels (at least one)."""
    arr = np.asarray(classes)
    if arr.ndim != 1 or arr.size == 0:
        msg = f"classes must be a non-empty 1-D sequence of class labels, got shape {arr.shape}"
        raise CostMatrixError(msg)
    labels = arr.tolist()
    seen: set[Any] = set()
    duplicates = []
    for label in labels:
        if label in seen and label not in duplicates:
            duplicates.append(label)
        seen.add(label)
    if duplicates:
        msg = f"classes must be distinct, got repeated labels: {_labels(duplicates)}"
        raise CostMatrixError(msg)
    return labels


def _numeric_values(values: np.ndarray, what: str = "cost matrix") -> np.ndarray:
    """Return ``values`` as a new float64 array, refusing non-real entries (bool included)."""
    kind = values.dtype.kind
    if kind in "iuf":
        return np.array(values, dtype=np.float64)
    if kind == "O":
        for index, item in np.ndenumerate(values):
            if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Real):
                msg = (
                    f"{what} must hold real numbers, got {shown(item)} at {list(index)}; "
                    "give numeric costs"
                )
                raise CostMatrixError(msg)
        return np.array(values, dtype=np.float64)
    msg = (
        f"{what} must hold real numbers, got dtype {values.dtype}; "
        "give numeric costs (convert with .astype(float) if they are booleans)"
    )
    raise CostMatrixError(msg)


def _check_finite(values: np.ndarray, labels: Sequence[Any] | None = None) -> None:
    """Raise CostMatrixError naming the first NaN or infinite entry of a cost matrix."""
    bad = ~np.isfinite(values)
    if not bad.any():
        return
    i, j = (int(k) for k in np.argwhere(bad)[0])
    where = f"entry [{i}, {j}]"
    if labels is not None:
        where += f" (predicted {_label(labels[i])}, true {_label(labels[j])})"
    msg = (
        f"cost matrix must be finite, got {float(values[i, j])!r} at {where}; "
        "replace NaN and inf with finite costs (a large number for a forbidden action)"
    )
    raise CostMatrixError(msg)


def _as_array(cost: Any) -> np.ndarray:
    """``np.asarray`` that reports ragged input as a CostMatrixError."""
    try:
        return np.asarray(cost)
    except (ValueError, TypeError) as exc:
        msg = f"cost must be a rectangular 2-D array-like ({_CONVENTION}), got {shown(cost)}"
        raise CostMatrixError(msg) from exc


def _label_positions(given: list[Any], classes: list[Any], axis: str) -> list[int]:
    """Positions in ``given`` of each class, or CostMatrixError naming missing/extra labels."""
    if len(set(given)) != len(given):
        repeated = [g for k, g in enumerate(given) if g in given[:k]]
        msg = f"cost matrix {axis} repeats labels: {_labels(repeated)}"
        raise CostMatrixError(msg)
    extra = [g for g in given if g not in classes]
    missing = [c for c in classes if c not in given]
    if extra or missing:
        parts = []
        if extra:
            parts.append(f"labels not among classes: {_labels(extra)}")
        if missing:
            parts.append(f"missing classes: {_labels(missing)}")
        msg = (
            f"cost matrix {axis} must hold exactly the classes ({_labels(classes)}), "
            f"got {'; '.join(parts)}"
        )
        raise CostMatrixError(msg)
    position = {g: k for k, g in enumerate(given)}
    return [position[c] for c in classes]


def _from_dataframe(cost: Any, classes: list[Any]) -> np.ndarray:
    pd = sys.modules["pandas"]
    rows = _label_positions(list(cost.index), classes, "index (predicted classes)")
    cols = _label_positions(list(cost.columns), classes, "columns (true classes)")
    for name, dtype in cost.dtypes.items():
        if pd.api.types.is_bool_dtype(dtype) or not pd.api.types.is_numeric_dtype(dtype):
            msg = (
                f"cost matrix must hold real numbers, got dtype {dtype} in column "
                f"{_label(name)}; give numeric costs"
            )
            raise CostMatrixError(msg)
    values = cost.to_numpy(dtype=np.float64, na_value=np.nan)
    return values[np.ix_(rows, cols)]


def _from_mapping(cost: Mapping[Any, Any], classes: list[Any]) -> np.ndarray:
    predicted = list(cost.keys())
    rows = _label_positions(predicted, classes, "keys (predicted classes)")
    table = np.empty((len(classes), len(classes)), dtype=object)
    for i, r in enumerate(rows):
        key = predicted[r]
        inner = cost[key]
        if not isinstance(inner, Mapping):
            msg = (
                "cost dict must map each predicted class to a dict {true class: cost}, "
                f"got {shown(inner)} for predicted class {_label(key)}"
            )
            raise CostMatrixError(msg)
        true = list(inner.keys())
        cols = _label_positions(true, classes, f"row {_label(key)} keys (true classes)")
        for j, c in enumerate(cols):
            table[i, j] = inner[true[c]]
    return _numeric_values(table)


def _check_cost_array(cost: Any) -> np.ndarray:
    """Validate an unlabelled square cost matrix (class-index order); return float64."""
    if isinstance(cost, Mapping) or _is_dataframe(cost):
        msg = (
            "cost must be an array in class-index order here, got a labelled "
            f"{type(cost).__name__}; convert it with cost_matrix(cost, classes) first"
        )
        raise CostMatrixError(msg)
    values = _as_array(cost)
    if values.ndim != 2 or values.shape[0] != values.shape[1] or values.shape[0] == 0:
        msg = (
            "cost matrix must be square with shape (n_classes, n_classes) "
            f"({_CONVENTION}), got {values.shape}"
        )
        raise CostMatrixError(msg)
    values = _numeric_values(values)
    _check_finite(values)
    return values


def _is_dataframe(obj: Any) -> bool:
    # pandas is only looked up, never imported: an object cannot be a DataFrame unless
    # pandas is already loaded, and this keeps `decision` free of the pandas import cost.
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(obj, pd.DataFrame)


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------


def zero_one_cost(n_classes: int) -> np.ndarray:
    """The 0/1 loss matrix: cost 0 for a correct prediction and 1 otherwise (Zhou eq. 7.4).

    Under this loss the conditional risk is ``R(c | x) = 1 - P(c | x)`` (eq. 7.5), so the
    minimum-risk decision is the MAP rule (eq. 7.6) and the overall risk is the error rate.

    Parameters
    ----------
    n_classes : int
        Number of classes, at least 1.

    Returns
    -------
    numpy.ndarray of float64, shape (n_classes, n_classes)
        ``1 - identity``.

    Raises
    ------
    ValueError
        If ``n_classes`` is not an integer >= 1.

    Examples
    --------
    >>> zero_one_cost(3)
    array([[0., 1., 1.],
           [1., 0., 1.],
           [1., 1., 0.]])
    """
    if isinstance(n_classes, (bool, np.bool_)) or not isinstance(n_classes, numbers.Integral):
        msg = f"n_classes must be an integer >= 1, got {shown(n_classes)}"
        raise ValueError(msg)
    if n_classes < 1:
        msg = f"n_classes must be an integer >= 1, got {n_classes}"
        raise ValueError(msg)
    n = int(n_classes)
    return np.ones((n, n), dtype=np.float64) - np.eye(n, dtype=np.float64)


def cost_matrix(cost: Any, classes: ArrayLike) -> np.ndarray:
    """Validate a cost (loss) matrix and return it as a float64 array in the order of ``classes``.

    The convention is Zhou's (eq. 7.1): ``cost[i, j] = lambda_ij`` is the cost of *predicting*
    class ``classes[i]`` when the *true* class is ``classes[j]``. Rows are predicted classes,
    columns are true classes.

    Parameters
    ----------
    cost : None, array-like, pandas.DataFrame or dict
        * ``None``: the 0/1 loss (Zhou eq. 7.4), see :func:`zero_one_cost`.
        * 2-D array-like of shape ``(n_classes, n_classes)``, already in the order of
          ``classes``.
        * ``pandas.DataFrame`` whose index holds the predicted classes and whose columns hold the
          true classes; rows and columns are reordered to ``classes``.
        * ``dict`` of the form ``{predicted: {true: cost}}``; it must give every pair.

        Labelled forms must name every class exactly once on each axis. Costs may be negative
        (a gain, for instance for a correct prediction); the decision rule handles them, but a
        reject threshold is then on the same shifted scale. Adding a constant to one column
        (one true class) changes every action's risk by the same amount, so it never changes a
        decision.
    classes : array-like of shape (n_classes,)
        The distinct class labels, in the order the classifier uses (``classes_``).

    Returns
    -------
    numpy.ndarray of float64, shape (n_classes, n_classes)
        A new array; ``cost`` itself is never modified or aliased.

    Raises
    ------
    CostMatrixError
        If the shape is not ``(n_classes, n_classes)``, an entry is not a real number (booleans
        included), an entry is NaN or infinite, a label is not among ``classes``, a class is
        missing or repeated, or ``classes`` is empty or repeats a label.

    Examples
    --------
    A DataFrame is reordered to ``classes``: here missing a disease costs 10, a false alarm 1.

    >>> import pandas as pd
    >>> df = pd.DataFrame(
    ...     [[0, 10], [1, 0]], index=["healthy", "sick"], columns=["healthy", "sick"]
    ... )
    >>> cost_matrix(df, classes=["sick", "healthy"])
    array([[ 0.,  1.],
           [10.,  0.]])

    A dict ``{predicted: {true: cost}}`` works the same way.

    >>> cost_matrix({"a": {"a": 0, "b": 2}, "b": {"a": 1, "b": 0}}, classes=["a", "b"])
    array([[0., 2.],
           [1., 0.]])

    ``None`` means the 0/1 loss.

    >>> cost_matrix(None, classes=[0, 1])
    array([[0., 1.],
           [1., 0.]])
    """
    labels = _check_classes(classes)
    n = len(labels)
    if cost is None:
        return zero_one_cost(n)
    if _is_dataframe(cost):
        values = _from_dataframe(cost, labels)
    elif isinstance(cost, Mapping):
        values = _from_mapping(cost, labels)
    else:
        raw = _as_array(cost)
        if raw.shape != (n, n):
            noun = "class" if n == 1 else "classes"
            msg = (
                f"cost matrix must have shape ({n}, {n}) for {n} {noun}, got {raw.shape} "
                f"({_CONVENTION})"
            )
            raise CostMatrixError(msg)
        values = _numeric_values(raw)
    _check_finite(values, labels)
    return values
