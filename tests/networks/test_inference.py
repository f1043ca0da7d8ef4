"""Exact inference by variable elimination (issue 14)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.factors import Factor, product
from bayeskit.inference.elimination import InferenceTooLarge, VariableElimination
from bayeskit.networks import DAG, BayesianNetwork, read_bif

DATA = Path(__file__).parent / "data"
ASIA = read_bif(DATA / "asia.bif.gz")
ALARM = read_bif(DATA / "alarm.bif.gz")


# ------------------------------------------------------------------ brute force
def _random_network(rng: np.random.Generator, n: int) -> BayesianNetwork:
    nodes = [f"v{i}" for i in range(n)]
    edges = [(nodes[i], nodes[j]) for j in range(n) for i in range(j) if rng.random() < 0.45]
    dag = DAG(nodes=nodes, edges=edges)
    card = {v: int(rng.integers(2, 4)) for v in nodes}
    cpts = {}
    for v in nodes:
        shape = [card[p] for p in dag.parents(v)] + [card[v]]
        table = rng.dirichlet(np.full(card[v], 0.7), size=int(np.prod(shape[:-1]))).reshape(shape)
        if rng.random() < 0.3:  # some impossible entries, as in deterministic CPTs
            table = np.where(table < 0.15, 0.0, table)
            table = table / table.sum(axis=-1, keepdims=True)
        cpts[v] = table
    states = {v: [f"s{k}" for k in range(card[v])] for v in nodes}
    return BayesianNetwork(dag, cpts, states=states)


def _joint(net: BayesianNetwork) -> np.ndarray:
    """The full joint table, axes in node order, by the chain rule (Eq. 7.26)."""
    nodes = net.nodes
    joint = np.ones([net.cardinality(v) for v in nodes])
    for v in nodes:
        axes = [nodes.index(p) for p in net.dag.parents(v)] + [nodes.index(v)]
        shape = [1] * len(nodes)
        table = np.asarray(net.cpt(v))
        order = np.argsort(axes)
        table = np.transpose(table, order)
        for a, size in zip(sorted(axes), table.shape, strict=True):
            shape[a] = size
        joint = joint * table.reshape(shape)
    return joint


def _brute(net, joint, targets, evidence):
    nodes = list(net.nodes)
    index = tuple(net.states(v).index(evidence[v]) if v in evidence else slice(None)
                  for v in nodes)  # fmt: skip
    sub = joint[index]
    rest = [v for v in nodes if v not in evidence]
    summed = sub.sum(axis=tuple(i for i, v in enumerate(rest) if v not in targets))
    kept = [v for v in rest if v in targets]
    summed = np.transpose(summed, [kept.index(t) for t in targets])
    return summed, float(sub.sum())


def test_posteriors_equal_brute_force_enumeration_on_random_networks():
    rng = np.random.default_rng(7)
    checked = 0
    for trial in range(40):
        net = _random_network(rng, int(rng.integers(3, 8)))
        joint = _joint(net)
        nodes = list(net.nodes)
        order = "weighted-min-fill" if trial % 2 else "min-fill"
        ve = VariableElimination(net, order=order)
        for _ in range(6):
            k = int(rng.integers(0, len(nodes) - 1))
            observed = list(rng.choice(nodes, size=k, replace=False))
            evidence = {v: net.states(v)[int(rng.integers(net.cardinality(v)))] for v in observed}
            free = [v for v in nodes if v not in evidence]
            targets = list(rng.choice(free, size=int(rng.integers(1, min(3, len(free)) + 1)),
                                      replace=False))  # fmt: skip
            expected, p_e = _brute(net, joint, targets, evidence)
            assert ve.probability_of_evidence(evidence) == pytest.approx(p_e, abs=1e-14)
            # the evidence the query uses: d-separated evidence is pruned, which never changes a
            # posterior (checked here); evidence of probability zero is refused, pruned or not
            # (tests/networks/test_zero_evidence.py)
            pos = [net.nodes.index(t) for t in targets]
            kept, _ = ve._pruning(tuple(pos), tuple(net.nodes.index(v) for v in evidence))
            used = {net.nodes[v]: evidence[net.nodes[v]] for v in kept}
            used_expected, used_p = _brute(net, joint, targets, used)
            if p_e == 0:
                with pytest.raises(ValueError, match="probability zero"):
                    ve.query(targets, evidence)
                continue
            np.testing.assert_allclose(ve.query(targets, evidence).values,
                                       used_expected / used_p, atol=1e-12)  # fmt: skip
            got = ve.query(targets, evidence)
            assert list(got.variables) == targets
            np.testing.assert_allclose(got.values, expected / p_e, atol=1e-12)
            marginals = ve.query(targets, evidence, joint=False)
            for i, t in enumerate(targets):
                axes = tuple(a for a in range(len(targets)) if a != i)
                np.testing.assert_allclose(marginals[t].values, (expected / p_e).sum(axis=axes),
                                           atol=1e-12)  # fmt: skip
            # MAP of the targets (the others summed out) and its posterior probability
            assignment, prob = ve.map_query(targets, evidence)
            best = np.unravel_index(np.argmax(expected), expected.shape)
            assert prob == pytest.approx(expected.max() / p_e, abs=1e-12)
            chosen = tuple(net.states(t).index(assignment[t]) for t in targets)
            assert expected[chosen] == pytest.approx(expected[best], abs=1e-15)
            checked += 1
        # MPE: every unobserved node
        evidence = {nodes[0]: net.states(nodes[0])[0]}
        expected, p_e = _brute(net, joint, [v for v in nodes if v not in evidence], evidence)
        if p_e > 0:
            assignment, prob = ve.map_query(None, evidence)
            assert set(assignment) == set(nodes) - set(evidence)
            assert prob == pytest.approx(expected.max() / p_e, abs=1e-12)
    assert checked > 150


# ------------------------------------------------------------------ other libraries
# pgmpy 1.1.2 VariableElimination and pyAgrum 3.3.1 LazyPropagation on the bundled files,
# printed with repr. bayeskit equals pgmpy's figures to 1e-15; pyAgrum's differ from both by up
# to 1.5e-8 (its figures for P(e) differ by the same relative amount, as if it read the files'
# probabilities in single precision), so they are checked to 5e-8.
PEER_QUERIES = [
    (ASIA, "lung", {"xray": "yes", "smoke": "no"},
     [0.14228617292009557, 0.8577138270799044], [0.1422861705416177, 0.8577138294583823]),
    (ASIA, "bronc", {"dysp": "yes"},
     [0.8339673363295598, 0.16603266367044012], [0.8339673406882772, 0.16603265931172287]),
    (ASIA, "tub", {"asia": "yes", "xray": "yes", "dysp": "no"},
     [0.2223911588167883, 0.7776088411832117], [0.222391170310261, 0.777608829689739]),
    (ASIA, "either", {}, [0.064828, 0.935172], [0.06482800275382998, 0.93517199724617]),
    (ALARM, "HYPOVOLEMIA", {"CVP": "HIGH", "BP": "LOW", "HR": "HIGH"},
     [0.8376857131137968, 0.16231428688620314], [0.8376857163056142, 0.1623142836943858]),
    (ALARM, "LVFAILURE", {"HISTORY": "TRUE", "PCWP": "HIGH"},
     [0.2976880583782309, 0.702311941621769], [0.29768806928292596, 0.702311930717074]),
    (ALARM, "INTUBATION", {"SAO2": "LOW", "EXPCO2": "ZERO", "MINVOL": "ZERO", "PRESS": "HIGH"},
     [0.8591983394022366, 0.036233025359257966, 0.10456863523850546],
     [0.859198340717165, 0.03623302150868555, 0.10456863777414939]),
    (ALARM, "PULMEMBOLUS", {"PAP": "HIGH", "SHUNT": "HIGH"},
     [0.6061062947606484, 0.39389370523935163], [0.6061062798790182, 0.3938937201209818]),
]  # fmt: skip


@pytest.mark.parametrize(("net", "target", "evidence", "pgmpy", "pyagrum"), PEER_QUERIES)
def test_posteriors_equal_pgmpy_and_pyagrum(net, target, evidence, pgmpy, pyagrum):
    for order in ("min-fill", "weighted-min-fill"):
        got = VariableElimination(net, order=order).query(target, evidence).values
        np.testing.assert_allclose(got, pgmpy, rtol=0, atol=1e-14)
        np.testing.assert_allclose(got, pyagrum, rtol=0, atol=5e-8)


def test_cswba_queries_by_elimination():
    # case nju-bn-cswba-queries (seed 004), the figures of tests/networks/test_network.py
    from tests.networks.test_network import _cswba

    ve = VariableElimination(_cswba())
    assert ve.probability_of_evidence({"B": "T"}) == pytest.approx(0.17676, abs=1e-12)
    assert ve.probability_of_evidence({"A": "T"}) == pytest.approx(0.206056, abs=1e-12)
    assert ve.query("C", {"A": "T"}).values[0] == pytest.approx(0.8867492332181542, abs=1e-12)
    assert ve.query("S", {"B": "T"}).values[0] == pytest.approx(0.10183299389002037, abs=1e-12)
    assert ve.query("S", {"B": "T", "C": "T"}).values[0] == pytest.approx(
        0.08411214953271028, abs=1e-12
    )
    assert ve.query("C", {"W": "T"}).values[0] == pytest.approx(0.997229916897507, abs=1e-12)
    assert ve.query("B", {"W": "T", "A": "F"}).values[0] == pytest.approx(
        0.08296991466138652, abs=1e-12
    )


# ------------------------------------------------------------------ batches
def test_batched_queries_equal_one_query_per_row():
    data = ALARM.sample(300, seed=2)
    evidence = data[["CVP", "BP", "HR", "HISTORY", "PCWP", "SAO2"]].astype(object)
    rng = np.random.default_rng(0)
    evidence = evidence.mask(rng.random(evidence.shape) < 0.3)  # missing: unobserved
    evidence.index = evidence.index + 1000
    ve = VariableElimination(ALARM)
    frame = ve.query_batch("HYPOVOLEMIA", evidence)
    assert list(frame.index) == list(evidence.index)
    assert list(frame.columns) == list(ALARM.states("HYPOVOLEMIA"))
    both = ve.query_batch(["HYPOVOLEMIA", "LVFAILURE"], evidence)
    joint = ve.query_batch(["HYPOVOLEMIA", "LVFAILURE"], evidence, joint=True)
    for k in range(0, 300, 7):
        row = {c: v for c, v in evidence.iloc[k].items() if isinstance(v, str)}
        np.testing.assert_allclose(frame.iloc[k], ve.query("HYPOVOLEMIA", row).values, atol=1e-13)
        np.testing.assert_allclose(both["LVFAILURE"].iloc[k],
                                   ve.query("LVFAILURE", row).values, atol=1e-13)  # fmt: skip
        expected = ve.query(["HYPOVOLEMIA", "LVFAILURE"], row).values.ravel()
        np.testing.assert_allclose(joint.iloc[k], expected, atol=1e-13)
    # rows sharing the observed nodes share one plan
    patterns = {tuple(r) for r in evidence.notna().to_numpy()}
    assert len(ve._plans) <= 3 * len(patterns) + 8


def test_no_underflow_with_many_evidence_nodes():
    # 600 independent coins, each observed heads at P = 0.1, and a chain of 300 nodes observed at
    # every other node: P(e) is far below float64's smallest number, its log is exact
    nodes = [f"c{i}" for i in range(600)]
    coins = BayesianNetwork(DAG(nodes=nodes), dict.fromkeys(nodes, [0.1, 0.9]),
                            states=dict.fromkeys(nodes, ["h", "t"]))  # fmt: skip
    ve = VariableElimination(coins)
    log_p = ve.probability_of_evidence(dict.fromkeys(nodes, "h"), log=True)
    assert log_p == pytest.approx(600 * np.log(0.1), rel=1e-12)
    chain = [f"x{i}" for i in range(300)]
    dag = DAG(nodes=chain, edges=list(itertools.pairwise(chain)))
    step = [[0.9, 0.1], [0.2, 0.8]]
    net = BayesianNetwork(dag, {"x0": [0.5, 0.5], **dict.fromkeys(chain[1:], step)},
                          states=dict.fromkeys(chain, ["a", "b"]))  # fmt: skip
    evidence = {v: "ab"[k % 2] for k, v in enumerate(chain) if k != 1}  # flips: P 0.1 or 0.2
    ve = VariableElimination(net)
    post = ve.query("x1", evidence)
    # x1 between x0 = a and x2 = a: P(x1 | ...) proportional to P(x1 | a) P(a | x1)
    expected = np.array([0.9 * 0.9, 0.1 * 0.2])
    np.testing.assert_allclose(post.values, expected / expected.sum(), atol=1e-14)
    log_e = ve.probability_of_evidence(evidence, log=True)
    flips = np.log(0.1) * 149 + np.log(0.2) * 148  # x2 -> x3 -> ... -> x299
    assert log_e == pytest.approx(np.log(0.5) + np.log(expected.sum()) + flips, rel=1e-12)
    assert log_e < -500


# ------------------------------------------------------------------ errors
def test_bad_queries_are_named():
    ve = VariableElimination(ASIA)
    with pytest.raises(ValueError, match="'nowhere' is no node"):
        ve.query("nowhere")
    with pytest.raises(ValueError, match="evidence names 'nowhere'"):
        ve.query("lung", {"nowhere": "yes"})
    with pytest.raises(ValueError, match=r"evidence 'xray'='maybe': no such state"):
        ve.query("lung", {"xray": "maybe"})
    with pytest.raises(ValueError, match="both queried and observed"):
        ve.query("lung", {"lung": "yes"})
    with pytest.raises(ValueError, match="order must be one of"):
        VariableElimination(ASIA, order="random")
    frame = pd.DataFrame({"xray": ["yes", "perhaps"]})
    with pytest.raises(ValueError, match=r"evidence column 'xray' holds 'perhaps' \(row 1\)"):
        ve.query_batch("lung", frame)
    # evidence of probability zero: either is lung OR tub, deterministically
    impossible = {"either": "no", "lung": "yes"}
    with pytest.raises(ValueError, match="has probability zero"):
        ve.query("tub", impossible)
    assert ve.probability_of_evidence(impossible) == 0.0
    batch = pd.DataFrame([{"either": "no", "lung": "no"}, impossible])
    with pytest.raises(ValueError, match=r"\(row 1\) has probability zero"):
        ve.query_batch("tub", batch)


def test_a_query_too_large_fails_before_computing():
    ve = VariableElimination(ALARM, max_cells=50)
    with pytest.raises(InferenceTooLarge, match=r"needs a table of [\d,]+ cells"):
        ve.query(["HR", "CO", "BP", "SAO2"])
    small = VariableElimination(ALARM, max_cells=100_000)
    rows = pd.DataFrame({"CVP": ["HIGH"] * 50_000})
    with pytest.raises(InferenceTooLarge, match="max_cells=100,000"):
        small.query_batch("HYPOVOLEMIA", rows)


# ------------------------------------------------------------------ factors
def test_factor_operations():
    s = {"a": ["0", "1"], "b": ["x", "y", "z"]}
    f = Factor(["a", "b"], [[0.1, 0.2, 0.3], [0.4, 0.0, 0.0]], s)
    g = Factor(["b"], [1.0, 2.0, 3.0], s)
    fg = f * g
    np.testing.assert_allclose(fg.values, [[0.1, 0.4, 0.9], [0.4, 0.0, 0.0]])
    np.testing.assert_allclose(product([f, g], keep=["a"]).values, [1.4, 0.4])
    np.testing.assert_allclose(fg.maximize(["b"]).values, [0.9, 0.4])
    assert f.reduce({"b": "x"}).values.tolist() == [0.1, 0.4]
    assert f.argmax() == {"a": "1", "b": "x"}
    r = f.rescaled()
    assert r.values.max() == 1.0
    assert r.value({"a": "0", "b": "y"}) == pytest.approx(0.2)
    frame = fg.normalize().to_frame()
    assert list(frame.columns) == ["a", "b", "probability"]
    assert frame["probability"].sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="variable 'b' has 3 states but its axis is 2 long"):
        Factor(["b"], [0.5, 0.5], s)
    with pytest.raises(ValueError, match="sums to 0"):
        Factor(["a"], [0.0, 0.0], s).normalize()
    with pytest.raises(ValueError, match="'maybe' is no state of 'a'"):
        f.reduce({"a": "maybe"})


# ------------------------------------------------------------------ junction tree
def _normalised(net: BayesianNetwork) -> BayesianNetwork:
    """The network with every CPT row divided by its sum (the files' rows sum to 1 only to
    about 1e-7, and pruned and unpruned computations differ by that much)."""
    cpts = {}
    for v in net.nodes:
        t = np.asarray(net.cpt(v))
        cpts[v] = t / t.sum(axis=-1, keepdims=True)
    return BayesianNetwork(net.dag, cpts, states={v: net.states(v) for v in net.nodes})


def test_junction_tree_equals_brute_force_on_random_networks():
    from bayeskit.networks import JunctionTree

    rng = np.random.default_rng(11)
    for trial in range(30):
        net = _random_network(rng, int(rng.integers(2, 8)))
        joint = _joint(net)
        nodes = list(net.nodes)
        jt = JunctionTree(net, order="weighted-min-fill" if trial % 2 else "min-fill")
        assert jt.n_cells >= max(np.prod([net.cardinality(v) for v in c]) for c in
                                 [[nodes[i] for i in cl] for cl in jt.cliques])  # fmt: skip
        rows = []
        for _ in range(8):
            k = int(rng.integers(0, len(nodes)))
            observed = list(rng.choice(nodes, size=k, replace=False))
            rows.append({v: net.states(v)[int(rng.integers(net.cardinality(v)))] for v in observed})
        for evidence in rows:
            free = [v for v in nodes if v not in evidence]
            p_e = _brute(net, joint, [], evidence)[1] if evidence else 1.0
            assert jt.probability_of_evidence(evidence) == pytest.approx(p_e, abs=1e-14)
            if p_e == 0:
                with pytest.raises(ValueError, match="probability zero"):
                    jt.query(free[0], evidence)
                continue
            marginals = jt.calibrate(evidence)
            assert set(marginals) == set(free)
            for v in free:
                expected = _brute(net, joint, [v], evidence)[0] / p_e
                np.testing.assert_allclose(jt.query(v, evidence).values, expected, atol=1e-12)
                np.testing.assert_allclose(marginals[v].values, expected, atol=1e-12)


def test_junction_tree_batches_and_variable_elimination_agree_on_alarm():
    from bayeskit.networks import JunctionTree

    net = _normalised(ALARM)
    jt, ve = JunctionTree(net), VariableElimination(net)
    data = net.sample(400, seed=5)
    evidence = data[["CVP", "BP", "HR", "HISTORY", "PCWP", "SAO2", "EXPCO2"]].astype(object)
    evidence = evidence.mask(np.random.default_rng(1).random(evidence.shape) < 0.4)
    one = jt.query_batch("HYPOVOLEMIA", evidence)
    several, log_e = jt.query_batch(["HYPOVOLEMIA", "INTUBATION", "LVFAILURE"], evidence,
                                    log_evidence=True)  # fmt: skip
    np.testing.assert_allclose(several["HYPOVOLEMIA"], one, atol=1e-13)
    by_ve = ve.query_batch(["HYPOVOLEMIA", "INTUBATION", "LVFAILURE"], evidence)
    for name, frame in several.items():
        np.testing.assert_allclose(frame.to_numpy(), by_ve[name].to_numpy(), atol=1e-12)
    for k in range(0, 400, 37):
        row = {c: v for c, v in evidence.iloc[k].items() if isinstance(v, str)}
        assert log_e.iloc[k] == pytest.approx(ve.probability_of_evidence(row, log=True), abs=1e-12)
    # the files as they are: rows summing to 1 within ~1e-7 make pruned (VE) and whole (JT)
    # computations differ by about that much
    raw = JunctionTree(ALARM).query("LVFAILURE", {"HISTORY": "TRUE", "PCWP": "HIGH"})
    np.testing.assert_allclose(raw.values, [0.2976880583782309, 0.702311941621769], atol=1e-7)


def test_junction_tree_errors_and_limits():
    from bayeskit.networks import JunctionTree

    jt = JunctionTree(ASIA)
    with pytest.raises(ValueError, match="'nowhere' is no node"):
        jt.query("nowhere")
    with pytest.raises(ValueError, match="both queried and observed"):
        jt.query("lung", {"lung": "yes"})
    with pytest.raises(ValueError, match=r"\(row 1\) has probability zero"):
        jt.query_batch("tub", pd.DataFrame([{"either": "no"}, {"either": "no", "lung": "yes"}]))
    with pytest.raises(InferenceTooLarge, match="max_cells=20"):
        JunctionTree(ALARM, max_cells=20)
    # a joint query of several variables goes to variable elimination
    joint = jt.query(["lung", "tub"], {"xray": "yes"})
    expected = VariableElimination(ASIA).query(["lung", "tub"], {"xray": "yes"})
    np.testing.assert_allclose(joint.values, expected.values, atol=1e-15)
    # a network in pieces is a forest joined by empty separators
    dag = DAG(nodes=["a", "b", "c"], edges=[("a", "b")])
    net = BayesianNetwork(dag, {"a": [0.3, 0.7], "b": [[0.9, 0.1], [0.2, 0.8]], "c": [0.5, 0.5]},
                          states=dict.fromkeys("abc", ["0", "1"]))  # fmt: skip
    forest = JunctionTree(net)
    np.testing.assert_allclose(forest.query("a", {"b": "0", "c": "1"}).values,
                               [0.27 / 0.41, 0.14 / 0.41])  # fmt: skip
    assert forest.probability_of_evidence({"b": "0", "c": "1"}) == pytest.approx(0.41 * 0.5)


def test_any_node_can_be_predicted_from_the_others():
    from bayeskit.networks import JunctionTree

    data = ASIA.sample(500, seed=9)
    holed = data.astype(object).mask(np.random.default_rng(0).random(data.shape) < 0.2)
    proba = ASIA.predict_proba(holed, "lung")
    expected = JunctionTree(ASIA).query_batch("lung", holed.drop(columns=["lung"]))
    np.testing.assert_allclose(proba.to_numpy(), expected.to_numpy(), atol=1e-15)
    filled = ASIA.predict(holed.assign(extra=1), "lung")  # columns that are no node: ignored
    assert list(filled.index) == list(holed.index)
    assert (filled == np.asarray(ASIA.states("lung"))[proba.to_numpy().argmax(axis=1)]).all()
    assert (filled == data["lung"].astype(str)).mean() > 0.9
    with pytest.raises(KeyError, match="unknown node 'nowhere'"):
        ASIA.predict(holed, "nowhere")


# ------------------------------------------------------------------ found in review
def test_no_underflow_inside_an_elimination_step_or_a_clique():
    from bayeskit.networks import JunctionTree

    # a root with 150 observed children: one elimination step multiplies 151 tables
    kids = [f"b{i}" for i in range(150)]
    star = BayesianNetwork(DAG(nodes=["a", *kids], edges=[("a", k) for k in kids]),
                           {"a": [0.5, 0.5], **dict.fromkeys(kids, [[1e-3, 1 - 1e-3],
                                                                    [2e-3, 1 - 2e-3]])},
                           states=dict.fromkeys(["a", *kids], ["0", "1"]))  # fmt: skip
    evidence = dict.fromkeys(kids, "0")
    exact = np.log(0.5) + 150 * np.log(2e-3) + np.log1p(0.5**150)
    ve = VariableElimination(star)
    assert ve.probability_of_evidence(evidence, log=True) == pytest.approx(exact, rel=1e-12)
    assert JunctionTree(star).probability_of_evidence(evidence, log=True) == pytest.approx(
        exact, rel=1e-12
    )
    assert ve.map_query("a", evidence)[0] == {"a": "1"}
    # (a limit, documented: states whose ratio within a partial product falls below ~1e-308
    # are lost, as in every engine that rescales by the largest entry rather than in logs)


def test_edge_cases_of_batches_and_calibration():
    from bayeskit.networks import JunctionTree

    ve, jt = VariableElimination(ASIA), JunctionTree(ASIA)
    # a column with no value at all is simply not observed
    one = pd.DataFrame([{"smoke": "yes", "xray": None}])
    expected = ve.query("lung", {"smoke": "yes"}).values
    np.testing.assert_allclose(ASIA.predict_proba(one, "lung").iloc[0], expected, atol=1e-14)
    np.testing.assert_allclose(ve.query_batch("lung", one).iloc[0], expected, atol=1e-14)
    # no rows: empty frames with the states as columns
    empty = ve.query_batch("lung", pd.DataFrame({"smoke": pd.Series([], dtype=object)}))
    assert empty.shape == (0, 2)
    assert list(empty.columns) == ["yes", "no"]
    assert jt.query_batch("lung", pd.DataFrame({"smoke": pd.Series([], dtype=object)})).shape == (
        0,
        2,
    )
    # every node observed: nothing to calibrate, but impossible evidence is still said
    full = {n: ASIA.sample(1, seed=0).iloc[0][n] for n in ASIA.nodes}
    assert jt.calibrate(full) == {}
    with pytest.raises(ValueError, match="probability zero"):
        jt.calibrate({**full, "either": "no", "lung": "yes"})
    # integer states with gaps: pandas holds the column as float (1.0 is the state "1")
    coins = BayesianNetwork(DAG(edges=[("a", "b")]), {"a": [0.3, 0.7],
                            "b": [[0.9, 0.1], [0.2, 0.8]]},
                            states={"a": ["0", "1"], "b": ["0", "1"]})  # fmt: skip
    frame = pd.DataFrame({"a": [1.0, np.nan, 0.0]})
    np.testing.assert_allclose(coins.predict_proba(frame, "b").to_numpy(),
                               [[0.2, 0.8], [0.41, 0.59], [0.9, 0.1]], atol=1e-12)  # fmt: skip


def test_the_final_table_counts_against_max_cells():
    nodes = [f"r{i}" for i in range(20)]
    roots = BayesianNetwork(DAG(nodes=nodes), dict.fromkeys(nodes, [0.5, 0.5]),
                            states=dict.fromkeys(nodes, ["0", "1"]))  # fmt: skip
    with pytest.raises(InferenceTooLarge, match="1,048,576 cells"):
        VariableElimination(roots, max_cells=1000).query(nodes)
    assert VariableElimination(roots, max_cells=np.int64(1 << 21)).query(nodes).values.size == (
        1 << 20
    )
