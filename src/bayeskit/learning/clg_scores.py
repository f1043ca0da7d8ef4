"""Structure scores of conditional linear Gaussian families, for data with discrete and
continuous columns.

A discrete node's parents are discrete (the CLG rule), and its family is scored from counts as
in :mod:`bayeskit.learning.scores`. A continuous node ``v`` with discrete parents ``D`` and
continuous parents ``C`` has a least-squares regression on ``C`` per configuration ``c`` of
``D``: its log-likelihood is the sum over configurations of
``-n_c/2 (ln(2 pi RSS_c / n_c) + 1)``, with ``RSS_c`` from the configuration's scatter matrix
of the continuous columns as in :mod:`bayeskit.learning.gaussian_scores`, and it has
``q (|C| + 2)`` parameters for ``q`` configurations (AIC and BIC as there). A configuration
without rows adds nothing to the log-likelihood; a residual variance is floored at
``ZERO_VARIANCE`` times the node's overall variance. The scatter matrices per configuration of
a set of discrete parents are computed once (one pass over the rows) and kept.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from bayeskit.learning._scorer import Scorer
from bayeskit.learning.gaussian_scores import (
    GAUSSIAN_SCORES,
    ZERO_VARIANCE,
    gaussian_loglik,
    penalised,
)
from bayeskit.learning.parameters import NetworkData
from bayeskit.stats import scatter_moments

__all__ = ["CLGScores"]


class CLGScores(Scorer):
    """Family scores of data with discrete and continuous columns.

    Parameters
    ----------
    tables : Scorer
        The scorer of the discrete columns' families (counts).
    discrete : NetworkData
        The discrete columns, encoded.
    values : ndarray of shape (n_rows, n_continuous)
        The continuous columns, finite.
    order : sequence of (bool, int)
        For each node in the data's column order: whether it is continuous, and its index
        among its kind's columns.
    kind : {"ll", "aic", "bic"}
        The score.

    Raises
    ------
    ValueError
        On a score other than LL, AIC and BIC, or a constant continuous column.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 500)
    >>> data = NetworkData(("a",), {"a": ("x", "y")}, a[:, None], None)
    >>> x = np.where(a == 1, 3.0, 0.0) + rng.normal(size=500)
    >>> from bayeskit.learning.scores import _FamilyScores
    >>> tables = _FamilyScores(data, "bic", 1.0)
    >>> scorer = CLGScores(tables, data, x[:, None], [(False, 0), (True, 0)], "bic")
    >>> bool(scorer(1, frozenset({0})) > scorer(1, frozenset()))  # x depends on a
    True
    """

    def __init__(
        self, tables: Scorer, discrete: NetworkData, values: np.ndarray, order: list, kind: str
    ):
        weights = discrete.weights
        if kind not in GAUSSIAN_SCORES:
            msg = (
                f"score {kind!r} is for discrete data; data with continuous columns takes one "
                f"of {GAUSSIAN_SCORES}"
            )
            raise ValueError(msg)
        super().__init__(np.ones(len(order), dtype=np.int64), kind, 1.0, discrete.n_rows)
        self.weights = weights
        self.order = list(order)
        self.tables = tables
        self.codes = np.asarray(discrete.codes, dtype=np.intp)
        self.r = np.array([1 if c else int(discrete.n_states[i]) for c, i in self.order])
        self.values = np.asarray(values, dtype=np.float64)
        whole = scatter_moments(self.values, np.zeros(len(values), dtype=np.intp), 1, weights)
        own = np.diag(whole.scatter[0]) / max(float(whole.count[0]), 1.0)
        if np.any(own <= 0):
            msg = "a continuous column is constant: it has no variance to explain"
            raise ValueError(msg)
        self._floor = ZERO_VARIANCE * own  # per continuous column, a variance
        self._grouped: dict[frozenset, tuple[np.ndarray, np.ndarray]] = {}
        self.blocked = {(u, v) for u, (cu, _) in enumerate(self.order)
                        for v, (cv, _) in enumerate(self.order) if cu and not cv}  # fmt: skip

    # ------------------------------------------------------------------ continuous families

    def _moments(self, discrete: frozenset) -> tuple[np.ndarray, np.ndarray]:
        """Counts ``(q,)`` and scatter matrices ``(q, k, k)`` of the continuous columns per
        configuration of the discrete nodes ``discrete`` (positions in the data)."""
        if discrete not in self._grouped:
            cols = [self.order[u][1] for u in sorted(discrete)]
            cards = [int(self.r[u]) for u in sorted(discrete)]
            config = (
                np.ravel_multi_index(self.codes[:, cols].T, cards)
                if cols
                else np.zeros(len(self.values), dtype=np.intp)
            )
            q = int(np.prod(cards)) if cards else 1
            moments = scatter_moments(self.values, config, q, self.weights)
            self._grouped[discrete] = (moments.count, moments.scatter)
        return self._grouped[discrete]

    def _score(self, v: int, rss: np.ndarray, counts: np.ndarray, k: int) -> float:
        """The score of continuous ``v``'s family from each configuration's RSS and count."""
        j = self.order[v][1]
        seen = counts > 0
        n = counts[seen]
        var = np.maximum(rss[seen] / n, self._floor[j])
        loglik = float(np.sum(gaussian_loglik(n, var)))
        return float(penalised(loglik, len(counts) * (k + 2), self.kind, self.n_rows))

    def _split(self, parents: frozenset) -> tuple[frozenset, list[int]]:
        disc = frozenset(u for u in parents if not self.order[u][0])
        cont = sorted(self.order[u][1] for u in parents if self.order[u][0])
        return disc, cont

    def _rss(self, scatter: np.ndarray, j: int, cont: list[int]) -> np.ndarray:
        """Each configuration's RSS of column ``j`` on columns ``cont``."""
        rss = scatter[:, j, j].copy()
        if cont:
            for c in range(len(scatter)):
                s_pp = scatter[c][np.ix_(cont, cont)]
                beta = linalg.lstsq(s_pp, scatter[c][cont, j], lapack_driver="gelsd")[0]
                rss[c] -= scatter[c][j, cont] @ beta
        return rss

    def __call__(self, v: int, parents: frozenset) -> float:
        key = (v, parents)
        if key not in self.cache:
            if self.order[v][0]:
                disc, cont = self._split(parents)
                counts, scatter = self._moments(disc)
                rss = self._rss(scatter, self.order[v][1], cont)
                self.cache[key] = self._score(v, rss, counts, len(cont))
            elif any(self.order[u][0] for u in parents):
                self.cache[key] = -np.inf  # a discrete node with a continuous parent
            else:
                inner = frozenset(self.order[u][1] for u in parents)
                self.cache[key] = self.tables(self.order[v][1], inner)
        return self.cache[key]
