"""The arithmetic and checks behind :class:`~bayeskit.stats.FamilyCounts` and
:class:`~bayeskit.stats.ScoredCounts`: where each family's table lies in the flat counts, how
tables are gathered, summed out and regrown, the checks of the families asked to be counted, and
the invariants of counts read from a model file.

Each function takes the counts object as its first argument (``fc``); only
:mod:`bayeskit.stats.families` imports this module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from bayeskit._text import first_few
from bayeskit.stats import checks
from bayeskit.stats._family_passes import _count_generic, _count_pair_block, _pair_blocks

if TYPE_CHECKING:
    from bayeskit.stats.families import ExpectedCounts, FamilyCounts, ScoredCounts

Family = tuple[int, ...]


def shapes(n_states: Sequence[int] | np.ndarray, families: Sequence[Sequence[int]]) -> list[tuple]:
    """The shape of each family's table: the states of its columns, in its order (the body of
    ``table_shapes``)."""
    states = [int(k) for k in n_states]
    return [tuple(states[c] for c in fam) for fam in families]


#: Why the counts of an EM fit (``ExpectedCounts``) neither add up nor regrow.
EM_REFUSAL = (
    "a model fitted by EM (missing='em') cannot take more rows with partial_fit: EM "
    "needs all rows at once; fit again on all of them"
)


class WithCounts:
    """What a statistic that bundles :class:`FamilyCounts` (its ``counts``) with something more
    shows of them to the models: the class counts and the columns' numbers of states."""

    counts: FamilyCounts

    @property
    def class_count(self) -> np.ndarray:
        return self.counts.class_count

    @property
    def n_states(self) -> np.ndarray:
        return self.counts.n_states


# ---------------------------------------------------------------------- layout
def layout(fc: FamilyCounts) -> tuple[dict[Family, int], np.ndarray, list[tuple[int, ...]]]:
    """The index of each family (by its columns in order, and sorted), the offsets of the
    tables in the flat counts, and their shapes."""
    # keyed by the sorted columns too, so a family asked for in another order is found
    index = {tuple(sorted(fam)): k for k, fam in enumerate(fc.families)}
    index.update({fam: k for k, fam in enumerate(fc.families)})
    shapes_ = shapes(fc.n_states, fc.families)
    sizes = np.array([math.prod(s) for s in shapes_], dtype=np.int64)
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return index, offsets, shapes_


#: The axis order of a table asked for as stored, by its number of axes.
_IDENTITY = tuple(tuple(range(n)) for n in range(64))


