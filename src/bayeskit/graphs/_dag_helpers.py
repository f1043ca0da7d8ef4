"""The graph walks behind :class:`~bayeskit.graphs.dag.DAG`: its nodes and edges read and
checked, a directed cycle found, the nodes a directed walk reaches, the topological order, the
moral graph, and the searches of d-separation (the moral graph's paths, and Bayes-ball)."""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from itertools import combinations
from typing import Any

from bayeskit._text import shown

Node = Hashable


def check_name(node: Any) -> None:
    """ValueError for None or NaN as a node's name, TypeError for an unhashable one."""
    if node is None or isinstance(node, float) and node != node:
        msg = f"a node name must not be {node!r}"
        raise ValueError(msg)
    try:
        hash(node)
    except TypeError:
        msg = f"a node name must be hashable, got {type(node).__name__}"
        raise TypeError(msg) from None


def read_structure(
    nodes: Iterable[Node], edges: Iterable[Any]
) -> tuple[dict[Node, int], list[tuple[Node, Node]]]:
    """Each node's position (the nodes given, then those only edges name) and the edges as
    pairs; ValueError for a node listed twice, an item that is no pair, a self-loop or an edge
    listed twice."""
    order: dict[Node, int] = {}
    for node in nodes:
        check_name(node)
        if node in order:
            msg = f"node {node!r} is listed twice"
            raise ValueError(msg)
        order[node] = len(order)
    pairs = []
    for edge in edges:
        if not isinstance(edge, tuple | list) or len(edge) != 2:
            msg = f"an edge must be a (parent, child) pair, got {shown(edge)}"
            raise ValueError(msg)
        u, v = edge
        for node in (u, v):
            check_name(node)
            order.setdefault(node, len(order))
        if u == v:
            msg = f"edge {shown(u)} -> {shown(v)} is a self-loop"
            raise ValueError(msg)
        pairs.append((u, v))
    if len(set(pairs)) != len(pairs):
        dup = next(p for i, p in enumerate(pairs) if p in pairs[:i])
        msg = f"edge {shown(dup[0])} -> {shown(dup[1])} is listed twice"
        raise ValueError(msg)
    return order, pairs


def find_cycle(nodes: tuple[Node, ...], children: dict[Node, list[Node]]) -> list[Node]:
    """One directed cycle, as its nodes in order; [] when there is none."""
    state = dict.fromkeys(nodes, 0)  # 0 unseen, 1 on the path, 2 done
    for root in nodes:
        if state[root]:
            continue
        path, stack = [], [(root, iter(children[root]))]
        state[root] = 1
        path.append(root)
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state[nxt] == 1:
                return path[path.index(nxt) :]
            elif state[nxt] == 0:
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(children[nxt])))
    return []


