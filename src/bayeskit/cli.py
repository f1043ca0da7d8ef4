"""The ``bayeskit`` command line: fit, predict, evaluate and compare models, list data sets.

A thin interface (typer + rich) over :mod:`bayeskit.classifiers` (the ``MODELS`` registry),
:mod:`bayeskit.io` (model files), :mod:`bayeskit.evaluate` (cross-validation) and
:mod:`bayeskit.data.datasets`. ::

    bayeskit datasets
    bayeskit fit car --model naive-bayes -o car.bayeskit
    bayeskit predict car.bayeskit new_cars.csv --proba -o predictions.csv
    bayeskit evaluate train.csv --target class --model naive-bayes --folds 10
    bayeskit compare                     # every model on the bundled default data set, car

``DATA`` is a CSV file (``.csv``, ``.tsv``, optionally gzipped), a Parquet file (``.parquet``)
or the name of a bundled data set. Bundled data sets know their target, so ``--target`` is
optional for them; files need it. CSV carries no dtypes, so for files the schema rule is
``categorical_features="infer"`` (text, and integers with at most 32 distinct values, are
categorical; see :class:`bayeskit.data.Schema`), passed to every model that takes that
parameter. Models without a schema (the multinomial and Bernoulli event models) need numeric
counts: ``compare`` skips them, with the note "n/a: needs numeric counts", on data with text or
category columns, and ``fit``/``evaluate`` refuse them there.

Exit codes: 0 on success, 2 for a bad argument (unknown model, file or column), 1 when the data
or a model file is refused (the message says why).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import numpy as np
import pandas as pd
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import bayeskit
from bayeskit.classifiers import MODELS
from bayeskit.data import datasets
from bayeskit.evaluate import compare as compare_models
from bayeskit.evaluate import cross_validate
from bayeskit.io import load as load_model
from bayeskit.io import save as save_model

__all__ = ["app", "main"]

app = typer.Typer(
    name="bayeskit",
    help="Bayesian classifiers: fit, predict, evaluate and compare models on your data.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

NEEDS_COUNTS = "n/a: needs numeric counts"
_DEFAULT_MODEL = "naive-bayes"

_Data = Annotated[str, typer.Argument(help="CSV/Parquet file or bundled data set name.")]
_Target = Annotated[
    str | None,
    typer.Option(
        "--target", "-t", help="Class column (default for a bundled data set: its own target)."
    ),
]
_Model = Annotated[
    str, typer.Option("--model", "-m", help="Model name, one of bayeskit.classifiers.MODELS.")
]
_Folds = Annotated[int, typer.Option("--folds", "-k", min=2, help="Number of stratified folds.")]
_Seed = Annotated[int, typer.Option("--seed", help="Seed of the shuffle before splitting.")]


# --------------------------------------------------------------------------------------------
# helpers: consoles, errors, data and models
# --------------------------------------------------------------------------------------------


def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


@contextmanager
def _refusals() -> Iterator[None]:
    """Report data, model and file errors as one line on stderr and exit with code 1; show
    the warnings raised meanwhile (a rare class, an unseen category) as notes on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            yield
        except (ValueError, TypeError, OSError, ImportError) as exc:
            _err().print(f"[bold red]error:[/] {escape(str(exc))}")
            raise typer.Exit(1) from None
        finally:
            for text in dict.fromkeys(str(w.message) for w in caught):
                _err().print(f"[yellow]note:[/] {escape(text)}")


def _model_class(name: str) -> type:
    if name not in MODELS:
        msg = f"unknown model {name!r}; known models: {', '.join(MODELS)}"
        raise typer.BadParameter(msg, param_hint="'--model'")
    return MODELS[name]


def _read_file(path: Path) -> pd.DataFrame:
    name = path.name.lower()
    if name.endswith((".parquet", ".pq")):
        try:
            return pd.read_parquet(path)
        except ImportError as exc:
            msg = f"reading Parquet needs pyarrow ({exc}); install bayeskit[parquet]"
            raise ImportError(msg) from exc
    sep = "\t" if name.endswith((".tsv", ".tsv.gz", ".tab")) else ","
    return pd.read_csv(path, sep=sep)


