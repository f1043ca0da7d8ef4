"""Equivalence classes (PDAG, CPDAG, Meek's rules) and PC-stable structure learning."""

import numpy as np
import pandas as pd
import pytest

from bayeskit.graphs import DAG, PDAG, cpdag, equivalent, structural_hamming_distance
from bayeskit.learning import STRUCTURE_LEARNERS
from bayeskit.learning.constraint import learn_pc, pc_stable
from bayeskit.learning.independence_tests import CountTests, OracleTests
from bayeskit.learning.parameters import encode_data
from bayeskit.networks import BayesianNetwork
from bayeskit.networks.examples import example_network

NETWORKS = ["asia", "sachs", "child", "insurance", "alarm"]


@pytest.mark.parametrize("name", NETWORKS)
def test_cpdag_extension_and_equivalence_on_the_bundled_networks(name):
    dag = example_network(name).dag
    klass = cpdag(dag)
    back = klass.to_dag()
    assert equivalent(back, dag)
    assert cpdag(back) == klass
    # every directed edge of the class is directed so in the DAG
    assert set(klass.directed) <= set(dag.edges)
    assert klass.skeleton() == {frozenset(e) for e in dag.edges}


@pytest.mark.parametrize("name", NETWORKS)
def test_pc_with_an_oracle_returns_the_true_cpdag(name):
    dag = example_network(name).dag
    rules = ["standard"] if name == "insurance" else ["standard", "conservative", "majority"]
    for rule in rules:
        found = pc_stable(dag.nodes, OracleTests(dag, dag.nodes), v_structures=rule)
        assert found == cpdag(dag)
        assert structural_hamming_distance(found, cpdag(dag)) == 0
    backwards = tuple(reversed(dag.nodes))
    assert pc_stable(backwards, OracleTests(dag, backwards)) == cpdag(dag)


def test_equivalence_and_v_structures():
    chain, fork = [("a", "b"), ("b", "c")], [("b", "a"), ("b", "c")]
    collider = [("a", "b"), ("c", "b")]
    assert equivalent(chain, fork)
    assert not equivalent(chain, collider)
    assert not equivalent(chain, [("a", "b")])
    shielded = [("a", "b"), ("c", "b"), ("a", "c")]  # no v-structure: equivalent to a chain
    assert equivalent(shielded, [("a", "c"), ("c", "b"), ("a", "b")])
    assert cpdag(collider).directed == (("a", "b"), ("c", "b"))
    assert cpdag(chain).undirected == (("a", "b"), ("b", "c"))


def test_meek_rules_complete_the_orientation():
    # R1: a -> b - c, a and c not adjacent
    assert cpdag(DAG("abcd", [("a", "b"), ("d", "b"), ("b", "c")])).directed == (
        ("a", "b"), ("b", "c"), ("d", "b"))  # fmt: skip
    # R2: a -> c -> b with a - b: the class keeps a -> b
    dag = DAG("abcd", [("a", "c"), ("d", "c"), ("c", "b"), ("a", "b")])
    assert ("a", "b") in cpdag(dag).directed


def test_pdag_distance_and_refusals():
    g = PDAG("abc", [("a", "b")], [("b", "c")])
    h = PDAG("abc", [("b", "a")], [("b", "c")])
    assert structural_hamming_distance(g, h) == 1
    assert structural_hamming_distance(g, PDAG("abc", [], [("a", "b"), ("b", "c")])) == 1
    assert structural_hamming_distance(g, PDAG("abc")) == 2
    assert g == PDAG("cba", [("a", "b")], [("c", "b")])  # node order and line ends do not count
    with pytest.raises(ValueError, match="not a node"):
        PDAG("ab", [("a", "z")])
    with pytest.raises(ValueError, match="joined twice"):
        PDAG("ab", [("a", "b")], [("b", "a")])
    with pytest.raises(ValueError, match="cycle"):
        PDAG("abc", [("a", "b"), ("b", "c"), ("c", "a")])
    # a 4-cycle of undirected edges has no extension without a new v-structure
    with pytest.raises(ValueError, match="no consistent extension"):
        PDAG("abcd", [], [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]).to_dag()
    square = PDAG("abcd", [("a", "b")], [("b", "c"), ("c", "d"), ("d", "a")])
    relaxed = square.to_dag(strict=False)  # keeps a -> b, adds a v-structure, no cycle
    assert ("a", "b") in relaxed.edges
    assert {frozenset(e) for e in relaxed.edges} == square.skeleton()


@pytest.fixture(scope="module")
def alarm_rows():
    net = example_network("alarm")
    return net, net.sample(3000, seed=1)


def test_pc_on_data_does_not_depend_on_the_column_order(alarm_rows):
    net, df = alarm_rows
    first = learn_pc(df, max_cond_size=3)
    perm = np.random.default_rng(0).permutation(df.shape[1])
    again = learn_pc(df.iloc[:, perm], max_cond_size=3)
    assert again == first
    assert first.skeleton() <= {frozenset(e) for e in net.dag.edges}  # no false edge here
    assert len(first.skeleton()) >= 38


