"""Discretization of numeric columns into right-closed bins.

This module sees only ``float64`` arrays (``NaN`` = missing) and integer class codes; it knows
nothing about pandas. A discretization is a sorted array of inner cut points
``c_1 < ... < c_k`` giving ``k + 1`` bins, closed on the right::

    code 0 : x <= c_1,    code i : c_i < x <= c_{i+1},    code k : x > c_k,    NaN -> -1

which is ``np.searchsorted(cuts, x, side="left")``. Values outside the training range fall in
the end bins. With the cuts ``[5.2, 6.1, 7.0]`` this reproduces the equal-width bins of Iris
``sepal length`` in Zaki & Meira, *Data Mining and Machine Learning* (2nd ed.), Table 18.1.

Three ways to choose the cuts:

* ``equal_width_cuts``: ``n_bins - 1`` cuts evenly spaced between the minimum and maximum.
* ``equal_frequency_cuts``: cuts at (weighted) quantiles, duplicates dropped.
* ``mdl_cuts``: the supervised entropy / MDLP method of Fayyad & Irani (1993), "Multi-interval
  discretization of continuous-valued attributes for classification learning", IJCAI-93.

The MDL search sorts each column once, merges runs of rows that cannot hold a boundary point,
builds a cumulative class-count matrix over the blocks and recurses on index ranges; a compiled
kernel scans every candidate cut of a segment in one pass.
"""

from __future__ import annotations

import numbers
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from sklearn.exceptions import NotFittedError

from bayeskit._compiled import planned_threads
from bayeskit._text import shown
from bayeskit.data._bins import (
    _EMPTY,
    _check_n_bins,
    _check_values,
    _check_y,
    _float_array,
    _observed,
)
from bayeskit.data._mdl import _compact_codes, _mdl_column, _xlogx_table
from bayeskit.data.validation import check_sample_weight

__all__ = [
    "Discretizer",
    "apply_cuts",
    "bin_labels",
    "cut_problem",
    "equal_frequency_cuts",
    "equal_width_cuts",
    "mdl_cuts",
]

METHODS = ("equal-width", "equal-frequency", "mdl")
# work per value of an MDL fit, in the units of bayeskit._compiled (about one addition): a sort
# and a scan of the class counts; with PARALLEL_MIN_WORK = 500,000, columns go to threads from
# about 170,000 values, the same one rule that picks every parallel kernel
_MDL_WORK_PER_VALUE = 3


# --------------------------------------------------------------------------- unsupervised
def equal_width_cuts(values: np.ndarray, n_bins: int) -> np.ndarray:
    """Cut points of ``n_bins`` bins of equal width between the minimum and the maximum.

    Parameters
    ----------
    values : array of float, shape (n_samples,)
        ``NaN`` marks a missing value and is ignored.
    n_bins : int
        Number of bins wanted, >= 1.

    Returns
    -------
    cuts : ndarray of float64, shape (n_bins - 1,)
        Empty when the column is constant or all missing (one bin).

    Examples
    --------
    Zaki & Meira, Table 18.1: four equal-width bins of Iris sepal length on [4.3, 7.9].

    >>> equal_width_cuts(np.array([4.3, 5.0, np.nan, 7.9]), 4).round(2).tolist()
    [5.2, 6.1, 7.0]
    >>> equal_width_cuts(np.array([2.0, 2.0]), 4).tolist()
    []
    """
    n_bins = _check_n_bins(n_bins)
    v = _check_values(values)
    v = v[~np.isnan(v)]
    if v.size == 0 or n_bins == 1:
        return _EMPTY.copy()
    lo, hi = float(v.min()), float(v.max())
    if hi <= lo:
        return _EMPTY.copy()
    cuts = lo + (hi - lo) * (np.arange(1, n_bins) / n_bins)
    return np.unique(cuts[(cuts > lo) & (cuts < hi)])


