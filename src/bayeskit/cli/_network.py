"""What the ``bayeskit network`` commands share: a data file read as categorical variables,
network files read and written, shared options."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from bayeskit.cli._app import MISSING_MARKS, _fail, _names, _refusals, _spinner, pd
from bayeskit.cli._data import _check_names, _chunked_file, _read_table

#: A column of text with more distinct values than this is refused unless declared
#: --categorical (a column of numbers follows the library's rule, bayeskit.factors.states:
#: whole numbers up to 32 distinct, others binned with --discretize).
MAX_NETWORK_STATES = 64


def _network_data(data: str, *, categorical: Any = (), discretize: str | None = None,
                  check: bool = True, ignore: Any = None,
                  ) -> tuple[pd.DataFrame, list[str]]:  # fmt: skip
    """DATA's columns, every one a categorical variable (values as text), and the columns
    --discretize binned (states named as intervals). With ``check`` (network learn), every
    column's states are checked (:func:`_network_states`); the --categorical columns get a
    state per value, as categoricals."""
    from bayeskit.factors.states import discretize_frame, state_order

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
    """A column of numbers the library refuses (:class:`bayeskit.factors.states.
    NumericColumnError`), with the command line's ways out."""
    msg = (
        f"{exc.problem}: a network variable needs a few named states; bin it with --discretize "
        f"equal-frequency:5 (or equal-width:N), pass --categorical {exc.column} for a state "
        "per value, or write a .json network (-o NET.json) to keep it a continuous node"
    )
    return typer.BadParameter(msg, param_hint="'DATA'")


def _network_states(name: str, values: Any) -> tuple[str, ...]:
    """A column's states by the library's one rule (:func:`bayeskit.factors.states.
    node_states`: whole numbers in numeric order; numbers not whole, or more than 32 whole
    ones, refused), and a column of text with more than :data:`MAX_NETWORK_STATES` values
    refused too; each refusal with the command line's ways out."""
    from bayeskit.factors.states import NumericColumnError, node_states

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
    from bayeskit.factors.states import NumericColumnError
    from bayeskit.learning.parameters import gather_states

    path = _chunked_file(data, chunksize)
    with _refusals():
        chunks: Any = read_chunks(path, chunksize, na_values=list(MISSING_MARKS), as_text=True)
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
            states = gather_states(names, chunks, None, declared=set(categorical))
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


@contextmanager
def _em_display(method: str) -> Iterator[Callable[[int, float], None]]:
    """A live line for EM (``method`` names it): yields the ``progress(iteration,
    log_likelihood)`` callback that every network fit by EM reports to."""
    with _spinner() as bar:
        task = bar.add_task(method)

        def show(iteration: int, log_likelihood: float) -> None:
            text = f"{method}: iteration {iteration}, log-likelihood {log_likelihood:,.3f}"
            bar.update(task, description=text)

        yield show


def _is_xml(path: Path) -> bool:
    return any(part in (".xml", ".xmlbif", ".bifxml") for part in path.suffixes)


def _is_json(path: Path) -> bool:
    return ".json" in path.suffixes


def _read_network(path: Path, hint: str = "'NETWORK'"):
    """The network in a .bif, .xml or .json file (any .gz), as every network command reads
    it: a missing file or a directory refused as a bad ``hint``, a file that holds no network
    as one line naming it (exit 1), never a traceback."""
    from bayeskit.networks import read_bif, read_json, read_xmlbif

    if path.is_dir():
        msg = f"{path} is a directory, not a network file (.bif, .xml or .json, any .gz)"
        raise typer.BadParameter(msg, param_hint=hint)
    if not path.is_file():
        msg = f"file not found: {path}"
        raise typer.BadParameter(msg, param_hint=hint)
    try:
        if _is_json(path):
            return read_json(path)
        return (read_xmlbif if _is_xml(path) else read_bif)(path)
    except (ValueError, OSError) as exc:
        msg = f"{path} is no network file that can be read: {exc}"
        raise _fail(msg) from None


def _listed(names: Any, most: int = 10) -> str:
    """Names as a comma list, the first ``most`` of them and how many more."""
    from bayeskit._text import first_few  # here: the command line starts without numpy

    return first_few(names, most)


def _write_network(net: Any, path: Path) -> None:
    from bayeskit.networks import write_bif, write_json, write_xmlbif

    if _is_json(path):
        write_json(net, path)
    elif hasattr(net, "continuous_nodes"):
        msg = (
            f"{path}: BIF and XMLBIF hold discrete networks only, and this one has continuous "
            "nodes; write it as JSON (-o NET.json)"
        )
        raise _fail(msg)
    else:
        (write_xmlbif if _is_xml(path) else write_bif)(net, path)


_NetOut = Annotated[
    Path,
    typer.Option("--output", "-o", metavar="FILE", help="Network file to write: .bif, .xml "
                 "(XMLBIF), or .json (any node type: numeric columns become continuous "
                 "nodes), any with .gz."),
]  # fmt: skip
_Estimator = Annotated[
    str,
    typer.Option("--estimator", help="CPT estimator: mle, lidstone, laplace, m-estimate, "
                 "dirichlet-map, lidstone-where-zero, bdeu, k2, hierarchical or "
                 "hierarchical-gibbs (EM over missing values takes the first seven but "
                 "lidstone-where-zero)."),
]  # fmt: skip
_Alpha = Annotated[
    float | None,
    typer.Option("--alpha", help="Lidstone's pseudo-count or BDeu's equivalent sample size."),
]