def reach(start: Iterable[Node], step: dict[Node, list[Node]]) -> set[Node]:
    """Every node a walk from ``start`` along ``step`` (parents or children) reaches."""
    seen: set[Node] = set()
    todo = list(start)
    while todo:
        for nxt in step[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def topological(
    nodes: tuple[Node, ...], index: dict[Node, int], parents: dict, children: dict
) -> list[Node]:
    """Kahn's algorithm, the first ready node in node order at each step."""
    indegree = {n: len(parents[n]) for n in nodes}
    ready = [index[n] for n in nodes if not indegree[n]]
    heapq.heapify(ready)
    out = []
    while ready:
        node = nodes[heapq.heappop(ready)]
        out.append(node)
        for child in children[node]:
            indegree[child] -= 1
            if not indegree[child]:
                heapq.heappush(ready, index[child])
    return out


def moral_adjacency(kept: list[Node], parents: dict) -> dict[Node, set[Node]]:
    """The moral graph of the subgraph on ``kept`` (in node order), as adjacency sets."""
    keep = set(kept)
    adj: dict[Node, set[Node]] = {n: set() for n in kept}
    for child in adj:
        family = [p for p in parents[child] if p in keep]
        for p in family:
            adj[p].add(child)
            adj[child].add(p)
        for a, b in combinations(family, 2):
            adj[a].add(b)
            adj[b].add(a)
    return adj


def joined(adj: dict[Node, set[Node]], xs: set, ys: set, zs: set) -> bool:
    """Whether a path of ``adj`` avoiding ``zs`` joins ``xs`` to ``ys``."""
    seen = set(xs)
    todo = deque(xs)
    while todo:
        for nxt in adj[todo.popleft()]:
            if nxt in ys:
                return True
            if nxt not in seen and nxt not in zs:
                seen.add(nxt)
                todo.append(nxt)
    return False


def ball_reaches(parents: dict, children: dict, xs: set, ys: set, zs: set) -> bool:
    """Whether Shachter's Bayes-ball, passed from ``xs`` with ``zs`` observed, reaches ``ys``."""
    visited: set[tuple[Node, bool]] = set()
    todo = deque((n, True) for n in xs)  # (node, the ball came from a child)
    while todo:
        node, from_child = todo.popleft()
        if (node, from_child) in visited:
            continue
        visited.add((node, from_child))
        if node in ys and node not in zs:
            return True
        if from_child and node not in zs:  # up to the parents, down to the children
            todo.extend((p, True) for p in parents[node])
            todo.extend((c, False) for c in children[node])
        elif not from_child:
            if node not in zs:  # a chain: on to the children
                todo.extend((c, False) for c in children[node])
            else:  # an observed collider bounces the ball back up to its parents
                todo.extend((p, True) for p in parents[node])
    return False


def local_statements(nodes: tuple[Node, ...], parents: dict, children: dict) -> list:
    """``(node, others, parents)`` per node with non-descendants other than its parents."""
    out = []
    for node in nodes:
        family = parents[node]
        desc = reach({node}, children)
        others = [n for n in nodes if n != node and n not in desc and n not in family]
        if others:
            out.append((node, others, list(family)))
    return out


def pairs_of(edges: Any, what: str, dag_type: Any) -> list[tuple[Node, Node]]:
    """A DAG's edges or an iterable of pairs as a list of pairs (:func:`edge_pairs`)."""
    if isinstance(edges, dag_type):
        return list(edges.edges)
    if isinstance(edges, str | bytes) or not isinstance(edges, Iterable):
        msg = (
            f"{what} must be a DAG or a list of (parent, child) pairs, got "
            f"{type(edges).__name__} {edges!r}"
        )
        raise TypeError(msg)
    items = list(edges)
    out = []
    for edge in items:
        if isinstance(edge, str | bytes) or not isinstance(edge, tuple | list) or len(edge) != 2:
            hint = ""
            if len(items) == 2 and not any(isinstance(e, tuple | list) for e in items):
                hint = f"; a single edge goes in a list: [{tuple(items)!r}]"
            msg = f"{what}: {shown(edge)} is no (parent, child) pair{hint}"
            raise ValueError(msg)
        out.append((edge[0], edge[1]))
    return out


def structure_dag(structure: Any, nodes: Any, what: str, dag_type: Any) -> Any:
    """A DAG from a structure as given (:func:`as_dag`); a partially directed graph as it is."""
    if isinstance(structure, dag_type) or _is_pdag(structure):
        return structure
    extra: list = []
    if hasattr(structure, "is_directed") and hasattr(structure, "edges"):  # networkx
        if not structure.is_directed():
            msg = f"{what} must be a directed graph (networkx.DiGraph), got an undirected one"
            raise TypeError(msg)
        extra, structure = list(structure.nodes), list(structure.edges)
    elif isinstance(structure, Mapping):
        unknown = sorted(map(str, set(structure) - {"nodes", "edges"}))
        if unknown or "edges" not in structure and "nodes" not in structure:
            msg = (
                f"{what} must be a DAG, a list of (parent, child) pairs or a mapping "
                f"{{'nodes': [...], 'edges': [...]}}, got a mapping with keys {unknown}"
            )
            raise TypeError(msg)
        extra, structure = list(structure.get("nodes", ())), structure.get("edges", ())
    pairs = pairs_of(structure, what, dag_type)
    order = list(dict.fromkeys([*(nodes or ()), *extra]))
    try:
        return dag_type(nodes=order, edges=pairs)
    except ValueError as exc:
        msg = f"{what}: {exc}"
        raise ValueError(msg) from None


def hamming_distance(learned: Any, true: Any, dag_type: Any) -> int:
    """The structural Hamming distance of two structures (:func:`structural_hamming_distance`):
    DAGs, edge lists, or partially directed graphs (anything with ``undirected`` edges too)."""
    # edge lists: each over the other's nodes too, so a node no edge names still counts
    given = [g for g in (learned, true) if isinstance(g, dag_type) or _is_pdag(g)]
    nodes = given[0].nodes if given else None
    learned = structure_dag(learned, nodes, "learned", dag_type)
    true = structure_dag(true, nodes if nodes is not None else learned.nodes, "true", dag_type)
    if set(learned.nodes) != set(true.nodes):
        msg = "the structural Hamming distance needs two graphs over the same nodes"
        raise ValueError(msg)
    mine, theirs = _marks(learned), _marks(true)
    return sum(1 for pair in mine.keys() | theirs.keys() if mine.get(pair) != theirs.get(pair))


def _is_pdag(graph: Any) -> bool:
    return hasattr(graph, "undirected") and hasattr(graph, "directed")


def _marks(graph: Any) -> dict[frozenset, Any]:
    """Each adjacent pair -> its edge: ``(u, v)`` for ``u -> v``, ``"-"`` for undirected."""
    marks: dict[frozenset, Any] = {frozenset(e): "-" for e in getattr(graph, "undirected", ())}
    for u, v in graph.directed if _is_pdag(graph) else graph.edges:
        marks[frozenset((u, v))] = (u, v)
    return marks


def implied(nodes: tuple[Node, ...], d_separated: Any, max_given: int | None) -> list:
    """Every ``(x, y, Z)`` that ``d_separated`` holds, ``Z`` of at most ``max_given`` nodes."""
    out = []
    for x, y in combinations(nodes, 2):
        rest = [n for n in nodes if n not in (x, y)]
        top = len(rest) if max_given is None else min(max_given, len(rest))
        for size in range(top + 1):
            for z in combinations(rest, size):
                if d_separated(x, y, z):
                    out.append((x, y, z))
    return out
