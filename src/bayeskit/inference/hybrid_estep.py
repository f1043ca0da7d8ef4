"""What EM needs of a conditional linear Gaussian network and rows with values missing: each
row's ``log p(observed values)`` and every family's expected statistic (Lauritzen 1995, *The EM
algorithm for graphical association models with missing data*; Zhou, *Machine Learning*, 7.6).

A row observes some discrete and some continuous nodes. For each configuration ``d`` of all the
discrete nodes that agrees with the row, ``p(d, observed) = P(d) p(x_O | d)``, the second a
Gaussian evidence density; the unobserved continuous nodes ``R`` are then normal with the
conditional mean ``E[x_R | d, x_O]`` (linear in ``x_O``) and covariance ``Cov[x_R | d]`` (the
same for every row of a missingness pattern). So

* a table's expected counts are the posterior ``P(d | row)`` summed over the rows and over the
  configurations that agree with each cell of the family;
* a regression's expected scatter moments, for a configuration of its discrete parents, are
  ``sum_rows sum_d P(d | row) E[v v^T | d, row]``, ``v`` the family's continuous values, with
  ``E[v v^T] = E[v] E[v]^T + Cov[v]``.

Rows are grouped by which nodes they observe (one Cholesky factor per group and distinct
regression configuration), and every configuration of the discrete nodes is enumerated
(:class:`~bayeskit.inference.hybrid.Configurations`). The moments are accumulated about the
observed columns' means and returned as :class:`~bayeskit.stats.ScatterMoments` about their own
means, so large offsets cost no precision.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from bayeskit.inference.evidence import ZeroProbabilityEvidence
from bayeskit.inference.hybrid import Configurations
from bayeskit.stats import ScatterMoments

__all__ = ["ObservedRows", "expected_statistics", "row_log_likelihood"]

#: Rows times configurations held at once.
BLOCK_CELLS = 1 << 20


def row_log_likelihood(network: Any, columns: Mapping[Any, np.ndarray]) -> np.ndarray:
    """Each row's ``log p(observed values)``: the missing values summed (discrete) and
    integrated (continuous) out.

    Parameters
    ----------
    network : HybridNetwork or Configurations
        The network (or its enumerated configurations, :class:`Configurations`).
    columns : mapping
        Node -> its values: state codes (-1 missing) for a discrete node, float64 (NaN
        missing) for a continuous one.

    Returns
    -------
    ndarray of shape (n_rows,)
        ``-inf`` for a row of probability zero.

    Examples
    --------
    >>> from bayeskit.factors import LinearGaussianCPD
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> net = HybridNetwork(DAG(edges=[("x", "y")]), [LinearGaussianCPD("x", [], 0.0, [], 1.0),
    ...                     LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)])
    >>> rows = {"x": np.array([0.0, np.nan]), "y": np.array([np.nan, 0.0])}
    >>> row_log_likelihood(net, rows).round(4).tolist()  # N(0, 1), N(0, 2)
    [-0.9189, -1.2655]
    """
    conf = _configurations(network)
    return _Pass(conf, _rows(conf, columns, None), moments=False).run()


def expected_statistics(
    network: Any, columns: Mapping[Any, np.ndarray] | ObservedRows, weights: Any = None
) -> tuple[dict[Any, Any], np.ndarray]:
    """Every node's expected family statistic given the rows' observed values (EM's E-step):
    expected counts for a discrete node, expected scatter moments for a continuous one, shaped
    as the node's ``statistic`` shapes them for complete data; and each row's
    ``log p(observed values)``.

    Parameters
    ----------
    network : HybridNetwork or Configurations
        The network at its current parameters (or its enumerated configurations).
    columns : mapping or ObservedRows
        Node -> its values: state codes (-1 missing) for a discrete node, float64 (NaN
        missing) for a continuous one; or the rows grouped once (:class:`ObservedRows`, with
        their weights), for repeated E-steps.
    weights : array-like of shape (n_rows,), optional
        Non-negative row weights (with a mapping).

    Returns
    -------
    statistics : dict
        Node -> statistic (a count array, or :class:`~bayeskit.stats.ScatterMoments`).
    log_likelihood : ndarray of shape (n_rows,)
        Each row's ``log p(observed values)``.

    Raises
    ------
    ZeroProbabilityEvidence
        When a row has probability zero under the network (its index is named).

    Examples
    --------
    With ``x`` missing, ``y = 2`` makes ``x`` normal with mean 1 and variance 1/2:

    >>> from bayeskit.factors import LinearGaussianCPD
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> net = HybridNetwork(DAG(edges=[("x", "y")]), [LinearGaussianCPD("x", [], 0.0, [], 1.0),
    ...                     LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)])
    >>> stats, _ = expected_statistics(net, {"x": np.array([np.nan]), "y": np.array([2.0])})
    >>> stats["y"].mean.tolist(), stats["y"].scatter[0].tolist()
    ([[1.0, 2.0]], [[0.5, 0.0], [0.0, 0.0]])
    """
    conf = _configurations(network)
    p = _Pass(conf, _rows(conf, columns, weights), moments=True)
    ll = p.run()
    return p.statistics(), ll


class ObservedRows:
    """Rows of a network's data grouped by which nodes they observe, with each group's
    observed values: built once, read by every E-step of an EM run.

    Parameters
    ----------
    columns : mapping
        Node -> its values: state codes (-1 missing) for a discrete node, float64 (NaN
        missing) for a continuous one.
    discrete, continuous : sequence
        The network's discrete and continuous nodes, in the network's order of nodes.
    weights : array-like of shape (n_rows,), optional
        Non-negative row weights.

    Examples
    --------
    >>> rows = ObservedRows({"x": np.array([0.5, np.nan, 1.5])}, [], ["x"])
    >>> [group[0].tolist() for group in rows.groups]  # the rows of each pattern
    [[1], [0, 2]]
    """

    def __init__(self, columns: Mapping, discrete: Any, continuous: Any, weights: Any = None):
        self.discrete, self.continuous = tuple(discrete), tuple(continuous)
        n = len(next(iter(columns.values()))) if columns else 0
        self.n_rows = n
        self.disc = np.zeros((n, len(self.discrete)), dtype=np.intp)
        for j, v in enumerate(self.discrete):
            self.disc[:, j] = columns[v]
        self.cont = np.zeros((n, len(self.continuous)))
        for j, v in enumerate(self.continuous):
            self.cont[:, j] = columns[v]
        self.w = np.ones(n) if weights is None else np.asarray(weights, dtype=float).reshape(n)
        seen = ~np.isnan(self.cont)
        counts = seen.sum(axis=0)
        total = np.where(seen, self.cont, 0.0).sum(axis=0)
        self.shift = np.where(counts > 0, total / np.maximum(counts, 1), 0.0)
        observed = np.column_stack([self.disc >= 0, seen])
        if observed.shape[1] <= 62:
            key = observed.astype(np.int64) @ (np.int64(1) << np.arange(observed.shape[1]))
        else:
            key = np.unique(observed, axis=0, return_inverse=True)[1].reshape(-1)
        order = np.argsort(key, kind="stable")
        bounds = np.flatnonzero(np.diff(key[order])) + 1
        n_disc = len(self.discrete)
        self.groups = []
        for rows in np.split(order, bounds) if n else []:
            pattern = observed[rows[0]]
            seen_c, rest = np.flatnonzero(pattern[n_disc:]), np.flatnonzero(~pattern[n_disc:])
            values = self.cont[np.ix_(rows, seen_c)]
            self.groups.append((rows, np.flatnonzero(pattern[:n_disc]), seen_c, rest, values))


class _Conditional:
    """A joint Gaussian ``N(mean, cov)`` split into the observed variables ``seen`` and the
    others ``rest``: the density of ``x_seen``, and ``x_rest`` given it,
    ``N(mean_R + G (x_seen - mean_S), cov_RR - G cov_SR)`` with ``G = cov_RS cov_SS^-1``, ``cov``
    the conditional covariance."""

    def __init__(self, mean: np.ndarray, cov: np.ndarray, seen: np.ndarray, rest: np.ndarray):
        self.seen, self.rest = seen, rest
        self.centre, self.base = mean[seen], mean[rest]
        if len(seen):
            chol = np.linalg.cholesky(cov[np.ix_(seen, seen)])
            self.whiten = np.linalg.inv(chol)  # L^-1: |L^-1 (x - m)|^2 is the Mahalanobis form
            log_det = 2.0 * float(np.log(np.diag(chol)).sum())
            self.gain = (cov[np.ix_(rest, seen)] @ self.whiten.T) @ self.whiten
        else:
            self.whiten, log_det = np.zeros((0, 0)), 0.0
            self.gain = np.zeros((len(rest), 0))
        self.norm = -0.5 * (len(seen) * math.log(2 * math.pi) + log_det)
        self.cov = cov[np.ix_(rest, rest)] - self.gain @ cov[np.ix_(seen, rest)]

    def log_density(self, values: np.ndarray) -> np.ndarray:
        z = (values - self.centre) @ self.whiten.T
        return self.norm - 0.5 * np.einsum("ni,ni->n", z, z)

    def mean(self, values: np.ndarray) -> np.ndarray:
        return self.base[None, :] + (values - self.centre) @ self.gain.T


def _configurations(network: Any) -> Configurations:
    return network if isinstance(network, Configurations) else Configurations(network)


def _rows(engine: Any, rows: Any, weights: Any) -> ObservedRows:
    if isinstance(rows, ObservedRows):
        if (rows.discrete, rows.continuous) != (tuple(engine.discrete), tuple(engine.continuous)):
            msg = "the rows were grouped for another network's nodes"
            raise ValueError(msg)
        return rows
    return ObservedRows(rows, engine.discrete, engine.continuous, weights)


class _Pass:
    """One pass over the rows, pattern by pattern and block by block."""

    def __init__(self, engine: Any, rows: ObservedRows, moments: bool):
        self.e, self.rows = engine, rows
        self.moments = moments
        self.cards = np.array([len(engine.states[v]) for v in engine.discrete], dtype=np.intp)
        k, f = len(engine.continuous), len(engine.forms)
        self.mass = np.zeros(len(engine.codes))
        self.a0, self.a1, self.a2 = np.zeros(f), np.zeros((f, k)), np.zeros((f, k, k))
        self.order = np.argsort(engine.form_of, kind="stable")
        self.starts = np.searchsorted(engine.form_of[self.order], np.arange(f))
        self.moment_forms = []  # each regression configuration's joint Gaussian: (mean, cov)
        for K, h, _ in engine.forms:
            cov = np.linalg.inv(K) if len(h) else np.zeros((0, 0))
            self.moment_forms.append((cov @ h, (cov + cov.T) / 2))

    def run(self) -> np.ndarray:
        ll = np.empty(self.rows.n_rows)
        block = max(1, BLOCK_CELLS // max(1, len(self.e.codes)))
        for rows, seen_d, seen_c, rest, values in self.rows.groups:
            parts = [_Conditional(mean, cov, seen_c, rest) for mean, cov in self.moment_forms]
            for start in range(0, len(rows), block):
                cut = slice(start, start + block)
                ll[rows[cut]] = self._block(rows[cut], seen_d, values[cut], parts)
        return ll

    def _block(self, rows, seen_d, values, parts) -> np.ndarray:
        e = self.e
        log_e = np.column_stack([part.log_density(values) for part in parts])
        log_w = e.log_prior[None, :] + log_e[:, e.form_of]
        if len(seen_d):
            cards = self.cards[seen_d]
            config_key = np.ravel_multi_index(tuple(e.codes[:, seen_d].T), cards)
            row_key = np.ravel_multi_index(tuple(self.rows.disc[np.ix_(rows, seen_d)].T), cards)
            log_w = np.where(row_key[:, None] == config_key[None, :], log_w, -np.inf)
        top = log_w.max(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):  # rows of probability 0: -inf
            total = top + np.log(np.exp(log_w - top[:, None]).sum(axis=1))
        total = np.where(np.isfinite(top), total, -np.inf)
        if not self.moments:
            return total
        bad = ~np.isfinite(total)
        if bad.any():
            row = int(rows[np.argmax(bad)])
            msg = (
                f"row {row} has probability zero under the network: no value of what it leaves "
                "missing agrees with what it observes"
            )
            raise ZeroProbabilityEvidence(msg, rows=[row])
        post = np.exp(log_w - total[:, None]) * self.rows.w[rows, None]
        self.mass += post.sum(axis=0)
        per_form = np.add.reduceat(post[:, self.order], self.starts, axis=1)
        for f in np.flatnonzero(per_form.sum(axis=0) > 0):
            self._add_moments(int(f), per_form[:, f], values, parts[f])
        return total

    def _add_moments(self, f: int, q: np.ndarray, values, part: _Conditional) -> None:
        """Form ``f``'s moments of the rows (weights ``q``), about the column means."""
        shift = self.rows.shift
        x = np.empty((len(q), len(shift)))
        x[:, part.seen] = values
        x[:, part.rest] = part.mean(values)
        x -= shift
        total = float(q.sum())
        self.a0[f] += total
        self.a1[f] += q @ x
        self.a2[f] += (x * q[:, None]).T @ x
        if len(part.rest):
            self.a2[f][np.ix_(part.rest, part.rest)] += total * part.cov

    def statistics(self) -> dict[Any, Any]:
        """Node -> expected statistic, from the accumulated configuration masses and
        moments."""
        e = self.e
        out: dict[Any, Any] = {}
        at = {v: i for i, v in enumerate(e.discrete)}
        for node in e.discrete:
            cpd = e.cpds[node]
            family = [at[v] for v in (*cpd.parents, node)]
            shape = tuple(int(self.cards[i]) for i in family)
            flat = np.ravel_multi_index(tuple(e.codes[:, family].T), shape)
            counts = np.bincount(flat, weights=self.mass, minlength=int(np.prod(shape)))
            out[node] = counts.reshape(shape)
        index = {v: i for i, v in enumerate(e.continuous)}
        first = e.codes[self.order[self.starts]] if len(e.codes) else e.codes
        for node in e.continuous:
            out[node] = self._scatter(e.cpds[node], index, at, first)
        return out

    def _scatter(self, cpd: Any, index: Mapping, at: Mapping, first: np.ndarray):
        cols = [index[v] for v in (*cpd.continuous_parents, cpd.variable)]
        cards = tuple(len(cpd.states[p]) for p in cpd.discrete_parents)
        n_configs = int(np.prod(cards)) if cards else 1
        if cards:
            config = np.ravel_multi_index(tuple(first[:, [at[p] for p in cpd.discrete_parents]].T),
                                          cards)  # fmt: skip
        else:
            config = np.zeros(len(self.a0), dtype=np.intp)
        d = len(cols)
        count = np.bincount(config, weights=self.a0, minlength=n_configs)
        s1, s2 = np.zeros((n_configs, d)), np.zeros((n_configs, d, d))
        np.add.at(s1, config, self.a1[:, cols])
        np.add.at(s2, config, self.a2[np.ix_(range(len(self.a0)), cols, cols)])
        safe = np.where(count > 0, count, 1.0)
        mean = s1 / safe[:, None]
        scatter = s2 - np.einsum("c,ci,cj->cij", count, mean, mean)
        scatter = (scatter + scatter.transpose(0, 2, 1)) / 2
        mean = np.where(count[:, None] > 0, mean + self.rows.shift[cols][None, :], 0.0)
        scatter[count <= 0] = 0.0
        return ScatterMoments(count, mean, scatter)
