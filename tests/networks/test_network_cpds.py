"""A network holds one conditional distribution (a tabular CPD) per node: a network built from
CPD objects is the network built from their tables, read by name (parents in any order, states
in any order); the CPD it holds for a node is one object, whose log density, sampler and factor
form agree with the network; CPDs of another family or naming states otherwise are refused,
naming the node."""

from __future__ import annotations

import itertools
import math
import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import CPD, DAG, BayesianNetwork, read_bif

ALARM = read_bif(Path(__file__).parent / "data" / "alarm.bif.gz")

# a -> b, a -> c, b -> c; a has 2 states, b 3, c 2
DAG_ABC = DAG(edges=[("a", "b"), ("a", "c"), ("b", "c")])
STATES = {"a": ["a0", "a1"], "b": ["b0", "b1", "b2"], "c": ["c0", "c1"]}
P_A = [0.4, 0.6]
P_B = [[0.2, 0.3, 0.5], [0.1, 0.4, 0.5]]  # P(b | a): a row per state of a
P_C = [  # P(c | a, b): [a][b] -> row over c
    [[0.9, 0.1], [0.7, 0.3], [0.5, 0.5]],
    [[0.6, 0.4], [0.2, 0.8], [0.25, 0.75]],
]
TABLES = {"a": P_A, "b": P_B, "c": P_C}


def _cpds() -> dict:
    return {
        "a": CPD("a", [], P_A, {"a": STATES["a"]}),
        "b": CPD("b", ["a"], P_B, {"a": STATES["a"], "b": STATES["b"]}),
        "c": CPD("c", ["a", "b"], P_C, STATES),
    }


def _hand_probability(i: int, j: int, k: int) -> float:
    """``P(a_i, b_j, c_k) = P(a_i) P(b_j | a_i) P(c_k | a_i, b_j)`` from the literal tables."""
    return P_A[i] * P_B[i][j] * P_C[i][j][k]


def _all_assignments():
    return itertools.product(range(2), range(3), range(2))


def test_a_network_of_cpds_holds_the_tables_bit_for_bit():
    from_tables = BayesianNetwork(DAG_ABC, TABLES, states=STATES)
    from_cpds = BayesianNetwork(DAG_ABC, _cpds())
    for node in DAG_ABC.nodes:
        got = from_cpds.cpt(node)
        assert got.dtype == np.float64
        assert got.tobytes() == np.asarray(TABLES[node], dtype=np.float64).tobytes()
        assert got.tobytes() == from_tables.cpt(node).tobytes()
        assert from_cpds.states(node) == tuple(STATES[node])
    assert from_cpds.dag == from_tables.dag


def test_a_network_of_cpds_gives_every_assignment_the_hand_product():
    net = BayesianNetwork(DAG_ABC, _cpds())
    total = 0.0
    for i, j, k in _all_assignments():
        row = {"a": STATES["a"][i], "b": STATES["b"][j], "c": STATES["c"][k]}
        expected = _hand_probability(i, j, k)
        assert net.probability(row) == pytest.approx(expected, rel=1e-15)
        total += net.probability(row)
    assert total == pytest.approx(1.0, rel=1e-14)
    # one figure by hand: P(a1, b2, c0) = 0.6 * 0.5 * 0.25
    assert net.probability({"a": "a1", "b": "b2", "c": "c0"}) == pytest.approx(0.075, rel=1e-15)


def test_a_cpd_with_its_parents_in_another_order_is_transposed():
    # P(c | b, a): axes b then a, the DAG lists c's parents a then b
    swapped = np.transpose(np.asarray(P_C), (1, 0, 2))
    cpds = _cpds()
    cpds["c"] = CPD("c", ["b", "a"], swapped, STATES)
    net = BayesianNetwork(DAG_ABC, cpds)
    assert net.dag.parents("c") == ("a", "b")
    assert net.cpt("c").tobytes() == np.asarray(P_C, dtype=np.float64).tobytes()
    assert net.cpd("c").parents == ("a", "b")
    # P(c1 | a1, b0) = 0.4, whichever order the CPD was given in
    assert net.cpt("c")[1, 0, 1] == 0.4


