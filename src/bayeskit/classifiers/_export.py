"""A classifier of one structure as a Bayesian network: the class a root, each feature a node
whose parents are the class and its feature parents, its CPT the model's own table."""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.stats.lookup import LogFactor


def network_from_factors(model: Any, factors: list[LogFactor], class_node: Any) -> Any:
    """The :class:`~bayeskit.networks.BayesianNetwork` of ``model``'s class prior and its
    factors (one per feature; a factor of zeros, no evidence, becomes a root of uniform
    distribution, which changes no posterior of the class). Complete rows get the same class
    posterior from it as from the model."""
    from bayeskit.networks import DAG, BayesianNetwork

    names = list(model.schema_.names)
    if class_node in names:
        msg = f"class_node {class_node!r} is also a feature's name: pass another class_node"
        raise ValueError(msg)
    states = {class_node: tuple(model.classes_)}  # named by the network's one rule
    cpts: dict[Any, np.ndarray] = {}
    prior = np.exp(model.log_prior_)
    cpts[class_node] = prior / prior.sum()
    edges = []
    for f in factors:
        name = names[f.child]
        column = model.schema_.columns[f.child]
        states[name] = tuple(column.categories)
        table = np.asarray(f.log_table)
        if not f.parents and not table.any():  # left out of the model
            cpts[name] = np.full(table.shape[-1], 1.0 / table.shape[-1])
            continue
        edges.append((class_node, name))
        edges += [(names[p], name) for p in f.parents]
        cpts[name] = np.exp(table)
    dag = DAG(nodes=[class_node, *names], edges=edges)
    return BayesianNetwork(dag, cpts, states=states)
