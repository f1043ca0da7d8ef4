"""Exact inference with a junction tree: compile once, then answer many queries fast.

Compiling (:class:`JunctionTree`) moralises the network, triangulates it by greedy elimination
(the orders of :mod:`bayeskit.inference.elimination`), keeps the maximal elimination cliques, joins
them into a tree of largest separators (Kruskal; a network in several pieces gives a forest,
joined by empty separators), and multiplies each CPT into the smallest clique that holds its
family. The potentials, separators and each clique's cell-to-separator maps are laid out in flat
arrays once.

Compiling also computes the *prior* messages, one per direction of each edge, by a collect and
a distribute pass without evidence: what the part of the tree beyond an edge says when nothing
in it is observed.

A query is then one compiled pass per evidence row (:mod:`bayeskit.inference._jt_kernels`) over
the sub-tree that joins a clique of the query variable (the root), the home cliques of the
row's observed nodes and, when several variables are asked for, theirs; the rest of the tree
sends its prior messages. Evidence zeroes cells of the potentials' copy, messages are collected
towards the root (and distributed back when several variables are asked for, or
:meth:`JunctionTree.calibrate` for all of them), and ``P(e)`` comes out of the root's total.
Evidence is data, not structure, so changing it never recompiles; a batch of rows, each with its
own evidence and missing values (unobserved), runs in one call, threads splitting the rows.

Numbers: messages, and cliques whose largest cell becomes tiny, are divided by their largest
entry (the logs kept), so ``P(e)`` of hundreds of observed nodes is exact in log space. What
this cannot keep is a state whose probability falls below about 1e-308 *relative to the most
probable state* inside a partial product, even when later evidence would bring it back (140
children pulling a root hard one way, then hard the other): it is lost as 0. Posteriors that
extreme are rare outside constructed cases; computing in logs would avoid it at several times
the cost per cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bayeskit.factors.factor import Factor, Marginals
from bayeskit.factors.limits import DEFAULT_MAX_CELLS, table_cells, too_large
from bayeskit.graphs.triangulation import clique_tree
from bayeskit.inference._jt_messages import post_order, prior_messages, row_cost
from bayeskit.inference.elimination import ORDERS, VariableElimination
from bayeskit.inference.evidence import EvidenceChecker, zero_evidence

if TYPE_CHECKING:
    from bayeskit.networks.network import BayesianNetwork

__all__ = ["JunctionTree"]


class JunctionTree:
    """A compiled junction tree of a discrete Bayesian network.

    Parameters
    ----------
    network : BayesianNetwork
    order : {"auto", "min-fill", "weighted-min-fill"}, default="auto"
        The triangulation's elimination heuristic; ``"auto"`` triangulates with both and keeps
        the one of fewer cells (neither is always better: of the 24 bnlearn networks, weighted
        min-fill halves munin1's and munin's cells, min-fill needs half as many on mildew).
    max_cells : int, default=2**27
        The most cells all clique potentials together may have; a larger network raises
        :class:`~bayeskit.networks.InferenceTooLarge` before anything is allocated.

    Attributes
    ----------
    cliques : list of tuple
        Each clique's nodes.
    edges : list of (int, int)
        The tree's edges, as pairs of clique indices.
    n_cells : int
        Cells of all the clique potentials.

    Examples
    --------
    >>> from bayeskit.networks import DAG, BayesianNetwork
    >>> yn = ["yes", "no"]
    >>> net = BayesianNetwork(DAG(edges=[("rain", "wet"), ("sprinkler", "wet")]), {
    ...     "rain": [0.2, 0.8], "sprinkler": [0.1, 0.9],
    ...     "wet": [[[0.99, 0.01], [0.9, 0.1]], [[0.8, 0.2], [0.05, 0.95]]]},
    ...     states={"rain": yn, "sprinkler": yn, "wet": yn})
    >>> jt = JunctionTree(net)
    >>> jt.query("rain", {"wet": "yes"}).values.round(4).tolist()
    [0.6451, 0.3549]
    >>> marginals = jt.calibrate({"wet": "yes"})
    >>> marginals["sprinkler"].values.round(4).tolist()
    [0.2974, 0.7026]
    """

    def __init__(
        self,
        network: BayesianNetwork,
        order: str = "auto",
        max_cells: int = DEFAULT_MAX_CELLS,
    ):
        if order not in (*ORDERS, "auto"):
            msg = f"order must be one of {(*ORDERS, 'auto')}, got {order!r}"
            raise ValueError(msg)
        # the input checks (network, max_cells, queries, evidence) are variable elimination's
        self._ve = VariableElimination(
            network, order="min-fill" if order == "auto" else order, max_cells=max_cells
        )
        self.network, self.order, self.max_cells = network, order, self._ve.max_cells
        self._checks = EvidenceChecker(network)
        self._nodes = network.nodes
        self._pos = self._checks.positions
        self._card = np.array([network.cardinality(n) for n in self._nodes], dtype=np.int64)
        self.cliques, self.edges = self._triangulate()
        self._layout()

    # ------------------------------------------------------------------ compiling
    def _triangulate(self) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
        """The maximal cliques and tree edges of the triangulation by ``order`` (``"auto"``:
        both heuristics, the one of fewer cells)."""
        orders = ORDERS if self.order == "auto" else (self.order,)
        found, need = [], 0
        for order in orders:
            tree, total = self._eliminate_all(order)
            if tree is not None:
                found.append((total, tree))
            need = total if not need else min(need, total)
        if not found:
            what = f"the junction tree of this network of {len(self._nodes):,} nodes"
            way_out = "raise max_cells, or query by variable elimination"
            raise too_large(what, need, self.max_cells, way_out, "clique potentials of over")
        return min(found, key=lambda f: f[0])[1]

    def _eliminate_all(self, order: str):
        """The clique tree of the moral graph eliminated by ``order``
        (:func:`~bayeskit.graphs.triangulation.clique_tree`): ``((cliques, edges), cells)``, or
        ``(None, cells)`` beyond ``max_cells``."""
        dag, pos = self.network.dag, self._pos
        adj: dict[int, set[int]] = {i: set() for i in range(len(self._nodes))}
        for node in self._nodes:
            family = [pos[p] for p in dag.parents(node)] + [pos[node]]
            for a in family:
                adj[a].update(b for b in family if b != a)
        return clique_tree(adj, self._card, order, self.max_cells)

    def _layout(self) -> None:
        card, cliques = self._card, self.cliques
        sizes = [table_cells(card[list(c)]) for c in cliques]
        self.n_cells = int(sum(sizes))
        self._pot_off = np.zeros(len(cliques) + 1, dtype=np.int64)
        np.cumsum(sizes, out=self._pot_off[1:])
        # each CPT goes into the smallest clique holding its family (the first among equals)
        self._holding: dict[int, list[int]] = {v: [] for v in range(len(self._nodes))}
        for k, clique in enumerate(cliques):
            for v in clique:
                self._holding[v].append(k)
        sets = [frozenset(c) for c in cliques]
        self._family_clique = []
        for v in range(len(self._nodes)):
            family = set(self._family(v))
            c = min((k for k in self._holding[v] if family <= sets[k]),
                    key=lambda k: (sizes[k], k))  # fmt: skip
            self._family_clique.append(c)
        self._pots = self._potentials([self.network.cpt(n) for n in self._nodes])
        # separators and each side's cell -> separator cell map
        seps = [tuple(sorted(set(cliques[a]) & set(cliques[b]))) for a, b in self.edges]
        sep_sizes = [table_cells(card[list(s)]) for s in seps]
        self._sep_off = np.zeros(len(seps) + 1, dtype=np.int64)
        np.cumsum(sep_sizes, out=self._sep_off[1:])
        projs = []
        for (a, b), sep in zip(self.edges, seps, strict=True):
            projs += [self._projection(cliques[a], sep), self._projection(cliques[b], sep)]
        self._proj_off = np.zeros(len(projs) + 1, dtype=np.int64)
        np.cumsum([len(p) for p in projs], out=self._proj_off[1:])
        dtype = np.result_type(*projs) if projs else np.int64
        self._proj = (
            np.concatenate(projs).astype(dtype, copy=False) if projs else np.zeros(0, dtype)
        )
        # the collect order towards a root is worked out when a query first needs it
        self._neighbours: dict[int, list[tuple[int, int]]] = {k: [] for k in range(len(cliques))}
        for e, (a, b) in enumerate(self.edges):
            self._neighbours[a].append((b, 2 * e + 1))  # from b to a: b is side 1
            self._neighbours[b].append((a, 2 * e))
        self._orders: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._prior, self._prior_log = prior_messages(self)
        # cells a row touches in a clique it needs: a copy, a pass per message in, one out
        self._touch = [size * (2 + len(self._neighbours[k])) for k, size in enumerate(sizes)]
        self._touch_all = float(sum(self._touch))
        self._up: list[int] | None = None  # each clique's neighbour towards clique 0
        self._depth: list[int] = []
        # each node's home clique (the smallest holding it) and its stride there
        self._home = np.zeros(len(self._nodes), dtype=np.int64)
        self._stride = np.zeros(len(self._nodes), dtype=np.int64)
        for v in range(len(self._nodes)):
            c = min(self._holding[v], key=lambda k: (sizes[k], k))
            self._home[v] = c
            self._stride[v] = self._stride_in(cliques[c], v)

    def _family(self, v: int) -> list[int]:
        return [self._pos[p] for p in self.network.dag.parents(self._nodes[v])] + [v]

    def _potentials(self, tables: Sequence[np.ndarray]) -> np.ndarray:
        """The clique potentials for these CPTs (one per node, in node order): each multiplied
        into its clique in place, its axes broadcast to the clique's."""
        card = self._card
        pots = np.ones(self.n_cells)
        for v, table in enumerate(tables):
            family = self._family(v)
            c = self._family_clique[v]
            clique = self.cliques[c]
            table = np.asarray(table, dtype=np.float64)
            order = sorted(range(len(family)), key=lambda a: clique.index(family[a]))
            shape = [1] * len(clique)
            for a in order:
                shape[clique.index(family[a])] = table.shape[a]
            view = pots[self._pot_off[c] : self._pot_off[c + 1]].reshape(card[list(clique)])
            view *= np.transpose(table, order).reshape(shape)
        return pots

    def expected_family_counts(
        self,
        codes: np.ndarray,
        weights: np.ndarray | None = None,
        tables: Sequence[np.ndarray] | None = None,
    ) -> tuple[list[np.ndarray], np.ndarray]:
        """The E-step of EM: each node's expected family counts, ``sum_rows w P(parents, node |
        the row's evidence)``, shaped as its CPT, and each row's ``log P(e)``.

        A row of probability zero adds nothing (its ``log P(e)`` is ``-inf``).

        Parameters
        ----------
        codes : ndarray of int of shape (n_rows, n_nodes)
            A state index per node (columns in ``network.nodes`` order), -1 where not observed
            (a latent node is -1 everywhere).
        weights : ndarray of shape (n_rows,), optional
            Each row's weight; by default 1 each.
        tables : sequence of ndarray, optional
            CPTs to use instead of the network's (the current parameters; one per node, in
            node order, same shapes), so an EM loop reuses one compiled tree.

        Returns
        -------
        counts : list of ndarray
            Per node (node order), its expected family counts, shaped as its CPT (parents
            first, the node last).
        log_evidence : ndarray of shape (n_rows,)
            Each row's ``log P(e)``, natural log.

        Raises
        ------
        ValueError
            ``codes`` is not of shape ``(n_rows, n_nodes)``.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> jt = JunctionTree(example_network("cancer"))
        >>> codes = np.array([[0, 0, -1, 0, -1], [1, 1, 1, 1, 1]])  # -1: not observed
        >>> counts, log_evidence = jt.expected_family_counts(codes)
        >>> counts[3].round(3).tolist(), log_evidence.round(3)  # Xray given Cancer
        ([[0.122, 0.0], [0.878, 1.0]], array([-2.819, -3.259]))
        """
        from bayeskit._compiled import planned_threads, row_blocks, run_blocks
        from bayeskit.inference._jt_kernels import expected_cells

        codes = np.ascontiguousarray(codes, dtype=np.int64)
        n = len(codes)
        if codes.ndim != 2 or codes.shape[1] != len(self._nodes):
            msg = f"codes must have shape (n_rows, {len(self._nodes)}), got {codes.shape}"
            raise ValueError(msg)
        w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
        pots = self._pots if tables is None else self._potentials(tables)
        log_pe = np.zeros(n)
        everyone = np.arange(len(self._nodes))
        tree = (pots, self._pot_off, self._sep_off, self._proj, self._proj_off, *self._order(0), 0)
        seen = (self._home[everyone], self._stride[everyone], self._card[everyone])
        # a fixed number of row blocks (not the threads'), their sums added in order, so the
        # counts do not depend on the threads; one block when eight copies of the potentials
        # would be large
        blocks = row_blocks(n, 8 if self.n_cells <= 1 << 22 else 1)
        threads = planned_threads(n * self.n_cells * 3)

        def block(b: slice) -> np.ndarray:
            return expected_cells(*tree, codes[b], w[b], *seen, log_pe[b])

        sums = run_blocks([partial(block, b) for b in blocks], threads)
        cells = np.zeros(self.n_cells)
        for part in sums:
            cells += part
        out = []
        for v in range(len(self._nodes)):
            c = self._family_clique[v]
            clique = self.cliques[c]
            table = cells[self._pot_off[c] : self._pot_off[c + 1]].reshape(self._card[list(clique)])
            family = self._family(v)
            gone = tuple(a for a, u in enumerate(clique) if u not in family)
            kept = [u for u in clique if u in family]
            summed = table.sum(axis=gone) if gone else table
            out.append(np.transpose(summed, [kept.index(u) for u in family]))
        return out, log_pe

    def _stride_in(self, clique: tuple[int, ...], v: int) -> int:
        at = clique.index(v)
        return table_cells(self._card[list(clique[at + 1 :])])

    def _projection(self, clique: tuple[int, ...], sep: tuple[int, ...]) -> np.ndarray:
        """For each cell of ``clique`` (C order), its cell in ``sep`` (int32 where it fits): the
        sum of each separator node's state times its stride there, broadcast over the clique."""
        dtype = np.int32 if table_cells(self._card[list(sep)]) < 2**31 else np.int64
        cards = [int(self._card[v]) for v in clique]
        out = np.zeros(cards, dtype=dtype)
        for axis, v in enumerate(clique):
            if v in sep:
                shape = [1] * len(clique)
                shape[axis] = cards[axis]
                states = np.arange(cards[axis], dtype=dtype).reshape(shape)
                out += states * self._stride_in(sep, v)
        return out.reshape(-1)

    def _row_cost(self, root: int, terminals) -> float:
        """About the cells a row's pass touches (see :func:`row_cost`)."""
        return row_cost(self, root, terminals)

    def _cost_all(self, distribute: bool) -> float:
        """About the cells a row's pass touches at most: the whole tree (twice, distributing)."""
        return self._touch_all * (1 + distribute)

    def _order(self, root: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The collect order towards ``root`` as the kernels read it (kept per root): towards
        clique 0, the edges off the path from ``root`` to clique 0 keep their order there, then
        the path's edges, turned round, from clique 0 down to ``root``."""
        if root not in self._orders:
            if root == 0 or not self.edges:
                edges = post_order(self._neighbours, root)
                first, second, third = (
                    np.array([e[k] for e in edges], dtype=np.int64) for k in range(3)
                )
                self._orders[root] = (first, second, third)
            else:
                frm, to, ids = self._order(0)
                up, _ = self._hung()
                path = [root]
                while up[path[-1]] != 0:
                    path.append(up[path[-1]])
                on_path = np.zeros(len(self.cliques), dtype=bool)
                on_path[path] = True
                at = np.empty(len(self.cliques), dtype=np.int64)
                at[frm] = np.arange(len(frm))
                down = at[path[::-1]]  # the path's edges, from clique 0 down to root
                keep = ~on_path[frm]
                self._orders[root] = (
                    np.concatenate([frm[keep], to[down]]),
                    np.concatenate([to[keep], frm[down]]),
                    np.concatenate([ids[keep], ids[down] ^ 1]),
                )
        return self._orders[root]

    def _hung(self) -> tuple[list[int], list[int]]:
        """The tree hung from clique 0: each clique's neighbour towards it and its depth."""
        if self._up is None:
            frm, to, _ = self._order(0)
            up = np.full(len(self.cliques), -1, dtype=np.int64)
            up[frm] = to
            depth = np.zeros(len(self.cliques), dtype=np.int64)
            for a in frm[::-1].tolist():  # parents before children
                depth[a] = depth[up[a]] + 1
            self._up, self._depth = up.tolist(), depth.tolist()
        return self._up, self._depth

    # ------------------------------------------------------------------ queries
    def query(self, variables: Any, evidence: Mapping[Any, Any] | None = None) -> Factor:
        """The posterior of a variable given ``evidence``; the joint posterior of several
        variables is computed by variable elimination.

        Parameters
        ----------
        variables : node or sequence of nodes
            The query variables, each named once and none observed in ``evidence``.
        evidence : mapping node -> state, optional
            The observed nodes' states, by name; None or empty for the prior.

        Returns
        -------
        Factor
            Normalised (its values sum to 1), over ``variables`` in the order named; it prints
            as a table, and ``to_pandas()`` labels it.

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network (a ``ValueError``).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> jt = JunctionTree(example_network("cancer"))
        >>> jt.query("Cancer", {"Xray": "positive"})
        Cancer  probability
        True       0.050288
        False      0.949712
        """
        targets = self._checks.nodes_of(variables, "variables")
        observed, codes = self._checks.evidence(evidence)
        if len(targets) > 1:
            return self._ve.query(variables, evidence)
        self._checks.apart(targets, observed)
        out, log_pe = self._run(targets, list(observed), codes[None, :], distribute=False)
        if not np.isfinite(log_pe[0]):
            raise zero_evidence(self._checks.evidence_dict(observed, codes))
        name = self._nodes[targets[0]]
        return Factor._trusted([name], out[0], {name: self.network.states(name)})

    def calibrate(self, evidence: Mapping[Any, Any] | None = None) -> Marginals:
        """Every unobserved node's posterior from one calibration (collect and distribute).

        Parameters
        ----------
        evidence : mapping node -> state, optional
            The observed nodes' states, by name; None or empty for the priors.

        Returns
        -------
        Marginals
            A dict node -> :class:`Factor`, every unobserved node in network order (empty when
            all are observed); it prints as tables, ``to_frame()`` gives one long frame.

        Raises
        ------
        ZeroProbabilityEvidence
            The evidence has probability zero under the network (a ``ValueError``), also when
            every node is observed.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> jt = JunctionTree(example_network("cancer"))
        >>> marginals = jt.calibrate({"Xray": "positive"})
        >>> list(marginals), marginals["Smoker"].values.round(3).tolist()
        (['Pollution', 'Smoker', 'Cancer', 'Dyspnoea'], [0.321, 0.679])
        """
        observed, codes = self._checks.evidence(evidence)
        targets = [v for v in range(len(self._nodes)) if v not in set(observed)]
        if not targets:  # every node observed: nothing to give, but the evidence is checked
            if not np.isfinite(self.probability_of_evidence(evidence or {}, log=True)):
                raise zero_evidence(self._checks.evidence_dict(observed, codes))
            return Marginals()
        out, log_pe = self._run(targets, list(observed), codes[None, :], distribute=True)
        if not np.isfinite(log_pe[0]):
            raise zero_evidence(self._checks.evidence_dict(observed, codes))
        result, at = Marginals(), 0
        for v in targets:
            name, k = self._nodes[v], int(self._card[v])
            result[name] = Factor._trusted(
                [name], out[0, at : at + k], {name: self.network.states(name)}
            )
            at += k
        return result

    def probability_of_evidence(self, evidence: Mapping[Any, Any], *, log: bool = False) -> float:
        """``P(e)``, the probability of the evidence (its log with ``log=True``).

        Parameters
        ----------
        evidence : mapping node -> state
            The observed nodes' states, by name; empty for ``P() = 1``.
        log : bool, default=False
            Return the natural log of ``P(e)``, exact also where ``P(e)`` underflows.

        Returns
        -------
        float
            ``P(e)`` (or its log); 0 (``-inf``) for impossible evidence, which this, unlike the
            queries, does not refuse.

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> jt = JunctionTree(example_network("cancer"))
        >>> round(jt.probability_of_evidence({"Xray": "positive"}), 4)
        0.2081
        """
        observed, codes = self._checks.evidence(evidence)
        if not observed:
            return 0.0 if log else 1.0
        _, log_pe = self._run([observed[0]], list(observed), codes[None, :], distribute=False)
        value = float(log_pe[0])
        return value if log else float(np.exp(value))

    def query_batch(
        self, variables: Any, evidence: pd.DataFrame, *, log_evidence: bool = False
    ) -> Any:
        """Each row's posterior of ``variables`` (each its own marginal) given that row's
        evidence. One compiled pass over all the rows, whatever their patterns of missing
        values.

        Parameters
        ----------
        variables : node or sequence of nodes
            The query variables, each named once, none a column of ``evidence``.
        evidence : DataFrame
            A row per evidence set, a column per observed node, values state names; a missing
            value leaves that node unobserved in that row.
        log_evidence : bool, default=False
            Also return each row's ``log P(e)``.

        Returns
        -------
        DataFrame or dict node -> DataFrame
            For one variable, a frame of a column per state; for several, a dict of such
            frames; rows in ``evidence``'s order and index.
        log_evidence : Series
            With ``log_evidence=True``: each row's natural log of ``P(e)``, named
            ``"log P(e)"`` (0 for a row that observes nothing).

        Raises
        ------
        ZeroProbabilityEvidence
            Some rows' evidence has probability zero under the network (a ``ValueError``):
            the message names the first rows, the error's ``rows`` holds the index labels of
            all of them (drop them and ask again; ``probability_of_evidence`` of a row, or
            ``log_evidence`` of the others, tells which are possible).

        Examples
        --------
        >>> from bayeskit.networks import example_network
        >>> jt = JunctionTree(example_network("cancer"))
        >>> rows = pd.DataFrame({"Xray": ["positive", "negative", None]})  # None: not observed
        >>> posterior, log_pe = jt.query_batch("Cancer", rows, log_evidence=True)
        >>> posterior.round(3)
        Cancer   True  False
        0       0.050  0.950
        1       0.001  0.999
        2       0.012  0.988
        >>> log_pe.round(3).tolist()
        [-1.57, -0.233, 0.0]
        """
        targets = self._checks.nodes_of(variables, "variables")
        codes, columns = self._checks.evidence_frame(evidence)
        self._checks.apart(targets, columns)
        out, log_pe = self._run(targets, columns, codes, distribute=len(targets) > 1)
        bad = np.flatnonzero(~np.isfinite(log_pe))
        if len(bad):
            row = codes[bad[0]]
            seen = np.flatnonzero(row >= 0)
            first = self._checks.evidence_dict(tuple(columns[j] for j in seen), row[seen])
            raise zero_evidence(first, evidence.index[bad].tolist(), len(codes))
        frames, at = {}, 0
        for v in targets:
            name, k = self._nodes[v], int(self._card[v])
            cols = pd.Index(self.network.states(name), name=name)
            frames[name] = pd.DataFrame(out[:, at : at + k], index=evidence.index, columns=cols)
            at += k
        result: Any = frames[self._nodes[targets[0]]] if len(targets) == 1 else frames
        if log_evidence:
            return result, pd.Series(log_pe, index=evidence.index, name="log P(e)")
        return result

    def _run(self, targets: Sequence[int], columns: Sequence[int], codes: np.ndarray,
             *, distribute: bool):  # fmt: skip
        from bayeskit._compiled import planned_threads, row_blocks, run_blocks
        from bayeskit.inference._jt_kernels import propagate

        codes = np.ascontiguousarray(codes, dtype=np.int64)
        root = int(self._home[targets[0]])
        if distribute:
            t_clique = self._home[list(targets)]
            t_stride = self._stride[list(targets)]
        else:
            t_clique = np.array([root], dtype=np.int64)
            t_stride = self._stride[list(targets)]
        t_card = self._card[list(targets)]
        t_out = np.zeros(len(targets), dtype=np.int64)
        np.cumsum(t_card[:-1], out=t_out[1:])
        cols = list(columns)
        out = np.zeros((len(codes), int(t_card.sum())))
        log_pe = np.zeros(len(codes))
        empty = np.zeros(0, dtype=np.int64)
        tree = (
            self._pots, self._pot_off, self._sep_off, self._proj, self._proj_off,
            *self._order(root), self._prior, self._prior_log, root, distribute,
        )  # fmt: skip
        seen = (
            self._home[cols] if cols else empty,
            self._stride[cols] if cols else empty,
            self._card[cols] if cols else empty,
            t_clique, t_stride, t_card, t_out,
        )  # fmt: skip
        threads = planned_threads(len(codes) * self.n_cells * 3)

        def block(b: slice) -> None:
            propagate(*tree, codes[b], *seen, out[b], log_pe[b])

        run_blocks([partial(block, b) for b in row_blocks(len(codes), threads)], threads)
        return out, log_pe
