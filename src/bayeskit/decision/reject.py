"""The reject option: abstain when even the best action is too risky (Chow's rule).

Zhou ch. 7 (eq. 7.3) tells us to take the action ``c`` that minimises the conditional risk
``R(c | x) = sum_j lambda_cj P(c_j | x)`` (eq. 7.1). The reject option adds one more action,
*abstain*, whose risk is a constant ``d`` whatever the true class is (the cost of handing the sample
to a human, say). Minimising risk over the ``n_classes + 1`` actions gives Chow's rule:

    abstain  if  min_i R(c_i | x) > d,   otherwise  take  argmin_i R(c_i | x).

So the reject threshold *is* the cost of rejecting, and a decision made with
``reject_threshold=d`` minimises :func:`~bayeskit.decision.empirical_risk` computed with
``reject_cost=d`` in expectation.

With the 0/1 loss (Zhou eq. 7.4) the conditional risk is ``R(c | x) = 1 - P(c | x)`` (eq. 7.5),
so the rule reads

    abstain  if  max_c P(c | x) < 1 - t.

Useful thresholds then lie in ``[0, 1 - 1/n_classes)``: ``t = 0`` abstains unless one class is
certain, and ``t >= 1 - 1/n_classes`` never abstains, because the largest of ``n_classes``
posteriors is at least ``1/n_classes``. A negative ``t`` abstains on every sample. With a general
cost matrix any finite ``t`` may be meaningful, since negative costs (gains) can make risks
negative.

The comparison is strict: a sample whose least risk equals the threshold is decided, not rejected.
Thresholds are on the scale of normalised posteriors, so the rows of ``proba`` should sum to 1.

References
----------
Zhou, Z.-H. *Machine Learning*, ch. 7, section 7.1 (eqs. 7.1-7.6).

Chow, C. K. (1970). On optimum recognition error and reject tradeoff. *IEEE Transactions on
Information Theory*, 16(1), 41-46.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numpy.typing import ArrayLike

from bayeskit._text import shown

__all__ = ["reject_mask"]


def _check_threshold(threshold: object, name: str = "threshold") -> float:
    """Return ``threshold`` as a float after checking it is a finite real number.

    Raises
    ------
    TypeError
        If ``threshold`` is not a real number (booleans are refused too).
    ValueError
        If ``threshold`` is NaN or infinite.
    """
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, numbers.Real):
        kind = type(threshold).__name__
        msg = f"{name} must be a finite real number, got {shown(threshold)} of type {kind}"
        raise TypeError(msg)
    value = float(threshold)
    if not math.isfinite(value):
        msg = f"{name} must be a finite real number, got {shown(value)}"
        raise ValueError(msg)
    return value


def reject_mask(risk_min: ArrayLike, threshold: float) -> np.ndarray:
    """Which samples to reject: those whose least conditional risk exceeds ``threshold``.

    This is Chow's reject rule: the abstain action has constant risk ``threshold``, and it is the
    minimum-risk action (Zhou eq. 7.3 over the classes plus abstention) exactly when
    ``min_i R(c_i | x) > threshold``, with ``R`` the conditional risk of Zhou eq. 7.1. With the
    0/1 loss (eqs. 7.4-7.5) ``min_i R(c_i | x) = 1 - max_c P(c | x)``, so a sample is rejected
    exactly when its largest posterior is below ``1 - threshold``.

    Parameters
    ----------
    risk_min : array-like of float
        The least conditional risk of each sample, ``min_i R(c_i | x)``, for example
        ``conditional_risk(proba, cost).min(axis=1)``. Any shape.
    threshold : float
        The cost of abstaining. Must be a finite real number; it may be negative (then every
        sample with a larger risk is rejected) when costs include gains.

    Returns
    -------
    numpy.ndarray of bool
        Same shape as ``risk_min``; ``True`` where the sample is rejected. The comparison is
        strict, so a risk equal to the threshold is not rejected. A NaN risk is never rejected.

    Raises
    ------
    TypeError
        If ``threshold`` is not a real number.
    ValueError
        If ``threshold`` is NaN or infinite.

    Examples
    --------
    With the 0/1 loss and posteriors of the winning class 0.9, 0.6 and 0.45, the least risks are
    0.1, 0.4 and 0.55; a threshold of 0.3 (reject unless the winner has at least 0.7) rejects
    the last two.

    >>> reject_mask([0.1, 0.4, 0.55], threshold=0.3)
    array([False,  True,  True])
    """
    t = _check_threshold(threshold)
    return np.asarray(risk_min, dtype=np.float64) > t
