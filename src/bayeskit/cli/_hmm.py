"""What the ``bayeskit hmm`` commands share: a long table's observations read and coded as a
hidden Markov model reads them (numbers, or a categorical column's symbols as codes), a saved
model loaded and checked, tables written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from bayeskit.cli._app import _err, _fail, _load_any, _names, _refusals, np, pd
from bayeskit.cli._data import _check_names, _parse_numbers, _read_table

#: The emissions of a model file the commands read: a column per feature, or symbols.
READ_EMISSIONS = ("gaussian", "categorical", "poisson", "gmm")


def _read_long(
    data: str, sequence_column: str | None, columns: list[str] | None
) -> tuple[pd.DataFrame, list[str], Any]:
    """DATA's cells (text for a CSV file), the observation columns (checked) and the function
    naming a row (its line) for messages."""
    table = _read_table(data)
    frame = table.raw if table.raw is not None else table.frame
    if sequence_column is not None and sequence_column not in frame.columns:
        msg = (
            f"unknown sequence column {sequence_column!r}; columns: "
            f"{', '.join(map(str, frame.columns))}"
        )
        raise typer.BadParameter(msg, param_hint="'--sequence-column'")
    cols = list(columns or [c for c in frame.columns if c != sequence_column])
    _check_names(frame, cols, "'--columns'")
    if sequence_column in cols:
        msg = f"{sequence_column!r} is the sequence column, so it cannot be an observation too"
        raise typer.BadParameter(msg, param_hint="'--columns'")
    if not cols:
        msg = "DATA has no observation column besides the sequence column"
        raise typer.BadParameter(msg, param_hint="'DATA'")
    return frame, cols, table.where


def _as_text(s: pd.Series) -> pd.Series:
    """A column's values as text (pandas' own, so 1.0 stays "1.0"), missing as None."""
    text = s.astype("string")
    return text.astype(object).where(text.notna(), None)


def _symbol_order(values: Any) -> list[str]:
    from bayeskit.factors.states import state_order

    return state_order({str(v) for v in values})


def _observations(
    frame: pd.DataFrame, cols: list[str], emission: str, symbols: Any, where: Any = None
) -> pd.DataFrame:
    """The observation columns as the model reads them: numbers (NaN missing), or for a
    categorical emission one column of symbol codes (-1 missing), coded by ``symbols``."""
    if emission == "categorical":
        if len(cols) != 1:
            msg = (
                f"a categorical emission reads one column of symbols, got {len(cols)} "
                f"({', '.join(cols)}): choose one with --columns"
            )
            raise typer.BadParameter(msg, param_hint="'--columns'")
        return pd.DataFrame({cols[0]: _codes(frame[cols[0]], cols[0], symbols, where)})
    out = {}
    for name in cols:
        s = frame[name]
        if pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype):
            out[name] = s.to_numpy(dtype=np.float64)
            continue
        numbers = _parse_numbers(s)
        bad = numbers.isna() & s.notna()
        if bad.any():
            label = bad[bad].index[0]
            at = f" ({where(label)})" if where is not None else ""
            msg = (
                f"column {name!r} holds {str(s[label])!r}{at}, not a number: a {emission} "
                "emission reads numbers (--emission categorical reads one column of symbols)"
            )
            raise ValueError(msg)
        out[name] = numbers.to_numpy(dtype=np.float64)
    return pd.DataFrame(out, index=frame.index)


def _codes(s: pd.Series, name: str, symbols: Any, where: Any) -> np.ndarray:
    """A column of symbols as codes into ``symbols`` (-1 where missing); a value the model does
    not know is refused, naming it."""
    text = _as_text(s)
    lookup = {sym: k for k, sym in enumerate(symbols)}
    codes = np.array([lookup.get(v, -2) if v is not None else -1 for v in text], dtype=np.int64)
    unknown = codes == -2
    if unknown.any():
        first = int(np.flatnonzero(unknown)[0])
        at = f" ({where(s.index[first])})" if where is not None else ""
        msg = (
            f"column {name!r} holds {text.iloc[first]!r}{at}, not one of the model's "
            f"{len(symbols)} symbols ({', '.join(list(symbols)[:10])})"
        )
        raise ValueError(msg)
    return codes


def _model_input(
    frame: pd.DataFrame, sequence_column: str | None, obs: pd.DataFrame
) -> pd.DataFrame:
    """The frame the model reads: the sequence column (its values as text) and the
    observations."""
    if sequence_column is None:
        return obs.reset_index(drop=True)
    ids = _as_text(frame[sequence_column]).reset_index(drop=True)
    return pd.concat([ids.rename(sequence_column), obs.reset_index(drop=True)], axis=1)


def _load_hmm(path: Path) -> Any:
    """The hidden Markov model in a model file; a missing file, another kind of model or an
    emission the command line cannot read refused by a clear message."""
    from bayeskit.sequences import HiddenMarkovModel

    if not path.is_file():
        msg = f"no model file at {path}"
        raise typer.BadParameter(msg, param_hint="'MODEL'")
    with _refusals():
        model = _load_any(path)
    if not isinstance(model, HiddenMarkovModel):
        msg = (
            f"{path} holds a {type(model).__name__}, not a hidden Markov model: use it with "
            "bayeskit predict; bayeskit hmm reads files written by bayeskit hmm fit (or by "
            "bayeskit.save of a HiddenMarkovModel)"
        )
        raise _fail(msg)
    if model.emission not in READ_EMISSIONS:
        msg = (
            f"{path} holds a hidden Markov model with emission {model.emission!r}, which the "
            f"command line does not read ({', '.join(READ_EMISSIONS)}); use it in Python"
        )
        raise _fail(msg)
    return model


def _model_data(
    model: Any, data: str, sequence_column: str | None, columns: list[str] | None
) -> tuple[pd.DataFrame, pd.DataFrame, str | None]:
    """DATA read for a saved model: its cells, the model's input and the sequence column."""
    sequence_column = sequence_column or model.sequence_column
    given = _names(columns)
    if not given and getattr(model, "feature_names_in_", None) is not None:
        given = [str(c) for c in model.feature_names_in_]
    frame, cols, where = _read_long(data, sequence_column, given or None)
    symbols = getattr(model, "symbols_", None)
    if model.emission == "categorical" and symbols is None:  # fitted in Python: codes
        n = int(np.shape(model.emissionprob_)[1])
        symbols = [str(k) for k in range(n)]
    with _refusals():
        obs = _observations(frame, cols, model.emission, symbols, where)
    model.sequence_column = sequence_column
    return frame, _model_input(frame, sequence_column, obs), sequence_column


