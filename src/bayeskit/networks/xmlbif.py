"""XMLBIF files (version 0.3, as JavaBayes, Weka and pgmpy write them): read and write.

Reading is a streaming parse with expat: elements are handled as they open and close, their
line numbers kept for the errors, nothing is evaluated, and no external entity or DTD is
fetched. The network is then built and checked as :func:`~bayeskit.networks.read_bif` does.
``<TABLE>`` lists a node's CPT with the node's own states varying fastest, then its ``<GIVEN>``
parents from the last to the first: the C order of the CPT's axes ``(parents..., node)``.
Writing prints every probability with ``repr``, so a written network reads back bit for bit.
"""

from __future__ import annotations

import math
from typing import IO, Any, NoReturn
from xml.parsers import expat
from xml.sax.saxutils import escape

import numpy as np

from bayeskit.networks.bif import BIFError, _assemble, _read_text, _write_to
from bayeskit.networks.network import BayesianNetwork

__all__ = ["read_xmlbif", "write_xmlbif"]

_TEXT = {"NAME", "OUTCOME", "FOR", "GIVEN", "TABLE", "PROPERTY"}
_CONTAINERS = {"BIF", "NETWORK", "VARIABLE", "DEFINITION", "PROBABILITY"}


class _Reader:
    """expat handlers that gather variables and definitions, failing with the line."""

    def __init__(self) -> None:
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.text
        self.parser.EntityDeclHandler = self.entity
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.stack: list[str] = []
        self.buffer: list[str] = []
        self.item: dict[str, Any] | None = None
        self.variables: list[dict[str, Any]] = []
        self.definitions: list[dict[str, Any]] = []

    def fail(self, message: str) -> None:
        _error(f"line {self.parser.CurrentLineNumber}: {message}")

    def entity(self, *_: Any) -> None:
        self.fail("entity declarations are not read (an XMLBIF file needs none)")

    def start(self, tag: str, attrs: dict) -> None:
        tag = tag.upper()
        if tag not in _TEXT | _CONTAINERS:
            self.fail(f"expected an XMLBIF element, got <{tag}>")
        parent = self.stack[-1] if self.stack else None
        allowed = {
            None: {"BIF"},
            "BIF": {"NETWORK"},
            "NETWORK": {"NAME", "VARIABLE", "DEFINITION", "PROBABILITY", "PROPERTY"},
            "VARIABLE": {"NAME", "OUTCOME", "PROPERTY"},
            "DEFINITION": {"FOR", "GIVEN", "TABLE", "PROPERTY"},
            "PROBABILITY": {"FOR", "GIVEN", "TABLE", "PROPERTY"},
        }.get(parent, set())
        if tag not in allowed:
            where = f"inside <{parent}>" if parent else "at the top"
            self.fail(f"expected one of {sorted(allowed) or 'no element'} {where}, got <{tag}>")
        if tag == "VARIABLE":
            kind = {k.upper(): v for k, v in attrs.items()}.get("TYPE", "nature")
            if kind.lower() not in ("nature", "discrete"):
                self.fail(f"expected a nature (chance) variable, got TYPE={kind!r}")
            self.item = {"line": self.parser.CurrentLineNumber, "name": None, "outcomes": []}
        elif tag in ("DEFINITION", "PROBABILITY"):
            self.item = {
                "line": self.parser.CurrentLineNumber,
                "for": None,
                "given": [],
                "table": None,
            }
        self.stack.append(tag)
        self.buffer = []

    def text(self, data: str) -> None:
        if self.stack and self.stack[-1] in _TEXT:
            self.buffer.append(data)
        elif data.strip():
            self.fail(
                f"expected elements inside <{self.stack[-1] if self.stack else 'BIF'}>, got text"
            )

    def end(self, tag: str) -> None:
        tag = self.stack.pop()
        value = "".join(self.buffer).strip()
        self.buffer = []
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
        elif parent == "VARIABLE" and tag == "NAME":
            item["name"] = value
        elif parent == "VARIABLE" and tag == "OUTCOME":
            item["outcomes"].append(value)
        elif parent in ("DEFINITION", "PROBABILITY") and tag == "FOR":
            item["for"] = value
        elif parent in ("DEFINITION", "PROBABILITY") and tag == "GIVEN":
            item["given"].append(value)
        elif parent in ("DEFINITION", "PROBABILITY") and tag == "TABLE":
            values = []
            for tok in value.split():
                try:
                    p = float(tok)
                except ValueError:
                    p = math.nan
                if not (math.isfinite(p) and 0.0 <= p <= 1.0):
                    self.fail(
                        f"expected a probability (a number in [0, 1]) in <TABLE>, got {tok!r}"
                    )
                values.append(p)
            item["table"] = values


