"""What :meth:`BayesianNetwork.fit <bayeskit.networks.BayesianNetwork.fit>` and
:meth:`~bayeskit.networks.BayesianNetwork.learn` check and call beyond the network itself: the
options each takes, the method that is ``learn`` on the class and ``fit`` on a network, and the
calls into the learning layer."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import pandas as pd

from bayeskit.graphs.dag import DAG, as_dag

#: What only a structure search or :meth:`BayesianNetwork.learn` takes: ``net.fit(data)``
#: refuses these, pointing to ``learn``.
LEARN_ONLY = frozenset({"structure", "score", "states", "discretize", "max_parents", "start",
                         "black_list", "white_list", "tabu_length", "perturb", "ess", "root",
                         "max_distinct_rows"})  # fmt: skip
#: The options of :func:`~bayeskit.networks.fit_em` that ``net.fit(data, method="em")`` passes.
EM_OPTIONS = frozenset({"latent", "start", "max_iter", "tol", "restarts", "seed", "progress"})


class FitMethod:
    """``BayesianNetwork.fit``: two bindings of one name, told apart by whether there is a
    network. On a network, ``net.fit(data)`` fits that network's CPTs and keeps its structure
    (the method below). On the class, ``BayesianNetwork.fit(data, ...)`` is the old spelling
    of :meth:`BayesianNetwork.learn`: it still learns (the same arguments, the same result),
    with a FutureWarning that names ``learn``. Neither is reached by the other's call."""

    def __init__(self, on_network: Any):
        self._on_network = on_network
        functools.update_wrapper(self, on_network)  # type: ignore[arg-type]  # a descriptor

    def __get__(self, network: Any, owner: type | None = None) -> Any:
        if network is None:
            return types.MethodType(_learn_on_class, owner)
        return types.MethodType(self._on_network, network)


def _learn_on_class(cls: Any, data: Any, *args: Any, **kwargs: Any) -> Any:
    """``BayesianNetwork.fit(data, ...)`` called on the class: :meth:`BayesianNetwork.learn`,
    with a FutureWarning."""
    msg = (
        f"{cls.__name__}.fit(data, ...) called on the class learns a network, its structure "
        f"included; call {cls.__name__}.learn(data, ...) instead (the same arguments): this "
        "form will be removed. On a network, net.fit(data) fits its CPTs and keeps its structure."
    )
    warnings.warn(msg, FutureWarning, stacklevel=2)
    return cls.learn(data, *args, **kwargs)


def check_fit_options(structure: tuple, em: dict, method: str) -> None:
    """TypeError for what ``net.fit(data, ...)`` does not take: a structure, a search's option
    (:meth:`~bayeskit.networks.BayesianNetwork.learn` takes those), an option not EM's, or any
    option when counting."""
    if structure or "structure" in em:
        msg = (
            "net.fit(data) keeps the network's structure and takes none; to learn one, "
            "call BayesianNetwork.learn(data, structure, ...)"
        )
        raise TypeError(msg)
    wrong = sorted(set(em) & LEARN_ONLY)
    if wrong and not (method != "count" and set(wrong) <= EM_OPTIONS):
        msg = (
            f"net.fit(data) keeps the network's structure and states and takes no {wrong}; "
            "to learn a network with them, call BayesianNetwork.learn(data, ...)"
        )
        raise TypeError(msg)
    unknown = sorted(set(em) - EM_OPTIONS)
    if unknown or (em and method == "count"):
        msg = (
            f"net.fit(data) got unexpected options {unknown or sorted(em)}; with "
            f"method='em' or 'gradient' it takes {sorted(EM_OPTIONS)}"
        )
        raise TypeError(msg)


def check_complete(nodes: tuple, data: pd.DataFrame) -> None:
    """ValueError when ``data`` lacks a node's column or a value: what ``net.fit(data)`` by
    counting needs."""
    absent = [n for n in nodes if n not in data.columns]
    holes = int(data[[n for n in nodes if n in data.columns]].isna().sum().sum())
    if len(absent) == len(nodes):
        msg = (
            f"data shares no column with the network (its nodes: "
            f"{list(nodes)[:10]}; data's columns: {list(data.columns)[:10]}); "
            "name data's columns after the nodes"
        )
        raise ValueError(msg)
    if absent or holes:
        what = f"no column for {absent}" if absent else f"{holes} missing values"
        msg = (
            f"data has {what}: counting needs every node observed in every row; "
            "fit with method='em' (a node with no column is then latent)"
        )
        raise ValueError(msg)


def learner_named(structure: str) -> Any:
    """The structure learner named ``structure`` (:data:`~bayeskit.learning.STRUCTURE_LEARNERS`);
    ValueError naming the choices otherwise."""
    from bayeskit.learning.learners import STRUCTURE_LEARNERS

    if structure not in STRUCTURE_LEARNERS:
        names = ", ".join(repr(n) for n in STRUCTURE_LEARNERS)
        msg = (
            f"structure must be {names}, a DAG or a list of (parent, child) pairs, got "
            f"{structure!r}"
        )
        raise ValueError(msg)
    return STRUCTURE_LEARNERS[structure]


