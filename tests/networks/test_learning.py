"""Parameter learning for a fixed structure (issue 13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import DAG, fit_parameters, read_bif

ASIA = read_bif(Path(__file__).parent / "data" / "asia.bif.gz")


@pytest.fixture(scope="module")
def asia_data():
    return ASIA.sample(20_000, seed=0)


def test_counts_are_the_families_crosstabs(asia_data):
    fit = fit_parameters(ASIA.dag, asia_data, estimator="mle")
    pos = {n: j for j, n in enumerate(ASIA.nodes)}
    table = fit.counts.table((pos["lung"], pos["tub"], pos["either"]))
    ref = pd.crosstab([asia_data["lung"], asia_data["tub"]], asia_data["either"], dropna=False)
    ref = ref.reindex(
        index=pd.MultiIndex.from_product([("yes", "no"), ("yes", "no")]), columns=["yes", "no"]
    ).fillna(0)
    np.testing.assert_array_equal(table.reshape(4, 2), ref.to_numpy())


def test_mle_recovers_the_network_and_maximises_the_likelihood(asia_data):
    fit = fit_parameters(ASIA.dag, asia_data, estimator="mle")
    for node in ASIA.nodes:
        assert fit.network.states(node) == ASIA.states(node)
        assert fit.network.dag.parents(node) == ASIA.dag.parents(node)
    np.testing.assert_allclose(fit.network.cpt("smoke"), ASIA.cpt("smoke"), atol=0.02)
    np.testing.assert_allclose(fit.network.cpt("bronc"), ASIA.cpt("bronc"), atol=0.02)
    np.testing.assert_allclose(fit.network.cpt("xray"), ASIA.cpt("xray"), atol=0.03)
    assert fit.network.log_likelihood(asia_data) >= ASIA.log_likelihood(asia_data)


def test_the_three_estimators_by_hand():
    dag = DAG(edges=[("a", "b")])
    data = pd.DataFrame({"a": ["x", "x", "x", "y"], "b": ["u", "u", "v", "u"]})
    states = {"a": ["x", "y", "z"], "b": ["u", "v"]}  # a = z is never seen
    mle = fit_parameters(dag, data, estimator="mle", states=states).network.cpt("b")
    np.testing.assert_allclose(mle, [[2 / 3, 1 / 3], [1, 0], [0.5, 0.5]])
    lid = fit_parameters(dag, data, estimator="lidstone", alpha=0.5, states=states).network
    np.testing.assert_allclose(lid.cpt("b"), [[2.5 / 4, 1.5 / 4], [1.5 / 2, 0.5 / 2], [0.5, 0.5]])
    np.testing.assert_allclose(lid.cpt("a"), [3.5 / 5.5, 1.5 / 5.5, 0.5 / 5.5])
    # BDeu, ess 6: b has q = 3 parent configurations and r = 2 states: 1 per cell
    bdeu = fit_parameters(dag, data, estimator="bdeu", alpha=6.0, states=states).network
    np.testing.assert_allclose(bdeu.cpt("b"), [[3 / 5, 2 / 5], [2 / 3, 1 / 3], [0.5, 0.5]])
    np.testing.assert_allclose(bdeu.cpt("a"), [5 / 10, 3 / 10, 2 / 10])  # 6 / 3 per state


def test_partial_fit_equals_one_fit_and_weights_equal_repeated_rows(asia_data):
    one = fit_parameters(ASIA.dag, asia_data, estimator="bdeu", alpha=2.0)
    first = fit_parameters(
        ASIA.dag, asia_data.iloc[:7000], estimator="bdeu", alpha=2.0,
        states={n: ASIA.states(n) for n in ASIA.nodes},
    )  # fmt: skip
    both = first.partial_fit(asia_data.iloc[7000:])
    np.testing.assert_array_equal(both.counts.counts, one.counts.counts)
    for node in ASIA.nodes:
        np.testing.assert_array_equal(both.network.cpt(node), one.network.cpt(node))
    w = np.random.default_rng(1).integers(0, 3, 500)
    part = asia_data.iloc[:500]
    weighted = fit_parameters(ASIA.dag, part, sample_weight=w, states=first.network._states)
    repeated = fit_parameters(
        ASIA.dag, part.loc[part.index.repeat(w)], states=first.network._states
    )
    for node in ASIA.nodes:
        np.testing.assert_allclose(weighted.network.cpt(node), repeated.network.cpt(node))


def test_states_from_categories_or_sorted_values():
    dag = DAG(nodes=["a", "b"])
    data = pd.DataFrame({"a": pd.Categorical(["lo"], categories=["lo", "mid", "hi"]), "b": [3]})
    net = fit_parameters(dag, data).network
    assert net.states("a") == ("lo", "mid", "hi")
    assert net.states("b") == ("3",)
    assert np.isfinite(net.cpt("a")).all()


def test_bad_input_is_named():
    dag = DAG(edges=[("a", "b")])
    data = pd.DataFrame({"a": ["x", "y"], "b": ["u", "v"]})
    with pytest.raises(ValueError, match="estimator must be one of"):
        fit_parameters(dag, data, estimator="bayes")
    with pytest.raises(ValueError, match="alpha must be a finite number"):
        fit_parameters(dag, data, alpha=-1)
    with pytest.raises(ValueError, match="equivalent sample size"):
        fit_parameters(dag, data, estimator="bdeu", alpha=0)
    with pytest.raises(ValueError, match="data has no column 'b'"):
        fit_parameters(dag, data[["a"]])
    with pytest.raises(ValueError, match="column 'b' has a missing value"):
        fit_parameters(dag, data.assign(b=["u", None]), states={"b": ["u", "v"]})
    with pytest.raises(ValueError, match=r"column 'a' holds 'y' \(row 1\), which is no state"):
        fit_parameters(dag, data, states={"a": ["x"]})
    with pytest.raises(ValueError, match="sample_weight must be finite and >= 0"):
        fit_parameters(dag, data, sample_weight=[1.0, -1.0])
    with pytest.raises(TypeError, match="DataFrame"):
        fit_parameters(dag, data.to_numpy())
