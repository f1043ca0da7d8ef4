"""Tests for bayeskit.decision.risk: costs, conditional risk, Bayes decisions, empirical risk.

Worked figures follow Zhou ch. 7, section 7.1 (eqs. 7.1-7.6).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from bayeskit.decision import (
    bayes_decision,
    conditional_risk,
    cost_matrix,
    empirical_risk,
    zero_one_cost,
)
from bayeskit.exceptions import CostMatrixError

# Medical two-class example: class 0 = healthy, class 1 = sick. cost[i, j] = cost of predicting
# i when the truth is j: a missed disease (predict healthy, truth sick) costs 10, a false alarm 1.
MEDICAL_COST = np.array([[0.0, 10.0], [1.0, 0.0]])


# ---------------------------------------------------------------------------------------------
# hypothesis strategies
# ---------------------------------------------------------------------------------------------


@st.composite
def posteriors(draw, n_classes=None):
    k = draw(st.integers(1, 5)) if n_classes is None else n_classes
    n = draw(st.integers(1, 8))
    raw = draw(arrays(np.float64, (n, k), elements=st.floats(0.0, 1.0, allow_subnormal=False)))
    raw[raw.sum(axis=1) == 0] = 1.0  # rows of zeros become uniform
    return raw / raw.sum(axis=1, keepdims=True)


@st.composite
def posteriors_and_costs(draw):
    proba = draw(posteriors())
    k = proba.shape[1]
    cost = draw(
        arrays(
            np.float64,
            (k, k),
            elements=st.floats(-10.0, 10.0, allow_nan=False, allow_subnormal=False),
        )
    )
    return proba, cost


# ---------------------------------------------------------------------------------------------
# zero_one_cost and cost_matrix
# ---------------------------------------------------------------------------------------------


def test_zero_one_cost_is_one_minus_identity():
    # Zhou eq. 7.4: lambda_ij = 0 if i == j else 1
    expected = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    out = zero_one_cost(3)
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == np.float64


@pytest.mark.parametrize("bad", [0, -2, 2.0, True, "3"])
def test_zero_one_cost_rejects_non_positive_or_non_integer(bad):
    with pytest.raises(ValueError, match="n_classes must be an integer >= 1"):
        zero_one_cost(bad)


def test_cost_matrix_none_is_zero_one_loss():
    np.testing.assert_array_equal(cost_matrix(None, ["a", "b"]), [[0.0, 1.0], [1.0, 0.0]])


def test_cost_matrix_array_is_float64_copy_in_given_order():
    given_cost = [[0, 2, 3], [4, 0, 6], [7, 8, 0]]
    out = cost_matrix(given_cost, ["x", "y", "z"])
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [[0.0, 2.0, 3.0], [4.0, 0.0, 6.0], [7.0, 8.0, 0.0]])


def test_cost_matrix_does_not_modify_or_alias_input_array():
    original = np.array([[0.0, 5.0], [1.0, 0.0]])
    snapshot = original.copy()
    out = cost_matrix(original, [0, 1])
    out[0, 1] = 99.0
    np.testing.assert_array_equal(original, snapshot)


def test_cost_matrix_dataframe_is_reordered_to_classes():
    # index = predicted, columns = true; given in a different order from classes
    df = pd.DataFrame(
        [[0.0, 10.0, 3.0], [1.0, 0.0, 2.0], [4.0, 5.0, 0.0]],
        index=["healthy", "sick", "unsure"],
        columns=["healthy", "sick", "unsure"],
    )
    df = df.loc[["unsure", "healthy", "sick"], ["sick", "unsure", "healthy"]]
    out = cost_matrix(df, ["healthy", "sick", "unsure"])
    expected = np.array([[0.0, 10.0, 3.0], [1.0, 0.0, 2.0], [4.0, 5.0, 0.0]])
    np.testing.assert_array_equal(out, expected)


def test_cost_matrix_dataframe_is_not_modified():
    df = pd.DataFrame([[0, 1], [2, 0]], index=["b", "a"], columns=["b", "a"])
    snapshot = df.copy()
    cost_matrix(df, ["a", "b"])
    pd.testing.assert_frame_equal(df, snapshot)


def test_cost_matrix_dict_is_reordered_to_classes():
    cost = {
        "sick": {"healthy": 1, "sick": 0},
        "healthy": {"sick": 10, "healthy": 0},
    }
    out = cost_matrix(cost, ["healthy", "sick"])
    np.testing.assert_array_equal(out, [[0.0, 10.0], [1.0, 0.0]])


def test_cost_matrix_dict_with_integer_labels_matches_numpy_classes():
    cost = {1: {0: 3, 1: 0}, 0: {0: 0, 1: 7}}
    out = cost_matrix(cost, np.array([0, 1]))
    np.testing.assert_array_equal(out, [[0.0, 7.0], [3.0, 0.0]])


def test_cost_matrix_allows_negative_costs():
    # a gain of 2 for a correct decision is a negative cost
    out = cost_matrix([[-2.0, 1.0], [1.0, -2.0]], [0, 1])
    np.testing.assert_array_equal(out, [[-2.0, 1.0], [1.0, -2.0]])


def test_cost_matrix_wrong_shape_names_expected_and_given_shape():
    with pytest.raises(
        CostMatrixError, match=r"cost matrix must have shape \(3, 3\) for 3 classes, got \(2, 3\)"
    ):
        cost_matrix([[0, 1, 1], [1, 0, 1]], ["a", "b", "c"])


def test_cost_matrix_scalar_is_a_shape_error():
    with pytest.raises(CostMatrixError, match=r"must have shape \(2, 2\) for 2 classes, got \(\)"):
        cost_matrix(1.0, ["a", "b"])


def test_cost_matrix_ragged_rows_are_refused():
    with pytest.raises(CostMatrixError, match="cost must be a rectangular 2-D array-like"):
        cost_matrix([[0, 1], [1]], ["a", "b"])


@pytest.mark.parametrize(("bad", "shown"), [(np.nan, "nan"), (np.inf, "inf"), (-np.inf, "-inf")])
def test_cost_matrix_non_finite_entry_is_named(bad, shown):
    cost = [[0.0, 1.0], [bad, 0.0]]
    with pytest.raises(
        CostMatrixError,
        match=rf"cost matrix must be finite, got {shown} at entry \[1, 0\] "
        r"\(predicted 'b', true 'a'\)",
    ):
        cost_matrix(cost, ["a", "b"])


def test_cost_matrix_nan_in_dataframe_is_refused():
    df = pd.DataFrame([[0.0, np.nan], [1.0, 0.0]], index=["a", "b"], columns=["a", "b"])
    with pytest.raises(CostMatrixError, match=r"must be finite, got nan .*predicted 'a', true 'b'"):
        cost_matrix(df, ["a", "b"])


def test_cost_matrix_string_array_is_non_numeric():
    with pytest.raises(CostMatrixError, match="cost matrix must hold real numbers, got dtype <U1"):
        cost_matrix([["0", "1"], ["1", "0"]], ["a", "b"])


def test_cost_matrix_bool_array_is_non_numeric():
    with pytest.raises(CostMatrixError, match="must hold real numbers, got dtype bool"):
        cost_matrix([[False, True], [True, False]], ["a", "b"])


def test_cost_matrix_string_in_dict_is_non_numeric():
    cost = {"a": {"a": 0, "b": "high"}, "b": {"a": 1, "b": 0}}
    with pytest.raises(CostMatrixError, match=r"must hold real numbers, got 'high' at \[0, 1\]"):
        cost_matrix(cost, ["a", "b"])


def test_cost_matrix_string_column_in_dataframe_is_non_numeric():
    df = pd.DataFrame({"a": [0, 1], "b": ["x", "0"]}, index=["a", "b"])
    with pytest.raises(
        CostMatrixError, match=r"must hold real numbers, got dtype (object|str) in column 'b'"
    ):
        cost_matrix(df, ["a", "b"])


def test_cost_matrix_dataframe_unknown_label_is_named():
    df = pd.DataFrame([[0, 1], [1, 0]], index=["a", "zebra"], columns=["a", "b"])
    with pytest.raises(
        CostMatrixError,
        match=r"index \(predicted classes\) must hold exactly the classes \('a', 'b'\), "
        r"got labels not among classes: 'zebra'; missing classes: 'b'",
    ):
        cost_matrix(df, ["a", "b"])


def test_cost_matrix_dataframe_missing_column_is_named():
    df = pd.DataFrame([[0], [1]], index=["a", "b"], columns=["a"])
    with pytest.raises(CostMatrixError, match=r"columns \(true classes\) .*missing classes: 'b'"):
        cost_matrix(df, ["a", "b"])


def test_cost_matrix_dataframe_extra_label_is_named():
    df = pd.DataFrame(np.zeros((3, 2)), index=["a", "b", "c"], columns=["a", "b"])
    with pytest.raises(CostMatrixError, match=r"labels not among classes: 'c'"):
        cost_matrix(df, ["a", "b"])


def test_cost_matrix_dict_unknown_true_label_is_named():
    cost = {"a": {"a": 0, "b": 1}, "b": {"a": 1, "q": 0}}
    with pytest.raises(
        CostMatrixError,
        match=r"row 'b' keys \(true classes\) .*not among classes: 'q'; missing classes: 'b'",
    ):
        cost_matrix(cost, ["a", "b"])


def test_cost_matrix_dict_missing_predicted_class_is_named():
    with pytest.raises(CostMatrixError, match=r"keys \(predicted classes\) .*missing classes: 'b'"):
        cost_matrix({"a": {"a": 0, "b": 1}}, ["a", "b"])


def test_cost_matrix_dict_rows_must_be_dicts():
    with pytest.raises(CostMatrixError, match=r"got \[0, 1\] for predicted class 'a'"):
        cost_matrix({"a": [0, 1], "b": {"a": 1, "b": 0}}, ["a", "b"])


def test_cost_matrix_repeated_classes_are_refused():
    with pytest.raises(CostMatrixError, match="classes must be distinct, got repeated labels: 'a'"):
        cost_matrix(None, ["a", "b", "a"])


# ---------------------------------------------------------------------------------------------
# conditional_risk
# ---------------------------------------------------------------------------------------------


def test_conditional_risk_of_known_matrix():
    # Zhou eq. 7.1, R(c_i | x) = sum_j lambda_ij P(c_j | x), worked by hand:
    # row 0: R0 = 0*.5 + 2*.3 + 4*.2 = 1.4; R1 = 1*.5 + 0*.3 + 3*.2 = 1.1; R2 = 5*.5 + 1*.3 = 2.8
    # row 1: R0 = 2*.1 + 4*.1 = 0.6; R1 = 1*.8 + 3*.1 = 1.1; R2 = 5*.8 + 1*.1 = 4.1
    cost = np.array([[0.0, 2.0, 4.0], [1.0, 0.0, 3.0], [5.0, 1.0, 0.0]])
    proba = np.array([[0.5, 0.3, 0.2], [0.8, 0.1, 0.1]])
    expected = np.array([[1.4, 1.1, 2.8], [0.6, 1.1, 4.1]])
    np.testing.assert_allclose(conditional_risk(proba, cost), expected, rtol=0, atol=1e-12)


def test_conditional_risk_under_zero_one_loss_is_one_minus_posterior():
    # Zhou eq. 7.5
    proba = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
    np.testing.assert_allclose(conditional_risk(proba, zero_one_cost(3)), 1.0 - proba, atol=1e-12)


def test_conditional_risk_does_not_modify_inputs():
    proba = np.array([[0.7, 0.3], [0.4, 0.6]])
    cost = MEDICAL_COST.copy()
    conditional_risk(proba, cost)
    np.testing.assert_array_equal(proba, [[0.7, 0.3], [0.4, 0.6]])
    np.testing.assert_array_equal(cost, MEDICAL_COST)


def test_conditional_risk_refuses_non_square_cost():
    with pytest.raises(CostMatrixError, match=r"must be square .* got \(2, 3\)"):
        conditional_risk([[0.5, 0.5]], np.zeros((2, 3)))


# ---------------------------------------------------------------------------------------------
# bayes_decision
# ---------------------------------------------------------------------------------------------


@given(posteriors())
def test_bayes_decision_with_zero_one_loss_is_argmax(proba):
    # Zhou eq. 7.6: under 0/1 loss the Bayes rule is the MAP rule
    np.testing.assert_array_equal(bayes_decision(proba), proba.argmax(axis=1))


@given(posteriors())
def test_explicit_zero_one_cost_equals_default(proba):
    k = proba.shape[1]
    np.testing.assert_array_equal(bayes_decision(proba, zero_one_cost(k)), bayes_decision(proba))


def test_bayes_decision_returns_int64():
    out = bayes_decision(np.array([[0.1, 0.9]]), MEDICAL_COST)
    assert out.dtype == np.int64


def test_asymmetric_cost_changes_the_decision_medical_example():
    # P(healthy | x) = 0.7, P(sick | x) = 0.3. MAP (eq. 7.6) says healthy. With a missed
    # disease costing 10 and a false alarm 1 (eq. 7.1):
    #   R(healthy | x) = 0 * 0.7 + 10 * 0.3 = 3.0
    #   R(sick | x)    = 1 * 0.7 +  0 * 0.3 = 0.7
    # so the minimum-risk decision (eq. 7.3) is sick.
    proba = np.array([[0.7, 0.3]])
    assert bayes_decision(proba).tolist() == [0]
    assert bayes_decision(proba, MEDICAL_COST).tolist() == [1]
    np.testing.assert_allclose(conditional_risk(proba, MEDICAL_COST), [[3.0, 0.7]])


def test_asymmetric_cost_decision_boundary_moves_to_one_eleventh():
    # R(healthy) = 10 p < R(sick) = 1 - p  <=>  p < 1/11, with p = P(sick | x)
    proba = np.array([[0.95, 0.05], [0.92, 0.08], [0.90, 0.10], [0.5, 0.5]])
    assert bayes_decision(proba, MEDICAL_COST).tolist() == [0, 0, 1, 1]


def test_labelled_cost_from_cost_matrix_drives_decision():
    cost = cost_matrix(
        {"sick": {"sick": 0, "healthy": 1}, "healthy": {"sick": 10, "healthy": 0}},
        classes=["healthy", "sick"],
    )
    assert bayes_decision([[0.7, 0.3]], cost).tolist() == [1]


def test_negative_costs_are_handled():
    # gains on the diagonal: R0 = -5*.4 + 1*.6 = -1.4, R1 = 1*.4 - 1*.6 = -0.2 -> class 0
    cost = np.array([[-5.0, 1.0], [1.0, -1.0]])
    assert bayes_decision([[0.4, 0.6]], cost).tolist() == [0]


def test_ties_go_to_lowest_class_index():
    # equal posteriors under 0/1 loss, and exactly equal risks under a general cost:
    # R0 = 3 * 0.25 = 0.75, R1 = 1 * 0.75 = 0.75, R2 = 2 * 1.0 = 2.0
    assert bayes_decision([[0.25, 0.5, 0.25, 0.5]]).tolist() == [1]
    cost = np.array([[0.0, 3.0, 2.0], [1.0, 0.0, 2.0], [2.0, 2.0, 0.0]])
    assert bayes_decision([[0.75, 0.25, 0.0]], cost).tolist() == [0]


def test_bayes_decision_does_not_modify_inputs():
    proba = np.array([[0.7, 0.3], [0.2, 0.8]])
    cost = MEDICAL_COST.copy()
    bayes_decision(proba, cost, reject_threshold=0.5)
    np.testing.assert_array_equal(proba, [[0.7, 0.3], [0.2, 0.8]])
    np.testing.assert_array_equal(cost, MEDICAL_COST)


@settings(max_examples=200)
@given(posteriors_and_costs())
def test_decision_risk_is_at_most_every_other_action_risk(case):
    # Zhou eq. 7.3: the decision minimises the conditional risk of eq. 7.1
    proba, cost = case
    risk = conditional_risk(proba, cost)
    chosen = risk[np.arange(len(proba)), bayes_decision(proba, cost)]
    # An explicit 0/1 cost is decided by argmax P (eq. 7.6) rather than from these summed risks,
    # which may differ from 1 - P by rounding; allow for that, nothing more.
    assert (chosen[:, None] <= risk + 1e-12).all()


def test_proba_must_be_2d():
    with pytest.raises(
        ValueError, match=r"proba must be 2-D .* got shape \(2,\).*reshape\(1, -1\)"
    ):
        bayes_decision([0.7, 0.3])


def test_proba_columns_must_match_cost():
    with pytest.raises(
        ValueError,
        match=r"proba must have 2 columns to match the \(2, 2\) cost matrix, got shape \(1, 3\)",
    ):
        bayes_decision([[0.2, 0.3, 0.5]], MEDICAL_COST)


def test_proba_must_be_finite():
    with pytest.raises(ValueError, match=r"proba must be finite, got \[0.5, nan\] in row 1"):
        bayes_decision([[0.5, 0.5], [0.5, np.nan]])


def test_bayes_decision_refuses_labelled_cost():
    df = pd.DataFrame(MEDICAL_COST, index=["h", "s"], columns=["h", "s"])
    with pytest.raises(CostMatrixError, match=r"cost_matrix\(cost, classes\) first"):
        bayes_decision([[0.7, 0.3]], df)


# ---------------------------------------------------------------------------------------------
# empirical_risk
# ---------------------------------------------------------------------------------------------


def test_empirical_risk_is_mean_cost_of_predicted_given_true():
    # costs charged: cost[0, 1] = 10 (missed disease), cost[1, 0] = 1 (false alarm), 0, 0
    y_true = [1, 0, 0, 1]
    y_pred = [0, 1, 0, 1]
    assert empirical_risk(y_true, y_pred, MEDICAL_COST) == pytest.approx(11.0 / 4)


def test_empirical_risk_with_zero_one_loss_is_error_rate():
    y_true = np.array([0, 1, 2, 2, 1])
    y_pred = np.array([0, 2, 2, 1, 1])
    assert empirical_risk(y_true, y_pred, None) == pytest.approx(0.4)
    assert empirical_risk(y_true, y_pred, zero_one_cost(3)) == pytest.approx(0.4)


def test_empirical_risk_charges_reject_cost_for_rejections():
    # 10 (missed) + 0 (correct) + 0.5 + 0.5 (two rejections) over 4 samples
    y_true = [1, 1, 0, 1]
    y_pred = [0, 1, -1, -1]
    assert empirical_risk(y_true, y_pred, MEDICAL_COST, reject_cost=0.5) == pytest.approx(2.75)


def test_empirical_risk_with_weights_is_weighted_mean():
    # losses 10, 1, 0 with weights 1, 3, 6: (10 + 3) / 10
    y_true = [1, 0, 1]
    y_pred = [0, 1, 1]
    out = empirical_risk(y_true, y_pred, MEDICAL_COST, sample_weight=[1.0, 3.0, 6.0])
    assert out == pytest.approx(1.3)


def test_empirical_risk_with_rejects_and_weights():
    # losses 10, 0.5 (rejected), 0 with weights 2, 2, 1: (20 + 1) / 5
    out = empirical_risk(
        [1, 0, 0], [0, -1, 0], MEDICAL_COST, reject_cost=0.5, sample_weight=[2, 2, 1]
    )
    assert out == pytest.approx(4.2)


def test_integer_weights_equal_duplicated_rows():
    y_true = [1, 0, 1]
    y_pred = [0, 1, 1]
    weighted = empirical_risk(y_true, y_pred, MEDICAL_COST, sample_weight=[2, 1, 3])
    duplicated = empirical_risk([1, 1, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1], MEDICAL_COST)
    assert weighted == pytest.approx(duplicated)


def test_empirical_risk_rejects_without_reject_cost_is_an_error():
    with pytest.raises(ValueError, match=r"y_pred holds 2 rejection\(s\) \(-1\) but reject_cost"):
        empirical_risk([0, 1, 1], [-1, 1, -1], MEDICAL_COST)


def test_empirical_risk_index_out_of_range_is_an_error():
    with pytest.raises(
        ValueError, match=r"y_pred must hold class indices in \[0, 2\) or -1.*got 2"
    ):
        empirical_risk([0, 1], [2, 1], MEDICAL_COST)
    with pytest.raises(ValueError, match=r"y_true must hold class indices in \[0, 2\), got -1"):
        empirical_risk([-1, 1], [0, 1], MEDICAL_COST)


def test_empirical_risk_lengths_must_match():
    with pytest.raises(ValueError, match="same length, got 2 and 3"):
        empirical_risk([0, 1], [0, 1, 1], MEDICAL_COST)


def test_empirical_risk_labels_must_be_integers():
    with pytest.raises(
        ValueError, match="y_true must hold integer class indices, got dtype float64"
    ):
        empirical_risk([0.0, 1.0], [0, 1], MEDICAL_COST)


@pytest.mark.parametrize(
    ("weights", "pattern"),
    [
        ([1.0, -1.0], "finite and >= 0, got -1.0"),
        ([1.0, np.nan], "finite and >= 0, got nan"),
        ([0.0, 0.0], "positive sum"),
        ([1.0], r"shape \(2,\), got \(1,\)"),
    ],
)
def test_empirical_risk_bad_weights_are_errors(weights, pattern):
    with pytest.raises(ValueError, match=pattern):
        empirical_risk([0, 1], [0, 1], MEDICAL_COST, sample_weight=weights)


def test_empirical_risk_does_not_modify_inputs():
    y_true = np.array([1, 0, 0])
    y_pred = np.array([0, -1, 0])
    w = np.array([2.0, 2.0, 1.0])
    empirical_risk(y_true, y_pred, MEDICAL_COST, reject_cost=0.5, sample_weight=w)
    np.testing.assert_array_equal(y_true, [1, 0, 0])
    np.testing.assert_array_equal(y_pred, [0, -1, 0])
    np.testing.assert_array_equal(w, [2.0, 2.0, 1.0])


def test_empirical_risk_of_no_samples_is_an_error():
    with pytest.raises(ValueError, match="y_true must hold at least one sample, got 0"):
        empirical_risk([], [], MEDICAL_COST)
