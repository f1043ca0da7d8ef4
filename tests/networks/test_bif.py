"""BIF and XMLBIF files: reading, writing, round trips, malformed input, rows printed with few
digits, size limits, open files, and the names each writer can hold.

The small networks of ``data/`` are byte copies of the bnlearn repository's files (sha256
prefixes in ``BUNDLED``); node, arc and parameter counts from that collection's manifest. The
whole collection (24 networks) is checked when ``$BAYESKIT_NETWORKS`` names its folder, as for
the benchmarks.
"""

from __future__ import annotations

import contextlib
import gc
import gzip
import hashlib
import io
import os
import warnings
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


# ---------------------------------------------------------------- both formats
def _one_node(row: str, fmt: str, *, states: str = "x y z") -> str:
    """A file of one node ``a`` with the given states and CPT row, in ``fmt``."""
    labels = states.split()
    if fmt == "BIF":
        return (
            f"network n {{ }}\nvariable a {{ type discrete [ {len(labels)} ] "
            f"{{ {', '.join(labels)} }}; }}\nprobability ( a ) {{ table {row}; }}\n"
        )
    outcomes = "".join(f"<OUTCOME>{s}</OUTCOME>" for s in labels)
    return (
        f'<BIF VERSION="0.3"><NETWORK><NAME>n</NAME>\n<VARIABLE TYPE="nature"><NAME>a</NAME>'
        f"{outcomes}</VARIABLE>\n<DEFINITION><FOR>a</FOR><TABLE>{row}</TABLE></DEFINITION>\n"
        "</NETWORK></BIF>\n"
    )


FORMATS = ["BIF", "XMLBIF"]


def _reader(fmt: str):
    from bayeskit.networks import read_xmlbif

    return read_bif if fmt == "BIF" else read_xmlbif


def _writer(fmt: str):
    from bayeskit.networks import write_xmlbif

    return write_bif if fmt == "BIF" else write_xmlbif


def _error(fmt: str):
    from bayeskit.networks import XMLBIFError

    return BIFError if fmt == "BIF" else XMLBIFError


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "row",
    [
        "0.333333 0.333333 0.333333",  # pyAgrum's XMLBIF: 6 significant digits, sum 0.999999
        "0.2 0.199999 0.599999",  # %g prints 0.2 with one decimal: it may be rounded too
        "0.5 0.166667 0.333334",  # sum 1.000001
        "0.3333 0.3333 0.3333",  # old files: 4 decimals, sum 0.9999
        "0.333 0.333 0.333",
        "0.33 0.33 0.33",  # 2 decimals, sum 0.99: at the most allowed
    ],
)
def test_rows_rounded_to_the_digits_printed_are_read_divided_by_their_sums(row, fmt):
    from bayeskit.networks import RenormalizedCPTWarning

    values = np.array([float(v) for v in row.split()])
    text = _one_node(row.replace(" ", ", ") if fmt == "BIF" else row, fmt)
    with pytest.warns(RenormalizedCPTWarning, match=r"1 CPT row\(s\) of 'a' summed to 1 only") as w:
        net = _reader(fmt)(io.StringIO(text))
    assert f"largest deviation {abs(values.sum() - 1):.2g}" in str(w[0].message)
    assert abs(net.cpt("a").sum() - 1.0) <= 3 * np.finfo(float).eps
    np.testing.assert_allclose(net.cpt("a") * values.sum(), values, rtol=1e-15)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "row",
    ["0.33 0.33 0.34", "0.1 0.2 0.7", "0.3333333 0.3333333 0.3333334", "1 0 0", "0.25 0.25 0.5"],
)
def test_rows_summing_to_1_within_1e6_read_as_written_without_a_warning(row, fmt):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net = _reader(fmt)(io.StringIO(_one_node(row, fmt)))
    np.testing.assert_allclose(net.cpt("a"), [float(v) for v in row.split()], rtol=0, atol=1e-6)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("row", "total"),
    [
        ("0.2 0.7 0", "0.9"),  # 1 decimal: off by 0.1, more than the most allowed (0.01)
        ("0.5 0.4 0", "0.9"),
        ("0.3 0.3 0.3", "0.9"),
        ("0.34 0.34 0.34", "1.02"),
        ("0.33333333 0.33333333 0.33332333", "0.99998999"),  # 8 decimals, off by 1e-5
        ("0.333 0.333 0.332", "0.998"),  # 0.002 off; rounding to 3 decimals allows 0.0015
        ("0 0 0", "0"),
        ("1 1 0", "2"),
    ],
)
def test_rows_that_are_no_distribution_are_refused(row, total, fmt):
    text = _one_node(row, fmt)
    with pytest.raises(
        _error(fmt),
        match=rf"node 'a': the distribution given no parents sums to {total}, not 1 \(rounding",
    ):
        _reader(fmt)(io.StringIO(text))


