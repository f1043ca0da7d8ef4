"""Scoring a model on held-out rows: stratified k-fold cross-validation
(:func:`cross_validate`) and one training set scored on a separate test set (:func:`holdout`),
each fit on a fresh clone of the model, with every metric of :mod:`bayeskit.evaluate.metrics`
and, given a cost matrix, the cost of the minimum-risk decisions."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.metrics import confusion_matrix, f1_score, log_loss
from sklearn.model_selection import StratifiedKFold

from bayeskit._progress import reports_progress
from bayeskit.decision import bayes_decision, cost_matrix
from bayeskit.evaluate.metrics import _METRICS, _mean, _roc_auc, _std, brier_score

__all__ = ["cross_validate", "holdout"]


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


def _warm_up(model: Any, X: Any, y: np.ndarray) -> None:
    """Fit and query a clone on a few rows of each class (compiles kernels before timing)."""
    rows = np.concatenate([np.flatnonzero(y == c)[:3] for c in np.unique(y)])
    if len(np.unique(y[rows])) < 2:
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = clone(model).fit(_take(X, rows), y[rows])
            est.predict(_take(X, rows))
            if hasattr(est, "predict_proba"):
                est.predict_proba(_take(X, rows))
    except (ValueError, TypeError):  # the real folds will say why
        return


def _score_split(
    model: Any, X_train: Any, y_train: np.ndarray, X_test: Any, y_test: np.ndarray,
    classes: np.ndarray, lam: np.ndarray | None,
) -> tuple[dict[str, float], np.ndarray]:  # fmt: skip
    """Fit a clone of ``model`` on the training rows and score it on the test rows: every
    metric (the module docstring), the seconds of each step and the confusion matrix. With a
    cost matrix ``lam`` the predictions are the minimum-risk decisions and ``cost`` is the
    mean cost per test row."""
    start = time.perf_counter()
    seen = np.unique(y_train)
    if len(seen) >= 2:
        est = clone(model).fit(X_train, y_train)
        fitted = time.perf_counter()
        proba = _aligned_proba(est, X_test, classes, len(y_test))
        if lam is None:
            pred = np.asarray(est.predict(X_test))
        elif proba is None:
            msg = f"{type(model).__name__} has no predict_proba: costs need posteriors"
            raise TypeError(msg)
        else:
            pred = classes[bayes_decision(proba, lam)]
    else:  # one class to learn from: it is the answer, with certainty
        fitted = time.perf_counter()
        pred = np.repeat(seen, len(y_test))
        proba = (classes[None, :] == seen[0]).astype(np.float64).repeat(len(y_test), axis=0)
    stop = time.perf_counter()
    got = {"fit_time": fitted - start, "predict_time": stop - fitted}
    got["accuracy"] = float(np.mean(pred == y_test))
    got["f1_macro"] = float(
        f1_score(y_test, pred, labels=classes, average="macro", zero_division=0.0)
    )
    if proba is None:
        got.update(log_loss=np.nan, brier=np.nan, roc_auc=np.nan)
    else:
        got["log_loss"] = float(log_loss(y_test, proba, labels=classes))
        got["brier"] = brier_score(y_test, proba, classes)
        got["roc_auc"] = _roc_auc(y_test, proba, classes)
    if lam is not None:
        got["cost"] = float(
            lam[np.searchsorted(classes, pred), np.searchsorted(classes, y_test)].mean()
        )
    return got, confusion_matrix(y_test, pred, labels=classes)


def holdout(
    model: Any,
    X_train: Any,
    y_train: Any,
    X_test: Any,
    y_test: Any,
    *,
    cost: Any = None,
    warm_up: bool = True,
) -> dict[str, Any]:
    """Fit on one data set and score on another (Weka's ``-T test.arff``).

    Parameters
    ----------
    model : estimator
        Cloned, never changed.
    X_train, y_train : the training rows and their classes
    X_test, y_test : the test rows and their classes
        The classes are those of both sets together; a class only in the test set has
        probability 0 under the model.
    cost, warm_up :
        As in :func:`cross_validate`.

    Returns
    -------
    dict
        What :func:`cross_validate` returns, for one split (``n_splits`` is 1, each
        per-split array has one entry and every ``std`` is 0).

    Raises
    ------
    ValueError
        A set whose rows and class labels differ in number, or that is empty.

    Examples
    --------
    >>> from bayeskit import NaiveBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("iris")
    >>> result = holdout(NaiveBayes(), X[::2], y[::2], X[1::2], y[1::2])
    >>> round(result["mean"]["accuracy"], 2), result["n_test"].tolist()
    (0.96, [75])
    """
    y_train, y_test = np.asarray(y_train), np.asarray(y_test)
    for what, X, y in (("training", X_train, y_train), ("test", X_test, y_test)):
        rows = X.shape[0] if hasattr(X, "shape") else len(X)
        if rows != len(y) or not len(y):
            msg = f"the {what} set has {rows} rows and {len(y)} class labels; it needs both, alike"
            raise ValueError(msg)
    classes = np.unique(np.concatenate([y_train, y_test]))
    lam = None if cost is None else cost_matrix(cost, classes)
    if warm_up:
        _warm_up(model, X_train, y_train)
    got, confusion = _score_split(model, X_train, y_train, X_test, y_test, classes, lam)
    scores = {k: [v] for k, v in got.items()}
    return _result(classes, scores, [len(y_test)], len(y_train) + len(y_test), confusion)


@reports_progress("cross-validation", lambda a: lambda done, total: (done, total, "folds"))
def cross_validate(
    model: Any,
    X: Any,
    y: Any,
    n_splits: int = 10,
    random_state: int | None = 0,
    progress: Callable[[int, int], Any] | None = None,
    warm_up: bool = True,
    cost: Any = None,
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
    progress : bool or callable, optional
        Called as ``progress(done, total)`` after each fold; ``True`` shows a progress display
        on standard error.
    warm_up : bool, default=True
        Fit and query a clone on a few rows before timing, so that ``fit_time`` and
        ``predict_time`` exclude one-off costs such as compiling numba kernels.
    cost : array-like, DataFrame or dict, optional
        A cost matrix over the classes of ``y`` (:func:`bayeskit.decision.cost_matrix`:
        ``cost[i, j]`` is the cost of predicting class ``i`` when the truth is ``j``). The
        predictions become the minimum-risk decisions from each model's posteriors (Zhou,
        *Machine Learning*, 7.1), as Weka's cost-sensitive evaluation makes them, and the
        result adds ``cost``: the mean cost per test row of each fold.

    Returns
    -------
    dict
        ``classes`` (ndarray, sorted), ``n_splits``; per fold, as ndarrays of shape
        ``(n_splits,)``: ``accuracy``, ``log_loss``, ``brier`` (NaN for a model without
        ``predict_proba``), ``roc_auc`` (NaN for a fold whose test part lacks a class),
        ``f1_macro``, ``fit_time``, ``predict_time`` (seconds), ``n_test`` and ``n_train``;
        ``mean`` and ``std``, dicts of the five metrics over the folds (NaN folds left out);
        and
        ``confusion_matrix``, a DataFrame summed over the folds with the true classes as index
        (named ``"true"``) and the predicted ones as columns (named ``"predicted"``).

    Raises
    ------
    ValueError
        If ``n_splits`` is not an integer >= 2, there are fewer than 2 samples, or ``X`` and
        ``y`` differ in length.

    Warns
    -----
    UserWarning
        When ``n_splits`` is more than the largest class has members: the folds used are then
        that many (at least 2), and ``n_splits`` in the result says how many.

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
    _check_folds(n_splits, X, n)
    classes, class_sizes = np.unique(y_arr, return_counts=True)
    lam = None if cost is None else cost_matrix(cost, classes)
    n_splits = _folds_used(n_splits, int(class_sizes.max()))
    if warm_up:
        _warm_up(model, X, y_arr)
    folds = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    keys = (*_METRICS, *(("cost",) if lam is not None else ()), "fit_time", "predict_time")
    scores: dict[str, list[float]] = {k: [] for k in keys}
    n_test: list[int] = []
    confusion = np.zeros((len(classes), len(classes)), dtype=np.int64)
    for done, (train, test) in enumerate(folds.split(np.zeros((n, 1)), y_arr), start=1):
        got, fold_confusion = _score_split(
            model, _take(X, train), y_arr[train], _take(X, test), y_arr[test], classes, lam
        )
        for key, value in got.items():
            scores[key].append(value)
        confusion += fold_confusion
        n_test.append(len(test))
        if progress is not None:
            progress(done, n_splits)
    return _result(classes, scores, n_test, n, confusion)


def _check_folds(n_splits: Any, X: Any, n: int) -> None:
    """``n_splits`` an integer >= 2, at least 2 samples, and as many rows in ``X`` as the
    ``n`` labels."""
    if isinstance(n_splits, (bool, np.bool_)) or not isinstance(n_splits, (int, np.integer)):
        msg = f"n_splits must be an integer >= 2, got {n_splits!r}"
        raise ValueError(msg)
    if n_splits < 2:
        msg = f"n_splits must be an integer >= 2, got {n_splits}"
        raise ValueError(msg)
    if n < 2:
        msg = f"cross-validation needs at least 2 samples, got {n}"
        raise ValueError(msg)
    n_rows = X.shape[0] if hasattr(X, "shape") else len(X)
    if n_rows != n:
        msg = f"X has {n_rows} samples but y has {n}"
        raise ValueError(msg)


def _folds_used(n_splits: int, largest: int) -> int:
    """The folds :func:`cross_validate` makes: ``n_splits``, or, with a warning, as many as the
    largest class has members (at least 2) when that is fewer."""
    if n_splits > largest:
        # stratification needs at least one member of some class in every fold
        warnings.warn(
            f"n_splits={int(n_splits)} is more than the largest class has members "
            f"({largest}); using {max(2, largest)} folds",
            UserWarning,
            stacklevel=3,  # the caller of cross_validate
        )
        n_splits = max(2, largest)
    return int(n_splits)


def _result(classes, scores, n_test, n, confusion) -> dict[str, Any]:
    """What :func:`cross_validate` and :func:`holdout` return, from the scores of each split."""
    n_splits = len(n_test)
    out: dict[str, Any] = {"classes": classes, "n_splits": n_splits}
    out.update({k: np.asarray(v) for k, v in scores.items()})
    out["n_test"] = np.asarray(n_test)
    out["n_train"] = n - out["n_test"]
    metrics = [k for k in (*_METRICS, "cost") if k in scores]
    out["mean"] = {k: _mean(scores[k]) for k in metrics}
    out["std"] = {k: _std(scores[k]) for k in metrics}
    out["confusion_matrix"] = pd.DataFrame(
        confusion,
        index=pd.Index(classes, name="true"),
        columns=pd.Index(classes, name="predicted"),
    )
    return out
