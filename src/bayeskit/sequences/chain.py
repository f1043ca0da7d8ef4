"""Markov chains: the hidden layer of a hidden Markov model, on its own.

A (first-order, homogeneous) Markov chain is a start distribution ``pi`` and a transition
matrix ``A`` with ``A[i, j] = P(z_t = j | z_{t-1} = i)``; the state after ``t`` steps is
distributed as ``pi A^t``, and a distribution with ``p A = p`` is *stationary*.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sample_chain", "stationary_distribution"]


def stationary_distribution(transmat) -> np.ndarray:
    """A distribution ``p`` with ``p A = p``: the long-run share of time in each state.

    Parameters
    ----------
    transmat : array-like of shape (n_states, n_states)
        The transition matrix (rows sum to 1).

    Returns
    -------
    ndarray of shape (n_states,)
        The stationary distribution; for a chain with several closed classes (where there is
        more than one), the least-squares one of smallest norm.

    Examples
    --------
    >>> stationary_distribution([[0.7, 0.3], [0.4, 0.6]]).round(4).tolist()
    [0.5714, 0.4286]
    """
    a = np.asarray(transmat, dtype=float)
    n = a.shape[0]
    system = np.vstack([a.T - np.eye(n), np.ones((1, n))])
    target = np.r_[np.zeros(n), 1.0]
    p = np.linalg.lstsq(system, target, rcond=None)[0]
    p = np.clip(p, 0.0, None)
    return p / p.sum()


def sample_chain(
    startprob, transmat, n_steps: int, rng: np.random.Generator, first: int | None = None
) -> np.ndarray:
    """Draw ``n_steps`` states of a Markov chain.

    Parameters
    ----------
    startprob : array-like of shape (n_states,)
        ``P(z_1)``.
    transmat : array-like of shape (n_states, n_states)
        ``transmat[i, j] = P(z_t = j | z_{t-1} = i)``.
    n_steps : int
        How many states to draw.
    rng : numpy.random.Generator
        The random numbers.
    first : int, optional
        The first state (default: drawn from ``startprob``).

    Returns
    -------
    ndarray of int of shape (n_steps,)

    Examples
    --------
    >>> sample_chain([1.0, 0.0], [[0.0, 1.0], [1.0, 0.0]], 5, np.random.default_rng(0)).tolist()
    [0, 1, 0, 1, 0]
    """
    cum_start = np.cumsum(np.asarray(startprob, dtype=float))
    cum_trans = np.cumsum(np.asarray(transmat, dtype=float), axis=1)
    last = len(cum_start) - 1
    states = np.empty(n_steps, dtype=np.intp)
    u = rng.random(n_steps)
    for t in range(n_steps):
        if t == 0:
            drawn = int(np.searchsorted(cum_start, u[0], "right")) if first is None else first
        else:
            drawn = int(np.searchsorted(cum_trans[states[t - 1]], u[t], "right"))
        states[t] = min(drawn, last)  # rounding may leave a row's last cumulative sum below u
    return states
