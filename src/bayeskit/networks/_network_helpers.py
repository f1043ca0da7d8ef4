"""What :class:`~bayeskit.networks.BayesianNetwork` builds and checks beyond its methods'
own text: its CPDs made from the tables given (each table checked and its rows divided by
their sums), a full assignment checked, the look-up of a network's log-likelihood, the
divergence of two networks and a sample's frame."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.data.validation import check_count, check_seed
from bayeskit.factors.cpd import CPD, aligned_cpts, family_table
from bayeskit.factors.states import state_index, state_names
from bayeskit.graphs.dag import DAG, Node, as_dag
from bayeskit.inference.exact import ExactInference
from bayeskit.inference.sampling import CompiledNetwork
from bayeskit.stats.lookup import FamilyTables, LogFactor

#: How far a CPT's distribution may sum from 1 (files print probabilities with a few digits).
SUM_TOLERANCE = 1e-6


def build_cpds(
    dag: Any, cpts: Mapping[Node, Any], states: Mapping[Node, Any] | None
) -> tuple[DAG, dict[Node, tuple[str, ...]], dict[Node, CPD]]:
    """The network's DAG, each node's state names and each node's CPD, from the constructor's
    arguments (the errors its docstring lists)."""
    if not isinstance(cpts, Mapping):
        msg = f"cpts must be a mapping node -> table, got {type(cpts).__name__}"
        raise TypeError(msg)
    dag = as_dag(dag, nodes=list(cpts), what="dag")
    extra = [n for n in cpts if n not in dag]
    missing = [n for n in dag.nodes if n not in cpts]
    if extra or missing:
        what = (
            f"no node {shown(extra[0])} in the DAG"
            if extra
            else f"node {shown(missing[0])} has none"
        )
        msg = f"cpts must hold one table per node of the DAG: {what}"
        raise ValueError(msg)
    given = {n: cpts[n] for n in dag.nodes}
    other = [n for n, t in given.items() if isinstance(t, CPD) and t.variable != n]
    if other:
        n = other[0]
        msg = f"node {n!r}: the CPD given for it is the distribution of {given[n].variable!r}"
        raise ValueError(msg)
    tables = {n: None if isinstance(t, CPD) else np.array(t, dtype=np.float64)
              for n, t in given.items()}  # fmt: skip
    names = {} if states is None else dict(states)
    unknown = [n for n in names if n not in dag]
    if unknown:
        msg = f"states names no node {shown(unknown[0])} of the DAG"
        raise ValueError(msg)
    named: dict[Node, tuple[str, ...]] = {}
    for node in dag.nodes:
        table, labels = tables[node], names.get(node)
        if labels is not None:
            named[node] = state_names(f"node {node!r}", labels)  # factors.states
        elif table is None:  # a CPD names its node's states
            named[node] = given[node].states[node]
        else:
            k = table.shape[-1] if table.ndim else 0
            named[node] = tuple(str(i) for i in range(k))
    cpds: dict[Node, CPD] = {}
    for node in dag.nodes:
        table = tables[node]
        if table is None:  # a CPD, read by name now that every node's states are known
            table = family_table(given[node], dag.parents(node), named)
        table = check_table(node, table, dag.parents(node), named)
        table.setflags(write=False)
        family = (*dag.parents(node), node)
        states_of = {v: named[v] for v in family}
        cpds[node] = CPD._trusted(node, family[:-1], table, states_of)
    return dag, named, cpds


def check_table(
    node: Node, table: np.ndarray, parents: Sequence[Node], states: Mapping[Node, Sequence[str]]
) -> np.ndarray:
    """``table`` (the caller's own copy, axes ``(*parents, node)``) checked, each row divided
    by its sum."""
    expected = (*(len(states[p]) for p in parents), len(states[node]))
    if table.shape != expected:
        msg = (
            f"node {node!r}: CPT of shape {table.shape}, expected {expected} (parents "
            f"{list(parents)} then the node's {len(states[node])} states)"
        )
        raise ValueError(msg)
    if not np.isfinite(table).all() or (table < 0).any():
        msg = f"node {node!r}: CPT entries must be finite and non-negative"
        raise ValueError(msg)
    sums = table.sum(axis=-1)
    bad = np.abs(sums - 1.0) > SUM_TOLERANCE
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        config = {p: states[p][i] for p, i in zip(parents, at, strict=True)}
        msg = (
            f"node {node!r}: the distribution given {config or 'no parents'} sums to "
            f"{float(sums[at]):.10g}, not 1 (within {SUM_TOLERANCE:g})"
        )
        raise ValueError(msg)
    # Rows summing to 1 only within the tolerance would make inference depend on the
    # method: a barren node sums out to 1 for variable elimination, to its row's sum for
    # the junction tree and brute force. Each row is divided by its sum; a row within
    # rounding of 1 (k ulps for k states, which bounds the sum of any row so divided) is
    # kept as given, so a network written to a file and read back has the same tables.
    off = np.abs(sums - 1.0) > table.shape[-1] * np.finfo(np.float64).eps
    if off.any():
        table[off] /= sums[off][:, None]
    return table


def joint_log_probability(
    dag: DAG, cpds: Mapping[Node, CPD], states: Mapping[Node, tuple[str, ...]], assignment: Any
) -> float:
    """``ln P`` of a full assignment, node -> state (by name, else by canonical key:
    :func:`~bayeskit.factors.states.state_index`); ValueError unless it gives each node of
    ``dag`` a state, and no other node a value."""
    missing = [n for n in dag.nodes if n not in assignment]
    extra = [n for n in assignment if n not in dag]
    if missing or extra:
        what = f"no value for {shown(missing[0])}" if missing else f"unknown node {shown(extra[0])}"
        msg = f"a full assignment needs one state per node: {what}"
        raise ValueError(msg)
    idx = {}
    for node in dag.nodes:
        value, labels = assignment[node], states[node]
        idx[node] = state_index(labels, value)
        if idx[node] < 0:
            msg = f"node {node!r} has no state {value!r}; its states are {list(labels)}"
            raise ValueError(msg)
    total = 0.0
    for n in dag.nodes:
        cell = (*(idx[q] for q in dag.parents(n)), idx[n])
        p = cpds[n].values[cell]
        if p <= 0:
            return -math.inf
        total += math.log(p)
    return total


def evidence_columns(data: Any, dag: DAG, states: Mapping, node: Node) -> pd.DataFrame:
    """The columns of ``data`` that are evidence for predicting ``node``: the other nodes'."""
    if not isinstance(data, pd.DataFrame):
        msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
        raise TypeError(msg)
    dag._check(node)
    return data[[c for c in data.columns if c in states and c != node]]


def row_log_likelihoods(dag: DAG, cpds: Mapping[Node, CPD], codes: np.ndarray) -> np.ndarray:
    """Each row's ``ln P(row)`` of the state codes ``codes`` (a column per node, node order):
    one compiled pass of the look-up the classifiers share, the CPT entries' logs added in
    node order."""
    pos = {n: j for j, n in enumerate(dag.nodes)}
    with np.errstate(divide="ignore"):
        factors = [
            LogFactor(j, tuple(pos[p] for p in dag.parents(node)), np.log(cpds[node].values)[None])
            for j, node in enumerate(dag.nodes)
        ]
    return FamilyTables([factors], 1).add_to(np.zeros((len(codes), 1)), codes)[:, 0]


def network_divergence(network: Any, other: Any, tree: Any) -> float:
    """``KL(network || other)`` by the chain rule, the parent configurations' probabilities
    under ``network`` from its exact inference ``tree``."""
    total = 0.0
    tables = aligned_cpts(other, network.dag, network._states, "kl_divergence's other")
    for node, q in zip(network.nodes, tables, strict=True):
        p = np.asarray(network.cpt(node))
        with np.errstate(divide="ignore", invalid="ignore"):
            rows = np.where(p > 0, p * (np.log(p) - np.log(q)), 0.0).sum(axis=-1)
        parents = list(network.dag.parents(node))
        weight = tree.query(parents).values if parents else 1.0
        total += float(np.sum(weight * rows))
    return total


def sample_rows(network: Any, n: Any, seed: Any) -> pd.DataFrame:
    """``network.sample(n, seed)``: ``n`` rows by forward sampling, the sampler compiled on
    first use and kept, as a DataFrame of categoricals (categories: the state names)."""
    check_count("n", n)
    rng = check_seed(seed)
    compiled = getattr(network, "_compiled_arrays", None)
    if compiled is None:
        compiled = network._compiled_arrays = CompiledNetwork(network)
    x, _ = compiled.forward(int(n), {}, rng)
    return pd.DataFrame(
        {
            node: pd.Categorical.from_codes(
                x[:, j], categories=pd.Index(list(network._states[node]))
            )
            for j, node in enumerate(network.nodes)
        }
    )


def most_probable(proba: pd.DataFrame, states: tuple, index: Any, node: Node) -> pd.Series:
    """Each row's most probable state of ``proba`` (a column per state), the first on ties."""
    names = np.asarray(states, dtype=object)
    return pd.Series(names[np.argmax(proba.to_numpy(), axis=1)], index=index, name=node)


def free_parameters(dag: DAG, states: Mapping[Node, tuple[str, ...]]) -> int:
    """``sum_i (r_i - 1) prod_{j in pi_i} r_j``."""
    return sum(
        (len(states[n]) - 1) * math.prod(len(states[p]) for p in dag.parents(n)) for n in dag.nodes
    )


def exact_inference(network: Any) -> ExactInference:
    """The network's exact inference, made on first use and kept."""
    engine = getattr(network, "_exact_inference", None)
    if engine is None:
        engine = network._exact_inference = ExactInference(network)
    return engine
