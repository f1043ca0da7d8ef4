"""Fitting a network with continuous nodes to data with values missing, or with nodes never
observed (latent), by EM (Zhou, *Machine Learning*, 7.6; Lauritzen 1995).

The E-step replaces each family's statistic by its expectation under the current parameters
(:func:`bayeskit.inference.hybrid_estep.expected_statistics`: expected counts for a table,
expected scatter moments for a regression); the M-step estimates the network from them exactly
as from complete data (:meth:`HybridNetwork.estimated`). The loop, its stopping rule and its
history are the one EM driver every model of the library uses
(:func:`bayeskit.estimate.em.run_em`), as for discrete networks (:func:`fit_em`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.data.kinds import continuous_columns
from bayeskit.data.validation import check_count, check_real, check_sample_weight, check_seed
from bayeskit.estimate import get_estimator
from bayeskit.estimate.em import EStep, run_em
from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.factors.states import latent_states
from bayeskit.graphs.dag import as_dag
from bayeskit.inference.hybrid_estep import ObservedRows, expected_statistics
from bayeskit.learning import EMResult
from bayeskit.networks.hybrid import HybridNetwork

__all__ = ["fit_hybrid_em"]


def fit_hybrid_em(
    dag: Any,
    data: pd.DataFrame,
    *,
    continuous: Iterable[Any] | None = None,
    states: Mapping[Any, Sequence[Any]] | None = None,
    latent: Mapping[Any, Any] | None = None,
    start: HybridNetwork | None = None,
    estimator: str = "mle",
    alpha: float = 1.0,
    ridge: float = 0.0,
    min_variance: float = 0.0,
    sample_weight: Any = None,
    max_iter: int = 100,
    tol: float = 1e-8,
    restarts: int = 0,
    seed: int | np.random.Generator | None = 0,
    progress: Callable[[int, float], Any] | None = None,
) -> EMResult:
    """Fit a network with continuous (linear-Gaussian) and discrete nodes to ``data`` with
    missing values, and latent nodes, by EM.

    Parameters
    ----------
    dag, data :
        The structure (a DAG, or (parent, child) pairs), and a frame of a column per observed
        node (a missing value, None or NaN, is not observed).
    continuous, states : optional
        The continuous nodes (default: the columns the one column rule calls numeric, and the
        latent nodes given as continuous), and discrete nodes' states (default: the columns').
    latent : mapping, optional
        The nodes without a column: node -> its number of states or their names (discrete),
        or None (continuous).
    start : HybridNetwork, optional
        Where EM starts. By default each family is estimated from the rows that observe all
        of it (tables with a pseudo-count of 1); one no row observes whole starts at random
        (a flat Dirichlet draw, or random regressions on the scale of the child's column).
    estimator, alpha :
        The tables' estimator and pseudo-count: "mle", or the posterior mode of a fixed
        Dirichlet prior (MAP-EM, as :func:`~bayeskit.networks.fit_em`).
    ridge, min_variance : float, default=0.0
        As :meth:`bayeskit.factors.LinearGaussianCPD.estimate` (``min_variance`` keeps a
        regression that a latent parent lets collapse onto a few rows away from variance 0).
    sample_weight, max_iter, tol, restarts, seed, progress :
        As :func:`~bayeskit.networks.fit_em`: row weights, the most E-steps, the relative
        change of the objective that stops EM, further starts (from the complete rows when
        ``start`` is given, then random; the best final objective is kept), their seed, and
        ``progress(iteration, log_likelihood)``.

    Returns
    -------
    EMResult
        ``network`` (a :class:`HybridNetwork`), ``history`` (each E-step's observed-data
        log-likelihood), ``objective`` (with the tables' prior), ``n_iter``, ``converged``.

    Raises
    ------
    ValueError
        On a node with no column that ``latent`` does not name, a discrete node with a
        continuous parent, an option out of range, a row of probability zero under the start
        (:class:`~bayeskit.inference.ZeroProbabilityEvidence`), a regression of variance 0.
    InferenceTooLarge
        When exact hybrid inference would enumerate too many discrete configurations.

    Examples
    --------
    ``y = 1 + 2 x + noise`` with a third of ``y`` missing:

    >>> from bayeskit.graphs import DAG
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=3000)
    >>> y = np.where(rng.random(3000) < 1 / 3, np.nan, 1 + 2 * x + rng.normal(size=3000) * 0.5)
    >>> result = fit_hybrid_em(DAG(edges=[("x", "y")]), pd.DataFrame({"x": x, "y": y}))
    >>> result.converged, result.network.cpd("y").coefficients.round(1).tolist()
    (True, [2.0])

    A mixture of two normals, its component a latent discrete node:

    >>> z = rng.random(4000) < 0.3
    >>> v = np.where(z, -2.0, 2.0) + rng.normal(size=4000)
    >>> result = fit_hybrid_em([("z", "v")], pd.DataFrame({"v": v}), latent={"z": 2})
    >>> sorted(result.network.cpd("v").intercept.round(1).tolist())
    [-2.0, 2.0]
    """
    get_estimator(estimator, "estimator", fixed_prior=True)
    _check_options(alpha, tol, max_iter, restarts)
    rng = check_seed(seed)
    frame, shell = _shell(as_dag(dag, what="dag"), data, continuous, states, latent)
    columns = shell._columns(frame)
    weights = check_sample_weight(sample_weight, len(frame))
    options = {"ridge": ridge, "min_variance": min_variance}
    starts = [_checked_start(start, shell)] if start is not None else []
    starts += _starts(shell, frame, columns, weights, rng, options, 1 + restarts - len(starts))
    runs = [
        _run(shell, network, columns, weights, estimator, alpha, options, max_iter, tol, progress)
        for network in starts
    ]
    return max(runs, key=lambda run: run.objective[-1])  # the first of the best


def _check_options(alpha: float, tol: float, max_iter: int, restarts: int) -> None:
    check_real("alpha", alpha, low=0)
    check_real("tol", tol, low=0)
    check_count("max_iter", max_iter, low=1)
    check_count("restarts", restarts)


def _shell(dag, data, continuous, states, latent) -> tuple[pd.DataFrame, HybridNetwork]:
    """The data with an empty column per latent node, and the network's template."""
    if not isinstance(data, pd.DataFrame):
        msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
        raise TypeError(msg)
    latent = dict(latent or {})
    unknown = [n for n in latent if n not in dag.nodes]
    if unknown:
        msg = f"latent node {unknown[0]!r} is no node of the DAG"
        raise ValueError(msg)
    clash = [n for n in latent if n in data.columns]
    if clash:
        msg = f"latent node {clash[0]!r} has a column in data; a latent node is never observed"
        raise ValueError(msg)
    absent = [n for n in dag.nodes if n not in data.columns and n not in latent]
    if absent:
        msg = (
            f"data has no column for node {absent[0]!r}; name it in latent (with its number of "
            "states, or None for a continuous node) if it is never observed"
        )
        raise ValueError(msg)
    hidden_states = {n: latent_states(n, spec) for n, spec in latent.items() if spec is not None}
    hidden_numbers = [n for n, spec in latent.items() if spec is None]
    empty = {n: np.full(len(data), np.nan) for n in hidden_numbers}
    empty |= {n: pd.Series([None] * len(data), dtype=object) for n in hidden_states}
    frame = data.assign(**empty) if latent else data  # (a new frame: data is left as it is)
    kinds = None
    if continuous is not None or hidden_numbers:
        observed = [n for n in dag.nodes if n not in latent]
        given = continuous_columns(data, observed) if continuous is None else continuous
        kinds = [*given, *hidden_numbers]
    shell = HybridNetwork.template(
        dag, frame, continuous=kinds, states={**dict(states or {}), **hidden_states}
    )
    return frame, shell


def _checked_start(start: Any, shell: HybridNetwork) -> HybridNetwork:
    if not isinstance(start, HybridNetwork):
        msg = f"start must be a HybridNetwork, got {type(start).__name__}"
        raise TypeError(msg)
    if start.dag != shell.dag:
        msg = "start must have the DAG being fitted"
        raise ValueError(msg)
    for node in shell.nodes:
        if start.is_continuous(node) != shell.is_continuous(node):
            kind = "continuous" if shell.is_continuous(node) else "discrete"
            msg = f"start's node {node!r} must be {kind}, as the data has it"
            raise ValueError(msg)
        if not start.is_continuous(node) and start.states(node) != shell.states(node):
            msg = (
                f"start's states of {node!r} ({list(start.states(node))}) are not the data's "
                f"({list(shell.states(node))})"
            )
            raise ValueError(msg)
    return start


def _starts(shell, frame, columns, weights, rng, options, n: int) -> list[HybridNetwork]:
    """``n`` starts: the first from the complete rows, the others at random."""
    return [_start(shell, frame, columns, weights, rng, options, observed=k == 0) for k in range(n)]


def _start(shell, frame, columns, weights, rng, options, *, observed: bool) -> HybridNetwork:
    """A starting network: each family from its complete rows (weighted) where ``observed``
    and it has them, else at random."""
    stats = shell.statistics(frame, weights) if observed else {}
    cpds: dict[Any, Any] = {}
    for node in shell.nodes:
        cpd = shell.cpd(node)
        if node in stats:
            try:
                if isinstance(cpd, CPD):
                    cpds[node] = cpd.estimate(stats[node], estimator="lidstone", alpha=1.0)
                else:
                    cpds[node] = cpd.estimate(stats[node], **options)
                continue
            except ValueError:  # a family no row observes whole: at random, below
                pass
        cpds[node] = _random(cpd, columns[node], rng)
    return HybridNetwork(shell.dag, cpds)


def _random(cpd: Any, values: np.ndarray, rng: np.random.Generator) -> Any:
    if isinstance(cpd, CPD):
        table = rng.dirichlet(np.ones(cpd.values.shape[-1]), size=cpd.values.shape[:-1])
        return CPD(cpd.variable, cpd.parents, table, cpd.states)
    seen = values[~np.isnan(values)]
    centre = float(seen.mean()) if len(seen) else 0.0
    scale = float(seen.std()) if len(seen) > 1 and seen.std() > 0 else 1.0
    shape = cpd.intercept.shape
    k = len(cpd.continuous_parents)
    return LinearGaussianCPD(
        cpd.variable, cpd.parents, centre + scale * rng.normal(size=shape),
        scale * rng.normal(size=(*shape, k)) / max(1.0, np.sqrt(k)),
        np.full(shape, scale**2), cpd.states,
    )  # fmt: skip


def _table_prior(shell: HybridNetwork, estimator: str, alpha: float) -> dict[Any, Any]:
    """Each table's Dirichlet pseudo-counts (MAP-EM's prior term), where it has any."""
    rule = get_estimator(estimator)
    out = {}
    for node in shell.discrete_nodes:
        pseudo = rule.pseudo_count(alpha, _table(shell, node).shape)
        if np.any(pseudo):
            out[node] = pseudo
    return out


def _table(net: HybridNetwork, node: Any) -> np.ndarray:
    cpd = net.cpd(node)
    assert isinstance(cpd, CPD)  # (a discrete node's)
    return cpd.values


def _run(shell, network, columns, weights, estimator, alpha, options, max_iter, tol,
         progress) -> EMResult:  # fmt: skip
    prior = _table_prior(shell, estimator, alpha)
    grouped = ObservedRows(columns, shell.discrete_nodes, shell.continuous_nodes, weights)

    def e_step(net: HybridNetwork, it: int) -> EStep:
        stats, ll = expected_statistics(net, grouped)
        total = float(np.dot(weights, ll)) if weights is not None else float(ll.sum())
        objective = total
        for node, pseudo in prior.items():
            with np.errstate(divide="ignore", invalid="ignore"):
                objective += float(np.nansum(pseudo * np.log(_table(net, node))))
        return EStep(stats, objective, total)

    def m_step(stats: dict) -> HybridNetwork:
        return shell.estimated(stats, estimator=estimator, alpha=alpha, **options)

    run = run_em(e_step, m_step, network, max_iter=max_iter, tol=tol, m_step_last=True,
                 progress=progress)  # fmt: skip
    return EMResult(run.parameters, run.log_likelihood, run.objective, run.n_iter, run.converged)