def read_xmlbif(source: Any) -> BayesianNetwork:
    """Read a discrete Bayesian network from an XMLBIF 0.3 file (a path, gzip-compressed or
    not, or a file object).

    Raises
    ------
    BIFError
        With the line: an unknown or misplaced element, text where elements belong, an
        entity declaration, a value that is no probability, an unknown variable, a table of
        the wrong length, a repeated or missing definition, an invalid CPT, a cycle.

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
    return _read_text(source, _parse)


def _parse(stream: IO[str]) -> BayesianNetwork:
    reader = _Reader()
    try:
        for line in stream:
            reader.parser.Parse(line, False)
        reader.parser.Parse("", True)
    except expat.ExpatError as exc:
        msg = f"line {exc.lineno}: the file is not well-formed XML ({expat.ErrorString(exc.code)})"
        raise BIFError(msg) from None
    return _build(reader)


def _error(message: str) -> NoReturn:
    raise BIFError(message)


def _build(reader: _Reader) -> BayesianNetwork:
    states: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    for var in reader.variables:
        name, line = var["name"], var["line"]
        if name in states:
            _error(f"line {line}: variable {name!r} is declared twice")
        if not var["outcomes"] or len(set(var["outcomes"])) != len(var["outcomes"]):
            _error(f"line {line}: variable {name!r} needs distinct <OUTCOME>s")
        states[name], lines[name] = tuple(var["outcomes"]), line
    tables: dict[str, tuple[tuple[str, ...], np.ndarray, int]] = {}
    for d in reader.definitions:
        child, given, line = d["for"], tuple(d["given"]), d["line"]
        for v in (child, *given):
            if v not in states:
                _error(f"line {line}: {v!r} is no declared variable")
        if child in tables:
            _error(f"line {line}: {child!r} has two definitions")
        if child in given or len(set(given)) != len(given):
            _error(f"line {line}: the parents of {child!r} must be distinct and not it")
        shape = (*(len(states[p]) for p in given), len(states[child]))
        if len(d["table"]) != math.prod(shape):
            _error(
                f"line {line}: the table of {child!r} has {len(d['table'])} probabilities, "
                f"expected {math.prod(shape)}"
            )
        tables[child] = (given, np.array(d["table"]).reshape(shape), line)
    return _assemble(states, lines, tables, "definition")


def write_xmlbif(network: BayesianNetwork, target: Any, *, name: str = "unknown") -> None:
    """Write ``network`` as XMLBIF 0.3 to ``target`` (a path, gzip-compressed when it ends in
    ``.gz``, or a text stream); names are escaped, probabilities written with ``repr``."""
    if not isinstance(network, BayesianNetwork):
        msg = f"write_xmlbif needs a BayesianNetwork, got {type(network).__name__}"
        raise TypeError(msg)
    _write_to(target, lambda out: _write(network, out, name))


def _write(network: BayesianNetwork, out: IO[str], name: str) -> None:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<BIF VERSION="0.3">\n<NETWORK>\n')
    out.write(f"<NAME>{escape(str(name))}</NAME>\n")
    for node in network.nodes:
        out.write(f'<VARIABLE TYPE="nature">\n  <NAME>{escape(str(node))}</NAME>\n')
        for label in network.states(node):
            out.write(f"  <OUTCOME>{escape(label)}</OUTCOME>\n")
        out.write("</VARIABLE>\n")
    for node in network.nodes:
        out.write(f"<DEFINITION>\n  <FOR>{escape(str(node))}</FOR>\n")
        for parent in network.dag.parents(node):
            out.write(f"  <GIVEN>{escape(str(parent))}</GIVEN>\n")
        values = " ".join(repr(float(v)) for v in network.cpt(node).ravel())
        out.write(f"  <TABLE>{values}</TABLE>\n</DEFINITION>\n")
    out.write("</NETWORK>\n</BIF>\n")
