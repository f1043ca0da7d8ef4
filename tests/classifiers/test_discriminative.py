"""Discriminative parameters of the family models: weights of the table cells fitted to the
conditional log-likelihood, from the generative model."""

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import approx_fprime

from bayeskit.classifiers import KDB, TAN, NaiveBayes, SelectiveKDB
from bayeskit.classifiers import _discriminative as disc
from bayeskit.io import load, save


def _redundant(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """A class, a weak feature and a strong one copied four times: naive Bayes counts the
    copies as four pieces of evidence and is overconfident; weights can undo that."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    strong = np.where(rng.random(n) < 0.75, y, 1 - y)
    weak = np.where(rng.random(n) < 0.6, y, 1 - y)
    noise = rng.integers(0, 3, n)
    cols = {f"s{k}": strong for k in range(4)}
    frame = pd.DataFrame({**cols, "weak": weak, "noise": noise}).astype(str)
    return frame, np.array(["no", "yes"])[y]


def _log_loss(model, X, y) -> float:
    p = model.predict_proba(X)
    idx = np.searchsorted(model.classes_, y)
    return float(-np.log(p[np.arange(len(y)), idx]).mean())


def test_weights_of_one_give_the_generative_model():
    X, y = _redundant(500, 0)
    model = KDB(k=1).fit(X, y)
    tables = model._generative_tables
    ones = np.ones(tables.table.size + len(model.classes_))
    weighted = disc.weighted_tables(tables, model.log_prior_, ones)
    codes = model._encode(model._prepare_X(X, reset=False)).codes
    jll = np.zeros((len(X), 2))
    assert np.allclose(weighted.add_to(jll.copy(), codes), tables.add_to(jll.copy(), codes))


def test_the_gradient_is_the_objectives():
    X, y = _redundant(300, 1)
    model = KDB(k=1).fit(X, y)
    cells = model._generative_tables.cells(model._encode(X).codes)
    y_idx = np.searchsorted(model.classes_, y)
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    objective, x0, _ = disc._objective(model._generative_tables, model.log_prior_, cells, y_idx,
                                    w, 0.7)  # fmt: skip
    theta = x0 + np.random.default_rng(1).normal(0, 0.3, len(x0))
    numeric = approx_fprime(theta, lambda t: objective(t)[0], 1e-6)
    assert np.allclose(objective(theta)[1], numeric, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("make", [NaiveBayes, lambda **k: KDB(k=0, **k)])
def test_discriminative_weights_correct_redundant_evidence(make):
    # naive Bayes (or KDB with k=0) counts the four copies four times; the weights undo it
    X, y = _redundant(3000, 2)
    test_X, test_y = _redundant(3000, 3)
    generative = make().fit(X, y)
    weighted = make(parameters="discriminative").fit(X, y)
    assert weighted.l2_ is not None  # the held-out rows preferred a weighting
    assert _log_loss(weighted, test_X, test_y) < _log_loss(generative, test_X, test_y) - 0.02
    # the counts and the structure are the generative model's
    assert weighted.structure_ == generative.structure_
    assert np.array_equal(weighted.class_count_, generative.class_count_)


@pytest.mark.parametrize("make", [TAN, SelectiveKDB])
def test_structures_that_see_the_copies_lose_nothing(make):
    # TAN and selective KDB join the copies already: the weights change little
    X, y = _redundant(3000, 2)
    test_X, test_y = _redundant(3000, 3)
    generative = make().fit(X, y)
    weighted = make(parameters="discriminative").fit(X, y)
    assert _log_loss(weighted, test_X, test_y) < _log_loss(generative, test_X, test_y) + 0.005


def test_a_large_penalty_keeps_the_generative_model():
    X, y = _redundant(400, 4)
    generative = KDB(k=1).fit(X, y)
    held = KDB(k=1, parameters="discriminative", l2=1e9).fit(X, y)
    assert held.l2_ == 1e9
    assert np.allclose(held.predict_proba(X), generative.predict_proba(X), atol=1e-6)


def test_missing_values_and_files_round_trip(tmp_path):
    X, y = _redundant(600, 5)
    X = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)
    model = TAN(parameters="discriminative", l2=1.0).fit(X, y)
    assert np.all(np.isfinite(model.predict_proba(X)))
    path = save(model, tmp_path / "tan.bayeskit")
    again = load(path)
    assert np.array_equal(again.cell_weights_, model.cell_weights_)
    assert again.l2_ == 1.0
    assert np.array_equal(again.predict_proba(X), model.predict_proba(X))


def test_partial_fit_refits_the_weights_from_those_held():
    X, y = _redundant(1000, 6)
    model = KDB(k=1, parameters="discriminative", l2=1.0)
    model.partial_fit(X[:500], y[:500], classes=["no", "yes"])
    first = model.cell_weights_.copy()
    model.partial_fit(X[500:], y[500:])
    assert model.class_count_.sum() == 1000
    assert not np.array_equal(first, model.cell_weights_)


def test_refusals():
    X, y = _redundant(200, 7)
    with pytest.raises(ValueError, match="parameters must be one of 'generative', 'disc"):
        KDB(parameters="logistic").fit(X, y)
    with pytest.raises(ValueError, match="l2 must be >= 0"):
        KDB(parameters="discriminative", l2=-1.0).fit(X, y)
    chunks = [(X[:100], y[:100]), (X[100:], y[100:])]
    with pytest.raises(ValueError, match="which fit_chunks does not hold"):
        KDB(parameters="discriminative").fit_chunks(chunks, classes=["no", "yes"])
    numeric = pd.DataFrame({"a": np.random.default_rng(0).random(200)})
    with pytest.raises(ValueError, match="keeps 1 numeric column"):
        NaiveBayes(parameters="discriminative", discretize=None).fit(numeric, y)
    holed = np.where(np.arange(200) < 20, "?", y)
    with pytest.raises(ValueError, match="which EM over unlabelled rows"):
        TAN(parameters="discriminative", unlabelled="?").fit(X, holed)


@pytest.mark.parametrize("model", [NaiveBayes, TAN, KDB, SelectiveKDB])
def test_each_model_documents_the_options_alike(model):
    assert disc.DISCRIMINATIVE_DOC in model.__doc__


def test_the_penalty_is_the_most_conservative_within_a_standard_error():
    rng = np.random.default_rng(0)
    base = rng.normal(1.0, 1.0, 400)
    # candidate 2 is best by 0.01, under its paired difference's standard error (about 0.02)
    loss = np.column_stack([base + rng.normal(0, 0.3, 400), base + 0.3,
                            base - 0.01 + rng.normal(0, 0.3, 400)])  # fmt: skip
    loss[:, 0] -= loss[:, 0].mean() - loss[:, 2].mean() - 0.01
    assert disc._one_standard_error(loss, np.ones(400)) == 0
    # a clear gain: the best is taken
    loss[:, 2] -= 0.5
    assert disc._one_standard_error(loss, np.ones(400)) == 2


@pytest.mark.parametrize("make", [NaiveBayes, TAN])
def test_a_weighted_model_is_no_network_and_explains_nothing(make):
    X, y = _redundant(500, 8)
    weighted = make(parameters="discriminative", l2=1.0).fit(X, y)
    for method in (weighted.to_network, lambda: weighted.explain(X[:2])):
        with pytest.raises(AttributeError, match="weighs its tables: .* is not defined"):
            method()


def test_three_classes_gradient_rare_classes_and_weights():
    rng = np.random.default_rng(9)
    n = 600
    y = rng.choice(["a", "b", "c"], n, p=[0.6, 0.395, 0.005])  # "c": a few rows only
    X = pd.DataFrame({"u": np.where(rng.random(n) < 0.7, y, "a"),
                      "v": rng.choice(list("pqr"), n)})  # fmt: skip
    model = KDB(k=1).fit(X, y)
    cells = model._generative_tables.cells(model._encode(X).codes)
    y_idx = np.searchsorted(model.classes_, y)
    objective, x0, _ = disc._objective(model._generative_tables, model.log_prior_, cells, y_idx,
                                       None, 0.3)  # fmt: skip
    theta = x0 + np.random.default_rng(2).normal(0, 0.2, len(x0))
    numeric = approx_fprime(theta, lambda t: objective(t)[0], 1e-6)
    assert np.allclose(objective(theta)[1], numeric, rtol=1e-4, atol=1e-3)
    # the penalty chosen with a class too rare to hold out, and weights of zero dropped
    w = rng.integers(0, 3, n).astype(float)
    fitted = TAN(parameters="discriminative").fit(X, y, sample_weight=w)
    assert np.allclose(fitted.predict_proba(X).sum(axis=1), 1.0)


def test_partial_fit_with_new_categories_refits_from_the_generative_model():
    X, y = _redundant(600, 10)
    model = TAN(parameters="discriminative", l2=1.0)
    model.partial_fit(X[:300], y[:300], classes=["no", "yes"])
    grown = X[300:].copy()
    grown.loc[grown.index[:50], "noise"] = "new"  # a category the first chunk did not have
    model.partial_fit(grown, y[300:])
    assert len(model.cell_weights_) == model._n_weights()
    assert np.all(np.isfinite(model.predict_proba(grown)))
