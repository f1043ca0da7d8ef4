"""Exact inference in linear-Gaussian networks: the joint Gaussian in canonical form.

When every node is linear-Gaussian (``X = b0 + b . parents + N(0, s2)``), the joint density of
all the nodes is Gaussian, and the product of the nodes' densities is kept exactly in canonical
(information) form, ``p(x) = exp(-x^T K x / 2 + h . x + g)`` (Lauritzen 1992; Koller and
Friedman 2009, 14.2): each node adds its family's canonical form
(:meth:`bayeskit.factors.LinearGaussianCPD.to_factor`) into ``K``, ``h`` and ``g``, a sparse
pattern of the moral graph. Evidence ``x_E = e`` then leaves the canonical form of the other
nodes ``R`` with ``K_RR`` unchanged and ``h_R - K_RE e``; marginalising is inverting
``K_RR``: the posterior covariance is ``K_RR^-1`` and the mean ``K_RR^-1 (h_R - K_RE e)``.
``log p(e)`` is the integral of the reduced form,
``g' + h'^T K_RR^-1 h' / 2 + |R| log(2 pi) / 2 - log|K_RR| / 2``.

One Cholesky factorisation of ``K_RR`` serves every query with the same evidence variables,
and every row of a batch of evidence (the posterior means of a batch are one triangular solve
with a column per row); the factorisations of recent evidence sets are kept.

The engine reads a network through ``nodes`` and ``cpd(node)`` only.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import linalg

from bayeskit.factors.gaussian import CanonicalForm, LinearGaussianCPD
from bayeskit.inference.evidence import continuous_value

__all__ = ["GaussianInference", "GaussianPosterior"]

#: Factorisations of this many evidence sets are kept for later queries.
PLANS_KEPT = 64


@dataclass(frozen=True)
class GaussianPosterior:
    """A posterior Gaussian over some continuous variables.

    Attributes
    ----------
    variables : tuple
        The variables, in the order of the arrays.
    mean : ndarray of shape (k,)
    covariance : ndarray of shape (k, k)

    Examples
    --------
    >>> post = GaussianPosterior(("x",), np.array([1.0]), np.array([[4.0]]))
    >>> post.std.tolist()
    [2.0]
    """

    variables: tuple
    mean: np.ndarray
    covariance: np.ndarray

    @property
    def std(self) -> np.ndarray:
        """The standard deviation of each variable."""
        return np.sqrt(np.diag(self.covariance))

    def to_frame(self) -> pd.DataFrame:
        """The mean and standard deviation of each variable, a row each.

        Returns
        -------
        pandas.DataFrame
            Columns ``mean`` and ``std``, indexed by variable.

        Examples
        --------
        >>> GaussianPosterior(("x",), np.array([1.0]), np.array([[4.0]])).to_frame()
           mean  std
        x   1.0  2.0
        """
        return pd.DataFrame({"mean": self.mean, "std": self.std}, index=list(self.variables))


class _Plan:
    """What one set of evidence variables ``E`` needs, computed once: the other nodes ``R``,
    the Cholesky factor of ``K_RR``, and the conditional mean as a linear function of the
    evidence, ``mean_R(e) = base - gain e`` (``base = K_RR^-1 h_R``, ``gain = K_RR^-1 K_RE``);
    the posterior covariances of the query sets asked so far."""

    def __init__(self, K: np.ndarray, h: np.ndarray, evidence: np.ndarray):
        n = len(h)
        self.evidence = evidence
        self.rest = np.setdiff1d(np.arange(n), evidence)
        self.where = {int(v): k for k, v in enumerate(self.rest)}
        r = len(self.rest)
        if r:
            self.chol = linalg.cho_factor(K[np.ix_(self.rest, self.rest)], lower=True)
            self.log_det = 2.0 * float(np.log(np.diag(self.chol[0])).sum())
            self.base = linalg.cho_solve(self.chol, h[self.rest])
            self.gain = linalg.cho_solve(self.chol, K[np.ix_(self.rest, evidence)])
        else:
            self.chol, self.log_det = (np.zeros((0, 0)), True), 0.0
            self.base, self.gain = np.zeros(0), np.zeros((0, len(evidence)))
        self._covariances: dict[tuple, np.ndarray] = {}

    def columns(self, query: Sequence[int]) -> list[int]:
        """The positions of the query nodes among ``R``."""
        return [self.where[i] for i in query]

    def covariance(self, cols: Sequence[int]) -> np.ndarray:
        """The posterior covariance of the nodes at positions ``cols`` of ``R``."""
        key = tuple(cols)
        if key not in self._covariances:
            unit = np.zeros((len(self.rest), len(cols)))
            unit[list(cols), np.arange(len(cols))] = 1.0
            cov = linalg.cho_solve(self.chol, unit)[list(cols)]
            self._covariances[key] = (cov + cov.T) / 2
        return self._covariances[key]


class GaussianInference:
    """Exact posteriors of a network whose nodes are all linear-Gaussian.

    Parameters
    ----------
    network : object
        A network with ``nodes`` and ``cpd(node)`` giving each node's
        :class:`~bayeskit.factors.LinearGaussianCPD` (a
        :class:`~bayeskit.networks.HybridNetwork` of continuous nodes).

    Raises
    ------
    ValueError
        When a node is not linear-Gaussian, or has discrete parents.

    Examples
    --------
    ``x ~ N(0, 1)``, ``y = x + N(0, 1)``: given ``y = 2``, ``x ~ N(1, 1/2)``.

    >>> from bayeskit.factors import LinearGaussianCPD
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> net = HybridNetwork(DAG(edges=[("x", "y")]), [
    ...     LinearGaussianCPD("x", [], 0.0, [], 1.0),
    ...     LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)])
    >>> post = GaussianInference(net).query(["x"], {"y": 2.0})
    >>> post.mean.round(6).tolist(), post.covariance.round(6).tolist()
    ([1.0], [[0.5]])
    """

    def __init__(self, network: Any):
        self.nodes = tuple(network.nodes)
        self._index = {v: i for i, v in enumerate(self.nodes)}
        forms = []
        for node in self.nodes:
            cpd = network.cpd(node)
            if not isinstance(cpd, LinearGaussianCPD) or cpd.discrete_parents:
                msg = (
                    f"node {node!r} is not linear-Gaussian with continuous parents only; "
                    "Gaussian inference needs every node so"
                )
                raise ValueError(msg)
            forms.append(cpd.to_factor())
        self._K, self._h, self._g = joint_form(forms, [0] * len(forms), self._index)
        self._plans: OrderedDict[tuple, _Plan] = OrderedDict()

    # ------------------------------------------------------------------ checks and plans

    def _indices(self, variables: Any, what: str) -> list[int]:
        if isinstance(variables, str) or not isinstance(variables, Sequence):
            variables = [variables]
        unknown = [v for v in variables if v not in self._index]
        if unknown:
            msg = f"{what} {unknown[0]!r} is no node of the network"
            raise ValueError(msg)
        return [self._index[v] for v in variables]

    def _evidence(self, evidence: Mapping | None) -> tuple[list[int], np.ndarray]:
        evidence = dict(evidence or {})
        at = self._indices(list(evidence), "evidence variable")
        values = np.array([continuous_value(node, v) for node, v in evidence.items()])
        return at, values.reshape(len(at))

    def _plan(self, evidence: Sequence[int]) -> tuple[_Plan, np.ndarray]:
        """The plan of an evidence set, and the order that puts evidence given in the order
        ``evidence`` into the plan's (sorted) order."""
        order = np.argsort(np.asarray(evidence, dtype=np.intp), kind="stable")
        key = tuple(int(evidence[i]) for i in order)
        plan = self._plans.get(key)
        if plan is not None:
            self._plans.move_to_end(key)
            return plan, order
        plan = _Plan(self._K, self._h, np.array(key, dtype=np.intp))
        self._plans[key] = plan
        if len(self._plans) > PLANS_KEPT:
            self._plans.popitem(last=False)
        return plan, order

    # ------------------------------------------------------------------ questions

    def query(self, variables: Any, evidence: Mapping | None = None) -> GaussianPosterior:
        """The joint posterior of ``variables`` given ``evidence``.

        Parameters
        ----------
        variables : hashable or sequence
            The query variables (not in ``evidence``).
        evidence : mapping, optional
            Observed values, node -> number.

        Returns
        -------
        GaussianPosterior

        Raises
        ------
        ValueError
            On an unknown variable, a query variable in the evidence, or evidence that is not
            a finite number.

        Examples
        --------
        >>> from bayeskit.factors import LinearGaussianCPD
        >>> from bayeskit.graphs import DAG
        >>> from bayeskit.networks import HybridNetwork
        >>> net = HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 3.0, [], 2.0)])
        >>> GaussianInference(net).query("x").mean.tolist()
        [3.0]
        """
        q = self._indices(variables, "query variable")
        e, values = self._evidence(evidence)
        overlap = set(q) & set(e)
        if overlap:
            msg = f"{self.nodes[overlap.pop()]!r} is both queried and observed"
            raise ValueError(msg)
        plan, order = self._plan(e)
        cols = plan.columns(q)
        mean = plan.base[cols] - plan.gain[cols] @ values[order]
        cov = plan.covariance(cols)
        return GaussianPosterior(tuple(self.nodes[i] for i in q), mean, cov.copy())

    def query_batch(self, variables: Any, evidence: pd.DataFrame) -> pd.DataFrame:
        """The posterior means and standard deviations of ``variables`` for each row of
        evidence (a column per observed node; NaN: not observed in that row).

        Parameters
        ----------
        variables : hashable or sequence
            The query variables (no column of ``evidence``).
        evidence : pandas.DataFrame
            A row per evidence set.

        Returns
        -------
        pandas.DataFrame
            Per variable ``v``, columns ``(v, "mean")`` and ``(v, "std")``; the rows of
            ``evidence``.

        Raises
        ------
        ValueError
            On an unknown variable or column, a query variable among the columns, or a value
            that is not a finite number.

        Examples
        --------
        >>> from bayeskit.factors import LinearGaussianCPD
        >>> from bayeskit.graphs import DAG
        >>> from bayeskit.networks import HybridNetwork
        >>> net = HybridNetwork(DAG(edges=[("x", "y")]), [
        ...     LinearGaussianCPD("x", [], 0.0, [], 1.0),
        ...     LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)])
        >>> out = GaussianInference(net).query_batch("x", pd.DataFrame({"y": [2.0, np.nan]}))
        >>> out[("x", "mean")].tolist(), out[("x", "std")].round(4).tolist()
        ([1.0, 0.0], [0.7071, 1.0])
        """
        q, values, patterns = self._batch(variables, evidence)
        means = np.empty((len(evidence), len(q)))
        stds = np.empty((len(evidence), len(q)))
        columns = list(evidence.columns)
        for seen, rows in patterns:
            e = [self._index[columns[c]] for c in seen]
            plan, order = self._plan(e)
            cols = plan.columns(q)
            # the posterior means are linear in the evidence: one product for all the rows
            whole = len(rows) == len(values) and len(seen) == values.shape[1]
            block = values[:, seen[order]] if whole else values[np.ix_(rows, seen[order])]
            part = plan.base[cols][None, :] - block @ plan.gain[cols].T
            std = np.sqrt(np.diag(plan.covariance(cols)))
            if whole:
                means, stds = part, np.broadcast_to(std, part.shape)
            else:
                means[rows], stds[rows] = part, std
        names = [self.nodes[i] for i in q]
        k = len(names)  # (variable, mean|std) columns, built from codes (no factorising)
        index = pd.MultiIndex(
            levels=[pd.Index(names, dtype=object), ["mean", "std"]],
            codes=[np.repeat(np.arange(k), 2).tolist(), [0, 1] * k],
            verify_integrity=False,
        )
        data = np.empty((len(evidence), 2 * k))
        data[:, 0::2], data[:, 1::2] = means, stds
        return pd.DataFrame(data, index=evidence.index, columns=index, copy=False)

    def _batch(self, variables: Any, evidence: pd.DataFrame):
        if not isinstance(evidence, pd.DataFrame):
            msg = f"evidence must be a pandas DataFrame, got {type(evidence).__name__}"
            raise TypeError(msg)
        q = self._indices(variables, "query variable")
        e_all = self._indices(list(evidence.columns), "evidence column")
        if set(q) & set(e_all):
            msg = f"{self.nodes[(set(q) & set(e_all)).pop()]!r} is both queried and a column"
            raise ValueError(msg)
        try:
            values = evidence.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError) as err:
            msg = "evidence for continuous nodes must be numbers"
            raise ValueError(msg) from err
        if np.isinf(values).any():
            msg = "evidence must be finite (NaN: not observed)"
            raise ValueError(msg)
        seen = ~np.isnan(values)
        if seen.all():  # the common case: every row observes every column
            return q, values, [(np.arange(seen.shape[1]), np.arange(len(seen)))]
        # rows grouped by which columns they observe: each row's pattern packed into bytes
        packed = np.ascontiguousarray(np.packbits(seen, axis=1))
        keys, first, inverse = np.unique(
            packed.view(f"V{packed.shape[1]}").ravel(), return_index=True, return_inverse=True
        )
        patterns = [
            (np.flatnonzero(seen[first[k]]), np.flatnonzero(inverse == k)) for k in range(len(keys))
        ]
        return q, values, patterns

    def log_probability_of_evidence(self, evidence: Mapping) -> float:
        """``log p(e)``, the log density of the observed values (the others integrated out).

        Parameters
        ----------
        evidence : mapping
            Observed values, node -> number.

        Returns
        -------
        float

        Raises
        ------
        ValueError
            On an unknown node, or a value that is not a finite number.

        Examples
        --------
        >>> from bayeskit.factors import LinearGaussianCPD
        >>> from bayeskit.graphs import DAG
        >>> from bayeskit.networks import HybridNetwork
        >>> net = HybridNetwork(DAG(edges=[("x", "y")]), [
        ...     LinearGaussianCPD("x", [], 0.0, [], 1.0),
        ...     LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)])
        >>> round(GaussianInference(net).log_probability_of_evidence({"y": 0.0}), 4)  # N(0, 2)
        -1.2655
        """
        e, values = self._evidence(evidence)
        plan, order = self._plan(e)
        return float(log_evidence(self._K, self._h, self._g, plan, values[None, order])[0])


