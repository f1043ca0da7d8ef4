"""Property tests of the BIF and XMLBIF readers and writers (hypothesis).

* Any network with any names: the writer either refuses it (a ValueError naming what it cannot
  hold, nothing written) or writes a file that reads back as the same network: node order, each
  node's parents in order, states, and every CPT entry bit for bit (the writers print ``repr``).
* Any file damaged anyhow (bytes deleted, duplicated or changed, plain or gzip-compressed) is
  either read or refused with :class:`~bayeskit.networks.BIFError` (``XMLBIFError`` for XMLBIF),
  never another exception.
"""

from __future__ import annotations

import gzip
import io
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    BIFError,
    XMLBIFError,
    read_bif,
    read_xmlbif,
    write_bif,
    write_xmlbif,
)

FORMATS = {
    "BIF": (read_bif, write_bif, BIFError),
    "XMLBIF": (read_xmlbif, write_xmlbif, XMLBIFError),
}

#: Names from plain words to anything: spaces, punctuation, braces, quotes, comment marks, XML's
#: specials, control characters, unicode (letters, spaces, digits such as '²'), surrogates. Two
#: networks in three have only words or odd characters both formats hold, so most are written.
_HELD = "ab\"'<>&=#%*/²½٣é✓\x7f"
_ODD = " \t\n\r{}()[];,|/*\"'<>&=#%\x00\x01\x0b\x1f\x7f\x85\xa0\u2003\u2028²½٣é✓\ud800\ufffe"
_WORD = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True)
_WILD = st.one_of(
    st.text(alphabet=st.sampled_from("ab" + _ODD), min_size=0, max_size=5), st.text(max_size=4)
)
_HELD_NAMES = st.one_of(_WORD, st.text(alphabet=_HELD, min_size=1, max_size=5))
_ANY_NAMES = st.one_of(_WORD, st.text(alphabet=_HELD, min_size=1, max_size=5), _WILD)


@st.composite
def networks(draw) -> tuple[BayesianNetwork, str]:
    """A network of 1-4 nodes in any order, parents in any order, 1-3 states each, odd names,
    CPT rows of any floats (zeros included) divided by their sums; and a network name."""
    n = draw(st.integers(1, 4))
    NAMES = _ANY_NAMES if draw(st.integers(0, 2)) == 0 else _HELD_NAMES  # noqa: N806
    names = draw(st.lists(NAMES, min_size=n, max_size=n, unique=True))
    order = draw(st.permutations(range(n)))  # node i may have parents among nodes < i
    edges = []
    for i in range(n):
        parents = draw(st.lists(st.integers(0, i - 1), unique=True, max_size=i)) if i else []
        edges += [(names[p], names[i]) for p in parents]
    states = {v: tuple(draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))) for v in names}
    dag = DAG(nodes=[names[i] for i in order], edges=edges)
    cpts = {}
    for v in dag.nodes:
        shape = (*(len(states[p]) for p in dag.parents(v)), len(states[v]))
        size = int(np.prod(shape))
        raw = draw(
            st.lists(
                st.one_of(st.just(0.0), st.floats(1e-300, 1.0), st.integers(1, 9).map(float)),
                min_size=size,
                max_size=size,
            )
        )
        table = np.array(raw).reshape(shape)
        sums = table.sum(axis=-1, keepdims=True)
        cpts[v] = np.where(sums > 0, table / np.where(sums > 0, sums, 1), 1.0 / shape[-1])
    return BayesianNetwork(dag, cpts, states=states), draw(st.one_of(_WORD, _WILD))


def _same(a: BayesianNetwork, b: BayesianNetwork) -> None:
    assert a.nodes == b.nodes
    for node in a.nodes:
        assert a.dag.parents(node) == b.dag.parents(node)
        assert a.states(node) == b.states(node)
        np.testing.assert_array_equal(a.cpt(node), b.cpt(node))


@pytest.mark.parametrize("fmt", list(FORMATS))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=networks())
def test_what_a_writer_writes_reads_back_the_same(fmt, drawn):
    read, write, _ = FORMATS[fmt]
    net, name = drawn
    out = io.StringIO()
    try:
        write(net, out, name=name)
    except ValueError as exc:
        refusal = str(exc)
    else:
        refusal = None
    event(f"refused: {refusal is not None}")
    if refusal is not None:
        assert f"cannot be written in {fmt}: it " in refusal
        assert out.getvalue() == ""
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a written network needs no renormalising
        _same(net, read(io.StringIO(out.getvalue())))


