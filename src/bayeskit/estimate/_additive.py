"""The additive (Lidstone) estimate, and the log-normalisation under every estimator.

They sit below :mod:`bayeskit.estimate.dirichlet` (which re-exports :func:`lidstone`) so that the
hierarchical estimators (:mod:`bayeskit.estimate.hierarchical`, :mod:`bayeskit.estimate.hdp_gibbs`),
which start from a Lidstone estimate and which the registry of estimators
(:mod:`bayeskit.estimate.registry`) dispatches to, import them without importing
:mod:`bayeskit.estimate.dirichlet`: no import cycle.
"""

from __future__ import annotations

import numpy as np


def _log_normalise(numer: np.ndarray, axis: int) -> np.ndarray:
    """log(numer / sum(numer)) along axis, uniform where the sum is zero."""
    numer = np.asarray(numer, dtype=np.float64)
    total = numer.sum(axis=axis, keepdims=True)
    n_states = numer.shape[axis]
    with np.errstate(divide="ignore"):
        out = np.log(numer) - np.log(np.where(total > 0, total, 1.0))
    empty = np.broadcast_to(total <= 0, out.shape)
    if empty.any():
        out = np.where(empty, -np.log(n_states), out)
    return out


def lidstone(counts: np.ndarray, alpha: float, axis: int = -1) -> np.ndarray:
    """Additive smoothing, P(v) = (n_v + alpha) / (N + K alpha) (Zhou eqs. 7.19-7.20 for alpha=1).

    This is also the posterior mean of a symmetric Dirichlet(alpha) prior, the full Bayesian
    predictive probability: see :func:`~bayeskit.estimate.dirichlet_posterior_mean`.
    ``alpha=0`` is the MLE.

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    alpha : float
        The pseudo-count added to every cell (>= 0).
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

    Examples
    --------
    >>> np.exp(lidstone(np.array([3, 1]), alpha=1.0)).round(3)
    array([0.667, 0.333])
    """
    return _log_normalise(np.asarray(counts, dtype=np.float64) + alpha, axis)
