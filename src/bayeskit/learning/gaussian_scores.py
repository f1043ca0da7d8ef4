"""Structure scores of linear-Gaussian families, all from the data's scatter matrix.

A continuous node ``v`` with continuous parents ``P`` is scored by its least-squares fit (the
maximum-likelihood one, :class:`~bayeskit.factors.LinearGaussianCPD`): with ``S`` the weighted
scatter matrix of all the columns about their means and ``n`` the rows' total weight, the
residual sum of squares is ``RSS = S_vv - S_vP S_PP^-1 S_Pv`` and the log-likelihood
``LL = -n/2 (ln(2 pi RSS / n) + 1)``. A family has ``|P| + 2`` parameters (intercept, slopes,
variance), so ``BIC = LL - (|P| + 2) ln(n) / 2`` and ``AIC = LL - (|P| + 2)``: the same signs
and units as the discrete scores (:mod:`bayeskit.learning.scores`; Zhou, *Machine Learning*,
7.5.2, Eqs. 7.28-7.31).

The data is read once, into ``S``; a family's score is then a solve of ``|P|`` equations, and
the scores of a family with each other node added as a parent (what the climb asks after a
move) come from one solve: adding ``u`` lowers the RSS by ``S_vu|P^2 / S_uu|P``, the squared
partial covariance of ``v`` and ``u`` given ``P`` over the partial variance of ``u``.
Collinear parents get the least-squares solution of least norm. A residual variance is floored
at ``ZERO_VARIANCE`` times the node's own variance, so a node its parents determine exactly
scores high but finite.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import linalg

from bayeskit.learning._scorer import Scorer
from bayeskit.stats import scatter_moments

__all__ = ["GAUSSIAN_SCORES", "GaussianScores"]

#: The scores of linear-Gaussian families.
GAUSSIAN_SCORES = ("ll", "aic", "bic")

#: A residual variance below this share of the node's own variance counts as this share.
ZERO_VARIANCE = 1e-12


class GaussianScores(Scorer):
    """Family scores of continuous data from its scatter matrix (a pass over the rows once).

    Parameters
    ----------
    values : ndarray of shape (n_rows, n_nodes)
        The data, finite numbers.
    kind : {"ll", "aic", "bic"}
        The score.
    weights : ndarray of shape (n_rows,), optional
        Non-negative row weights.
    names : sequence, optional
        The nodes' names, for messages.

    Raises
    ------
    ValueError
        On an unknown score, a missing or infinite value, or a constant column.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=500)
    >>> scorer = GaussianScores(np.column_stack([x, 2 * x + rng.normal(size=500)]), "bic")
    >>> bool(scorer(1, frozenset({0})) > scorer(1, frozenset()))
    True
    """

    def __init__(self, values: np.ndarray, kind: str, weights: Any = None, names: Sequence = ()):
        if kind not in GAUSSIAN_SCORES:
            msg = (
                f"score {kind!r} is for discrete data; continuous data takes one of "
                f"{GAUSSIAN_SCORES}"
            )
            raise ValueError(msg)
        values = finite_values(values, names)
        names = list(names) or list(range(values.shape[1]))
        w = None if weights is None else np.asarray(weights, dtype=np.float64)
        moments = scatter_moments(values, np.zeros(len(values), dtype=np.intp), 1, w)
        n = float(moments.count[0])
        super().__init__(np.ones(values.shape[1], dtype=np.int64), kind, 1.0, n)
        self.S = moments.scatter[0]
        own = np.diag(self.S).copy()
        flat = np.flatnonzero(own <= 0)
        if len(flat):
            msg = f"column {names[flat[0]]!r} is constant: it has no variance to explain"
            raise ValueError(msg)
        self._floor = ZERO_VARIANCE * own

    def _family(self, v: int, rss: np.ndarray | float, k: int | np.ndarray) -> Any:
        """The score of ``v``'s family from its RSS and its number of parents ``k``."""
        n = self.n_rows
        loglik = gaussian_loglik(n, np.maximum(rss, self._floor[v]) / n)
        return penalised(loglik, np.asarray(k) + 2.0, self.kind, n)

    def _solve(self, parents: list[int], rhs: np.ndarray) -> np.ndarray:
        """``S_PP^-1 rhs`` by Cholesky; the least-norm solution where ``S_PP`` is singular or
        too ill-conditioned for it."""
        s_pp = self.S[np.ix_(parents, parents)]
        with warnings.catch_warnings():
            warnings.simplefilter("error", linalg.LinAlgWarning)
            try:
                return linalg.solve(s_pp, rhs, assume_a="pos")
            except (linalg.LinAlgError, linalg.LinAlgWarning):
                pass
        return linalg.lstsq(s_pp, rhs, lapack_driver="gelsd")[0]

    def __call__(self, v: int, parents: frozenset) -> float:
        key = (v, parents)
        if key not in self.cache:
            p = sorted(parents)
            rss = self.S[v, v]
            if p:
                rss = rss - self.S[v, p] @ self._solve(p, self.S[p, v])
            self.cache[key] = float(self._family(v, rss, len(p)))
        return self.cache[key]

    def _extend(self, v: int, parents: frozenset, cands: np.ndarray) -> np.ndarray:
        """Every candidate's score from one solve: adding ``u`` lowers the RSS by the squared
        partial covariance of ``v`` and ``u`` given the parents over ``u``'s partial variance.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> scorer = GaussianScores(rng.normal(size=(200, 3)), "ll")
        >>> ext = scorer.extensions(0, frozenset())
        >>> bool(np.isclose(ext[1], scorer(0, frozenset({1})))), bool(ext[0] == -np.inf)
        (True, True)
        """
        p = sorted(parents)
        if p:  # partial covariances given P: S - S_:P S_PP^-1 S_P:
            w = self._solve(p, self.S[p][:, np.r_[v, cands]])
            left = self.S[np.ix_(np.r_[v, cands], p)]
            row = self.S[v, cands] - left[0] @ w[:, 1:]
            own = self.S[v, v] - left[0] @ w[:, 0]
            diag = self.S[cands, cands] - np.einsum("ij,ji->i", left[1:], w[:, 1:])
        else:
            row, own, diag = self.S[v, cands], self.S[v, v], self.S[cands, cands]
        tiny = diag <= ZERO_VARIANCE * self.S[cands, cands]  # u collinear with P
        gain = np.where(tiny, 0.0, row**2 / np.where(tiny, 1.0, diag))
        return self._family(v, own - gain, len(p) + 1)


