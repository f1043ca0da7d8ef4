"""Model evaluation: stratified cross-validation, probabilistic metrics and model comparison.

An interface module: it fits and queries estimators through their scikit-learn API and adds no
modelling of its own. Every estimator with ``fit`` and ``predict`` works (``predict_proba`` too
for the probabilistic scores), bayeskit's and scikit-learn's alike.

Metrics, per test fold (``P`` the predicted posteriors, ``k`` the classes, ``y`` the truth):

* accuracy: the fraction of test samples whose prediction is the true class;
* log-loss: ``-mean_i log P(y_i | x_i)`` (:func:`sklearn.metrics.log_loss` with ``labels`` set
  to every class of the data, so a fold that lacks a class is scored on the same columns);
* Brier score (multi-class): ``mean_i sum_k (P(k | x_i) - 1[y_i = k])^2``, between 0 (certain and
  right) and 2 (certain and wrong);
* ROC AUC: the area under the ROC curve, one class against the rest and averaged with equal
  weights over the classes for more than two (:func:`sklearn.metrics.roc_auc_score`,
  ``multi_class="ovr"``, ``average="macro"``); NaN for a fold whose test part lacks a class;
* F1: the harmonic mean of precision and recall, per class, averaged with equal weights
  (macro F1, :func:`sklearn.metrics.f1_score`);
* the confusion matrix, summed over the folds: rows are true classes, columns predicted ones;
  per-class precision and recall come from it (:func:`class_report`).

Paired comparison: :func:`corrected_ttest` is the corrected resampled t-test of Nadeau and
Bengio (2003), which Weka's Experimenter uses; the folds of one cross-validation share training
rows, so the plain paired t-test is too eager to call a difference real.

A class can be missing from a fold's training part (a class with fewer samples than folds).
The model is then fitted on the classes it saw and its posteriors are laid out on the columns of
all classes, an unseen class getting probability 0; a training part with a single class gives
that class probability 1. No fold is skipped and none fails.
"""

from __future__ import annotations

from bayeskit.evaluate.comparison import compare
from bayeskit.evaluate.metrics import brier_score, class_report, corrected_ttest
from bayeskit.evaluate.validation import cross_validate, holdout

__all__ = [
    "brier_score",
    "class_report",
    "compare",
    "corrected_ttest",
    "cross_validate",
    "holdout",
]
