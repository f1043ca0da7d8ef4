"""NetworkClassifier: any Bayesian network as a classifier (issue 14)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit.classifiers import TAN, NaiveBayes, NetworkClassifier
from bayeskit.data import datasets


@pytest.fixture(scope="module")
def car():
    return datasets.load("car")


def _with_missing(X: pd.DataFrame, share: float, seed: int) -> pd.DataFrame:
    X = X.astype(object)
    return X.mask(np.random.default_rng(seed).random(X.shape) < share)


def test_the_naive_structure_is_naive_bayes(car):
    X, y = car
    Xm = _with_missing(X, 0.2, 0)
    nb = NaiveBayes(alpha=1.0, prior_alpha=1.0).fit(Xm, y)
    net = NetworkClassifier(structure="naive", alpha=1.0, prior_alpha=1.0).fit(Xm, y)
    # missing features are summed out by the junction tree; naive Bayes skips them: the same
    np.testing.assert_allclose(net.predict_proba(Xm), nb.predict_proba(Xm), atol=1e-12)
    assert (net.predict(Xm) == nb.predict(Xm)).all()


def test_a_given_tan_structure_is_tan(car):
    X, y = car
    tan = TAN().fit(X, y)
    edges = [("class", f) for f in X.columns] + list(tan.edges_)
    net = NetworkClassifier(structure=edges).fit(X, y)
    np.testing.assert_allclose(net.predict_proba(X), tan.predict_proba(X), atol=1e-12)
    assert set(net.edges_) == set(edges)


def test_a_learned_structure_and_exact_posteriors(car):
    from bayeskit.networks import VariableElimination

    X, y = car
    model = NetworkClassifier().fit(X, y)
    net = model.to_network()
    assert net is model.network_
    assert model.network_.dag.parents("class")  # BIC gives the class parents here
    Xm = _with_missing(X.iloc[:60], 0.3, 1)
    proba = model.predict_proba(Xm)
    ve = VariableElimination(net)
    for k in range(0, 60, 7):
        evidence = {c: v for c, v in Xm.iloc[k].items() if pd.notna(v)}
        expected = ve.query("class", evidence).values
        order = [net.states("class").index(str(c)) for c in model.classes_]
        np.testing.assert_allclose(proba[k], expected[order], atol=1e-12)
    # decisions: a cost matrix and the reject option, as for every classifier
    cost = 1.0 - np.eye(len(model.classes_))
    cost[0, 1:] = 10.0  # predicting the first class wrongly is dear
    assert (model.predict(X, cost=cost) == model.classes_[0]).sum() <= (
        model.predict(X) == model.classes_[0]
    ).sum()
    decided = model.decide(X, reject_threshold=0.05, reject_label="?")
    assert "?" in set(decided)


def test_partial_fit_keeps_the_structure_and_adds_counts(car):
    X, y = car
    edges = [("class", f) for f in X.columns] + [("buying", "maint")]
    one = NetworkClassifier(structure=edges).fit(X, y)
    two = NetworkClassifier(structure=edges)
    two.partial_fit(X.iloc[:700], y[:700], classes=np.unique(y))
    two.partial_fit(X.iloc[700:], y[700:])
    np.testing.assert_allclose(two.predict_proba(X), one.predict_proba(X), atol=1e-12)
    learned = NetworkClassifier().partial_fit(X.iloc[:900], y[:900], classes=np.unique(y))
    first = list(learned.edges_)
    learned.partial_fit(X.iloc[900:], y[900:])
    assert learned.edges_ == first


def test_numeric_features_are_binned_and_weights_count(car):
    rng = np.random.default_rng(0)
    n = 600
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"a": y + rng.normal(0, 0.6, n), "b": rng.normal(0, 1, n),
                      "c": np.where(rng.random(n) < 0.8, y, 1 - y).astype(str)})  # fmt: skip
    model = NetworkClassifier().fit(X, y)
    assert model.score(X, y) > 0.75
    twice = NetworkClassifier(structure="naive").fit(pd.concat([X, X.iloc[:50]]),
                                                     np.r_[y, y[:50]])  # fmt: skip
    weights = np.ones(n)
    weights[:50] = 2
    weighted = NetworkClassifier(structure="naive").fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(weighted.predict_proba(X), twice.predict_proba(X), atol=1e-12)


def test_bad_structures_are_named(car):
    X, y = car
    with pytest.raises(ValueError, match="class_node 'safety' is also a feature"):
        NetworkClassifier(class_node="safety").fit(X, y)
    with pytest.raises(ValueError, match=r"names \['colour'\] that are not"):
        NetworkClassifier(structure=[("class", "colour")]).fit(X, y)
    with pytest.raises(ValueError, match="cycle"):
        NetworkClassifier(structure=[("class", "safety"), ("safety", "class")]).fit(X, y)
    with pytest.raises(ValueError, match="structure must be one of"):
        NetworkClassifier(structure="k2").fit(X, y)
    with pytest.raises(ValueError, match="smoothing must be one of"):
        NetworkClassifier(smoothing="hierarchical").fit(X, y)
    with pytest.raises(AttributeError, match="no per-feature evidence"):
        NetworkClassifier().fit(X, y).explain(X)


def test_a_thousand_features_do_not_underflow():
    # 1,200 binary features: the class clique absorbs 1,200 messages; a row with the evidence
    # of the first half for one class and of the second half for the other
    rng = np.random.default_rng(0)
    n, d = 400, 1200
    y = rng.integers(0, 2, n)
    bits = rng.random((n, d)) < np.where(y[:, None] == 1, 0.6, 0.4)
    X = pd.DataFrame(bits.astype(int).astype(str), columns=[f"f{i}" for i in range(d)])
    nb = NaiveBayes().fit(X, y)
    net = NetworkClassifier(structure="naive").fit(X, y)
    row = pd.DataFrame([["1"] * 600 + ["0"] * 600], columns=X.columns)
    np.testing.assert_allclose(net.predict_proba(row), nb.predict_proba(row), rtol=1e-9)
    np.testing.assert_allclose(net.predict_proba(X), nb.predict_proba(X), rtol=1e-9, atol=1e-300)