def _text(value: object) -> str:
    """A cell as text, with whole floats written as integers (a CSV column of codes with a
    missing cell is read as 1.0, 2.0, ...)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _align_categories(X: pd.DataFrame, schema: object) -> pd.DataFrame:
    """Map each categorical cell to the category it names in the model's vocabulary.

    A file carries no types: the same column may be read as text in the training file (one
    cell was "A") and as numbers in the prediction file, or the reverse. Each cell is matched to
    the category with the same text, so "1" and 1 are one category; a cell that names no
    category is left as it is (and treated as unseen by the model).
    """
    if schema is None or not isinstance(X, pd.DataFrame):
        return X
    out = X.copy()
    for col in schema.categorical:
        if col.cuts is not None or col.name not in out.columns:
            continue
        by_text = {_text(v): v for v in col.categories}
        out[col.name] = [
            v if pd.isna(v) else by_text.get(_text(v), v) for v in out[col.name].tolist()
        ]
    return out


def _read_table(data: str, hint: str = "'DATA'") -> tuple[pd.DataFrame, str | None, bool]:
    """The table named by DATA: ``(frame, default target or None, read from a file?)``."""
    path = Path(data)
    if path.is_file():
        with _refusals():
            return _read_file(path), None, True
    if path.is_dir():
        msg = f"{data} is a directory, not a data file"
        raise typer.BadParameter(msg, param_hint=hint)
    if data in datasets.names():
        X, y = datasets.load(data)
        return X.assign(**{str(y.name): y}), datasets.describe(data)["target"], False
    if path.suffix or "/" in data or "\\" in data:
        msg = f"file not found: {data}"
    else:
        msg = (
            f"{data!r} is neither a file nor a bundled data set "
            f"(bundled: {', '.join(datasets.names())})"
        )
    raise typer.BadParameter(msg, param_hint=hint)


def _split(frame: pd.DataFrame, target: str | None, default: str | None):
    target = target or default
    columns = ", ".join(map(str, frame.columns))
    if target is None:
        msg = f"a file needs --target, the name of the class column (columns: {columns})"
        raise typer.BadParameter(msg, param_hint="'--target'")
    if target not in frame.columns:
        msg = f"unknown target column {target!r}; columns: {columns}"
        raise typer.BadParameter(msg, param_hint="'--target'")
    return frame.drop(columns=[target]), frame[target]


def _takes_tables(cls: type) -> bool:
    """Whether a model reads tabular data through a schema (and so accepts categorical data)."""
    return "categorical_features" in cls().get_params()


def _categorical_columns(X: pd.DataFrame) -> list[str]:
    return [str(c) for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)]


def _build(cls: type, from_file: bool):
    # CSV has no dtypes: the schema rule for files is "infer" (see bayeskit.data.Schema)
    return cls(categorical_features="infer") if from_file and _takes_tables(cls) else cls()


def _check_fits_data(name: str, cls: type, X: pd.DataFrame) -> None:
    categorical = _categorical_columns(X)
    if categorical and not _takes_tables(cls):
        readers = ", ".join(n for n, c in MODELS.items() if _takes_tables(c))
        msg = (
            f"model {name!r} needs numeric counts, but columns {categorical} are categorical; "
            f"models that read categorical data: {readers}"
        )
        raise typer.BadParameter(msg, param_hint="'--model'")


def _fmt(value: float, digits: int = 3) -> str:
    return "-" if value is None or not np.isfinite(value) else f"{value:.{digits}f}"


# --------------------------------------------------------------------------------------------
# commands
# --------------------------------------------------------------------------------------------


def _version(value: bool) -> None:
    if value:
        typer.echo(f"bayeskit {bayeskit.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Bayesian classifiers: fit, predict, evaluate and compare models on your data."""


