"""Commands ``evaluate`` (cross-validation or a held-out test set) and ``compare``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from bayeskit.cli._app import (
    _DEFAULT_DATA,
    _DEFAULT_MODEL,
    BASELINE,
    MODELS,
    NEEDS_COUNTS,
    DummyClassifier,
    _Categorical,
    _check_format,
    _Data,
    _emit,
    _Encoding,
    _fail,
    _fmt,
    _Folds,
    _Format,
    _Ignore,
    _Model,
    _model_class,
    _names,
    _NaValues,
    _note,
    _Numeric,
    _out,
    _Param,
    _parse_params,
    _plain,
    _progress,
    _refusals,
    _Seed,
    _Target,
    app,
    class_report,
    compare_models,
    cost_matrix,
    cross_validate,
    holdout,
    np,
    pd,
)
from bayeskit.cli._data import _read_table, _split
from bayeskit.cli._inputs import (
    _build,
    _categorical,
    _model_input,
    _read_cost,
    _takes_tables,
    _test_set,
    _training_data,
)

_LEGEND_MEAN = "mean ± standard deviation over the folds"
_LEGEND_TIME = (
    "seconds: fit + predict time summed over the folds, measured after a warm-up fit on a few "
    "rows, so one-off numba compilation is excluded"
)


_Test = Annotated[
    str | None,
    typer.Option(
        "--test",
        "-T",
        metavar="FILE",
        help="Fit on DATA and score on FILE instead of cross-validating (Weka's -T): a file "
        "read with DATA's options, its columns matched to DATA's by name.",
    ),
]
_Cost = Annotated[
    Path | None,
    typer.Option(
        "--cost",
        metavar="FILE",
        help="CSV cost matrix: predicted classes down the first column, true classes across "
        "the header, in any order; entry = cost of that prediction. Predictions become the "
        "minimum-risk decisions, and the report adds cost (mean per test row) and total cost.",
    ),
]


def _cost_table(cost: Path | None, classes: Any) -> tuple[Any, Any]:
    """``--cost FILE``: the labelled table passed to the evaluation, and the matrix it gives
    over ``classes`` (rows: predicted, columns: true), or ``(None, None)``."""
    if cost is None:
        return None, None
    if not cost.is_file():
        msg = f"no cost file at {cost}"
        raise typer.BadParameter(msg, param_hint="'--cost'")
    with _refusals():
        table = _read_cost(cost, classes)
        matrix = cost_matrix(table, classes)
    return table, matrix


def _print_costs(cost: Path, classes: Any, matrix: Any) -> None:
    _out().print(f"cost matrix {escape(str(cost))} (rows: predicted class, columns: true class):")
    shown = Table()
    shown.add_column("predicted \\ true", style="bold", no_wrap=True)
    for c in classes:
        shown.add_column(escape(str(_plain(c))), justify="right")
    for c, row in zip(classes, matrix, strict=True):
        shown.add_row(escape(str(_plain(c))), *(f"{v:g}" for v in row))
    _out().print(shown)


def _unused_with_test(ctx: typer.Context, test: str | None) -> None:
    given = [f"--{p}" for p in ("folds", "seed") if _given(ctx, p)]
    if test is not None and given:
        _note(f"{' and '.join(given)} unused with --test: the model is fitted once on DATA")


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was given (on the command line or by an environment variable)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


@app.command()
def evaluate(
    ctx: typer.Context,
    data: _Data,
    target: _Target = None,
    model: _Model = _DEFAULT_MODEL,
    param: _Param = None,
    folds: _Folds = 10,
    seed: _Seed = 0,
    test: _Test = None,
    cost: _Cost = None,
    categorical: _Categorical = None,
    numeric: _Numeric = None,
    ignore: _Ignore = None,
    na_values: _NaValues = None,
    encoding: _Encoding = None,
    fmt: _Format = "table",
) -> None:
    """Stratified k-fold cross-validation (or, with --test, one fit on DATA scored on FILE):
    accuracy, log-loss, Brier, ROC AUC, F1, per class; with --cost, the cost of the decisions."""
    _check_format(fmt)
    cls = _model_class(model)
    _unused_with_test(ctx, test)
    params, table, X, y = _training_data(
        model, cls, param, data, target, categorical, numeric, na_values, encoding, ignore
    )
    X_test: Any = None
    y_test: Any = None
    if test is not None:
        X_test, y_test = _test_set(
            test, table, X, categorical, numeric, na_values, encoding, ignore
        )
    labels = y.to_numpy() if y_test is None else np.concatenate([y.to_numpy(), y_test.to_numpy()])
    classes = np.unique(labels)
    cost_table, matrix = _cost_table(cost, classes)
    with _refusals(), _progress() as bar:
        estimator = _build(cls, table, X, params)
        if test is None:
            task = bar.add_task(model, total=folds)
            result = cross_validate(
                estimator,
                _model_input(cls, table, X),
                y.to_numpy(),
                n_splits=folds,
                random_state=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                cost=cost_table,
            )
        else:
            bar.add_task(model, total=None)
            result = holdout(
                estimator,
                _model_input(cls, table, X),
                y.to_numpy(),
                _model_input(cls, table, X_test),
                y_test.to_numpy(),
                cost=cost_table,
            )
    metrics: tuple[str, ...] = ("accuracy", "log_loss", "brier", "roc_auc", "f1_macro")
    metrics += ("cost",) if cost is not None else ()
    fold_rows = pd.DataFrame(
        {
            "fold": list(range(1, result["n_splits"] + 1)),
            "test_rows": [int(n) for n in result["n_test"]],
            **{m: result[m] for m in metrics},
        }
    )
    total_cost = None
    if cost is not None:
        fold_rows["total_cost"] = result["cost"] * np.asarray(fold_rows["test_rows"])
        total_cost = float(fold_rows["total_cost"].sum())
    report = class_report(result["confusion_matrix"])
    if fmt == "json":
        doc = _evaluation_doc(result, fold_rows, report, model=model, data=data, test=test,
                              cost=cost, matrix=matrix, total_cost=total_cost)  # fmt: skip
        typer.echo(json.dumps(doc, indent=1, default=_plain, allow_nan=True))
    elif fmt == "csv":
        _evaluation_csv(result, fold_rows, test=test, n_rows=len(y), total_cost=total_cost)
    else:
        scores = _scores_table(result, fold_rows, metrics, model=model, data=data, test=test,
                               n_rows=len(y), total_cost=total_cost)  # fmt: skip
        _print_evaluation(scores, result, report, test=test, cost=cost, classes=classes,
                          matrix=matrix, total_cost=total_cost)  # fmt: skip


def _evaluation_doc(result: dict, fold_rows: pd.DataFrame, report: pd.DataFrame, *, model: str,
                    data: str, test: str | None, cost: Path | None, matrix: Any,
                    total_cost: float | None) -> dict[str, Any]:  # fmt: skip
    """``evaluate --format json``: the scores (per fold and their mean, or the test set's),
    the costs, the per-class report and the confusion matrix."""
    how = "cross-validation" if test is None else "test set"
    doc: dict[str, Any] = {"model": model, "data": data, "evaluation": how}
    if test is None:
        doc.update(
            n_splits=int(result["n_splits"]),
            classes=[_plain(c) for c in result["classes"]],
            folds=fold_rows.to_dict(orient="records"),
            mean=result["mean"],
            std=result["std"],
        )
    else:
        doc.update(
            test=test,
            train_rows=int(result["n_train"][0]),
            test_rows=int(fold_rows["test_rows"].iloc[0]),
            classes=[_plain(c) for c in result["classes"]],
            scores=result["mean"],
        )
    if cost is not None:
        doc["total_cost"] = total_cost
        doc["cost_matrix"] = {"file": str(cost), "rows": "predicted", "columns": "true",
                              "matrix": matrix.tolist()}  # fmt: skip
    doc.update(
        per_class=[
            {
                "class": _plain(c),
                **{k: _plain(v) for k, v in row.items()},
                "support": int(row["support"]),  # rows of the class: a count
            }
            for c, row in report.iterrows()
        ],
        confusion_matrix=result["confusion_matrix"].to_numpy().tolist(),
        seconds=float(result["fit_time"].sum() + result["predict_time"].sum()),
    )
    return doc


def _evaluation_csv(result: dict, fold_rows: pd.DataFrame, *, test: str | None, n_rows: int,
                    total_cost: float | None) -> None:  # fmt: skip
    """``evaluate --format csv``: the test set's scores in one row, or a row per fold and rows
    for the mean, the standard deviation (and the total cost)."""
    if test is not None:
        one = fold_rows.drop(columns=["fold"])
        one.insert(0, "train_rows", int(result["n_train"][0]))
        typer.echo(one.to_csv(index=False), nl=False)
        return
    summary = pd.concat(
        [
            fold_rows,
            pd.DataFrame(
                [
                    {"fold": "mean", "test_rows": n_rows, **result["mean"]},
                    {"fold": "std", "test_rows": n_rows, **result["std"]},
                    *(
                        [{"fold": "total", "test_rows": n_rows, "total_cost": total_cost}]
                        if total_cost is not None
                        else []
                    ),
                ]
            ),
        ],
        ignore_index=True,
    )
    typer.echo(summary.to_csv(index=False), nl=False)


#: The scores' names in the tables.
_METRIC_NAMES = {"accuracy": "accuracy", "log_loss": "log-loss", "brier": "Brier",
                 "roc_auc": "ROC AUC", "f1_macro": "F1", "cost": "cost"}  # fmt: skip


def _scores_table(result: dict, fold_rows: pd.DataFrame, metrics: tuple[str, ...], *,
                  model: str, data: str, test: str | None, n_rows: int,
                  total_cost: float | None) -> Table:  # fmt: skip
    """``evaluate``'s table of scores: a row per fold and their mean, or the test set's."""
    caption = "ROC AUC: one class against the rest, averaged over classes; F1: macro average"
    if "cost" in metrics:
        caption += "; cost: mean cost per test row of the minimum-risk decisions"
    if test is not None:
        scores = Table(
            title=escape(f"{model} fitted on {data}, scored on {test} (test set)"),
            title_justify="left",
            caption=caption + "; '-' where the test set lacks a class",
            caption_justify="left",
        )
        columns = ("train rows", "test rows", *(_METRIC_NAMES[m] for m in metrics))
        columns += ("total cost",) if total_cost is not None else ()
        for name in columns:
            scores.add_column(name, justify="right", no_wrap=True)
        scores.add_row(
            str(int(result["n_train"][0])),
            str(fold_rows["test_rows"].iloc[0]),
            *(_fmt(result["mean"][m]) for m in metrics),
            *((f"{total_cost:g}",) if total_cost is not None else ()),
        )
        return scores
    scores = Table(
        title=escape(f"{model} on {data}: {result['n_splits']}-fold cross-validation"),
        title_justify="left",
        caption="mean: ± is the standard deviation over the folds; "
        + caption
        + "; '-' where a fold's test part lacks a class",
        caption_justify="left",
    )
    for name in ("fold", "test rows", *(_METRIC_NAMES[m] for m in metrics)):
        scores.add_column(name, justify="right", no_wrap=True)
    # row by row as dicts: iterrows() would make the whole row float (fold 1.0, rows 30.0)
    for row in fold_rows.to_dict("records"):
        scores.add_row(str(row["fold"]), str(row["test_rows"]), *(_fmt(row[m]) for m in metrics))
    scores.add_section()
    scores.add_row(
        "mean",
        str(n_rows),
        *(f"{_fmt(result['mean'][m])} ± {_fmt(result['std'][m])}" for m in metrics),
        style="bold",
    )
    return scores


def _print_evaluation(scores: Table, result: dict, report: pd.DataFrame, *, test: str | None,
                      cost: Path | None, classes: Any, matrix: Any,
                      total_cost: float | None) -> None:  # fmt: skip
    """``evaluate`` as tables: the scores, the costs, the per-class report and the confusion
    matrix."""
    where = "out-of-fold predictions" if test is None else "test set predictions"
    per_class = Table(title=f"per class ({where})", title_justify="left")
    for name in ("class", "precision", "recall", "F1", "rows"):
        per_class.add_column(name, justify="right" if name != "class" else "left")
    for c, row in report.iterrows():
        per_class.add_row(
            escape(str(_plain(c))),
            _fmt(row["precision"]),
            _fmt(row["recall"]),
            _fmt(row["f1"]),
            str(int(row["support"])),
        )
    cm = result["confusion_matrix"]
    confusion = Table(
        title="confusion matrix (rows: true class, columns: predicted)", title_justify="left"
    )
    confusion.add_column("true \\ predicted", style="bold", no_wrap=True)
    for c in cm.columns:
        confusion.add_column(escape(str(_plain(c))), justify="right")
    for c, row in cm.iterrows():
        confusion.add_row(escape(str(_plain(c))), *(str(v) for v in row))
    out = _out()
    out.print(scores)
    if cost is not None and total_cost is not None:  # (both or neither)
        rows = int(sum(int(n) for n in result["n_test"]))
        out.print(
            f"total cost: {total_cost:g} over {rows} test rows ({total_cost / rows:.4g} per row)"
        )
        _print_costs(cost, classes, matrix)
    out.print(per_class)
    out.print(confusion)


def _chosen_models(names: list[str] | None) -> dict[str, type]:
    """``compare --models``: the registry's models named (repeatable, or comma lists), in the
    order given, each once; none named: every model. An unknown name is an error listing the
    valid ones."""
    chosen = list(dict.fromkeys(_names(names)))
    if not chosen:
        return dict(MODELS)
    unknown = [n for n in chosen if n not in MODELS]
    if unknown:
        which = ", ".join(repr(n) for n in unknown)
        msg = (
            f"unknown model{'s' if len(unknown) > 1 else ''} {which}; known models: "
            f"{', '.join(MODELS)} (the majority-class baseline is always included)"
        )
        raise typer.BadParameter(msg, param_hint="'--models'")
    return {name: MODELS[name] for name in chosen}


_Models = Annotated[
    list[str] | None,
    typer.Option(
        "--models",
        "--model",
        "-m",
        metavar="NAMES",
        help="The models to compare, in this order (repeatable, or a comma list: "
        "naive-bayes,tan); default: every model. The majority-class baseline is always "
        "included.",
    ),
]


@app.command()
def compare(
    ctx: typer.Context,
    data: _Data = _DEFAULT_DATA,
    target: _Target = None,
    models: _Models = None,
    folds: _Folds = 10,
    seed: _Seed = 0,
    test: _Test = None,
    cost: _Cost = None,
    param: _Param = None,
    categorical: _Categorical = None,
    numeric: _Numeric = None,
    ignore: _Ignore = None,
    na_values: _NaValues = None,
    encoding: _Encoding = None,
    fmt: _Format = "table",
) -> None:
    """Cross-validate models (every one, or those --models names) and a majority-class
    baseline on the same folds of DATA (or, with --test, fit each on DATA and score it on
    FILE); with --cost, the cost of their minimum-risk decisions.

    DATA defaults to the bundled `car`. A --param applies to every model that has it.
    """
    _check_format(fmt)
    _unused_with_test(ctx, test)
    chosen = _chosen_models(models)
    params = _parse_params(param, chosen)
    table = _read_table(
        data,
        categorical=categorical,
        numeric=numeric,
        ignore=ignore,
        na_values=na_values,
        encoding=encoding,
        target=target,
    )
    X, y = _split(table)
    split = None
    if test is not None:
        split = _test_set(test, table, X, categorical, numeric, na_values, encoding, ignore)
    labels = y.to_numpy() if split is None else np.concatenate([y, split[1]])
    classes = np.unique(labels)
    cost_table, matrix = _cost_table(cost, classes)
    estimators = _compared_estimators(chosen, table, X, params)
    with _refusals(), _progress() as bar:
        task = bar.add_task("models", total=len(estimators) * (folds if test is None else 1))
        frame = compare_models(
            estimators,
            X,  # count models only run when every column is numeric (float64)
            y.to_numpy(),
            n_splits=folds,
            random_state=seed,
            errors="note",
            cost=cost_table,
            test=None if split is None else (split[0], split[1].to_numpy()),
            progress=lambda done, total, name: bar.update(
                task, completed=done, total=total, description=name
            ),
        )
    scored = frame["note"] == ""
    if not scored[[n for n in frame.index if n != BASELINE]].any():
        reasons = "; ".join(f"{n}: {frame.loc[n, 'note']}" for n in frame.index)
        what = "cross-validated on" if test is None else "fitted on DATA and scored on"
        msg = f"no model could be {what} {test or data}: {reasons}"
        raise _fail(msg)
    out = _comparison(frame, chosen, test)
    if fmt != "table":
        _emit(out.drop(columns=["n_splits"]), fmt, "")
        return
    _print_comparison(out, frame, n_models=len(chosen), data=data, test=test, cost=cost)
    if cost is not None:
        _print_costs(cost, classes, matrix)


def _compared_estimators(chosen: dict[str, type], table: Any, X: pd.DataFrame,
                         params: Any) -> dict[str, Any]:  # fmt: skip
    """``compare``: the baseline and the chosen models that can read DATA (the count models
    need every column numeric), built; refused when none of them can."""
    categorical_cols = _categorical(table, X)
    runnable = {
        name: cls for name, cls in chosen.items() if _takes_tables(cls) or not categorical_cols
    }
    if not runnable:
        msg = (
            f"{', '.join(chosen)} need{'s' if len(chosen) == 1 else ''} numeric counts, but "
            f"columns {categorical_cols} are categorical (see `bayeskit schema DATA`); declare "
            "them --numeric if they hold counts, or choose a model that reads categorical data"
        )
        raise typer.BadParameter(msg, param_hint="'--models'")
    estimators = {BASELINE: DummyClassifier(strategy="prior")}
    estimators.update({name: _build(cls, table, X, params) for name, cls in runnable.items()})
    return estimators


def _comparison(frame: pd.DataFrame, chosen: dict[str, type], test: str | None) -> pd.DataFrame:
    """``compare``'s rows: the baseline, then each chosen model in order (one that was not run
    with a note saying why); with --test, no spread and no t-test."""
    rows = []
    for name in [BASELINE, *chosen]:
        if name not in frame.index:
            rows.append({"model": name, "note": NEEDS_COUNTS})
            continue
        row = frame.loc[name]
        rows.append({"model": name, **{k: _plain(v) for k, v in row.items()}})
    out = pd.DataFrame(rows, columns=["model", *frame.columns])
    if test is not None:  # one split: no spread, no t-test
        out = out.drop(columns=["accuracy_std", "t_vs_best", "p_vs_best"])
    return out


def _print_comparison(out: pd.DataFrame, frame: pd.DataFrame, *, n_models: int, data: str,
                      test: str | None, cost: Path | None) -> None:  # fmt: skip
    """``compare`` as a table, with a caption saying what each score is."""
    columns: dict[str, Any] = {"model": out["model"]}
    if test is None:
        columns["accuracy"] = [
            "-" if not np.isfinite(a) else f"{_fmt(a)} ± {_fmt(s)}"
            for a, s in zip(
                out["accuracy"].astype(float), out["accuracy_std"].astype(float), strict=True
            )
        ]
        columns["p vs best"] = [_p_cell(p) for p in out["p_vs_best"].astype(float)]
    else:
        columns["accuracy"] = [_fmt(v) for v in out["accuracy"]]
    if cost is not None:
        columns["cost"] = [_fmt(v) for v in out["cost"]]
        columns["total cost"] = [
            "-" if not np.isfinite(v) else f"{v:g}" for v in out["total_cost"].astype(float)
        ]
    columns.update(
        {
            "log-loss": [_fmt(v) for v in out["log_loss"]],
            "Brier": [_fmt(v) for v in out["brier"]],
            "ROC AUC": [_fmt(v) for v in out["roc_auc"]],
            "F1": [_fmt(v) for v in out["f1_macro"]],
            "seconds": [_fmt(v, 2) for v in out["seconds"]],
            "note": out["note"].fillna(""),
        }
    )
    view = pd.DataFrame(columns)
    costs = (
        " cost: mean cost per test row of the minimum-risk decisions"
        f"{' (averaged over the folds)' if test is None else ''}; total cost: summed over "
        "every test row."
        if cost is not None
        else ""
    )
    if test is None:
        best = frame.loc[frame["p_vs_best"].isna() & (frame["note"] == "")].index
        caption = (
            f"accuracy: {_LEGEND_MEAN}. p vs best: corrected resampled t-test (Nadeau & Bengio "
            f"2003, as Weka's Experimenter) of fold accuracies against the best model"
            f"{' (' + best[0] + ')' if len(best) else ''}; * marks p < 0.05, a difference "
            f"larger than fold noise.{costs} ROC AUC: one-vs-rest, macro. F1: macro. "
            f"{_LEGEND_TIME}. "
        )
        how = f"on {data}: {int(frame['n_splits'].max())}-fold cross-validation"
    else:
        caption = (
            f"accuracy on the test set (one split: no standard deviation, no t-test).{costs} "
            "ROC AUC: one-vs-rest, macro. F1: macro. seconds: fit + predict time, after a "
            "warm-up fit on a few rows. "
        )
        how = f"fitted on {data}, scored on {test} (test set)"
    caption += "baseline: always the most frequent class, class frequencies as probabilities."
    n_models_text = f"{n_models} model{'s' if n_models > 1 else ''}"
    _emit(view, "table", f"{n_models_text} and a baseline {how}", caption)


def _p_cell(p: float) -> str:
    if not np.isfinite(p):
        return "-"
    return f"{p:.3f}" + (" *" if p < 0.05 else "")