def finite_values(values: Any, names: Sequence = ()) -> np.ndarray:
    """``values`` as float64, refused (ValueError naming the column and row) when a value is
    missing or infinite: structure learning needs complete, finite data."""
    values = np.asarray(values, dtype=np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        name = list(names)[col] if len(names) else col
        msg = (
            f"column {name!r} has a missing or infinite value (row {row}); "
            "structure learning needs complete, finite data"
        )
        raise ValueError(msg)
    return values


def gaussian_loglik(n: Any, variance: Any) -> Any:
    """The log-likelihood of ``n`` (weighted) rows under the least-squares fit whose residual
    variance (RSS / n) is ``variance``: ``-n/2 (ln(2 pi variance) + 1)``."""
    return -0.5 * n * (np.log(2 * math.pi * variance) + 1.0)


def penalised(loglik: Any, n_params: Any, kind: str, n_rows: float) -> Any:
    """The score ``kind`` from a log-likelihood and a number of parameters ``|B|``: LL itself,
    ``AIC = LL - |B|``, ``BIC = LL - |B| ln(m) / 2`` (Zhou, *Machine Learning*, Eqs.
    7.30-7.31, in natural logs and to maximise)."""
    if kind == "bic":
        return loglik - n_params * math.log(n_rows) / 2
    if kind == "aic":
        return loglik - n_params
    return loglik
