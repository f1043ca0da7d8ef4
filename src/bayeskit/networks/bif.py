"""BIF files (Bayesian Interchange Format 0.15, as the bnlearn repository, pgmpy and pyAgrum
write them): read and write.

Reading is a streaming parse: the file is read line by line (gzip-compressed or not), cut into
tokens, and checked against the grammar as it goes; nothing in it is ever evaluated. A file
that breaks the grammar or describes an invalid network gives a :class:`BIFError` with the line
and what was expected there, and so does every other way a file can be bad (bytes that are not
UTF-8, a damaged gzip stream, tables too large). Writing prints every probability with
``repr`` (the shortest decimal that reads back as the same float), so a written network reads
back bit for bit; a name that the format cannot hold is refused before anything is written.

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

with ``//`` and ``/* */`` comments; a property's text runs to the next ``;`` as it is (comment
marks included: ``property url = http://x ;``) and is skipped. The commas between the items of
a list are optional, as in the format's grammar (pyAgrum writes ``table 0.2 0.8;`` and ``(yes)
0.9 0.1;``). A name is any run of characters other than white space and ``{}()[];,|``.
Numbers are ASCII decimals: ``N`` a positive whole number, each ``P`` a number in [0, 1]
(``0.25``, ``.25``, ``2.5e-1``). Parents are listed in a probability block's own order; the
network's DAG takes them in that order.

Rows printed with few digits. Tools print probabilities rounded: pyAgrum's XMLBIF writer to 6
significant digits (``0.333333 0.333333 0.333333`` sums to 0.999999), older files to 2-4
decimals (``0.3333`` three times). Rounding a probability to the digits printed moves it by at
most half a unit in its last place, so a row is read when its sum is within the sum of those
half units of 1 (``0.333333`` three times: 1.5e-6; ``0.3333`` three times: 1.5e-4), or within
:data:`~bayeskit.networks.network.SUM_TOLERANCE` (1e-6), and never when it is more than
:data:`ROUNDED_SUM_TOLERANCE` (0.01, pgmpy's own tolerance) away. Such a row, if it is more
than ``SUM_TOLERANCE`` from 1, is divided by its sum, and the reader warns
(:class:`RenormalizedCPTWarning`) naming the nodes and the largest deviation; the network's
rows then sum to 1 to rounding. A row further from 1 (``0.2, 0.7``) is no distribution and is
refused.

Limits. Tables are allocated only after their size is checked: a file whose CPTs would hold
more than ``max_cells`` cells together (by default
:data:`~bayeskit.factors.MAX_TABLE_CELLS`, 2**27, 1 GiB of float64) is refused by
name before any is filled, sizes computed with Python integers.
"""

from __future__ import annotations

import re
import warnings
from array import array
from collections.abc import Iterator
from typing import IO, Any, NoReturn

import numpy as np

from bayeskit.data.validation import check_count
from bayeskit.factors.limits import MAX_TABLE_CELLS
from bayeskit.networks._files import (
    ROUNDED_SUM_TOLERANCE,
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
    _whole,
    _write_to,
)
from bayeskit.networks.network import BayesianNetwork

__all__ = ["ROUNDED_SUM_TOLERANCE", "BIFError", "RenormalizedCPTWarning", "read_bif", "write_bif"]

_PUNCT = "{}()[];,|"
_TOKEN = re.compile(r"[{}()\[\];,|]|[^\s{}()\[\];,|]+")
#: What a line holds where comments or properties may be: white space, a comment mark, or a
#: token (a '/' in a word is one that starts no comment).
_LEXEME = re.compile(r"\s+|//|/\*|[{}()\[\];,|]|(?:[^\s{}()\[\];,|/]|/(?![/*]))+")


