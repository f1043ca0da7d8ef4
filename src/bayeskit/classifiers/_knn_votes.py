"""The votes of the K-nearest-neighbour classifier (:class:`~bayeskit.classifiers.KNNBayes`):
from the sorted neighbour lists of query rows, the ball holding a weight of K (the row that
crosses K counting partly, or rows tied at the K-th distance sharing what is left), and each
class's votes in it, ``K_i`` or inverse-distance sums (Zaki & Meira, Sect. 18.3).
"""

from __future__ import annotations

import numpy as np

from bayeskit.stats import KNNStats


def ball_votes(
    dist: np.ndarray,
    ind: np.ndarray,
    offset: np.ndarray,
    stats: KNNStats,
    n_classes: int,
    target: float,
    *,
    ties: str,
    weights: str,
    full: bool,
):
    """Votes from sorted neighbour lists ``(m, k)``: training rows ``ind`` of ``stats`` at
    distances ``offset + dist``, to fill a ball of weight ``target`` (K, or the total weight
    when that is less); ``full`` when the lists hold every training row. Returns ``done`` (the
    rows the lists suffice for), the votes ``(m, n_classes)`` and the ball radius
    ``offset + r``. ``ties`` and ``weights`` as in :class:`~bayeskit.classifiers.KNNBayes`."""
    w = stats.weight[ind]
    cum = np.cumsum(w, axis=1)
    reached = cum >= target * (1.0 - 1e-12)
    if full:
        reached[:, -1] = True
    done = reached.any(axis=1)
    rows = np.arange(dist.shape[0])
    r = dist[rows, np.argmax(reached, axis=1)]
    if ties == "index":
        share = np.minimum(np.maximum(target - (cum - w), 0.0), w)
    else:
        if not full:
            done &= dist[:, -1] > r
        inside, tied = dist < r[:, None], dist == r[:, None]
        left = target - (w * inside).sum(axis=1)
        share = w * inside + w * tied * (left / (w * tied).sum(axis=1))[:, None]
    if weights == "distance":
        true = offset[:, None] + dist
        at_zero = (true == 0) & (share > 0)
        inverse = np.divide(1.0, true, out=np.zeros_like(true), where=true > 0)
        voted = np.where(at_zero.any(axis=1)[:, None], share * at_zero, share * inverse)
        # 1 / distance underflows only where every distance is the same to float64 (beyond
        # 1e308): the inverse-distance weights are then equal
        share = np.where((voted.sum(axis=1) > 0)[:, None], voted, share)
    flat = (rows[:, None] * n_classes + stats.y[ind]).ravel()
    v = np.bincount(flat, weights=share.ravel(), minlength=dist.shape[0] * n_classes)
    return done, v.reshape(-1, n_classes), offset + r