SAMPLE = BayesianNetwork(
    DAG(edges=[("rain", "wet"), ("sprinkler", "wet")]),
    {
        "rain": [0.2, 0.8],
        "sprinkler": [0.25, 0.25, 0.5],
        "wet": [[[0.9, 0.1], [0.8, 0.2], [0.7, 0.3]], [[0.6, 0.4], [0.5, 0.5], [0.0, 1.0]]],
    },
    states={"rain": ("yes", "no"), "sprinkler": ("off", "low", "high"), "wet": ("y", "n")},
)


def _written(fmt: str) -> bytes:
    out = io.StringIO()
    FORMATS[fmt][1](SAMPLE, out, name="sample")
    return out.getvalue().encode()


#: Each format's file, and the same with its lists and rows as other tools write them
FILES = {
    "BIF": [
        _written("BIF"),
        _written("BIF").replace(b", ", b" ").replace(b"network sample", b'network "x"'),
        b"// c\nnetwork n { property p = 1 ; }\nvariable a { type discrete [ 2 ] { u, v }; }\n"
        b"variable b { type discrete [ 2 ] { u v }; }\nprobability ( a ) { table 0.3 0.7; }\n"
        b"probability ( b | a ) { (u) 0.2, 0.8; default 0.5 0.5; /* x */ }\n",
    ],
    "XMLBIF": [
        _written("XMLBIF"),
        b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE BIF [<!ELEMENT BIF ANY>]>\n'
        b'<BIF VERSION="0.3"><NETWORK><NAME>n</NAME><PROPERTY>p</PROPERTY>\n'
        b'<VARIABLE TYPE="nature"><NAME> a </NAME><OUTCOME>u</OUTCOME><OUTCOME>v\xe9</OUTCOME>'
        b"</VARIABLE>\n<!-- c --><DEFINITION><FOR>a</FOR><TABLE>0.333333 0.666666</TABLE>"
        b"</DEFINITION>\n</NETWORK></BIF>\n",
    ],
}


@st.composite
def damaged(draw, fmt: str) -> bytes:
    """One of ``fmt``'s files with 1-3 byte ranges deleted, duplicated or changed, perhaps
    gzip-compressed before or after."""
    data = draw(st.sampled_from(FILES[fmt]))
    packed = draw(st.sampled_from(["plain", "before", "after"]))
    if packed == "before":
        data = gzip.compress(data, mtime=0)
    for _ in range(draw(st.integers(1, 3))):
        if not data:
            break
        start = draw(st.integers(0, len(data) - 1))
        end = draw(st.integers(start, min(len(data), start + 8)))
        how = draw(st.sampled_from(["delete", "duplicate", "change"]))
        if how == "delete":
            data = data[:start] + data[end:]
        elif how == "duplicate":
            data = data[:end] + data[start:end] + data[end:]
        else:
            new = draw(st.one_of(st.binary(min_size=1, max_size=4), st.sampled_from(SPECIAL)))
            data = data[:start] + new + data[end:]
    return gzip.compress(data, mtime=0) if packed == "after" else data


#: Bytes that mean something to one format or the other
SPECIAL = [b"{", b"}", b"(", b")", b";", b",", b"|", b"//", b"/*", b"*/", b"<", b">", b"&",
           b"&x;", b"&#0;", b"&#x10FFFF;", b"<NAME>", b"</NAME>", b"<!ENTITY e 'x'>",
           b'encoding="rot13"', b'encoding="utf-32"', b"1e999", b"-0", b"nan", b"\xff",
           b"\xc3", b"\x00", b"\r", b"\xef\xbb\xbf", b"\x1f\x8b",
           b"99999999999999999999"]  # fmt: skip


@pytest.mark.parametrize("fmt", list(FORMATS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_damaged_file_is_read_or_refused_with_the_formats_error(fmt, data):
    read, _, error = FORMATS[fmt]
    raw = data.draw(damaged(fmt))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rows renormalised
        try:
            net = read(io.BytesIO(raw))
        except error:
            return
    assert isinstance(net, BayesianNetwork)