def _bif_rule(label: Any) -> str | None:
    """Why ``label`` cannot be a name in a BIF file, or None."""
    if not isinstance(label, str):
        return f"is a {type(label).__name__}, not a string"
    if not label:
        return "is empty"
    if any(c.isspace() or c in _PUNCT for c in label):
        return "holds white space or one of {}()[];,| (BIF names are single words)"
    if "//" in label or "/*" in label:
        return "holds '//' or '/*', which start BIF comments"
    return _utf8_rule(label)


# ------------------------------------------------------------------ tokens
class _Tokens:
    """The tokens of a text stream, with their line numbers, read a line at a time."""

    def __init__(self, stream: IO[str]):
        self._lines = iter(stream)
        self._pending: list[tuple[str | None, int]] = []
        self.line = 0
        self._comment = False
        self._property = False
        self._gen = self._tokens()

    def _tokens(self) -> Iterator[tuple[str, int]]:
        for number, line in enumerate(self._lines, start=1):
            self.line = number
            if not (self._comment or self._property or "/" in line or "property" in line):
                for tok in _TOKEN.findall(line):  # the common line: tokens only
                    yield tok, number
                continue
            pos = 0
            while pos < len(line):
                if self._comment:  # inside /* */
                    end = line.find("*/", pos)
                    if end < 0:
                        break
                    self._comment, pos = False, end + 2
                    continue
                if self._property:  # a property's text: anything up to ';'
                    end = line.find(";", pos)
                    if end < 0:
                        break
                    self._property, pos = False, end + 1
                    yield ";", number
                    continue
                match = _LEXEME.match(line, pos)
                assert match is not None  # every character starts a lexeme
                tok, pos = match.group(), match.end()
                if tok == "//":
                    break
                if tok == "/*":
                    self._comment = True
                elif not tok[0].isspace():
                    yield tok, number

    def peek(self) -> tuple[str | None, int]:
        if not self._pending:
            self._pending.append(next(self._gen, (None, self.line)))
        return self._pending[0]

    def next(self) -> tuple[str | None, int]:
        if self._pending:
            return self._pending.pop()
        return next(self._gen, (None, self.line))

    def fail(self, expected: str, got: str | None, line: int) -> NoReturn:
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

    def comma(self) -> None:
        """An optional ',' between the items of a list."""
        if self.peek()[0] == ",":
            self.next()

    def skip_property(self) -> None:
        """``property ... ;`` (the word just read): its text, up to the semicolon, is skipped
        as it is, comment marks included (``property url = http://x ;``)."""
        self._property = True
        got, line = self.next()
        if got != ";":
            self.fail("';' ending the property", got, line)


# ------------------------------------------------------------------ reading
def read_bif(source: Any, *, max_cells: int = MAX_TABLE_CELLS) -> BayesianNetwork:
    """Read a discrete Bayesian network from a BIF file.

    Parameters
    ----------
    source : str, path or file object
        A ``.bif`` or gzip-compressed ``.bif.gz`` file (detected from its first bytes), or an
        open text or binary stream (left open).
    max_cells : int, default=:data:`~bayeskit.factors.MAX_TABLE_CELLS` (2**27)
        The most cells the network's CPTs may hold together; checked for each table before it
        is allocated.

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
        that is no ASCII number in [0, 1], a distribution that does not sum to 1 to the
        digits printed, a cycle, tables over ``max_cells``; bytes that are not UTF-8, damaged
        gzip data.

    Warns
    -----
    RenormalizedCPTWarning
        When rows summed to 1 only to the digits printed, more than 1e-6 away (pyAgrum and
        older files print few digits): they are divided by their sums, and the warning names
        the nodes and the largest deviation. A row may sum to 1 within half a unit in the last
        printed place of each of its probabilities, added (the most rounding can move the
        sum: ``0.3333 0.3333 0.3333``, 1.5e-4), never more than
        :data:`ROUNDED_SUM_TOLERANCE` (0.01); a row further off is refused.

    Examples
    --------
    >>> import io
    >>> text = '''
    ... network tiny { }
    ... variable rain { type discrete [ 2 ] { yes, no }; }
    ... variable wet { type discrete [ 2 ] { yes, no }; }
    ... probability ( rain ) { table 0.2, 0.8; }
    ... probability ( wet | rain ) { (yes) 0.9, 0.1; (no) 0.1 0.9; }
    ... '''
    >>> net = read_bif(io.StringIO(text))
    >>> net.dag.parents("wet"), net.cpt("wet")[1].tolist()
    (('rain',), [0.1, 0.9])
    """
    check_count("max_cells", max_cells, low=1)
    net, note = _read(
        source, lambda s: _parse(_Tokens(s), max_cells), BIFError, "read_bif", text=True
    )
    if note is not None:
        warnings.warn(note, RenormalizedCPTWarning, stacklevel=2)
    return net


