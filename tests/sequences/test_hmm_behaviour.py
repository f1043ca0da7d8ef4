"""Hidden Markov models: Baum-Welch's guarantees, options and the handling of bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

import bayeskit
from bayeskit import _compiled
from bayeskit.sequences import HiddenMarkovModel, forward_backward


def gaussian_truth(covariance_type="diag", seed=0):
    model = HiddenMarkovModel(3, covariance_type=covariance_type, random_state=seed)
    model.startprob_ = np.array([0.6, 0.3, 0.1])
    model.transmat_ = np.array([[0.8, 0.15, 0.05], [0.1, 0.8, 0.1], [0.2, 0.1, 0.7]])
    model.means_ = np.array([[0.0, 0.0], [3.0, 3.0], [-3.0, 2.0]])
    full = np.array(
        [[[1.0, 0.3], [0.3, 1.0]], [[0.5, 0.0], [0.0, 2.0]], [[1.5, -0.4], [-0.4, 1.0]]]
    )
    model.covars_ = {
        "diag": np.array([[1.0, 1.0], [0.5, 2.0], [1.5, 1.0]]),
        "spherical": np.array([1.0, 0.7, 1.2]),
        "full": full,
        "tied": full[0],
    }[covariance_type]
    return model


def draw(model, lengths, seed=1):
    parts = [model.sample(n, random_state=seed + k) for k, n in enumerate(lengths)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def never_decreases(objective):
    o = np.asarray(objective)
    return bool(np.all(np.diff(o) >= -1e-9 * np.abs(o[:-1]).clip(min=1.0)))


@pytest.mark.parametrize("covariance_type", ["diag", "spherical", "full", "tied"])
def test_gaussian_em_objective_never_decreases(covariance_type):
    truth = gaussian_truth(covariance_type)
    X, _ = draw(truth, [80, 50, 1, 120])
    model = HiddenMarkovModel(
        3, covariance_type=covariance_type, n_iter=30, tol=0.0, random_state=3,
        means_weight=0.5, covars_weight=4.0, transmat_prior=1.5, startprob_prior=2.0,
    ).fit(X, [80, 50, 1, 120])  # fmt: skip
    assert len(model.objective_) == 30
    assert never_decreases(model.objective_)


def test_categorical_and_poisson_em_objective_never_decreases():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 5, size=(300, 1))
    cat = HiddenMarkovModel(
        3, emission="categorical", n_iter=25, tol=0.0, random_state=0, emissionprob_prior=1.3
    ).fit(codes, [100, 200])
    assert never_decreases(cat.objective_)
    counts = rng.poisson(4.0, size=(300, 2)).astype(float)
    poi = HiddenMarkovModel(
        2, emission="poisson", n_iter=25, tol=0.0, random_state=0, lambdas_prior=1.0,
        lambdas_weight=0.5,
    ).fit(counts)  # fmt: skip
    assert never_decreases(poi.objective_)


def test_gaussian_fit_recovers_well_separated_states():
    truth = gaussian_truth("full")
    X, z = draw(truth, [500, 500])
    model = HiddenMarkovModel(3, covariance_type="full", n_iter=100, random_state=0, n_init=2)
    model.fit(X, [500, 500])
    order = [int(np.argmin(np.linalg.norm(model.means_ - m, axis=1))) for m in truth.means_]
    assert sorted(order) == [0, 1, 2]
    np.testing.assert_allclose(model.means_[order], truth.means_, atol=0.25)
    np.testing.assert_allclose(model.transmat_[np.ix_(order, order)], truth.transmat_, atol=0.08)
    relabel = np.argsort(order)
    assert np.mean(relabel[model.predict(X, [500, 500])] == z) > 0.95


def test_log_and_scaling_give_the_same_fit_step():
    truth = gaussian_truth("diag")
    X, _ = draw(truth, [60, 40])
    a = truth.score_samples(X, [60, 40])
    b = clone(truth).set_params(implementation="log")
    for name in ("startprob_", "transmat_", "means_", "covars_"):
        setattr(b, name, getattr(truth, name))
    c = b.score_samples(X, [60, 40])
    assert a[0] == pytest.approx(c[0], rel=1e-12)
    np.testing.assert_allclose(a[1], c[1], atol=1e-12)


def test_scaling_falls_back_to_log_space_where_scaled_rows_underflow():
    # State 1 explains every step far better, but the chain cannot leave state 0: each scaled
    # row is exp(-800) = 0, so the scaled pass fails and the sequence is redone in log space.
    frame = np.column_stack([np.full(5, -800.0), np.zeros(5)])
    fb = forward_backward([1.0, 0.0], np.eye(2), frame, [2, 3])
    np.testing.assert_allclose(fb.log_likelihood, [-1600.0, -2400.0])
    np.testing.assert_allclose(fb.posteriors, np.column_stack([np.ones(5), np.zeros(5)]))
    logged = forward_backward([1.0, 0.0], np.eye(2), frame, [2, 3], implementation="log")
    np.testing.assert_allclose(logged.log_likelihood, fb.log_likelihood)


def test_threads_give_the_answers_of_one_thread(monkeypatch):
    truth = gaussian_truth("diag")
    lengths = [30] * 40 + [0, 1]
    X, _ = draw(truth, lengths)
    one = truth.score_samples(X, lengths)
    monkeypatch.setattr(_compiled, "PARALLEL_MIN_WORK", 0)
    with bayeskit.num_threads(2):
        two = truth.score_samples(X, lengths)
        _, path2 = truth.decode(X, lengths)
    assert one[0] == pytest.approx(two[0], rel=1e-13)
    np.testing.assert_array_equal(one[1], two[1])  # each sequence is computed the same way
    np.testing.assert_array_equal(truth.decode(X, lengths)[1], path2)


def test_zero_transitions_stay_zero_even_with_a_prior():
    truth = gaussian_truth("diag")
    truth.transmat_ = np.array([[0.9, 0.1, 0.0], [0.0, 0.9, 0.1], [0.1, 0.0, 0.9]])
    X, _ = draw(truth, [300])
    model = HiddenMarkovModel(3, init_params="mc", transmat_prior=3.0, n_iter=20, random_state=0)
    model.startprob_ = np.full(3, 1 / 3)
    model.transmat_ = truth.transmat_.copy()
    model.fit(X)
    assert np.all(model.transmat_[truth.transmat_ == 0] == 0)
    np.testing.assert_allclose(model.transmat_.sum(axis=1), 1.0)


def test_params_leaves_frozen_parameters_untouched():
    truth = gaussian_truth("diag")
    X, _ = draw(truth, [200])
    model = HiddenMarkovModel(3, init_params="", params="tm", n_iter=5)
    for name in ("startprob_", "transmat_", "means_", "covars_"):
        setattr(model, name, getattr(truth, name).copy())
    model.fit(X)
    np.testing.assert_array_equal(model.startprob_, truth.startprob_)
    np.testing.assert_array_equal(model.covars_, truth.covars_)
    assert not np.array_equal(model.means_, truth.means_)


def test_semi_supervised_known_states_are_respected():
    truth = gaussian_truth("diag")
    X, z = draw(truth, [300])
    known = np.where(np.arange(300) % 3 == 0, z, -1)
    model = HiddenMarkovModel(3, n_iter=50, random_state=0).fit(X, states=known)
    # labels are anchored: the states keep the truth's numbering, no permutation needed
    np.testing.assert_allclose(model.means_, truth.means_, atol=0.4)


def test_long_frame_with_sequence_column_equals_lengths():
    truth = gaussian_truth("diag")
    X, _ = draw(truth, [20, 30])
    frame = pd.DataFrame(X, columns=["a", "b"]).assign(seq=["s1"] * 20 + ["s2"] * 30)
    by_column = clone(truth).set_params(sequence_column="seq")
    for name in ("startprob_", "transmat_", "means_", "covars_"):
        setattr(by_column, name, getattr(truth, name))
    assert by_column.score(frame) == pytest.approx(truth.score(X, [20, 30]), rel=1e-14)
    shuffled = frame.iloc[np.r_[0:10, 20:30, 10:20, 30:50]]
    with pytest.raises(ValueError, match="'s1'.*not consecutive"):
        by_column.score(shuffled)


def test_missing_observations_are_marginalised():
    truth = gaussian_truth("diag")
    X, _ = draw(truth, [40])
    holes = X.copy()
    holes[5] = np.nan  # a whole step missing
    holes[9, 1] = np.nan  # one feature missing
    # the whole-row gap is the same as an emission of probability 1 at that step
    a = truth.score(holes)
    frame = truth._emission().log_likelihood(
        {"means_": truth.means_, "covars_": truth.covars_}, holes
    )
    assert frame[5].tolist() == [0.0, 0.0, 0.0]
    assert np.isfinite(a)
    # one feature missing: the density of the other feature alone
    one = truth._emission().log_likelihood(
        {"means_": truth.means_[:, :1], "covars_": truth.covars_[:, :1]}, X[9:10, :1]
    )
    np.testing.assert_allclose(frame[9], one[0])
    fitted = HiddenMarkovModel(3, n_iter=10, random_state=0).fit(holes)
    assert np.all(np.isfinite(fitted.means_))
    everything_missing = np.full((10, 2), np.nan)
    assert truth.score(everything_missing) == pytest.approx(0.0, abs=1e-12)  # P(nothing) = 1
    np.testing.assert_allclose(
        truth.predict_proba(everything_missing)[-1],
        truth.startprob_ @ np.linalg.matrix_power(truth.transmat_, 9),
    )


def test_sequences_of_length_zero_and_one():
    truth = gaussian_truth("diag")
    X, _ = draw(truth, [1, 5])
    assert truth.score(X[:0], [0]) == 0.0
    assert truth.score(X, [1, 0, 5]) == pytest.approx(truth.score(X, [1, 5]))
    model = HiddenMarkovModel(3, n_iter=3, random_state=0).fit(X[:1])  # one step, no transition
    assert np.all(np.isfinite(model.transmat_))
    np.testing.assert_allclose(model.transmat_.sum(axis=1), 1.0)


def test_a_state_no_sequence_visits_stays_defined():
    X = np.r_[np.zeros(30), np.full(30, 10.0)][:, None]
    model = HiddenMarkovModel(3, init_params="", n_iter=20)
    model.startprob_ = np.array([0.5, 0.5, 0.0])
    model.transmat_ = np.array([[0.9, 0.1, 0.0], [0.1, 0.9, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    model.means_ = np.array([[0.0], [10.0], [1000.0]])
    model.covars_ = np.ones((3, 1))
    model.fit(X)
    for name in ("startprob_", "transmat_", "means_", "covars_"):
        assert np.all(np.isfinite(getattr(model, name))), name
    np.testing.assert_array_equal(model.transmat_[2], [1 / 3, 1 / 3, 1 / 3])  # kept, no evidence
    assert model.means_[2, 0] == 1000.0


def test_unseen_symbol_is_a_clear_error():
    model = HiddenMarkovModel(2, emission="categorical", random_state=0).fit([[0], [1], [2], [1]])
    with pytest.raises(ValueError, match=r"symbol code 5 was not among the 3 symbols"):
        model.score([[0], [5]])
    # Declared but never seen: probability 0 by maximum likelihood, positive under a prior.
    wider = HiddenMarkovModel(2, emission="categorical", n_features=6, random_state=0)
    assert wider.fit([[0], [1], [2], [1]]).emissionprob_.shape == (2, 6)
    assert wider.score([[0], [5]]) == -np.inf
    smoothed = wider.set_params(emissionprob_prior=2.0).fit([[0], [1], [2], [1]])
    assert np.isfinite(smoothed.score([[0], [5]]))


@pytest.mark.parametrize(
    ("name", "value", "match"),
    [
        ("transmat_", np.array([[0.9, 0.2], [0.5, 0.5]]), "transmat_ rows must sum to 1; row 0"),
        ("startprob_", np.array([0.5, 0.6]), "startprob_ rows must sum to 1"),
        ("transmat_", np.eye(3), r"transmat_ must have shape \(2, 2\)"),
        ("covars_", np.array([[1.0], [-1.0]]), "covars_ must be positive"),
    ],
)
def test_bad_hand_set_parameters_are_refused(name, value, match):
    model = HiddenMarkovModel(2)
    model.startprob_, model.transmat_ = np.array([0.5, 0.5]), np.full((2, 2), 0.5)
    model.means_, model.covars_ = np.zeros((2, 1)), np.ones((2, 1))
    setattr(model, name, value)
    with pytest.raises(ValueError, match=match):
        model.score([[0.0], [1.0]])


@pytest.mark.parametrize(
    ("settings", "X", "match"),
    [
        ({"n_states": 0}, [[0.0]], "n_states must be a positive integer"),
        ({"emission": "weibull"}, [[0.0]], "emission must be one of"),
        ({"covariance_type": "banded"}, [[0.0]], "covariance_type must be one of"),
        ({"init_params": "stx"}, [[0.0]], "init_params letters must be among 'stmc', got 'x'"),
        ({"emission": "categorical"}, [[0.5]], "symbol codes must be whole numbers"),
        ({"emission": "poisson"}, [[-1.0]], "Poisson observations must be non-negative"),
        ({"covariance_type": "full"}, [[0.0, np.nan], [1.0, 2.0]], "row 0 is partly missing"),
        ({}, [[np.inf]], "observations must be finite"),
    ],
)
def test_bad_settings_and_data_are_refused(settings, X, match):
    with pytest.raises(ValueError, match=match):
        HiddenMarkovModel(**settings).fit(np.array(X))


def test_lengths_must_add_up():
    with pytest.raises(ValueError, match="lengths add up to 3 but the data has 4 rows"):
        HiddenMarkovModel(2).fit(np.zeros((4, 1)), [1, 2])


def test_an_impossible_sequence_names_itself():
    model = HiddenMarkovModel(2, emission="categorical", init_params="", n_iter=2)
    model.startprob_ = np.array([1.0, 0.0])
    model.transmat_ = np.eye(2)
    model.emissionprob_ = np.array([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="sequence 1 has probability 0"):
        model.fit([[0], [0], [1]], [2, 1])
    assert model.score([[1]]) == -np.inf


def test_model_choice_and_stationary_distribution():
    truth = gaussian_truth("diag")
    X, _ = draw(truth, [400])
    bics = {
        n: HiddenMarkovModel(n, n_iter=50, random_state=0, n_init=2).fit(X).bic(X) for n in (1, 3)
    }
    assert bics[3] < bics[1]
    pi = truth.get_stationary_distribution()
    np.testing.assert_allclose(pi @ truth.transmat_, pi, atol=1e-12)
    assert truth.n_parameters() == 2 + 6 + 6 + 6
