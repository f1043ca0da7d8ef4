"""The scores of a model's predictions on a test set (accuracy is computed where the splits
are scored): Brier score, one-vs-rest ROC AUC, per-class precision, recall and F1 from a
confusion matrix, the mean and spread of per-fold scores, and the corrected resampled t-test
that compares two models' per-fold scores (the package docstring defines each)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _stats
from sklearn.metrics import roc_auc_score

__all__ = ["brier_score", "class_report", "corrected_ttest"]

#: The scores of every split, in the order of the result's ``mean`` and ``std``.
_METRICS = ("accuracy", "log_loss", "brier", "roc_auc", "f1_macro")


def corrected_ttest(
    scores_a: Any, scores_b: Any, n_train: float, n_test: float
) -> tuple[float, float]:
    """Corrected resampled paired t-test of two models' per-fold scores (Nadeau and Bengio 2003).

    With ``d_j = a_j - b_j`` over ``k`` folds, mean ``d`` and sample variance ``s^2`` (ddof 1),
    ``t = d / sqrt((1/k + n_test/n_train) * s^2)``, two-sided p-value from Student's t with
    ``k - 1`` degrees of freedom. The term ``n_test / n_train`` corrects the variance for the
    overlap of training sets between folds (for k-fold cross-validation ``1 / (k - 1)``).
    This is the test of Weka's Experimenter ("Paired T-Tester (corrected)").

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (k,)
        The two models' scores on the same folds, in the same order.
    n_train, n_test : float
        Rows in a training part and in a test part (averages over the folds).

    Returns
    -------
    (t, p) : tuple of float
        ``t > 0`` when ``a`` scores higher. Identical scores give ``(0.0, 1.0)``; a constant
        non-zero difference gives ``(±inf, 0.0)``.

    Raises
    ------
    ValueError
        The scores are not 1-D of the same length >= 2, or ``n_train`` or ``n_test`` is not
        positive.

    References
    ----------
    C. Nadeau and Y. Bengio, "Inference for the generalization error", Machine Learning 52
    (2003), 239-281.

    Examples
    --------
    >>> t, p = corrected_ttest([0.9, 0.8, 0.85], [0.8, 0.8, 0.8], n_train=20, n_test=10)
    >>> round(t, 3), round(p, 3)
    (1.095, 0.388)
    """
    a = np.asarray(scores_a, dtype=np.float64)
    b = np.asarray(scores_b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1 or a.size < 2:
        msg = f"scores_a and scores_b must be 1-D of the same length >= 2, got {a.shape}, {b.shape}"
        raise ValueError(msg)
    if not (n_train > 0 and n_test > 0):
        msg = f"n_train and n_test must be > 0, got {n_train} and {n_test}"
        raise ValueError(msg)
    d = a - b
    k = d.size
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    if var == 0.0:
        if mean == 0.0:
            return 0.0, 1.0
        return float(np.copysign(np.inf, mean)), 0.0
    t = mean / np.sqrt((1.0 / k + n_test / n_train) * var)
    p = 2.0 * float(_stats.t.sf(abs(t), df=k - 1))
    return float(t), p


def class_report(confusion: pd.DataFrame) -> pd.DataFrame:
    """Per-class precision, recall, F1 and support from a confusion matrix (rows: true class).

    Precision of a class no row was predicted as is NaN (undefined), as is its F1.

    Parameters
    ----------
    confusion : DataFrame of shape (n_classes, n_classes)
        Counts, a row per true class and a column per predicted class, in the same order
        (as the ``"confusion_matrix"`` of :func:`~bayeskit.evaluate.holdout`'s result).

    Returns
    -------
    DataFrame
        A row per class; columns ``precision``, ``recall``, ``f1`` and ``support`` (the
        row's total).

    Examples
    --------
    >>> cm = pd.DataFrame([[3, 1], [0, 4]], index=["a", "b"], columns=["a", "b"])
    >>> class_report(cm).round(2)
       precision  recall    f1  support
    a       1.0    0.75  0.86        4
    b       0.8    1.00  0.89        4
    """
    cm = np.asarray(confusion, dtype=np.float64)
    tp = np.diag(cm)
    predicted, support = cm.sum(axis=0), cm.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1), np.nan)
        recall = np.where(support > 0, tp / np.where(support > 0, support, 1), np.nan)
        denom = precision + recall
        f1 = np.where(denom > 0, 2 * precision * recall / np.where(denom > 0, denom, 1), 0.0)
    f1 = np.where(np.isnan(precision) | np.isnan(recall), np.nan, f1)
    return pd.DataFrame(
        {"precision": precision, "recall": recall, "f1": f1, "support": support.astype(np.int64)},
        index=confusion.index,
    )


def _roc_auc(y_test: np.ndarray, proba: np.ndarray, classes: np.ndarray) -> float:
    """Macro one-vs-rest ROC AUC of one fold; NaN when the fold's test part lacks a class."""
    if len(np.unique(y_test)) != len(classes):
        return np.nan
    if len(classes) == 2:
        return float(roc_auc_score(y_test == classes[1], proba[:, 1]))
    return float(roc_auc_score(y_test, proba, multi_class="ovr", average="macro", labels=classes))


def _mean(values: list[float]) -> float:
    v = np.asarray(values, dtype=np.float64)
    v = v[~np.isnan(v)]
    return float(v.mean()) if v.size else np.nan


def _std(values: list[float]) -> float:
    v = np.asarray(values, dtype=np.float64)
    v = v[~np.isnan(v)]
    return float(v.std()) if v.size else np.nan


def brier_score(y_true: Any, proba: Any, classes: Any) -> float:
    """Multi-class Brier score: ``mean_i sum_k (proba[i, k] - 1[y_i = classes[k]])^2``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, each one of ``classes``.
    proba : array-like of shape (n_samples, n_classes)
        Posterior probabilities, column ``k`` for ``classes[k]``.
    classes : array-like of shape (n_classes,)
        The class labels, sorted (as ``np.unique`` returns them).

    Returns
    -------
    float
        0 for certain, correct predictions; 2 for certain, wrong ones.

    Examples
    --------
    >>> round(brier_score(["a", "b"], [[0.8, 0.2], [0.5, 0.5]], ["a", "b"]), 3)
    0.29
    """
    y_true, classes = np.asarray(y_true), np.asarray(classes)
    proba = np.asarray(proba, dtype=np.float64)
    onehot = (y_true[:, None] == classes[None, :]).astype(np.float64)
    return float(np.mean(np.sum((proba - onehot) ** 2, axis=1)))
