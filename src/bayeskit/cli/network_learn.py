"""Commands ``network learn`` and ``network fit``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from bayeskit.cli._app import (
    _Data,
    _fail,
    _Ignore,
    _names,
    _note,
    _out,
    _refusals,
    _spinner,
    network_app,
    np,
    pd,
)
from bayeskit.cli._network import (
    _Alpha,
    _em_display,
    _Estimator,
    _is_json,
    _is_xml,
    _listed,
    _NetOut,
    _network_chunks,
    _network_data,
    _read_network,
    _write_network,
)
from bayeskit.cli.network_hybrid import _is_hybrid, fit_hybrid, hybrid_frame, learn_hybrid

# --------------------------------------------------------------------------------------------
# network learn
# --------------------------------------------------------------------------------------------

_Score = Annotated[str, typer.Option("--score", help="Structure score: bic, aic, k2, bdeu or ll.")]
_MaxParents = Annotated[
    int | None,
    typer.Option("--max-parents", min=0, help="The most parents a node may have."),
]
_Tabu = Annotated[int, typer.Option("--tabu", min=0, help="Tabu list length (0: none).")]
_Start = Annotated[
    str,
    typer.Option(
        "--start",
        help="Start of the climb: auto (the default: the best climb from "
        "greedy equivalence search's class and, for BIC, from the optima for AIC), "
        "ges, tree (Chow-Liu) or empty.",
    ),
]
_Tree = Annotated[bool, typer.Option("--tree", help="Chow-Liu tree: --method tree.")]
_LearnMethod = Annotated[
    str,
    typer.Option(
        "--method",
        "--algorithm",
        metavar="NAME",
        help="Structure learner by name: hill-climb (or hc, tabu: score-based climb with a "
        "tabu list), tree (Chow-Liu), pc (PC-stable: tests of independence), mmhc (the climb "
        "within the skeleton the tests find), ges (greedy equivalence search) or exact (the "
        "best-scoring DAG, up to about 25 columns); any learner registered in "
        "bayeskit.learning.STRUCTURE_LEARNERS.",
    ),
]
_Test = Annotated[
    str | None,
    typer.Option("--test", metavar="NAME", help="--method pc, mmhc: the test of independence, "
                 "g2 (default), x2, mi-sh or mc-mi."),
]  # fmt: skip
_Significance = Annotated[
    float | None,
    typer.Option("--significance-level", min=0.0, max=1.0, metavar="P", help="--method pc, "
                 "mmhc: a p-value above P counts as independence. Default 0.05."),
]  # fmt: skip
_MaxCond = Annotated[
    int | None,
    typer.Option("--max-cond", min=0, metavar="N", help="--method pc, mmhc: the largest "
                 "conditioning set tested. Default: no limit."),
]  # fmt: skip
_Chunksize = Annotated[
    int | None,
    typer.Option(
        "--chunksize",
        metavar="ROWS",
        help="Read DATA (a CSV or Parquet file) this many rows at a time: memory holds a "
        "chunk and the data's distinct rows, or, past --max-distinct-rows, a chunk and "
        "the counts of one climbing step (a pass over the file per step).",
    ),
]
_MaxDistinctRows = Annotated[
    int | None,
    typer.Option(
        "--max-distinct-rows",
        min=0,
        metavar="ROWS",
        help="With --chunksize: the most distinct rows held in memory (0: a pass per "
        "step from the start). Default 2,000,000.",
    ),
]
_Discretize = Annotated[
    str | None,
    typer.Option(
        "--discretize",
        metavar="METHOD[:BINS]",
        help="Bin the numeric columns that cannot be variables as they are (numbers not "
        "whole, or more than 32 distinct whole numbers): equal-frequency:5 or "
        'equal-width:N; their states are named as intervals, "(-inf, 2.5]", which '
        "XMLBIF holds (-o net.xml) and BIF does not.",
    ),
]
_Categorical = Annotated[
    list[str] | None,
    typer.Option(
        "--categorical",
        metavar="COL",
        help="Give COL a state per distinct value, whatever they are (repeatable, or a "
        "comma list).",
    ),
]
_Missing = Annotated[
    str | None,
    typer.Option(
        "--missing",
        metavar="HOW",
        help="Learn from DATA with missing values: em, Friedman's structural EM (EM fits "
        "the current DAG, the missing values are completed from it, a hill climb on the "
        "completed rows gives the next DAG, until it stays). Without it, missing values "
        "are refused.",
    ),
]
_SemMaxIter = Annotated[
    int | None,
    typer.Option(
        "--max-iter",
        min=1,
        metavar="N",
        help="With --missing em: the most structural EM iterations. Default 10.",
    ),
]
_Completions = Annotated[
    int | None,
    typer.Option(
        "--completions",
        min=1,
        metavar="N",
        help="With --missing em: completions drawn per incomplete row (more: less noise, "
        "more time). Default 5.",
    ),
]
_SemSeed = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        metavar="N",
        help="With --missing em: seed of EM's start and of the completions (the same "
        "seed, the same network). Default 0.",
    ),
]


@network_app.command("learn")
def network_learn(
    data: _Data,
    output: _NetOut,
    score: _Score = "bic",
    max_parents: _MaxParents = None,
    tabu: _Tabu = 10,
    start: _Start = "auto",
    method: _LearnMethod = "hill-climb",
    tree: _Tree = False,
    estimator: _Estimator = "bdeu",
    alpha: _Alpha = None,
    chunksize: _Chunksize = None,
    max_distinct_rows: _MaxDistinctRows = None,
    discretize: _Discretize = None,
    categorical: _Categorical = None,
    missing: _Missing = None,
    max_iter: _SemMaxIter = None,
    completions: _Completions = None,
    seed: _SemSeed = None,
    ignore: _Ignore = None,
    test: _Test = None,
    significance_level: _Significance = None,
    max_cond: _MaxCond = None,
) -> None:
    """Learn a Bayesian network from DATA (every column a variable) and write it; with
    --missing em, from DATA with missing values (structural EM).

    Whole numbers are states in numeric order; a column of numbers that are not whole, or of
    more than 32 distinct whole numbers, is refused by name: bin it with --discretize, or give
    it a state per value with --categorical."""
    if start not in ("auto", "ges", "tree", "empty"):
        msg = f"--start must be auto, ges, tree or empty, got {start!r}"
        raise _fail(msg)
    searched_by = "--tree" if tree else f"--method {method}"
    method = _method(method, tree)
    tests = {"test": test, "significance_level": significance_level, "max_cond_size": max_cond}
    tests = {k: v for k, v in tests.items() if v is not None}
    if tests and method not in ("pc", "mmhc"):
        msg = "--test, --significance-level and --max-cond go with --method pc or mmhc"
        raise _fail(msg)
    other = None if method == "hill-climb" else searched_by
    em = _check_missing_options(missing, chunksize=chunksize, other=other, max_iter=max_iter,
                                completions=completions, seed=seed)  # fmt: skip
    declared = _names(categorical)
    _check_discretize(discretize, chunksize)
    if _is_json(output) and discretize is None and chunksize is None:
        mixed = hybrid_frame(data, declared, ignore)
        if mixed is not None:  # numeric columns: continuous nodes
            if em or method not in ("hill-climb", "tree"):
                msg = (
                    f"{'--missing em' if em else searched_by} learns discrete networks only; "
                    "DATA has numeric columns, which a .json network keeps continuous (bin "
                    "them with --discretize for a discrete network)"
                )
                raise _fail(msg)
            net = learn_hybrid(
                mixed[0], mixed[1], method=method, score=score, estimator=estimator,
                alpha=alpha, max_parents=max_parents, tabu=tabu, start=start,
            )  # fmt: skip
            with _refusals():
                _write_network(net, output)
            _out().print(
                f"learned a network of {len(net.nodes)} nodes ({len(mixed[1])} continuous) and "
                f"{len(net.dag.edges)} edges ({net.n_parameters} parameters) from "
                f"{len(mixed[0])} rows; saved to {escape(str(output))}"
            )
            return
    frame, options, binned, holes, source = _learn_data(
        data, output, chunksize=chunksize, max_distinct_rows=max_distinct_rows,
        declared=declared, discretize=discretize, ignore=ignore, em=em,
    )  # fmt: skip
    with _refusals():
        if em:
            net, how = _structural_em(
                frame, holes, score=score, max_parents=max_parents, tabu=tabu, start=start,
                estimator=estimator, alpha=alpha, max_iter=max_iter, completions=completions,
                seed=seed,
            )  # fmt: skip
        else:
            how = ""
            net = _learn_complete(
                frame, {**options, **tests}, method=method, chunked=chunksize is not None,
                score=score, estimator=estimator, alpha=alpha, max_parents=max_parents,
                tabu=tabu, start=start,
            )  # fmt: skip
        _write_network(net, output)
    if binned:
        how = f" ({', '.join(binned)} binned {discretize})" + how
    _out().print(
        f"learned a network of {len(net.nodes)} nodes and {len(net.dag.edges)} edges "
        f"({net.n_parameters} parameters) from {source}{how}; saved to {escape(str(output))}"
    )


def _method(method: str, tree: bool) -> str:
    """``network learn``: the structure learner named by --method (or --tree), checked
    against the learners' registry."""
    from bayeskit.learning.learners import LEARNER_ALIASES, STRUCTURE_LEARNERS

    method = LEARNER_ALIASES.get(method, method)
    if tree and method not in ("hill-climb", "tree"):
        msg = f"--tree and --method {method} do not go together: --tree is --method tree"
        raise _fail(msg)
    method = "tree" if tree else method
    if method not in STRUCTURE_LEARNERS:
        names = ", ".join([*STRUCTURE_LEARNERS, *LEARNER_ALIASES])
        msg = f"--method must name a structure learner ({names}), got {method!r}"
        raise _fail(msg)
    return method


