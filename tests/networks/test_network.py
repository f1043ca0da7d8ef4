"""Discrete Bayesian networks: CPTs, the joint, log-likelihood, sampling (issue 13)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import DAG, BayesianNetwork

TF = ("T", "F")


def _cswba() -> BayesianNetwork:
    """Seed 004's lecture network (case nju-bn-cswba-queries): C and S roots, W given C, B given
    C and S, A given B; every CPT axis (parents..., node) with states T, F."""
    dag = DAG(edges=[("C", "W"), ("C", "B"), ("S", "B"), ("B", "A")])
    cpts = {
        "C": [0.8, 0.2],
        "S": [0.02, 0.98],
        "W": [[0.9, 0.1], [0.01, 0.99]],
        "B": [[[0.9, 0.1], [0.2, 0.8]], [[0.9, 0.1], [0.01, 0.99]]],
        "A": [[0.7, 0.3], [0.1, 0.9]],
    }
    return BayesianNetwork(dag, cpts, states=dict.fromkeys("CSWBA", TF))


def _joint(net: BayesianNetwork) -> dict[tuple, float]:
    nodes = net.nodes
    return {
        values: net.probability(dict(zip(nodes, values, strict=True)))
        for values in itertools.product(*(net.states(n) for n in nodes))
    }


def _prob(joint: dict, nodes, event: dict) -> float:
    pos = {n: i for i, n in enumerate(nodes)}
    return sum(p for v, p in joint.items() if all(v[pos[n]] == s for n, s in event.items()))


def test_cswba_joint_and_the_queries_it_answers_by_summing():
    # every figure of case nju-bn-cswba-queries (exact rational arithmetic there), to 1e-12
    net = _cswba()
    joint = _joint(net)
    nodes = net.nodes
    assert sum(joint.values()) == pytest.approx(1.0, abs=1e-12)
    assert net.probability({"C": "T", "S": "F", "W": "T", "B": "T", "A": "T"}) == pytest.approx(
        0.098784, abs=1e-12
    )
    p = lambda **event: _prob(joint, nodes, event)  # noqa: E731
    assert p(B="T") == pytest.approx(0.17676, abs=1e-12)
    assert p(A="T") == pytest.approx(0.206056, abs=1e-12)
    assert p(C="T", A="T") / p(A="T") == pytest.approx(0.8867492332181542, abs=1e-12)
    assert p(S="T", B="T") / p(B="T") == pytest.approx(0.10183299389002037, abs=1e-12)
    assert p(S="T", B="T", C="T") / p(B="T", C="T") == pytest.approx(0.08411214953271028, abs=1e-12)
    assert p(C="T", W="T") / p(W="T") == pytest.approx(0.997229916897507, abs=1e-12)
    assert p(B="T", W="T", A="F") / p(W="T", A="F") == pytest.approx(0.08296991466138652, abs=1e-12)


def test_lung_cancer_cpt_look_ups():
    # case han-4-lung-cancer-cpt: the printed entries and their complements; the two
    # unprinted rows are the textbook figure's (context, not asserted by the case)
    dag = DAG(edges=[("FamilyHistory", "LungCancer"), ("Smoker", "LungCancer")])
    yn = ("yes", "no")
    lc = [[[0.8, 0.2], [0.5, 0.5]], [[0.7, 0.3], [0.1, 0.9]]]  # (FH, S, LC)
    net = BayesianNetwork(
        dag, {"FamilyHistory": [0.5, 0.5], "Smoker": [0.5, 0.5], "LungCancer": lc},
        states=dict.fromkeys(dag.nodes, yn),
    )  # fmt: skip
    cpt = net.cpt("LungCancer")
    assert cpt[0, 0, 0] == pytest.approx(0.8, abs=0.05)  # P(LC=yes | FH=yes, S=yes)
    assert cpt[1, 1, 1] == pytest.approx(0.9, abs=0.05)  # P(LC=no | FH=no, S=no)
    assert cpt[0, 0, 1] == pytest.approx(0.2, abs=1e-12)
    assert cpt[1, 1, 0] == pytest.approx(0.1, abs=1e-12)
    assert net.states("LungCancer") == yn


def test_log_likelihood_is_the_sum_of_the_rows_joint_logs():
    net = _cswba()
    data = net.sample(500, seed=1)
    per_row = net.log_likelihood(data, per_row=True)
    for i in range(0, 500, 97):
        row = {n: data[n].iloc[i] for n in net.nodes}
        assert per_row[i] == pytest.approx(net.log_probability(row), abs=1e-12)
    assert net.log_likelihood(data) == pytest.approx(per_row.sum(), rel=1e-12)
    # columns in any order, values as plain strings
    shuffled = data[list(reversed(net.nodes))].astype(str)
    assert net.log_likelihood(shuffled) == pytest.approx(per_row.sum(), rel=1e-12)


def test_forward_sampling_matches_the_marginals_and_is_seeded():
    net = _cswba()
    data = net.sample(200_000, seed=0)
    assert list(data.columns) == list(net.nodes)
    assert all(isinstance(data[c].dtype, pd.CategoricalDtype) for c in data)
    assert (data["B"] == "T").mean() == pytest.approx(0.17676, abs=0.005)
    assert (data["A"] == "T").mean() == pytest.approx(0.206056, abs=0.005)
    both = (data["B"] == "T") & (data["C"] == "T")
    assert (both & (data["S"] == "T")).sum() / both.sum() == pytest.approx(0.0841, abs=0.01)
    pd.testing.assert_frame_equal(net.sample(100, seed=3), net.sample(100, seed=3))
    assert net.sample(0, seed=0).shape == (0, 5)


def test_impossible_states_are_never_drawn_and_score_minus_infinity():
    dag = DAG(edges=[("a", "b")])
    net = BayesianNetwork(dag, {"a": [0.3, 0.7, 0.0], "b": [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]})
    data = net.sample(20_000, seed=2)
    assert (data["a"] != "2").all()
    assert ((data["a"] == "0") == (data["b"] == "0")).all()
    assert net.log_probability({"a": "0", "b": "1"}) == -np.inf
    assert net.probability({"a": "0", "b": "1"}) == 0.0


def test_free_parameters():
    net = _cswba()
    assert net.n_parameters == 1 + 1 + 2 + 4 + 2
    dag = DAG(edges=[("a", "c"), ("b", "c")])
    three = BayesianNetwork(
        dag, {"a": np.full(3, 1 / 3), "b": [0.5, 0.5], "c": np.full((3, 2, 4), 0.25)}
    )
    assert three.n_parameters == 2 + 1 + 3 * 2 * 3


def test_bad_networks_name_the_node():
    dag = DAG(edges=[("a", "b")])
    ok = {"a": [0.5, 0.5], "b": [[0.9, 0.1], [0.2, 0.8]]}
    with pytest.raises(ValueError, match=r"node 'b': CPT of shape \(2,\), expected \(2, 2\)"):
        BayesianNetwork(dag, {**ok, "b": [0.5, 0.5]})
    with pytest.raises(
        ValueError, match=r"node 'b': the distribution given \{'a': '1'\} sums to 0.9"
    ):
        BayesianNetwork(dag, {**ok, "b": [[0.9, 0.1], [0.2, 0.7]]})
    with pytest.raises(ValueError, match="node 'a': CPT entries must be finite and non-negative"):
        BayesianNetwork(dag, {**ok, "a": [1.5, -0.5]})
    with pytest.raises(ValueError, match="node 'b' has none"):
        BayesianNetwork(dag, {"a": ok["a"]})
    with pytest.raises(ValueError, match="no node 'z'"):
        BayesianNetwork(dag, {**ok, "z": [1.0]})
    with pytest.raises(ValueError, match="repeat a name"):
        BayesianNetwork(dag, ok, states={"a": ("x", "x")})
    with pytest.raises(ValueError, match=r"node 'a': CPT of shape \(2,\), expected \(3,\)"):
        BayesianNetwork(dag, ok, states={"a": ("x", "y", "z")})
    with pytest.raises(TypeError, match="DAG"):
        BayesianNetwork({"a": []}, ok)
    net = BayesianNetwork(dag, ok)
    with pytest.raises(ValueError, match="node 'a' has no state 'maybe'"):
        net.probability({"a": "maybe", "b": "0"})
    with pytest.raises(ValueError, match="no value for 'b'"):
        net.probability({"a": "0"})
    with pytest.raises(ValueError, match="column 'b' has a missing value"):
        net.log_likelihood(pd.DataFrame({"a": ["0"], "b": [None]}))
    with pytest.raises(ValueError, match="data has no column 'b'"):
        net.log_likelihood(pd.DataFrame({"a": ["0"]}))
    with pytest.raises(ValueError, match="column 'a' holds '7'"):
        net.log_likelihood(pd.DataFrame({"a": ["7"], "b": ["0"]}))
    with pytest.raises(ValueError, match="non-negative integer"):
        net.sample(-1)
    with pytest.raises(ValueError, match="read-only"):
        net.cpt("a")[0] = 1.0
