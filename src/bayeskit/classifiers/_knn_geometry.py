"""Distances and ball volumes in ``L_p`` spaces for the K-nearest-neighbour classifier
(:class:`~bayeskit.classifiers.KNNBayes`): a power-of-two unit that keeps squared distances of
very large or very small data finite, the ``p``-norm without overflow, exact distances from a
query far outside the training rows, and the volume of the ball reaching the K-th neighbour
(Zaki & Meira, Sect. 18.3 and eq. 6.4).
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

#: A query further than this many times the training rows' extent from their centre is "far":
#: float64 arithmetic on its distances would lose the differences between training rows
#: (relative error of the direct form ~ eps * R, of the expansion ~ extent / R: equal at 2^26).
FAR = 2.0**26


def unit_for(numeric: np.ndarray) -> float:
    """A power of two that brings the largest numeric coordinate near 1 when it is outside
    [2^-100, 2^100] (1 otherwise): multiplying by it is exact, so neighbours and inverse-distance
    shares are unchanged, while distances of data at 1e300 or 1e-300 no longer overflow or
    underflow when squared."""
    finite = np.abs(numeric[np.isfinite(numeric)])
    top = float(finite.max()) if finite.size else 0.0
    if top == 0.0 or 2.0**-100 <= top <= 2.0**100:
        return 1.0
    return float(2.0 ** -np.floor(np.log2(top)))


def p_norm(x: np.ndarray, p: float) -> np.ndarray:
    """Row-wise ``||x||_p``, scaled by each row's largest entry so it never overflows."""
    a = np.abs(x)
    top = a.max(axis=1, initial=0.0)
    if np.isinf(p):
        return top
    safe = np.where(top > 0, top, 1.0)
    return top * ((a / safe[:, None]) ** p).sum(axis=1) ** (1.0 / p)


def far_distances(y: np.ndarray, w: np.ndarray, scale: np.ndarray, p: float) -> np.ndarray:
    """``d_p(y, w s) - ||y||_p`` for query rows ``y`` (m, d) far from the training rows ``w``
    (n, d), both relative to the same centre, each query row in its own units: row ``i`` of
    ``y`` is already multiplied by ``scale[i]``, and ``w`` is multiplied by it here. Shape
    ``(m, n)``, in each row's units.

    Exact algebra rather than an approximation: with ``R = ||y||_p`` and
    ``s = sum_j (|y_j - w_j|^p - |y_j|^p) / R^p``, ``d = R (1 + s)^(1/p)``, so the excess is
    ``R expm1(log1p(s) / p)``. Each term of ``s`` is formed without cancellation: where
    ``|y_j| >= |w_j| > 0`` it is ``(|y_j|/R)^p expm1(p log1p(-sign(y_j) w_j / |y_j|))``. For
    Chebyshev (``p = inf``) the excess is ``max_j (|y_j| - R + |y_j - w_j| - |y_j|)``.
    """
    out = np.empty((y.shape[0], w.shape[0]))
    radius = p_norm(y, p)
    step = max(1, (1 << 22) // max(1, w.size))
    for lo in range(0, y.shape[0], step):
        yb = y[lo : lo + step, None, :]
        wb = w[None, :, :] * scale[lo : lo + step, None, None]
        rb = radius[lo : lo + step, None, None]
        ay = np.abs(yb)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            big = (ay >= np.abs(wb)) & (ay > 0)
            ratio = np.where(big, -np.sign(yb) * wb / np.where(ay > 0, ay, 1.0), 0.0)
            if np.isinf(p):
                excess = np.where(big, ay * ratio, np.abs(yb - wb) - ay)
                out[lo : lo + step] = ((ay - rb) + excess).max(axis=2)
                continue
            rel = (ay / rb) ** p
            term = np.where(
                big, rel * np.expm1(p * np.log1p(ratio)), (np.abs(yb - wb) / rb) ** p - rel
            )
            total = np.maximum(term.sum(axis=2), -1.0)  # d >= 0: rounding may pass -1
            out[lo : lo + step] = rb[:, :, 0] * np.expm1(np.log1p(total) / p)
    return out


def log_ball_volume(radius: np.ndarray, n_dims: np.ndarray, p: float) -> np.ndarray:
    """``log V`` of the ``L_p`` ball of radius ``r`` in ``d`` dimensions.

    ``V = (2 Gamma(1 + 1/p))^d r^d / Gamma(1 + d/p)``; for ``p = 2`` this is Zaki's eq. (6.4),
    ``pi^(d/2) r^d / Gamma(d/2 + 1)``; for ``p = 1`` it is ``2^d r^d / d!`` and for ``p = inf``
    (Chebyshev) ``(2r)^d``. ``r = 0`` gives ``-inf`` (a ball of no volume); ``d = 0`` gives 0.
    """
    d = n_dims.astype(np.float64)
    inv_p = 0.0 if np.isinf(p) else 1.0 / p
    with np.errstate(divide="ignore"):
        log_r = np.log(radius)
    radial = np.where(d > 0, d * np.where(d > 0, log_r, 0.0), 0.0)
    return d * (np.log(2.0) + gammaln(1.0 + inv_p)) - gammaln(1.0 + d * inv_p) + radial
