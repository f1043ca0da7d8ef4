"""Commands ``hmm fit``, ``hmm decode``, ``hmm score`` and ``hmm sample``: hidden Markov
models (:class:`bayeskit.sequences.HiddenMarkovModel`) of a long table, one row per step, a
column naming each row's sequence, the rows of one sequence consecutive and in time order.

A categorical emission reads one column of symbols: its values, as text, are coded ``0 .. K-1``
in their order (numbers first, in numeric order, then text; :func:`bayeskit.factors.states.
state_order`), and the symbols are saved with the model (``symbols_``), so that ``decode``,
``score`` and ``sample`` read and write them the same way. The observation columns are saved
too (``feature_names_in_``): the other commands take them from DATA by name."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from bayeskit.cli._app import (
    MISSING_MARKS,
    _Data,
    _emit,
    _err,
    _fmt,
    _names,
    _note,
    _out,
    _refusals,
    hmm_app,
    np,
    pd,
    save_model,
)
from bayeskit.cli._data import _check_names, _chunked_file
from bayeskit.cli._hmm import (
    _as_text,
    _CodedChunks,
    _load_hmm,
    _model_data,
    _model_input,
    _observations,
    _read_long,
    _symbol_order,
    _whole_sequences,
    _write_table,
)

#: The emissions ``hmm fit`` offers (the library's others are fitted in Python).
FIT_EMISSIONS = ("gaussian", "categorical", "poisson")
#: The most per-sequence rows ``hmm score`` shows (``--output`` writes them all).
SHOWN_SEQUENCES = 20

_SequenceColumn = Annotated[
    str | None,
    typer.Option(
        "--sequence-column",
        "-s",
        metavar="COL",
        help="Column naming each row's sequence; the rows of one sequence must be consecutive "
        "and in time order (default: the model's; without one, all rows are one sequence).",
    ),
]
_Columns = Annotated[
    list[str] | None,
    typer.Option(
        "--columns",
        "-c",
        metavar="COL",
        help="Observation columns (repeatable, or a comma list; default: the model's, else "
        "every column but the sequence column).",
    ),
]
_ModelFile = Annotated[
    Path, typer.Argument(metavar="MODEL", help="Model file written by `bayeskit hmm fit`.")
]
_TableOut = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="CSV (or .parquet) file to write (default: standard output).",
    ),
]


# --------------------------------------------------------------------------------------------
# hmm fit
# --------------------------------------------------------------------------------------------


def _fit_chunked(
    model: Any, data: str, chunksize: int, sequence_column: str | None, columns: list[str]
) -> tuple[list[str], Any, float, int]:
    """``hmm fit --chunksize``: the symbols from a first pass (categorical), then
    ``fit_chunks``; the observation columns, the symbols, and the log-likelihood and the
    number of steps from a last pass."""
    from bayeskit.data import read_chunks

    path = _chunked_file(data, chunksize)
    if sequence_column is None:
        msg = "--chunksize reads sequences from a long table: give --sequence-column"
        raise typer.BadParameter(msg, param_hint="'--sequence-column'")
    with _refusals():
        chunks = read_chunks(path, chunksize, na_values=list(MISSING_MARKS), as_text=True)
        names = [str(c) for c in chunks.column_names()]
    frame = pd.DataFrame(columns=names)
    _check_names(frame, [sequence_column], "'--sequence-column'")
    cols = columns or [c for c in names if c != sequence_column]
    _check_names(frame, cols, "'--columns'")
    if sequence_column in cols:
        msg = f"{sequence_column!r} is the sequence column, so it cannot be an observation too"
        raise typer.BadParameter(msg, param_hint="'--columns'")
    _observations(frame, cols, model.emission, [])  # (no rows: checks the columns only)
    symbols = None
    with _refusals():
        chunks = chunks.select([sequence_column, *cols])
        if model.emission == "categorical":
            seen: set[str] = set()
            for part in chunks.select(cols[:1]):
                seen.update(v for v in _as_text(part.iloc[:, 0]) if v is not None)
            symbols = _symbol_order(seen)
            model.n_features = len(symbols)
        coded = _CodedChunks(chunks, sequence_column, cols, model.emission, symbols)
        model.fit_chunks(coded)
        log_likelihood, steps = 0.0, 0
        for piece in _whole_sequences(coded, sequence_column):
            log_likelihood += model.score(piece)
            steps += len(piece)
    return cols, symbols, log_likelihood, steps


_States = Annotated[
    int, typer.Option("--states", "-n", min=1, metavar="N", help="Number of hidden states.")
]
_Emission = Annotated[
    str,
    typer.Option(
        "--emission",
        "-e",
        metavar="NAME",
        help="P(observation | state): gaussian (numeric columns), categorical (one column of "
        "symbols) or poisson (counts).",
    ),
]
_CovarianceType = Annotated[
    str,
    typer.Option(
        "--covariance-type",
        metavar="TYPE",
        help="Gaussian covariances: diag, full, spherical or tied.",
    ),
]
_NIter = Annotated[
    int, typer.Option("--n-iter", min=1, metavar="N", help="The most Baum-Welch iterations.")
]
_Tol = Annotated[
    float,
    typer.Option(
        "--tol", min=0.0, metavar="X", help="Stop when the log-likelihood gains less than X."
    ),
]
_NInit = Annotated[
    int,
    typer.Option(
        "--n-init",
        min=1,
        metavar="N",
        help="Random starts; the fit of the best log-likelihood is kept.",
    ),
]
_FitSeed = Annotated[
    int, typer.Option("--seed", min=0, metavar="N", help="Seed of the random starts.")
]
_Chunksize = Annotated[
    int | None,
    typer.Option(
        "--chunksize",
        metavar="ROWS",
        help="Read DATA (a CSV or Parquet file) this many rows at a time and fit out of core "
        "(a pass over the file per iteration); needs --sequence-column.",
    ),
]


@hmm_app.command("fit")
def hmm_fit(
    data: _Data,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="Model file to write.")
    ],
    states: _States,
    sequence_column: _SequenceColumn = None,
    columns: _Columns = None,
    emission: _Emission = "gaussian",
    covariance_type: _CovarianceType = "diag",
    n_iter: _NIter = 10,
    tol: _Tol = 1e-2,
    n_init: _NInit = 1,
    seed: _FitSeed = 0,
    chunksize: _Chunksize = None,
) -> None:
    """Fit a hidden Markov model to the sequences of DATA by Baum-Welch and save it.

    DATA is a long table: one row per step, --sequence-column naming each row's sequence.
    Prints the number of states, the iterations, whether Baum-Welch converged, the
    log-likelihood of DATA and its BIC (lower is better: compare numbers of states with it)."""
    from bayeskit.sequences import COVARIANCE_TYPES, HiddenMarkovModel

    if emission not in FIT_EMISSIONS:
        msg = f"--emission must be one of {', '.join(FIT_EMISSIONS)}, got {emission!r}"
        raise typer.BadParameter(msg, param_hint="'--emission'")
    if covariance_type not in COVARIANCE_TYPES:
        msg = f"--covariance-type must be one of {', '.join(COVARIANCE_TYPES)}"
        raise typer.BadParameter(
            msg + f", got {covariance_type!r}", param_hint="'--covariance-type'"
        )
    model = HiddenMarkovModel(
        states, emission=emission, covariance_type=covariance_type, n_iter=n_iter, tol=tol,
        n_init=n_init, random_state=seed, sequence_column=sequence_column,
    )  # fmt: skip
    if chunksize is not None:
        cols, symbols, log_likelihood, steps = _fit_chunked(
            model, data, chunksize, sequence_column, _names(columns)
        )
        how = f"{escape(data)} in chunks of {chunksize:,} rows"
    else:
        frame, cols, where = _read_long(data, sequence_column, _names(columns) or None)
        symbols = None
        if emission == "categorical" and len(cols) == 1:
            symbols = _symbol_order(v for v in _as_text(frame[cols[0]]) if v is not None)
            model.n_features = max(len(symbols), 1)
        with _refusals():
            X = _model_input(
                frame, sequence_column, _observations(frame, cols, emission, symbols, where)
            )
            model.fit(X)
            log_likelihood, steps = model.score(X), len(X)
        how = escape(data)
    model.feature_names_in_ = np.array(cols, dtype=object)
    if symbols is not None:
        model.symbols_ = np.array(symbols, dtype=object)
    with _refusals():
        save_model(model, output)
    _fit_summary(model, how, log_likelihood, steps, output)


def _fit_summary(model: Any, how: str, log_likelihood: float, steps: int, output: Path) -> None:
    bic = -2.0 * log_likelihood + model.n_parameters() * float(np.log(max(steps, 1)))
    converged = "converged" if model.converged_ else "not converged"
    _out().print(
        f"fitted a hidden Markov model of {model.n_states} states ({model.emission} emission) "
        f"on {steps:,} steps of {how}; saved to {escape(str(output))}\n"
        f"  iterations      {model.n_iter_} ({converged})\n"
        f"  log-likelihood  {_fmt(log_likelihood)}\n"
        f"  BIC             {_fmt(bic)} ({model.n_parameters()} free parameters)"
    )
    if not model.converged_:
        _note(
            f"Baum-Welch stopped after --n-iter {model.n_iter} iterations, still gaining more "
            f"than --tol {model.tol}: raise --n-iter"
        )


# --------------------------------------------------------------------------------------------
# hmm decode, score, sample
# --------------------------------------------------------------------------------------------


@hmm_app.command("decode")
def hmm_decode(
    model_file: _ModelFile,
    data: _Data,
    sequence_column: _SequenceColumn = None,
    columns: _Columns = None,
    algorithm: Annotated[
        str | None,
        typer.Option(
            "--algorithm",
            "-a",
            metavar="NAME",
            help="viterbi (the most probable path of each sequence) or map (each step's most "
            "probable state); default: the model's.",
        ),
    ] = None,
    proba: Annotated[
        bool,
        typer.Option(
            "--proba", metavar="", help="Add a column proba_K per state: P(state = K | data)."
        ),
    ] = False,
    output: _TableOut = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Also draw the first sequence (its first observation column) with its decoded "
            "states and the state posteriors, to FILE (.png, .svg or .pdf).",
        ),
    ] = None,
) -> None:
    """The hidden state of every row of DATA, by a saved hidden Markov model: DATA's sequence
    column (if any) and a column state, in DATA's row order."""
    if algorithm is not None and algorithm not in ("viterbi", "map"):
        msg = f"--algorithm must be viterbi or map, got {algorithm!r}"
        raise typer.BadParameter(msg, param_hint="'--algorithm'")
    model = _load_hmm(model_file)
    frame, X, sequence_column = _model_data(model, data, sequence_column, columns)
    with _refusals():
        _, path = model.decode(X, algorithm=algorithm)
        result = pd.DataFrame({"state": path})
        if sequence_column is not None:
            result.insert(0, sequence_column, X[sequence_column].to_numpy())
        if proba:
            post = model.predict_proba(X)
            for k in range(model.n_states):
                result[f"proba_{k}"] = post[:, k]
        if plot is not None:
            _plot_first_sequence(model, X, sequence_column, path, plot)
    _write_table(result, output, "decoded steps")


