"""The ``bayeskit`` command line: fit, predict, evaluate and compare models; show a schema.

A thin interface (typer + rich) over :mod:`bayeskit.classifiers` (the ``MODELS`` registry),
:mod:`bayeskit.io` (model files), :mod:`bayeskit.evaluate` (cross-validation) and
:mod:`bayeskit.data.datasets`. ::

    bayeskit datasets
    bayeskit schema train.csv --target class          # the column kinds the rule below gives
    bayeskit fit car --model naive-bayes -o car.bayeskit --param alpha=0.5
    bayeskit predict car.bayeskit new_cars.csv --proba --keep id -o predictions.csv
    bayeskit evaluate train.csv --target class --categorical zip --folds 10
    bayeskit compare                     # every model on the bundled default data set, car

``DATA`` is a CSV file (``.csv``, ``.tsv``, optionally gzipped), a Parquet file (``.parquet``),
an ARFF file (``.arff``, ``.arff.gz``) or the name of a bundled data set. Bundled data sets know
their target and their column types; an ARFF file declares its attributes' types (nominal:
categorical, with the declared values as the categories; numeric: numeric), and its class is
the last attribute unless ``--target`` names another (Weka's convention).

Column kinds for files (CSV carries no types; see ``bayeskit schema DATA``), by the library's
one rule (:mod:`bayeskit.data.kinds`, ``categorical_features="infer"`` in Python), on the cells
typed as ``pandas.read_csv`` types them (``TRUE``/``FALSE`` booleans, numbers, text):

* text and booleans are categorical;
* a column of numbers is numeric, except whole numbers with at most 10 distinct values, or at
  most 50 distinct values seen 20 times each on average (integer codes), which are categorical;
* ``--categorical COL`` and ``--numeric COL`` override the rule for a column;
* a categorical column with a different value in (nearly) every row is an identifier: the
  models leave it out, with a note (``--categorical COL`` keeps it); ``--ignore COL`` drops any
  column after reading, on every command.

Rows are named by their line in the file (the header is line 1): :mod:`bayeskit.data.rows`.

Missing marks: pandas' defaults (empty, ``NA``, ``N/A``, ``NaN``, ``null``, ...), ``?`` (the
UCI/Weka mark), and any ``--na-values``. Rows whose class is missing are dropped, with a note.
The multinomial and Bernoulli models need numeric counts: they get the numeric columns, and are
refused (``compare``: skipped) when a column is categorical.

Exit codes: 0 on success, 2 for a bad argument (unknown model, file, column or parameter), 1 when
the data or a model file is refused (the message says why).
"""

from __future__ import annotations

import importlib
import json
import os
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

import bayeskit
from bayeskit._models import MODEL_CLASSES

__all__ = ["app", "main"]


# --------------------------------------------------------------------------------------------
# start-up: numpy, pandas, scikit-learn and the models are imported when a command needs them,
# so that `bayeskit --version` and every `--help` answer at once (benchmarks/RESULTS.md)
# --------------------------------------------------------------------------------------------


class _OnFirstUse:
    """A module imported when one of its attributes is first read."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


def _on_call(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


class _Models(Mapping):
    """:data:`bayeskit.classifiers.MODELS` with its names read from the registry
    (:data:`bayeskit._models.MODEL_CLASSES`): listing the models imports none of them."""

    def __getitem__(self, name: str) -> type:
        from bayeskit.classifiers import MODELS as classes

        return classes[name]

    def __contains__(self, name: object) -> bool:
        return name in MODEL_CLASSES

    def __iter__(self) -> Iterator[str]:
        return iter(MODEL_CLASSES)

    def __len__(self) -> int:
        return len(MODEL_CLASSES)


np: Any = _OnFirstUse("numpy")
pd: Any = _OnFirstUse("pandas")
datasets: Any = _OnFirstUse("bayeskit.data.datasets")
MODELS = _Models()
DummyClassifier = _on_call("sklearn.dummy", "DummyClassifier")
value_text = _on_call("bayeskit.data.codes", "value_text")
value_texts = _on_call("bayeskit.data.codes", "value_texts")
conditional_risk = _on_call("bayeskit.decision", "conditional_risk")
cost_matrix = _on_call("bayeskit.decision", "cost_matrix")
class_report = _on_call("bayeskit.evaluate", "class_report")
cross_validate = _on_call("bayeskit.evaluate", "cross_validate")
holdout = _on_call("bayeskit.evaluate", "holdout")
compare_models = _on_call("bayeskit.evaluate", "compare")
load_model = _on_call("bayeskit.io", "load")
save_model = _on_call("bayeskit.io", "save")

# --------------------------------------------------------------------------------------------
# help text: plain metavars (typer writes `{DATA}` in a usage line, `<str>` beside an argument
# and `<bool>` beside a flag such as --help)
# --------------------------------------------------------------------------------------------

#: The word shown for the value of an option declared without a metavar, by its type (click's).
_TYPE_WORDS = {int: "INTEGER", float: "FLOAT", str: "TEXT", Path: "PATH"}


class _Argument(TyperArgument):
    """An argument shown by its metavar alone: ``DATA`` (``[DATA]`` when optional)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.metavar or self.name.upper()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")


class _Option(TyperOption):
    """An option shown with its metavar, else a word for its type (``INTEGER``); a flag with
    nothing."""

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar or None
        if self.is_flag or self.count:
            return None
        annotation = self.type_descriptor.annotation
        element = getattr(annotation, "__args__", (annotation,))[0]  # list[str]: str
        return _TYPE_WORDS.get(element, "VALUE")


def _plain_help(params: Any) -> None:
    """Show ``params`` as :class:`_Argument` / :class:`_Option` do. typer builds the parameter
    objects itself, with no hook to choose their class, so the command re-classes them; the
    subclasses only change how a parameter is shown, never how it is parsed."""
    for param in params or ():
        if type(param) is TyperArgument:
            param.__class__ = _Argument
        elif type(param) is TyperOption:
            param.__class__ = _Option


class _PlainHelp:
    """Mixed into typer's command and group classes: their parameters and --help option show
    plain metavars."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _plain_help(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        _plain_help([option])
        return option


class _Command(_PlainHelp, TyperCommand):
    pass


class _Group(_PlainHelp, TyperGroup):
    pass


class _Typer(typer.Typer):
    """A typer app whose commands and groups show plain metavars."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cls=_Group, **kwargs)

    def command(self, name: str | None = None, **kwargs: Any) -> Any:
        return super().command(name, cls=_Command, **kwargs)


app = _Typer(
    name="bayeskit",
    help=(
        "Bayesian classifiers and networks: fit, predict, evaluate, compare and explain "
        "classifiers; learn, fit and query networks (bayeskit network)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

NEEDS_COUNTS = "n/a: needs numeric counts"
BASELINE = "baseline (majority)"
CATEGORICAL, NUMERIC = "categorical", "numeric"
MISSING_MARKS = ("?",)  # added to pandas' default missing marks
FORMATS = ("table", "csv", "json")
_DEFAULT_MODEL = "naive-bayes"
#: ``compare``'s data set: :data:`bayeskit.data.datasets.DEFAULT` (a test checks), written out so
#: that ``--help`` shows it without loading the data layer
_DEFAULT_DATA = "car"

_Data = Annotated[
    str,
    typer.Argument(metavar="DATA", help="CSV, Parquet or ARFF file, or bundled data set name."),
]
_Target = Annotated[
    str | None,
    typer.Option(
        "--target",
        "-t",
        metavar="COL",
        help="Class column (default for a bundled data set: its own target).",
    ),
]
_Model = Annotated[
    str,
    typer.Option(
        "--model", "-m", metavar="NAME", help=f"Model: {', '.join(MODELS)}.", show_default=True
    ),
]
_Folds = Annotated[
    int,
    typer.Option(
        "--folds",
        "-k",
        min=2,
        metavar="K",
        help="Number of stratified folds (fewer when the largest class has fewer rows).",
    ),
]
#: The class column of a file given to a saved model: left out of the features if present.
_IgnoredTarget = Annotated[
    str | None,
    typer.Option(
        "--target",
        "-t",
        metavar="COL",
        help="Class column to ignore if DATA has it (default for a bundled data set: its target).",
    ),
]
_Seed = Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the shuffle.")]
_Categorical = Annotated[
    list[str] | None,
    typer.Option(
        "--categorical",
        metavar="COL",
        help="Read COL as categorical, and keep it as a feature even if it looks like an "
        "identifier (repeatable, or a comma list).",
    ),
]
_Numeric = Annotated[
    list[str] | None,
    typer.Option(
        "--numeric", metavar="COL", help="Read COL as numeric (repeatable, or a comma list)."
    ),
]
_Ignore = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore",
        metavar="COL",
        help="Leave COL out: drop it after reading, as Weka's Remove (repeatable, or a comma "
        "list).",
    ),
]
_NaValues = Annotated[
    list[str] | None,
    typer.Option(
        "--na-values",
        metavar="TEXT",
        help="Extra cell texts read as missing (repeatable, or a comma list); '?', empty, NA, "
        "N/A, NaN, null and pandas' other defaults always are.",
    ),
]
_Encoding = Annotated[
    str | None,
    typer.Option(
        "--encoding",
        metavar="NAME",
        help="Text encoding of a CSV file (default: UTF-8, falling back to latin-1 with a note).",
    ),
]
_Param = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        "-p",
        metavar="NAME=VALUE",
        help="Model hyperparameter (repeatable); VALUE is a number, true/false, none, a JSON "
        "list or text.",
    ),
]
_Format = Annotated[
    str,
    typer.Option("--format", "-f", metavar="FORMAT", help="Output: table, csv or json."),
]


