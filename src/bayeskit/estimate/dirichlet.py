"""From counts to log-probabilities: maximum likelihood and Dirichlet-prior estimators.

Every function takes a count array and returns log-probabilities of the same shape, normalised
along ``axis`` (the state axis, last by default); the one exception is :func:`sparse_lidstone`,
whose table lists only the cells that were seen and which returns their log-probabilities plus
the one log-probability shared by every unlisted cell. A distribution with no data at all (every
count and pseudo-count zero) is returned as uniform rather than 0/0: an empty parent
configuration says nothing, and a NaN would poison every sum it enters.

References: Zhou, *Machine Learning*, ch. 7 (eqs. 7.17-7.20); Zaki & Meira, ch. 18 (eq. 18.6);
Mitchell, *Machine Learning*, 6.9.1.1 (the m-estimate); Gelman et al., *Bayesian Data Analysis*,
ch. 2 (the Dirichlet posterior, its mode and mean).
"""

from __future__ import annotations

import numpy as np

from bayeskit.estimate._additive import _log_normalise, lidstone

__all__ = [
    "dirichlet_map",
    "dirichlet_posterior_mean",
    "laplace",
    "lidstone",
    "lidstone_where_zero",
    "m_estimate",
    "mle",
    "sparse_lidstone",
]