def _plot_first_sequence(model, X, sequence_column, path, target: Path) -> None:
    """The first sequence's observations, decoded states and posteriors, saved to ``target``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bayeskit.plot import state_sequence

    if target.suffix.lower() not in (".png", ".svg", ".pdf"):
        msg = f"--plot writes .png, .svg or .pdf files, got {target.name!r}"
        raise typer.BadParameter(msg, param_hint="'--plot'")
    rows = len(X)
    if sequence_column is not None and rows:
        ids = X[sequence_column].to_numpy()
        rows = int(np.argmax(ids != ids[0])) or rows
    observed = X.drop(columns=[sequence_column]) if sequence_column is not None else X
    values = model.emission_distribution().check(observed.iloc[:rows])
    post = model.predict_proba(X.iloc[:rows])
    ax = state_sequence(np.asarray(values, dtype=float), states=path[:rows], posteriors=post)
    ax.set_title(f"first sequence ({rows} steps)")
    ax.figure.savefig(target, bbox_inches="tight")
    plt.close(ax.figure)
    _err().print(f"drew the first sequence to {escape(str(target))}")


@hmm_app.command("score")
def hmm_score(
    model_file: _ModelFile,
    data: _Data,
    sequence_column: _SequenceColumn = None,
    columns: _Columns = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="CSV (or .parquet) file to write the log-likelihood of every sequence to.",
        ),
    ] = None,
) -> None:
    """The log-likelihood of DATA's sequences under a saved hidden Markov model: the total,
    and a table of each sequence's (the first ones; --output writes them all)."""
    from bayeskit.sequences import forward_backward, log_frame

    model = _load_hmm(model_file)
    frame, X, sequence_column = _model_data(model, data, sequence_column, columns)
    with _refusals():
        total = model.score(X)  # (checks that each sequence's rows are consecutive)
        ids = X[sequence_column].to_numpy() if sequence_column is not None else np.zeros(len(X))
        starts = np.r_[0, np.flatnonzero(ids[1:] != ids[:-1]) + 1] if len(ids) else np.zeros(0)
        lengths = np.diff(np.r_[starts, len(ids)]).astype(np.intp)
        emission = model.emission_distribution()
        names = ("startprob_", "transmat_", *emission.parameter_names)
        params = {name: getattr(model, name) for name in names}
        observed = X.drop(columns=[sequence_column]) if sequence_column is not None else X
        log_p = log_frame(emission, params, emission.check(observed.to_numpy()))
        fb = forward_backward(
            model.startprob_, model.transmat_, log_p, lengths,
            implementation=model.implementation, posteriors=False, transitions=False,
        )  # fmt: skip
    name = sequence_column or "sequence"
    result = pd.DataFrame({
        name: ids[starts.astype(np.intp)] if sequence_column is not None else ["(all rows)"],
        "steps": lengths,
        "log_likelihood": fb.log_likelihood,
    })  # fmt: skip
    shown = result.head(SHOWN_SEQUENCES)
    more = len(result) - len(shown)
    caption = f"... and {more:,} more sequences (--output FILE writes them all)" if more else None
    _out().print(f"log-likelihood {_fmt(total)} of {len(X):,} steps in {len(result):,} sequence(s)")
    _emit(shown, "table", "per sequence", caption)
    if output is not None:
        _write_table(result, output, "sequences' log-likelihoods")


