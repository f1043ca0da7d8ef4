"""One greedy climb of :func:`~bayeskit.learning.search.hill_climb`: the graph being
climbed, with the gain of every add, delete and reverse move kept up to date, and the climb
itself (with its tabu list); the search's module docstring describes the moves and their order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np

from bayeskit.learning.scores import _FamilyScores

_GAIN_TOLERANCE = 1e-9  # a move must raise the score by more than this (relative to |score|)


def _tolerance(total: float) -> float:
    return _GAIN_TOLERANCE * max(1.0, abs(total))


_ADD, _DELETE, _REVERSE = 0, 1, 2


class _Climb:
    """A graph being climbed, with the gain of every move kept up to date.

    ``add[u, v]`` is what adding ``u`` to ``v``'s parents would change ``v``'s family score by,
    and ``delete[u, v]`` removing it; reversing ``u -> v`` gains ``delete[u, v] + add[v, u]``.
    A move changes one or two families, so only those nodes' columns are scored again (one
    batched pass each, :meth:`_FamilyScores.extensions`). Legality is worked out for all moves
    at once from the adjacency matrix and the transitive closure ``reach[a, b]`` (a directed path
    ``a -> b``), and the best move is the first maximum in the documented order: ``(u, v)`` in
    node order, then add, delete, reverse (``argmax`` over an ``(n, n, 3)`` array in C order).
    """

    def __init__(self, parents: list[set[int]], scorer: _FamilyScores, limits):
        self.scorer = scorer
        self.max_parents, black, white = limits
        n = len(parents)
        self.black = np.zeros((n, n), dtype=bool)
        self.white = np.zeros((n, n), dtype=bool)
        for u, v in black:
            self.black[u, v] = True
        for u, v in white:
            self.white[u, v] = True
        self.edges = np.zeros((n, n), dtype=bool)
        for v, ps in enumerate(parents):
            self.edges[list(ps), v] = True
        self.reach = self._closure()
        self.family = np.zeros(n)
        self.add = np.full((n, n), -np.inf)
        self.delete = np.full((n, n), -np.inf)
        self._gains: np.ndarray | None = None  # the last best()'s, for the look-ahead
        scorer.prefetch([need for v, ps in enumerate(parents) for need in self._needs(v, ps)])
        for v in range(n):
            self._rescore(v)

    @property
    def parents(self) -> list[set[int]]:
        return _parents_of(self.edges)

    @property
    def total(self) -> float:
        return float(self.family.sum())

    def _closure(self) -> np.ndarray:
        reach = self.edges.copy()
        for k in range(len(reach)):  # Warshall
            reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
        return reach

    def cyclic(self) -> bool:
        return bool(np.diag(self.reach).any())

    def _room(self, parents) -> bool:
        return self.max_parents is None or len(parents) < self.max_parents

    def _needs(self, v: int, parents) -> list[tuple[int, frozenset, bool]]:
        """The families rescoring ``v`` with ``parents`` asks for: its own, with every extension
        when it has room for one more parent, and each with one parent fewer."""
        parents = frozenset(parents)
        return [(v, parents, self._room(parents))] + [(v, parents - {u}, False) for u in parents]

    def _move_needs(self, kind: int, u: int, v: int) -> list[tuple[int, frozenset, bool]]:
        """The families rescoring after move ``(kind, u, v)`` asks for."""
        into_v = set(np.flatnonzero(self.edges[:, v]).tolist())
        if kind == _ADD:
            return self._needs(v, into_v | {u})
        needs = self._needs(v, into_v - {u})
        if kind == _REVERSE:
            needs += self._needs(u, set(np.flatnonzero(self.edges[:, u]).tolist()) | {v})
        return needs

    def _prefetch(self, kind: int, u: int, v: int) -> None:
        """For a scorer over data read in passes: when move ``(kind, u, v)`` needs a family not
        counted yet, count in the same pass the families the next ``scorer.lookahead`` best
        moves of the last :meth:`best` would need. A move changes one or two families, so the
        gains of moves into other nodes stay as they were, and the next step's move is most
        often among them: fewer passes, more families counted in each (see
        :mod:`bayeskit.learning.passes` for the depth). Which families are counted never
        changes the climb, only the passes."""
        needs = self._move_needs(kind, u, v)
        if all(self.scorer.has(*need) for need in needs):
            return
        depth = self.scorer.lookahead
        if self._gains is not None and depth > 0:
            order = np.argsort(-self._gains, axis=None, kind="stable")[: depth + 1]
            for at in order:
                if not np.isfinite(self._gains.flat[at]):
                    break
                b, a, what = np.unravel_index(at, self._gains.shape)
                if (int(what), int(b), int(a)) != (kind, u, v):
                    needs += self._move_needs(int(what), int(b), int(a))
        self.scorer.prefetch(needs)

    def _rescore(self, v: int) -> None:
        parents = frozenset(np.flatnonzero(self.edges[:, v]).tolist())
        now = self.scorer(v, parents)
        self.family[v] = now
        room = self._room(parents)
        self.add[:, v] = self.scorer.extensions(v, parents) - now if room else -np.inf
        self.delete[:, v] = -np.inf
        for u in parents:
            self.delete[u, v] = self.scorer(v, parents - {u}) - now

    def legal(self) -> np.ndarray:
        """``(n, n, 3)``: which moves ``(u, v, kind)`` keep the graph acyclic and obey the
        limits."""
        e, n = self.edges, len(self.edges)
        room = np.ones(n, dtype=bool)
        if self.max_parents is not None:
            room = e.sum(axis=0) < self.max_parents
        out = np.zeros((n, n, 3), dtype=bool)
        out[..., _ADD] = ~e & ~e.T & ~self.reach.T & ~self.black & room[None, :]
        np.fill_diagonal(out[..., _ADD], False)
        out[..., _DELETE] = e & ~self.white
        # reversing u -> v: no other path u -> ... -> v (through another parent of v)
        other_path = (self.reach.astype(np.float32) @ e.astype(np.float32)) > 0
        out[..., _REVERSE] = out[..., _DELETE] & ~self.black.T & ~other_path & room[:, None]
        return out

    def best(self, tabu) -> tuple[tuple[int, int, int] | None, float]:
        """The move of largest gain; gains within :func:`_tolerance` of the score of each other
        are ties (a score-equivalent pair such as ``u -> v`` and ``v -> u`` gains the same up to
        rounding), and a tie goes to the first move in the documented order."""
        gains = np.full(self.add.shape + (3,), -np.inf)
        gains[..., _ADD] = self.add
        gains[..., _DELETE] = self.delete
        gains[..., _REVERSE] = self.delete + self.add.T
        gains[~self.legal()] = -np.inf
        for kind, u, v in tabu:
            gains[u, v, kind] = -np.inf
        self._gains = gains
        top = float(gains.max())
        if not np.isfinite(top):
            return None, -np.inf
        at = int(np.argmax(gains >= top - _tolerance(self.total)))
        u, v, kind = np.unravel_index(at, gains.shape)
        return (int(kind), int(u), int(v)), float(gains.flat[at])

    def apply(self, kind: int, u: int, v: int) -> None:
        if self.scorer.lazy:
            self._prefetch(kind, u, v)
        self.move(kind, u, v)
        self._rescore(v)
        if kind == _REVERSE:
            self._rescore(u)

    def perturb(self, moves: Iterable[tuple[int, int, int]]) -> None:
        """Make ``moves`` (``(kind, u, v)``, each legal when made; ``moves`` may be a generator
        that picks each from :meth:`legal` after the last), then rescore the nodes they
        changed: the same state as :meth:`apply` one by one, since a node's scores depend on
        its parents alone, with one :meth:`~_FamilyScores.prefetch` for all of them (one pass
        over data read in passes)."""
        changed: set[int] = set()
        for kind, u, v in moves:
            self.move(kind, u, v)
            changed |= {v, u} if kind == _REVERSE else {v}
        parents = {w: np.flatnonzero(self.edges[:, w]).tolist() for w in changed}
        self.scorer.prefetch([need for w in sorted(changed) for need in self._needs(w, parents[w])])
        for w in sorted(changed):
            self._rescore(w)

    def move(self, kind: int, u: int, v: int) -> None:
        """Change the graph by move ``(kind, u, v)``, its scores left as they were."""
        self._gains = None
        if kind == _ADD:
            self.edges[u, v] = True
            into_u = self.reach[:, u].copy()
            into_u[u] = True
            from_v = self.reach[v].copy()
            from_v[v] = True
            self.reach |= into_u[:, None] & from_v[None, :]
        else:
            self.edges[u, v] = False
            if kind == _REVERSE:
                self.edges[v, u] = True
            self.reach = self._closure()


def _climb(g: _Climb, tabu_length: int, max_iter: int, tick):
    """One greedy climb from ``g`` (moved in place), with a tabu list when ``tabu_length > 0``:
    the best parents seen and their score."""
    best, best_total = g.edges.copy(), g.total  # the best graph's edges (parents at the end)
    current = best_total
    tabu: deque = deque(maxlen=max(tabu_length, 1))
    stale = 0
    for _ in range(max_iter):
        choice, gain = g.best(tabu if tabu_length else ())
        if choice is None:
            break
        improving = gain > _tolerance(current)
        if not improving and (not tabu_length or stale >= tabu_length):
            break
        kind, u, v = choice
        g.apply(kind, u, v)
        current = g.total
        tabu.append((kind, v, u) if kind == _REVERSE else (1 - kind, u, v))  # its undoing
        if current > best_total + _tolerance(best_total):
            best, best_total, stale = g.edges.copy(), current, 0
        else:
            stale += 1
        tick(current)
    return _parents_of(best), best_total


def _parents_of(edges: np.ndarray) -> list[set[int]]:
    """Each node's parents in the adjacency matrix ``edges`` (``edges[u, v]``: ``u -> v``)."""
    return [set(np.flatnonzero(edges[:, v]).tolist()) for v in range(len(edges))]