def test_a_cpd_with_its_states_in_another_order_is_read_by_name():
    cpds = _cpds()
    cpds["a"] = CPD("a", [], [0.6, 0.4], {"a": ["a1", "a0"]})  # P(a1) = 0.6, P(a0) = 0.4
    net = BayesianNetwork(DAG_ABC, cpds, states={"a": ["a0", "a1"]})
    assert net.states("a") == ("a0", "a1")
    assert net.cpt("a").tolist() == [0.4, 0.6]
    # b's CPD names a's states a0, a1: its rows are kept as given
    assert net.cpt("b").tolist() == P_B


def test_states_given_name_the_nodes_of_plain_tables_beside_cpds():
    cpds = _cpds()
    mixed = {"a": P_A, "b": cpds["b"], "c": cpds["c"]}
    net = BayesianNetwork(DAG_ABC, mixed, states={"a": STATES["a"]})
    for node in DAG_ABC.nodes:
        assert net.states(node) == tuple(STATES[node])
        assert net.cpt(node).tobytes() == np.asarray(TABLES[node], dtype=np.float64).tobytes()


def test_a_cpd_row_off_by_rounding_is_renormalised_as_a_table_is():
    row = [0.3 + 4e-7, 0.7]  # sums to 1 + 4e-7: within the tolerance, divided by its sum
    net = BayesianNetwork(DAG(nodes=["a"]), {"a": CPD("a", [], row, {"a": ["x", "y"]})})
    expected = [(0.3 + 4e-7) / (1.0 + 4e-7), 0.7 / (1.0 + 4e-7)]
    np.testing.assert_allclose(net.cpt("a"), expected, rtol=1e-15)
    with pytest.raises(ValueError, match=re.escape("node 'a': the distribution given")):
        BayesianNetwork(DAG(nodes=["a"]), {"a": CPD("a", [], [0.3, 0.8], {"a": ["x", "y"]})})


def test_the_alarm_networks_cpds_rebuild_it_bit_for_bit():
    rebuilt = BayesianNetwork(ALARM.dag, {n: ALARM.cpd(n) for n in ALARM.nodes})
    for node in ALARM.nodes:
        assert rebuilt.states(node) == ALARM.states(node)
        assert rebuilt.cpt(node).tobytes() == ALARM.cpt(node).tobytes()


# ---------------------------------------------------------------- the CPD the network holds
def test_the_network_holds_one_cpd_per_node():
    net = BayesianNetwork(DAG_ABC, TABLES, states=STATES)
    for node in DAG_ABC.nodes:
        cpd = net.cpd(node)
        assert cpd is net.cpd(node)
        assert cpd.values is net.cpt(node)
        assert not net.cpt(node).flags.writeable
        assert cpd.variable == node
        assert cpd.parents == net.dag.parents(node)
        assert dict(cpd.states) == {v: tuple(STATES[v]) for v in (*cpd.parents, node)}


def test_the_cpd_held_cannot_be_changed():
    net = BayesianNetwork(DAG_ABC, TABLES, states=STATES)
    cpd = net.cpd("b")
    with pytest.raises(AttributeError, match="read-only"):
        cpd.values = np.full((2, 3), 1 / 3)
    with pytest.raises(AttributeError, match="read-only"):
        del cpd.parents
    with pytest.raises(TypeError):
        cpd.states["b"] = ("x", "y", "z")
    with pytest.raises(ValueError, match="read-only"):
        cpd.values[0, 0] = 1.0
    assert net.cpt("b").tolist() == P_B


def test_a_network_survives_pickling_with_its_cpds():
    net = BayesianNetwork(DAG_ABC, _cpds())
    back = pickle.loads(pickle.dumps(net))
    for node in DAG_ABC.nodes:
        assert back.cpt(node).tobytes() == net.cpt(node).tobytes()
        assert back.cpd(node).states == net.cpd(node).states
    assert back.probability({"a": "a1", "b": "b2", "c": "c0"}) == pytest.approx(0.075)


