"""Results readable in Python (user trial, item 6): factors, CPDs, marginals and MAP answers
print as tables with the states named (text and HTML) and turn into labelled pandas objects."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import (
    CPD,
    DAG,
    BayesianNetwork,
    Factor,
    GibbsSampler,
    JunctionTree,
    MAPResult,
    Marginals,
    VariableElimination,
    likelihood_weighting,
    read_bif,
    rejection_sampling,
)

DATA = Path(__file__).parent / "data"
ASIA = read_bif(DATA / "asia.bif.gz")
ALARM = read_bif(DATA / "alarm.bif.gz")

pytestmark = pytest.mark.filterwarnings(
    "ignore::bayeskit.inference.sampling.DeterministicCPTWarning"
)


def _lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


# ------------------------------------------------------------------ factors
def test_a_query_prints_its_states_and_probabilities():
    post = VariableElimination(ASIA).query("lung", {"xray": "yes"})
    text = repr(post)
    assert str(post) == text
    rows = _lines(text)
    assert rows[0] == ["lung", "probability"]
    assert [r[0] for r in rows[1:]] == ["yes", "no"]
    np.testing.assert_allclose([float(r[1]) for r in rows[1:]], post.values, atol=1e-6)
    assert "Factor([" not in text
    # several variables: a column per variable, a row per joint state (C order)
    joint = VariableElimination(ASIA).query(["lung", "tub"], {"xray": "yes"})
    rows = _lines(repr(joint))
    assert rows[0] == ["lung", "tub", "probability"]
    assert [r[:2] for r in rows[1:]] == [["yes", "yes"], ["yes", "no"], ["no", "yes"],
                                         ["no", "no"]]  # fmt: skip
    # a factor that is no distribution says "value"
    s = {"a": ["0", "1"]}
    assert _lines(repr(Factor(["a"], [2.0, 3.0], s)))[0] == ["a", "value"]
    # the scale is part of the numbers shown
    scaled = Factor(["a"], [0.5, 1.0], s, log_scale=np.log(0.4))
    assert [float(r[1]) for r in _lines(repr(scaled))[1:]] == [0.2, 0.4]
    # no variable: the one number
    assert _lines(repr(Factor([], np.array(1.0), {}))) == [["probability"], ["1.0"]]


def test_large_factors_show_head_and_tail_with_a_note():
    states = {v: ["x", "y", "z"] for v in "abcdef"}
    values = np.arange(3**6, dtype=float).reshape((3,) * 6)
    f = Factor(list("abcdef"), values, states)
    lines = repr(f).splitlines()
    assert len(lines) == 1 + 10 + 1 + 1  # header, 5 + 5 rows, the gap, the note
    assert lines[6].split() == ["..."] * 7
    assert lines[-1] == "[729 joint states, 10 shown]"
    assert lines[1].split()[-1] == "0.0"
    assert lines[-2].split()[-1] == "728.0"
    # pandas' display options apply
    with pd.option_context("display.max_rows", 4, "display.min_rows", 2):
        assert len(repr(f).splitlines()) == 1 + 2 + 1 + 1
    with pd.option_context("display.max_rows", None):
        assert len(repr(f).splitlines()) == 1 + 729
    with pd.option_context("display.precision", 2):
        post = VariableElimination(ASIA).query("lung", {"xray": "yes"})
        assert _lines(repr(post))[1] == ["yes", "0.49"]
    # tiny numbers switch every number to scientific notation, as pandas does
    tiny = Factor(["a"], [1 - 1e-9, 1e-9], {"a": ["0", "1"]})
    assert _lines(repr(tiny))[2] == ["1", "1.000000e-09"]


def test_factor_html_and_pandas_forms():
    post = VariableElimination(ASIA).query(["lung", "tub"], {"xray": "yes"})
    html = post._repr_html_()
    assert html.count("<tr>") == 5
    assert "<th>lung</th>" in html
    assert "<th>yes</th>" in html
    # names are escaped
    odd = Factor(["<b>"], [0.5, 0.5], {"<b>": ["a&b", "c"]})
    assert "&lt;b&gt;" in odd._repr_html_()
    assert "a&amp;b" in odd._repr_html_()
    series = post.to_pandas()
    assert series.name == "probability"
    assert series.index.names == ["lung", "tub"]
    assert series.loc[("yes", "no")] == pytest.approx(post.values[0, 1])
    wide = series.unstack()  # the states keep their order, not the alphabet's
    assert list(wide.index) == ["yes", "no"]
    assert list(wide.columns) == ["yes", "no"]
    np.testing.assert_allclose(wide.to_numpy(), post.values)
    one = VariableElimination(ASIA).query("lung").to_pandas(name="P")
    assert one.index.name == "lung"
    assert one.name == "P"
    assert list(one.index) == ["yes", "no"]
    # the long form is unchanged
    assert list(post.to_frame().columns) == ["lung", "tub", "probability"]


def test_marginals_print_as_tables_and_stay_dicts():
    ve, jt = VariableElimination(ASIA), JunctionTree(ASIA)
    evidence = {"xray": "yes"}
    for marginals in (
        ve.query(["lung", "tub"], evidence, joint=False),
        jt.calibrate(evidence),
        likelihood_weighting(ASIA, ["lung", "tub"], evidence, n_samples=200, seed=0),
        rejection_sampling(ASIA, ["lung", "tub"], evidence, n_samples=200, seed=0),
        GibbsSampler(ASIA).query(["lung", "tub"], evidence, n_draws=20, seed=0).marginals,
    ):
        assert isinstance(marginals, Marginals)
        assert isinstance(marginals, dict)
        assert isinstance(marginals["lung"], Factor)
        text = repr(marginals)
        assert "lung  probability" in text
        assert "tub  probability" in text
        frame = marginals.to_frame()
        assert list(frame.columns) == ["node", "state", "probability"]
        lung = frame[frame["node"] == "lung"]
        assert list(lung["state"]) == ["yes", "no"]
        np.testing.assert_allclose(lung["probability"], marginals["lung"].values)
        assert "<table" in marginals._repr_html_()
    assert jt.calibrate({n: "yes" for n in ["asia", "tub", "smoke", "lung", "bronc"]} | {
        "either": "yes", "xray": "yes", "dysp": "yes"}) == {}  # fmt: skip
    assert repr(Marginals()) == "Marginals({})"


def test_batches_are_labelled_frames():
    ve = VariableElimination(ASIA)
    rows = pd.DataFrame({"xray": ["yes", "no"]}, index=["p1", "p2"])
    frame = ve.query_batch("lung", rows)
    assert list(frame.index) == ["p1", "p2"]
    assert frame.columns.name == "lung"
    assert list(frame.columns) == ["yes", "no"]
    joint = ve.query_batch(["lung", "tub"], rows, joint=True)
    assert joint.columns.names == ["lung", "tub"]


# ------------------------------------------------------------------ CPDs
def test_cpd_is_the_cpt_labelled():
    cpd = ASIA.cpd("either")
    assert isinstance(cpd, CPD)
    assert cpd.variable == "either"
    assert cpd.parents == ("lung", "tub")
    assert cpd.values is ASIA.cpt("either")  # the network's array, not a copy
    np.testing.assert_array_equal(np.asarray(cpd), ASIA.cpt("either"))
    frame = cpd.to_frame()
    assert frame.index.names == ["lung", "tub"]
    assert frame.columns.name == "either"
    assert list(frame.columns) == ["yes", "no"]
    assert frame.loc[("no", "no"), "no"] == 1.0
    np.testing.assert_array_equal(frame.to_numpy(), ASIA.cpt("either").reshape(-1, 2))
    rows = _lines(repr(cpd))
    assert rows[0] == ["either"]
    assert rows[1] == ["lung", "tub", "yes", "no"]
    assert rows[2:] == [["yes", "yes", "1.0", "0.0"], ["yes", "no", "1.0", "0.0"],
                        ["no", "yes", "1.0", "0.0"], ["no", "no", "0.0", "1.0"]]  # fmt: skip
    html = cpd._repr_html_()
    assert 'colspan="2"' in html
    assert "<th>either</th>" not in html
    # the factor of the family
    factor = cpd.to_factor()
    assert factor.variables == ("lung", "tub", "either")
    assert factor.value({"lung": "no", "tub": "no", "either": "no"}) == 1.0


def test_cpd_of_a_root_and_of_a_wide_node():
    root = ASIA.cpd("asia")
    assert root.parents == ()
    assert _lines(repr(root)) == [["asia"], ["yes", "no"], ["0.01", "0.99"]]
    assert root.to_frame().shape == (1, 2)
    # one parent: an Index named by it
    assert ASIA.cpd("tub").to_frame().index.name == "asia"
    # many parent configurations and states: head and tail of both, with a note
    rng = np.random.default_rng(0)
    names = {"n": [f"s{i}" for i in range(12)], **{p: ["a", "b", "c"] for p in "pqrs"}}
    wide = CPD("n", list("pqrs"), rng.dirichlet(np.ones(12), size=(3, 3, 3, 3)), names)
    lines = repr(wide).splitlines()
    assert lines[-1] == "[81 parent configurations, 10 shown; 12 states, 10 shown]"
    assert lines[1].split() == [*"pqrs", "s0", "s1", "s2", "s3", "s4", "...",
                                "s7", "s8", "s9", "s10", "s11"]  # fmt: skip
    assert lines[2].split()[:4] == ["a"] * 4
    assert lines[-2].split()[:4] == ["c"] * 4
    with pd.option_context("display.max_columns", 2):
        assert "12 states, 2 shown" in repr(wide)
    assert ALARM.cpd("VENTLUNG").to_frame().shape == (24, 4)
    with pytest.raises(ValueError, match="expected"):
        CPD("a", ["b"], [0.5, 0.5], {"a": ["0", "1"], "b": ["0", "1"]})


# ------------------------------------------------------------------ MAP
def test_map_query_returns_a_map_result():
    ve = VariableElimination(ASIA)
    result = ve.map_query(["lung", "tub"], {"xray": "yes"})
    assert isinstance(result, MAPResult)
    assert list(result.assignment) == ["lung", "tub"]  # in the order asked
    joint = ve.query(["lung", "tub"], {"xray": "yes"})
    assert result.probability == pytest.approx(joint.values.max(), abs=1e-12)
    assert result.log_probability == pytest.approx(np.log(result.probability), abs=1e-12)
    assert result.evidence == {"xray": "yes"}
    # the pair it was before
    assignment, probability = result
    assert (assignment, probability) == (result[0], result[1])
    assert assignment == joint.argmax()
    with pytest.raises(AttributeError):
        result.probability = 1.0  # frozen
    text = repr(result)
    assert text.startswith("MAPResult: probability ")
    assert "given {'xray': 'yes'}" in text
    assert _lines(text)[1:] == [["node", "state"], ["lung", assignment["lung"]],
                                ["tub", assignment["tub"]]]  # fmt: skip
    assert "<th>lung</th>" in result._repr_html_()
    series = result.to_pandas()
    assert series.index.name == "node"
    assert series.to_dict() == assignment
    # MPE: every unobserved node, in network order
    mpe = ve.map_query(evidence={"xray": "yes"})
    assert list(mpe.assignment) == [n for n in ASIA.nodes if n != "xray"]
    assert mpe == ve.map_query(evidence={"xray": "yes"})


def test_tiny_map_probabilities_keep_their_log():
    kids = [f"k{i}" for i in range(1100)]
    net = BayesianNetwork(DAG(nodes=["a", *kids], edges=[("a", k) for k in kids]),
                          {"a": [0.5, 0.5], **dict.fromkeys(kids, [[0.5, 0.5], [0.5, 0.5]])},
                          states=dict.fromkeys(["a", *kids], ["0", "1"]))  # fmt: skip
    result = VariableElimination(net).map_query(evidence={"a": "0"})
    assert result.probability == 0.0  # 2**-1100 underflows ...
    assert result.log_probability == pytest.approx(-1100 * np.log(2))  # ... its log does not