# --------------------------------------------------------------------------------------------
# helpers: consoles, errors, arguments
# --------------------------------------------------------------------------------------------


#: Width of tables written to a file or pipe (a terminal's own width is used when there is one,
#: and COLUMNS overrides both): wide enough that no column of ``compare`` wraps.
PIPE_WIDTH = 150


def _out() -> Console:
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=PIPE_WIDTH)
    return console


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def _note(text: str) -> None:
    _err().print(f"[yellow]note:[/] {escape(text)}")


@contextmanager
def _refusals() -> Iterator[None]:
    """Report data, model and file errors as one line on stderr and exit with code 1; show
    the warnings raised meanwhile (a rare class, an unseen category) as notes on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            yield
        except (ValueError, TypeError, OSError, ImportError, MemoryError) as exc:
            text = str(exc) or f"{type(exc).__name__}: out of memory"
            _err().print(f"[bold red]error:[/] {escape(text)}")
            raise typer.Exit(1) from None
        finally:
            # identifiers: noted once by the table, in the command line's words (_read_table)
            shown = [w for w in caught if w.category.__name__ != "IdentifierWarning"]
            for text in dict.fromkeys(str(w.message) for w in shown):
                _note(text)


def _fail(text: str) -> typer.Exit:
    _err().print(f"[bold red]error:[/] {escape(text)}")
    return typer.Exit(1)


def _model_class(name: str) -> type:
    if name not in MODELS:
        msg = f"unknown model {name!r}; known models: {', '.join(MODELS)}"
        raise typer.BadParameter(msg, param_hint="'--model'")
    return MODELS[name]


def _names(values: list[str] | None) -> list[str]:
    """Repeated options and comma lists, flattened: ``["a,b", "c"]`` -> ``["a", "b", "c"]``."""
    out: list[str] = []
    for v in values or ():
        out.extend(p.strip() for p in v.split(",") if p.strip())
    return out


def _check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        msg = f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}"
        raise typer.BadParameter(msg, param_hint="'--format'")
    return fmt


def _plain(value: Any) -> Any:
    """numpy scalars as Python ones, so messages and JSON never show ``np.int64(2)``."""
    return value.item() if isinstance(value, np.generic) else value


def _parse_value(text: str) -> Any:
    """A ``--param`` value: JSON (numbers, lists, quoted text), true/false, none, else text.

    Never evaluated as code.
    """
    word = text.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    if word.lower() in ("none", "null"):
        return None
    try:
        return json.loads(word)
    except ValueError:
        return text


def _parse_params(items: list[str] | None, models: dict[str, type]) -> dict[str, Any]:
    """``NAME=VALUE`` options, each known to at least one of ``models``."""
    params: dict[str, Any] = {}
    known: set[str] = set()
    for cls in models.values():
        known |= set(cls().get_params())
    known.discard("categorical_features")  # the CLI sets it from --categorical / --numeric
    for item in items or ():
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            msg = f"expected NAME=VALUE, got {item!r}"
            raise typer.BadParameter(msg, param_hint="'--param'")
        if name == "categorical_features":
            msg = "set column kinds with --categorical and --numeric, not --param"
            raise typer.BadParameter(msg, param_hint="'--param'")
        if name not in known:
            which = " or ".join(repr(m) for m in models)
            msg = f"unknown parameter {name!r} for {which}; valid: {', '.join(sorted(known))}"
            raise typer.BadParameter(msg, param_hint="'--param'")
        if name in params:
            msg = f"parameter {name!r} is given twice: give each parameter once"
            raise typer.BadParameter(msg, param_hint="'--param'")
        params[name] = _parse_value(value)
    return params


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    value = float(value)
    return "-" if not np.isfinite(value) else f"{value:.{digits}f}"


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
            else:  # a date
                kind, why = _typed_kind(s)
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


def _typed_kind(s: pd.Series) -> tuple[str, str]:
    """The kind of a column that already has a dtype (Parquet, ARFF), by the library's rule."""
    from bayeskit.data.kinds import column_kind

    return column_kind(s)


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
        table.source = source
        if ignore:
            table.frame = _drop_ignored(table.frame, ignore)
            table.raw = table.raw.drop(columns=ignore)
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


def _takes_tables(cls: type) -> bool:
    """Whether a model reads tabular data through a schema (and so accepts categorical data)."""
    return "categorical_features" in cls().get_params()


def _categorical(table: _Table, X: pd.DataFrame) -> list[str]:
    return [c for c in X.columns if table.kinds[c] == CATEGORICAL]


def _build(cls: type, table: _Table, X: pd.DataFrame, params: dict[str, Any]):
    """The model with the table's column kinds and the ``--param`` values it knows."""
    known = cls().get_params()
    model = cls(**{k: v for k, v in params.items() if k in known})
    if _takes_tables(cls):
        model.set_params(categorical_features=_categorical(table, X))
        declared = {c: v for c, v in table.domains.items() if c in _categorical(table, X)}
        if declared and "categories" in known and params.get("categories") is None:
            model.set_params(categories=declared)  # an ARFF file's declared values
    return model


def _model_input(cls: type, table: _Table, X: pd.DataFrame) -> pd.DataFrame:
    """The columns a model gets: all of them, or for a count model the numeric ones."""
    if _takes_tables(cls):
        return X
    return X.astype(np.float64)


def _training_data(
    name: str, cls: type, param, data, target, categorical, numeric, na_values, encoding,
    ignore=None,
) -> tuple[dict, _Table, pd.DataFrame, Any]:  # fmt: skip
    """What ``fit`` and ``evaluate`` start from: the model's parameters, the table read with the
    column options, its features and class, checked against the model."""
    params = _parse_params(param, {name: cls})
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
    _check_fits_data(name, cls, table, X)
    return params, table, X, y


def _test_set(
    test: str, table: _Table, X: pd.DataFrame, categorical, numeric, na_values, encoding, ignore
) -> tuple[pd.DataFrame, Any]:
    """``--test FILE``: its features (the training columns, matched by name) and class, read
    with DATA's options and typed as DATA's columns were."""
    test_table = _read_table(
        test,
        categorical=categorical,
        numeric=numeric,
        ignore=ignore,
        na_values=na_values,
        encoding=encoding,
        target=table.default_target,
        hint="'--test'",
        like=table,
    )
    columns = test_table.frame.columns
    listed = ", ".join(map(str, columns))
    if table.default_target not in columns:
        msg = f"{test} has no class column {table.default_target!r} (columns: {listed})"
        raise typer.BadParameter(msg, param_hint="'--test'")
    missing = [str(c) for c in X.columns if c not in columns]
    if missing:
        msg = f"{test} lacks the columns {missing} of DATA (columns: {listed})"
        raise typer.BadParameter(msg, param_hint="'--test'")
    X_test, y_test = _split(test_table)
    extra = [str(c) for c in X_test.columns if c not in X.columns]
    if extra:
        _note(f"ignored the columns of {test} that DATA lacks: {extra}")
    return X_test[list(X.columns)], y_test


def _check_fits_data(name: str, cls: type, table: _Table, X: pd.DataFrame) -> None:
    categorical = _categorical(table, X)
    if categorical and not _takes_tables(cls):
        readers = ", ".join(n for n, c in MODELS.items() if _takes_tables(c))
        msg = (
            f"model {name!r} needs numeric counts, but columns {categorical} are categorical "
            "(see `bayeskit schema DATA`); declare them --numeric if they hold counts, or use "
            f"a model that reads categorical data: {readers}"
        )
        raise typer.BadParameter(msg, param_hint="'--model'")


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
        typer.Option(
            "--version", callback=_version, is_eager=True, metavar="", help="Show the version."
        ),
    ] = False,
) -> None:
    """Bayesian classifiers and networks: fit, predict, evaluate, compare and explain
    classifiers; learn, fit and query networks (bayeskit network)."""


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