def locate(fc: FamilyCounts, family: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The index of the counted family with these columns, and the axis order that turns
    its table into the order asked for; KeyError if it was not counted."""
    index = fc._layout[0]
    if type(family) is tuple:  # the usual call: the family as stored (checked, not assumed)
        k = index.get(family)
        if k is not None and fc.families[k] == family and len(family) < len(_IDENTITY):
            return k, _IDENTITY[len(family)]
    family = tuple(int(c) for c in family)
    k = index.get(family)
    if k is None:
        k = index.get(tuple(sorted(family)))
        if k is None or len(set(family)) != len(family):
            msg = f"family {family} was not counted (counted: {len(fc.families)} families)"
            raise KeyError(msg)
    stored = fc.families[k]
    return k, tuple(stored.index(c) for c in family)


def class_count(fc: FamilyCounts) -> np.ndarray:
    """The table of the family ``(target,)``; AttributeError without a class column."""
    if fc.target < 0:
        msg = "these counts have no class column (target=-1)"
        raise AttributeError(msg)
    return fc.table((fc.target,))


def table(fc: FamilyCounts, family: Sequence[int]) -> np.ndarray:
    """The body of ``FamilyCounts.table``."""
    k, perm = locate(fc, family)
    _, offsets, shapes_ = fc._layout
    flat = fc.counts[offsets[k] : offsets[k + 1]].reshape(shapes_[k])
    return flat if perm == tuple(range(len(perm))) else np.transpose(flat, perm)


def start(fc: FamilyCounts, family: Sequence[int]) -> int:
    """The body of ``FamilyCounts.start``."""
    k, perm = locate(fc, family)
    if perm != tuple(range(len(perm))):
        msg = f"family {tuple(family)} is stored as {fc.families[k]}"
        raise KeyError(msg)
    return int(fc._layout[1][k])


def grouped_tables(
    fc: FamilyCounts, families: Sequence[Sequence[int]]
) -> list[tuple[list[int], np.ndarray]]:
    """The tables of ``families``, gathered with one fancy index per group of families stored
    with one shape and asked for in one axis order."""
    _, offsets, table_shape = fc._layout
    groups: dict[tuple, tuple[list[int], list[int]]] = {}
    for pos, fam in enumerate(families):
        k, perm = locate(fc, fam)
        members = groups.setdefault((table_shape[k], perm), ([], []))
        members[0].append(pos)
        members[1].append(k)
    out = []
    for (shape, perm), (positions, ks) in groups.items():
        local = np.arange(math.prod(shape)).reshape(shape).transpose(perm)
        idx = offsets[np.asarray(ks)][:, None] + local.ravel()[None, :]
        out.append((positions, fc.counts[idx].reshape((len(ks), *local.shape))))
    return out


def marginal(fc: FamilyCounts, family: Sequence[int]) -> np.ndarray:
    """The counts over ``family``'s columns summed out of the smallest counted family that
    holds them all."""
    family = tuple(int(c) for c in family)
    holders = [f for f in fc.families if set(family) <= set(f)]
    if not holders:
        msg = f"no counted family holds the columns {family}"
        raise KeyError(msg)
    best = min(holders, key=len)
    table = fc.table(best)
    drop = tuple(i for i, c in enumerate(best) if c not in family)
    summed = table.sum(axis=drop) if drop else table
    kept = [c for c in best if c in family]
    return np.transpose(summed, [kept.index(c) for c in family])


def regrow(
    fc: FamilyCounts, remap: dict[int, np.ndarray], n_states: Any, cls: type[FamilyCounts]
) -> FamilyCounts:
    """The body of ``FamilyCounts.regrow`` (``cls`` is :class:`FamilyCounts`)."""
    n_states = np.asarray(n_states, dtype=np.int64)
    tables = []
    for fam in fc.families:
        old = fc.table(fam)
        grown = np.zeros(tuple(int(n_states[c]) for c in fam))
        where = tuple(
            np.asarray(remap[c]) if c in remap else np.arange(old.shape[a])
            for a, c in enumerate(fam)
        )
        grown[np.ix_(*where)] = old
        tables.append(grown.ravel())
    counts = np.concatenate(tables) if tables else np.zeros(0)
    return cls(n_states, fc.families, counts, fc.target)


def check_families(fams: tuple[Family, ...], n_states: np.ndarray) -> None:
    """ValueError for a family listed twice (as a set of columns), empty, with a repeated
    column, or naming a column beyond ``n_states``."""
    keys = [tuple(sorted(f)) for f in fams]
    if len(set(keys)) != len(keys):
        dup = next(f for i, (f, key) in enumerate(zip(fams, keys, strict=True)) if key in keys[:i])
        msg = f"families lists the columns {dup} more than once; count each family once"
        raise ValueError(msg)
    bad = [f for f in fams if not f or len(set(f)) != len(f)]
    if bad or any(not 0 <= c < len(n_states) for f in fams for c in f):
        shown = (
            bad[0] if bad else next(f for f in fams if any(not 0 <= c < len(n_states) for c in f))
        )
        msg = (
            f"family {shown} must be distinct column indices below {len(n_states)} (the "
            "columns of n_states)"
        )
        raise ValueError(msg)


def check_addable(fc: FamilyCounts, other: Any, cls: type[FamilyCounts]) -> None:
    """ValueError unless ``other`` is family counts (``cls``) over the same families, target
    and vocabularies as ``fc``."""
    if (
        not isinstance(other, cls)
        or fc.families != other.families
        or fc.target != other.target
        or not np.array_equal(fc.n_states, other.n_states)
    ):
        msg = (
            "cannot add family counts over different families or vocabularies; regrow "
            "them to the same vocabularies first"
        )
        raise ValueError(msg)


def check_scored_addable(sc: ScoredCounts, other: Any, cls: type[ScoredCounts]) -> None:
    """ValueError unless ``other`` is scored counts (``cls``) over as many candidates."""
    if not isinstance(other, cls) or other.scores.shape != sc.scores.shape:
        msg = "cannot add scored counts over different candidates"
        raise ValueError(msg)


def sum_over_last_parent(table: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The body of ``families.sum_over_last_parent``."""
    *lead, n_parent, n_child = table.shape
    view = np.reshape(table, (math.prod(lead), n_parent, n_child))
    if out is None:
        out = np.empty((*lead, n_child))
    flat = out.reshape(view.shape[0], n_child)
    if n_parent == 0:
        flat[...] = 0.0
        return out
    np.copyto(flat, view[:, 0])
    for p in range(1, n_parent):
        flat += view[:, p]
    return out


def family_counts(
    cls: type[FamilyCounts],
    codes: np.ndarray,
    families: Sequence[Sequence[int]],
    n_states: Sequence[int] | np.ndarray,
    weights: np.ndarray | None,
    target: int,
) -> FamilyCounts:
    """The body of ``families.family_counts`` (``cls`` is :class:`FamilyCounts`)."""
    fams = tuple(tuple(int(c) for c in f) for f in families)
    n_states = np.asarray(n_states, dtype=np.int64)
    check_families(fams, n_states)
    counts = cls(n_states, fams, np.zeros(0), target)
    _, offsets, _ = counts._layout
    total = int(offsets[-1])
    codes = np.ascontiguousarray(codes)
    n = codes.shape[0]
    w = np.ones(n) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    flat = np.zeros(total)
    if n and fams:
        blocks, rest = _pair_blocks(fams)
        index = {f: k for k, f in enumerate(fams)}
        for block in blocks:  # each writes its families' tables into flat
            _count_pair_block(codes, w, *block, n_states, fams, index, offsets, flat)
        if rest:
            _count_generic(codes, w, [fams[k] for k in rest], n_states, offsets[rest], flat)
    result = cls(n_states, fams, flat, target)
    result.__dict__["_layout"] = counts._layout  # same states and families: same layout
    return result


# ---------------------------------------------------------------------- validation
def validate(fc: FamilyCounts, layout: checks.Layout, where: str) -> None:
    """The checks of ``FamilyCounts.validate``."""
    expected = (*layout.n_states, layout.n_classes)
    n_states = checks.array(
        fc.n_states, f"{where}.n_states", ((len(expected), "columns"),), kind="count"
    )
    labels = (*layout.state_names, "classes")
    for c, (got, want) in enumerate(zip(n_states.tolist(), expected, strict=True)):
        if got != want:
            checks.fail(f"{where}.n_states[{c}]", f"is {got}, expected {want} {labels[c]}")
    if fc.target != len(expected) - 1:
        checks.fail(f"{where}.target", f"is {fc.target!r}, expected {len(expected) - 1}")
    fams = checks.sequence(fc.families, f"{where}.families", len(fc.families), "families")
    for k, fam in enumerate(fams):
        ok = (
            isinstance(fam, tuple)
            and len(fam) > 0
            and all(isinstance(c, int) and not isinstance(c, bool) for c in fam)
            and all(0 <= c < len(expected) for c in fam)
            and len(set(fam)) == len(fam)
        )
        if not ok:
            checks.fail(
                f"{where}.families[{k}]",
                f"must be distinct column indices below {len(expected)}, got {fam!r}",
            )
    if len(set(fams)) != len(fams):
        checks.fail(f"{where}.families", "lists a family twice")
    if (fc.target,) not in set(fams):
        checks.fail(f"{where}.families", "does not hold the class family")
    # the cells in Python integers (a family of many columns may exceed int64)
    total = sum(math.prod(int(expected[c]) for c in fam) for fam in fams)
    checks.counts(fc.counts, f"{where}.counts", ((total, "cells of the families' tables"),))
    checks.class_count(fc.class_count, f"{where}.class_count", layout.n_classes)
    check_nested(fc, layout, f"{where}.counts")


def check_nested(fc: FamilyCounts, layout: checks.Layout, where: str) -> None:
    """Each table summed over one of its columns holds no more weight than the table of
    the other columns where that is counted (else than the class counts): the rows a table
    counts are among those its sub-families count."""
    index = fc._layout[0]
    for fam in fc.families:
        if len(fam) < 2:
            continue
        table = fc.table(fam)
        subs = [
            fam[:i] + fam[i + 1 :]
            for i in range(len(fam))
            if tuple(sorted(fam[:i] + fam[i + 1 :])) in index
        ]
        if not subs:  # the class family is always counted
            subs = [(fc.target,)] if fc.target in fam else [()]
        for sub in subs:
            drop = tuple(a for a, c in enumerate(fam) if c not in sub)
            whole = fc.table(sub) if sub else fc.class_count.sum()
            what = fc.family_name(fam, layout)
            checks.at_most(
                table.sum(axis=drop),
                whole,
                where,
                f"the family {what} summed over "
                f"{fc.family_name([fam[a] for a in drop], layout)} counts more weight "
                f"than the {f'family {fc.family_name(sub, layout)}' if sub else 'rows'}",
                "a table counts only rows its smaller tables count",
            )


def family_name(fc: FamilyCounts, family: Sequence[int], layout: checks.Layout) -> str:
    """The body of ``FamilyCounts.family_name``."""
    names = layout.column_names
    words = [
        "class" if c == fc.target else repr(names[c]) if c < len(names) else f"column {c}"
        for c in family
    ]
    return f"({', '.join(words)})"


def require_families(
    fc: FamilyCounts,
    expected: Sequence[Sequence[int]],
    where: str,
    layout: checks.Layout,
    model: str,
    exact: bool,
) -> None:
    """The check of ``FamilyCounts.require_families``."""
    want = [tuple(int(c) for c in f) for f in expected]
    have = set(fc.families)
    missing = [f for f in want if f not in have]
    wanted = set(want)
    extra = [f for f in fc.families if f not in wanted] if exact else []
    if not (missing or extra):
        return
    parts = []
    for fams, verb in ((missing, f"lacks {{}} that {model} counts"),
                       (extra, f"holds {{}} that {model} does not count")):  # fmt: skip
        if fams:
            names = first_few([fc.family_name(f, layout) for f in fams], 5)
            label = "families" if len(fams) > 1 else "the family"
            parts.append(verb.format(f"{label} {names}"))
    checks.fail(f"{where}.families", "; ".join(parts))


def validate_expected(
    ec: ExpectedCounts, layout: checks.Layout, where: str, cls: type[FamilyCounts]
) -> None:
    """The checks of ``ExpectedCounts.validate`` (``cls`` is :class:`FamilyCounts`)."""
    for name in ("counts", "expected"):
        if not isinstance(getattr(ec, name), cls):
            checks.fail(f"{where}.{name}", "expected FamilyCounts")
        getattr(ec, name).validate(layout, f"{where}.{name}")


def validate_scored(
    sc: ScoredCounts, layout: checks.Layout, where: str, cls: type[FamilyCounts]
) -> None:
    """The checks of ``ScoredCounts.validate`` (``cls`` is :class:`FamilyCounts`)."""
    if not isinstance(sc.counts, cls):
        checks.fail(f"{where}.counts", "expected FamilyCounts")
    sc.counts.validate(layout, f"{where}.counts")
    dims = ((2, "scores"), (None, "candidates"))  # how many: the model checks
    scores = checks.finite(sc.scores, f"{where}.scores", dims)
    if (scores[0] < 0).any() or (scores[1] > 0).any():
        checks.fail(
            f"{where}.scores",
            "impossible-row weights must be >= 0 and log-likelihoods <= 0",
        )
    checks.at_most(
        scores[0],
        np.full(scores.shape[1], sc.class_count.sum()),
        f"{where}.scores[0]",
        "the weight of rows a candidate gives probability zero",
        "a candidate cannot find more weight impossible than the rows counted (class_count)",
    )
