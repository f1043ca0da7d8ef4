"""A dynamic Bayesian network as a hidden Markov model over a slice's joint state.

When a slice's variables are few enough to enumerate, their joint state ``s`` is one hidden
variable: the first slice's tables multiplied give ``P(s_1)``, the step's tables multiplied give
the transition matrix ``P(s_t | s_{t-1})`` (rows sum to 1: the step's nodes are a Bayesian
network given the previous slice), and a step's observations are a 0/1 likelihood over the joint
states they agree with. Smoothing, filtering, the most probable assignment and the
log-likelihood are then the compiled forward-backward and Viterbi passes of
:mod:`bayeskit.sequences.forward_backward` (Murphy 2002, 3.5, the frontier algorithm, with the
joint state held as one vector): linear in the number of steps, quadratic in the joint state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import special

from bayeskit.sequences import _kernels
from bayeskit.sequences.forward_backward import run_forward_backward, viterbi


def _placed(cpt: np.ndarray, axes: list[int], n_axes: int, cards: list[int]) -> np.ndarray:
    """``cpt`` (axes in family order) as an array of ``n_axes`` axes, each family axis at its
    place in ``axes`` and length 1 elsewhere, to multiply by broadcasting."""
    order = np.argsort(axes)
    shape = [1] * n_axes
    for a in axes:
        shape[a] = cards[a]
    return np.transpose(cpt, order).reshape(shape)


class SliceChain:
    """The joint-state chain of a :class:`~bayeskit.sequences.DynamicBayesianNetwork`.

    Attributes
    ----------
    start : ndarray of shape (n_joint,)
    trans : ndarray of shape (n_joint, n_joint)
    cards : list of int
        The variables' numbers of states, in the network's order of variables; joint states
        in C order over them.
    """

    def __init__(self, dbn: Any):
        names = list(dbn.nodes)
        self.names = names
        self.cards = [len(dbn.states(b)) for b in names]
        v = len(names)
        where = {b: i for i, b in enumerate(names)}
        net = dbn.network
        start = np.ones(self.cards)
        trans = np.ones(self.cards + self.cards)
        for b in names:
            for slice_ in (0, 1):
                node = dbn._node[b, slice_]
                family = [*net.dag.parents(node), node]
                axes = []
                for member in family:
                    base, at = dbn._base[member]
                    axes.append(where[base] + (v if slice_ == 1 and at == 1 else 0))
                cpt = np.asarray(net.cpt(node), dtype=float)
                if slice_ == 0:
                    start = start * _placed(cpt, axes, v, self.cards)
                else:
                    trans = trans * _placed(cpt, axes, 2 * v, self.cards + self.cards)
        n = int(np.prod(self.cards))
        self.start = np.ascontiguousarray(start.reshape(n))
        self.trans = np.ascontiguousarray(trans.reshape(n, n))
        # the coordinate of each variable in each joint state
        self._coords = np.stack(np.unravel_index(np.arange(n), self.cards))

    def frame(self, codes: np.ndarray) -> np.ndarray:
        """The log-likelihood of each step's observations per joint state: 0 where the state
        agrees with them, ``-inf`` where not; ``codes`` ``(n_steps, n_variables)``, -1 where a
        variable is unobserved."""
        n_steps = len(codes)
        out = np.zeros((n_steps, len(self.start)))
        for i in range(len(self.cards)):
            seen = codes[:, i] >= 0
            if seen.any():
                bad = seen[:, None] & (self._coords[i][None, :] != codes[:, i][:, None])
                out[bad] = -np.inf
        return out

    def marginals(self, joint: np.ndarray, codes: np.ndarray) -> dict[str, dict[int, np.ndarray]]:
        """Each variable's rows (step -> distribution) from joint-state rows ``(n_steps,
        n_joint)``, at the steps where it is unobserved."""
        grid = joint.reshape(len(joint), *self.cards)
        rows: dict[str, dict[int, np.ndarray]] = {}
        every = tuple(range(1, len(self.cards) + 1))
        for i, b in enumerate(self.names):
            marginal = grid.sum(axis=tuple(a for a in every if a != i + 1))
            hidden = np.flatnonzero(codes[:, i] < 0)
            if len(hidden):
                rows[b] = {int(k): marginal[k] for k in hidden}
        return rows

    def smoothed(self, codes: np.ndarray) -> tuple[np.ndarray, float]:
        """The joint-state posteriors of every step given all, and ``log P(observations)``."""
        frame = self.frame(codes)
        fb = run_forward_backward(
            self.start, self.trans, frame, np.array([0, len(frame)], dtype=np.intp),
            transitions=False,
        )  # fmt: skip
        _refuse_impossible(fb.log_likelihood[0])
        assert fb.posteriors is not None
        return fb.posteriors, float(fb.log_likelihood[0])

    def filtered(self, codes: np.ndarray) -> np.ndarray:
        """The joint-state posteriors of every step given the steps up to it."""
        frame = self.frame(codes)
        out = np.empty_like(frame)
        value = _kernels.forward_rows(self.start, self.trans, frame, out)
        if value != value:  # out of the scaled pass's range (or impossible): in log space
            with np.errstate(divide="ignore"):
                logs = np.log(self.start), np.log(self.trans)
            value = _log_forward(*logs, frame, out)
        _refuse_impossible(value)
        return out

    def log_likelihood(self, codes: np.ndarray) -> float:
        """``log P(observations)``."""
        frame = self.frame(codes)
        fb = run_forward_backward(
            self.start, self.trans, frame, np.array([0, len(frame)], dtype=np.intp),
            posteriors=False, transitions=False,
        )  # fmt: skip
        return float(fb.log_likelihood[0])

    def most_probable(self, codes: np.ndarray) -> tuple[np.ndarray, float]:
        """The most probable joint state of every step (each variable's state codes, ``(n_steps,
        n_variables)``) and ``log P(path, observations)``."""
        with np.errstate(divide="ignore"):
            log_prob, path = viterbi(self.start, self.trans, self.frame(codes))
        _refuse_impossible(float(log_prob[0]))
        return np.stack(np.unravel_index(path, self.cards), axis=1), float(log_prob[0])


def _refuse_impossible(log_value: float) -> None:
    if not log_value > -np.inf:
        msg = "the observations have probability 0 under the network"
        raise ValueError(msg)


def _log_forward(log_start, log_trans, frame, out) -> float:
    """Normalised forward rows in log space (no range limit); ``log P(observations)``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = log_start + frame[0]
        for t in range(len(frame)):
            if t:
                alpha = special.logsumexp(alpha[:, None] + log_trans, axis=0) + frame[t]
            total = special.logsumexp(alpha)
            out[t] = np.exp(alpha - total)
    return float(total)