def _emit(
    frame: pd.DataFrame, fmt: str, title: str, caption: str | None = None, left: tuple = ()
) -> None:
    """A result table as a rich table, CSV or JSON records on standard output."""
    if fmt == "csv":
        typer.echo(frame.to_csv(index=False), nl=False)
        return
    if fmt == "json":
        typer.echo(frame.to_json(orient="records", indent=1))
        return
    table = Table(
        title=escape(title), title_justify="left", caption=caption, caption_justify="left"
    )
    for k, col in enumerate(frame.columns):
        text = k == 0 or col in ("note", "why", "examples", "kind", "role", *left)
        table.add_column(
            escape(str(col)),
            justify="left" if text else "right",
            no_wrap=k == 0 or col in ("kind", "role", "accuracy"),
            overflow="fold",
        )
    for _, row in frame.iterrows():
        table.add_row(*(escape(_cell(v)) for v in row))
    _out().print(table)


def _cell(value: Any) -> str:
    if isinstance(value, float | np.floating):
        return _fmt(value)
    return "-" if value is None else str(_plain(value))


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


def _note_unseen(X: pd.DataFrame, schema: Any) -> None:
    """A note on stderr counting, per column, the categorical cells that name no category of
    the model (it treats them as missing). A cell names a category as the model's encoder
    matches it (:func:`bayeskit.data.schema.category_codes`): by value, else by canonical key,
    so ``TRUE`` names a category learnt as ``True`` and ``1`` one learnt as ``1.0``."""
    from bayeskit.data.schema import category_codes

    if schema is None:
        return
    unseen = []
    for col in schema.categorical:
        if col.cuts is not None or col.name not in X.columns:
            continue
        s = X[col.name]
        bad = (category_codes(s, col.categories) < 0) & s.notna().to_numpy()
        if bad.any():
            texts = sorted({value_text(v) for v in s[bad]})
            shown = ", ".join(repr(t) for t in texts[:3]) + (", ..." if len(texts) > 3 else "")
            unseen.append(f"{col.name!r}: {int(bad.sum())} cell(s) ({shown})")
    if unseen:
        _note("categories not seen in training, treated as missing: " + "; ".join(unseen))


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
        p = estimator.predict_proba(X) if proba or cost_table is not None else None
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


def _model_features(
    estimator: Any, table: _Table, frame: pd.DataFrame, drop: list, ignore: Any, hint: str = ""
) -> pd.DataFrame:
    """The model's features taken from DATA by name (``predict``, ``explain``): the ``drop``
    columns left out unless they are features, a feature --ignore dropped missing in every
    row, an identifier the model left out empty; a missing feature is an error, other columns
    are ignored with a note; numeric features as numbers; unseen categories noted."""
    names = getattr(estimator, "feature_names_in_", None)
    names = None if names is None else [str(n) for n in names]
    schema_ = getattr(estimator, "schema_", None)
    # a kept column that is also a feature stays a feature
    X = frame.drop(columns=[c for c in drop if names is None or c not in names])
    if names is not None:
        # features --ignore dropped: missing in every row; identifiers the model left out: empty
        absent = [n for n in _names(ignore) if n in names]
        if absent:
            _note(f"--ignore {', '.join(absent)}: the model's feature(s) treated as missing")
        if schema_ is not None:
            absent += [n for n in schema_.ignored if n not in X.columns]
        X = X.assign(**{n: pd.Series(None, index=X.index, dtype=object) for n in absent})
        missing = [n for n in names if n not in X.columns]
        if missing:
            msg = (
                f"DATA lacks the model's feature columns {missing} "
                f"(columns: {', '.join(map(str, frame.columns))})"
            )
            raise typer.BadParameter(msg, param_hint="'DATA'")
        extra = [str(c) for c in X.columns if c not in names]
        if extra:
            _note(f"ignored columns that are not the model's features: {extra} {hint}".rstrip())
        X = X[names]
    with _refusals():
        numeric = [c.name for c in schema_.numeric] if schema_ is not None else list(X.columns)
        for name in numeric:
            X[name] = _numbers(X[name], name, table.where)
        _note_unseen(X, schema_)
    return X


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


