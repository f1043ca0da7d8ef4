"""Fitting from parts of the data: chunks read one at a time (``fit_chunks``, out of core) and
partitions counted where they live (:func:`bayeskit.dask.fit`, through ``_fit_distributed``).

:class:`ChunkedFitting` is one of :class:`~bayeskit.classifiers.BayesClassifier`'s bases. For a
counting model both are "count each part, add the statistics, estimate once"; a model that
scores rows against the counts of all of them (``_scores_rows``) makes a second pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from bayeskit._progress import reports_progress, rows_adapter
from bayeskit.classifiers._checks import drop_weightless, rows_weighed
from bayeskit.classifiers.labels import class_labels, encode_targets
from bayeskit.data.validation import check_sample_weight

__all__ = ["ChunkedFitting"]


def _fit_chunks_name(arguments: dict) -> str:
    """What a progress display calls a model's ``fit_chunks``."""
    return f"{type(arguments['self']).__name__}.fit_chunks"


class ChunkedFitting:
    """``fit_chunks`` and the passes of distributed fitting, written once."""

    _chunks_as_partial_fit: ClassVar[bool]
    _scores_rows: ClassVar[bool]
    _counting_only: bool
    classes_: np.ndarray
    # the steps of fitting, which BayesClassifier defines
    _transaction: Callable[..., Any]
    _check_params: Callable[..., Any]
    _unlabelled_marked: Callable[..., Any]
    _missing_by_em: Callable[..., Any]
    _forget: Callable[..., Any]
    _refuse_without_rows: Callable[..., Any]
    _has_stats: Callable[..., Any]
    _counted_alone: Callable[..., Any]
    _reestimate: Callable[..., Any]
    _prepare_X: Callable[..., Any]
    _targets: Callable[..., Any]
    _encode: Callable[..., Any]
    _after_count: Callable[..., Any]
    _partial_fit: Callable[..., Any]

    @reports_progress(_fit_chunks_name, lambda a: rows_adapter())
    def fit_chunks(
        self,
        chunks: Any,
        *,
        target: Any = None,
        classes: Any = None,
        progress: Any = None,
    ) -> Any:
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

        Returns
        -------
        self : BayesClassifier
            The fitted model.

        Raises
        ------
        ValueError
            If the model is set to learn by EM (``unlabelled``, ``missing="em"``), if
            ``classes`` is not given with a one-pass iterator, or if the chunks hold no row.

        Notes
        -----
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

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> data = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"], "go": list("ynyn")})
        >>> model = NaiveBayes().fit_chunks([data[:2], data[2:]], target="go")
        >>> model.classes_.tolist(), model.class_count_.tolist()
        (['n', 'y'], [2.0, 2.0])
        """
        from bayeskit.data.chunks import reiterable

        with self._transaction():
            self._check_params()
            self._refuse_without_rows("fit_chunks")
            if self._unlabelled_marked() or self._missing_by_em(network_only=True):
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
            if not self._has_stats():
                msg = "chunks held no rows: there is nothing to learn from"
                raise ValueError(msg)
            self._counted_alone()
            return self

    def _fit_chunks(self, chunks: Any, target: Any, classes: Any, progress: Any) -> None:
        """Count every chunk and add (``partial_fit`` with the estimate left to the end); a
        model that scores rows against the counts (``_scores_rows``: SPODE's and
        SelectiveKDB's leave-one-out) scores them in a second pass, against the counts of all
        the rows, as ``fit`` does; then the tables are estimated once. A model that needs its
        tables between chunks (``_chunks_as_partial_fit``) is ``partial_fit`` chunk by chunk."""
        if self._chunks_as_partial_fit:
            self._count_pass(chunks, target, classes, progress, deferred=False)
            return
        rows = self._count_pass(chunks, target, classes, progress)
        if not self._has_stats():
            return
        if self._scores_rows:
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
                    done += rows_weighed(part[1], part[2])
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
        X, targets, w = drop_weightless(X, targets, w)
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
        model that scores rows against all the counts (``_scores_rows``) ``run("scores",
        self)`` sums those scores, as ``fit`` computes them; then the tables."""
        self.stats_, rows = run("count", self)
        if self._scores_rows:
            self._score_distributed(run, rows)
        self._reestimate()
        self._counted_alone()

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
                n = rows_weighed(y, w)
                if n:  # a chunk of no row, or of weight 0 only, adds nothing
                    self._partial_fit(X, y, classes, w)
                    rows += n
                if progress is not None:
                    progress(rows)
        finally:
            del self._counting_only
        return rows


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
