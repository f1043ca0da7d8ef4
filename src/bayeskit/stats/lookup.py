"""Prediction as table look-up: log-probability tables of families, packed for one compiled pass.

:class:`FamilyTables` takes one or more *components* (structures), each a list of
:class:`LogFactor` (a child column, its parent columns, and a log table over
``(class, *parents, child)``), packs every table into one flat array laid out for the look-up
kernel, and adds ``log P(x | c)`` (or the log of the mean over components, as AODE does) to a
``(n_samples, n_classes)`` array. Classifiers and networks share it; it knows nothing of how the
tables were estimated.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bayeskit._compiled import planned_threads
from bayeskit.stats._lookup import (
    _loo_work,
    _nested_work,
    add_family_terms,
    add_gaussian_log_density,
    add_table_entries,
    component_terms,
    leave_one_out,
    log_normalise_rows,
    nested_leave_one_out,
)
from bayeskit.stats.families import FamilyCounts, sum_over_last_parent

__all__ = [
    "FamilyTables",
    "LogFactor",
    "add_gaussian_log_density",
    "leave_one_out_scores",
    "log_normalise_rows",
    "nested_leave_one_out_scores",
]


@dataclass(frozen=True)
class LogFactor:
    """One family's log table for look-up.

    Attributes
    ----------
    child : int
        The child's column in the code matrix.
    parents : tuple of int
        The parents' columns (the class is not among them: it is the table's first axis).
    log_table : ndarray of shape (n_classes, *n_parent_states, n_child_states)
    fallback : ndarray of shape (n_classes, n_child_states), optional
        The log table used in rows where a parent is missing (for example ``log P(x | c)``);
        without it such rows get no term from this family.
    """

    child: int
    parents: tuple[int, ...]
    log_table: np.ndarray
    fallback: np.ndarray | None = None


class FamilyTables:
    """Components of log factors, packed for :func:`add_family_terms`.

    Parameters
    ----------
    components : sequence of sequences of LogFactor
    n_classes : int
    base : ndarray of shape (n_components, n_classes), optional
        A log term each component adds (zero by default).
    gates : sequence of (columns, bool table) or None, optional
        Per component, the columns whose joint value decides whether the component takes part in
        a row, and a boolean table over their joint values (C order); None: always.
    fallback : int, default=-1
        A component used only in rows where no other gate is open.

    Examples
    --------
    >>> log_t = np.log(np.array([[[0.9, 0.1], [0.2, 0.8]], [[0.5, 0.5], [0.5, 0.5]]]))
    >>> tables = FamilyTables([[LogFactor(1, (0,), log_t)]], n_classes=2)
    >>> jll = np.zeros((2, 2))
    >>> np.exp(tables.add_to(jll, np.array([[0, 1], [1, 1]]))).round(2)
    array([[0.1, 0.5],
           [0.8, 0.5]])
    """

    def __init__(
        self,
        components: Sequence[Sequence[LogFactor]],
        n_classes: int,
        *,
        base: np.ndarray | None = None,
        gates: Sequence[tuple[Sequence[int], np.ndarray] | None] | None = None,
        fallback: int = -1,
    ):
        self.n_classes = int(n_classes)
        size = 0
        par_cols: list[int]
        child, fsize, offset, fb, par_ptr, par_cols, par_strides, comp_ptr = (
            [],
            [],
            [],
            [],
            [0],
            [],
            [],
            [0],
        )
        placed: list[tuple[np.ndarray, int]] = []  # (log table, where it starts)
        for comp in components:
            for factor in comp:
                t = factor.log_table
                offset.append(size)
                placed.append((t, size))
                size += t.size
                if factor.fallback is not None:
                    fb.append(size)
                    placed.append((factor.fallback, size))
                    size += factor.fallback.size
                else:
                    fb.append(-1)
                child.append(factor.child)
                fsize.append(t.shape[-1])
                par_cols.extend(factor.parents)
                par_strides.extend(_strides(t.shape[1:-1]))
                par_ptr.append(len(par_cols))
            comp_ptr.append(len(child))
        self.table = _pack(placed, size)
        n_comp = len(components)
        as64 = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
        self._fams = (
            as64(child),
            as64(fsize),
            as64(offset),
            as64(fb),
            as64(par_ptr),
            as64(par_cols),
            as64(par_strides),
            _reuse(par_ptr, par_cols, comp_ptr),
        )
        self._comp_ptr = as64(comp_ptr)
        self.base = (
            np.zeros((n_comp, self.n_classes))
            if base is None
            else np.ascontiguousarray(base, dtype=np.float64).reshape(n_comp, self.n_classes)
        )
        g_cols: list[int]
        g_ptr, g_cols, g_strides, g_off, g_flat = [0], [], [], [], []
        pos = 0
        for s in range(n_comp):
            g = None if gates is None else gates[s]
            if g is None:
                g_off.append(pos)
                g_flat.append(np.ones(1, dtype=np.uint8))
                pos += 1
            else:
                cols, open_ = g
                open_ = np.asarray(open_, dtype=bool)
                g_cols.extend(int(c) for c in cols)
                g_strides.extend(_strides(open_.shape))
                g_off.append(pos)
                g_flat.append(open_.ravel().astype(np.uint8))
                pos += open_.size
            g_ptr.append(len(g_cols))
        self._gates = (
            as64(g_ptr),
            as64(g_cols),
            as64(g_strides),
            as64(g_off),
            np.concatenate(g_flat) if g_flat else np.zeros(0, dtype=np.uint8),
        )
        self.fallback = int(fallback)
        # Naive Bayes (one component, no parents, children 0..d-1, no base) takes the kernel
        # written for it: on 1,000,000 x 50 codes it adds the entries in 0.08 s where the
        # general kernel, reading each family's parents and child column, takes 0.19 s.
        self._naive = (
            n_comp == 1
            and not par_cols
            and child == list(range(len(child)))
            and not any(f >= 0 for f in fb)
            and not self.base.any()
        )
        if self._naive:
            self._naive_table = self.table.reshape(-1, self.n_classes)
            self._naive_offsets = np.asarray(offset, dtype=np.int64) // self.n_classes

    @property
    def _structure(self) -> tuple:
        """What the look-up kernels take after the codes and the table."""
        return self._fams, self._comp_ptr, self.base

    def add_to(self, jll: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Add the log-likelihood of each row of ``codes`` to ``jll`` (in place, returned)."""
        if codes.shape[0] and self._naive and codes.shape[1] == len(self._naive_offsets):
            add_table_entries(
                jll, np.ascontiguousarray(codes), self._naive_table, self._naive_offsets
            )
        elif codes.shape[0]:
            codes = np.ascontiguousarray(codes)
            add_family_terms(jll, codes, self.table, *self._structure, self._gates, self.fallback)
        return jll

    @property
    def single(self) -> bool:
        """Whether the tables are one component of families, with no fallback component:
        every row's score is the sum of one cell per family (what :meth:`cells` lists)."""
        return len(self._comp_ptr) == 2 and self.fallback < 0

    def cells(self, codes: np.ndarray) -> np.ndarray:
        """Where each row of ``codes`` reads each family of a :attr:`single` component, class
        0's cell: class ``c`` reads ``table[cells[i, f] + c]``. A family a row reads nothing
        from (its child missing; or a parent missing and no fallback table) points at
        ``table.size``. The packed layout is ``(parent configuration, child, class)`` from the
        family's offset, its fallback ``(child, class)``, as the look-up kernels read it."""
        child, fsize, offset, fb, par_ptr, par_cols, par_strides, _ = self._fams
        n = codes.shape[0]
        out = np.full((n, len(child)), self.table.size, dtype=np.int64)
        for f in range(len(child)):
            x = codes[:, child[f]].astype(np.int64)
            config = np.zeros(n, dtype=np.int64)
            missing_parent = np.zeros(n, dtype=bool)
            for k in range(par_ptr[f], par_ptr[f + 1]):
                p = codes[:, par_cols[k]].astype(np.int64)
                missing_parent |= p < 0
                config += np.maximum(p, 0) * par_strides[k]
            at = offset[f] + (config * fsize[f] + x) * self.n_classes
            if fb[f] >= 0:
                at = np.where(missing_parent, fb[f] + x * self.n_classes, at)
                seen = x >= 0
            else:
                seen = (x >= 0) & ~missing_parent
            out[seen, f] = at[seen]
        return out

    def scaled(self, weights: np.ndarray, base: np.ndarray) -> FamilyTables:
        """A copy whose every cell is multiplied by its weight (``weights``, the shape of
        :attr:`table`) and whose components add ``base`` (``(n_classes,)``) to every row."""
        out = copy.copy(self)
        with np.errstate(invalid="ignore"):  # -inf times 1 stays -inf
            out.table = np.where(weights == 1.0, self.table, self.table * weights)
        out.base = self.base + np.asarray(base, dtype=np.float64)[None, :]
        out._naive = False  # the naive kernel adds no base
        return out

    def component_terms(self, codes: np.ndarray) -> np.ndarray:
        """Each component's log-likelihood of each row, shape ``(n_samples, n_components,
        n_classes)``, its base included (gates and the fallback rule are not applied)."""
        out = np.empty((codes.shape[0], self.base.shape[0], self.n_classes))
        if codes.shape[0]:
            component_terms(out, np.ascontiguousarray(codes), self.table, *self._structure)
        return out


