"""Networks of any node type in JSON: read and write.

BIF and XMLBIF hold discrete networks only; this format holds a
:class:`~bayeskit.networks.HybridNetwork` (tables, linear-Gaussian and conditional linear
Gaussian nodes) and reads back exactly what was written (every number printed with ``repr``).
The document is one object::

    {"format": "bayeskit-network", "version": 1, "nodes": [
        {"name": "dose", "kind": "discrete", "states": ["high", "low"], "parents": [],
         "table": [0.4, 0.6]},
        {"name": "weight", "kind": "continuous", "parents": [],
         "intercept": 70.0, "coefficients": [], "variance": 100.0},
        {"name": "response", "kind": "continuous", "parents": ["dose", "weight"],
         "intercept": [5.0, 1.0], "coefficients": [[0.2], [0.05]], "variance": [1.0, 1.0]}]}

A discrete node's ``table`` has an axis per parent (its states) and one for the node, as
:attr:`bayeskit.factors.CPD.values`; a continuous node's ``intercept``, ``coefficients`` and
``variance`` have an axis per discrete parent (in the order of ``parents``), ``coefficients``
one more for its continuous parents (:class:`~bayeskit.factors.LinearGaussianCPD`). A node's
parents are discrete or continuous as those nodes are. Names and states are strings.

Reading treats the file as untrusted: at most ``max_bytes`` are read, ``NaN`` and infinities
and repeated keys are refused, every array's size is checked against the family before it is
built (tables at most ``max_cells`` cells), and the network is checked as its constructor
checks one; every error names the node and the rule.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from bayeskit.factors import CPD, LinearGaussianCPD
from bayeskit.factors.limits import MAX_TABLE_CELLS
from bayeskit.graphs import DAG
from bayeskit.networks._files import _read, _write_to
from bayeskit.networks.hybrid import HybridNetwork

__all__ = ["MAX_JSON_BYTES", "NetworkJSONError", "read_json", "write_json"]

#: The most bytes :func:`read_json` reads (256 MiB).
MAX_JSON_BYTES = 1 << 28
FORMAT, VERSION = "bayeskit-network", 1


class NetworkJSONError(ValueError):
    """A JSON network file that breaks the format (the message names the node and the rule)."""


def write_json(network: Any, target: Any) -> None:
    """Write ``network`` (a :class:`~bayeskit.networks.HybridNetwork`, or a discrete
    :class:`~bayeskit.networks.BayesianNetwork`) as JSON to a path (gzip-compressed when it
    ends in ``.gz``) or a file object.

    Parameters
    ----------
    network : HybridNetwork or BayesianNetwork
        The network.
    target : str, path or file object
        Where to write.

    Raises
    ------
    ValueError
        When a node's name or a state is not a string.
    TypeError
        For another kind of network or target.

    Examples
    --------
    >>> import io
    >>> from bayeskit.factors import LinearGaussianCPD
    >>> net = HybridNetwork(DAG(["x"]), [LinearGaussianCPD("x", [], 0.5, [], 2.0)])
    >>> out = io.StringIO()
    >>> write_json(net, out)
    >>> read_json(io.StringIO(out.getvalue())).cpd("x").variance.tolist()
    2.0
    """
    nodes = [_node_entry(network, node) for node in network.nodes]
    document = {"format": FORMAT, "version": VERSION, "nodes": nodes}
    text = json.dumps(document, indent=1, allow_nan=False)
    _write_to(target, lambda out: out.write(text + "\n"), "write_json")


def _node_entry(network: Any, node: Any) -> dict:
    if not isinstance(node, str):
        msg = f"JSON names nodes by strings; node {node!r} is a {type(node).__name__}"
        raise ValueError(msg)
    cpd = network.cpd(node)
    if isinstance(cpd, CPD):
        states = [str(s) for s in cpd.states[node]]
        return {"name": node, "kind": "discrete", "states": states,
                "parents": list(cpd.parents), "table": np.asarray(cpd.values).tolist()}  # fmt: skip
    if isinstance(cpd, LinearGaussianCPD):
        return {
            "name": node,
            "kind": "continuous",
            "parents": list(cpd.parents),
            "intercept": cpd.intercept.tolist(),
            "coefficients": cpd.coefficients.tolist(),
            "variance": cpd.variance.tolist(),
        }
    msg = f"node {node!r} has a distribution JSON cannot hold: {type(cpd).__name__}"
    raise TypeError(msg)


def read_json(
    source: Any, *, max_bytes: int = MAX_JSON_BYTES, max_cells: int = MAX_TABLE_CELLS
) -> HybridNetwork:
    """Read a network written by :func:`write_json`.

    Parameters
    ----------
    source : str, path or file object
        The file (gzip-compressed when its name ends in ``.gz``).
    max_bytes : int, default=:data:`MAX_JSON_BYTES`
        The most bytes read; a larger file is refused.
    max_cells : int, default=:data:`~bayeskit.factors.MAX_TABLE_CELLS`
        The most cells of any node's table or regression arrays.

    Returns
    -------
    HybridNetwork

    Raises
    ------
    NetworkJSONError
        On a file that breaks the format, naming the node and the rule.

    Examples
    --------
    >>> import io
    >>> text = ('{"format": "bayeskit-network", "version": 1, "nodes": [{"name": "a", '
    ...         '"kind": "discrete", "states": ["x", "y"], "parents": [], "table": [0.25, 0.75]}]}')
    >>> read_json(io.StringIO(text)).cpd("a").values.tolist()
    [0.25, 0.75]
    """

    def parse(stream: Any) -> Any:
        text = stream.read(max_bytes + 1)
        if len(text) > max_bytes:
            msg = f"the file is larger than max_bytes={max_bytes:,}"
            raise NetworkJSONError(msg)
        try:
            return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique)
        except json.JSONDecodeError as exc:
            msg = f"the file is not JSON ({exc.msg}, line {exc.lineno}, column {exc.colno})"
            raise NetworkJSONError(msg) from None

    document = _read(source, parse, NetworkJSONError, "read_json", text=True)
    return _network(document, max_cells)


def _no_constant(name: str) -> Any:
    msg = f"the file holds {name}, which is no number of this format"
    raise NetworkJSONError(msg)


def _unique(pairs: list) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            msg = f"the key {key!r} appears twice in one object"
            raise NetworkJSONError(msg)
        out[key] = value
    return out


def _network(document: Any, max_cells: int) -> HybridNetwork:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        msg = f"the file is no bayeskit network: its object must have format {FORMAT!r}"
        raise NetworkJSONError(msg)
    if document.get("version") != VERSION:
        msg = f"version {document.get('version')!r} is not known (this reader: {VERSION})"
        raise NetworkJSONError(msg)
    entries = document.get("nodes")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        msg = "nodes must be a list of objects"
        raise NetworkJSONError(msg)
    names = [e.get("name") for e in entries]
    for k, name in enumerate(names):
        if not isinstance(name, str):
            msg = f"node {k} has no name (a string)"
            raise NetworkJSONError(msg)
    if len(set(names)) != len(names):
        msg = f"node {next(n for n in names if names.count(n) > 1)!r} appears twice"
        raise NetworkJSONError(msg)
    kinds = {e["name"]: e.get("kind") for e in entries}
    states = {}
    for e in entries:
        if kinds[e["name"]] == "discrete":
            states[e["name"]] = _strings(e, "states", allow_empty=False)
        elif kinds[e["name"]] != "continuous":
            msg = f"node {e['name']!r}: kind must be 'discrete' or 'continuous'"
            raise NetworkJSONError(msg)
    edges, cpds = [], []
    for e in entries:
        parents = _strings(e, "parents", allow_empty=True)
        for p in parents:
            if p not in kinds:
                msg = f"node {e['name']!r}: parent {p!r} is no node of the file"
                raise NetworkJSONError(msg)
        edges += [(p, e["name"]) for p in parents]
        cpds.append(_distribution(e, parents, states, max_cells))
    try:
        return HybridNetwork(DAG(names, edges), cpds)
    except ValueError as exc:
        raise NetworkJSONError(str(exc)) from None


def _strings(entry: dict, key: str, *, allow_empty: bool) -> list[str]:
    value = entry.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        msg = f"node {entry['name']!r}: {key} must be a list of strings"
        raise NetworkJSONError(msg)
    if not allow_empty and not value:
        msg = f"node {entry['name']!r}: {key} must not be empty"
        raise NetworkJSONError(msg)
    if len(set(value)) != len(value):
        msg = f"node {entry['name']!r}: {key} lists {value[0]!r}... twice"
        raise NetworkJSONError(msg)
    return value


def _distribution(entry: dict, parents: list, states: dict, max_cells: int) -> Any:
    name = entry["name"]
    discrete = [p for p in parents if p in states]
    cards = [len(states[p]) for p in discrete]
    if name in states:
        if len(discrete) != len(parents):
            odd = next(p for p in parents if p not in states)
            msg = f"edge {odd!r} -> {name!r}: a discrete node may not have a continuous parent"
            raise NetworkJSONError(msg)
        shape = (*cards, len(states[name]))
        table = _array(entry, "table", shape, max_cells)
        family = {v: states[v] for v in (*parents, name)}
        try:
            return CPD(name, parents, table, family)
        except ValueError as exc:
            msg = f"node {name!r}: {exc}"
            raise NetworkJSONError(msg) from None
    k = len(parents) - len(discrete)
    intercept = _array(entry, "intercept", tuple(cards), max_cells)
    coefficients = _array(entry, "coefficients", (*cards, k), max_cells)
    variance = _array(entry, "variance", tuple(cards), max_cells)
    try:
        return LinearGaussianCPD(name, parents, intercept, coefficients, variance,
                                 {p: states[p] for p in discrete})  # fmt: skip
    except ValueError as exc:
        msg = f"node {name!r}: {exc}"
        raise NetworkJSONError(msg) from None


def _array(entry: dict, key: str, shape: tuple, max_cells: int) -> np.ndarray:
    """``entry[key]`` as a float array of ``shape``, its size checked before it is built."""
    name = entry["name"]
    cells = math.prod(shape)
    if cells > max_cells:
        msg = f"node {name!r}: {key} would have {cells:,} cells, over max_cells={max_cells:,}"
        raise NetworkJSONError(msg)
    value = entry.get(key)
    if not _nested(value, shape):
        msg = f"node {name!r}: {key} must be nested lists of numbers of shape {shape}"
        raise NetworkJSONError(msg)
    return np.array(value, dtype=np.float64)


def _nested(value: Any, shape: tuple) -> bool:
    """Whether ``value`` is nested lists of numbers (not booleans) of exactly ``shape``."""
    if not shape:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if not isinstance(value, list) or len(value) != shape[0]:
        return False
    return all(_nested(v, shape[1:]) for v in value)
