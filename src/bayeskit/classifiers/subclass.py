"""Subclass naive Bayes (Yang Yu's Nanjing lecture *Bayesian Classifiers*: "reform the data"):
each class a mixture of naive Bayes components learned by EM, the number of components chosen
per class by BIC."""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers._checks import _check_number, require_categorical
from bayeskit.classifiers._mixture import (
    MixtureFit,
    _class_data,
    _em,
    _expected,
    _log_tables,
    _log_weights,
    _logsumexp,
    _offsets,
    _one_hot,
    _responsibilities,
    fit_mixture,
    n_free_parameters,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.schema import Encoded
from bayeskit.stats import MixtureCounts

__all__ = ["MixtureFit", "SubclassNaiveBayes", "fit_mixture"]

#: Rows per block when a fitted model scores data (bounds the ``(rows, components)`` block).
_BLOCK = 1 << 15


# --------------------------------------------------------------------------------------------
# the classifier
# --------------------------------------------------------------------------------------------


class SubclassNaiveBayes(BayesClassifier):
    """Naive Bayes with each class split into subclasses: a mixture of naive Bayes components
    per class, learned by EM.

    Yang Yu's Nanjing University lecture *Bayesian Classifiers* ("Naive Bayes classifier:
    reform the data to satisfy the assumption", the slide "clustering to generate data with
    subclasses"): where the features are dependent given the class, cluster each class's rows
    into subclasses within which they are closer to independent. Here the clustering is a
    latent-class model fitted by EM, so the subclasses are soft and the classifier stays a
    probability model::

        P(x | c) = sum_k pi_ck prod_j P(x_j | c, k),      P(c | x) ∝ P(c) P(x | c)

    computed in log space (log-sum-exp over the components). A class that naive Bayes fits well
    keeps one component, and then the model *is* naive Bayes for that class (with
    ``n_components=1`` it equals :class:`NaiveBayes` with the same ``alpha`` and prior); a class
    that is, say, an exclusive-or of two features gets a component per region, each of which
    is a product of its features.

    Learning, per class: the distinct rows are taken once with their summed weights (so an
    integer ``sample_weight`` equals repeating rows, and row order does not matter). For each
    number of components ``K`` tried, EM runs from ``n_init`` random starts (``K`` seed rows
    picked as k-means++ picks them, by Hamming distance, each row given to its nearest seed)
    and the run of largest objective is kept. The M-step is the smoothed estimate from the
    expected counts: ``P(x_j = v | c, k) = (n_ckjv + alpha) / (n_ckj + V_j alpha)`` as in
    :class:`NaiveBayes` and ``pi_ck = (N_ck + 1) / (N_c + K)`` (so no component's weight is 0);
    being the MAP estimate under Dirichlet priors, each iteration never decreases the
    log-likelihood plus the log prior density, the objective EM reports. A missing value is
    skipped in both steps: it contributes no factor to a row's responsibilities and no count.
    EM stops when the objective changes by at most ``tol`` of itself, or after ``max_iter``
    iterations. ``K`` is chosen by the Bayesian information criterion,
    ``BIC = -2 LL + (K - 1 + K sum_j (V_j - 1)) log N_c`` with ``N_c`` the class's weighted rows
    (taken as at least 1), the smallest ``K`` on a tie; a class never gets more components than
    it has distinct rows.

    Numeric columns are binned by default (``discretize="mdl"``) and modelled as categorical;
    with ``discretize=None`` a numeric column is refused with a :class:`SchemaError` naming it
    (declare it categorical, or bin it).

    ``partial_fit``: the first call learns the components by EM from its rows (choosing ``K``);
    EM needs every row at once, so later calls keep the components and add their rows'
    expected counts under the current model (one E-step each, the first step of incremental
    EM), as :class:`NBTree` keeps its tree. Fitting chunk by chunk therefore approximates one
    ``fit``; a class with no rows in the first call keeps one component.

    Parameters
    ----------
    n_components : int, optional
        Components of every class's mixture (fewer for a class with fewer distinct rows). None
        (default): chosen per class by BIC among ``1 .. max_components``.
    max_components : int, default=10
        The most components BIC may choose (ignored when ``n_components`` is given).
    alpha : float, default=1.0
        Lidstone pseudo-count of the component tables (1: Laplace's correction, as
        :class:`NaiveBayes`; 0: maximum likelihood).
    max_iter : int, default=100
        The most EM iterations of a run.
    tol : float, default=1e-6
        EM stops when the objective (per class) changes by at most ``tol`` times itself.
    n_init : int, default=3
        Random starts per class and ``K``; the best run (largest objective) is kept.
    random_state : int, default=0
        Seed of the random starts; a fit is a deterministic function of it and the data.
    priors : array-like of shape (n_classes,), optional
        Class probabilities to use instead of estimating them.
    prior_alpha : float, default=1.0
        Pseudo-count for the estimated class prior: ``P(c) = (n_c + prior_alpha) / (n + C
        prior_alpha)``; 1 is the Laplacian correction (Zhou Eq. 7.19, Weka), 0 the relative
        frequencies (scikit-learn).
    categorical_features, categories :
        Which columns are categorical, and declared vocabularies; see
        :class:`bayeskit.data.Schema`.
    handle_unknown : {"missing", "warn", "error"}, default="missing"
        A category not seen in fit is treated as missing (optionally with a warning) or refused.
    discretize : {"mdl", "equal-width", "equal-frequency", None}, default="mdl"
        How numeric columns are binned and then modelled as categorical (cut points learned by
        the first ``fit`` or ``partial_fit`` call and kept; "mdl" is the supervised method of
        Fayyad and Irani, Zaki & Meira 18.2); None: numeric columns are refused with a
        SchemaError naming them (the components are categorical tables).
    n_bins : int, default=5
        Bins for the unsupervised discretizers.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    schema_ : Schema
    stats_ : MixtureCounts
        The expected counts per class, component and state, and the record of the ``K`` tried;
        every table below is estimated from them (a saved model holds only them).
    class_count_, log_prior_ : ndarray of shape (n_classes,)
    n_components_ : ndarray of int, shape (n_classes,)
        Components of each class's mixture.
    weights_ : list of ndarray
        ``weights_[c]``: the ``n_components_[c]`` component weights ``pi_ck`` of class ``c``.
    log_weights_ : ndarray of shape (n_classes, n_slots)
        ``log pi_ck``; ``-inf`` in slots beyond a class's components (``n_slots`` is the largest
        ``K`` tried).
    log_cpt_ : list of ndarray, one per categorical feature, shape (n_classes, n_slots, n_states)
        ``log P(x_j = v | c, k)`` (uniform in unused slots).
    log_likelihood_, bic_ : ndarray of shape (n_classes, n_slots)
        ``[c, K - 1]``: class ``c``'s log-likelihood and BIC with ``K`` components at fit;
        ``-inf`` and ``+inf`` where that ``K`` was not tried.
    n_iter_ : ndarray of int, shape (n_classes,)
        EM iterations of the run kept for each class's chosen ``K`` (1 for one component; 0
        for a class no row of the first ``partial_fit`` call held).
    n_features_in_, feature_names_in_ :
        As in scikit-learn.

    See Also
    --------
    fit_mixture : EM for one class's mixture.
    NaiveBayes : one component per class.

    References
    ----------
    Yu, Y., *Bayesian Classifiers* (lecture 5 of the data mining course, Nanjing University):
    "reform the data: clustering to generate data with subclasses". Vilalta, R. and Rish, I.
    (2003), "A decomposition of classes via clustering to explain and improve naive Bayes",
    ECML. Schwarz, G. (1978), "Estimating the
    dimension of a model", Annals of Statistics 6(2) (BIC).

    Examples
    --------
    An exclusive-or: class ``"a"`` has ``u == v``, class ``"b"`` has ``u != v``. Every
    feature has the same distribution in both classes, so naive Bayes can tell nothing, while
    two subclasses per class separate them:

    >>> import pandas as pd
    >>> from bayeskit import NaiveBayes
    >>> X = pd.DataFrame([["p", "p"], ["q", "q"]] * 10 + [["p", "q"], ["q", "p"]] * 10,
    ...                  columns=["u", "v"])
    >>> y = ["a"] * 20 + ["b"] * 20
    >>> model = SubclassNaiveBayes().fit(X, y)
    >>> model.n_components_.tolist()
    [2, 2]
    >>> [w.round(2).tolist() for w in model.weights_]
    [[0.5, 0.5], [0.5, 0.5]]
    >>> new = pd.DataFrame({"u": ["p", "p"], "v": ["p", "q"]})
    >>> model.predict_proba(new).round(3)
    array([[0.833, 0.167],
           [0.167, 0.833]])
    >>> NaiveBayes().fit(X, y).predict_proba(new).round(3)
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """

    #: not a sum of statistics over partitions (EM needs every row of a class at once):
    #: fit_chunks, not bayeskit.dask
    _distributable = False

    #: fit_chunks is partial_fit chunk by chunk: EM on the first chunk, an E-step on each
    #: later one (which needs the tables estimated after every chunk)
    _chunks_as_partial_fit = True

    def __init__(
        self,
        *,
        n_components: int | None = None,
        max_components: int = 10,
        alpha: float = 1.0,
        max_iter: int = 100,
        tol: float = 1e-6,
        n_init: int = 3,
        random_state: int = 0,
        priors: Any = None,
        prior_alpha: float = 1.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
        discretize: str | None = "mdl",
        n_bins: int = 5,
    ):
        store_parameters(self, locals())

    def _check_own_params(self) -> None:
        if self.n_components is not None:
            _check_number("n_components", self.n_components, low=1, integer=True)
        _check_number("max_components", self.max_components, low=1, integer=True)
        _check_number("alpha", self.alpha, low=0)
        _check_number("max_iter", self.max_iter, low=1, integer=True)
        _check_number("tol", self.tol, low=0)
        _check_number("n_init", self.n_init, low=1, integer=True)
        _check_number("random_state", self.random_state, low=0, integer=True)

    # ------------------------------------------------------------------ learning
    def _count(
        self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int
    ) -> MixtureCounts:
        n_states = self.schema_.n_states
        if not enc.n_samples:  # a model file's check of the type: nothing to learn
            return _empty_counts(n_classes, n_states, 1)
        require_categorical(self, enc)
        w = np.ones(enc.n_samples) if w is None else np.asarray(w, dtype=np.float64)
        if self._has_stats():  # partial_fit: the components are kept
            return self._assign(enc.codes, y, w, n_classes)
        return self._learn_mixtures(enc.codes, y, w, n_classes)

    def _learn_mixtures(
        self, codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int
    ) -> MixtureCounts:
        """EM per class for every ``K`` tried, and the choice of ``K`` by BIC."""
        n_states = self.schema_.n_states
        offsets = _offsets(n_states)
        per_class: list[tuple[dict[int, MixtureFit], float]] = []
        for c in range(n_classes):
            rows = y == c
            if not rows.any():  # a class no row of this call holds (partial_fit): no mixture
                per_class.append(({}, 1))
                continue
            data = _class_data(codes[rows], w[rows], offsets)
            distinct = len(data.weights)
            tried: range | list[int]
            if self.n_components is None:
                tried = range(1, min(int(self.max_components), distinct) + 1)
            else:
                tried = [min(int(self.n_components), distinct)]
            fits = {
                k: _em(
                    data,
                    k,
                    offsets,
                    self.alpha,
                    int(self.max_iter),
                    self.tol,
                    int(self.n_init),
                    (int(self.random_state), c, k),
                )
                for k in tried
            }
            per_class.append((fits, float(w[rows].sum())))
        n_slots = max([max(fits, default=1) for fits, _ in per_class])
        out = _empty_counts(n_classes, n_states, n_slots)
        out.class_count[:] = np.bincount(y, weights=w, minlength=n_classes)
        for c, (fits, n_c) in enumerate(per_class):
            if not fits:
                continue
            log_n = np.log(max(n_c, 1.0))
            for k, fit in fits.items():
                out.log_likelihood[c, k - 1] = fit.log_likelihood
                bic = -2.0 * fit.log_likelihood + n_free_parameters(k, n_states) * log_n
                out.bic[c, k - 1] = bic
                out.n_iter[c, k - 1] = len(fit.history)
            k = int(np.argmin(out.bic[c])) + 1  # the first (smallest K) on a tie
            fit = fits[k]
            out.n_components[c] = k
            out.component_count[c, :k] = fit.component_count
            for table, counts in zip(out.feature_count, fit.feature_count, strict=True):
                table[c, :k] = counts
        return out

    def _assign(
        self, codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int
    ) -> MixtureCounts:
        """The expected counts of new rows under the current components (one E-step)."""
        stats: MixtureCounts = self.stats_
        n_slots = stats.component_count.shape[1]
        n_states = self.schema_.n_states
        offsets = _offsets(n_states)
        log_w, tables = _estimated(stats, self.alpha, offsets)
        out = _empty_counts(n_classes, n_states, n_slots)
        out.class_count[:] = np.bincount(y, weights=w, minlength=n_classes)
        for c in range(n_classes):
            rows = y == c
            if not rows.any():
                continue
            k = int(stats.n_components[c])
            data = _class_data(codes[rows], w[rows], offsets)
            log_pi = log_w[c, :k]
            log_joint = np.asarray(data.one_hot @ tables[c, :k].T) + log_pi
            r = _responsibilities(log_joint, _logsumexp(log_joint, axis=1), log_pi)
            comp, flat = _expected(data.one_hot_t, data.weights, r)
            out.component_count[c, :k] = comp
            for table, a, b in zip(out.feature_count, offsets[:-1], offsets[1:], strict=True):
                table[c, :k] = flat[:, a:b]
        return MixtureCounts(
            out.class_count,
            stats.n_components.copy(),
            out.component_count,
            out.feature_count,
            stats.log_likelihood.copy(),
            stats.bic.copy(),
            stats.n_iter.copy(),
        )

    def _grow(self, X: Any, stats: MixtureCounts) -> MixtureCounts:
        # the new rows are assigned under the current tables, which must have the grown
        # vocabularies' layout: hold the regrown statistics at once (a failed call restores)
        self.stats_ = super()._grow(X, stats)
        return self.stats_

    def _estimate(self) -> None:
        stats: MixtureCounts = self.stats_
        self.n_components_ = stats.n_components.astype(np.int64)
        offsets = _offsets(self.schema_.n_states)
        self.log_weights_, self._log_tables = _estimated(stats, self.alpha, offsets)
        self.weights_ = [np.exp(self.log_weights_[c, :k]) for c, k in enumerate(self.n_components_)]
        self.log_cpt_ = [
            self._log_tables[:, :, a:b].copy()
            for a, b in zip(offsets[:-1], offsets[1:], strict=True)
        ]
        self.log_likelihood_ = stats.log_likelihood.copy()
        self.bic_ = stats.bic.copy()
        self.n_iter_ = stats.n_iter[np.arange(len(self.n_components_)), self.n_components_ - 1]

    # ------------------------------------------------------------------ prediction
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        n_classes, n_slots, n_flat = self._log_tables.shape
        flat = self._log_tables.reshape(n_classes * n_slots, n_flat)
        offsets = _offsets(self.schema_.n_states)
        out = np.empty((enc.n_samples, n_classes))
        for start in range(0, enc.n_samples, _BLOCK):
            block = enc.codes[start : start + _BLOCK]
            joint = np.asarray(_one_hot(block, offsets) @ flat.T)
            joint = joint.reshape(len(block), n_classes, n_slots) + self.log_weights_
            out[start : start + len(block)] = _logsumexp(joint, axis=2)
        return out

    def component_log_proba(self, X: Any) -> np.ndarray:
        """``log P(k | x, c)``: the posterior over each class's components (subclasses), shape
        ``(n_samples, n_classes, n_slots)``, ``-inf`` in slots beyond a class's components.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on; missing values contribute
            no factor.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes, n_slots)
            ``log P(k | x, c)``, classes in ``classes_`` order and components in the order of
            ``log_weights_`` (whose shape gives ``n_slots``); over a class's components
            ``exp`` sums to 1. A sample a class finds impossible gets that class's component
            weights.

        Examples
        --------
        >>> model = SubclassNaiveBayes(n_components=1).fit([["a"], ["b"]], [0, 1])
        >>> model.component_log_proba([["a"]]).shape
        (1, 2, 1)
        >>> import pandas as pd
        >>> X = pd.DataFrame([["p", "p"], ["q", "q"]] * 10 + [["p", "q"], ["q", "p"]] * 10)
        >>> model = SubclassNaiveBayes().fit(X, ["a"] * 20 + ["b"] * 20)
        >>> proba = np.exp(model.component_log_proba(X[:1]))  # the row ("p", "p")
        >>> proba.max(axis=2).round(2)  # one subclass of "a" holds it; "b"'s cannot tell
        array([[0.99, 0.5 ]])
        """
        enc = self._encode_for_predict(X)
        n_classes, n_slots, n_flat = self._log_tables.shape
        flat = self._log_tables.reshape(n_classes * n_slots, n_flat)
        joint = np.asarray(_one_hot(enc.codes, _offsets(self.schema_.n_states)) @ flat.T)
        joint = joint.reshape(enc.n_samples, n_classes, n_slots) + self.log_weights_
        total = _logsumexp(joint, axis=2)[:, :, None]
        dead = ~np.isfinite(total)  # impossible under a class: its weights
        return np.where(dead, self.log_weights_, joint - np.where(dead, 0.0, total))


def _empty_counts(n_classes: int, n_states: np.ndarray, n_slots: int) -> MixtureCounts:
    return MixtureCounts(
        np.zeros(n_classes),
        np.ones(n_classes, dtype=np.int64),
        np.zeros((n_classes, n_slots)),
        tuple(np.zeros((n_classes, n_slots, int(v))) for v in n_states),
        np.full((n_classes, n_slots), -np.inf),
        np.full((n_classes, n_slots), np.inf),
        np.zeros((n_classes, n_slots), dtype=np.int64),
    )


def _estimated(stats: MixtureCounts, alpha: float, offsets: np.ndarray):
    """The smoothed log weights ``(n_classes, n_slots)`` (``-inf`` in unused slots) and the
    component tables, flattened over the features' states ``(n_classes, n_slots, n_flat)``:
    the same estimates, by the same functions, as EM's M-step."""
    n_classes, n_slots = stats.component_count.shape
    log_w = np.full((n_classes, n_slots), -np.inf)
    for c, k in enumerate(stats.n_components):
        log_w[c, :k] = _log_weights(stats.component_count[c, :k])
    if stats.feature_count:
        counts = np.concatenate(stats.feature_count, axis=2)
    else:
        counts = np.zeros((n_classes, n_slots, 0))
    return log_w, _log_tables(counts, offsets, alpha)
