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

from collections.abc import Hashable, Iterable
from typing import Any

from bayeskit.data.validation import check_count
from bayeskit.graphs import _dag_helpers as h

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
        order, pairs = h.read_structure(nodes, edges)
        self._nodes = tuple(order)
        self._index = order
        self._parents: dict[Node, list[Node]] = {n: [] for n in self._nodes}
        self._children: dict[Node, list[Node]] = {n: [] for n in self._nodes}
        for u, v in pairs:
            self._parents[v].append(u)
            self._children[u].append(v)
        cycle = h.find_cycle(self._nodes, self._children)
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
        """The node's parents, in the order their edges were given.

        Parameters
        ----------
        node : node
            A node of the DAG; a KeyError names the nodes otherwise.

        Returns
        -------
        tuple of nodes
            The axis order of the node's CPT in a network over this DAG (the node last).

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> g.parents("c"), g.parents("a")
        (('a', 'b'), ())
        """
        return tuple(self._parents[self._check(node)])

    def children(self, node: Node) -> tuple[Node, ...]:
        """The node's children, in the order their edges were given.

        Parameters
        ----------
        node : node
            A node of the DAG; a KeyError names the nodes otherwise.

        Returns
        -------
        tuple of nodes

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> g.children("a"), g.children("d")
        (('c',), ())
        """
        return tuple(self._children[self._check(node)])

    def roots(self) -> list[Node]:
        """The nodes without parents.

        Returns
        -------
        list of nodes
            In node order.

        Examples
        --------
        >>> DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")]).roots()
        ['a', 'b']
        """
        return [n for n in self._nodes if not self._parents[n]]

    def leaves(self) -> list[Node]:
        """The nodes without children.

        Returns
        -------
        list of nodes
            In node order.

        Examples
        --------
        >>> DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")]).leaves()
        ['d']
        """
        return [n for n in self._nodes if not self._children[n]]

    def ancestors(self, nodes: Any) -> set[Node]:
        """Every node with a directed path to one of ``nodes`` (not the nodes themselves,
        unless one is an ancestor of another).

        Parameters
        ----------
        nodes : node or iterable of nodes
            One node (a string is one node) or several; a KeyError for one not in the DAG.

        Returns
        -------
        set of nodes

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> sorted(g.ancestors("d")), sorted(g.ancestors(["b", "c"]))
        (['a', 'b', 'c'], ['a', 'b'])
        """
        return h.reach(self._set(nodes), self._parents)

    def descendants(self, nodes: Any) -> set[Node]:
        """Every node a directed path from one of ``nodes`` reaches (not the nodes themselves,
        unless one is a descendant of another).

        Parameters
        ----------
        nodes : node or iterable of nodes
            One node (a string is one node) or several; a KeyError for one not in the DAG.

        Returns
        -------
        set of nodes

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> sorted(g.descendants("a")), g.descendants("d")
        (['c', 'd'], set())
        """
        return h.reach(self._set(nodes), self._children)

    def markov_blanket(self, node: Node) -> list[Node]:
        """Parents, children and the children's other parents: given them, the node is
        independent of every other node.

        Parameters
        ----------
        node : node
            A node of the DAG; a KeyError names the nodes otherwise.

        Returns
        -------
        list of nodes
            In node order, without the node itself.

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> g.markov_blanket("a")  # its child c and c's other parent b
        ['c', 'b']
        """
        node = self._check(node)
        out = set(self._parents[node]) | set(self._children[node])
        for child in self._children[node]:
            out.update(self._parents[child])
        out.discard(node)
        return self._sorted(out)

    def topological_order(self) -> list[Node]:
        """Parents before children; among the nodes ready at a step, the first in node order
        (Kahn's algorithm with a priority on the nodes' order), so the order is unique.

        Returns
        -------
        list of nodes
            Every node once, each after all its parents.

        Examples
        --------
        >>> g = DAG(nodes=["d", "c", "b", "a"], edges=[("a", "c"), ("b", "c"), ("c", "d")])
        >>> g.topological_order()
        ['b', 'a', 'c', 'd']
        """
        return h.topological(self._nodes, self._index, self._parents, self._children)

    # ------------------------------------------------------------------ independence
    def moral_graph(self, nodes: Any = None) -> dict[Node, set[Node]]:
        """The moral graph (Zhou, *Machine Learning*, Fig. 7.4) of the whole DAG, or of the
        subgraph on ``nodes``: each edge undirected, and the parents of each child married.

        Parameters
        ----------
        nodes : node or iterable of nodes, optional
            The subgraph's nodes (its edges those between them); None for the whole DAG.

        Returns
        -------
        dict of node -> set of nodes
            Adjacency sets, node -> its neighbours, the keys in node order.

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> {n: sorted(adj) for n, adj in g.moral_graph(["a", "b", "c"]).items()}
        {'a': ['b', 'c'], 'c': ['a', 'b'], 'b': ['a', 'c']}
        """
        keep = set(self._nodes) if nodes is None else self._set(nodes)
        return h.moral_adjacency(self._sorted(keep), self._parents)

    def moral_edges(self) -> list[tuple[Node, Node]]:
        """The moral graph's edges, each once as ``(u, v)`` with ``u`` before ``v`` in node
        order, sorted.

        Returns
        -------
        list of (node, node)
            Sorted by the positions of ``u``, then ``v``.

        Examples
        --------
        >>> DAG(edges=[("a", "c"), ("b", "c")]).moral_edges()  # a and b married
        [('a', 'c'), ('a', 'b'), ('c', 'b')]
        """
        adj = self.moral_graph()
        pos = self._index
        pairs = {(u, v) if pos[u] < pos[v] else (v, u) for u in adj for v in adj[u]}
        return sorted(pairs, key=lambda e: (pos[e[0]], pos[e[1]]))

    def d_separated(self, x: Any, y: Any, given: Any = ()) -> bool:
        """Whether ``x`` and ``y`` are d-separated by ``given``: in the moral graph of ``x``,
        ``y``, ``given`` and their ancestors, with ``given`` removed, no path joins ``x`` to
        ``y``.

        Parameters
        ----------
        x, y : node or iterable of nodes
            The two sets of nodes.
        given : node or iterable of nodes, default=()
            The observed nodes; None or empty for none.

        Returns
        -------
        bool
            True when every ``x`` is independent of every ``y`` given ``given`` in each
            distribution the DAG factorises.

        Raises
        ------
        ValueError
            ``x``, ``y`` and ``given`` share a node.

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")])  # a -> c <- b, c -> d
        >>> g.d_separated("a", "b"), g.d_separated("a", "b", given="d")  # a collider
        (True, False)
        >>> g.d_separated("a", "d", given=["c"])
        True
        """
        xs, ys, zs = self._set(x), self._set(y), self._set(given) if given is not None else set()
        clash = (xs & ys) | (xs & zs) | (ys & zs)
        if clash:
            msg = f"x, y and given must not share nodes; they share {self._sorted(clash)}"
            raise ValueError(msg)
        keep = xs | ys | zs
        keep |= h.reach(keep, self._parents)
        return not h.joined(self.moral_graph(keep), xs, ys, zs)

    def local_independences(self) -> list[tuple[Node, list[Node], list[Node]]]:
        """The local Markov property: each node is independent of its non-descendants (other
        than its parents) given its parents.

        Returns
        -------
        list of (node, list of nodes, list of nodes)
            ``(node, others, parents)``, for the nodes that have such others, in node order
            (``others`` in node order).

        Examples
        --------
        >>> DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")]).local_independences()
        [('a', ['b'], []), ('b', ['a'], []), ('d', ['a', 'b'], ['c'])]
        """
        return h.local_statements(self._nodes, self._parents, self._children)

    def independences(self, max_given: int | None = None) -> list[tuple[Node, Node, tuple]]:
        """Every statement ``x ⊥ y | Z`` the DAG implies for two nodes ``x`` before ``y`` and a
        set ``Z`` of other nodes with at most ``max_given`` members. There are ``O(n^2 2^n)``
        candidates: keep ``max_given`` small on networks of more than about 15 nodes.

        Parameters
        ----------
        max_given : int, optional
            The most nodes in ``Z``, ``>= 0``; None (the default) for all sizes.

        Returns
        -------
        list of (node, node, tuple of nodes)
            ``(x, y, Z)``, ``x`` before ``y`` and ``Z`` in node order; by pair, then by the
            size of ``Z``.

        Examples
        --------
        >>> DAG(edges=[("a", "c"), ("b", "c"), ("c", "d")]).independences(max_given=1)
        [('a', 'b', ()), ('a', 'd', ('c',)), ('b', 'd', ('c',))]
        """
        check_count("max_given", max_given, none_ok=True)
        return h.implied(self._nodes, self.d_separated, max_given)

    # ------------------------------------------------------------------ networkx
    def to_networkx(self):
        """A ``networkx.DiGraph`` with the same nodes (in order) and edges.

        Returns
        -------
        networkx.DiGraph

        Examples
        --------
        >>> g = DAG(edges=[("a", "c"), ("b", "c")]).to_networkx()
        >>> list(g.nodes), list(g.edges)
        (['a', 'c', 'b'], [('a', 'c'), ('b', 'c')])
        """
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self._nodes)
        g.add_edges_from(self._edges)
        return g

    @classmethod
    def from_networkx(cls, graph) -> DAG:
        """The DAG of a ``networkx.DiGraph``, its node order kept.

        Parameters
        ----------
        graph : networkx.DiGraph
            A directed graph without cycles.

        Returns
        -------
        DAG

        Raises
        ------
        TypeError
            For an undirected graph.
        ValueError
            For a cycle or a self-loop (as the constructor).

        Examples
        --------
        >>> import networkx as nx
        >>> DAG.from_networkx(nx.DiGraph([("a", "b"), ("b", "c")])).edges
        (('a', 'b'), ('b', 'c'))
        """
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
    return h.pairs_of(edges, what, DAG)


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
    return h.structure_dag(structure, nodes, what, DAG)


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
    return not h.ball_reaches(dag._parents, dag._children, xs, ys, zs)


def structural_hamming_distance(learned: DAG, true: DAG) -> int:
    """The structural Hamming distance (SHD) of two DAGs or CPDAGs over the same nodes: the
    number of node pairs whose edge differs, missing, extra, the other way round or (between
    partially directed graphs) directed in one and undirected in the other; each pair counts 1.

    Parameters
    ----------
    learned, true : DAG, PDAG, or list of (parent, child) pairs
        The two graphs (:func:`as_dag`; a :class:`~bayeskit.graphs.PDAG` as it is).

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
    return h.hamming_distance(learned, true, DAG)
