"""Gaussian moments: the sufficient statistics of Gaussian class-conditional densities.

Per class, the weighted count ``n``, the mean and ``M2 = sum w (x - mean)^2`` (per feature for
naive Bayes; a full scatter matrix for the multivariate normal of full Bayes). Two sets of moments
merge exactly with the pairwise formulas of Chan, Golub and LeVeque (1979):

    n = n_a + n_b,  delta = mean_b - mean_a,
    mean = mean_a + delta * n_b / n,
    M2 = M2_a + M2_b + delta^2 * n_a * n_b / n     (outer(delta, delta) for scatter matrices)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bayeskit.stats._kernels import moment_sums

__all__ = ["GaussianMoments", "ScatterMoments", "gaussian_moments", "scatter_moments"]


def _chan_weights(n_a: np.ndarray, n_b: np.ndarray):
    n = n_a + n_b
    with np.errstate(invalid="ignore", divide="ignore"):
        frac_b = np.where(n > 0, n_b / np.where(n > 0, n, 1), 0.0)
        cross = np.where(n > 0, n_a * n_b / np.where(n > 0, n, 1), 0.0)
    return n, frac_b, cross


@dataclass(frozen=True)
class GaussianMoments:
    """Per-(class, feature) weighted count, mean and M2; all arrays ``(n_classes, n_features)``.

    Missing values are skipped feature by feature, so counts may differ between features.
    """

    count: np.ndarray
    mean: np.ndarray
    m2: np.ndarray

    def __add__(self, other: GaussianMoments) -> GaussianMoments:
        n, frac_b, cross = _chan_weights(self.count, other.count)
        delta = other.mean - self.mean
        return GaussianMoments(n, self.mean + delta * frac_b, self.m2 + other.m2 + delta**2 * cross)

    def pooled(self) -> GaussianMoments:
        """The moments of all classes together, shape ``(1, n_features)``."""
        out = GaussianMoments(self.count[:1] * 0, self.mean[:1] * 0, self.m2[:1] * 0)
        for c in range(self.count.shape[0]):
            out = out + GaussianMoments(self.count[c : c + 1], self.mean[c : c + 1], self.m2[c : c + 1])
        return out


def gaussian_moments(
    values: np.ndarray, y: np.ndarray, n_classes: int, weights: np.ndarray | None = None
) -> GaussianMoments:
    """Per-class moments of every numeric feature, NaN skipped.

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
    ``sum w (x - mean)(x - mean)^T`` of shape ``(n_classes, d, d)``, over complete rows."""

    count: np.ndarray
    mean: np.ndarray
    scatter: np.ndarray

    def __add__(self, other: ScatterMoments) -> ScatterMoments:
        n, frac_b, cross = _chan_weights(self.count, other.count)
        delta = other.mean - self.mean
        mean = self.mean + delta * frac_b[:, None]
        outer = np.einsum("ci,cj->cij", delta, delta) * cross[:, None, None]
        return ScatterMoments(n, mean, self.scatter + other.scatter + outer)


def scatter_moments(
    values: np.ndarray, y: np.ndarray, n_classes: int, weights: np.ndarray | None = None
) -> ScatterMoments:
    """Per-class mean and scatter matrix over the rows with no missing value.

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
        xc = values[rows]
        mean[c] = wc @ xc / nc
        dev = xc - mean[c]
        scatter[c] = (dev * wc[:, None]).T @ dev
    return ScatterMoments(count, mean, scatter)
