"""The neighbour searches of the K-nearest-neighbour classifier
(:class:`~bayeskit.classifiers.KNNBayes`, which calls them with itself as ``model``): one
index per pattern of missing values among the query rows, the class votes and ball radius of
each query, and the ``k`` nearest training rows, measured exactly for a query far outside the
training rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.classifiers._knn_geometry import FAR, far_distances, p_norm
from bayeskit.classifiers._knn_votes import ball_votes
from bayeskit.data.missing import row_patterns
from bayeskit.data.schema import Encoded

__all__ = ["neighbours", "search", "searches"]


def searches(model: Any, enc: Encoded):
    """For each pattern of missing values among the query rows: the rows, their points over
    the observed features, an index over the same dimensions, the number of observed numeric
    features and the sum of their log scales."""
    points = model._embed(enc.codes, enc.values, 1.0)  # the data's units; see neighbours
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
            index = model._index(model._embedding[:, cols])
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
