"""Decomposable structure scores (issue 13): LL, AIC, BIC, K2 and BDeu from family counts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import DAG, family_score, fit_parameters, score

DATA = pd.read_csv(Path(__file__).parent / "data" / "asia_2000.csv.gz", dtype=str)
STATES = {c: ["yes", "no"] for c in DATA}
TRUE = [("asia", "tub"), ("smoke", "lung"), ("smoke", "bronc"), ("lung", "either"),
        ("tub", "either"), ("either", "xray"), ("bronc", "dysp"), ("either", "dysp")]  # fmt: skip
OTHER = [("smoke", "lung"), ("lung", "bronc"), ("bronc", "dysp"), ("dysp", "xray"),
         ("asia", "xray"), ("tub", "either"), ("lung", "either")]  # fmt: skip

# pgmpy 1.1.2 (pgmpy.structure_score: BIC, K2, BDeu(equivalent_sample_size=5), AIC,
# LogLikelihood, state_names given) on data/asia_2000.csv.gz (2,000 rows sampled from asia
# with seed 0), computed once in benchmarks/.venv-peers and written here
PGMPY = {
    "true": {"bic": -4541.119016866618, "k2": -4538.525550542143, "bdeu": -4539.955864494784,
             "aic": -4490.71089473074, "ll": -4472.71089473074},
    "other": {"bic": -4946.6656917524615, "k2": -4943.083288063408, "bdeu": -4947.191402528924,
              "aic": -4899.058020846353, "ll": -4882.058020846353},
    "empty": {"bic": -5935.290115669694, "k2": -5938.718942190459, "bdeu": -5950.008696042835,
              "aic": -5912.886505831526, "ll": -5904.886505831526},
}  # fmt: skip


@pytest.mark.parametrize("graph", list(PGMPY))
@pytest.mark.parametrize("kind", ["bic", "k2", "bdeu", "aic", "ll"])
def test_scores_equal_pgmpys(graph, kind):
    edges = {"true": TRUE, "other": OTHER, "empty": []}[graph]
    dag = DAG(nodes=list(DATA.columns), edges=edges)
    got = score(dag, DATA, kind, ess=5.0, states=STATES)
    assert got == pytest.approx(PGMPY[graph][kind], abs=1e-8)


def test_the_true_structure_scores_best():
    dags = [DAG(nodes=list(DATA.columns), edges=e) for e in (TRUE, OTHER, [])]
    for kind in ("bic", "k2", "bdeu", "aic"):
        values = [score(d, DATA, kind, states=STATES) for d in dags]
        assert values[0] == max(values)


def test_seed_definitions_eqs_7_28_to_7_31():
    # s(B | D) = f |B| - LL(B | D) to minimise; here its negative, in nats, at the MLE
    dag = DAG(nodes=list(DATA.columns), edges=TRUE)
    fit = fit_parameters(dag, DATA, estimator="mle", states=STATES)
    ll = fit.network.log_likelihood(DATA)  # Eq. 7.29 at the empirical estimates (Eq. 7.32)
    size = fit.network.n_parameters  # |B|
    m = len(DATA)
    assert score(dag, DATA, "ll", states=STATES) == pytest.approx(ll, rel=1e-12)
    assert -score(dag, DATA, "aic", states=STATES) == pytest.approx(size - ll, rel=1e-12)
    bic = np.log(m) / 2 * size - ll
    assert -score(dag, DATA, "bic", states=STATES) == pytest.approx(bic, rel=1e-12)


def test_family_terms_by_hand():
    # Counts n[j, k] (parent state j, node state k) = [[3, 1], [0, 4]], 8 rows. The literals
    # were computed once with exact fractions, as products of Gamma ratios
    # Gamma(a + N) / Gamma(a) = a (a + 1) ... (a + N - 1), not with log-gamma:
    # LL = log(3/4)^3 (1/4) = log(27/256); BIC = LL - (2 free parameters / 2) log 8 = log(27/2048);
    # K2 = prod_j Gamma(2)/Gamma(N_j + 2) prod_k N_jk! = (3! 1! / 5!) (0! 4! / 5!) = 1/100;
    # BDeu, ess 2 (a_jk = 1/2, a_j = 1) = (1/4!)(5/2 3/2 1/2)(1/2) (1/4!)(7/2 5/2 3/2 1/2)
    # = 175/16384; BDeu with ess 4 (a_jk = 1) is K2's 1/100.
    n = np.array([[3.0, 1.0], [0.0, 4.0]])
    assert family_score(n, "ll", n_rows=8) == pytest.approx(-2.2493405784752336, abs=1e-12)
    assert family_score(n, "aic", n_rows=8) == pytest.approx(-4.249340578475234, abs=1e-12)
    assert family_score(n, "bic", n_rows=8) == pytest.approx(-4.328782120155069, abs=1e-12)
    assert family_score(n, "k2", n_rows=8) == pytest.approx(-4.605170185988091, abs=1e-12)
    bdeu4, bdeu2 = (family_score(n, "bdeu", n_rows=8, ess=e) for e in (4.0, 2.0))
    assert bdeu4 == pytest.approx(-4.605170185988091, abs=1e-12)
    assert bdeu2 == pytest.approx(-4.53927455391572, abs=1e-12)


def test_network_scores_of_a_tiny_data_set_by_hand():
    # a -> b on 8 rows with the family counts above; a alone has counts (4, 4). By the same exact
    # fractions: K2 = (4! 4! / 9!) (1/100) = 1/63000; BDeu, ess 2 (a: a_k = 1, b: a_jk = 1/2)
    # = (1/630) (175/16384) = 5/294912; LL = log(27/256) + 8 log(1/2); BIC = LL - (3/2) log 8
    data = pd.DataFrame({"a": list("xxxxyyyy"), "b": list("uuuvvvvv")})
    states = {"a": ["x", "y"], "b": ["u", "v"]}
    dag = DAG(nodes=["a", "b"], edges=[("a", "b")])
    expected = {
        "ll": -7.7945180229547955,
        "aic": -10.794518022954795,
        "bic": -10.913680335474549,
        "k2": -11.05089000537367,
        "bdeu": -10.984994373301298,
    }
    for kind, value in expected.items():
        got = score(dag, data, kind, ess=2.0, states=states)
        assert got == pytest.approx(value, abs=1e-12), kind


def test_bad_score_arguments():
    dag = DAG(nodes=["a"])
    with pytest.raises(ValueError, match="score must be one of"):
        score(dag, pd.DataFrame({"a": ["x"]}), "mdl2")
    with pytest.raises(ValueError, match="ess must be a finite number > 0"):
        family_score(np.ones((2, 2)), "bdeu", n_rows=4, ess=0.0)
