"""The conditional log-likelihood of discriminative parameter learning
(:mod:`bayeskit.classifiers._discriminative`): the conditional log-likelihood of rows scored by
look-up tables, and its gradient by table cell, in one pass over the rows.

A row reads, in each family, the cells ``cells[i, f] + c`` of its classes ``c`` (the packed
tables lay a family's classes side by side); its score of class ``c`` is the prior term plus
the sum of those cells' weighted log values. The pass adds each row's
``w_i (1[c = y_i] - P(c | x_i))`` to every cell it read for class ``c``: the gradient of the
conditional log-likelihood with respect to the cell's weighted value. Rows are split into
fixed blocks, each block summing into a table of its own, the tables then added in block
order: the same sums whatever the number of threads.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from bayeskit._compiled import parallel_kernel

__all__ = ["conditional_log_likelihood"]

_ROWS_PER_TASK = 1 << 13


def _cll(cells, values, prior, y, weights):  # pragma: no cover - compiled
    """``(log-likelihood, per-cell sums, per-class sums)`` of rows ``cells`` (n, families),
    int64, into ``values`` (the weighted log values, ``n_classes`` zeros past the dummy cell),
    with class terms ``prior`` (n_classes,), classes ``y`` and row weights ``weights``."""
    n, d = cells.shape
    n_classes = prior.shape[0]
    n_tasks = max((n + _ROWS_PER_TASK - 1) // _ROWS_PER_TASK, 1)
    grads = np.zeros((n_tasks, values.shape[0]))
    class_sums = np.zeros((n_tasks, n_classes))
    totals = np.zeros(n_tasks)
    for t in nb.prange(n_tasks):
        scores = np.empty(n_classes)
        coef = np.empty(n_classes)
        grad = grads[t]
        for i in range(t * _ROWS_PER_TASK, min(n, (t + 1) * _ROWS_PER_TASK)):
            for c in range(n_classes):
                scores[c] = prior[c]
            for f in range(d):
                at = cells[i, f]
                for c in range(n_classes):
                    scores[c] += values[at + c]
            top = scores[0]
            for c in range(1, n_classes):
                top = max(top, scores[c])
            total = 0.0
            for c in range(n_classes):
                total += math.exp(scores[c] - top)
            lse = top + math.log(total)
            w = weights[i]
            totals[t] += w * (scores[y[i]] - lse)
            for c in range(n_classes):
                coef[c] = -w * math.exp(scores[c] - lse)
            coef[y[i]] += w
            for c in range(n_classes):
                class_sums[t, c] += coef[c]
            for f in range(d):
                at = cells[i, f]
                for c in range(n_classes):
                    grad[at + c] += coef[c]
    return totals.sum(), grads.sum(axis=0), class_sums.sum(axis=0)


def _cll_work(cells, values, prior, *_) -> int:
    return cells.size * prior.shape[0] * 2


_compiled_cll = parallel_kernel(_cll_work)(_cll)


def conditional_log_likelihood(cells: np.ndarray, values: np.ndarray, prior: np.ndarray,
                               y: np.ndarray, weights: np.ndarray) -> tuple:  # fmt: skip
    """The weighted conditional log-likelihood of rows scored by look-up, and its gradient.

    Parameters
    ----------
    cells : ndarray of int64, shape (n_rows, n_families)
        Where each row reads each family: its class ``c`` reads ``values[cells[i, f] + c]``.
    values : ndarray of float64
        The (weighted) log values of every cell, ``n_classes`` zeros at the end for the
        families a row does not read (their cells point there).
    prior : ndarray of float64, shape (n_classes,)
        Each class's own term, added to every row's score.
    y : ndarray of int64, shape (n_rows,)
        Each row's class.
    weights : ndarray of float64, shape (n_rows,)
        Each row's weight.

    Returns
    -------
    loglik : float
        ``sum_i w_i log P(y_i | x_i)``, the scores soft-maxed over the classes.
    per_cell : ndarray, shape like ``values``
        The gradient of ``loglik`` with respect to each cell's value.
    per_class : ndarray, shape (n_classes,)
        Its gradient with respect to each class's term.

    Examples
    --------
    Two rows, one family of two cells per class (class 0 at even, class 1 at odd positions):

    >>> cells = np.array([[0], [2]])
    >>> values = np.log(np.array([0.8, 0.2, 0.2, 0.8, 1.0, 1.0]))  # the last two: the dummy
    >>> values[-2:] = 0.0
    >>> ll, per_cell, per_class = conditional_log_likelihood(
    ...     cells, values, np.zeros(2), np.array([0, 1]), np.ones(2))
    >>> round(ll, 4), per_cell.round(2).tolist()[:4]
    (-0.4463, [0.2, -0.2, -0.2, 0.2])
    """
    return _compiled_cll(cells, values, prior, y, weights)
