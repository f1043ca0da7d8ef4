"""Cost matrices, conditional risk and the minimum-risk (Bayes) decision rule.

Zhou ch. 7, section 7.1. With ``lambda_ij`` the cost of *predicting* class ``c_i`` when the *true*
class is ``c_j``, the conditional risk of predicting ``c_i`` for a sample ``x`` is

    R(c_i | x) = sum_j lambda_ij P(c_j | x)                      (eq. 7.1)

and the Bayes decision rule takes the action of least conditional risk,

    h*(x) = argmin_c R(c | x),                                   (eq. 7.3)

which minimises the overall risk ``R(h) = E_x[R(h(x) | x)]`` (eq. 7.2). With the 0/1 loss
(eq. 7.4) the conditional risk is ``1 - P(c | x)`` (eq. 7.5) and the rule is the MAP rule
``argmax_c P(c | x)`` (eq. 7.6).

Axis conventions used throughout:

* ``proba`` has shape ``(n_samples, n_classes)``; column ``j`` is ``P(c_j | x)``.
* ``cost`` has shape ``(n_classes, n_classes)``; ``cost[i, j] = lambda_ij``, rows are predicted
  classes, columns are true classes.
* Decisions and labels are class *indices* (``int64``); ``-1`` means "rejected" (abstained).
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bayeskit._text import shown
from bayeskit.data.validation import check_sample_weight
from bayeskit.decision.reject import _check_threshold, reject_mask
from bayeskit.exceptions import CostMatrixError

__all__ = [
    "bayes_decision",
    "conditional_risk",
    "cost_matrix",
    "empirical_risk",
    "zero_one_cost",
]

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


def _check_proba(proba: ArrayLike, n_classes: int) -> np.ndarray:
    """Light checks on posteriors: numeric, finite, 2-D with one column per class."""
    arr = np.asarray(proba)
    if arr.ndim != 2:
        msg = (
            f"proba must be 2-D with shape (n_samples, n_classes), got shape {arr.shape}; "
            "for one sample pass proba.reshape(1, -1)"
        )
        raise ValueError(msg)
    if arr.shape[1] == 0:
        msg = f"proba must have at least one column (one per class), got shape {arr.shape}"
        raise ValueError(msg)
    if arr.shape[1] != n_classes:
        msg = (
            f"proba must have {n_classes} columns to match the ({n_classes}, {n_classes}) "
            f"cost matrix, got shape {arr.shape}"
        )
        raise ValueError(msg)
    if arr.dtype.kind not in "iuf":
        msg = f"proba must hold real numbers, got dtype {arr.dtype}"
        raise ValueError(msg)
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        row = int(np.argwhere(~np.isfinite(arr))[0, 0])
        msg = f"proba must be finite, got {arr[row].tolist()} in row {row}"
        raise ValueError(msg)
    return arr


def _check_indices(y: ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(y)
    if arr.ndim != 1:
        msg = f"{name} must be 1-D class indices, got shape {arr.shape}"
        raise ValueError(msg)
    if arr.size == 0:
        msg = f"{name} must hold at least one sample, got 0"
        raise ValueError(msg)
    if arr.dtype.kind not in "iu":
        msg = (
            f"{name} must hold integer class indices, got dtype {arr.dtype}; "
            "encode labels as positions in classes first"
        )
        raise ValueError(msg)
    return arr.astype(np.int64, copy=False)


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


def conditional_risk(proba: ArrayLike, cost: ArrayLike) -> np.ndarray:
    """Conditional risk of every action: ``R(c_i | x) = sum_j lambda_ij P(c_j | x)`` (Zhou eq. 7.1).

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Posterior probabilities ``P(c_j | x)``, column ``j`` for class ``j``. Only shape and
        finiteness are checked.
    cost : array-like of shape (n_classes, n_classes)
        ``cost[i, j]`` is the cost of predicting class ``i`` when the truth is ``j``, in
        class-index order (use :func:`cost_matrix` to build it from labels).

    Returns
    -------
    numpy.ndarray of float64, shape (n_samples, n_classes)
        ``risk[n, i] = R(c_i | x_n)``, i.e. ``proba @ cost.T``.

    Raises
    ------
    CostMatrixError
        If ``cost`` is not a finite, numeric, square 2-D array.
    ValueError
        If ``proba`` is not 2-D, has a column count other than ``n_classes``, or holds
        non-numeric or non-finite values.

    Examples
    --------
    Two samples, two classes (0 = healthy, 1 = sick); calling a sick patient healthy costs 10.

    >>> cost = [[0.0, 10.0], [1.0, 0.0]]
    >>> conditional_risk([[0.7, 0.3], [0.95, 0.05]], cost).round(3)
    array([[3.  , 0.7 ],
           [0.5 , 0.95]])
    """
    c = _check_cost_array(cost)
    p = _check_proba(proba, c.shape[0])
    return p @ c.T


def bayes_decision(
    proba: ArrayLike,
    cost: ArrayLike | None = None,
    *,
    reject_threshold: float | None = None,
) -> np.ndarray:
    """Minimum-risk decisions (Zhou eq. 7.3), optionally abstaining with Chow's reject option.

    For each sample the action with the least conditional risk ``R(c_i | x)`` (eq. 7.1) is
    chosen. With the 0/1 loss (eq. 7.4, the default) this is the MAP rule
    ``argmax_c P(c | x)`` (eq. 7.6); it is then computed from ``proba`` directly, so it agrees
    exactly with ``proba.argmax(axis=1)``.

    Ties (exactly equal risks, or equal posteriors under 0/1 loss) go to the lowest class index.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Posterior probabilities ``P(c_j | x)``. Only shape and finiteness are checked. For the
        decision alone the rows need not be normalised (joint probabilities ``P(x, c)`` give
        the same argmin); for the reject option they must sum to 1.
    cost : array-like of shape (n_classes, n_classes), optional
        ``cost[i, j]`` is the cost of predicting class ``i`` when the truth is ``j``, in
        class-index order (build it from labels with :func:`cost_matrix`). ``None`` means the
        0/1 loss.
    reject_threshold : float, optional
        If given, the cost of abstaining: a sample is rejected (decision ``-1``) when its least
        conditional risk exceeds it, ``min_i R(c_i | x) > reject_threshold``. With the 0/1 loss
        the least risk is ``1 - max_c P(c | x)`` (eq. 7.5), so this rejects exactly when the
        largest posterior is below ``1 - reject_threshold``. See :mod:`bayeskit.decision.reject`.

    Returns
    -------
    numpy.ndarray of int64, shape (n_samples,)
        The chosen class index per sample, or ``-1`` where the sample is rejected.

    Raises
    ------
    CostMatrixError
        If ``cost`` is not a finite, numeric, square 2-D array (a labelled DataFrame or dict is
        refused here; pass it through :func:`cost_matrix` first).
    ValueError
        If ``proba`` is not 2-D, does not have one column per row of ``cost``, or holds
        non-numeric or non-finite values; or if ``reject_threshold`` is NaN or infinite.
    TypeError
        If ``reject_threshold`` is not a real number.

    Examples
    --------
    Zhou's MAP rule under 0/1 loss (eq. 7.6):

    >>> proba = [[0.7, 0.3], [0.2, 0.8], [0.55, 0.45]]
    >>> bayes_decision(proba)
    array([0, 1, 0])

    If missing the disease (class 1) costs 10 and a false alarm 1, the first patient is now
    treated as sick: ``R(healthy) = 10 * 0.3 = 3 > R(sick) = 1 * 0.7``.

    >>> bayes_decision(proba, [[0, 10], [1, 0]])
    array([1, 1, 1])

    Abstaining costs 0.4: reject unless the winning posterior is above 0.6.

    >>> bayes_decision(proba, reject_threshold=0.4)
    array([ 0,  1, -1])
    """
    if cost is None:
        p = np.asarray(proba)
        n_classes = p.shape[1] if p.ndim == 2 else 0
        c = None
    else:
        c = _check_cost_array(cost)
        n_classes = c.shape[0]
    p = _check_proba(proba, n_classes)
    threshold = None
    if reject_threshold is not None:
        threshold = _check_threshold(reject_threshold, "reject_threshold")

    if c is None or np.array_equal(c, zero_one_cost(n_classes)):
        # 0/1 loss: R(c | x) = 1 - P(c | x) (eq. 7.5), so argmin risk = argmax posterior (7.6).
        decision = np.argmax(p, axis=1).astype(np.int64)
        if threshold is None:
            return decision
        risk_min = 1.0 - np.max(p, axis=1)
    else:
        risk = p @ c.T
        decision = np.argmin(risk, axis=1).astype(np.int64)
        if threshold is None:
            return decision
        risk_min = np.min(risk, axis=1)
    decision[reject_mask(risk_min, threshold)] = -1
    return decision


def empirical_risk(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    cost: ArrayLike | None,
    *,
    reject_cost: float | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Mean cost of decisions on labelled samples (sample estimate of Zhou eq. 7.2).

    The result is ``sum_n w_n lambda(y_pred_n, y_true_n) / sum_n w_n``.

    It estimates the overall risk ``R(h)`` of Zhou eq. 7.2, charging ``cost[y_pred, y_true]``
    for a decision and ``reject_cost`` for an abstention. With the 0/1 loss it is the error
    rate.

    Parameters
    ----------
    y_true : array-like of int, shape (n_samples,)
        True class indices in ``[0, n_classes)``.
    y_pred : array-like of int, shape (n_samples,)
        Decided class indices in ``[0, n_classes)``, or ``-1`` for a rejected sample (as
        returned by :func:`bayes_decision`).
    cost : array-like of shape (n_classes, n_classes) or None
        ``cost[i, j]`` is the cost of predicting ``i`` when the truth is ``j``. ``None`` means the
        0/1 loss (then any non-negative index is a valid class).
    reject_cost : float, optional
        The cost charged for each rejected sample. Required if ``y_pred`` holds ``-1``; to
        compare with :func:`bayes_decision` use the same value as ``reject_threshold``.
    sample_weight : array-like of float, shape (n_samples,), optional
        Non-negative, finite weights with a positive sum; the result is the weighted mean.
        ``None`` weighs every sample 1.

    Returns
    -------
    float
        The (weighted) mean cost.

    Raises
    ------
    CostMatrixError
        If ``cost`` is not a finite, numeric, square 2-D array.
    ValueError
        If the label arrays are not 1-D integer arrays of the same non-zero length, hold an index
        out of range, hold ``-1`` with ``reject_cost=None``; if ``reject_cost`` is NaN or
        infinite; or if ``sample_weight`` has the wrong length, a negative or non-finite value
        or a zero sum.
    TypeError
        If ``reject_cost`` is not a real number.

    Examples
    --------
    Three patients, one missed disease (cost 10) and one rejected (cost 0.5):

    >>> cost = [[0, 10], [1, 0]]
    >>> round(empirical_risk([1, 1, 0], [0, 1, -1], cost, reject_cost=0.5), 3)
    3.5

    Weights give a weighted mean; with ``cost=None`` it is the (weighted) error rate.

    >>> round(empirical_risk([0, 1, 1, 0], [0, 1, 0, 0], None, sample_weight=[1, 1, 2, 1]), 3)
    0.4
    """
    t = _check_indices(y_true, "y_true")
    p = _check_indices(y_pred, "y_pred")
    if t.shape != p.shape:
        msg = f"y_true and y_pred must have the same length, got {t.shape[0]} and {p.shape[0]}"
        raise ValueError(msg)

    c = None if cost is None else _check_cost_array(cost)
    upper = math.inf if c is None else c.shape[0]
    if t.min() < 0 or t.max() >= upper:
        bad = int(t[(t < 0) | (t >= upper)][0])
        msg = f"y_true must hold class indices in [0, {upper}), got {bad}"
        raise ValueError(msg)
    if p.min() < -1 or p.max() >= upper:
        bad = int(p[(p < -1) | (p >= upper)][0])
        msg = f"y_pred must hold class indices in [0, {upper}) or -1 (rejected), got {bad}"
        raise ValueError(msg)

    rejected = p == -1
    n_rejected = int(rejected.sum())
    if n_rejected and reject_cost is None:
        msg = (
            f"y_pred holds {n_rejected} rejection(s) (-1) but reject_cost is None; "
            "pass reject_cost=<cost of abstaining>"
        )
        raise ValueError(msg)
    r = 0.0 if reject_cost is None else _check_threshold(reject_cost, "reject_cost")

    losses = np.full(t.shape[0], r, dtype=np.float64)
    decided = ~rejected
    if c is None:
        losses[decided] = (p[decided] != t[decided]).astype(np.float64)
    else:
        losses[decided] = c[p[decided], t[decided]]

    if sample_weight is None:
        return float(losses.mean())
    w = check_sample_weight(sample_weight, t.shape[0], positive_sum=True)
    return float(np.dot(w, losses) / w.sum())
