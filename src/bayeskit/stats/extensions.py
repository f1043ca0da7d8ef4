"""The counts a structure search asks for: one family's table, and the family extended by each
candidate parent, from node-major state codes.

A structure search (Zhou, *Machine Learning*, 7.5.2) scores families from their counts; after
a move it needs the counts of one node's family with every other node added as a parent in
turn. A parent configuration is the mixed-radix number of the parents' states
(:func:`parent_configurations`); a family's table is the configurations times the node's
states (:func:`family_table`); the extended tables are counted together, one compiled pass
over the rows (:func:`extension_counts`), each candidate's state the slowest axis of its table.
Codes are node-major, ``(n_nodes, n_rows)``: a candidate reads one contiguous column.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from bayeskit._compiled import planned_threads
from bayeskit.stats._kernels import count_extensions

__all__ = ["extension_counts", "family_table", "parent_configurations"]


def parent_configurations(
    codes: np.ndarray, parents: Iterable[int], r: Any, *, compact_above: int | None = None
) -> tuple[np.ndarray, int, float]:
    """Each row's parent configuration, the number of configurations numbered, and the number
    there are (``q``, for a score's penalty and prior).

    ``codes`` is node-major, ``r[p]`` node ``p``'s number of states; the parents are taken in
    sorted order, the last the fastest digit. With ``compact_above``, once the parents
    numbered so far have more joint configurations than that, the ones seen are renumbered
    (``np.unique``), so no table is larger than rows x states.

    Examples
    --------
    >>> codes = np.array([[0, 1, 1], [2, 0, 2]])
    >>> ids, k, q = parent_configurations(codes, [0, 1], [2, 3])
    >>> ids.tolist(), k, q
    ([2, 3, 5], 6, 6.0)
    """
    ids = np.zeros(codes.shape[1], dtype=np.int64)
    k, q = 1, 1.0
    for p in sorted(parents):
        ids *= r[p]
        ids += codes[p]
        k *= int(r[p])
        q *= float(r[p])
        if compact_above is not None and k > compact_above:
            uniq, ids = np.unique(ids, return_inverse=True)
            ids = ids.astype(np.int64, copy=False)
            k = len(uniq)
    return ids, k, q


def family_table(
    ids: np.ndarray, k: int, child: np.ndarray, r: int, weights: np.ndarray | None = None
) -> np.ndarray:
    """A family's counts, flat: each row's ``weights`` (1 each when None) added to cell
    ``ids * r + child`` of ``k`` parent configurations by ``r`` states.

    Examples
    --------
    >>> family_table(np.array([0, 1, 1]), 2, np.array([1, 0, 0]), 2).tolist()
    [0.0, 1.0, 2.0, 0.0]
    """
    cell = ids * r
    cell += child
    return np.bincount(cell, weights=weights, minlength=k * r).astype(np.float64)


def extension_counts(codes, weights, cands, r_cand, ids, k, r, child) -> np.ndarray:
    """The counts of a family (each row's parent configuration ``ids``, of ``k``, and its state
    ``child``, of ``r``) extended by each parent in ``cands`` (of ``r_cand`` states), one table
    after the other, the candidate's state the slowest axis: one compiled pass over node-major
    ``codes`` (``weights`` empty for rows of weight 1), the candidates split among threads.

    Examples
    --------
    >>> codes = np.array([[0, 1, 1], [1, 0, 1]], dtype=np.int8)
    >>> ids = np.zeros(3, dtype=np.int64)  # no parent yet
    >>> extension_counts(codes, np.empty(0), np.array([1]), np.array([2]), ids, 1, 2,
    ...                  codes[0]).tolist()  # node 0 given node 1: (x1, x0) cells
    [0.0, 1.0, 1.0, 1.0]
    """
    offsets = np.zeros(len(cands) + 1, dtype=np.int64)
    np.cumsum(np.asarray(r_cand, dtype=np.int64) * (k * r), out=offsets[1:])
    cell = ids * r
    cell += child
    cell = cell.astype(np.int16 if k * r < 2**15 else np.int32 if k * r < 2**31 else np.int64)
    tasks = planned_threads(len(cell) * len(cands))
    task_ptr = np.linspace(0, len(cands), min(tasks, len(cands)) + 1).round().astype(np.int64)
    return count_extensions(codes, cands, cell, k * r, weights, offsets, task_ptr)
