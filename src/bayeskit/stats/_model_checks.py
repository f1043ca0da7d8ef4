"""The invariants behind the ``validate`` methods of the statistics in
:mod:`bayeskit.stats.model_stats` (naive Bayes', the lazy learner's and the naive Bayes tree's):
each function checks the statistics it is given against a :class:`~bayeskit.stats.Layout`, with
a ValueError naming the field. Only :mod:`bayeskit.stats.model_stats` imports this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bayeskit.stats import checks
from bayeskit.stats.counts import CategoricalCounts
from bayeskit.stats.families import FamilyCounts
from bayeskit.stats.moments import GaussianMoments

if TYPE_CHECKING:
    from bayeskit.stats.model_stats import KNNStats, NaiveStats, TreeCounts


def _column(layout: checks.Layout, f: int) -> str:
    names = layout.column_names
    return repr(names[f]) if f < len(names) else str(f)


def validate_naive(stats: NaiveStats, layout: checks.Layout, where: str) -> None:
    """The checks of ``NaiveStats.validate``."""
    for name, kind in (("counts", CategoricalCounts), ("moments", GaussianMoments)):
        if not isinstance(getattr(stats, name), kind):
            msg = f"{where}.{name}: expected {kind.__name__}"
            raise ValueError(msg)
    stats.counts.validate(layout, f"{where}.counts")
    stats.moments.validate(layout, f"{where}.moments")
    classes = stats.counts.class_count
    rule = "a feature counts only rows counted in class_count (missing values are skipped)"
    for f, table in enumerate(stats.counts.feature_count):
        checks.at_most(
            table.sum(axis=1),
            classes,
            f"{where}.counts.feature_count[{f}]",
            f"the weight counted per class of column {_column(layout, f)}",
            rule,
        )
    for j, name in enumerate(layout.numeric_names):
        checks.at_most(
            stats.moments.count[:, j],
            classes,
            f"{where}.moments.count[:, {j}]",
            f"the weight counted per class of numeric column {name!r}",
            rule,
        )


def validate_knn(stats: KNNStats, layout: checks.Layout, where: str) -> None:
    """The checks of ``KNNStats.validate``."""
    codes = checks.codes(stats.codes, f"{where}.codes", layout.n_states, layout.state_names)
    n = codes.shape[0]
    rows = (n, "rows (of codes)")
    values = checks.array(
        stats.values, f"{where}.values", (rows, (layout.n_numeric, "numeric features"))
    )
    if np.isinf(values).any():
        checks.fail(f"{where}.values", "holds infinite values (NaN is the missing mark)")
    y = checks.array(stats.y, f"{where}.y", (rows,), kind="int")
    if n and (y.min() < 0 or y.max() >= layout.n_classes):
        checks.fail(f"{where}.y", f"holds class indices outside [0, {layout.n_classes})")
    weight = checks.nonnegative(stats.weight, f"{where}.weight", (rows,))
    if (weight <= 0).any():
        checks.fail(f"{where}.weight", "holds weights of zero (such rows are never kept)")
    total = checks.class_count(stats.class_count, f"{where}.class_count", layout.n_classes)
    summed = np.bincount(y, weights=weight, minlength=layout.n_classes) if n else 0 * total
    if not np.allclose(summed, total, rtol=checks.RTOL, atol=0):
        checks.fail(
            f"{where}.class_count",
            f"{total.tolist()} differs from the weights of the rows per class {summed.tolist()}",
        )


def validate_tree(stats: TreeCounts, layout: checks.Layout, where: str) -> None:
    """The checks of ``TreeCounts.validate``."""
    if not isinstance(stats.counts, FamilyCounts):
        checks.fail(f"{where}.counts", "expected FamilyCounts")
    split = checks.array(stats.split, f"{where}.split", ((None, "nodes"),), kind="int")
    n = len(split)
    dims = ((n, "nodes"),)
    parent = checks.array(stats.parent, f"{where}.parent", dims, kind="int")
    value = checks.array(stats.value, f"{where}.value", dims, kind="int")
    d = len(layout.n_states)
    if n == 0 or parent[0] != -1 or value[0] != -1:
        checks.fail(f"{where}.parent", "node 0 must be the root (parent and value -1)")
    if ((split < -1) | (split >= d)).any():
        checks.fail(f"{where}.split", f"must be -1 or a feature below {d}")
    seen: set[tuple[int, int]] = set()
    path: list[frozenset] = [frozenset()]
    for i in range(1, n):
        p, v = int(parent[i]), int(value[i])
        a = int(split[p]) if 0 <= p < i else -1
        if a < 0 or not 0 <= v < layout.n_states[a] or (p, v) in seen:
            checks.fail(
                f"{where}.parent[{i}]",
                "must be an earlier node that splits, reached by a code of its feature "
                "no sibling has",
            )
        seen.add((p, v))
        path.append(path[p] | {a})
    for i in range(n):
        if split[i] >= 0 and int(split[i]) in path[i]:
            checks.fail(f"{where}.split[{i}]", "splits on a feature already split above")
    wider = checks.Layout(
        layout.n_classes,
        (*layout.n_states, n),
        (*layout.state_names, "nodes of the tree"),
        column_names=(*layout.column_names, "tree node") if layout.column_names else (),
    )
    stats.counts.validate(wider, f"{where}.counts")
