"""Files written by pgmpy 1.1.2 and pyAgrum 3.3.1 (``data/peers``, see its README) read as the
networks they were written from, and the conventions of each tool's writers, in both formats.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import pytest

from bayeskit.networks import (
    BIFError,
    RenormalizedCPTWarning,
    XMLBIFError,
    read_bif,
    read_xmlbif,
)

DATA = Path(__file__).parent / "data"
PEERS = DATA / "peers"
#: file -> (the original, bundled; largest difference of a CPT entry the tool's printing allows)
WRITTEN = {
    "asia.pgmpy.bif": ("asia", 0.0),
    "asia.pgmpy.xml": ("asia", 0.0),
    "asia.pyagrum.bif": ("asia", 1e-7),  # float32 values printed in full
    "asia.pyagrum.bifxml": ("asia", 1e-6),  # 6 significant digits
    "sachs.pgmpy.bif": ("sachs", 0.0),
    "sachs.pgmpy.xml": ("sachs", 0.0),
    "sachs.pyagrum.bif": ("sachs", 1e-7),
    "sachs.pyagrum.bifxml": ("sachs", 2e-6),
}
#: the files whose rows sum to 1 only to the digits printed, and the nodes of those rows
RENORMALIZED = {"sachs.pyagrum.bifxml": ("Mek", "PKA")}


def _read(path: Path):
    return (read_xmlbif if path.suffix in (".xml", ".bifxml") else read_bif)(path)


def _aligned(net, node, parents):
    """``net``'s CPT of ``node`` with its parents in the order ``parents``."""
    theirs = net.dag.parents(node)
    return np.transpose(net.cpt(node), [theirs.index(p) for p in parents] + [len(parents)])


@pytest.mark.parametrize("name", list(WRITTEN))
def test_files_other_tools_write_read_as_the_network_written(name):
    original_name, tolerance = WRITTEN[name]
    original = read_bif(DATA / f"{original_name}.bif.gz")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = _read(PEERS / name)
    renormalized = [w for w in caught if issubclass(w.category, RenormalizedCPTWarning)]
    assert [w for w in caught if w not in renormalized] == []
    assert set(net.nodes) == set(original.nodes)
    for node in original.nodes:
        parents = original.dag.parents(node)
        assert set(net.dag.parents(node)) == set(parents), node
        assert net.states(node) == original.states(node)
        np.testing.assert_allclose(
            _aligned(net, node, parents), original.cpt(node), rtol=0, atol=tolerance
        )
        rows = net.cpt(node).sum(axis=-1)
        k = net.cardinality(node)
        assert np.abs(rows - 1.0).max() <= k * np.finfo(float).eps, node  # divided by the sums
    if name in RENORMALIZED:
        (warning,) = renormalized
        for node in RENORMALIZED[name]:
            assert repr(node) in str(warning.message)
        assert "largest deviation 1e-06" in str(warning.message)
    else:
        assert renormalized == []


def test_a_network_the_writer_broke_is_refused_naming_the_state():
    # pgmpy writes the states '<7.5' and '>=7.5' both as '_7_5'
    with pytest.raises(XMLBIFError, match=r"line 25: variable 'CO2Report' lists .*'_7_5' twice"):
        read_xmlbif(PEERS / "child.pgmpy.xml")


# ------------------------------------------------------------------ each writer's conventions
TWO = ("yes", "no")
BIF_STYLES = {
    # pyAgrum: numbers separated by spaces only, no space before '[', a quoted network name
    "pyagrum": """network "unknown" {
// written by aGrUM 3.3.1
}
variable a {
   type discrete[2] {yes, no};
}
variable b {
   type discrete[2] {yes, no};
}
probability (a) {
   table 0.009999999776482582 0.9900000095367432;
}
probability (b | a) {
   (yes) 0.05000000074505806 0.949999988079071;
   (no) 1 0;
}
""",
    # pgmpy: spaces inside parentheses, a space before ';', a blank line ending a block
    "pgmpy": """network unknown {
}
variable a {
    type discrete [ 2 ] { yes, no };
}
variable b {
    type discrete [ 2 ] { yes, no };
}
probability ( a ) {
    table 0.01, 0.99 ;
}
probability ( b | a ) {
    ( yes ) 0.05, 0.95;
    ( no ) 1.0, 0.0;

}
""",
    # the format's grammar: commas optional in every list
    "no commas": """network n { }
variable a { type discrete [ 2 ] { yes no }; }
variable b { type discrete [ 2 ] { yes no }; }
probability ( a ) { table 0.01 0.99; }
probability ( b | a ) { ( yes ) 0.05 0.95; ( no ) 1 0; }
""",
    # mixed separators and a table over both rows (the child slowest)
    "mixed": """network n { }
variable a { type discrete [ 2 ] { yes, no }; }
variable b { type discrete [ 2 ] { yes no }; }
probability ( a ) { table 0.01 , 0.99; }
probability ( b | a ) { table 0.05 1, 0.95 0; }
""",
}


@pytest.mark.parametrize("style", list(BIF_STYLES))
def test_bif_as_each_tool_writes_it(style):
    net = read_bif(io.StringIO(BIF_STYLES[style]))
    assert net.nodes == ("a", "b")
    assert net.states("a") == net.states("b") == TWO
    # pyAgrum prints float32 values in full: within 1e-7 of the decimals
    np.testing.assert_allclose(net.cpt("a"), [0.01, 0.99], rtol=0, atol=1e-7)
    np.testing.assert_allclose(net.cpt("b"), [[0.05, 0.95], [1.0, 0.0]], rtol=0, atol=1e-7)


