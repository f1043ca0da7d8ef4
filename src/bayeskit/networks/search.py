"""Score-and-search structure learning (seed 000 section 7.5.2): greedy hill climbing.

"Starting with a network structure and gradually updating each edge (add, delete, or change
direction) until the score function does not decrease any more." The scores are those of
:mod:`bayeskit.networks.scores`, decomposable: a move changes one family (two for a reversal),
so only those families are rescored, and every family scored is kept in a cache (the same
family is asked for again and again as the search moves).

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

from collections import deque
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from bayeskit.networks.dag import DAG
from bayeskit.networks.learning import _encode_data, _NetworkData
from bayeskit.networks.scores import SCORES, family_score
from bayeskit.stats import family_counts

__all__ = ["learn_structure", "learn_tree"]

_GAIN_TOLERANCE = 1e-9  # a move must raise the score by more than this (relative to |score|)


class _FamilyScores:
    """Family scores of one data set, computed once each: ``(node, parents) -> score``."""

    def __init__(self, data: _NetworkData, kind: str, ess: float):
        self.data, self.kind, self.ess = data, kind, ess
        self.cache: dict[tuple[int, frozenset], float] = {}

    def __call__(self, node: int, parents: frozenset) -> float:
        key = (node, parents)
        if key not in self.cache:
            family = (*sorted(parents), node)
            d = self.data
            counts = family_counts(d.codes, [family], d.n_states, d.weights)
            self.cache[key] = family_score(
                counts.table(family), self.kind, n_rows=d.n_rows, ess=self.ess
            )
        return self.cache[key]


def learn_structure(
    data: pd.DataFrame,
    score: str = "bic",
    *,
    max_parents: int | None = None,
    start: DAG | None = None,
    black_list: Iterable[tuple[Any, Any]] = (),
    white_list: Iterable[tuple[Any, Any]] = (),
    tabu_length: int = 0,
    restarts: int = 0,
    perturb: int = 5,
    max_iter: int = 10_000,
    seed: int = 0,
    ess: float = 1.0,
    states: Any = None,
    sample_weight: Any = None,
) -> DAG:
    """Learn a DAG over ``data``'s columns by greedy hill climbing on a decomposable score.

    Parameters
    ----------
    data : DataFrame
        Complete data, one column per node.
    score : {"bic", "aic", "k2", "bdeu", "ll"}, default="bic"
    max_parents : int, optional
        The most parents a node may have.
    start : DAG, optional
        The graph to start from (over the same nodes); the empty graph by default.
    black_list, white_list : iterables of (u, v)
        Edges never added; edges never removed or reversed (they are added to the start).
    tabu_length, restarts, perturb, max_iter, seed :
        See the module docstring; ``max_iter`` bounds the moves of one climb.
    ess : float, default=1.0
        BDeu's equivalent sample size.
    states, sample_weight :
        As :func:`~bayeskit.networks.fit_parameters`.

    Returns
    -------
    DAG
        Nodes in ``data``'s column order.

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
    if score not in SCORES:
        msg = f"score must be one of {SCORES}, got {score!r}"
        raise ValueError(msg)
    for name, value in (("tabu_length", tabu_length), ("restarts", restarts),
                        ("perturb", perturb), ("max_iter", max_iter)):  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
            msg = f"{name} must be a non-negative integer, got {value!r}"
            raise ValueError(msg)
    if max_parents is not None and (
        isinstance(max_parents, bool) or not isinstance(max_parents, int) or max_parents < 0
    ):
        msg = f"max_parents must be a non-negative integer or None, got {max_parents!r}"
        raise ValueError(msg)
    nodes = list(data.columns) if isinstance(data, pd.DataFrame) else []
    scorer = _FamilyScores(_encode_data(nodes, data, states, sample_weight), score, ess)
    pos = {n: i for i, n in enumerate(nodes)}

    def edge_set(edges, what) -> set[tuple[int, int]]:
        out = set()
        for edge in edges:
            u, v = edge
            if u not in pos or v not in pos:
                msg = f"{what} edge {edge!r} names a node that is no column of data"
                raise ValueError(msg)
            out.add((pos[u], pos[v]))
        return out

    black, white = edge_set(black_list, "black_list"), edge_set(white_list, "white_list")
    if black & white:
        msg = "an edge is both black- and white-listed"
        raise ValueError(msg)
    parents: list[set[int]] = [set() for _ in nodes]
    if start is not None:
        if not isinstance(start, DAG) or set(start.nodes) != set(nodes):
            msg = "start must be a DAG over exactly data's columns"
            raise ValueError(msg)
        for u, v in start.edges:
            parents[pos[v]].add(pos[u])
    for u, v in white:
        parents[v].add(u)
    graph = _Graph(parents)
    if graph.cyclic():
        msg = "the start graph with the white-listed edges has a cycle"
        raise ValueError(msg)
    if max_parents is not None and any(len(p) > max_parents for p in parents):
        msg = f"the start graph gives a node more than max_parents={max_parents} parents"
        raise ValueError(msg)
    limits = (max_parents, black, white)
    best = _climb(graph, scorer, limits, tabu_length, max_iter)
    rng = np.random.default_rng(seed)
    for _ in range(restarts):
        trial = best.copy()
        for _ in range(perturb):
            moves = list(_moves(trial, limits))
            if not moves:
                break
            kind, u, v = moves[int(rng.integers(len(moves)))]
            trial.apply(kind, u, v)
        trial = _climb(trial, scorer, limits, tabu_length, max_iter)
        if trial.total(scorer) > best.total(scorer) + _tolerance(best.total(scorer)):
            best = trial
    return DAG(nodes=nodes, edges=[(nodes[u], nodes[v]) for v in range(len(nodes))
                                   for u in sorted(best.parents[v])])  # fmt: skip


