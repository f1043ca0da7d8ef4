"""Commands ``network show`` and ``network query``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from bayeskit.cli._app import (
    _check_format,
    _emit,
    _fail,
    _Format,
    _out,
    _refusals,
    network_app,
    np,
    pd,
)
from bayeskit.cli._network import _read_network
from bayeskit.cli.network_hybrid import _is_hybrid, query_hybrid, show_rows


@network_app.command("show")
def network_show(
    network: Annotated[Path, typer.Argument(metavar="NETWORK", help="A .bif, .xml or .json file.")],
    plot: Annotated[
        Path | None,
        typer.Option("--plot", metavar="PNG", help="Also draw the DAG to this image."),
    ] = None,
) -> None:
    """Summarise a network file: its size and each node's kind, states and parents."""
    with _refusals():
        net = _read_network(network)
    dag = net.dag
    degrees = [len(dag.parents(n)) for n in dag.nodes]
    _out().print(
        f"{escape(str(network))}: {len(dag.nodes)} nodes, {len(dag.edges)} edges, "
        f"{net.n_parameters} parameters, max in-degree {max(degrees, default=0)}, "
        f"roots: {escape(', '.join(map(str, dag.roots())))}"
    )
    _emit(show_rows(net), "table", "nodes")
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
    network: Annotated[Path, typer.Argument(metavar="NETWORK", help="A .bif, .xml or .json file.")],
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
        typer.Option(
            "--evidence",
            "-e",
            help="Observed states: NODE=STATE,NODE=STATE,... (a number for a continuous node).",
        ),
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
    state instead. A continuous node's posterior is its mean and standard deviation.

    Evidence of probability zero under the network has no posterior: it is refused (exit 1).
    """
    _check_format(fmt)
    if not target and not map_:
        msg = "name a node to give the posterior of (--target NODE), or pass --map"
        raise typer.BadParameter(msg, param_hint="'--target'")
    observed = _evidence_pairs(evidence)
    with _refusals():
        net = _read_network(network)
    if _is_hybrid(net):
        if map_:
            msg = "--map answers discrete networks only; this one has continuous nodes"
            raise _fail(msg)
        query_hybrid(net, list(target or ()), observed, fmt)
        return
    if map_:
        _map_query(net, target or None, observed, fmt, max_cells)
        return
    with _refusals():
        from bayeskit.networks import ExactInference

        exact = ExactInference(net, max_cells=max_cells)
        log_pe = exact.probability_of_evidence(observed, log=True) if observed else 0.0
        rows = []
        for node in target or ():  # (some node: checked above)
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


def _map_query(net: Any, targets: list[str] | None, observed: dict[str, str],
               fmt: str, max_cells: int) -> None:  # fmt: skip
    """``network query --map``: the most probable joint state of ``targets`` (every unobserved
    node when None: MPE) given ``observed``, by variable elimination, with its probability
    given the evidence, ``P(x | e)``, and jointly with it, ``P(x, e) = P(x | e) P(e)``."""
    with _refusals():
        from bayeskit.networks import VariableElimination

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