def _bomb(fmt: str, parents: int = 6, k: int = 30) -> str:
    """A small file declaring a child of ``parents`` parents of ``k`` states each: its CPT
    would hold 2 * k**parents cells (11 GiB for 6 parents of 30 states)."""
    names = [f"p{i}" for i in range(parents)]
    labels = " ".join(f"s{i}" for i in range(k))
    uniform = " ".join(["0.5"] + ["0"] * (k - 2) + ["0.5"])
    if fmt == "BIF":
        out = "network bomb { }\n"
        out += "".join(f"variable {p} {{ type discrete [ {k} ] {{ {labels} }}; }}\n" for p in names)
        out += "variable c { type discrete [ 2 ] { a b }; }\n"
        out += "".join(f"probability ( {p} ) {{ table {uniform}; }}\n" for p in names)
        return out + f"probability ( c | {', '.join(names)} ) {{ default 0.5 0.5; }}\n"
    out = '<BIF VERSION="0.3"><NETWORK>\n'
    outcomes = "".join(f"<OUTCOME>s{i}</OUTCOME>" for i in range(k))
    out += "".join(f"<VARIABLE><NAME>{p}</NAME>{outcomes}</VARIABLE>\n" for p in names)
    out += "<VARIABLE><NAME>c</NAME><OUTCOME>a</OUTCOME><OUTCOME>b</OUTCOME></VARIABLE>\n"
    out += "".join(
        f"<DEFINITION><FOR>{p}</FOR><TABLE>{uniform}</TABLE></DEFINITION>\n" for p in names
    )
    given = "".join(f"<GIVEN>{p}</GIVEN>" for p in names)
    return (
        out
        + f"<DEFINITION><FOR>c</FOR>{given}<TABLE>0.5 0.5</TABLE></DEFINITION>\n</NETWORK></BIF>"
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("parents", "k"), [(6, 30), (4, 1000), (40, 2), (2, 12_000)])
def test_tables_too_large_are_refused_before_they_are_allocated(fmt, parents, k):
    import tracemalloc

    if k > 1000 and fmt == "XMLBIF":
        k = 2000  # a million outcomes would only make the file big
        parents = 3
    text = _bomb(fmt, parents, k)
    cells = 2 * k**parents  # Python ints: 2 * 2**40 does not overflow
    tracemalloc.start()
    try:
        with pytest.raises(
            _error(fmt),
            match=(
                rf"the CPT of 'c' given \['p0'.*has {k} x .* = {cells:,} cells.*more than "
                "max_cells=134,217,728; pass a larger max_cells"
            ),
        ):
            _reader(fmt)(io.StringIO(text))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * len(text) + 10_000_000  # a few times the file, never the table


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_cells_is_the_most_cells_of_all_tables(fmt, tmp_path):
    net = read_bif(DATA / "asia.bif.gz")
    total = sum(net.cpt(n).size for n in net.nodes)  # 36
    path = tmp_path / f"asia.{fmt}"
    _writer(fmt)(net, path)
    _same(net, _reader(fmt)(path, max_cells=total))
    with pytest.raises(_error(fmt), match=f"more than max_cells={total - 1}"):
        _reader(fmt)(path, max_cells=total - 1)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "100", None])
def test_max_cells_must_be_a_positive_integer(fmt, bad):
    with pytest.raises(ValueError, match="max_cells must be an integer >= 1"):
        _reader(fmt)(io.StringIO(_one_node("0.2 0.3 0.5", fmt)), max_cells=bad)


