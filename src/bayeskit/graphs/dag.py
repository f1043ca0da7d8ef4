"""Directed acyclic graphs: the structure of a Bayesian network (Zhou, *Machine Learning*, 7.5.1).

A :class:`DAG` holds named nodes in a fixed order (the order they were given in, which every
listing keeps, so results are deterministic) and the edges between them. It answers the
structural questions a network needs: parents, children, a topological order, ancestors and
descendants, Markov blankets, the moral graph, and conditional independence by d-separation.

d-separation is decided as Zhou does it (*Machine Learning*, 7.5.1 and its margin note): keep
``x``, ``y``, ``z`` and their ancestors, moralise that subgraph (marry the parents of every
child, drop the directions), remove ``z``, and ask whether ``x`` and ``y`` are still connected.
Pruning to the ancestral set first is what makes the two parents of an unobserved common child
independent (Fig. 7.3's V-structure); :func:`bayes_ball` reaches the same answers by Shachter's
rules and is kept to cross-check it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from itertools import combinations
from typing import Any

from bayeskit._text import shown
from bayeskit.data.validation import check_count

__all__ = ["DAG", "as_dag", "bayes_ball", "edge_pairs", "structural_hamming_distance"]

Node = Hashable


class DAG:
    """A directed acyclic graph over named nodes.

    Parameters
    ----------
    nodes : iterable of hashable, optional
        The nodes, in the order every listing keeps. Nodes named only by ``edges`` are added
        after them, in the order they first appear.
    edges : iterable of (parent, child) pairs, optional

    Raises
    ------
    ValueError
        For a self-loop, an edge listed twice, or a cycle (the message names one).

    Examples
    --------
    The watermelon network of Zhou's Fig. 7.2 (ripe, sweetness -> color; ripe -> sound;
    sweetness -> root):

    >>> g = DAG(edges=[("ripe", "sound"), ("ripe", "color"), ("sweetness", "color"),
    ...                ("sweetness", "root")])
    >>> g.parents("color"), g.topological_order()
    (('ripe', 'sweetness'), ['ripe', 'sound', 'sweetness', 'color', 'root'])
    >>> g.d_separated("sound", "color", given=["ripe"]), g.d_separated("ripe", "sweetness")
    (True, True)
    >>> g.d_separated("ripe", "sweetness", given=["color"])
    False
    """

    def __init__(self, nodes: Iterable[Node] = (), edges: Iterable[tuple[Node, Node]] = ()):
        order: dict[Node, int] = {}
        for node in nodes:
            _check_name(node)
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
                _check_name(node)
                order.setdefault(node, len(order))
            if u == v:
                msg = f"edge {shown(u)} -> {shown(v)} is a self-loop"
                raise ValueError(msg)
            pairs.append((u, v))
        if len(set(pairs)) != len(pairs):
            dup = next(p for i, p in enumerate(pairs) if p in pairs[:i])
            msg = f"edge {shown(dup[0])} -> {shown(dup[1])} is listed twice"
            raise ValueError(msg)
        self._nodes = tuple(order)
        self._index = order
        self._parents: dict[Node, list[Node]] = {n: [] for n in self._nodes}
        self._children: dict[Node, list[Node]] = {n: [] for n in self._nodes}
        for u, v in pairs:
            self._parents[v].append(u)
            self._children[u].append(v)
        cycle = self._find_cycle()
        if cycle:
            msg = "the edges make a cycle: " + " -> ".join(map(repr, [*cycle, cycle[0]]))
            raise ValueError(msg)
        self._edges = tuple(pairs)

    # ------------------------------------------------------------------ basics
    @property
    def nodes(self) -> tuple[Node, ...]:
        """The nodes, in their order."""
        return self._nodes

    @property
    def edges(self) -> tuple[tuple[Node, Node], ...]:
        """The ``(parent, child)`` edges, in the order given."""
        return self._edges

    def __len__(self) -> int:
        return len(self._nodes)

    def __contains__(self, node: object) -> bool:
        return node in self._index

    def __iter__(self):
        return iter(self._nodes)

    def __eq__(self, other: object) -> bool:
        """Same nodes (in any order) and same edges (in any order)."""
        if not isinstance(other, DAG):
            return NotImplemented
        return set(self._nodes) == set(other._nodes) and set(self._edges) == set(other._edges)

    def __hash__(self) -> int:
        return hash((frozenset(self._nodes), frozenset(self._edges)))

    def __repr__(self) -> str:
        return f"DAG({len(self._nodes)} nodes, {len(self._edges)} edges)"

    def _check(self, node: Any) -> Node:
        if node not in self._index:
            shown = ", ".join(map(repr, self._nodes[:8])) + (", ..." if len(self) > 8 else "")
            msg = f"unknown node {node!r}; the nodes are {shown}"
            raise KeyError(msg)
        return node

    def _set(self, nodes: Any) -> set[Node]:
        """One node or an iterable of nodes (a string is one node), checked."""
        if isinstance(nodes, str) or not isinstance(nodes, Iterable):
            nodes = [nodes]
        return {self._check(n) for n in nodes}

    def _sorted(self, nodes: Iterable[Node]) -> list[Node]:
        return sorted(nodes, key=self._index.__getitem__)

    # ------------------------------------------------------------------ family
    def parents(self, node: Node) -> tuple[Node, ...]:
        """The node's parents, in the order their edges were given."""
        return tuple(self._parents[self._check(node)])

    def children(self, node: Node) -> tuple[Node, ...]:
        """The node's children, in the order their edges were given."""
        return tuple(self._children[self._check(node)])

    def roots(self) -> list[Node]:
        """The nodes without parents."""
        return [n for n in self._nodes if not self._parents[n]]

    def leaves(self) -> list[Node]:
        """The nodes without children."""
        return [n for n in self._nodes if not self._children[n]]

    def ancestors(self, nodes: Any) -> set[Node]:
        """Every node with a directed path to one of ``nodes`` (not the nodes themselves,
        unless one is an ancestor of another)."""
        return self._reach(self._set(nodes), self._parents)

    def descendants(self, nodes: Any) -> set[Node]:
        """Every node a directed path from one of ``nodes`` reaches (same convention)."""
        return self._reach(self._set(nodes), self._children)

    def _reach(self, start: set[Node], step: dict[Node, list[Node]]) -> set[Node]:
        seen: set[Node] = set()
        todo = list(start)
        while todo:
            for nxt in step[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    def markov_blanket(self, node: Node) -> list[Node]:
        """Parents, children and the children's other parents: given them, the node is
        independent of every other node. In node order."""
        node = self._check(node)
        out = set(self._parents[node]) | set(self._children[node])
        for child in self._children[node]:
            out.update(self._parents[child])
        out.discard(node)
        return self._sorted(out)

    def topological_order(self) -> list[Node]:
        """Parents before children; among the nodes ready at a step, the first in node order
        (Kahn's algorithm with a priority on the nodes' order), so the order is unique."""
        import heapq

        indegree = {n: len(self._parents[n]) for n in self._nodes}
        ready = [self._index[n] for n in self._nodes if not indegree[n]]
        heapq.heapify(ready)
        out = []
        while ready:
            node = self._nodes[heapq.heappop(ready)]
            out.append(node)
            for child in self._children[node]:
                indegree[child] -= 1
                if not indegree[child]:
                    heapq.heappush(ready, self._index[child])
        return out

    def _find_cycle(self) -> list[Node]:
        """One directed cycle, as its nodes in order; [] when there is none."""
        state = dict.fromkeys(self._nodes, 0)  # 0 unseen, 1 on the path, 2 done
        for root in self._nodes:
            if state[root]:
                continue
            path, stack = [], [(root, iter(self._children[root]))]
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
                    stack.append((nxt, iter(self._children[nxt])))
        return []

    # ------------------------------------------------------------------ independence
    def moral_graph(self, nodes: Any = None) -> dict[Node, set[Node]]:
        """The moral graph (Zhou, *Machine Learning*, Fig. 7.4) of the whole DAG, or of the
        subgraph on ``nodes``: each edge undirected, and the parents of each child married. As
        adjacency sets, node -> its neighbours."""
        keep = set(self._nodes) if nodes is None else self._set(nodes)
        adj: dict[Node, set[Node]] = {n: set() for n in self._sorted(keep)}
        for child in adj:
            parents = [p for p in self._parents[child] if p in keep]
            for p in parents:
                adj[p].add(child)
                adj[child].add(p)
            for a, b in combinations(parents, 2):
                adj[a].add(b)
                adj[b].add(a)
        return adj

    def moral_edges(self) -> list[tuple[Node, Node]]:
        """The moral graph's edges, each once as ``(u, v)`` with ``u`` before ``v`` in node
        order, sorted."""
        adj = self.moral_graph()
        pos = self._index
        pairs = {(u, v) if pos[u] < pos[v] else (v, u) for u in adj for v in adj[u]}
        return sorted(pairs, key=lambda e: (pos[e[0]], pos[e[1]]))

    def d_separated(self, x: Any, y: Any, given: Any = ()) -> bool:
        """Whether ``x`` and ``y`` (nodes or sets of nodes) are d-separated by ``given``: in
        the moral graph of ``x``, ``y``, ``given`` and their ancestors, with ``given`` removed,
        no path joins ``x`` to ``y``. ValueError if the sets overlap."""
        xs, ys, zs = self._set(x), self._set(y), self._set(given) if given is not None else set()
        clash = (xs & ys) | (xs & zs) | (ys & zs)
        if clash:
            msg = f"x, y and given must not share nodes; they share {self._sorted(clash)}"
            raise ValueError(msg)
        keep = xs | ys | zs
        keep |= self._reach(keep, self._parents)
        adj = self.moral_graph(keep)
        seen = set(xs)
        todo = deque(xs)
        while todo:
            for nxt in adj[todo.popleft()]:
                if nxt in ys:
                    return False
                if nxt not in seen and nxt not in zs:
                    seen.add(nxt)
                    todo.append(nxt)
        return True

    def local_independences(self) -> list[tuple[Node, list[Node], list[Node]]]:
        """The local Markov property: each node is independent of its non-descendants (other
        than its parents) given its parents. As ``(node, others, parents)``, for the nodes
        that have such others, in node order."""
        out = []
        for node in self._nodes:
            parents = self._parents[node]
            desc = self._reach({node}, self._children)
            others = [n for n in self._nodes if n != node and n not in desc and n not in parents]
            if others:
                out.append((node, others, list(parents)))
        return out

    def independences(self, max_given: int | None = None) -> list[tuple[Node, Node, tuple]]:
        """Every statement ``x ⊥ y | Z`` the DAG implies for two nodes ``x`` before ``y`` and a
        set ``Z`` of other nodes with at most ``max_given`` members (all sizes by default), as
        ``(x, y, Z)`` with ``Z`` in node order. There are ``O(n^2 2^n)`` candidates: keep
        ``max_given`` small on networks of more than about 15 nodes."""
        check_count("max_given", max_given, none_ok=True)
        out = []
        for x, y in combinations(self._nodes, 2):
            rest = [n for n in self._nodes if n not in (x, y)]
            top = len(rest) if max_given is None else min(max_given, len(rest))
            for size in range(top + 1):
                for z in combinations(rest, size):
                    if self.d_separated(x, y, z):
                        out.append((x, y, z))
        return out

    # ------------------------------------------------------------------ networkx
    def to_networkx(self):
        """A ``networkx.DiGraph`` with the same nodes (in order) and edges."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self._nodes)
        g.add_edges_from(self._edges)
        return g

    @classmethod
    def from_networkx(cls, graph) -> DAG:
        """The DAG of a ``networkx.DiGraph`` (its node order kept); ValueError for a cycle,
        TypeError for an undirected graph."""
        if not graph.is_directed():
            msg = "from_networkx needs a directed graph (networkx.DiGraph)"
            raise TypeError(msg)
        return cls(nodes=list(graph.nodes), edges=list(graph.edges))


def edge_pairs(edges: Any, what: str = "edges") -> list[tuple[Node, Node]]:
    """``edges`` as a list of ``(parent, child)`` pairs: a :class:`DAG`'s edges, or any
    iterable of two-item tuples or lists. What every argument that takes edges (a structure,
    a start graph, black and white lists) reads them with, so each refuses the same things
    with the same words; ``what`` names the argument in a message.

    Parameters
    ----------
    edges : DAG or iterable of pairs
    what : str, default="edges"
        The argument's name, for a message.

    Returns
    -------
    list of tuple
        The ``(parent, child)`` pairs, in the order given.

    Raises
    ------
    TypeError
        For a string, or a value that is no iterable.
    ValueError
        For an item that is no pair (a single edge not put in a list, for example).

    Examples
    --------
    >>> edge_pairs([("a", "b"), ["b", "c"]])
    [('a', 'b'), ('b', 'c')]
    >>> edge_pairs(("a", "b"), "start")
    Traceback (most recent call last):
    ...
    ValueError: start: 'a' is no (parent, child) pair; a single edge goes in a list: [('a', 'b')]
    """
    if isinstance(edges, DAG):
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


def as_dag(structure: Any, nodes: Iterable[Node] | None = None, what: str = "structure") -> DAG:
    """A :class:`DAG` from what a structure may be given as, wherever one is taken: a DAG, a
    list of ``(parent, child)`` pairs, or a mapping ``{"nodes": [...], "edges": [...]}`` (nodes
    that no edge names); a ``networkx.DiGraph`` too.

    ``nodes``, the caller's nodes (a data set's columns, a network's tables), puts an edge
    list's nodes in their order and adds those no edge names; a DAG given is returned as it
    is. The DAG's own checks name a self-loop, an edge listed twice or a cycle, prefixed with
    ``what``.

    Parameters
    ----------
    structure : DAG, list of (parent, child) pairs, mapping or networkx.DiGraph
        The structure as given.
    nodes : iterable of nodes, optional
        The caller's nodes: the order of an edge list's nodes, and those no edge names.
    what : str, default="structure"
        The argument's name, prefixed to a message.

    Returns
    -------
    DAG

    Raises
    ------
    TypeError
        ``structure`` is none of the forms above.
    ValueError
        A self-loop, an edge listed twice, a cycle, or an item that is no pair.

    Examples
    --------
    >>> g = as_dag([("a", "b"), ("b", "c")], nodes=["c", "b", "a", "d"])
    >>> g.nodes, g.edges
    (('c', 'b', 'a', 'd'), (('a', 'b'), ('b', 'c')))
    >>> as_dag({"nodes": ["x"], "edges": [("a", "b")]}).nodes
    ('x', 'a', 'b')
    >>> as_dag([("a", "b"), ("b", "a")])
    Traceback (most recent call last):
    ...
    ValueError: structure: the edges make a cycle: 'a' -> 'b' -> 'a'
    """
    if isinstance(structure, DAG):
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
    pairs = edge_pairs(structure, what)
    order = list(dict.fromkeys([*(nodes or ()), *extra]))
    try:
        return DAG(nodes=order, edges=pairs)
    except ValueError as exc:
        msg = f"{what}: {exc}"
        raise ValueError(msg) from None


def bayes_ball(dag: DAG, x: Any, y: Any, given: Any = ()) -> bool:
    """d-separation by Shachter's Bayes-ball (1998): a ball passed from ``x`` through the
    graph, bouncing by the rules of chains, forks and colliders, never reaches ``y``. The
    same answers as :meth:`DAG.d_separated` by another route, kept to cross-check it. ``dag``:
    a DAG or a list of (parent, child) pairs (:func:`as_dag`).

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs
    x, y : node or iterable of nodes
        The two sets of nodes.
    given : node or iterable of nodes, default=()
        The observed nodes.

    Returns
    -------
    bool
        True when ``x`` and ``y`` are d-separated given ``given``.

    Examples
    --------
    >>> dag = DAG(edges=[("rain", "wet"), ("sprinkler", "wet"), ("wet", "slippery")])
    >>> bayes_ball(dag, "rain", "sprinkler")  # a collider blocks
    True
    >>> bayes_ball(dag, "rain", "sprinkler", given=["slippery"])  # its descendant opens it
    False
    >>> bayes_ball(dag, "rain", "slippery", given=["wet"])  # an observed chain blocks
    True
    """
    dag = as_dag(dag, what="dag")
    xs, ys = dag._set(x), dag._set(y)
    zs = dag._set(given) if given is not None else set()
    visited: set[tuple[Node, bool]] = set()
    todo = deque((n, True) for n in xs)  # (node, the ball came from a child)
    while todo:
        node, from_child = todo.popleft()
        if (node, from_child) in visited:
            continue
        visited.add((node, from_child))
        if node in ys and node not in zs:
            return False
        if from_child and node not in zs:  # up to the parents, down to the children
            todo.extend((p, True) for p in dag._parents[node])
            todo.extend((c, False) for c in dag._children[node])
        elif not from_child:
            if node not in zs:  # a chain: on to the children
                todo.extend((c, False) for c in dag._children[node])
            else:  # an observed collider bounces the ball back up to its parents
                todo.extend((p, True) for p in dag._parents[node])
    return True


def structural_hamming_distance(learned: DAG, true: DAG) -> int:
    """The structural Hamming distance (SHD) of two DAGs over the same nodes: the number of
    node pairs whose edge differs, missing, extra or the other way round (each such pair
    counts 1).

    Parameters
    ----------
    learned, true : DAG, or list of (parent, child) pairs
        The two graphs (:func:`as_dag`).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        The two graphs are not over the same nodes.

    Examples
    --------
    >>> true = DAG(edges=[("a", "b"), ("b", "c")])
    >>> structural_hamming_distance(DAG(edges=[("b", "a"), ("a", "c")]), true)
    3
    >>> structural_hamming_distance([("b", "a"), ("a", "c")], [("a", "b"), ("b", "c")])
    3
    """
    # edge lists: each over the other's nodes too, so a node no edge names still counts
    given = [g for g in (learned, true) if isinstance(g, DAG)]
    nodes = given[0].nodes if given else None
    learned = as_dag(learned, nodes, "learned")
    true = as_dag(true, nodes if nodes is not None else learned.nodes, "true")
    if set(learned.nodes) != set(true.nodes):
        msg = "the structural Hamming distance needs two DAGs over the same nodes"
        raise ValueError(msg)
    mine, theirs = set(learned.edges), set(true.edges)
    pairs = {frozenset(e) for e in mine | theirs}
    return sum(
        1
        for pair in pairs
        if {e for e in mine if frozenset(e) == pair} != {e for e in theirs if frozenset(e) == pair}
    )


def _check_name(node: Any) -> None:
    if node is None or isinstance(node, float) and node != node:
        msg = f"a node name must not be {node!r}"
        raise ValueError(msg)
    try:
        hash(node)
    except TypeError:
        msg = f"a node name must be hashable, got {type(node).__name__}"
        raise TypeError(msg) from None
