"""Several models scored on the same folds (or the same test set), tabulated side by side
with the corrected resampled t-test of each against the most accurate one."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._progress import reports_progress
from bayeskit.evaluate.metrics import corrected_ttest
from bayeskit.evaluate.validation import cross_validate, holdout

__all__ = ["compare"]

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

    Raises
    ------
    ValueError
        ``errors`` is not ``"raise"`` or ``"note"``.
    ValueError or TypeError
        With ``errors="raise"``: what :func:`cross_validate` (or :func:`holdout`) raised.

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
            result = _evaluate(model, X, y, (n_splits, random_state, warm_up, cost, test), tick,
                               first=k == 0)  # fmt: skip
        except (ValueError, TypeError) as exc:
            if errors == "raise":
                raise
            row.update({c: np.nan for c in _COLUMNS[:-1]})
            row.update(note=f"n/a: {exc}")
            tick(n_splits, n_splits)
        else:
            per_fold[name] = result["accuracy"]
            sizes = (float(result["n_train"].mean()), float(result["n_test"].mean()))
            row.update(_scores(result, cost is not None))
        rows.append(row)
    return _table(rows, per_fold, sizes, with_cost=cost is not None, t_tests=test is None)


def _evaluate(model: Any, X: Any, y: Any, settings: tuple, tick: Callable, *,
              first: bool) -> dict[str, Any]:  # fmt: skip
    """One model's :func:`cross_validate` result (or :func:`holdout`'s on the test set, given);
    ``settings``: ``(n_splits, random_state, warm_up, cost, test)`` as :func:`compare` got them."""
    n_splits, random_state, warm_up, cost, test = settings
    with warnings.catch_warnings():
        if not first:  # the fold fall-back is said once, for the first model
            warnings.filterwarnings("ignore", message="n_splits=", category=UserWarning)
        if test is None:
            return cross_validate(model, X, y, n_splits, random_state,
                                  progress=tick, warm_up=warm_up, cost=cost)  # fmt: skip
        result = holdout(model, X, y, *test, cost=cost, warm_up=warm_up)
        tick(1, 1)
        return result


def _scores(result: dict[str, Any], with_cost: bool) -> dict[str, Any]:
    """A model's row of :func:`compare` from what :func:`cross_validate` (or
    :func:`holdout`) returned."""
    row = dict(
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
    if with_cost:
        row["cost"] = result["mean"]["cost"]
        row["total_cost"] = float(np.dot(result["cost"], result["n_test"]))
    return row


def _table(rows: list[dict[str, Any]], per_fold: dict[str, np.ndarray],
           sizes: tuple[float, float] | None, *, with_cost: bool,
           t_tests: bool) -> pd.DataFrame:  # fmt: skip
    """:func:`compare`'s table from the models' rows, with the t-tests against the best model
    when the models were cross-validated (``t_tests``), else NaN."""
    costs = ("cost", "total_cost") if with_cost else ()
    columns = [*_COLUMNS[:-1], *costs, _COLUMNS[-1]]
    table = pd.DataFrame(rows, columns=["model", *columns]).set_index("model")
    table["t_vs_best"] = np.nan
    table["p_vs_best"] = np.nan
    if per_fold and sizes is not None and t_tests:
        _add_ttests(table, per_fold, sizes)
    return table[[*columns[:-1], "t_vs_best", "p_vs_best", "note"]]


def _add_ttests(
    table: pd.DataFrame, per_fold: dict[str, np.ndarray], sizes: tuple[float, float]
) -> None:
    """Fill ``t_vs_best`` and ``p_vs_best``: each model's fold accuracies against those of the
    most accurate model (:func:`corrected_ttest`, with the mean training and test sizes)."""
    best = max(per_fold, key=lambda m: per_fold[m].mean())
    for name, acc in per_fold.items():
        if name != best:
            t, p = corrected_ttest(acc, per_fold[best], *sizes)
            table.loc[name, ["t_vs_best", "p_vs_best"]] = [t, p]
