"""Classifiers exported as Bayesian networks: the same class posteriors (issue 13)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp

from bayeskit import AODE, KDB, SPODE, TAN, NaiveBayes, NBTree, SelectiveKDB
from bayeskit.data import datasets


def _network_posterior(net, X: pd.DataFrame, classes) -> np.ndarray:
    """P(class | x) from the network's joint, one class value at a time."""
    rows = X.astype(str)
    logs = np.stack(
        [net.log_likelihood(rows.assign(**{"class": str(c)}), per_row=True) for c in classes],
        axis=1,
    )
    return np.exp(logs - logsumexp(logs, axis=1, keepdims=True))


@pytest.mark.parametrize(
    "make",
    [NaiveBayes, TAN, lambda: SPODE(parent="safety"), lambda: KDB(k=2), lambda: SelectiveKDB(k=3)],
    ids=["naive-bayes", "tan", "spode", "kdb", "selective-kdb"],
)
def test_the_network_gives_the_classifiers_posteriors(make):
    X, y = datasets.load("car")
    model = make().fit(X, y)
    net = model.to_network()
    assert net.dag.roots()[0] == "class" or "class" in net.dag.roots()
    assert set(net.dag.children("class")) <= set(X.columns)
    rows = X.iloc[::37]
    np.testing.assert_allclose(
        _network_posterior(net, rows, model.classes_), model.predict_proba(rows), atol=1e-10
    )
    for name, parents in getattr(model, "structure_", {}).items():
        assert net.dag.parents(name) == ("class", *parents)


def test_a_left_out_feature_is_an_unconnected_node():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"x{j}": rng.integers(0, 3, 400).astype(str) for j in range(4)})
    y = (X["x0"] == X["x1"]).astype(int).to_numpy()
    model = SelectiveKDB(k=2).fit(X, y)
    net = model.to_network(class_node="label")
    left_out = set(X.columns) - set(model.selected_)
    assert left_out
    for name in left_out:
        assert net.dag.parents(name) == ()
        assert net.dag.children(name) == ()
    rows = X.iloc[:20].astype(str)
    logs = np.stack(
        [net.log_likelihood(rows.assign(label=str(c)), per_row=True) for c in model.classes_],
        axis=1,
    )
    post = np.exp(logs - logsumexp(logs, axis=1, keepdims=True))
    np.testing.assert_allclose(post, model.predict_proba(X.iloc[:20]), atol=1e-10)


def test_what_cannot_be_exported_says_why():
    X, y = datasets.load("car")
    with pytest.raises(AttributeError, match="no single network"):
        AODE().fit(X, y).to_network()
    with pytest.raises(AttributeError, match="no single network"):
        NBTree().fit(X, y).to_network()
    with pytest.raises(ValueError, match="is also a feature's name"):
        TAN().fit(X, y).to_network(class_node="safety")
    numeric = pd.DataFrame({"a": np.linspace(0, 1, 50), "b": list("xy") * 25})
    with pytest.raises(ValueError, match="is also a feature's name"):
        NaiveBayes(discretize=None).fit(numeric, np.arange(50) % 2).to_network(class_node="a")


def test_gaussian_naive_bayes_is_a_clg_network_with_the_same_posteriors():
    from bayeskit.inference import HybridInference
    from bayeskit.networks import HybridNetwork

    X, y = datasets.load("watermelon3")  # six categorical features, two numeric
    model = NaiveBayes(discretize=None).fit(X, y)
    network = model.to_network()
    assert isinstance(network, HybridNetwork)
    assert set(network.continuous_nodes) == {"density", "sugar"}
    assert network.cpd("density").discrete_parents == ("class",)
    engine = HybridInference(network)
    want = model.predict_proba(X)
    for i in range(len(X)):
        got = engine.query(["class"], X.iloc[i].to_dict()).values
        np.testing.assert_allclose(got, want[i], rtol=1e-10, atol=1e-14)
