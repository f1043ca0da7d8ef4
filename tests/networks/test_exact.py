"""Exact structure learning: dynamic programming over subsets, against brute force."""

import itertools

import numpy as np
import pandas as pd
import pytest

from bayeskit.graphs import DAG
from bayeskit.learning import STRUCTURE_LEARNERS, learn_exact, learn_structure
from bayeskit.learning.exact import exact_memory
from bayeskit.learning.search import family_scorer
from bayeskit.networks import example_network, score


def _all_dags(n):
    """Every DAG over n nodes, as parent sets (each pair: none, one way, the other)."""
    pairs = list(itertools.combinations(range(n), 2))
    for marks in itertools.product(range(3), repeat=len(pairs)):
        parents = [set() for _ in range(n)]
        for (u, v), m in zip(pairs, marks, strict=True):
            if m == 1:
                parents[v].add(u)
            elif m == 2:
                parents[u].add(v)
        try:
            DAG(range(n), [(u, v) for v in range(n) for u in parents[v]])
        except ValueError:
            continue
        yield parents


def _brute_by_orders(scorer, n):
    """The best score over all orders, each node given its best subset of predecessors."""
    local = {(v, s): scorer(v, frozenset(s))
             for v in range(n) for k in range(n) for s in itertools.combinations(
                 [u for u in range(n) if u != v], k)}  # fmt: skip
    best_given = {}
    for v in range(n):
        others = [u for u in range(n) if u != v]
        for k in range(n):
            for pred in itertools.combinations(others, k):
                best_given[(v, pred)] = max(
                    local[(v, s)] for j in range(k + 1) for s in itertools.combinations(pred, j)
                )
    return max(
        sum(best_given[(v, tuple(sorted(order[:i])))] for i, v in enumerate(order))
        for order in itertools.permutations(range(n))
    )


def test_five_nodes_the_best_of_every_dag():
    net = example_network("cancer")  # 5 nodes
    data = net.sample(1500, seed=3)
    scorer, nodes = family_scorer(data, "bic", 1.0, None, None)
    best = max(sum(scorer(v, frozenset(p)) for v, p in enumerate(ps)) for ps in _all_dags(5))
    found = learn_exact(data)
    assert found.score == pytest.approx(best, rel=1e-9)
    assert score(found.dag, data, "bic") == pytest.approx(found.score, rel=1e-9)


@pytest.mark.parametrize("kind", ["bic", "bdeu"])
def test_eight_nodes_the_best_over_every_order(kind):
    net = example_network("asia")  # 8 nodes
    data = net.sample(3000, seed=4)
    scorer, _ = family_scorer(data, kind, 1.0, None, None)
    found = learn_exact(data, kind)
    assert found.score == pytest.approx(_brute_by_orders(scorer, 8), rel=1e-9)
    assert score(found.dag, data, kind) == pytest.approx(found.score, rel=1e-9)


@pytest.mark.parametrize(("name", "rows"), [("asia", 5000), ("sachs", 3000)])
def test_no_climb_and_not_the_true_dag_score_higher(name, rows):
    net = example_network(name)
    data = net.sample(rows, seed=5)
    found = learn_exact(data)
    climbed = learn_structure(data, "bic", restarts=100, seed=1)
    assert found.score >= score(climbed, data, "bic") - 1e-6
    assert found.score >= score(net.dag, data, "bic") - 1e-6
    # the certificate: each node's parents are among its candidates, scored as listed
    for v in found.dag.nodes:
        listed = dict(found.parent_sets[v])
        assert tuple(found.dag.parents(v)) in listed or tuple(
            sorted(found.dag.parents(v), key=list(data.columns).index)) in listed  # fmt: skip
    position = {v: i for i, v in enumerate(found.order)}
    assert all(position[u] < position[v] for u, v in found.dag.edges)


def test_continuous_data_and_lists():
    rng = np.random.default_rng(6)
    a = rng.normal(size=800)
    b = a + rng.normal(size=800)
    c = b - a + 0.5 * rng.normal(size=800)
    d = rng.normal(size=800)
    data = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    scorer, _ = family_scorer(data, "bic", 1.0, None, None)
    found = learn_exact(data)
    assert found.score == pytest.approx(_brute_by_orders(scorer, 4), rel=1e-9)
    banned = learn_exact(data, black_list=[("a", "b"), ("b", "a")])
    assert frozenset("ab") not in {frozenset(e) for e in banned.dag.edges}
    one = learn_exact(data, max_parents=1)
    assert max(len(one.dag.parents(v)) for v in one.dag.nodes) <= 1
    assert STRUCTURE_LEARNERS["exact"].learn(data, "bic") == found.dag


def test_refusals_name_the_memory():
    assert exact_memory(20) < 2**28
    data = pd.DataFrame(np.zeros((5, 31), dtype=int), columns=[f"x{i}" for i in range(31)])
    with pytest.raises(ValueError, match="at most 30"):
        learn_exact(data)
    small = pd.DataFrame({"a": [0, 1] * 5, "b": [0, 0, 1, 1, 0] * 2})
    with pytest.raises(ValueError, match=r"needs 0\.0 GiB .* more than max_bytes=10"):
        learn_exact(small, max_bytes=10)
    with pytest.raises(ValueError, match="score must be one of"):
        learn_exact(small, "mdl")
