"""Exact inference in conditional linear Gaussian (CLG) networks, over the configurations of
the discrete nodes.

Given a configuration ``d`` of every discrete node, the continuous nodes form a linear-Gaussian
network (each CLG node takes the regression of ``d``'s configuration of its discrete parents),
so the joint density of ``d`` and the continuous evidence ``e`` is exactly

    ``p(d, e) = P(d) p(e | d)``,

``P(d)`` the product of the discrete tables and ``p(e | d)`` the Gaussian evidence density
(:func:`bayeskit.inference.gaussian.log_evidence`); the joint is a mixture of Gaussians with a
component per configuration (Lauritzen and Wermuth 1989). The posterior of discrete variables
is the normalised sum of ``p(d, e)`` over the configurations that agree with the discrete
evidence; that of continuous variables is the mixture of each configuration's Gaussian
posterior, weighted by ``p(d | e)``, configurations with the same regressions merged. The
configurations are enumerated (Lauritzen's strong junction tree organises the same sums
without enumerating them), at most :data:`MAX_CONFIGURATIONS` of them; a network with more is
refused before anything is computed.

The engine reads a network through ``nodes``, ``cpd(node)``, ``is_continuous(node)`` and
``states(node)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from bayeskit.factors import Factor
from bayeskit.factors.limits import InferenceTooLarge
from bayeskit.graphs import DAG
from bayeskit.inference.elimination import VariableElimination
from bayeskit.inference.evidence import (
    ZeroProbabilityEvidence,
    continuous_value,
    discrete_code,
)
from bayeskit.inference.gaussian import GaussianPosterior, _Plan, joint_form, log_evidence

__all__ = ["MAX_CONFIGURATIONS", "Configurations", "HybridInference", "MixturePosterior"]

#: The most configurations of the discrete nodes the engine enumerates.
MAX_CONFIGURATIONS = 1 << 16


@dataclass(frozen=True)
class MixturePosterior:
    """A posterior mixture of Gaussians over some continuous variables.

    Attributes
    ----------
    variables : tuple
        The variables, in the order of the arrays.
    weights : ndarray of shape (k,)
        The components' probabilities (they sum to 1).
    means : ndarray of shape (k, m)
    covariances : ndarray of shape (k, m, m)

    Examples
    --------
    >>> mix = MixturePosterior(("x",), np.array([0.5, 0.5]), np.array([[-1.0], [1.0]]),
    ...                        np.ones((2, 1, 1)))
    >>> mix.mean.tolist(), mix.covariance.tolist()
    ([0.0], [[2.0]])
    """

    variables: tuple
    weights: np.ndarray
    means: np.ndarray
    covariances: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        """The mixture's mean."""
        return self.weights @ self.means

    @property
    def covariance(self) -> np.ndarray:
        """The mixture's covariance (within-component plus between-component spread)."""
        centred = self.means - self.mean
        spread = np.einsum("k,ki,kj->ij", self.weights, centred, centred)
        return np.einsum("k,kij->ij", self.weights, self.covariances) + spread

    def to_frame(self) -> pd.DataFrame:
        """The mixture's mean and standard deviation per variable.

        Returns
        -------
        pandas.DataFrame
            Columns ``mean`` and ``std``, indexed by variable.

        Examples
        --------
        >>> MixturePosterior(("x",), np.ones(1), np.zeros((1, 1)), np.ones((1, 1, 1))).to_frame()
           mean  std
        x   0.0  1.0
        """
        return GaussianPosterior(self.variables, self.mean, self.covariance).to_frame()


class _DiscretePart:
    """The discrete nodes of a CLG network as the discrete engines read a network (no
    discrete node has a continuous parent, so they form a network of their own)."""

    def __init__(self, network: Any, nodes: list):
        self.nodes = tuple(nodes)
        self.dag = DAG(nodes, edges=[(u, v) for u, v in network.dag.edges if v in set(nodes)])
        self._cpds = {n: network.cpd(n) for n in nodes}

    def states(self, node: Any) -> tuple:
        return tuple(self._cpds[node].states[node])

    def cardinality(self, node: Any) -> int:
        return len(self.states(node))

    def cpt(self, node: Any) -> np.ndarray:
        return self._cpds[node].values