def test_the_cpds_log_densities_sum_to_the_networks_log_probability():
    net = BayesianNetwork(DAG_ABC, TABLES, states=STATES)
    codes = np.array(list(_all_assignments()))  # every assignment, columns a, b, c
    column = {"a": 0, "b": 1, "c": 2}
    total = np.zeros(len(codes))
    for node in DAG_ABC.nodes:
        cpd = net.cpd(node)
        parents = codes[:, [column[p] for p in cpd.parents]]
        total += cpd.log_density(codes[:, column[node]], parents)
    hand = [math.log(_hand_probability(i, j, k)) for i, j, k in codes]
    np.testing.assert_allclose(total, hand, rtol=1e-14)
    for (i, j, k), got in zip(codes, total, strict=True):
        row = {"a": STATES["a"][i], "b": STATES["b"][j], "c": STATES["c"][k]}
        assert got == pytest.approx(net.log_probability(row), rel=1e-14)


def test_the_cpds_sampler_draws_from_the_table_row_as_the_network_does():
    net = BayesianNetwork(DAG_ABC, TABLES, states=STATES)
    n = 40_000
    parents = np.tile([1, 1], (n, 1))  # a1, b1: P(c1 | a1, b1) = 0.8
    draws = net.cpd("c").sample(parents, np.random.default_rng(5))
    assert draws.shape == (n,)
    assert set(np.unique(draws)) <= {0, 1}
    assert draws.mean() == pytest.approx(0.8, abs=0.01)  # 5 standard errors: 0.01
    rows = net.sample(60_000, seed=6)
    given = rows[(rows["a"] == "a1") & (rows["b"] == "b1")]  # about 14,400 rows
    assert (given["c"] == "c1").mean() == pytest.approx(0.8, abs=0.02)


def test_the_cpds_factor_is_the_table():
    net = BayesianNetwork(DAG_ABC, _cpds())
    factor = net.cpd("c").to_factor()
    assert factor.variables == ("a", "b", "c")
    assert factor.values.tobytes() == np.asarray(P_C, dtype=np.float64).tobytes()
    assert factor.states == {v: tuple(STATES[v]) for v in ("a", "b", "c")}
    frame = net.cpd("c").to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.loc[("a1", "b2"), "c1"] == 0.75


# ---------------------------------------------------------------- refusals
def test_a_cpd_of_other_parents_is_refused_naming_both():
    cpds = _cpds()
    cpds["c"] = CPD("c", ["a"], [[0.5, 0.5], [0.5, 0.5]], {"a": STATES["a"], "c": STATES["c"]})
    msg = "node 'c': its CPD has the parents ['a'], the DAG gives it ['a', 'b']"
    with pytest.raises(ValueError, match=re.escape(msg)):
        BayesianNetwork(DAG_ABC, cpds)


def test_a_cpd_of_another_node_is_refused():
    cpds = _cpds()
    cpds["a"] = CPD("x", [], P_A, {"x": STATES["a"]})
    msg = "node 'a': the CPD given for it is the distribution of 'x'"
    with pytest.raises(ValueError, match=re.escape(msg)):
        BayesianNetwork(DAG_ABC, cpds)


def test_states_in_conflict_with_a_cpd_are_refused_naming_the_node():
    msg = "node 'a': its CPD names the states of the node ['a0', 'a1'], and the network ['x', 'y']"
    with pytest.raises(ValueError, match=re.escape(msg)):
        BayesianNetwork(DAG_ABC, _cpds(), states={"a": ["x", "y"]})


def test_a_parents_states_in_conflict_between_cpds_are_refused_naming_the_child():
    cpds = _cpds()
    cpds["b"] = CPD("b", ["a"], P_B, {"a": ["no", "yes"], "b": STATES["b"]})
    msg = "node 'b': its CPD names the states of its parent 'a' ['no', 'yes'], and the network"
    with pytest.raises(ValueError, match=re.escape(msg)):
        BayesianNetwork(DAG_ABC, cpds)


def test_a_cpd_naming_a_plain_tables_numbered_states_otherwise_is_refused():
    cpds = _cpds()
    mixed = {"a": P_A, "b": cpds["b"], "c": cpds["c"]}  # a's states: "0", "1" by default
    msg = "node 'b': its CPD names the states of its parent 'a' ['a0', 'a1'], and the network "
    with pytest.raises(ValueError, match=re.escape(msg + "['0', '1']")):
        BayesianNetwork(DAG_ABC, mixed)
