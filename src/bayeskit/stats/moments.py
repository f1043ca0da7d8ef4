"""Gaussian moments: the sufficient statistics of Gaussian class-conditional densities.

Per class, the weighted count ``n``, the mean and ``M2 = sum w (x - mean)^2`` (per feature for
naive Bayes; a full scatter matrix for the multivariate normal of full Bayes). Two sets of moments
merge exactly with the pairwise formulas of Chan, Golub and LeVeque (1979):

    n = n_a + n_b,  delta = mean_b - mean_a,
    mean = mean_a + delta * n_b / n,
    M2 = M2_a + M2_b + delta^2 * n_a * n_b / n     (outer(delta, delta) for scatter matrices)

For Ledoit-Wolf shrinkage of the full-Bayes covariance, :class:`ShrinkageMoments` adds to the
scatter matrix two moments of the squared row norm ``r = ||x - mean||^2``:
``norm3 = sum w r (x - mean)`` and ``norm4 = sum w r^2``. Ledoit-Wolf needs ``norm4`` (the
variance of the entries of ``x x^T`` is not a function of the scatter matrix); ``norm3`` is only
needed to merge.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from dataclasses import dataclass

import numpy as np

from bayeskit.stats import checks
from bayeskit.stats._kernels import moment_sums
from bayeskit.stats.checks import Layout

__all__ = [
    "GaussianMoments",
    "ScatterMoments",
    "ShrinkageMoments",
    "gaussian_moments",
    "nonfinite_features",
    "scatter_moments",
    "shrinkage_moments",
]


def _chan_weights(n_a: np.ndarray, n_b: np.ndarray):
    n = n_a + n_b
    with np.errstate(invalid="ignore", divide="ignore"):
        frac_b = np.where(n > 0, n_b / np.where(n > 0, n, 1), 0.0)
        cross = np.where(n > 0, n_a * n_b / np.where(n > 0, n, 1), 0.0)
    return n, frac_b, cross


def _class_slice(moments, c: int):
    """The statistics of class ``c`` alone (every array field sliced on its class axis)."""
    fields = {}
    for f in dataclasses.fields(moments):
        value = getattr(moments, f.name)
        is_array = isinstance(value, np.ndarray)
        fields[f.name] = value[c : c + 1] if is_array else _class_slice(value, c)
    return type(moments)(**fields)


def _pooled(moments):
    """All classes merged into one by the same exact ``+`` that merges chunks of data."""
    n_classes = moments.count.shape[0]
    return functools.reduce(operator.add, (_class_slice(moments, c) for c in range(n_classes)))


@dataclass(frozen=True)
class GaussianMoments:
    """Per-(class, feature) weighted count, mean and M2; all arrays ``(n_classes, n_features)``.

    Missing values are skipped feature by feature, so counts may differ between features.

    Attributes
    ----------
    count : ndarray of shape (n_classes, n_features)
        The weight of the rows observing each feature.
    mean : ndarray of shape (n_classes, n_features)
    m2 : ndarray of shape (n_classes, n_features)
        The weighted sum of squared deviations from the mean.

    Examples
    --------
    Moments add up (Chan et al.'s merge), so those of two halves are those of the whole:

    >>> x, y = np.array([[1.0], [3.0], [5.0], [7.0]]), np.array([0, 0, 0, 1])
    >>> whole = gaussian_moments(x, y, 2)
    >>> parts = gaussian_moments(x[:2], y[:2], 2) + gaussian_moments(x[2:], y[2:], 2)
    >>> parts.mean.ravel().tolist(), parts.m2.ravel().tolist() == whole.m2.ravel().tolist()
    ([3.0, 7.0], True)
    """

    count: np.ndarray
    mean: np.ndarray
    m2: np.ndarray

    def __add__(self, other: GaussianMoments) -> GaussianMoments:
        n, frac_b, cross = _chan_weights(self.count, other.count)
        delta = other.mean - self.mean
        return GaussianMoments(n, self.mean + delta * frac_b, self.m2 + other.m2 + delta**2 * cross)

    def pooled(self) -> GaussianMoments:
        """The moments of all classes together, shape ``(1, n_features)``.

        Returns
        -------
        GaussianMoments
            One row: the classes merged by the same exact ``+`` that merges chunks of data.

        Examples
        --------
        >>> gm = gaussian_moments(np.array([[1.0], [3.0], [5.0], [7.0]]), np.array([0, 0, 1, 1]), 2)
        >>> pooled = gm.pooled()
        >>> pooled.count.tolist(), pooled.mean.tolist(), pooled.m2.tolist()
        ([[4.0]], [[4.0]], [[20.0]])
        """
        return _pooled(self)

    def validate(self, layout: Layout, where: str = "stats_") -> None:
        """Check the moments fit ``layout`` (read from a model file).

        Three float64 arrays of shape ``(n_classes, n_numeric)``; counts finite and
        non-negative, means finite, M2 finite and non-negative, both zero where the count is.

        Parameters
        ----------
        layout : Layout
            The number of classes and of numeric features (``n_classes``, ``n_numeric``).
        where : str, optional
            The moments' path in the model, which starts every error message. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If the moments do not fit, naming the field and the problem.

        Examples
        --------
        >>> gm = gaussian_moments(np.array([[1.0], [3.0], [5.0]]), np.array([0, 0, 1]), 2)
        >>> gm.validate(Layout(2, (), (), 1, ("temp",)))  # fits: no output
        >>> gm.validate(Layout(2, (), (), 2, ("temp", "wind")))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.count: shape (2, 1) does not match (2, 2): 2 classes by 2 numeric ...
        """
        dims = ((layout.n_classes, "classes"), (layout.n_numeric, "numeric features"))
        count = checks.counts(self.count, f"{where}.count", dims)
        mean = checks.finite(self.mean, f"{where}.mean", dims)
        m2 = checks.nonnegative(self.m2, f"{where}.m2", dims)
        _no_rows_no_moments(count == 0, {"mean": mean, "m2": m2}, where)


def _no_rows_no_moments(empty: np.ndarray, fields: dict, where: str) -> None:
    """Moments of no rows are zero: ValueError naming the first field that is not, where
    ``empty`` marks the (class, feature) cells, or classes, of count zero."""
    for name, arr in fields.items():
        mask = empty.reshape(empty.shape + (1,) * (arr.ndim - empty.ndim))
        bad = np.broadcast_to(mask, arr.shape) & (arr != 0)
        if bad.any():
            at = tuple(int(i) for i in np.argwhere(bad)[0])
            checks.fail(
                f"{where}.{name}",
                f"is {float(arr[at]):.6g} at {at[0] if len(at) == 1 else at} where the count is "
                "0: the moments of no rows are zero",
            )


def gaussian_moments(
    values: np.ndarray, y: np.ndarray, n_classes: int, weights: np.ndarray | None = None
) -> GaussianMoments:
    """Per-class moments of every numeric feature, NaN skipped.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features)
        Numeric features, NaN = missing.
    y : ndarray of shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    n_classes : int
    weights : ndarray of shape (n_samples,), optional
        Non-negative row weights (one each by default).

    Returns
    -------
    GaussianMoments
        ``count``, ``mean`` and ``m2`` (sum of squared deviations), each of shape
        ``(n_classes, n_features)``; mergeable with ``+``.

    Examples
    --------
    >>> gm = gaussian_moments(np.array([[1.0], [3.0], [5.0]]), np.array([0, 0, 1]), 2)
    >>> gm.count.ravel(), gm.mean.ravel(), gm.m2.ravel()
    (array([2., 1.]), array([2., 5.]), array([2., 0.]))
    """
    y = np.ascontiguousarray(y, dtype=np.intp)
    w = np.ones(len(y)) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    v = np.ascontiguousarray(values, dtype=np.float64)
    if v.shape[1] == 0 or v.shape[0] == 0:
        z = np.zeros((n_classes, v.shape[1]))
        return GaussianMoments(z, z.copy(), z.copy())
    count, mean, m2 = moment_sums(v, y, w, n_classes)
    return GaussianMoments(count, mean, m2)


@dataclass(frozen=True)
class ScatterMoments:
    """Per-class weighted count ``(n_classes,)``, mean ``(n_classes, d)`` and scatter matrix
    ``sum w (x - mean)(x - mean)^T`` of shape ``(n_classes, d, d)``, over complete rows.

    Attributes
    ----------
    count : ndarray of shape (n_classes,)
    mean : ndarray of shape (n_classes, d)
    scatter : ndarray of shape (n_classes, d, d)

    Examples
    --------
    >>> x = np.array([[0.0, 0.0], [2.0, 2.0], [1.0, 5.0]])
    >>> sm = scatter_moments(x[:2], np.array([0, 0]), 1) + scatter_moments(x[2:], np.array([0]), 1)
    >>> sm.count.tolist(), sm.mean.round(4).tolist()
    ([3.0], [[1.0, 2.3333]])
    """

    count: np.ndarray
    mean: np.ndarray
    scatter: np.ndarray

    def __add__(self, other: ScatterMoments) -> ScatterMoments:
        n, frac_b, cross = _chan_weights(self.count, other.count)
        delta = other.mean - self.mean
        mean = self.mean + delta * frac_b[:, None]
        outer = np.einsum("ci,cj->cij", delta, delta) * cross[:, None, None]
        return ScatterMoments(n, mean, self.scatter + other.scatter + outer)

    def pooled(self) -> ScatterMoments:
        """The moments of all classes together, count of shape ``(1,)``.

        Returns
        -------
        ScatterMoments
            One class: the classes merged by the same exact ``+`` that merges chunks of data
            (the scatter about the pooled mean).

        Examples
        --------
        >>> x, y = np.array([[0.0, 0.0], [2.0, 2.0], [1.0, 5.0]]), np.array([0, 0, 1])
        >>> pooled = scatter_moments(x, y, 2).pooled()
        >>> pooled.count.tolist(), pooled.scatter[0].round(4).tolist()
        ([3.0], [[2.0, 2.0], [2.0, 12.6667]])
        """
        return _pooled(self)

    def validate(self, layout: Layout, where: str = "stats_") -> None:
        """Check the moments fit ``layout`` (read from a model file): float64 count
        ``(n_classes,)`` finite and non-negative, mean ``(n_classes, d)`` finite, and scatter
        ``(n_classes, d, d)`` finite, symmetric and positive semi-definite (up to rounding), with
        ``d = n_numeric``; mean and scatter zero where the count is.

        Parameters
        ----------
        layout : Layout
            The number of classes and of numeric features (``n_classes``, ``n_numeric``).
        where : str, optional
            The moments' path in the model, which starts every error message. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If the moments do not fit, naming the field and the problem (``stats_.scatter[0]``).

        Examples
        --------
        >>> x, y = np.array([[0.0, 0.0], [2.0, 2.0], [1.0, 5.0]]), np.array([0, 0, 1])
        >>> sm = scatter_moments(x, y, 2)
        >>> sm.validate(Layout(2, (), (), 2, ("a", "b")))  # fits: no output
        >>> sm.scatter[0] = [[1.0, 2.0], [2.0, 1.0]]  # edited: an eigenvalue of -1
        >>> sm.validate(Layout(2, (), (), 2, ("a", "b")))
        Traceback (most recent call last):
        ...
        ValueError: stats_.scatter[0]: is not positive semi-definite (eigenvalue -1)
        """
        n_classes, d = layout.n_classes, layout.n_numeric
        features = (d, "numeric features")
        checks.counts(self.count, f"{where}.count", ((n_classes, "classes"),))
        checks.finite(self.mean, f"{where}.mean", ((n_classes, "classes"), features))
        where_s = f"{where}.scatter"
        s = checks.finite(self.scatter, where_s, ((n_classes, "classes"), features, features))
        empty = np.asarray(self.count) == 0
        _no_rows_no_moments(empty, {"mean": self.mean, "scatter": s}, where)
        for c in range(n_classes):
            size = float(np.abs(s[c]).max()) if d else 0.0
            if np.abs(s[c] - s[c].T).max(initial=0.0) > 1e-9 * size:
                checks.fail(f"{where_s}[{c}]", "is not symmetric")
            # a scatter matrix sum w z z^T is positive semi-definite; allow for rounding
            low = float(np.linalg.eigvalsh(s[c]).min()) if d else 0.0
            if low < -1e-8 * max(float(np.trace(s[c])), 0.0):
                checks.fail(
                    f"{where_s}[{c}]", f"is not positive semi-definite (eigenvalue {low:.3g})"
                )


def scatter_moments(
    values: np.ndarray, y: np.ndarray, n_classes: int, weights: np.ndarray | None = None
) -> ScatterMoments:
    """Per-class mean and scatter matrix over the rows with no missing value.

    ``weights`` must be non-negative (the classifiers check this where ``sample_weight`` enters):
    the scatter ``sum w (x - mean)(x - mean)^T`` is formed as ``z^T z`` with
    ``z = sqrt(w) (x - mean)``, which numpy hands to BLAS as one symmetric rank-k update (half
    the work of a general product, and symmetric by construction).

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features)
        Numeric features, NaN = missing.
    y : ndarray of shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    n_classes : int
    weights : ndarray of shape (n_samples,), optional
        Non-negative row weights (one each by default).

    Returns
    -------
    ScatterMoments
        ``count`` ``(n_classes,)``, ``mean`` ``(n_classes, n_features)`` and ``scatter``
        ``(n_classes, n_features, n_features)``; mergeable with ``+``.

    Examples
    --------
    >>> sm = scatter_moments(np.array([[0.0, 0.0], [2.0, 2.0], [1.0, 5.0]]), np.array([0, 0, 1]), 2)
    >>> sm.count, sm.scatter[0]
    (array([2., 1.]), array([[2., 2.],
           [2., 2.]]))
    """
    d = values.shape[1]
    complete = ~np.isnan(values).any(axis=1)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    count = np.zeros(n_classes)
    mean = np.zeros((n_classes, d))
    scatter = np.zeros((n_classes, d, d))
    for c in range(n_classes):
        rows = complete & (y == c)
        wc = w[rows]
        nc = wc.sum()
        count[c] = nc
        if nc <= 0:
            continue
        # a fresh float64 copy (boolean index): centre and weight it in place
        z = np.asarray(values[rows], dtype=np.float64)
        mean[c] = wc @ z / nc
        z -= mean[c]
        if weights is not None:
            z *= np.sqrt(wc)[:, None]
        scatter[c] = z.T @ z
    return ScatterMoments(count, mean, scatter)


@dataclass(frozen=True)
class ShrinkageMoments:
    """Scatter moments plus the row-norm moments Ledoit-Wolf shrinkage needs, per class.

    Attributes
    ----------
    scatter : ScatterMoments
        Count ``(n_classes,)``, mean ``(n_classes, d)``, scatter ``(n_classes, d, d)``.
    norm3 : ndarray of shape (n_classes, d)
        ``sum w ||x - mean||^2 (x - mean)``.
    norm4 : ndarray of shape (n_classes,)
        ``sum w ||x - mean||^4``.

    Like the scatter matrix, both are taken over the complete rows (no NaN) only.

    Merging shifts each side's moments to the merged mean ``m + e``: with ``S`` the scatter,
    ``n`` the count and ``E = ||e||^2``,

        norm3' = norm3 - tr(S) e - 2 S e - n E e
        norm4' = norm4 - 4 e . norm3 + 4 e^T S e + 2 E tr(S) + n E^2

    (expand ``||u - e||^4`` and ``||u - e||^2 (u - e)`` with ``sum w u = 0``), then adds.

    Examples
    --------
    >>> x, y = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, -1.0]]), np.array([0, 0, 0])
    >>> whole = shrinkage_moments(x, y, 1)
    >>> parts = shrinkage_moments(x[:1], y[:1], 1) + shrinkage_moments(x[1:], y[1:], 1)
    >>> bool(np.allclose(whole.norm4, parts.norm4) and np.allclose(whole.norm3, parts.norm3))
    True
    """

    scatter: ScatterMoments
    norm3: np.ndarray
    norm4: np.ndarray

    @property
    def count(self) -> np.ndarray:
        return self.scatter.count

    @property
    def mean(self) -> np.ndarray:
        return self.scatter.mean

    def _shifted(self, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s, n = self.scatter.scatter, self.scatter.count
        tr = np.trace(s, axis1=1, axis2=2)
        se = np.einsum("cij,cj->ci", s, e)
        big_e = np.einsum("ci,ci->c", e, e)
        norm3 = self.norm3 - tr[:, None] * e - 2.0 * se - (n * big_e)[:, None] * e
        norm4 = (
            self.norm4
            - 4.0 * np.einsum("ci,ci->c", e, self.norm3)
            + 4.0 * np.einsum("ci,ci->c", e, se)
            + 2.0 * big_e * tr
            + n * big_e**2
        )
        return norm3, norm4

    def __add__(self, other: ShrinkageMoments) -> ShrinkageMoments:
        scatter = self.scatter + other.scatter
        a3, a4 = self._shifted(scatter.mean - self.mean)
        b3, b4 = other._shifted(scatter.mean - other.mean)
        return ShrinkageMoments(scatter, a3 + b3, a4 + b4)

    def pooled(self) -> ShrinkageMoments:
        """The moments of all classes together, count of shape ``(1,)``.

        Returns
        -------
        ShrinkageMoments
            One class: the classes merged by the same exact ``+`` that merges chunks of data.

        Examples
        --------
        >>> x = np.array([[0.0, 0.0], [2.0, 2.0], [1.0, 5.0]])
        >>> pooled = shrinkage_moments(x, np.array([0, 0, 1]), 2).pooled()
        >>> whole = shrinkage_moments(x, np.array([0, 0, 0]), 1)  # one class from the start
        >>> bool(np.allclose(pooled.norm4, whole.norm4) and np.allclose(pooled.norm3, whole.norm3))
        True
        """
        return _pooled(self)

    def validate(self, layout: Layout, where: str = "stats_") -> None:
        """Check the moments fit ``layout`` (read from a model file): the scatter moments (see
        :meth:`ScatterMoments.validate`), norm3 ``(n_classes, n_numeric)`` finite, norm4
        ``(n_classes,)`` finite and non-negative, both zero where the count is.

        Parameters
        ----------
        layout : Layout
            The number of classes and of numeric features (``n_classes``, ``n_numeric``).
        where : str, optional
            The moments' path in the model, which starts every error message. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If the moments do not fit, naming the field and the problem.

        Examples
        --------
        >>> x, y = np.array([[0.0, 0.0], [2.0, 2.0], [1.0, 5.0]]), np.array([0, 0, 1])
        >>> sm = shrinkage_moments(x, y, 2)
        >>> sm.validate(Layout(2, (), (), 2, ("a", "b")))  # fits: no output
        >>> sm.validate(Layout(3, (), (), 2, ("a", "b")))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.scatter.count: shape (2,) does not match (3,): 3 classes
        """
        if not isinstance(self.scatter, ScatterMoments):
            checks.fail(f"{where}.scatter", "expected ScatterMoments")
        self.scatter.validate(layout, f"{where}.scatter")
        classes = (layout.n_classes, "classes")
        dims = (classes, (layout.n_numeric, "numeric features"))
        norm3 = checks.finite(self.norm3, f"{where}.norm3", dims)
        norm4 = checks.nonnegative(self.norm4, f"{where}.norm4", (classes,))
        empty = self.scatter.count == 0
        _no_rows_no_moments(empty, {"norm3": norm3, "norm4": norm4}, where)


def shrinkage_moments(
    values: np.ndarray, y: np.ndarray, n_classes: int, weights: np.ndarray | None = None
) -> ShrinkageMoments:
    """Per-class scatter moments and row-norm moments over the rows with no missing value.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features)
        Numeric features, NaN = missing.
    y : ndarray of shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    n_classes : int
    weights : ndarray of shape (n_samples,), optional
        Non-negative row weights (one each by default).

    Returns
    -------
    ShrinkageMoments
        The :class:`ScatterMoments` and the moments of the squared row norms (``norm3``,
        ``norm4``) that the Ledoit-Wolf intensity needs; mergeable with ``+``.

    Examples
    --------
    >>> sm = shrinkage_moments(np.array([[0.0, 0.0], [2.0, 2.0]]), np.array([0, 0]), 1)
    >>> sm.scatter.scatter[0].tolist(), sm.norm4.tolist()
    ([[2.0, 2.0], [2.0, 2.0]], [8.0])
    """
    scatter = scatter_moments(values, y, n_classes, weights)
    d = values.shape[1]
    norm3 = np.zeros((n_classes, d))
    norm4 = np.zeros(n_classes)
    if d == 0:
        return ShrinkageMoments(scatter, norm3, norm4)
    y = np.asarray(y)
    complete = ~np.isnan(values).any(axis=1)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    for c in range(n_classes):
        if scatter.count[c] <= 0:
            continue
        rows = complete & (y == c)
        dev = values[rows] - scatter.mean[c]
        r = np.einsum("ij,ij->i", dev, dev)
        wr = w[rows] * r
        norm3[c] = wr @ dev
        norm4[c] = wr @ r
    return ShrinkageMoments(scatter, norm3, norm4)


def nonfinite_features(moments: GaussianMoments | ScatterMoments | ShrinkageMoments) -> np.ndarray:
    """Which features hold a non-finite mean or second moment in some class, shape
    ``(n_features,)``: values so large that their squares overflow float64 (or a mean that does).

    The second moment of feature ``j`` is ``M2`` for :class:`GaussianMoments` and the diagonal
    entry ``S_jj`` of the scatter matrix otherwise (an off-diagonal entry is bounded by
    ``sqrt(S_ii S_jj)``, so it cannot overflow while both diagonal entries are finite).

    Parameters
    ----------
    moments : GaussianMoments, ScatterMoments or ShrinkageMoments

    Returns
    -------
    ndarray of bool of shape (n_features,)

    Examples
    --------
    >>> gm = gaussian_moments(np.array([[1.0, 1e200], [2.0, -1e200]]), np.array([0, 0]), 1)
    >>> nonfinite_features(gm)
    array([False,  True])
    """
    if isinstance(moments, ShrinkageMoments):
        moments = moments.scatter
    if isinstance(moments, ScatterMoments):
        second = np.diagonal(moments.scatter, axis1=1, axis2=2)
    else:
        second = moments.m2
    return ~(np.isfinite(moments.mean) & np.isfinite(second)).all(axis=0)


#: Below this magnitude a square underflows float64's normal range (sqrt of the smallest normal).
TINY_SCALE = float(np.sqrt(np.finfo(np.float64).tiny))


def underflowed_features(
    moments: GaussianMoments | ScatterMoments | ShrinkageMoments,
) -> np.ndarray:
    """Which features have a second moment of exactly 0 over all classes although their values
    differ, or are so small that their squares underflow, shape ``(n_features,)``.

    Values of order 1e-300 differ, but their squared deviations are 0 in float64, so the variance
    comes out as 0 and every value off a class mean looks impossible. The moments show it when
    the class means differ while the pooled second moment is 0, or when the means are nonzero
    but below ``TINY_SCALE``. Models warn about such columns by name: the cure is to rescale.

    Parameters
    ----------
    moments : GaussianMoments, ScatterMoments or ShrinkageMoments

    Returns
    -------
    ndarray of bool of shape (n_features,)

    Examples
    --------
    >>> gm = gaussian_moments(np.array([[1e-300, 1.0], [3e-300, 1.0]]), np.array([0, 1]), 2)
    >>> underflowed_features(gm)
    array([ True, False])
    """
    if isinstance(moments, ShrinkageMoments):
        moments = moments.scatter
    if isinstance(moments, ScatterMoments):
        second = np.diagonal(moments.pooled().scatter, axis1=1, axis2=2)[0]
        seen = np.broadcast_to((moments.count > 0)[:, None], moments.mean.shape)
    else:
        second, seen = moments.pooled().m2[0], moments.count > 0
    mean = np.where(seen, moments.mean, np.nan)
    with np.errstate(invalid="ignore"):
        spread = np.nanmax(mean, axis=0, initial=-np.inf) > np.nanmin(mean, axis=0, initial=np.inf)
        size = np.nanmax(np.abs(np.where(seen, mean, 0.0)), axis=0, initial=0.0)
    return (second == 0) & seen.any(axis=0) & (spread | ((size > 0) & (size < TINY_SCALE)))