def leave_one_out_scores(
    kept: FamilyTables,
    left: FamilyTables,
    codes: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray,
    prior_kept: np.ndarray,
    prior_left: np.ndarray,
) -> np.ndarray:
    """Each component's leave-one-out score, shape ``(3, n_components)``: row 0 the weight of
    the rows whose class it gives probability zero, row 1 ``sum_i w_i log P_{-i}(y_i | x_i)``
    over the others, row 2 the weight of the rows it classifies right (a row whose class ties
    with ``t - 1`` others for the highest probability counts ``1 / t``).
    Row ``i``'s own class is scored by ``left`` (tables estimated with row
    ``i`` taken out of its cells) and ``prior_left``, the other classes by ``kept`` and
    ``prior_kept``. ``kept`` and ``left`` must hold the same families (only their numbers
    differ)."""
    scores = np.zeros((3, kept.base.shape[0]))
    if codes.shape[0]:
        codes = np.ascontiguousarray(codes)
        y = np.ascontiguousarray(y, dtype=np.int64)
        w = np.ascontiguousarray(weights, dtype=np.float64)
        pk = np.ascontiguousarray(prior_kept, dtype=np.float64)
        pl = np.ascontiguousarray(prior_left, dtype=np.float64)
        args = (scores, codes, y, w, kept.table, left.table, pk, pl, kept._fams, kept._comp_ptr)
        leave_one_out(*args, planned_threads(_loo_work(*args)))
    return scores