def equal_frequency_cuts(values: np.ndarray, n_bins: int, sample_weight=None) -> np.ndarray:
    """Cut points of ``n_bins`` bins holding about equal (weighted) numbers of points.

    The ``j``-th cut is the observed value whose cumulative weight is nearest to
    ``j / n_bins`` of the total (excluding the largest value, which would leave an empty last
    bin); repeated cuts are dropped, so heavy ties give fewer bins, never empty ones.

    Parameters
    ----------
    values : array of float, shape (n_samples,)
        ``NaN`` marks a missing value and is ignored.
    n_bins : int
        Number of bins wanted, >= 1.
    sample_weight : array of float, shape (n_samples,), optional
        Non-negative weights; rows of weight zero are ignored.

    Returns
    -------
    cuts : ndarray of float64, at most ``n_bins - 1`` sorted observed values.

    Examples
    --------
    >>> equal_frequency_cuts(np.arange(12.0), 3).tolist()
    [3.0, 7.0]

    Ties: six of eight values are 1, so only two bins survive.

    >>> equal_frequency_cuts(np.array([1.0, 1, 1, 1, 1, 1, 2, 3]), 4).tolist()
    [1.0]
    """
    n_bins = _check_n_bins(n_bins)
    v = _check_values(values)
    w = check_sample_weight(sample_weight, v.shape[0])
    v, w = _observed(v, w)
    if v.size < 2 or n_bins == 1:
        return _EMPTY.copy()
    if w is None:
        sv = np.sort(v)
        cw = np.arange(1, sv.size + 1, dtype=np.float64)
    else:
        order = np.argsort(v)
        sv = v[order]
        cw = np.cumsum(w[order])
    last = np.empty(sv.size, dtype=bool)  # last row of each run of equal values
    last[:-1] = sv[1:] != sv[:-1]
    last[-1] = True
    u, cwu = sv[last], cw[last]
    if u.size < 2:
        return _EMPTY.copy()
    cand, cand_w = u[:-1], cwu[:-1]
    targets = cwu[-1] * (np.arange(1, n_bins) / n_bins)
    pos = np.searchsorted(cand_w, targets)
    above = np.minimum(pos, cand.size - 1)
    below = np.maximum(pos - 1, 0)
    nearer_below = np.abs(cand_w[below] - targets) <= np.abs(cand_w[above] - targets)
    pick = np.where(nearer_below, below, above)
    return np.unique(cand[pick])


def mdl_cuts(values: np.ndarray, y: np.ndarray, n_classes: int, sample_weight=None) -> np.ndarray:
    """Supervised cut points by recursive entropy splitting with the MDLP stopping rule.

    Fayyad & Irani (1993), "Multi-interval discretization of continuous-valued attributes for
    classification learning". A segment ``S`` of ``N`` points is split at the boundary point
    ``T`` minimising the class-information entropy, and the split is kept only when

        Gain(A, T; S) > log2(N - 1) / N + Delta(A, T; S) / N,
        Delta = log2(3**k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)],

    ``k``, ``k1``, ``k2`` being the numbers of classes present in ``S``, ``S1``, ``S2``. Each
    half is then treated the same way. Cuts are midpoints between consecutive distinct values.

    Parameters
    ----------
    values : array of float, shape (n_samples,)
        ``NaN`` marks a missing value; those rows are ignored.
    y : array of int, shape (n_samples,)
        Class codes in ``[0, n_classes)``.
    n_classes : int
        Number of classes.
    sample_weight : array of float, shape (n_samples,), optional
        Non-negative weights used as (fractional) frequencies: counts are weighted and ``N`` is
        the total weight. Integer weights give the same cuts as duplicated rows.

    Returns
    -------
    cuts : ndarray of float64, sorted; empty when no split pays for itself.

    Examples
    --------
    >>> x = np.arange(20.0)
    >>> mdl_cuts(x, (x >= 10).astype(int), 2).tolist()
    [9.5]
    >>> mdl_cuts(x, np.zeros(20, dtype=int), 2).tolist()
    []
    """
    v = _check_values(values)
    ya, n_classes = _check_y(y, v.shape[0], n_classes)
    w = check_sample_weight(sample_weight, v.shape[0])
    codes, k = _compact_codes(ya, n_classes)
    return _mdl_column(v, codes, w, k)