def _spinner() -> Progress:
    """A live line for work of unknown length (a search, EM): a spinner, its description
    (updated by the caller) and the time spent."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=_err(),
        transient=True,
    )


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_err(),
        transient=True,
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
    X_test = y_test = None
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
    used = result["n_splits"]
    metrics = ("accuracy", "log_loss", "brier", "roc_auc", "f1_macro")
    metrics += ("cost",) if cost is not None else ()
    n_test = [int(n) for n in result["n_test"]]
    fold_rows = pd.DataFrame(
        {
            "fold": list(range(1, used + 1)),
            "test_rows": n_test,
            **{m: result[m] for m in metrics},
        }
    )
    total_cost = None
    if cost is not None:
        fold_rows["total_cost"] = result["cost"] * np.asarray(n_test)
        total_cost = float(fold_rows["total_cost"].sum())
    report = class_report(result["confusion_matrix"])
    cm = result["confusion_matrix"]
    how = "cross-validation" if test is None else "test set"
    if fmt == "json":
        doc: dict[str, Any] = {"model": model, "data": data, "evaluation": how}
        if test is None:
            doc.update(
                n_splits=int(used),
                classes=[_plain(c) for c in result["classes"]],
                folds=fold_rows.to_dict(orient="records"),
                mean=result["mean"],
                std=result["std"],
            )
        else:
            doc.update(
                test=test,
                train_rows=int(result["n_train"][0]),
                test_rows=n_test[0],
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
            confusion_matrix=cm.to_numpy().tolist(),
            seconds=float(result["fit_time"].sum() + result["predict_time"].sum()),
        )
        typer.echo(json.dumps(doc, indent=1, default=_plain, allow_nan=True))
        return
    if test is not None:
        one = fold_rows.drop(columns=["fold"]).rename(columns={"test_rows": "test_rows"})
        one.insert(0, "train_rows", int(result["n_train"][0]))
        if fmt == "csv":
            typer.echo(one.to_csv(index=False), nl=False)
            return
    elif fmt == "csv":
        summary = pd.concat(
            [
                fold_rows,
                pd.DataFrame(
                    [
                        {"fold": "mean", "test_rows": len(y), **result["mean"]},
                        {"fold": "std", "test_rows": len(y), **result["std"]},
                        *(
                            [{"fold": "total", "test_rows": len(y), "total_cost": total_cost}]
                            if cost is not None
                            else []
                        ),
                    ]
                ),
            ],
            ignore_index=True,
        )
        typer.echo(summary.to_csv(index=False), nl=False)
        return
    names = {"accuracy": "accuracy", "log_loss": "log-loss", "brier": "Brier",
             "roc_auc": "ROC AUC", "f1_macro": "F1", "cost": "cost"}  # fmt: skip
    caption = "ROC AUC: one class against the rest, averaged over classes; F1: macro average"
    if cost is not None:
        caption += "; cost: mean cost per test row of the minimum-risk decisions"
    if test is None:
        scores = Table(
            title=escape(f"{model} on {data}: {used}-fold cross-validation"),
            title_justify="left",
            caption="mean: ± is the standard deviation over the folds; "
            + caption
            + "; '-' where a fold's test part lacks a class",
            caption_justify="left",
        )
        for name in ("fold", "test rows", *(names[m] for m in metrics)):
            scores.add_column(name, justify="right", no_wrap=True)
        for _, row in fold_rows.iterrows():
            scores.add_row(
                str(row["fold"]), str(row["test_rows"]), *(_fmt(row[m]) for m in metrics)
            )
        scores.add_section()
        scores.add_row(
            "mean",
            str(len(y)),
            *(f"{_fmt(result['mean'][m])} ± {_fmt(result['std'][m])}" for m in metrics),
            style="bold",
        )
        where = "out-of-fold predictions"
    else:
        scores = Table(
            title=escape(f"{model} fitted on {data}, scored on {test} (test set)"),
            title_justify="left",
            caption=caption + "; '-' where the test set lacks a class",
            caption_justify="left",
        )
        columns = ("train rows", "test rows", *(names[m] for m in metrics))
        columns += ("total cost",) if cost is not None else ()
        for name in columns:
            scores.add_column(name, justify="right", no_wrap=True)
        scores.add_row(
            str(int(result["n_train"][0])),
            str(n_test[0]),
            *(_fmt(result["mean"][m]) for m in metrics),
            *((f"{total_cost:g}",) if cost is not None else ()),
        )
        where = "test set predictions"
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
    if cost is not None:
        rows = int(sum(n_test))
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


@app.command()
def compare(
    ctx: typer.Context,
    data: _Data = _DEFAULT_DATA,
    target: _Target = None,
    models: Annotated[
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
    ] = None,
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
    used = int(frame["n_splits"].max())
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
    if fmt != "table":
        _emit(out.drop(columns=["n_splits"]), fmt, "")
        return
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
        best = frame.loc[frame["p_vs_best"].isna() & scored].index
        caption = (
            f"accuracy: {_LEGEND_MEAN}. p vs best: corrected resampled t-test (Nadeau & Bengio "
            f"2003, as Weka's Experimenter) of fold accuracies against the best model"
            f"{' (' + best[0] + ')' if len(best) else ''}; * marks p < 0.05, a difference "
            f"larger than fold noise.{costs} ROC AUC: one-vs-rest, macro. F1: macro. "
            f"{_LEGEND_TIME}. "
        )
        how = f"on {data}: {used}-fold cross-validation"
    else:
        caption = (
            f"accuracy on the test set (one split: no standard deviation, no t-test).{costs} "
            "ROC AUC: one-vs-rest, macro. F1: macro. seconds: fit + predict time, after a "
            "warm-up fit on a few rows. "
        )
        how = f"fitted on {data}, scored on {test} (test set)"
    caption += "baseline: always the most frequent class, class frequencies as probabilities."
    n_models = f"{len(chosen)} model{'s' if len(chosen) > 1 else ''}"
    _emit(view, "table", f"{n_models} and a baseline {how}", caption)
    if cost is not None:
        _print_costs(cost, classes, matrix)


def _p_cell(p: float) -> str:
    if not np.isfinite(p):
        return "-"
    return f"{p:.3f}" + (" *" if p < 0.05 else "")


# ------------------------------------------------------------------ a saved classifier
_ModelFile = Annotated[
    Path, typer.Argument(metavar="MODEL", help="Model file written by `bayeskit fit`.")
]
#: The models whose fitted form is one structure over the features, with per-feature evidence
#: (``model.explain``); a test checks this list against the models.
EXPLAINED = ("naive-bayes", "spode", "tan", "kdb", "selective-kdb")


def _load(model_file: Path) -> tuple[Any, str]:
    """A saved model and its registry name (``tan``)."""
    if not model_file.is_file():
        msg = f"no model file at {model_file}"
        raise typer.BadParameter(msg, param_hint="'MODEL'")
    with _refusals():
        estimator = load_model(model_file)
    cls = type(estimator).__name__
    name = next((n for n, c in MODEL_CLASSES.items() if c == cls), cls)
    return estimator, name


def _json_value(value: Any) -> Any:
    """A value as JSON holds it: numpy scalars and arrays as Python ones, tuples as lists."""
    if isinstance(value, np.ndarray):
        return [_json_value(v) for v in value.tolist()]
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    return _plain(value)


def _short(values: list, most: int = 8) -> str:
    texts = [str(_plain(v)) for v in values]
    more = f", ... ({len(texts)} in all)" if len(texts) > most else ""
    return ", ".join(texts[:most]) + more


def _parents_of(estimator: Any) -> dict[str, list[str]] | None:
    """Each feature's feature parents (the class is a parent of every feature too), for a
    model of one structure; None for one that has none (AODE averages several)."""
    structure = getattr(estimator, "structure_", None)
    if isinstance(structure, dict):
        return {str(f): [str(p) for p in parents] for f, parents in structure.items()}
    network = getattr(estimator, "network_", None)
    if network is not None:
        return {str(f): [str(p) for p in network.dag.parents(f)] for f in estimator.schema_.names}
    return None


def _fitted_facts(estimator: Any) -> dict[str, Any]:
    """The fitted attributes that are one number or word (TAN's root_, KDB's k_, NBTree's
    depth_, ...)."""
    facts = {}
    for key, value in vars(estimator).items():
        if key.startswith("_") or not key.endswith("_") or key in ("n_features_in_",):
            continue
        value = _plain(value)
        if isinstance(value, bool | int | float | str):
            facts[key] = value
    structure = getattr(estimator, "structure_", None)
    if isinstance(structure, tuple):  # AODE, AnDE: the super-parents of each member
        facts["super_parents"] = [", ".join(map(str, s)) for s in structure]
    if hasattr(estimator, "members_"):
        facts["members"] = len(estimator.members_)
    return facts


@app.command()
def show(
    model_file: _ModelFile,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="PNG",
            help="Also draw the model as a Bayesian network (naive Bayes, TAN, SPODE, KDB, "
            "selective KDB, network) to this image.",
        ),
    ] = None,
    fmt: _Format = "table",
) -> None:
    """Show what a saved classifier is: its model and parameters, the classes and their prior,
    each feature's kind and states (or bins), its structure, the training rows."""
    _check_format(fmt)
    estimator, name = _load(model_file)
    net = None
    if plot is not None:
        try:
            to_network = estimator.to_network
        except AttributeError:
            to_network = None
        if to_network is None:
            msg = (
                f"model {name!r} ({type(estimator).__name__}) has no network form to draw; "
                "--plot draws naive-bayes, spode, tan, kdb, selective-kdb and network models"
            )
            raise _fail(msg)
        with _refusals():
            try:
                names = set(estimator.schema_.names)
                node = "class"
                while node in names:
                    node += "_"
                net = to_network() if name == "network" else to_network(node)
            except (AttributeError, ValueError) as exc:
                msg = f"model {name!r} ({type(estimator).__name__}) cannot be drawn: {exc}"
                raise ValueError(msg) from None
    schema_ = estimator.schema_
    classes = [_plain(c) for c in estimator.classes_]
    prior = np.exp(np.asarray(estimator.log_prior_, dtype=np.float64))
    counts = np.asarray(getattr(estimator, "class_count_", np.full(len(classes), np.nan)))
    rows = float(np.nansum(counts))
    n_rows = int(rows) if rows == int(rows) else rows
    parents = _parents_of(estimator)
    selected = getattr(estimator, "selected_", None)
    features = []
    for col in schema_.columns:
        binned = col.cuts is not None
        kind = "numeric, binned" if binned else col.kind
        entry: dict[str, Any] = {
            "feature": col.name,
            "kind": kind,
            ("bins" if binned else "states"): _json_value(list(col.categories))
            if col.categories is not None
            else None,
        }
        if binned:
            entry["cuts"] = _json_value(list(col.cuts))
        if parents is not None:
            entry["parents"] = parents.get(col.name, [])
        if selected is not None and col.name not in selected:
            entry["note"] = "not selected: left out of the model"
        features.append(entry)
    params = {k: _json_value(v) for k, v in estimator.get_params().items()}
    doc = {
        "file": str(model_file),
        "model": name,
        "class": type(estimator).__name__,
        "parameters": params,
        "training_rows": n_rows,
        "classes": [
            {"class": c, "prior": float(p), "rows": int(n) if n == int(n) else float(n)}
            for c, p, n in zip(classes, prior, counts, strict=True)
        ],
        "features": features,
        "left_out": list(schema_.ignored),
        "fitted": _json_value(_fitted_facts(estimator)),
    }
    if fmt == "json":
        typer.echo(json.dumps(doc, indent=1, allow_nan=True))
    elif fmt == "csv":
        frame = pd.DataFrame(
            [
                {
                    "feature": f["feature"],
                    "kind": f["kind"],
                    "states": "|".join(map(str, f.get("states") or f.get("bins") or [])),
                    **({"parents": "|".join(f["parents"])} if parents is not None else {}),
                }
                for f in features
            ]
        )
        typer.echo(frame.to_csv(index=False), nl=False)
    else:
        out = _out()
        out.print(
            f"{escape(str(model_file))}: [bold]{name}[/] ({type(estimator).__name__}), fitted "
            f"on {n_rows:,} rows, {len(features)} features, {len(classes)} classes"
        )
        shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
        out.print(f"parameters: {escape(shown)}")
        facts = ", ".join(f"{k}={v}" for k, v in doc["fitted"].items())
        if facts:
            out.print(f"fitted: {escape(facts)}")
        if schema_.ignored:
            out.print(f"left out (identifiers): {escape(', '.join(schema_.ignored))}")
        _emit(
            pd.DataFrame(
                {
                    "class": [str(c) for c in classes],
                    "prior": [f"{p:.4g}" for p in prior],
                    "training rows": [f"{_plain(n):g}" for n in counts],
                }
            ),
            "table",
            "classes",
        )
        table = pd.DataFrame(
            {
                "feature": [f["feature"] for f in features],
                "kind": [f["kind"] for f in features],
                "states": [_short(f.get("states") or f.get("bins") or []) or "-" for f in features],
            }
        )
        caption = None
        if parents is not None:
            table["parents"] = [f.get("note") or ", ".join(f["parents"]) or "-" for f in features]
            if name != "network":
                caption = "parents: the feature parents; the class is a parent of every feature"
        _emit(table, "table", "features", caption, left=("states", "parents"))
    if net is not None:
        with _refusals():
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            from bayeskit.plot import network as draw

            class_node = getattr(estimator, "class_node", None) or node
            fig = draw(net, highlight=[class_node]).figure
            fig.savefig(plot, dpi=120, bbox_inches="tight")
            plt.close(fig)
        _err().print(f"drew the network to {escape(str(plot))}")