class Configurations:
    """Configurations of some discrete nodes of a conditional linear Gaussian network
    (``over``: every discrete node by default), each with the canonical form of the continuous
    nodes at it (their regressions at its configuration of their discrete parents, which must
    all be in ``over``); with every discrete node, each configuration's log prior too (the
    product of the tables).

    Parameters
    ----------
    network : HybridNetwork
    over : sequence, optional
        The discrete nodes enumerated, in the network's order.

    Raises
    ------
    InferenceTooLarge
        When ``over`` has more than :data:`MAX_CONFIGURATIONS` configurations.

    Examples
    --------
    >>> from bayeskit.factors import CPD
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> net = HybridNetwork(DAG(["a"]), [CPD("a", [], [0.25, 0.75], {"a": ["x", "y"]})])
    >>> Configurations(net).codes.tolist(), np.exp(Configurations(net).log_prior).tolist()
    ([[0], [1]], [0.25, 0.75])
    """

    def __init__(self, network: Any, over: Sequence[Any] | None = None):
        self.nodes = tuple(network.nodes)
        self.discrete = [n for n in self.nodes if not network.is_continuous(n)]
        self.continuous = [n for n in self.nodes if network.is_continuous(n)]
        self.states = {n: tuple(network.states(n)) for n in self.discrete}
        self.cpds = {n: network.cpd(n) for n in self.nodes}
        self.over = list(self.discrete if over is None else over)
        cards = [len(self.states[n]) for n in self.over]
        count = int(np.prod(cards, dtype=float)) if cards else 1
        if count > MAX_CONFIGURATIONS:
            what = "discrete nodes" if over is None else "discrete parents of continuous nodes"
            msg = (
                f"the {len(cards)} {what} have {count:,} joint configurations; exact hybrid "
                f"inference enumerates at most {MAX_CONFIGURATIONS:,}"
            )
            raise InferenceTooLarge(msg)
        codes = np.indices(cards).reshape(len(cards), -1).T if cards else np.zeros((1, 0))
        self.codes = codes.astype(np.intp)
        at = {n: i for i, n in enumerate(self.over)}
        self.log_prior = None
        if over is None:
            self.log_prior = np.zeros(len(self.codes))
            for node in self.discrete:
                cpd = network.cpd(node)
                family = [at[v] for v in (*cpd.parents, node)]
                with np.errstate(divide="ignore"):
                    self.log_prior += np.log(cpd.values[tuple(self.codes[:, family].T)])
        self.forms, self.form_of = self._continuous_forms(at)

    def _continuous_forms(self, at: Mapping) -> tuple[list, np.ndarray]:
        """The canonical form ``(K, h, g)`` of the continuous nodes for each distinct
        configuration of their discrete parents, and each configuration's form."""
        index = {v: i for i, v in enumerate(self.continuous)}
        factors = [self.cpds[v].to_factor() for v in self.continuous]
        keyed = sorted({at[p] for f in factors for p in f.discrete})
        keys, form_of = np.unique(self.codes[:, keyed], axis=0, return_inverse=True)
        forms = []
        for key in keys:
            codes = dict(zip(keyed, key, strict=True))
            configs = [
                int(np.ravel_multi_index([codes[at[p]] for p in f.discrete], f.cardinalities))
                if f.discrete
                else 0
                for f in factors
            ]
            forms.append(joint_form(factors, configs, index))
        return forms, form_of.ravel()