XML_STYLES = {
    # pyAgrum: tabs, a comment inside a variable, properties, rows on lines of their own
    "pyagrum": """<?xml version="1.0" ?>
<BIF VERSION="0.3">
<NETWORK>
<NAME>unknown</NAME>
<PROPERTY>software aGrUM</PROPERTY>
<VARIABLE TYPE="nature">
\t<NAME>a</NAME>
\t<PROPERTY>fast = a{yes|no}</PROPERTY>
<!--OUTCOME are not used in pyAgrum BIFXML (see fast property) but are kept-->
\t<OUTCOME>yes</OUTCOME>
\t<OUTCOME>no</OUTCOME>
</VARIABLE>
<VARIABLE TYPE="nature">
\t<NAME>b</NAME>
\t<OUTCOME>yes</OUTCOME>
\t<OUTCOME>no</OUTCOME>
</VARIABLE>
<DEFINITION>
\t<FOR>a</FOR>
\t<TABLE>
\t\t0.01 0.99
\t</TABLE>
</DEFINITION>
<DEFINITION>
\t<FOR>b</FOR>
\t<GIVEN>a</GIVEN>
\t<TABLE>
\t\t0.05 0.95
\t\t1 0
\t</TABLE>
</DEFINITION>
</NETWORK>
</BIF>
""",
    # pgmpy: an empty <PROPERTY />, a space after the last probability
    "pgmpy": """<?xml version='1.0' encoding='utf-8'?>
<BIF VERSION="0.3">
  <NETWORK>
    <NAME>unknown</NAME>
    <VARIABLE TYPE="nature">
      <NAME>a</NAME>
      <OUTCOME>yes</OUTCOME>
      <OUTCOME>no</OUTCOME>
      <PROPERTY />
    </VARIABLE>
    <VARIABLE TYPE="nature">
      <NAME>b</NAME>
      <OUTCOME>yes</OUTCOME>
      <OUTCOME>no</OUTCOME>
      <PROPERTY />
    </VARIABLE>
    <DEFINITION>
      <FOR>a</FOR>
      <TABLE>0.01 0.99 </TABLE>
    </DEFINITION>
    <DEFINITION>
      <FOR>b</FOR>
      <GIVEN>a</GIVEN>
      <TABLE>0.05 0.95 1.0 0.0 </TABLE>
    </DEFINITION>
  </NETWORK>
</BIF>
""",
    # JavaBayes and Weka: a DTD in the document, and names on lines of their own
    "javabayes": """<?xml version="1.0" encoding="US-ASCII"?>
<!DOCTYPE BIF [
  <!ELEMENT BIF ( NETWORK )*>
  <!ATTLIST BIF VERSION CDATA #REQUIRED>
  <!ELEMENT VARIABLE ( NAME, ( OUTCOME |  PROPERTY )* ) >
  <!ATTLIST VARIABLE TYPE (nature|decision|utility) "nature">
]>
<BIF VERSION="0.3">
<NETWORK>
<NAME>n</NAME>
<VARIABLE TYPE="nature">
  <NAME>
    a
  </NAME>
  <OUTCOME>yes</OUTCOME>
  <OUTCOME>no</OUTCOME>
</VARIABLE>
<VARIABLE>
  <NAME>b</NAME>
  <OUTCOME>yes</OUTCOME>
  <OUTCOME>no</OUTCOME>
</VARIABLE>
<PROBABILITY><FOR>a</FOR><TABLE>0.01 0.99</TABLE></PROBABILITY>
<PROBABILITY><FOR>b</FOR><GIVEN>a</GIVEN><TABLE>0.05 0.95 1 0</TABLE></PROBABILITY>
</NETWORK>
</BIF>
""",
}


@pytest.mark.parametrize("style", list(XML_STYLES))
@pytest.mark.parametrize("as_bytes", [False, True])
def test_xmlbif_as_each_tool_writes_it(style, as_bytes):
    text = XML_STYLES[style]
    net = read_xmlbif(io.BytesIO(text.encode()) if as_bytes else io.StringIO(text))
    assert net.nodes == ("a", "b")
    assert net.states("a") == net.states("b") == TWO
    np.testing.assert_allclose(net.cpt("a"), [0.01, 0.99], rtol=0, atol=1e-12)
    np.testing.assert_allclose(net.cpt("b"), [[0.05, 0.95], [1.0, 0.0]], rtol=0, atol=1e-12)


def test_a_declared_encoding_is_honoured():
    text = XML_STYLES["pgmpy"].replace("encoding='utf-8'", "encoding='ISO-8859-1'")
    net = read_xmlbif(io.BytesIO(text.replace("<OUTCOME>no", "<OUTCOME>n\xe9").encode("latin-1")))
    assert net.states("a") == ("yes", "n\xe9")


def test_xmlbif_errors_are_bif_errors():
    # one except clause catches either reader's refusals
    assert issubclass(XMLBIFError, BIFError)
    with pytest.raises(BIFError):
        read_xmlbif(io.StringIO("<BIF>"))


@pytest.mark.parametrize(
    "evidence", [{"Mek": "HIGH"}, {"PKA": "LOW", "Raf": "AVG"}, {"Akt": "HIGH", "Mek": "LOW"}]
)
def test_a_renormalized_network_gives_every_engine_the_same_answer(evidence):
    # variable elimination prunes barren nodes (summing them to exactly 1), the junction tree
    # keeps them: the two agree only when the rows read sum to 1
    from bayeskit.networks import JunctionTree, VariableElimination

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RenormalizedCPTWarning)
        net = read_xmlbif(PEERS / "sachs.pyagrum.bifxml")
    assert all(s in net.states(v) for v, s in evidence.items())
    ve = VariableElimination(net).probability_of_evidence(evidence)
    jt = JunctionTree(net).probability_of_evidence(evidence)
    assert ve == pytest.approx(jt, rel=1e-12, abs=0)