def _write_table(frame: pd.DataFrame, output: Path | None, what: str) -> None:
    """``frame`` as CSV on standard output, or to ``output`` (Parquet for .parquet, .pq)."""
    if output is None:
        typer.echo(frame.to_csv(index=False), nl=False)
        return
    with _refusals():
        if output.suffix.lower() in (".parquet", ".pq"):
            frame.to_parquet(output, index=False)
        else:
            frame.to_csv(output, index=False)
    _err().print(f"wrote {len(frame):,} {what} to {escape(str(output))}")


class _CodedChunks:
    """A file's chunks as the model reads them (sequence column and coded observations);
    re-iterable, as Baum-Welch reads the file once per iteration."""

    def __init__(
        self, chunks: Any, sequence_column: str, cols: list[str], emission: str, symbols: Any
    ) -> None:
        self.chunks, self.sequence_column, self.cols = chunks, sequence_column, cols
        self.emission, self.symbols = emission, symbols

    def __iter__(self):
        for chunk in self.chunks:
            obs = _observations(chunk, self.cols, self.emission, self.symbols)
            yield _model_input(chunk, self.sequence_column, obs)


def _whole_sequences(frames: Any, sequence_column: str):
    """Frames of whole sequences: the last sequence of a chunk is held back and joined to the
    start of the next."""
    carry = None
    for frame in frames:
        if carry is not None:
            frame = pd.concat([carry, frame], ignore_index=True)
        if not len(frame):
            continue
        ids = frame[sequence_column].to_numpy()
        last = np.flatnonzero(ids != ids[-1])
        tail = int(last[-1]) + 1 if len(last) else 0
        carry = frame.iloc[tail:]
        if tail:
            yield frame.iloc[:tail]
    if carry is not None and len(carry):
        yield carry