@app.command(name="datasets")
def list_datasets() -> None:
    """List the bundled data sets: name, shape (rows x features), classes and description."""
    table = Table(title="bundled data sets", title_justify="left")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("shape", justify="right", no_wrap=True)
    table.add_column("classes", justify="right")
    table.add_column("description (target)", overflow="fold", min_width=24)
    for name in datasets.names():
        info = datasets.describe(name)
        first = info["description"].split(". ")[0].rstrip(".")
        table.add_row(
            name + (" (default)" if name == datasets.DEFAULT else ""),
            f"{info['rows']} x {info['n_features']}",
            str(len(info["class_counts"])),
            escape(f"{first}. ({info['target']})"),
        )
    _out().print(table)


@app.command()
def fit(
    data: _Data,
    output: Annotated[Path, typer.Option("--output", "-o", help="Model file to write.")],
    target: _Target = None,
    model: _Model = _DEFAULT_MODEL,
) -> None:
    """Fit a model on DATA and save it to a model file."""
    cls = _model_class(model)
    frame, default, from_file = _read_table(data)
    X, y = _split(frame, target, default)
    _check_fits_data(model, cls, X)
    with _refusals():
        estimator = _build(cls, from_file).fit(X, y)
        path = save_model(estimator, output)
    classes = ", ".join(map(str, estimator.classes_))
    _out().print(
        f"fitted [bold]{model}[/] on {X.shape[0]} rows x {X.shape[1]} features "
        f"(classes: {escape(classes)}); saved to {escape(str(path))}"
    )


@app.command()
def predict(
    model_file: Annotated[
        Path, typer.Argument(metavar="MODEL", help="Model file written by `bayeskit fit`.")
    ],
    data: _Data,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="CSV file to write (default: standard output)."),
    ] = None,
    proba: Annotated[
        bool, typer.Option("--proba", help="Add a probability column per class.")
    ] = False,
    cost: Annotated[
        Path | None,
        typer.Option(
            "--cost",
            help=(
                "CSV cost matrix for minimum-risk decisions: predicted classes down the first "
                "column, true classes across the header; entry = cost of that prediction."
            ),
        ),
    ] = None,
) -> None:
    """Predict the class of every row of DATA with a saved model."""
    if not model_file.is_file():
        msg = f"no model file at {model_file}"
        raise typer.BadParameter(msg, param_hint="'MODEL'")
    if cost is not None and not cost.is_file():
        msg = f"no cost file at {cost}"
        raise typer.BadParameter(msg, param_hint="'--cost'")
    with _refusals():
        estimator = load_model(model_file)
    frame, default, _ = _read_table(data)
    names = getattr(estimator, "feature_names_in_", None)
    if names is not None:
        missing = [str(n) for n in names if n not in frame.columns]
        if missing:
            msg = (
                f"DATA lacks the model's feature columns {missing} "
                f"(columns: {', '.join(map(str, frame.columns))})"
            )
            raise typer.BadParameter(msg, param_hint="'DATA'")
        X = frame[list(names)]
    else:
        X = frame.drop(columns=[default]) if default in frame.columns else frame
    X = _align_categories(X, getattr(estimator, "schema_", None))
    with _refusals():
        cost_table = None if cost is None else _read_cost(cost, estimator.classes_)
        labels = estimator.predict(X, cost=cost_table)
        result = pd.DataFrame({"prediction": labels})
        if proba:
            p = estimator.predict_proba(X)
            for k, c in enumerate(estimator.classes_):
                result[f"proba_{c}"] = p[:, k]
        if output is None:
            typer.echo(result.to_csv(index=False), nl=False)
        else:
            result.to_csv(output, index=False)
            _err().print(f"wrote {len(result)} predictions to {escape(str(output))}")


def _read_cost(path: Path, classes: np.ndarray) -> pd.DataFrame:
    """A cost matrix CSV with its labels matched to the model's classes by their text.

    A CSV header is text while class labels may be numbers or booleans, so each label is matched
    to the class whose text is the same, or failing that the same but for case (``false`` for
    ``False``); labels that match nothing are kept, and the decision layer names them.
    """
    table = pd.read_csv(path, index_col=0)
    exact = {str(c): c for c in classes}
    folded: dict[str, list] = {}
    for c in classes:
        folded.setdefault(str(c).casefold(), []).append(c)

    def match(label):
        text = str(label)
        if text in exact:
            return exact[text]
        near = folded.get(text.casefold(), [])
        return near[0] if len(near) == 1 else label

    table.index = [match(v) for v in table.index]
    table.columns = [match(v) for v in table.columns]
    return table


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_err(),
        transient=True,
    )