def search_structure(learner: Any, data: Any, score: str, common: dict, search: dict) -> DAG:
    """The DAG ``learner`` finds in ``data``; data in chunks that can be read again has its
    options checked and its states gathered (into ``common``) once, before the search and the
    counting read it."""
    from bayeskit.data.chunks import reiterable
    from bayeskit.learning.parameters import chunk_states, in_chunks

    if in_chunks(data) and reiterable(data):
        # the settings before a pass over the data; then the states once, for the search
        # and the counting both (each would read them)
        learner.check_options(score, search)
        common["states"] = chunk_states(data, common["states"])[1]
    return learner.learn(data, score, **common, **search)


def learn_em(network_type: type, dag: DAG | None, data: Any, method: str, estimator: str,
              alpha: Any, common: dict, options: dict) -> Any:  # fmt: skip
    """:meth:`BayesianNetwork.learn` by EM (or gradient ascent): the structure given."""
    from bayeskit.learning.em import fit_network_em

    if dag is None:
        msg = (
            f"method={method!r} needs the structure given: a DAG or a list of (parent, child) pairs"
        )
        raise ValueError(msg)
    return fit_network_em(dag, data, network_type=network_type, estimator=estimator,
                          alpha=alpha, method=method, **common, **options).network  # fmt: skip


def columns_of(data: Any) -> list | None:
    """The columns of ``data`` (a DataFrame, or a file read in chunks), else None."""
    if isinstance(data, pd.DataFrame):
        return list(data.columns)
    from bayeskit.data.chunks import Chunks

    if isinstance(data, Chunks):
        return list(data.columns or data.column_names())
    return None


def learn_network(network_type: type, data: Any, structure: Any, *, score: str, estimator: str,
                  alpha: Any, states: Any, sample_weight: Any, method: str, discretize: Any,
                  search: dict) -> Any:  # fmt: skip
    """:meth:`BayesianNetwork.learn`: its arguments checked, the structure searched (unless
    given), then the CPTs fitted by counting or EM."""
    from bayeskit.learning.parameters import column_states, discretized, fit_network

    searched = isinstance(structure, str)
    learner = learner_named(structure) if searched else None
    if method not in ("count", "em", "gradient"):
        msg = f"method must be 'count', 'em' or 'gradient', got {method!r}"
        raise ValueError(msg)
    if discretize is not None:
        if not isinstance(data, pd.DataFrame):
            msg = "discretize= needs the data in one DataFrame; bin the chunks' columns first"
            raise ValueError(msg)
        data = discretized(data, discretize, list(data.columns), states, sample_weight)
    if isinstance(data, pd.DataFrame) and data.columns.is_unique:
        # a discrete network: a column of measurements is refused before any search (the
        # structure searches themselves also take continuous data, for HybridNetwork)
        for column in data.columns:
            if states is None or column not in states:
                column_states(data, column, states)
    dag = None if searched else as_dag(structure, columns_of(data))
    common = {"states": states, "sample_weight": sample_weight}
    if method in ("em", "gradient"):
        return learn_em(network_type, dag, data, method, estimator, alpha, common, search)
    if dag is not None and search:
        msg = (
            f"{sorted(search)} are options of a structure search, and the structure is "
            "given; pass structure='hill-climb' or 'tree' to learn one"
        )
        raise TypeError(msg)
    if learner is not None:
        dag = search_structure(learner, data, score, common, search)
    return fit_network(dag, data, network_type=network_type, estimator=estimator,
                       alpha=alpha, **common).network  # fmt: skip


def fit_cpts(network: Any, network_type: type, data: Any, structure: tuple, *, estimator: str,
             alpha: Any, sample_weight: Any, method: str, em: dict) -> Any:  # fmt: skip
    """``network.fit(data, ...)``: a network of ``network``'s DAG and states, its CPTs fitted to
    ``data`` by counting or EM."""
    check_fit_options(structure, em, method)
    states = {n: network._states[n] for n in network.nodes}
    if method == "count":
        from bayeskit.learning.parameters import fit_network

        if isinstance(data, pd.DataFrame):
            check_complete(network.nodes, data)
        return fit_network(network.dag, data, network_type=network_type, estimator=estimator,
                           alpha=alpha, states=states,
                           sample_weight=sample_weight).network  # fmt: skip
    if method not in ("em", "gradient"):
        msg = f"method must be 'count', 'em' or 'gradient', got {method!r}"
        raise ValueError(msg)
    from bayeskit.learning.em import fit_network_em

    if not isinstance(data, pd.DataFrame):
        msg = f"method={method!r} needs data in one DataFrame, got {type(data).__name__}"
        raise TypeError(msg)
    latent = em.pop("latent", None)
    if latent is None:
        latent = {n: states[n] for n in network.nodes if n not in data.columns}
    observed = {n: states[n] for n in network.nodes if n not in latent}
    return fit_network_em(network.dag, data, network_type=network_type, states=observed,
                          latent=latent, estimator=estimator, alpha=alpha,
                          sample_weight=sample_weight, method=method,
                          **em).network  # fmt: skip
