"""K nearest neighbours as a non-parametric Bayes classifier (Zaki & Meira, Sect. 18.3).

Let ``r`` be the distance from a test point ``x`` to its K-th nearest training point, ``B(x, r)``
the ball of radius ``r`` around it, of volume ``V``, and ``K_i`` the number of the K neighbours of
class ``c_i``. The class-conditional density is estimated as the fraction of the class inside the
ball over its volume,

    f(x | c_i) = K_i / (n_i V),

and with the prior ``P(c_i) = n_i / n`` Bayes' theorem gives the posterior
``P(c_i | x) = K_i / K`` (``V``, ``n_i`` and ``n`` cancel): the majority vote of the neighbours.

The model is a lazy learner: its "statistics" are the training rows themselves (:class:`KNNStats`,
mergeable by concatenation), so ``fit``, ``partial_fit`` and saving a model work as for every
other bayeskit classifier; estimating means building a neighbour index (scikit-learn's
:class:`~sklearn.neighbors.NearestNeighbors`: a k-d tree, ball tree or brute force) over them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers._checks import _check_choice, _check_number
from bayeskit.classifiers._knn_geometry import (
    log_ball_volume,
    unit_for,
)
from bayeskit.classifiers._knn_search import (
    Ball,
    embed,
    mean_and_scale,
    neighbour_index,
    neighbours,
    search,
    searches,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.classifiers._predict import normalise
from bayeskit.data.schema import Encoded
from bayeskit.stats import KNNStats, class_counts

__all__ = ["KNNBayes", "KNNStats"]

#: The exponent ``p`` of each metric's Minkowski distance (``None``: the parameter ``p``).
METRICS: dict[str, float | None] = {
    "euclidean": 2.0,
    "manhattan": 1.0,
    "chebyshev": np.inf,
    "minkowski": None,
}
_ALGORITHMS = ("auto", "ball_tree", "kd_tree", "brute")


class KNNBayes(BayesClassifier):
    """K nearest neighbours classifier, read as a Bayes classifier (Zaki & Meira, Sect. 18.3).

    ``P(c_i | x) = K_i / K``, where ``K_i`` of the ``K`` training rows nearest to ``x`` are of
    class ``c_i``; the class densities ``f(x | c_i) = K_i / (n_i V)`` are available from
    :meth:`density`, ``V`` being the volume of the ball reaching the K-th neighbour. With the
    default (empirical) class prior, predictions equal those of scikit-learn's
    :class:`~sklearn.neighbors.KNeighborsClassifier` with the same ``n_neighbors``, ``weights``,
    ``metric``, ``p`` and ``algorithm`` on numeric data.

    Distance. Over numeric features the Minkowski distance ``(sum_j |x_j - z_j|^p)^(1/p)``
    (``p`` = 2 euclidean, 1 manhattan, inf chebyshev). Over categorical features the overlap
    (Hamming) distance: each feature whose values differ adds ``categorical_weight`` to the sum
    of p-th powers, so on mixed data::

        d(x, z) = (sum_num |x_j - z_j|^p + categorical_weight * #{categorical j: x_j != z_j})^(1/p)

    and for chebyshev ``max(max_num |x_j - z_j|, categorical_weight * [any categorical differs])``.
    On all-categorical data every metric ranks neighbours by their number of mismatches, and
    ``metric="manhattan"`` reports that number (times ``categorical_weight``) as the distance.
    (Internally a categorical feature is a one-hot block scaled so that two different values are
    exactly ``categorical_weight`` apart in the p-th power sum; a tree index then serves mixed
    data too.) Numeric features are used as given (``scale=None``) or standardised by the
    (weighted) mean and standard deviation of the training rows (``scale="standard"``; a
    feature constant up to rounding, as scikit-learn's ``StandardScaler`` judges it, keeps
    scale 1).

    Missing values. A missing value in a query row drops that feature from the distance: it is
    measured over the row's observed features (an index over those dimensions is built for each
    pattern of missing values met), and the density is the marginal density over the observed
    numeric dimensions. In the training rows a missing numeric value is replaced by the feature's
    training mean when the index is built, and a missing category counts as half a mismatch against
    any observed value (its one-hot block is all zeros). A query row with no observed feature is
    equally near every training row: it gets the class frequencies. Posteriors are never NaN.

    Ties. Class ties in :meth:`predict` go to the first class in ``classes_`` (as scikit-learn
    does). Training rows at exactly the K-th distance: ``ties="index"`` takes the K rows the
    neighbour index returns, choosing among tied rows in its own order (scikit-learn's behaviour,
    so predictions agree with it, but they may depend on row order and on ``algorithm``);
    ``ties="share"`` puts every row at the K-th distance in the ball, sharing the votes left
    among them in proportion to their weights: the result is independent of the rows' order.

    Numerics. Distances are computed in the embedding times an exact power of two chosen so
    that the training data's largest coordinate is near 1 (only when it lies outside 2^-100 to
    2^100), so data at 1e300 or 1e-300 neither overflow nor underflow and neighbours are those
    of the unscaled data. A query so far from the training rows that float64 cannot tell their
    distances apart (further than 2^26 times their extent from the centre of their bounding
    box, or far enough for p-th powers to overflow) is measured by exact algebra relative to
    its distance from that centre, so a query at +1e200 finds the rows at the top end of the
    data and one at -1e200 those at the bottom end. Distance-weighted votes fall back to equal
    votes where every inverse distance underflows. A class of prior 0 gets probability 0.

    Sample weights. A row of weight ``w`` counts as ``w`` rows: the ball is the smallest one
    holding a total weight of ``K`` (the row that crosses ``K`` counts partly), ``K_i`` and
    ``n_i`` are weighted counts, so an integer weight equals repeating the row. If the training
    data hold a total weight below ``K``, every row is a neighbour.

    Parameters
    ----------
    n_neighbors : int, default=5
        ``K``, the number of neighbours.
    weights : {"uniform", "distance"}, default="uniform"
        ``"uniform"``: each neighbour has one vote, ``P(c_i | x) = K_i / K``. ``"distance"``: a
        neighbour's vote is the inverse of its distance, ``P(c_i | x)`` the share of class
        ``c_i`` in the votes (where some neighbours are at distance 0, only they vote, equally);
        :meth:`neighbor_counts` and :meth:`density` then use ``K_i = K * share_i``.
    metric : {"euclidean", "manhattan", "chebyshev", "minkowski"}, default="euclidean"
    p : float, default=2
        Exponent of the Minkowski distance, used with ``metric="minkowski"``; ``p >= 1``.
    scale : {None, "standard"}, default=None
        Numeric features as given, or standardised (see above).
    categorical_weight : float, default=1.0
        What a categorical mismatch adds to the sum of p-th powers of the distance (0 ignores
        categorical features).
    ties : {"index", "share"}, default="index"
        How training rows at exactly the K-th distance are treated (see above).
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, default="auto"
        The neighbour index, as in scikit-learn's ``NearestNeighbors``. With ``ties="share"``,
        ``"auto"`` means a tree (k-d tree up to 15 dimensions, else ball tree), which computes
        distances exactly so that equal distances are recognised; scikit-learn's brute-force
        euclidean distances go through a dot-product expansion whose rounding can part them.
    posterior_alpha : float, default=0.0
        Pseudo-count ``a`` added to every class's neighbour count in the posterior:
        ``P(c_i | x) = (K_i + a) / (K + a C)`` with the empirical prior (``P(c_i) (K_i + a) / n_i``,
        normalised, with ``priors`` or ``prior_alpha``). The default 0 is the estimate of Zaki &
        Meira (Sect. 18.3), ``K_i / K``, which gives probability exactly 0 to a class with no
        neighbour, so one such row costs a log-loss of infinity (clipped in practice); ``a > 0``
        keeps every posterior positive, which suits log-loss and probability ranking (measured
        in benchmarks/RESULTS.md). Only the posteriors (:meth:`predict_proba`,
        :meth:`predict_log_proba`, :meth:`predict` with costs) are smoothed:
        :meth:`predict_joint_log_proba`, :meth:`neighbor_counts` and :meth:`density` keep ``K_i``.
    priors : array-like of shape (n_classes,), optional
        Class probabilities to use instead of estimating them; the posterior is then
        proportional to ``P(c_i) K_i / n_i`` (the volume cancels).
    prior_alpha : float, default=0.0
        Pseudo-count for the estimated class prior: ``P(c) = (n_c + prior_alpha) / (n + C
        prior_alpha)``; 1 is the Laplacian correction (Zhou Eq. 7.19, Weka), 0 the relative
        frequencies (scikit-learn); with 0 the posterior is ``K_i / K``.
    categorical_features, categories :
        Which columns are categorical, and declared vocabularies; see
        :class:`bayeskit.data.Schema`.
    handle_unknown : {"missing", "warn", "error"}, default="missing"
        A category not seen in fit is treated as missing (optionally with a warning) or refused.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    schema_ : Schema
    stats_ : KNNStats
        The training rows (rows of zero weight left out), in the order they were given.
    class_count_ : ndarray of shape (n_classes,)
        ``n_i``, the weighted number of training rows of each class.
    log_prior_ : ndarray of shape (n_classes,)
    mean_ : ndarray of shape (n_numeric,)
        Weighted mean of each numeric feature over the training rows (used to fill their missing
        values, and to centre them with ``scale="standard"``).
    scale_ : ndarray of shape (n_numeric,)
        What each numeric feature is divided by before distances are measured (ones with
        ``scale=None``).
    index_ : sklearn.neighbors.NearestNeighbors or None
        The neighbour index over the (embedded) training rows; None if they have no dimension
        to measure (only categorical features, and ``categorical_weight=0``).
    n_features_in_, feature_names_in_ :
        As in scikit-learn.

    Notes
    -----
    :meth:`predict_joint_log_proba` returns ``log(K_i / (n V))``, the log of the estimated joint
    density ``f(x | c_i) P(c_i)``. The volume is left out (the returned value is ``log(K_i / n)``)
    where it is undefined or zero: on data with categorical features, and for a query whose K-th
    neighbour is at distance 0. It is common to all classes, so posteriors and decisions are
    unaffected. Posteriors are computed as the vote shares ``K_i / K`` directly when the prior is
    the empirical one, so exactly tied classes stay exactly tied. Every ``fit`` and ``partial_fit``
    rebuilds the index over all rows held.

    References
    ----------
    Zaki, M. J. and Meira, W. (2020). *Data Mining and Machine Learning*, 2nd ed., Sect. 18.3
    (and Sect. 15.2.3, eq. 6.4 for the ball volume). Fix, E. and Hodges, J. L. (1951).

    Examples
    --------
    >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
    >>> y = ["a", "a", "a", "b", "b", "b"]
    >>> model = KNNBayes(n_neighbors=3).fit(X, y)
    >>> model.predict([[0.2, 0.1], [0.9, 0.8]])
    array(['a', 'b'], dtype='<U1')
    >>> x = [[0.45, 0.62]]
    >>> model.neighbor_counts(x)
    array([[2., 1.]])
    >>> model.predict_proba(x).round(3)
    array([[0.667, 0.333]])
    >>> model.radius(x).round(3)
    array([0.712])
    >>> model.density(x).round(3)  # K_i / (n_i pi r^2)
    array([[0.419, 0.209]])
    """

    _bins_numeric = False  # numeric columns are distances

    def __init__(
        self,
        *,
        n_neighbors: int = 5,
        weights: str = "uniform",
        metric: str = "euclidean",
        p: float = 2,
        scale: str | None = None,
        categorical_weight: float = 1.0,
        ties: str = "index",
        algorithm: str = "auto",
        priors: Any = None,
        prior_alpha: float = 0.0,
        posterior_alpha: float = 0.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
    ):
        store_parameters(self, locals())

    def _check_own_params(self) -> None:
        _check_number("n_neighbors", self.n_neighbors, low=1, integer=True)
        _check_choice("weights", self.weights, ("uniform", "distance"))
        _check_choice("metric", self.metric, tuple(METRICS))
        _check_number("p", self.p, low=1)
        _check_choice("scale", self.scale, (None, "standard"))
        _check_number("categorical_weight", self.categorical_weight, low=0)
        _check_choice("ties", self.ties, ("index", "share"))
        _check_choice("algorithm", self.algorithm, _ALGORITHMS)
        _check_number("posterior_alpha", self.posterior_alpha, low=0)

    # ------------------------------------------------------------------ learning
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int) -> KNNStats:
        w = np.ones(enc.n_samples) if w is None else w
        keep = w > 0
        return KNNStats(
            enc.codes[keep],
            enc.values[keep],
            y[keep].astype(np.int64),
            w[keep].astype(np.float64),
            class_counts(y, n_classes, w),
        )

    def _estimate(self) -> None:
        st = self.stats_
        self._p_exp = METRICS[self.metric] or float(self.p)
        # weighted mean and (ML) variance of each feature over all rows, NaN skipped; a feature
        # never observed gets mean 0, and a constant or unobserved one scale 1. The moments are
        # taken of the values times an exact power of two, so data at 1e300 do not overflow.
        self.mean_, self.scale_ = mean_and_scale(st, standard=self.scale == "standard")
        sizes = self.schema_.n_states
        self._onehot_offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self._onehot_size = int(sizes.sum()) if self.categorical_weight > 0 else 0
        n_num = st.values.shape[1]
        self._columns = [np.array([j]) for j in range(n_num)]  # embedding columns per feature
        if self._onehot_size:
            self._columns += [
                n_num + o + np.arange(k) for o, k in zip(self._onehot_offsets, sizes, strict=True)
            ]
        filled = np.where(np.isnan(st.values), self.mean_, st.values)
        raw = embed(self, st.codes, filled, 1.0)
        self._unit = unit_for(raw[:, :n_num])
        self._embedding = raw * self._unit if self._unit != 1.0 else raw
        # the far-query search works in the data's own units (see _knn_search.neighbours)
        self._raw_embedding = raw
        lo = raw.min(axis=0, initial=np.inf)
        hi = raw.max(axis=0, initial=-np.inf)
        self._box_centre = np.where(lo <= hi, lo / 2 + hi / 2, 0.0)
        self._box_half = np.where(lo <= hi, hi / 2 - lo / 2, 0.0)
        self._target = float(min(self.n_neighbors, st.weight.sum()))
        self.index_ = neighbour_index(self, self._embedding)

    # ------------------------------------------------------------------ neighbourhoods
    def _ball(self, enc: Encoded) -> Ball:
        n, n_classes = enc.n_samples, len(self.classes_)
        votes = np.zeros((n, n_classes))
        radius = np.zeros(n)
        n_dims = np.zeros(n, dtype=np.int64)
        log_scale = np.zeros(n)
        for rows, points, index, dims, ls in searches(self, enc):
            votes[rows], radius[rows] = search(self, index, points)
            n_dims[rows], log_scale[rows] = dims, ls
        if self.weights == "uniform":
            counts = votes
        else:
            counts = self._target * votes / votes.sum(axis=1, keepdims=True)
        return Ball(votes, counts, radius, n_dims, log_scale)

    def _log_density(self, ball: Ball) -> np.ndarray:
        """``log(K_i / (n_i V))``, the volume left out where undefined (see Notes)."""
        n_i = self.class_count_
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log(ball.counts) - np.log(n_i)
        out[:, n_i == 0] = -np.inf
        if not self.schema_.categorical:
            log_v = log_ball_volume(ball.radius, ball.n_dims, self._p_exp) + ball.log_scale
            out -= np.where(np.isfinite(log_v), log_v, 0.0)[:, None]
        return out

    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        return self._log_density(self._ball(enc))

    def _empirical_prior(self) -> bool:
        return self.priors is None and self.prior_alpha == 0

    # ------------------------------------------------------------------ prediction
    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Log posterior ``log P(c | x)``: ``log(K_i / K)`` with the empirical prior.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on; a missing value
            drops its feature from the distance.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            The log of :meth:`predict_proba`, classes in ``classes_`` order; ``-inf`` for a
            class with no neighbour (with ``posterior_alpha=0``).

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> model.predict_log_proba([[0.45, 0.62], [0.2, 0.1]]).round(3)
        array([[-0.405, -1.099],
               [ 0.   ,   -inf]])
        """
        ball = self._ball(self._encode_for_predict(X))
        if self.posterior_alpha > 0:
            return self._smoothed_log_posterior(ball)
        if self._empirical_prior():
            with np.errstate(divide="ignore"):
                return np.log(ball.votes / ball.votes.sum(axis=1, keepdims=True))
        return normalise(self._log_density(ball) + self.log_prior_, self.log_prior_)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Posterior ``P(c | x)``: the share ``K_i / K`` of each class among the neighbours
        (with ``weights="distance"``, its share of the inverse-distance votes).

        With ``posterior_alpha`` ``a > 0`` the shares are ``(K_i + a) / (K + a C)``; with
        ``priors`` or ``prior_alpha``, ``P(c_i) K_i / n_i`` normalised.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on; a missing value
            drops its feature from the distance.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            The probability of each class, classes in ``classes_`` order; rows sum to 1.

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> model.predict_proba([[0.45, 0.62], [0.2, 0.1]]).round(3)
        array([[0.667, 0.333],
               [1.   , 0.   ]])
        """
        ball = self._ball(self._encode_for_predict(X))
        if self.posterior_alpha > 0:
            return np.exp(self._smoothed_log_posterior(ball))
        if self._empirical_prior():
            return ball.votes / ball.votes.sum(axis=1, keepdims=True)
        return np.exp(normalise(self._log_density(ball) + self.log_prior_, self.log_prior_))

    def _smoothed_log_posterior(self, ball: Ball) -> np.ndarray:
        """``log P(c_i | x)`` with ``K_i + posterior_alpha`` in place of ``K_i``."""
        smoothed = ball.counts + self.posterior_alpha
        if self._empirical_prior():
            return np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
        n_i = self.class_count_
        with np.errstate(divide="ignore"):
            jll = np.log(smoothed) - np.log(np.where(n_i > 0, n_i, 1.0)) + self.log_prior_
        jll[:, n_i == 0] = -np.inf
        return normalise(jll, self.log_prior_)

    def predict(self, X: Any, *, cost: Any = None) -> np.ndarray:
        """The most probable class (the first in ``classes_`` on a tie), or with ``cost`` the
        class of least conditional risk (see :meth:`BayesClassifier.predict`).

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on; a missing value
            drops its feature from the distance.
        cost : array-like of shape (n_classes, n_classes), DataFrame or dict, optional
            ``cost[i, j]``, the cost of predicting class ``i`` when the truth is ``j`` (see
            :func:`bayeskit.decision.cost_matrix`); None (the default) is the 0/1 loss.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            The decided class of each sample, from ``classes_``.

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> model.predict([[0.45, 0.62]])
        array(['a'], dtype='<U1')
        >>> model.predict([[0.45, 0.62]], cost=[[0, 5], [1, 0]])  # missing a "b" costs 5
        array(['b'], dtype='<U1')
        """
        if cost is not None:
            return super().predict(X, cost=cost)
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def neighbor_counts(self, X: Any) -> np.ndarray:
        """``K_i``, the (weighted) number of each class's rows among the K nearest neighbours,
        shape ``(n_samples, n_classes)``; with ``weights="distance"``, ``K`` times the class's
        share of the votes.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on; a missing value
            drops its feature from the distance.

        Returns
        -------
        counts : ndarray of shape (n_samples, n_classes)
            ``K_i`` of each class, classes in ``classes_`` order; each row sums to ``K`` (or
            to the training rows' total weight, when that is less).

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> model.neighbor_counts([[0.45, 0.62], [0.2, 0.1]])
        array([[2., 1.],
               [3., 0.]])
        """
        return self._ball(self._encode_for_predict(X)).counts

    def radius(self, X: Any) -> np.ndarray:
        """``r``, the distance from each sample to its K-th nearest neighbour (the radius of the
        ball holding a weight of K), shape ``(n_samples,)``, in the units of the data.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on; a missing value
            drops its feature from the distance.

        Returns
        -------
        radius : ndarray of shape (n_samples,)
            The distance to the K-th neighbour in the model's metric, measured over each
            sample's observed features (in standardised units with ``scale="standard"``).

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> model.radius([[0.45, 0.62], [0.2, 0.1]]).round(3)
        array([0.712, 0.224])
        """
        return self._ball(self._encode_for_predict(X)).radius

    def density(self, X: Any) -> np.ndarray:
        """The class-conditional densities ``f(x | c_i) = K_i / (n_i V)``, shape
        ``(n_samples, n_classes)`` (Zaki & Meira, Sect. 18.3).

        ``V`` is the volume of the ball of radius ``r`` (:meth:`radius`) in the metric used:
        ``pi^(d/2) r^d / Gamma(d/2 + 1)`` for euclidean (Zaki eq. 6.4), ``2^d r^d / d!`` for
        manhattan, ``(2r)^d`` for chebyshev, ``(2 Gamma(1 + 1/p))^d r^d / Gamma(1 + d/p)`` for
        minkowski, with ``d`` the number of observed numeric features; with
        ``scale="standard"`` it is expressed in the original units (times the product of
        ``scale_``). Where ``r = 0`` the density of a class with ``K_i > 0`` is infinite.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on; a missing value
            drops its feature from the distance.

        Returns
        -------
        density : ndarray of shape (n_samples, n_classes)
            ``f(x | c_i)`` of each class, classes in ``classes_`` order; 0 for a class with
            no neighbour.

        Raises
        ------
        ValueError
            If the model has categorical features: a ball in a space with a Hamming part has no
            volume of this kind.

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> model.density([[0.45, 0.62]]).round(3)  # K_i / (n_i pi r^2), r = 0.712
        array([[0.419, 0.209]])
        """
        enc = self._encode_for_predict(X)
        if self.schema_.categorical:
            names = ", ".join(repr(c.name) for c in self.schema_.categorical)
            msg = (
                f"density needs a volume, defined for numeric features only; this model has "
                f"categorical features ({names}). Use neighbor_counts or predict_proba, or fit "
                "on the numeric columns"
            )
            raise ValueError(msg)
        ball = self._ball(enc)
        log_v = log_ball_volume(ball.radius, ball.n_dims, self._p_exp) + ball.log_scale
        n_i = self.class_count_
        with np.errstate(divide="ignore", invalid="ignore"):
            dens = ball.counts / (n_i * np.exp(log_v)[:, None])
        return np.where(ball.counts > 0, dens, 0.0)

    def kneighbors(
        self, X: Any, n_neighbors: int | None = None, *, return_distance: bool = True
    ) -> Any:
        """The nearest training rows of each sample, as scikit-learn's ``kneighbors``.

        Returns ``(distances, indices)`` (or only ``indices``), each of shape
        ``(n_samples, n_neighbors)``, nearest first; indices are rows of ``stats_``
        (``stats_.values[indices]`` are the neighbours' numeric values). Rows are not weighted
        here: with sample weights the ball of :meth:`radius` may hold fewer or more rows.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The query samples, with the features the model was fitted on.
        n_neighbors : int, optional
            How many neighbours to return; None (the default) is the model's ``n_neighbors``.
        return_distance : bool, default=True
            Return the distances with the indices.

        Returns
        -------
        distances : ndarray of shape (n_samples, n_neighbors)
            The distance to each neighbour, in the data's units (standardised with
            ``scale="standard"``); only with ``return_distance=True``.
        indices : ndarray of int, shape (n_samples, n_neighbors)
            The neighbours' rows in ``stats_``, nearest first.

        Raises
        ------
        TypeError
            If ``n_neighbors`` is not an integer.
        ValueError
            If ``n_neighbors`` is below 1 or exceeds the training rows held.

        Examples
        --------
        >>> X = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.2], [1.0, 1.0], [1.1, 1.0], [0.9, 1.2]]
        >>> model = KNNBayes(n_neighbors=3).fit(X, ["a", "a", "a", "b", "b", "b"])
        >>> distances, indices = model.kneighbors([[0.45, 0.62]])
        >>> distances.round(3), indices
        (array([[0.616, 0.669, 0.712]]), array([[2, 3, 1]]))
        >>> model.kneighbors([[0.45, 0.62]], 2, return_distance=False)
        array([[2, 3]])
        """
        enc = self._encode_for_predict(X)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        _check_number("n_neighbors", k, low=1, integer=True)
        n_rows = self.stats_.y.shape[0]
        if k > n_rows:
            msg = f"n_neighbors={k} exceeds the {n_rows} training rows held"
            raise ValueError(msg)
        dist = np.zeros((enc.n_samples, k))
        ind = np.zeros((enc.n_samples, k), dtype=np.intp)
        for rows, points, index, _, _ in searches(self, enc):
            if index[0] is None:
                ind[rows] = np.arange(k)
            else:
                near, ind[rows], offset, unit = neighbours(self, index, points, k)
                dist[rows] = (offset[:, None] + near) / unit[:, None]
        return (dist, ind) if return_distance else ind
