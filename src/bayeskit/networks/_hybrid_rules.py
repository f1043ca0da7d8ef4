"""The rules of a :class:`~bayeskit.networks.HybridNetwork`'s families, and the templates its
fitting estimates: each node's distribution checked against the DAG and the conditional linear
Gaussian rule, a continuous column read as numbers, a discrete column's states."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.factors.states import node_states
from bayeskit.graphs import DAG

Distribution = CPD | LinearGaussianCPD


def numeric_column(node: Any, col: pd.Series) -> np.ndarray:
    try:
        values = pd.to_numeric(col, errors="raise").to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError) as err:
        example = next((v for v in col.dropna().tolist() if isinstance(v, str)), None)
        msg = f"column {node!r} of a continuous node must hold numbers, got {example!r}"
        raise ValueError(msg) from err
    if np.isinf(values).any():
        msg = f"column {node!r} has an infinite value (row {int(np.argmax(np.isinf(values)))})"
        raise ValueError(msg)
    return values


def column_states(node: Any, columns: Iterable[pd.Series]) -> tuple[str, ...]:
    """A discrete node's states from its column in one or more pieces of data: a categorical
    column's categories (in order, those of later pieces appended), else the distinct values
    of all the pieces named and ordered by :func:`~bayeskit.factors.states.node_states`."""
    categories: dict = {}  # an ordered set
    values: dict = {}
    for col in columns:
        if isinstance(col.dtype, pd.CategoricalDtype):
            categories.update(dict.fromkeys(col.cat.categories))
        else:
            values.update(dict.fromkeys(col.dropna().unique().tolist()))
    if categories and not values:
        return tuple(str(c) for c in categories)
    return node_states(node, [*categories, *values])


def template(dag: DAG, node: Any, numeric: set, states: Mapping) -> Distribution:
    """A distribution of the node's kind and family, to be estimated."""
    parents = dag.parents(node)
    if node not in numeric:
        family = {v: states[v] for v in (*parents, node) if v in states}
        shape = [len(family[v]) if v in family else 1 for v in (*parents, node)]
        if any(p in numeric for p in parents):
            edge = next(p for p in parents if p in numeric)
            msg = (
                f"edge {edge!r} -> {node!r}: a discrete node may not have a continuous parent "
                "(conditional linear Gaussian networks)"
            )
            raise ValueError(msg)
        return CPD(node, parents, np.full(shape, 1.0 / shape[-1]), family)
    discrete = {p: states[p] for p in parents if p not in numeric}
    cards = tuple(len(s) for s in discrete.values())
    k = sum(1 for p in parents if p in numeric)
    return LinearGaussianCPD(
        node, parents, np.zeros(cards), np.zeros((*cards, k)), np.ones(cards), discrete
    )


def check_families(dag: DAG, cpds: Mapping[Any, Distribution]) -> None:
    """Raise ``ValueError`` unless every distribution fits its node's family and kind."""
    for node, cpd in cpds.items():
        if not isinstance(cpd, CPD | LinearGaussianCPD):
            msg = f"the distribution of {node!r} must be a CPD or LinearGaussianCPD, got {cpd!r}"
            raise TypeError(msg)
        if cpd.variable != node:
            msg = f"the distribution given for {node!r} is that of {cpd.variable!r}"
            raise ValueError(msg)
        if set(cpd.parents) != set(dag.parents(node)) or len(cpd.parents) != len(dag.parents(node)):
            msg = (
                f"the parents of {node!r} are {list(dag.parents(node))} in the DAG but "
                f"{list(cpd.parents)} in its distribution"
            )
            raise ValueError(msg)
        for parent in cpd.parents:
            parent_discrete = isinstance(cpds[parent], CPD)
            if isinstance(cpd, CPD) and not parent_discrete:
                msg = (
                    f"edge {parent!r} -> {node!r}: a discrete node may not have a continuous "
                    "parent (conditional linear Gaussian networks)"
                )
                raise ValueError(msg)
            if isinstance(cpd, LinearGaussianCPD):
                as_discrete = parent in cpd.discrete_parents
                if as_discrete != parent_discrete:
                    kind = "discrete" if parent_discrete else "continuous"
                    msg = (
                        f"{node!r}'s distribution treats its parent {parent!r} as "
                        f"{'discrete' if as_discrete else 'continuous'}, but it is {kind}"
                    )
                    raise ValueError(msg)
            if parent_discrete:
                own = tuple(cpds[parent].states[parent])
                theirs = tuple(cpd.states[parent])
                if own != theirs:
                    msg = (
                        f"{node!r}'s distribution gives its parent {parent!r} the states "
                        f"{list(theirs)}, but {parent!r} has {list(own)}"
                    )
                    raise ValueError(msg)


def merge_statistics(a: Mapping[Any, Any], b: Mapping[Any, Any]) -> dict[Any, Any]:
    """The statistics of two pieces of data together, node by node.

    Parameters
    ----------
    a, b : mapping
        Node -> statistic, from :meth:`~bayeskit.networks.HybridNetwork.statistics` of one
        network.

    Returns
    -------
    dict

    Examples
    --------
    >>> merge_statistics({"a": np.array([1.0, 2.0])}, {"a": np.array([0.0, 1.0])})
    {'a': array([1., 3.])}
    """
    return {node: a[node] + b[node] for node in a}


def observed_log_likelihood(network: Any, columns: Mapping[Any, np.ndarray]) -> np.ndarray:
    """Each row's ``log p(its observed values)``: the sum of the nodes' log densities for a
    complete row; the missing values summed and integrated out for the others, by enumerating
    every discrete configuration at once (EM's E-step pass), or, where those are too many, by
    exact inference row by row (:class:`~bayeskit.inference.HybridInference`, which enumerates
    the discrete parents of continuous nodes only)."""
    from bayeskit.factors.gaussian import parent_columns
    from bayeskit.factors.limits import InferenceTooLarge
    from bayeskit.inference import HybridInference
    from bayeskit.inference.hybrid_estep import row_log_likelihood

    n = len(next(iter(columns.values()))) if columns else 0
    gone = np.zeros(n, dtype=bool)
    for values in columns.values():
        gone |= np.isnan(values) if values.dtype.kind == "f" else values < 0
    total = np.zeros(n)
    whole = ~gone
    complete = columns if whole.all() else {v: c[whole] for v, c in columns.items()}
    n_whole = int(whole.sum())
    for node in network.nodes:
        cpd = network.cpd(node)
        total[whole] += cpd.log_density(complete[node], parent_columns(cpd, complete, n_whole))
    if not gone.any():
        return total
    rows = np.flatnonzero(gone)
    part = {v: c[rows] for v, c in columns.items()}
    try:
        total[rows] = row_log_likelihood(network, part)
    except InferenceTooLarge:
        engine = HybridInference(network)
        for k, row in enumerate(rows):
            evidence = {}
            for v, c in part.items():
                value = c[k]
                if network.is_continuous(v) and not np.isnan(value):
                    evidence[v] = float(value)
                elif not network.is_continuous(v) and value >= 0:
                    evidence[v] = network.states(v)[int(value)]
            total[row] = engine.log_probability_of_evidence(evidence)
    return total