NOT_NUMBERS = [
    "²", "٣", "０.5", "0.5_0", "nan", "inf", "-inf", "infinity", "0x1p-1", "1e99999", "0.5e",
    "e5", "--0.5", ".", "+", "1/2", "½", "0.5\u200b", "1e+" + "9" * 5000,
]  # fmt: skip


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("token", NOT_NUMBERS)
def test_probabilities_are_ascii_numbers_in_0_1(fmt, token):
    text = _one_node(f"{token} 0.5 0.5", fmt)
    with pytest.raises(_error(fmt), match="expected a probability"):
        _reader(fmt)(io.StringIO(text))


@pytest.mark.parametrize(
    ("token", "rest"),
    [
        ("1e-" + "9" * 5000, "0.5 0.5"),  # an exponent of 5000 digits: 0
        ("0e99999999", "0.5 0.5"),
        ("-0", "0.5 0.5"),  # read as 0.0, not -0.0
        ("0.5e-0", "0.5 0"),
        ("+0.5", "0.5 0"),
        (".5", "0.5 0"),
        ("5e-1", "0.5 0"),
        ("5.E-1", "0.5 0"),
    ],
)
@pytest.mark.parametrize("fmt", FORMATS)
def test_numbers_in_every_ascii_form_read(token, rest, fmt):
    net = _reader(fmt)(io.StringIO(_one_node(f"{token} {rest}", fmt)))
    assert net.cpt("a")[0] == float(token)
    assert str(net.cpt("a")[0]) in ("0.0", "0.5")


@pytest.mark.parametrize("size", ["²", "٢", "2.0", "+2", "0", "-1", "1e1", "0x2", "9" * 5000, "½"])
def test_a_number_of_states_is_a_positive_ascii_whole_number(size):
    text = _one_node("0.5 0.5", "BIF", states="x y").replace("[ 2 ]", f"[ {size} ]")
    with pytest.raises(BIFError, match="line 2: expected a positive number of states"):
        read_bif(io.StringIO(text))


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        ("table 0.5, 0.5;", "table 0.5, 0.5; table 0.5 0.5;", "line 4: expected one 'table'"),
        ("(yes) 0.9, 0.1;", "(yes) 0.9, 0.1; table 0.5 0.5 0.5 0.5;",
         "line 5: expected one 'table'"),
        ("(no) 0.2, 0.8;", "default 0.2 0.8; default 0.2 0.8;", "line 5: expected one default row"),
        ("table 0.5, 0.5;", "table 0.5, 0.5, 0.0;", "the table of 'a' has more than 2"),
        ("table 0.5, 0.5;", "table 0.5 , , 0.5;", "expected a probability"),
        ("table 0.5, 0.5;", "table 0.5 0.5 ,;", "expected a probability"),
        ("(yes) 0.9", "(yes yes) 0.9", r"line 5: expected '\)'"),
        ("( b | a )", "( b | a a )", "distinct parents"),
        ("{ yes, no }; }\nvariable b", "{ yes,, no }; }\nvariable b", "expected a state name"),
    ],
)  # fmt: skip
def test_each_block_says_one_thing_once(old, new, match):
    assert old in GOOD
    with pytest.raises(BIFError, match=match):
        read_bif(io.StringIO(GOOD.replace(old, new, 1)))


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        ("<NAME>a</NAME>", "<NAME>a</NAME><NAME>b</NAME>", "line 2: one <NAME> per <VARIABLE>"),
        ("<NAME>n</NAME>", "<NAME>n</NAME><NAME>m</NAME>", "line 1: one <NAME> per <NETWORK>"),
        ("<FOR>a</FOR>", "<FOR>a</FOR><FOR>a</FOR>", "line 3: one <FOR> per <DEFINITION>"),
        ("<TABLE>0.25 0.75</TABLE>", "<TABLE>0.25 0.75</TABLE><TABLE>0.5 0.5</TABLE>",
         "line 3: one <TABLE> per <DEFINITION>"),
        ("</NETWORK>", "</NETWORK><NETWORK></NETWORK>", "line 4: one <NETWORK> per file"),
        ("<OUTCOME>v</OUTCOME>", "<OUTCOME> </OUTCOME>", "an <OUTCOME> of variable 'a' is empty"),
        ("<OUTCOME>u</OUTCOME><OUTCOME>v</OUTCOME>", "", "line 2: variable 'a' has no <OUTCOME>"),
        ("<OUTCOME>v</OUTCOME>", "<OUTCOME>u</OUTCOME>", "lists the <OUTCOME> 'u' twice"),
        ("<NAME>a</NAME>", "<NAME>&bogus;</NAME>", "not well-formed XML \\(undefined entity\\)"),
        ("<VARIABLE TYPE=\"nature\">", "<VARIABLE TYPE=\"decision\">", "expected a nature"),
        ("<TABLE>0.25 0.75</TABLE>", "<TABLE><NAME>x</NAME></TABLE>", "expected one of no element"),
    ],
)  # fmt: skip
def test_xmlbif_elements_said_once(old, new, match):
    from bayeskit.networks import XMLBIFError, read_xmlbif

    assert old in XML
    with pytest.raises(XMLBIFError, match=match):
        read_xmlbif(io.StringIO(XML.replace(old, new, 1)))


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE BIF SYSTEM "bif.dtd">',  # an external DTD might define it: expat skips it
        '<!DOCTYPE BIF SYSTEM "bif.dtd" [ <!ELEMENT BIF ANY> ]>',
        '<!DOCTYPE BIF PUBLIC "-//x//y" "bif.dtd">',
    ],
)
def test_an_undefined_entity_is_refused_not_dropped(doctype):
    from bayeskit.networks import XMLBIFError, read_xmlbif

    text = doctype + XML.replace("<NAME>a</NAME>", "<NAME>a&ext;b</NAME>")
    with pytest.raises(XMLBIFError, match=r"line 2: the entity &ext; is not defined"):
        read_xmlbif(io.StringIO(text))
    assert read_xmlbif(io.StringIO(doctype + XML)).nodes == ("a",)  # the DTD alone is fine


