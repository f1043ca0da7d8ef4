"""BIF files (Bayesian Interchange Format 0.15, as the bnlearn repository writes them).

Reading is a streaming parse: the file is read line by line (gzip-compressed or not), cut into
tokens, and checked against the grammar as it goes; nothing in it is ever evaluated. A file
that breaks the grammar or describes an invalid network gives a :class:`BIFError` with the line
and what was expected there. Writing prints every probability with ``repr`` (the shortest
decimal that reads back as the same float), so a written network reads back bit for bit.

The grammar read::

    network NAME { (property ...;)* }
    variable NAME { type discrete [ N ] { STATE, ... }; (property ...;)* }
    probability ( CHILD [| PARENT, ...] ) {
        table P, ...;                       # every entry: the child slowest, the last parent
                                            # fastest (as pgmpy reads it); or one row per
        (PARENT_STATE, ...) P, ...;         # parent configuration, in any order
        default P, ...;                     # the rows not listed
        (property ...;)*
    }

with ``//`` and ``/* */`` comments. Parents are listed in a probability block's own order; the
network's DAG takes them in that order.
"""

from __future__ import annotations

import gzip
import io
import math
import re
from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import IO, Any

import numpy as np

from bayeskit.networks.dag import DAG
from bayeskit.networks.network import BayesianNetwork

__all__ = ["BIFError", "read_bif", "write_bif"]

_PUNCT = "{}()[];,|"
_TOKEN = re.compile(r"\s*(?:([{}()\[\];,|])|([^\s{}()\[\];,|]+))")


class BIFError(ValueError):
    """A BIF file that does not follow the grammar, or describes no valid network."""


def _open_text(source: Any) -> tuple[IO[str], bool]:
    """A text stream over ``source`` (a path, gzip-compressed or not, or a text or binary
    stream) and whether it must be closed here."""
    if isinstance(source, str | PathLike):
        raw = open(Path(source), "rb")  # noqa: SIM115 - closed by the caller
        head = raw.read(2)
        raw.seek(0)
        stream: IO[bytes] = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw
        return io.TextIOWrapper(stream, encoding="utf-8"), True
    if isinstance(source, io.TextIOBase):
        return source, False
    if hasattr(source, "read"):
        return io.TextIOWrapper(source, encoding="utf-8"), False
    msg = f"read_bif needs a path or a file object, got {type(source).__name__}"
    raise TypeError(msg)


class _Tokens:
    """The tokens of a text stream, with their line numbers, read a line at a time."""

    def __init__(self, stream: IO[str]):
        self._lines = iter(stream)
        self._pending: list[tuple[str, int]] = []
        self.line = 0
        self._comment = False
        self._gen = self._tokens()

    def _tokens(self) -> Iterator[tuple[str, int]]:
        for number, line in enumerate(self._lines, start=1):
            self.line = number
            text = self._strip_comments(line)
            pos = 0
            while pos < len(text):
                match = _TOKEN.match(text, pos)
                if match is None or match.end() == pos:
                    break
                pos = match.end()
                tok = match.group(1) or match.group(2)
                if tok:
                    yield tok, self.line

    def _strip_comments(self, text: str) -> str:
        out = []
        i = 0
        while i < len(text):
            if self._comment:
                end = text.find("*/", i)
                if end < 0:
                    return "".join(out)
                self._comment = False
                i = end + 2
                continue
            line_c, block_c = text.find("//", i), text.find("/*", i)
            cuts = [c for c in (line_c, block_c) if c >= 0]
            if not cuts:
                out.append(text[i:])
                break
            cut = min(cuts)
            out.append(text[i:cut])
            if cut == line_c:
                break
            self._comment = True
            i = cut + 2
        return " ".join(out)

    def peek(self) -> tuple[str | None, int]:
        if not self._pending:
            self._pending.append(next(self._gen, (None, self.line)))
        return self._pending[0]

    def next(self) -> tuple[str | None, int]:
        tok = self.peek()
        self._pending.pop(0)
        return tok

    def fail(self, expected: str, got: str | None, line: int) -> None:
        shown = "the end of the file" if got is None else repr(got)
        msg = f"line {line}: expected {expected}, got {shown}"
        raise BIFError(msg)

    def expect(self, token: str) -> int:
        got, line = self.next()
        if got != token:
            self.fail(repr(token), got, line)
        return line

    def name(self, what: str) -> str:
        got, line = self.next()
        if got is None or got in _PUNCT:
            self.fail(what, got, line)
        return got

    def skip_property(self) -> None:
        """``property ... ;`` (the word already read): everything up to the semicolon."""
        while True:
            got, line = self.next()
            if got is None:
                self.fail("';' ending the property", got, line)
            if got == ";":
                return


