"""XMLBIF files (version 0.3, as JavaBayes, Weka, pgmpy and pyAgrum write them): read and write.

Reading is a streaming parse with expat over the file's bytes (so its declared encoding is
honoured): elements are handled as they open and close, their line numbers kept for the
errors, nothing is evaluated, no entity is declared or expanded but the five of XML, and no
external entity or DTD is fetched. The network is then built and checked as
:func:`~bayeskit.networks.read_bif` does, with the same rule for rows printed with few digits
(pyAgrum prints 6 significant digits: ``0.333333 0.333333 0.333333``), the same warning when
rows are divided by their sums, and the same ``max_cells`` limit. ``<TABLE>`` lists a node's
CPT with the node's own states varying fastest, then its ``<GIVEN>`` parents from the last to
the first: the C order of the CPT's axes ``(parents..., node)``. The text of ``<NAME>``,
``<OUTCOME>``, ``<FOR>`` and ``<GIVEN>`` is read without the XML white space (space, tab, line
breaks) around it, as files lay them out over lines.

Writing prints every probability with ``repr``, so a written network reads back bit for bit;
names are escaped (``<``, ``&``, ``>``; tabs and line breaks as character references, which
XML keeps as they are), and a name XMLBIF cannot hold is refused before anything is written.
"""

from __future__ import annotations

import math
import re
import warnings
from array import array
from typing import IO, Any, NoReturn
from xml.parsers import expat
from xml.sax.saxutils import escape

import numpy as np

from bayeskit.data.validation import check_count
from bayeskit.factors.limits import MAX_TABLE_CELLS
from bayeskit.networks._files import (
    BIFError,
    RenormalizedCPTWarning,
    _assemble,
    _Block,
    _check_names,
    _count_cells,
    _probability,
    _read,
    _rounding,
    _utf8_rule,
    _write_to,
)
from bayeskit.networks.network import BayesianNetwork

__all__ = ["XMLBIFError", "read_xmlbif", "write_xmlbif"]

