"""Fitting a network of discrete and continuous nodes on Dask: each partition's family
statistics (counts, scatter moments), added up as a tree; the estimate from the sums is the
network :meth:`~bayeskit.networks.HybridNetwork.fit` gives on all the rows (to the rounding of
the sums' order)."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from bayeskit.dask._common import _dask, _distinct_values, _tree

#: The rows of the first partition the nodes' kinds are read from (the one column rule).
KIND_ROWS = 10_000


def fit_hybrid(
    dag: Any,
    ddf: Any,
    *,
    continuous: Iterable[Any] | None = None,
    states: Mapping[Any, Sequence[Any]] | None = None,
    **options: Any,
) -> Any:
    """:meth:`bayeskit.networks.HybridNetwork.fit` on a Dask DataFrame.

    The nodes' kinds come from ``continuous``, else from the first :data:`KIND_ROWS` rows of
    the first partition (the one column rule); the discrete nodes' states from ``states``,
    else from one pass over their columns. Each partition's statistics are then computed where
    it lives and summed pairwise, so what travels is statistics, never rows.

    Parameters
    ----------
    dag : DAG
        The structure.
    ddf : dask.dataframe.DataFrame
        A column per node.
    continuous : iterable, optional
        The continuous nodes.
    states : mapping, optional
        Discrete nodes' states.
    **options
        ``estimator``, ``alpha``, ``ridge``, ``min_variance``, as
        :meth:`~bayeskit.networks.HybridNetwork.fit`.

    Returns
    -------
    HybridNetwork

    Raises
    ------
    TypeError
        When ``ddf`` is no Dask DataFrame.
    ValueError
        As :meth:`~bayeskit.networks.HybridNetwork.fit`.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import numpy as np
    >>> from bayeskit.graphs import DAG
    >>> from bayeskit.networks import HybridNetwork
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=400)
    >>> frame = pd.DataFrame({"x": x, "y": 3 * x + rng.normal(size=400)})
    >>> net = fit_hybrid(DAG(edges=[("x", "y")]), dd.from_pandas(frame, npartitions=4))
    >>> in_memory = HybridNetwork.fit(net.dag, frame)
    >>> bool(np.allclose(net.cpd("y").coefficients, in_memory.cpd("y").coefficients))
    True
    """
    from bayeskit.data.kinds import continuous_columns
    from bayeskit.networks import HybridNetwork, merge_statistics

    dask, dd = _dask()
    if not isinstance(ddf, dd.DataFrame):
        msg = f"ddf must be a dask DataFrame, got {type(ddf).__name__}"
        raise TypeError(msg)
    nodes = list(dag.nodes)
    missing = [n for n in nodes if n not in ddf.columns]
    if missing:
        msg = f"data has no column for node {missing[0]!r}"
        raise ValueError(msg)
    with warnings.catch_warnings():  # a first partition shorter than KIND_ROWS is fine
        warnings.simplefilter("ignore", UserWarning)
        head = ddf[nodes].head(KIND_ROWS, npartitions=1)
    numeric = set(continuous_columns(head, nodes) if continuous is None else continuous)
    given = dict(states or {})
    for node in nodes:  # a categorical column's categories, as an in-memory fit takes them
        dtype = ddf[node].dtype
        if node not in numeric and node not in given and isinstance(dtype, pd.CategoricalDtype):
            if dtype.categories is not None and ddf[node].cat.known:
                given[node] = tuple(str(c) for c in dtype.categories)
    wanted = [n for n in nodes if n not in numeric and n not in given]
    for node, values in _distinct_values(dask, ddf, wanted).items():
        given[node] = _states(node, values)
    shell = HybridNetwork.template(dag, head, continuous=numeric, states=given)
    parts = ddf[nodes].to_delayed()
    tasks = [dask.delayed(shell.statistics, pure=True)(part) for part in parts]
    total = dask.compute(_tree(tasks, merge_statistics))[0]
    return shell.estimated(total, **options)


def _states(node: Any, values: set) -> tuple[str, ...]:
    """A node's states from its distinct values, by the rule of a column's states."""
    from bayeskit.factors.states import node_states

    return node_states(node, pd.Series(list(values), dtype=object).to_numpy())