#: Why a model has no per-feature evidence, for ``explain``'s message.
_NO_EVIDENCE = {
    "aode": "it averages one model per super-parent",
    "ande": "it averages one model per pair of super-parents",
    "selective-kdb-ensemble": "it averages several KDB models",
    "nbtree": "each leaf holds a naive Bayes model of its own",
    "network": "its class may have parents",
}


def _evidence_text(value: float) -> str:
    """Evidence in nats, signed; within 1e-12 of 0 it is 0 (rounding, not evidence)."""
    if abs(value) < 1e-12:
        return "0"
    return f"{value:+.4f}" if abs(value) >= 1e-4 else f"{value:+.2e}"


def _chosen_rows(rows: list[str] | None, X: pd.DataFrame, table: _Table) -> list:
    """``--row``: the rows named (file lines, or row numbers of a bundled data set), in the
    order given, each once; none named: every row."""
    wanted = _names(rows)
    if not wanted:
        return list(X.index)
    first, last = X.index.min(), X.index.max()
    span = f"lines {first} to {last}" if table.from_file else f"rows {first} to {last}"
    chosen = []
    for text in wanted:
        try:
            label = int(text)
        except ValueError:
            label = None
        if label is None or label not in X.index:
            what = "the line of a row in the file (the header is line 1)"
            if not table.from_file:
                what = "a row number (from 0)"
            msg = f"--row {text!r} is no row of DATA: give {what}; DATA has {span}"
            raise typer.BadParameter(msg, param_hint="'--row'")
        chosen.append(label)
    return list(dict.fromkeys(chosen))


@app.command()
def explain(
    model_file: _ModelFile,
    data: _Data,
    row: Annotated[
        list[str] | None,
        typer.Option(
            "--row",
            "-r",
            metavar="N",
            help="Explain the row on line N of DATA (the header is line 1; for an ARFF file "
            "or a bundled data set, row number N from 0); repeatable, or a comma list. "
            "Default: every row.",
        ),
    ] = None,
    top: Annotated[
        int | None,
        typer.Option(
            "--top", min=1, metavar="K", help="Show the K features of largest evidence only."
        ),
    ] = None,
    target: _IgnoredTarget = None,
    ignore: _Ignore = None,
    na_values: _NaValues = None,
    encoding: _Encoding = None,
    fmt: _Format = "table",
) -> None:
    """Explain a saved model's predictions: for the predicted class of each chosen row of
    DATA, each feature's evidence, log P(x_j | c, parents) - log P(x_j | parents), largest
    first (positive: the value speaks for the class; 0: missing, or no evidence).

    Models of one structure only: naive-bayes, spode, tan, kdb, selective-kdb."""
    _check_format(fmt)
    estimator, name = _load(model_file)
    if name not in EXPLAINED:
        why = _NO_EVIDENCE.get(name, "it does not compute per-feature evidence")
        msg = (
            f"model {name!r} ({type(estimator).__name__}) has no per-feature evidence: {why}; "
            f"explain works for models of one structure: {', '.join(EXPLAINED)}"
        )
        raise _fail(msg)
    table = _read_table(data, ignore=ignore, na_values=na_values, encoding=encoding)
    frame = table.raw if table.raw is not None else table.frame
    target = target or table.default_target
    drop = [target] if target is not None and target in frame.columns else []
    X = _model_features(estimator, table, frame, drop, ignore)
    chosen = _chosen_rows(row, X, table)
    with _refusals():
        rows = X.loc[chosen]
        predicted = estimator.predict(rows)
        proba = estimator.predict_proba(rows)
        evidence = estimator.explain(rows, as_frame=True)
    classes = list(estimator.classes_)
    explained = []
    for k, label in enumerate(chosen):
        c = predicted[k]
        part = evidence[(evidence["row"] == label) & (evidence["class"] == c)]
        order = np.argsort(-np.abs(part["contribution"].to_numpy()), kind="stable")
        part = part.iloc[order[:top] if top is not None else order]
        explained.append(
            {
                "row": _plain(label),
                "predicted": _plain(c),
                "probability": float(proba[k, classes.index(c)]),
                "evidence": [
                    {
                        "feature": str(f),
                        "value": None if pd.isna(v) else _plain(v),
                        "evidence": 0.0 if abs(e) < 1e-12 else float(e),
                    }
                    for f, v, e in zip(
                        part["feature"], part["value"], part["contribution"], strict=True
                    )
                ],
            }
        )
    if fmt == "json":
        typer.echo(json.dumps(explained, indent=1, default=_plain, allow_nan=True))
        return
    if fmt == "csv":
        flat_rows = [
            {
                "row": e["row"],
                "predicted": e["predicted"],
                "probability": e["probability"],
                **item,
            }
            for e in explained
            for item in e["evidence"]
        ]
        columns = ["row", "predicted", "probability", "feature", "value", "evidence"]
        typer.echo(pd.DataFrame(flat_rows, columns=columns).to_csv(index=False), nl=False)
        return
    out = _out()
    for e in explained:
        shown = Table(
            title=escape(
                f"{table.where(e['row'])}: predicted {e['predicted']} (P = {e['probability']:.3f})"
            ),
            title_justify="left",
        )
        shown.add_column("feature", no_wrap=True)
        shown.add_column("value")
        shown.add_column(escape(f"evidence for {e['predicted']}"), justify="right")
        for item in e["evidence"]:
            value = "? (missing)" if item["value"] is None else str(item["value"])
            shown.add_row(escape(item["feature"]), escape(value), _evidence_text(item["evidence"]))
        out.print(shown)
    out.print(
        "evidence: log P(x_j | class, parents) - log P(x_j | parents), in nats, largest first; "
        "positive speaks for the predicted class, negative against it, 0 for a missing value "
        "or one every class finds as likely. Added to log P(class), a class's evidence gives "
        "log P(class | row) up to a term the same for every class."
    )


# ------------------------------------------------------------------ networks
network_app = _Typer(
    help="Bayesian networks: learn one from data, fit a given structure, show a network file.",
    no_args_is_help=True,
)
app.add_typer(network_app, name="network")

#: A column of text with more distinct values than this is refused unless declared
#: --categorical (a column of numbers follows the library's rule, bayeskit.networks.states:
#: whole numbers up to 32 distinct, others binned with --discretize).
MAX_NETWORK_STATES = 64


def _network_data(data: str, *, categorical: Any = (), discretize: str | None = None,
                  check: bool = True, ignore: Any = None,
                  ) -> tuple[pd.DataFrame, list[str]]:  # fmt: skip
    """DATA's columns, every one a categorical variable (values as text), and the columns
    --discretize binned (states named as intervals). With ``check`` (network learn), every
    column's states are checked (:func:`_network_states`); the --categorical columns get a
    state per value, as categoricals."""
    from bayeskit.networks.states import discretize_frame, state_order

    table = _read_table(data, ignore=ignore)
    out = _network_text(table.raw if table.raw is not None else table.frame)
    if not check:
        return out, []
    _check_names(out, list(categorical))
    binned: list[str] = []
    if discretize is not None:
        with _refusals():
            wanted = [c for c in out.columns if c not in categorical]
            out = discretize_frame(out, discretize, columns=wanted)  # text columns: object
        binned = [c for c in wanted if isinstance(out[c].dtype, pd.CategoricalDtype)]
    for name in out.columns:
        if name in categorical:
            names = state_order(out[name].dropna().unique())
            out[name] = pd.Categorical(out[name], categories=names)
        elif name not in binned:
            _network_states(name, out[name].dropna().unique())
    return out, binned


def _network_text(frame: pd.DataFrame) -> pd.DataFrame:
    """Every column's values as text (pandas' own, so 1.0 stays "1.0"), missing as None: the
    states the network commands name."""
    out = pd.DataFrame({str(c): frame[c].astype("string") for c in frame.columns})
    return out.astype(object).where(out.notna(), None)


class _TextChunks:
    """A file's chunks with every column as :func:`_network_text` names it (re-iterable)."""

    def __init__(self, chunks: Any) -> None:
        self.chunks = chunks

    def __iter__(self):
        for chunk in self.chunks:
            yield _network_text(chunk)


def _numeric_refusal(exc: Any) -> typer.BadParameter:
    """A column of numbers the library refuses (:class:`bayeskit.networks.states.
    NumericColumnError`), with the command line's ways out."""
    msg = (
        f"{exc.problem}: a network variable needs a few named states; bin it with --discretize "
        f"equal-frequency:5 (or equal-width:N), or pass --categorical {exc.column} for a state "
        "per value"
    )
    return typer.BadParameter(msg, param_hint="'DATA'")


