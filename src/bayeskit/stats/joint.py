"""Joint counts: the sufficient statistics of the categorical part of full (joint) Bayes.

:class:`JointCounts` holds class-specific counts of whole combinations of categorical codes, the
statistics of the joint PMF of Zaki & Meira Eqs. (18.5)-(18.6). The dense table has
``prod_j K_j`` cells per class (30 binary attributes: a billion), so only the combinations seen in
the data are kept: a sorted ``(m, d)`` array of distinct code rows and an ``(m, n_classes)`` array
of their weighted counts, with ``m <= n_samples``. Every unseen cell has count zero; the estimator
(:func:`bayeskit.estimate.sparse_lidstone`) adds the pseudo-count mass for them without listing
them. A row with a missing code (-1) keeps its -1 in its combination: it still says something
about the attributes it observes (see :meth:`JointCounts.project`).

Joint counts merge with ``a + b`` into the counts of the concatenated data, as every statistic in
:mod:`bayeskit.stats` does. (The numeric part of full Bayes, the scatter and row-norm moments, is
in :mod:`bayeskit.stats.moments`.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bayeskit.data.codes import code_dtype
from bayeskit.data.rows import distinct_rows, row_keys
from bayeskit.stats import checks
from bayeskit.stats.checks import Layout
from bayeskit.stats.counts import class_counts

__all__ = ["JointCounts", "joint_counts"]


# --------------------------------------------------------------------------- joint counts
@dataclass(frozen=True)
class JointCounts:
    """Sparse class-specific counts of combinations of categorical codes.

    Attributes
    ----------
    class_count : ndarray of shape (n_classes,)
        Weighted number of samples per class (all rows, complete or not).
    n_states : ndarray of shape (n_features,)
        Vocabulary size of each attribute.
    combos : ndarray of shape (m, n_features), signed integer
        The distinct rows of codes seen, in lexicographic order; -1 marks a missing code.
    counts : ndarray of shape (m, n_classes)
        ``counts[r, c]`` is the weighted number of class-``c`` samples with codes ``combos[r]``.

    Examples
    --------
    >>> jc = joint_counts(np.array([[0, 1], [0, 1], [1, 0]]), np.array([0, 1, 1]), 2, [2, 2])
    >>> jc.combos.tolist(), jc.counts.tolist()
    ([[0, 1], [1, 0]], [[1.0, 1.0], [0.0, 1.0]])
    """

    class_count: np.ndarray
    n_states: np.ndarray
    combos: np.ndarray
    counts: np.ndarray

    @property
    def n_classes(self) -> int:
        return self.class_count.shape[0]

    def __add__(self, other: JointCounts) -> JointCounts:
        if not np.array_equal(self.n_states, other.n_states):
            msg = (
                f"cannot add joint counts over domains of sizes {self.n_states.tolist()} and "
                f"{other.n_states.tolist()}; regrow them to the same vocabularies first"
            )
            raise ValueError(msg)
        dtype = code_dtype(int(self.n_states.max(initial=1)))
        rows = np.concatenate([self.combos, other.combos]).astype(dtype, copy=False)
        both = np.concatenate([self.counts, other.counts])
        combos, counts = distinct_rows(rows, both, self.n_states)
        return JointCounts(self.class_count + other.class_count, self.n_states, combos, counts)

    def validate(self, layout: Layout, where: str = "stats_") -> None:
        """Check the counts fit ``layout`` (read from a model file).

        ``class_count`` as in :class:`~bayeskit.stats.CategoricalCounts`; ``n_states`` equal to
        the vocabulary sizes; ``combos`` signed integer codes in ``[-1, n_states_j)``, distinct
        and sorted (the binary search of :meth:`find` relies on it); ``counts`` of shape
        ``(m, n_classes)``, float64, finite and non-negative, summing to the class counts.

        Parameters
        ----------
        layout : Layout
            The number of classes and each categorical feature's number of states.
        where : str, optional
            The counts' path in the model, which starts every error message. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If the counts do not fit, naming the field and the problem.

        Examples
        --------
        >>> jc = joint_counts(np.array([[0, 1], [1, 0]]), np.array([0, 1]), 2, [2, 2])
        >>> jc.validate(Layout(2, (2, 2), ("states", "states")))  # fits: no output
        >>> jc.validate(Layout(2, (2, 3), ("states", "states")))
        Traceback (most recent call last):
        ...
        ValueError: stats_.n_states[1]: 2 does not match the vocabulary sizes: 3 states
        """
        checks.class_count(self.class_count, f"{where}.class_count", layout.n_classes)
        d = len(layout.n_states)
        sizes = checks.array(
            self.n_states, f"{where}.n_states", ((d, "categorical features"),), kind="count"
        )
        for j, (got, k) in enumerate(zip(sizes.tolist(), layout.n_states, strict=True)):
            if got != k:
                checks.fail(
                    f"{where}.n_states[{j}]",
                    f"{got} does not match the vocabulary sizes: {k} {layout.state_names[j]}",
                )
        combos = checks.codes(self.combos, f"{where}.combos", layout.n_states, layout.state_names)
        m = combos.shape[0]
        if m > 1:
            keys = row_keys(combos, sizes.astype(np.int64))
            if keys is not None:
                ordered = bool(np.all(keys[1:] > keys[:-1]))
            else:
                ordered = np.array_equal(np.unique(combos, axis=0), combos)
            if not ordered:
                checks.fail(f"{where}.combos", "rows must be distinct and in lexicographic order")
        dims = ((m, "combinations (rows of combos)"), (layout.n_classes, "classes"))
        counts = checks.counts(self.counts, f"{where}.counts", dims)
        summed, total = counts.sum(axis=0), self.class_count
        if not np.allclose(summed, total, rtol=checks.RTOL, atol=0):
            checks.fail(
                f"{where}.counts",
                f"sums to {summed.tolist()[:10]} per class, not the class counts "
                f"{total.tolist()[:10]}: every row is counted once, in its combination "
                "(missing codes included)",
            )

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> JointCounts:
        """Re-code for grown vocabularies (``partial_fit`` meeting new categories).

        Old code ``k`` of attribute ``f`` becomes ``remap[f][k]``; the domain sizes become
        ``n_states``; the combinations are sorted again.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each attribute whose vocabulary grew, the new code of each old code.
        n_states : array-like of int, shape (n_features,)
            Each attribute's number of states after growing.

        Returns
        -------
        JointCounts
            The same counts under the new codes (missing codes stay -1).

        Examples
        --------
        >>> jc = joint_counts(np.array([[0, 1], [1, 0]]), np.array([0, 1]), 2, [2, 2])
        >>> grown = jc.regrow({0: np.array([0, 2])}, [3, 2])  # a new code 1 for attribute 0
        >>> grown.combos.tolist(), grown.counts.tolist()
        ([[0, 1], [2, 0]], [[1.0, 0.0], [0.0, 1.0]])
        """
        n_states = np.asarray(n_states, dtype=np.int64)
        rows = self.combos.astype(code_dtype(int(n_states.max(initial=1))))
        for f, where in remap.items():
            col = rows[:, f]
            seen = col >= 0
            col[seen] = np.asarray(where)[col[seen]]
        combos, counts = distinct_rows(rows, self.counts, n_states)
        return JointCounts(self.class_count, n_states, combos, counts)

    def project(self, columns) -> JointCounts:
        """The counts of the sub-combinations on ``columns``, over the rows that observe every one
        of them (rows missing any of them are left out).

        Summing the counts of a joint table over the attributes not in ``columns`` is
        marginalisation; for data with missing codes this is "available-case" counting: each
        marginal is counted from the rows that observe it.

        Parameters
        ----------
        columns : sequence of int
            The attributes kept, in the order of the new combinations' columns.

        Returns
        -------
        JointCounts
            Counts over the sub-combinations; ``class_count`` stays that of all the rows.

        Examples
        --------
        >>> jc = joint_counts(np.array([[0, 1], [0, 0], [1, -1]]), np.array([0, 0, 1]), 2, [2, 2])
        >>> p = jc.project([0])
        >>> p.combos.tolist(), p.counts.tolist()
        ([[0], [1]], [[2.0, 0.0], [0.0, 1.0]])
        """
        columns = np.asarray(columns, dtype=np.intp)
        sub = self.combos[:, columns]
        keep = (sub >= 0).all(axis=1)
        n_states = self.n_states[columns]
        combos, counts = distinct_rows(sub[keep], self.counts[keep], n_states)
        return JointCounts(self.class_count, n_states, combos, counts)

    def find(self, rows: np.ndarray) -> np.ndarray:
        """Index into ``combos`` of each row of ``rows`` (codes over the same attributes), -1 where
        the combination was never seen.

        Parameters
        ----------
        rows : ndarray of int, shape (n_rows, n_features)
            Codes, -1 = missing (a row matches a combination with the same missing codes).

        Returns
        -------
        ndarray of intp, shape (n_rows,)
            The row of ``combos`` (and of ``counts``) each row matches, -1 for none (a code
            outside the vocabularies matches none).

        Examples
        --------
        >>> jc = joint_counts(np.array([[0, 1], [1, 0]]), np.array([0, 1]), 2, [2, 2])
        >>> jc.find(np.array([[1, 0], [1, 1]])).tolist()
        [1, -1]
        """
        rows = np.asarray(rows)
        out = np.full(rows.shape[0], -1, dtype=np.intp)
        m = self.combos.shape[0]
        if m == 0 or rows.shape[0] == 0:
            return out
        inside = ((rows >= -1) & (rows < self.n_states)).all(axis=1)
        keys = row_keys(np.concatenate([self.combos, rows[inside]]), self.n_states)
        if keys is not None:  # combos are sorted, so their keys are: binary search
            known, asked = keys[:m], keys[m:]
            pos = np.minimum(np.searchsorted(known, asked), m - 1)
            hit = known[pos] == asked
            out[np.flatnonzero(inside)[hit]] = pos[hit]
            return out
        union = np.concatenate([self.combos, rows[inside].astype(self.combos.dtype)])
        _, inverse = np.unique(union, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        where = np.full(inverse.max() + 1, -1, dtype=np.intp)
        where[inverse[:m]] = np.arange(m)
        out[inside] = where[inverse[m:]]
        return out

    def dense(self, max_cells: int = 10_000_000) -> np.ndarray:
        """The full table of the complete rows, shape ``(n_classes, *n_states)``.

        Only for small domains: refuses more than ``max_cells`` cells.

        Parameters
        ----------
        max_cells : int, default=10_000_000
            The largest table built, in cells (``n_classes`` times the product of
            ``n_states``).

        Returns
        -------
        ndarray of float64, shape (n_classes, n_states...)
            ``out[c, v_1, ..., v_d]`` is the weighted count of class-``c`` rows with those codes;
            rows with a missing code are left out.

        Raises
        ------
        ValueError
            If the table would have more than ``max_cells`` cells.

        Examples
        --------
        >>> jc = joint_counts(np.array([[0, 1], [1, 0]]), np.array([0, 1]), 2, [2, 2])
        >>> jc.dense()[1].tolist()
        [[0.0, 0.0], [1.0, 0.0]]
        """
        cells = float(np.prod(self.n_states.astype(np.float64))) * self.n_classes
        if cells > max_cells:
            msg = (
                f"a dense joint table over domains {self.n_states.tolist()} has {cells:.3g} "
                f"cells, more than max_cells={max_cells}; use combos and counts instead"
            )
            raise ValueError(msg)
        out = np.zeros((self.n_classes, *self.n_states.tolist()))
        complete = (self.combos >= 0).all(axis=1)
        index = tuple(self.combos[complete].T.astype(np.intp))
        for c in range(self.n_classes):
            out[c][index] = self.counts[complete, c]
        return out


def joint_counts(
    codes: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    n_states,
    weights: np.ndarray | None = None,
) -> JointCounts:
    """Count each distinct row of codes per class (Zaki & Meira Table 18.2, stored sparsely).

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), integer, -1 = missing
    y : ndarray of shape (n_samples,), class indices in ``[0, n_classes)``
    n_classes : int
    n_states : array-like of shape (n_features,), vocabulary sizes
    weights : ndarray of shape (n_samples,), optional

    Returns
    -------
    JointCounts
        The distinct rows seen (``combos``), their counts per class and the class counts.

    Examples
    --------
    >>> jc = joint_counts(np.array([[1, 0], [0, 2], [1, 0]]), np.array([1, 0, 1]), 2, [2, 3])
    >>> jc.class_count, jc.combos.tolist(), jc.counts.tolist()
    (array([1., 2.]), [[0, 2], [1, 0]], [[1.0, 0.0], [0.0, 2.0]])
    """
    n_states = np.asarray(n_states, dtype=np.int64)
    y = np.asarray(y, dtype=np.intp)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    rows = np.asarray(codes).astype(code_dtype(int(n_states.max(initial=1))), copy=False)
    combos, _, inverse = distinct_rows(rows, None, n_states, return_inverse=True)
    k = len(combos)
    flat = inverse * n_classes + y
    counts = np.bincount(flat, weights=w, minlength=k * n_classes).reshape(k, n_classes)
    return JointCounts(class_counts(y, n_classes, w), n_states, combos, counts)