def read_bif(source: Any) -> BayesianNetwork:
    """Read a discrete Bayesian network from a BIF file.

    Parameters
    ----------
    source : str, path or file object
        A ``.bif`` or gzip-compressed ``.bif.gz`` file (detected from its first bytes), or an
        open text or binary stream.

    Returns
    -------
    BayesianNetwork
        Nodes in the order their ``variable`` blocks come; each node's parents in the order
        of its ``probability`` block.

    Raises
    ------
    BIFError
        With the line and what was expected there: a grammar error, an unknown variable or
        state, a missing or repeated block, a number of entries that does not fit, a value
        that is no finite number in [0, 1], a distribution that does not sum to 1, a cycle.

    Examples
    --------
    >>> import io
    >>> text = '''
    ... network tiny { }
    ... variable rain { type discrete [ 2 ] { yes, no }; }
    ... variable wet { type discrete [ 2 ] { yes, no }; }
    ... probability ( rain ) { table 0.2, 0.8; }
    ... probability ( wet | rain ) { (yes) 0.9, 0.1; (no) 0.1, 0.9; }
    ... '''
    >>> net = read_bif(io.StringIO(text))
    >>> net.dag.parents("wet"), net.cpt("wet")[1].tolist()
    (('rain',), [0.1, 0.9])
    """
    return _read_text(source, lambda stream: _parse(_Tokens(stream)))


def _read_text(source: Any, parse: Any) -> Any:
    """``parse(stream)`` over ``source``'s text (closed after, when opened here); bytes that
    are not UTF-8 give a :class:`BIFError`."""
    stream, close = _open_text(source)
    try:
        return parse(stream)
    except UnicodeDecodeError as exc:
        msg = f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise BIFError(msg) from None
    finally:
        if close:
            stream.close()


def _parse(toks: _Tokens) -> BayesianNetwork:
    states: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    blocks: dict[str, tuple[tuple[str, ...], np.ndarray, int]] = {}
    seen_network = False
    while True:
        word, line = toks.next()
        if word is None:
            break
        if word == "network":
            if seen_network:
                toks.fail("one network block", word, line)
            seen_network = True
            toks.name("the network's name")
            toks.expect("{")
            while True:
                got, at = toks.next()
                if got == "}":
                    break
                if got != "property":
                    toks.fail("'property' or '}'", got, at)
                toks.skip_property()
        elif word == "variable":
            name = toks.name("a variable name")
            if name in states:
                toks.fail(f"a new variable (variable {name!r} is declared twice)", name, line)
            states[name] = _variable(toks, name)
            lines[name] = line
        elif word == "probability":
            child, parents = _header(toks, states)
            if child in blocks:
                toks.fail(f"one probability block per variable ({child!r} has two)", child, line)
            table = _entries(toks, child, parents, states)
            blocks[child] = (parents, table, line)
        else:
            toks.fail("'network', 'variable' or 'probability'", word, line)
    return _assemble(states, lines, blocks, "probability block")