_TEXT = {"NAME", "OUTCOME", "FOR", "GIVEN", "TABLE", "PROPERTY"}
_CONTAINERS = {"BIF", "NETWORK", "VARIABLE", "DEFINITION", "PROBABILITY"}
_ALLOWED = {
    None: {"BIF"},
    "BIF": {"NETWORK"},
    "NETWORK": {"NAME", "VARIABLE", "DEFINITION", "PROBABILITY", "PROPERTY"},
    "VARIABLE": {"NAME", "OUTCOME", "PROPERTY"},
    "DEFINITION": {"FOR", "GIVEN", "TABLE", "PROPERTY"},
    "PROBABILITY": {"FOR", "GIVEN", "TABLE", "PROPERTY"},
}
#: What XML counts as white space around a name, stripped on reading.
_SPACE = " \t\n\r"
#: The characters XML 1.0 cannot hold (its ``Char`` production), even as references.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: Escapes for names: tabs and line breaks as references, which no XML parser normalises.
_ESCAPES = {"\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
_CHUNK = 1 << 16


class XMLBIFError(BIFError):
    """An XMLBIF file that is not well-formed, does not follow the format, or describes no
    valid network (a :class:`~bayeskit.networks.BIFError`)."""


class _Reader:
    """expat handlers that gather variables and definitions, failing with the line."""

    def __init__(self, max_cells: int) -> None:
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.text
        self.parser.EntityDeclHandler = self.entity
        self.parser.SkippedEntityHandler = self.skipped
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.stack: list[str] = []
        self.buffer: list[str] = []
        self.item: dict[str, Any] = {}
        self.network: dict[str, Any] = {"name": None}
        self.networks = 0
        self.variables: list[dict[str, Any]] = []
        self.definitions: list[dict[str, Any]] = []
        self.cells = 0
        self.max_cells = max_cells

    def fail(self, message: str) -> NoReturn:
        _error(f"line {self.parser.CurrentLineNumber}: {message}")

    def entity(self, *_: Any) -> None:
        self.fail("entity declarations are not read (an XMLBIF file needs none)")

    def skipped(self, name: str, _parameter: bool) -> None:
        self.fail(f"the entity &{name}; is not defined (an XMLBIF file needs none)")

    def start(self, tag: str, attrs: dict) -> None:
        tag = tag.upper()
        if tag not in _TEXT | _CONTAINERS:
            self.fail(f"expected an XMLBIF element, got <{tag}>")
        parent = self.stack[-1] if self.stack else None
        allowed = _ALLOWED.get(parent, set())
        if tag not in allowed:
            where = f"inside <{parent}>" if parent else "at the top"
            self.fail(f"expected one of {sorted(allowed) or 'no element'} {where}, got <{tag}>")
        line = self.parser.CurrentLineNumber
        if tag == "NETWORK":
            self.networks += 1
            if self.networks > 1:
                self.fail("one <NETWORK> per file, got a second")
        elif tag == "VARIABLE":
            kind = {k.upper(): v for k, v in attrs.items()}.get("TYPE", "nature")
            if kind.lower() not in ("nature", "discrete"):
                self.fail(f"expected a nature (chance) variable, got TYPE={kind!r}")
            self.item = {"line": line, "name": None, "outcomes": []}
        elif tag in ("DEFINITION", "PROBABILITY"):
            self.item = {"line": line, "for": None, "given": [], "table": None}
        self.stack.append(tag)
        self.buffer = []

    def text(self, data: str) -> None:
        if self.stack and self.stack[-1] in _TEXT:
            self.buffer.append(data)
        elif data.strip(_SPACE):
            where = self.stack[-1] if self.stack else "BIF"
            self.fail(f"expected elements inside <{where}>, got text")

    def once(self, key: str, tag: str, parent: str, value: Any) -> None:
        item = self.network if parent == "NETWORK" else self.item
        if item[key] is not None:
            self.fail(f"one <{tag}> per <{parent}>, got a second")
        item[key] = value

    def end(self, _tag: str) -> None:
        tag = self.stack.pop()
        text = "".join(self.buffer)
        self.buffer = []
        value = text.strip(_SPACE)
        item = self.item
        parent = self.stack[-1] if self.stack else None
        if tag == "VARIABLE":
            if not item["name"]:
                self.fail("a <VARIABLE> has no <NAME>")
            self.variables.append(item)
        elif tag in ("DEFINITION", "PROBABILITY"):
            if item["for"] is None or item["table"] is None:
                self.fail(f"a <{tag}> needs a <FOR> and a <TABLE>")
            self.definitions.append(item)
        elif tag == "NAME" and parent in ("NETWORK", "VARIABLE"):
            self.once("name", tag, parent, value)
        elif parent == "VARIABLE" and tag == "OUTCOME":
            if not value:
                self.fail(f"an <OUTCOME> of variable {item['name']!r} is empty")
            item["outcomes"].append(value)
        elif parent in ("DEFINITION", "PROBABILITY") and tag == "FOR":
            self.once("for", tag, parent, value)
        elif parent in ("DEFINITION", "PROBABILITY") and tag == "GIVEN":
            item["given"].append(value)
        elif parent in ("DEFINITION", "PROBABILITY") and tag == "TABLE":
            self.once("table", tag, parent, self.table(text))

    def table(self, text: str) -> tuple[array, array]:
        """The probabilities of a ``<TABLE>`` and their decimal places, counted against
        ``max_cells`` as they are read."""
        values, decimals = array("d"), array("b")
        for match in re.finditer(r"\S+", text):
            parsed = _probability(match.group())
            if parsed is None:
                self.fail(
                    f"expected a probability (a number in [0, 1]) in <TABLE>, got {match.group()!r}"
                )
            self.cells += 1
            if self.cells > self.max_cells:
                self.fail(
                    f"the <TABLE>s hold more than max_cells={self.max_cells:,} probabilities; "
                    "pass a larger max_cells to read the file"
                )
            values.append(parsed[0])
            decimals.append(parsed[1])
        return values, decimals


def read_xmlbif(source: Any, *, max_cells: int = MAX_TABLE_CELLS) -> BayesianNetwork:
    """Read a discrete Bayesian network from an XMLBIF 0.3 file.

    Parameters
    ----------
    source : str, path or file object
        A file, gzip-compressed or not (detected from its first bytes), or an open binary or
        text stream (left open).
    max_cells : int, default=:data:`~bayeskit.factors.MAX_TABLE_CELLS` (2**27)
        The most probabilities the file's ``<TABLE>``\\ s may hold together; counted as they
        are read, before any CPT is allocated.

    Returns
    -------
    BayesianNetwork
        The network the file describes: its variables as nodes, their outcomes as states,
        its tables as CPTs.

    Raises
    ------
    XMLBIFError
        With the line: XML that is not well-formed, an unknown or misplaced element, text
        where elements belong, an element given twice (``<NAME>``, ``<FOR>``, ``<TABLE>``), an
        entity declaration or an undefined entity, a value that is no ASCII number in [0, 1],
        an unknown variable, a table of the wrong length, a repeated or missing definition, a
        distribution that does not sum to 1 to the digits printed, a cycle, tables over
        ``max_cells``; damaged gzip data.

    Warns
    -----
    RenormalizedCPTWarning
        As :func:`~bayeskit.networks.read_bif`: rows that summed to 1 only to the digits
        printed (within half a unit in the last printed place of each probability, added;
        at most 0.01) are divided by their sums, naming the nodes and the largest deviation.

    Examples
    --------
    >>> import io
    >>> text = '''<BIF VERSION="0.3"><NETWORK><NAME>t</NAME>
    ... <VARIABLE TYPE="nature"><NAME>rain</NAME><OUTCOME>yes</OUTCOME><OUTCOME>no</OUTCOME>
    ... </VARIABLE>
    ... <VARIABLE TYPE="nature"><NAME>wet</NAME><OUTCOME>yes</OUTCOME><OUTCOME>no</OUTCOME>
    ... </VARIABLE>
    ... <DEFINITION><FOR>rain</FOR><TABLE>0.2 0.8</TABLE></DEFINITION>
    ... <DEFINITION><FOR>wet</FOR><GIVEN>rain</GIVEN><TABLE>0.9 0.1 0.1 0.9</TABLE></DEFINITION>
    ... </NETWORK></BIF>'''
    >>> read_xmlbif(io.StringIO(text)).cpt("wet").tolist()
    [[0.9, 0.1], [0.1, 0.9]]
    """
    check_count("max_cells", max_cells, low=1)
    net, note = _read(
        source, lambda s: _parse(s, max_cells), XMLBIFError, "read_xmlbif", text=False
    )
    if note is not None:
        warnings.warn(note, RenormalizedCPTWarning, stacklevel=2)
    return net


def _parse(stream: IO, max_cells: int) -> tuple[BayesianNetwork, str | None]:
    reader = _Reader(max_cells)
    try:
        while chunk := stream.read(_CHUNK):
            reader.parser.Parse(chunk, False)
        reader.parser.Parse(b"", True)
    except expat.ExpatError as exc:
        msg = f"line {exc.lineno}: the file is not well-formed XML ({expat.ErrorString(exc.code)})"
        raise XMLBIFError(msg) from None
    except BIFError:
        raise
    except (LookupError, ValueError, UnicodeError) as exc:  # expat's look-up of a codec
        msg = (
            f"line {reader.parser.CurrentLineNumber}: the encoding the file declares cannot be "
            f"read ({exc})"
        )
        raise XMLBIFError(msg) from None
    return _build(reader, max_cells)


def _error(message: str) -> NoReturn:
    raise XMLBIFError(message)


def _build(reader: _Reader, max_cells: int) -> tuple[BayesianNetwork, str | None]:
    states: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    for var in reader.variables:
        name, line = var["name"], var["line"]
        if name in states:
            _error(f"line {line}: variable {name!r} is declared twice")
        outcomes = var["outcomes"]
        if not outcomes:
            _error(f"line {line}: variable {name!r} has no <OUTCOME>")
        twice = next((o for i, o in enumerate(outcomes) if o in outcomes[:i]), None)
        if twice is not None:
            _error(f"line {line}: variable {name!r} lists the <OUTCOME> {twice!r} twice")
        states[name], lines[name] = tuple(var["outcomes"]), line
    blocks: dict[str, _Block] = {}
    cells = 0
    for d in reader.definitions:
        child, given, line = d["for"], tuple(d["given"]), d["line"]
        for v in (child, *given):
            if v not in states:
                _error(f"line {line}: {v!r} is no declared variable")
        if child in blocks:
            _error(f"line {line}: {child!r} has two definitions")
        if child in given or len(set(given)) != len(given):
            _error(f"line {line}: the parents of {child!r} must be distinct and not it")
        shape = (*(len(states[p]) for p in given), len(states[child]))
        cells = _count_cells(cells, shape, child, given, line, max_cells, XMLBIFError)
        values, decimals = d["table"]
        if len(values) != math.prod(shape):
            _error(
                f"line {line}: the table of {child!r} has {len(values)} probabilities, "
                f"expected {math.prod(shape)}"
            )
        table = np.frombuffer(values).reshape(shape).copy()
        rounding = _rounding(np.frombuffer(decimals, dtype=np.int8).reshape(shape))
        blocks[child] = _Block(given, table, rounding, line)
    return _assemble(states, lines, blocks, "definition", XMLBIFError)


def _xml_rule(label: Any) -> str | None:
    """Why ``label`` cannot be a name in an XMLBIF file, or None."""
    if not isinstance(label, str):
        return f"is a {type(label).__name__}, not a string"
    if not label:
        return "is empty"
    if label != label.strip(_SPACE):
        return "begins or ends with white space, which XMLBIF readers strip"
    bad = _NOT_XML.search(label)
    if bad is not None:
        return f"holds {bad.group()!r}, which XML 1.0 cannot hold"
    return _utf8_rule(label)


def write_xmlbif(network: BayesianNetwork, target: Any, *, name: str = "unknown") -> None:
    """Write ``network`` as XMLBIF 0.3 to ``target`` (a path, gzip-compressed when it ends in
    ``.gz``, or a text or binary stream, left open).

    Names are escaped and probabilities written with ``repr``, so reading the file back gives
    the same floats, DAG, node and parent order and states.

    Parameters
    ----------
    network : BayesianNetwork
        The network to write.
    target : str, path or file object
        Where to write: a path (gzip-compressed when it ends in ``.gz``), or an open text or
        binary stream, left open.
    name : str, default="unknown"
        The network's ``<NAME>`` in the file.

    Raises
    ------
    ValueError
        Before anything is written, naming it: a network name, node name or state name that
        XMLBIF cannot hold: empty, with white space at either end (readers strip it), or with
        a character XML 1.0 cannot hold (control characters other than tab and line breaks).
    TypeError
        ``network`` is no :class:`BayesianNetwork`, or ``target`` no path or stream.

    Examples
    --------
    >>> import io
    >>> from bayeskit.networks import example_network
    >>> net = example_network("earthquake")
    >>> out = io.StringIO()
    >>> write_xmlbif(net, out, name="earthquake")
    >>> back = read_xmlbif(io.StringIO(out.getvalue()))
    >>> back.nodes == net.nodes, back.cpt("Alarm").tolist() == net.cpt("Alarm").tolist()
    (True, True)
    """
    _check_names(network, name, _xml_rule, "XMLBIF", "write_xmlbif")
    _write_to(target, lambda out: _write(network, out, name), "write_xmlbif")


def _text(label: Any) -> str:  # a node's name or state: text
    return escape(str(label), _ESCAPES)


def _write(network: BayesianNetwork, out: IO[str], name: str) -> None:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<BIF VERSION="0.3">\n<NETWORK>\n')
    out.write(f"<NAME>{_text(name)}</NAME>\n")
    for node in network.nodes:
        out.write(f'<VARIABLE TYPE="nature">\n  <NAME>{_text(node)}</NAME>\n')
        for label in network.states(node):
            out.write(f"  <OUTCOME>{_text(label)}</OUTCOME>\n")
        out.write("</VARIABLE>\n")
    for node in network.nodes:
        out.write(f"<DEFINITION>\n  <FOR>{_text(node)}</FOR>\n")
        for parent in network.dag.parents(node):
            out.write(f"  <GIVEN>{_text(parent)}</GIVEN>\n")
        values = " ".join(repr(float(v)) for v in network.cpt(node).ravel())
        out.write(f"  <TABLE>{values}</TABLE>\n</DEFINITION>\n")
    out.write("</NETWORK>\n</BIF>\n")
