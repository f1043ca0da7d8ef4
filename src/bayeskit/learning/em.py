"""Parameter learning from incomplete data by EM (Zhou, *Machine Learning*, 7.6; Han, Kamber
and Pei, *Data Mining: Concepts and Techniques*, 9.1.2).

With values missing, differently in every row, or nodes never observed (latent), the counts of
a family are not known; EM replaces them by their expectations under the current parameters
``Theta^t`` (the E-step, ``P(family | the row's observed values, Theta^t)`` summed over rows, the
expected log-likelihood ``Q(Theta | Theta^t)`` of Eq. 7.36), then estimates the CPTs from them
as from complete data (the M-step, Eq. 7.37). The E-step is one compiled pass of the junction
tree over the rows (:meth:`~bayeskit.networks.JunctionTree.expected_family_counts`), which also
gives each row's ``log P(observed values)``: their weighted sum is the observed-data
log-likelihood of ``Theta^t``, kept in ``history``. The tree is compiled once; only its
potentials change between iterations.

With a Dirichlet prior (``estimator="lidstone"``, ``"bdeu"`` or another estimator of the
registry that is a fixed prior: Laplace, the m-estimate, Dirichlet MAP, K2), the M-step adds the
prior's pseudo-counts: MAP-EM, which never lowers ``log-likelihood + sum pseudo-count x log theta``
(``objective``). With ``"mle"`` the objective is the log-likelihood itself, which EM never
lowers. Rows are counted once per distinct pattern of values (weighted by their number).

Starts: the given network's CPTs ("expert values", in Han, Kamber and Pei's words on training
belief networks), or random CPTs (each row a Dirichlet(1) draw, seeded) that break the symmetry
of latent states; with ``restarts`` the best of several random starts, by objective, is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._progress import iterations_adapter, reports_progress
from bayeskit._text import shown
from bayeskit.data.rows import distinct_rows
from bayeskit.data.validation import check_count, check_real, check_sample_weight, check_seed
from bayeskit.estimate import get_estimator
from bayeskit.estimate.em import EStep, run_em, settled
from bayeskit.factors.cpd import aligned_cpts
from bayeskit.factors.states import latent_states, state_codes
from bayeskit.graphs.dag import DAG, as_dag
from bayeskit.learning.parameters import (
    _cpts,
    check_table_cells,
    column_states,
)
from bayeskit.stats import FamilyCounts

__all__ = ["EMResult", "expected_counts", "fit_network_em"]


@dataclass
class EMResult:
    """The outcome of :func:`fit_em`.

    Attributes
    ----------
    network : BayesianNetwork
        The network at the last iteration's M-step.
    history : list of float
        The observed-data log-likelihood (natural logs) of the parameters each E-step used.
    objective : list of float
        What EM maximises: the log-likelihood plus, for a Dirichlet prior, ``sum pseudo-count x
        log theta``; never decreasing.
    n_iter : int
    converged : bool
        Whether the relative change of the objective fell below ``tol`` within ``max_iter``.

    Examples
    --------
    >>> from bayeskit.networks import fit_em
    >>> data = pd.DataFrame({"rain": ["y", None, "n", "n", None, "y"],
    ...                      "wet": ["y", "y", "n", None, "n", "y"]})
    >>> result = fit_em([("rain", "wet")], data, seed=0)
    >>> result.converged, result.n_iter == len(result.history)
    (True, True)
    >>> sorted(result.network.nodes)
    ['rain', 'wet']
    """

    network: Any
    history: list[float] = field(default_factory=list)
    objective: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False


@reports_progress("EM", lambda a: iterations_adapter(a["max_iter"], "log-likelihood"))
def fit_network_em(
    dag: Any,
    data: pd.DataFrame,
    *,
    network_type: Callable[..., Any],
    states: Mapping[Any, Any] | None = None,
    latent: Mapping[Any, Any] | None = None,
    start: Any = None,
    estimator: str = "mle",
    alpha: float | None = None,
    sample_weight: Any = None,
    max_iter: int = 100,
    tol: float = 1e-8,
    restarts: int = 0,
    seed: int | np.random.Generator | None = 0,
    progress: Callable[[int, float], Any] | None = None,
    method: str = "em",
) -> EMResult:
    """Fit ``dag``'s CPTs to ``data`` with missing values (and latent nodes) by EM: each
    network built as ``network_type(dag, cpts, states=states)``
    (:func:`~bayeskit.networks.fit_em` with a network class).

    Parameters
    ----------
    dag, data, states, latent, start, estimator, alpha, sample_weight, max_iter, tol, \
