"""Equivalence classes of DAGs: partially directed graphs (PDAGs), the completed PDAG (CPDAG)
of a DAG, Meek's orientation rules and the extension of a PDAG back to a DAG.

Two DAGs are Markov equivalent (they imply the same independences by d-separation) exactly
when they have the same skeleton and the same v-structures, ``a -> c <- b`` with ``a`` and
``b`` not adjacent (Verma and Pearl 1990). Data alone cannot tell equivalent DAGs apart, so a
constraint-based learner returns the class, drawn as a CPDAG: an edge is directed when every
DAG of the class directs it that way, undirected otherwise. The CPDAG of a DAG is its skeleton
with its v-structures directed, then Meek's rules applied until none applies (Meek 1995,
*Causal inference and causal explanation with background knowledge*):

* R1: ``a -> b - c``, ``a``, ``c`` not adjacent: ``b -> c`` (else a new v-structure);
* R2: ``a -> b -> c`` and ``a - c``: ``a -> c`` (else a cycle);
* R3: ``a - c -> b``, ``a - d -> b``, ``a - b``, ``c``, ``d`` not adjacent: ``a -> b``;
* R4: ``a - b``, ``c -> d -> b``, ``a`` adjacent to ``c`` and ``d``, ``c``, ``b`` not
  adjacent: ``a -> b`` (needed only when some edges were directed by background knowledge).

A DAG of the class is found back by Dor and Tarsi's algorithm (1992, *A simple algorithm to
construct a consistent extension of a partially oriented graph*): repeatedly take a node with
no outgoing directed edge whose undirected neighbours are adjacent to everything it is adjacent
to, direct its undirected edges into it, and remove it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from bayeskit.graphs.dag import DAG, Node, as_dag

__all__ = ["PDAG", "cpdag", "equivalent", "meek_rules", "v_structures"]


class PDAG:
    """A partially directed acyclic graph: directed edges ``u -> v`` and undirected ``u - v``.

    Parameters
    ----------
    nodes : iterable of hashable
        The nodes, in the order every listing keeps.
    directed : iterable of (u, v) pairs, optional
    undirected : iterable of (u, v) pairs, optional
        Each undirected edge once, either way round.

    Attributes
    ----------
    sepsets : dict
        The separating set of each pair found independent, when a constraint-based learner
        made the graph (``{frozenset((u, v)): S}``); empty otherwise. Not part of equality.

    Raises
    ------
    ValueError
        An edge naming an unknown node or a node twice, a pair joined twice, or directed edges
        that make a cycle.

    Examples
    --------
    >>> g = PDAG("abc", directed=[("a", "c"), ("b", "c")])
    >>> g.to_dag().edges
    (('a', 'c'), ('b', 'c'))
    >>> PDAG("abc", undirected=[("a", "b"), ("b", "c")]).to_dag().edges
    (('a', 'b'), ('b', 'c'))
    """

    def __init__(self, nodes: Iterable[Node], directed: Iterable[tuple[Node, Node]] = (),
                 undirected: Iterable[tuple[Node, Node]] = ()):  # fmt: skip
        self._nodes = tuple(nodes)
        self._pos = {n: i for i, n in enumerate(self._nodes)}
        if len(self._pos) != len(self._nodes):
            msg = "PDAG nodes must be distinct"
            raise ValueError(msg)
        seen: set[frozenset] = set()
        arcs, lines = [], []
        for kind, edges in (("directed", directed), ("undirected", undirected)):
            for u, v in edges:
                for node in (u, v):
                    if node not in self._pos:
                        msg = f"{kind} edge ({u!r}, {v!r}) names {node!r}, not a node"
                        raise ValueError(msg)
                pair = frozenset((u, v))
                if len(pair) == 1 or pair in seen:
                    msg = f"{kind} edge ({u!r}, {v!r}): a self-loop or a pair joined twice"
                    raise ValueError(msg)
                seen.add(pair)
                if kind == "directed":
                    arcs.append((u, v))
                else:
                    lines.append((u, v) if self._pos[u] < self._pos[v] else (v, u))
        self._directed = tuple(sorted(arcs, key=self._key))
        self._undirected = tuple(sorted(lines, key=self._key))
        DAG(self._nodes, self._directed)  # refuses a directed cycle, naming it
        self.sepsets: dict[frozenset, tuple] = {}

    def _key(self, edge: tuple[Node, Node]) -> tuple[int, int]:
        return self._pos[edge[0]], self._pos[edge[1]]

    @property
    def nodes(self) -> tuple[Node, ...]:
        """The nodes, in order."""
        return self._nodes

    @property
    def directed(self) -> tuple[tuple[Node, Node], ...]:
        """The directed edges ``(u, v)``: ``u -> v``, in node order."""
        return self._directed

    @property
    def undirected(self) -> tuple[tuple[Node, Node], ...]:
        """The undirected edges, each once, its earlier node first."""
        return self._undirected

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PDAG):
            return NotImplemented
        return (set(self._nodes) == set(other._nodes) and set(self._directed) ==
                set(other._directed) and _lines(self) == _lines(other))  # fmt: skip

    def __hash__(self) -> int:
        return hash((frozenset(self._nodes), frozenset(self._directed), frozenset(_lines(self))))

    def __repr__(self) -> str:
        return (f"PDAG(nodes={list(self._nodes)!r}, directed={list(self._directed)!r}, "
                f"undirected={list(self._undirected)!r})")  # fmt: skip

    def skeleton(self) -> set[frozenset]:
        """Every adjacent pair, as a frozenset.

        Returns
        -------
        set of frozenset

        Examples
        --------
        >>> sorted(sorted(p) for p in PDAG("abc", [("a", "b")], [("b", "c")]).skeleton())
        [['a', 'b'], ['b', 'c']]
        """
        return {frozenset(e) for e in (*self._directed, *self._undirected)}

    def to_dag(self, strict: bool = True) -> DAG:
        """A DAG of the class the PDAG stands for: its directed edges kept, its undirected
        ones directed without a new v-structure or a cycle (Dor and Tarsi 1992). Among the
        nodes that can be removed, the last in node order goes first, so undirected edges
        point from earlier to later nodes where the class allows it.

        Parameters
        ----------
        strict : bool, default=True
            When no such DAG exists (a graph learned from data can be one, where tests
            contradict each other), raise; with False, go on: the last node with no outgoing
            edge takes its remaining undirected edges as parents, making a v-structure the
            PDAG does not have. The directed edges are kept either way.

        Returns
        -------
        DAG

        Raises
        ------
        ValueError
            With ``strict``, when the PDAG has no consistent extension.

        Examples
        --------
        >>> PDAG("abc", directed=[("a", "b")], undirected=[("b", "c")]).to_dag().edges
        (('a', 'b'), ('b', 'c'))
        """
        out = dict.fromkeys(self._nodes)  # remaining nodes, in order
        parents = {n: {u for u, v in self._directed if v == n} for n in self._nodes}
        children = {n: {v for u, v in self._directed if u == n} for n in self._nodes}
        lines: dict[Node, set[Node]] = {n: set() for n in self._nodes}
        for u, v in self._undirected:
            lines[u].add(v)
            lines[v].add(u)
        edges = list(self._directed)
        while out:
            sink = next((x for x in reversed(out) if _removable(x, parents, children, lines)), None)
            if sink is None and not strict:  # the directed part is acyclic: a sink remains
                sink = next(x for x in reversed(out) if not children[x])
            if sink is None:
                msg = ("the PDAG has no consistent extension: every remaining node either has "
                       "an outgoing edge or would make a new v-structure")  # fmt: skip
                raise ValueError(msg)
            for y in lines[sink]:
                edges.append((y, sink))
                lines[y].discard(sink)
            for y in parents[sink]:
                children[y].discard(sink)
            del out[sink]
            parents[sink], lines[sink] = set(), set()
        return DAG(self._nodes, sorted(edges, key=self._key))


def _lines(g: PDAG) -> set[frozenset]:
    return {frozenset(e) for e in g.undirected}


def _removable(x: Node, parents: dict, children: dict, lines: dict) -> bool:
    """Dor and Tarsi's test: ``x`` has no outgoing edge, and each undirected neighbour is
    adjacent to every other node adjacent to ``x``."""
    if children[x]:
        return False
    adjacent = parents[x] | lines[x]
    for y in lines[x]:
        near = parents[y] | children[y] | lines[y]
        if any(z != y and z not in near for z in adjacent):
            return False
    return True


def v_structures(dag: Any) -> set[tuple[Node, Node, Node]]:
    """The v-structures ``a -> c <- b`` of a DAG (``a``, ``b`` not adjacent), as ``(a, c, b)``
    with ``a`` before ``b`` in the DAG's node order.

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs

    Returns
    -------
    set of tuple

    Examples
    --------
    >>> v_structures(DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")]))
    {('a', 'c', 'b')}
    """
    dag = as_dag(dag)
    pos = {n: i for i, n in enumerate(dag.nodes)}
    adjacent = {frozenset(e) for e in dag.edges}
    found = set()
    for c in dag.nodes:
        for a, b in combinations(sorted(dag.parents(c), key=pos.__getitem__), 2):
            if frozenset((a, b)) not in adjacent:
                found.add((a, c, b))
    return found


def cpdag(dag: Any) -> PDAG:
    """The completed PDAG of a DAG's equivalence class: an edge directed when every DAG of the
    class directs it so (its v-structures, then Meek's rules R1-R3), undirected otherwise.

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs

    Returns
    -------
    PDAG

    Examples
    --------
    A chain's class holds three DAGs, a collider's one:

    >>> cpdag(DAG(edges=[("a", "b"), ("b", "c")])).directed
    ()
    >>> cpdag(DAG(edges=[("a", "b"), ("c", "b"), ("b", "d")])).directed
    (('a', 'b'), ('b', 'd'), ('c', 'b'))
    """
    dag = as_dag(dag)
    arcs = set()
    for a, c, b in v_structures(dag):
        arcs |= {(a, c), (b, c)}
    arcs, lines = meek_rules(dag.nodes, arcs, {frozenset(e) for e in dag.edges if e not in arcs})
    return PDAG(dag.nodes, arcs, [tuple(p) for p in lines])


def meek_rules(nodes: tuple[Node, ...], arcs: set, lines: set,
               ambiguous: frozenset | set = frozenset()) -> tuple[set, set]:  # fmt: skip
    """Apply Meek's rules R1-R4 to directed edges ``arcs`` ((u, v) pairs) and undirected
    ``lines`` (frozensets) until none applies; the edges they end as. R1 does not fire across
    an unshielded triple ``(a, b, c)`` (``a -> b - c``) listed in ``ambiguous`` (both ends
    stored), one the data could not call a v-structure or not.

    The rules run in rounds, each applying together every orientation the edges at its start
    imply, so the result does not depend on the order of the nodes; an edge the rules would
    direct both ways (edges learned from data can contradict each other) stays undirected."""
    adjacent: dict[Node, set[Node]] = {n: set() for n in nodes}
    for u, v in (*arcs, *(tuple(p) for p in lines)):
        adjacent[u].add(v)
        adjacent[v].add(u)
    arcs, lines = set(arcs), set(lines)
    while True:  # rounds: every orientation the current edges imply, applied together
        found = {}
        for pair in lines:
            a, b = tuple(pair)
            forward = _meek(a, b, arcs, lines, adjacent, ambiguous)
            if forward != _meek(b, a, arcs, lines, adjacent, ambiguous):
                found[pair] = (a, b) if forward else (b, a)
        if not found:
            break
        lines -= found.keys()
        arcs |= set(found.values())
    return arcs, lines


def _order(nodes: tuple[Node, ...]) -> dict[Node, int]:
    return {n: i for i, n in enumerate(nodes)}


def _meek(a: Node, b: Node, arcs: set, lines: set, adjacent: dict, ambiguous: Any) -> bool:
    """Whether one of Meek's rules directs the undirected edge ``a - b`` as ``a -> b``."""
    into_a = {u for u in adjacent[a] if (u, a) in arcs}
    if any(b not in adjacent[u] and (u, a, b) not in ambiguous for u in into_a):  # R1
        return True
    if any((a, c) in arcs and (c, b) in arcs for c in adjacent[a] & adjacent[b]):  # R2
        return True
    both = [c for c in adjacent[a] & adjacent[b]
            if frozenset((a, c)) in lines and (c, b) in arcs]  # fmt: skip
    if any(d not in adjacent[c] for c, d in combinations(both, 2)):  # R3
        return True
    for d in adjacent[a]:  # R4: c -> d -> b, a adjacent to c and d, c and b not adjacent
        if (d, b) in arcs:
            for c in adjacent[a] & adjacent[d]:
                if (c, d) in arcs and c != b and b not in adjacent[c]:
                    return True
    return False


def equivalent(dag_a: Any, dag_b: Any) -> bool:
    """Whether two DAGs are Markov equivalent: the same skeleton and the same v-structures
    (Verma and Pearl 1990), so the same independences by d-separation.

    Parameters
    ----------
    dag_a, dag_b : DAG, or list of (parent, child) pairs

    Returns
    -------
    bool

    Examples
    --------
    >>> equivalent([("a", "b"), ("b", "c")], [("c", "b"), ("b", "a")])
    True
    >>> equivalent([("a", "b"), ("b", "c")], [("a", "b"), ("c", "b")])
    False
    """
    a, b = as_dag(dag_a), as_dag(dag_b)
    if set(a.nodes) != set(b.nodes):
        return False
    same_skeleton = {frozenset(e) for e in a.edges} == {frozenset(e) for e in b.edges}
    return same_skeleton and v_structures(a) == _canonical(v_structures(b), a)


def _canonical(found: set, dag: DAG) -> set:
    """V-structures re-keyed to ``dag``'s node order (``a`` before ``b``)."""
    pos = _order(dag.nodes)
    return {(a, c, b) if pos[a] < pos[b] else (b, c, a) for a, c, b in found}