def nested_leave_one_out_scores(
    counts: FamilyCounts,
    order: Sequence[int],
    parents: Sequence[Sequence[int]],
    alpha: Sequence[float],
    *,
    n_candidates: int,
    codes: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray,
    prior_kept: np.ndarray,
    prior_left: np.ndarray,
) -> np.ndarray:
    """Leave-one-out scores of the nested k-dependence models of selective kDB, shape
    ``(2, n_candidates * d)``: candidate ``q * d + i`` uses the first ``i + 1`` features of
    ``order`` with at most ``q`` parents each. Row 0 sums the weight of the rows a candidate
    gives probability zero, row 1 ``sum_r w_r log P_{-r}(y_r | x_r)`` over the others.

    Feature ``order[i]`` is scored at each level ``l = 1..len(parents[i]) + 1`` from the counts
    of ``(class, parents[i][:l-1], x)``: level 1 is its counted family ``(class, x)``, the top
    level its counted family ``(class, *parents[i], x)`` (both stored in that axis order; read
    in place), and the levels between are the top one summed over its last parents. Its
    Lidstone pseudo-count is ``alpha[i]``. The class is scored with ``prior_left`` for the
    row's own class and ``prior_kept`` for the others. One compiled pass over the rows scores
    every candidate."""
    d = len(order)
    scores = np.zeros((2, n_candidates * d))
    if not codes.shape[0] or not d:
        return scores
    t = counts.target
    depth = max(len(p) for p in parents)
    n_par = np.array([len(p) for p in parents], dtype=np.int64)
    par = np.zeros((d, max(depth, 1)), dtype=np.int64)
    par_states = np.ones((d, max(depth, 1)), dtype=np.int64)
    cell_off = np.zeros((d, depth + 2), dtype=np.int64)
    in_low = np.zeros((d, depth + 2), dtype=np.uint8)
    tops = [counts.table((t, *parents[i], order[i])) for i in range(d)]
    # the levels between the first and the top: (class, pa_1..pa_{l-1}, x), written in place
    sizes = [
        top.size // math.prod(top.shape[lev:-1]) for top in tops for lev in range(2, top.ndim - 1)
    ]
    low = np.empty(sum(sizes))
    at = 0
    for i, top in enumerate(tops):
        par[i, : n_par[i]] = parents[i]
        par_states[i, : n_par[i]] = top.shape[1:-1]
        cell_off[i, 1] = counts.start((t, order[i]))
        if n_par[i]:
            cell_off[i, n_par[i] + 1] = counts.start((t, *parents[i], order[i]))
        above = top
        for lev in range(n_par[i], 1, -1):  # level lev has lev - 1 parents
            shape = (*above.shape[:-2], above.shape[-1])
            size = math.prod(shape)
            above = sum_over_last_parent(above, out=low[at : at + size].reshape(shape))
            cell_off[i, lev], in_low[i, lev] = at, 1
            at += size
    k_states = np.array([top.shape[-1] for top in tops], dtype=np.int64)
    args = (
        scores,
        np.ascontiguousarray(codes),
        np.ascontiguousarray(y, dtype=np.int64),
        np.ascontiguousarray(weights, dtype=np.float64),
        np.asarray(order, dtype=np.int64),
        n_par,
        par,
        par_states,
        k_states,
        counts.counts,
        low,
        in_low,
        cell_off,
        np.asarray(alpha, dtype=np.float64),
        np.ascontiguousarray(prior_kept, dtype=np.float64),
        np.ascontiguousarray(prior_left, dtype=np.float64),
    )
    nested_leave_one_out(*args, planned_threads(_nested_work(*args)))
    return scores


