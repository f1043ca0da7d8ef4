"""Count tables: the sufficient statistics of every categorical model.

Axis order, everywhere in bayeskit: ``(n_classes, n_parent_configs, n_states)`` for a conditional
table, ``(n_classes, n_states)`` for a naive Bayes feature table, ``(n_classes,)`` for the class.
Counts are float64 because sample weights are native. Every statistic is mergeable: the counts of
two disjoint pieces of data added (``a + b``) equal the counts of their concatenation, which is all
that ``partial_fit``, out-of-core and distributed fitting need.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bayeskit.stats import checks
from bayeskit.stats._kernels import count_codes
from bayeskit.stats.checks import Layout

__all__ = ["CategoricalCounts", "categorical_counts", "class_counts", "count_table"]


def class_counts(y: np.ndarray, n_classes: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Weighted number of samples per class, shape ``(n_classes,)``.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    n_classes : int
    weights : ndarray of shape (n_samples,), optional
        Row weights (one each by default).

    Returns
    -------
    ndarray of shape (n_classes,)

    Examples
    --------
    >>> class_counts(np.array([0, 1, 1]), 3)
    array([1., 2., 0.])
    """
    return np.bincount(y, weights=weights, minlength=n_classes).astype(np.float64)


def count_table(
    y: np.ndarray,
    parent_config: np.ndarray,
    child: np.ndarray,
    n_classes: int,
    n_parent_configs: int,
    n_states: int,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """Counts over (class, parent configuration, value).

    Shape ``(n_classes, n_parent_configs, n_states)``.

    Rows whose child or parent configuration is missing (negative) are skipped.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class indices.
    parent_config : ndarray of shape (n_samples,)
        Each row's parent configuration index (negative: missing).
    child : ndarray of shape (n_samples,)
        Each row's value code (negative: missing).
    n_classes, n_parent_configs, n_states : int
        The table's shape.
    weights : ndarray of shape (n_samples,), optional
        Row weights (one each by default).

    Returns
    -------
    ndarray of shape (n_classes, n_parent_configs, n_states)

    Examples
    --------
    >>> count_table(np.array([0, 0, 1]), np.array([0, 1, 1]), np.array([1, 1, 0]), 2, 2, 2)[0]
    array([[0., 1.],
           [0., 1.]])
    """
    ok = (child >= 0) & (parent_config >= 0)
    flat = (y[ok].astype(np.int64) * n_parent_configs + parent_config[ok]) * n_states + child[ok]
    w = None if weights is None else weights[ok]
    size = n_classes * n_parent_configs * n_states
    counts = np.bincount(flat, weights=w, minlength=size).astype(np.float64)
    return counts.reshape(n_classes, n_parent_configs, n_states)


@dataclass(frozen=True)
class CategoricalCounts:
    """Class counts and one ``(n_classes, n_states_f)`` count table per categorical feature.

    Attributes
    ----------
    class_count : ndarray of shape (n_classes,)
    feature_count : tuple of ndarray, each of shape (n_classes, n_states_f)
        ``feature_count[f][c, v]`` is the weighted number of samples of class ``c`` whose feature
        ``f`` has code ``v``. Missing values are not counted, so a table's rows may sum to less
        than ``class_count``.

    Examples
    --------
    Counts add up: those of two chunks of rows are those of all the rows.

    >>> codes, y = np.array([[0, 1], [1, 1], [1, -1]]), np.array([0, 1, 1])
    >>> a = categorical_counts(codes[:1], y[:1], 2, np.array([2, 2]))
    >>> b = categorical_counts(codes[1:], y[1:], 2, np.array([2, 2]))
    >>> (a + b).class_count.tolist(), (a + b).feature_count[1].tolist()  # one value missing
    ([1.0, 2.0], [[0.0, 1.0], [0.0, 1.0]])
    """

    class_count: np.ndarray
    feature_count: tuple[np.ndarray, ...]

    def __add__(self, other: CategoricalCounts) -> CategoricalCounts:
        if len(self.feature_count) != len(other.feature_count):
            msg = (
                f"cannot add counts over {len(self.feature_count)} and "
                f"{len(other.feature_count)} features"
            )
            raise ValueError(msg)
        return CategoricalCounts(
            self.class_count + other.class_count,
            tuple(a + b for a, b in zip(self.feature_count, other.feature_count, strict=True)),
        )

    def validate(self, layout: Layout, where: str = "stats_") -> None:
        """Check the counts fit ``layout`` (read from a model file).

        ``class_count`` of shape ``(n_classes,)`` and one ``(n_classes, n_states_f)`` table per
        entry of ``layout.n_states``; all float64, finite, non-negative, with a positive total.

        Parameters
        ----------
        layout : Layout
            The number of classes and each categorical feature's number of states.
        where : str, optional
            The counts' path in the model, which starts every error message. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If the counts do not fit, naming the field (``where.feature_count[f]``) and the
            problem.

        Examples
        --------
        >>> cc = categorical_counts(np.array([[0], [1]]), np.array([0, 1]), 2, np.array([2]))
        >>> cc.validate(Layout(2, (2,), ("states",)))  # fits: no output
        >>> cc.validate(Layout(2, (3,), ("states",)))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.feature_count[0]: shape (2, 2) does not match (2, 3): ...
        """
        checks.class_count(self.class_count, f"{where}.class_count", layout.n_classes)
        tables = checks.sequence(
            self.feature_count, f"{where}.feature_count", len(layout.n_states), "tables"
        )
        for f, (table, k, label) in enumerate(
            zip(tables, layout.n_states, layout.state_names, strict=True)
        ):
            dims = ((layout.n_classes, "classes"), (k, label))
            checks.counts(table, f"{where}.feature_count[{f}]", dims)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> CategoricalCounts:
        """Re-lay the tables out for grown vocabularies (``partial_fit`` meeting new categories).

        Old code ``k`` of feature ``f`` moves to ``remap[f][k]`` in a table of ``n_states[f]``
        states; the new states' counts start at zero.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code.
        n_states : ndarray of int, shape (n_features,)
            Each categorical feature's number of states after growing.

        Returns
        -------
        CategoricalCounts
            New counts; the class counts and the other features' tables are shared, not copied.

        Examples
        --------
        >>> cc = categorical_counts(np.array([[0], [1]]), np.array([0, 1]), 2, np.array([2]))
        >>> cc.regrow({0: np.array([0, 2])}, np.array([3])).feature_count[0].tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
        """
        tables = list(self.feature_count)
        for f, where in remap.items():
            grown = np.zeros((tables[f].shape[0], int(n_states[f])))
            grown[:, where] = tables[f]
            tables[f] = grown
        return CategoricalCounts(self.class_count, tuple(tables))


def categorical_counts(
    codes: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    n_states: np.ndarray,
    weights: np.ndarray | None = None,
) -> CategoricalCounts:
    """Count every categorical feature against the class in one pass over the rows.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), integer, -1 = missing
    y : ndarray of shape (n_samples,), class indices in ``[0, n_classes)``
    n_classes : int
    n_states : ndarray of shape (n_features,), vocabulary sizes
    weights : ndarray of shape (n_samples,), optional

    Returns
    -------
    CategoricalCounts
        The class counts and each feature's ``(n_classes, n_states)`` counts.

    Examples
    --------
    >>> codes = np.array([[0, 1], [1, 1], [1, -1]])
    >>> cc = categorical_counts(codes, np.array([0, 1, 1]), 2, np.array([2, 2]))
    >>> cc.class_count, cc.feature_count[1]
    (array([1., 2.]), array([[0., 1.],
           [0., 1.]]))
    """
    n_states = np.asarray(n_states, dtype=np.int64)
    offsets = np.zeros(len(n_states), dtype=np.int64)
    if len(n_states) > 1:
        offsets[1:] = np.cumsum(n_states[:-1])
    total = int(n_states.sum())
    y = np.ascontiguousarray(y, dtype=np.intp)
    w = np.ones(len(y)) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    if codes.shape[1] and codes.shape[0]:
        flat = count_codes(np.ascontiguousarray(codes), y, w, offsets, n_classes, total)
    else:
        flat = np.zeros((n_classes, total))
    tables = tuple(flat[:, o : o + k].copy() for o, k in zip(offsets, n_states, strict=True))
    return CategoricalCounts(class_counts(y, n_classes, w), tables)
