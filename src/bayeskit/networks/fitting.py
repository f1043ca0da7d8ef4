"""The learning functions that return a new network: parameter learning (counts or EM) and
structural EM, each the learning layer's engine with :class:`BayesianNetwork` as the network
built."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.learning.em import EMResult, fit_network_em
from bayeskit.learning.parameters import NetworkFit, fit_network
from bayeskit.learning.structure_em import StructuralEMResult, structural_em_network
from bayeskit.networks.network import BayesianNetwork

__all__ = ["fit_em", "fit_parameters", "structural_em"]


def fit_parameters(
    dag: Any,
    data: pd.DataFrame,
    *,
    estimator: str = "bdeu",
    alpha: float | None = None,
    states: Mapping[Any, Any] | None = None,
    sample_weight: Any = None,
    discretize: str | Mapping[Any, str] | None = None,
) -> NetworkFit:
    """Count ``data`` over ``dag``'s families and estimate every CPT.

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs
        The structure (:func:`~bayeskit.graphs.dag.as_dag`: an edge list's nodes are those
        its edges name; ``{"nodes": [...], "edges": [...]}`` adds others).
    data : DataFrame, or chunks
        One column per node (others are ignored), complete (no missing value); or data in
        chunks (:func:`~bayeskit.data.read_chunks`, or any iterable of DataFrames), counted
        one chunk at a time: the counts add up to those of all the rows.
    estimator : str, default="bdeu"
        A name of :data:`~bayeskit.estimate.ESTIMATORS`: "mle", "lidstone", "laplace",
        "m-estimate", "dirichlet-map", "lidstone-where-zero", "bdeu", "k2", "hierarchical"
        (a node's parents in the order their edges were given, the most important first) or
        "hierarchical-gibbs".
    alpha : float, optional
        The estimator's ``alpha`` (default 1): Lidstone's pseudo-count, the m-estimate's ``m``,
        BDeu's equivalent sample size, the hierarchical root's pseudo-count.
    states : mapping node -> sequence of state names, optional
        By default a categorical column's categories, else the column's distinct values
        (:func:`~bayeskit.factors.states.node_states`: whole numbers in numeric order, text
        sorted; a column of numbers not whole, or of more than 32 distinct whole numbers, is
        refused by name, before anything is allocated).
    sample_weight : array-like of shape (n_rows,), optional
        Non-negative weights; an integer weight counts a row that many times.
    discretize : str or mapping column -> str, optional
        Bin the numeric columns that cannot be nodes as they are, ``"equal-frequency:5"`` or
        ``"equal-width:N"``: each becomes a node whose states are its bins, named as intervals
        (``"(-inf, 2.5]"``); a mapping bins the columns it names
        (:func:`~bayeskit.factors.states.discretize_frame`). A DataFrame only.

    Returns
    -------
    NetworkFit
        ``.network``, the fitted :class:`BayesianNetwork`, and ``.counts``, the family counts
        it was estimated from (add another fit's counts to learn from more rows).

    Examples
    --------
    >>> from bayeskit.networks import DAG
    >>> dag = DAG(edges=[("rain", "wet")])
    >>> data = pd.DataFrame({"rain": ["y", "y", "n", "n"], "wet": ["y", "y", "n", "y"]})
    >>> fit = fit_parameters(dag, data, estimator="mle")
    >>> fit.network.cpt("wet").tolist()  # rows: rain = n, y; columns: wet = n, y
    [[0.5, 0.5], [0.0, 1.0]]
    >>> fit_parameters([("rain", "wet")], data).network.dag == dag  # an edge list
    True
    """
    return fit_network(dag, data, network_type=BayesianNetwork, estimator=estimator,
                       alpha=alpha, states=states, sample_weight=sample_weight,
                       discretize=discretize)  # fmt: skip


def fit_em(
    dag: Any,
    data: pd.DataFrame,
    *,
    states: Mapping[Any, Any] | None = None,
    latent: Mapping[Any, Any] | None = None,
    start: BayesianNetwork | None = None,
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
    """Fit ``dag``'s CPTs to ``data`` with missing values (and latent nodes) by EM.

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs
        The structure (:func:`~bayeskit.graphs.dag.as_dag`).
    data : DataFrame
        A column per observed node; a missing value (None / NaN) is not observed. Latent nodes
        have no column.
    states : mapping node -> state names, optional
        As :func:`~bayeskit.networks.fit_parameters` (needed for nodes whose column does not
        show every state).
    latent : mapping node -> int or state names, optional
        The nodes that are never observed, with their number of states (an integer: named
        ``"0"``, ``"1"``, ...) or a list of their state names (named by the rule of
        :mod:`bayeskit.factors.states`); a float, a boolean or text is refused.
    start : BayesianNetwork, optional
        Starting CPTs, random ones by default: a network over the same DAG (its nodes and
        edges; a node's parents may be listed in another order) and the same states (in any
        order), whose tables are read by parent and state name, never by position. An
        observed node whose states ``states`` does not give takes the start's (a value of its
        column that is none of them is refused by name).
    estimator : str, default="mle"
        The M-step: an estimator of :func:`~bayeskit.networks.fit_parameters` that is the
        posterior mode of a fixed Dirichlet prior ("mle", "lidstone", "laplace", "m-estimate",
        "dirichlet-map", "bdeu", "k2"); ``alpha`` as there.
    sample_weight : array-like, optional
    max_iter : int, default=100
    tol : float, default=1e-8
        Stop when the objective changes by less than ``tol`` times its magnitude.
    restarts : int, default=0
        Extra random starts; the run of highest final objective is kept.
    seed : int or Generator, optional
    progress : bool or callable, optional
        Called as ``progress(iteration, log_likelihood)`` after every E-step; ``True`` shows a
        progress display on standard error.
    method : {"em", "gradient"}, default="em"
        EM, or gradient ascent on the CPT entries (Han, Kamber and Pei, *Data Mining:
        Concepts and Techniques*, 9.1.2: the gradient from the same expected counts, each
        step projected back onto the simplex).

    Returns
    -------
    EMResult
        ``.network``, the fitted network (of the best start), with the run's ``history``
        (observed-data log-likelihood per iteration), ``objective``, ``n_iter`` and
        ``converged``.

    Examples
    --------
    >>> from bayeskit.networks import DAG
    >>> dag = DAG(edges=[("rain", "wet")])
    >>> data = pd.DataFrame({"rain": ["y", None, "n", "n", None, "y"],
    ...                      "wet": ["y", "y", "n", None, "n", "y"]})
    >>> result = fit_em(dag, data, seed=0)
    >>> result.converged, len(result.history) > 1
    (True, True)
    >>> bool(np.all(np.diff(result.objective) >= -1e-9))
    True
    """
    return fit_network_em(dag, data, network_type=BayesianNetwork, states=states,
                          latent=latent, start=start, estimator=estimator, alpha=alpha,
                          sample_weight=sample_weight, max_iter=max_iter, tol=tol,
                          restarts=restarts, seed=seed, progress=progress,
                          method=method)  # fmt: skip


def structural_em(
    data: pd.DataFrame,
    *,
    states: Any = None,
    score: str = "bic",
    max_parents: int | None = None,
    start: Any = None,
    max_iter: int = 10,
    em_max_iter: int = 20,
    em_tol: float = 1e-6,
    n_completions: int = 5,
    estimator: str = "bdeu",
    alpha: float | None = None,
    sample_weight: Any = None,
    seed: int | np.random.Generator | None = 0,
    progress: Callable[[int, float], Any] | None = None,
    **search: Any,
) -> StructuralEMResult:
    """Learn a DAG and its CPTs from data with missing values by structural EM.

    See :mod:`bayeskit.learning.structure_em` for the algorithm and its cost.

    Parameters
    ----------
    data : DataFrame
        One column per node; a missing value (None / NaN) is not observed.
    states : mapping node -> state names, optional
        As :func:`~bayeskit.networks.fit_parameters`.
    score : {"bic", "aic", "k2", "bdeu", "ll"}, default="bic"
        The search's score, computed on the completed rows.
    max_parents : int, optional
        The most parents a node may have.
    start : DAG, or list of (parent, child) pairs, optional
        The first DAG, over exactly ``data``'s columns (an edge list: edges between them). By
        default the search's own default (from the Chow-Liu forest) on the rows with nothing
        missing, or the empty graph when there are none.
    max_iter : int, default=10
        The most iterations (EM, completions, search).
    em_max_iter : int, default=20
        The most EM iterations per fit; from the second iteration on, EM starts from the CPTs
        counted on the previous completions, close to its fixed point.
    em_tol : float, default=1e-6
        EM's ``tol``: stop on a relative change of its objective below this.
    n_completions : int, default=5
        Completions drawn per incomplete row (per repeat of a repeated row).
    estimator : str, default="bdeu"
        EM's M-step (:func:`~bayeskit.networks.fit_em`: an estimator of a fixed prior), with
        ``alpha`` (default 1); a prior keeps every configuration possible, so no row gets
        probability zero.
    alpha : float, optional
    sample_weight : array-like of shape (n_rows,), optional
    seed : int or Generator, optional
        Seeds EM's first random start, the completions and the search's restarts: the same
        seed, the same result.
    progress : bool or callable, optional
        Called as ``progress(iteration, score)`` after every search; ``True`` shows a progress
        display on standard error.
    **search :
        Options of :func:`~bayeskit.networks.learn_structure`: ``black_list``, ``white_list``,
        ``tabu_length``, ``restarts``, ``perturb``, ``ess``.

    Returns
    -------
    StructuralEMResult

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 2000)
    >>> b = np.where(rng.random(2000) < 0.9, a, 1 - a)
    >>> c = np.where(rng.random(2000) < 0.85, b, 1 - b)
    >>> data = pd.DataFrame({"a": a, "b": b, "c": c}).astype(object)
    >>> data = data.mask(rng.random(data.shape) < 0.2)  # 20% of the values missing
    >>> result = structural_em(data, seed=0)
    >>> sorted(result.network.dag.edges), result.converged
    ([('a', 'b'), ('b', 'c')], True)
    """
    return structural_em_network(
        data, network_type=BayesianNetwork, states=states, score=score,
        max_parents=max_parents, start=start, max_iter=max_iter, em_max_iter=em_max_iter,
        em_tol=em_tol, n_completions=n_completions, estimator=estimator, alpha=alpha,
        sample_weight=sample_weight, seed=seed, progress=progress, **search,
    )  # fmt: skip
