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


def hybrid_from_naive_bayes(model: Any, class_node: Any) -> Any:
    """The :class:`~bayeskit.networks.HybridNetwork` of a naive Bayes model with Gaussian
    numeric features: the class a table (the model's prior), each categorical feature a table
    given the class (the model's smoothed one), each numeric feature a conditional linear
    Gaussian node given the class (intercept the class mean, no slope, variance the model's,
    its floor included). Complete rows get the model's class posterior from it."""
    from bayeskit.data.kinds import CATEGORICAL
    from bayeskit.factors import CPD, LinearGaussianCPD
    from bayeskit.factors.states import state_names
    from bayeskit.networks import DAG, HybridNetwork

    columns = list(model.schema_.columns)
    names = [c.name for c in columns]
    if class_node in names:
        msg = f"class_node {class_node!r} is also a feature's name: pass another class_node"
        raise ValueError(msg)
    classes = state_names(f"node {class_node!r}", list(model.classes_))
    prior = np.exp(model.log_prior_)
    cpds: list[Any] = [CPD(class_node, [], prior / prior.sum(), {class_node: classes})]
    categorical = [c for c in columns if c.kind == CATEGORICAL]
    numeric = [c for c in columns if c.kind != CATEGORICAL]
    for f in model._factors:  # one per categorical feature, in their order
        column = categorical[f.child]
        states = {class_node: classes, column.name: tuple(column.categories)}
        cpds.append(CPD(column.name, [class_node], np.exp(np.asarray(f.log_table)), states))
    variance = model.var_ + model.var_floor_
    for j, column in enumerate(numeric):
        cpds.append(LinearGaussianCPD(
            column.name, [class_node], model.theta_[:, j], np.zeros((len(classes), 0)),
            variance[:, j], {class_node: classes},
        ))  # fmt: skip
    dag = DAG(nodes=[class_node, *names], edges=[(class_node, n) for n in names])
    return HybridNetwork(dag, cpds)
