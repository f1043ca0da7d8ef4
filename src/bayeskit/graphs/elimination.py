"""Greedy elimination orders on an undirected graph, the triangulation behind variable
elimination and the junction tree (Koller and Friedman, *Probabilistic Graphical Models*, 9.4.3).

The graph is a dict node -> set of neighbours over integer nodes, each with a number of states
(``card``). Eliminating a node joins its neighbours (the fill-in edges) and removes it
(:func:`eliminate_node`); the next node is chosen greedily (:func:`next_to_eliminate`):
``"min-fill"`` takes the node whose elimination adds the fewest edges, ``"weighted-min-fill"``
the one whose added edges weigh least (an edge weighs the product of its ends' numbers of
states); ties go to the smaller resulting table, then to the earlier node.

Examples
--------
>>> import numpy as np
>>> adj = {0: {1, 2}, 1: {0, 2, 3}, 2: {0, 1, 3}, 3: {1, 2}}
>>> card = np.array([2, 2, 2, 2])
>>> next_to_eliminate(set(adj), adj, card, "min-fill")
0
>>> eliminate_node(0, adj); sorted(adj)
[1, 2, 3]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ELIMINATION_ORDERS", "eliminate_node", "next_to_eliminate"]

#: The greedy heuristics :func:`next_to_eliminate` knows.
ELIMINATION_ORDERS = ("min-fill", "weighted-min-fill")


def next_to_eliminate(
    pool: set[int], adj: dict[int, set[int]], card: np.ndarray, order: str, fixed: Any = None
) -> int:
    """The next node to eliminate from ``pool``: by the ``fixed`` order (node -> rank) when
    given, else the fewest fill-in edges (``order="min-fill"``) or the lightest
    (``"weighted-min-fill"``), then the smallest table, then the first node.

    The tables' sizes are cheap and the fill-in is not (it looks at every pair of neighbours),
    so nodes are tried in order of size: the first with no fill-in is the choice (no later
    node can beat it), and only when none has is every node's fill-in needed. On a naive Bayes
    structure of 1,200 features this avoids looking at the class's 700,000 pairs at each step.
    """
    if fixed is not None:
        return min(pool, key=lambda v: (fixed.get(v, len(fixed)), v))
    weighted = order == "weighted-min-fill"
    log_card = np.log(card.astype(np.float64))
    sized = sorted((float(log_card[v] + sum(log_card[a] for a in adj.get(v, ()))), v) for v in pool)
    best, best_key = -1, None
    for size, v in sized:
        nb = sorted(adj.get(v, ()))
        fill = 0.0
        for i, a in enumerate(nb):
            others = adj[a]
            for b in nb[i + 1 :]:
                if b not in others:
                    fill += float(card[a] * card[b]) if weighted else 1.0
            if best_key is not None and fill > best_key[0]:
                break  # already worse than the best so far
        key = (fill, size, v)
        if best_key is None or key < best_key:
            best, best_key = v, key
        if fill == 0.0:
            break
    return best


def eliminate_node(var: int, adj: dict[int, set[int]]) -> None:
    """Remove ``var`` from the graph ``adj``, joining its neighbours (the fill-in edges)."""
    for a in adj.get(var, ()):
        adj[a].discard(var)
        adj[a].update(b for b in adj[var] if b != a)
    adj.pop(var, None)
