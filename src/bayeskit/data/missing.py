"""Missing-value patterns: rows grouped by which of their entries are missing.

Models that marginalise missing values exactly (the multivariate normal of full Bayes, the
neighbour search of KNN) work pattern by pattern: all rows that miss the same features share one
marginal model.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["row_patterns"]


def row_patterns(mask: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Group the rows of a boolean matrix by their pattern: yields ``(pattern, rows)``.

    ``pattern`` is one distinct row of ``mask`` and ``rows`` the sorted indices of the rows equal
    to it. One sort of the pattern labels, not one scan per pattern.

    Parameters
    ----------
    mask : ndarray of bool of shape (n_rows, n_columns)

    Yields
    ------
    pattern : ndarray of bool of shape (n_columns,)
    rows : ndarray of int
        The rows with that pattern, sorted.

    Examples
    --------
    >>> mask = np.array([[True, False], [False, False], [True, False]])
    >>> [(p.tolist(), r.tolist()) for p, r in row_patterns(mask)]
    [([False, False], [1]), ([True, False], [0, 2])]
    """
    mask = np.asarray(mask, dtype=bool)
    n = mask.shape[0]
    if n == 0:
        return
    if (mask == mask[0]).all():
        yield mask[0].copy(), np.arange(n)
        return
    patterns, inverse = np.unique(mask, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")
    bounds = np.cumsum(np.bincount(inverse, minlength=len(patterns)))[:-1]
    yield from zip(patterns, np.split(order, bounds), strict=True)
