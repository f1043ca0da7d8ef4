"""The EM paths of ``fit``, for the models that learn from incomplete rows.

:class:`LearnsFromIncompleteRows` is a subclass of
:class:`~bayeskit.classifiers.BayesClassifier` that a model lists first among its bases
(``class TAN(LearnsFromIncompleteRows, FamilyClassifier)``). It declares that the model
takes the EM parameters (``unlabelled``, ``unlabelled_weight``, ``max_iter``, ``tol``; and
``missing`` where the model sets ``_missing_em``), reads the ``unlabelled`` marker from ``y``,
and fits rows without a label, or with missing values under ``missing="em"``, by
:func:`bayeskit.classifiers._incomplete.fit_incomplete`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from bayeskit._text import shown
from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers._incomplete import fit_incomplete, unlabelled_rows
from bayeskit.classifiers.labels import Targets, encode_targets
from bayeskit.data.validation import check_sample_weight

__all__ = ["LearnsFromIncompleteRows"]


class LearnsFromIncompleteRows(BayesClassifier):
    """``fit`` learns from unlabelled rows and missing values by EM (module docstring)."""

    _learns_unlabelled: ClassVar[bool] = True
    unlabelled: Any
    history_: list[float]

    def _targets(self, y: Any, n_samples: int) -> Targets:
        """The checked class labels, encoded; rows marked ``unlabelled`` (or missing, once a
        marker is set) have index -1."""
        marker = self.unlabelled
        if marker is None:
            return encode_targets(y, n_samples)
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
        self, X: Any, y_idx: np.ndarray, classes: np.ndarray, sample_weight: Any
    ) -> LearnsFromIncompleteRows:
        """``fit`` from rows without labels (class index -1) or with missing values learned
        by EM (:mod:`bayeskit.classifiers._incomplete`)."""
        w = check_sample_weight(sample_weight, X.shape[0])
        labelled = y_idx >= 0
        self.schema_ = self._infer_schema(X, y_idx, len(classes), w, labelled=labelled)
        self.classes_ = classes
        fit_incomplete(self, self._encode(X), y_idx, w, len(classes))
        return self

    def _counted_alone(self) -> None:
        """A fit from complete rows is counting: EM's one iteration."""
        self.history_, self.n_iter_, self.converged_ = [], 1, True
