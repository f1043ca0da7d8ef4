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

__all__ = ["gaussian_log_density", "gaussian_parameters", "variance_floor"]

LOG_2PI = float(np.log(2.0 * np.pi))


def gaussian_parameters(moments: GaussianMoments, ddof: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance per (class, feature): var = M2 / (n - ddof) (Zhou eq. 7.12 for ddof=0).

    Where ``n - ddof <= 0`` (e.g. one sample with ``ddof=1``) the variance is 0; where a class has
    no data the mean is 0 and the variance ``inf``, so its density is 0 (log ``-inf``), never NaN.

    Examples
    --------
    >>> from bayeskit.stats import gaussian_moments
    >>> gm = gaussian_moments(np.array([[1.0], [3.0]]), np.array([0, 0]), 1)
    >>> gaussian_parameters(gm, ddof=1)
    (array([[2.]]), array([[2.]]))
    """
    n = moments.count
    dof = n - ddof
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.where(dof > 0, moments.m2 / np.where(dof > 0, dof, 1.0), 0.0)
    var = np.where(n > 0, np.maximum(var, 0.0), np.inf)
    return moments.mean.copy(), var


def variance_floor(moments: GaussianMoments, var_smoothing: float) -> float:
    """``var_smoothing`` times the largest ML variance of any feature over all classes.

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

    A zero variance gives ``+inf`` at the mean and ``-inf`` elsewhere; no NaN is produced for
    finite ``x``.

    Examples
    --------
    Zhou ch. 7.3, watermelon 3.0: p(density = 0.697 | ripe) with mean 0.57375, std 0.12921

    >>> float(np.exp(gaussian_log_density(0.697, 0.57375, 0.12921**2)).round(3))
    1.959
    """
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        dev2 = (x - mean) ** 2
        quad = np.where(dev2 == 0, 0.0, dev2 / var)
        out = -0.5 * (LOG_2PI + np.log(var) + quad)
    point_mass = np.broadcast_to(np.asarray(var) == 0, np.shape(out))
    if point_mass.any():
        out = np.where(point_mass, np.where(dev2 == 0, np.inf, -np.inf), out)
    return out[()] if isinstance(out, np.ndarray) else out
