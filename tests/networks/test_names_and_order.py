"""Networks align tables by name, never by position, and name states by one rule.

Two networks over one DAG may list a node's parents in different orders (the order of the
edges they were built from) and a node's states in different orders (a file's order, the
data's order): whatever takes a CPT from one network into the other reads it by parent and
state name. State names are text; a number or a boolean given as a state name, a value of
data or of evidence, is named by its canonical key (bayeskit.data.codes.category_key).
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.factors.states import latent_states, match_states, node_states, state_names
from bayeskit.networks import (
    CPD,
    DAG,
    BayesianNetwork,
    Factor,
    JunctionTree,
    VariableElimination,
    fit_em,
    fit_parameters,
    read_bif,
)

DATA = Path(__file__).parent / "data"


# ---------------------------------------------------------------------------------- fixtures
def _random_network(dag: DAG, cards: dict, seed: int) -> BayesianNetwork:
    rng = np.random.default_rng(seed)
    cpts = {}
    for node in dag.nodes:
        shape = [cards[p] for p in dag.parents(node)] + [cards[node]]
        rows = rng.dirichlet(np.ones(shape[-1]), size=int(np.prod(shape[:-1])))
        cpts[node] = rows.reshape(shape)
    states = {n: [f"{n}{k}" for k in range(cards[n])] for n in dag.nodes}
    return BayesianNetwork(dag, cpts, states=states)


def _mixed_cardinalities() -> BayesianNetwork:
    # d has three parents of 2, 3 and 2 states: a table read transposed has another shape
    dag = DAG(edges=[("a", "d"), ("b", "d"), ("c", "d"), ("d", "e"), ("a", "e")])
    return _random_network(dag, {"a": 2, "b": 3, "c": 2, "d": 4, "e": 3}, seed=1)


def _binary() -> BayesianNetwork:
    # every node binary: a table read transposed has the same shape and is silently wrong
    dag = DAG(edges=[("x", "w"), ("y", "w"), ("z", "w"), ("x", "y"), ("w", "v"), ("z", "v")])
    return _random_network(dag, dict.fromkeys("vwxyz", 2), seed=2)


NETWORKS = {
    "mixed": _mixed_cardinalities,
    "binary": _binary,
    "asia": lambda: read_bif(DATA / "asia.bif.gz"),
    "cancer": lambda: read_bif(DATA / "cancer.bif.gz"),
}


def _permuted(net: BayesianNetwork, seed: int) -> BayesianNetwork:
    """``net`` rebuilt with its nodes, every node's parents and every node's states in a
    shuffled order, each table moved to match: the same distribution, written another way."""
    rng = np.random.default_rng(seed)

    def shuffled(items):  # never the order given (where there are two or more)
        out = [items[i] for i in rng.permutation(len(items))]
        return out[::-1] if out == list(items) else out

    nodes = shuffled(list(net.nodes))
    order = {n: shuffled(list(net.dag.parents(n))) for n in nodes}
    states = {n: shuffled(list(net.states(n))) for n in nodes}
    cpts = {}
    for node in nodes:
        family = [*order[node], node]
        old = [*net.dag.parents(node), node]
        table = np.transpose(np.asarray(net.cpt(node)), [old.index(v) for v in family])
        for axis, v in enumerate(family):
            table = np.take(table, [net.states(v).index(s) for s in states[v]], axis=axis)
        cpts[node] = table
    dag = DAG(nodes=nodes, edges=[(p, v) for v in nodes for p in order[v]])
    return BayesianNetwork(dag, cpts, states=states)


def _assignments(net: BayesianNetwork):
    names = [net.states(n) for n in net.nodes]
    for combo in itertools.product(*names):
        yield dict(zip(net.nodes, combo, strict=True))


CASES = [(name, seed) for name in NETWORKS for seed in (0, 1, 2)]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_the_permuted_fixture_is_the_same_distribution_written_another_way(name, seed):
    net = NETWORKS[name]()
    other = _permuted(net, seed)
    assert other.dag == net.dag
    for node in net.nodes:
        assert other.states(node) != net.states(node)
        if len(net.dag.parents(node)) > 1:
            assert other.dag.parents(node) != net.dag.parents(node)
    for assignment in itertools.islice(_assignments(net), 300):
        assert other.log_probability(assignment) == pytest.approx(
            net.log_probability(assignment), abs=1e-12
        )


# ---------------------------------------------------------------------------------- CPD.aligned
@pytest.mark.parametrize(("name", "seed"), CASES)
def test_cpd_aligned_reads_every_table_by_name(name, seed):
    net = NETWORKS[name]()
    other = _permuted(net, seed)
    states = {n: net.states(n) for n in net.nodes}
    for node in net.nodes:
        got = other.cpd(node).aligned(net.dag.parents(node), states)
        np.testing.assert_array_equal(got, net.cpt(node))
        # every cell, looked up by name in both
        parents = net.dag.parents(node)
        for combo in itertools.islice(itertools.product(*(states[v] for v in parents)), 20):
            for k, s in enumerate(states[node]):
                mine = dict(zip(parents, combo, strict=True)) | {node: s}
                at = tuple(other.states(v).index(mine[v]) for v in (*other.dag.parents(node),
                                                                    node))  # fmt: skip
                assert got[(*(states[v].index(mine[v]) for v in parents), k)] == other.cpt(node)[at]


@pytest.mark.parametrize(
    ("parents", "states", "match"),
    [
        (["a"], {}, r"parents \['a', 'b'\] here and \['a'\] there"),
        (["a", "z"], {}, r"parents \['a', 'b'\] here and \['a', 'z'\] there"),
        (["a", "b"], {"c": ["c0", "c9"]}, r"'c' has the states \['c0', 'c1'\] in one table and"),
        (["b", "a"], {"a": ["a0", "a1", "a2"]}, r"variable 'a' has the states"),
        (["b", "a"], {"b": ["b1"]}, r"variable 'b' has the states"),
    ],
)
def test_cpd_aligned_refuses_another_family_or_other_names(parents, states, match):
    cpd = CPD("c", ["a", "b"], np.full((2, 2, 2), 0.5),
              {"a": ["a0", "a1"], "b": ["b0", "b1"], "c": ["c0", "c1"]})  # fmt: skip
    with pytest.raises(ValueError, match=match):
        cpd.aligned(parents, states)


# ---------------------------------------------------------------------------------- kl_divergence
@pytest.mark.parametrize(("name", "seed"), CASES)
def test_kl_divergence_of_a_network_and_itself_written_another_way_is_zero(name, seed):
    net = NETWORKS[name]()
    other = _permuted(net, seed)
    assert abs(net.kl_divergence(other)) <= 1e-12
    assert abs(other.kl_divergence(net)) <= 1e-12


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", ["mixed", "binary"])
def test_kl_divergence_does_not_depend_on_how_either_network_is_written(name, seed):
    p = NETWORKS[name]()
    cards = {n: p.cardinality(n) for n in p.nodes}
    q = _random_network(p.dag, cards, seed=100 + seed)
    expected = p.kl_divergence(q)
    assert expected > 0.01
    assert p.kl_divergence(_permuted(q, seed)) == pytest.approx(expected, rel=1e-12)
    assert _permuted(p, seed + 7).kl_divergence(q) == pytest.approx(expected, rel=1e-12)
    assert _permuted(p, seed + 7).kl_divergence(_permuted(q, seed)) == pytest.approx(
        expected, rel=1e-12
    )


def test_kl_divergence_refuses_other_states_or_another_dag_by_name():
    net = _mixed_cardinalities()
    cpts = {n: net.cpt(n) for n in net.nodes}
    states = {n: net.states(n) for n in net.nodes}
    renamed = BayesianNetwork(net.dag, cpts, states={**states, "b": ["b0", "b1", "bX"]})
    with pytest.raises(ValueError, match=r"kl_divergence's other: variable 'b' has the states"):
        net.kl_divergence(renamed)
    other = DAG(edges=[("a", "d"), ("b", "d"), ("c", "d"), ("d", "e")])
    with pytest.raises(ValueError, match="same DAG"):
        net.kl_divergence(_random_network(other, {n: net.cardinality(n) for n in net.nodes}, 0))
    with pytest.raises(TypeError, match="must be a BayesianNetwork"):
        net.kl_divergence("net")


# ---------------------------------------------------------------------------------- EM starts
def _holed(data: pd.DataFrame, share: float, seed: int) -> pd.DataFrame:
    return data.astype(object).mask(np.random.default_rng(seed).random(data.shape) < share)


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_fit_em_from_a_start_written_another_way_is_the_same_fit(name, seed):
    net = NETWORKS[name]()
    data = _holed(net.sample(800, seed=seed), 0.2, seed)
    states = {n: net.states(n) for n in net.nodes}
    start = _random_network(net.dag, {n: net.cardinality(n) for n in net.nodes}, seed + 50)
    start = BayesianNetwork(net.dag, {n: start.cpt(n) for n in net.nodes}, states=states)
    kwargs = dict(states=states, estimator="lidstone", max_iter=4, tol=0)
    plain = fit_em(net.dag, data, start=start, **kwargs)
    moved = fit_em(net.dag, data, start=_permuted(start, seed), **kwargs)
    np.testing.assert_allclose(moved.history, plain.history, rtol=1e-12)
    for node in net.nodes:
        np.testing.assert_allclose(moved.network.cpt(node), plain.network.cpt(node), atol=1e-12)
    # the DAG fitted written another way, the start as it was: the same network, by name
    other_dag = fit_em(_permuted(net, seed).dag, data, start=start, **kwargs)
    np.testing.assert_allclose(other_dag.history, plain.history, rtol=1e-12)
    assert abs(plain.network.kl_divergence(other_dag.network)) <= 1e-12


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("method", ["em", "gradient"])
@pytest.mark.parametrize("how", ["net.fit", "learn"])
def test_every_em_entry_from_a_start_written_another_way_is_the_same_fit(how, method, seed):
    net = _binary()
    data = _holed(net.sample(600, seed=seed), 0.25, seed)
    states = {n: net.states(n) for n in net.nodes}

    def fit(start):
        options = dict(method=method, start=start, max_iter=3, tol=0, estimator="mle")
        if how == "net.fit":
            return net.fit(data, **options)
        return BayesianNetwork.learn(data, net.dag, states=states, **options)

    plain, moved = fit(net), fit(_permuted(net, seed))
    for node in net.nodes:
        assert moved.states(node) == plain.states(node)
        np.testing.assert_allclose(moved.cpt(node), plain.cpt(node), atol=1e-12)


def test_fit_em_refuses_a_start_of_other_states_or_structure_by_name():
    net = _mixed_cardinalities()
    data = _holed(net.sample(300, seed=0), 0.2, 0)
    states = {n: net.states(n) for n in net.nodes}
    renamed = BayesianNetwork(net.dag, {n: net.cpt(n) for n in net.nodes},
                              states={**states, "e": ["e0", "e1", "other"]})  # fmt: skip
    with pytest.raises(ValueError, match=r"start: variable 'e' has the states \['e0', 'e1', 'o"):
        fit_em(net.dag, data, states=states, start=renamed)
    with pytest.raises(ValueError, match=r"column 'e' holds 'e2' \(row \d+\), which is no state"):
        fit_em(net.dag, data, start=renamed)  # the states not given are the start's
    dag = DAG(nodes=net.nodes, edges=[("a", "d"), ("b", "d"), ("c", "d"), ("d", "e")])
    with pytest.raises(ValueError, match="start must be a network over the same DAG"):
        fit_em(dag, data, states=states, start=net)
    with pytest.raises(TypeError, match="start must be a BayesianNetwork"):
        fit_em(net.dag, data, states=states, start={"a": [0.5, 0.5]})


@pytest.mark.parametrize(("name", "seed"), [("mixed", 0), ("asia", 1), ("cancer", 2)])
def test_fit_em_takes_the_states_of_its_start_where_none_are_given(name, seed):
    # the data's own order would be sorted; the start's is another, and is kept
    net = NETWORKS[name]()
    start = _permuted(net, seed)
    data = _holed(net.sample(500, seed=seed), 0.2, seed)
    fitted = fit_em(net.dag, data, start=start, max_iter=3, tol=0).network
    given = fit_em(net.dag, data, start=start, max_iter=3, tol=0,
                   states={n: start.states(n) for n in net.nodes}).network  # fmt: skip
    for node in net.nodes:
        assert fitted.states(node) == start.states(node)
        np.testing.assert_allclose(fitted.cpt(node), given.cpt(node), atol=1e-12)


# ---------------------------------------------------------------------------------- factors
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_product_of_factors_matches_shared_variables_by_state_name(seed):
    net = _mixed_cardinalities()
    other = _permuted(net, seed)
    for node in net.nodes:
        for child in net.nodes:
            if node not in net.dag.parents(child):
                continue
            f, g = net.cpd(node).to_factor(), other.cpd(child).to_factor()
            h = net.cpd(child).to_factor()
            mixed = (f * g).marginalize([node])
            plain = (f * h).marginalize([node])
            for v in plain.variables:
                for s in plain.states[v]:
                    assert mixed.reduce({v: s}).values.sum() == pytest.approx(
                        plain.reduce({v: s}).values.sum(), abs=1e-12
                    )


def test_a_product_of_factors_refuses_other_state_names():
    f = Factor(["a"], [0.5, 0.5], {"a": ["x", "y"]})
    g = Factor(["a", "b"], np.full((2, 2), 0.25), {"a": ["x", "z"], "b": ["0", "1"]})
    with pytest.raises(ValueError, match=r"variable 'a' has the states \['x', 'z'\] in one"):
        f * g


# ---------------------------------------------------------------------------------- state names
@pytest.mark.parametrize(
    ("given", "names"),
    [
        ([0, 1], ("0", "1")),
        ([1.0, 2.0], ("1", "2")),
        ([np.int64(3), np.float32(4.0)], ("3", "4")),
        ([0.5, 1.5], ("0.5", "1.5")),
        ([False, True], ("False", "True")),
        ([np.True_, np.False_], ("True", "False")),
        (["1.0", "01"], ("1.0", "01")),  # text stays as it is
        (np.array([2, 0]), ("2", "0")),
        (pd.Index(["lo", "hi"]), ("lo", "hi")),
    ],
)
def test_the_constructor_names_every_state_as_text_by_one_rule(given, names):
    dag = DAG(nodes=["a"])
    net = BayesianNetwork(dag, {"a": [0.5, 0.5]}, states={"a": given})
    assert net.states("a") == names
    assert all(type(s) is str for s in net.states("a"))
    for value, name in zip(given, names, strict=True):  # a state found by what named it
        assert net.probability({"a": value}) == 0.5
        assert net.probability({"a": name}) == 0.5


@pytest.mark.parametrize(
    ("given", "match"),
    [
        ([1, "1"], r"1 and '1' both name the state '1'"),
        ([True, "True"], r"True and 'True' both name the state 'True'"),
        ([1, 1.0], r"1 and 1.0 both name the state '1'"),
        ([np.int64(2), "2"], r"2 and '2' both name the state '2'"),
        (["x", "x"], r"repeat a name, 'x'"),
        ([0, None], r"missing value None"),
    ],
)
def test_two_names_of_one_state_are_refused_naming_both(given, match):
    dag = DAG(nodes=["a"])
    with pytest.raises(ValueError, match=r"node 'a': .*" + match):
        BayesianNetwork(dag, {"a": [0.5, 0.5]}, states={"a": given})


@pytest.mark.parametrize("given", ["ab", {"a": 1, "b": 2}, 2])
def test_states_given_as_text_or_a_mapping_are_refused(given):
    with pytest.raises(TypeError, match="node 'a': states must be a list of state names"):
        BayesianNetwork(DAG(nodes=["a"]), {"a": [0.5, 0.5]}, states={"a": given})


def _weather() -> BayesianNetwork:
    # a numeric node: its states named as the numbers 0 and 1
    dag = DAG(edges=[("rain", "wet")])
    return BayesianNetwork(dag, {"rain": [0.3, 0.7], "wet": [[0.9, 0.1], [0.2, 0.8]]},
                           states={"rain": [1, 0], "wet": [True, False]})  # fmt: skip


@pytest.mark.parametrize("rain", [1, 1.0, "1", "1.0", np.int64(1), np.float64(1.0), "+1"])
@pytest.mark.parametrize("wet", [True, "True", "TRUE", "true", np.True_])
def test_evidence_finds_a_state_by_name_or_by_canonical_key(rain, wet):
    net = _weather()
    assert net.probability({"rain": rain, "wet": wet}) == pytest.approx(0.3 * 0.9)
    for engine in (VariableElimination(net), JunctionTree(net)):
        got = engine.query(["rain"], evidence={"wet": wet}).values
        assert got.tolist() == pytest.approx([0.27 / 0.41, 0.14 / 0.41])
        got = engine.query(["wet"], evidence={"rain": rain}).values
        assert got.tolist() == pytest.approx([0.9, 0.1])


@pytest.mark.parametrize("value", [2, "2", 1.5, "yes", False, "0.0.0"])
def test_evidence_that_names_no_state_is_refused(value):
    net = _weather()
    with pytest.raises(ValueError, match="no such state"):
        VariableElimination(net).query(["wet"], evidence={"rain": value})
    with pytest.raises(ValueError, match="node 'rain' has no state"):
        net.probability({"rain": value, "wet": True})


@pytest.mark.parametrize(
    ("value", "index"),
    [(1.0, 0), (1, 0), ("1", 0), ("1.0", 1), ("01", -1), ("1.00", -1), (2, -1)],
)
def test_a_name_is_matched_exactly_first_and_by_key_only_where_one_state_has_it(value, index):
    # "1" and "1.0" are two names (text stays as it is); both have the key "1"
    assert match_states([value], ("1", "1.0")).tolist() == [index]


@pytest.mark.parametrize(
    "column",
    [
        [0.0, 1.0, 1.0, 0.0, 1.0],  # floats: a whole number is named as an integer
        [0, 1, 1, 0, 1],
        ["0", "1", "1", "0", "1"],
        np.array([0, 1, 1, 0, 1], dtype=np.int8),
    ],
)
def test_data_and_evidence_name_numbers_alike(column):
    rng = np.random.default_rng(0)
    n = 200
    rain = rng.integers(0, 2, n)
    data = pd.DataFrame({"rain": np.tile(column, n // 5), "wet": rain})
    fitted = fit_parameters(DAG(edges=[("rain", "wet")]), data, estimator="lidstone").network
    assert fitted.states("rain") == ("0", "1")
    as_text = pd.DataFrame({"rain": ["1", "0"], "wet": ["0", "1"]})
    as_float = pd.DataFrame({"rain": [1.0, 0.0], "wet": [0.0, 1.0]})
    expected = fitted.log_likelihood(as_text, per_row=True)
    np.testing.assert_allclose(fitted.log_likelihood(as_float, per_row=True), expected)
    posterior = fitted.predict_proba(pd.DataFrame({"rain": [1.0, "1", 1]}), "wet").to_numpy()
    np.testing.assert_allclose(posterior, np.repeat(posterior[:1], 3, axis=0))
    q = VariableElimination(fitted)
    for value in (1, 1.0, "1", "1.0"):
        np.testing.assert_allclose(q.query(["wet"], evidence={"rain": value}).values,
                                   posterior[0])  # fmt: skip


@pytest.mark.parametrize(
    ("values", "error", "match"),
    [
        ([True, "True", 1] * 4, ValueError, "mixes booleans"),
        ([True, 0, False] * 4, ValueError, "mixes booleans"),
        ([1, "1", 2] * 4, ValueError, r"holds 1 and '1', two values that name one state '1'"),
        ([True, "True", False] * 4, ValueError, r"holds True and 'True'"),
        ([2.0, "2", "a"] * 4, ValueError, r"holds 2.0 and '2'"),
    ],
)
def test_a_column_whose_values_would_merge_into_one_state_is_refused(values, error, match):
    data = pd.DataFrame({"a": pd.Series(values, dtype=object), "b": [0, 1, 1] * 4})
    dag = DAG(edges=[("a", "b")])
    for call in (
        lambda: fit_parameters(dag, data),
        lambda: fit_em(dag, data),
        lambda: BayesianNetwork.learn(data),
        lambda: fit_parameters(dag, [data.iloc[:6], data.iloc[6:]]),
    ):
        with pytest.raises(error, match=match):
            call()


@pytest.mark.parametrize(
    ("values", "states"),
    [
        ([True, "True", False], ("False", "True")),
        ([1, "1", 2.0], ("1", "2")),
        (["TRUE", True, "false"], ("False", "True")),
    ],
)
def test_values_that_name_one_given_state_are_found_without_ambiguity(values, states):
    # the states given: each value finds its state, by name or by canonical key
    data = pd.DataFrame({"a": pd.Series(values * 4, dtype=object)})
    fitted = fit_parameters(DAG(nodes=["a"]), data, states={"a": states}, estimator="mle")
    counts = pd.Series([states[match_states([v], states)[0]] for v in values * 4])
    expected = counts.value_counts(normalize=True).reindex(list(states), fill_value=0.0)
    np.testing.assert_allclose(fitted.network.cpt("a"), expected.to_numpy())


def test_a_column_mixing_booleans_and_numbers_is_refused_where_states_are_given():
    net = _weather()
    frame = pd.DataFrame({"rain": pd.Series([True, 1, 0], dtype=object), "wet": [True] * 3})
    with pytest.raises(ValueError, match="column 'rain' mixes booleans"):
        net.log_likelihood(frame)
    with pytest.raises(ValueError, match="column 'rain' mixes booleans"):
        net.predict(frame, "wet")


# ---------------------------------------------------------------------------------- latent
@pytest.mark.parametrize(
    ("spec", "names"),
    [
        (3, ("0", "1", "2")),
        (np.int64(2), ("0", "1")),
        (1, ("0",)),
        (["lo", "hi"], ("lo", "hi")),
        ([0, 1, 2], ("0", "1", "2")),
        (("x",), ("x",)),
    ],
)
def test_latent_takes_a_count_or_a_list_of_names(spec, names):
    assert latent_states("h", spec) == names
    dag = DAG(edges=[("h", "a"), ("h", "b")])
    data = pd.DataFrame({"a": ["0", "1", "1", "0"] * 5, "b": ["1", "1", "0", "0"] * 5})
    result = fit_em(dag, data, latent={"h": spec}, max_iter=2, seed=0)
    assert result.network.states("h") == names


@pytest.mark.parametrize("spec", ["3", 3.0, True, np.float64(2.0), {"a": 1}, None, b"ab"])
def test_latent_refuses_what_is_neither_a_count_nor_a_list_of_names(spec):
    dag = DAG(edges=[("h", "a")])
    data = pd.DataFrame({"a": ["0", "1"] * 5})
    with pytest.raises(TypeError, match="takes a count of states .* or a list of state names"):
        fit_em(dag, data, latent={"h": spec})


@pytest.mark.parametrize(("spec", "match"), [(0, "at least 1 state"), (-2, "at least 1 state"),
                                             ([1, "1"], "both name the state '1'")])  # fmt: skip
def test_latent_refuses_no_states_or_two_names_of_one(spec, match):
    with pytest.raises(ValueError, match=f"latent node 'h'.*{match}"):
        latent_states("h", spec)


# ---------------------------------------------------------------------------------- node_states
@pytest.mark.parametrize(
    ("values", "names"),
    [
        ([2, 10, 1], ("1", "2", "10")),
        (np.array([1.0, 0.0, np.nan]), ("0", "1")),
        ([True, False], ("False", "True")),
        (np.array([2.0, 2, 1], dtype=object), ("1", "2")),  # 2.0 and 2 are one value
        (["b", "a", "10", "9"], ("9", "10", "a", "b")),
        (pd.Series([3, None, 1], dtype="Int64").dropna().unique(), ("1", "3")),
    ],
)
def test_states_from_data_are_named_as_given_states_are(values, names):
    assert node_states("c", values) == names
    assert state_names("c", names) == names


# ---------------------------------------------------------------------------------- classifiers
@pytest.mark.parametrize("model", ["NaiveBayes", "TAN", "NetworkClassifier"])
def test_a_classifier_s_network_names_its_states_by_the_one_rule(model):
    import bayeskit.classifiers as classifiers

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"f": rng.choice([1.0, 2.0, 3.0], 300), "g": rng.choice(["a", "b"], 300)})
    y = np.where(X["f"].to_numpy() > 1.5, 1, 0)
    fitted = getattr(classifiers, model)(categorical_features="all").fit(X, y)
    net = fitted.to_network()
    cls = next(n for n in net.nodes if n not in ("f", "g"))
    assert net.states("f") == ("1", "2", "3")
    assert net.states(cls) == ("0", "1")
    q = VariableElimination(net)
    for value in (2.0, 2, "2", np.float64(2.0)):
        np.testing.assert_allclose(q.query([cls], evidence={"f": value}).values,
                                   q.query([cls], evidence={"f": "2"}).values)  # fmt: skip


# ---------------------------------------------------------------------------------- command line
@pytest.mark.parametrize("given", ["1", "1.0", "+1", "1e0"])
def test_the_command_line_s_evidence_finds_a_numeric_state_by_its_key(tmp_path, given):
    from typer.testing import CliRunner

    from bayeskit.cli import app
    from bayeskit.networks import write_bif

    net = _weather()  # rain's states are "1" and "0"
    path = tmp_path / "weather.bif"
    write_bif(net, path)
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    args = ["network", "query", str(path), "--target", "wet", "--format", "csv"]
    result = runner.invoke(app, [*args, "--evidence", f"rain={given}"])
    assert result.exit_code == 0, result.output
    rows = pd.read_csv(io.StringIO(result.output))
    assert rows["probability"].tolist() == pytest.approx([0.9, 0.1])
