"""net.fit(data) keeps the network's structure, BayesianNetwork.learn learns one, edge lists
are taken wherever a DAG is, and numeric columns follow one rule (bayeskit.factors.states)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.data.codes import value_text
from bayeskit.factors.states import (
    MAX_INTEGER_STATES,
    NumericColumnError,
    discretize_frame,
    node_states,
    parse_discretize,
)
from bayeskit.graphs.dag import as_dag, edge_pairs
from bayeskit.learning.parameters import MAX_TABLE_CELLS
from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    fit_em,
    fit_parameters,
    learn_structure,
    read_bif,
    score,
    structural_em,
)

ASIA = read_bif(Path(__file__).parent / "data" / "asia.bif.gz")
STATES = {n: ASIA.states(n) for n in ASIA.nodes}


@pytest.fixture(scope="module")
def data():
    return ASIA.sample(5000, seed=0)


def _same_cpts(a, b, atol=1e-12):
    assert a.dag == b.dag
    for node in a.nodes:
        assert a.states(node) == b.states(node)
        np.testing.assert_allclose(a.cpt(node), b.cpt(node), atol=atol)


# ------------------------------------------------------------------ item 7: fit keeps the DAG
def test_fit_on_a_network_keeps_its_structure_and_states(data):
    fitted = ASIA.fit(data)
    assert fitted is not ASIA
    assert fitted.dag == ASIA.dag
    assert len(fitted.dag.edges) == 8
    assert fitted.nodes == ASIA.nodes
    _same_cpts(fitted, fit_parameters(ASIA.dag, data, states=STATES).network)
    # the network fitted from is left as it was (a network is a value)
    _same_cpts(ASIA, read_bif(Path(__file__).parent / "data" / "asia.bif.gz"))
    mle = ASIA.fit(data, estimator="mle")
    _same_cpts(mle, fit_parameters(ASIA.dag, data, estimator="mle", states=STATES).network)


def test_fit_keeps_states_the_data_never_shows_and_names_unknown_values(data):
    only_no = data[data["asia"] == "no"]
    fitted = ASIA.fit(only_no)
    assert fitted.states("asia") == ASIA.states("asia")
    assert fitted.cpt("asia")[ASIA.states("asia").index("yes")] < 1e-3
    wrong = data.assign(xray=data["xray"].astype(object))
    wrong.iloc[3, wrong.columns.get_loc("xray")] = "maybe"
    with pytest.raises(ValueError, match=r"column 'xray' holds 'maybe' \(row 3\)"):
        ASIA.fit(wrong)


def test_fit_from_integer_codes_matches_the_states_as_text():
    net = BayesianNetwork(DAG(edges=[("a", "b")]), {"a": [0.5, 0.5],
                          "b": [[0.5, 0.5], [0.5, 0.5]]})  # fmt: skip
    rows = pd.DataFrame({"a": [0, 0, 1, 1], "b": [1.0, 1.0, 0.0, 1.0]})
    fitted = net.fit(rows, estimator="mle")
    assert fitted.cpt("b").tolist() == [[0.0, 1.0], [0.5, 0.5]]


def test_fit_on_the_class_is_the_old_learn_with_a_future_warning(data):
    with pytest.warns(FutureWarning, match=r"BayesianNetwork\.learn\(data, \.\.\.\)"):
        old = BayesianNetwork.fit(data, states=STATES)
    _same_cpts(old, BayesianNetwork.learn(data, states=STATES))
    with pytest.warns(FutureWarning):
        given = BayesianNetwork.fit(data, ASIA.dag, states=STATES)
    assert given.dag == ASIA.dag
    # the two bindings are told apart by the instance, not by the arguments
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ASIA.fit(data).dag == ASIA.dag
    assert BayesianNetwork.fit.__name__ == "_learn_on_class"
    assert ASIA.fit.__name__ == "fit"
    assert "keeps" in BayesianNetwork.__dict__["fit"].__doc__


@pytest.mark.parametrize(
    ("args", "kwargs", "words"),
    [
        (("hill-climb",), {}, "takes none"),
        ((ASIA.dag,), {}, "takes none"),
        ((), {"structure": "tree"}, "takes none"),
        ((), {"score": "bic"}, "takes no ['score']"),
        ((), {"max_parents": 2}, "takes no ['max_parents']"),
        ((), {"states": STATES}, "takes no ['states']"),
        ((), {"discretize": "equal-width:3"}, "takes no ['discretize']"),
    ],
)
def test_fit_on_a_network_refuses_what_only_learning_takes(data, args, kwargs, words):
    with pytest.raises(TypeError) as info:
        ASIA.fit(data, *args, **kwargs)
    assert words in str(info.value)
    assert "BayesianNetwork.learn(data" in str(info.value)


def test_fit_refuses_em_options_when_counting_and_unknown_ones(data):
    with pytest.raises(TypeError, match="method='em'"):
        ASIA.fit(data, seed=0)
    with pytest.raises(TypeError, match=r"unexpected options \['colour'\]"):
        ASIA.fit(data, method="em", colour="red")
    with pytest.raises(ValueError, match="method must be"):
        ASIA.fit(data, method="magic")


def test_fit_by_em_with_missing_values_and_a_node_without_column(data):
    rng = np.random.default_rng(1)
    holed = data.drop(columns=["tub"]).mask(rng.random((len(data), 7)) < 0.1)
    with pytest.raises(ValueError, match=r"no column for \['tub'\].*method='em'"):
        ASIA.fit(holed)
    with pytest.raises(ValueError, match=r"missing values.*method='em'"):
        ASIA.fit(data.mask(rng.random(data.shape) < 0.1))
    fitted = ASIA.fit(holed, method="em", estimator="mle", seed=3, max_iter=4, tol=0)
    latent = {"tub": STATES["tub"]}
    observed = {n: s for n, s in STATES.items() if n != "tub"}
    direct = fit_em(ASIA.dag, holed, states=observed, latent=latent, estimator="mle", seed=3,
                    max_iter=4, tol=0).network  # fmt: skip
    _same_cpts(fitted, direct)
    from_itself = ASIA.fit(holed, method="em", start=ASIA, max_iter=2)
    assert from_itself.dag == ASIA.dag


def test_learn_refuses_search_options_for_a_given_structure(data):
    with pytest.raises(TypeError, match=r"\['max_parents'\] are options of a structure search"):
        BayesianNetwork.learn(data, ASIA.dag, max_parents=2)
    with pytest.raises(ValueError, match="needs the structure given"):
        BayesianNetwork.learn(data, method="em")
    with pytest.raises(ValueError, match="method must be"):
        BayesianNetwork.learn(data, method="magic")


def test_fit_on_data_in_chunks_keeps_the_structure(data):
    chunks = [data.iloc[:2000], data.iloc[2000:]]
    _same_cpts(ASIA.fit(chunks), ASIA.fit(data))


# ------------------------------------------------------------------ edge lists
def test_an_edge_list_is_taken_wherever_a_dag_is(data):
    edges = list(ASIA.dag.edges)
    assert as_dag(edges, nodes=ASIA.nodes) == ASIA.dag
    cpts = {n: ASIA.cpt(n) for n in ASIA.nodes}
    net = BayesianNetwork(edges, cpts, states=STATES)
    assert net.dag == ASIA.dag
    assert net.nodes == ASIA.nodes
    _same_cpts(fit_parameters(edges, data, states=STATES).network,
               fit_parameters(ASIA.dag, data, states=STATES).network)  # fmt: skip
    assert score(edges, data, "bic") == score(ASIA.dag, data, "bic")
    holed = data.mask(np.random.default_rng(0).random(data.shape) < 0.1)
    a = fit_em(edges, holed, states=STATES, max_iter=3, tol=0)
    b = fit_em(ASIA.dag, holed, states=STATES, max_iter=3, tol=0)
    assert a.history == b.history
    learned = BayesianNetwork.learn(data, edges, states=STATES)
    _same_cpts(learned, BayesianNetwork.learn(data, ASIA.dag, states=STATES))
    mapping = {"nodes": ["coin"], "edges": [("smoke", "lung")]}
    assert as_dag(mapping).nodes == ("coin", "smoke", "lung")


def test_an_edge_list_for_learning_takes_the_other_columns_as_nodes(data):
    net = BayesianNetwork.learn(data, [("smoke", "lung")], states=STATES)
    assert net.nodes == tuple(data.columns)
    assert net.dag.edges == (("smoke", "lung"),)


def test_search_start_and_lists_take_edge_lists(data):
    start = [("smoke", "lung"), ("smoke", "bronc")]
    a = learn_structure(data, states=STATES, start=start, tabu_length=0)
    b = learn_structure(data, states=STATES, tabu_length=0,
                        start=DAG(nodes=data.columns, edges=start))  # fmt: skip
    assert a == b
    white = learn_structure(data, states=STATES, white_list=DAG(edges=[("asia", "xray")]))
    assert ("asia", "xray") in white.edges
    with pytest.raises(ValueError, match="a single edge goes in a list"):
        learn_structure(data, states=STATES, black_list=("asia", "xray"))
    with pytest.raises(ValueError, match="start: the edges make a cycle"):
        learn_structure(data, states=STATES, start=[("asia", "tub"), ("tub", "asia")])
    with pytest.raises(ValueError, match="start must be a DAG over exactly"):
        learn_structure(data, states=STATES, start=[("asia", "nowhere")])


def test_structural_em_and_the_network_classifier_take_edge_lists():
    from bayeskit.classifiers import NetworkClassifier

    rows = ASIA.sample(600, seed=2)
    result = structural_em(rows, states=STATES, start=[("smoke", "lung")], max_iter=1)
    assert result.dags[0].edges == (("smoke", "lung"),)
    X, y = rows.drop(columns="lung"), rows["lung"]
    edges = [("class", f) for f in X.columns]
    model = NetworkClassifier(structure=edges).fit(X, y)
    naive = NetworkClassifier(structure="naive").fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), naive.predict_proba(X), atol=1e-12)
    with pytest.raises(ValueError, match="is no \\(parent, child\\) pair"):
        NetworkClassifier(structure=[("class", "smoke", "x")]).fit(X, y)
    with pytest.raises(ValueError, match="structure: the edges make a cycle"):
        NetworkClassifier(structure=[("smoke", "xray"), ("xray", "smoke")]).fit(X, y)


def test_the_structural_hamming_distance_and_bayes_ball_take_edge_lists():
    from bayeskit.networks import bayes_ball, structural_hamming_distance

    edges = list(ASIA.dag.edges)
    assert edges[0] == ("asia", "tub")  # 'asia' is named by no other edge
    # the edge list takes the DAG's nodes, so 'asia' (in no edge now) still counts
    assert structural_hamming_distance(edges[1:], ASIA.dag) == 1
    assert structural_hamming_distance(ASIA.dag, edges[1:]) == 1
    assert structural_hamming_distance(edges, edges) == 0
    assert bayes_ball(edges, "asia", "smoke") == ASIA.dag.d_separated("asia", "smoke")
    with pytest.raises(ValueError, match="the same nodes"):
        structural_hamming_distance([("a", "b")], [("a", "c")])


def test_edge_lists_are_checked_by_one_function():
    assert edge_pairs(DAG(edges=[("a", "b")])) == [("a", "b")]
    with pytest.raises(TypeError, match="must be a DAG or a list of"):
        as_dag("a->b")
    with pytest.raises(TypeError, match="must be a DAG or a list of"):
        as_dag(3)
    with pytest.raises(ValueError, match="structure: edge 'a' -> 'a' is a self-loop"):
        as_dag([("a", "a")])
    with pytest.raises(ValueError, match=r"\('a', 'b', 'c'\) is no \(parent, child\) pair"):
        as_dag([("a", "b", "c")])
    with pytest.raises(TypeError, match=r"a mapping \{'nodes': \[...\], 'edges'"):
        as_dag({"arcs": []})
    with pytest.raises(TypeError, match="must be a DAG or a list"):
        BayesianNetwork("ab", {"a": [1.0]})


# ------------------------------------------------------------------ numeric columns
def test_a_frame_of_random_floats_is_refused_by_name_before_anything_is_built(monkeypatch):
    # it used to become a state per value and end in numpy's MemoryError (1.78 PiB)
    import bayeskit.factors.states as states
    import bayeskit.learning.em as em
    import bayeskit.learning.parameters as learning
    import bayeskit.learning.search as search

    def never(*args, **kwargs):
        raise AssertionError("reached: the refusal must come first")

    for module, name in [(learning, "encode_frame"), (learning, "encode_columns"),
                         (learning, "family_counts"), (search, "_FamilyScores"),
                         (em, "state_codes")]:  # fmt: skip
        monkeypatch.setattr(module, name, never)
    named = []
    monkeypatch.setattr(states, "state_name", lambda v: named.append(v) or str(v))
    frame = pd.DataFrame(np.random.default_rng(0).random((10_000, 5)), columns=list("abcde"))
    with pytest.raises(NumericColumnError) as info:
        BayesianNetwork.learn(frame)
    assert named == []  # a column of floats is checked as numbers: no text per value
    text = str(info.value)
    assert "column 'a' has 10000 distinct values, numbers that are not whole" in text
    assert 'discretize="equal-frequency:5"' in text
    assert "astype('category')" in text
    for call in (
        lambda: fit_parameters(DAG(edges=[("a", "b")]), frame),
        lambda: fit_em([("a", "b")], frame),
        lambda: structural_em(frame),
        lambda: BayesianNetwork.learn([frame.iloc[:5000], frame.iloc[5000:]]),
    ):
        with pytest.raises(NumericColumnError, match="column 'a'"):
            call()
    with pytest.raises(NumericColumnError, match="column 'a' has at least 5000 distinct"):
        fit_parameters([("a", "b")], [frame.iloc[:5000], frame.iloc[5000:]])
    # the structure searches and scores themselves take continuous data (Gaussian families)
    assert set(learn_structure(frame).nodes) == set("abcde")
    assert np.isfinite(score(DAG(nodes=["a"]), frame))


def test_whole_numbers_are_states_up_to_a_limit():
    rng = np.random.default_rng(0)
    ok = pd.DataFrame(
        {"k": rng.integers(0, MAX_INTEGER_STATES, 3000), "c": rng.integers(0, 2, 3000)}
    )
    ok.loc[: MAX_INTEGER_STATES - 1, "k"] = np.arange(MAX_INTEGER_STATES)
    net = BayesianNetwork.learn(ok)
    assert net.states("k") == tuple(str(i) for i in range(MAX_INTEGER_STATES))
    many = ok.assign(k=np.arange(3000) % (MAX_INTEGER_STATES + 1))
    with pytest.raises(NumericColumnError, match="33 distinct values, whole numbers"):
        BayesianNetwork.learn(many)
    # whole floats (an integer column with gaps) are whole numbers
    gaps = ok.assign(k=ok["k"].astype(float).where(rng.random(3000) > 0.1))
    assert fit_parameters([("c", "k")], gaps.dropna()).network.states("k")[:3] == ("0", "1", "2")
    with pytest.raises(NumericColumnError, match="not whole"):
        BayesianNetwork.learn(ok.assign(c=ok["c"] + 0.5))


def test_integer_states_sort_numerically_everywhere():
    values = np.array([0, 1, 2, 10, 11, 3] * 50)
    frame = pd.DataFrame({"n": values, "t": values.astype(str), "o": values.astype(object)})
    want = ("0", "1", "2", "3", "10", "11")
    net = BayesianNetwork.learn(frame, [])
    assert net.states("n") == net.states("t") == net.states("o") == want
    chunks = [frame.iloc[:150], frame.iloc[150:]]
    in_chunks = fit_parameters(DAG(nodes=["n", "t"]), chunks).network
    assert in_chunks.states("n") == in_chunks.states("t") == want
    assert node_states("m", ["b", "10", "a", "9"]) == ("9", "10", "a", "b")


def test_a_declared_categorical_column_or_given_states_take_every_value():
    x = np.round(np.random.default_rng(0).random(400), 1)  # 11 values, not whole
    frame = pd.DataFrame({"x": x, "y": (x > 0.5).astype(int)})
    with pytest.raises(NumericColumnError):
        BayesianNetwork.learn(frame)
    net = BayesianNetwork.learn(frame.assign(x=frame["x"].astype("category")))
    assert len(net.states("x")) == len(np.unique(x))
    given = {"x": [value_text(v) for v in np.unique(x)]}  # 0.0 is named "0"
    assert BayesianNetwork.learn(frame, states=given).states("x") == tuple(given["x"])


def test_discretize_bins_the_columns_that_cannot_be_nodes():
    rng = np.random.default_rng(0)
    b = rng.integers(0, 2, 4000)
    x = rng.normal(size=4000) + 3 * b
    frame = pd.DataFrame({"b": b, "x": x, "k": rng.integers(0, 5, 4000)})
    net = BayesianNetwork.learn(frame, discretize="equal-frequency:4")
    assert len(net.states("x")) == 4
    assert net.states("x")[0].startswith("(-inf, ")
    assert net.states("x")[-1].endswith(", inf)")
    assert net.states("b") == ("0", "1")
    assert net.states("k") == tuple("01234")
    assert frozenset(("b", "x")) in {frozenset(e) for e in net.dag.edges}
    binned = discretize_frame(frame, "equal-width:3")
    cuts = np.linspace(x.min(), x.max(), 4)[1:-1]
    np.testing.assert_array_equal(binned["x"].cat.codes, np.searchsorted(cuts, x, side="left"))
    # a mapping bins the columns it names, whichever
    named = fit_parameters([("b", "k")], frame, discretize={"k": "equal-width:2"}).network
    assert len(named.states("k")) == 2
    with pytest.raises(ValueError, match="discretize and states both name 'k'"):
        fit_parameters([("b", "k")], frame, discretize={"k": "equal-width:2"},
                       states={"k": list("01234")})  # fmt: skip
    with pytest.raises(ValueError, match="MDL binning needs a class"):
        BayesianNetwork.learn(frame, discretize="mdl")
    with pytest.raises(ValueError, match="needs the data in one DataFrame"):
        BayesianNetwork.learn([frame], discretize="equal-width:3")
    with pytest.raises(ValueError, match="holds 'n/a'"):
        discretize_frame(frame.assign(x=frame["x"].astype(object).where(b == 0, "n/a")),
                         {"x": "equal-width:2"})  # fmt: skip
    assert parse_discretize("equal-frequency") == ("equal-frequency", 5)
    for bad in ("equal-frequency:x", "quantile:3", "equal-width:1", 5):
        with pytest.raises(ValueError, match="discretize"):
            parse_discretize(bad)


def test_networks_too_large_to_hold_are_refused_before_allocating():
    rng = np.random.default_rng(0)
    k = 600
    frame = pd.DataFrame({c: pd.Categorical(rng.integers(0, k, 2000), categories=range(k))
                          for c in "abc"})  # fmt: skip
    assert k**3 > MAX_TABLE_CELLS
    with pytest.raises(ValueError, match=r"CPTs would hold 216,001,200 cells .*node 'c' given"):
        fit_parameters([("a", "c"), ("b", "c")], frame)
    with pytest.raises(ValueError, match="CPTs would hold 216,001,200 cells"):
        fit_em([("a", "c"), ("b", "c")], frame)


def test_dask_states_follow_the_same_rule():
    dd = pytest.importorskip("dask.dataframe")
    from bayeskit import dask as bkd

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.random(400), "b": rng.integers(0, 2, 400)})
    with pytest.raises(NumericColumnError, match="column 'a'"):
        bkd.learn_structure(dd.from_pandas(frame, npartitions=2))