@hmm_app.command("sample")
def hmm_sample(
    model_file: _ModelFile,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="CSV (or .parquet) file.")
    ],
    length: Annotated[
        int, typer.Option("--length", "-T", min=1, metavar="T", help="Steps per sequence.")
    ],
    sequences: Annotated[
        int, typer.Option("--sequences", "-k", min=1, metavar="K", help="Number of sequences.")
    ] = 1,
    seed: Annotated[int, typer.Option("--seed", min=0, metavar="N", help="Seed.")] = 0,
) -> None:
    """Draw sequences from a saved hidden Markov model: a long table of the sequence, the step
    (0, 1, ...), the hidden state and the observation columns (symbols for a categorical
    emission), as DATA of `bayeskit hmm fit` reads it."""
    model = _load_hmm(model_file)
    names = getattr(model, "feature_names_in_", None)
    id_name = model.sequence_column or "sequence"
    rng = np.random.default_rng(seed)
    parts = []
    with _refusals():
        for k in range(sequences):
            X, z = model.sample(length, random_state=rng)
            cols = list(names) if names is not None else _default_names(X.shape[1])
            part = pd.DataFrame({id_name: k, "step": np.arange(length), "state": z})
            symbols = getattr(model, "symbols_", None)
            for j, col in enumerate(cols):
                values = X[:, j]
                if model.emission == "categorical" and symbols is not None:
                    values = np.asarray(symbols, dtype=object)[values.astype(np.intp)]
                elif model.emission == "poisson":
                    values = values.astype(np.int64)
                part[str(col)] = values
            parts.append(part)
        frame = pd.concat(parts, ignore_index=True)
    _write_table(frame, output, f"steps of {sequences:,} sequence(s)")


def _default_names(n: int) -> list[str]:
    return ["observation"] if n == 1 else [f"x{j}" for j in range(n)]
