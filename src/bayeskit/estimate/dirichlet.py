"""From counts to log-probabilities: maximum likelihood and Dirichlet-prior estimators.

Every function takes a count array and returns log-probabilities of the same shape, normalised
along ``axis`` (the state axis, last by default). A distribution with no data at all (every count
and pseudo-count zero) is returned as uniform rather than 0/0: an empty parent configuration says
nothing, and a NaN would poison every sum it enters.

References: Zhou, *Machine Learning*, ch. 7 (eqs. 7.17-7.20); Zaki & Meira, ch. 18 (eq. 18.6);
Mitchell, *Machine Learning*, 6.9.1.1 (the m-estimate); Gelman et al., *Bayesian Data Analysis*,
ch. 2 (the Dirichlet posterior, its mode and mean).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "SMOOTHINGS",
    "dirichlet_map",
    "dirichlet_posterior_mean",
    "laplace",
    "lidstone",
    "log_probabilities",
    "m_estimate",
    "mle",
]

SMOOTHINGS = ("lidstone", "m-estimate", "dirichlet-map")


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


def mle(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """Maximum-likelihood estimate: relative frequencies, P(v) = n_v / N (Zhou eq. 7.17).

    Unseen values get log-probability ``-inf`` (probability zero), which is valid.

    Examples
    --------
    >>> np.exp(mle(np.array([6.0, 2.0]))).round(3)
    array([0.75, 0.25])
    """
    return _log_normalise(counts, axis)


def lidstone(counts: np.ndarray, alpha: float, axis: int = -1) -> np.ndarray:
    """Additive smoothing, P(v) = (n_v + alpha) / (N + K alpha) (Zhou eqs. 7.19-7.20 for alpha=1).

    This is also the posterior mean of a symmetric Dirichlet(alpha) prior, the full Bayesian
    predictive probability: see :func:`dirichlet_posterior_mean`. ``alpha=0`` is the MLE.

    Examples
    --------
    >>> np.exp(lidstone(np.array([3, 1]), alpha=1.0)).round(3)
    array([0.667, 0.333])
    """
    return _log_normalise(np.asarray(counts, dtype=np.float64) + alpha, axis)


def laplace(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """The Laplacian correction: :func:`lidstone` with alpha = 1 (Zhou eqs. 7.19-7.20).

    Examples
    --------
    >>> np.exp(laplace(np.array([8.0, 9.0]))).round(3)
    array([0.474, 0.526])
    """
    return lidstone(counts, 1.0, axis)


def m_estimate(
    counts: np.ndarray, m: float, prior: np.ndarray | None = None, axis: int = -1
) -> np.ndarray:
    """The m-estimate, P(v) = (n_v + m p_v) / (N + m), with prior ``p`` (uniform by default).

    ``m`` is an equivalent sample size spread over the states by ``p``; with uniform ``p`` it is
    Lidstone smoothing with ``alpha = m / K``.

    Examples
    --------
    >>> np.exp(m_estimate(np.array([3.0, 1.0]), m=2.0, prior=np.array([0.5, 0.5]))).round(3)
    array([0.667, 0.333])
    """
    counts = np.asarray(counts, dtype=np.float64)
    n_states = counts.shape[axis]
    if prior is None:
        p = np.full(n_states, 1.0 / n_states)
    else:
        p = np.asarray(prior, dtype=np.float64)
        if p.shape != (n_states,) or np.any(p < 0) or not np.isclose(p.sum(), 1.0):
            msg = f"prior must be {n_states} non-negative probabilities summing to 1, got {p}"
            raise ValueError(msg)
    shape = [1] * counts.ndim
    shape[axis] = n_states
    return _log_normalise(counts + m * p.reshape(shape), axis)


def dirichlet_map(counts: np.ndarray, alpha: float, axis: int = -1) -> np.ndarray:
    """The posterior mode under a symmetric Dirichlet(alpha) prior (alpha >= 1):
    P(v) = (n_v + alpha - 1) / (N + K (alpha - 1)). ``alpha = 1`` is the MLE.

    Examples
    --------
    >>> np.exp(dirichlet_map(np.array([3.0, 1.0]), alpha=2.0)).round(3)
    array([0.667, 0.333])
    """
    if alpha < 1:
        msg = f"the Dirichlet MAP estimate needs alpha >= 1 (a proper mode), got {alpha}"
        raise ValueError(msg)
    return _log_normalise(np.asarray(counts, dtype=np.float64) + (alpha - 1.0), axis)


def dirichlet_posterior_mean(counts: np.ndarray, alpha: float, axis: int = -1) -> np.ndarray:
    """The posterior mean under a symmetric Dirichlet(alpha) prior, which is also the Bayesian
    posterior predictive P(next = v | data) = (n_v + alpha) / (N + K alpha) (the same formula as
    :func:`lidstone`).

    Examples
    --------
    >>> np.exp(dirichlet_posterior_mean(np.array([0.0, 0.0, 2.0]), alpha=0.5)).round(3)
    array([0.143, 0.143, 0.714])
    """
    return lidstone(counts, alpha, axis)


def log_probabilities(
    counts: np.ndarray, smoothing: str = "lidstone", alpha: float = 1.0, axis: int = -1
) -> np.ndarray:
    """Dispatch on a model's ``smoothing`` name: ``"lidstone"`` (alpha = pseudo-count per state;
    0 gives the MLE), ``"m-estimate"`` (alpha = m, uniform prior) or ``"dirichlet-map"``.

    Examples
    --------
    >>> np.exp(log_probabilities(np.array([3.0, 1.0]), "m-estimate", 2.0)).round(3)
    array([0.667, 0.333])
    """
    if smoothing == "lidstone":
        return lidstone(counts, alpha, axis)
    if smoothing == "m-estimate":
        return m_estimate(counts, alpha, axis=axis)
    if smoothing == "dirichlet-map":
        return dirichlet_map(counts, alpha, axis)
    msg = f"smoothing must be one of {SMOOTHINGS}, got {smoothing!r}"
    raise ValueError(msg)