# ---------------------------------------------------------------- open files
def _sources(fmt: str, tmp_path: Path, text: str) -> dict:
    plain = tmp_path / f"net.{fmt}"
    plain.write_text(text, encoding="utf-8")
    packed = tmp_path / f"net.{fmt}.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    return {
        "path": plain,
        "str": str(plain),
        "gzip path": packed,
        "binary stream": io.BytesIO(text.encode()),
        "gzip stream": io.BytesIO(gzip.compress(text.encode())),
        "text stream": io.StringIO(text),
    }


@contextlib.contextmanager
def _no_resource_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
        gc.collect()  # a file object left open warns when it is collected
    leaks = [w for w in caught if issubclass(w.category, ResourceWarning)]
    assert leaks == [], [str(w.message) for w in leaks]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("good", [True, False])
def test_reading_leaves_no_file_open_and_the_callers_streams_open(fmt, good, tmp_path):
    text = _one_node("0.2 0.3 0.5" if good else "0.2 0.3 x", fmt)
    sources = _sources(fmt, tmp_path, text)
    with _no_resource_warning():
        for source in sources.values():
            if good:
                assert _reader(fmt)(source).states("a") == ("x", "y", "z")
            else:
                with pytest.raises(_error(fmt)):
                    _reader(fmt)(source)
    assert not any(s.closed for k, s in sources.items() if "stream" in k)


@pytest.mark.parametrize("fmt", FORMATS)
def test_writing_leaves_no_file_open_and_the_callers_streams_open(fmt, tmp_path):
    net = read_bif(DATA / "asia.bif.gz")
    targets = [tmp_path / "a", tmp_path / "a.gz", str(tmp_path / "b"), io.StringIO(), io.BytesIO()]
    with _no_resource_warning():
        for target in targets:
            _writer(fmt)(net, target)
    for target in targets:
        if isinstance(target, io.IOBase):
            assert not target.closed
            target.seek(0)
        _same(net, _reader(fmt)(target))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "damage", [lambda b: b[:-5], lambda b: b[:12], lambda b: b[:30] + b"\x00" * 8 + b[38:]]
)
def test_damaged_gzip_data_is_a_format_error(fmt, damage, tmp_path):
    path = tmp_path / "net.gz"
    path.write_bytes(damage(gzip.compress(_one_node("0.2 0.3 0.5", fmt).encode())))
    with pytest.raises(_error(fmt), match="gzip data is damaged|not well-formed|expected"):
        _reader(fmt)(path)


# ---------------------------------------------------------------- names the writers hold
def _named(node: str = "a", states: tuple = ("x", "y")):
    from bayeskit.networks import BayesianNetwork

    return BayesianNetwork([], {node: [0.25, 0.75]}, states={node: states})