def log_evidence(K: np.ndarray, h: np.ndarray, g: float, plan: _Plan, values: np.ndarray):
    """``log p(e)`` under the canonical form ``(K, h, g)`` of evidence rows ``values``
    ``(n_rows, |E|)``, columns in the plan's (sorted) order of the evidence variables: the
    reduced form ``g' = g + h_E e - e^T K_EE e / 2``, ``h' = h_R - K_RE e`` integrated over the
    others, ``g' + h'^T K_RR^-1 h' / 2 + |R| log(2 pi) / 2 - log|K_RR| / 2``."""
    e_cols = plan.evidence
    k_ee = K[np.ix_(e_cols, e_cols)]
    reduced = g + values @ h[e_cols] - 0.5 * np.einsum("ni,ij,nj->n", values, k_ee, values)
    if not len(plan.rest):
        return reduced
    h_r = h[plan.rest][None, :] - values @ K[np.ix_(plan.rest, e_cols)].T
    solved = plan.base[None, :] - values @ plan.gain.T  # K_RR^-1 h'
    r = len(plan.rest)
    return (
        reduced
        + 0.5 * np.einsum("ni,ni->n", h_r, solved)
        + 0.5 * (r * math.log(2 * math.pi) - plan.log_det)
    )


def joint_form(
    forms: Sequence[CanonicalForm], configs: Sequence[int], index: Mapping[Any, int]
) -> tuple[np.ndarray, np.ndarray, float]:
    """The product of the nodes' canonical forms, each at its configuration ``configs[k]`` of
    its discrete parents, as ``(K, h, g)`` over the variables numbered by ``index``: each
    family's blocks added at its variables' places."""
    n = len(index)
    K, h, g = np.zeros((n, n)), np.zeros(n), 0.0
    for form, config in zip(forms, configs, strict=True):
        place = [index[v] for v in form.continuous]
        K[np.ix_(place, place)] += form.K[config]
        h[place] += form.h[config]
        g += float(form.g[config])
    return K, h, g
