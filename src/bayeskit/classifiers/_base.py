"""The one implementation of the scikit-learn classifier API that every Bayes classifier shares.

A model is a structure plus statistics plus an estimator. :class:`BayesClassifier` writes
everything else once: input checks, the schema, class labels, sample weights, ``fit`` as "count
and estimate", ``partial_fit`` as "count, add, re-estimate", ``fit_chunks``, the class prior,
the posterior in log space, and decisions through :mod:`bayeskit.decision`. Its parts live in
modules of their own: argument checks (``_checks``), input preparation (``_inputs``), chunks
and partitions (``_chunks``), prediction and decisions (``_predict``), and EM for incomplete
rows (``_em``, a subclass that a model lists first among its bases).

The contract
------------
What every model provides (abstract: a class lacking one cannot be instantiated):

* ``_count(enc, y, w, n_classes)``: mergeable statistics of one chunk of encoded data (they
  support ``a + b`` and carry ``class_count``);
* ``_estimate()``: the fitted tables, computed from ``self.stats_`` only;
* ``_log_likelihood(enc)``: ``log P(x | c)`` of shape ``(n_samples, n_classes)``.

Every model takes the constructor parameters ``priors`` and ``prior_alpha``. What else it takes
and does, it declares in class attributes, read here instead of probing the instance:

* ``_reads_tables`` (True): reads tabular data through a :class:`~bayeskit.data.Schema`, and
  takes ``categorical_features``, ``categories`` and ``handle_unknown``;
* ``_bins_numeric`` (True): takes ``discretize`` and ``n_bins``;
* ``_learns_unlabelled`` (False; True for a subclass of ``LearnsFromIncompleteRows``): takes
  ``unlabelled``, ``unlabelled_weight``, ``max_iter`` and ``tol``, and learns from unlabelled
  rows by EM;
* ``_missing_em`` (None): takes ``missing`` when set, and says what ``missing="em"`` does:
  ``"counting"`` (its fixed point is the counting estimate: naive Bayes) or ``"network"`` (EM
  over the model's Bayesian network: TAN, KDB);
* ``_scores_rows`` (False): ``_after_count`` scores the rows against the counts of all of them
  (SPODE's and SelectiveKDB's leave-one-out), so ``fit_chunks`` and :func:`bayeskit.dask.fit`
  make a scoring pass after the counting one;
* ``_chunks_as_partial_fit`` (False): counting a chunk reads the tables estimated from the
  earlier ones, so ``fit_chunks`` is ``partial_fit`` chunk by chunk;
* ``_distributable`` (True): the model is its statistics summed over partitions
  (:func:`bayeskit.dask.fit` refuses it otherwise).

and one flag of the state of a fit, False but while a pass of a model's own runs:

* ``_structure_pass``: set during the first pass of a model that fits in two (``_fit_chunks``
  and ``_fit_distributed`` overridden, as KDB's), whose ``_count`` then counts only what the
  structure is chosen from (KDB's all-pairs table); :func:`bayeskit.dask.fit` sets it on the
  copies of the model that count the partitions.

Optional steps, documented no-ops (or defaults) here that a model overrides:
``_check_own_params()`` (its own arguments), ``_after_count(enc, y, w)`` (with
``_scores_rows``), ``_validate_stats(layout)`` (invariants of a model file's statistics),
``_table_log_prior()`` (the tables' Dirichlet log prior, for EM's objective), ``_grow(X,
stats)`` (vocabularies grown by ``partial_fit``), and the passes ``_fit_chunks``,
``_score_chunks``, ``_fit_distributed`` and ``_score_distributed`` (a model that reads the data
more than once, as KDB). ``_targets(y, n_samples)``, ``_learn_by_em(...)`` and
``_counted_alone()`` are the EM paths, which ``LearnsFromIncompleteRows`` provides; the input
steps ``_prepare_X``, ``_infer_schema``, ``_encode`` and ``_encode_for_predict`` are overridden
by models that read numeric matrices instead of tables (the multinomial and Bernoulli models).

Hooks the interfaces may call (:mod:`bayeskit.io`, :mod:`bayeskit.dask`), and nothing else of a
model's protected API: ``_check_params()``, ``_transaction()``, ``_forget()``,
``_has_stats()``, ``_refuse_without_rows(what)``, ``_prepare_X(X, reset=)``,
``_infer_schema(X, y, n_classes, w)``,
``_encoded_rows(X, y, w)``, ``_count``, ``_after_count``, ``_fit_distributed(run)``,
``_validate_stats(layout)``, ``_reestimate()``, ``_unlabelled_marked()`` and
``_missing_by_em()``, and the class attributes and the flag above.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from contextlib import contextmanager
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from bayeskit._text import shown
from bayeskit.classifiers._checks import check_shared_params, drop_weightless
from bayeskit.classifiers._chunks import ChunkedFitting
from bayeskit.classifiers._inputs import TabularInput
from bayeskit.classifiers._predict import Prediction
from bayeskit.classifiers.labels import Targets, encode_targets, plain_repr
from bayeskit.data.schema import Encoded
from bayeskit.data.validation import check_sample_weight
from bayeskit.estimate import lidstone

__all__ = ["BayesClassifier"]


class BayesClassifier(
    ChunkedFitting, Prediction, TabularInput, ClassifierMixin, BaseEstimator, metaclass=ABCMeta
):
    """Base class of bayeskit's classifiers (see the module docstring for the contract).

    Shared parameters, handled here: ``priors`` (class probabilities to use instead of the
    estimated ones, in ``classes_`` order), ``prior_alpha`` (Lidstone pseudo-count for the
    estimated class prior; 0 gives relative frequencies, 1 Zhou's eq. 7.19), and for models that
    read tabular data ``categorical_features``, ``categories`` and ``handle_unknown`` (see
    :class:`bayeskit.data.Schema`), and ``discretize`` / ``n_bins`` where numeric columns are to be
    binned (cut points are learned by the first ``fit`` or ``partial_fit`` call and then kept, so
    later chunks are binned the same way).

    Examples
    --------
    Every classifier is one, with the scikit-learn API written here once:

    >>> from bayeskit.classifiers import MODELS, NaiveBayes
    >>> all(issubclass(cls, BayesClassifier) for cls in MODELS.values())
    True
    >>> import pandas as pd
    >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
    >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
    >>> model.predict_proba(X.head(1)).round(3).tolist(), model.classes_.tolist()
    ([[0.75, 0.25]], ['play', 'stay'])
    """

    #: reads tables through a Schema: takes categorical_features, categories, handle_unknown
    _reads_tables: ClassVar[bool] = True
    #: bins numeric columns: takes discretize and n_bins
    _bins_numeric: ClassVar[bool] = True
    #: learns from unlabelled rows by EM (set by LearnsFromIncompleteRows)
    _learns_unlabelled: ClassVar[bool] = False
    #: None (no ``missing`` parameter), "counting" or "network": what missing="em" does
    _missing_em: ClassVar[str | None] = None
    #: _after_count scores the rows against the counts of all of them (a second pass)
    _scores_rows: ClassVar[bool] = False
    #: fit_chunks is partial_fit chunk by chunk (the tables estimated after each), for a model
    #: whose counting of a chunk reads the tables estimated from the earlier ones
    _chunks_as_partial_fit: ClassVar[bool] = False
    #: whether the model is its statistics summed over partitions (bayeskit.dask.fit)
    _distributable: ClassVar[bool] = True
    #: while fit_chunks counts: chunks are counted and added, the tables estimated at the end
    _counting_only: bool = False
    #: during the first pass of a two-pass fit (fit_chunks, bayeskit.dask.fit): _count counts
    #: only what the structure is chosen from (KDB's all-pairs table)
    _structure_pass: bool = False

    priors: Any
    prior_alpha: float

    # ------------------------------------------------------------------ the model's part
    @abstractmethod
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int) -> Any:
        """Mergeable statistics of encoded rows ``enc`` of classes ``y`` (weights ``w``)."""

    @abstractmethod
    def _estimate(self) -> None:
        """Every fitted table of the model, from ``stats_`` (and the parameters) only."""

    @abstractmethod
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        """``log P(x | c)``, shape ``(n_samples, n_classes)``."""

    def _check_own_params(self) -> None:
        """The model's own argument checks; none by default."""

    def _after_count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        """Anything a model learns from the rows themselves once ``stats_`` holds them (a
        score summed over rows into the statistics: declare ``_scores_rows``); nothing by
        default."""

    def _learn_weights(self, X: Any, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        """What a model fits on the rows once its tables are estimated (discriminative
        weights); nothing by default."""

    def _refuse_without_rows(self, what: str) -> None:
        """ValueError when the model fits something on rows held in memory that ``what``
        (chunks, Dask, EM) does not give it (discriminative weights); nothing by default."""

    def _validate_stats(self, layout: Any) -> None:
        """Invariants of ``stats_`` read from a model file that only the model knows, checked
        after the statistics' own ``validate(layout)`` and before estimating: ValueError naming
        the field. None by default."""

    def _table_log_prior(self) -> float:
        """The tables' part of :meth:`_parameter_log_prior`; 0 for a model with none."""
        return 0.0

    def _learn_by_em(
        self, X: Any, y_idx: np.ndarray, classes: np.ndarray, sample_weight: Any
    ) -> BayesClassifier:
        """``fit`` by EM, for rows without a label or ``missing="em"``: provided by
        :class:`~bayeskit.classifiers._em.LearnsFromIncompleteRows`, which every model that
        declares ``_learns_unlabelled`` or ``_missing_em`` derives from."""
        msg = f"{type(self).__name__} does not learn by EM"
        raise NotImplementedError(msg)

    def _counted_alone(self) -> None:
        """Called once a fit learned by counting alone; EM models record one iteration."""

    def _targets(self, y: Any, n_samples: int) -> Targets:
        """The checked class labels, encoded (EM models also read an ``unlabelled`` marker)."""
        return encode_targets(y, n_samples)

    # ------------------------------------------------------------------ state and parameters
    def _has_stats(self) -> bool:
        """Whether the model holds statistics (a fit, or a partial_fit has counted rows): the
        one check of fitted state inside the library."""
        return "stats_" in vars(self)

    def _unlabelled_marked(self) -> bool:
        """Whether the parameters mark unlabelled rows (``unlabelled`` given)."""
        return self._learns_unlabelled and self.unlabelled is not None

    def _missing_by_em(self, *, network_only: bool = False) -> bool:
        """Whether the parameters ask for EM over missing values (``missing="em"``); with
        ``network_only``, only where that EM runs over the model's network."""
        if self._missing_em is None or self.missing != "em":
            return False
        return not network_only or self._missing_em == "network"

    def _check_params(self) -> None:
        """Check the shared parameters the model declares (:func:`check_shared_params`), then
        its own (``_check_own_params``)."""
        check_shared_params(self)
        self._check_own_params()

    @contextmanager
    def _transaction(self):
        """A failed ``fit`` or ``partial_fit`` leaves the model exactly as it was."""
        saved = dict(self.__dict__)
        try:
            yield
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(saved)
            raise

    def _forget(self) -> None:
        """Drop what a fit learned, before a new fit."""
        for attr in ("classes_", "schema_", "stats_", "cell_weights_", "l2_"):
            self.__dict__.pop(attr, None)

    # ------------------------------------------------------------------ learning
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BayesClassifier:
        """Count the statistics of ``(X, y)`` and estimate the model's tables from them.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The training samples; missing values (NaN, None) are allowed.
        y : array-like of shape (n_samples,)
            The class label of each sample; for models with an ``unlabelled`` parameter, rows
            marked by it (or with a missing label) are learned from by EM.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; an integer weight counts a row that many times. None (the
            default) gives every row weight 1; rows of weight 0 are left out.

        Returns
        -------
        self : BayesClassifier
            The fitted model.

        Raises
        ------
        ValueError
            If the labelled rows hold fewer than 2 classes, or the weights sum to zero (and,
            from the checks, for an invalid parameter or input).

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> y = ["play", "stay", "play", "stay"]
        >>> model = NaiveBayes().fit(X, y, sample_weight=[1, 1, 1, 3])
        >>> model.class_count_.tolist()
        [2.0, 4.0]
        """
        with self._transaction():
            self._check_params()
            self._forget()
            return self._fit(X, y, sample_weight)

    def _fit(self, X: Any, y: Any, sample_weight: Any) -> BayesClassifier:
        X = self._prepare_X(X, reset=True)
        targets = self._targets(y, X.shape[0])
        X, targets, sample_weight = drop_weightless(X, targets, sample_weight)
        classes = targets.present()
        if len(classes) < 2:
            msg = (
                f"y has only 1 class ({plain_repr(classes[0])}) on its labelled rows; a "
                "classifier needs samples of at least 2 classes"
            )
            raise ValueError(msg)
        y_idx = targets.codes_in(classes)
        if (y_idx < 0).any() or self._missing_by_em():
            self._refuse_without_rows("EM over unlabelled rows or missing values")
            return self._learn_by_em(X, y_idx, classes, sample_weight)
        return self._learn(X, y_idx, classes, sample_weight)

    def partial_fit(
        self, X: Any, y: Any, classes: Any = None, sample_weight: Any = None
    ) -> BayesClassifier:
        """Add a chunk of data: count it, add the counts to those held, re-estimate.

        For counting models, fitting chunk by chunk gives the same model as one :meth:`fit`
        on all the data; the exceptions, each documented with its model, are cut points of
        binned numeric columns (learned from the first call) and SPODE's automatic choice of
        super-parent (a leave-one-out score). ``classes`` (every class label) must be given on
        the first call.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            A chunk of training samples, with the features of the first call.
        y : array-like of shape (n_samples,)
            The class label of each sample; every row must be labelled.
        classes : array-like, optional
            Every class label the model will know, required on the first call (at least 2);
            later calls may leave it out or repeat the same labels.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; None (the default) gives every row weight 1.

        Returns
        -------
        self : BayesClassifier
            The model, updated with the chunk.

        Raises
        ------
        ValueError
            If ``classes`` is missing on the first call, holds fewer than 2 labels or differs
            from the first call's; if a row is unlabelled or the model is set to
            ``missing="em"`` (EM needs all rows at once: use :meth:`fit`); or if the weights
            held sum to zero.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> y = ["play", "stay", "play", "stay"]
        >>> model = NaiveBayes().partial_fit(X[:2], y[:2], classes=["play", "stay"])
        >>> model = model.partial_fit(X[2:], y[2:])
        >>> model.class_count_.tolist(), model.predict_proba(X[:1]).round(3).tolist()
        ([2.0, 2.0], [[0.75, 0.25]])
        """
        with self._transaction():
            self._check_params()
            return self._partial_fit(X, y, classes, sample_weight)

    def _partial_fit(self, X: Any, y: Any, classes: Any, sample_weight: Any) -> BayesClassifier:
        first = not self._has_stats()
        if self._missing_by_em(network_only=True):
            msg = (
                "partial_fit counts chunk by chunk, and EM (missing='em') needs all rows at "
                "once: use fit, or missing='skip'"
            )
            raise ValueError(msg)
        X = self._prepare_X(X, reset=first)
        targets = self._targets(y, X.shape[0])
        if (targets.index < 0).any():
            msg = (
                f"partial_fit got {int((targets.index < 0).sum())} unlabelled row(s): "
                "semi-supervised EM needs all rows at once; use fit, or pass labelled rows only"
            )
            raise ValueError(msg)
        X, targets, sample_weight = drop_weightless(X, targets, sample_weight)
        if first:
            if classes is None:
                msg = "classes must be passed on the first call to partial_fit"
                raise ValueError(msg)
            classes = np.unique(np.asarray(classes))
            if len(classes) < 2:
                msg = f"classes must hold at least 2 labels, got {classes.tolist()}"
                raise ValueError(msg)
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            msg = (
                f"classes {np.unique(classes).tolist()} differ from those of the first call "
                f"{self.classes_.tolist()}"
            )
            raise ValueError(msg)
        else:
            classes = self.classes_
        return self._learn(X, targets.codes_in(classes), classes, sample_weight)

    def _learn(self, X: Any, y_idx: np.ndarray, classes: np.ndarray, sample_weight: Any):
        """Count (and estimate) rows whose class is ``classes[y_idx]``."""
        w = check_sample_weight(sample_weight, X.shape[0])
        if not self._has_stats():
            self.schema_ = self._infer_schema(X, y_idx, len(classes), w)
            stats = None
        else:
            stats = self._grow(X, self.stats_)
        enc = self._encode(X)
        chunk = self._count(enc, y_idx, w, len(classes))
        self.classes_ = classes
        self.stats_ = chunk if stats is None else stats + chunk
        if self.stats_.class_count.sum() <= 0:
            msg = "sample_weight sums to zero: there is nothing to learn from"
            raise ValueError(msg)
        if self._counting_only:  # fit_chunks: estimated after the last
            return self
        self._after_count(enc, y_idx, w)
        self._counted_alone()  # learned by counting: EM's one iteration
        self._reestimate()
        self._learn_weights(X, enc, y_idx, w)
        return self

    def _reestimate(self) -> BayesClassifier:
        """Every fitted table from ``stats_`` (and the parameters): the class prior, then the
        model's own tables. Loading a saved model calls this too."""
        self.class_count_ = self.stats_.class_count
        self.log_prior_ = self._log_prior(self.class_count_)
        self._estimate()
        return self

    def _parameter_log_prior(self) -> float:
        """``sum pseudo-count x log theta`` of the Dirichlet prior that the estimates amount to
        (class prior and tables): what EM adds to the log-likelihood as its objective."""
        total = self._table_log_prior()
        if self.priors is None and self.prior_alpha > 0:
            total += self.prior_alpha * float(np.sum(self.log_prior_))
        return total

    def _log_prior(self, class_count: np.ndarray) -> np.ndarray:
        if self.priors is None:
            return lidstone(class_count, self.prior_alpha)
        p = np.asarray(self.priors, dtype=np.float64)
        n = len(class_count)
        if p.shape != (n,):
            msg = (
                f"priors must be {n} non-negative numbers (one per class), got {shown(self.priors)}"
            )
            raise ValueError(msg)
        with np.errstate(divide="ignore"):
            return np.log(p)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags
