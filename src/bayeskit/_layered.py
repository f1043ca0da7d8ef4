"""A layered drawing of a DAG (Sugiyama, Tagawa & Toda 1981), the geometry only: boxes of given
sizes and the polylines of the edges, for :func:`bayeskit.plot.network` to draw.

The steps, as in Gansner et al. (1993), *A technique for drawing directed graphs* (graphviz's
``dot``):

1. Layers: the longest path from a root, then each node moved toward the side where more of its
   edges are (a source to just above its highest child) while that shortens the edges.
2. An edge spanning several layers becomes a chain through a dummy vertex in each layer between:
   a gap of its own among that layer's boxes.
3. Order within the layers: depth-first from the roots, then barycentre sweeps down and up, with
   adjacent swaps on small graphs; the order with the fewest crossings is kept.
4. x: each layer in turn as close as its order and spacing allow to the weighted mean of its
   neighbours (least squares under the spacing constraints, by pool-adjacent-violators; chains
   of dummies weigh most, to run straight).
5. y: each layer a band as tall as its tallest box; more room below where edges run far sideways.
6. Edges: from the bottom side of the parent's box, straight down through each dummy's gap, to
   the top side of the child's box; then corners are cut where the straight line keeps a
   clearance from the boxes on either side of the gaps it passes (a funnel, as in dot's
   splines).

So by construction no two boxes overlap (the spacing constraints), and no edge enters a box
other than its ends: between layers there are no boxes, and within a layer an edge passes
through its own gap. Everything is pure Python on lists: a few seconds for a thousand nodes.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

import networkx as nx
import numpy as np

__all__ = ["Layout", "layered_layout"]

# Spacings, in multiples of ``unit`` (the font size).
NODE_GAP = 1.6  # between two boxes in a layer
EDGE_GAP = 0.8  # between an edge's gap and its neighbours in a layer
LAYER_GAP, LAYER_GAP_MAX = 3.0, 14.0  # between layers (more where edges run far sideways)
LAYER_SLOPE = 0.18  # the gap below a layer, as a share of its edges' longest sideways run
CLEARANCE = 0.5  # how close a straightened edge may pass a box
PORT_GAP = 0.8  # between edges leaving (or entering) one side of a box


class Layout(NamedTuple):
    """``boxes[v]``: ``(x0, y0, x1, y1)`` of node ``v``; ``paths[i]``: the polyline of
    ``edges[i]``, an array ``(k, 2)`` from the parent's bottom side to the child's top side;
    ``layers[v]``: 0 at the top, every edge going down to a later layer."""

    boxes: list[tuple[float, float, float, float]]
    paths: list[np.ndarray]
    layers: list[int]


def layered_layout(
    n: int, edges: list[tuple[int, int]], sizes: list[tuple[float, float]], unit: float
) -> Layout:
    """The layered layout of a DAG over nodes ``0 .. n-1`` with boxes of ``sizes``
    (``(width, height)``), in the units of ``sizes``; ``unit`` scales the spacings.

    Each weakly connected component is laid out on its own, left to right; nodes without edges
    go in rows underneath.

    Examples
    --------
    >>> layout = layered_layout(3, [(0, 1), (1, 2), (0, 2)], [(30.0, 20.0)] * 3, unit=9.0)
    >>> layout.layers
    [0, 1, 2]
    >>> len(layout.paths[2]) > 2  # 0 -> 2 bends round node 1
    True
    """
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    boxes: list = [None] * n
    paths: list = [None] * len(edges)
    layers = [0] * n
    edge_ids: dict[tuple[int, int], int] = {e: i for i, e in enumerate(edges)}
    right = None
    components = sorted(map(sorted, nx.weakly_connected_components(graph)))
    for members in components:
        if len(members) == 1:
            continue
        local = {v: i for i, v in enumerate(members)}
        ids = [edge_ids[e] for e in graph.subgraph(members).edges]
        part = _component(
            len(members),
            [(local[edges[i][0]], local[edges[i][1]]) for i in ids],
            [sizes[v] for v in members],
            unit,
        )
        left = min(b[0] for b in part.boxes)
        shift = (0.0 if right is None else right + 2 * NODE_GAP * unit) - left
        for v, b, layer in zip(members, part.boxes, part.layers, strict=True):
            boxes[v] = (b[0] + shift, b[1], b[2] + shift, b[3])
            layers[v] = layer
        for i, pts in zip(ids, part.paths, strict=True):
            paths[i] = pts + np.array([shift, 0.0])
        right = max(b[2] for b in boxes if b is not None)

    alone = [members[0] for members in components if len(members) == 1]
    if alone:  # in rows about as wide as the rest (or as tall as wide, alone)
        gap = NODE_GAP * unit
        placed = [b for b in boxes if b is not None]
        top = min(b[1] for b in placed) - 2 * gap if placed else 0.0
        first = max(layers) + 1 if placed else 0
        mean = sum(sizes[v][0] for v in alone) / len(alone) + gap
        limit = max(right or 0.0, 1.5 * len(alone) ** 0.5 * mean)
        x, row, row_height = 0.0, 0, 0.0
        for v in alone:
            w, h = sizes[v]
            if x > 0 and x + w > limit:
                top -= row_height + gap
                x, row, row_height = 0.0, row + 1, 0.0
            boxes[v] = (x, top - h, x + w, top)
            layers[v] = first + row
            x += w + gap
            row_height = max(row_height, h)
    return Layout(boxes, paths, layers)


def _component(
    m: int, edges: list[tuple[int, int]], sizes: list[tuple[float, float]], unit: float
) -> Layout:
    """:func:`layered_layout` of one connected DAG of ``m`` nodes."""
    parents: list[list[int]] = [[] for _ in range(m)]
    children: list[list[int]] = [[] for _ in range(m)]
    for u, v in edges:
        children[u].append(v)
        parents[v].append(u)
    layer = _layers(m, edges, parents, children)

    # the proper layered graph: vertices m, m + 1, ... are the dummies
    vlayer = list(layer)
    width = [w for w, _ in sizes]
    up: list[list[int]] = [[] for _ in range(m)]
    down: list[list[int]] = [[] for _ in range(m)]
    chains = []
    for u, v in edges:
        chain = [u]
        for k in range(layer[u] + 1, layer[v]):
            chain.append(len(vlayer))
            vlayer.append(k)
            width.append(0.0)
            up.append([])
            down.append([])
        chain.append(v)
        for a, b in pairwise(chain):
            down[a].append(b)
            up[b].append(a)
        chains.append(chain)

    rows = _order(vlayer, up, down)
    x = _x_coordinates(rows, width, m, up, down, unit)

    band = [max(sizes[v][1] for v in row if v < m) for row in rows]
    top = [0.0] * len(rows)
    for i in range(len(rows) - 1):
        reach = max((abs(x[a] - x[b]) for a in rows[i] for b in down[a]), default=0.0)
        gap = min(max(LAYER_SLOPE * reach, LAYER_GAP * unit), LAYER_GAP_MAX * unit)
        top[i + 1] = top[i] - band[i] - gap
    bottom = [t - h for t, h in zip(top, band, strict=True)]
    boxes = [
        (x[v] - width[v] / 2, bottom[layer[v]], x[v] + width[v] / 2, top[layer[v]])
        for v in range(m)
    ]

    exits, entries = _ports(x, m, up, down, boxes, top, bottom, vlayer, unit)
    # the room each vertex has in its layer: from the box on its left to the one on its right
    c = CLEARANCE * unit
    # the room each vertex has in its layer: up to its neighbours there, a box or another
    # edge's gap, less a clearance (so a straightened edge keeps its place among the others)
    beside = EDGE_GAP * unit / 2
    room = [(-np.inf, np.inf)] * len(vlayer)
    for row in rows:
        left = -np.inf
        for v in row:
            room[v] = (left, 0.0)
            left = boxes[v][2] + c if v < m else x[v] + beside
        right = np.inf
        for v in reversed(row):
            room[v] = (room[v][0], right)
            right = boxes[v][0] - c if v < m else x[v] - beside
    paths = []
    for chain in chains:
        u, v = chain[0], chain[-1]
        pts = [(exits[(u, chain[1])], bottom[layer[u]])]
        # where a straightened edge must keep within its gaps: below its parent's layer, in
        # each layer it crosses, above its child's
        zones = [(bottom[layer[u]] - c, bottom[layer[u]], *room[u])]
        for d in chain[1:-1]:
            pts.append((x[d], top[vlayer[d]]))
            pts.append((x[d], bottom[vlayer[d]]))
            zones.append((bottom[vlayer[d]] - c, top[vlayer[d]] + c, *room[d]))
        pts.append((entries[(chain[-2], v)], top[layer[v]]))
        zones.append((top[layer[v]], top[layer[v]] + c, *room[v]))
        paths.append(np.array(_straighten(pts, zones), dtype=np.float64))
    return Layout(boxes, paths, layer)


def _layers(m: int, edges, parents: list[list[int]], children: list[list[int]]) -> list[int]:
    """Each node's layer: its topological generation (the longest path from a root), then
    moved toward the side where more of its edges are while that shortens the edges (each move
    does, so this ends); layers left without a node are dropped."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(m))
    graph.add_edges_from(edges)
    layer = [0] * m
    order = []
    for depth, generation in enumerate(nx.topological_generations(graph)):
        for v in sorted(generation):
            layer[v] = depth
            order.append(v)
    changed = True
    while changed:
        changed = False
        for v in reversed(order):
            n_up, n_down = len(parents[v]), len(children[v])
            if n_down > n_up:
                new = min(layer[c] for c in children[v]) - 1
            elif n_up > n_down:
                new = max(layer[p] for p in parents[v]) + 1
            else:
                continue
            if new != layer[v]:
                layer[v], changed = new, True
    rank = {value: i for i, value in enumerate(sorted(set(layer)))}
    return [rank[value] for value in layer]