def _reuse(par_ptr: list[int], par_cols: list[int], comp_ptr: list[int]) -> np.ndarray:
    """1 for a family whose parent columns are those of the family before it in its component,
    so the look-up reuses the parent configuration it has just read."""
    out = np.zeros(len(par_ptr) - 1, dtype=np.uint8)
    starts = set(comp_ptr)
    for f in range(1, len(out)):
        if f not in starts:
            mine = par_cols[par_ptr[f] : par_ptr[f + 1]]
            out[f] = mine == par_cols[par_ptr[f - 1] : par_ptr[f]]
    return out


def _pack(placed: list[tuple[np.ndarray, int]], size: int) -> np.ndarray:
    """One flat array holding every ``(class, *parents, child)`` table laid out ``(parent
    configuration, child, class)`` from its start. Tables of one shape are moved in one
    operation (AODE has 2,450 tables on 50 features but a few dozen shapes)."""
    flat = np.empty(size)
    groups: dict[tuple[int, ...], list[int]] = {}
    for k, (t, _) in enumerate(placed):
        groups.setdefault(np.shape(t), []).append(k)
    for shape, ks in groups.items():
        stacked = np.stack([np.asarray(placed[k][0], dtype=np.float64) for k in ks])
        moved = stacked.transpose((0, *range(2, len(shape) + 1), 1)).reshape(len(ks), -1)
        starts = np.array([placed[k][1] for k in ks], dtype=np.int64)
        flat[starts[:, None] + np.arange(moved.shape[1])] = moved
    return flat


def _strides(shape: Sequence[int]) -> list[int]:
    """C-order strides, in elements, of an array of ``shape``."""
    out, s = [], 1
    for k in reversed(shape):
        out.append(s)
        s *= int(k)
    return out[::-1]
