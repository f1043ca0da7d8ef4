"""Likelihood weighting in networks of discrete and continuous nodes.

Each sample draws the unobserved nodes forward, parents first (a table's row for a discrete
node, the regression mean plus normal noise for a continuous one), and holds the observed
nodes at their values; its weight is the product of the observed nodes' probabilities or
densities given their sampled parents (Koller and Friedman 2009, 12.2). Weighted shares of a
discrete node's states estimate its posterior; the weighted mean and variance of a continuous
node estimate its posterior mean and variance. The estimates converge to the exact posteriors
(:class:`~bayeskit.inference.HybridInference`) as ``1 / sqrt(n)``.

The sampler reads a network through ``dag``, ``nodes``, ``cpd(node)``, ``is_continuous(node)``
and ``states(node)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bayeskit.data.validation import check_count, check_seed
from bayeskit.factors import Factor
from bayeskit.factors.gaussian import parent_columns
from bayeskit.inference.evidence import ZeroProbabilityEvidence, continuous_value, discrete_code
from bayeskit.inference.gaussian import GaussianPosterior

__all__ = ["hybrid_likelihood_weighting"]


def hybrid_likelihood_weighting(
    network: Any,
    variables: Any,
    evidence: Mapping[Any, Any] | None = None,
    *,
    n_samples: int = 10_000,
    seed: int | np.random.Generator | None = None,
) -> dict[Any, Factor | GaussianPosterior]:
    """Estimate posteriors in a network of discrete and continuous nodes by likelihood
    weighting.

    Parameters
    ----------
    network : HybridNetwork
        The network.
    variables : node or list of nodes
        The nodes whose posteriors are estimated (not evidence nodes).
    evidence : mapping, optional
        Node -> state (discrete) or number (continuous).
    n_samples : int, default=10_000
        The samples drawn.
    seed : int or Generator, optional
        The random numbers (None: fresh entropy).

    Returns
    -------
    dict
        Node -> a :class:`~bayeskit.factors.Factor` of the weighted shares of its states (a
        discrete node), or a :class:`~bayeskit.inference.GaussianPosterior` holding the
        weighted mean and variance (a continuous node).

    Raises
    ------
    ValueError
        On an unknown node, a query node in the evidence, or bad evidence.
    ZeroProbabilityEvidence
        When every sample has weight 0.

    Examples
    --------
    >>> from bayeskit.factors import CPD, LinearGaussianCPD
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> coin = {"coin": ["tails", "heads"]}
    >>> net = HybridNetwork(DAG(edges=[("coin", "x")]), [CPD("coin", [], [0.5, 0.5], coin),
    ...     LinearGaussianCPD("x", ["coin"], [-1.0, 1.0], [[], []], [1.0, 1.0], coin)])
    >>> post = hybrid_likelihood_weighting(net, "coin", {"x": 1.0}, n_samples=50_000, seed=0)
    >>> abs(float(post["coin"].values[1]) - 0.8808) < 0.01  # exact: e^2 / (1 + e^2)
    True
    """
    check_count("n_samples", n_samples, low=1)
    rng = check_seed(seed)
    if isinstance(variables, str) or not isinstance(variables, Sequence):
        variables = [variables]
    evidence = dict(evidence or {})
    for v in [*variables, *evidence]:
        if v not in network.nodes:
            msg = f"{v!r} is no node of the network"
            raise ValueError(msg)
    both = [v for v in variables if v in evidence]
    if both:
        msg = f"{both[0]!r} is both queried and observed"
        raise ValueError(msg)
    held = {v: _held(network, v, value) for v, value in evidence.items()}
    columns: dict[Any, np.ndarray] = {}
    log_w = np.zeros(n_samples)
    for node in network.dag.topological_order():
        cpd = network.cpd(node)
        parents = parent_columns(cpd, columns, n_samples)
        if node in held:
            columns[node] = np.full(n_samples, held[node])
            with np.errstate(divide="ignore"):
                log_w += cpd.log_density(columns[node], parents)
        else:
            columns[node] = cpd.sample(parents, rng)
    if not np.isfinite(log_w).any():
        msg = f"every one of {n_samples:,} samples has weight 0 given the evidence"
        raise ZeroProbabilityEvidence(msg, evidence)
    w = np.exp(log_w - log_w.max())
    w /= w.sum()
    out: dict[Any, Factor | GaussianPosterior] = {}
    for v in variables:
        if network.is_continuous(v):
            mean = float(w @ columns[v])
            var = float(w @ (columns[v] - mean) ** 2)
            out[v] = GaussianPosterior((v,), np.array([mean]), np.array([[var]]))
        else:
            states = list(network.states(v))
            shares = np.bincount(columns[v].astype(np.intp), weights=w, minlength=len(states))
            out[v] = Factor([v], shares, {v: states})
    return out


def _held(network: Any, node: Any, value: Any) -> float | int:
    """An evidence value as the node's distribution reads it (a state code, or a number)."""
    if network.is_continuous(node):
        return continuous_value(node, value)
    return discrete_code(node, value, network.states(node))
