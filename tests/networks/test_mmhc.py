"""Max-min hill climbing: MMPC's skeleton and the climb restricted to it; the tests of
independence counted as extended families."""

import numpy as np
import pandas as pd
import pytest

from bayeskit.learning import STRUCTURE_LEARNERS, learn_mmhc, learn_structure, mmpc_skeleton
from bayeskit.learning import independence_tests as it
from bayeskit.learning.independence_tests import CountTests, OracleTests
from bayeskit.learning.parameters import encode_data
from bayeskit.networks import BayesianNetwork, score
from bayeskit.networks.examples import example_network


@pytest.mark.parametrize("name", ["asia", "sachs", "child", "alarm"])
def test_mmpc_with_an_oracle_finds_the_true_skeleton(name):
    dag = example_network(name).dag
    found = mmpc_skeleton(dag.nodes, OracleTests(dag, dag.nodes), max_cond_size=3)
    assert found == {frozenset(e) for e in dag.edges}


@pytest.fixture(scope="module")
def alarm_rows():
    net = example_network("alarm")
    return net, net.sample(4000, seed=2)


def test_mmhc_climbs_within_the_skeleton(alarm_rows):
    net, df = alarm_rows
    dag = learn_mmhc(df, "bic", max_cond_size=3)
    tests = CountTests(encode_data(tuple(df.columns), df, None, None), adjusted_df=True,
                       min_rows_per_cell=5.0)  # fmt: skip
    skeleton = mmpc_skeleton(tuple(df.columns), tests, 0.05, 3)
    assert {frozenset(e) for e in dag.edges} <= skeleton
    true = {frozenset(e) for e in net.dag.edges}
    assert len(skeleton - true) <= 3
    assert len(true - skeleton) <= 5
    # the climb within the skeleton: the same as the climb given that black list
    outside = [(u, v) for u in df.columns for v in df.columns
               if u != v and frozenset((u, v)) not in skeleton]  # fmt: skip
    assert dag == learn_structure(df, "bic", black_list=outside)
    assert score(dag, df, "bic") >= score(learn_structure(df, "bic"), df, "bic") - 1e3


def test_mmhc_lists_and_options(alarm_rows):
    _, df = alarm_rows
    part = df.iloc[:, :8]
    required = ("HISTORY", "CVP")
    dag = learn_mmhc(part, white_list=[required], max_cond_size=2)
    assert required in dag.edges
    with pytest.raises(TypeError, match="root"):
        learn_mmhc(part, root="CVP")
    with pytest.raises(TypeError, match="structure learner 'mmhc' takes no option 'root'"):
        STRUCTURE_LEARNERS["mmhc"].check_options("bic", {"root": "CVP"})
    with pytest.raises(ValueError, match="significance_level"):
        learn_mmhc(part, significance_level=1.5)
    with pytest.raises(ValueError, match="tabu_length"):
        learn_mmhc(part, tabu_length=-1)
    learner = STRUCTURE_LEARNERS["mmhc"]
    assert "max_parents" in learner.options
    assert "significance_level" in learner.options
    net = BayesianNetwork.learn(part, "mmhc", max_parents=2)
    assert max(len(net.dag.parents(v)) for v in net.nodes) <= 2


def test_tests_sharing_y_and_s_are_counted_as_extended_families(monkeypatch):
    rng = np.random.default_rng(4)
    df = pd.DataFrame(rng.integers(0, 3, size=(3000, 9)), columns=list("abcdefghi"))
    df["b"] = (df["a"] + rng.integers(0, 2, 3000)) % 3
    data = encode_data(tuple(df.columns), df, None, None)
    batch = [(x, 1, s) for s in [(), (2,), (2, 3)] for x in range(4, 9)] + [(0, 1, (5,))]
    grouped = CountTests(data, "x2").p_values(batch)
    monkeypatch.setattr(it, "GROUP", 10**9)  # every test from its own family's table
    alone = CountTests(data, "x2").p_values(batch)
    assert np.allclose(grouped, alone, rtol=1e-12, atol=1e-15)
    weighted = CountTests(encode_data(tuple(df.columns), df, None, np.full(3000, 2.0)), "x2")
    assert not np.allclose(weighted.p_values(batch), alone)  # twice the rows: more power