def _assemble(states: dict, lines: dict, blocks: dict, block: str) -> BayesianNetwork:
    """The network of the parsed variables (``states``, declared at ``lines``) and their
    CPT ``blocks`` (variable -> (parents, table, line)), each check failing with a line:
    a variable without a ``block``, parents that make a cycle, a CPT that is invalid."""
    missing = [v for v in states if v not in blocks]
    if missing:
        msg = f"line {lines[missing[0]]}: variable {missing[0]!r} has no {block}"
        raise BIFError(msg)
    edges = [(p, child) for child in states for p in blocks[child][0]]
    try:
        dag = DAG(nodes=list(states), edges=edges)
    except ValueError as exc:
        msg = f"the {block}s' parents make no DAG: {exc}"
        raise BIFError(msg) from None
    try:
        return BayesianNetwork(dag, {v: blocks[v][1] for v in states}, states=states)
    except ValueError as exc:
        node = next((v for v in states if str(exc).startswith(f"node {v!r}:")), None)
        where = f"line {blocks[node][2]}: " if node is not None else ""
        msg = f"{where}{exc}"
        raise BIFError(msg) from None


def _write_to(target: Any, write: Any) -> None:
    """``write(stream)`` into ``target``: a path (gzip-compressed when it ends in ``.gz``) or
    a text stream."""
    if isinstance(target, str | PathLike):
        path = Path(target)
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "wt", encoding="utf-8") as out:
            write(out)
    else:
        write(target)


def _variable(toks: _Tokens, name: str) -> tuple[str, ...]:
    toks.expect("{")
    labels: tuple[str, ...] | None = None
    while True:
        got, line = toks.next()
        if got == "}":
            break
        if got == "property":
            toks.skip_property()
            continue
        if got != "type":
            toks.fail("'type', 'property' or '}'", got, line)
        kind, at = toks.next()
        if kind != "discrete":
            toks.fail("'discrete' (only discrete variables are read)", kind, at)
        toks.expect("[")
        size_tok, at = toks.next()
        if size_tok is None or not size_tok.isdigit() or int(size_tok) < 1:
            toks.fail("a positive number of states", size_tok, at)
        toks.expect("]")
        open_line = toks.expect("{")
        found = [toks.name("a state name")]
        while True:
            sep, at = toks.next()
            if sep == "}":
                break
            if sep != ",":
                toks.fail("',' or '}'", sep, at)
            found.append(toks.name("a state name"))
        toks.expect(";")
        if len(found) != int(size_tok):
            msg = (
                f"line {open_line}: variable {name!r} declares {size_tok} states but lists "
                f"{len(found)}"
            )
            raise BIFError(msg)
        if len(set(found)) != len(found):
            msg = f"line {open_line}: variable {name!r} lists a state twice"
            raise BIFError(msg)
        labels = tuple(found)
    if labels is None:
        toks.fail(f"a 'type discrete' line for variable {name!r}", "}", toks.line)
    return labels


def _header(toks: _Tokens, states: dict) -> tuple[str, tuple[str, ...]]:
    toks.expect("(")
    child, line = toks.next()
    if child not in states:
        toks.fail("a declared variable", child, line)
    parents: list[str] = []
    got, line = toks.next()
    if got == "|":
        while True:
            parent, at = toks.next()
            if parent not in states:
                toks.fail("a declared variable as parent", parent, at)
            if parent == child or parent in parents:
                toks.fail("distinct parents, other than the child", parent, at)
            parents.append(parent)
            got, line = toks.next()
            if got != ",":
                break
    if got != ")":
        toks.fail("')'", got, line)
    return child, tuple(parents)


def _numbers(toks: _Tokens, count: int, what: str) -> list[float]:
    """``count`` comma-separated probabilities and the closing ';'."""
    out = []
    while True:
        tok, line = toks.next()
        value = _probability(tok)
        if value is None:
            toks.fail(f"a probability (a number in [0, 1]) in {what}", tok, line)
        out.append(value)
        sep, at = toks.next()
        if sep == ";":
            break
        if sep != ",":
            toks.fail("',' or ';'", sep, at)
    if len(out) != count:
        msg = f"line {line}: {what} has {len(out)} probabilities, expected {count}"
        raise BIFError(msg)
    return out