BIF_REFUSED = ["a b", "a\tb", "a\nb", "a\u2003b", "", "a{", "}", "(x)", "a;b", "a,b", "a|b", "[",
               "a//b", "a/*b", "\ud800"]  # fmt: skip
XML_REFUSED = ["", " a", "a ", "\ta", "a\n", "\r", "\x00", "a\x01b", "\x1f", "\ud800", "\ufffe"]
BIF_HELD = ["é✓", "a'b\"c", "x<1", "a/b", "*", "a*/", "a\x01b", "0.5", "table", "property"]
XML_HELD = ["a b", "x<1", "a & b", "]]>", "a\tb", "a\nb", "a\r\nb", "a\rb", "\u2003a", "&amp;",
            "'\"", "é✓", "\x7f", "{}()[];,|", "a  b"]  # fmt: skip


@pytest.mark.parametrize(
    ("fmt", "label"),
    [("BIF", b) for b in BIF_REFUSED] + [("XMLBIF", x) for x in XML_REFUSED],
)
@pytest.mark.parametrize("where", ["node", "state", "network"])
def test_writers_refuse_names_the_format_cannot_hold(fmt, label, where):
    net = (
        _named(label)
        if where == "node"
        else _named(states=("x", label))
        if where == "state"
        else _named()
    )
    name = label if where == "network" else "n"
    what = {"node": "node", "state": "state of node 'a'", "network": "the network name"}[where]
    out = io.StringIO()
    with pytest.raises(ValueError, match=rf"^{what} .* cannot be written in {fmt}: it "):
        _writer(fmt)(net, out, name=name)
    assert out.getvalue() == ""  # refused before anything is written


@pytest.mark.parametrize(
    ("fmt", "label"), [("BIF", b) for b in BIF_HELD] + [("XMLBIF", x) for x in XML_HELD]
)
@pytest.mark.parametrize("where", ["node", "state"])
def test_what_a_writer_writes_reads_back_exactly(fmt, label, where, tmp_path):
    net = _named(label) if where == "node" else _named(states=(label, "x"))
    for target in (io.StringIO(), tmp_path / "n.gz"):
        _writer(fmt)(net, target, name=label)
        if isinstance(target, io.StringIO):
            target.seek(0)
        back = _reader(fmt)(target)
        assert back.nodes == net.nodes
        assert back.states(back.nodes[0]) == net.states(net.nodes[0])


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("node", [1, 2.5, ("a", "b")])
def test_writers_refuse_names_that_are_no_strings(fmt, node):
    from bayeskit.networks import BayesianNetwork

    net = BayesianNetwork([], {node: [0.5, 0.5]})
    with pytest.raises(
        ValueError, match=r"^node .* cannot be written .*: it is a (int|float|tuple), not a string"
    ):
        _writer(fmt)(net, io.StringIO())


@pytest.mark.parametrize(
    "encoding",
    ["rot13", "base64", "hex", "utf-32", "utf-7", "bogus", "idna", "undefined", "punycode"],
)
def test_an_encoding_expat_cannot_read_is_an_xmlbif_error(encoding):
    from bayeskit.networks import XMLBIFError, read_xmlbif

    text = f'<?xml version="1.0" encoding="{encoding}"?>' + XML
    with pytest.raises(XMLBIFError, match="line 1: .*encoding"):
        read_xmlbif(io.BytesIO(text.encode()))


@pytest.mark.parametrize(
    "text",
    [
        "url = http://example.org/net",  # '//' in a property is no comment
        "note = /* not a comment",
        "position = (1,\n  2)",  # over two lines
        'label = "braces { } ( ) and | pipes"',
        "table = 0.5 0.5",
        "",
    ],
)
@pytest.mark.parametrize("block", ["network n {", "variable a {", "probability ( b | a ) {"])
def test_property_text_is_skipped_as_it_is(text, block):
    assert block in GOOD
    with_property = GOOD.replace(block, f"{block} property {text} ;", 1)
    _same(read_bif(io.StringIO(GOOD)), read_bif(io.StringIO(with_property)))


def test_a_byte_order_mark_is_skipped():
    assert read_bif(io.BytesIO(b"\xef\xbb\xbf" + GOOD.encode())).nodes == ("a", "b")
