"""Naive Bayes event models for counts and binary data: multinomial and Bernoulli.

Text classification is the most common real use of naive Bayes: a document is a row of word
counts (usually a ``scipy.sparse`` matrix). The multinomial model treats the words of a document
as draws from one categorical distribution per class over the vocabulary; the Bernoulli model
treats each word's presence as a binary feature. Both are categorical models in bayeskit's sense:
the statistics are count tables (class x word), mergeable with ``a + b``, and the estimators are
the same Lidstone / m-estimate functions as everywhere else. Prediction is a sparse matrix
product, never densifying the input.

References: McCallum and Nigam (1998), "A comparison of event models for naive Bayes text
classification"; Manning, Raghavan and Schuetze, *Introduction to Information Retrieval*, ch. 13.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted, validate_data

from bayeskit._text import shown
from bayeskit.classifiers._checks import _check_number, check_shape
from bayeskit.classifiers._em import LearnsFromIncompleteRows
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.rows import row_name
from bayeskit.data.schema import as_frame, is_records, is_temporal_value
from bayeskit.estimate import lidstone
from bayeskit.exceptions import SchemaError
from bayeskit.stats import CategoricalCounts, checks, class_counts

__all__ = ["BernoulliNaiveBayes", "MultinomialNaiveBayes"]


def _check_count_columns(X: pd.DataFrame, model: str) -> None:
    """Count models take numbers: name every column that holds anything else, and why."""
    bad = []
    for name, col in X.items():
        dt = col.dtype
        if pd.api.types.is_bool_dtype(dt) or (
            pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_complex_dtype(dt)
        ):
            continue
        if pd.api.types.is_object_dtype(dt) or pd.api.types.is_string_dtype(dt):
            values = pd.to_numeric(col, errors="coerce")
            text = col.notna() & values.isna()
            if not text.any():
                continue
            pos = int(np.flatnonzero(text.to_numpy())[0])
            value, row = col.iloc[pos], row_name(col.index, pos)
            if is_temporal_value(value):
                bad.append(f"{name!r} ({row}: a date or duration, {shown(value)})")
                continue
            if not isinstance(value, (str, bytes)):  # not even text: numpy's words, our names
                msg = (
                    f"column {name!r} {row}: argument must be a string or a number, got "
                    f"{type(value).__name__} ({shown(value)}); {model} models counts"
                )
                raise TypeError(msg)
            bad.append(f"{name!r} ({row}: {shown(value)})")
        else:
            bad.append(f"{name!r} (dtype {dt})")
    if bad:
        msg = (
            f"{model} models counts, so every column must hold numbers; these do not: "
            f"{', '.join(bad)}. Turn text into counts first (e.g. scikit-learn's "
            "CountVectorizer), or use NaiveBayes, which models categorical columns"
        )
        raise SchemaError(msg)


class _EventModel(LearnsFromIncompleteRows):
    """Shared input handling: numeric (possibly sparse) matrices, no schema."""

    _reads_tables = False  # numeric (possibly sparse) matrices, no schema
    _bins_numeric = False

    _nonnegative = True

    def _prepare_X(self, X: Any, *, reset: bool) -> Any:
        if is_records(X):
            X = as_frame(X)
        if isinstance(X, pd.DataFrame):
            X = self._match_columns(X, reset=reset)
            _check_count_columns(X, type(self).__name__)
        elif isinstance(X, np.ndarray) and X.dtype.kind in "OUSMm":
            _check_count_columns(as_frame(X), type(self).__name__)
        if hasattr(X, "shape"):  # as every model refuses an empty table
            check_shape(X)
        X = validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=("csr", "csc"),
            dtype=np.float64,
            ensure_all_finite=True,
        )
        if self._nonnegative:
            data = X.data if sp.issparse(X) else X
            if data.size and data.min() < 0:
                msg = f"Negative values in data passed to {type(self).__name__}: it models counts"
                raise ValueError(msg)
        return X

    def _infer_schema(self, X: Any, y, n_classes: int, w, labelled=None) -> Any:
        return None  # no schema: the count matrix is read as it is

    def _grow(self, X: Any, stats):
        return stats

    def _encode(self, X: Any) -> Any:
        return X

    def _encode_for_predict(self, X: Any) -> Any:
        check_is_fitted(self, "stats_")
        return self._prepare_X(X, reset=False)

    def _feature_matrix(self, X: Any) -> Any:
        return X

    def _count(self, X: Any, y: np.ndarray, w: np.ndarray | None, n_classes: int):
        weights = np.ones(len(y)) if w is None else w
        onehot = sp.csr_matrix((weights, (y, np.arange(len(y)))), shape=(n_classes, len(y)))
        table = onehot @ self._feature_matrix(X)
        table = table.toarray() if sp.issparse(table) else np.asarray(table)
        return CategoricalCounts(class_counts(y, n_classes, weights), (table,))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = self._nonnegative
        return tags


class MultinomialNaiveBayes(_EventModel):
    """Multinomial naive Bayes for count data such as word counts (sparse input welcome).

    ``log P(x | c) = sum_j x_j log theta_cj`` (the multinomial coefficient, the same for every
    class, is dropped), with ``theta_cj = (n_cj + alpha) / (n_c + V alpha)``, the Lidstone estimate
    over the vocabulary of V features (Zhou eq. 7.20 with words as values).

    Parameters
    ----------
    alpha : float, default=1.0
    priors : array-like, optional
    prior_alpha : float, default=0.0
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

    Attributes
    ----------
    classes_, class_count_, log_prior_ :
    feature_count_ : ndarray of shape (n_classes, n_features)
        Weighted total count of each feature in each class.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        ``log theta_cj``.
    history_ : list of float
        With unlabelled rows or ``missing="em"``: the objective of each EM iteration (see
        :mod:`bayeskit.classifiers._incomplete`); empty after a fit from complete rows.
    n_iter_ : int
        The M-steps made, the first estimate included (1 for complete rows: counting).
    converged_ : bool


    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 0, 0], [0, 4, 1], [0, 3, 2]])
    >>> MultinomialNaiveBayes().fit(X, ["sport", "sport", "tech", "tech"]).predict([[1, 0, 0]])
    array(['sport'], dtype='<U5')
    """

    def __init__(
        self,
        *,
        alpha: float = 1.0,
        priors: Any = None,
        prior_alpha: float = 0.0,
        unlabelled: Any = None,
        unlabelled_weight: float = 1.0,
        max_iter: int = 100,
        tol: float = 1e-6,
    ):
        store_parameters(self, locals())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # as scikit-learn marks its MultinomialNB: a count model on shifted Gaussian blobs
        # (the estimator checks' data) is not expected to reach their accuracy bar
        tags.classifier_tags.poor_score = True
        return tags

    def _check_own_params(self) -> None:
        _check_number("alpha", self.alpha, low=0)

    def _validate_stats(self, layout: Any) -> None:
        """A class of no rows counts no feature (a model file's counts)."""
        table, classes = self.stats_.feature_count[0], self.stats_.class_count
        empty = (classes == 0)[:, None] & (table > 0)
        if empty.any():
            c, j = (int(i) for i in np.argwhere(empty)[0])
            names = getattr(self, "feature_names_in_", None)
            feature = repr(str(names[j])) if names is not None else str(j)
            label = shown(self.classes_[c])
            checks.fail(
                "stats_.feature_count[0]",
                f"counts {table[c, j]:.6g} of feature {feature} in class {label}, whose "
                "class_count is 0: a class of no rows counts nothing",
            )

    def _estimate(self) -> None:
        self.feature_count_ = self.stats_.feature_count[0]
        self.feature_log_prob_ = lidstone(self.feature_count_, self.alpha)

    def _table_log_prior(self) -> float:
        return self.alpha * float(np.sum(self.feature_log_prob_)) if self.alpha > 0 else 0.0

    def _log_likelihood(self, X: Any) -> np.ndarray:
        logp = self.feature_log_prob_
        if np.isneginf(logp).any():  # alpha = 0: 0 * log 0 must count as 0, not NaN
            return _safe_product(X, logp)
        return np.asarray(X @ logp.T)


class BernoulliNaiveBayes(_EventModel):
    """Bernoulli naive Bayes for binary features (word present or not), sparse input welcome.

    ``log P(x | c) = sum_j [x_j log p_cj + (1 - x_j) log(1 - p_cj)]`` with
    ``p_cj = (n_cj + alpha) / (n_c + 2 alpha)``; absent words count as evidence too, unlike the
    multinomial model.

    Parameters
    ----------
    alpha : float, default=1.0
    binarize : float or None, default=0.0
        Values above this threshold count as 1; None means the input is already binary.
    priors, prior_alpha :
        As in :class:`NaiveBayes`.
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

    Attributes
    ----------
    feature_count_ : ndarray of shape (n_classes, n_features)
        Weighted number of samples of each class in which each feature is 1.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        ``log p_cj``.
    history_ : list of float
        With unlabelled rows or ``missing="em"``: the objective of each EM iteration (see
        :mod:`bayeskit.classifiers._incomplete`); empty after a fit from complete rows.
    n_iter_ : int
        The M-steps made, the first estimate included (1 for complete rows: counting).
    converged_ : bool


    Examples
    --------
    >>> X = np.array([[1, 0, 1], [1, 0, 0], [0, 1, 1], [0, 1, 0]])
    >>> BernoulliNaiveBayes().fit(X, [0, 0, 1, 1]).predict([[1, 0, 1]])
    array([0])
    """

    _nonnegative = False

    def __init__(
        self,
        *,
        alpha: float = 1.0,
        binarize: float | None = 0.0,
        priors: Any = None,
        prior_alpha: float = 0.0,
        unlabelled: Any = None,
        unlabelled_weight: float = 1.0,
        max_iter: int = 100,
        tol: float = 1e-6,
    ):
        store_parameters(self, locals())

    def _check_own_params(self) -> None:
        _check_number("alpha", self.alpha, low=0)
        if self.binarize is not None:
            _check_number("binarize", self.binarize)

    def _feature_matrix(self, X: Any) -> Any:
        if self.binarize is None:
            data = X.data if sp.issparse(X) else X
            if data.size and not np.isin(data, (0.0, 1.0)).all():
                msg = (
                    "BernoulliNaiveBayes(binarize=None) needs binary X (only 0 and 1); X has "
                    f"the value {shown(data[~np.isin(data, (0.0, 1.0))][0])}: set binarize to a "
                    "threshold"
                )
                raise ValueError(msg)
            return X
        if sp.issparse(X):
            out = X.copy()
            out.data = (out.data > self.binarize).astype(np.float64)
            out.eliminate_zeros()
            return out
        return (X > self.binarize).astype(np.float64)

    def _validate_stats(self, layout: Any) -> None:
        """A feature is 1 in at most every row of its class (a model file's counts)."""
        checks.at_most(
            self.stats_.feature_count[0],
            self.stats_.class_count[:, None],
            "stats_.feature_count[0]",
            "the weight of the rows of a class in which a feature is 1 (class, feature)",
            "a feature is 1 in at most every row of its class (class_count)",
        )

    def _estimate(self) -> None:
        ones = self.stats_.feature_count[0]
        self.feature_count_ = ones
        zeros = np.maximum(self.stats_.class_count[:, None] - ones, 0.0)
        both = lidstone(np.stack([zeros, ones], axis=-1), self.alpha)
        self.feature_log_prob_ = both[..., 1]
        self._log_not = both[..., 0]

    def _table_log_prior(self) -> float:
        if self.alpha <= 0:
            return 0.0
        return self.alpha * float(np.sum(self.feature_log_prob_) + np.sum(self._log_not))

    def _log_likelihood(self, X: Any) -> np.ndarray:
        Xb = self._feature_matrix(X)
        diff = self.feature_log_prob_ - self._log_not
        base = self._log_not.sum(axis=1)
        if not np.isfinite(diff).all():
            present = _safe_product(Xb, self.feature_log_prob_)
            absent = _safe_product(_complement(Xb), self._log_not)
            return present + absent
        return np.asarray(Xb @ diff.T) + base


def _safe_product(X: Any, logp: np.ndarray) -> np.ndarray:
    """``X @ logp.T`` where a zero count times a log-probability of ``-inf`` contributes 0."""
    X = sp.csr_matrix(X)
    out = np.zeros((X.shape[0], logp.shape[0]))
    for c in range(logp.shape[0]):
        row = logp[c]
        contrib = X.multiply(np.where(np.isneginf(row), 0.0, row)).sum(axis=1)
        impossible = X[:, np.isneginf(row)].getnnz(axis=1) > 0
        out[:, c] = np.where(impossible, -np.inf, np.asarray(contrib).ravel())
    return out


def _complement(X: Any) -> np.ndarray:
    dense = X.toarray() if sp.issparse(X) else np.asarray(X)
    return 1.0 - dense
