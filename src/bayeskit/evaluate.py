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
* the confusion matrix, summed over the folds: rows are true classes, columns predicted ones.

A class can be missing from a fold's training part (a class with fewer samples than folds).
The model is then fitted on the classes it saw and its posteriors are laid out on the columns of
all classes, an unseen class getting probability 0; a training part with a single class gives
that class probability 1. No fold is skipped and none fails.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.metrics import confusion_matrix, log_loss
from sklearn.model_selection import StratifiedKFold

__all__ = ["brier_score", "compare", "cross_validate"]

_METRICS = ("accuracy", "log_loss", "brier")


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


def _take(X: Any, rows: np.ndarray) -> Any:
    if isinstance(X, (pd.DataFrame, pd.Series)):
        return X.iloc[rows]
    if isinstance(X, list):
        return [X[i] for i in rows]
    return X[rows]


def _aligned_proba(model: Any, X: Any, classes: np.ndarray, n: int) -> np.ndarray | None:
    """The model's posteriors with one column per class of the data (0 for unseen classes)."""
    if not hasattr(model, "predict_proba"):
        return None
    proba = np.asarray(model.predict_proba(X), dtype=np.float64)
    out = np.zeros((n, len(classes)))
    seen = np.asarray(model.classes_)
    pos = np.searchsorted(classes, seen)
    out[:, pos] = proba
    return out


def cross_validate(
    model: Any,
    X: Any,
    y: Any,
    n_splits: int = 10,
    random_state: int | None = 0,
    progress: Callable[[int, int], Any] | None = None,
) -> dict[str, Any]:
    """Stratified k-fold cross-validation with accuracy, log-loss, Brier score and confusions.

    Each fold fits a fresh clone of ``model`` (``sklearn.base.clone``) on the training part and
    scores it on the test part (see the module docstring for the metrics and for folds that miss
    a class). The folds come from ``StratifiedKFold(n_splits, shuffle=True, random_state)``, so
    the same ``random_state`` gives every model the same folds.

    Parameters
    ----------
    model : estimator
        Unfitted or fitted; it is cloned, never changed.
    X : DataFrame, array-like of shape (n_samples, n_features), sparse matrix or list of dicts
    y : array-like of shape (n_samples,)
    n_splits : int, default=10
        Number of folds, at least 2 and at most the number of samples.
    random_state : int or None, default=0
        Seed of the shuffle before splitting.
    progress : callable, optional
        Called as ``progress(done, total)`` after each fold.

    Returns
    -------
    dict
        ``classes`` (ndarray, sorted), ``n_splits``; per fold, as ndarrays of shape
        ``(n_splits,)``: ``accuracy``, ``log_loss``, ``brier`` (NaN for a model without
        ``predict_proba``), ``fit_time``, ``predict_time`` (seconds) and ``n_test``;
        ``mean`` and ``std``, dicts of the three metrics over the folds; and
        ``confusion_matrix``, a DataFrame summed over the folds with the true classes as index
        (named ``"true"``) and the predicted ones as columns (named ``"predicted"``).

    Raises
    ------
    ValueError
        If ``n_splits`` is not an integer in ``[2, n_samples]``, or ``X`` and ``y`` differ in
        length.

    Examples
    --------
    >>> from bayeskit import NaiveBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("iris")
    >>> result = cross_validate(NaiveBayes(), X, y, n_splits=5)
    >>> round(result["mean"]["accuracy"], 2), result["accuracy"].shape
    (0.93, (5,))
    >>> result["confusion_matrix"].to_numpy().sum()
    np.int64(150)
    """
    y_arr = np.asarray(y)
    n = y_arr.shape[0]
    if isinstance(n_splits, (bool, np.bool_)) or not isinstance(n_splits, (int, np.integer)):
        msg = f"n_splits must be an integer >= 2, got {n_splits!r}"
        raise ValueError(msg)
    if not 2 <= n_splits <= n:
        msg = f"n_splits must be between 2 and the number of samples ({n}), got {n_splits}"
        raise ValueError(msg)
    n_rows = X.shape[0] if hasattr(X, "shape") else len(X)
    if n_rows != n:
        msg = f"X has {n_rows} samples but y has {n}"
        raise ValueError(msg)
    classes, class_sizes = np.unique(y_arr, return_counts=True)
    if n_splits > class_sizes.max():
        # stratification needs at least one member of some class in every fold
        warnings.warn(
            f"n_splits={n_splits} is more than the largest class has members "
            f"({class_sizes.max()}); using {class_sizes.max()} folds",
            UserWarning,
            stacklevel=2,
        )
        n_splits = max(2, int(class_sizes.max()))
    folds = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    scores: dict[str, list[float]] = {k: [] for k in (*_METRICS, "fit_time", "predict_time")}
    n_test: list[int] = []
    confusion = np.zeros((len(classes), len(classes)), dtype=np.int64)
    for done, (train, test) in enumerate(folds.split(np.zeros((n, 1)), y_arr), start=1):
        X_test, y_test, y_train = _take(X, test), y_arr[test], y_arr[train]
        start = time.perf_counter()
        seen = np.unique(y_train)
        if len(seen) >= 2:
            est = clone(model).fit(_take(X, train), y_train)
            fitted = time.perf_counter()
            pred = np.asarray(est.predict(X_test))
            proba = _aligned_proba(est, X_test, classes, len(test))
        else:  # one class to learn from: it is the answer, with certainty
            fitted = time.perf_counter()
            pred = np.repeat(seen, len(test))
            proba = (classes[None, :] == seen[0]).astype(np.float64).repeat(len(test), axis=0)
        stop = time.perf_counter()
        scores["fit_time"].append(fitted - start)
        scores["predict_time"].append(stop - fitted)
        scores["accuracy"].append(float(np.mean(pred == y_test)))
        if proba is None:
            scores["log_loss"].append(np.nan)
            scores["brier"].append(np.nan)
        else:
            scores["log_loss"].append(float(log_loss(y_test, proba, labels=classes)))
            scores["brier"].append(brier_score(y_test, proba, classes))
        confusion += confusion_matrix(y_test, pred, labels=classes)
        n_test.append(len(test))
        if progress is not None:
            progress(done, n_splits)
    out: dict[str, Any] = {"classes": classes, "n_splits": n_splits}
    out.update({k: np.asarray(v) for k, v in scores.items()})
    out["n_test"] = np.asarray(n_test)
    out["mean"] = {k: float(np.mean(scores[k])) for k in _METRICS}
    out["std"] = {k: float(np.std(scores[k])) for k in _METRICS}
    out["confusion_matrix"] = pd.DataFrame(
        confusion,
        index=pd.Index(classes, name="true"),
        columns=pd.Index(classes, name="predicted"),
    )
    return out