def mle(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """Maximum-likelihood estimate: relative frequencies, P(v) = n_v / N (Zhou eq. 7.17).

    Unseen values get log-probability ``-inf`` (probability zero), which is valid.

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

    Examples
    --------
    >>> np.exp(mle(np.array([6.0, 2.0]))).round(3)
    array([0.75, 0.25])
    """
    return _log_normalise(counts, axis)


def lidstone_left_out(counts: np.ndarray, alpha: float) -> np.ndarray:
    """Additive smoothing with one observation left out of each cell, along the last axis:
    ``log((n_v - 1 + alpha) / (N - 1 + K alpha))``, counts floored at 0. Entry ``v`` is the
    estimate of ``P(v)`` a leave-one-out pass uses for a row that fell in cell ``v`` (the row
    taken out of its cell and of the total); a distribution with nothing left is uniform.

    Parameters
    ----------
    counts : array-like
        Counts, the states along the last axis.
    alpha : float
        The pseudo-count added to every cell.

    Returns
    -------
    ndarray
        ``log P`` for a row of each cell, of the shape of ``counts``.

    Examples
    --------
    >>> np.exp(lidstone_left_out(np.array([3.0, 1.0]), alpha=1.0)).round(3)  # (2+1)/(3+2)
    array([0.6, 0.2])
    """
    counts = np.asarray(counts, dtype=np.float64)
    k = counts.shape[-1]
    num = np.maximum(counts - 1.0, 0.0) + alpha
    den = np.maximum(counts.sum(axis=-1, keepdims=True) - 1.0, 0.0) + alpha * k
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(num) - np.log(den)
    # no count to go on (or a column with no state at all): the uniform distribution
    return np.where(den > 0, out, -np.log(max(k, 1)))


def sparse_lidstone(
    counts: np.ndarray, n_states, alpha: float, log_summed_cells: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Additive smoothing of a sparse joint table: the log-probabilities of its listed cells, and
    the one log-probability of every cell it does not list (Zaki & Meira Eq. 18.6).

    The table is a joint count table over attributes with domain sizes ``n_states``, so it has
    ``K = prod_j K_j`` cells per distribution, of which only the ``m`` seen ones are listed
    (``counts``; every other cell has count zero). Each cell gets the pseudo-count ``alpha``:

        P(x | c) = (n_c(x) + alpha) / (n_c + alpha K)                               (Eq. 18.6)

    which is :func:`lidstone` over the dense table, computed without listing the unseen cells.
    When the table is the marginal over the observed attributes ``O`` of a joint whose other
    attributes (``K_M = exp(log_summed_cells)`` cells) were summed out, the pseudo-counts are
    summed out with them:

        P(x_O | c) = (n_c(x_O) + alpha K_M) / (n_c^O + alpha K K_M)

    with ``n_c^O = sum_x n_c(x_O)`` the count of the rows observing all of ``O``. Both sums are
    taken in log space (``logaddexp``), so products of domain sizes never overflow. A
    distribution with no count and no pseudo-count (``alpha = 0`` and no data) is uniform,
    ``-log K``; with ``alpha = 0`` an unseen cell otherwise gets ``-inf`` (the MLE).

    Parameters
    ----------
    counts : ndarray of shape (m, n_distributions)
        ``counts[r, c]``: the count of listed cell ``r`` in distribution ``c`` (one column per
        class, as in :attr:`bayeskit.stats.JointCounts.counts`); cells along axis 0.
    n_states : array-like of shape (n_attributes,)
        Domain size of each attribute of the table; ``K`` is their product.
    alpha : float
        Pseudo-count per cell of the full joint (Eq. 18.6 uses 1).
    log_summed_cells : float, default=0.0
        ``log K_M``, the log of the number of cells summed out of the joint (0: none).

    Returns
    -------
    log_seen : ndarray of shape (m, n_distributions)
        ``log P`` of each listed cell.
    log_unseen : ndarray of shape (n_distributions,)
        ``log P`` of any cell not listed.

    Examples
    --------
    Two binary attributes (``K = 4``); class 0 saw cells ``(0, 0)`` and ``(0, 1)`` once each,
    class 1 saw ``(1, 1)`` twice, so ``P(x | c) = (n_c(x) + 1) / (2 + 4)``:

    >>> counts = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    >>> seen, unseen = sparse_lidstone(counts, [2, 2], alpha=1.0)
    >>> np.exp(seen).round(3), np.exp(unseen).round(3)
    (array([[0.333, 0.167],
           [0.333, 0.167],
           [0.167, 0.5  ]]), array([0.167, 0.167]))

    It is :func:`lidstone` over the dense table (cells in the order 00, 01, 10, 11):

    >>> np.exp(lidstone(np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0]]), 1.0)).round(3)
    array([[0.333, 0.333, 0.167, 0.167],
           [0.167, 0.167, 0.167, 0.5  ]])
    """
    counts = np.asarray(counts, dtype=np.float64)
    log_cells = float(np.sum(np.log(np.maximum(np.asarray(n_states, dtype=np.float64), 1.0))))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_pseudo = np.log(alpha) + log_summed_cells
        log_den = np.logaddexp(np.log(counts.sum(axis=0)), log_pseudo + log_cells)
        log_seen = np.logaddexp(np.log(counts), log_pseudo) - log_den
        log_unseen = log_pseudo - log_den
    empty = np.isneginf(log_den)
    if empty.any():
        log_seen[:, empty] = -log_cells
        log_unseen = np.where(empty, -log_cells, log_unseen)
    return log_seen, log_unseen


def laplace(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """The Laplacian correction: :func:`lidstone` with alpha = 1 (Zhou eqs. 7.19-7.20).

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

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

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    m : float
        The equivalent sample size.
    prior : array-like of shape (n_states,), optional
        The prior probabilities ``p`` (uniform by default).
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

    Raises
    ------
    ValueError
        ``prior`` is not ``n_states`` non-negative probabilities summing to 1.

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

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    alpha : float
        The Dirichlet concentration of each state (>= 1).
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

    Raises
    ------
    ValueError
        ``alpha`` is below 1 (no proper mode).

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

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    alpha : float
        The Dirichlet concentration of each state (the pseudo-count).
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

    Examples
    --------
    >>> np.exp(dirichlet_posterior_mean(np.array([0.0, 0.0, 2.0]), alpha=0.5)).round(3)
    array([0.143, 0.143, 0.714])
    """
    return lidstone(counts, alpha, axis)


def lidstone_where_zero(counts: np.ndarray, alpha: float = 1.0, axis: int = -1) -> np.ndarray:
    """The Laplacian correction as Han, Kamber and Pei apply it (Sect. 6.3, "Laplacian
    correction"): a distribution holding a zero count gets ``alpha`` added to every count
    (Lidstone); one without zeros keeps its relative frequencies (MLE). Each distribution along
    ``axis`` is judged on its own.

    Parameters
    ----------
    counts : array-like
        Counts (weighted counts allowed), the states along ``axis``.
    alpha : float, default=1.0
        The pseudo-count added to every cell of a distribution that holds a zero count.
    axis : int, default=-1
        The state axis.

    Returns
    -------
    ndarray
        ``log P``, of the shape of ``counts``, normalised along ``axis`` (a distribution with
        no count and no pseudo-count is uniform).

    Examples
    --------
    Han's example: 0, 990 and 10 tuples of income low, medium, high for one class; another
    class without zeros is left alone.

    >>> np.exp(lidstone_where_zero(np.array([[0.0, 990, 10], [3, 5, 2]]))).round(3)
    array([[0.001, 0.988, 0.011],
           [0.3  , 0.5  , 0.2  ]])
    """
    counts = np.asarray(counts, dtype=np.float64)
    has_zero = (counts == 0).any(axis=axis, keepdims=True)
    return np.where(has_zero, lidstone(counts, alpha, axis), mle(counts, axis))