def _check_missing_options(missing: str | None, *, chunksize: int | None, other: str | None,
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
    if other is not None:  # a learner other than the hill climb: --tree or --method NAME
        msg = (
            f"--missing em and {other} do not go together: structural EM searches by hill "
            f"climbing; drop {other}"
        )
        raise _fail(msg)
    return True


def _check_discretize(discretize: str | None, chunksize: int | None) -> None:
    """``network learn --discretize``: its METHOD[:BINS] checked, and DATA read whole."""
    if discretize is None:
        return
    from bayeskit.factors.states import parse_discretize

    try:
        parse_discretize(discretize, "--discretize")
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if chunksize is not None:
        msg = "--discretize needs DATA read whole (its bins come from all rows): no --chunksize"
        raise _fail(msg)


def _learn_data(
    data: str, output: Path, *, chunksize: int | None, max_distinct_rows: int | None,
    declared: list[str], discretize: str | None, ignore: Any, em: bool,
) -> tuple[Any, dict[str, Any], list[str], dict[str, int], str]:  # fmt: skip
    """``network learn``: DATA read whole or in chunks; the options the learner takes for
    it, the columns --discretize binned, the missing values per column (read whole), and the
    words naming the source."""
    options: dict[str, Any] = {}
    if chunksize is not None:
        from bayeskit.learning.data_scorers import MAX_DISTINCT_ROWS

        frame, options["states"] = _network_chunks(data, chunksize, declared, ignore)
        limit = MAX_DISTINCT_ROWS if max_distinct_rows is None else max_distinct_rows
        options["max_distinct_rows"] = limit
        return frame, options, [], {}, f"{escape(data)} in chunks of {chunksize:,} rows"
    if max_distinct_rows is not None:
        msg = "--max-distinct-rows goes with --chunksize (DATA read whole is held anyway)"
        raise _fail(msg)
    frame, binned = _network_data(data, categorical=declared, discretize=discretize, ignore=ignore)
    if binned and not (_is_xml(output) or _is_json(output)):
        msg = (
            f"--discretize binned {', '.join(binned)}: their states are intervals such as "
            f"{frame[binned[0]].cat.categories[0]!r}, which BIF cannot hold (names are "
            "single words); write XMLBIF (-o FILE.xml) or JSON (-o FILE.json)"
        )
        raise _fail(msg)
    holes = {str(c): int(n) for c, n in frame.isna().sum().items() if n}
    if holes and not em:
        raise _fail(_missing_refusal(frame, holes))
    if em and not holes:
        _note("DATA has no missing values: structural EM is one hill climb on it")
    return frame, options, binned, holes, f"{len(frame)} rows"


def _missing_refusal(frame: pd.DataFrame, holes: dict[str, int]) -> str:
    """The refusal of DATA with missing values, ``holes`` (column -> how many), without
    --missing em: where the first one is, how many in which columns, and the option."""
    from bayeskit.data.rows import row_name

    first = next(iter(holes))
    where = row_name(frame.index, int(np.flatnonzero(frame[first].isna().to_numpy())[0]))
    shown_cols = _listed([f"{c!r} ({n})" for c, n in holes.items()])
    total, columns = sum(holes.values()), "columns" if len(holes) > 1 else "column"
    return (
        f"column {first!r} has a missing value ({where}): DATA has {total} missing "
        f"value{'s' * (total != 1)}, in {columns} {shown_cols}; the "
        "structure search needs complete data: pass --missing em to learn by structural EM, "
        "or drop the incomplete rows"
    )


def _learn_complete(frame: Any, options: dict[str, Any], *, method: str, chunked: bool,
                    score: str, estimator: str, alpha: float | None, max_parents: int | None,
                    tabu: int, start: str) -> Any:  # fmt: skip
    """``network learn`` on complete data: the hill climb with a live display of its moves,
    else the learner named by --method (given those of the climb's options it takes)."""
    from bayeskit.learning.learners import STRUCTURE_LEARNERS
    from bayeskit.networks import BayesianNetwork

    if method != "hill-climb":
        given = {"max_parents": max_parents, "tabu_length": tabu, "start": start}
        options = {**STRUCTURE_LEARNERS[method].taken(given), **options}
        return BayesianNetwork.learn(frame, method, score=score, estimator=estimator,
                                     alpha=alpha, **options)  # fmt: skip
    with _spinner() as bar:
        task = bar.add_task("hill climbing")

        def show(moves: int, total: float) -> None:
            text = f"hill climbing: {moves} moves, {score} {total:,.1f}"
            bar.update(task, description=text)

        try:
            return BayesianNetwork.learn(
                frame, "hill-climb", score=score, estimator=estimator, alpha=alpha,
                max_parents=max_parents, tabu_length=tabu, start=start, progress=show,
                **options,
            )  # fmt: skip
        except ValueError as exc:  # a chunk's missing value, found while counting
            if not chunked or "has a missing value" not in str(exc):
                raise
            msg = (
                f"{exc}: --missing em learns from missing values, with DATA read whole "
                "(no --chunksize)"
            )
            raise ValueError(msg) from None


def _structural_em(frame: pd.DataFrame, holes: dict[str, int], *, score: str,
                   max_parents: int | None, tabu: int, start: str, estimator: str,
                   alpha: float | None, max_iter: int | None, completions: int | None,
                   seed: int | None) -> tuple[Any, str]:  # fmt: skip
    """``network learn --missing em``: :func:`bayeskit.networks.structural_em` with a live
    display of its iterations; the network, and words saying how it was learned."""
    from bayeskit.networks import structural_em

    most = 10 if max_iter is None else max_iter
    with _spinner() as bar:
        task = bar.add_task("structural EM: iteration 1")

        def show(iteration: int, total: float) -> None:
            text = f"structural EM: iteration {iteration} of at most {most}, {score} {total:,.1f}"
            bar.update(task, description=text)

        result = structural_em(
            frame, score=score, max_parents=max_parents, tabu_length=tabu,
            start=[] if start == "empty" else None, max_iter=most,
            n_completions=5 if completions is None else completions, estimator=estimator,
            alpha=alpha, seed=0 if seed is None else seed, progress=show,
        )  # fmt: skip
    state = "converged" if result.converged else "stopped at --max-iter"
    n = result.n_iter
    where = (
        f"{sum(holes.values())} missing values in {len(holes)} of {frame.shape[1]} "
        "columns" if holes else "no missing values"
    )  # fmt: skip
    return result.network, f" by structural EM ({where}; {n} iteration{'s' * (n != 1)}, {state})"


# --------------------------------------------------------------------------------------------
# network fit
# --------------------------------------------------------------------------------------------

_Structure = Annotated[
    Path,
    typer.Option(
        "--structure",
        "-s",
        metavar="FILE",
        help="Network file whose structure (and states) to keep.",
    ),
]  # fmt: skip
_Method = Annotated[
    str,
    typer.Option(
        "--method",
        help="count (complete data), em, gradient (gradient ascent: Han, Kamber and Pei, "
        "Data Mining, 9.1.2), or auto: count when every node is observed in every row, "
        "else em. A node with no column in DATA is latent.",
    ),
]
_EmMaxIter = Annotated[int, typer.Option("--max-iter", min=1, help="EM: most iterations.")]
_Tol = Annotated[
    float,
    typer.Option(
        "--tol",
        help="EM: stop when the objective changes less than this, relative to its size.",
    ),
]  # fmt: skip
_Restarts = Annotated[
    int, typer.Option("--restarts", min=0, help="EM: extra random starts; the best is kept.")
]
_EmSeed = Annotated[int, typer.Option("--seed", min=0, help="EM: seed of the random starts.")]
_FromFile = Annotated[
    bool,
    typer.Option(
        "--from-file",
        help="EM: start from the file's CPTs (expert values) instead of random ones.",
    ),
]  # fmt: skip


@network_app.command("fit")
def network_fit(
    data: _Data,
    structure: _Structure,
    output: _NetOut,
    estimator: _Estimator = "bdeu",
    alpha: _Alpha = None,
    method: _Method = "auto",
    max_iter: _EmMaxIter = 100,
    tol: _Tol = 1e-8,
    restarts: _Restarts = 0,
    seed: _EmSeed = 0,
    from_file: _FromFile = False,
    ignore: _Ignore = None,
) -> None:
    """Fit the CPTs of a given structure to DATA and write the network; with missing values
    or latent nodes, by EM (a live display shows the log-likelihood)."""
    from bayeskit.networks import fit_parameters

    if method not in ("auto", "count", "em", "gradient"):
        msg = f"--method must be auto, count, em or gradient, got {method!r}"
        raise _fail(msg)
    given = _read_network(structure, "'--structure'")
    frame, _ = _network_data(data, check=False, ignore=ignore)  # the states are the file's
    latent, observed, holes = _fit_coverage(given, frame, data, structure)
    if method == "auto":
        method = "em" if latent or holes else "count"
    elif method == "count" and (latent or holes):
        msg = (
            f"DATA has {holes} missing values and no column for {sorted(map(str, latent))}: "
            "counting needs every node observed in every row; use --method em (or auto)"
        )
        raise _fail(msg)
    if _is_hybrid(given):
        with _refusals():
            net, how = fit_hybrid(
                given, frame[observed], method=method, latent=latent, holes=holes,
                estimator=estimator, alpha=alpha, from_file=from_file, max_iter=max_iter,
                tol=tol, restarts=restarts, seed=seed,
            )  # fmt: skip
            _write_network(net, output)
        _out().print(
            f"fitted {len(net.nodes)} distributions ({net.n_parameters} parameters) on "
            f"{len(frame)} rows{how}; saved to {escape(str(output))}"
        )
        return
    states = {n: given.states(n) for n in given.nodes}
    with _refusals():
        if method == "count":
            net = fit_parameters(
                given.dag, frame, estimator=estimator, alpha=alpha, states=states
            ).network
            how = ""
        else:
            result = _fit_em(
                given, frame, method=method, states={n: states[n] for n in observed},
                latent=latent, from_file=from_file, estimator=estimator, alpha=alpha,
                max_iter=max_iter, tol=tol, restarts=restarts, seed=seed,
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


def _fit_coverage(given: Any, frame: pd.DataFrame, data: str,
                  structure: Path) -> tuple[dict[str, Any], list[str], int]:  # fmt: skip
    """``network fit``: the network's nodes DATA has no column for (latent, with their
    states), those it has (refused when none), and the missing values in the latter."""
    latent = {n: None if _is_hybrid(given) and given.is_continuous(n) else given.states(n)
              for n in given.nodes if n not in frame.columns}  # fmt: skip
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
    return latent, observed, int(frame[observed].isna().to_numpy().sum())


def _fit_em(given: Any, frame: pd.DataFrame, *, method: str, states: dict[str, Any],
            latent: dict[str, Any], from_file: bool, **settings: Any) -> Any:  # fmt: skip
    """``network fit`` by EM or gradient ascent (``method``), with a live display of the
    log-likelihood; ``settings`` are :func:`bayeskit.networks.fit_em`'s own."""
    from bayeskit.networks import fit_em

    with _em_display(method) as show:
        return fit_em(
            given.dag, frame, states=states, latent=latent,
            start=given if from_file else None, progress=show, method=method, **settings,
        )  # fmt: skip