# --------------------------------------------------------------------------- apply
def cut_problem(cuts: np.ndarray, *, finite: bool = True) -> str | None:
    """What keeps ``cuts`` from being the inner cut points of right-closed bins, worded to
    follow a name (``"must be finite"``); None when they are: a 1-D float array, strictly
    increasing, and finite (with ``finite=False``: free of NaN, infinities allowed). Every
    reader of cut points (a schema, a model file, an ensemble's statistics) asks this one rule
    and words its own message.

    Parameters
    ----------
    cuts : ndarray of float
        The cut points.
    finite : bool, default=True
        Whether infinite cut points are refused too.

    Returns
    -------
    problem : str or None

    Examples
    --------
    >>> cut_problem(np.array([0.5, 0.2]))
    'must be strictly increasing'
    >>> cut_problem(np.array([0.2, np.inf])), cut_problem(np.array([0.2, np.inf]), finite=False)
    ('must be finite', None)
    """
    if cuts.ndim != 1:
        return "must be 1-D"
    if np.isnan(cuts).any() or (finite and not np.isfinite(cuts).all()):
        return "must be finite" if finite else "must be free of NaN"
    if cuts.size > 1 and np.any(cuts[1:] <= cuts[:-1]):
        return "must be strictly increasing"
    return None


def apply_cuts(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin codes of ``values`` for the right-closed bins given by sorted ``cuts``.

    Code 0 is ``x <= cuts[0]``, code ``i`` is ``cuts[i-1] < x <= cuts[i]``, code ``len(cuts)``
    is ``x > cuts[-1]``; ``NaN`` gives -1. Values beyond the cuts fall in the end bins.

    Parameters
    ----------
    values : array-like of float
        NaN = missing.
    cuts : array-like of float
        Strictly increasing cut points.

    Returns
    -------
    ndarray of int64
        The bin codes, of the shape of ``values``.

    Raises
    ------
    ValueError
        ``cuts`` is not 1-D, strictly increasing and free of NaN.

    Examples
    --------
    Zaki & Meira, Table 18.1 (Iris sepal length, bins [4.3, 5.2], (5.2, 6.1], ...):

    >>> apply_cuts(np.array([4.3, 5.2, 5.25, 7.0, 7.9, 9.0, np.nan]), [5.2, 6.1, 7.0]).tolist()
    [0, 0, 1, 2, 3, 3, -1]
    """
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(cuts, dtype=np.float64)
    if cut_problem(c, finite=False) is not None:
        msg = f"cuts must be a 1-D strictly increasing array without NaN, got {shown(c)}"
        raise ValueError(msg)
    codes = np.searchsorted(c, v, side="left").astype(np.int64, copy=False)
    codes[np.isnan(v)] = -1
    return codes


# --------------------------------------------------------------------------- estimator
def _format_cuts(cuts: np.ndarray) -> list[str]:
    """Shortest %g formatting (from 6 significant digits up) that keeps the cuts distinct."""
    for digits in range(6, 18):
        text = [f"{c:.{digits}g}" for c in cuts]
        if len(set(text)) == len(text):
            return text
    return [repr(float(c)) for c in cuts]


def bin_labels(cuts: Any) -> list[str]:
    """Readable labels of the right-closed bins that ``cuts`` make, e.g. ``"(-inf, 4.3]"``.

    Parameters
    ----------
    cuts : array-like of float
        Strictly increasing inner cut points (none: one bin).

    Returns
    -------
    labels : list of str
        ``len(cuts) + 1`` labels in code order, each cut written with the fewest significant
        digits (6 or more) that keep the cuts apart.

    Examples
    --------
    >>> bin_labels([5.2, 6.1])
    ['(-inf, 5.2]', '(5.2, 6.1]', '(6.1, inf)']
    >>> bin_labels([])
    ['(-inf, inf)']
    """
    text = _format_cuts(np.asarray(cuts, dtype=np.float64))
    edges = ["-inf", *text]
    labels = [f"({a}, {b}]" for a, b in zip(edges[:-1], edges[1:], strict=True)]
    labels.append(f"({edges[-1]}, inf)")
    return labels


class Discretizer:
    """Fits cut points per column of a 2-D float array.

    Parameters
    ----------
    method : {"mdl", "equal-width", "equal-frequency"}, default "mdl"
        ``"mdl"`` is supervised (Fayyad & Irani 1993) and needs ``y`` in :meth:`fit`.
    n_bins : int, default 5
        Number of bins for the unsupervised methods (ignored by ``"mdl"``).

    Attributes
    ----------
    cuts_ : list of ndarray
        The sorted inner cut points of each column.
    n_bins_ : ndarray of int
        ``len(cuts_[j]) + 1`` for each column.

    Examples
    --------
    >>> X = np.array([[4.3, 1.0], [5.0, 2.0], [6.0, np.nan], [7.9, 4.0]])
    >>> d = Discretizer("equal-width", n_bins=4).fit(X)
    >>> d.n_bins_.tolist()
    [4, 4]
    >>> d.transform(X).tolist()
    [[0, 0], [0, 1], [1, -1], [3, 3]]
    >>> d.bin_labels(0)
    ['(-inf, 5.2]', '(5.2, 6.1]', '(6.1, 7]', '(7, inf)']
    """

    def __init__(self, method: str = "mdl", n_bins: int = 5):
        self.method = method
        self.n_bins = n_bins

    def _check_params(self) -> None:
        if self.method not in METHODS:
            allowed = ", ".join(repr(m) for m in METHODS)
            msg = f"method must be one of {allowed}, got {self.method!r}"
            raise ValueError(msg)
        _check_n_bins(self.n_bins)

    def fit(self, values_2d, y=None, n_classes=None, sample_weight=None) -> Discretizer:
        """Learn the cut points of every column.

        Parameters
        ----------
        values_2d : array of float, shape (n_samples, n_columns)
            ``NaN`` marks a missing value; infinite values are refused.
        y : array of int, shape (n_samples,), optional
            Class codes; required by ``"mdl"``, ignored otherwise.
        n_classes : int, optional
            Number of classes (default ``y.max() + 1``); only for ``"mdl"``.
        sample_weight : array of float, shape (n_samples,), optional
            Non-negative weights, used by ``"mdl"`` and ``"equal-frequency"``
            (``"equal-width"`` only looks at the range of the values).

        Returns
        -------
        self : Discretizer
            The fitted discretizer (``cuts_``, ``n_bins_``).

        Raises
        ------
        ValueError
            If ``method`` or ``n_bins`` is invalid, ``values_2d`` is not a 2-D array of
            numbers or holds an infinite value, or ``"mdl"`` gets no valid ``y``.

        Examples
        --------
        >>> x = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]])
        >>> d = Discretizer().fit(x, np.array([0, 0, 0, 1, 1, 1]))  # MDL: one cut between
        >>> d.cuts_[0].tolist(), d.n_bins_.tolist()
        ([6.5], [2])
        """
        self._check_params()
        x = _float_array(values_2d, "values_2d", 2, finite=True)
        n = x.shape[0]
        w = check_sample_weight(sample_weight, n)
        cuts: list[np.ndarray] = []
        if self.method == "mdl":
            ya, k = _check_y(y, n, n_classes)
            ya, k = _compact_codes(ya, k)
            table = _xlogx_table(n) if w is None else None

            def one(j: int) -> np.ndarray:
                return _mdl_column(np.ascontiguousarray(x[:, j]), ya, w, k, table)

            # The compiled kernels release the GIL, so columns run in parallel on threads, as
            # many as the kernels' one dispatch rule gives this much work (planned_threads).
            workers = min(planned_threads(_MDL_WORK_PER_VALUE * x.size), x.shape[1])
            if workers > 1:
                with ThreadPoolExecutor(max_workers=workers) as pool:
                    cuts = list(pool.map(one, range(x.shape[1])))
            else:
                cuts = [one(j) for j in range(x.shape[1])]
        elif self.method == "equal-width":
            cuts = [equal_width_cuts(x[:, j], self.n_bins) for j in range(x.shape[1])]
        else:
            cuts = [equal_frequency_cuts(x[:, j], self.n_bins, w) for j in range(x.shape[1])]
        self.cuts_ = cuts
        self.n_bins_ = np.array([c.size + 1 for c in cuts], dtype=np.int64)
        self.n_features_in_ = x.shape[1]
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "cuts_"):
            msg = "this Discretizer is not fitted yet; call fit first"
            raise NotFittedError(msg)

    def transform(self, values_2d) -> np.ndarray:
        """Bin codes (n_samples, n_columns) as int64; -1 marks a missing value.

        Parameters
        ----------
        values_2d : array of float, shape (n_samples, n_columns)
            Values of the columns fitted, in the same order; ``NaN`` marks a missing value.
            Values beyond the outer cuts fall in the first or last bin.

        Returns
        -------
        codes : ndarray of int64, shape (n_samples, n_columns)
            The bin of each value, 0 the lowest (bins are right-closed: a value equal to a cut
            falls in the bin below it); -1 where the value is missing.

        Raises
        ------
        NotFittedError
            If :meth:`fit` was not called.
        ValueError
            If ``values_2d`` is not a 2-D array of numbers, or has another number of columns
            than the data fitted.

        Examples
        --------
        >>> X = np.array([[4.3, 1.0], [5.0, 2.0], [6.0, np.nan], [7.9, 4.0]])
        >>> d = Discretizer("equal-width", n_bins=4).fit(X)
        >>> d.transform([[5.5, np.nan], [100.0, -100.0]]).tolist()
        [[1, -1], [3, 0]]
        """
        self._check_fitted()
        x = _float_array(values_2d, "values_2d", 2, finite=False)
        if x.shape[1] != self.n_features_in_:
            msg = (
                f"values_2d has {x.shape[1]} columns but the Discretizer was fitted on "
                f"{self.n_features_in_}"
            )
            raise ValueError(msg)
        out = np.empty(x.shape, dtype=np.int64)
        for j, c in enumerate(self.cuts_):
            out[:, j] = apply_cuts(x[:, j], c)
        return out

    def fit_transform(self, values_2d, y=None, n_classes=None, sample_weight=None) -> np.ndarray:
        """``fit`` then ``transform`` on the same data.

        Parameters
        ----------
        values_2d : array of float, shape (n_samples, n_columns)
            ``NaN`` marks a missing value; infinite values are refused.
        y : array of int, shape (n_samples,), optional
            Class codes; required by ``"mdl"``, ignored otherwise.
        n_classes : int, optional
            Number of classes (default ``y.max() + 1``); only for ``"mdl"``.
        sample_weight : array of float, shape (n_samples,), optional
            Non-negative weights, as in :meth:`fit`.

        Returns
        -------
        codes : ndarray of int64, shape (n_samples, n_columns)
            The bin of each value (-1 where missing), as :meth:`transform` gives them.

        Examples
        --------
        >>> x = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]])
        >>> Discretizer("equal-frequency", n_bins=2).fit_transform(x).ravel().tolist()
        [0, 0, 0, 1, 1, 1]
        """
        return self.fit(values_2d, y, n_classes, sample_weight).transform(values_2d)

    def bin_labels(self, j: int) -> list[str]:
        """Readable labels of column ``j``'s bins, e.g. ``"(-inf, 4.3]"``, ..., ``"(5.1, inf)"``.

        Parameters
        ----------
        j : int
            The column's position in the data fitted.

        Returns
        -------
        labels : list of str
            One label per bin, in code order: right-closed intervals between the cuts, each
            cut written with the fewest significant digits (6 or more) that keep the cuts
            apart.

        Raises
        ------
        NotFittedError
            If :meth:`fit` was not called.
        ValueError
            If ``j`` is not an integer column position.

        Examples
        --------
        >>> x = np.array([[1.0], [2.0], [3.0], [10.0], [11.0], [12.0]])
        >>> Discretizer().fit(x, np.array([0, 0, 0, 1, 1, 1])).bin_labels(0)
        ['(-inf, 6.5]', '(6.5, inf)']
        """
        self._check_fitted()
        if not isinstance(j, numbers.Integral) or not 0 <= j < self.n_features_in_:
            msg = f"j must be a column index in [0, {self.n_features_in_}), got {shown(j)}"
            raise ValueError(msg)
        return bin_labels(self.cuts_[j])
