"""Conditional risk, the minimum-risk (Bayes) decision rule and the empirical risk (the cost
matrices they take: :mod:`bayeskit.decision.costs`).

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
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bayeskit.data.validation import check_sample_weight
from bayeskit.decision.costs import _check_cost_array, cost_matrix, zero_one_cost
from bayeskit.decision.reject import _check_threshold, reject_mask

__all__ = [
    "bayes_decision",
    "conditional_risk",
    "cost_matrix",
    "empirical_risk",
    "zero_one_cost",
]


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


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


def _check_index_range(t: np.ndarray, p: np.ndarray, upper: float) -> None:
    """True classes ``t`` in ``[0, upper)``, decisions ``p`` too or -1 (rejected)."""
    if t.min() < 0 or t.max() >= upper:
        bad = int(t[(t < 0) | (t >= upper)][0])
        msg = f"y_true must hold class indices in [0, {upper}), got {bad}"
        raise ValueError(msg)
    if p.min() < -1 or p.max() >= upper:
        bad = int(p[(p < -1) | (p >= upper)][0])
        msg = f"y_pred must hold class indices in [0, {upper}) or -1 (rejected), got {bad}"
        raise ValueError(msg)


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------


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
    _check_index_range(t, p, math.inf if c is None else c.shape[0])

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

    w = check_sample_weight(sample_weight, t.shape[0], positive_sum=True)
    if w is None:
        return float(losses.mean())
    return float(np.dot(w, losses) / w.sum())


def decide_labels(
    proba: ArrayLike,
    classes: ArrayLike,
    cost: Any = None,
    *,
    reject_threshold: float | None = None,
    reject_label: Any = None,
) -> np.ndarray:
    """Minimum-risk decisions as class labels, with Chow's reject option: what every
    classifier's ``decide`` returns.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Posterior probabilities, columns in the order of ``classes``.
    classes : array-like of shape (n_classes,)
        The class labels.
    cost : array-like, DataFrame or dict, optional
        The cost matrix in any form :func:`cost_matrix` takes; None for the 0/1 loss.
    reject_threshold : float, optional
        The cost of abstaining (:func:`bayes_decision`).
    reject_label : object, default=None
        What a rejected sample gets.

    Returns
    -------
    numpy.ndarray of shape (n_samples,)
        Labels of the dtype of ``classes``; with a ``reject_threshold``, an object array
        holding ``reject_label`` where rejected.

    Examples
    --------
    >>> decide_labels([[0.7, 0.3], [0.45, 0.55]], np.array(["no", "yes"]))
    array(['no', 'yes'], dtype='<U3')
    >>> decide_labels([[0.7, 0.3], [0.45, 0.55]], np.array(["no", "yes"]), reject_threshold=0.4,
    ...               reject_label="ask")
    array(['no', 'ask'], dtype=object)
    """
    labels = np.asarray(classes)
    idx = bayes_decision(proba, cost_matrix(cost, labels), reject_threshold=reject_threshold)
    if reject_threshold is None:
        return labels[idx]
    out = np.empty(len(idx), dtype=object)
    out[idx >= 0] = labels[idx[idx >= 0]]
    out[idx < 0] = reject_label
    return out
