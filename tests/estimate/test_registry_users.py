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


@pytest.mark.parametrize("smoothing", ["bdeu", "k2"])
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


# ---------------------------------------------------------------------------- networks


@pytest.mark.parametrize("alpha", [0.5, 1.0])
def test_network_hierarchical_cpts_equal_the_kdb_tables(alpha):
    X, y = _data(200, seed=1)
    model = KDB(k=2, smoothing="hierarchical", alpha=alpha).fit(X, y)
    # the network's parents in the order of their edges: the class, then a, then b
    table = np.exp(model.conditional_log_table("c", given=("a", "b")))  # (class, a, b, c)
    edges = [("cls", "c"), ("a", "c"), ("b", "c")]
    cpt = _network_cpt(X, y, edges, "c", "hierarchical", alpha, model)
    np.testing.assert_allclose(cpt, table, rtol=1e-10)
    # and the order matters: b before a is another estimate
    swapped = _network_cpt(X, y, [("cls", "c"), ("b", "c"), ("a", "c")], "c", "hierarchical",
                           alpha, model)  # fmt: skip
    assert not np.allclose(swapped, table.transpose(0, 2, 1, 3))


@pytest.mark.parametrize("estimator", SMOOTHINGS)
def test_networks_take_every_estimator(estimator):
    X, y = _data()
    data = X.assign(cls=y)
    fit = fit_parameters([("cls", "a"), ("a", "c")], data, estimator=estimator, alpha=2.0)
    for node in ("cls", "a", "c"):
        cpt = fit.network.cpt(node)
        np.testing.assert_allclose(cpt.sum(axis=-1), 1.0)
        table = fit.counts.table(_family(fit.network.dag, node))
        expected = get_estimator(estimator).probabilities(table, 2.0)
        np.testing.assert_allclose(cpt, expected, rtol=1e-12)
    more = fit.partial_fit(data)
    doubled = fit_parameters([("cls", "a"), ("a", "c")], pd.concat([data, data]),
                             estimator=estimator, alpha=2.0)  # fmt: skip
    if estimator != "hierarchical-gibbs":
        np.testing.assert_allclose(more.network.cpt("c"), doubled.network.cpt("c"), rtol=1e-12)


def _family(dag, node) -> tuple[int, ...]:
    """The family ``(parents..., node)`` of ``node`` as column positions of its counts."""
    pos = {n: j for j, n in enumerate(dag.nodes)}
    return (*(pos[p] for p in dag.parents(node)), pos[node])


def test_network_k2_and_m_estimate_by_hand():
    data = pd.DataFrame({"p": list("xxxyy"), "q": list("uuvvv")})
    k2 = fit_parameters([("p", "q")], data, estimator="k2", alpha=9.0).network.cpt("q")
    # (n + 1) / (n_j + 2): p = x saw u twice and v once, p = y saw v twice
    np.testing.assert_allclose(k2, [[3 / 5, 2 / 5], [1 / 4, 3 / 4]])
    m = fit_parameters([("p", "q")], data, estimator="m-estimate", alpha=4.0).network.cpt("q")
    # (n + m / 2) / (n_j + m)
    np.testing.assert_allclose(m, [[4 / 7, 3 / 7], [2 / 6, 4 / 6]])


def test_network_estimator_errors_are_the_registry_message():
    data = pd.DataFrame({"p": list("xxy"), "q": list("uvv")})
    with pytest.raises(ValueError, match="estimator must be one of 'mle', 'lidstone'") as info:
        fit_parameters([("p", "q")], data, estimator="bde")
    assert "'hierarchical'" in str(info.value)
    with pytest.raises(ValueError, match="needs alpha >= 1"):
        fit_parameters([("p", "q")], data, estimator="dirichlet-map", alpha=0.5)


def test_the_cli_names_every_estimator():
    from typing import get_args

    from bayeskit.cli._network import _Estimator

    help_text = get_args(_Estimator)[1].help
    assert all(name in help_text for name in SMOOTHINGS)