def _network_states(name: str, values: Any) -> tuple[str, ...]:
    """A column's states by the library's one rule (:func:`bayeskit.networks.states.
    node_states`: whole numbers in numeric order; numbers not whole, or more than 32 whole
    ones, refused), and a column of text with more than :data:`MAX_NETWORK_STATES` values
    refused too; each refusal with the command line's ways out."""
    from bayeskit.networks.states import NumericColumnError, node_states

    try:
        states = node_states(name, values)
    except NumericColumnError as exc:
        raise _numeric_refusal(exc) from None
    _check_states(name, len(states))
    return states


def _check_states(name: str, n: int) -> None:
    """A network variable needs a few states: ``n`` distinct values of column ``name``."""
    if n > MAX_NETWORK_STATES:
        msg = (
            f"column {name!r} has {n} distinct values: a network variable needs a few "
            f"states; group its values first, or pass --categorical {name} to keep a state "
            "per value"
        )
        raise typer.BadParameter(msg, param_hint="'DATA'")


def _network_chunks(
    data: str, chunksize: int, categorical: Any = (), ignore: Any = None
) -> tuple[Any, dict]:
    """``network learn --chunksize``: DATA (a file) in chunks, every column as text, and each
    column's states from a first pass (by the library's rule, as for DATA read whole; the
    --categorical columns a state per value)."""
    from bayeskit.data import read_chunks
    from bayeskit.networks.learning import _chunk_states
    from bayeskit.networks.states import NumericColumnError

    path = _chunked_file(data, chunksize)
    with _refusals():
        chunks = read_chunks(path, chunksize, na_values=list(MISSING_MARKS), as_text=True)
        names = chunks.column_names()
        ignore = _names(ignore)
        if ignore:  # --ignore: the other columns read
            _check_names(pd.DataFrame(columns=names), ignore, "'--ignore'")
            names = [c for c in names if c not in ignore]
            chunks = chunks.select(names)
        if chunks.is_parquet and chunks.as_categories().text_as_categories() != names:
            chunks = _TextChunks(chunks)  # numbers, dates...: named as DATA read whole names them
        unknown = [c for c in categorical if c not in names]
        if unknown:
            msg = f"unknown columns {unknown}; columns: {', '.join(names)}"
            raise typer.BadParameter(msg, param_hint="'--categorical'")
        try:
            states = _chunk_states(names, chunks, None, declared=set(categorical))
        except NumericColumnError as exc:
            raise _numeric_refusal(exc) from None
    for name in names:
        n = len(states.get(name, ()))
        if n == 0:
            msg = f"column {name!r} has no value to take its states from"
            raise typer.BadParameter(msg, param_hint="'DATA'")
        if name not in categorical:
            _check_states(name, n)
    return chunks, states


def _is_xml(path: Path) -> bool:
    return any(part in (".xml", ".xmlbif", ".bifxml") for part in path.suffixes)


def _read_network(path: Path, hint: str = "'NETWORK'"):
    """The network in a .bif or .xml file (either .gz), as every network command reads it: a
    missing file or a directory refused as a bad ``hint``, a file that holds no network as one
    line naming it (exit 1), never a traceback."""
    from bayeskit.networks import read_bif, read_xmlbif

    if path.is_dir():
        msg = f"{path} is a directory, not a network file (.bif or .xml, either .gz)"
        raise typer.BadParameter(msg, param_hint=hint)
    if not path.is_file():
        msg = f"file not found: {path}"
        raise typer.BadParameter(msg, param_hint=hint)
    try:
        return (read_xmlbif if _is_xml(path) else read_bif)(path)
    except (ValueError, OSError) as exc:
        msg = f"{path} is no network file that can be read: {exc}"
        raise _fail(msg) from None


def _listed(names: Any, most: int = 10) -> str:
    """Names as a comma list, the first ``most`` of them and how many more."""
    names = [str(n) for n in names]
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def _write_network(net: Any, path: Path) -> None:
    from bayeskit.networks import write_bif, write_xmlbif

    (write_xmlbif if _is_xml(path) else write_bif)(net, path)


_NetOut = Annotated[
    Path,
    typer.Option("--output", "-o", metavar="FILE", help="Network file to write: .bif, .xml "
                 "(XMLBIF), either with .gz."),
]  # fmt: skip
_Estimator = Annotated[
    str, typer.Option("--estimator", help="CPT estimator: mle, lidstone or bdeu.")
]
_Alpha = Annotated[
    float | None,
    typer.Option("--alpha", help="Lidstone's pseudo-count or BDeu's equivalent sample size."),
]


@network_app.command("learn")
def network_learn(
    data: _Data,
    output: _NetOut,
    score: Annotated[
        str, typer.Option("--score", help="Structure score: bic, aic, k2, bdeu or ll.")
    ] = "bic",
    max_parents: Annotated[
        int | None,
        typer.Option("--max-parents", min=0, help="The most parents a node may have."),
    ] = None,
    tabu: Annotated[int, typer.Option("--tabu", min=0, help="Tabu list length (0: none).")] = 10,
    start: Annotated[
        str,
        typer.Option("--start", help="Start graph of the climb: tree (Chow-Liu) or empty."),
    ] = "tree",
    tree: Annotated[bool, typer.Option("--tree", help="Chow-Liu tree instead.")] = False,
    estimator: _Estimator = "bdeu",
    alpha: _Alpha = None,
    chunksize: Annotated[
        int | None,
        typer.Option(
            "--chunksize",
            metavar="ROWS",
            help="Read DATA (a CSV or Parquet file) this many rows at a time: memory holds a "
            "chunk and the data's distinct rows, or, past --max-distinct-rows, a chunk and "
            "the counts of one climbing step (a pass over the file per step).",
        ),
    ] = None,
    max_distinct_rows: Annotated[
        int | None,
        typer.Option(
            "--max-distinct-rows",
            min=0,
            metavar="ROWS",
            help="With --chunksize: the most distinct rows held in memory (0: a pass per "
            "step from the start). Default 2,000,000.",
        ),
    ] = None,
    discretize: Annotated[
        str | None,
        typer.Option(
            "--discretize",
            metavar="METHOD[:BINS]",
            help="Bin the numeric columns that cannot be variables as they are (numbers not "
            "whole, or more than 32 distinct whole numbers): equal-frequency:5 or "
            'equal-width:N; their states are named as intervals, "(-inf, 2.5]", which '
            "XMLBIF holds (-o net.xml) and BIF does not.",
        ),
    ] = None,
    categorical: Annotated[
        list[str] | None,
        typer.Option(
            "--categorical",
            metavar="COL",
            help="Give COL a state per distinct value, whatever they are (repeatable, or a "
            "comma list).",
        ),
    ] = None,
    missing: Annotated[
        str | None,
        typer.Option(
            "--missing",
            metavar="HOW",
            help="Learn from DATA with missing values: em, Friedman's structural EM (EM fits "
            "the current DAG, the missing values are completed from it, a hill climb on the "
            "completed rows gives the next DAG, until it stays). Without it, missing values "
            "are refused.",
        ),
    ] = None,
    max_iter: Annotated[
        int | None,
        typer.Option(
            "--max-iter",
            min=1,
            metavar="N",
            help="With --missing em: the most structural EM iterations. Default 10.",
        ),
    ] = None,
    completions: Annotated[
        int | None,
        typer.Option(
            "--completions",
            min=1,
            metavar="N",
            help="With --missing em: completions drawn per incomplete row (more: less noise, "
            "more time). Default 5.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            metavar="N",
            help="With --missing em: seed of EM's start and of the completions (the same "
            "seed, the same network). Default 0.",
        ),
    ] = None,
    ignore: _Ignore = None,
) -> None:
    """Learn a Bayesian network from DATA (every column a variable) and write it; with
    --missing em, from DATA with missing values (structural EM).

    Whole numbers are states in numeric order; a column of numbers that are not whole, or of
    more than 32 distinct whole numbers, is refused by name: bin it with --discretize, or give
    it a state per value with --categorical."""
    from bayeskit.networks import BayesianNetwork

    if start not in ("tree", "empty"):
        msg = f"--start must be tree or empty, got {start!r}"
        raise _fail(msg)
    em = _check_missing_options(missing, chunksize=chunksize, tree=tree, max_iter=max_iter,
                                completions=completions, seed=seed)  # fmt: skip
    declared = _names(categorical)
    if discretize is not None:
        from bayeskit.networks.states import parse_discretize

        try:
            parse_discretize(discretize, "--discretize")
        except ValueError as exc:
            raise _fail(str(exc)) from None
        if chunksize is not None:
            msg = "--discretize needs DATA read whole (its bins come from all rows): no --chunksize"
            raise _fail(msg)
    options: dict[str, Any] = {}
    binned: list[str] = []
    if chunksize is None:
        if max_distinct_rows is not None:
            msg = "--max-distinct-rows goes with --chunksize (DATA read whole is held anyway)"
            raise _fail(msg)
        frame, binned = _network_data(
            data, categorical=declared, discretize=discretize, ignore=ignore
        )
        if binned and not _is_xml(output):
            msg = (
                f"--discretize binned {', '.join(binned)}: their states are intervals such as "
                f"{frame[binned[0]].cat.categories[0]!r}, which BIF cannot hold (names are "
                "single words); write XMLBIF (-o FILE.xml)"
            )
            raise _fail(msg)
        source = f"{len(frame)} rows"
        holes = {str(c): int(n) for c, n in frame.isna().sum().items() if n}
        if holes and not em:
            raise _fail(_missing_refusal(frame, holes))
        if em and not holes:
            _note("DATA has no missing values: structural EM is one hill climb on it")
    else:
        from bayeskit.networks.search import MAX_DISTINCT_ROWS

        frame, options["states"] = _network_chunks(data, chunksize, declared, ignore)
        limit = MAX_DISTINCT_ROWS if max_distinct_rows is None else max_distinct_rows
        options["max_distinct_rows"] = limit
        source = f"{escape(data)} in chunks of {chunksize:,} rows"
    how = ""
    with _refusals():
        if em:
            result = _structural_em(
                frame, score=score, max_parents=max_parents, tabu=tabu, start=start,
                estimator=estimator, alpha=alpha, max_iter=max_iter, completions=completions,
                seed=seed,
            )  # fmt: skip
            net = result.network
            state = "converged" if result.converged else "stopped at --max-iter"
            n = result.n_iter
            where = (
                f"{sum(holes.values())} missing values in {len(holes)} of {frame.shape[1]} "
                "columns" if holes else "no missing values"
            )  # fmt: skip
            how = f" by structural EM ({where}; {n} iteration{'s' * (n != 1)}, {state})"
        elif tree:
            net = BayesianNetwork.learn(frame, "tree", score=score, estimator=estimator,
                                        alpha=alpha, **options)  # fmt: skip
        else:
            with _spinner() as bar:
                task = bar.add_task("hill climbing")

                def show(moves: int, total: float) -> None:
                    text = f"hill climbing: {moves} moves, {score} {total:,.1f}"
                    bar.update(task, description=text)

                try:
                    net = BayesianNetwork.learn(
                        frame, "hill-climb", score=score, estimator=estimator, alpha=alpha,
                        max_parents=max_parents, tabu_length=tabu, start=start, progress=show,
                        **options,
                    )  # fmt: skip
                except ValueError as exc:  # a chunk's missing value, found while counting
                    if chunksize is None or "has a missing value" not in str(exc):
                        raise
                    msg = (
                        f"{exc}: --missing em learns from missing values, with DATA read whole "
                        "(no --chunksize)"
                    )
                    raise ValueError(msg) from None
        _write_network(net, output)
    if binned:
        how = f" ({', '.join(binned)} binned {discretize})" + how
    _out().print(
        f"learned a network of {len(net.nodes)} nodes and {len(net.dag.edges)} edges "
        f"({net.n_parameters} parameters) from {source}{how}; saved to {escape(str(output))}"
    )


