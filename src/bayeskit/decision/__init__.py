"""Decisions from posteriors: cost matrices, conditional risk, the Bayes rule and rejection.

The last step of the pipeline (``log P(c, x) --decide--> action``), shared by every classifier and
by Bayesian-network queries. Everything here works on plain numpy arrays:

* ``proba`` of shape ``(n_samples, n_classes)``, column ``j`` holding ``P(c_j | x)``;
* ``cost`` of shape ``(n_classes, n_classes)``, ``cost[i, j] = lambda_ij`` the cost of predicting
  class ``i`` when the truth is class ``j`` (Zhou eq. 7.1);
* decisions as ``int64`` class indices, ``-1`` meaning rejected.

Zhou ch. 7, section 7.1 (eqs. 7.1-7.6): :func:`conditional_risk` is eq. 7.1,
:func:`bayes_decision` is eq. 7.3 (eq. 7.6 under the 0/1 loss of eq. 7.4, :func:`zero_one_cost`),
:func:`empirical_risk` estimates the overall risk of eq. 7.2, and :func:`reject_mask` is Chow's
reject option.

Examples
--------
>>> from bayeskit.decision import bayes_decision, cost_matrix
>>> cost = cost_matrix({"sick": {"sick": 0, "healthy": 1}, "healthy": {"sick": 10, "healthy": 0}},
...                    classes=["healthy", "sick"])
>>> bayes_decision([[0.7, 0.3]], cost)
array([1])
"""

from __future__ import annotations

from bayeskit.decision.costs import cost_matrix, zero_one_cost
from bayeskit.decision.reject import reject_mask
from bayeskit.decision.risk import (
    bayes_decision,
    conditional_risk,
    decide_labels,
    empirical_risk,
)

__all__ = [
    "bayes_decision",
    "conditional_risk",
    "cost_matrix",
    "decide_labels",
    "empirical_risk",
    "reject_mask",
    "zero_one_cost",
]
