"""Hidden Markov models against published figures, exact fractions and hmmlearn's answers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bayeskit.sequences import HiddenMarkovModel, forward_backward, viterbi

REFERENCE = json.loads((Path(__file__).parent / "data" / "hmmlearn_reference.json").read_text())


def rainy_sunny(implementation="scaling"):
    model = HiddenMarkovModel(2, emission="categorical", implementation=implementation)
    model.startprob_ = np.array([0.6, 0.4])
    model.transmat_ = np.array([[0.7, 0.3], [0.4, 0.6]])
    model.emissionprob_ = np.array([[0.1, 0.4, 0.5], [0.6, 0.3, 0.1]])
    return model


def exact_posteriors(start, trans, emit, obs):
    """Forward and backward passes in rational arithmetic: P(x) and the posteriors."""
    n = len(start)
    alpha = [[start[j] * emit[j][obs[0]] for j in range(n)]]
    for x in obs[1:]:
        alpha.append(
            [sum(alpha[-1][i] * trans[i][j] for i in range(n)) * emit[j][x] for j in range(n)]
        )
    beta = [[Fraction(1)] * n]
    for x in reversed(obs[1:]):
        beta.insert(
            0, [sum(trans[i][j] * emit[j][x] * beta[0][j] for j in range(n)) for i in range(n)]
        )
    forward = sum(alpha[-1])
    backward = sum(start[j] * emit[j][obs[0]] * beta[0][j] for j in range(n))
    return (
        forward,
        backward,
        [
            [a * b / forward for a, b in zip(al, be, strict=False)]
            for al, be in zip(alpha, beta, strict=False)
        ],
    )


@pytest.mark.parametrize("implementation", ["scaling", "log"])
def test_wikipedia_rainy_sunny(implementation):
    """Wikipedia's rainy/sunny model, observations walk, shop, clean."""
    model = rainy_sunny(implementation)
    log_prob, path = model.decode([[0], [1], [2]])
    assert path.tolist() == [1, 0, 0]
    assert np.exp(log_prob) == pytest.approx(0.01344, abs=1e-12)
    post = model.predict_proba([[0], [1], [2]])
    # The figures as published (8 decimals; they agree with the exact values to 1e-7).
    published = [[0.23170303, 0.76829697], [0.62406281, 0.37593719], [0.86397706, 0.13602294]]
    np.testing.assert_allclose(post, published, atol=1e-6)
    F = Fraction
    _, _, exact = exact_posteriors(
        [F(6, 10), F(4, 10)],
        [[F(7, 10), F(3, 10)], [F(4, 10), F(6, 10)]],
        [[F(1, 10), F(4, 10), F(5, 10)], [F(6, 10), F(3, 10), F(1, 10)]],
        [0, 1, 2],
    )
    np.testing.assert_allclose(post, np.array(exact, dtype=float), rtol=0, atol=1e-14)


@pytest.mark.parametrize("implementation", ["scaling", "log"])
def test_exact_fraction_example(implementation):
    """Uniform start, A = [[1/3, 2/3], [3/4, 1/4]], emissions over {+, 0, -}; x = + - 0."""
    F = Fraction
    start, trans = [F(1, 2), F(1, 2)], [[F(1, 3), F(2, 3)], [F(3, 4), F(1, 4)]]
    emit = [[F(1, 4), F(1, 2), F(1, 4)], [F(1, 3), F(1, 3), F(1, 3)]]
    obs = [0, 2, 1]  # + = 0, 0 = 1, - = 2
    forward, backward, exact = exact_posteriors(start, trans, emit, obs)
    assert forward == backward == F(61, 1728)
    fb = forward_backward(
        np.array(start, float),
        np.array(trans, float),
        np.log(np.array(emit, float)[:, obs].T),
        implementation=implementation,
    )
    assert np.exp(fb.log_likelihood[0]) * 1728 == pytest.approx(61, rel=1e-14)
    np.testing.assert_allclose(fb.posteriors, np.array(exact, dtype=float), rtol=1e-14)
    # the expected transitions of each step sum to 1, and their row sums are the posteriors
    assert fb.transitions.sum() == pytest.approx(2.0, rel=1e-14)
    np.testing.assert_allclose(
        fb.transitions.sum(axis=1), fb.posteriors[:-1].sum(axis=0), rtol=1e-14
    )


def _reference_model(case, implementation):
    model = HiddenMarkovModel(
        len(case["startprob_"]),
        emission=case["emission"],
        covariance_type=case["covariance_type"] or "diag",
        implementation=implementation,
    )
    model.startprob_ = np.array(case["startprob_"])
    model.transmat_ = np.array(case["transmat_"])
    for name, value in case["params"].items():
        setattr(model, name, np.array(value))
    return model


@pytest.mark.parametrize("implementation", ["scaling", "log"])
@pytest.mark.parametrize(
    "case", REFERENCE["cases"], ids=lambda c: f"{c['emission']}-{c['covariance_type']}"
)
def test_equal_to_hmmlearn(case, implementation):
    """Log-likelihood, posteriors, Viterbi path and its probability as hmmlearn 0.3.3 gives
    them, on random models with three sequences (one of length 1)."""
    model = _reference_model(case, implementation)
    X, lengths = np.array(case["X"]), case["lengths"]
    log_prob, post = model.score_samples(X, lengths)
    assert log_prob == pytest.approx(case["log_prob"], rel=1e-10, abs=1e-8)
    np.testing.assert_allclose(post, case["posteriors"], rtol=0, atol=1e-8)
    vit_prob, path = model.decode(X, lengths)
    assert vit_prob == pytest.approx(case["viterbi_log_prob"], rel=1e-10, abs=1e-8)
    assert path.tolist() == case["viterbi_path"]


def test_viterbi_wikipedia_fever():
    """Wikipedia's "Viterbi algorithm" example: healthy, healthy, fever with P = 0.01512."""
    emit = np.array([[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]])
    log_prob, path = viterbi([0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]], np.log(emit.T))
    assert path.tolist() == [0, 0, 1]
    assert np.exp(log_prob[0]) == pytest.approx(0.01512, rel=1e-12)


def test_dishonest_casino_recovered_from_30000_rolls():
    """Durbin et al. (*Biological Sequence Analysis*, 3.2): a fair die and a loaded one."""
    truth = HiddenMarkovModel(2, emission="categorical", random_state=7)
    truth.startprob_ = np.array([0.5, 0.5])
    truth.transmat_ = np.array([[0.95, 0.05], [0.10, 0.90]])
    truth.emissionprob_ = np.vstack([np.full(6, 1 / 6), [0.1] * 5 + [0.5]])
    rolls, _ = truth.sample(30_000)
    model = HiddenMarkovModel(
        2, emission="categorical", n_iter=300, tol=1e-4, n_init=2, random_state=0
    ).fit(rolls)
    order = np.argsort(model.emissionprob_[:, 5])  # fair first
    np.testing.assert_allclose(model.transmat_[np.ix_(order, order)], truth.transmat_, atol=0.03)
    np.testing.assert_allclose(model.emissionprob_[order], truth.emissionprob_, atol=0.03)
    assert model.score(rolls) >= truth.score(rolls) - 1e-6 * abs(truth.score(rolls))
