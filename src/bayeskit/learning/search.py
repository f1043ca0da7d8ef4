"""Score-and-search structure learning (Zhou, *Machine Learning*, 7.5.2): greedy hill climbing.

"Starting with a network structure and gradually updating each edge (add, delete, or change
direction) until the score function does not decrease any more." The scores are those of
:mod:`bayeskit.learning.scores`, decomposable: a move changes one family (two for a reversal),
so only those families are rescored, and every family scored is kept in a cache (the same
family is asked for again and again as the search moves). After a move, the gains of every
move that changes the same family are scored together, in one compiled pass over the rows.

The climb starts by default from the tree-constrained optimum of the same score (the Chow-Liu
tree, or forest for a penalised score: :func:`learn_tree`), and goes on with a short tabu list
(``tabu_length=10``). Both are measured choices: on ALARM (benchmarks/RESULTS.md, 3 samples
each of 20,000 and 100,000 rows) the climb from the empty graph ends 0.55-0.60% (20,000 rows)
and 0.25% (100,000) below the true DAG's BIC, at a structural Hamming distance of 19-25; from
the tree with the tabu list it ends 0.16% and 0.01% below, at 4-20. ``start="empty"`` and
``tabu_length=0`` give the classic greedy climb. On continuous data (linear-Gaussian
families, :mod:`bayeskit.learning.gaussian_scores`) a climb costs little, with no pass over the
data, and the default climbs from both the tree and the empty graph, keeping the better: on
bnlearn's ``gaussian.test`` model, 40 samples of 5,000 and 50,000 rows, the climb from the tree
missed the true skeleton 18 times and the climb from the empty graph never, while on random
networks neither start is the better one.

Each step takes the move of largest gain; among equal gains the first in this order: pairs
``(u, v)`` in node order (``u`` first), and for a pair add ``u -> v``, then delete it, then
reverse it. A move is legal when it keeps the graph acyclic (a transitive-closure matrix kept
up to date answers that in one look-up), respects ``max_parents``, adds no black-listed edge
and removes or reverses no white-listed one. With ``tabu_length > 0`` the search goes on past a
local optimum, taking the best move whose reverse was not among the last ``tabu_length`` moves,
for up to ``tabu_length`` steps without improvement, and returns the best graph seen. With
``restarts > 0`` it then perturbs the best graph by ``perturb`` random legal moves (seeded) and
climbs again, keeping the best.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from contextlib import closing
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._progress import iterations_adapter, reports_progress
from bayeskit._text import shown
from bayeskit.data.validation import check_count, check_real, check_seed
from bayeskit.graphs.dag import DAG, as_dag, edge_pairs
from bayeskit.graphs.trees import maximum_spanning_tree
from bayeskit.learning._climb import _Climb, _climb, _tolerance
from bayeskit.learning.bge import BGeScores
from bayeskit.learning.clg_scores import CLGScores
from bayeskit.learning.gaussian_scores import GaussianScores
from bayeskit.learning.parameters import NetworkData, distinct_chunk_rows, encode_data, in_chunks
from bayeskit.learning.passes import ChunkPasses, PassScores
from bayeskit.learning.scores import (
    SCORES,
    _FamilyScores,
    moment_scorer,
    refuse_bge,
)

__all__ = ["learn_structure", "learn_tree"]

#: Data in chunks: the most distinct rows a search holds in memory before it reads the chunks
#: again at every step instead (:mod:`bayeskit.learning.passes`).
MAX_DISTINCT_ROWS = 2_000_000


@reports_progress("hill climbing", lambda a: iterations_adapter(None, "score"))
def learn_structure(
    data: pd.DataFrame,
    score: str = "bic",
    *,
    max_parents: int | None = None,
    start: Any = "auto",
    black_list: Iterable[tuple[Any, Any]] = (),
    white_list: Iterable[tuple[Any, Any]] = (),
    tabu_length: int = 10,
    restarts: int = 0,
    perturb: int = 5,
    max_iter: int = 10_000,
    seed: int = 0,
    ess: float = 1.0,
    states: Any = None,
    sample_weight: Any = None,
    progress: Callable[[int, float], Any] | None = None,
    max_distinct_rows: int | None = MAX_DISTINCT_ROWS,
) -> DAG:
    """Learn a DAG over ``data``'s columns by greedy hill climbing on a decomposable score.

    Parameters
    ----------
    data : DataFrame, or chunks
        Complete data, one column per node; or data in chunks
        (:func:`~bayeskit.data.read_chunks`, or any iterable of DataFrames), read once (after
        a first pass for the states not given) into its distinct rows weighted by their
        number: memory holds those, not the file, and the search is the one on all the rows.
        When there are more than ``max_distinct_rows`` of them, the search reads the chunks
        again at each step instead, counting every family the step asks for in one pass
        (:mod:`bayeskit.learning.passes`; the same DAG, memory bounded by a chunk).
    score : {"bic", "aic", "k2", "bdeu", "ll", "bge"}, default="bic"
        ``"bge"`` (:mod:`bayeskit.learning.bge`) for continuous data only, ``ess`` its
        ``alpha_mu``; ``"k2"`` and ``"bdeu"`` for discrete data only.
    max_parents : int, optional
        The most parents a node may have.
    start : DAG, list of (parent, child) pairs, or {"auto", "tree", "empty"}, default="auto"
        The graph to start from: a DAG over the same nodes, an edge list over some of them
        (:func:`~bayeskit.graphs.dag.as_dag`), ``"empty"`` (or None), or
        ``"tree"``, the forest :func:`learn_tree` gives for the same score, its edges kept only
        where the lists and ``max_parents`` allow (turned around where only the other direction
        is allowed). ``"auto"``: ``"tree"`` for discrete data, the better climb from ``"tree"``
        and from ``"empty"`` for data with continuous columns (the module docstring says why).
    black_list, white_list : lists of (parent, child) pairs, or DAGs
        Edges never added; edges never removed or reversed (they are added to the start).
    tabu_length, restarts, perturb, max_iter, seed :
        See the module docstring; ``max_iter`` bounds the moves of one climb.
    ess : float, default=1.0
        BDeu's equivalent sample size.
    states, sample_weight :
        As :func:`~bayeskit.networks.fit_parameters`.
    progress : bool or callable, optional
        ``True`` shows a progress display on standard error. A callable is called as
        ``progress(moves, score)`` after every move, with the moves made so far (all climbs
        together) and the current graph's score (the command line shows it live).
    max_distinct_rows : int or None, default=2,000,000
        Data in chunks only: the most distinct rows held in memory (each takes about one byte
        per node and eight for its number, and a merge three times that); beyond it, a pass
        over the chunks per climbing step. 0: always a pass per step; None: no limit.

    Returns
    -------
    DAG
        Nodes in ``data``'s column order.

    Raises
    ------
    ValueError
        An unknown score or a setting out of its range; an edge of a list that names no column
        of ``data``, or is both black- and white-listed; a ``start`` not over exactly
        ``data``'s columns, or giving a node more than ``max_parents`` parents, or a cycle with
        the white-listed edges; ``sample_weight`` with data in chunks; data that cannot be
        encoded (as :func:`~bayeskit.networks.fit_parameters`).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 2000)
    >>> b = np.where(rng.random(2000) < 0.9, a, 1 - a)
    >>> c = rng.integers(0, 2, 2000)
    >>> dag = learn_structure(pd.DataFrame({"a": a, "b": b, "c": c}))
    >>> dag.edges
    (('a', 'b'),)
    """
    check_search_options(score, {"ess": ess, "max_distinct_rows": max_distinct_rows,
                                 "tabu_length": tabu_length, "restarts": restarts,
                                 "perturb": perturb, "max_iter": max_iter,
                                 "max_parents": max_parents, "seed": seed})  # fmt: skip
    rng = check_seed(seed)
    scorer, nodes = family_scorer(data, score, ess, states, sample_weight, max_distinct_rows)
    with closing(scorer):
        starts, black_list = _search_plan(scorer, nodes, start, black_list)
        lists = (black_list, white_list, max_parents)
        search = (tabu_length, restarts, perturb, max_iter, rng, progress)
        best = _best_climb(scorer, nodes, starts, lists, search)
        return DAG(nodes=nodes, edges=[(nodes[u], nodes[v]) for v in range(len(nodes))
                                       for u in sorted(best[v])])  # fmt: skip


def _search_plan(scorer: Any, nodes: list, start: Any, black_list: Any) -> tuple[list, Any]:
    """The start graphs to climb from (``"auto"``: the tree, and the empty graph too where a
    climb reads no rows), and the black list with the edges the data's kinds forbid (no
    continuous parent of a discrete node)."""
    if isinstance(start, str) and start == "auto":
        cheap = isinstance(scorer, GaussianScores | CLGScores | BGeScores)
        starts = ["tree", "empty"] if cheap else ["tree"]
    else:
        starts = [start]
    if isinstance(scorer, CLGScores):
        blocked = [(nodes[u], nodes[v]) for u, v in sorted(scorer.blocked)]
        black_list = [*edge_pairs(black_list, "black_list"), *blocked]
    return starts, black_list


def _best_climb(scorer: Any, nodes: list, starts: list, lists: tuple, search: tuple):
    """The best parents found by the climbs from each start graph (``lists``: black list,
    white list, ``max_parents``; ``search``: tabu length, restarts, perturbation, most
    moves, random generator, progress)."""
    best: list[set[int]] = []
    best_total = -np.inf
    for first in starts:
        parents, limits = _start_graph(scorer, nodes, first, *lists)
        graph = _Climb(parents, scorer, limits)
        if graph.cyclic():
            msg = "the start graph with the white-listed edges has a cycle"
            raise ValueError(msg)
        found = _climbs(graph, limits, *search)
        total = sum(scorer(v, frozenset(found[v])) for v in range(len(nodes)))
        if not best or total > best_total + _tolerance(best_total):
            best, best_total = found, total
    return best


def _start_graph(
    scorer: _FamilyScores,
    nodes: list,
    start: Any,
    black_list: Any,
    white_list: Any,
    max_parents: int | None,
) -> tuple[list[set[int]], tuple]:
    """The parents of each node (by position) in the start graph, and the limits of every move,
    ``(max_parents, black, white)``; ValueError for lists or a start that do not fit."""
    pos = {n: i for i, n in enumerate(nodes)}
    black = _edge_set(black_list, "black_list", pos)
    white = _edge_set(white_list, "white_list", pos)
    if black & white:
        msg = "an edge is both black- and white-listed"
        raise ValueError(msg)
    parents = _start_parents(start, nodes, pos, white)
    if isinstance(start, str) and start == "tree":
        _add_tree(parents, _tree_edges(scorer, []), black, max_parents)
    if max_parents is not None and any(len(p) > max_parents for p in parents):
        msg = f"the start graph gives a node more than max_parents={max_parents} parents"
        raise ValueError(msg)
    return parents, (max_parents, black, white)


def _edge_set(edges: Any, what: str, pos: dict) -> set[tuple[int, int]]:
    """``edges`` (a black or white list) as pairs of node positions; ValueError for an edge
    that names no column of data."""
    out = set()
    for edge in edge_pairs(edges, what):
        u, v = edge
        if u not in pos or v not in pos:
            msg = f"{what} edge {shown(edge)} names a node that is no column of data"
            raise ValueError(msg)
        out.add((pos[u], pos[v]))
    return out


def _start_parents(start: Any, nodes: list, pos: dict, white: set) -> list[set[int]]:
    """Each node's parents in the start graph (``start`` a DAG or an edge list; none for
    ``"tree"``, whose edges are added later, and ``"empty"``), white-listed edges added."""
    parents: list[set[int]] = [set() for _ in nodes]
    if isinstance(start, str):
        if start not in ("tree", "empty"):
            msg = f"start must be a DAG, 'auto', 'tree' or 'empty', got {start!r}"
            raise ValueError(msg)
    elif start is not None:
        start = as_dag(start, None if isinstance(start, DAG) else nodes, "start")
        if set(start.nodes) != set(nodes):
            msg = "start must be a DAG over exactly data's columns (or edges between them)"
            raise ValueError(msg)
        for u, v in start.edges:
            parents[pos[v]].add(pos[u])
    for u, v in white:
        parents[v].add(u)
    return parents


def _climbs(graph: _Climb, limits, tabu_length: int, restarts: int, perturb: int,
            max_iter: int, rng, progress) -> list[set[int]]:  # fmt: skip
    """The climb from ``graph``, then ``restarts`` climbs from the best graph perturbed by
    ``perturb`` random legal moves: the best parents found."""
    n = len(graph.edges)
    steps = 0

    def tick(total: float) -> None:
        nonlocal steps
        steps += 1
        if progress is not None:
            progress(steps, total)

    best, best_total = _climb(graph, tabu_length, max_iter, tick)

    def random_moves(trial: _Climb):
        for _ in range(perturb):
            moves = np.flatnonzero(trial.legal())
            if not len(moves):
                return
            pick = moves[int(rng.integers(len(moves)))]
            u, v, kind = np.unravel_index(pick, (n, n, 3))
            yield int(kind), int(u), int(v)

    for _ in range(restarts):
        trial = _Climb(best, graph.scorer, limits)
        trial.perturb(random_moves(trial))
        found, total = _climb(trial, tabu_length, max_iter, tick)
        if total > best_total + _tolerance(best_total):
            best, best_total = found, total
    return best


def check_search_options(score: Any, options: Mapping[str, Any], *, tree: bool = False) -> None:
    """The settings of :func:`learn_structure` (with ``tree``, :func:`learn_tree`) in
    ``options`` (the others take their defaults) checked without the data: what the searches
    check first, and what an entry point that reads the data before searching
    (:meth:`BayesianNetwork.learn <bayeskit.networks.BayesianNetwork.learn>` in chunks,
    :func:`bayeskit.dask.learn_structure`) checks before it reads. TypeError naming an
    option the search does not take, ValueError naming a setting and its rule."""
    search = learn_tree if tree else learn_structure
    params = inspect.signature(search).parameters
    unknown = [k for k in options if k not in params or k in ("data", "score")]
    if unknown:
        takes = ", ".join(k for k in params if k not in ("data", "score"))
        msg = f"{search.__name__} takes no option {unknown[0]!r}; its options: {takes}"
        raise TypeError(msg)

    def get(name: str) -> Any:
        return options.get(name, params[name].default)

    if score not in SCORES:
        msg = f"score must be one of {SCORES}, got {shown(score)}"
        raise ValueError(msg)
    check_real("ess", get("ess"), above=0)
    check_count("max_distinct_rows", get("max_distinct_rows"), none_ok=True)
    if tree:
        return
    for name in ("tabu_length", "restarts", "perturb"):
        check_count(name, get(name))
    check_count("max_iter", get("max_iter"), low=1)
    check_count("max_parents", get("max_parents"), none_ok=True)
    check_seed(get("seed"))


def family_scorer(data: Any, score: str, ess: float, states: Any, sample_weight: Any,
                  max_distinct_rows: int | None = None):  # fmt: skip
    """The family scorer of ``data`` (a DataFrame; data in chunks; data a caller of this
    package encoded already, :class:`NetworkData`; or a scorer built already) and its
    nodes."""
    if isinstance(data, PassScores):
        return data, list(data.nodes)
    if isinstance(data, NetworkData):
        return _FamilyScores(data, score, ess), list(data.nodes)
    if in_chunks(data):
        if sample_weight is not None:
            msg = "sample_weight goes with a DataFrame; chunks carry no weights"
            raise ValueError(msg)
        # data in chunks: their distinct rows, or a pass per climbing step when too many
        nodes, given, rows = distinct_chunk_rows(data, states, max_distinct_rows)
        if rows is None:
            passes = ChunkPasses(data, nodes, given)
            return PassScores(nodes, given, passes, score, ess), list(nodes)
        return _FamilyScores(NetworkData(nodes, given, *rows), score, ess), list(nodes)
    names = list(data.columns) if isinstance(data, pd.DataFrame) else []
    if isinstance(data, pd.DataFrame):  # continuous columns: moments (linear-Gaussian or CLG)
        scorer = moment_scorer(data, score, ess, states, sample_weight)
        if scorer is not None:
            return scorer, names
    refuse_bge(score)
    return _FamilyScores(encode_data(names, data, states, sample_weight), score, ess), names


def _add_tree(parents: list[set[int]], edges, black, max_parents) -> None:
    """Add each tree edge to ``parents`` (the white-listed edges) in the first direction that is
    not black-listed, leaves room under ``max_parents`` and closes no cycle; else leave it out."""

    def ancestors(v: int) -> set[int]:
        seen, todo = set(), [v]
        while todo:
            for p in parents[todo.pop()]:
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return seen

    for u, v in edges:
        for a, b in ((u, v), (v, u)):
            room = max_parents is None or len(parents[b]) < max_parents
            if (a, b) not in black and room and b not in ancestors(a) and a not in parents[b]:
                parents[b].add(a)
                break


def single_parent_gains(scorer: _FamilyScores) -> np.ndarray:
    """``gains[j, i]``: what ``i`` as ``j``'s only parent adds to ``j``'s score, for every
    pair (kept, like every family scored, for the search)."""
    empty: frozenset[int] = frozenset()
    scorer.prefetch([(j, empty, True) for j in range(scorer.n_nodes)])
    return np.array([scorer.extensions(j, empty) - scorer(j, empty)
                     for j in range(scorer.n_nodes)])  # fmt: skip


def _tree_edges(scorer: _FamilyScores, roots: list[int]) -> list[tuple[int, int]]:
    """The maximum spanning forest of the symmetrised single-parent gains (see
    :func:`learn_tree`), directed away from ``roots`` and then from each tree's first node."""
    import networkx as nx

    n = scorer.n_nodes
    gains = single_parent_gains(scorer)
    # [i, j]: (gains[j, i] + gains[i, j]) / 2, i as j's only parent; where one direction is
    # not allowed (a continuous parent of a discrete node), the other's gain alone
    both = np.isfinite(gains) & np.isfinite(gains.T)
    pair = np.where(both, (gains.T + gains) / 2, np.maximum(gains, gains.T))
    kept = pair > _tolerance(scorer.n_rows)
    tree = nx.Graph()
    tree.add_nodes_from(range(n))
    tree.add_edges_from(maximum_spanning_tree(pair, edges=kept).tolist())
    edges, seen = [], set()
    for start in [*roots, *range(n)]:
        if start in seen:
            continue
        seen.add(start)
        for u, v in nx.bfs_edges(tree, start, sort_neighbors=sorted):
            seen.add(v)
            edges.append((u, v))
    return edges


