"""From Gaussian moments to parameters and log-densities.

The variance is ``M2 / (n - ddof)``: ``ddof=0`` is the maximum-likelihood estimate (Zhou eq. 7.12;
Zaki & Meira Algorithms 18.1 and 18.2; scikit-learn's GaussianNB), ``ddof=1`` the unbiased sample
variance that Zhou's worked watermelon example and Han's age example print.

A zero variance (a constant feature within a class) would make the density a point mass. Like
scikit-learn, bayeskit adds a small floor, ``var_smoothing * max_j Var(x_j)`` (variance of each
feature over all classes, ddof=0), to every variance before computing densities; the raw estimate
and the floor are kept apart so both can be inspected.
"""

from __future__ import annotations

import numpy as np

from bayeskit.stats.moments import GaussianMoments

__all__ = [
    "beyond_float64",
    "gaussian_log_density",
    "gaussian_log_terms",
    "gaussian_parameters",
    "variance_floor",
]

LOG_2PI = float(np.log(2.0 * np.pi))


def gaussian_parameters(
    moments: GaussianMoments, ddof: int = 0, *, backoff: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance per (class, feature): var = M2 / (n - ddof) (Zhou eq. 7.12 for ddof=0).

    Where ``n - ddof <= 0`` (e.g. one sample with ``ddof=1``) the variance is 0. A class that never
    observed a feature (every value missing, or no sample yet) has no estimate of its own: with
    ``backoff`` (the default) it takes the pooled mean and variance of all classes, which says
    the feature carries no evidence about that class; without, its mean is 0 and its variance
    ``inf``. A feature no class ever observed gets variance ``inf``: models skip it.

    Parameters
    ----------
    moments : GaussianMoments
        Per-class counts, means and ``M2`` of the numeric features.
    ddof : int, default=0
        Delta degrees of freedom: 0 the MLE, 1 the sample variance.
    backoff : bool, default=True
        Whether a class that never observed a feature takes the pooled estimate.

    Returns
    -------
    mean, var : ndarray of shape (n_classes, n_features)
        The means and the variances (before any floor).

    Examples
    --------
    >>> from bayeskit.stats import gaussian_moments
    >>> gm = gaussian_moments(np.array([[1.0], [3.0]]), np.array([0, 0]), 1)
    >>> gaussian_parameters(gm, ddof=1)
    (array([[2.]]), array([[2.]]))
    """
    mean, var = _raw_parameters(moments, ddof)
    if backoff and (moments.count <= 0).any():
        pooled_mean, pooled_var = _raw_parameters(moments.pooled(), ddof)
        empty = moments.count <= 0
        mean = np.where(empty, pooled_mean, mean)
        var = np.where(empty, pooled_var, var)
    return mean, var


def _raw_parameters(moments: GaussianMoments, ddof: int) -> tuple[np.ndarray, np.ndarray]:
    n = moments.count
    dof = n - ddof
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.where(dof > 0, moments.m2 / np.where(dof > 0, dof, 1.0), 0.0)
    var = np.where(n > 0, np.maximum(var, 0.0), np.inf)
    return moments.mean.copy(), var


def variance_floor(moments: GaussianMoments, var_smoothing: float) -> float:
    """``var_smoothing`` times the largest ML variance of any feature over all classes.

    Parameters
    ----------
    moments : GaussianMoments
    var_smoothing : float
        The fraction of the largest variance used as the floor.

    Returns
    -------
    float
        The floor added to every variance (0 for no feature).

    Examples
    --------
    >>> from bayeskit.stats import gaussian_moments
    >>> gm = gaussian_moments(np.array([[0.0, 0.0], [2.0, 10.0]]), np.array([0, 1]), 2)
    >>> variance_floor(gm, 1e-9)
    2.5e-08
    """
    pooled = moments.pooled()
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.where(pooled.count > 0, pooled.m2 / np.where(pooled.count > 0, pooled.count, 1), 0)
    return float(var_smoothing * (var.max() if var.size else 0.0))


def gaussian_log_density(x: np.ndarray, mean: np.ndarray, var: np.ndarray) -> np.ndarray:
    """log N(x | mean, var) = -(log(2 pi var) + (x - mean)^2 / var) / 2 (Zhou eq. 7.18).

    The deviation is standardised before it is squared, so the result is finite wherever the
    log-density is (``x`` at 1e200 from a unit-variance mean gives about -5e399: ``-inf``; at
    1e154, about -5e307, finite). A zero variance gives ``+inf`` at the mean and ``-inf``
    elsewhere; no NaN is produced for finite ``x``.

    Parameters
    ----------
    x, mean, var : array-like
        Values, means and variances, broadcast together.

    Returns
    -------
    ndarray or float
        ``log N(x | mean, var)``, of the broadcast shape (a float for scalars).

    Examples
    --------
    Zhou ch. 7.3, watermelon 3.0: p(density = 0.697 | ripe) with mean 0.57375, std 0.12921

    >>> float(np.exp(gaussian_log_density(0.697, 0.57375, 0.12921**2)).round(3))
    1.959
    >>> float(gaussian_log_density(1e154, 0.0, 1.0)) > -np.inf
    True
    """
    x = np.asarray(x, dtype=np.float64)
    log_norm, scale = gaussian_log_terms(np.asarray(var, dtype=np.float64))
    with np.errstate(over="ignore", invalid="ignore"):
        z = _standardised(x, mean, scale)
        out = log_norm - np.where(z == 0, 0.0, z * z)
    out = np.where(np.isinf(var), -np.inf, out)  # an infinitely wide density is 0 everywhere
    point_mass = np.broadcast_to(np.asarray(var) == 0, np.shape(out))
    if point_mass.any():
        dev = np.broadcast_to(x - mean, np.shape(out))
        out = np.where(point_mass, np.where(dev == 0, np.inf, -np.inf), out)
    return out[()] if isinstance(out, np.ndarray) else out


def _standardised(x: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``(x - mean) * scale``, scaling each first where ``x - mean`` alone overflows."""
    z = (x - mean) * scale
    return np.where(np.isinf(z), x * scale - mean * scale, z)


def gaussian_log_terms(var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two per-(class, feature) constants of a Gaussian log-density, for table look-up:
    ``log_norm = -log(2 pi var) / 2`` and ``scale = 1 / sqrt(2 var)``, so that
    ``log N(x | mean, var) = log_norm - ((x - mean) scale)^2`` (standardised before squaring).

    A variance of ``inf`` (a feature never observed) gives ``(0, 0)``: the feature adds nothing.
    A variance of 0 gives ``(inf, inf)``: a point mass, handled by the look-up kernel.

    Parameters
    ----------
    var : array-like
        Variances (``inf``: a feature never observed).

    Returns
    -------
    log_norm, scale : ndarray
        Of the shape of ``var``.

    Examples
    --------
    >>> log_norm, scale = gaussian_log_terms(np.array([0.5, np.inf]))
    >>> log_norm.round(4), scale
    (array([-0.5724,  0.    ]), array([1., 0.]))
    """
    var = np.asarray(var, dtype=np.float64)
    unobserved = np.isinf(var)
    with np.errstate(divide="ignore"):
        log_norm = np.where(unobserved, 0.0, -0.5 * (LOG_2PI + np.log(var)))
        scale = np.where(unobserved, 0.0, np.sqrt(0.5) / np.sqrt(var))  # 2 var may overflow
    return log_norm, scale


_BLOCK_ROWS = 1 << 16
#: The largest |z| whose square is finite in float64.
_Z_MAX = float(np.sqrt(np.finfo(np.float64).max))


def beyond_float64(values: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray | None:
    """Where a value is so far from every class's mean that each class's Gaussian log-density is
    below the range of float64: a boolean ``(n_samples, n_features)`` mask, or None if no value is.

    ``values`` is ``(n_samples, n_features)`` (NaN = missing), ``mean`` and ``scale`` (from
    :func:`gaussian_log_terms`) are ``(n_classes, n_features)``. Such a value gives ``-inf`` to
    every class, so it carries no usable evidence: models leave it out of the row (as if missing)
    and warn. Point masses (``scale = inf``) and unobserved features (``scale = 0``) are never
    flagged. The scan reads blocks of rows, with a per-feature threshold that no value of
    ordinary size reaches, so it costs one comparison per value.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features)
    mean, scale : ndarray of shape (n_classes, n_features)

    Returns
    -------
    ndarray of bool of shape (n_samples, n_features), or None

    Examples
    --------
    >>> log_norm, scale = gaussian_log_terms(np.array([[1.0], [4.0]]))
    >>> beyond_float64(np.array([[3.0], [1e200], [np.nan]]), np.array([[0.0], [1.0]]), scale)
    array([[False],
           [ True],
           [False]])
    >>> beyond_float64(np.array([[3.0]]), np.array([[0.0], [1.0]]), scale) is None
    True
    """
    values = np.asarray(values, dtype=np.float64)
    ok = np.isfinite(scale) & (scale > 0)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        # a value flagged is at least this far out for every class: |x| >= Z_MAX/scale - |mean|
        reach = np.where(ok, _Z_MAX / np.where(ok, scale, 1.0) - np.abs(mean), np.inf)
    threshold = reach.max(axis=0) * (1 - 1e-12) if reach.size else reach.sum(axis=0)
    if not np.isfinite(threshold).any():
        return None
    mask = None
    for lo in range(0, values.shape[0], _BLOCK_ROWS):
        block = values[lo : lo + _BLOCK_ROWS]
        near = (block > threshold) | (block < -threshold)
        if not near.any():
            continue
        rows, cols = np.nonzero(near)
        x = block[rows, cols]
        with np.errstate(over="ignore", invalid="ignore"):
            z = _standardised(x[None, :], mean[:, cols], scale[:, cols])
            dead = (ok[:, cols] & ~np.isfinite(z * z)).all(axis=0)
        if dead.any():
            if mask is None:
                mask = np.zeros(values.shape, dtype=bool)
            mask[lo + rows[dead], cols[dead]] = True
    return mask
