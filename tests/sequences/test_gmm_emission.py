"""The Gaussian-mixture emission: densities, Baum-Welch's guarantee, recovery, hmmlearn."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from bayeskit.sequences import (
    GaussianEmission,
    GaussianMixtureEmission,
    HiddenMarkovModel,
    baum_welch,
    expected_statistics,
    maximize,
    merge_statistics,
)

KINDS = ["diag", "full", "spherical", "tied"]
REFERENCE = json.loads((Path(__file__).parent / "data" / "hmmlearn_gmm_reference.json").read_text())


def mixture(kind, n=2, m=2, d=2, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, m, d, d))
    full = a @ a.transpose(0, 1, 3, 2) + 0.5 * np.eye(d)
    covars = {
        "full": full,
        "tied": full[:, 0],
        "diag": np.diagonal(full, axis1=2, axis2=3).copy(),
        "spherical": full[:, :, 0, 0],
    }[kind]
    w = rng.random((n, m)) + 0.2
    return {
        "weights_": w / w.sum(axis=1, keepdims=True),
        "means_": rng.normal(size=(n, m, d)) * 3,
        "covars_": covars,
    }


def as_full(kind, covars, m, d):
    c = np.asarray(covars)
    if kind == "diag":
        return c[..., :, None] * np.eye(d)
    if kind == "spherical":
        return c[..., None, None] * np.eye(d)
    return np.repeat(c[:, None], m, axis=1) if kind == "tied" else c


@pytest.mark.parametrize("kind", KINDS)
def test_log_likelihood_is_the_scipy_mixture_density(kind):
    params = mixture(kind)
    e = GaussianMixtureEmission({"n_mix": 2, "covariance_type": kind})
    X = np.random.default_rng(5).normal(size=(7, 2)) * 2
    covs = as_full(kind, params["covars_"], 2, 2)
    want = np.array(
        [
            [
                special.logsumexp(
                    [
                        np.log(params["weights_"][j, k])
                        + stats.multivariate_normal(params["means_"][j, k], covs[j, k]).logpdf(x)
                        for k in range(2)
                    ]
                )
                for j in range(2)
            ]
            for x in X
        ]
    )
    np.testing.assert_allclose(e.log_likelihood(params, e.check(X)), want, rtol=1e-12)


@pytest.mark.parametrize("kind", ["diag", "spherical"])
def test_missing_features_are_marginalised(kind):
    params = mixture(kind)
    e = GaussianMixtureEmission({"n_mix": 2, "covariance_type": kind})
    X = np.array([[0.5, np.nan], [np.nan, np.nan]])
    got = e.log_likelihood(params, e.check(X))
    var = as_full(kind, params["covars_"], 2, 2)[..., 0, 0]
    want = special.logsumexp(
        np.log(params["weights_"]) + stats.norm(params["means_"][..., 0], np.sqrt(var)).logpdf(0.5),
        axis=1,
    )
    np.testing.assert_allclose(got[0], want, rtol=1e-12)
    np.testing.assert_allclose(got[1], 0.0, atol=1e-12)


@pytest.mark.parametrize("kind", ["full", "tied"])
def test_full_forms_take_whole_missing_rows_only(kind):
    e = GaussianMixtureEmission({"n_mix": 2, "covariance_type": kind})
    with pytest.raises(ValueError, match="partly missing"):
        e.check([[1.0, np.nan]])
    assert e.log_likelihood(mixture(kind), e.check([[np.nan, np.nan]])).tolist() == [[0.0, 0.0]]


@pytest.mark.parametrize("kind", KINDS)
def test_baum_welch_objective_never_decreases(kind):
    truth = HiddenMarkovModel(2, emission="gmm", n_mix=2, covariance_type=kind)
    truth.startprob_, truth.transmat_ = np.array([0.5, 0.5]), np.array([[0.9, 0.1], [0.2, 0.8]])
    for name, value in mixture(kind, seed=3).items():
        setattr(truth, name, value)
    X = np.concatenate([truth.sample(150, random_state=s)[0] for s in (1, 2)])
    X[[4, 60], :] = np.nan
    if kind in ("diag", "spherical"):
        X[10, 0] = np.nan
    model = HiddenMarkovModel(
        2,
        emission="gmm",
        n_mix=2,
        covariance_type=kind,
        n_iter=25,
        tol=0,
        random_state=0,
        means_weight=0.5,
        covars_weight=3.0,
        weights_prior=1.5,
    ).fit(X, [150, 150])
    o = np.asarray(model.objective_)
    assert len(o) == 25
    assert np.all(np.diff(o) >= -1e-9 * np.abs(o[:-1]))


def test_well_separated_mixtures_are_recovered():
    rng = np.random.default_rng(11)
    truth = HiddenMarkovModel(2, emission="gmm", n_mix=2, covariance_type="diag")
    truth.startprob_, truth.transmat_ = np.array([1.0, 0.0]), np.array([[0.95, 0.05], [0.05, 0.95]])
    truth.weights_ = np.array([[0.3, 0.7], [0.5, 0.5]])
    truth.means_ = np.array([[[-10.0, 0.0], [-10.0, 8.0]], [[10.0, 0.0], [10.0, -8.0]]])
    truth.covars_ = np.full((2, 2, 2), 0.5)
    X, states = truth.sample(3000, random_state=rng)
    model = HiddenMarkovModel(
        2, emission="gmm", n_mix=2, covariance_type="diag", n_iter=50, random_state=0
    ).fit(X)
    order = np.argsort(model.means_[:, 0, 0])
    means = model.means_[order]
    inner = np.argsort(means[..., 1], axis=1)
    got = np.take_along_axis(means, inner[..., None], axis=1)
    want = np.array([[[-10.0, 0.0], [-10.0, 8.0]], [[10.0, -8.0], [10.0, 0.0]]])
    np.testing.assert_allclose(got, want, atol=0.15)
    weights = np.take_along_axis(model.weights_[order], inner, axis=1)
    np.testing.assert_allclose(weights, [[0.3, 0.7], [0.5, 0.5]], atol=0.04)
    np.testing.assert_allclose(model.transmat_[order][:, order], truth.transmat_, atol=0.02)
    assert (model.predict(X) == order[states]).mean() > 0.99 or (
        (order[model.predict(X)] == states).mean() > 0.99
    )


@pytest.mark.parametrize("kind", ["diag", "full", "spherical", "tied"])
def test_one_component_is_the_gaussian_emission(kind):
    rng = np.random.default_rng(2)
    params = mixture(kind, m=1)
    gauss_kind = "full" if kind == "tied" else kind
    g = GaussianEmission({"covariance_type": gauss_kind})
    flat = {"means_": params["means_"][:, 0], "covars_": params["covars_"]}
    flat["covars_"] = flat["covars_"] if kind == "tied" else flat["covars_"][:, 0]
    e = GaussianMixtureEmission({"covariance_type": kind})
    X = e.check(rng.normal(size=(40, 2)))
    assert np.array_equal(e.log_likelihood(params, X), g.log_likelihood(flat, X))
    full = {"startprob_": np.array([0.4, 0.6]), "transmat_": np.array([[0.7, 0.3], [0.4, 0.6]])}
    s_mix, ll_mix = expected_statistics(e, {**full, **params}, X, np.array([0, 40]))
    s_g, ll_g = expected_statistics(g, {**full, **flat}, X, np.array([0, 40]))
    # equal up to rounding: the diagonal Gaussian's E-step is one compiled pass
    np.testing.assert_allclose(ll_mix, ll_g, rtol=1e-13)
    new_mix = maximize(e, s_mix, {**full, **params}, "stwmc")
    new_g = maximize(g, s_g, {**full, **flat}, "stmc")
    np.testing.assert_allclose(new_mix["means_"][:, 0], new_g["means_"], rtol=1e-12)
    covs = new_mix["covars_"] if kind == "tied" else new_mix["covars_"][:, 0]
    np.testing.assert_allclose(covs, new_g["covars_"], rtol=1e-13)
    assert e.log_prior(params) == pytest.approx(g.log_prior(flat), rel=1e-13)
    assert e.n_free_parameters(params) == g.n_free_parameters(flat)


def test_statistics_add_across_chunks_and_need_the_parameters():
    params = mixture("full")
    start = {"startprob_": np.array([0.5, 0.5]), "transmat_": np.full((2, 2), 0.5)}
    e = GaussianMixtureEmission({"n_mix": 2, "covariance_type": "full"})
    X = e.check(np.random.default_rng(4).normal(size=(30, 2)))
    both, _ = expected_statistics(e, {**start, **params}, X, np.array([0, 10, 30]))
    a, _ = expected_statistics(e, {**start, **params}, X[:10], np.array([0, 10]))
    b, _ = expected_statistics(e, {**start, **params}, X[10:], np.array([0, 20]))
    merged = merge_statistics(a, b)
    for key in both:
        np.testing.assert_allclose(merged[key], both[key], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["covariance_type"])
def test_score_samples_equals_hmmlearn_gmmhmm(case):
    model = HiddenMarkovModel(3, emission="gmm", n_mix=2, covariance_type=case["covariance_type"])
    model.startprob_ = np.array(case["startprob_"])
    model.transmat_ = np.array(case["transmat_"])
    for name, value in case["params"].items():
        setattr(model, name, np.array(value))
    log_prob, post = model.score_samples(np.array(case["X"]), case["lengths"])
    assert log_prob == pytest.approx(case["log_prob"], rel=1e-8, abs=1e-8)
    np.testing.assert_allclose(post, case["posteriors"], atol=1e-8)


@pytest.mark.parametrize("kind", KINDS)
def test_sample_and_free_parameters(kind):
    params = mixture(kind, n=2, m=3, d=2)
    e = GaussianMixtureEmission({"n_mix": 3, "covariance_type": kind})
    out = e.sample(params, np.array([0, 1, 1, 0]), np.random.default_rng(0))
    assert out.shape == (4, 2)
    cov = {"diag": 12, "spherical": 6, "full": 18, "tied": 6}[kind]
    assert e.n_free_parameters(params) == 2 * 2 + 12 + cov


def test_initialisation_gives_valid_parameters_for_every_form():
    X = np.random.default_rng(0).normal(size=(50, 2))
    for kind in KINDS:
        e = GaussianMixtureEmission({"n_mix": 3, "covariance_type": kind})
        params = e.initialize(e.check(X), 2, np.random.default_rng(1))
        e.validate(params, 2)
        few = e.initialize(e.check(X[:3]), 2, np.random.default_rng(1))  # fewer rows than mix
        e.validate(few, 2)


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"covariance_type": "banded"}, "covariance_type"),
        ({"n_mix": 0}, "n_mix"),
        ({"n_mix": 2.5}, "n_mix"),
    ],
)
def test_bad_settings_are_refused(settings, match):
    with pytest.raises(ValueError, match=match):
        GaussianMixtureEmission(settings)


@pytest.mark.parametrize(
    ("name", "value", "match"),
    [
        ("weights_", np.array([[0.5, 0.6], [0.5, 0.5]]), "sum to 1"),
        ("weights_", np.ones((2, 3)) / 3, "weights_ must have shape"),
        ("means_", np.zeros((2, 2)), "means_ must have shape"),
        ("covars_", np.ones((2, 2)), "covars_ of covariance_type='diag'"),
        ("covars_", -np.ones((2, 2, 2)), "positive"),
    ],
)
def test_bad_parameters_are_refused(name, value, match):
    params = {**mixture("diag"), name: value}
    with pytest.raises(ValueError, match=match):
        GaussianMixtureEmission({"n_mix": 2}).validate(params, 2)


def test_wrong_number_of_features_and_infinite_values_are_refused():
    e = GaussianMixtureEmission({"n_mix": 2})
    with pytest.raises(ValueError, match="features"):
        e.log_likelihood(mixture("diag"), e.check(np.zeros((2, 3))))
    with pytest.raises(ValueError, match="finite"):
        e.check([[np.inf, 0.0]])


def test_baum_welch_directly_with_frozen_weights():
    params = mixture("spherical")
    e = GaussianMixtureEmission({"n_mix": 2, "covariance_type": "spherical"})
    X = e.check(np.random.default_rng(9).normal(size=(60, 2)))
    start = {"startprob_": np.array([0.5, 0.5]), "transmat_": np.full((2, 2), 0.5), **params}
    run = baum_welch(e, start, X, np.array([0, 60]), update="stmc", max_iter=5, tol=0)
    np.testing.assert_array_equal(run.parameters["weights_"], params["weights_"])