def _order(vlayer: list[int], up: list[list[int]], down: list[list[int]]) -> list[list[int]]:
    """The vertices of each layer, left to right."""
    size = len(vlayer)
    rows: list[list[int]] = [[] for _ in range(max(vlayer) + 1)]
    seen = [False] * size
    for s in range(size):  # depth first from each root
        if up[s] or seen[s]:
            continue
        stack = [s]
        while stack:
            v = stack.pop()
            if seen[v]:
                continue
            seen[v] = True
            rows[vlayer[v]].append(v)
            stack.extend(reversed(down[v]))
    pos = [0] * size
    for row in rows:
        for j, v in enumerate(row):
            pos[v] = j
    best, fewest = [r[:] for r in rows], _crossings(rows, down, pos)
    small = size <= 600
    stall = 0
    for sweep in range(24 if size <= 3000 else 8):
        if fewest == 0 or stall >= 4:
            break
        downward = sweep % 2 == 0
        sequence = range(1, len(rows)) if downward else range(len(rows) - 2, -1, -1)
        near = up if downward else down
        for i in sequence:
            row = rows[i]
            other = len(rows[i - 1] if downward else rows[i + 1])
            keys = []
            for j, v in enumerate(row):
                nb = near[v]
                if nb:  # the barycentre of its neighbours' positions, scaled to (0, 1)
                    key = (sum(pos[w] for w in nb) / len(nb) + 0.5) / other
                else:  # where it is
                    key = (j + 0.5) / len(row)
                keys.append((key, j, v))
            keys.sort()
            rows[i] = row = [v for _, _, v in keys]
            for j, v in enumerate(row):
                pos[v] = j
        if small:
            _transpose(rows, up, down, pos)
        count = _crossings(rows, down, pos)
        if count < fewest:
            best, fewest, stall = [r[:] for r in rows], count, 0
        else:
            stall += 1
    return best