def _check_missing_options(missing: str | None, *, chunksize: int | None, tree: bool,
                           max_iter: int | None, completions: int | None,
                           seed: int | None) -> bool:  # fmt: skip
    """``network learn``: whether --missing asks for structural EM; the options it refuses
    beside it, and its own options refused without it."""
    if missing is not None and missing != "em":
        msg = f"--missing must be em (structural EM), got {missing!r}"
        raise _fail(msg)
    if missing is None:
        own = (("--max-iter", max_iter), ("--completions", completions), ("--seed", seed))
        given = [name for name, value in own if value is not None]
        if given:
            verb = "goes" if len(given) == 1 else "go"
            msg = f"{', '.join(given)} {verb} with --missing em (structural EM): add it, or drop"
            msg += " it" if len(given) == 1 else " them"
            raise _fail(msg)
        return False
    if chunksize is not None:
        msg = (
            "--missing em and --chunksize do not go together: structural EM holds DATA whole "
            "(it completes its rows at every iteration); drop --chunksize"
        )
        raise _fail(msg)
    if tree:
        msg = (
            "--missing em and --tree do not go together: structural EM searches by hill "
            "climbing; drop --tree"
        )
        raise _fail(msg)
    return True


def _missing_refusal(frame: pd.DataFrame, holes: dict[str, int]) -> str:
    """The refusal of DATA with missing values, ``holes`` (column -> how many), without
    --missing em: where the first one is, how many in which columns, and the option."""
    from bayeskit.data.rows import row_name

    first = next(iter(holes))
    where = row_name(frame.index, int(np.flatnonzero(frame[first].isna().to_numpy())[0]))
    shown_cols = [f"{c!r} ({n})" for c, n in list(holes.items())[:10]]
    more = f" and {len(holes) - 10} more" if len(holes) > 10 else ""
    total, columns = sum(holes.values()), "columns" if len(holes) > 1 else "column"
    return (
        f"column {first!r} has a missing value ({where}): DATA has {total} missing "
        f"value{'s' * (total != 1)}, in {columns} {', '.join(shown_cols)}{more}; the "
        "structure search needs complete data: pass --missing em to learn by structural EM, "
        "or drop the incomplete rows"
    )


def _structural_em(frame: pd.DataFrame, *, score: str, max_parents: int | None, tabu: int,
                   start: str, estimator: str, alpha: float | None, max_iter: int | None,
                   completions: int | None, seed: int | None) -> Any:  # fmt: skip
    """``network learn --missing em``: :func:`bayeskit.networks.structural_em` with a live
    display of its iterations."""
    from bayeskit.networks import structural_em

    most = 10 if max_iter is None else max_iter
    with _spinner() as bar:
        task = bar.add_task("structural EM: iteration 1")

        def show(iteration: int, total: float) -> None:
            text = f"structural EM: iteration {iteration} of at most {most}, {score} {total:,.1f}"
            bar.update(task, description=text)

        return structural_em(
            frame, score=score, max_parents=max_parents, tabu_length=tabu,
            start=None if start == "tree" else [], max_iter=most,
            n_completions=5 if completions is None else completions, estimator=estimator,
            alpha=alpha, seed=0 if seed is None else seed, progress=show,
        )  # fmt: skip


