"""Input preparation every classifier shares: scikit-learn's feature bookkeeping, the one column
rule, the schema (vocabularies, column kinds, cut points of binned columns) and encoding.

:class:`TabularInput` is one of :class:`~bayeskit.classifiers.BayesClassifier`'s bases; its
methods read the parameters a model declares it takes (``_reads_tables``, ``_bins_numeric``).
The count models (multinomial, Bernoulli) override them to read numeric matrices instead.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted, validate_data

from bayeskit.classifiers._checks import check_shape
from bayeskit.data.schema import Encoded, Schema, as_frame, column_mismatch, is_records
from bayeskit.exceptions import SchemaError

__all__ = ["TabularInput"]


class TabularInput:
    """``X`` as a model reads it: checked, matched by column name, and encoded."""

    _reads_tables: ClassVar[bool]
    _bins_numeric: ClassVar[bool]
    schema_: Schema
    # the shared parameters, set by the models' __init__
    categorical_features: Any
    categories: Any
    handle_unknown: Any
    discretize: Any
    n_bins: Any

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
            X, categorical_features=self.categorical_features, categories=self.categories
        )
        method = self._binning()
        if method is None:
            return schema
        if labelled is not None and not labelled.all():
            X = X.iloc[labelled] if isinstance(X, pd.DataFrame) else X[labelled]
            y = y[labelled]
            w = None if w is None else w[labelled]
        return schema.discretize(
            X, y, n_classes, method=method, n_bins=self.n_bins, sample_weight=w
        )

    def _binning(self) -> str | None:
        """How the schema bins numeric columns (None: it keeps them numeric)."""
        return self.discretize if self._bins_numeric else None

    def _grow(self, X: Any, stats):
        """Grow the schema's vocabularies with categories first seen in ``X`` (``partial_fit``)
        and re-lay the statistics held out to match."""
        self.schema_, remap = self.schema_.extend(X, self.categories)
        return stats.regrow(remap, self.schema_.n_states) if remap else stats

    def _encode(self, X: Any) -> Encoded:
        return self.schema_.encode(X, handle_unknown=self.handle_unknown)

    def _encode_for_predict(self, X: Any) -> Encoded:
        check_is_fitted(self, "stats_")
        X = self._prepare_X(X, reset=False)
        return self._encode(X)

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
        fitted = vars(self).get("feature_names_in_")
        if reset or fitted is None or not all(isinstance(c, str) for c in X.columns):
            return X
        fitted = [str(c) for c in fitted]
        if names == fitted:
            return X
        missing = [n for n in fitted if n not in set(names)]
        extra = [n for n in names if n not in set(fitted)]
        schema = vars(self).get("schema_")
        ignored = set(schema.ignored) if schema is not None else set()
        if missing and not extra and ignored.issuperset(missing):
            # a column the model ignores (an identifier) need not be given: an empty one
            X = X.assign(**{n: pd.Series(None, index=X.index, dtype=object) for n in missing})
            missing = []
        if missing or extra:
            msg = column_mismatch(missing, extra)
            raise SchemaError(msg)
        return X[fitted]  # the same columns in another order: reordered by name
