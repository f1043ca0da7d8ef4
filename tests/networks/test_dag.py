"""DAGs, moral graphs and d-separation (bayeskit.networks, issue 13)."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from bayeskit.networks import DAG, bayes_ball

# Zhou, section 7.5.1, Eq. (7.27): P(x1) P(x2) P(x3 | x1) P(x4 | x1, x2) P(x5 | x2), with
# x1..x5 = ripe, sweetness, sound, color, root (Fig. 7.2)
FIG_7_2 = [("x1", "x3"), ("x1", "x4"), ("x2", "x4"), ("x2", "x5")]

# Han and Kamber, section 4 (Fig. 9.1(a)): the lung-cancer network
LUNG = [
    ("FamilyHistory", "LungCancer"),
    ("Smoker", "LungCancer"),
    ("Smoker", "Emphysema"),
    ("LungCancer", "PositiveXRay"),
    ("LungCancer", "Dyspnea"),
    ("Emphysema", "Dyspnea"),
]


@pytest.mark.parametrize(
    ("x", "y", "given", "expected"),
    [
        # the five statements printed under Fig. 7.4 (case zhou-7.5.1-dseparation-fig7.2)
        ("x3", "x4", ["x1"], True),
        ("x4", "x5", ["x2"], True),
        ("x3", "x2", ["x1"], True),
        ("x3", "x5", ["x1"], True),
        ("x3", "x5", ["x2"], True),
        # Fig. 7.3 applied to this DAG: the V-structure x1 -> x4 <- x2 (independent parents,
        # dependent once the child is given: holds only with the ancestral pruning) and the
        # common parent x1 of x3 and x4
        ("x1", "x2", [], True),
        ("x1", "x2", ["x4"], False),
        ("x3", "x4", [], False),
    ],
)
def test_zhou_fig_7_2_independences(x, y, given, expected):
    dag = DAG(edges=FIG_7_2)
    assert dag.d_separated(x, y, given) is expected
    assert dag.d_separated(y, x, given) is expected
    assert bayes_ball(dag, x, y, given) is expected


def test_zhou_fig_7_4_moral_graph():
    # moralisation marries x1 and x2, the parents of x4
    dag = DAG(edges=FIG_7_2)
    expected = {("x1", "x2"), ("x1", "x3"), ("x1", "x4"), ("x2", "x4"), ("x2", "x5")}
    assert {tuple(sorted(e)) for e in dag.moral_edges()} == expected
    adj = dag.moral_graph()
    assert adj["x4"] == {"x1", "x2"}
    assert adj["x1"] == {"x2", "x3", "x4"}


@pytest.mark.parametrize(
    ("x", "y", "given", "expected"),
    [
        # case han-4-lung-cancer-independences: the two statements of the text, two contrasts
        ("PositiveXRay", ["FamilyHistory", "Smoker"], ["LungCancer"], True),
        ("LungCancer", "Emphysema", ["FamilyHistory", "Smoker"], True),
        ("PositiveXRay", "Smoker", [], False),
        ("LungCancer", "Emphysema", ["FamilyHistory", "Smoker", "Dyspnea"], False),
    ],
)
def test_han_lung_cancer_independences(x, y, given, expected):
    dag = DAG(edges=LUNG)
    assert dag.d_separated(x, y, given) is expected
    assert bayes_ball(dag, x, y, given) is expected


def test_moralisation_prunes_to_the_ancestral_set_first():
    # in the moral graph of the whole DAG x1 and x2 are married through x4; pruning to the
    # ancestors of {x1, x2} removes x4 and the marriage (the seed's margin note)
    dag = DAG(edges=FIG_7_2)
    whole = dag.moral_graph()
    assert "x2" in whole["x1"]
    assert dag.moral_graph(["x1", "x2"]) == {"x1": set(), "x2": set()}
    # an observed descendant of the collider opens it too
    deeper = DAG(edges=[*FIG_7_2, ("x4", "x6")])
    assert deeper.d_separated("x1", "x2") is True
    assert deeper.d_separated("x1", "x2", ["x6"]) is False


def test_d_separation_agrees_with_bayes_ball_on_random_dags():
    rng = random.Random(0)
    checked = 0
    for _ in range(60):
        n = rng.randint(2, 8)
        edges = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.35]
        order = list(range(n))
        rng.shuffle(order)
        dag = DAG(nodes=order, edges=edges)
        for x, y in itertools.combinations(range(n), 2):
            rest = [v for v in range(n) if v not in (x, y)]
            for size in range(len(rest) + 1):
                for z in itertools.combinations(rest, size):
                    assert dag.d_separated(x, y, z) == bayes_ball(dag, x, y, z), (edges, x, y, z)
                    checked += 1
    assert checked > 10_000


def test_family_relations():
    dag = DAG(edges=LUNG)
    assert dag.parents("LungCancer") == ("FamilyHistory", "Smoker")
    assert dag.children("Smoker") == ("LungCancer", "Emphysema")
    assert dag.roots() == ["FamilyHistory", "Smoker"]
    assert dag.leaves() == ["PositiveXRay", "Dyspnea"]
    assert dag.ancestors("Dyspnea") == {"FamilyHistory", "Smoker", "LungCancer", "Emphysema"}
    assert dag.descendants("Smoker") == {"LungCancer", "Emphysema", "PositiveXRay", "Dyspnea"}
    assert dag.descendants(["PositiveXRay"]) == set()
    # parents, children and the children's other parents
    # in node order (first appearance in the edges)
    assert dag.nodes[:4] == ("FamilyHistory", "LungCancer", "Smoker", "Emphysema")
    assert dag.markov_blanket("LungCancer") == [
        "FamilyHistory",
        "Smoker",
        "Emphysema",
        "PositiveXRay",
        "Dyspnea",
    ]
    assert dag.markov_blanket("FamilyHistory") == ["LungCancer", "Smoker"]


def test_markov_blanket_separates_the_node_from_the_rest():
    dag = DAG(edges=LUNG)
    for node in dag:
        blanket = dag.markov_blanket(node)
        rest = [n for n in dag if n != node and n not in blanket]
        if rest:
            assert dag.d_separated(node, rest, blanket)


def test_topological_order_is_unique_and_respects_the_edges():
    dag = DAG(nodes=["e", "d", "c", "b", "a"], edges=[("a", "b"), ("c", "b"), ("e", "a")])
    order = dag.topological_order()
    assert order == ["e", "d", "c", "a", "b"]  # among ready nodes, the first in node order
    pos = {n: i for i, n in enumerate(order)}
    assert all(pos[u] < pos[v] for u, v in dag.edges)


def test_local_independences_hold():
    dag = DAG(edges=LUNG)
    local = dag.local_independences()
    assert (
        "PositiveXRay",
        ["FamilyHistory", "Smoker", "Emphysema", "Dyspnea"],
        ["LungCancer"],
    ) in local
    for node, others, parents in local:
        assert dag.d_separated(node, others, parents)


def test_all_independences_of_a_chain_and_a_collider():
    assert DAG(edges=[("a", "b"), ("b", "c")]).independences() == [("a", "c", ("b",))]
    assert DAG(edges=[("a", "c"), ("b", "c")]).independences() == [("a", "b", ())]
    listed = DAG(edges=FIG_7_2).independences(max_given=1)
    for stmt in [("x3", "x4", ("x1",)), ("x4", "x5", ("x2",)), ("x1", "x2", ())]:
        assert stmt in listed
    assert ("x1", "x2", ("x4",)) not in listed
    with pytest.raises(ValueError, match="max_given"):
        DAG(edges=FIG_7_2).independences(max_given=-1)


def test_networkx_round_trip():
    dag = DAG(nodes=["z", "a"], edges=LUNG)
    g = dag.to_networkx()
    assert isinstance(g, nx.DiGraph)
    assert list(g.nodes) == list(dag.nodes)
    back = DAG.from_networkx(g)
    assert back == dag
    assert back.nodes == dag.nodes
    with pytest.raises(TypeError, match="directed"):
        DAG.from_networkx(nx.Graph([("a", "b")]))
    with pytest.raises(ValueError, match="cycle"):
        DAG.from_networkx(nx.DiGraph([("a", "b"), ("b", "a")]))


def test_bad_graphs_are_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"cycle: 'b' -> 'c' -> 'd' -> 'b'"):
        DAG(edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")])
    with pytest.raises(ValueError, match="self-loop"):
        DAG(edges=[("a", "a")])
    with pytest.raises(ValueError, match="listed twice"):
        DAG(edges=[("a", "b"), ("a", "b")])
    with pytest.raises(ValueError, match="node 'a' is listed twice"):
        DAG(nodes=["a", "a"])
    with pytest.raises(ValueError, match="pair"):
        DAG(edges=[("a", "b", "c")])
    with pytest.raises(ValueError, match="must not be None"):
        DAG(nodes=[None])
    with pytest.raises(TypeError, match="hashable"):
        DAG(nodes=[["a"]])
    dag = DAG(edges=FIG_7_2)
    with pytest.raises(KeyError, match="unknown node 'x9'"):
        dag.parents("x9")
    with pytest.raises(KeyError, match="unknown node 'x9'"):
        dag.d_separated("x1", "x9")
    with pytest.raises(ValueError, match="must not share nodes"):
        dag.d_separated("x1", "x2", ["x1"])


def test_structural_hamming_distance():
    from bayeskit.networks import structural_hamming_distance as shd

    true = DAG(edges=FIG_7_2)
    assert shd(true, true) == 0
    reversed_one = DAG(edges=[("x3", "x1"), *FIG_7_2[1:]])
    assert shd(reversed_one, true) == 1
    missing_and_extra = DAG(nodes=true.nodes, edges=[*FIG_7_2[1:], ("x3", "x5")])
    assert shd(missing_and_extra, true) == 2
    assert shd(DAG(nodes=true.nodes), true) == 4
    with pytest.raises(ValueError, match="same nodes"):
        shd(DAG(nodes=["a"]), true)
