"""What the BIF and XMLBIF files share: opening a file (gzip or not) and writing one, the
numbers of a table read with the digits they are printed with, the tolerance of a row printed
rounded and its renormalisation, the check of a network's size before its tables are filled,
the assembly of the network read, the rules for the names a format can hold, and the errors
and warnings (see :mod:`bayeskit.networks.bif`)."""

from __future__ import annotations

import functools
import gzip
import io
import math
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from bayeskit._text import first_few
from bayeskit.graphs.dag import DAG
from bayeskit.networks.network import SUM_TOLERANCE, BayesianNetwork

#: An ASCII decimal number: its fraction's digits (group 1 or 2) and exponent (group 3).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(\.[0-9]*)?|(\.[0-9]+))(?:[eE]([+-]?[0-9]+))?")
#: An ASCII whole number of at most 18 digits (no sign, no other digits such as '²').
_WHOLE = re.compile(r"[0-9]{1,18}")
#: Decimal places beyond this change no tolerance (10**-30 is far below SUM_TOLERANCE).
_MAX_DECIMALS = 30
#: Half a unit in the last place of a number printed with 0, 1, ..., _MAX_DECIMALS decimals.
_HALF_UNITS = 0.5 * 10.0 ** -np.arange(_MAX_DECIMALS + 1)

#: The most a row of a file's probabilities may sum away from 1, however few digits they are
#: printed with: pgmpy's own tolerance (rows of 2-decimal files such as 0.33 0.33 0.33).
ROUNDED_SUM_TOLERANCE = 0.01


class BIFError(ValueError):
    """A BIF file that does not follow the grammar, or describes no valid network."""


class RenormalizedCPTWarning(UserWarning):
    """Rows of a file's CPTs that summed to 1 only to the digits printed, divided by their sums
    on reading."""


# ------------------------------------------------------------------ opening files
@contextmanager
def _opened(source: Any, *, text: bool, reader: str) -> Iterator[Any]:
    """``source`` as a stream, everything opened here closed after: a path is opened (and
    gunzipped when its first bytes say gzip), so is a binary stream (left open); a text stream
    is taken as it is. With ``text``, bytes are decoded as UTF-8 (a byte-order mark skipped)."""
    with ExitStack() as stack:
        if isinstance(source, str | PathLike):
            raw: Any = stack.enter_context(open(Path(source), "rb"))  # noqa: SIM115
        elif isinstance(source, io.TextIOBase):
            yield source
            return
        elif hasattr(source, "read"):
            if isinstance(source.read(0), str):
                yield source
                return
            raw = source
        else:
            msg = f"{reader} needs a path or a file object, got {type(source).__name__}"
            raise TypeError(msg)
        if _is_gzip(raw):
            raw = stack.enter_context(gzip.GzipFile(fileobj=raw, mode="rb"))
        if text:
            wrapper = io.TextIOWrapper(raw, encoding="utf-8-sig")
            stack.callback(wrapper.detach)  # the stream beneath stays as it was (open or not)
            raw = wrapper
        yield raw


def _is_gzip(raw: Any) -> bool:
    """Whether the binary stream ``raw`` starts with gzip's magic bytes (left unread)."""
    if hasattr(raw, "peek"):
        return raw.peek(2)[:2] == b"\x1f\x8b"
    if raw.seekable():
        at = raw.tell()
        head = raw.read(2)
        raw.seek(at)
        return head == b"\x1f\x8b"
    return False


def _read(source: Any, parse: Callable, error: type[ValueError], reader: str, *, text: bool) -> Any:
    """``parse(stream)`` over ``source`` (:func:`_opened`); bytes that are not UTF-8 and
    damaged gzip data give ``error``."""
    try:
        with _opened(source, text=text, reader=reader) as stream:
            return parse(stream)
    except UnicodeDecodeError as exc:
        msg = f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise error(msg) from None
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        msg = f"the file's gzip data is damaged ({exc})"
        raise error(msg) from None


def _write_to(target: Any, write: Callable[[Any], None], writer: str) -> None:
    """``write(stream)`` into ``target``: a path (gzip-compressed when it ends in ``.gz``), a
    text stream, or a binary stream (written as UTF-8, left open)."""
    if isinstance(target, str | PathLike):
        path = Path(target)
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "wt", encoding="utf-8", newline="\n") as out:
            write(out)
    elif isinstance(target, io.TextIOBase):
        write(target)
    elif hasattr(target, "write"):
        out = io.TextIOWrapper(target, encoding="utf-8", newline="\n")
        try:
            write(out)
            out.flush()
        finally:
            out.detach()
    else:
        msg = f"{writer} needs a path or a file object, got {type(target).__name__}"
        raise TypeError(msg)


# ------------------------------------------------------------------ numbers, rows and sizes
@functools.lru_cache(maxsize=1 << 12)  # files repeat their numbers (0.0, 1.0, 0.5, ...)
def _probability(token: str | None) -> tuple[float, int] | None:
    """The probability ``token`` prints (an ASCII decimal in [0, 1]) and its decimal places
    (``0.333333``: 6, ``1e-05``: 5, ``1``: 0, at most 30), or None."""
    match = _NUMBER.fullmatch(token) if token else None
    if match is None:
        return None
    value = float(match.group())
    if not 0.0 <= value <= 1.0:
        return None
    fraction = match.group(1) or match.group(2) or "."
    exponent = match.group(3) or "0"
    shift = int(exponent) if len(exponent) <= 6 else (-(10**6) if exponent[0] == "-" else 10**6)
    return value + 0.0, min(max(len(fraction) - 1 - shift, 0), _MAX_DECIMALS)  # -0.0 -> 0.0


