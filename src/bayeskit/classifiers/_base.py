"""The one implementation of the scikit-learn classifier API that every Bayes classifier shares.

A model is a structure plus statistics plus an estimator. A subclass supplies four things:

* ``_check_params()``: argument checks, run at the start of ``fit`` and ``partial_fit`` (so values
  set later by ``set_params`` in a grid search are checked too);
* ``_count(enc, y, w, n_classes)``: mergeable statistics of one chunk of encoded data (they
  support ``a + b`` and carry ``class_count``);
* ``_estimate()``: the fitted tables, computed from ``self.stats_`` only;
* ``_log_likelihood(enc)``: ``log P(x | c)`` of shape ``(n_samples, n_classes)``.

Everything else is written here, once: input checks, the schema, class labels, sample weights,
``fit`` as "count and estimate", ``partial_fit`` as "count, add, re-estimate", the class prior,
the posterior in log space, and decisions through :mod:`bayeskit.decision`.
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from bayeskit._progress import reports_progress, rows_adapter
from bayeskit._text import shown
from bayeskit._warnings import warn
from bayeskit.classifiers._labels import (
    Targets,
    class_labels,
    encode_targets,
    plain_repr,
)
from bayeskit.data.discretize import METHODS as DISCRETIZE_METHODS
from bayeskit.data.schema import (
    HANDLE_UNKNOWN,
    Encoded,
    Schema,
    as_frame,
    column_mismatch,
    is_records,
)
from bayeskit.data.validation import check_sample_weight
from bayeskit.decision import bayes_decision, cost_matrix
from bayeskit.estimate import SMOOTHINGS, beyond_float64, lidstone
from bayeskit.exceptions import SchemaError, ZeroEvidenceWarning
from bayeskit.stats import underflowed_features
from bayeskit.stats._lookup import log_normalise_rows

__all__ = ["BayesClassifier"]


def _check_number(
    name: str, value: Any, *, low: float | None = None, integer: bool = False
) -> None:
    ok_type = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, ok_type):
        kind = "an integer" if integer else "a number"
        msg = f"{name} must be {kind}, got {shown(value)} ({type(value).__name__})"
        raise TypeError(msg)
    if not np.isfinite(value):
        msg = f"{name} must be finite, got {shown(value)}"
        raise ValueError(msg)
    if low is not None and value < low:
        msg = f"{name} must be >= {low}, got {shown(value)}"
        raise ValueError(msg)


def _check_choice(name: str, value: Any, options: tuple) -> None:
    if value not in options:
        msg = f"{name} must be one of {', '.join(map(repr, options))}, got {shown(value)}"
        raise ValueError(msg)


def _check_smoothing(alpha: Any, smoothing: Any) -> None:
    """The pseudo-count and smoothing of a categorical table, as every counting model takes
    them (see :func:`bayeskit.estimate.log_probabilities`)."""
    _check_number("alpha", alpha, low=0)
    _check_choice("smoothing", smoothing, SMOOTHINGS)
    if smoothing == "dirichlet-map" and alpha < 1:
        msg = f"smoothing='dirichlet-map' needs alpha >= 1, got {alpha}"
        raise ValueError(msg)


def _fit_chunks_name(arguments: dict) -> str:
    """What a progress display calls a model's ``fit_chunks``."""
    return f"{type(arguments['self']).__name__}.fit_chunks"


def check_shape(X: Any) -> None:
    """The one check of every model that ``X`` is a table of at least one row and column
    (ValueError with its shape otherwise)."""
    shape = getattr(X, "shape", ())
    if len(shape) != 2:
        msg = (
            f"X must be 2-D (n_samples, n_features), got shape {shape}. Reshape your data "
            "with X.reshape(-1, 1) for a single feature or X.reshape(1, -1) for one sample"
        )
        raise ValueError(msg)
    if shape[0] == 0:
        msg = f"Found array with 0 sample(s) (shape={shape}) while a minimum of 1 is required."
        raise ValueError(msg)
    if shape[1] == 0:
        msg = f"0 feature(s) (shape={shape}) while a minimum of 1 is required."
        raise ValueError(msg)


