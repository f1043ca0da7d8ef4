"""Triangulation: the clique tree of an undirected graph eliminated in a greedy order, the
structure a junction tree is compiled on (Koller and Friedman, *Probabilistic Graphical
Models*, 10.4).

Eliminating every node (:func:`~bayeskit.graphs.elimination.next_to_eliminate`) gives one
clique per node, the node and its neighbours when eliminated; joining each clique to the
clique of its earliest-eliminated other node is a junction tree (the elimination tree), and
merging every clique into a neighbour that contains it leaves the maximal cliques. Up to
``spanning_up_to`` cliques these are then joined by a maximum spanning tree of the numbers of
shared nodes instead (:func:`~bayeskit.graphs.maximum_spanning_tree`). Pieces of the graph are
joined by empty separators.

Examples
--------
>>> import numpy as np
>>> adj = {0: {1, 2}, 1: {0, 2, 3}, 2: {0, 1, 3}, 3: {1, 2}}
>>> (cliques, edges), cells = clique_tree(adj, np.array([2, 2, 2, 2]), "min-fill", 10**6)
>>> cliques, edges, cells
([(0, 1, 2), (1, 2, 3)], [(0, 1)], 16)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bayeskit.graphs.elimination import eliminate_node, next_to_eliminate
from bayeskit.graphs.trees import maximum_spanning_tree

__all__ = ["SPANNING_UP_TO", "clique_tree"]

# Up to this many cliques the tree is a maximum spanning tree of the separators' sizes; beyond,
# the elimination tree (no pairwise look at the cliques). Both are junction trees, but a row's
# propagation touches each receiving clique once per message, and the elimination tree tends
# to hang many small cliques on a big one: hailfinder's queries ran 2.4x slower with it.
SPANNING_UP_TO = 400


def _spanning_tree(cliques: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    """A maximum spanning forest of the cliques by the number of shared nodes (Kruskal, ties to
    the earlier pair: :func:`~bayeskit.graphs.maximum_spanning_tree`), over the pairs that
    share a node; its pieces are joined by the caller."""
    top = max((max(c) for c in cliques if c), default=-1) + 1
    incidence = np.zeros((len(cliques), top), dtype=np.float64)
    for k, clique in enumerate(cliques):
        incidence[k, list(clique)] = 1.0
    shared = incidence @ incidence.T
    return [(int(i), int(j)) for i, j in maximum_spanning_tree(shared, edges=shared > 0)]


def clique_tree(
    adj: dict[int, set[int]],
    card: np.ndarray,
    order: str,
    max_cells: int,
    spanning_up_to: int = SPANNING_UP_TO,
) -> tuple[Any, int]:
    """The maximal cliques (sorted tuples of nodes) and the tree edges (pairs of clique
    indices) of ``adj`` (node -> neighbours, the nodes ``0 .. n - 1``; emptied on the way)
    eliminated by ``order``, with the cells of all the cliques' tables (``card``: each node's
    number of states): ``((cliques, edges), cells)``, or ``(None, cells)`` as soon as a clique
    or all of them together would exceed ``max_cells``."""
    steps: list[frozenset[int]] = []
    step_of: dict[int, int] = {}
    pool = set(adj)
    while pool:
        var = next_to_eliminate(pool, adj, card, order, None)
        pool.discard(var)
        clique = frozenset({var, *adj[var]})
        cells = math.prod(int(k) for k in card[sorted(clique)])
        if cells > max_cells:
            return None, cells
        step_of[var] = len(steps)
        steps.append(clique)
        eliminate_node(var, adj)
    order_vars = sorted(step_of, key=step_of.__getitem__)
    nbrs: dict[int, set[int]] = {i: set() for i in range(len(steps))}
    for i, var in enumerate(order_vars):
        rest = steps[i] - {var}
        if rest:
            parent = min(step_of[u] for u in rest)
            nbrs[i].add(parent)
            nbrs[parent].add(i)
    todo = list(range(len(steps)))
    while todo:
        i = todo.pop()
        if i not in nbrs:
            continue
        into = next((j for j in sorted(nbrs[i]) if steps[i] <= steps[j]), None)
        if into is None:
            continue
        for k in nbrs.pop(i):
            nbrs[k].discard(i)
            if k != into:
                nbrs[k].add(into)
                nbrs[into].add(k)
        todo.append(into)
    kept = sorted(nbrs)
    index = {old: new for new, old in enumerate(kept)}
    cliques = [tuple(sorted(steps[i])) for i in kept]
    total = sum(math.prod(int(k) for k in card[list(c)]) for c in cliques)
    if total > max_cells:
        return None, total
    edges = sorted(
        {(min(index[i], index[j]), max(index[i], index[j])) for i in kept for j in nbrs[i]}
    )
    if len(cliques) <= spanning_up_to:
        edges = _spanning_tree(cliques)
    # the pieces (forest components), joined to the first by empty separators
    seen: set[int] = set()
    pieces = []
    links: dict[int, set[int]] = {k: set() for k in range(len(cliques))}
    for a, b in edges:
        links[a].add(b)
        links[b].add(a)
    for start in range(len(cliques)):
        if start in seen:
            continue
        pieces.append(start)
        stack = [start]
        seen.add(start)
        while stack:
            for b in links[stack.pop()]:
                if b not in seen:
                    seen.add(b)
                    stack.append(b)
    edges += [(pieces[0], p) for p in pieces[1:]]
    return (cliques, edges), total
