"""Networks with continuous nodes on the command line: ``network learn`` writing a .json
network when DATA has numeric columns, ``network fit`` of a .json network's structure,
``network query`` and ``network show`` of one."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from bayeskit.cli._app import _emit, _fail, _out, _refusals, _spinner, np, pd
from bayeskit.cli._data import _read_table
from bayeskit.cli._network import _em_display, _network_states, _network_text


def _is_hybrid(net: Any) -> bool:
    return hasattr(net, "continuous_nodes")


def hybrid_frame(data: str, declared: list[str], ignore: Any) -> tuple[pd.DataFrame, list] | None:
    """DATA typed by the one column rule for a network with continuous nodes: its numeric
    columns (not --categorical) as numbers, the others as text states (checked as a discrete
    network's are); None when no column is numeric."""
    from bayeskit.data.kinds import NUMERIC

    table = _read_table(data, categorical=declared, ignore=ignore)
    frame = table.frame
    continuous = [c for c in frame.columns if table.kinds.get(c) == NUMERIC]
    if not continuous:
        return None
    text = _network_text(table.raw if table.raw is not None else frame)
    out = pd.DataFrame({c: frame[c] if c in continuous else text[c] for c in text.columns})
    for name in out.columns:
        if name in declared:
            out[name] = pd.Categorical(out[name])
        elif name not in continuous:
            _network_states(name, out[name].dropna().unique())
    return out, continuous


def learn_hybrid(frame: pd.DataFrame, continuous: list, *, method: str, score: str,
                 estimator: str, alpha: float | None, max_parents: int | None, tabu: int,
                 start: str) -> Any:  # fmt: skip
    """``network learn`` on DATA with numeric columns: the structure by the climb (or the
    tree), conditional linear Gaussian families for the numeric columns, then the fit."""
    from bayeskit.learning import hill_climb, learn_tree
    from bayeskit.learning.parameters import column_states
    from bayeskit.networks import HybridNetwork

    holes = {str(c): int(n) for c, n in frame.isna().sum().items() if n}
    if holes:
        first = next(iter(holes))
        msg = (
            f"column {first!r} has {holes[first]} missing values: learning the structure of a "
            "network with continuous columns needs complete rows; drop the incomplete rows, "
            "or learn from the complete ones and fit the structure to all of them with "
            "`bayeskit network fit --structure NET.json` (EM)"
        )
        raise _fail(msg)
    states = {c: column_states(frame, c, None) for c in frame.columns if c not in continuous}
    with _refusals(), _spinner() as bar:
        bar.add_task(f"learning the structure ({len(continuous)} continuous columns)")
        if method == "tree":
            dag = learn_tree(frame, score if score != "bic" else "ll", states=states)
        else:
            dag = hill_climb(frame, score, max_parents=max_parents, tabu_length=tabu,
                                  start=start, states=states)  # fmt: skip
        return HybridNetwork.fit(
            dag, frame, continuous=continuous, states=states, estimator=estimator,
            alpha=1.0 if alpha is None else alpha,
        )  # fmt: skip


def fit_hybrid(given: Any, frame: pd.DataFrame, *, method: str, latent: dict, holes: int,
               estimator: str, alpha: float | None, from_file: bool,
               **settings: Any) -> tuple[Any, str]:  # fmt: skip
    """``network fit`` of a network with continuous nodes to ``frame`` (its observed nodes'
    columns): counts and moments (``method="count"``), or EM with missing values or
    ``latent`` nodes (node -> states, None for a continuous one); the network and the words
    saying how."""
    from bayeskit.networks import HybridNetwork, fit_hybrid_em

    if method == "gradient":
        msg = (
            "--method gradient fits discrete networks only; a network with continuous nodes "
            "is fitted by counting or EM"
        )
        raise _fail(msg)
    continuous = [n for n in given.continuous_nodes if n in frame.columns]
    states = {n: given.states(n) for n in given.discrete_nodes if n in frame.columns}
    a = 1.0 if alpha is None else alpha
    if method == "count":
        net = HybridNetwork.fit(given.dag, frame, continuous=continuous, states=states,
                                estimator=estimator, alpha=a)  # fmt: skip
        return net, ""
    with _em_display("em") as show:
        result = fit_hybrid_em(
            given.dag, frame, continuous=continuous, states=states, latent=latent,
            start=given if from_file else None, estimator=estimator, alpha=a, progress=show,
            **settings,
        )  # fmt: skip
    state = "converged" if result.converged else "stopped at --max-iter"
    how = (
        f" by EM ({holes} missing values, latent nodes: {len(latent)}; {result.n_iter} "
        f"iterations, {state}, log-likelihood {result.history[-1]:,.3f})"
    )
    return result.network, how


def show_rows(net: Any) -> pd.DataFrame:
    """``network show``'s table of nodes: kind, states (a discrete node's), parents."""
    hybrid = _is_hybrid(net)
    rows = []
    for n in net.dag.nodes:
        row: dict[str, Any] = {"node": str(n)}
        if hybrid:
            row["kind"] = "continuous" if net.is_continuous(n) else "discrete"
        row["states"] = "" if hybrid and net.is_continuous(n) else len(net.states(n))
        row["parents"] = ", ".join(map(str, net.dag.parents(n)))
        rows.append(row)
    return pd.DataFrame(rows)


def query_hybrid(net: Any, targets: list[str], observed: dict[str, str], fmt: str) -> None:
    """``network query`` of a network with continuous nodes: each discrete target's posterior
    distribution, each continuous one's posterior mean and standard deviation (of the
    mixture), and ``log p(evidence)`` (a density with continuous evidence)."""
    from bayeskit.inference import MixturePosterior
    from bayeskit.networks import HybridInference

    evidence: dict[str, Any] = {}
    for node, value in observed.items():
        if node in net.nodes and net.is_continuous(node):
            try:
                evidence[node] = float(value)
            except ValueError:
                msg = f"--evidence {node}={value}: {node!r} is continuous and takes a number"
                raise _fail(msg) from None
        else:
            evidence[node] = value
    rows: list[dict[str, Any]] = []
    with _refusals():
        engine = HybridInference(net)
        log_pe = engine.log_probability_of_evidence(evidence) if evidence else 0.0
        for node in targets:
            posterior = engine.query([node], evidence)
            if isinstance(posterior, MixturePosterior):
                sd = float(np.sqrt(posterior.covariance[0, 0]))
                rows.append({"node": node, "mean": float(posterior.mean[0]), "sd": sd})
            else:
                for state, p in zip(posterior.states[node], posterior.values, strict=True):
                    rows.append({"node": node, "state": state, "probability": float(p)})
    frame = pd.DataFrame(rows)
    _emit(frame.fillna("") if fmt == "table" else frame, fmt, "posterior")
    if evidence and fmt == "table":
        continuous = any(net.is_continuous(n) for n in evidence if n in net.nodes)
        what = "p(evidence), a density" if continuous else "P(evidence)"
        _out().print(escape(f"{what} = {np.exp(log_pe):.6g} (log {log_pe:.6f})"))
