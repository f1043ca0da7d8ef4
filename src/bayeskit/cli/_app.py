"""The typer apps of the ``bayeskit`` command line, their shared options, output and error
display, progress lines, and the lazily imported library names the commands use."""

from __future__ import annotations

import importlib
import json
import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
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
_load_any = _on_call("bayeskit.io", "load")
save_model = _on_call("bayeskit.io", "save")


def load_model(path: Any) -> Any:
    """A saved classifier; a hidden Markov model's file is refused, naming its commands."""
    model = _load_any(path)
    if type(model).__name__ == "HiddenMarkovModel":
        msg = (
            f"{path} holds a hidden Markov model: use bayeskit hmm decode, bayeskit hmm score "
            "or bayeskit hmm sample"
        )
        raise typer.BadParameter(msg, param_hint="'MODEL'")
    return model


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

    params: list[Any]  # (the command's)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _plain_help(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]  # the command's, after it
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


# ------------------------------------------------------------------ networks
network_app = _Typer(
    help="Bayesian networks: learn one from data, fit a given structure, show a network file.",
    no_args_is_help=True,
)
app.add_typer(network_app, name="network")

# ------------------------------------------------------------------ hidden Markov models
hmm_app = _Typer(
    help="Hidden Markov models of sequences in a long table: fit, decode, score, sample.",
    no_args_is_help=True,
)
app.add_typer(hmm_app, name="hmm")