def _crossings(rows: list[list[int]], down: list[list[int]], pos: list[int]) -> int:
    """Edge crossings between consecutive layers: inversions, counted with a Fenwick tree
    (Barth, Juenger & Mutzel 2002)."""
    total = 0
    for i in range(len(rows) - 1):
        n = len(rows[i + 1])
        tree = [0] * (n + 1)
        placed = 0
        for u in rows[i]:
            ends = sorted(pos[w] for w in down[u])
            for e in ends:  # the edges placed so far that end right of e cross this one
                k, at_or_left = e + 1, 0
                while k > 0:
                    at_or_left += tree[k]
                    k -= k & -k
                total += placed - at_or_left
            for e in ends:
                k = e + 1
                while k <= n:
                    tree[k] += 1
                    k += k & -k
            placed += len(ends)
    return total


def _transpose(rows: list[list[int]], up: list[list[int]], down: list[list[int]], pos) -> None:
    """Swap neighbours in a layer while that removes crossings with the layers either side."""
    for _ in range(4):
        improved = False
        for row in rows:
            for j in range(len(row) - 1):
                u, v = row[j], row[j + 1]
                kept = swapped = 0
                for near in (up, down):
                    for a in near[u]:
                        pa = pos[a]
                        for b in near[v]:
                            pb = pos[b]
                            kept += pa > pb
                            swapped += pa < pb
                if swapped < kept:
                    row[j], row[j + 1] = v, u
                    pos[u], pos[v] = j + 1, j
                    improved = True
        if not improved:
            return