restarts, seed, progress, method :
        As :func:`~bayeskit.networks.fit_em`.
    network_type : callable
        Builds each network: ``network_type(dag, cpts, states=states)`` (a
        :class:`~bayeskit.networks.BayesianNetwork` subclass, or a function).

    Returns
    -------
    EMResult
        The fitted network (of ``network_type``) and the run's history, as
        :func:`~bayeskit.networks.fit_em` returns.

    Raises
    ------
    ValueError
        An estimator that is not the posterior mode of a fixed Dirichlet prior, a ``method``
        other than "em" or "gradient", an option out of range, or ``data`` sharing no column
        with the DAG (named, with the rule).

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> data = pd.DataFrame({"rain": ["y", None, "n", "n", None, "y"],
    ...                      "wet": ["y", "y", "n", None, "n", "y"]})
    >>> result = fit_network_em(DAG(edges=[("rain", "wet")]), data,
    ...                         network_type=BayesianNetwork, seed=0)
    >>> type(result.network).__name__, result.converged
    ('BayesianNetwork', True)
    """
    get_estimator(estimator, "estimator", fixed_prior=True)  # the M-step of a fixed prior
    if method not in ("em", "gradient"):
        msg = f"method must be 'em' or 'gradient', got {method!r}"
        raise ValueError(msg)
    check_real("alpha", alpha, low=0, none_ok=True)
    a = 1.0 if alpha is None else alpha
    check_count("max_iter", max_iter, low=1)
    check_count("restarts", restarts)
    check_real("tol", tol, low=0)
    rng = check_seed(seed)
    dag = as_dag(dag, what="dag")
    if isinstance(data, pd.DataFrame) and not any(n in data.columns for n in dag.nodes):
        msg = (
            f"data shares no column with the DAG (its nodes: {shown(list(dag.nodes)[:10])}; "
            f"data's columns: {shown(list(data.columns)[:10])}): every node would be latent, "
            "with nothing to learn from; name data's columns after the nodes"
        )
        raise ValueError(msg)
    if _is_network(start) and start.dag == dag:  # its states, unless given
        taken = {n: start.states(n) for n in dag.nodes if n not in (latent or {})}
        states = {**taken, **dict(states or {})}
    node_states, codes = encode_observed(dag, data, states, latent)
    check_table_cells(dag, node_states)  # before the random starts allocate the CPTs
    weights = check_sample_weight(sample_weight, len(codes))
    codes, weights = distinct_rows(codes, weights, missing="last")
    if start is not None:
        starts = [aligned_cpts(start, dag, node_states, "start")]
    else:
        starts = []
    while len(starts) < 1 + restarts:
        starts.append(_random_cpts(dag, node_states, rng))
    from bayeskit.inference.junction import JunctionTree

    shell = network_type(dag, dict(zip(dag.nodes, starts[0], strict=True)), states=node_states)
    tree = JunctionTree(shell)
    best: EMResult | None = None
    for tables in starts:
        run = _run if method == "em" else _ascend
        result = run(tree, dag, node_states, codes, weights, tables, estimator, float(a),
                     max_iter, tol, progress, network_type)  # fmt: skip
        if best is None or result.objective[-1] > best.objective[-1]:
            best = result
    assert best is not None  # (one start at least)
    return best


def expected_counts(
    network: Any, data: pd.DataFrame, *, sample_weight: Any = None
) -> tuple[FamilyCounts, float]:
    """The E-step of EM on a chunk of rows: every family's expected counts under ``network``,
    ``sum_rows w P(parents, node | the row's observed values)``, and the rows' log-likelihood
    ``sum_rows w log P(observed values)``.

    The counts are the statistic complete data gives (:class:`~bayeskit.stats.FamilyCounts`
    over the families ``(parents..., node)``, columns in node order, as
    :attr:`NetworkFit.counts`), so the counts of chunks add up (``a + b``) to those of all
    their rows, with complete rows they *are* the counts, and the M-step is the estimate from
    counts: chunked or distributed EM is this function per chunk, a sum, and
    :func:`~bayeskit.networks.fit_parameters`'s estimators. A node with no column in ``data``
    is latent (never observed); a missing value is not observed. Rows of probability zero under
    ``network`` add nothing to the counts and make the log-likelihood ``-inf``.

    Parameters
    ----------
    network : BayesianNetwork
        The current parameters.
    data : DataFrame
        A column per observed node (by node name); None or NaN where a value is missing.
    sample_weight : array-like of shape (n_rows,), optional
        Non-negative row weights.

    Returns
    -------
    counts : FamilyCounts
        The expected family counts (each family's table with the node on its last axis).
    log_likelihood : float
        ``sum_rows w log P(observed values)`` (natural logs).

    Raises
    ------
    TypeError
        ``network`` is no Bayesian network, or ``data`` no DataFrame.
    ValueError
        A value that is none of its node's states, or a bad ``sample_weight`` (named).

    Examples
    --------
    >>> from bayeskit.networks import BayesianNetwork
    >>> dag = DAG(edges=[("rain", "wet")])
    >>> net = BayesianNetwork(dag, {"rain": [0.5, 0.5], "wet": [[0.9, 0.1], [0.2, 0.8]]},
    ...                       states={"rain": ["n", "y"], "wet": ["n", "y"]})
    >>> rows = pd.DataFrame({"rain": ["y", None], "wet": ["y", "y"]})
    >>> counts, ll = expected_counts(net, rows)
    >>> counts.table((0, 1)).round(3).tolist()  # (rain, wet): the second row splits 1/9, 8/9
    [[0.0, 0.111], [0.0, 1.889]]
    >>> round(ll, 4)  # log P(rain=y, wet=y) + log P(wet=y)
    -1.7148
    """
    if not _is_network(network):
        msg = f"network must be a BayesianNetwork, got {type(network).__name__}"
        raise TypeError(msg)
    dag = network.dag
    if not isinstance(data, pd.DataFrame):
        msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
        raise TypeError(msg)
    states = {n: network.states(n) for n in dag.nodes}
    latent = {n: states[n] for n in dag.nodes if n not in data.columns}
    _, codes = encode_observed(dag, data, states, latent)
    weights = check_sample_weight(sample_weight, len(codes))
    codes, weights = distinct_rows(codes, weights, missing="last")
    tables, log_pe = network._junction_tree().expected_family_counts(codes, weights)
    ll = float(np.dot(weights, log_pe)) if len(codes) else 0.0
    return _family_counts(dag, states, tables), ll


def _family_counts(dag: DAG, states: dict, tables: list[np.ndarray]) -> FamilyCounts:
    """Per-node expected counts (CPT-shaped, nodes in order) as the complete-data statistic."""
    pos = {n: j for j, n in enumerate(dag.nodes)}
    families = tuple((*(pos[p] for p in dag.parents(n)), pos[n]) for n in dag.nodes)
    n_states = np.array([len(states[n]) for n in dag.nodes], dtype=np.int64)
    flat = np.concatenate([np.asarray(t, dtype=np.float64).ravel() for t in tables])
    return FamilyCounts(n_states, families, flat)


def _estep(tree, codes, weights, tables, pseudo, it: int, *, strict: bool = True):
    """The expected family counts of ``tables``, the observed-data log-likelihood and the
    objective (plus ``sum pseudo-count x log theta``); a row of probability zero raises, or
    with ``strict=False`` gives an objective of ``-inf``."""
    counts, log_pe = tree.expected_family_counts(codes, weights, tables)
    if not strict and not np.isfinite(log_pe).all():
        return counts, -np.inf, -np.inf
    if not np.isfinite(log_pe).all():
        msg = (
            f"a row has probability zero under the current parameters (iteration {it}); "
            "use a Dirichlet prior (estimator='lidstone' or 'bdeu') or another start"
        )
        raise ValueError(msg)
    ll = float(np.dot(weights, log_pe))
    with np.errstate(divide="ignore", invalid="ignore"):
        prior = sum(float(np.sum(p * np.log(t))) if p > 0 else 0.0
                    for p, t in zip(pseudo, tables, strict=True))  # fmt: skip
    return counts, ll, ll + prior


def _run(tree, dag, node_states, codes, weights, tables, estimator, alpha, max_iter, tol,
         progress, network_type) -> EMResult:  # fmt: skip
    """EM (:func:`~bayeskit.estimate.em.run_em`): each E-step followed by an M-step, the last
    included, so the network is one M-step past the last objective."""
    pseudo = [get_estimator(estimator).pseudo_count(alpha, t.shape) for t in tables]

    def e_step(tables: list[np.ndarray], it: int) -> EStep:
        counts, ll, obj = _estep(tree, codes, weights, tables, pseudo, it)
        return EStep(counts, obj, ll)

    def m_step(counts: list[np.ndarray]) -> list[np.ndarray]:
        cpts = _cpts(dict(zip(dag.nodes, counts, strict=True)), estimator, alpha)
        return [cpts[n] for n in dag.nodes]

    run = run_em(e_step, m_step, tables, max_iter=max_iter, tol=tol, m_step_last=True,
                 progress=progress)  # fmt: skip
    network = network_type(dag, dict(zip(dag.nodes, run.parameters, strict=True)),
                           states=node_states)  # fmt: skip
    return EMResult(network, run.log_likelihood, run.objective, run.n_iter, run.converged)


def _ascend(tree, dag, node_states, codes, weights, tables, estimator, alpha, max_iter, tol,
            progress, network_type) -> EMResult:  # fmt: skip
    """Gradient ascent on the CPT entries (Han, Kamber and Pei, *Data Mining: Concepts and
    Techniques*, 9.1.2): the gradient of the objective with respect to ``w_ijk`` is
    ``(n_ijk + pseudo) / w_ijk``, ``n_ijk`` the expected count
    ``sum_rows P(node = k, parents = j | the row)``; each step moves every CPT row along it and
    projects it back onto the probability simplex (Euclidean projection), with a step size that
    doubles after a step that raises the objective and halves until one does (backtracking),
    so the objective never falls. Each row's gradient is divided by the row's expected total
    (with its pseudo-counts), so rows seen rarely and often move alike. Stops like EM, or when
    no step size down to 1e-14 raises the objective."""
    pseudo = [get_estimator(estimator).pseudo_count(alpha, t.shape) for t in tables]
    step = 0.01
    counts, ll, obj = _estep(tree, codes, weights, tables, pseudo, 1)
    history, objective = [ll], [obj]
    if progress is not None:
        progress(1, ll)
    converged = False
    for it in range(2, max_iter + 1):
        grads = []
        for n, p, t in zip(counts, pseudo, tables, strict=True):
            # each row's gradient over its expected total: rows of very different weight move
            # at one step size (a diagonal preconditioning; the direction stays an ascent one)
            row_total = (n + p).sum(axis=-1, keepdims=True)
            grads.append((n + p) / np.maximum(t, 1e-300) / np.maximum(row_total, 1e-300))
        while True:
            trial = [_onto_simplex(t + step * g) for t, g in zip(tables, grads, strict=True)]
            t_counts, t_ll, t_obj = _estep(tree, codes, weights, trial, pseudo, it, strict=False)
            if t_obj > obj:
                tables, counts, ll, obj = trial, t_counts, t_ll, t_obj
                step *= 2.0
                break
            step /= 2.0
            if step < 1e-14:
                break
        history.append(ll)
        objective.append(obj)
        if progress is not None:
            progress(it, ll)
        if step < 1e-14 or settled(objective, tol):
            converged = True
            break
    network = network_type(dag, dict(zip(dag.nodes, tables, strict=True)), states=node_states)
    return EMResult(network, history, objective, len(history), converged)


def _onto_simplex(table: np.ndarray) -> np.ndarray:
    """Each row (last axis) of ``table`` projected onto the probability simplex, the nearest
    point in Euclidean distance (Duchi, Shalev-Shwartz, Singer and Chandra 2008)."""
    shape = table.shape
    v = table.reshape(-1, shape[-1])
    u = -np.sort(-v, axis=1)
    cssv = np.cumsum(u, axis=1) - 1.0
    ks = np.arange(1, v.shape[1] + 1)
    rho = ((u - cssv / ks) > 0).sum(axis=1)
    theta = cssv[np.arange(len(v)), rho - 1] / rho
    return np.maximum(v - theta[:, None], 0.0).reshape(shape)


def encode_observed(dag: DAG, data: pd.DataFrame, states, latent) -> tuple[dict, np.ndarray]:
    """Each node's states and the codes (n_rows, n_nodes), -1 where not observed."""
    if not isinstance(data, pd.DataFrame):
        msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
        raise TypeError(msg)
    latent = dict(latent or {})
    unknown = [n for n in latent if n not in dag]
    if unknown:
        msg = f"latent names {unknown}, which are not nodes of the DAG"
        raise ValueError(msg)
    node_states: dict[Any, tuple[str, ...]] = {}
    codes = np.full((len(data), len(dag.nodes)), -1, dtype=np.int64)
    for j, node in enumerate(dag.nodes):
        if node in latent:
            node_states[node] = latent_states(node, latent[node])
            if node in data.columns and data[node].notna().any():
                msg = f"latent node {node!r} has observed values in data"
                raise ValueError(msg)
            continue
        if node not in data.columns:
            msg = (
                f"data has no column {node!r}; declare it in latent= (with its number of "
                "states) if it is never observed"
            )
            raise ValueError(msg)
        node_states[node] = column_states(data, node, states)
        codes[:, j] = state_codes(data[node], node_states[node], f"column {node!r}")
    return node_states, codes


def _is_network(network: Any) -> bool:
    """Whether ``network`` is a network: a DAG, states and CPTs to read (by duck typing)."""
    return all(hasattr(network, a) for a in ("dag", "states", "cpd", "_junction_tree"))


def _random_cpts(dag: DAG, node_states: dict, rng: np.random.Generator) -> list[np.ndarray]:
    out = []
    for node in dag.nodes:
        shape = [len(node_states[p]) for p in dag.parents(node)] + [len(node_states[node])]
        rows = int(np.prod(shape[:-1]))
        out.append(rng.dirichlet(np.ones(shape[-1]), size=rows).reshape(shape))
    return out
