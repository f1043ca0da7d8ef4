"""The registry of table estimators: one list of names, each estimator against a hand count."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from bayeskit.estimate import (
    ESTIMATORS,
    SMOOTHINGS,
    get_estimator,
    hierarchical_dirichlet,
    lidstone,
    lidstone_equivalent,
    log_probabilities,
    m_estimate,
    table_log_prior,
)

# a family table: parent with 2 configurations (rows), child with 3 states (columns)
TABLE = np.array([[2.0, 0.0, 1.0], [0.0, 4.0, 0.0]])


def _by_hand(table: np.ndarray, pseudo: Fraction) -> np.ndarray:
    """(n_jk + pseudo) / (n_j + r pseudo), cell by cell, in exact fractions."""
    out = np.empty(table.shape)
    for j, row in enumerate(table):
        total = sum(Fraction(int(n)) for n in row) + len(row) * pseudo
        for k, n in enumerate(row):
            out[j, k] = float((Fraction(int(n)) + pseudo) / total)
    return out


def test_one_list_of_names():
    assert SMOOTHINGS == tuple(ESTIMATORS)
    assert {"mle", "lidstone", "laplace", "m-estimate", "dirichlet-map", "bdeu", "k2"} <= set(
        SMOOTHINGS
    )
    assert {"lidstone-where-zero", "hierarchical", "hierarchical-gibbs"} <= set(SMOOTHINGS)
    for name, estimator in ESTIMATORS.items():
        assert estimator.name == name
        assert get_estimator(name) is estimator


@pytest.mark.parametrize("bad", ["kneser-ney", "BDeu", None, 3])
def test_unknown_name_lists_every_choice(bad):
    with pytest.raises(ValueError, match="smoothing must be one of 'mle', 'lidstone'") as info:
        get_estimator(bad)
    assert all(repr(name) in str(info.value) for name in SMOOTHINGS)
    with pytest.raises(ValueError, match="estimator must be one of"):
        get_estimator(bad, "estimator")
    with pytest.raises(ValueError, match="smoothing must be one of"):
        log_probabilities(TABLE, bad)


def test_unordered_parents_are_not_offered_the_hierarchical_ones():
    with pytest.raises(ValueError, match="smoothing must be one of") as info:
        get_estimator("hierarchical", ordered_parents=False)
    offered = str(info.value).split(", got")[0]
    assert "'hierarchical" not in offered
    assert "'bdeu'" in offered
    assert get_estimator("bdeu", ordered_parents=False).name == "bdeu"


def test_an_em_is_offered_the_fixed_priors_only():
    with pytest.raises(ValueError, match="estimator must be one of") as info:
        get_estimator("lidstone-where-zero", "estimator", fixed_prior=True)
    offered = str(info.value).split(", got")[0]
    assert "'lidstone-where-zero'" not in offered
    assert "'hierarchical" not in offered
    for name in ("mle", "lidstone", "laplace", "m-estimate", "dirichlet-map", "bdeu", "k2"):
        assert get_estimator(name, fixed_prior=True).fixed_prior


def test_bdeu_with_ess_six_on_two_by_three_is_one_pseudo_count_per_cell():
    # q = 2 parent configurations, r = 3 states: 6 / (2 x 3) = 1 per cell
    got = get_estimator("bdeu").probabilities(TABLE, 6.0)
    np.testing.assert_allclose(got, _by_hand(TABLE, Fraction(1)), rtol=1e-15)
    # (2 + 1) / (3 + 3) = 1/2; (4 + 1) / (4 + 3) = 5/7
    assert got[0, 0] == pytest.approx(0.5)
    assert got[1, 1] == pytest.approx(5 / 7)


def test_bdeu_spreads_the_sample_size_over_the_family():
    # ess 2 on the same table: 2 / 6 = 1/3 per cell; on one distribution of 3 states, 2/3
    np.testing.assert_allclose(
        get_estimator("bdeu").probabilities(TABLE, 2.0), _by_hand(TABLE, Fraction(1, 3))
    )
    np.testing.assert_allclose(
        get_estimator("bdeu").probabilities(TABLE[0], 2.0), _by_hand(TABLE[:1], Fraction(2, 3))[0]
    )


def test_bdeu_of_a_batch_is_bdeu_of_each_table():
    stacked = np.stack([TABLE, TABLE[::-1] * 3])
    got = log_probabilities(stacked, "bdeu", 6.0, batch_axes=1)
    for table, one in zip(stacked, got, strict=True):
        np.testing.assert_allclose(one, log_probabilities(table, "bdeu", 6.0))
    # taken as one table of 4 parent configurations, each cell gets 6 / 12 instead
    np.testing.assert_allclose(
        np.exp(log_probabilities(stacked, "bdeu", 6.0)[0]), _by_hand(TABLE, Fraction(1, 2))
    )


def test_bdeu_equals_the_network_cpts_for_the_same_counts():
    from bayeskit.networks import fit_parameters

    # one row per count of TABLE: parent 'a' in {0, 1}, child 'b' in {0, 1, 2}
    rows = [(j, k) for j in range(2) for k in range(3) for _ in range(int(TABLE[j, k]))]
    data = pd.DataFrame(rows, columns=["a", "b"])
    states = {"a": [0, 1], "b": [0, 1, 2]}
    for ess in (6.0, 2.0, 0.5):
        net = fit_parameters([("a", "b")], data, estimator="bdeu", alpha=ess, states=states)
        np.testing.assert_allclose(
            net.network.cpt("b"), get_estimator("bdeu").probabilities(TABLE, ess), rtol=1e-15
        )


def test_k2_is_one_pseudo_count_per_cell_whatever_alpha():
    for alpha in (0.0, 1.0, 7.0):
        got = get_estimator("k2").probabilities(TABLE, alpha)
        np.testing.assert_allclose(got, _by_hand(TABLE, Fraction(1)), rtol=1e-15)
    # (0 + 1) / (4 + 3) = 1/7
    assert got[1, 0] == pytest.approx(1 / 7)
    np.testing.assert_array_equal(got, get_estimator("laplace").probabilities(TABLE, 7.0))


def test_laplace_is_zhou_7_20_whatever_alpha():
    # Zhou, Machine Learning, 7.3, Eq. 7.20: (3 + 1) / (8 + 3)
    got = get_estimator("laplace").probabilities(np.array([3.0, 5.0, 0.0]), 0.0)
    assert got[0] == pytest.approx(4 / 11)


def test_mle_ignores_alpha_and_an_empty_configuration_is_uniform():
    got = get_estimator("mle").probabilities(TABLE, 5.0)
    np.testing.assert_allclose(got, _by_hand(TABLE, Fraction(0)))
    np.testing.assert_allclose(get_estimator("mle").probabilities(np.zeros((1, 4))), 0.25)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("lidstone", lambda t, a: lidstone(t, a)),
        ("m-estimate", lambda t, a: m_estimate(t, a)),
        ("hierarchical", lambda t, a: hierarchical_dirichlet(t, a)),
    ],
)
def test_today_names_give_today_tables(name, expected):
    for alpha in (0.5, 2.0):
        np.testing.assert_array_equal(log_probabilities(TABLE, name, alpha), expected(TABLE, alpha))


def test_lidstone_equivalents():
    assert lidstone_equivalent("lidstone", 0.5, 3) == 0.5
    assert lidstone_equivalent("m-estimate", 6.0, 3) == 2.0
    assert lidstone_equivalent("dirichlet-map", 2.5, 3) == 1.5
    assert lidstone_equivalent("mle", 2.5, 3) == 0.0
    assert lidstone_equivalent("laplace", 2.5, 3) == lidstone_equivalent("k2", 2.5, 3) == 1.0
    assert lidstone_equivalent("bdeu", 6.0, 3, n_parent_configs=2) == 1.0
    assert lidstone_equivalent("bdeu", 6.0, 3) == 2.0
    assert lidstone_equivalent("hierarchical", 0.7, 3) == 0.7
    # each additive estimator is Lidstone with its equivalent
    for name in ("mle", "lidstone", "laplace", "m-estimate", "dirichlet-map", "bdeu", "k2"):
        pseudo = lidstone_equivalent(name, 3.0, 3, n_parent_configs=2)
        np.testing.assert_allclose(
            log_probabilities(TABLE, name, 3.0), lidstone(TABLE, pseudo), atol=1e-15
        )


def test_table_log_prior_is_the_pseudo_count_times_the_log_table():
    log_table = lidstone(TABLE, 1.0)
    total = float(log_table.sum())
    assert table_log_prior([log_table], "lidstone", 2.0) == pytest.approx(2.0 * total)
    assert table_log_prior([log_table], "k2", 2.0) == pytest.approx(total)
    assert table_log_prior([log_table], "bdeu", 12.0) == pytest.approx(2.0 * total)
    assert table_log_prior([log_table], "mle", 2.0) == 0.0
    assert table_log_prior([log_table], "hierarchical", 2.0) == 0.0
    assert table_log_prior([log_table], "lidstone-where-zero", 2.0) == 0.0


def test_alpha_checks_name_the_argument():
    with pytest.raises(ValueError, match="smoothing='dirichlet-map' needs alpha >= 1, got 0.5"):
        get_estimator("dirichlet-map").check_alpha(0.5)
    with pytest.raises(ValueError, match="estimator='bdeu' needs alpha > 0 .*equivalent sample"):
        get_estimator("bdeu").check_alpha(0, "estimator")
    get_estimator("bdeu").check_alpha(0.1)
    get_estimator("lidstone").check_alpha(0)


def test_hierarchical_needs_the_child_last():
    with pytest.raises(ValueError, match="child on the last axis"):
        log_probabilities(TABLE, "hierarchical", 1.0, axis=0)


@pytest.mark.parametrize("name", SMOOTHINGS)
def test_every_estimator_gives_distributions(name):
    alpha = 2.0
    p = get_estimator(name).probabilities(TABLE, alpha)
    assert p.shape == TABLE.shape
    np.testing.assert_allclose(p.sum(axis=-1), 1.0)
    assert not np.isnan(p).any()