def compare(
    models: Mapping[str, Any],
    X: Any,
    y: Any,
    n_splits: int = 10,
    random_state: int | None = 0,
    progress: Callable[[int, int, str], Any] | None = None,
    errors: str = "raise",
) -> pd.DataFrame:
    """Cross-validate several models on the same folds and tabulate their scores.

    Parameters
    ----------
    models : mapping of str to estimator
        Name -> model; the table keeps this order.
    X, y, n_splits, random_state :
        As in :func:`cross_validate`; every model sees the same folds.
    progress : callable, optional
        Called as ``progress(done, total, name)`` after each fold of each model, ``done``
        counting folds over all models and ``total = len(models) * n_splits``.
    errors : {"raise", "note"}, default="raise"
        What to do when a model cannot be cross-validated on this data (its ``fit`` or
        ``predict`` raises ``ValueError`` or ``TypeError``): re-raise, or give it a row of NaN
        scores with the reason in ``note``.

    Returns
    -------
    pandas.DataFrame
        One row per model, indexed by name (index named ``"model"``), with columns
        ``accuracy`` and ``accuracy_std`` (mean and standard deviation over the folds),
        ``log_loss``, ``brier`` (means over the folds), ``seconds`` (fit plus predict time
        summed over the folds) and ``note`` (empty, or why the model has no scores).

    Examples
    --------
    >>> from bayeskit.classifiers import MultinomialNaiveBayes, NaiveBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("iris")
    >>> table = compare({"nb": NaiveBayes(), "mnb": MultinomialNaiveBayes()}, X, y, n_splits=5)
    >>> table[["accuracy", "brier"]].round(2)
           accuracy  brier
    model
    nb         0.93   0.09
    mnb        0.95   0.35
    """
    if errors not in ("raise", "note"):
        msg = f"errors must be 'raise' or 'note', got {errors!r}"
        raise ValueError(msg)
    total = len(models) * n_splits
    rows = []
    for k, (name, model) in enumerate(models.items()):
        before = k * n_splits

        def tick(done: int, _: int, name: str = name, before: int = before) -> None:
            if progress is not None:
                progress(before + done, total, name)

        row: dict[str, Any] = {"model": name}
        try:
            result = cross_validate(model, X, y, n_splits, random_state, progress=tick)
        except (ValueError, TypeError) as exc:
            if errors == "raise":
                raise
            row.update({c: np.nan for c in ("accuracy", "accuracy_std", *_METRICS[1:])})
            row.update(seconds=np.nan, note=f"n/a: {exc}")
            tick(n_splits, n_splits)
        else:
            row.update(
                accuracy=result["mean"]["accuracy"],
                accuracy_std=result["std"]["accuracy"],
                log_loss=result["mean"]["log_loss"],
                brier=result["mean"]["brier"],
                seconds=float(result["fit_time"].sum() + result["predict_time"].sum()),
                note="",
            )
        rows.append(row)
    columns = ["model", "accuracy", "accuracy_std", "log_loss", "brier", "seconds", "note"]
    return pd.DataFrame(rows, columns=columns).set_index("model")
