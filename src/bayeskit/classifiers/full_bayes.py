"""Full Bayes: one joint model of all the features per class (Zaki & Meira 18.1).

No independence is assumed between features of the same kind. Numeric features get one
multivariate normal per class (Eq. 18.3, estimated as in Algorithm 18.1); categorical features
get the class-specific joint PMF with pseudo-counts (Eq. 18.6), kept sparse. Mixed data multiply
the two parts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg import cholesky

from bayeskit._text import shown
from bayeskit._warnings import warn
from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers._checks import _check_choice, _check_number
from bayeskit.classifiers._family import check_fit_memory
from bayeskit.classifiers._gaussian import redo_rows_beyond_float64, warn_underflowed_variances
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.missing import row_patterns
from bayeskit.data.schema import Encoded
from bayeskit.estimate import (
    gaussian_log_terms,
    mvn_log_density,
    mvn_parameters,
    regularised_cholesky,
    ridge_start,
    sparse_lidstone,
)
from bayeskit.exceptions import SchemaError, SingularCovarianceWarning
from bayeskit.stats import (
    FullStats,
    ShrinkageMoments,
    joint_counts,
    nonfinite_features,
    shrinkage_moments,
)

__all__ = ["FullBayes", "FullStats"]


#: How many ``(n_classes, d, d)`` arrays a fit holds at its peak: the scatter matrices, the
#: covariances, their Cholesky factors and the estimator's working copy.
_COVARIANCE_COPIES = 4


class FullBayes(BayesClassifier):
    """Full Bayes classifier: a joint model of all features per class (Zaki & Meira 18.1).

    ``P(c | x)`` is proportional to ``P(c) P(x | c)`` (Eqs. 18.1-18.2, 18.4), where ``P(x | c)``
    models the features jointly:

    * numeric features: a multivariate normal ``N(mu_c, Sigma_c)`` (Eq. 18.3), with the class
      mean and covariance ``S_c / (n_c - ddof)`` of Algorithm 18.1, optionally shrunk (see
      ``shrinkage``); log densities come from cached Cholesky factors;
    * categorical features: the joint PMF with a pseudo-count per cell (Eq. 18.6),
      ``P(x | c) = (n_c(x) + alpha) / (n_c + alpha prod_j K_j)``, stored sparsely: only the
      combinations seen in training, plus one pseudo-count probability shared by every unseen one;
    * mixed data: the product ``P(x_cat | c) f(x_num | c)``, which *assumes* the categorical block
      and the numeric block independent given the class (the chapter defines full Bayes for one
      kind at a time).

    Missing values. Numeric: a row with any NaN is left out of the scatter statistics (its class
    still counts for the prior); at prediction the density of a row is the normal of its observed
    sub-vector, ``N(mu_O, Sigma_OO)`` (rows are grouped by missing pattern). A class with no
    complete numeric row takes the pooled normal of all classes (as naive Bayes backs off per
    feature), so the numeric features carry no evidence about it; if no class has a complete
    numeric row, the numeric features contribute nothing. Categorical: at
    prediction a missing code is summed out of the smoothed joint PMF,
    ``P(x_O | c) = (n_c(x_O) + alpha K_M) / (n_c^O + alpha prod_j K_j)`` with ``K_M`` the number of
    cells of the missing attributes; training rows with missing codes are kept, and each
    marginal ``n_c(x_O)``, ``n_c^O`` is counted from the rows that observe all of ``O``. On complete
    training data this is exactly the marginal of Eq. (18.6).

    On numeric data the model is scikit-learn's ``QuadraticDiscriminantAnalysis`` (``reg_param=0``)
    with ``ddof`` set to match its covariance: 0 for scikit-learn 1.9, whose QDA divides by n;
    1 for older releases, which divided by n - 1.

    Parameters
    ----------
    alpha : float, default=1.0
        Pseudo-count per cell of the joint PMF (Eq. 18.6 uses 1; 0 gives the empirical joint PMF of
        Example 18.2, where an unseen combination has probability 0).
    ddof : int, default=0
        Covariance ``S / (n - ddof)``: 0 is the MLE of Algorithm 18.1, 1 the unbiased estimate.
    shrinkage : None, float in [0, 1] or "ledoit-wolf", default=None
        None: the plain covariance. A float ``lam``: ``(1 - lam) Sigma + lam diag(Sigma)`` (1 is
        the diagonal, naive Bayes covariance). ``"ledoit-wolf"``: Ledoit-Wolf shrinkage toward
        ``tr(Sigma) / d * I`` with the intensity estimated per class from the statistics
        (:func:`bayeskit.estimate.ledoit_wolf_intensity`; the stats keep ``sum ||x - mean||^4`` for
        it). Whatever the setting, a covariance that is still singular (fewer complete rows than
        features, duplicated or constant columns) gets a ridge ``tau I``: ``tau`` starts at
        ``1e-9`` times the largest pooled feature variance (so it scales with the data; never
        below the smallest positive float) and grows tenfold until the Cholesky
        factorisation succeeds (:func:`bayeskit.estimate.regularised_cholesky`); a
        :class:`~bayeskit.exceptions.SingularCovarianceWarning` says so, and ``ridge_`` records it.
    priors : array-like of shape (n_classes,), optional
        Class probabilities to use instead of estimating them.
    prior_alpha : float, default=0.0
        Pseudo-count for the estimated class prior: ``P(c) = (n_c + prior_alpha) / (n + C
        prior_alpha)``; 1 is the Laplacian correction (Zhou Eq. 7.19, Weka), 0 the relative
        frequencies (scikit-learn).
    categorical_features, categories :
        Which columns are categorical, and declared vocabularies; see
        :class:`bayeskit.data.Schema`.
    handle_unknown : {"missing", "warn", "error"}, default="missing"
        A category not seen in fit is treated as missing (optionally with a warning) or refused.
    discretize : {"mdl", "equal-width", "equal-frequency", None}, default=None
        How numeric columns are binned and then modelled as categorical (cut points learned by
        the first ``fit`` or ``partial_fit`` call and kept; "mdl" is the supervised method of
        Fayyad and Irani, Zaki & Meira 18.2); None: numeric features are modelled by the
        multivariate normal; binned, they enter the joint PMF of Eq. (18.6) with the categorical
        features.
    n_bins : int, default=5
        Bins for the unsupervised discretizers.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    schema_ : Schema
    stats_ : FullStats
        Sparse joint counts and scatter moments, kept so ``partial_fit`` is count + add + estimate.
    class_count_, log_prior_ : ndarray of shape (n_classes,)
    means_ : ndarray of shape (n_classes, n_numeric)
        The class means; the pooled mean for a class with no complete numeric row.
    covariance_ : ndarray of shape (n_classes, n_numeric, n_numeric)
        The covariance used: shrunk if asked, plus ``ridge_`` on the diagonal; the pooled
        covariance for a class with no complete numeric row. Zero (with ``means_``) when no class
        has a complete numeric row.
    shrinkage_ : ndarray of shape (n_classes,)
        The shrinkage intensity applied to each class (0 with ``shrinkage=None``).
    ridge_ : ndarray of shape (n_classes,)
        The ridge added to each class's covariance (0 where it was positive definite).
    joint_combos_ : ndarray of shape (m, n_categorical)
        The complete combinations of categorical codes seen in training.
    log_joint_ : ndarray of shape (m, n_classes)
        ``log P(x = joint_combos_[r] | c)``.
    log_joint_unseen_ : ndarray of shape (n_classes,)
        ``log P(x | c)`` of every combination not in ``joint_combos_``.
    n_features_in_, feature_names_in_ :
        As in scikit-learn.

    Raises
    ------
    SchemaError
        At ``fit`` or ``partial_fit``, naming the numeric columns whose values are too large for
        their covariance (or, with ``shrinkage="ledoit-wolf"``, its fourth moments) to be
        computed in float64.
    MemoryError
        At ``fit`` or ``partial_fit``, before counting, when the covariance matrices (``d x d``
        for each class, held about :data:`_COVARIANCE_COPIES` times while estimating) would
        need more than :data:`bayeskit.classifiers._family.MEMORY_LIMIT` bytes (by default the
        machine's physical memory), naming the sizes: with many numeric features use
        :class:`NaiveBayes` (a variance per feature) or select fewer features first.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [2.0, 3.5], [3.0, 4.0], [6.0, 1.0], [7.0, 2.5], [8.0, 2.0]])
    >>> model = FullBayes().fit(X, ["a", "a", "a", "b", "b", "b"])
    >>> model.covariance_[0].round(3)
    array([[0.667, 0.667],
           [0.667, 0.722]])
    >>> model.predict([[2.5, 3.0], [6.5, 2.0]])
    array(['a', 'b'], dtype='<U1')

    Categorical data use the joint PMF with pseudo-counts (Eq. 18.6): here 2 x 2 = 4 cells, so
    ``P(x | c) = (n_c(x) + 1) / (n_c + 4)``.

    >>> import pandas as pd
    >>> X = pd.DataFrame({"u": ["p", "p", "q", "q"], "v": ["s", "t", "t", "t"]})
    >>> model = FullBayes().fit(X, [0, 0, 1, 1])
    >>> np.exp(model.predict_joint_log_proba(X.iloc[:1]) - model.log_prior_).round(3)
    array([[0.333, 0.167]])
    """

    def __init__(
        self,
        *,
        alpha: float = 1.0,
        ddof: int = 0,
        shrinkage: float | str | None = None,
        priors: Any = None,
        prior_alpha: float = 0.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
        discretize: str | None = None,
        n_bins: int = 5,
    ):
        store_parameters(self, locals())

    def _check_own_params(self) -> None:
        _check_number("alpha", self.alpha, low=0)
        _check_number("ddof", self.ddof, low=0, integer=True)
        if isinstance(self.shrinkage, str):
            _check_choice("shrinkage", self.shrinkage, ("ledoit-wolf",))
        elif self.shrinkage is not None:
            _check_number("shrinkage", self.shrinkage, low=0)
            if self.shrinkage > 1:
                msg = (
                    f"shrinkage must be None, a number in [0, 1] or 'ledoit-wolf', "
                    f"got {self.shrinkage!r}"
                )
                raise ValueError(msg)

    # ------------------------------------------------------------------ learning
    def _count(
        self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int
    ) -> FullStats:
        d = enc.values.shape[1]
        cells = n_classes * d * d  # Python ints: no overflow
        check_fit_memory(
            8 * cells * _COVARIANCE_COPIES,
            f"FullBayes would hold a {d:,} x {d:,} covariance matrix for each of {n_classes:,} "
            f"classes ({cells:,} cells, about {_COVARIANCE_COPIES} copies while estimating)",
            "use NaiveBayes (one variance per feature, the diagonal covariance), or fewer "
            "numeric features (select or project them first); shrinkage does not save memory",
        )
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is refused by name below
            moments = shrinkage_moments(enc.values, y, n_classes, w)
        return FullStats(joint_counts(enc.codes, y, n_classes, self.schema_.n_states, w), moments)

    def _estimate(self) -> None:
        joint, moments = self.stats_.joint, self.stats_.moments
        self._check_finite(moments)
        warn_underflowed_variances(moments, self.schema_)
        self.means_, cov, self.shrinkage_ = self._normal_parameters(moments)
        n_classes, d = cov.shape[0], cov.shape[1]
        # with the backoff, either every class has a normal or (no complete row) none has
        self._has_numeric = bool(d) and bool(np.any(moments.count > 0))
        if d and not self._has_numeric:
            msg = (
                f"no training row has all {d} numeric features observed, so the multivariate "
                "normal cannot be estimated and the numeric features are ignored; drop the "
                "mostly-missing columns, or use NaiveBayes, which uses every observed value"
            )
            warn(msg, UserWarning)
        chol = np.zeros_like(cov)
        ridge = np.zeros(n_classes)
        if self._has_numeric:
            start = ridge_start(moments.scatter)
            for c in range(n_classes):
                chol[c], ridge[c] = regularised_cholesky(cov[c], start)
                cov[c] += ridge[c] * np.eye(d)
        if np.any(ridge > 0):
            labels = self.classes_.tolist()
            which = ", ".join(f"{labels[c]!r} ({ridge[c]:.3g})" for c in np.flatnonzero(ridge > 0))
            msg = (
                f"the covariance of class {which} is singular (fewer complete rows than numeric "
                "features, or collinear or constant features); the ridge in brackets was added to "
                "its diagonal (see ridge_). Pass shrinkage='ledoit-wolf' or a number in (0, 1] "
                "to regularise it yourself"
            )
            warn(msg, SingularCovarianceWarning)
        self.covariance_, self.ridge_, self._chol = cov, ridge, chol
        self._marginal_scale = gaussian_log_terms(np.diagonal(cov, axis1=1, axis2=2))[1]

        d_cat = joint.combos.shape[1]
        self._log_n_states = np.log(np.maximum(joint.n_states, 1).astype(np.float64))
        self._full_table = joint.project(np.arange(d_cat))
        self.joint_combos_ = self._full_table.combos
        self.log_joint_, self.log_joint_unseen_ = sparse_lidstone(
            self._full_table.counts, self._full_table.n_states, self.alpha
        )

    def _validate_stats(self, layout: Any) -> None:
        """A model file's moments can be estimated with in float64 (as :meth:`_check_finite`
        requires of data at fit)."""
        try:
            self._check_finite(self.stats_.moments)
            self._normal_parameters(self.stats_.moments)
        except SchemaError as exc:
            msg = f"stats_.moments: {exc}"
            raise ValueError(msg) from exc

    def _normal_parameters(self, moments: ShrinkageMoments) -> tuple:
        """Each class's mean, covariance and shrinkage intensity; SchemaError naming the
        classes whose covariance is beyond float64 (a scatter divided by a tiny weight)."""
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):  # checked below
            means, cov, shrinkage = mvn_parameters(moments, self.ddof, self.shrinkage)
        bad = ~np.isfinite(cov).all(axis=(1, 2)) | ~np.isfinite(means).all(axis=1)
        if bad.any():
            labels = [self.classes_[c] for c in np.flatnonzero(bad)]
            weights = [float(w) for w in moments.count[bad]]
            msg = (
                f"the covariance of classes {shown(labels)} is beyond float64: the weight of "
                f"their complete rows ({shown(weights)}) is too small for their scatter; "
                "rescale sample_weight (e.g. to sum to the number of rows) or the numeric "
                "columns"
            )
            raise SchemaError(msg)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            start = ridge_start(moments.scatter) if np.any(moments.count > 0) else 1.0
        if not np.isfinite(start):
            msg = (
                "the variance of the classes pooled is beyond float64 (a scatter divided by a "
                "tiny weight), so no ridge can regularise a covariance; rescale sample_weight "
                "(e.g. to sum to the number of rows) or the numeric columns"
            )
            raise SchemaError(msg)
        return means, cov, shrinkage

    def _check_finite(self, moments: ShrinkageMoments) -> None:
        """Values so large that their squares overflow cannot be modelled: say which column."""
        names = [c.name for c in self.schema_.numeric]
        with np.errstate(over="ignore", invalid="ignore"):  # the classes pooled too: the
            pooled = moments.scatter.pooled()  # covariance of a class of too few rows, and
        bad = nonfinite_features(moments) | nonfinite_features(pooled)  # the ridge's scale
        if bad.any():
            cols = [names[j] for j in np.flatnonzero(bad)]
            msg = (
                f"numeric columns {cols} hold values too large for their covariance to be "
                "computed in float64 (squares overflow); rescale them"
            )
            raise SchemaError(msg)
        lw = self.shrinkage == "ledoit-wolf"
        if lw and not (np.isfinite(moments.norm4).all() and np.isfinite(moments.norm3).all()):
            pooled = moments.scatter.pooled()
            sd = np.sqrt(np.diagonal(pooled.scatter[0]) / pooled.count[0])
            cols = [names[j] for j in np.flatnonzero(sd >= 1e-3 * sd.max())]
            msg = (
                "shrinkage='ledoit-wolf' needs fourth moments of the numeric rows, which "
                f"overflow float64 (largest columns: {cols}); rescale them, or pass "
                "shrinkage=None or a number in [0, 1]"
            )
            raise SchemaError(msg)

    # ------------------------------------------------------------------ prediction
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        jll = np.zeros((enc.n_samples, len(self.classes_)))
        if enc.codes.shape[1]:
            jll += self._categorical_log_likelihood(enc.codes)
        if enc.values.shape[1]:
            jll += self._numeric_log_likelihood(enc.values)
        return jll

    def _categorical_log_likelihood(self, codes: np.ndarray) -> np.ndarray:
        out = np.zeros((codes.shape[0], len(self.classes_)))
        for pat, rows in row_patterns(codes >= 0):
            if not pat.any():
                continue  # nothing observed: P(x_O | c) = 1
            cols = np.flatnonzero(pat)
            if pat.all():
                table, seen, unseen = self._full_table, self.log_joint_, self.log_joint_unseen_
            else:
                table = self.stats_.joint.project(cols)
                missing = float(self._log_n_states[~pat].sum())
                seen, unseen = sparse_lidstone(table.counts, table.n_states, self.alpha, missing)
            where = table.find(codes[rows][:, cols])
            block = np.broadcast_to(unseen, (len(where), len(unseen))).copy()
            hit = where >= 0
            block[hit] = seen[where[hit]]
            out[rows] = block
        return out

    def _numeric_log_likelihood(self, values: np.ndarray) -> np.ndarray:
        out = self._normal_terms(values)
        if not self._has_numeric:
            return out
        # a value beyond float64 for every class's marginal is beyond it for the joint density
        # too (a marginal Mahalanobis term never exceeds the joint one)
        return redo_rows_beyond_float64(
            out,
            values,
            self.means_,
            self._marginal_scale,
            self.schema_,
            lambda _rows, usable: self._normal_terms(usable),
        )

    def _normal_terms(self, values: np.ndarray) -> np.ndarray:
        out = np.zeros((values.shape[0], len(self.classes_)))
        if not self._has_numeric:
            return out  # no class has a complete numeric row: the block carries no evidence
        for pat, rows in row_patterns(~np.isnan(values)):
            if not pat.any():
                continue  # nothing observed: the density integrates to 1
            x = values[rows] if pat.all() else values[rows][:, pat]
            for c in range(len(self.classes_)):
                if pat.all():
                    chol = self._chol[c]
                else:  # the marginal of a normal: keep the observed block of mean and covariance
                    chol = cholesky(self.covariance_[c][np.ix_(pat, pat)], lower=True)
                out[rows, c] = mvn_log_density(x, self.means_[c, pat], chol)
        return out
