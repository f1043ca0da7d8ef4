"""Learning a dynamic Bayesian network's tables from sequences, by counting.

The first slice's CPTs are counted from the first step of every sequence, the step's CPTs
from every pair of consecutive steps (the previous step's values standing for the first-slice
nodes): the same counts and estimators as a static network's, tied across time because every
step shares one table (Murphy 2002, 6.2.1).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bayeskit.factors.states import node_states
from bayeskit.graphs import DAG, as_dag
from bayeskit.networks import BayesianNetwork, fit_parameters
from bayeskit.sequences.dynamic import DynamicBayesianNetwork
from bayeskit.sequences.frames import long_frame

__all__ = ["fit_dbn"]


def _variables(dag: DAG, suffixes: tuple[str, str]) -> list[str]:
    first, step = suffixes
    names = []
    for node in dag.nodes:
        name = str(node)
        if name.endswith(first):
            names.append(name[: -len(first)])
        elif not name.endswith(step):
            msg = f"node {node!r} ends with neither slice suffix {first!r} nor {step!r}"
            raise ValueError(msg)
    return names


def fit_dbn(
    structure: Any,
    data: pd.DataFrame,
    *,
    sequence_column: str,
    estimator: str = "mle",
    alpha: float | None = None,
    states: dict | None = None,
    suffixes: tuple[str, str] = ("0", "t"),
) -> DynamicBayesianNetwork:
    """Fit a dynamic Bayesian network's CPTs to complete sequences.

    Parameters
    ----------
    structure : DAG or list of (parent, child) pairs
        The 2TBN's structure: nodes ``<variable><first>`` and ``<variable><step>``
        (:class:`DynamicBayesianNetwork`).
    data : pandas.DataFrame
        A long frame: one row per step, a column per variable (without suffix) and
        ``sequence_column``; each sequence's rows consecutive and in time order, no value
        missing.
    sequence_column : str
        The column naming each row's sequence.
    estimator : str, default="mle"
        A name of :data:`bayeskit.estimate.ESTIMATORS` ("laplace", "bdeu", ... smooth).
    alpha : float, optional
        The estimator's ``alpha``.
    states : dict of variable to list of str, optional
        Each variable's states (default: its column's values, as networks name them).
    suffixes : pair of str, default=("0", "t")
        The first slice's suffix and the step's.

    Returns
    -------
    DynamicBayesianNetwork

    Raises
    ------
    ValueError
        On a node without a slice suffix, a variable without a column, missing values, or
        sequences whose rows are not consecutive.

    Examples
    --------
    >>> from bayeskit.sequences import example_dbn
    >>> truth = example_dbn("umbrella")
    >>> days = pd.concat([truth.unroll(50).sample(1, seed=k).assign(seq=k) for k in range(40)])
    >>> long = pd.DataFrame({"seq": np.repeat(np.arange(40), 50),
    ...     "rain": days.filter(like="rain@").to_numpy().ravel(),
    ...     "umbrella": days.filter(like="umbrella@").to_numpy().ravel()})
    >>> learned = fit_dbn(truth.network.dag, long, sequence_column="seq")
    >>> learned.network.cpt("raint").round(1).tolist()  # rain persists with 0.7
    [[0.7, 0.3], [0.3, 0.7]]
    """
    first, step = suffixes
    dag = as_dag(structure, what="structure")
    variables = _variables(dag, suffixes)
    X, lengths = long_frame(data, sequence_column)
    absent = [v for v in variables if v not in X.columns]
    if absent:
        msg = f"variable {absent[0]!r} of the structure has no column in the data"
        raise ValueError(msg)
    X = X[variables]
    if X.isna().to_numpy().any():
        column = X.columns[X.isna().any().to_numpy()][0]
        msg = (
            f"column {column!r} has missing values; fit_dbn counts complete sequences (an "
            f"unobserved variable's posterior is given by DynamicBayesianNetwork.smooth)"
        )
        raise ValueError(msg)
    given = dict(states or {})
    named = {v: [str(s) for s in given[v]] if v in given else list(node_states(v, X[v].to_numpy()))
             for v in variables}  # fmt: skip
    offsets = np.r_[0, np.cumsum(lengths)].astype(int)
    starts = offsets[:-1][lengths > 0]
    later = np.ones(len(X), dtype=bool)
    later[starts] = False  # a row with a row before it in its sequence
    text = X.astype(str)
    previous = text.iloc[np.flatnonzero(later) - 1].reset_index(drop=True)
    current = text.iloc[np.flatnonzero(later)].reset_index(drop=True)
    pairs = pd.concat(
        [previous.add_suffix(first), current.add_suffix(step)], axis=1
    )  # fmt: skip
    all_states: dict[Any, Any] = {v + s: named[v] for v in variables for s in suffixes}
    firsts = [n for n in dag.nodes if str(n).endswith(first)]
    dag0 = DAG(firsts, [(p, n) for n in firsts for p in dag.parents(n)])
    fit0 = fit_parameters(
        dag0, text.iloc[starts].add_suffix(first).reset_index(drop=True),
        estimator=estimator, alpha=alpha, states={n: all_states[n] for n in firsts},
    )  # fmt: skip
    if len(pairs):
        fit1 = fit_parameters(dag, pairs, estimator=estimator, alpha=alpha, states=all_states)
    else:
        msg = "every sequence has a single step: there is no transition to count"
        raise ValueError(msg)
    cpts = {n: (fit0 if n in dag0 else fit1).network.cpt(n) for n in dag.nodes}
    return DynamicBayesianNetwork(BayesianNetwork(dag, cpts, states=all_states), suffixes=suffixes)