@network_app.command("fit")
def network_fit(
    data: _Data,
    structure: Annotated[
        Path,
        typer.Option(
            "--structure",
            "-s",
            metavar="FILE",
            help="Network file whose structure (and states) to keep.",
        ),
    ],  # fmt: skip
    output: _NetOut,
    estimator: _Estimator = "bdeu",
    alpha: _Alpha = None,
    method: Annotated[
        str,
        typer.Option(
            "--method",
            help="count (complete data), em, gradient (gradient ascent: Han, Kamber and Pei, "
            "Data Mining, 9.1.2), or auto: count when every node is observed in every row, "
            "else em. A node with no column in DATA is latent.",
        ),
    ] = "auto",
    max_iter: Annotated[int, typer.Option("--max-iter", min=1, help="EM: most iterations.")] = 100,
    tol: Annotated[
        float,
        typer.Option(
            "--tol",
            help="EM: stop when the objective changes less than this, relative to its size.",
        ),
    ] = 1e-8,  # fmt: skip
    restarts: Annotated[
        int, typer.Option("--restarts", min=0, help="EM: extra random starts; the best is kept.")
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", min=0, help="EM: seed of the random starts.")] = 0,
    from_file: Annotated[
        bool,
        typer.Option(
            "--from-file",
            help="EM: start from the file's CPTs (expert values) instead of random ones.",
        ),
    ] = False,  # fmt: skip
    ignore: _Ignore = None,
) -> None:
    """Fit the CPTs of a given structure to DATA and write the network; with missing values
    or latent nodes, by EM (a live display shows the log-likelihood)."""
    from bayeskit.networks import fit_em, fit_parameters

    if method not in ("auto", "count", "em", "gradient"):
        msg = f"--method must be auto, count, em or gradient, got {method!r}"
        raise _fail(msg)
    given = _read_network(structure, "'--structure'")
    frame, _ = _network_data(data, check=False, ignore=ignore)  # the states are the file's
    states = {n: given.states(n) for n in given.nodes}
    latent = {n: states[n] for n in given.nodes if n not in frame.columns}
    observed = [n for n in given.nodes if n in frame.columns]
    if not observed:
        msg = (
            f"{data} shares no column with the network in {structure}: its nodes are "
            f"{_listed(given.nodes)} and DATA's columns {_listed(frame.columns)}; name DATA's "
            "columns after the nodes"
        )
        raise _fail(msg)
    if latent:
        _note(
            f"DATA has no column for {len(latent)} of the network's {len(given.nodes)} nodes "
            f"({_listed(latent)}): they are latent, fitted by EM from the others"
        )
    holes = int(frame[observed].isna().to_numpy().sum())
    if method == "auto":
        method = "em" if latent or holes else "count"
    elif method == "count" and (latent or holes):
        msg = (
            f"DATA has {holes} missing values and no column for {sorted(map(str, latent))}: "
            "counting needs every node observed in every row; use --method em (or auto)"
        )
        raise _fail(msg)
    with _refusals():
        if method == "count":
            net = fit_parameters(
                given.dag, frame, estimator=estimator, alpha=alpha, states=states
            ).network
            how = ""
        else:
            with _spinner() as bar:
                task = bar.add_task(method)

                def show(iteration: int, log_likelihood: float) -> None:
                    text = f"{method}: iteration {iteration}, log-likelihood {log_likelihood:,.3f}"
                    bar.update(task, description=text)

                result = fit_em(
                    given.dag, frame, states={n: states[n] for n in observed}, latent=latent,
                    start=given if from_file else None, estimator=estimator, alpha=alpha,
                    max_iter=max_iter, tol=tol, restarts=restarts, seed=seed, progress=show,
                    method=method,
                )  # fmt: skip
            net = result.network
            state = "converged" if result.converged else "stopped at --max-iter"
            how = (
                f" by {method.upper() if method == 'em' else method} ({holes} missing values, "
                f"latent nodes: {len(latent)}{f' ({_listed(latent)})' if latent else ''}; "
                f"{result.n_iter} iterations, {state}, "
                f"log-likelihood {result.history[-1]:,.3f})"
            )
        _write_network(net, output)
    _out().print(
        f"fitted {len(net.nodes)} CPTs ({net.n_parameters} parameters) on {len(frame)} "
        f"rows{how}; saved to {escape(str(output))}"
    )


@network_app.command("show")
def network_show(
    network: Annotated[Path, typer.Argument(metavar="NETWORK", help="A .bif or .xml file.")],
    plot: Annotated[
        Path | None,
        typer.Option("--plot", metavar="PNG", help="Also draw the DAG to this image."),
    ] = None,
) -> None:
    """Summarise a network file: its size and each node's states and parents."""
    with _refusals():
        net = _read_network(network)
    dag = net.dag
    degrees = [len(dag.parents(n)) for n in dag.nodes]
    _out().print(
        f"{escape(str(network))}: {len(dag.nodes)} nodes, {len(dag.edges)} edges, "
        f"{net.n_parameters} parameters, max in-degree {max(degrees, default=0)}, "
        f"roots: {escape(', '.join(map(str, dag.roots())))}"
    )
    frame = pd.DataFrame(
        {
            "node": [str(n) for n in dag.nodes],
            "states": [len(net.states(n)) for n in dag.nodes],
            "parents": [", ".join(map(str, dag.parents(n))) for n in dag.nodes],
        }
    )
    _emit(frame, "table", "nodes")
    if plot is not None:
        with _refusals():
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            from bayeskit.plot import network as draw

            fig = draw(net).figure  # a figure sized to the drawing, labels at full size
            fig.savefig(plot, dpi=120, bbox_inches="tight")
            plt.close(fig)
        _out().print(f"drew the DAG to {escape(str(plot))}")


@network_app.command("query")
def network_query(
    network: Annotated[Path, typer.Argument(metavar="NETWORK", help="A .bif or .xml file.")],
    target: Annotated[
        list[str] | None,
        typer.Option(
            "--target",
            "-t",
            help="A node to give the posterior of (repeatable); with --map, a node to maximise "
            "(default: every unobserved node).",
        ),
    ] = None,
    evidence: Annotated[
        str | None,
        typer.Option("--evidence", "-e", help="Observed states: NODE=STATE,NODE=STATE,..."),
    ] = None,
    map_: Annotated[
        bool,
        typer.Option(
            "--map",
            help="The most probable joint state of the --target nodes given the evidence (MAP; "
            "the other unobserved nodes summed out), or of every unobserved node (MPE), with "
            "its probability given the evidence and jointly with it (variable elimination).",
        ),
    ] = False,
    max_cells: Annotated[
        int,
        typer.Option(
            "--max-cells",
            min=1,
            max=1 << 60,
            help="The most cells a table of variable elimination, or the junction tree's "
            "potentials together, may have; more is refused before anything is computed.",
        ),
    ] = 1 << 27,
    fmt: _Format = "table",
) -> None:
    """Exact posterior of each --target node given the --evidence, and P(e) (variable
    elimination or a junction tree, whichever costs less); with --map, the most probable joint
    state instead.

    Evidence of probability zero under the network has no posterior: it is refused (exit 1).
    """
    _check_format(fmt)
    if not target and not map_:
        msg = "name a node to give the posterior of (--target NODE), or pass --map"
        raise typer.BadParameter(msg, param_hint="'--target'")
    observed = _evidence_pairs(evidence)
    if map_:
        _map_query(network, target or None, observed, fmt, max_cells)
        return
    with _refusals():
        from bayeskit.networks import ExactInference

        net = _read_network(network)
        exact = ExactInference(net, max_cells=max_cells)
        log_pe = exact.probability_of_evidence(observed, log=True) if observed else 0.0
        rows = []
        for node in target:
            posterior = exact.query(node, observed)
            for state, p in zip(posterior.states[node], posterior.values, strict=True):
                rows.append({"node": node, "state": state, "probability": float(p)})
    _emit(pd.DataFrame(rows), fmt, "posterior")
    if observed and fmt == "table":
        _out().print(f"P(evidence) = {np.exp(log_pe):.6g} (log {log_pe:.6f})")


def _evidence_pairs(evidence: str | None) -> dict[str, str]:
    """``--evidence NODE=STATE,NODE=STATE``: node -> state; a pair without ``=``, or a node
    given twice (even with the same state), refused by name."""
    observed: dict[str, str] = {}
    for item in (evidence or "").split(","):
        if not item.strip():
            continue
        node, sep, state = (part.strip() for part in item.partition("="))
        if not sep or not node or not state:
            msg = f"--evidence takes NODE=STATE pairs separated by commas, got {item!r}"
            raise _fail(msg)
        if node in observed:
            msg = (
                f"--evidence gives node {node!r} twice ({node}={observed[node]} and "
                f"{node}={state}): give each node one state"
            )
            raise _fail(msg)
        observed[node] = state
    return observed


def _map_query(network: Path, targets: list[str] | None, observed: dict[str, str],
               fmt: str, max_cells: int) -> None:  # fmt: skip
    """``network query --map``: the most probable joint state of ``targets`` (every unobserved
    node when None: MPE) given ``observed``, by variable elimination, with its probability
    given the evidence, ``P(x | e)``, and jointly with it, ``P(x, e) = P(x | e) P(e)``."""
    with _refusals():
        from bayeskit.networks import VariableElimination

        net = _read_network(network)
        engine = VariableElimination(net, max_cells=max_cells)
        log_pe = engine.probability_of_evidence(observed, log=True) if observed else 0.0
        result = engine.map_query(targets, observed)  # refuses evidence of probability zero
    kind = "MPE" if targets is None else "MAP"
    log_p = float(result.log_probability)
    log_joint = log_p + float(log_pe)
    p, joint = float(np.exp(log_p)), float(np.exp(log_joint))
    if fmt == "json":
        typer.echo(json.dumps({
            "query": kind,
            "assignment": {str(n): str(s) for n, s in result.assignment.items()},
            "evidence": observed,
            "probability_given_evidence": p,
            "log_probability_given_evidence": log_p,
            "joint_probability": joint,
            "log_joint_probability": log_joint,
            "probability_of_evidence": float(np.exp(log_pe)),
        }, indent=1))  # fmt: skip
        return
    frame = pd.DataFrame(
        {"node": [str(n) for n in result.assignment],
         "state": [str(s) for s in result.assignment.values()]}
    )  # fmt: skip
    if fmt == "csv":  # one record per node, the assignment's probabilities on each
        frame["probability_given_evidence"] = p
        frame["joint_probability"] = joint
        typer.echo(frame.to_csv(index=False, float_format="%.10g"), nl=False)
        return
    given = ", ".join(f"{k}={v}" for k, v in observed.items())
    which = "every unobserved node" if targets is None else ", ".join(result.assignment)
    out = _out()
    out.print(escape(f"{kind}: the most probable joint state of {which}"
                     + (f" given {given}" if observed else "")))  # fmt: skip
    _emit(frame, "table", kind)
    if observed:
        out.print(f"P(assignment | evidence) = {p:.6g} (log {log_p:.6f})")
        out.print(f"P(assignment, evidence) = {joint:.6g} (log {log_joint:.6f}), joint")
        out.print(f"P(evidence) = {np.exp(log_pe):.6g} (log {log_pe:.6f})")
    else:
        out.print(f"P(assignment) = {p:.6g} (log {log_p:.6f}); no evidence")


def main() -> None:
    """Entry point of the ``bayeskit`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
