"""Commands ``show`` and ``explain`` of a fitted classifier."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from bayeskit._models import MODEL_CLASSES
from bayeskit.cli._app import (
    _check_format,
    _Data,
    _emit,
    _Encoding,
    _err,
    _fail,
    _Format,
    _Ignore,
    _IgnoredTarget,
    _names,
    _NaValues,
    _out,
    _plain,
    _refusals,
    app,
    load_model,
    np,
    pd,
)
from bayeskit.cli._data import _read_table, _Table
from bayeskit.cli._inputs import _model_features

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
    facts: dict[str, Any] = {}
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


_Plot = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        metavar="PNG",
        help="Also draw the model as a Bayesian network (naive Bayes, TAN, SPODE, KDB, "
        "selective KDB, network) to this image.",
    ),
]


@app.command()
def show(model_file: _ModelFile, plot: _Plot = None, fmt: _Format = "table") -> None:
    """Show what a saved classifier is: its model and parameters, the classes and their prior,
    each feature's kind and states (or bins), its structure, the training rows."""
    _check_format(fmt)
    estimator, name = _load(model_file)
    net, node = _network_form(estimator, name) if plot is not None else (None, None)
    doc, prior, counts, parents = _model_facts(estimator, name, model_file)
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
                for f in doc["features"]
            ]
        )
        typer.echo(frame.to_csv(index=False), nl=False)
    else:
        _print_model(doc, estimator, prior, counts, parents)
    if plot is not None:  # (net, node: its network form, found above)
        _draw_network(net, getattr(estimator, "class_node", None) or node, plot)


def _network_form(estimator: Any, name: str) -> tuple[Any, str]:
    """``show --plot``: the model as a Bayesian network, and the name its class node has in it
    (``class``, with ``_`` added while a feature has that name)."""
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
    return net, node


def _model_facts(estimator: Any, name: str, model_file: Path) -> tuple[dict, Any, Any, Any]:
    """``show``: the document of what the model is (as ``--format json`` writes it), the class
    prior, the training rows per class, and each feature's parents (None: no one structure)."""
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
    doc = {
        "file": str(model_file),
        "model": name,
        "class": type(estimator).__name__,
        "parameters": {k: _json_value(v) for k, v in estimator.get_params().items()},
        "training_rows": n_rows,
        "classes": [
            {"class": c, "prior": float(p), "rows": int(n) if n == int(n) else float(n)}
            for c, p, n in zip(classes, prior, counts, strict=True)
        ],
        "features": features,
        "left_out": list(schema_.ignored),
        "fitted": _json_value(_fitted_facts(estimator)),
    }
    return doc, prior, counts, parents


def _print_model(doc: dict, estimator: Any, prior: Any, counts: Any, parents: Any) -> None:
    """``show`` as tables: a line on the model, its parameters and fitted facts, the classes,
    and the features."""
    name, features, params = doc["model"], doc["features"], doc["parameters"]
    out = _out()
    out.print(
        f"{escape(doc['file'])}: [bold]{name}[/] ({type(estimator).__name__}), fitted "
        f"on {doc['training_rows']:,} rows, {len(features)} features, "
        f"{len(doc['classes'])} classes"
    )
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    out.print(f"parameters: {escape(shown)}")
    facts = ", ".join(f"{k}={v}" for k, v in doc["fitted"].items())
    if facts:
        out.print(f"fitted: {escape(facts)}")
    if doc["left_out"]:
        out.print(f"left out (identifiers): {escape(', '.join(doc['left_out']))}")
    _emit(
        pd.DataFrame(
            {
                "class": [str(c["class"]) for c in doc["classes"]],
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


def _draw_network(net: Any, class_node: Any, plot: Path) -> None:
    """``show --plot``: the network drawn to ``plot``, its class node highlighted."""
    with _refusals():
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from bayeskit.plot import network as draw

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


_Row = Annotated[
    list[str] | None,
    typer.Option(
        "--row",
        "-r",
        metavar="N",
        help="Explain the row on line N of DATA (the header is line 1; for an ARFF file "
        "or a bundled data set, row number N from 0); repeatable, or a comma list. "
        "Default: every row.",
    ),
]
_Top = Annotated[
    int | None,
    typer.Option("--top", min=1, metavar="K", help="Show the K features of largest evidence only."),
]


@app.command()
def explain(
    model_file: _ModelFile,
    data: _Data,
    row: _Row = None,
    top: _Top = None,
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
    explained = _explained(estimator, X, _chosen_rows(row, X, table), top)
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
    _print_explained(explained, table)


def _explained(estimator: Any, X: pd.DataFrame, chosen: list, top: int | None) -> list[dict]:
    """``explain``: for each chosen row, its predicted class, that class's probability, and
    each feature's evidence for it, largest first (the ``top`` largest only)."""
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
    return explained


def _print_explained(explained: list[dict], table: _Table) -> None:
    """``explain`` as tables: one per row, then a line on what evidence is."""
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