def _whole(token: str | None) -> int | None:
    """The positive whole number ``token`` is in ASCII digits, or None."""
    if token is None or _WHOLE.fullmatch(token) is None or int(token) < 1:
        return None
    return int(token)


def _rounding(decimals: Any) -> np.ndarray:
    """How far rounding can have moved the sum of each row (last axis) of probabilities printed
    to ``decimals`` places: half a unit of each one's last place, added."""
    return _HALF_UNITS[np.asarray(decimals, dtype=np.intp)].sum(axis=-1)


@dataclass
class _Block:
    """A parsed CPT: its parents, the table (parents..., child), how far rounding to the
    digits printed can have moved each row's sum (:func:`_rounding`), and its first line."""

    parents: tuple[str, ...]
    table: np.ndarray
    rounding: np.ndarray
    line: int


def _count_cells(
    total: int, shape: tuple[int, ...], child: str, parents: tuple, line: int, limit: int, error
) -> int:
    """``total`` plus the cells of ``child``'s CPT of ``shape``: ``error`` when over
    ``limit``."""
    size = math.prod(shape)
    if total + size > limit:
        dims = " x ".join(map(str, shape))
        msg = (
            f"line {line}: the CPT of {child!r} given {list(parents)} has {dims} = {size:,} "
            f"cells, {total + size:,} with the CPTs before it, more than max_cells={limit:,}; "
            "pass a larger max_cells to read it"
        )
        raise error(msg)
    return total + size


def _renormalize(child: str, block: _Block, states: dict, error: type[BIFError]) -> tuple:
    """Check each row of ``block`` sums to 1 to the digits printed (the module's rule) and
    divide those more than ``SUM_TOLERANCE`` off by their sums: (rows divided, largest
    deviation)."""
    k = block.table.shape[-1]
    rows = block.table.reshape(-1, k)
    sums = rows.sum(axis=1)
    off = np.abs(sums - 1.0)
    allowed = np.clip(block.rounding.reshape(-1), SUM_TOLERANCE, ROUNDED_SUM_TOLERANCE)
    bad = off > allowed + 1e-12  # rounding of the sum itself
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        at = np.unravel_index(i, block.table.shape[:-1])
        config = {p: states[p][j] for p, j in zip(block.parents, at, strict=True)}
        msg = (
            f"line {block.line}: node {child!r}: the distribution given "
            f"{config or 'no parents'} sums to {float(sums[i]):.10g}, not 1 (rounding to the "
            f"digits printed explains at most {allowed[i]:.2g})"
        )
        raise error(msg)
    fix = off > SUM_TOLERANCE
    if not fix.any():
        return 0, 0.0
    rows[fix] /= sums[fix][:, None]
    return int(fix.sum()), float(off[fix].max())


def _assemble(
    states: dict, lines: dict, blocks: dict[str, _Block], block: str, error: type[BIFError]
) -> tuple[BayesianNetwork, str | None]:
    """The network of the parsed variables (``states``, declared at ``lines``) and their
    CPT ``blocks``, each check failing with a line: a variable without a ``block``, parents
    that make a cycle, a row that is no distribution, an invalid CPT. With it, the warning to
    give for rows divided by their sums (or None)."""
    missing = [v for v in states if v not in blocks]
    if missing:
        msg = f"line {lines[missing[0]]}: variable {missing[0]!r} has no {block}"
        raise error(msg)
    edges = [(p, child) for child in states for p in blocks[child].parents]
    try:
        dag = DAG(nodes=list(states), edges=edges)
    except ValueError as exc:
        msg = f"the {block}s' parents make no DAG: {exc}"
        raise error(msg) from None
    fixed = {v: _renormalize(v, blocks[v], states, error) for v in states}
    try:
        net = BayesianNetwork(dag, {v: blocks[v].table for v in states}, states=states)
    except ValueError as exc:
        node = next((v for v in states if str(exc).startswith(f"node {v!r}:")), None)
        where = f"line {blocks[node].line}: " if node is not None else ""
        msg = f"{where}{exc}"
        raise error(msg) from None
    return net, _renormalized_note(fixed)


def _renormalized_note(fixed: dict[str, tuple[int, float]]) -> str | None:
    nodes = [v for v, (n, _) in fixed.items() if n]
    if not nodes:
        return None
    worst = max(nodes, key=lambda v: fixed[v][1])
    named = first_few(map(repr, nodes), 5)
    rows = sum(fixed[v][0] for v in nodes)
    return (
        f"{rows} CPT row(s) of {named} summed to 1 only to the digits printed (the largest "
        f"deviation {fixed[worst][1]:.2g}, in {worst!r}); each was divided by its sum"
    )


# ------------------------------------------------------------------ names
def _utf8_rule(label: str) -> str | None:
    try:
        label.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate, which UTF-8 cannot encode"
    return None


def _check_names(network: Any, name: Any, rule: Callable, fmt: str, writer: str) -> None:
    """TypeError unless ``network`` is a network; ValueError naming the first of its network
    ``name``, node names and state names that ``rule`` refuses, and why."""
    if not isinstance(network, BayesianNetwork):
        msg = f"{writer} needs a BayesianNetwork, got {type(network).__name__}"
        raise TypeError(msg)
    labels = [("the network name", name)]
    for node in network.nodes:
        labels.append(("node", node))
        labels.extend((f"state of node {node!r}", s) for s in network.states(node))
    for what, label in labels:
        problem = rule(label)
        if problem is not None:
            msg = f"{what} {label!r} cannot be written in {fmt}: it {problem}"
            raise ValueError(msg)