class HybridInference:
    """Exact posteriors of a conditional linear Gaussian network.

    The configurations enumerated are those of the discrete parents of continuous nodes
    (each fixes the continuous nodes' joint Gaussian); the other discrete nodes are summed out
    by variable elimination on the discrete part of the network (which no continuous node
    points into), so a network may have many discrete nodes as long as few of them are parents
    of continuous ones.

    Parameters
    ----------
    network : HybridNetwork
        Discrete and continuous nodes (:class:`~bayeskit.networks.HybridNetwork`).

    Raises
    ------
    InferenceTooLarge
        When the discrete parents of continuous nodes have more than
        :data:`MAX_CONFIGURATIONS` joint configurations.

    Examples
    --------
    A fair coin picks the mean of ``x``: ``N(-1, 1)`` or ``N(1, 1)``. Seeing ``x = 1`` makes
    heads ``e^2 / (1 + e^2)`` likely.

    >>> from bayeskit.factors import CPD, LinearGaussianCPD
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> net = HybridNetwork(DAG(edges=[("coin", "x")]), [
    ...     CPD("coin", [], [0.5, 0.5], {"coin": ["tails", "heads"]}),
    ...     LinearGaussianCPD("x", ["coin"], [-1.0, 1.0], [[], []], [1.0, 1.0],
    ...                       {"coin": ["tails", "heads"]})])
    >>> engine = HybridInference(net)
    >>> engine.query(["coin"], {"x": 1.0}).values.round(4).tolist()
    [0.1192, 0.8808]
    >>> engine.query(["x"], {"coin": "heads"}).mean.tolist()
    [1.0]
    """

    def __init__(self, network: Any):
        self.nodes = tuple(network.nodes)
        self._discrete = [n for n in self.nodes if not network.is_continuous(n)]
        self._continuous = [n for n in self.nodes if network.is_continuous(n)]
        parents = {p for v in self._continuous for p in network.cpd(v).discrete_parents}
        self._configs = Configurations(network, [n for n in self._discrete if n in parents])
        self._states = self._configs.states
        self._tables = None
        if self._discrete:  # the discrete part: a network of its own (no continuous parent)
            part: Any = _DiscretePart(network, self._discrete)  # read as a network is
            self._tables = VariableElimination(part)

    # ------------------------------------------------------------------ evidence

    def _split(self, evidence: Mapping | None) -> tuple[dict, list[int], np.ndarray]:
        """The discrete evidence as node -> state name, and the continuous evidence as
        positions among the continuous nodes (sorted) and values."""
        discrete: dict[Any, str] = {}
        cont: dict[int, float] = {}
        for node, value in (evidence or {}).items():
            if node in self._states:
                discrete[node] = self._states[node][discrete_code(node, value, self._states[node])]
            elif node in self._continuous:
                cont[self._continuous.index(node)] = continuous_value(node, value)
            else:
                msg = f"evidence variable {node!r} is no node of the network"
                raise ValueError(msg)
        order = sorted(cont)
        return discrete, order, np.array([cont[i] for i in order])

    def _weights(self, evidence: Mapping | None, extra: Sequence[Any] = ()):
        """``log p(c, q, e)`` for each enumerated configuration ``c`` that agrees with the
        discrete evidence (rows) and each configuration ``q`` of the ``extra`` discrete nodes
        not enumerated (further axes); the agreeing configurations, the plans of their forms,
        the continuous evidence and the ``extra`` nodes on the axes."""
        discrete, order, values = self._split(evidence)
        conf = self._configs
        keep = np.ones(len(conf.codes), dtype=bool)
        for j, node in enumerate(conf.over):
            if node in discrete:
                keep &= conf.codes[:, j] == self._states[node].index(discrete[node])
        configs = np.flatnonzero(keep)
        free = [j for j, n in enumerate(conf.over) if n not in discrete]
        axes = [n for n in extra if n not in conf.over]
        log_table = self._discrete_part([conf.over[j] for j in free] + axes, discrete)
        log_table = log_table[tuple(conf.codes[np.ix_(configs, np.array(free, dtype=np.intp))].T)]
        plans: dict[int, _Plan] = {}
        log_e = np.empty(len(conf.forms))
        for f in np.unique(conf.form_of[configs]):
            K, h, g = conf.forms[f]
            plans[int(f)] = _Plan(K, h, np.array(order, dtype=np.intp))
            log_e[f] = log_evidence(K, h, g, plans[int(f)], values[None, :])[0]
        shape = (len(configs),) + (1,) * len(axes)
        log_w = log_table + log_e[conf.form_of[configs]].reshape(shape)
        return configs, log_w, plans, values, axes

    def _discrete_part(self, variables: list, evidence: dict) -> np.ndarray:
        """``log P(variables, discrete evidence)`` as a table over ``variables``."""
        if self._tables is None:
            return np.zeros(())
        with np.errstate(divide="ignore"):
            log_pe = self._tables.probability_of_evidence(evidence, log=True) if evidence else 0.0
            if not np.isfinite(log_pe):
                shape = [len(self._states[v]) for v in variables]
                return np.full(shape, -np.inf)
            if not variables:
                return np.array(log_pe)
            return np.log(self._tables.query(variables, evidence).values) + log_pe

    # ------------------------------------------------------------------ questions

    def log_probability_of_evidence(self, evidence: Mapping | None = None) -> float:
        """``log p(e)``: a log probability for discrete evidence alone, a log density with
        continuous evidence.

        Parameters
        ----------
        evidence : mapping, optional
            Node -> state (discrete) or number (continuous).

        Returns
        -------
        float
            ``-inf`` for evidence of probability zero.

        Raises
        ------
        ValueError
            On an unknown node, a state that is not the node's, or continuous evidence that is
            not a finite number.

        Examples
        --------
        >>> from bayeskit.factors import CPD
        >>> from bayeskit.graphs import DAG
        >>> from bayeskit.networks import HybridNetwork
        >>> net = HybridNetwork(DAG(["a"]), [CPD("a", [], [0.25, 0.75], {"a": ["x", "y"]})])
        >>> round(float(np.exp(HybridInference(net).log_probability_of_evidence({"a": "y"}))), 2)
        0.75
        """
        log_w = self._weights(evidence)[1]
        return float(special.logsumexp(log_w)) if log_w.size else -np.inf

    def query(self, variables: Any, evidence: Mapping | None = None) -> Factor | MixturePosterior:
        """The joint posterior of discrete ``variables`` (a :class:`~bayeskit.factors.Factor`)
        or of continuous ones (a :class:`MixturePosterior`) given ``evidence``.

        Parameters
        ----------
        variables : hashable or sequence
            Query variables, all discrete or all continuous, none in ``evidence``.
        evidence : mapping, optional
            Node -> state (discrete) or number (continuous).

        Returns
        -------
        Factor or MixturePosterior

        Raises
        ------
        ValueError
            On an unknown variable, a query mixing the two kinds or overlapping the evidence,
            or bad evidence.
        ZeroProbabilityEvidence
            For evidence of probability zero.

        Examples
        --------
        >>> from bayeskit.factors import CPD
        >>> from bayeskit.graphs import DAG
        >>> from bayeskit.networks import HybridNetwork
        >>> net = HybridNetwork(DAG(["a"]), [CPD("a", [], [0.25, 0.75], {"a": ["x", "y"]})])
        >>> HybridInference(net).query("a").values.tolist()
        [0.25, 0.75]
        """
        if isinstance(variables, str) or not isinstance(variables, Sequence):
            variables = [variables]
        unknown = [v for v in variables if v not in self.nodes]
        if unknown:
            msg = f"query variable {unknown[0]!r} is no node of the network"
            raise ValueError(msg)
        both = [v for v in variables if v in (evidence or {})]
        if both:
            msg = f"{both[0]!r} is both queried and observed"
            raise ValueError(msg)
        kinds = {v in self._states for v in variables}
        if len(kinds) > 1:
            msg = "a query asks either discrete or continuous variables; ask each kind apart"
            raise ValueError(msg)
        discrete = kinds == {True}
        configs, log_w, plans, values, axes = self._weights(evidence, variables if discrete else ())
        total = special.logsumexp(log_w) if log_w.size else -np.inf
        if not np.isfinite(total):
            msg = "the evidence has probability 0 under the network"
            raise ZeroProbabilityEvidence(msg, dict(evidence or {}))
        post = np.exp(log_w - total)
        if discrete:
            return self._discrete_posterior(list(variables), configs, post, axes)
        return self._mixture(list(variables), configs, post, plans, values)

    def _discrete_posterior(self, variables: list, configs, post: np.ndarray, axes: list):
        """The table over ``variables`` from ``post`` (agreeing configurations by the
        ``axes`` nodes): the enumerated ones read from the configurations' codes, the others
        on their axes."""
        conf = self._configs
        keyed = [v for v in variables if v in conf.over]
        cols = [conf.over.index(v) for v in keyed]
        shape_k = [len(self._states[v]) for v in keyed]
        flat = np.zeros(len(configs), dtype=np.intp)
        if keyed:
            flat = np.ravel_multi_index(tuple(conf.codes[np.ix_(configs, cols)].T), shape_k)
        size_k = int(np.prod(shape_k)) if keyed else 1
        rest = post.reshape(len(configs), -1)  # the axes flattened
        table = np.zeros((size_k, rest.shape[1]))
        np.add.at(table, flat, rest)
        order = keyed + axes
        full = table.reshape([*shape_k, *[len(self._states[v]) for v in axes]])
        full = np.transpose(full, [order.index(v) for v in variables])
        return Factor(variables, full, {v: list(self._states[v]) for v in variables})

    def _mixture(self, variables: list, configs, post, plans, values) -> MixturePosterior:
        forms = self._configs.form_of[configs]
        ids = np.unique(forms)
        weights = np.array([post[forms == f].sum() for f in ids])
        means, covs = [], []
        for f in ids:
            plan = plans[int(f)]
            cols = plan.columns([self._continuous.index(v) for v in variables])
            means.append(plan.base[cols] - plan.gain[cols] @ values)
            covs.append(plan.covariance(cols))
        return MixturePosterior(tuple(variables), weights, np.array(means), np.array(covs))