def test_pc_reads_chunks_and_weights_as_the_rows_they_stand_for(alarm_rows):
    _, df = alarm_rows
    part = df.iloc[:800, :12]
    whole = learn_pc(part, max_cond_size=2)
    assert learn_pc([part.iloc[:300], part.iloc[300:]], max_cond_size=2) == whole
    twice = pd.concat([part.iloc[:400], part.iloc[:400], part.iloc[400:]], ignore_index=True)
    weights = np.r_[np.full(400, 2.0), np.ones(400)]
    assert learn_pc(part, sample_weight=weights, max_cond_size=2) == learn_pc(
        twice, max_cond_size=2)  # fmt: skip


def test_count_tests_are_the_tests_of_the_tables():
    rng = np.random.default_rng(5)
    df = pd.DataFrame(rng.integers(0, 3, size=(500, 4)), columns=list("wxyz")).astype(str)
    data = encode_data(tuple(df.columns), df, None, None)
    tests = CountTests(data, "x2", adjusted_df=False)
    table = pd.crosstab([df["z"], df["w"]], df["x"]).to_numpy().reshape(3, 3, 3)
    from bayeskit.stats.independence import discrete_test

    expected = discrete_test(table, "x2")[2]
    assert tests.p_values([(1, 0, (3,))])[0] == pytest.approx(float(expected), rel=1e-12)
    assert tests.p_values([(0, 1, (3,))])[0] == tests.p_values([(1, 0, (3,))])[0]
    assert tests.n_tests == 1  # cached


def test_gaussian_data_uses_fisher_z():
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=3000), rng.normal(size=3000)
    c = a - b + 0.5 * rng.normal(size=3000)
    d = 2 * c + rng.normal(size=3000)
    found = learn_pc(pd.DataFrame({"a": a, "b": b, "c": c, "d": d}))
    assert found == cpdag(DAG("abcd", [("a", "c"), ("b", "c"), ("c", "d")]))
    with pytest.raises(ValueError, match="constant"):
        learn_pc(pd.DataFrame({"a": a, "k": np.ones(3000) * 1.5}))
    with pytest.raises(ValueError, match="complete"):
        learn_pc(pd.DataFrame({"a": a, "b": np.r_[np.nan, b[1:]]}), test="fisher-z")


def test_background_knowledge_and_rules():
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2, 4000)
    b = a ^ (rng.random(4000) < 0.2)
    c = b ^ (rng.random(4000) < 0.2)
    df = pd.DataFrame({"a": a, "b": b, "c": c})
    assert learn_pc(df).undirected == (("a", "b"), ("b", "c"))  # a chain: nothing directed
    assert learn_pc(df, white_list=[("a", "b")]).directed == (("a", "b"), ("b", "c"))  # + R1
    assert learn_pc(df, black_list=[("b", "a")]).directed == (("a", "b"), ("b", "c"))
    cut = learn_pc(df, black_list=[("a", "b"), ("b", "a")])
    assert frozenset("ab") not in cut.skeleton()
    assert learn_pc(df, max_cond_size=0).skeleton() == {frozenset(p) for p in ("ab", "bc", "ac")}
    assert learn_pc(df).sepsets == {frozenset("ac"): ("b",)}
    for rule in ("conservative", "majority"):
        assert learn_pc(df, v_structures=rule) == learn_pc(df)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"significance_level": 2.0}, ValueError, "significance_level must be at most 1"),
        ({"significance_level": -0.1}, ValueError, "significance_level"),
        ({"test": "t"}, ValueError, "test must be"),
        ({"v_structures": "all"}, ValueError, "v_structures must be one of"),
        ({"max_cond_size": -1}, ValueError, "max_cond_size"),
        ({"white_list": [("a", "q")]}, ValueError, "'q', which is not a variable"),
        ({"white_list": [("a", "b")], "black_list": [("a", "b")]}, ValueError, "both"),
    ],
)
def test_bad_options_are_refused(kwargs, error, match):
    df = pd.DataFrame({"a": [0, 1] * 20, "b": [0, 0, 1, 1] * 10})
    with pytest.raises(error, match=match):
        learn_pc(df, **kwargs)


def test_pc_is_a_registered_learner_for_networks(alarm_rows):
    _, df = alarm_rows
    learner = STRUCTURE_LEARNERS["pc"]
    learner.check_options("bic", {"significance_level": 0.01})
    with pytest.raises(TypeError, match="structure learner 'pc' takes no option 'tabu_length'"):
        learner.check_options("bic", {"tabu_length": 3})
    net = BayesianNetwork.learn(df.iloc[:, :10], "pc")
    klass = learn_pc(df.iloc[:, :10])
    assert set(net.dag.nodes) == set(df.columns[:10])
    assert set(klass.directed) <= set(net.dag.edges)
    assert {frozenset(e) for e in net.dag.edges} == klass.skeleton()
