"""CLGClassifier: naive Bayes, TAN and KDB with numeric features kept continuous, against
exact inference in its network, scikit-learn's GaussianNB, and known generating
structures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss
from sklearn.naive_bayes import GaussianNB

from bayeskit.classifiers import CLGClassifier
from bayeskit.networks import HybridInference


def chain_data(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Numeric x0 -> x1 -> x2 -> x3 given the class, a categorical g given the class, and a
    numeric z depending on g and the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(3, size=n)
    x0 = y + rng.normal(size=n)
    x1 = 0.9 * x0 + 0.4 * rng.normal(size=n)
    x2 = -0.8 * x1 + 0.5 * rng.normal(size=n) + 0.3 * y
    x3 = 0.7 * x2 + 0.5 * rng.normal(size=n)
    g = np.where(rng.random(n) < 0.2 + 0.25 * y, "on", "off")
    z = np.where(g == "on", 1.5, -1.5) + 0.5 * y + rng.normal(size=n) * 0.7
    return pd.DataFrame({"x0": x0, "x1": x1, "x2": x2, "x3": x3, "g": g, "z": z}), y


@pytest.mark.parametrize("structure", ["naive", "tan", "kdb"])
def test_class_posteriors_are_exact_inference_in_the_network(structure):
    X, y = chain_data(800, seed=0)
    model = CLGClassifier(structure=structure).fit(X, y)
    test, _ = chain_data(12, seed=1)
    test.loc[2, "x1"] = np.nan  # missing values are integrated out
    test.loc[5, "g"] = None
    test.loc[7, ["x0", "z"]] = np.nan
    proba = model.predict_proba(test)
    engine = HybridInference(model.to_network())
    for i, row in test.iterrows():
        evidence = {k: v for k, v in row.items() if not pd.isna(v)}
        posterior = engine.query([model.class_node_], evidence)
        np.testing.assert_allclose(proba[i], posterior.values, atol=1e-9)


def test_naive_structure_on_numeric_features_is_gaussian_naive_bayes():
    rng = np.random.default_rng(2)
    y = rng.integers(3, size=500)
    X = rng.normal(size=(500, 4)) + y[:, None] * [1.0, -0.5, 0.2, 0.0]
    ours = CLGClassifier(structure="naive", alpha=0.0).fit(X, y)
    theirs = GaussianNB().fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-6)
    assert list(ours.network_.dag.nodes) == ["class", "x0", "x1", "x2", "x3"]


def test_tan_recovers_the_generating_tree_and_keeps_the_clg_rule():
    X, y = chain_data(4000, seed=3)
    model = CLGClassifier(structure="tan").fit(X, y)
    dag = model.network_.dag
    features = list(X.columns)
    tree = {frozenset((u, v)) for u, v in dag.edges if u != "class"}
    for pair in (("x0", "x1"), ("x1", "x2"), ("x2", "x3"), ("g", "z")):
        assert frozenset(pair) in tree
    assert len(tree) == len(features) - 1
    assert "g" not in model.continuous_
    for v in features:  # a categorical feature never has a numeric parent
        if v not in model.continuous_:
            assert all(p not in model.continuous_ for p in dag.parents(v))


def test_kdb_gives_each_feature_at_most_k_earlier_parents():
    X, y = chain_data(3000, seed=4)
    for k in (1, 2):
        model = CLGClassifier(structure="kdb", k=k).fit(X, y)
        dag = model.network_.dag
        for v in X.columns:
            parents = [p for p in dag.parents(v) if p != "class"]
            assert len(parents) <= k
    two = CLGClassifier(structure="kdb", k=2).fit(X, y).network_.dag
    assert "x1" in two.parents("x2") or "x2" in two.parents("x1")


def test_feature_dependencies_improve_the_fit_on_dependent_data():
    X, y = chain_data(3000, seed=5)
    test, y_test = chain_data(3000, seed=6)
    losses = {
        s: log_loss(y_test, CLGClassifier(structure=s).fit(X, y).predict_proba(test))
        for s in ("naive", "tan", "kdb")
    }
    assert losses["tan"] < losses["naive"] - 0.05
    assert losses["kdb"] < losses["naive"] - 0.05


def test_labels_weights_unknown_categories_and_refusals():
    X, y = chain_data(400, seed=7)
    labels = np.array(["low", "mid", "high"])[y]
    model = CLGClassifier().fit(X, labels)
    assert set(model.predict(X)) <= set(labels)
    doubled = CLGClassifier().fit(pd.concat([X, X], ignore_index=True), np.r_[labels, labels])
    weighted = CLGClassifier().fit(X, labels, sample_weight=np.full(len(X), 2.0))
    np.testing.assert_allclose(weighted.predict_proba(X), doubled.predict_proba(X), atol=1e-9)
    odd = X.iloc[:3].copy()
    odd.loc[0, "g"] = "never seen"  # treated as missing
    expected = odd.copy()
    expected.loc[0, "g"] = None
    np.testing.assert_allclose(model.predict_proba(odd), model.predict_proba(expected))
    with pytest.raises(ValueError, match="structure must be one of"):
        CLGClassifier(structure="forest").fit(X, y)
    with pytest.raises(ValueError, match="k must be"):
        CLGClassifier(structure="kdb", k=0).fit(X, y)
    with pytest.raises(ValueError, match="missing label"):
        CLGClassifier().fit(X, np.r_[y[:-1], np.nan])
    with pytest.raises(ValueError, match=r"missing \['x3', 'g', 'z'\]"):
        model.predict_proba(X.iloc[:, :3])
    # columns are matched by name, in any order (the one column rule of every model)
    np.testing.assert_array_equal(model.predict_proba(X[list(reversed(X.columns))]),
                                  model.predict_proba(X))  # fmt: skip
    with pytest.raises(ValueError, match="infinite value"):
        model.predict_proba(X.assign(x0=np.inf))


def test_tan_and_kdb_on_unbinned_numbers_point_to_the_continuous_models():
    from bayeskit.classifiers import KDB, TAN
    from bayeskit.exceptions import SchemaError

    X, y = chain_data(60, seed=8)
    for model, kind in ((TAN(discretize=None), "tan"), (KDB(discretize=None), "kdb")):
        with pytest.raises(SchemaError, match=rf"CLGClassifier\(structure='{kind}'\)"):
            model.fit(X[["x0", "x1"]], y)


def test_many_categorical_features_with_missing_values_are_still_exact():
    # 12 categorical features of 4 values and 3 classes: 50 million discrete configurations,
    # too many to enumerate at once; rows with missing values go through exact inference
    rng = np.random.default_rng(9)
    y = rng.integers(3, size=600)
    X = pd.DataFrame({f"c{j}": np.array(list("pqrs"))[(y + rng.integers(4, size=600)) % 4]
                      for j in range(12)})  # fmt: skip
    X["v"] = y + rng.normal(size=600)
    model = CLGClassifier(structure="tan").fit(X, y)
    test = X.iloc[:4].copy()
    test.loc[1, "c3"] = None
    test.loc[2, ["c0", "v"]] = [None, np.nan]
    proba = model.predict_proba(test)
    engine = HybridInference(model.to_network())
    for i, row in test.iterrows():
        evidence = {k: v for k, v in row.items() if not pd.isna(v)}
        want = engine.query([model.class_node_], evidence).values
        np.testing.assert_allclose(proba[i], want, atol=1e-9)
