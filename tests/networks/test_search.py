"""Greedy hill-climbing structure learning (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bayeskit.networks import DAG, learn_structure, read_bif, score

ASIA = read_bif(Path(__file__).parent / "data" / "asia.bif.gz")
STATES = {n: ASIA.states(n) for n in ASIA.nodes}


@pytest.fixture(scope="module")
def data():
    return ASIA.sample(10_000, seed=4)


def _skeleton(dag):
    return {frozenset(e) for e in dag.edges}


def test_learns_a_structure_as_good_as_the_true_one(data):
    dag = learn_structure(data, "bic", states=STATES)
    assert dag.nodes == tuple(data.columns)
    true = score(ASIA.dag, data, "bic", states=STATES)
    assert score(dag, data, "bic", states=STATES) >= true - 0.005 * abs(true)
    # the strong dependencies are found (asia -> tub is too weak for 10,000 rows)
    for edge in [("smoke", "lung"), ("smoke", "bronc"), ("either", "xray"), ("bronc", "dysp")]:
        assert frozenset(edge) in _skeleton(dag)


def test_deterministic_and_every_score_runs(data):
    first = learn_structure(data, "bdeu", ess=5.0, states=STATES, tabu_length=5)
    assert learn_structure(data, "bdeu", ess=5.0, states=STATES, tabu_length=5) == first
    for kind in ("aic", "k2", "ll"):
        learned = learn_structure(data.iloc[:2000], kind, states=STATES, max_parents=2)
        assert all(len(learned.parents(n)) <= 2 for n in learned)


def test_a_climb_never_lowers_the_start_score(data):
    start = DAG(nodes=list(data.columns), edges=[("xray", "asia"), ("dysp", "smoke")])
    learned = learn_structure(data, "bic", start=start, states=STATES)
    assert score(learned, data, "bic", states=STATES) >= score(start, data, "bic", states=STATES)
    from_true = learn_structure(data, "bic", start=ASIA.dag, states=STATES)
    assert score(from_true, data, "bic", states=STATES) >= score(
        ASIA.dag, data, "bic", states=STATES
    )


def test_black_and_white_lists_and_max_parents(data):
    black = [("smoke", "lung"), ("lung", "smoke")]
    white = [("asia", "xray")]
    dag = learn_structure(data, "bic", states=STATES, black_list=black, white_list=white,
                          max_parents=1)  # fmt: skip
    assert not {("smoke", "lung"), ("lung", "smoke")} & set(dag.edges)
    assert ("asia", "xray") in dag.edges
    assert all(len(dag.parents(n)) <= 1 for n in dag)


def test_restarts_keep_the_best(data):
    plain = learn_structure(data, "bic", states=STATES)
    restarted = learn_structure(data, "bic", states=STATES, restarts=3, perturb=4, seed=1)
    assert score(restarted, data, "bic", states=STATES) >= score(plain, data, "bic", states=STATES)


def test_bad_arguments_are_named(data):
    with pytest.raises(ValueError, match="score must be one of"):
        learn_structure(data, "mdl")
    with pytest.raises(ValueError, match="max_parents must be"):
        learn_structure(data, max_parents=-1)
    with pytest.raises(ValueError, match="tabu_length must be"):
        learn_structure(data, tabu_length=1.5)
    with pytest.raises(ValueError, match="black_list edge .* names a node"):
        learn_structure(data, black_list=[("asia", "nowhere")])
    with pytest.raises(ValueError, match="both black- and white-listed"):
        learn_structure(data, black_list=[("asia", "tub")], white_list=[("asia", "tub")])
    with pytest.raises(ValueError, match="has a cycle"):
        learn_structure(data, start=ASIA.dag, white_list=[("dysp", "smoke")])
    with pytest.raises(ValueError, match="start must be a DAG over exactly"):
        learn_structure(data, start=DAG(nodes=["asia"]))
    with pytest.raises(ValueError, match="column 'tub' has a missing value"):
        learn_structure(data.assign(tub=None), states=STATES)
    with pytest.raises(ValueError, match="sample_weight must have shape"):
        learn_structure(data, sample_weight=[1.0])
    assert isinstance(data, pd.DataFrame)


def test_chow_liu_tree_is_the_maximum_mutual_information_tree(data):
    import itertools

    import networkx as nx
    import numpy as np

    from bayeskit.networks import learn_tree

    tree = learn_tree(data, "ll", states=STATES, root="smoke")
    assert len(tree.edges) == len(tree.nodes) - 1
    assert tree.roots() == ["smoke"]
    # reference: Kruskal on the empirical mutual information computed here from crosstabs
    g = nx.Graph()
    for a, b in itertools.combinations(data.columns, 2):
        joint = pd.crosstab(data[a], data[b]).to_numpy() / len(data)
        pa, pb = joint.sum(1, keepdims=True), joint.sum(0, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            mi = np.nansum(joint * np.log(joint / (pa * pb)))
        g.add_edge(a, b, weight=mi)
    ref = nx.maximum_spanning_tree(g)
    assert _skeleton(tree) == {frozenset(e) for e in ref.edges}
    # a penalised score leaves independent columns unattached (a forest)
    noise = data.assign(coin=np.random.default_rng(0).choice(["h", "t"], len(data)))
    forest = learn_tree(noise, "bic", states={**STATES, "coin": ["h", "t"]})
    assert forest.parents("coin") == ()
    assert forest.children("coin") == ()
    with pytest.raises(ValueError, match="root 'x' is no column"):
        learn_tree(data, root="x")


def test_network_fit_learns_both_steps(data):
    from bayeskit.networks import BayesianNetwork

    net = BayesianNetwork.fit(data, "hill-climb", score="bic", estimator="mle", states=STATES)
    assert net.dag == learn_structure(data, "bic", states=STATES)
    given = BayesianNetwork.fit(data, ASIA.dag, estimator="lidstone", alpha=1.0, states=STATES)
    assert given.dag == ASIA.dag
    tree = BayesianNetwork.fit(data, "tree", score="ll", root="smoke", states=STATES)
    assert len(tree.dag.edges) == len(tree.nodes) - 1
    with pytest.raises(ValueError, match="structure must be a DAG"):
        BayesianNetwork.fit(data, "k2-search")