def _probability(token: str | None) -> float | None:
    if token is None or token in _PUNCT:
        return None
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) and 0.0 <= value <= 1.0 else None


def _entries(toks: _Tokens, child: str, parents: tuple, states: dict) -> np.ndarray:
    shape = (*(len(states[p]) for p in parents), len(states[child]))
    k = shape[-1]
    table = np.full(shape, np.nan)
    default: list[float] | None = None
    open_line = toks.expect("{")
    while True:
        word, line = toks.next()
        if word == "}":
            break
        if word == "property":
            toks.skip_property()
        elif word == "table":
            values = _numbers(toks, math.prod(shape), f"the table of {child!r}")
            # child slowest, last parent fastest
            flat = np.array(values).reshape(k, -1)
            table[...] = flat.T.reshape(shape)
        elif word == "default":
            default = _numbers(toks, k, f"the default row of {child!r}")
        elif word == "(":
            config = []
            for i, parent in enumerate(parents):
                if i:
                    toks.expect(",")
                label, at = toks.next()
                if label not in states[parent]:
                    toks.fail(f"a state of {parent!r} {list(states[parent])}", label, at)
                config.append(states[parent].index(label))
            toks.expect(")")
            row = tuple(config)
            if not parents:
                toks.fail(f"'table' ({child!r} has no parents)", "(", line)
            if not np.isnan(table[row]).all():
                toks.fail(f"each parent configuration of {child!r} once", "(", line)
            table[row] = _numbers(toks, k, f"the row of {child!r}")
        else:
            toks.fail("'table', '(', 'default', 'property' or '}'", word, line)
    unset = np.isnan(table[..., 0])
    if unset.any():
        if default is None:
            at = tuple(int(i) for i in np.argwhere(unset)[0])
            config = ", ".join(states[p][i] for p, i in zip(parents, at, strict=True))
            msg = f"line {open_line}: the CPT of {child!r} has no row for ({config})"
            raise BIFError(msg)
        table[unset] = default
    return table


def write_bif(network: BayesianNetwork, target: Any, *, name: str = "unknown") -> None:
    """Write ``network`` as BIF to ``target`` (a path, gzip-compressed when it ends in
    ``.gz``, or a text stream). Variables in node order; CPTs of nodes with parents as one row
    per parent configuration in C order; every probability with ``repr``, so reading the file
    back gives the same floats."""
    if not isinstance(network, BayesianNetwork):
        msg = f"write_bif needs a BayesianNetwork, got {type(network).__name__}"
        raise TypeError(msg)
    for node in network.nodes:
        for label in (str(node), *network.states(node)):
            if (
                not label
                or any(c.isspace() or c in _PUNCT for c in label)
                or "//" in label
                or "/*" in label
            ):
                msg = (
                    f"{label!r} (of node {node!r}) cannot be written in BIF: names are single words"
                )
                raise ValueError(msg)
    _write_to(target, lambda out: _write(network, out, name))


def _write(network: BayesianNetwork, out: IO[str], name: str) -> None:
    out.write(f"network {name} {{\n}}\n")
    for node in network.nodes:
        labels = ", ".join(network.states(node))
        k = network.cardinality(node)
        out.write(f"variable {node} {{\n  type discrete [ {k} ] {{ {labels} }};\n}}\n")
    for node in network.nodes:
        parents = network.dag.parents(node)
        table = network.cpt(node)
        if not parents:
            out.write(f"probability ( {node} ) {{\n  table {_row(table)};\n}}\n")
            continue
        out.write(f"probability ( {node} | {', '.join(map(str, parents))} ) {{\n")
        for config in np.ndindex(*table.shape[:-1]):
            labels = ", ".join(network.states(p)[i] for p, i in zip(parents, config, strict=True))
            out.write(f"  ({labels}) {_row(table[config])};\n")
        out.write("}\n")


def _row(values: np.ndarray) -> str:
    return ", ".join(repr(float(v)) for v in values)
