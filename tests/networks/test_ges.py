"""Greedy equivalence search, the default start of the hill climb, and the one entry to every
structure learner."""

import numpy as np
import pandas as pd
import pytest

from bayeskit.graphs import DAG, PDAG, cpdag
from bayeskit.learning import (
    LEARNER_ALIASES,
    STRUCTURE_LEARNERS,
    ges_dag,
    hill_climb,
    learn_ges,
    learn_structure,
    structure_learner,
)
from bayeskit.learning.data_scorers import family_scorer
from bayeskit.learning.ges import equivalence_search
from bayeskit.networks import score
from bayeskit.networks.examples import example_network


def _states(net):
    return {n: net.states(n) for n in net.nodes}


@pytest.mark.parametrize(("name", "rows"), [("asia", 20_000), ("child", 20_000)])
def test_ges_finds_the_true_class_from_enough_rows(name, rows):
    net = example_network(name)
    data = net.sample(rows, seed=0)
    found = learn_ges(data, "bic", states=_states(net))
    assert isinstance(found, PDAG)
    assert found == cpdag(net.dag)


def test_the_class_found_is_completed_and_its_score_is_the_sum_of_the_gains():
    net = example_network("insurance")
    data = net.sample(5000, seed=1)
    states = _states(net)
    scorer, nodes = family_scorer(data, "bic", 1.0, states, None)
    search = equivalence_search(scorer)
    found = search.pdag(nodes)
    assert cpdag(found.to_dag()) == found  # a CPDAG: its own completion
    # the empty graph's score plus every operator's gain: the score of a DAG of the class
    assert search.total == pytest.approx(score(found.to_dag(), data, "bic", states=states),
                                         rel=1e-9)  # fmt: skip
    # a local optimum over classes: no single edge deletion or addition raises the score
    dag = found.to_dag()
    base = score(dag, data, "bic", states=states)
    for u, v in list(dag.edges)[:10]:
        fewer = DAG(dag.nodes, [e for e in dag.edges if e != (u, v)])
        assert score(fewer, data, "bic", states=states) <= base + 1e-6 * abs(base)


def test_ges_on_linear_gaussian_data_finds_the_collider():
    rng = np.random.default_rng(3)
    n = 5000
    a, b = rng.normal(size=n), rng.normal(size=n)
    c = 0.8 * a - 0.6 * b + rng.normal(size=n)
    d = 0.9 * c + rng.normal(size=n)
    found = learn_ges(pd.DataFrame({"a": a, "b": b, "c": c, "d": d}))
    assert found == PDAG("abcd", directed=[("a", "c"), ("b", "c"), ("c", "d")])


def test_max_parents_bounds_the_operators():
    net = example_network("alarm")
    data = net.sample(3000, seed=0)
    found = learn_ges(data, max_parents=1, states=_states(net))
    assert max(len(found.to_dag().parents(v)) for v in found.nodes) <= 2
    unbounded = learn_ges(data, states=_states(net))
    assert len(found.skeleton()) < len(unbounded.skeleton())


def test_ges_refuses_mixed_data_and_bad_options():
    rng = np.random.default_rng(0)
    mixed = pd.DataFrame({"a": rng.integers(0, 2, 100).astype(str), "b": rng.normal(size=100)})
    with pytest.raises(ValueError, match="all discrete or all continuous"):
        learn_ges(mixed)
    with pytest.raises(ValueError, match="max_iter must be an integer >= 1"):
        learn_ges(mixed, max_iter=0)
    with pytest.raises(ValueError, match="score must be one of"):
        learn_ges(mixed, "nope")
    with pytest.raises(ValueError, match="start='ges' takes data whose columns"):
        hill_climb(mixed, start="ges")


def test_the_default_climb_reaches_the_true_dags_score_where_the_tree_start_does_not():
    # insurance, 20,000 rows: the climb from the Chow-Liu tree ends 554 below the true DAG's
    # BIC (SHD 31); the default starts (GES's class for BIC and for AIC, the climb on AIC)
    # end above it
    net = example_network("insurance")
    states = _states(net)
    data = net.sample(20_000, seed=0)
    truth = score(net.dag, data, "bic", states=states)
    from_tree = score(hill_climb(data, states=states, start="tree"), data, "bic", states=states)
    default = score(hill_climb(data, states=states), data, "bic", states=states)
    assert from_tree < truth - 100
    assert default >= truth
    # start="ges": GES's class then the climb, at least GES's own score
    ges = score(ges_dag(data, states=states), data, "bic", states=states)
    assert score(hill_climb(data, states=states, start="ges"), data, "bic", states=states) >= ges


def test_the_default_start_obeys_the_lists_and_max_parents():
    net = example_network("child")
    data = net.sample(5000, seed=0)
    black = [("Disease", "LungParench")]
    white = [("BirthAsphyxia", "Age")]
    dag = hill_climb(data, states=_states(net), black_list=black, white_list=white,
                     max_parents=2)  # fmt: skip
    assert ("Disease", "LungParench") not in dag.edges
    assert ("BirthAsphyxia", "Age") in dag.edges
    assert max(len(dag.parents(v)) for v in dag.nodes) <= 2


# ------------------------------------------------------------------ one entry for all


@pytest.fixture(scope="module")
def asia_rows():
    return example_network("asia").sample(3000, seed=4)


@pytest.mark.parametrize("name", sorted(STRUCTURE_LEARNERS))
def test_learn_structure_runs_every_learner_by_name(name, asia_rows):
    learner = STRUCTURE_LEARNERS[name]
    assert learn_structure(asia_rows, "bic", algorithm=name) == learner.learn(asia_rows, "bic")


def test_options_reach_each_learner(asia_rows):
    states = {c: sorted(asia_rows[c].unique()) for c in asia_rows.columns}
    options = {"states": states, "max_parents": 1}
    assert "max_parents" in STRUCTURE_LEARNERS["ges"].options
    assert learn_structure(asia_rows, algorithm="ges", **options) == ges_dag(asia_rows, **options)
    found = learn_structure(asia_rows, algorithm="hc", **options)
    assert max(len(found.parents(v)) for v in found.nodes) <= 1


def test_aliases_and_refusals(asia_rows):
    for alias, name in LEARNER_ALIASES.items():
        assert structure_learner(alias) is STRUCTURE_LEARNERS[name]
    assert learn_structure(asia_rows, algorithm="tabu", start="empty") == hill_climb(
        asia_rows, start="empty"
    )
    with pytest.raises(ValueError, match="structure learner must be one of .*'ges'.*'hc'"):
        learn_structure(asia_rows, algorithm="greedy")
    with pytest.raises(TypeError, match="structure learner 'ges' takes no option 'tabu_length'"):
        learn_structure(asia_rows, algorithm="ges", tabu_length=3)
    with pytest.raises(TypeError, match="hill_climb takes no option 'significance_level'"):
        learn_structure(asia_rows, significance_level=0.05)
