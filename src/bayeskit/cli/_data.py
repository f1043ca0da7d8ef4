"""Reading data files for the command line (CSV, ARFF, Parquet, bundled data sets) and typing
their columns."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from bayeskit.cli._app import (
    CATEGORICAL,
    MISSING_MARKS,
    NUMERIC,
    _fail,
    _names,
    _note,
    _plain,
    _refusals,
    datasets,
    np,
    pd,
)

# --------------------------------------------------------------------------------------------
# reading data and typing its columns
# --------------------------------------------------------------------------------------------


@dataclass
class _Table:
    """A data set read for the command line: typed columns and the kind of each."""

    frame: pd.DataFrame  # features and target, typed: numbers float64, categories objects
    kinds: dict[str, str]
    reasons: dict[str, str]
    default_target: str | None
    from_file: bool
    raw: pd.DataFrame | None = None  # a file's cells as text (None for a bundled set)
    notes: list[str] = field(default_factory=list)
    domains: dict[str, list] = field(default_factory=dict)  # declared categories (ARFF)
    identifiers: dict[str, str] = field(default_factory=dict)  # left out by the models: why
    source: str | None = None  # named in messages (a test file, beside the training data)

    def where(self, label: Any) -> str:
        """Where a row is, for a message: its line in a file (a file's rows are labelled by
        their lines, :func:`bayeskit.data.rows.label_file_lines`), or its row number."""
        where = f"line {label}" if self.from_file else f"row {label}"
        return where if self.source is None else f"{where} of {self.source}"


def _read_csv(path: Path, na_values: list[str], encoding: str | None) -> pd.DataFrame:
    name = path.name.lower()
    sep = "\t" if name.endswith((".tsv", ".tsv.gz", ".tab")) else ","
    kw = {"sep": sep, "dtype": str, "na_values": [*MISSING_MARKS, *na_values]}
    try:
        try:
            return pd.read_csv(path, encoding=encoding or "utf-8", **kw)
        except UnicodeDecodeError as exc:
            if encoding is not None:
                msg = f"{path} is not valid {encoding} ({exc.reason} at byte {exc.start})"
                raise ValueError(msg) from None
            frame = pd.read_csv(path, encoding="latin-1", **kw)
            _note(
                f"{path} is not valid UTF-8 ({exc.reason} at byte {exc.start}); read it as "
                "latin-1: pass --encoding to choose another (cp1252, utf-16, ...)"
            )
            return frame
    except pd.errors.EmptyDataError:
        msg = f"{path} is empty: no header row and no data"
        raise ValueError(msg) from None
    except pd.errors.ParserError as exc:
        msg = f"{path} is not a valid CSV file: {exc}"
        raise ValueError(msg) from None


def _is_arff(path: Path) -> bool:
    return path.name.lower().endswith((".arff", ".arff.gz"))  # bayeskit.data.arff's suffixes


def _read_arff(
    path: Path, categorical: list[str], numeric: list[str], encoding: str | None, target: Any
) -> _Table:
    """An ARFF file: its attributes typed as declared (nominal: categorical, numeric: numeric;
    --categorical and --numeric still override), nominal ones with their declared values as
    the model's categories, and the last attribute the class unless --target says (Weka's
    convention)."""
    from bayeskit.data import read_arff
    from bayeskit.data.kinds import column_kind

    table = _Table(pd.DataFrame(), {}, {}, None, False)  # rows, not lines, in messages
    with _refusals():
        raw = read_arff(path, encoding=encoding)
        if raw.shape[0] == 0:
            msg = f"{path} declares {raw.shape[1]} attributes but holds no data rows"
            raise ValueError(msg)
    table.raw = raw
    _check_names(raw, categorical + numeric)
    frame = {}
    with _refusals():
        for name in raw.columns:
            s = raw[name]
            nominal = isinstance(s.dtype, pd.CategoricalDtype)
            if name in categorical or name in numeric:
                kind = CATEGORICAL if name in categorical else NUMERIC
                why = f"--{kind}"
            elif nominal or pd.api.types.is_numeric_dtype(s.dtype):
                kind = CATEGORICAL if nominal else NUMERIC
                why = f"ARFF {'nominal' if nominal else 'numeric'} attribute"
            else:  # a date: the library's rule
                kind, why = column_kind(s)
            table.kinds[name], table.reasons[name] = kind, why
            if kind == NUMERIC:
                frame[name] = _numbers(s, name, table.where)
            elif nominal:
                frame[name], table.domains[name] = _declared_categories(s)
            else:
                frame[name] = _as_categories(s)
    table.frame = pd.DataFrame(frame, index=raw.index)
    if target is None and len(raw.columns):
        table.default_target = str(raw.columns[-1])
        table.notes.append(
            f"no --target: the class is the last attribute, {table.default_target!r} (Weka's "
            "convention)"
        )
    return table


def _declared_categories(s: pd.Series) -> tuple[pd.Series, list]:
    """A nominal ARFF column's cells and declared values as the command line names categories:
    whole numbers as ints when every declared value is one (as for a CSV file), else text."""
    declared = [str(v) for v in s.cat.categories]
    numbers = pd.to_numeric(pd.Series(declared, dtype=object), errors="coerce")
    values: list[Any]
    if len(declared) and numbers.notna().all() and _is_whole(numbers.to_numpy(dtype=float)):
        values = [int(v) for v in numbers]
    else:
        values = declared
    lookup = np.array([*values, None], dtype=object)  # code -1 (missing) takes None
    return pd.Series(lookup[s.cat.codes.to_numpy()], index=s.index, dtype=object), values


def _read_parquet(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(path)
    except ImportError as exc:
        msg = f"reading Parquet needs pyarrow ({exc}); reinstall bayeskit (it depends on it)"
        raise ImportError(msg) from exc


def _is_whole(v: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(v)) and np.all(v == np.round(v)))


def _parse_numbers(s: pd.Series) -> pd.Series:
    """``pd.to_numeric(s, errors="coerce")``, parsing each distinct cell once (a file's column
    repeats a few texts many times; parsing every cell dominated reading it)."""
    codes, distinct = pd.factorize(s)
    parsed = pd.to_numeric(pd.Series(distinct, dtype=object), errors="coerce").to_numpy()
    if len(parsed) and (codes >= 0).all():
        return pd.Series(parsed[codes], index=s.index)
    padded = np.append(parsed.astype(np.float64), np.nan)  # code -1 (missing) takes NaN
    return pd.Series(padded[codes], index=s.index)


def _as_categories(s: pd.Series) -> pd.Series:
    """Categorical cells as Python objects, missing as None: booleans as booleans, numbers as
    numbers (whole ones as ints: 1, not 1.0), anything else as it is (a CSV file's text cells
    are typed first, :func:`bayeskit.data.kinds.read_text_column`)."""
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.astype(object)
    if pd.api.types.is_numeric_dtype(s.dtype):
        codes, distinct = pd.factorize(s)  # each distinct number converted once
        v = np.asarray(distinct, dtype=np.float64)
        whole = _is_whole(v)
        values = [int(x) if whole else float(x) for x in v]
        return pd.Series(np.array([*values, None], dtype=object)[codes], index=s.index)
    return s.astype(object).where(s.notna(), None)


def _numbers(s: pd.Series, name: str, where: Any) -> pd.Series:
    """A column as float64; a cell that is not a number is refused, naming it and its line."""
    if pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
        return s.astype(np.float64)
    numbers = _parse_numbers(s)
    bad = numbers.isna() & s.notna()
    if bad.any():
        label = bad[bad].index[0]
        msg = (
            f"column {name!r} is numeric but holds {str(s[label])!r} ({where(label)}); "
            f"{int(bad.sum())} such cell(s). Pass --na-values if it marks a missing value, "
            "or --categorical to read the column as categories"
        )
        raise ValueError(msg)
    return numbers.astype(np.float64)


def _type_file_columns(
    raw: pd.DataFrame, categorical: list[str], numeric: list[str], table: _Table, *, text: bool
) -> None:
    """Give each column of a file its kind (:func:`bayeskit.data.kinds.column_kind`, the
    library's rule) and its values. ``text``: the cells are text (a CSV file), typed first as
    ``pandas.read_csv`` types them; else they have their file's types (Parquet)."""
    from bayeskit.data.kinds import column_kind, read_text_column

    frame = {}
    for name in raw.columns:
        s = raw[name]
        typed = read_text_column(s) if text else s
        if name in categorical:
            table.kinds[name], table.reasons[name] = CATEGORICAL, "--categorical"
            frame[name] = _as_categories(typed)
            continue
        if name in numeric:
            table.kinds[name], table.reasons[name] = NUMERIC, "--numeric"
            frame[name] = _numbers(s, name, table.where)
            continue
        kind, why = column_kind(typed)
        if why == "text" and text:
            numbers = _parse_numbers(s)
            odd = s.notna() & numbers.isna()
            n_text, n_cells = int(odd.sum()), int(s.notna().sum())
            if n_text <= max(1, n_cells // 20):  # a few text cells among numbers
                first = odd[odd].index[0]
                table.notes.append(
                    f"column {name!r} holds numbers but also text in {n_text} of "
                    f"{n_cells} cells (first: {s[first]!r}, {table.where(first)}); read as "
                    "categorical. If that text marks a missing value, pass --na-values; "
                    f"or --numeric {name} to see every such cell refused"
                )
        table.kinds[name], table.reasons[name] = kind, why
        if kind == CATEGORICAL:
            frame[name] = _as_categories(typed)
        else:
            frame[name] = _numbers(typed, name, table.where)
    table.frame = pd.DataFrame(frame, index=raw.index)


def _find_identifiers(table: _Table, categorical: list[str]) -> None:
    """The feature columns that look like identifiers (:func:`bayeskit.data.kinds.
    identifier_reason`, the rule the models apply): noted, and left out by the models; one
    named by --categorical is kept (its categories declared, so the models keep it). A numeric
    column of distinct whole numbers is noted, and kept."""
    from bayeskit.data.kinds import identifier_reason, numeric_identifier_reason

    for name, kind in table.kinds.items():
        if name == table.default_target or name in table.domains:
            continue
        s = table.frame[name]
        if kind == NUMERIC:
            why = numeric_identifier_reason(s)
            if why is not None:
                table.notes.append(
                    f"column {name!r} holds {why}, as an identifier does; it is used as a "
                    f"number. If it names the rows, pass --ignore {name}"
                )
            continue
        why = identifier_reason(s)
        if why is None:
            continue
        if name in categorical:  # kept: its categories declared
            table.domains[name] = sorted(s.dropna().unique().tolist(), key=_order_key)
            table.notes.append(
                f"column {name!r} has {why}, as an identifier does; kept as a feature since "
                "--categorical names it"
            )
            continue
        table.identifiers[name] = why
        table.notes.append(
            f"column {name!r} has {why}, as an identifier does: the models leave it out (a "
            f"category seen once tells nothing about new rows). Pass --ignore {name} to drop "
            f"it without this note, or --categorical {name} to use it"
        )


def _order_key(v: Any) -> tuple:
    return (type(v).__name__, v) if not isinstance(v, int | float) else ("", v)


def _drop_ignored(frame: pd.DataFrame, ignore: list[str]) -> pd.DataFrame:
    """``frame`` without the --ignore columns; an unknown one is an error naming it and
    listing the columns."""
    if not ignore:
        return frame
    _check_names(frame, ignore, "'--ignore'")
    return frame.drop(columns=ignore)


def _read_table(
    data: str,
    *,
    categorical: list[str] | None = None,
    numeric: list[str] | None = None,
    ignore: list[str] | None = None,
    na_values: list[str] | None = None,
    encoding: str | None = None,
    target: str | None = None,
    hint: str = "'DATA'",
    like: _Table | None = None,
) -> _Table:
    """The table named by DATA, typed by the column rule (files) or its dtypes (bundled),
    without the --ignore columns; a file's rows labelled by their lines. ``like``: the
    training table a test file is read like (``--test``): its columns get the training kinds
    (an ARFF file keeps its declared ones), no identifier is looked for, and messages name the
    file."""
    from bayeskit.data.rows import label_file_lines

    categorical, numeric, ignore = _names(categorical), _names(numeric), _names(ignore)
    source = None if like is None else data
    both = sorted(set(categorical) & set(numeric))
    if both:
        msg = f"columns {both} are given both --categorical and --numeric"
        raise typer.BadParameter(msg, param_hint="'--categorical'")
    both = sorted(set(ignore) & set(categorical + numeric))
    if both:
        msg = f"columns {both} are given both --ignore and --categorical or --numeric"
        raise typer.BadParameter(msg, param_hint="'--ignore'")
    path = Path(data)
    if path.is_file() and _is_arff(path):
        table = _read_arff(path, categorical, numeric, encoding, target)
        cells = table.raw  # (an ARFF file's, as text)
        assert cells is not None
        table.source = source
        if ignore:
            table.frame = _drop_ignored(table.frame, ignore)
            table.raw = cells.drop(columns=ignore)
            for name in ignore:
                table.kinds.pop(name, None)
                table.domains.pop(name, None)
    elif path.is_file():
        table = _Table(pd.DataFrame(), {}, {}, None, True, source=source)
        with _refusals():
            if path.name.lower().endswith((".parquet", ".pq")):
                raw = _read_parquet(path)
            else:
                raw = _read_csv(path, _names(na_values), encoding)
            raw.columns = [str(c) for c in raw.columns]
            if raw.shape[0] == 0:
                msg = f"{path} has a header ({raw.shape[1]} columns) but no data rows"
                raise ValueError(msg)
        raw = label_file_lines(_drop_ignored(raw, ignore))
        table.raw = raw
        categorical, numeric = _kinds_like(like, raw.columns, categorical, numeric)
        _check_names(raw, categorical + numeric)
        with _refusals():
            text = not path.name.lower().endswith((".parquet", ".pq"))
            _type_file_columns(raw, categorical, numeric, table, text=text)
    elif path.is_dir():
        msg = f"{data} is a directory, not a data file"
        raise typer.BadParameter(msg, param_hint=hint)
    elif data in datasets.names():
        X, y = datasets.load(data)
        frame = _drop_ignored(X.assign(**{str(y.name): y}), ignore)
        table = _Table(frame, {}, {}, datasets.describe(data)["target"], False, source=source)
        categorical, numeric = _kinds_like(like, frame.columns, categorical, numeric)
        _check_names(frame, categorical + numeric)
        for name in frame.columns:
            s = frame[name]
            if name in categorical:
                table.kinds[name], table.reasons[name] = CATEGORICAL, "--categorical"
            elif name in numeric:
                table.kinds[name], table.reasons[name] = NUMERIC, "--numeric"
                with _refusals():
                    frame[name] = _numbers(s, name, table.where)
            elif pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
                table.kinds[name], table.reasons[name] = NUMERIC, f"dtype {s.dtype}"
            else:
                table.kinds[name], table.reasons[name] = CATEGORICAL, f"dtype {s.dtype}"
    else:
        if path.suffix or "/" in data or "\\" in data:
            msg = f"file not found: {data}"
        else:
            msg = (
                f"{data!r} is neither a file nor a bundled data set "
                f"(bundled: {', '.join(datasets.names())})"
            )
        raise typer.BadParameter(msg, param_hint=hint)
    if target is not None:
        table.default_target = target
    if table.kinds and like is None:
        _find_identifiers(table, categorical)
    return table


def _kinds_like(
    like: _Table | None, columns: Any, categorical: list[str], numeric: list[str]
) -> tuple[list[str], list[str]]:
    """--categorical and --numeric, with the kinds of ``like`` (the training table) added for
    the ``columns`` it shares: a test file's columns are read as the training data's were."""
    if like is None:
        return categorical, numeric
    # a column the test file lacks is named by the check of its columns, not as unknown here
    categorical = [c for c in categorical if c in columns]
    numeric = [c for c in numeric if c in columns]
    given = set(categorical) | set(numeric)
    shared = [c for c in columns if c in like.kinds and c not in given]
    return (
        categorical + [c for c in shared if like.kinds[c] == CATEGORICAL],
        numeric + [c for c in shared if like.kinds[c] == NUMERIC],
    )


def _check_names(
    frame: pd.DataFrame, names: list[str], hint: str = "'--categorical' / '--numeric'"
) -> None:
    unknown = [n for n in names if n not in frame.columns]
    if unknown:
        msg = f"unknown columns {unknown}; columns: {', '.join(map(str, frame.columns))}"
        raise typer.BadParameter(msg, param_hint=hint)


def _split(table: _Table) -> tuple[pd.DataFrame, pd.Series]:
    """Features and class; rows whose class is missing are dropped, with a note."""
    frame, target = table.frame, table.default_target
    columns = ", ".join(map(str, frame.columns))
    if target is None:
        msg = f"a file needs --target, the name of the class column (columns: {columns})"
        raise typer.BadParameter(msg, param_hint="'--target'")
    if target not in frame.columns:
        msg = f"unknown target column {target!r}; columns: {columns}"
        raise typer.BadParameter(msg, param_hint="'--target'")
    y = frame[target]
    missing = y.isna()
    if missing.any():
        where = ", ".join(table.where(i) for i in missing[missing].index[:5])
        more = ", ..." if missing.sum() > 5 else ""
        _note(
            f"dropped {int(missing.sum())} row(s) whose class {target!r} is missing ({where}{more})"
        )
        frame, y = frame[~missing], y[~missing]
        if len(y) == 0:
            msg = f"no row has a class: every value of {target!r} is missing"
            raise _fail(msg)
    if table.kinds.get(target) == CATEGORICAL:
        y = y.map(_plain)
    for text in table.notes:
        _note(text)
    return frame.drop(columns=[target]), y.rename(target)


def _chunked_file(data: str, chunksize: int) -> Path:
    """DATA as the file ``--chunksize`` reads, with the chunk size checked."""
    path = Path(data)
    if not path.is_file():
        msg = f"--chunksize reads a file: {data} is not one"
        raise typer.BadParameter(msg, param_hint="'DATA'")
    if chunksize < 1:
        msg = f"--chunksize must be at least 1, got {chunksize}"
        raise typer.BadParameter(msg, param_hint="'--chunksize'")
    return path
