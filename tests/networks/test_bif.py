"""BIF files: reading, writing, round trips and malformed input (issue 13).

The small networks of ``data/`` are byte copies of the bnlearn repository's files (sha256
prefixes in ``BUNDLED``); node, arc and parameter counts from that collection's manifest. The
whole collection (24 networks) is checked when ``$BAYESKIT_NETWORKS`` names its folder, as for
the benchmarks.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
from pathlib import Path

import numpy as np
import pytest

from bayeskit.networks import BIFError, read_bif, write_bif

DATA = Path(__file__).parent / "data"
COLLECTION = (
    Path(os.environ.get("BAYESKIT_NETWORKS", "")) if "BAYESKIT_NETWORKS" in os.environ else None
)

#: name -> (nodes, arcs, free parameters, sha256 prefix of the .bif.gz)
BUNDLED = {
    "asia": (8, 8, 18, "7d5e7b854983"),
    "cancer": (5, 4, 10, "dcfafbaadabc"),
    "earthquake": (5, 4, 10, "77a41f1d509c"),
    "sachs": (11, 17, 178, "ed1830fbde10"),
    "survey": (6, 6, 21, "676e1fe97efe"),
    "alarm": (37, 46, 509, "f5860caa7137"),
}


def _same(a, b) -> None:
    assert a.nodes == b.nodes
    for node in a.nodes:
        assert a.dag.parents(node) == b.dag.parents(node)
        assert a.states(node) == b.states(node)
        np.testing.assert_array_equal(a.cpt(node), b.cpt(node))  # bit for bit


def _round_trip(net, tmp_path: Path, name: str):
    path = tmp_path / f"{name}.bif.gz"
    write_bif(net, path)
    with gzip.open(path, "rb") as f:
        assert f.read(7) == b"network"
    return read_bif(path)


@pytest.mark.parametrize("name", list(BUNDLED))
def test_bundled_networks_read_and_round_trip(name, tmp_path):
    path = DATA / f"{name}.bif.gz"
    assert hashlib.sha256(path.read_bytes()).hexdigest().startswith(BUNDLED[name][3])
    net = read_bif(path)
    nodes, arcs, params, _ = BUNDLED[name]
    assert (len(net.nodes), len(net.dag.edges), net.n_parameters) == (nodes, arcs, params)
    _same(net, _round_trip(net, tmp_path, name))
    text = io.StringIO()
    write_bif(net, text)
    _same(net, read_bif(io.StringIO(text.getvalue())))
    _same(net, read_bif(io.BytesIO(text.getvalue().encode())))


def test_asia_reads_as_its_file_says():
    net = read_bif(DATA / "asia.bif.gz")
    assert net.nodes[:3] == ("asia", "tub", "smoke")
    assert net.dag.parents("either") == ("lung", "tub")  # the block's own order
    assert net.states("dysp") == ("yes", "no")
    # (no, yes) 1.0, 0.0: lung = no, tub = yes
    assert net.cpt("either")[1, 0].tolist() == [1.0, 0.0]
    assert net.cpt("dysp")[0, 1].tolist() == [0.8, 0.2]  # bronc = yes, either = no


@pytest.mark.skipif(
    COLLECTION is None or not COLLECTION.is_dir(), reason="$BAYESKIT_NETWORKS is not set"
)
def test_every_network_of_the_collection_round_trips(tmp_path):
    files = sorted(COLLECTION.glob("*.bif.gz"))
    assert len(files) >= 24
    for path in files:
        net = read_bif(path)
        _same(net, _round_trip(net, tmp_path, path.name.split(".")[0]))


def test_writing_uses_repr_so_floats_survive():
    # pgmpy #1712: probabilities written with few digits do not read back as the same floats
    text = """network t { }
    variable a { type discrete [ 3 ] { x, y, z }; }
    probability ( a ) { table 0.1, 0.2, 0.7000000000000001; }"""
    net = read_bif(io.StringIO(text))
    out = io.StringIO()
    write_bif(net, out)
    assert "0.7000000000000001" in out.getvalue()
    assert read_bif(io.StringIO(out.getvalue())).cpt("a")[2] == 0.7000000000000001


def test_table_default_comments_and_properties():
    text = """// a comment
    network "x" { property author = me ; }
    /* a block
       comment */ variable a { type discrete [ 2 ] { u, v }; property position = (1, 2) ; }
    variable b { type discrete [ 3 ] { p, q, r }; }
    probability ( a ) { table 0.25, 0.75; }
    probability ( b | a ) {
      table 0.1, 0.2, 0.3, 0.4, 0.6, 0.4;  // the child slowest, the parent fastest
    }"""
    net = read_bif(io.StringIO(text))
    np.testing.assert_allclose(net.cpt("b"), [[0.1, 0.3, 0.6], [0.2, 0.4, 0.4]])
    with_default = text.replace(
        "table 0.1, 0.2, 0.3, 0.4, 0.6, 0.4;", "(v) 0.2, 0.4, 0.4; default 0.1, 0.3, 0.6;"
    )
    np.testing.assert_allclose(read_bif(io.StringIO(with_default)).cpt("b"), net.cpt("b"))


GOOD = """network n { }
variable a { type discrete [ 2 ] { yes, no }; }
variable b { type discrete [ 2 ] { yes, no }; }
probability ( a ) { table 0.5, 0.5; }
probability ( b | a ) { (yes) 0.9, 0.1; (no) 0.2, 0.8; }
"""


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        ("table 0.5, 0.5;", "table 0.5, 0.5", r"line 4: expected ',' or ';', got '}'"),
        ("( b | a )", "( b | c )", r"line 5: expected a declared variable as parent, got 'c'"),
        (
            "(no) 0.2",
            "(maybe) 0.2",
            r"line 5: expected a state of 'a' \['yes', 'no'\], got 'maybe'",
        ),
        ("(no) 0.2, 0.8;", "", r"line 5: the CPT of 'b' has no row for \(no\)"),
        ("(no) 0.2, 0.8;", "(no) 0.2;", r"line 5: the row of 'b' has 1 probabilities, expected 2"),
        ("0.2, 0.8", "1.2, -0.2", r"line 5: expected a probability \(a number in \[0, 1\]\)"),
        ("0.2, 0.8", "0.2, 0.7", r"line 5: node 'b': the distribution given \{'a': 'no'\} sums"),
        (
            "[ 2 ] { yes, no }; }\nvariable b",
            "[ 3 ] { yes, no }; }\nvariable b",
            "line 2: .*declares 3",
        ),
        ("variable b {", "variable a {", r"line 3: expected a new variable"),
        ("probability ( b | a )", "probability ( a )", r"line 5: expected one probability block"),
        ("type discrete", "type continuous", r"line 2: expected 'discrete'"),
        ("probability ( a ) { table 0.5, 0.5; }", "", r"line 2: variable 'a' has no probability"),
        ("(yes) 0.9", "(yes) nan", "expected a probability"),
        ("(yes) 0.9", "(yes) 1e999", "expected a probability"),
        ("network n", "netwrok n", r"line 1: expected 'network', 'variable' or 'probability'"),
    ],
)
def test_malformed_files_name_the_line_and_what_was_expected(old, new, match):
    assert old in GOOD
    with pytest.raises(BIFError, match=match):
        read_bif(io.StringIO(GOOD.replace(old, new, 1)))


def test_a_file_cut_short():
    with pytest.raises(BIFError, match="line 1: expected ';' ending the property, got the end"):
        read_bif(io.StringIO("network n { property x"))
    with pytest.raises(BIFError, match="line 2: expected ',' or '}', got the end of the file"):
        read_bif(io.StringIO("network n { }\nvariable a { type discrete [ 2 ] { yes"))


def test_a_cycle_is_refused():
    text = GOOD.replace("probability ( a ) { table 0.5, 0.5; }",
                        "probability ( a | b ) { (yes) 0.5, 0.5; (no) 0.5, 0.5; }")  # fmt: skip
    with pytest.raises(BIFError, match="make no DAG: the edges make a cycle"):
        read_bif(io.StringIO(text))


def test_bytes_that_are_not_text_and_names_that_cannot_be_written(tmp_path):
    path = tmp_path / "bad.bif"
    path.write_bytes(b"network \xff\xfe {}")
    with pytest.raises(BIFError, match="not UTF-8"):
        read_bif(path)
    net = read_bif(io.StringIO(GOOD))
    from bayeskit.networks import BayesianNetwork

    spaced = BayesianNetwork(net.dag, {n: net.cpt(n) for n in net.nodes},
                             states={"a": ("a yes", "no"), "b": ("yes", "no")})  # fmt: skip
    with pytest.raises(ValueError, match="'a yes'.*single words"):
        write_bif(spaced, io.StringIO())
    with pytest.raises(TypeError, match="path or a file object"):
        read_bif(42)


# ---------------------------------------------------------------- XMLBIF
@pytest.mark.parametrize("name", list(BUNDLED))
def test_bundled_networks_round_trip_through_xmlbif(name, tmp_path):
    from bayeskit.networks import read_xmlbif, write_xmlbif

    net = read_bif(DATA / f"{name}.bif.gz")
    path = tmp_path / f"{name}.xml.gz"
    write_xmlbif(net, path)
    _same(net, read_xmlbif(path))
    text = io.StringIO()
    write_xmlbif(net, text)
    _same(net, read_xmlbif(io.BytesIO(text.getvalue().encode())))


def test_xmlbif_table_order_and_escaping():
    from bayeskit.networks import BayesianNetwork, read_xmlbif, write_xmlbif

    # the node's states fastest, then the last parent: the C order of (parents..., node)
    text = """<?xml version="1.0"?>
    <BIF VERSION="0.3"><NETWORK><NAME>n</NAME>
    <VARIABLE TYPE="nature"><NAME>a</NAME><OUTCOME>u</OUTCOME><OUTCOME>v</OUTCOME></VARIABLE>
    <VARIABLE TYPE="nature"><NAME>b</NAME><OUTCOME>p</OUTCOME><OUTCOME>q</OUTCOME>
      <OUTCOME>r</OUTCOME><PROPERTY>position = (1, 2)</PROPERTY></VARIABLE>
    <DEFINITION><FOR>a</FOR><TABLE>0.25 0.75</TABLE></DEFINITION>
    <DEFINITION><FOR>b</FOR><GIVEN>a</GIVEN><TABLE>0.1 0.3 0.6 0.2 0.4 0.4</TABLE></DEFINITION>
    </NETWORK></BIF>"""
    net = read_xmlbif(io.StringIO(text))
    np.testing.assert_allclose(net.cpt("b"), [[0.1, 0.3, 0.6], [0.2, 0.4, 0.4]])
    odd = BayesianNetwork(net.dag, {n: net.cpt(n) for n in net.nodes},
                          states={"a": ("x<1", "a & b"), "b": ("p", "q", "r")})  # fmt: skip
    out = io.StringIO()
    write_xmlbif(odd, out)
    assert "x&lt;1" in out.getvalue()
    assert read_xmlbif(io.StringIO(out.getvalue())).states("a") == ("x<1", "a & b")


XML = """<BIF VERSION="0.3"><NETWORK><NAME>n</NAME>
<VARIABLE TYPE="nature"><NAME>a</NAME><OUTCOME>u</OUTCOME><OUTCOME>v</OUTCOME></VARIABLE>
<DEFINITION><FOR>a</FOR><TABLE>0.25 0.75</TABLE></DEFINITION>
</NETWORK></BIF>"""


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        ("<TABLE>0.25 0.75</TABLE>", "<TABLE>0.25 0.75 0.0</TABLE>", "line 3: .*has 3 prob"),
        ("<TABLE>0.25 0.75</TABLE>", "<TABLE>0.25 x</TABLE>", r"line 3: expected a probability"),
        ("<TABLE>0.25 0.75</TABLE>", "<TABLE>0.25 0.5</TABLE>", "line 3: node 'a'.*sums to 0.75"),
        ("<FOR>a</FOR>", "<FOR>z</FOR>", "line 3: 'z' is no declared variable"),
        ("<DEFINITION><FOR>a</FOR><TABLE>0.25 0.75</TABLE></DEFINITION>", "",
         "line 2: variable 'a' has no definition"),
        ("<OUTCOME>v</OUTCOME>", "<SCRIPT>v</SCRIPT>", "line 2: expected an XMLBIF element"),
        ("</NETWORK>", "", "not well-formed XML"),
        ("<NAME>n</NAME>", "<NAME>n</NAME>stray", "expected elements inside <NETWORK>"),
    ],
)  # fmt: skip
def test_malformed_xmlbif_names_the_line(old, new, match):
    from bayeskit.networks import read_xmlbif

    assert old in XML
    with pytest.raises(BIFError, match=match):
        read_xmlbif(io.StringIO(XML.replace(old, new, 1)))


def test_xmlbif_refuses_entities():
    # no entity is expanded: "billion laughs" and external entities are refused outright
    from bayeskit.networks import read_xmlbif

    bomb = '<?xml version="1.0"?><!DOCTYPE BIF [<!ENTITY lol "lol">]>' + XML
    with pytest.raises(BIFError, match="entity declarations are not read"):
        read_xmlbif(io.StringIO(bomb))
