"""Parameter learning for a fixed structure: CPTs counted from complete data, then estimated.

Learning is counting (Zhou, *Machine Learning*, 7.5.2: "when the network structure is known
... we only need to count the training samples to estimate the CPT of each node"): one pass
counts every family ``(parents..., node)`` with :func:`bayeskit.stats.family_counts`, in the
CPTs' own axis order, and an estimator of :mod:`bayeskit.estimate` turns each family's counts
into its CPT. The counts are kept (:attr:`NetworkFit.counts`), so more rows add to them
(``partial_fit``) and the result equals one fit on all the rows.

The estimators are those of :mod:`bayeskit.estimate`'s registry (:data:`ESTIMATORS`, the names
the classifiers' ``smoothing=`` takes too), per parent configuration ``j`` of node ``i`` with
``r_i`` states and ``q_i`` parent configurations, counts ``n_ijk``, for example:

- ``"mle"``: ``n_ijk / n_ij``;
- ``"lidstone"``: ``(n_ijk + alpha) / (n_ij + r_i alpha)`` (``alpha=1``: Laplace);
- ``"k2"``: ``(n_ijk + 1) / (n_ij + r_i)``, the posterior mean under K2's prior;
- ``"bdeu"``: ``(n_ijk + ess / (q_i r_i)) / (n_ij + ess / q_i)``, the posterior mean under the
  BDeu prior of equivalent sample size ``ess`` (``alpha``);
- ``"hierarchical"``: each CPT shrunk toward the one with its last parent summed out, down to
  the node's marginal: the parents count in the order their edges were given, the most
  important first.

A parent configuration never seen gets the prior's distribution (uniform for the additive
estimators, the MLE included; the level above for the hierarchical ones), never NaN.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.data.rows import distinct_rows
from bayeskit.data.validation import check_real, check_sample_weight
from bayeskit.estimate import SMOOTHINGS, get_estimator
from bayeskit.factors.limits import MAX_TABLE_CELLS
from bayeskit.factors.states import (
    NumericColumnError,
    check_column,
    discretize_frame,
    encode_columns,
    encode_frame,
    node_states,
    state_name,
    state_names,
    state_order,
    value_state_names,
)
from bayeskit.graphs.dag import DAG, as_dag
from bayeskit.stats import FamilyCounts, family_counts

__all__ = ["ESTIMATORS", "MAX_TABLE_CELLS", "NetworkFit", "fit_network"]

#: The CPT estimators: every name of :mod:`bayeskit.estimate`'s registry.
ESTIMATORS = SMOOTHINGS


@dataclass
class NetworkFit:
    """A network fitted to data, with the counts it came from (to add more rows).

    Attributes
    ----------
    network : BayesianNetwork
        The fitted network (of the class it was fitted as).
    counts : FamilyCounts
        Every family ``(parents..., node)``, columns in node order.
    estimator : str
    alpha : float

    Examples
    --------
    Rows added later give the fit of all the rows (the states declared, as the first rows
    need not show them all):

    >>> from bayeskit.networks import fit_parameters
    >>> data = pd.DataFrame({"rain": ["y", "y", "n", "n"], "wet": ["y", "y", "n", "y"]})
    >>> states = {"rain": ["n", "y"], "wet": ["n", "y"]}
    >>> first = fit_parameters([("rain", "wet")], data[:2], estimator="mle", states=states)
    >>> first.partial_fit(data[2:]).network.cpt("wet").tolist()
    [[0.5, 0.5], [0.0, 1.0]]
    """

    network: Any
    counts: FamilyCounts
    estimator: str
    alpha: float

    def partial_fit(self, data: pd.DataFrame, sample_weight: Any = None) -> NetworkFit:
        """The fit with ``data``'s rows added to the counts (the same states): equal to one
        fit on all the rows.

        Parameters
        ----------
        data : DataFrame
            Complete rows, a column per node (others are ignored), values named as the
            network's states (a ValueError names a column with a missing value or a value that
            is no state).
        sample_weight : array-like of shape (n_rows,), optional
            Non-negative weights; an integer weight counts a row that many times.

        Returns
        -------
        NetworkFit
            A new fit (this one is left as it is): the network re-estimated from all the
            counts, of the same class, DAG and states, with the same estimator and alpha.

        Examples
        --------
        >>> from bayeskit.networks import fit_parameters
        >>> states = {"rain": ["n", "y"], "wet": ["n", "y"]}
        >>> fit = fit_parameters([("rain", "wet")], pd.DataFrame({"rain": ["y"], "wet": ["y"]}),
        ...                      estimator="mle", states=states)
        >>> more = fit.partial_fit(pd.DataFrame({"rain": ["y", "n"], "wet": ["n", "n"]}))
        >>> more.network.cpt("wet").tolist(), fit.network.cpt("wet").tolist()[1]
        ([[1.0, 0.0], [0.5, 0.5]], [0.0, 1.0])
        """
        net = self.network
        states = {n: net.states(n) for n in net.nodes}
        more = count_families(net.dag, encode_data(net.nodes, data, states, sample_weight))
        counts = self.counts + more
        cpts = estimate_cpts(net.dag, counts, states, self.estimator, self.alpha)
        return NetworkFit(type(net)(net.dag, cpts, states=states), counts, self.estimator,
                          self.alpha)  # fmt: skip


def fit_network(
    dag: Any,
    data: pd.DataFrame,
    *,
    network_type: Callable[..., Any],
    estimator: str = "bdeu",
    alpha: float | None = None,
    states: Mapping[Any, Any] | None = None,
    sample_weight: Any = None,
    discretize: str | Mapping[Any, str] | None = None,
) -> NetworkFit:
    """Count ``data`` over ``dag``'s families and estimate every CPT: the counts and a network
    built as ``network_type(dag, cpts, states=states)``
    (:func:`~bayeskit.networks.fit_parameters` with a network class).

    Parameters
    ----------
    dag, data, estimator, alpha, states, sample_weight, discretize :
        As :func:`~bayeskit.networks.fit_parameters`.
    network_type : callable
        Builds the network: ``network_type(dag, cpts, states=states)`` (a
        :class:`~bayeskit.networks.BayesianNetwork` subclass, or a function).

    Returns
    -------
    NetworkFit
        The network (of ``network_type``), the family counts, the estimator and its alpha.

    Raises
    ------
    ValueError
        An unknown estimator or a bad ``alpha`` (named); ``sample_weight`` or ``discretize``
        given with data in chunks; data refused as by
        :func:`~bayeskit.networks.fit_parameters` (a missing value, a node without a column).

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> data = pd.DataFrame({"rain": ["y", "y", "n", "n"], "wet": ["y", "y", "n", "y"]})
    >>> fit = fit_network(DAG(edges=[("rain", "wet")]), data, network_type=BayesianNetwork,
    ...                   estimator="mle")
    >>> fit.network.cpt("wet").tolist(), fit.estimator
    ([[0.5, 0.5], [0.0, 1.0]], 'mle')
    """
    dag = as_dag(dag, what="dag")
    chosen = get_estimator(estimator, "estimator")
    check_real("alpha", alpha, low=0, none_ok=True)
    a = 1.0 if alpha is None else alpha
    chosen.check_alpha(a, "estimator")
    if in_chunks(data):
        if sample_weight is not None:
            msg = "sample_weight goes with a DataFrame; chunks carry no weights"
            raise ValueError(msg)
        if discretize is not None:
            msg = "discretize= needs the data in one DataFrame; bin the chunks' columns first"
            raise ValueError(msg)
        counts, node_states = _count_chunks(dag, data, states)
    else:
        if discretize is not None:
            data = discretized(data, discretize, dag.nodes, states, sample_weight)
        enc = encode_data(dag.nodes, data, states, sample_weight)
        counts, node_states = count_families(dag, enc), enc.states
    cpts = estimate_cpts(dag, counts, node_states, estimator, float(a))
    return NetworkFit(network_type(dag, cpts, states=node_states), counts, estimator, a)


def discretized(data: Any, discretize: Any, nodes: Any, states: Mapping | None, weights: Any):
    """``data`` with ``discretize=``'s columns binned (:func:`discretize_frame`); the nodes
    whose states are given are left as they are."""
    given = set(states or ())
    if isinstance(discretize, Mapping):
        both = [c for c in discretize if c in given]
        if both:
            msg = f"discretize and states both name {shown(both[0])}: give its states, or bin it"
            raise ValueError(msg)
    if isinstance(data, pd.DataFrame) and weights is not None:
        weights = check_sample_weight(weights, len(data))
    columns = [n for n in nodes if n not in given]
    return discretize_frame(data, discretize, columns=columns, sample_weight=weights)


#: Data in chunks: the most distinct values a column of numbers may show in the pass that
#: gathers the states before it is refused (:func:`node_states`); below it, the refusal waits
#: for the end of the pass, since text in a later chunk makes it a column of text, as a
#: whole-file read types it.
MAX_PENDING_VALUES = 1024


def gather_states(nodes: Any, chunks: Any, states: Mapping | None, declared: Any = ()) -> dict:
    """Every node's states for data in chunks: as given, else gathered in a first pass over
    the columns (as for one DataFrame, :func:`node_states`; a categorical column's
    categories), which needs a re-iterable source. The ``declared`` nodes take a state per
    value, no rule applied (the command line's ``--categorical``).

    The states are those of the whole file read at once. A column of numbers that breaks the
    rule of :func:`node_states` is refused at the end of the pass, or as soon as it shows more
    than :data:`MAX_PENDING_VALUES` distinct values; a CSV column that is text in some chunks
    and numbers or booleans in others (pandas types each chunk on its own) is read again as
    text, and from then on (:attr:`bayeskit.data.Chunks.text_columns`), as a whole-file read
    types it: its states and counts are the whole file's."""
    from bayeskit.data.chunks import Chunks, reiterable

    given = {n: state_names(f"states[{n!r}]", s) for n, s in (states or {}).items()}
    unknown = [n for n in nodes if n not in given]
    if not unknown:
        return given
    if not reiterable(chunks):
        msg = (
            f"the states of {unknown} are not given: pass states=, or a re-iterable source "
            "(read_chunks(path), a list) for a first pass that gathers them"
        )
        raise ValueError(msg)
    source, text = chunks, set()
    if isinstance(chunks, Chunks):  # the columns wanted; text as categories (no string per cell)
        source = chunks.select([str(n) for n in unknown]).as_categories()
        text = set(source.text_as_categories())
    seen: dict[Any, set] = {n: set() for n in unknown}
    kinds: dict[Any, set] = {n: set() for n in unknown}  # "text" and/or "other", by chunk
    origin: dict[Any, dict] = {n: {} for n in unknown}  # each name's first value, by node
    file = isinstance(chunks, Chunks) and not chunks.is_parquet and not chunks.as_text
    clash: dict[Any, list | None] = {}  # two values that name one state ("1" and 1)
    ordered: dict[Any, tuple[str, ...]] = {}
    for chunk in _frames(source):
        for node in unknown:
            if node not in chunk.columns:
                continue
            col = chunk[node]
            check_column(col)
            if not isinstance(col.dtype, pd.CategoricalDtype):
                values = col.dropna().unique()
                if len(values):
                    words = col.dtype.kind == "O" and any(isinstance(v, str) for v in values)
                    kinds[node].add("text" if words else "other")
                seen[node].update(value_state_names(node, values))  # 1 and "1" refused
                if not file and not clash.get(node):  # a file's are read again as text
                    clash[node] = _clash(origin[node], values)
                if node not in declared and kinds[node] == {"other"} \
                        and len(seen[node]) > MAX_PENDING_VALUES:  # fmt: skip
                    _refuse_numbers(node, seen[node])
            elif node in text:  # text read as categories: the values the chunk holds
                codes = np.unique(col.cat.codes.to_numpy())
                seen[node].update(value_state_names(node, col.cat.categories[codes[codes >= 0]]))
                kinds[node].add("text")
            else:  # a categorical column: its categories are its states (those of every
                # chunk, in the order first seen: a file's row groups may differ)
                held = ordered.setdefault(node, ())
                fresh = [c for c in state_names(f"column {node!r}", col.cat.categories)
                         if c not in set(held)]  # fmt: skip
                ordered[node] = held + tuple(fresh)
    mixed = [n for n in unknown if len(kinds[n]) > 1 and n not in ordered]
    for node in [] if file else mixed:  # frames given: 1 and "1" in two chunks, as in one
        if clash.get(node):
            value_state_names(node, clash[node])
    if mixed and file:
        chunks.text_columns.update(str(n) for n in mixed)  # read as the whole file reads them
        for node in mixed:
            seen[node] = set()
        for chunk in _frames(chunks.select([str(n) for n in mixed])):
            for node in mixed:
                seen[node].update(chunk[node].dropna().unique())
    for node in unknown:
        if node in ordered:
            given[node] = ordered[node]
        elif seen[node]:
            names = list(seen[node])
            declared_here = node in declared
            given[node] = tuple(state_order(names)) if declared_here else node_states(node, names)
    return given


def _clash(origin: dict, values: Any) -> list | None:
    """Keep in ``origin`` (state name -> first value seen) the first value of each name of
    ``values``; two values of other types that name one state (``"1"`` and ``1``), or None."""
    for value in values:
        first = origin.setdefault(state_name(value), value)
        if type(first) is not type(value) and bool(first != value):
            return [first, value]
    return None


def _refuse_numbers(node: Any, names: set) -> None:
    """The :class:`NumericColumnError` of a column of numbers with ``names`` seen so far."""
    try:
        node_states(node, list(names))
    except NumericColumnError as exc:
        raise NumericColumnError(node, exc.n_distinct, exc.whole, exc.example,
                                 at_least=True) from None  # fmt: skip


def _frames(chunks: Any):
    for k, chunk in enumerate(chunks):
        if not isinstance(chunk, pd.DataFrame):
            msg = (
                f"chunk {k} is a {type(chunk).__name__}, not a DataFrame: data in chunks is an "
                "iterable of DataFrames (read_chunks(path), a list of DataFrames)"
            )
            raise TypeError(msg)
        if len(chunk):
            yield chunk


def _count_chunks(dag: DAG, chunks: Any, states: Mapping | None) -> tuple[FamilyCounts, dict]:
    """The family counts of data in chunks (a :func:`~bayeskit.data.read_chunks` file or any
    iterable of DataFrames), one chunk in memory at a time (states: :func:`gather_states`)."""
    given = gather_states(dag.nodes, chunks, states)
    counts = None
    node_states = None
    for chunk in _frames(_known_states_source(chunks)):
        enc = encode_data(dag.nodes, chunk, given, None)
        node_states = enc.states
        part = count_families(dag, enc)
        counts = part if counts is None else counts + part
    if counts is None or node_states is None:
        msg = "the chunks hold no rows: there is nothing to count"
        raise ValueError(msg)
    return counts, node_states


def _known_states_source(chunks: Any) -> Any:
    """Chunks to read once every node's states are known: a Parquet file's text columns as
    categories (:meth:`~bayeskit.data.Chunks.as_categories`), matched to the states as text."""
    from bayeskit.data.chunks import Chunks

    return chunks.as_categories() if isinstance(chunks, Chunks) else chunks


def merge_distinct(
    held: tuple[np.ndarray, np.ndarray] | None, codes: np.ndarray, weights: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows with their numbers: ``held`` (rows, weights) merged with more rows
    ``codes`` (each of weight 1, or ``weights``); the one merge of chunked and distributed
    structure learning."""
    if weights is None:
        codes, weights = distinct_rows(codes, missing="last")
        if held is None:
            return codes, weights
    if held is not None:
        codes, weights = np.concatenate([held[0], codes]), np.concatenate([held[1], weights])
    rows, numbers = distinct_rows(codes, weights, missing="last")
    return rows, numbers


def in_chunks(data: Any) -> bool:
    """Whether ``data`` is data in chunks (:func:`~bayeskit.data.read_chunks`, a list or any
    iterable of DataFrames) rather than one table."""
    one = pd.DataFrame | np.ndarray | pd.Series | str | bytes | Mapping
    return not isinstance(data, one) and hasattr(data, "__iter__")


def chunk_states(chunks: Any, states: Mapping | None) -> tuple[tuple, dict, Any]:
    """The nodes of data in chunks (a file's header, else the first chunk's columns), every
    node's states (:func:`gather_states`: a pass for those not given) and the chunks to read
    from the start (a one-shot source with its first chunk put back in front)."""
    import itertools

    from bayeskit.data.chunks import Chunks, reiterable

    source = chunks
    if isinstance(chunks, Chunks):  # the columns from the file's header: no chunk read for them
        nodes = tuple(chunks.columns or chunks.column_names())
    else:
        frames = _frames(chunks)
        first = next(frames, None)
        if first is None:
            msg = "the chunks hold no rows: there is nothing to learn from"
            raise ValueError(msg)
        nodes = tuple(first.columns)
        check_columns(nodes, nodes)
        if reiterable(chunks):  # read again from the start: neither chunk nor reader held
            frames.close()
        else:
            source = itertools.chain([first], frames)
    given = gather_states(nodes, chunks, states)
    lacking = [n for n in nodes if n not in given]
    if lacking:
        msg = f"the chunks hold no value of column {shown(lacking[0])} to take its states from"
        raise ValueError(msg)
    return nodes, {n: given[n] for n in nodes}, source


def chunk_codes(chunks: Any, nodes: tuple, states: dict):
    """Each chunk's state codes, node-major (:func:`encode_columns`), the states known."""
    for chunk in _frames(_known_states_source(chunks)):
        yield encode_columns(nodes, states, chunk)


def distinct_chunk_rows(
    chunks: Any, states: Mapping | None, limit: int | None = None
) -> tuple[tuple, dict, tuple[np.ndarray, np.ndarray] | None]:
    """Data in chunks as its distinct rows, each weighted by its number: one pass (after the
    states' pass when they are not given), memory bounded by the distinct rows, not the file.
    Every decomposable score reads the data through counts alone, so a search on these rows
    is the search on all of them (the in-memory scorer counts distinct rows once too).

    Returns the nodes, their states and the rows with their weights; the rows are None when
    there are more than ``limit`` of them (the pass stops there)."""
    from bayeskit.data.chunks import reiterable

    again = reiterable(chunks)
    nodes, given, source = chunk_states(chunks, states)
    if limit == 0:
        if not again:
            msg = (
                "max_distinct_rows=0 asks for a pass per step: pass a re-iterable source "
                "(read_chunks(path), a list)"
            )
            raise ValueError(msg)
        return nodes, given, None
    held, warned = None, False
    for codes in chunk_codes(source, nodes, given):
        held = merge_distinct(held, codes.T)
        if limit is not None and len(held[0]) > limit:
            if again:
                return nodes, given, None
            if not warned:  # a one-shot source cannot be read again: hold them all
                warned = True
                msg = (
                    f"the chunks hold more than max_distinct_rows={limit} distinct rows; a "
                    "pass per step instead needs a re-iterable source (read_chunks(path), a "
                    "list), so all of them are held in memory"
                )
                warnings.warn(msg, ResourceWarning, stacklevel=4)
    if held is None:
        msg = "the chunks hold no rows: there is nothing to learn from"
        raise ValueError(msg)
    return nodes, given, held


@dataclass(frozen=True)
class NetworkData:
    """Complete data over some nodes, encoded once: what counting and scoring read.

    Attributes
    ----------
    nodes : tuple
        The nodes, in column order.
    states : dict node -> tuple of str
        Each node's state names; a code is an index into them.
    codes : ndarray of shape (n_rows, n_nodes)
        Each row's state codes, nodes in order.
    weights : ndarray of shape (n_rows,) or None
        The rows' weights; None: one each.

    Examples
    --------
    >>> data = NetworkData(("a", "b"), {"a": ("x", "y"), "b": ("u", "v")},
    ...                    np.array([[0, 1], [1, 1]]), np.array([2.0, 1.0]))
    >>> data.n_rows, data.n_states
    (3.0, [2, 2])
    """

    nodes: tuple
    states: dict[Any, tuple[str, ...]]
    codes: np.ndarray  # (n_rows, n_nodes) state indices, nodes in order
    weights: np.ndarray | None

    @property
    def n_rows(self) -> float:
        """The rows' total weight (``m`` of BIC's penalty)."""
        return float(len(self.codes) if self.weights is None else self.weights.sum())

    @property
    def n_states(self) -> list[int]:
        return [len(self.states[n]) for n in self.nodes]


def encode_data(
    nodes: Any, data: pd.DataFrame, given: Mapping | None, sample_weight: Any
) -> NetworkData:
    """``data``'s columns ``nodes`` as state indices, each node's states (``given`` or the
    column's categories or sorted distinct values) and the checked weights."""
    if not isinstance(data, pd.DataFrame):
        msg = f"data must be a pandas DataFrame, got {type(data).__name__}"
        raise TypeError(msg)
    nodes = tuple(nodes)
    check_columns(data.columns, nodes)
    states = {}
    for node in nodes:
        if (given is None or node not in given) and node not in data.columns:
            msg = f"data has no column {node!r} (the DAG's nodes: {list(nodes)})"
            raise ValueError(msg)
        states[node] = column_states(data, node, given)
    codes = encode_frame(nodes, states, data)  # names the column of a bad value
    return NetworkData(nodes, states, codes, check_sample_weight(sample_weight, len(data)))


def check_columns(columns: Any, nodes: Any) -> None:
    """ValueError when ``nodes`` is empty, or a node's name is more than one of ``columns``."""
    if not len(nodes):
        msg = "data has no columns: a network needs a column per node"
        raise ValueError(msg)
    columns = pd.Index(columns)
    twice = [c for c in dict.fromkeys(columns[columns.duplicated(keep=False)]) if c in set(nodes)]
    if twice:
        msg = (
            f"data has {len(twice)} column name(s) more than once ({shown(twice[:5])}): a node "
            "is one column; rename or drop the repeated columns"
        )
        raise ValueError(msg)


def column_states(data: pd.DataFrame, node: Any, given: Mapping | None) -> tuple[str, ...]:
    """A node's states: as ``given``, else its column's categories, else the column's distinct
    values by the one rule of :func:`~bayeskit.factors.states.node_states` (a column of
    numbers that are not a few whole numbers refused by name); ValueError for a column with no
    value to take them from."""
    if given is not None and node in given:
        return state_names(f"states[{node!r}]", given[node])
    col = data[node]
    check_column(col)  # before pandas holds True and 1 as one value
    if isinstance(col.dtype, pd.CategoricalDtype):  # named as its values are matched: 1.0 is "1"
        states = state_names(f"column {node!r}", col.cat.categories)
    else:
        states = node_states(node, col.dropna().unique())
    if not states:
        msg = f"column {node!r} has no value to take its states from; pass states="
        raise ValueError(msg)
    return states


def count_families(dag: DAG, data: NetworkData) -> FamilyCounts:
    """Every family ``(parents..., node)`` of ``dag`` (over ``data``'s nodes), one pass."""
    pos = {n: j for j, n in enumerate(data.nodes)}
    families = [(*(pos[p] for p in dag.parents(n)), pos[n]) for n in dag.nodes]
    check_table_cells(dag, data.states)
    return family_counts(data.codes, families, data.n_states, data.weights)


def check_table_cells(dag: DAG, states: Mapping) -> None:
    """ValueError, before anything is allocated, when ``dag``'s CPTs over ``states`` (node ->
    state names) would hold more than :data:`MAX_TABLE_CELLS` cells: it names the largest
    table and its states."""
    sizes = {n: math.prod(len(states[v]) for v in (*dag.parents(n), n)) for n in dag.nodes}
    total = sum(sizes.values())
    if total > MAX_TABLE_CELLS:
        node = max(sizes, key=sizes.__getitem__)
        shape = " x ".join(str(len(states[v])) for v in (*dag.parents(node), node))
        msg = (
            f"the network's CPTs would hold {total:,} cells ({total * 8 / 2**30:,.1f} GiB), more "
            f"than {MAX_TABLE_CELLS:,}: the largest, of node {node!r} given "
            f"{list(dag.parents(node))}, has {shape} states; give its nodes fewer states (bin "
            "numeric columns) or fewer parents"
        )
        raise ValueError(msg)


def estimate_cpts(
    dag: DAG, counts: FamilyCounts, states: dict, estimator: str, alpha: float
) -> dict[Any, np.ndarray]:
    """Every node's CPT from ``dag``'s family counts (columns in node order), by the
    estimator: what a network over ``dag`` and ``states`` takes as its tables."""
    pos = {n: j for j, n in enumerate(dag.nodes)}
    tables = {
        node: counts.table((*(pos[p] for p in dag.parents(node)), pos[node])) for node in dag.nodes
    }
    return _cpts(tables, estimator, alpha)


def _cpts(tables: Mapping[Any, np.ndarray], estimator: str, alpha: float) -> dict:
    """Each node's CPT from its family's (possibly expected) counts, parents first in the DAG's
    order, by the registry's estimator called ``estimator``."""
    chosen = get_estimator(estimator, "estimator")
    return {node: chosen.probabilities(n, alpha) for node, n in tables.items()}
