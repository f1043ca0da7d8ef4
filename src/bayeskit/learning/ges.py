"""Greedy equivalence search, GES (Chickering 2002, *Optimal structure identification with
greedy search*, JMLR 3; Meek 1997 for the two phases): a climb over equivalence classes
(CPDAGs, :mod:`bayeskit.graphs.pdag`) instead of DAGs, for a decomposable score that is the
same for every DAG of a class (BIC, AIC, LL, BDeu, BGe, the linear-Gaussian scores).

1. **Forward phase.** From the empty graph, repeatedly apply the best ``Insert(x, y, T)``:
   ``x`` and ``y`` not adjacent, ``T`` a set of ``y``'s undirected neighbours not adjacent to
   ``x``. With ``NA`` the undirected neighbours of ``y`` adjacent to ``x`` and ``Pa`` the
   parents of ``y``, the operator is valid when ``NA | T`` is a clique and every
   semi-directed path from ``y`` to ``x`` meets ``NA | T``; it adds ``x -> y``, directs
   ``t - y`` as ``t -> y`` for ``t`` in ``T``, and its gain is the change of ``y``'s family,
   ``s(y | NA | T | Pa | {x}) - s(y | NA | T | Pa)`` (Chickering's Theorem 15). Stop when no
   valid insertion raises the score.
2. **Backward phase.** Then the best ``Delete(x, y, H)``: ``x - y`` or ``x -> y``, ``H`` a set
   of ``NA`` such that ``NA - H`` is a clique; it removes the edge, directs ``y - h`` as
   ``y -> h`` and ``x - h`` as ``x -> h`` for ``h`` in ``H``, and gains
   ``s(y | (NA - H) | Pa - {x}) - s(y | (NA - H) | Pa | {x})`` (Theorem 17).

After each operator the graph is completed again: a DAG of the new class (Dor and Tarsi's
extension, :meth:`PDAG.to_dag <bayeskit.graphs.PDAG.to_dag>`), then its CPDAG
(:func:`~bayeskit.graphs.cpdag`). With a score-equivalent, consistent score (BIC, BDeu) and
data from a distribution faithful to a DAG, the two phases end at that DAG's class as the rows
grow (Chickering's Lemmas 9 and 10): unlike a climb over DAGs, GES does not get stuck among
the DAGs of one class or at an orientation that more data cannot undo.

Each step scores every operator's family (kept, as the hill climb keeps them; the families of
one node that differ by one parent are scored together), takes them in decreasing gain and
applies the first valid one; gains within the climb's tolerance of each other are ties, which
go to the first operator in the order ``y``, then ``x``, then the sets in the order their
members' positions give. ``max_parents`` skips the operators that would give ``y`` more
parents. K2 is not score-equivalent: GES runs with it, without the guarantee.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import closing
from typing import Any

import numpy as np

from bayeskit._progress import iterations_adapter, reports_progress
from bayeskit.data.validation import check_count
from bayeskit.graphs.dag import DAG
from bayeskit.graphs.pdag import PDAG, cpdag
from bayeskit.learning._climb import _tolerance
from bayeskit.learning.clg_scores import CLGScores
from bayeskit.learning.constraint import forwards_to
from bayeskit.learning.data_scorers import (
    MAX_DISTINCT_ROWS,
    check_score_settings,
    family_scorer,
)

__all__ = ["check_ges_options", "equivalence_search", "ges_dag", "learn_ges"]


@reports_progress("greedy equivalence search", lambda a: iterations_adapter(None, "score"))
def learn_ges(
    data: Any,
    score: str = "bic",
    *,
    max_parents: int | None = None,
    max_iter: int = 10_000,
    ess: float = 1.0,
    states: Any = None,
    sample_weight: Any = None,
    progress: Callable[[int, float], Any] | None = None,
    max_distinct_rows: int | None = MAX_DISTINCT_ROWS,
) -> PDAG:
    """The equivalence class of highest score greedy equivalence search finds (the module
    docstring describes it).

    Parameters
    ----------
    data : DataFrame, or chunks
        Complete data, one column per node, all discrete or all continuous (a node's class
        cannot forbid a continuous parent of a discrete node); data in chunks as
        :func:`~bayeskit.learning.hill_climb` reads it.
    score : {"bic", "aic", "bdeu", "ll", "k2", "bge"}, default="bic"
        As :func:`~bayeskit.learning.hill_climb`; K2 is not score-equivalent (GES runs
        with it, without its guarantee).
    max_parents : int, optional
        The most parents an operator may give a node.
    max_iter : int, default=10,000
        The most operators of each phase.
    ess, states, sample_weight, progress, max_distinct_rows :
        As :func:`~bayeskit.learning.hill_climb` (``progress(steps, score)`` after each
        operator).

    Returns
    -------
    PDAG
        The CPDAG of the class found, over ``data``'s columns in their order;
        :meth:`~bayeskit.graphs.PDAG.to_dag` gives a DAG of it (:func:`ges_dag`).

    Raises
    ------
    ValueError
        An unknown score or a setting out of its range; data with both discrete and
        continuous columns; data that cannot be encoded (as
        :func:`~bayeskit.networks.fit_parameters`).

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.integers(0, 2, 3000), rng.integers(0, 2, 3000)
    >>> c = (a | b) ^ (rng.random(3000) < 0.1)
    >>> d = c ^ (rng.random(3000) < 0.1)
    >>> g = learn_ges(pd.DataFrame({"a": a, "b": b, "c": c, "d": d}))
    >>> g.directed
    (('a', 'c'), ('b', 'c'), ('c', 'd'))
    """
    check_ges_options(score, {"max_parents": max_parents, "max_iter": max_iter, "ess": ess,
                              "max_distinct_rows": max_distinct_rows})  # fmt: skip
    scorer, nodes = family_scorer(data, score, ess, states, sample_weight, max_distinct_rows)
    with closing(scorer):
        if isinstance(scorer, CLGScores):
            msg = ("greedy equivalence search takes data whose columns are all discrete or all "
                   "continuous; for both kinds use the hill climb, which keeps continuous "
                   "parents away from discrete nodes")  # fmt: skip
            raise ValueError(msg)
        return equivalence_search(scorer, max_parents, max_iter, progress).pdag(nodes)


def ges_dag(data: Any, score: str = "bic", **options: Any) -> DAG:
    """A DAG of the class :func:`learn_ges` finds (its options), for the learners' registry:
    every DAG of the class has the same score.

    Parameters
    ----------
    data : DataFrame or data in chunks
    score : str, default="bic"
    **options
        :func:`learn_ges`'s.

    Returns
    -------
    DAG

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 2000)
    >>> b = a ^ (rng.random(2000) < 0.1)
    >>> ges_dag(pd.DataFrame({"a": a, "b": b})).edges
    (('a', 'b'),)
    """
    return learn_ges(data, score, **options).to_dag()


forwards_to(ges_dag, learn_ges)


def check_ges_options(score: Any, options: Any) -> None:
    """:func:`learn_ges`'s score and option values checked without the data: ValueError naming
    a setting and its rule.

    Parameters
    ----------
    score : str
    options : mapping str -> object

    Raises
    ------
    ValueError

    Examples
    --------
    >>> check_ges_options("bic", {"max_parents": 3})
    >>> check_ges_options("bic", {"max_iter": 0})
    Traceback (most recent call last):
    ...
    ValueError: max_iter must be an integer >= 1, got 0
    """
    check_score_settings(score, options.get("ess", 1.0),
                         options.get("max_distinct_rows", MAX_DISTINCT_ROWS))  # fmt: skip
    check_count("max_parents", options.get("max_parents"), none_ok=True)
    check_count("max_iter", options.get("max_iter", 10_000), low=1)


def equivalence_search(scorer: Any, max_parents: int | None = None, max_iter: int = 10_000,
                       progress: Any = None) -> _Equivalence:  # fmt: skip
    """Both phases of GES on a family scorer (:class:`~bayeskit.learning._scorer.Scorer`): the
    class found, whose :meth:`_Equivalence.parents` are a DAG of it (what the hill climb
    starts from, ``start="ges"``)."""
    search = _Equivalence(scorer, max_parents, progress)
    search.run(forward=True, max_iter=max_iter)
    search.run(forward=False, max_iter=max_iter)
    return search


class _Equivalence:
    """The CPDAG being searched: ``arc[u, v]`` for ``u -> v``, ``line`` (symmetric) for
    ``u - v``, and the score of the class."""

    def __init__(self, scorer: Any, max_parents: int | None, progress: Any):
        n = scorer.n_nodes
        self.scorer, self.max_parents, self.progress = scorer, max_parents, progress
        self.arc = np.zeros((n, n), dtype=bool)
        self.line = np.zeros((n, n), dtype=bool)
        empty: frozenset[int] = frozenset()
        scorer.prefetch([(v, empty, True) for v in range(n)])
        self.total = float(sum(scorer(v, empty) for v in range(n)))
        self.steps = 0

    def run(self, forward: bool, max_iter: int) -> None:
        """One phase: its best valid operator while one raises the score."""
        kept: dict = {}  # node -> (its local structure, its operators, their gains)
        for _ in range(max_iter):
            ops, gains = self._operators(forward, kept)
            chosen = self._choose(ops, gains, forward)
            if chosen is None:
                return
            x, y, subset, _ = ops[chosen]
            (self._insert if forward else self._delete)(x, y, subset)
            self.total += float(gains[chosen])
            self.steps += 1
            if self.progress is not None:
                self.progress(self.steps, self.total)

    def _operators(self, forward: bool, kept: dict) -> tuple[list, np.ndarray]:
        """Every operator of the phase and its gain, node by node. A node's operators and
        gains depend on its parents, its undirected neighbours and what these are adjacent to
        alone, so they are kept while those stay as they were (most nodes, after a step)."""
        adj = self.arc | self.arc.T | self.line
        fresh: dict[int, tuple] = {}
        for y in range(len(adj)):
            parents, neighbours = self._parents(y), self._neighbours(y)
            key = (parents.tobytes(), neighbours.tobytes(), adj[y].tobytes(),
                   adj[:, neighbours].tobytes())  # fmt: skip
            if y not in kept or kept[y][0] != key:
                make = self._inserts if forward else self._deletes
                fresh[y] = (key, make(adj, y, set(parents.tolist()), neighbours))
        needs = dict.fromkeys((y, s) for _, ops in fresh.values() for _, y, _, s in ops)
        self.scorer.prefetch([(y, s, True) for y, s in needs])
        for y, (key, ops) in fresh.items():
            gains = [self._gain(x, y, s, forward) for x, y, _, s in ops]
            kept[y] = (key, ops, gains)
        ops = [op for y in range(len(adj)) for op in kept[y][1]]
        return ops, np.array([g for y in range(len(adj)) for g in kept[y][2]])

    def _gain(self, x: int, y: int, s: frozenset, forward: bool) -> float:
        """``s(y | s | {x}) - s(y | s)``, or its negative backwards."""
        gain = float(self.scorer.extensions(y, s)[x] - self.scorer(y, s))
        return gain if forward else -gain

    def _choose(self, ops: list, gains: np.ndarray, forward: bool) -> int | None:
        """The first operator in order among the valid ones of largest gain (within the
        tolerance), if it raises the score."""
        tol = _tolerance(self.total)
        if not len(ops):
            return None
        for at in np.argsort(-gains, kind="stable"):
            if gains[at] <= tol:
                return None
            if not forward or self._valid_insert(ops[at]):
                break
        else:
            return None
        tied = np.flatnonzero(gains >= gains[at] - tol)
        return int(next(i for i in tied if i == at or not forward or self._valid_insert(ops[i])))

    def _neighbours(self, y: int) -> np.ndarray:
        return np.flatnonzero(self.line[y])

    def _parents(self, y: int) -> np.ndarray:
        return np.flatnonzero(self.arc[:, y])

    def _room(self, size: int) -> bool:
        return self.max_parents is None or size <= self.max_parents

    def _inserts(self, adj: np.ndarray, y: int, parents: set, neighbours: np.ndarray) -> list:
        """Every ``Insert(x, y, T)`` whose ``NA | T`` is a clique (the local condition), as
        ``(x, y, T, the family's parents without x)``."""
        ops = []
        for x in np.flatnonzero(~adj[y]).tolist():
            if x == y:
                continue
            na = neighbours[adj[x, neighbours]].tolist()
            if not _clique(adj, na):
                continue
            for t in _cliques(adj, na, neighbours[~adj[x, neighbours]].tolist()):
                family = frozenset(parents.union(na, t))
                if self._room(len(family) + 1):
                    ops.append((x, y, t, family))
        return ops

    def _deletes(self, adj: np.ndarray, y: int, parents: set, neighbours: np.ndarray) -> list:
        """Every ``Delete(x, y, H)`` (valid when ``NA - H`` is a clique), as ``(x, y, H, the
        family's parents without x)``."""
        ops = []
        for x in np.flatnonzero(self.arc[:, y] | self.line[y]).tolist():
            na = [int(z) for z in neighbours if z != x and adj[x, z]]
            for h in _subsets(na):
                rest = [z for z in na if z not in h]
                if _clique(adj, rest):
                    ops.append((x, y, h, frozenset(parents.union(rest) - {x})))
        return ops

    def _valid_insert(self, op: tuple) -> bool:
        """The global condition of ``Insert(x, y, T)``: every semi-directed path from ``y``
        to ``x`` meets ``NA | T``, the operator's family without ``y``'s parents."""
        x, y, _, family = op
        seen = np.zeros(len(self.arc), dtype=bool)
        seen[list(family - set(self._parents(y).tolist()))] = True
        seen[y] = True
        frontier = np.zeros_like(seen)
        frontier[y] = True
        step = self.arc | self.line
        while frontier.any():  # breadth first, a level at a time
            frontier = step[frontier].any(axis=0) & ~seen
            if frontier[x]:
                return False
            seen |= frontier
        return True

    def _insert(self, x: int, y: int, t: tuple) -> None:
        self.arc[x, y] = True
        for z in t:
            self.line[z, y] = self.line[y, z] = False
            self.arc[z, y] = True
        self._complete()

    def _delete(self, x: int, y: int, h: tuple) -> None:
        self.arc[x, y] = self.arc[y, x] = self.line[x, y] = self.line[y, x] = False
        for z in h:
            self.line[y, z] = self.line[z, y] = False
            self.arc[y, z] = True
            if self.line[x, z]:
                self.line[x, z] = self.line[z, x] = False
                self.arc[x, z] = True
        self._complete()

    def _complete(self) -> None:
        """The CPDAG of the class the changed PDAG stands for (a DAG of it, then its CPDAG)."""
        n = len(self.arc)
        arcs = list(zip(*np.nonzero(self.arc), strict=True))
        lines = [(u, v) for u, v in zip(*np.nonzero(np.triu(self.line)), strict=True)]
        dag = PDAG(range(n), [(int(u), int(v)) for u, v in arcs],
                   [(int(u), int(v)) for u, v in lines]).to_dag()  # fmt: skip
        completed = cpdag(dag)
        self.arc[:] = False
        self.line[:] = False
        directed = np.array(completed.directed, dtype=np.int64).reshape(-1, 2)
        undirected = np.array(completed.undirected, dtype=np.int64).reshape(-1, 2)
        self.arc[directed[:, 0], directed[:, 1]] = True
        u, v = undirected[:, 0], undirected[:, 1]
        self.line[u, v] = self.line[v, u] = True

    def parents(self) -> list[set[int]]:
        """Each node's parents in a DAG of the class (Dor and Tarsi's extension)."""
        n = len(self.arc)
        dag = self.pdag(list(range(n))).to_dag()
        at = {node: i for i, node in enumerate(dag.nodes)}
        return [{at[u] for u in dag.parents(v)} for v in range(n)]

    def pdag(self, nodes: list) -> PDAG:
        """The class found, over ``nodes``."""
        arcs = [(nodes[u], nodes[v]) for u, v in zip(*np.nonzero(self.arc), strict=True)]
        lines = [(nodes[u], nodes[v]) for u, v in zip(*np.nonzero(np.triu(self.line)), strict=True)]
        return PDAG(nodes, arcs, lines)


def _clique(adj: np.ndarray, members: list[int]) -> bool:
    """Whether ``members`` are pairwise adjacent."""
    k = len(members)
    return k < 2 or int(adj[np.ix_(members, members)].sum()) == k * (k - 1)


def _cliques(adj: np.ndarray, base: list[int], candidates: list[int]) -> list[tuple]:
    """Every subset ``T`` of ``candidates`` (in order) with ``base | T`` a clique, ``base``
    being one: grown a member at a time, since no superset of a non-clique is one."""
    out: list[tuple] = [()]
    if not candidates:
        return out
    fits = [c for c in candidates if all(adj[c, b] for b in base)]

    def grow(chosen: tuple, start: int) -> None:
        for i in range(start, len(fits)):
            c = fits[i]
            if all(adj[c, t] for t in chosen):
                out.append((*chosen, c))
                grow((*chosen, c), i + 1)

    grow((), 0)
    return out


def _subsets(members: Iterable[int]) -> list[tuple]:
    """Every subset of ``members``, the smaller first."""
    from itertools import combinations

    members = list(members)
    return [s for k in range(len(members) + 1) for s in combinations(members, k)]
