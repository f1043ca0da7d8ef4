"""Tests for the reject option (Chow's rule) in bayeskit.decision.

Zhou ch. 7, eqs. 7.1-7.6: abstaining is an extra action whose risk is the threshold.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from bayeskit.decision import bayes_decision, conditional_risk, empirical_risk, reject_mask

MEDICAL_COST = np.array([[0.0, 10.0], [1.0, 0.0]])


@st.composite
def posteriors(draw):
    k = draw(st.integers(2, 5))
    n = draw(st.integers(1, 8))
    raw = draw(arrays(np.float64, (n, k), elements=st.floats(0.0, 1.0, allow_subnormal=False)))
    raw[raw.sum(axis=1) == 0] = 1.0
    return raw / raw.sum(axis=1, keepdims=True)


thresholds = st.floats(-0.5, 1.5, allow_nan=False, allow_subnormal=False)


# ---------------------------------------------------------------------------------------------
# reject_mask
# ---------------------------------------------------------------------------------------------


def test_reject_mask_is_strictly_greater_than_threshold():
    mask = reject_mask(np.array([0.1, 0.3, 0.30000001, 0.9]), 0.3)
    assert mask.tolist() == [False, False, True, True]


def test_reject_mask_keeps_shape():
    assert reject_mask(np.array([[0.5, 0.1], [0.2, 0.7]]), 0.4).tolist() == [
        [True, False],
        [False, True],
    ]


def test_reject_mask_accepts_negative_threshold():
    assert reject_mask([-2.0, -0.5, 0.0], -1.0).tolist() == [False, True, True]


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_reject_mask_non_finite_threshold_is_value_error(bad):
    with pytest.raises(ValueError, match="threshold must be a finite real number"):
        reject_mask([0.1], bad)


@pytest.mark.parametrize("bad", ["0.5", None, True, [0.5]])
def test_reject_mask_non_number_threshold_is_type_error(bad):
    with pytest.raises(TypeError, match="threshold must be a finite real number"):
        reject_mask([0.1], bad)


# ---------------------------------------------------------------------------------------------
# bayes_decision with reject_threshold
# ---------------------------------------------------------------------------------------------


def test_reject_with_cost_abstains_exactly_when_min_risk_exceeds_threshold():
    # risks by eq. 7.1 with MEDICAL_COST, P = (P(healthy), P(sick)):
    #   (0.99, 0.01): R = (0.10, 0.99) -> min 0.10 -> decide 0
    #   (0.70, 0.30): R = (3.00, 0.70) -> min 0.70 -> reject at t = 0.5
    #   (0.95, 0.05): R = (0.50, 0.95) -> min 0.50 == t -> decide 0 (strict comparison)
    #   (0.20, 0.80): R = (8.00, 0.20) -> min 0.20 -> decide 1
    proba = np.array([[0.99, 0.01], [0.7, 0.3], [0.95, 0.05], [0.2, 0.8]])
    risk_min = conditional_risk(proba, MEDICAL_COST).min(axis=1)
    np.testing.assert_allclose(risk_min, [0.1, 0.7, 0.5, 0.2], atol=1e-12)
    t = float(risk_min[2])  # exactly the third sample's least risk
    assert bayes_decision(proba, MEDICAL_COST, reject_threshold=t).tolist() == [0, -1, 0, 1]


@given(posteriors(), thresholds, st.data())
def test_reject_iff_min_risk_exceeds_threshold_property(proba, t, data):
    k = proba.shape[1]
    cost = data.draw(
        arrays(np.float64, (k, k), elements=st.floats(0.0, 5.0, allow_subnormal=False))
    )
    assume(not np.array_equal(cost, 1.0 - np.eye(k)))  # the 0/1 case has its own test
    risk = conditional_risk(proba, cost)
    out = bayes_decision(proba, cost, reject_threshold=t)
    rejected = risk.min(axis=1) > t
    np.testing.assert_array_equal(out == -1, rejected)
    np.testing.assert_array_equal(out[~rejected], risk.argmin(axis=1)[~rejected])


def test_zero_one_reject_abstains_when_max_posterior_below_one_minus_t():
    # t = 0.3: keep a decision only when max P(c | x) >= 0.7
    proba = np.array([[0.9, 0.05, 0.05], [0.5, 0.3, 0.2], [0.2, 0.75, 0.05], [0.4, 0.4, 0.2]])
    assert bayes_decision(proba, reject_threshold=0.3).tolist() == [0, -1, 1, -1]


@given(posteriors(), st.floats(0.0, 1.0, allow_subnormal=False))
def test_zero_one_reject_matches_chow_rule_property(proba, t):
    top = proba.max(axis=1)
    assume(np.all(np.abs(top - (1.0 - t)) > 1e-9))  # away from the boundary's rounding
    out = bayes_decision(proba, reject_threshold=t)
    np.testing.assert_array_equal(out == -1, top < 1.0 - t)
    np.testing.assert_array_equal(out[out != -1], proba.argmax(axis=1)[out != -1])


@given(posteriors())
def test_zero_one_threshold_at_least_one_minus_one_over_k_never_rejects(proba):
    k = proba.shape[1]
    t = 1.0 - 1.0 / k
    assert (bayes_decision(proba, reject_threshold=t) != -1).all()


@given(posteriors())
def test_negative_threshold_rejects_everything_under_zero_one_loss(proba):
    assert (bayes_decision(proba, reject_threshold=-1e-9) == -1).all()


def test_reject_threshold_none_never_rejects():
    proba = np.array([[0.34, 0.33, 0.33]])
    assert bayes_decision(proba).tolist() == [0]


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_reject_threshold_must_be_finite(bad):
    with pytest.raises(ValueError, match="reject_threshold must be a finite real number, got"):
        bayes_decision([[0.6, 0.4]], reject_threshold=bad)


def test_reject_threshold_must_be_a_number():
    with pytest.raises(TypeError, match="reject_threshold must be a finite real number, got '0.2'"):
        bayes_decision([[0.6, 0.4]], reject_threshold="0.2")


@given(posteriors(), st.floats(0.0, 1.0, allow_subnormal=False))
def test_rejecting_never_raises_expected_risk(proba, d):
    # With abstention as an action of risk d, each sample's expected cost under the decision is
    # min(min_i R(c_i | x), d), never more than without the reject option.
    k = proba.shape[1]
    cost = 1.0 - np.eye(k)
    risk = conditional_risk(proba, cost)
    out = bayes_decision(proba, cost, reject_threshold=d)
    charged = np.where(out == -1, d, risk[np.arange(len(out)), np.maximum(out, 0)])
    plain = risk[np.arange(len(out)), bayes_decision(proba, cost)]
    assert (charged <= plain + 1e-12).all()


def test_reject_threshold_equal_to_reject_cost_lowers_empirical_risk():
    # Truths and posteriors chosen by hand: the uncertain middle sample is wrong under MAP.
    proba = np.array([[0.9, 0.1], [0.55, 0.45], [0.2, 0.8]])
    y_true = [0, 1, 1]
    d = 0.3
    plain = bayes_decision(proba)  # [0, 0, 1]: one error -> 1/3
    abstain = bayes_decision(proba, reject_threshold=d)  # [0, -1, 1]: one rejection -> 0.3/3
    assert plain.tolist() == [0, 0, 1]
    assert abstain.tolist() == [0, -1, 1]
    assert empirical_risk(y_true, plain, None) == pytest.approx(1.0 / 3)
    assert empirical_risk(y_true, abstain, None, reject_cost=d) == pytest.approx(0.1)
