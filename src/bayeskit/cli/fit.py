"""Commands ``datasets``, ``schema``, ``fit`` and ``predict``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bayeskit.cli._app import (
    _DEFAULT_MODEL,
    MISSING_MARKS,
    NUMERIC,
    _Categorical,
    _check_format,
    _Data,
    _emit,
    _Encoding,
    _err,
    _Format,
    _Ignore,
    _IgnoredTarget,
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
    _refusals,
    _Target,
    app,
    conditional_risk,
    cost_matrix,
    datasets,
    load_model,
    np,
    pd,
    save_model,
    value_text,
    value_texts,
)
from bayeskit.cli._data import (
    _check_names,
    _chunked_file,
    _find_identifiers,
    _numbers,
    _read_table,
    _Table,
    _type_file_columns,
)
from bayeskit.cli._inputs import (
    _build,
    _check_fits_data,
    _model_features,
    _model_input,
    _read_cost,
    _training_data,
)


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
def schema(
    data: _Data,
    target: _Target = None,
    categorical: _Categorical = None,
    numeric: _Numeric = None,
    ignore: _Ignore = None,
    na_values: _NaValues = None,
    encoding: _Encoding = None,
    fmt: _Format = "table",
) -> None:
    """Show the kind each column of DATA gets (categorical or numeric) and why."""
    from bayeskit.data.kinds import FEW_VALUES, MAX_CODES, ROWS_PER_CODE

    _check_format(fmt)
    table = _read_table(
        data,
        categorical=categorical,
        numeric=numeric,
        ignore=ignore,
        na_values=na_values,
        encoding=encoding,
        target=target,
    )
    for text in table.notes:
        _note(text)
    rows = []
    for name in table.frame.columns:
        s = table.frame[name]
        values = s.dropna()
        examples = ", ".join(value_text(_plain(v)) for v in pd.unique(values)[:4])
        role = "target" if name == table.default_target else "feature"
        why = table.reasons[name]
        if name in table.identifiers:
            role, why = "identifier (left out)", f"{why}; {table.identifiers[name]}"
        rows.append(
            {
                "column": name,
                "role": role,
                "kind": table.kinds[name],
                "distinct": int(values.nunique()),
                "missing": int(s.isna().sum()),
                "why": why,
                "examples": examples,
            }
        )
    caption = (
        "Rule for files (and categorical_features='infer' in Python): text and booleans -> "
        f"categorical; numbers -> numeric, except whole numbers with at most {FEW_VALUES} "
        f"distinct values, or integers with at most {MAX_CODES} distinct values seen "
        f"{ROWS_PER_CODE}+ times each on average (categorical). A categorical column with a "
        "different value in every row is an identifier, left out by the models. Override with "
        "--categorical COL / --numeric COL; drop a column with --ignore COL."
    )
    _emit(pd.DataFrame(rows), fmt, f"schema of {data}: {len(table.frame)} rows", caption)


@app.command()
def fit(
    data: _Data,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="Model file to write.")
    ],
    target: _Target = None,
    model: _Model = _DEFAULT_MODEL,
    param: _Param = None,
    categorical: _Categorical = None,
    numeric: _Numeric = None,
    ignore: _Ignore = None,
    na_values: _NaValues = None,
    encoding: _Encoding = None,
    chunksize: Annotated[
        int | None,
        typer.Option(
            "--chunksize",
            metavar="ROWS",
            help="Read DATA (a CSV or Parquet file) this many rows at a time and fit out of "
            "core: memory holds one chunk and the statistics. Column kinds are decided on the "
            "first chunk; categorical cells are read as text.",
        ),
    ] = None,
) -> None:
    """Fit a model on DATA and save it to a model file."""
    cls = _model_class(model)
    if chunksize is not None:
        _fit_chunked(cls, model, data, output, target, param, categorical, numeric,
                     na_values, chunksize, encoding, ignore)  # fmt: skip
        return
    params, table, X, y = _training_data(
        model, cls, param, data, target, categorical, numeric, na_values, encoding, ignore
    )
    with _refusals():
        estimator = _build(cls, table, X, params).fit(_model_input(cls, table, X), y)
        path = save_model(estimator, output)
    classes = ", ".join(str(_plain(c)) for c in estimator.classes_)
    _out().print(
        f"fitted [bold]{model}[/] on {X.shape[0]} rows x {_n_features(estimator, X)} features "
        f"(classes: {escape(classes)}); saved to {escape(str(path))}"
    )


def _n_features(estimator: Any, X: pd.DataFrame) -> str:
    """The number of features a fitted model uses, and the columns it left out, if any."""
    schema_ = getattr(estimator, "schema_", None)
    left_out = list(schema_.ignored) if schema_ is not None else []
    if not left_out:
        return str(X.shape[1])
    return f"{X.shape[1] - len(left_out)} (left out: {', '.join(left_out)})"


class _TypedChunks:
    """A file's chunks typed as the first chunk's columns were (categorical cells as text,
    numeric ones as floats), as ``(X, y)`` with the rows of missing class dropped;
    re-iterable (each pass reads the file again)."""

    def __init__(self, chunks: Any, table: _Table, target: str) -> None:
        self.chunks, self.table, self.target = chunks, table, target
        self.dropped = 0

    def typed(self, raw: pd.DataFrame) -> pd.DataFrame:
        from bayeskit.data.rows import label_file_lines

        raw.columns = [str(c) for c in raw.columns]
        raw = label_file_lines(raw)
        out = {}
        for name in raw.columns:
            s = raw[name]
            if self.table.kinds.get(name) == NUMERIC and name != self.target:
                out[name] = _numbers(s, name, self.table.where)
            else:  # each distinct value named once, not every row
                out[name] = pd.Series(value_texts(s), index=s.index, dtype=object)
        return pd.DataFrame(out, index=raw.index)

    def __iter__(self):
        self.dropped = 0
        for raw in self.chunks:
            frame = self.typed(raw)
            if self.target not in frame.columns:
                msg = f"unknown target column {self.target!r}; columns: {list(frame.columns)}"
                raise ValueError(msg)
            y = frame.pop(self.target)
            keep = y.notna().to_numpy()
            self.dropped += int((~keep).sum())
            yield frame[keep], y[keep].to_numpy(dtype=object)


def _fit_chunked(cls, name, data, output, target, param, categorical, numeric, na_values,
                 chunksize, encoding, ignore=None) -> None:  # fmt: skip
    """``fit --chunksize``: the column kinds from the first chunk, the classes from a pass over
    the target column, then the model's ``fit_chunks`` with a progress bar."""
    from bayeskit.data import read_chunks
    from bayeskit.data.rows import label_file_lines

    path = _chunked_file(data, chunksize)
    if target is None:
        msg = "a file needs --target, the name of the class column"
        raise typer.BadParameter(msg, param_hint="'--target'")
    params = _parse_params(param, {name: cls})
    with _refusals():
        chunks = read_chunks(path, chunksize, na_values=[*MISSING_MARKS, *_names(na_values)],
                             as_text=True, encoding=encoding)  # fmt: skip
        ignore = _names(ignore)
        if ignore:
            names = chunks.column_names()
            _check_names(pd.DataFrame(columns=names), ignore, "'--ignore'")
            chunks = chunks.select([c for c in names if c not in ignore])
        first = next(iter(chunks), None)
        if first is None or first.empty:
            msg = f"{path} has no data rows"
            raise ValueError(msg)
        first.columns = [str(c) for c in first.columns]
        first = label_file_lines(first)
        categorical, numeric = _names(categorical), _names(numeric)
        _check_names(first, categorical + numeric)
        table = _Table(pd.DataFrame(), {}, {}, target, True)
        _type_file_columns(first, categorical, numeric, table, text=True)
        _find_identifiers(table, categorical)
        for text in table.notes:
            _note(text)
        source = _TypedChunks(chunks, table, target)
        X0, _ = next(iter(source))
        _check_fits_data(name, cls, table, X0)
        kept = [c for c in table.domains if c in X0.columns]  # identifiers --categorical keeps
        labels = chunks.select([target, *kept])
        seen: set = set()
        domains: dict[str, set] = {c: set() for c in kept}
        for part in labels:
            seen.update(value_text(v) for v in part.iloc[:, 0].dropna())
            for c in kept:  # the categories of every chunk, as text (as _TypedChunks reads)
                domains[c].update(value_text(v) for v in part[c].dropna())
        table.domains = {c: sorted(v) for c, v in domains.items()}
        estimator = _build(cls, table, X0, params)
        total = chunks.n_rows
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=_err(), transient=True,
        ) as bar:  # fmt: skip
            task = bar.add_task("fitting", total=total)
            start = time.perf_counter()
            now = {"pass": 1, "rows": 0, "since": start}

            def show(rows: int) -> None:
                if rows < now["rows"]:  # the model's next pass over the file
                    now["pass"] += 1
                    now["since"] = time.perf_counter()
                now["rows"] = rows
                rate = rows / max(time.perf_counter() - now["since"], 1e-9)
                which = f", pass {now['pass']}" if now["pass"] > 1 else ""
                text = f"fitting{which}: {rate:,.0f} rows/s"
                bar.update(task, completed=rows, description=text)

            estimator.fit_chunks(source, classes=sorted(seen), progress=show)
        rows = int(estimator.class_count_.sum()) if hasattr(estimator, "class_count_") else 0
        out = save_model(estimator, output)
    if source.dropped:
        _note(f"dropped {source.dropped} row(s) whose class {target!r} is missing")
    seconds = time.perf_counter() - start
    classes = ", ".join(str(_plain(c)) for c in estimator.classes_)
    _out().print(
        f"fitted [bold]{name}[/] out of core on {rows:,} rows x {X0.shape[1]} features in "
        f"chunks of {chunksize:,} ({seconds:.1f} s; classes: {escape(classes)}); saved to "
        f"{escape(str(out))}"
    )