def _drop_weightless(X: Any, targets: Targets, sample_weight: Any):
    """Rows of weight 0 are left out before anything is learned from them (their categories
    do not enter a vocabulary, their labels do not make a class), so an integer weight equals
    repeating the row that many times, 0 included."""
    w = check_sample_weight(sample_weight, X.shape[0])
    if w is None or (w > 0).all():
        return X, targets, w
    keep = w > 0
    if not keep.any():
        msg = "sample_weight sums to zero: there is nothing to learn from"
        raise ValueError(msg)
    rows = X.iloc[keep] if isinstance(X, pd.DataFrame) else X[keep]
    return rows, targets.take(keep), w[keep]


class BayesClassifier(ClassifierMixin, BaseEstimator):
    """Base class of bayeskit's classifiers (see the module docstring for what a model supplies).

    Shared parameters, handled here: ``priors`` (class probabilities to use instead of the
    estimated ones, in ``classes_`` order), ``prior_alpha`` (Lidstone pseudo-count for the
    estimated class prior; 0 gives relative frequencies, 1 Zhou's eq. 7.19), and for models that
    read tabular data ``categorical_features``, ``categories`` and ``handle_unknown`` (see
    :class:`bayeskit.data.Schema`), and ``discretize`` / ``n_bins`` where numeric columns are to be
    binned (cut points are learned by the first ``fit`` or ``partial_fit`` call and then kept, so
    later chunks are binned the same way).
    """

    #: fit_chunks is partial_fit chunk by chunk (the tables estimated after each), for a model
    #: whose counting of a chunk reads the tables estimated from the earlier ones
    _chunks_as_partial_fit = False
    #: whether the model is its statistics summed over partitions (bayeskit.dask.fit)
    _distributable = True

    # ------------------------------------------------------------------ hooks
    def _check_params(self) -> None:
        """Check the shared parameters a model has, then its own (``_check_own_params``)."""
        if hasattr(self, "prior_alpha"):
            _check_number("prior_alpha", self.prior_alpha, low=0)
        if getattr(self, "priors", None) is not None:
            p = np.asarray(self.priors)
            if (
                p.ndim != 1
                or p.dtype.kind not in "fiu"
                or not np.isfinite(p).all()
                or (p < 0).any()
            ):
                msg = f"priors must be a 1-D array of non-negative numbers, got {self.priors!r}"
                raise ValueError(msg)
            if not np.isclose(p.sum(), 1.0, rtol=0, atol=1e-9):
                msg = f"priors must sum to 1, got {shown(p.sum())}"
                raise ValueError(msg)
        if hasattr(self, "handle_unknown"):
            _check_choice("handle_unknown", self.handle_unknown, HANDLE_UNKNOWN)
        if getattr(self, "discretize", None) is not None:
            _check_choice("discretize", self.discretize, DISCRETIZE_METHODS)
        if hasattr(self, "n_bins"):
            _check_number("n_bins", self.n_bins, low=1, integer=True)
        if hasattr(self, "unlabelled"):  # the EM parameters (bayeskit.classifiers._incomplete)
            _check_number("unlabelled_weight", self.unlabelled_weight, low=0)
            _check_number("max_iter", self.max_iter, low=1, integer=True)
            _check_number("tol", self.tol, low=0)
        if hasattr(self, "missing"):
            _check_choice("missing", self.missing, ("skip", "em"))
        self._check_own_params()

    def _check_own_params(self) -> None:
        pass

    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int):
        raise NotImplementedError

    def _estimate(self) -> None:
        raise NotImplementedError

    def _validate_stats(self, layout: Any) -> None:
        """Invariants of ``stats_`` read from a model file that only the model knows, checked
        after the statistics' own ``validate(layout)`` and before estimating: ValueError naming
        the field. None by default."""

    def _after_count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        """Anything a model learns from the rows themselves once ``stats_`` holds them (a
        score summed over rows into the statistics); nothing by default."""

    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        raise NotImplementedError

    def _grow(self, X: Any, stats):
        """Grow the schema's vocabularies with categories first seen in ``X`` (``partial_fit``)
        and re-lay the statistics held out to match."""
        self.schema_, remap = self.schema_.extend(X, getattr(self, "categories", None))
        return stats.regrow(remap, self.schema_.n_states) if remap else stats

    # ------------------------------------------------------------------ data
    def _infer_schema(
        self,
        X: Any,
        y: np.ndarray,
        n_classes: int,
        w: np.ndarray | None,
        labelled: np.ndarray | None = None,
    ) -> Schema:
        """The schema of ``X``: vocabularies from every row, cut points of binned numeric
        columns from the ``labelled`` rows (a mask; all rows by default)."""
        schema = Schema.infer(
            X,
            categorical_features=getattr(self, "categorical_features", None),
            categories=getattr(self, "categories", None),
        )
        method = getattr(self, "discretize", None)
        if method is None:
            return schema
        if labelled is not None and not labelled.all():
            X = X.iloc[labelled] if isinstance(X, pd.DataFrame) else X[labelled]
            y = y[labelled]
            w = None if w is None else w[labelled]
        return schema.discretize(
            X, y, n_classes, method=method, n_bins=getattr(self, "n_bins", 5), sample_weight=w
        )

    def _encode(self, X: Any) -> Encoded:
        return self.schema_.encode(X, handle_unknown=getattr(self, "handle_unknown", "missing"))

    def _prepare_X(self, X: Any, *, reset: bool) -> Any:
        """Feature-name and feature-count bookkeeping (scikit-learn's rules), then the frame."""
        if is_records(X):
            X = as_frame(X)
        if isinstance(X, pd.DataFrame):
            X = self._match_columns(X, reset=reset)
        if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
            msg = (
                f"{type(self).__name__} needs dense input, got a sparse matrix; use "
                "MultinomialNaiveBayes or BernoulliNaiveBayes for sparse counts"
            )
            raise TypeError(msg)
        if not hasattr(X, "shape"):
            arr = np.asarray(X)
            if arr.dtype.kind in "US" and arr.ndim == 2:
                # numpy turns [[1.5, "a"]] into text: keep each value as the user gave it
                rows = [list(r) for r in X] if isinstance(X, (list, tuple)) else arr
                arr = np.empty(arr.shape, dtype=object)
                arr[:] = rows
            X = arr
        check_shape(X)
        validate_data(self, X, reset=reset, skip_check_array=True)
        return X

    def _match_columns(self, X: pd.DataFrame, *, reset: bool) -> pd.DataFrame:
        """The one column rule of every model (and of the command line).

        * Column names must be unique.
        * Fitted on named columns (a DataFrame or records), predicting on named columns: they
          are matched by name, in any order; a missing or unexpected column is an error that
          names it.
        * Otherwise columns are taken by position, with scikit-learn's warning where only one
          side has names; their number must match.
        """
        names = [str(c) for c in X.columns]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            msg = f"X has duplicate column names {dup}; every column needs its own name"
            raise SchemaError(msg)
        fitted = getattr(self, "feature_names_in_", None)
        if reset or fitted is None or not all(isinstance(c, str) for c in X.columns):
            return X
        fitted = [str(c) for c in fitted]
        if names == fitted:
            return X
        missing = [n for n in fitted if n not in set(names)]
        extra = [n for n in names if n not in set(fitted)]
        schema = getattr(self, "schema_", None)
        ignored = set(schema.ignored) if schema is not None else set()
        if missing and not extra and ignored.issuperset(missing):
            # a column the model ignores (an identifier) need not be given: an empty one
            X = X.assign(**{n: pd.Series(None, index=X.index, dtype=object) for n in missing})
            missing = []
        if missing or extra:
            msg = column_mismatch(missing, extra)
            raise SchemaError(msg)
        return X[fitted]  # the same columns in another order: reordered by name

    # ------------------------------------------------------------------ learning
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BayesClassifier:
        """Count the statistics of ``(X, y)`` and estimate the model's tables from them.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; an integer weight counts a row that many times.
        """
        with self._transaction():
            self._check_params()
            self._forget()
            return self._fit(X, y, sample_weight)

    def _forget(self) -> None:
        """Drop what a fit learned, before a new fit."""
        for attr in ("classes_", "schema_", "stats_"):
            if hasattr(self, attr):
                delattr(self, attr)

    def _fit(self, X: Any, y: Any, sample_weight: Any) -> BayesClassifier:
        X = self._prepare_X(X, reset=True)
        targets = self._targets(y, X.shape[0])
        X, targets, sample_weight = _drop_weightless(X, targets, sample_weight)
        classes = targets.present()
        if len(classes) < 2:
            msg = (
                f"y has only 1 class ({plain_repr(classes[0])}) on its labelled rows; a "
                "classifier needs samples of at least 2 classes"
            )
            raise ValueError(msg)
        y_idx = targets.codes_in(classes)
        if (y_idx < 0).any() or getattr(self, "missing", "skip") == "em":
            return self._learn_by_em(X, y_idx, classes, sample_weight)
        return self._learn(X, y_idx, classes, sample_weight)

    def _targets(self, y: Any, n_samples: int) -> Targets:
        """The checked class labels, encoded; unlabelled rows (none unless the model's
        ``unlabelled`` marker is set) have index -1."""
        marker = getattr(self, "unlabelled", None)
        if marker is None:
            return encode_targets(y, n_samples)
        from bayeskit.classifiers._incomplete import unlabelled_rows

        raw, unlabelled = unlabelled_rows(y, marker)
        if raw.shape[0] != n_samples:
            msg = f"X has {n_samples} samples but y has {raw.shape[0]}"
            raise ValueError(msg)
        if unlabelled.all():
            msg = (
                f"every row of y is unlabelled (marked {shown(marker)} or missing); "
                "semi-supervised learning needs labelled rows of at least 2 classes"
            )
            raise ValueError(msg)
        kept = raw[~unlabelled]
        if kept.dtype == object:  # the labels without the missing ones: their own dtype
            kept = np.asarray(kept.tolist())
        labelled = encode_targets(kept, int((~unlabelled).sum()))
        index = np.full(n_samples, -1, dtype=np.int64)
        index[~unlabelled] = labelled.index
        return Targets(labelled.labels, index)

    def _learn_by_em(
        self,
        X: Any,
        y_idx: np.ndarray,
        classes: np.ndarray,
        sample_weight: Any,
    ) -> BayesClassifier:
        """``fit`` from rows without labels (class index -1) or with missing values learned
        by EM (:mod:`bayeskit.classifiers._incomplete`)."""
        from bayeskit.classifiers._incomplete import fit_incomplete

        w = check_sample_weight(sample_weight, X.shape[0])
        labelled = y_idx >= 0
        self.schema_ = self._infer_schema(X, y_idx, len(classes), w, labelled=labelled)
        self.classes_ = classes
        fit_incomplete(self, self._encode(X), y_idx, w, len(classes))
        return self

    def partial_fit(
        self, X: Any, y: Any, classes: Any = None, sample_weight: Any = None
    ) -> BayesClassifier:
        """Add a chunk of data: count it, add the counts to those held, re-estimate.

        For counting models, fitting chunk by chunk gives the same model as one :meth:`fit`
        on all the data; the exceptions, each documented with its model, are cut points of
        binned numeric columns (learned from the first call) and SPODE's automatic choice of
        super-parent (a leave-one-out score). ``classes`` (every class label) must be given on
        the first call.
        """
        with self._transaction():
            self._check_params()
            return self._partial_fit(X, y, classes, sample_weight)

    def _partial_fit(self, X: Any, y: Any, classes: Any, sample_weight: Any) -> BayesClassifier:
        first = not hasattr(self, "classes_")
        if getattr(self, "missing", "skip") == "em" and hasattr(self, "_network_tables"):
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
        X, targets, sample_weight = _drop_weightless(X, targets, sample_weight)
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

    @reports_progress(_fit_chunks_name, lambda a: rows_adapter())
    def fit_chunks(
        self,
        chunks: Any,
        *,
        target: Any = None,
        classes: Any = None,
        progress: Any = None,
    ) -> BayesClassifier:
        """Fit from data too large for memory, one chunk at a time (out of core).

        Parameters
        ----------
        chunks : iterable
            :func:`bayeskit.data.read_chunks` of a CSV or Parquet file, or any iterable of
            DataFrames (with ``target``) or of ``(X, y)`` / ``(X, y, sample_weight)`` tuples.
        target : str, optional
            The class column of DataFrame chunks.
        classes : array-like, optional
            Every class label. By default gathered in a first pass over ``chunks`` (reading
            only the target column of a file), which then must be re-iterable (a file's
            chunks, a list): a generator is used up by one pass, so give ``classes`` with it
            (SPODE, KDB and SelectiveKDB read the data more than once: they need a re-iterable
            source in any case).
        progress : bool or callable, optional
            Called as ``progress(rows_so_far)`` after every chunk of every pass; ``True`` shows a
            progress display on standard error.

        For a counting model the statistics of the chunks add up, so the result is the model
        one :meth:`fit` on all the rows gives (vocabularies grow chunk by chunk and stay
        sorted; to 1e-12 for floating sums): naive Bayes (categorical and Gaussian), the
        multinomial and Bernoulli models, FullBayes, KNNBayes (which keeps the rows), SPODE,
        AODE, AnDE, TAN, KDB (two passes: the all-pairs counts for its structure, then its
        families) and SelectiveKDB (a third pass scores the rows' leave-one-out against all
        the counts, on the same rows as ``fit`` when there are more than
        ``max_score_rows``). Binned numeric columns are cut on the first chunk, the sample
        their cut points are learned from (make it large, or declare the bins with
        ``categories``). NBTree, NetworkClassifier (with a learned
        structure), SelectiveKDBEnsemble and SubclassNaiveBayes choose their structure on the
        first chunk and add the others to it, as :meth:`partial_fit` does. EM (unlabelled rows,
        ``missing="em"``) needs all rows at once and is refused. A chunk of weight 0 only adds
        nothing. ``progress`` counts the rows of each pass, and starts again from 0 at a
        model's second pass (KDB's families, SPODE's and SelectiveKDB's scores). Memory holds
        one chunk and the statistics.
        """
        from bayeskit.data.chunks import reiterable

        with self._transaction():
            self._check_params()
            if getattr(self, "unlabelled", None) is not None or (
                getattr(self, "missing", "skip") == "em" and hasattr(self, "_network_tables")
            ):
                msg = (
                    "fit_chunks adds counts up chunk by chunk; EM over unlabelled rows "
                    "(unlabelled=...) or missing values (missing='em') needs all rows at once: "
                    "use fit"
                )
                raise ValueError(msg)
            self._forget()
            if classes is None:
                if not reiterable(chunks):
                    msg = (
                        "chunks is an iterator, used up by one pass: pass classes= (every "
                        "class label), or give a re-iterable source such as read_chunks(path)"
                    )
                    raise ValueError(msg)
                classes = _scan_classes(chunks, target)
            self._fit_chunks(chunks, target, classes, progress)
            if not hasattr(self, "stats_"):
                msg = "chunks held no rows: there is nothing to learn from"
                raise ValueError(msg)
            if hasattr(self, "unlabelled"):
                self.history_, self.n_iter_, self.converged_ = [], 1, True
            return self

    def _fit_chunks(self, chunks: Any, target: Any, classes: Any, progress: Any) -> None:
        """Count every chunk and add (``partial_fit`` with the estimate left to the end); a
        model that scores rows against the counts (``_after_count``: SPODE's and SelectiveKDB's
        leave-one-out) scores them in a second pass, against the counts of all the rows, as
        ``fit`` does; then the tables are estimated once. A model that needs its tables
        between chunks (``_chunks_as_partial_fit``) is ``partial_fit`` chunk by chunk."""
        if self._chunks_as_partial_fit:
            self._count_pass(chunks, target, classes, progress, deferred=False)
            return
        rows = self._count_pass(chunks, target, classes, progress)
        if not hasattr(self, "stats_"):
            return
        if type(self)._after_count is not BayesClassifier._after_count:
            from bayeskit.data.chunks import iter_labelled, reiterable

            if not reiterable(chunks):
                msg = (
                    f"{type(self).__name__} scores the rows against the counts of all of them, "
                    "a second pass over the chunks: give a re-iterable source such as "
                    "read_chunks(path) or a list"
                )
                raise ValueError(msg)

            def batches():
                done = 0
                for part in iter_labelled(chunks, target):
                    batch = self._encoded_rows(*part)
                    done += _rows_weighed(part[1], part[2])
                    if batch is not None:
                        yield batch
                    if progress is not None:
                        progress(done)

            self._score_chunks(batches(), rows)
        self._reestimate()

    def _encoded_rows(self, X: Any, y: Any, w: Any) -> tuple | None:
        """A part of the data (a chunk, a partition) as the fitted model reads it: encoded
        features, class codes and weights, rows of weight 0 left out; None when nothing is
        left. Labels must be among ``classes_``."""
        if not len(y) or (w is not None and not (np.asarray(w, dtype=np.float64) > 0).any()):
            return None
        X = self._prepare_X(X, reset=False)
        targets = self._targets(y, X.shape[0])
        X, targets, w = _drop_weightless(X, targets, w)
        y_idx = targets.codes_in(self.classes_)
        w = check_sample_weight(w, X.shape[0])
        return self._encode(X), y_idx, w

    def _score_chunks(self, batches: Any, n_rows: int) -> None:
        """The scoring pass of :meth:`fit_chunks`: ``_after_count`` of each chunk's encoded
        rows, class codes and weights (``n_rows`` rows in all), against the counts of all."""
        for enc, y, w in batches:
            self._after_count(enc, y, w)

    def _fit_distributed(self, run: Any) -> None:
        """Fit from passes over distributed partitions (:func:`bayeskit.dask.fit`; schema and
        classes set): ``run("count", self)`` sums every partition's statistics, and for a
        model that scores rows against all the counts (``_after_count``) ``run("scores",
        self)`` sums those scores, as ``fit`` computes them; then the tables."""
        self.stats_, rows = run("count", self)
        if type(self)._after_count is not BayesClassifier._after_count:
            self._score_distributed(run, rows)
        self._reestimate()

    def _score_distributed(self, run: Any, n_rows: int) -> None:
        """The scoring pass of :meth:`_fit_distributed`: every partition's scores against the
        summed counts, summed."""
        scores, _ = run("scores", self)
        self.stats_ = dataclasses.replace(self.stats_, scores=scores)

    def _count_pass(
        self, chunks: Any, target: Any, classes: Any, progress: Any, *, deferred: bool = True
    ) -> int:
        """One pass of counting: each chunk's statistics added to ``stats_`` (vocabularies
        grown as new categories come), nothing estimated (``deferred=False``: ``partial_fit``
        itself, estimating after every chunk); returns the rows counted."""
        from bayeskit.data.chunks import iter_labelled

        rows = 0
        self._counting_only = deferred
        try:
            for X, y, w in iter_labelled(chunks, target):
                n = _rows_weighed(y, w)
                if n:  # a chunk of no row, or of weight 0 only, adds nothing
                    self._partial_fit(X, y, classes, w)
                    rows += n
                if progress is not None:
                    progress(rows)
        finally:
            del self._counting_only
        return rows

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

    def _learn(self, X: Any, y_idx: np.ndarray, classes: np.ndarray, sample_weight: Any):
        """Count (and estimate) rows whose class is ``classes[y_idx]``."""
        w = check_sample_weight(sample_weight, X.shape[0])
        if not hasattr(self, "stats_"):
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
        if getattr(self, "_counting_only", False):  # fit_chunks: estimated after the last
            return self
        self._after_count(enc, y_idx, w)
        if hasattr(self, "unlabelled"):  # learned by counting: EM's one iteration
            self.history_, self.n_iter_, self.converged_ = [], 1, True
        return self._reestimate()

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
        alpha = getattr(self, "prior_alpha", 0.0)
        if getattr(self, "priors", None) is None and alpha > 0:
            total += alpha * float(np.sum(self.log_prior_))
        return total

    def _table_log_prior(self) -> float:
        """The tables' part of :meth:`_parameter_log_prior`; 0 for a model with none."""
        return 0.0

    def _log_prior(self, class_count: np.ndarray) -> np.ndarray:
        priors = getattr(self, "priors", None)
        if priors is None:
            return lidstone(class_count, getattr(self, "prior_alpha", 0.0))
        p = np.asarray(priors, dtype=np.float64)
        n = len(class_count)
        if p.shape != (n,):
            msg = f"priors must be {n} non-negative numbers (one per class), got {shown(priors)}"
            raise ValueError(msg)
        with np.errstate(divide="ignore"):
            return np.log(p)

    # ------------------------------------------------------------------ prediction
    def _encode_for_predict(self, X: Any) -> Encoded:
        check_is_fitted(self, "stats_")
        X = self._prepare_X(X, reset=False)
        return self._encode(X)

    def predict_joint_log_proba(self, X: Any) -> np.ndarray:
        """``log P(c) + log P(x | c)`` for every class, shape ``(n_samples, n_classes)``."""
        enc = self._encode_for_predict(X)
        return self._log_likelihood(enc) + self.log_prior_

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Log posterior ``log P(c | x)``, normalised in log space (Bayes' theorem, Zhou eq. 7.8).

        A sample that every class finds impossible (all joint probabilities zero, as with
        unsmoothed estimates and an unseen combination) gets the class prior as its posterior and a
        :class:`~bayeskit.exceptions.ZeroEvidenceWarning`, never NaN.
        """
        return _normalise(self.predict_joint_log_proba(X), self.log_prior_)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Posterior ``P(c | x)``, shape ``(n_samples, n_classes)``; rows sum to 1."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: Any, *, cost: Any = None) -> np.ndarray:
        """The Bayes decision: the class of least conditional risk (Zhou eq. 7.3).

        With ``cost=None`` (0/1 loss) this is the most probable class (eq. 7.6). ``cost[i, j]`` is
        the cost of predicting class ``i`` when the truth is ``j`` (see
        :func:`bayeskit.decision.cost_matrix` for the accepted forms). Ties go to the first class.
        """
        if cost is None:
            jll = self.predict_joint_log_proba(X)
            return self.classes_[np.argmax(jll, axis=1)]
        lam = cost_matrix(cost, self.classes_)
        return self.classes_[bayes_decision(self.predict_proba(X), lam)]

    def decide(
        self,
        X: Any,
        *,
        cost: Any = None,
        reject_threshold: float | None = None,
        reject_label: Any = None,
    ) -> np.ndarray:
        """Minimum-risk decisions with an optional reject option.

        Abstains (returns ``reject_label``) where the least conditional risk exceeds
        ``reject_threshold``; with 0/1 loss, where the largest posterior is below
        ``1 - reject_threshold`` (Chow's rule). Without a threshold the result has the dtype of
        ``classes_``; with one it is an object array (so ``reject_label`` fits), whether or not
        any sample was rejected.
        """
        lam = cost_matrix(cost, self.classes_)
        idx = bayes_decision(self.predict_proba(X), lam, reject_threshold=reject_threshold)
        if reject_threshold is None:
            return self.classes_[idx]
        out = np.empty(len(idx), dtype=object)
        out[idx >= 0] = self.classes_[idx[idx >= 0]]
        out[idx < 0] = reject_label
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def _scan_classes(chunks: Any, target: Any) -> np.ndarray:
    """The class labels of every chunk (a first pass; a file's reads its target column only)."""
    from bayeskit.data.chunks import Chunks, iter_labelled

    if isinstance(chunks, Chunks) and target is not None:
        chunks = chunks.select([target])
    labels: list = []
    for _, y, _ in iter_labelled(chunks, target):
        if len(y):
            labels.extend(encode_targets(y, len(y)).labels.tolist())
    return class_labels(labels)


def _normalise(jll: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
    """Log posterior from joint log-likelihoods, computed in place: ``jll`` must be the caller's
    own fresh array (every caller passes ``log-likelihood + log_prior_``). A compiled row-wise
    log-sum-exp replaces ``scipy.special.logsumexp``, which is slower and allocates temporaries
    the size of ``jll`` (benchmarks/RESULTS.md).

    A row that every class finds impossible carries contradictory evidence; its posterior is
    the prior ``log_prior`` (normalised), so a class of prior 0 stays at 0.
    """
    if not np.isfinite(jll).all():
        dead = ~np.isfinite(jll).any(axis=1) & ~np.isposinf(jll).any(axis=1)
        if dead.any():
            warn(
                f"{int(dead.sum())} sample(s) have probability zero under every class of "
                "positive prior (causes: an unsmoothed estimate, alpha=0, of a value never seen "
                "with such a class; a value off a zero-variance point mass; no neighbour of such "
                "a class); their posterior is reported as the class prior",
                ZeroEvidenceWarning,
            )
            jll[dead] = log_prior
        inf = np.isposinf(jll).any(axis=1)
        if inf.any():  # a point-mass density matched exactly: that class (or those classes) win
            jll[inf] = np.where(np.isposinf(jll[inf]), 0.0, -np.inf)
    log_normalise_rows(jll)
    return jll


def require_categorical(model: Any, enc: Encoded) -> None:
    """SchemaError naming ``model``'s numeric columns, for a model that counts categories
    only (the semi-naive models, SubclassNaiveBayes)."""
    if enc.values.shape[1]:
        names = [c.name for c in model.schema_.numeric]
        msg = (
            f"{type(model).__name__} models categorical features only; numeric columns "
            f"{names} need binning: pass discretize='mdl' (the default), 'equal-width' or "
            "'equal-frequency', or declare them categorical"
        )
        raise SchemaError(msg)


#: Evidence closer to 0 than this is rounding noise and is reported as exactly 0.
EXPLAIN_ZERO = 1e-12


def snap_to_zero(evidence: np.ndarray) -> np.ndarray:
    """``evidence`` with entries within :data:`EXPLAIN_ZERO` of 0 (and -0.0) as 0.0.

    A value every class finds equally likely carries no evidence, ``log P(x | c) - log P(x)
    = 0``, which log-sum-exp gives up to rounding (-3.3e-16): shown as 0, not as noise.

    Examples
    --------
    >>> snap_to_zero(np.array([-3.3e-16, 0.405, -0.0, 1e-9])).tolist()
    [0.0, 0.405, 0.0, 1e-09]
    """
    return np.where(np.abs(evidence) < EXPLAIN_ZERO, 0.0, evidence)


def explain_frame(model: Any, X: Any, out: np.ndarray) -> pd.DataFrame:
    """Per-feature evidence ``out`` (``(n_samples, n_features, n_classes)``, features in the
    schema's order) as a long DataFrame: ``row`` (the index label of ``X`` if it is a DataFrame,
    else the row's position), ``feature``, ``value`` (the value explained, as given), ``class``
    and ``contribution``, one row per (sample, feature, class)."""
    frame = model.schema_._select(X)  # the user's values, in the schema's column order
    n, d, n_classes = out.shape
    rows = frame.index if isinstance(X, pd.DataFrame) else pd.RangeIndex(n)
    return pd.DataFrame(
        {
            "row": np.repeat(np.asarray(rows, dtype=object), d * n_classes),
            "feature": np.tile(np.repeat(model.schema_.names, n_classes), n),
            "value": np.repeat(frame.to_numpy(dtype=object).reshape(-1), n_classes),
            "class": np.tile(model.classes_, n * d),
            "contribution": out.reshape(-1),
        }
    )


def redo_rows_beyond_float64(
    jll: np.ndarray, values: np.ndarray, mean: np.ndarray, scale: np.ndarray, schema, terms
) -> np.ndarray:
    """Rows of ``jll`` that are ``-inf`` for every class, computed again by
    ``terms(rows, values_of_rows)`` with their values beyond float64 left out (see
    :func:`drop_beyond_float64`); ``jll`` is updated in place and returned.

    A value beyond float64 for every class makes its whole row ``-inf``, so only such rows need
    a second look: no extra pass over the data in prediction.
    """
    if not values.shape[1]:
        return jll
    dead = np.flatnonzero(jll.max(axis=1, initial=-np.inf) == -np.inf)
    if dead.size:
        rows = values[dead]
        usable = drop_beyond_float64(rows, mean, scale, schema)
        if usable is not rows:
            jll[dead] = terms(dead, usable)
    return jll


def drop_beyond_float64(values: np.ndarray, mean: np.ndarray, scale: np.ndarray, schema):
    """``values`` with every value beyond float64 for all classes set to NaN, with a warning
    naming the columns: a new array, or ``values`` itself when no value is beyond (so callers
    can tell by identity); the caller's array is never written to."""
    mask = beyond_float64(values, mean, scale)
    if mask is None:
        return values
    names = [c.name for c in schema.numeric]
    per_column = mask.sum(axis=0)
    which = ", ".join(f"{names[j]!r} ({int(per_column[j])})" for j in np.flatnonzero(per_column))
    warn(
        f"numeric values too far from every class's mean for their Gaussian log-density to be "
        f"represented in float64 were left out of their rows, as if missing (column and count: "
        f"{which}); rescale the column if such values are genuine",
        UserWarning,
    )
    values = np.array(values, dtype=np.float64)
    values[mask] = np.nan
    return values


def warn_underflowed_variances(moments, schema) -> None:
    """Warn, naming them, about numeric columns whose variance underflows float64 (values of
    order 1e-300: see :func:`bayeskit.stats.underflowed_features`)."""
    bad = underflowed_features(moments)
    if bad.any():
        names = [c.name for c in schema.numeric]
        cols = [names[j] for j in np.flatnonzero(bad)]
        warn(
            f"numeric columns {cols} have values so small (below about 1e-154) that their "
            "squares underflow float64, so their variance is computed as 0 and any value off a "
            "class mean looks impossible; rescale them (multiply by a power of ten, or "
            "standardise)",
            UserWarning,
        )


def _rows_weighed(y: Any, w: Any) -> int:
    """The rows of a chunk that count: every row, or those of positive weight."""
    return len(y) if w is None else int((np.asarray(w, dtype=np.float64) > 0).sum())