def _tolerance(total: float) -> float:
    return _GAIN_TOLERANCE * max(1.0, abs(total))


class _Graph:
    """Parent sets and the transitive closure ``reach[a, b]``: a directed path ``a -> b``."""

    def __init__(self, parents: list[set[int]]):
        self.parents = [set(p) for p in parents]
        self.reach = self._closure()

    def copy(self) -> _Graph:
        return _Graph(self.parents)

    def _closure(self) -> np.ndarray:
        n = len(self.parents)
        reach = np.zeros((n, n), dtype=bool)
        for v, ps in enumerate(self.parents):
            for u in ps:
                reach[u, v] = True
        for k in range(n):  # Warshall
            reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
        return reach

    def cyclic(self) -> bool:
        return bool(np.diag(self.reach).any())

    def apply(self, kind: str, u: int, v: int) -> None:
        if kind == "add":
            self.parents[v].add(u)
        elif kind == "delete":
            self.parents[v].discard(u)
        else:
            self.parents[v].discard(u)
            self.parents[u].add(v)
        self.reach = self._closure()

    def total(self, scorer: _FamilyScores) -> float:
        return sum(scorer(v, frozenset(p)) for v, p in enumerate(self.parents))


def _moves(g: _Graph, limits):
    """Every legal move, in the documented order."""
    max_parents, black, white = limits
    n = len(g.parents)
    for u in range(n):
        for v in range(n):
            if u == v:
                continue
            if u in g.parents[v]:
                if (u, v) not in white:
                    yield "delete", u, v
                    # reversal: no other path u -> v, and room for a parent at u
                    others = g.parents[v] - {u}
                    ok = not any(g.reach[u, w] or w == u for w in others)
                    room = max_parents is None or len(g.parents[u]) < max_parents
                    if ok and room and (v, u) not in black:
                        yield "reverse", u, v
            elif v not in g.parents[u] and not g.reach[v, u] and (u, v) not in black:
                if max_parents is None or len(g.parents[v]) < max_parents:
                    yield "add", u, v


def _gain(g: _Graph, scorer: _FamilyScores, kind: str, u: int, v: int) -> float:
    pv = frozenset(g.parents[v])
    now = scorer(v, pv)
    if kind == "add":
        return scorer(v, pv | {u}) - now
    if kind == "delete":
        return scorer(v, pv - {u}) - now
    pu = frozenset(g.parents[u])
    return scorer(v, pv - {u}) - now + scorer(u, pu | {v}) - scorer(u, pu)


def _climb(g: _Graph, scorer: _FamilyScores, limits, tabu_length: int, max_iter: int) -> _Graph:
    g = g.copy()
    best, best_total = g.copy(), g.total(scorer)
    current = best_total
    tabu: deque = deque(maxlen=max(tabu_length, 1))
    stale = 0
    for _ in range(max_iter):
        choice, choice_gain = None, -np.inf
        for kind, u, v in _moves(g, limits):
            if tabu_length and (kind, u, v) in tabu:
                continue
            gain = _gain(g, scorer, kind, u, v)
            if gain > choice_gain:
                choice, choice_gain = (kind, u, v), gain
        if choice is None:
            break
        improving = choice_gain > _tolerance(current)
        if not improving and (not tabu_length or stale >= tabu_length):
            break
        kind, u, v = choice
        g.apply(kind, u, v)
        current += choice_gain
        undo = {"add": ("delete", u, v), "delete": ("add", u, v), "reverse": ("reverse", v, u)}
        tabu.append(undo[kind])
        if current > best_total + _tolerance(best_total):
            best, best_total, stale = g.copy(), current, 0
        else:
            stale += 1
    return best


def learn_tree(
    data: pd.DataFrame,
    score: str = "ll",
    *,
    root: Any = None,
    ess: float = 1.0,
    states: Any = None,
    sample_weight: Any = None,
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
    data, score, ess, states, sample_weight :
        As :func:`learn_structure`.
    root : node, optional
        Where each tree's edges start; by default each tree's first node in column order.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 3000)
    >>> b = np.where(rng.random(3000) < 0.9, a, 1 - a)
    >>> c = np.where(rng.random(3000) < 0.9, b, 1 - b)
    >>> learn_tree(pd.DataFrame({"a": a, "b": b, "c": c})).edges
    (('a', 'b'), ('b', 'c'))
    """
    import networkx as nx

    if score not in SCORES:
        msg = f"score must be one of {SCORES}, got {score!r}"
        raise ValueError(msg)
    nodes = list(data.columns) if isinstance(data, pd.DataFrame) else []
    scorer = _FamilyScores(_encode_data(nodes, data, states, sample_weight), score, ess)
    if root is not None and root not in nodes:
        msg = f"root {root!r} is no column of data"
        raise ValueError(msg)
    g = nx.Graph()
    g.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            ij = scorer(j, frozenset({i})) - scorer(j, frozenset())
            ji = scorer(i, frozenset({j})) - scorer(i, frozenset())
            gain = (ij + ji) / 2
            if gain > _tolerance(scorer.data.n_rows):
                g.add_edge(i, j, weight=gain)
    tree = nx.maximum_spanning_tree(g, algorithm="kruskal")
    edges = []
    starts = [nodes.index(root)] if root is not None else []
    seen: set[int] = set()
    for start in starts + list(range(len(nodes))):
        if start in seen:
            continue
        seen.add(start)
        for u, v in nx.bfs_edges(tree, start, sort_neighbors=sorted):
            seen.add(v)
            edges.append((nodes[u], nodes[v]))
    return DAG(nodes=nodes, edges=edges)
