"""Score-and-search structure learning (Zhou, *Machine Learning*, 7.5.2): greedy hill climbing.

"Starting with a network structure and gradually updating each edge (add, delete, or change
direction) until the score function does not decrease any more." The scores are those of
:mod:`bayeskit.learning.scores`, decomposable: a move changes one family (two for a reversal),
so only those families are rescored, and every family scored is kept in a cache (the same
family is asked for again and again as the search moves). After a move, the gains of every
move that changes the same family are scored together, in one compiled pass over the rows.

By default (``start="auto"``) the climb on discrete data starts from several graphs and keeps
the best result: a DAG of the class greedy equivalence search finds for the same score
(:mod:`bayeskit.learning.ges`), and, for BIC, a DAG of GES's class for AIC and the climb's own
optimum for AIC. GES is consistent (the true class as the rows grow), where a climb over DAGs
can end at orientations more data never undoes; the optima for the weaker penalty hold the
weak true edges whose families pay only together, which a climb that adds one edge at a time
does not find but one that removes edges from them does. Each start is climbed with a short
tabu list (``tabu_length=10``). Measured on the bundled networks (benchmarks/RESULTS.md,
samples of 20,000 to 2,000,000 rows): the climb from the Chow-Liu tree, the default before,
ended up to 39,292 below the true DAG's BIC (insurance, 2,000,000 rows) and 349 below it on
20,000 ALARM rows; the default ends at or above it on every network and size measured.
``start="tree"`` is the climb from the Chow-Liu tree alone, ``start="ges"`` from GES's class
alone, ``start="empty"`` and ``tabu_length=0`` the classic greedy climb. On continuous data
(linear-Gaussian families, :mod:`bayeskit.learning.gaussian_scores`) a climb costs little,
with no pass over the data, and the default climbs from both the tree and the empty graph,
keeping the better: on bnlearn's ``gaussian.test`` model, 40 samples of 5,000 and 50,000 rows,
the climb from the tree missed the true skeleton 18 times and the climb from the empty graph
never, while on random networks neither start is the better one.

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
from bayeskit.data.validation import check_count, check_seed
from bayeskit.graphs.dag import DAG, as_dag, edge_pairs
from bayeskit.graphs.trees import maximum_spanning_tree
from bayeskit.learning._climb import _Climb, _climb, _tolerance
from bayeskit.learning.bge import BGeScores
from bayeskit.learning.clg_scores import CLGScores
from bayeskit.learning.data_scorers import MAX_DISTINCT_ROWS, check_score_settings, family_scorer
from bayeskit.learning.gaussian_scores import GaussianScores
from bayeskit.learning.ges import equivalence_search
from bayeskit.learning.scores import _FamilyScores

__all__ = ["WEAKER_PENALTY", "hill_climb", "learn_tree"]

#: The score whose optima the default search also starts from (see the module docstring).
WEAKER_PENALTY = {"bic": "aic"}


@reports_progress("hill climbing", lambda a: iterations_adapter(None, "score"))
def hill_climb(
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
    start : DAG, list of (parent, child) pairs, or {"auto", "ges", "tree", "empty"}, default="auto"
        The graph to start from: a DAG over the same nodes, an edge list over some of them
        (:func:`~bayeskit.graphs.dag.as_dag`), ``"empty"`` (or None), ``"tree"``, the forest
        :func:`learn_tree` gives for the same score, its edges kept only where the lists and
        ``max_parents`` allow (turned around where only the other direction is allowed), or
        ``"ges"``, a DAG of the class :func:`~bayeskit.learning.learn_ges` finds for the same
        score (data all discrete or all continuous), its black-listed edges left out.
        ``"auto"``: for discrete data the best climb from ``"ges"`` and, for BIC, from GES's
        class and the climb for AIC (``"ges"`` and ``"tree"`` for other scores); from
        ``"tree"`` and ``"empty"`` for continuous columns (the module docstring says why).
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
    >>> dag = hill_climb(pd.DataFrame({"a": a, "b": b, "c": c}))
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
        search = (tabu_length, restarts, perturb, max_iter, rng, _ticks(progress))
        best = _best_climb(scorer, nodes, starts, lists, search)
        return DAG(nodes=nodes, edges=[(nodes[u], nodes[v]) for v in range(len(nodes))
                                       for u in sorted(best[v])])  # fmt: skip


def _search_plan(scorer: Any, nodes: list, start: Any, black_list: Any) -> tuple[list, Any]:
    """The start graphs to climb from (``"auto"``: see the module docstring), and the black list
    with the edges the data's kinds forbid (no continuous parent of a discrete node)."""
    kind = scorer.kind
    if isinstance(start, str) and start == "auto":
        if isinstance(scorer, GaussianScores | CLGScores | BGeScores):
            starts: list = ["tree", "empty"]
        elif kind in WEAKER_PENALTY:
            weaker = WEAKER_PENALTY[kind]
            starts = [("ges", kind), ("ges", weaker), ("climb", weaker)]
        else:
            starts = [("ges", kind), "tree"]
    elif isinstance(start, str) and start == "ges":
        starts = [("ges", kind)]
    else:
        starts = [start]
    if isinstance(scorer, CLGScores):
        if any(isinstance(s, tuple) for s in starts):
            msg = ("start='ges' takes data whose columns are all discrete or all continuous; "
                   "use start='tree' or 'empty' for both kinds")  # fmt: skip
            raise ValueError(msg)
        blocked = [(nodes[u], nodes[v]) for u, v in sorted(scorer.blocked)]
        black_list = [*edge_pairs(black_list, "black_list"), *blocked]
    return starts, black_list


