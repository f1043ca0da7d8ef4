"""Mutual information and conditional mutual information, as functions of count tables.

Every structure learner of bayeskit asks these of the family counts
(:mod:`bayeskit.stats.families`): TAN weighs its spanning tree by ``I(x_i; x_j | y)``, kDB
orders features by ``I(x; y)``, Chow-Liu trees by ``I(x_i; x_j)``. Probabilities are the
relative frequencies of the counts (maximum likelihood), as in Friedman, Geiger and Goldszmidt
(1997); logarithms are natural (nats).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["conditional_mutual_information", "mutual_information"]

CMI_WEIGHTINGS = ("joint", "per-class")


def _plogp_ratio(joint: np.ndarray, axes_a, axes_b) -> np.ndarray:
    """sum joint * log(joint * total_given / (marg_a * marg_b)) summed over ``axes_a + axes_b``,
    where margins are taken within each slice of the remaining (leading) axes."""
    a = joint.sum(axis=axes_b, keepdims=True)
    b = joint.sum(axis=axes_a, keepdims=True)
    n = joint.sum(axis=axes_a + axes_b, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = joint * (np.log(joint) + np.log(n) - np.log(a) - np.log(b))
    terms = np.where(joint > 0, terms, 0.0)
    return terms.sum(axis=axes_a + axes_b)


def mutual_information(counts: np.ndarray) -> float:
    """``I(A; B) = sum_ab P(a, b) log(P(a, b) / (P(a) P(b)))`` from a 2-D count table over
    ``(A, B)``, in nats; 0 for a table with no counts.

    Parameters
    ----------
    counts : ndarray of shape (n_a, n_b)
        (Weighted) counts of each pair of values.

    Returns
    -------
    float
        In nats (natural logs).

    Examples
    --------
    >>> round(mutual_information(np.array([[5.0, 0.0], [0.0, 5.0]])), 4)  # log 2
    0.6931
    >>> mutual_information(np.array([[1.0, 1.0], [1.0, 1.0]]))
    0.0
    """
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum()
    if total <= 0:
        return 0.0
    return float(max(_plogp_ratio(counts, (0,), (1,)) / total, 0.0))


def conditional_mutual_information(counts: np.ndarray, weighting: str = "joint") -> Any:
    """``I(A; B | Y)`` from a count table over ``(Y, A, B)``, in nats; a stack of such tables
    (shape ``(..., n_y, n_a, n_b)``) gives an array of their values, in one pass.

    ``weighting="joint"`` (Friedman et al. 1997; the form of Yang Yu's Nanjing lecture)::

        I(A; B | Y) = sum_{y,a,b} P(a, b, y) log(P(a, b | y) / (P(a | y) P(b | y)))

    ``weighting="per-class"`` is Zhou's Eq. (7.22) as printed, with ``P(a, b | y)`` in place of
    ``P(a, b, y)``: the same sum with each class weighted equally rather than by its frequency.
    Both are 0 exactly when A and B are independent within every class.

    Parameters
    ----------
    counts : ndarray of shape (..., n_y, n_a, n_b)
        (Weighted) counts over ``(Y, A, B)``, or a stack of such tables.
    weighting : {"joint", "per-class"}, default="joint"
        How the classes are weighted (above).

    Returns
    -------
    float or ndarray of shape counts.shape[:-3]
        In nats (natural logs).

    Raises
    ------
    ValueError
        ``weighting`` is neither of the two.

    Examples
    --------
    >>> t = np.array([[[4.0, 0.0], [0.0, 4.0]], [[1.0, 1.0], [1.0, 1.0]]])  # dependent in y=0
    >>> round(conditional_mutual_information(t), 4)      # 8/12 of the data carry log 2
    0.4621
    >>> round(conditional_mutual_information(t, "per-class"), 4)
    0.6931
    >>> conditional_mutual_information(np.stack([t, t])).round(4)
    array([0.4621, 0.4621])
    """
    if weighting not in CMI_WEIGHTINGS:
        msg = f"weighting must be one of {CMI_WEIGHTINGS}, got {weighting!r}"
        raise ValueError(msg)
    counts = np.asarray(counts, dtype=np.float64)
    per_class = _plogp_ratio(counts, (-2,), (-1,))  # n_y * I(A; B | Y = y), shape (..., n_y)
    n_y = counts.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        if weighting == "joint":
            total = n_y.sum(axis=-1)
            value = np.where(total > 0, per_class.sum(axis=-1) / total, 0.0)
        else:
            value = np.where(n_y > 0, per_class / n_y, 0.0).sum(axis=-1)
    value = np.maximum(value, 0.0)
    return float(value) if value.ndim == 0 else value
