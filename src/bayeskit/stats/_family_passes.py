"""The compiled passes behind :func:`~bayeskit.stats.family_counts`: which families are
counted together as all-pairs blocks (one pass of the pair kernel per block, cut into the pairs'
tables afterwards), and how the rest are shared among threads by the generic kernel.
"""

from __future__ import annotations

import math

import numpy as np

from bayeskit._compiled import planned_threads
from bayeskit.stats._kernels import (
    count_families,
    count_families_into,
    count_pairs,
    families_work,
    pairs_work,
)

Family = tuple[int, ...]


def _pair_blocks(
    fams: tuple[Family, ...],
) -> tuple[list[tuple[Family, list[int], list[int]]], list[int]]:
    """Split the families into all-pairs blocks and the rest.

    A block is every ``(*given, a, b)``, ``a < b``, over a set of columns given the same
    prefix (at least 3 pairs), plus the single families ``(*given, a)`` of its columns, which
    the pair kernel counts on its diagonal. AnDE's families make several: the pairs given the
    class, and for each feature ``a`` the triples ``(class, a, b, c)``, which are the pairs of
    the later features given ``(class, a)``. Blocks are taken largest first, each family once.
    Returns the blocks as ``(given, members, single families)`` and the indices of the
    families left for the generic kernel.
    """
    by_prefix: dict[Family, list[int]] = {}
    for k, f in enumerate(fams):
        if len(f) >= 3 and f[-2] < f[-1]:
            by_prefix.setdefault(f[:-2], []).append(k)
    candidates = []
    for prefix, ks in by_prefix.items():
        members = sorted({c for k in ks for c in fams[k][-2:]})
        if set(prefix) & set(members) or len(ks) < 3:
            continue
        if len(ks) == len(members) * (len(members) - 1) // 2:
            candidates.append((prefix, ks, members))
    candidates.sort(key=lambda c: -len(c[1]))
    taken: set[int] = set()
    blocks = []
    for prefix, ks, members in candidates:
        if taken & set(ks):
            continue
        member_set = set(members)
        singles = [
            k
            for k, f in enumerate(fams)
            if k not in taken
            and len(f) == len(prefix) + 1
            and f[:-1] == prefix
            and f[-1] in member_set
        ]
        taken |= set(ks) | set(singles)
        blocks.append((prefix, members, singles))
    return blocks, [k for k in range(len(fams)) if k not in taken]


def _count_pair_block(
    codes, w, given, members, singles, n_states, fams, index, offsets, out
) -> None:
    """Count the all-pairs block with :func:`count_pairs` (its own layout) and cut the result
    into the pairs' tables, and the single families' from its diagonal, at their places in
    ``out``."""
    members = np.asarray(members, dtype=np.int64)
    states = n_states[members]
    g_states = n_states[list(given)]
    n_given = int(np.prod(g_states, dtype=np.int64))
    d = len(members)
    colpos = np.zeros(d + 1, dtype=np.int64)
    np.cumsum(states, out=colpos[1:])
    width = int(colpos[-1]) + 1  # the trash column of missing values
    colpos[-1] = width
    size = n_given * int(states.sum()) * width
    tasks = planned_threads(pairs_work(codes))
    # members split so that each thread has about as many pairs (member ia pairs with d - ia)
    pairs_before = np.concatenate([[0], np.cumsum(np.arange(d, 0, -1))])
    splits = np.searchsorted(pairs_before, np.linspace(0, pairs_before[-1], tasks + 1))
    splits = np.unique(np.clip(splits, 0, d)).astype(np.int64)
    splits[-1] = d
    given_arr = np.asarray(given, dtype=np.int64)
    flat = count_pairs(codes, w, given_arr, g_states, members, states, colpos, size, splits)
    single = {fams[k][-1]: k for k in singles}
    for ia in range(d):
        lo = n_given * int(colpos[ia]) * width
        rows = flat[lo : lo + n_given * int(states[ia]) * width]
        rows = rows.reshape(n_given, int(states[ia]), width)
        if int(members[ia]) in single:
            k = single[int(members[ia])]
            diag = np.arange(int(states[ia]))
            out[offsets[k] : offsets[k + 1]] = rows[:, diag, colpos[ia] + diag].ravel()
        for ib in range(ia + 1, d):
            pair = (*given, int(members[ia]), int(members[ib]))
            k = index[pair]
            part = rows[:, :, colpos[ib] : colpos[ib] + states[ib]]
            out[offsets[k] : offsets[k + 1]] = part.ravel()


def _count_generic(codes, w, fams, n_states, starts, flat) -> None:
    """Add the tables of ``fams`` into ``flat``, each from its start in ``starts``.

    Threads share the rows (each fills its own copy of these families' tables, in a compact
    layout, and the copies are added) while the tables are smaller than the rows; beyond, they
    share the families (each counts its own over every row, in place): copying and adding
    tables of more cells than rows would cost more than counting them (selective KDB's tables
    of eight parents: 12 M cells from 100,000 rows)."""
    ptr = np.zeros(len(fams) + 1, dtype=np.int64)
    np.cumsum([len(f) for f in fams], out=ptr[1:])
    cols = np.fromiter((c for f in fams for c in f), dtype=np.int64, count=int(ptr[-1]))
    strides = np.empty_like(cols)
    sizes = np.empty(len(fams), dtype=np.int64)
    for k, f in enumerate(fams):
        shape = [int(n_states[c]) for c in f]
        s = np.cumprod([1, *shape[::-1]])[:-1][::-1]  # C-order strides of the table
        strides[ptr[k] : ptr[k + 1]] = s
        sizes[k] = math.prod(shape)
    starts = np.asarray(starts, dtype=np.int64)
    tasks = planned_threads(families_work(codes, w, cols))
    if tasks > 1 and sizes.sum() > codes.shape[0] and len(fams) > 1:
        # contiguous groups of families of about equal work (columns read per row)
        cum = np.cumsum(np.diff(ptr))
        cuts = np.searchsorted(cum, cum[-1] * np.arange(1, tasks) / tasks, side="right")
        task_ptr = np.unique(np.concatenate([[0], cuts, [len(fams)]])).astype(np.int64)
        count_families_into(codes, w, cols, strides, ptr, starts, flat, task_ptr)
        return
    fam_offset = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    compact = count_families(codes, w, cols, strides, ptr, fam_offset, int(sizes.sum()), tasks)
    for k, at in enumerate(fam_offset.tolist()):
        flat[starts[k] : starts[k] + sizes[k]] += compact[at : at + sizes[k]]