def _best_climb(scorer: Any, nodes: list, starts: list, lists: tuple, search: tuple):
    """The best parents found by the climbs from each start graph (``lists``: black list,
    white list, ``max_parents``; ``search``: tabu length, restarts, perturbation, most
    moves, random generator, progress). A start the search works out itself (GES's class, a
    climb on a weaker penalty) that the lists make cyclic is left out when others remain."""
    best: list[set[int]] = []
    best_total = -np.inf
    for first in starts:
        derived = isinstance(first, tuple)
        if derived:
            first = _derived_start(scorer, nodes, first, lists, search)
        try:
            parents, limits = _start_graph(scorer, nodes, first, *lists)
        except ValueError:  # too many parents for max_parents: GES's extension can give them
            if derived and len(starts) > 1:
                continue
            raise
        graph = _Climb(parents, scorer, limits)
        if graph.cyclic():
            if derived and len(starts) > 1:
                continue
            msg = "the start graph with the white-listed edges has a cycle"
            raise ValueError(msg)
        found = _climbs(graph, limits, *search)
        total = sum(scorer(v, frozenset(found[v])) for v in range(len(nodes)))
        if not best or total > best_total + _tolerance(best_total):
            best, best_total = found, total
    if not best:
        msg = "the start graph with the white-listed edges has a cycle"
        raise ValueError(msg)
    return best


def _derived_start(scorer: Any, nodes: list, spec: tuple, lists: tuple, search: tuple) -> DAG:
    """A start graph the search works out: ``("ges", kind)``, a DAG of the class greedy
    equivalence search finds for the score ``kind``, its black-listed edges left out; or
    ``("climb", kind)``, the climb from the tree for the score ``kind``."""
    what, kind = spec
    other = scorer if kind == scorer.kind else scorer.rescored(kind)
    black_list, white_list, max_parents = lists
    if what == "ges":
        parents = equivalence_search(other, max_parents).parents()
        black = _edge_set(black_list, "black_list", {n: i for i, n in enumerate(nodes)})
        edges = [(u, v) for v in range(len(nodes)) for u in sorted(parents[v])
                 if (u, v) not in black]  # fmt: skip
    else:
        start, limits = _start_graph(other, nodes, "tree", *lists)
        tabu_length, _, _, max_iter, _, _ = search
        found, _ = _climb(_Climb(start, other, limits), tabu_length, max_iter, lambda _: None)
        edges = [(u, v) for v in range(len(nodes)) for u in sorted(found[v])]
    return DAG(nodes=nodes, edges=[(nodes[u], nodes[v]) for u, v in edges])


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


def _ticks(progress: Any) -> Callable[[float], None]:
    """``tick(score)`` after each move, calling ``progress(moves, score)`` with the moves of
    every climb of the search counted together."""
    steps = 0

    def tick(total: float) -> None:
        nonlocal steps
        steps += 1
        if progress is not None:
            progress(steps, total)

    return tick


def _climbs(graph: _Climb, limits, tabu_length: int, restarts: int, perturb: int,
            max_iter: int, rng, tick) -> list[set[int]]:  # fmt: skip
    """The climb from ``graph``, then ``restarts`` climbs from the best graph perturbed by
    ``perturb`` random legal moves: the best parents found."""
    n = len(graph.edges)

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
    """The settings of :func:`hill_climb` (with ``tree``, :func:`learn_tree`) in
    ``options`` (the others take their defaults) checked without the data: what the searches
    check first, and what an entry point that reads the data before searching
    (:meth:`BayesianNetwork.learn <bayeskit.networks.BayesianNetwork.learn>` in chunks,
    :func:`bayeskit.dask.learn_structure`) checks before it reads. TypeError naming an
    option the search does not take, ValueError naming a setting and its rule."""
    search = learn_tree if tree else hill_climb
    params = inspect.signature(search).parameters
    unknown = [k for k in options if k not in params or k in ("data", "score")]
    if unknown:
        takes = ", ".join(k for k in params if k not in ("data", "score"))
        msg = f"{search.__name__} takes no option {unknown[0]!r}; its options: {takes}"
        raise TypeError(msg)

    def get(name: str) -> Any:
        return options.get(name, params[name].default)

    check_score_settings(score, get("ess"), get("max_distinct_rows"))
    if tree:
        return
    for name in ("tabu_length", "restarts", "perturb"):
        check_count(name, get(name))
    check_count("max_iter", get("max_iter"), low=1)
    check_count("max_parents", get("max_parents"), none_ok=True)
    check_seed(get("seed"))


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
    data: Any,  # a DataFrame, chunks or NetworkData, as hill_climb takes
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
        As :func:`hill_climb` (data in chunks read in passes: one for the states when
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
