"""Naive Bayes for mixed data: categorical features with smoothed count tables, numeric features
with one Gaussian per class (Zhou ch. 7.3; Zaki & Meira 18.2; Han, Kamber & Pei 6.3)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from sklearn.utils.validation import check_is_fitted

from bayeskit.classifiers._checks import _check_number, _check_smoothing
from bayeskit.classifiers._discriminative import DiscriminativeWeights
from bayeskit.classifiers._em import LearnsFromIncompleteRows
from bayeskit.classifiers._explain import explain_frame, snap_to_zero
from bayeskit.classifiers._gaussian import (
    drop_beyond_float64,
    redo_rows_beyond_float64,
    warn_underflowed_variances,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.schema import CATEGORICAL, Encoded
from bayeskit.estimate import (
    gaussian_log_terms,
    gaussian_parameters,
    log_probabilities,
    table_log_prior,
    variance_floor,
)
from bayeskit.exceptions import SchemaError
from bayeskit.stats import (
    GaussianMoments,
    NaiveStats,
    categorical_counts,
    gaussian_moments,
    nonfinite_features,
)
from bayeskit.stats.lookup import FamilyTables, LogFactor, add_gaussian_log_density

__all__ = ["NaiveBayes", "NaiveStats"]


class NaiveBayes(DiscriminativeWeights, LearnsFromIncompleteRows):
    """Naive Bayes classifier for categorical, numeric and mixed features.

    ``P(c | x)`` is proportional to ``P(c) prod_j P(x_j | c)`` (Zhou eq. 7.15). Categorical
    features use smoothed relative frequencies. Numeric features are, by default, cut into bins by
    supervised MDL discretization (Fayyad and Irani) learned on the training data, and modelled as
    categorical; with ``discretize=None`` they get a Gaussian per class (eq. 7.18). Missing
    values (NaN, None, or a category not seen in fit) are skipped when counting and marginalised
    out when predicting: the feature simply contributes no factor.

    Defaults. They were chosen by measurement: on 26 data sets (stratified 10-fold
    cross-validation), MDL bins with a Laplace-smoothed class prior had the best mean accuracy and
    log-loss of the naive Bayes variants tried, equal on every set to Weka's ``NaiveBayes -D``,
    while Gaussian features (scikit-learn's settings) lost up to 17 points of accuracy on
    skewed or integer-valued features and scored a far worse log-loss (figures in
    benchmarks/RESULTS.md, "Naive Bayes defaults on 26 data sets"). Gaussians suit features that
    are near-normal within each class (iris, waveform). For scikit-learn's ``GaussianNB`` pass
    ``discretize=None, prior_alpha=0, var_smoothing=1e-9``; for its ``CategoricalNB``,
    ``prior_alpha=0``. With the default, the cut points are learned by the first ``fit`` or
    ``partial_fit`` call and kept, so fitting chunk by chunk equals one ``fit`` on all the data
    only with ``discretize=None``.

    Numerics. Gaussian terms are computed as ``log_norm - ((x - mean) / sqrt(2 var))^2``, finite
    wherever the log-density is representable; a value so far from every class's mean that no
    class's log-density is (about 1e154 standard deviations) is left out of its row, as if
    missing, with a warning naming the column. A column whose values are so small (about
    1e-154 or less) that their variance underflows to 0 is named in a warning at fit.

    Parameters
    ----------
    alpha : float, default=1.0
        Pseudo-count for the categorical tables. With ``smoothing="lidstone"``,
        ``P(v | c) = (n_cv + alpha) / (n_c + K alpha)``: 1 is the Laplacian correction (Zhou eq.
        7.20), 0 the unsmoothed MLE (eq. 7.17).
    smoothing : str, default="lidstone"
        An estimator of :data:`bayeskit.estimate.ESTIMATORS` ("lidstone", "mle", "laplace",
        "m-estimate", "dirichlet-map", "lidstone-where-zero", "bdeu", "k2", "hierarchical",
        "hierarchical-gibbs"): how counts become probabilities; for ``"m-estimate"`` alpha is
        the equivalent sample size m, for ``"bdeu"`` the equivalent sample size spread over
        the ``n_classes x K`` cells of a table; ``"lidstone-where-zero"`` is Han's Laplacian
        correction, the pseudo-count added only to a class's table that holds a zero count.
    ddof : int, default=0
        Variance ``M2 / (n - ddof)``: 0 is the MLE (Zhou eq. 7.12, Zaki, scikit-learn), 1 the
        sample variance used in Zhou's worked watermelon example.
    var_smoothing : float, default=1e-9
        With ``discretize=None``: a floor ``var_smoothing * max_j Var(x_j)`` added to every
        variance (as scikit-learn's GaussianNB does), so a feature constant within a class gives
        a narrow density, not a division by zero. The floor used is kept in ``var_floor_``. The
        floor is tiny for a feature whose range is small beside the largest one, so an
        integer-valued feature constant within a class becomes a near point mass that vetoes
        the class on any other value: the main reason Gaussians are not the default.
    priors : array-like of shape (n_classes,), optional
        Class probabilities to use instead of estimating them.
    prior_alpha : float, default=1.0
        Pseudo-count for the estimated class prior: ``P(c) = (n_c + prior_alpha) / (n + C
        prior_alpha)``; 1 is the Laplacian correction (Zhou Eq. 7.19, Weka), 0 the relative
        frequencies (scikit-learn); it matters only on small data sets and rare classes.
    categorical_features, categories :
        Which columns are categorical, and declared vocabularies; see
        :class:`bayeskit.data.Schema`.
    handle_unknown : {"missing", "warn", "error"}, default="missing"
        A category not seen in fit is treated as missing (optionally with a warning) or refused.
    discretize : {"mdl", "equal-width", "equal-frequency", None}, default="mdl"
        How numeric columns are binned and then modelled as categorical (cut points learned by
        the first ``fit`` or ``partial_fit`` call and kept; "mdl" is the supervised method of
        Fayyad and Irani, Zaki & Meira 18.2); None: one Gaussian per class and feature (Zhou Eq.
        7.18).
    n_bins : int, default=5
        Bins for the unsupervised discretizers.
    missing : {"skip", "em"}, default="skip"
        How rows with missing feature values are learned from. ``"skip"``: a missing value is
        left out of the counts of its feature's tables. ``"em"``:
        EM over the missing values; for naive Bayes its fixed point is the skipping
        estimate itself (module :mod:`bayeskit.classifiers._incomplete`), so both give
        the same model.
    unlabelled : scalar, optional
        The value of ``y`` that marks a row without a class label; such rows (and rows whose
        label is missing, None or NaN) are learned from by semi-supervised EM (Nigam et al.
        2000). None (default): every value of ``y`` is a class, and a missing label is an
        error. Use ``-1`` for integer labels (scikit-learn's ``SelfTrainingClassifier``
        convention); for text labels any string, e.g. ``"-1"`` or ``"?"``. Labels are matched
        as text (``-1`` and ``"-1"`` mark each other; ``0`` does not mark ``False``).
        ``classes_`` holds the labels seen on labelled rows. ``fit`` only: ``partial_fit``,
        ``fit_chunks`` and :func:`bayeskit.dask.fit` refuse unlabelled rows.
    unlabelled_weight : float, default=1.0
        The weight of an unlabelled row relative to a labelled one (Nigam's lambda); small
        values stop a large unlabelled set from drowning the labels.
    max_iter : int, default=100
        At most this many EM iterations (M-steps) after the first estimate.
    tol : float, default=1e-6
        EM stops when the objective (``history_``) changes by less than ``tol`` times its
        size from one iteration to the next.
    parameters : {"generative", "discriminative"}, default="generative"
        ``"generative"``: the tables are the smoothed counts. ``"discriminative"``: each table
        cell and each class prior also gets a weight, fitted to maximise the conditional
        log-likelihood of the training rows (Zaidi et al. 2017), starting from the generative
        model (all weights 1); the counts and the structure are unchanged, and numeric
        features must be binned. ``fit`` and ``partial_fit`` only (the weights need the rows:
        not ``fit_chunks``, Dask or EM).
    l2 : float, optional
        The penalty ``l2 / 2 * sum (weight - 1)^2`` that pulls the weights towards the
        generative model. None (default): chosen among 100, 10, 1, 0.1 and 0.01, or no
        weighting at all, by the conditional log-likelihood of held-out rows (5-fold
        cross-validation up to 10,000 rows, one held-out fifth beyond; the most conservative
        choice within a standard error of the best).

    Attributes
    ----------
    cell_weights_ : ndarray
        With ``parameters="discriminative"``: the weight of each table cell (in the packed
        order of the look-up tables), then of each class's log prior.
    l2_ : float or None
        With ``parameters="discriminative"``: the penalty used (None: the generative model was
        kept, all weights 1).
    classes_ : ndarray of shape (n_classes,)
    schema_ : Schema
    stats_ : NaiveStats
        The counts and moments, kept so ``partial_fit`` is count + add + re-estimate.
    class_count_ : ndarray of shape (n_classes,)
    log_prior_ : ndarray of shape (n_classes,)
    log_cpt_ : list of ndarray, one per categorical feature, shape (n_classes, 1, n_states)
        ``log P(x_j = v | c)``; the middle axis is the (single) parent configuration.
    theta_, var_ : ndarray of shape (n_classes, n_numeric)
        Per-class mean and variance (before the floor) of each Gaussian numeric feature (none
        when numeric features are discretized).
    var_floor_ : float
    structure_ : dict
        Feature name -> its feature parents: none, for every feature (the structure that the
        semi-naive models of :mod:`bayeskit.classifiers` relax).
    n_features_in_, feature_names_in_ :
        As in scikit-learn.
    history_ : list of float
        With unlabelled rows or ``missing="em"``: the objective of each EM iteration (see
        :mod:`bayeskit.classifiers._incomplete`); empty after a fit from complete rows.
    n_iter_ : int
        The M-steps made, the first estimate included (1 for complete rows: counting).
    converged_ : bool

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
    >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
    >>> model.predict(pd.DataFrame({"outlook": ["sun"], "temp": [25.0]}))
    array(['play'], dtype='<U4')
    """

    #: missing="em" reaches the counting estimate (module bayeskit.classifiers._incomplete)
    _missing_em = "counting"

    def __init__(
        self,
        *,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        ddof: int = 0,
        var_smoothing: float = 1e-9,
        priors: Any = None,
        prior_alpha: float = 1.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
        discretize: str | None = "mdl",
        n_bins: int = 5,
        missing: str = "skip",
        unlabelled: Any = None,
        unlabelled_weight: float = 1.0,
        max_iter: int = 100,
        tol: float = 1e-6,
        parameters: str = "generative",
        l2: float | None = None,
    ):
        store_parameters(self, locals())

    def _table_log_prior(self) -> float:
        return table_log_prior(self.log_cpt_, self.smoothing, self.alpha)

    def _check_own_params(self) -> None:
        _check_smoothing(self.alpha, self.smoothing)
        self._check_weight_options()
        _check_number("ddof", self.ddof, low=0, integer=True)
        _check_number("var_smoothing", self.var_smoothing, low=0)

    # ------------------------------------------------------------------ learning
    def _count(
        self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int
    ) -> NaiveStats:
        return NaiveStats(
            categorical_counts(enc.codes, y, n_classes, self.schema_.n_states, w),
            gaussian_moments(enc.values, y, n_classes, w),
        )

    def _estimate(self) -> None:
        counts, moments = self.stats_.counts, self.stats_.moments
        self.log_cpt_ = [
            log_probabilities(t, self.smoothing, self.alpha)[:, None, :]
            for t in counts.feature_count
        ]
        _check_finite_moments(moments, self.schema_)
        warn_underflowed_variances(moments, self.schema_)
        self.theta_, self.var_ = gaussian_parameters(moments, self.ddof)
        self.var_floor_ = variance_floor(moments, self.var_smoothing)
        self._log_norm, self._scale = gaussian_log_terms(self.var_ + self.var_floor_)
        # the structure with no feature parents: one factor log P(x_j | c) per feature
        self.structure_ = {name: () for name in self.schema_.names}
        self._factors = [LogFactor(j, (), t[:, 0, :]) for j, t in enumerate(self.log_cpt_)]
        self._generative_tables = FamilyTables([self._factors], len(self.classes_))
        self._apply_weights()

    # ------------------------------------------------------------------ prediction
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        return redo_rows_beyond_float64(
            self._joint_terms(enc.codes, enc.values),
            enc.values,
            self.theta_,
            self._scale,
            self.schema_,
            lambda rows, values: self._joint_terms(enc.codes[rows], values),
        )

    def _joint_terms(self, codes: np.ndarray, values: np.ndarray) -> np.ndarray:
        jll = np.zeros((codes.shape[0], len(self.classes_)))
        if codes.shape[1]:
            self._tables.add_to(jll, codes)
        if values.shape[1]:
            add_gaussian_log_density(
                jll, np.ascontiguousarray(values), self.theta_, self._log_norm, self._scale
            )
        return jll

    def _usable(self, values: np.ndarray) -> np.ndarray:
        """The numeric values with those beyond float64 for every class left out (NaN, as if
        missing) and named in a warning (see :func:`bayeskit.estimate.beyond_float64`); the
        same object when there is none."""
        return drop_beyond_float64(values, self.theta_, self._scale, self.schema_)

    def to_network(self, class_node: Any = "class") -> Any:
        """The model as a network (Zhou, *Machine Learning*, Fig. 7.1's structure: the class
        the parent of every feature), the CPTs its own smoothed tables; for complete rows the
        network's ``P(class | x)`` is the model's. With categorical (or binned) features only,
        a :class:`~bayeskit.networks.BayesianNetwork`; with Gaussian numeric features
        (``discretize=None``), a :class:`~bayeskit.networks.HybridNetwork` whose numeric
        features are conditional linear Gaussian nodes given the class (mean and variance per
        class, the model's variance floor included).

        Parameters
        ----------
        class_node : str, default="class"
            The name of the class's node in the network.

        Returns
        -------
        network : BayesianNetwork or HybridNetwork
            The class and the features as nodes (binned features with their bins as states),
            an edge from the class to every feature, the model's smoothed tables as CPTs.

        Raises
        ------
        NotFittedError
            If the model is not fitted.
        ValueError
            If ``class_node`` is also a feature's name.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": ["u", "u", "v", "v"], "b": ["p", "q", "p", "q"]})
        >>> network = NaiveBayes().fit(X, [0, 0, 1, 1]).to_network()
        >>> network.dag.nodes, sorted(network.dag.parents("a"))
        (('class', 'a', 'b'), ['class'])
        """
        check_is_fitted(self, "stats_")
        self._refuse_weighted("to_network")
        from bayeskit.classifiers._export import hybrid_from_naive_bayes, network_from_factors

        if any(c.kind != CATEGORICAL for c in self.schema_.columns):
            return hybrid_from_naive_bayes(self, class_node)
        return network_from_factors(self, self._factors, class_node)

    def feature_log_likelihood(self, X: Any) -> np.ndarray:
        """``log P(x_j | c)`` of every feature, shape ``(n_samples, n_features, n_classes)``,
        features in the schema's column order; 0 where ``x_j`` is missing.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on.

        Returns
        -------
        log_likelihood : ndarray of shape (n_samples, n_features, n_classes)
            ``log P(x_j | c)`` (a log density for a Gaussian feature), features in
            ``schema_.names`` order and classes in ``classes_`` order; summed over features
            and added to ``log_prior_`` it gives :meth:`predict_joint_log_proba`.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": ["u", "u", "v", "v"], "b": ["p", "q", "p", "q"]})
        >>> model = NaiveBayes().fit(X, [0, 0, 1, 1])
        >>> model.feature_log_likelihood(X.iloc[:1]).round(3)  # log(3/4), log(1/4); log(1/2)
        array([[[-0.288, -1.386],
                [-0.693, -0.693]]])
        """
        return self._feature_terms(self._encode_for_predict(X))[0]

    def _feature_terms(self, enc: Encoded) -> tuple[np.ndarray, np.ndarray]:
        """Per-feature log-likelihoods and the mask of observed (non-missing) entries."""
        # the same look-up kernels as prediction, one feature at a time
        n, n_classes = enc.n_samples, len(self.classes_)
        out = np.zeros((n, len(self.schema_.columns), n_classes))
        observed = np.ones((n, len(self.schema_.columns)), dtype=bool)
        cat_pos = [i for i, c in enumerate(self.schema_.columns) if c.kind == CATEGORICAL]
        num_pos = [i for i, c in enumerate(self.schema_.columns) if c.kind != CATEGORICAL]
        if cat_pos:  # each feature's factor as a structure of its own
            single = FamilyTables([[f] for f in self._factors], n_classes)
            out[:, cat_pos, :] = single.component_terms(enc.codes)
            observed[:, cat_pos] = enc.codes >= 0
        values = self._usable(enc.values) if num_pos else enc.values
        for j, pos in enumerate(num_pos):
            col = np.zeros((n, n_classes))
            x = np.ascontiguousarray(values[:, j : j + 1])
            add_gaussian_log_density(
                col,
                x,
                np.ascontiguousarray(self.theta_[:, j : j + 1]),
                np.ascontiguousarray(self._log_norm[:, j : j + 1]),
                np.ascontiguousarray(self._scale[:, j : j + 1]),
            )
            out[:, pos, :] = col
            observed[:, pos] = ~np.isnan(x[:, 0])
        return out, observed

    def explain(self, X: Any, *, as_frame: bool = False) -> np.ndarray | pd.DataFrame:
        """Per-feature evidence for each class: ``log P(x_j | c) - log P(x_j)``.

        ``P(x_j) = sum_c P(c) P(x_j | c)`` is the feature's marginal under the model, so a
        positive entry means the feature's value speaks for class ``c``, a negative one against
        it. Since ``log P(c | x) = log P(c) + sum_j explain[j, c] + const``, the contributions add
        up to the posterior's log-odds between any two classes.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples to explain, with the features the model was fitted on.
        as_frame : bool, default=False
            Return a labelled long-form DataFrame instead of an array.

        Returns
        -------
        evidence : ndarray of shape (n_samples, n_features, n_classes) or DataFrame
            Each feature's evidence (nats) for each class, features in ``schema_.names``
            order, classes in ``classes_`` order; 0 where ``x_j`` is missing. With
            ``as_frame=True``, the same numbers with columns ``row`` (the index label of ``X``
            if it is a DataFrame, else the row's position), ``feature``, ``value`` (the value
            explained, as given), ``class`` and ``contribution``, one row per (sample,
            feature, class).

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": ["u", "u", "v", "v"], "b": ["p", "q", "p", "q"]})
        >>> model = NaiveBayes().fit(X, [0, 0, 1, 1])
        >>> model.explain(X.iloc[:1]).round(3) + 0.0
        array([[[ 0.405, -0.693],
                [ 0.   ,  0.   ]]])
        >>> model.explain(X.iloc[:1], as_frame=True).round(3)
           row feature value  class  contribution
        0    0       a     u      0         0.405
        1    0       a     u      1        -0.693
        2    0       b     p      0         0.000
        3    0       b     p      1         0.000
        """
        self._refuse_weighted("explain")
        fll, observed = self._feature_terms(self._encode_for_predict(X))
        with np.errstate(invalid="ignore"):
            marginal = logsumexp(fll + self.log_prior_, axis=2, keepdims=True)
            out = fll - marginal
        # undefined ratios (inf / inf, 0 / 0: a value impossible, or a point mass, under every
        # class that allows it) carry no comparable evidence: 0, never NaN
        out = snap_to_zero(np.where(observed[:, :, None] & ~np.isnan(out), out, 0.0))
        if not as_frame:
            return out
        return explain_frame(self, X, out)


def _check_finite_moments(moments: GaussianMoments, schema) -> None:
    """Values so large that their squares overflow cannot be modelled: say which column."""
    bad = nonfinite_features(moments)
    if bad.any():
        names = [c.name for c in schema.numeric]
        cols = [names[j] for j in np.flatnonzero(bad)]
        msg = (
            f"numeric columns {cols} hold values too large for their variance to be computed "
            "in float64 (squares overflow); rescale them"
        )
        raise SchemaError(msg)