def _x_coordinates(
    rows: list[list[int]], width: list[float], m: int, up, down, unit: float
) -> list[float]:
    """The vertices' centres: sweeps down (each layer pulled toward the layer above), up, then
    both ways."""
    x = [0.0] * len(width)
    seps = []
    for row in rows:
        sep = [
            (width[a] + width[b]) / 2 + (NODE_GAP if a < m and b < m else EDGE_GAP) * unit
            for a, b in pairwise(row)
        ]
        seps.append(sep)
        at = 0.0
        for j, v in enumerate(row):
            x[v] = at
            at += sep[j] if j < len(sep) else 0.0
        for v in row:
            x[v] -= at / 2
    rounds = 12
    nears: tuple[list[list[int]], ...]
    for r in range(rounds):
        if r >= rounds - 4:
            nears = (up, down)
            sequence = range(len(rows)) if r % 2 else range(len(rows) - 1, -1, -1)
        elif r % 2 == 0:
            nears, sequence = (up,), range(1, len(rows))
        else:
            nears, sequence = (down,), range(len(rows) - 2, -1, -1)
        for i in sequence:
            row = rows[i]
            target, weight = [], []
            for v in row:
                total = pull = 0.0
                for near in nears:
                    for w in near[v]:
                        # dot's weights: an edge between dummies 8, a dummy and a node 2, else 1
                        k = 8.0 if v >= m and w >= m else 2.0 if v >= m or w >= m else 1.0
                        total += k
                        pull += k * x[w]
                if total:
                    target.append(pull / total)
                    weight.append(total)
                else:
                    target.append(x[v])
                    weight.append(0.1)
            for v, value in zip(row, _spaced_fit(target, weight, seps[i]), strict=True):
                x[v] = value
    return x