@app.command()
def evaluate(
    data: _Data,
    target: _Target = None,
    model: _Model = _DEFAULT_MODEL,
    folds: _Folds = 10,
    seed: _Seed = 0,
) -> None:
    """Stratified k-fold cross-validation: accuracy, log-loss, Brier score, confusion matrix."""
    cls = _model_class(model)
    frame, default, from_file = _read_table(data)
    X, y = _split(frame, target, default)
    _check_fits_data(model, cls, X)
    with _refusals(), _progress() as bar:
        task = bar.add_task(model, total=folds)
        result = cross_validate(
            _build(cls, from_file),
            X,
            y,
            n_splits=folds,
            random_state=seed,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    scores = Table(title=f"{model} on {data}: {folds}-fold cross-validation", title_justify="left")
    for name in ("fold", "test rows", "accuracy", "log-loss", "Brier"):
        scores.add_column(name, justify="right", no_wrap=True)
    for k in range(folds):
        scores.add_row(
            str(k + 1),
            str(result["n_test"][k]),
            _fmt(result["accuracy"][k]),
            _fmt(result["log_loss"][k]),
            _fmt(result["brier"][k]),
        )
    mean, std = result["mean"], result["std"]
    scores.add_section()
    scores.add_row(
        "mean",
        str(len(y)),
        *(f"{_fmt(mean[m])} ± {_fmt(std[m])}" for m in ("accuracy", "log_loss", "brier")),
        style="bold",
    )
    cm = result["confusion_matrix"]
    confusion = Table(
        title="confusion matrix (rows: true class, columns: predicted)", title_justify="left"
    )
    confusion.add_column("true \\ predicted", style="bold", no_wrap=True)
    for c in cm.columns:
        confusion.add_column(escape(str(c)), justify="right")
    for c, row in cm.iterrows():
        confusion.add_row(escape(str(c)), *(str(v) for v in row))
    out = _out()
    out.print(scores)
    out.print(confusion)


@app.command()
def compare(
    data: _Data = datasets.DEFAULT,
    target: _Target = None,
    folds: _Folds = 10,
    seed: _Seed = 0,
) -> None:
    """Cross-validate every model on the same folds of DATA (default: the bundled `car`)."""
    frame, default, from_file = _read_table(data)
    X, y = _split(frame, target, default)
    categorical = _categorical_columns(X)
    runnable = {
        name: _build(cls, from_file)
        for name, cls in MODELS.items()
        if _takes_tables(cls) or not categorical
    }
    with _refusals(), _progress() as bar:
        task = bar.add_task("models", total=len(runnable) * folds)
        table = compare_models(
            runnable,
            X,
            y,
            n_splits=folds,
            random_state=seed,
            errors="note",
            progress=lambda done, total, name: bar.update(
                task, completed=done, total=total, description=name
            ),
        )
    out = Table(
        title=f"{len(MODELS)} models on {data}: {folds}-fold cross-validation",
        title_justify="left",
    )
    out.add_column("model", no_wrap=True, style="bold")
    for name in ("accuracy", "log-loss", "Brier", "seconds"):
        out.add_column(name, justify="right", no_wrap=True)
    out.add_column("note", overflow="fold", min_width=10)
    for name in MODELS:
        if name not in table.index:
            out.add_row(name, "-", "-", "-", "-", NEEDS_COUNTS)
            continue
        row = table.loc[name]
        acc = (
            "-"
            if not np.isfinite(row["accuracy"])
            else (f"{_fmt(row['accuracy'])} ± {_fmt(row['accuracy_std'])}")
        )
        out.add_row(
            name,
            acc,
            _fmt(row["log_loss"]),
            _fmt(row["brier"]),
            _fmt(row["seconds"], 2),
            escape(row["note"]),
        )
    _out().print(out)


def main() -> None:
    """Entry point of the ``bayeskit`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