def _parse(toks: _Tokens, max_cells: int) -> tuple[BayesianNetwork, str | None]:
    states: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    blocks: dict[str, _Block] = {}
    cells = 0
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
            shape = (*(len(states[p]) for p in parents), len(states[child]))
            cells = _count_cells(cells, shape, child, parents, line, max_cells, BIFError)
            blocks[child] = _entries(toks, child, parents, states, shape)
        else:
            toks.fail("'network', 'variable' or 'probability'", word, line)
    return _assemble(states, lines, blocks, "probability block", BIFError)


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
        size = _whole(size_tok)
        if size is None:
            toks.fail("a positive number of states (ASCII digits)", size_tok, at)
        toks.expect("]")
        open_line = toks.expect("{")
        found = [toks.name("a state name")]
        while True:
            sep, at = toks.peek()
            if sep == "}":
                toks.next()
                break
            if sep is None or (sep in _PUNCT and sep != ","):
                toks.next()
                toks.fail("',' or '}'", sep, at)
            toks.comma()
            found.append(toks.name("a state name"))
        toks.expect(";")
        if len(found) != size:
            msg = (
                f"line {open_line}: variable {name!r} declares {size} states but lists {len(found)}"
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
    if child is None or child not in states:
        toks.fail("a declared variable", child, line)
    parents: list[str] = []
    got, line = toks.next()
    if got == "|":
        while True:
            parent, at = toks.next()
            if parent is None or parent not in states:
                toks.fail("a declared variable as parent", parent, at)
            if parent == child or parent in parents:
                toks.fail("distinct parents, other than the child", parent, at)
            parents.append(parent)
            toks.comma()
            if toks.peek()[0] == ")":
                got, line = toks.next()
                break
    if got != ")":
        toks.fail("')'", got, line)
    return child, tuple(parents)


def _numbers(toks: _Tokens, count: int, what: str) -> tuple[array, array]:
    """``count`` probabilities (commas between them optional) and the closing ';': their
    values and decimal places."""
    values, decimals = array("d"), array("b")
    tok, line = toks.next()
    while True:
        parsed = _probability(tok)
        if parsed is None:
            toks.fail(f"a probability (a number in [0, 1]) in {what}", tok, line)
        if len(values) == count:
            msg = f"line {line}: {what} has more than {count} probabilities"
            raise BIFError(msg)
        values.append(parsed[0])
        decimals.append(parsed[1])
        sep, at = toks.next()
        if sep == ";":
            break
        if sep == ",":
            tok, line = toks.next()
        elif sep is None or sep in _PUNCT:
            toks.fail("',' or ';'", sep, at)
        else:
            tok, line = sep, at
    if len(values) != count:
        msg = f"line {line}: {what} has {len(values)} probabilities, expected {count}"
        raise BIFError(msg)
    return values, decimals


def _entries(toks: _Tokens, child: str, parents: tuple, states: dict, shape: tuple) -> _Block:
    k = shape[-1]
    table = np.zeros(shape)
    decimals = np.zeros(shape, dtype=np.int8)
    filled = np.zeros(shape[:-1], dtype=bool)
    index = {p: {s: i for i, s in enumerate(states[p])} for p in parents}
    default: tuple[array, array] | None = None
    open_line = toks.expect("{")
    while True:
        word, line = toks.next()
        if word == "}":
            break
        if word == "property":
            toks.skip_property()
        elif word == "table":
            if filled.any():
                toks.fail(f"one 'table' and no rows with it for {child!r}", word, line)
            values, places = _numbers(toks, table.size, f"the table of {child!r}")
            # child slowest, last parent fastest
            table[...] = np.frombuffer(values).reshape(k, -1).T.reshape(shape)
            decimals[...] = np.frombuffer(places, dtype=np.int8).reshape(k, -1).T.reshape(shape)
            filled[...] = True
        elif word == "default":
            if default is not None:
                toks.fail(f"one default row for {child!r}", word, line)
            default = _numbers(toks, k, f"the default row of {child!r}")
        elif word == "(":
            if not parents:
                toks.fail(f"'table' ({child!r} has no parents)", "(", line)
            config = []
            for i, parent in enumerate(parents):
                if i:
                    toks.comma()
                label, at = toks.next()
                if label not in index[parent]:
                    toks.fail(f"a state of {parent!r} {list(states[parent])}", label, at)
                config.append(index[parent][label])
            toks.expect(")")
            row = tuple(config)
            if filled[row]:
                toks.fail(f"each parent configuration of {child!r} once", "(", line)
            values, places = _numbers(toks, k, f"the row of {child!r}")
            table[row] = np.frombuffer(values)
            decimals[row] = np.frombuffer(places, dtype=np.int8)
            filled[row] = True
        else:
            toks.fail("'table', '(', 'default', 'property' or '}'", word, line)
    unset = ~filled
    if unset.any():
        if default is None:
            cell = tuple(int(i) for i in np.argwhere(unset)[0])
            shown = ", ".join(states[p][i] for p, i in zip(parents, cell, strict=True))
            msg = f"line {open_line}: the CPT of {child!r} has no row for ({shown})"
            raise BIFError(msg)
        table[unset] = np.frombuffer(default[0])
        decimals[unset] = np.frombuffer(default[1], dtype=np.int8)
    return _Block(parents, table, _rounding(decimals), open_line)


# ------------------------------------------------------------------ writing
def write_bif(network: BayesianNetwork, target: Any, *, name: str = "unknown") -> None:
    """Write ``network`` as BIF to ``target`` (a path, gzip-compressed when it ends in
    ``.gz``, or a text or binary stream, left open).

    Variables in node order; CPTs of nodes with parents as one row per parent configuration
    in C order; every probability with ``repr``, so reading the file back gives the same
    floats, DAG, node and parent order and states.

    Parameters
    ----------
    network : BayesianNetwork
        The network to write.
    target : str, path or file object
        Where to write: a path (gzip-compressed when it ends in ``.gz``), or an open text or
        binary stream, left open.
    name : str, default="unknown"
        The network's name in the file (a single word).

    Raises
    ------
    ValueError
        Before anything is written, naming it: a network name, node name or state name that
        BIF cannot hold (names are single words: not empty, no white space, none of
        ``{}()[];,|``, no ``//`` or ``/*``, which start comments; strings UTF-8 can encode).
    TypeError
        ``network`` is no :class:`BayesianNetwork`, or ``target`` no path or stream.

    Examples
    --------
    >>> import io
    >>> from bayeskit.networks import example_network
    >>> net = example_network("cancer")
    >>> out = io.StringIO()
    >>> write_bif(net, out, name="cancer")
    >>> out.getvalue().splitlines()[0]
    'network cancer {'
    >>> read_bif(io.StringIO(out.getvalue())).cpt("Cancer").tolist() == net.cpt("Cancer").tolist()
    True
    """
    _check_names(network, name, _bif_rule, "BIF", "write_bif")
    _write_to(target, lambda out: _write(network, out, name), "write_bif")


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
