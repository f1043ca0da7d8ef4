"""Inference in a hidden Markov model: forward-backward and Viterbi over many sequences.

A hidden Markov model with states ``1..N`` is a start distribution ``pi``, a transition matrix
``A`` (``A[i, j] = P(z_t = j | z_{t-1} = i)``) and, per step, the emission log-likelihoods
``log P(x_t | z_t = j)`` (the *frame*). As a network it is the chain ``z_1 -> z_2 -> ...``
with one observed child per hidden node, and forward-backward is belief propagation on that
chain (Rabiner 1989, Sec. III; Bishop, *Pattern Recognition and Machine Learning*, 13.2):

* forward: ``alpha_t(j) = P(x_1..x_t, z_t = j) = [sum_i alpha_{t-1}(i) A[i, j]] P(x_t | j)``,
* backward: ``beta_t(i) = P(x_{t+1}..x_T | z_t = i) = sum_j A[i, j] P(x_{t+1} | j) beta_{t+1}(j)``,
* posteriors: ``gamma_t(j) = alpha_t(j) beta_t(j) / P(x)``, and the expected transition counts
  ``xi(i, j) = sum_t alpha_t(i) A[i, j] P(x_{t+1} | j) beta_{t+1}(j) / P(x)``, the E-step of
  Baum-Welch.

Both implementations give the same answers: ``"scaling"`` normalises each forward row (fast;
a sequence whose scaled rows leave floating-point range is redone in log space automatically),
``"log"`` runs in log space throughout. Many sequences are given as one concatenation and their
``lengths``; blocks of sequences run on several threads (:func:`bayeskit.set_num_threads`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from bayeskit._compiled import planned_threads, run_blocks
from bayeskit.sequences import _kernels

__all__ = [
    "ForwardBackward",
    "forward_backward",
    "run_forward_backward",
    "sequence_offsets",
    "viterbi",
]

IMPLEMENTATIONS = ("scaling", "log")


@dataclass(frozen=True)
class ForwardBackward:
    """What :func:`forward_backward` computes.

    Attributes
    ----------
    log_likelihood : ndarray of shape (n_sequences,)
        ``log P(x)`` of each sequence (``-inf`` for a sequence the model cannot emit; 0 for an
        empty one).
    posteriors : ndarray of shape (n_steps, n_states) or None
        ``P(z_t = j | x)`` for every step of every sequence, in the order of the input rows;
        None when not asked for. Rows of impossible sequences are NaN.
    transitions : ndarray of shape (n_states, n_states) or None
        Expected transition counts ``sum_t P(z_t = i, z_{t+1} = j | x)``, summed over the
        sequences (impossible ones left out); None when not asked for.

    Examples
    --------
    >>> fb = forward_backward([0.5, 0.5], [[0.9, 0.1], [0.1, 0.9]], np.log([[0.9, 0.2]]))
    >>> round(float(fb.log_likelihood[0]), 4), fb.posteriors.round(4).tolist()
    (-0.5978, [[0.8182, 0.1818]])
    >>> fb.transitions.tolist()  # one step: no transition
    [[0.0, 0.0], [0.0, 0.0]]
    """

    log_likelihood: np.ndarray
    posteriors: np.ndarray | None = None
    transitions: np.ndarray | None = None


def sequence_offsets(lengths, n_steps: int) -> np.ndarray:
    """Where each sequence of a concatenation of ``n_steps`` rows starts, and the end.

    For lengths ``l_1, l_2, ...`` the offsets are ``0, l_1, l_1 + l_2``, and so on up to
    ``n_steps``.

    Parameters
    ----------
    lengths : array-like of int or None
        The length of each sequence, in order; None: one sequence of all the rows.
    n_steps : int
        The number of rows of the concatenation.

    Returns
    -------
    ndarray of shape (n_sequences + 1,)

    Raises
    ------
    ValueError
        When a length is negative or not an integer, or the lengths do not add up to
        ``n_steps``.

    Examples
    --------
    >>> sequence_offsets([3, 0, 2], 5).tolist()
    [0, 3, 3, 5]
    """
    if lengths is None:
        return np.array([0, n_steps], dtype=np.intp)
    raw = np.asarray(lengths)
    if raw.ndim != 1:
        msg = f"lengths must be one-dimensional, got shape {raw.shape}"
        raise ValueError(msg)
    if raw.size and not np.issubdtype(raw.dtype, np.integer):
        if not (np.issubdtype(raw.dtype, np.floating) and np.all(raw == np.round(raw))):
            msg = f"lengths must be whole numbers, got {raw[:5].tolist()}..."
            raise ValueError(msg)
    lengths_ = raw.astype(np.intp)
    if np.any(lengths_ < 0):
        msg = f"lengths must be non-negative, got {lengths_[lengths_ < 0][0]}"
        raise ValueError(msg)
    total = int(lengths_.sum())
    if total != n_steps:
        msg = f"lengths add up to {total} but the data has {n_steps} rows"
        raise ValueError(msg)
    return np.concatenate([[0], np.cumsum(lengths_)]).astype(np.intp)


def _blocks(offsets: np.ndarray, n_states: int, per_step: int = 0) -> list[tuple[int, int]]:
    """Consecutive ranges of sequences with near-equal numbers of steps, one per thread;
    ``per_step`` is the work of a step (default ``n_states ** 2``, forward-backward's)."""
    n_seq = len(offsets) - 1
    threads = min(planned_threads(int(offsets[-1]) * (per_step or n_states * n_states)), n_seq)
    if threads <= 1:
        return [(0, n_seq)]
    cuts = np.searchsorted(offsets, np.linspace(0, offsets[-1], threads + 1)[1:-1])
    edges = np.unique(np.concatenate([[0], cuts, [n_seq]]))
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]


