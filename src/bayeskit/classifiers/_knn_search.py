"""The geometry and neighbour searches of the K-nearest-neighbour classifier
(:class:`~bayeskit.classifiers.KNNBayes`, which calls them with itself as ``model``): the
numeric features' mean and scale, rows embedded as points and a neighbour index over them, one
index per pattern of missing values among the query rows, the class votes and ball radius of
each query, and the ``k`` nearest training rows, measured exactly for a query far outside the
training rows.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from sklearn.neighbors import NearestNeighbors

from bayeskit.classifiers._knn_geometry import FAR, far_distances, p_norm, unit_for
from bayeskit.classifiers._knn_votes import ball_votes
from bayeskit.data.missing import row_patterns
from bayeskit.data.schema import Encoded
from bayeskit.estimate import gaussian_parameters
from bayeskit.stats import KNNStats, gaussian_moments

__all__ = [
    "Ball",
    "embed",
    "mean_and_scale",
    "neighbour_index",
    "neighbours",
    "search",
    "searches",
]


class Ball(NamedTuple):
    """The neighbourhood of each query row."""

    votes: np.ndarray  # (n, n_classes) class votes: K_i, or inverse-distance sums
    counts: np.ndarray  # (n, n_classes) K_i, votes rescaled to sum to K
    radius: np.ndarray  # (n,) distance to the K-th neighbour
    n_dims: np.ndarray  # (n,) numeric dimensions the distance was measured over
    log_scale: np.ndarray  # (n,) sum of log scale_ over those dimensions


def mean_and_scale(st: KNNStats, *, standard: bool) -> tuple[np.ndarray, np.ndarray]:
    """The weighted mean of each numeric feature over the training rows ``st``, and what it
    is divided by: its standard deviation with ``standard`` (1 for a constant feature), else 1.
    """
    u = unit_for(st.values)
    moments = gaussian_moments(st.values * u, np.zeros(len(st.y), dtype=np.intp), 1, st.weight)
    mean, var = gaussian_parameters(moments, ddof=0, backoff=False)
    mean_ = mean[0] / u
    if standard:
        n, observed = moments.count[0], np.isfinite(var[0])
        var = np.where(observed, var[0], 0.0)
        # constant up to the rounding of the mean: scikit-learn's StandardScaler test
        eps = np.finfo(np.float64).eps
        constant = var <= n * eps * var + (n * mean[0] * eps) ** 2
        return mean_, np.where(observed & ~constant, np.sqrt(var) / u, 1.0)
    return mean_, np.ones_like(mean_)


def embed(model: Any, codes: np.ndarray, values: np.ndarray, unit: float) -> np.ndarray:
    """Rows as points: numeric values (scaled), then one scaled one-hot block per categorical
    feature (all zeros for a missing value)."""
    n = codes.shape[0]
    numeric = values if model.scale is None else (values - model.mean_) / model.scale_
    if unit != 1.0:
        numeric = numeric * unit
    if not model._onehot_size:
        return np.ascontiguousarray(numeric, dtype=np.float64)
    p = model._p_exp
    level = unit * (
        model.categorical_weight if np.isinf(p) else (model.categorical_weight / 2.0) ** (1.0 / p)
    )
    onehot = np.zeros((n, model._onehot_size))
    rows = np.arange(n)
    for j in range(codes.shape[1]):
        ok = codes[:, j] >= 0
        onehot[rows[ok], model._onehot_offsets[j] + codes[ok, j]] = level
    return np.ascontiguousarray(np.hstack([numeric, onehot]))


def neighbour_index(model: Any, points: np.ndarray) -> NearestNeighbors | None:
    """A neighbour index over ``points`` (None for points of no dimension)."""
    if points.shape[1] == 0:
        return None
    algorithm = model.algorithm
    if algorithm == "auto" and model.ties == "share":
        algorithm = "kd_tree" if points.shape[1] <= 15 else "ball_tree"
    return NearestNeighbors(
        n_neighbors=model.n_neighbors, algorithm=algorithm, metric=model.metric, p=model.p
    ).fit(points)


def searches(model: Any, enc: Encoded):
    """For each pattern of missing values among the query rows: the rows, their points over
    the observed features, an index over the same dimensions, the number of observed numeric
    features and the sum of their log scales."""
    points = embed(model, enc.codes, enc.values, 1.0)  # the data's units; see neighbours
    miss_num = np.isnan(enc.values)
    miss = np.hstack([miss_num, enc.codes < 0]) if model._onehot_size else miss_num
    n_num = miss_num.shape[1]
    log_scale = np.log(model.scale_)
    for pattern, rows in row_patterns(miss):
        observed = ~pattern[:n_num]
        if not pattern.any():
            cols, index = np.arange(points.shape[1]), model.index_
        else:
            cols = np.concatenate(
                [np.zeros(0, np.int64)] + [model._columns[j] for j in np.flatnonzero(~pattern)]
            )
            index = neighbour_index(model, model._embedding[:, cols])
        yield (
            rows,
            points[np.ix_(rows, cols)],
            (index, cols),
            int(observed.sum()),
            log_scale[observed].sum(),
        )


def search(model: Any, index, points: np.ndarray):
    """Class votes and ball radius of each query point, querying more neighbours for the
    rows whose first ones do not reach weight K (or, with ties="share", all tied rows)."""
    st, n_classes = model.stats_, len(model.classes_)
    m, n_rows = points.shape[0], st.y.shape[0]
    if index[0] is None:  # no dimension to measure: every training row is at distance 0
        share = model._target / st.weight.sum()
        return np.tile(st.class_count * share, (m, 1)), np.zeros(m)
    votes, radius = np.zeros((m, n_classes)), np.zeros(m)
    todo = np.arange(m)
    k = min(model.n_neighbors, n_rows)
    while todo.size:
        dist, ind, offset, unit = neighbours(model, index, points[todo], k)
        done, v, r = ball_votes(
            dist, ind, offset, st, n_classes, model._target,
            ties=model.ties, weights=model.weights, full=k == n_rows,
        )  # fmt: skip
        r /= unit  # the radius in the data's units
        votes[todo[done]], radius[todo[done]] = v[done], r[done]
        todo, k = todo[~done], min(2 * k, n_rows)
    return votes, radius


def neighbours(model: Any, index, points: np.ndarray, k: int):
    """The ``k`` nearest training rows of each query point (given in the data's units):
    ``(dist, ind, offset, unit)``, where the distance of ``ind[i, j]`` in the data's units
    is ``(offset[i] + dist[i, j]) / unit[i]``.

    Ordinary queries go to the index, in the embedding's units (``unit`` = the model's
    power of two, ``offset`` = 0). A query so far from the training rows that float64
    cannot tell their distances apart, or would overflow computing them, is measured
    exactly relative to its distance ``R`` from the centre of the training rows' bounding
    box (:func:`far_distances`), in units where ``R`` is near 1 (``unit`` = a power of two
    of its own): ``offset`` is ``R`` and ``dist`` the excess over it, which orders the rows
    as the exact distances do.
    """
    nn, cols = index
    centre, half = model._box_centre[cols], model._box_half[cols]
    dev = points - centre
    p = model._p_exp
    top = np.abs(dev).max(axis=1, initial=0.0)
    row_unit = np.where(top > 0, 2.0 ** -np.floor(np.log2(np.where(top > 0, top, 1.0))), 1.0)
    radius = p_norm(dev * row_unit[:, None], p) / row_unit
    extent = float(p_norm(half[None, :], p)[0])
    far = radius > FAR * extent
    if np.isfinite(p):  # p-th powers of distances in the index's units overflow past 2^1000
        log_reach = np.log2(np.maximum(radius + extent, np.finfo(np.float64).tiny))
        far |= p * (log_reach + np.log2(model._unit)) > 1000
    m = points.shape[0]
    dist, ind = np.zeros((m, k)), np.zeros((m, k), dtype=np.intp)
    offset, unit = np.zeros(m), np.full(m, model._unit)
    near = ~far
    if near.any():
        query = points[near] * model._unit if model._unit != 1.0 else points[near]
        dist[near], ind[near] = nn.kneighbors(query, n_neighbors=k)
    if far.any():
        train = model._raw_embedding[:, cols] - centre
        u = row_unit[far]
        excess = far_distances(dev[far] * u[:, None], train, u, p)
        order = np.argsort(excess, axis=1, kind="stable")[:, :k]
        dist[far] = np.take_along_axis(excess, order, axis=1)
        ind[far], offset[far], unit[far] = order, radius[far] * u, u
    return dist, ind, offset, unit