def learn_tree(
    data: Any,  # a DataFrame, chunks or NetworkData, as learn_structure takes
    score: str = "ll",
    *,
    root: Any = None,
    ess: float = 1.0,
    states: Any = None,
    sample_weight: Any = None,
    max_distinct_rows: int | None = MAX_DISTINCT_ROWS,
) -> DAG:
    """The tree-constrained search (Chow and Liu 1968): the maximum spanning tree of the edge
    gains, directed away from ``root``.

    An edge's gain is what giving one end the other as its only parent adds to the score,
    ``family(j | i) - family(j)``: for ``"ll"`` it is ``m I(x_i; x_j)`` and the tree is
    Chow-Liu's, the tree of highest likelihood; for BIC and AIC the penalty of the edge,
    ``(r_i - 1)(r_j - 1)`` parameters, is the same both ways, and for BDeu (score-equivalent)
    so is the whole gain; for K2, which is not, the mean of the two directions is used. Edges of
    no positive gain are left out, so a penalised score can give a forest. Ties go to the
    earlier pair in node order (Kruskal's algorithm, networkx).

    Parameters
    ----------
    data, score, ess, states, sample_weight, max_distinct_rows :
        As :func:`learn_structure` (data in chunks read in passes: one for the states when
        they are not given, and one for every pair).
    root : node, optional
        Where each tree's edges start; by default each tree's first node in column order.

    Returns
    -------
    DAG
        A forest over ``data``'s columns (in their order): each node has at most one parent.

    Raises
    ------
    ValueError
        An unknown score or a setting out of its range, a ``root`` that is no column of
        ``data``, ``sample_weight`` with data in chunks, or data that cannot be encoded (as
        :func:`~bayeskit.networks.fit_parameters`).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 3000)
    >>> b = np.where(rng.random(3000) < 0.9, a, 1 - a)
    >>> c = np.where(rng.random(3000) < 0.9, b, 1 - b)
    >>> learn_tree(pd.DataFrame({"a": a, "b": b, "c": c})).edges
    (('a', 'b'), ('b', 'c'))
    """
    check_search_options(score, {"ess": ess, "max_distinct_rows": max_distinct_rows}, tree=True)
    scorer, nodes = family_scorer(data, score, ess, states, sample_weight, max_distinct_rows)
    with closing(scorer):
        if root is not None and root not in nodes:
            msg = f"root {shown(root)} is no column of data"
            raise ValueError(msg)
        rooted = [nodes.index(root)] if root is not None else []
        edges = [(nodes[u], nodes[v]) for u, v in _tree_edges(scorer, rooted)]
        return DAG(nodes=nodes, edges=edges)
