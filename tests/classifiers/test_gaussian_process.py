"""GaussianProcessClassifier: the binary Laplace approximation against scikit-learn's, the
multiclass softmax Laplace's gradient against finite differences and its predictive moments
against the dense formulas, invariances, weights and refusals."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, linalg
from scipy.special import expit
from sklearn.gaussian_process import GaussianProcessClassifier as ScikitGPC
from sklearn.gaussian_process.kernels import RBF
from sklearn.gaussian_process.kernels import ConstantKernel as C

from bayeskit.classifiers import GaussianProcessClassifier, _laplace


def two_classes(n: int = 60, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] - 0.5 * X[:, 1] + 0.6 * rng.normal(size=n) > 0).astype(int)
    return X, y


def three_classes(n: int = 45, seed: int = 1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.argmax(X @ rng.normal(size=(2, 3)) + 0.5 * rng.normal(size=(n, 3)), axis=1)
    return X, y


def central_differences(fun, theta, eps=1e-6):
    return np.array([(fun(theta + eps * e) - fun(theta - eps * e)) / (2 * eps)
                     for e in np.eye(len(theta))])  # fmt: skip


def test_binary_equals_scikit_learn_fixed_and_optimised():
    X, y = two_classes()
    test = np.random.default_rng(5).normal(size=(20, 2))
    for kernel, optimizer in ((C(2.0) * RBF([1.0, 0.7]), None),
                              (C(1.0) * RBF([1.0, 1.0]), "fmin_l_bfgs_b")):  # fmt: skip
        ours = GaussianProcessClassifier(kernel, optimizer=optimizer).fit(X, y)
        theirs = ScikitGPC(kernel, optimizer=optimizer).fit(X, y)
        assert ours.log_marginal_likelihood_value_ == pytest.approx(
            theirs.log_marginal_likelihood_value_, abs=1e-8
        )
        np.testing.assert_allclose(ours.kernel_.theta, theirs.kernel_.theta, atol=1e-6)
        np.testing.assert_allclose(ours.predict_proba(test), theirs.predict_proba(test),
                                   atol=1e-8)  # fmt: skip
        theta = ours.kernel_.theta
        ours_v, ours_g = ours.log_marginal_likelihood(theta, eval_gradient=True)
        theirs_v, theirs_g = theirs.log_marginal_likelihood(theta, eval_gradient=True)
        assert ours_v == pytest.approx(theirs_v, abs=1e-10)
        np.testing.assert_allclose(ours_g, theirs_g, atol=1e-8)


@pytest.mark.parametrize("inducing", [None, 8], ids=["exact", "8-inducing-points"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("make", [two_classes, three_classes], ids=["binary", "multiclass"])
def test_the_gradient_is_the_derivative(make, weighted, inducing):
    X, y = make()
    w = np.random.default_rng(2).uniform(0.2, 2.0, len(y)) if weighted else None
    model = GaussianProcessClassifier(C(2.0) * RBF([1.0, 0.7]), optimizer=None,
                                      inducing_points=inducing, random_state=0)  # fmt: skip
    model.fit(X, y, sample_weight=w)
    theta = model.kernel_.theta
    _, grad = model.log_marginal_likelihood(theta, eval_gradient=True)
    numeric = central_differences(model.log_marginal_likelihood, theta)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-6)


def test_multiclass_approximation_equals_the_dense_formulas():
    X, y = three_classes(n=20)
    kernel = C(1.5) * RBF(0.8)
    model = GaussianProcessClassifier(kernel, optimizer=None).fit(X, y)
    n, c = len(y), 3
    K = kernel(X)
    mode = model._mode
    pi = mode.pi
    W = np.zeros((n * c, n * c))  # class-major: index c * n + i
    for i in range(n):
        idx = [k * n + i for k in range(c)]
        W[np.ix_(idx, idx)] = np.diag(pi[:, i]) - np.outer(pi[:, i], pi[:, i])
    Kb = linalg.block_diag(*[K] * c)
    f = mode.f.reshape(-1)
    Y = np.eye(c)[y].T
    log_lik = float(((Y * mode.f).sum(axis=0) - np.log(np.exp(mode.f).sum(axis=0))).sum())
    dense = (-0.5 * f @ np.linalg.solve(Kb, f) + log_lik
             - 0.5 * np.linalg.slogdet(np.eye(n * c) + Kb @ W)[1])  # fmt: skip
    assert model.log_marginal_likelihood_value_ == pytest.approx(dense, abs=1e-9)
    # the mode: K^-1 f = y - pi
    np.testing.assert_allclose(np.linalg.solve(Kb, f), (Y - pi).reshape(-1), atol=1e-6)
    test = np.random.default_rng(4).normal(size=(4, 2))
    mean, cov = model.latent_mean_and_variance(test)
    Ks = linalg.block_diag(*[kernel(X, test)] * c)
    G = np.linalg.solve(np.eye(n * c) + W @ Kb, W)  # (K + W^-1)^-1
    want = np.kron(np.eye(c), np.diag(kernel.diag(test))) - Ks.T @ G @ Ks
    for t in range(len(test)):
        idx = [k * len(test) + t for k in range(c)]
        np.testing.assert_allclose(cov[t], want[np.ix_(idx, idx)], atol=1e-10)
        np.testing.assert_allclose(mean[t], (Ks.T @ (Y - pi).reshape(-1))[idx], atol=1e-10)


def test_probabilities_sum_to_one_and_ignore_the_order_of_rows_and_classes():
    X, y = three_classes()
    test = np.random.default_rng(6).normal(size=(10, 2))
    model = GaussianProcessClassifier(C(1.0) * RBF(1.0), optimizer=None).fit(X, y)
    proba = model.predict_proba(test)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    order = np.random.default_rng(7).permutation(len(y))
    shuffled = GaussianProcessClassifier(C(1.0) * RBF(1.0), optimizer=None).fit(X[order], y[order])
    np.testing.assert_allclose(shuffled.predict_proba(test), proba, atol=1e-8)
    renamed = np.array([2, 0, 1])[y]  # class k is now called renamed label
    other = GaussianProcessClassifier(C(1.0) * RBF(1.0), optimizer=None).fit(X, renamed)
    np.testing.assert_allclose(other.predict_proba(test)[:, [2, 0, 1]], proba, atol=1e-8)


def test_binary_predictive_by_quadrature_is_the_integral():
    X, y = two_classes()
    model = GaussianProcessClassifier(C(2.0) * RBF(1.0), optimizer=None,
                                      predictive="quadrature").fit(X, y)  # fmt: skip
    test = np.random.default_rng(8).normal(size=(5, 2)) * 2
    mean, var = model.latent_mean_and_variance(test)
    for m, v, p in zip(mean, var, model.predict_proba(test)[:, 1], strict=True):
        exact = integrate.quad(lambda f, m=m, v=v: expit(f) * np.exp(-((f - m) ** 2) / (2 * v))
                               / np.sqrt(2 * np.pi * v), m - 12 * np.sqrt(v),
                               m + 12 * np.sqrt(v), epsabs=1e-13)[0]  # fmt: skip
        assert p == pytest.approx(exact, abs=1e-9)
    probit = GaussianProcessClassifier(C(2.0) * RBF(1.0), optimizer=None).fit(X, y)
    np.testing.assert_allclose(probit.predict_proba(test), model.predict_proba(test), atol=2e-3)


def test_weights_count_as_repeated_rows():
    X, y = three_classes(n=30)
    kernel = C(1.0) * RBF(1.0)
    doubled = GaussianProcessClassifier(kernel, optimizer=None).fit(
        np.vstack([X, X[:10]]), np.r_[y, y[:10]]
    )
    w = np.r_[np.full(10, 2.0), np.ones(20)]
    weighted = GaussianProcessClassifier(kernel, optimizer=None).fit(X, y, sample_weight=w)
    assert weighted.log_marginal_likelihood_value_ == pytest.approx(
        doubled.log_marginal_likelihood_value_, abs=1e-8
    )
    test = np.random.default_rng(9).normal(size=(5, 2))
    np.testing.assert_allclose(weighted.predict_proba(test), doubled.predict_proba(test),
                               atol=1e-8)  # fmt: skip


def test_bad_input_is_refused_or_handled():
    X, y = two_classes(n=20)
    with pytest.raises(ValueError, match="2 or more distinct classes"):
        GaussianProcessClassifier().fit(X, np.zeros(20))
    with pytest.raises(ValueError, match="NaN"):
        GaussianProcessClassifier().fit(np.where(np.eye(20, 2) > 0, np.nan, X), y)
    with pytest.raises(ValueError, match="infinity"):
        GaussianProcessClassifier().fit(np.where(np.eye(20, 2) > 0, np.inf, X), y)
    with pytest.raises(ValueError, match=r"needs about .* GiB .* max_bytes=1,000"):
        GaussianProcessClassifier(max_bytes=1000).fit(X, y)
    with pytest.raises(ValueError, match="predictive must be one of"):
        GaussianProcessClassifier(predictive="exact").fit(X, y)
    # duplicated rows make K singular; B = I + W^1/2 K W^1/2 stays positive definite
    dup = np.vstack([X, X])
    model = GaussianProcessClassifier(C(1.0) * RBF(1.0)).fit(dup, np.r_[y, y])
    assert np.isfinite(model.log_marginal_likelihood_value_)
    # a constant feature carries no information and does no harm
    flat = np.column_stack([X, np.ones(20)])
    p_flat = GaussianProcessClassifier(RBF(1.0), optimizer=None).fit(flat, y).predict_proba(flat)
    p = GaussianProcessClassifier(RBF(1.0), optimizer=None).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(p_flat, p, atol=1e-12)


def test_restarts_keep_the_best_optimum():
    X, y = two_classes()
    one = GaussianProcessClassifier(C(1.0) * RBF([1.0, 1.0])).fit(X, y)
    more = GaussianProcessClassifier(C(1.0) * RBF([1.0, 1.0]), n_restarts_optimizer=3,
                                     random_state=0).fit(X, y)  # fmt: skip
    assert more.log_marginal_likelihood_value_ >= one.log_marginal_likelihood_value_ - 1e-9


def test_laplace_module_multiclass_mode_is_stationary():
    X, y = three_classes(n=25)
    K = (C(1.0) * RBF(1.0))(X)
    Y = np.eye(3)[y].T
    mode = _laplace.multi_mode(K, Y, np.ones(25), 100)
    np.testing.assert_allclose(mode.f, (Y - mode.pi) @ K, atol=1e-7)


@pytest.mark.parametrize("make", [two_classes, three_classes], ids=["binary", "multiclass"])
def test_inducing_points_at_the_training_inputs_are_the_exact_method(make):
    X, y = make()
    w = np.random.default_rng(10).uniform(0.5, 1.5, len(y))
    kernel = C(2.0) * RBF([1.0, 0.7])
    exact = GaussianProcessClassifier(kernel, optimizer=None).fit(X, y, sample_weight=w)
    sparse = GaussianProcessClassifier(kernel, optimizer=None, inducing_points=X,
                                       inducing_jitter=0.0).fit(X, y, sample_weight=w)  # fmt: skip
    assert sparse.log_marginal_likelihood_value_ == pytest.approx(
        exact.log_marginal_likelihood_value_, abs=1e-9
    )
    theta = exact.kernel_.theta
    np.testing.assert_allclose(sparse.log_marginal_likelihood(theta, eval_gradient=True)[1],
                               exact.log_marginal_likelihood(theta, eval_gradient=True)[1],
                               atol=1e-8)  # fmt: skip
    test = np.random.default_rng(11).normal(size=(6, 2))
    for a, b in zip(sparse.latent_mean_and_variance(test), exact.latent_mean_and_variance(test),
                    strict=True):  # fmt: skip
        np.testing.assert_allclose(a, b, atol=1e-9)
    np.testing.assert_allclose(sparse.predict_proba(test), exact.predict_proba(test), atol=1e-9)


def test_inducing_points_are_checked_and_fitted_with_the_hyperparameters():
    X, y = two_classes(n=60)
    with pytest.raises(ValueError, match=r"inducing_points must be a count or an array"):
        GaussianProcessClassifier(inducing_points=np.zeros((3, 5))).fit(X, y)
    with pytest.raises(ValueError, match="inducing points needs about"):
        GaussianProcessClassifier(inducing_points=10, max_bytes=1000).fit(X, y)
    everything = GaussianProcessClassifier(inducing_points=500).fit(X, y)
    np.testing.assert_array_equal(everything.inducing_points_, X)  # more than the rows
    few = GaussianProcessClassifier(C(1.0) * RBF(1.0), inducing_points=15,
                                    random_state=0).fit(X, y)  # fmt: skip
    again = GaussianProcessClassifier(C(1.0) * RBF(1.0), inducing_points=15,
                                      random_state=0).fit(X, y)  # fmt: skip
    np.testing.assert_array_equal(few.inducing_points_, again.inducing_points_)
    assert few.log_marginal_likelihood_value_ > few.log_marginal_likelihood(
        np.log([1.0, 1.0])
    )  # the optimiser moved the hyperparameters up the approximate evidence
    assert few.score(X, y) > 0.8
