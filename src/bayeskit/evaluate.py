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

import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _stats
from sklearn.base import clone
from sklearn.metrics import confusion_matrix, f1_score, log_loss, roc_auc_score
from sklearn.model_selection import StratifiedKFold

from bayeskit._progress import reports_progress
from bayeskit.decision import bayes_decision, cost_matrix

__all__ = [
    "brier_score",
    "class_report",
    "compare",
    "corrected_ttest",
    "cross_validate",
    "holdout",
]

_METRICS = ("accuracy", "log_loss", "brier", "roc_auc", "f1_macro")
_COLUMNS = (
    "accuracy",
    "accuracy_std",
    "log_loss",
    "brier",
    "roc_auc",
    "f1_macro",
    "seconds",
    "n_splits",
    "note",
)


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
    classes, class_sizes = np.unique(y_arr, return_counts=True)
    lam = None if cost is None else cost_matrix(cost, classes)
    largest = int(class_sizes.max())
    if n_splits > largest:
        # stratification needs at least one member of some class in every fold
        warnings.warn(
            f"n_splits={int(n_splits)} is more than the largest class has members "
            f"({largest}); using {max(2, largest)} folds",
            UserWarning,
            stacklevel=2,
        )
        n_splits = max(2, largest)
    n_splits = int(n_splits)
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


@reports_progress("compare", lambda a: lambda done, total, name: (done, total, name))
def compare(
    models: Mapping[str, Any],
    X: Any,
    y: Any,
    n_splits: int = 10,
    random_state: int | None = 0,
    progress: Callable[[int, int, str], Any] | None = None,
    errors: str = "raise",
    warm_up: bool = True,
    cost: Any = None,
    test: tuple[Any, Any] | None = None,
) -> pd.DataFrame:
    """Cross-validate several models on the same folds and tabulate their scores.

    Parameters
    ----------
    models : mapping of str to estimator
        Name -> model; the table keeps this order.
    X, y, n_splits, random_state :
        As in :func:`cross_validate`; every model sees the same folds.
    progress : bool or callable, optional
        ``True`` shows a progress display on standard error. A callable is called as
        ``progress(done, total, name)`` after each fold of each model, ``done`` counting folds over
        all models and ``total = len(models) * n_splits``.
    errors : {"raise", "note"}, default="raise"
        What to do when a model cannot be cross-validated on this data (its ``fit`` or
        ``predict`` raises ``ValueError`` or ``TypeError``): re-raise, or give it a row of NaN
        scores with the reason in ``note``.
    warm_up : bool, default=True
        As in :func:`cross_validate`: timings exclude one-off compilation.
    cost : array-like, DataFrame or dict, optional
        As in :func:`cross_validate`: minimum-risk decisions, and a ``cost`` column (the mean
        cost per test row).
    test : (X_test, y_test), optional
        Score every model on this separate test set after fitting it on ``X, y``
        (:func:`holdout`) instead of cross-validating; ``n_splits`` and ``random_state`` are
        then unused, and the t-test columns are NaN (one split gives no spread to test).

    Returns
    -------
    pandas.DataFrame
        One row per model, indexed by name (index named ``"model"``), with columns
        ``accuracy`` and ``accuracy_std`` (mean and population standard deviation over the
        folds), ``log_loss``, ``brier``, ``roc_auc``, ``f1_macro`` (means over the folds),
        ``seconds`` (fit plus predict time summed over the folds, after a warm-up),
        ``n_splits`` (the folds used), ``t_vs_best`` and ``p_vs_best`` (the corrected
        resampled t-test of the model's fold accuracies against those of the most accurate
        model, :func:`corrected_ttest`; NaN for the best model itself), ``cost`` and
        ``total_cost`` (with ``cost``: the mean cost per test row, averaged over the folds as
        ``accuracy`` is, and the cost summed over every test row) and ``note`` (empty, or why
        the model has no scores).

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
    rows = []
    per_fold: dict[str, np.ndarray] = {}
    sizes: tuple[float, float] | None = None
    for k, (name, model) in enumerate(models.items()):

        def tick(done: int, folds: int, name: str = name, k: int = k) -> None:
            # folds is the number used (fewer than n_splits on small data)
            if progress is not None:
                progress(k * folds + done, len(models) * folds, name)

        row: dict[str, Any] = {"model": name}
        try:
            with warnings.catch_warnings():
                if k > 0:  # the fold fall-back is said once, for the first model
                    warnings.filterwarnings("ignore", message="n_splits=", category=UserWarning)
                if test is None:
                    result = cross_validate(model, X, y, n_splits, random_state,
                                            progress=tick, warm_up=warm_up, cost=cost)  # fmt: skip
                else:
                    result = holdout(model, X, y, *test, cost=cost, warm_up=warm_up)
                    tick(1, 1)
        except (ValueError, TypeError) as exc:
            if errors == "raise":
                raise
            row.update({c: np.nan for c in _COLUMNS[:-1]})
            row.update(note=f"n/a: {exc}")
            tick(n_splits, n_splits)
        else:
            per_fold[name] = result["accuracy"]
            sizes = (float(result["n_train"].mean()), float(result["n_test"].mean()))
            row.update(
                accuracy=result["mean"]["accuracy"],
                accuracy_std=result["std"]["accuracy"],
                log_loss=result["mean"]["log_loss"],
                brier=result["mean"]["brier"],
                roc_auc=result["mean"]["roc_auc"],
                f1_macro=result["mean"]["f1_macro"],
                seconds=float(result["fit_time"].sum() + result["predict_time"].sum()),
                n_splits=result["n_splits"],
                note="",
            )
            if cost is not None:
                row["cost"] = result["mean"]["cost"]
                row["total_cost"] = float(np.dot(result["cost"], result["n_test"]))
        rows.append(row)
    costs = ("cost", "total_cost") if cost is not None else ()
    columns = [*_COLUMNS[:-1], *costs, _COLUMNS[-1]]
    table = pd.DataFrame(rows, columns=["model", *columns]).set_index("model")
    table["t_vs_best"] = np.nan
    table["p_vs_best"] = np.nan
    if per_fold and sizes is not None and test is None:
        best = max(per_fold, key=lambda m: per_fold[m].mean())
        for name, acc in per_fold.items():
            if name != best:
                t, p = corrected_ttest(acc, per_fold[best], *sizes)
                table.loc[name, ["t_vs_best", "p_vs_best"]] = [t, p]
    return table[[*columns[:-1], "t_vs_best", "p_vs_best", "note"]]