@app.command()
def predict(
    model_file: Annotated[
        Path, typer.Argument(metavar="MODEL", help="Model file written by `bayeskit fit`.")
    ],
    data: _Data,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", metavar="FILE", help="CSV file to write (default: standard output)."
        ),
    ] = None,
    proba: Annotated[
        bool, typer.Option("--proba", metavar="", help="Add a probability column per class.")
    ] = False,
    cost: Annotated[
        Path | None,
        typer.Option(
            "--cost",
            metavar="FILE",
            help=(
                "CSV cost matrix for minimum-risk decisions: predicted classes down the first "
                "column, true classes across the header, in any order; entry = cost of that "
                "prediction. Adds the column expected_risk, the conditional risk of the "
                "chosen class."
            ),
        ),
    ] = None,
    keep: Annotated[
        list[str] | None,
        typer.Option(
            "--keep",
            metavar="COL",
            help="Copy COL (an identifier) into the output (repeatable, or a comma list).",
        ),
    ] = None,
    target: _IgnoredTarget = None,
    ignore: _Ignore = None,
    na_values: _NaValues = None,
    encoding: _Encoding = None,
) -> None:
    """Predict the class of every row of DATA with a saved model.

    The model's features are taken from DATA by name, in any order; a missing one is an
    error, other columns (the class, identifiers) are ignored with a note, or copied to the
    output with --keep. A feature dropped by --ignore is missing in every row (the models
    marginalise it out), with a note; a column the model itself left out (an identifier) need
    not be in DATA.
    """
    if not model_file.is_file():
        msg = f"no model file at {model_file}"
        raise typer.BadParameter(msg, param_hint="'MODEL'")
    if cost is not None and not cost.is_file():
        msg = f"no cost file at {cost}"
        raise typer.BadParameter(msg, param_hint="'--cost'")
    with _refusals():
        estimator = load_model(model_file)
    table = _read_table(data, ignore=ignore, na_values=na_values, encoding=encoding)
    frame = table.raw if table.raw is not None else table.frame
    keep = _names(keep)
    _check_names(frame, keep, "'--keep'")
    drop = [*keep]
    target = target or table.default_target
    if target is not None and target in frame.columns and target not in keep:
        drop.append(target)
    X = _model_features(
        estimator, table, frame, drop, ignore, "(--keep COL copies a column to the output)"
    )
    with _refusals():
        cost_table = None if cost is None else _read_cost(cost, estimator.classes_)
        labels = estimator.predict(X, cost=cost_table)
        result = frame[keep].reset_index(drop=True).copy()
        result["prediction"] = labels
        p: Any = estimator.predict_proba(X) if proba or cost_table is not None else None
        if proba:
            for k, c in enumerate(estimator.classes_):
                result[f"proba_{_plain(c)}"] = p[:, k]
        if cost_table is not None:
            risk = conditional_risk(p, cost_matrix(cost_table, estimator.classes_))
            chosen = np.searchsorted(estimator.classes_, labels)
            result["expected_risk"] = risk[np.arange(len(labels)), chosen]
        if output is None:
            typer.echo(result.to_csv(index=False), nl=False)
        else:
            result.to_csv(output, index=False)
            _err().print(f"wrote {len(result)} predictions to {escape(str(output))}")
