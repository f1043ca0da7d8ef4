"""The messages of a compiled :class:`~bayeskit.inference.junction.JunctionTree` that do not
depend on evidence: the prior message in each direction of each edge, the order in which the
cliques send towards a root, and the cells a row's pass touches."""

from __future__ import annotations

from typing import Any

import numpy as np


def prior_messages(tree: Any) -> tuple[np.ndarray, np.ndarray]:
    """The message in each direction of each edge without evidence, by a collect towards
    clique 0 and a distribute back (Hugin: the message down is the sender's calibrated
    potential over the separator divided by the message that came up). Direction ``d``
    (``2 e`` + the sender's side) of separator ``e`` is ``prior[(d % 2) * n_sep +
    sep_off[e]:...]``, divided by its largest entry; ``exp(prior_log[d])`` is that entry
    times everything the sender's side was divided by."""
    n_sep = int(tree._sep_off[-1])
    prior = np.zeros(2 * n_sep)
    prior_log = np.zeros(2 * len(tree.edges))
    if not tree.edges:
        return prior, prior_log
    pot, off = tree._pots.copy(), tree._pot_off
    scale = np.zeros(len(tree.cliques))  # the log of what each clique was divided by

    def clique(k: int) -> np.ndarray:
        return pot[off[k] : off[k + 1]]

    def cells(d: int) -> np.ndarray:
        return tree._proj[tree._proj_off[d] : tree._proj_off[d + 1]]

    def where(d: int) -> slice:
        lo = (d % 2) * n_sep + int(tree._sep_off[d // 2])
        return slice(lo, lo + int(tree._sep_off[d // 2 + 1] - tree._sep_off[d // 2]))

    def send(receiver: int, d: int, message: np.ndarray, log: float) -> None:
        top = float(message.max()) if len(message) else 0.0
        if top > 0:
            prior[where(d)] = message / top
        prior_log[d] = log + np.log(top) if top > 0 else -np.inf
        part = clique(receiver)
        part *= prior[where(d)][cells(d ^ 1)]
        scale[receiver] += prior_log[d]
        big = float(part.max()) if len(part) else 0.0
        if big > 0:
            part /= big
            scale[receiver] += np.log(big)

    edges = list(zip(*(a.tolist() for a in tree._order(0)), strict=True))
    for a, c, d in edges:  # collect: a sends to c
        size = where(d).stop - where(d).start
        send(c, d, np.bincount(cells(d), weights=clique(a), minlength=size), scale[a])
    for a, c, d in reversed(edges):  # distribute: c sends to a
        up = prior[where(d)]
        full = np.bincount(cells(d ^ 1), weights=clique(c), minlength=len(up))
        down = np.divide(full, up, out=np.zeros_like(full), where=up > 0)
        send(a, d ^ 1, down, scale[c] - prior_log[d])
    return prior, prior_log


def post_order(neighbours: dict, root: int) -> list[tuple[int, int, int]]:
    """Directed edges (sender, receiver, 2 e + sender's side) so every clique sends after
    all its other neighbours have sent to it, ending at ``root``."""
    out, stack, seen = [], [(root, -1, -1, False)], set()
    while stack:
        k, parent, e2, done = stack.pop()
        if done:
            if parent >= 0:
                out.append((k, parent, e2))
            continue
        seen.add(k)
        stack.append((k, parent, e2, True))
        for nb_, e2_to_k in neighbours[k]:  # e2_to_k: from nb_ to k
            if nb_ not in seen:
                stack.append((nb_, k, e2_to_k, False))
    return out


def row_cost(tree: Any, root: int, terminals) -> float:
    """About the cells a row's pass touches: those of the sub-tree joining ``root`` and the
    cliques ``terminals`` (see :mod:`bayeskit.inference._jt_kernels`): the paths from each
    up to their deepest common ancestor, with the tree hung from clique 0."""
    up, depth = tree._hung()
    ends = {root, *terminals}
    needed = set(ends)
    low = min(ends, key=lambda c: depth[c])  # climb every end to the same depth
    top = depth[low]
    heads = set()
    for c in ends:
        while depth[c] > top:
            c = up[c]
            needed.add(c)
        heads.add(c)
    while len(heads) > 1:  # then all together until they meet
        heads = {up[c] for c in heads}
        needed |= heads
    return float(sum(tree._touch[c] for c in needed))
