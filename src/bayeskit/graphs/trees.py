"""Maximum spanning trees: the one routine behind TAN's tree of features (Zhou, *Machine
Learning*, 7.4), the Chow-Liu tree search of networks and the junction tree's tree of cliques.

Kruskal's rule picks the edges from the heaviest down, keeping each that joins two pieces;
among edges of equal weight the earlier pair ``(i, j)`` (in lexicographic order, ``i < j``)
comes first, so a tree is the same on every run and every platform. The work is scipy's
(:func:`scipy.sparse.csgraph.minimum_spanning_tree`, Kruskal over its edges in a stable
order), given the weights' ranks, heaviest first, as the distances: ranks keep exactly the
order and the ties of the weights, whatever their sign or scale.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import minimum_spanning_tree

__all__ = ["maximum_spanning_tree"]


def maximum_spanning_tree(weights: Any, edges: Any = None) -> np.ndarray:
    """The edges of a maximum weighted spanning forest, as rows ``(i, j)``, ``i < j``, sorted.

    Parameters
    ----------
    weights : array-like of shape (n, n)
        The weight of each pair; only the upper triangle (``i < j``) is read.
    edges : array-like of bool, shape (n, n), optional
        Which pairs are edges of the graph (the upper triangle is read); by default every
        pair is, so the result is a spanning tree of the complete graph (``n - 1`` edges,
        zero and negative weights included). With fewer edges the graph may fall apart into
        pieces: the result is then a maximum spanning tree of each piece.

    Returns
    -------
    ndarray of shape (n_edges, 2), int64

    Examples
    --------
    >>> w = np.array([[0, 3, 1], [3, 0, 3], [1, 3, 0]])
    >>> maximum_spanning_tree(w).tolist()  # (0, 1) and (1, 2) weigh 3
    [[0, 1], [1, 2]]
    >>> maximum_spanning_tree(np.ones((3, 3))).tolist()  # a tie: the earlier pairs
    [[0, 1], [0, 2]]
    >>> maximum_spanning_tree(w, edges=w == 1).tolist()
    [[0, 2]]
    """
    weights = np.asarray(weights, dtype=np.float64)
    n = weights.shape[0]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    if edges is not None:
        upper &= np.asarray(edges, dtype=bool)
    rows, cols = np.nonzero(upper)  # the pairs in lexicographic order
    if rows.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    # rank 1 for the heaviest weight, equal weights sharing a rank: scipy's minimum spanning
    # tree of the ranks is the maximum spanning tree of the weights, ties to the earlier pair
    distinct, inverse = np.unique(-weights[rows, cols], return_inverse=True)
    ranks = inverse.reshape(-1).astype(np.float64) + 1.0
    graph = csr_matrix((ranks, (rows, cols)), shape=(n, n))
    tree = minimum_spanning_tree(graph).tocoo()
    out = np.sort(np.column_stack([tree.row, tree.col]), axis=1).astype(np.int64)
    return out[np.lexsort((out[:, 1], out[:, 0]))]