def _spaced_fit(target: list[float], weight: list[float], sep: list[float]) -> list[float]:
    """``argmin sum w (x - t)^2`` subject to ``x[j+1] - x[j] >= sep[j]``: with
    ``y[j] = x[j] - (sep[0] + ... + sep[j-1])`` this is isotonic regression of ``t`` less
    those sums, solved by pool-adjacent-violators (scipy has one only from 1.12)."""
    offset = [0.0]
    for s in sep:
        offset.append(offset[-1] + s)
    blocks: list[list[float]] = []  # [value, weight, count]
    for t, w, o in zip(target, weight, offset, strict=True):
        blocks.append([t - o, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            value, w2, c2 = blocks.pop()
            last = blocks[-1]
            total = last[1] + w2
            last[0] = (last[0] * last[1] + value * w2) / total
            last[1] = total
            last[2] += c2
    out = []
    for value, _, count in blocks:
        out.extend([value] * int(count))
    return [v + o for v, o in zip(out, offset, strict=True)]


def _ports(x, m, up, down, boxes, top, bottom, vlayer, unit):
    """Where each edge leaves its parent's box (bottom side) and enters its child's (top
    side): aimed at the box's centre, then spread apart along the side, in the order of the
    vertices at their other ends (so edges of one box do not cross at it)."""
    centre = [(b + t) / 2 for b, t in zip(bottom, top, strict=True)]
    exits: dict[tuple[int, int], float] = {}
    entries: dict[tuple[int, int], float] = {}
    for v in range(m):
        x0, _, x1, _ = boxes[v]
        cy = centre[vlayer[v]]
        inset = min(0.5 * unit, (x1 - x0) / 4)  # clear of the rounded corners
        lo, hi = x0 + inset, x1 - inset
        for near, side, out in ((down, bottom[vlayer[v]], exits), (up, top[vlayer[v]], entries)):
            if not near[v]:
                continue
            ends = sorted(near[v], key=lambda w: x[w])
            want = []
            for w in ends:  # where the line from v's centre to w's crosses the side
                t = (side - cy) / (centre[vlayer[w]] - cy)
                want.append(x[v] + t * (x[w] - x[v]))
            k = len(ends)
            gap = min(PORT_GAP * unit, (hi - lo) / (k - 1)) if k > 1 else 0.0
            placed = _spaced_fit(want, [1.0] * k, [gap] * (k - 1))
            for j, w in enumerate(ends):
                at = min(max(placed[j], lo + j * gap), hi - (k - 1 - j) * gap)
                out[(v, w) if near is down else (w, v)] = at
    return exits, entries


def _straighten(pts: list, zones: list) -> list:
    """``pts`` (``y`` falling) with corners cut: from each kept point, on to the furthest point
    the straight line reaches while it keeps, over each zone ``(y0, y1, left, right)`` it
    crosses, within ``left <= x <= right`` (zones in order, ``y`` falling)."""
    out = [pts[0]]
    i, n = 0, len(pts)
    first_zone = 0
    while i < n - 1:
        xi, yi = pts[i]
        while first_zone < len(zones) and zones[first_zone][0] >= yi:
            first_zone += 1  # zones wholly above p_i
        lo, hi = -np.inf, np.inf  # slopes s (x = xi + s (yi - y)) that clear the zones passed
        z = first_zone
        best = i + 1
        for j in range(i + 1, n):
            xj, yj = pts[j]
            while z < len(zones) and zones[z][0] >= yj:  # zones wholly between p_i and p_j
                y0, y1, left, right = zones[z]
                for y in (y0, min(y1, yi)):
                    d = yi - y
                    if d > 0:
                        lo = max(lo, (left - xi) / d)
                        hi = min(hi, (right - xi) / d)
                z += 1
            if lo > hi:
                break
            s = (xj - xi) / (yi - yj)
            ok = lo <= s <= hi
            if ok and z < len(zones) and zones[z][1] > yj:  # p_j inside zone z
                _, y1, left, right = zones[z]
                y = min(y1, yi)
                ok = left <= xi + s * (yi - y) <= right and left <= xj <= right
            if ok:
                best = j
        out.append(pts[best])
        i = best
    return out