def _check_offsets(offsets: np.ndarray, n_steps: int) -> None:
    """Raise ``ValueError`` unless ``offsets`` rises from 0 to ``n_steps``."""
    if (
        offsets.ndim != 1
        or len(offsets) < 1
        or offsets[0] != 0
        or offsets[-1] != n_steps
        or (len(offsets) > 2 and not (offsets[1:] >= offsets[:-1]).all())
    ):
        msg = f"offsets must rise from 0 to the {n_steps} steps, got {offsets[:6].tolist()}..."
        raise ValueError(msg)


def _log(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(p)


def _parameters(startprob, transmat, log_frame):
    start = np.ascontiguousarray(startprob, dtype=np.float64)
    trans = np.ascontiguousarray(transmat, dtype=np.float64)
    frame = np.ascontiguousarray(log_frame, dtype=np.float64)
    n = start.shape[0]
    if start.ndim != 1 or trans.shape != (n, n) or frame.ndim != 2 or frame.shape[1] != n:
        msg = (
            f"startprob (n_states,), transmat (n_states, n_states) and log_frame (n_steps, "
            f"n_states) must agree; got {start.shape}, {trans.shape} and {frame.shape}"
        )
        raise ValueError(msg)
    if np.isnan(frame).any():
        msg = "log_frame has NaN entries (an emission log-likelihood is undefined)"
        raise ValueError(msg)
    return start, trans, frame


def forward_backward(
    startprob,
    transmat,
    log_frame,
    lengths=None,
    *,
    implementation: str = "scaling",
    posteriors: bool = True,
    transitions: bool = True,
) -> ForwardBackward:
    """Log-likelihoods, state posteriors and expected transition counts of sequences.

    Parameters
    ----------
    startprob : array-like of shape (n_states,)
        ``P(z_1 = j)``.
    transmat : array-like of shape (n_states, n_states)
        ``transmat[i, j] = P(z_t = j | z_{t-1} = i)``.
    log_frame : array-like of shape (n_steps, n_states)
        ``log P(x_t | z_t = j)`` for every step of every sequence (``-inf`` where a state
        cannot emit the observation; 0 where the observation is missing).
    lengths : array-like of int, optional
        The lengths of the sequences concatenated in ``log_frame``; default one sequence.
    implementation : {"scaling", "log"}, default="scaling"
        Scaled probabilities (sequences out of their range are redone in log space) or log
        space throughout; the answers agree to rounding.
    posteriors : bool, default=True
        Whether to compute the state posteriors.
    transitions : bool, default=True
        Whether to compute the expected transition counts.

    Returns
    -------
    ForwardBackward

    Raises
    ------
    ValueError
        On shapes that disagree, NaN log-likelihoods, bad ``lengths`` or an unknown
        ``implementation``.

    Examples
    --------
    Wikipedia's rainy/sunny model ("Forward-backward algorithm"), walking, shopping, cleaning:

    >>> start, trans = [0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]]
    >>> emit = np.array([[0.1, 0.4, 0.5], [0.6, 0.3, 0.1]])
    >>> fb = forward_backward(start, trans, np.log(emit[:, [0, 1, 2]].T))
    >>> fb.posteriors.round(8).tolist()
    [[0.23170296, 0.76829704], [0.62406283, 0.37593717], [0.86397715, 0.13602285]]
    """
    if implementation not in IMPLEMENTATIONS:
        msg = f"implementation must be one of {IMPLEMENTATIONS}, got {implementation!r}"
        raise ValueError(msg)
    start, trans, frame = _parameters(startprob, transmat, log_frame)
    offsets = sequence_offsets(lengths, frame.shape[0])
    return run_forward_backward(
        start, trans, frame, offsets, implementation, posteriors, transitions
    )


def run_forward_backward(
    start: np.ndarray,
    trans: np.ndarray,
    frame: np.ndarray,
    offsets: np.ndarray,
    implementation: str = "scaling",
    posteriors: bool = True,
    transitions: bool = True,
) -> ForwardBackward:
    """:func:`forward_backward` on inputs already checked: float64 C-ordered arrays of
    matching shapes without NaN, and ``offsets`` from :func:`sequence_offsets` (Baum-Welch
    calls it once per iteration, with what it checked once).

    Parameters
    ----------
    start : ndarray of shape (n_states,)
        ``P(z_1 = j)``.
    trans : ndarray of shape (n_states, n_states)
        The transition matrix.
    frame : ndarray of shape (n_steps, n_states)
        The emission log-likelihoods.
    offsets : ndarray of int of shape (n_sequences + 1,)
        Where each sequence starts, and the end.
    implementation : {"scaling", "log"}, default="scaling"
        As :func:`forward_backward`'s.
    posteriors, transitions : bool, default=True
        What to compute besides the log-likelihoods.

    Returns
    -------
    ForwardBackward

    Raises
    ------
    ValueError
        When ``offsets`` does not rise from 0 to the number of steps, or on an unknown
        ``implementation``.

    Examples
    --------
    >>> fb = run_forward_backward(np.array([0.5, 0.5]), np.full((2, 2), 0.5),
    ...                           np.log([[0.9, 0.2]]), np.array([0, 1]))
    >>> fb.posteriors.round(4).tolist()
    [[0.8182, 0.1818]]
    """
    if implementation not in IMPLEMENTATIONS:
        msg = f"implementation must be one of {IMPLEMENTATIONS}, got {implementation!r}"
        raise ValueError(msg)
    _check_offsets(offsets, len(frame))
    n_seq, n = len(offsets) - 1, start.shape[0]
    post = np.zeros(frame.shape) if posteriors else np.zeros((0, n))
    loglik = np.zeros(n_seq)
    blocks = _blocks(offsets, n)
    if implementation == "scaling":
        run = partial(_kernels.forward_backward_scaled, start, trans, frame, offsets)
        xis = run_blocks(
            [partial(run, a, b, post, loglik, posteriors, transitions) for a, b in blocks],
            len(blocks),
        )
        # one reduction tells whether any sequence failed (NaN) or is impossible (-inf)
        total = loglik.sum()
        redo = np.flatnonzero(np.isnan(loglik)) if np.isnan(total) else ()
    else:
        xis, redo, total = [], np.arange(n_seq), np.nan
    if len(redo):
        xis += _redo_in_log_space(
            start, trans, frame, offsets, redo, post, loglik, posteriors, transitions
        )
        total = loglik.sum()
    if posteriors and total == -np.inf:
        for s in np.flatnonzero(loglik == -np.inf):
            post[offsets[s] : offsets[s + 1]] = np.nan
    xi = None
    if transitions:
        xi = (xis[0] if len(xis) == 1 else np.sum(xis, axis=0)) if xis else np.zeros((n, n))
    return ForwardBackward(loglik, post if posteriors else None, xi)


def _redo_in_log_space(start, trans, frame, offsets, which, post, loglik, posteriors, transitions):
    """Run the log-space kernel on the sequences ``which``; their expected transition counts."""
    log_start, log_trans = _log(start), _log(trans)
    # Runs of consecutive sequences are passed as ranges (all of them when implementation="log").
    runs = np.split(which, np.flatnonzero(np.diff(which) != 1) + 1)
    sub = np.empty(len(offsets) - 1)
    kernel = partial(_kernels.forward_backward_log, log_start, log_trans, frame, offsets)
    calls = []
    for run in runs:
        a, b = int(run[0]), int(run[-1]) + 1
        for lo, hi in _blocks(offsets[a : b + 1] - offsets[a], start.shape[0]):
            calls.append(partial(kernel, lo + a, hi + a, post, sub, posteriors, transitions))
    steps = int(np.diff(offsets)[which].sum())
    xis = run_blocks(calls, planned_threads(steps * start.shape[0] ** 2))
    loglik[which] = sub[which]
    return xis


def viterbi(startprob, transmat, log_frame, lengths=None) -> tuple[np.ndarray, np.ndarray]:
    """The most probable state path of each sequence (Viterbi 1967; Rabiner 1989, III.B).

    Parameters
    ----------
    startprob : array-like of shape (n_states,)
        ``P(z_1 = j)``.
    transmat : array-like of shape (n_states, n_states)
        ``transmat[i, j] = P(z_t = j | z_{t-1} = i)``.
    log_frame : array-like of shape (n_steps, n_states)
        ``log P(x_t | z_t = j)`` for every step of every sequence.
    lengths : array-like of int, optional
        The lengths of the sequences concatenated in ``log_frame``; default one sequence.

    Returns
    -------
    log_prob : ndarray of shape (n_sequences,)
        ``log P(x, z*)`` of each sequence's best path ``z*`` (``-inf`` where none is possible).
    path : ndarray of shape (n_steps,)
        The best paths' states, concatenated like the input. Among equally good states the
        lowest index wins.

    Raises
    ------
    ValueError
        On shapes that disagree, NaN log-likelihoods or bad ``lengths``.

    Examples
    --------
    Wikipedia's "Viterbi algorithm" example (healthy = 0, fever = 1; normal, cold, dizzy):

    >>> emit = np.array([[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]])
    >>> log_prob, path = viterbi([0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]], np.log(emit.T))
    >>> path.tolist(), round(float(np.exp(log_prob[0])), 5)
    ([0, 0, 1], 0.01512)
    """
    start, trans, frame = _parameters(startprob, transmat, log_frame)
    offsets = sequence_offsets(lengths, frame.shape[0])
    path = np.zeros(frame.shape[0], dtype=np.intp)
    logprob = np.zeros(len(offsets) - 1)
    log_start, log_trans = _log(start), _log(trans)
    blocks = _blocks(offsets, start.shape[0])
    run = partial(_kernels.viterbi, log_start, log_trans, frame, offsets)
    run_blocks([partial(run, a, b, path, logprob) for a, b in blocks], len(blocks))
    return logprob, path
