"""The registry's estimators as the classifiers' ``smoothing=`` and the networks' ``estimator=``:
the same names in both, the same tables for the same family counts."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from bayeskit.classifiers import KDB, MODELS, NaiveBayes, NetworkClassifier
from bayeskit.estimate import SMOOTHINGS, get_estimator
from bayeskit.networks import fit_parameters

FAMILY_MODELS = {name: cls for name, cls in MODELS.items() if "smoothing" in cls().get_params()}
NEW_NAMES = ("mle", "laplace", "bdeu", "k2")


def _data(n: int = 80, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.choice(["no", "yes"], size=n)
    a = np.where(rng.random(n) < 0.7, np.where(y == "yes", "hi", "lo"), rng.choice(["hi", "lo"], n))
    b = rng.choice(["p", "q", "r"], size=n)
    c = np.where(rng.random(n) < 0.6, np.where(a == "hi", "u", "v"), rng.choice(["u", "v"], n))
    return pd.DataFrame({"a": a, "b": b, "c": c}), y


def _network_cpt(X, y, edges, child, estimator, alpha, model):
    """The CPT of ``child`` of a network over ``X`` and the class, fitted by ``estimator``,
    with the model's states (classes and categories in the model's order)."""
    data = X.assign(cls=y)
    states = {f: list(model.schema_.column(f).categories) for f in X.columns}
    states["cls"] = list(model.classes_)
    fit = fit_parameters(edges, data, estimator=estimator, alpha=alpha, states=states)
    return fit.network.cpt(child)


def test_naive_bayes_bdeu_by_hand():
    # P(v | c) = (n_cv + ess / (C K)) / (n_c + ess / C), counted row by row
    X, y = _data()
    ess = 3.0
    model = NaiveBayes(smoothing="bdeu", alpha=ess, discretize=None).fit(X, y)
    for j, f in enumerate(X.columns):
        cats = list(model.schema_.column(f).categories)
        pseudo = Fraction(ess) / (len(model.classes_) * len(cats))
        for i, c in enumerate(model.classes_):
            n_c = int((y == c).sum())
            for k, v in enumerate(cats):
                n_cv = int(((y == c) & (X[f] == v)).sum())
                expected = (n_cv + pseudo) / (n_c + pseudo * len(cats))
                got = np.exp(model.log_cpt_[j][i, 0, k])
                assert got == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.parametrize("ess", [0.5, 3.0, 12.0])
def test_naive_bayes_bdeu_equals_the_network_bdeu(ess):
    X, y = _data()
    model = NaiveBayes(smoothing="bdeu", alpha=ess, discretize=None).fit(X, y)
    for j, f in enumerate(X.columns):
        cpt = _network_cpt(X, y, [("cls", f)], f, "bdeu", ess, model)
        np.testing.assert_allclose(np.exp(model.log_cpt_[j][:, 0, :]), cpt, rtol=1e-12)


@pytest.mark.parametrize("smoothing", ["bdeu"])
def test_kdb_family_tables_equal_the_network_cpts(smoothing):
    X, y = _data()
    model = KDB(k=1, smoothing=smoothing, alpha=6.0).fit(X, y)
    table = np.exp(model.conditional_log_table("c", given=("a",)))  # (class, a, c)
    cpt = _network_cpt(X, y, [("cls", "c"), ("a", "c")], "c", smoothing, 6.0, model)
    np.testing.assert_allclose(table, cpt, rtol=1e-12)


@pytest.mark.filterwarnings("ignore::bayeskit.exceptions.ZeroEvidenceWarning")  # the MLE's zeros
@pytest.mark.parametrize("name", sorted(FAMILY_MODELS))
@pytest.mark.parametrize("smoothing", NEW_NAMES)
def test_every_family_model_takes_the_new_names(name, smoothing):
    X, y = _data()
    model = FAMILY_MODELS[name](smoothing=smoothing, alpha=2.0).fit(X, y)
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert not np.isnan(proba).any()


@pytest.mark.filterwarnings("ignore::bayeskit.exceptions.ZeroEvidenceWarning")  # the MLE's zeros
@pytest.mark.parametrize("name", sorted(FAMILY_MODELS))
def test_k2_and_laplace_are_lidstone_one_and_mle_lidstone_zero(name):
    X, y = _data()
    cls = FAMILY_MODELS[name]
    one = cls(smoothing="lidstone", alpha=1.0).fit(X, y).predict_proba(X)
    zero = cls(smoothing="lidstone", alpha=0.0).fit(X, y).predict_proba(X)
    for smoothing in ("k2", "laplace"):
        got = cls(smoothing=smoothing, alpha=5.0).fit(X, y).predict_proba(X)
        np.testing.assert_allclose(got, one, rtol=1e-12, atol=1e-15)
    got = cls(smoothing="mle", alpha=5.0).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(got, zero, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", sorted(FAMILY_MODELS))
def test_unknown_smoothing_lists_the_registry(name):
    X, y = _data()
    with pytest.raises(ValueError, match="smoothing must be one of 'mle', 'lidstone'") as info:
        FAMILY_MODELS[name](smoothing="good-turing").fit(X, y)
    assert "'bdeu'" in str(info.value)
    assert "'k2'" in str(info.value)


def test_bdeu_refuses_a_zero_sample_size():
    X, y = _data()
    with pytest.raises(ValueError, match="equivalent sample size"):
        NaiveBayes(smoothing="bdeu", alpha=0.0).fit(X, y)


def test_the_network_classifier_takes_every_estimator_but_the_ordered_ones():
    X, y = _data()
    for name in SMOOTHINGS:
        model = NetworkClassifier(smoothing=name, alpha=2.0)
        if get_estimator(name).needs_parent_order:
            with pytest.raises(ValueError, match="smoothing must be one of"):
                model.fit(X, y)
        else:
            np.testing.assert_allclose(model.fit(X, y).predict_proba(X).sum(axis=1), 1.0)
