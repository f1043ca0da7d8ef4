"""Evidence of probability zero: one rule everywhere (user trial, item 8).

Every query refuses evidence of probability zero under the network with
:class:`ZeroProbabilityEvidence` (a ``ValueError``): variable elimination (also when the
impossible part is d-separated from the query), its batches, the junction tree, MAP/MPE, the
three samplers and ``bayeskit network query``; ``probability_of_evidence`` answers 0.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.networks.test_inference import _brute, _joint

from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    GibbsSampler,
    JunctionTree,
    VariableElimination,
    ZeroProbabilityEvidence,
    likelihood_weighting,
    read_bif,
    rejection_sampling,
)

DATA = Path(__file__).parent / "data"
ASIA = read_bif(DATA / "asia.bif.gz")
# either = lung OR tub, deterministically: lung = yes with either = no cannot be
IMPOSSIBLE = {"lung": "yes", "either": "no"}

pytestmark = pytest.mark.filterwarnings(
    "ignore::bayeskit.inference.sampling.DeterministicCPTWarning"
)


def _refused(call) -> ZeroProbabilityEvidence:
    with pytest.raises(ZeroProbabilityEvidence, match="has probability zero") as info:
        call()
    return info.value


# ------------------------------------------------------------------ asia, every method
def test_every_method_refuses_lung_yes_either_no_on_asia():
    ve, jt = VariableElimination(ASIA), JunctionTree(ASIA)
    # the reported case: xray depends on either alone, so lung was pruned before P(e) was seen
    error = _refused(lambda: ve.query("xray", IMPOSSIBLE))
    assert isinstance(error, ValueError)
    assert error.evidence == IMPOSSIBLE
    assert error.rows is None
    assert "{'lung': 'yes', 'either': 'no'}" in str(error)
    for node in ("xray", "dysp", "tub", "asia", "smoke", "bronc"):
        _refused(lambda node=node: ve.query(node, IMPOSSIBLE))
        _refused(lambda node=node: jt.query(node, IMPOSSIBLE))
    _refused(lambda: ve.query(["xray", "bronc"], IMPOSSIBLE))
    _refused(lambda: ve.query(["xray", "bronc"], IMPOSSIBLE, joint=False))
    _refused(lambda: jt.query(["xray", "tub"], IMPOSSIBLE))
    _refused(lambda: jt.calibrate(IMPOSSIBLE))
    _refused(lambda: ve.map_query("xray", IMPOSSIBLE))
    _refused(lambda: ve.map_query(None, IMPOSSIBLE))
    _refused(lambda: likelihood_weighting(ASIA, "xray", IMPOSSIBLE, n_samples=500, seed=0))
    _refused(lambda: rejection_sampling(ASIA, "xray", IMPOSSIBLE, n_samples=500, seed=0))
    _refused(lambda: GibbsSampler(ASIA).query("xray", IMPOSSIBLE, n_draws=10, seed=0))
    # P(e) itself is the one question with an answer
    assert ve.probability_of_evidence(IMPOSSIBLE) == 0.0
    assert jt.probability_of_evidence(IMPOSSIBLE, log=True) == -np.inf
    # the error survives pickling (process pools) with its attributes
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is ZeroProbabilityEvidence
    assert (str(again), again.evidence, again.rows) == (str(error), error.evidence, None)


def test_batches_name_the_impossible_rows():
    ve, jt = VariableElimination(ASIA), JunctionTree(ASIA)
    batch = pd.DataFrame(
        [{"lung": "no", "either": "no"}, IMPOSSIBLE, {"lung": "yes"},
         {"either": "no", "lung": "yes", "smoke": "no"}, {"either": "no"}],
        index=[10, 11, 12, 13, 14],
    )  # fmt: skip
    for call in (
        lambda: ve.query_batch("xray", batch),
        lambda: ve.query_batch(["xray", "bronc"], batch),
        lambda: ve.query_batch(["xray", "bronc"], batch, joint=True),
        lambda: jt.query_batch("xray", batch),
        lambda: jt.query_batch(["xray", "bronc"], batch, log_evidence=True),
    ):
        error = _refused(call)
        assert error.rows == [11, 13]
        assert error.evidence == IMPOSSIBLE
        assert "(row 11) has probability zero" in str(error)
        assert "2 of 5 rows are impossible (rows 11, 13)" in str(error)
    # dropping them, as the message says, answers the rest, and both engines agree
    rest = batch.drop(index=error.rows)
    np.testing.assert_allclose(ve.query_batch("xray", rest), jt.query_batch("xray", rest),
                               atol=1e-12)  # fmt: skip


def test_the_command_line_refuses_it(tmp_path):
    from typer.testing import CliRunner

    from bayeskit.cli import app

    result = CliRunner().invoke(app, ["network", "query", str(DATA / "asia.bif.gz"), "-t",
                                      "xray", "-e", "lung=yes,either=no"])  # fmt: skip
    assert result.exit_code == 1
    assert "has probability zero" in " ".join(result.output.split())


def test_possible_evidence_that_no_sample_meets_is_not_called_impossible():
    # P(b = 1) = 1e-9: possible, but no sample of 1,000 meets it
    net = BayesianNetwork(DAG(edges=[("a", "b")]),
                          {"a": [0.5, 0.5], "b": [[1 - 1e-9, 1e-9], [1 - 1e-9, 1e-9]]},
                          states={"a": ["0", "1"], "b": ["0", "1"]})  # fmt: skip
    with pytest.raises(ValueError, match=r"its probability is 1e-09") as info:
        rejection_sampling(net, "a", {"b": "1"}, n_samples=1000, seed=0)
    assert not isinstance(info.value, ZeroProbabilityEvidence)
    with pytest.raises(ValueError, match="draw more samples"):
        rejection_sampling(net, "a", {"b": "1"}, n_samples=1000, seed=0)
    # likelihood weighting clamps b, so it meets it, as exact inference does
    lw = likelihood_weighting(net, "a", {"b": "1"}, n_samples=1000, seed=0)
    assert lw["a"].values.sum() == pytest.approx(1.0)


def test_pruning_is_kept_where_it_cannot_hide_zero():
    ve = VariableElimination(ASIA)
    pos = {n: i for i, n in enumerate(ASIA.nodes)}

    def pruning(target, evidence):
        observed = tuple(pos[n] for n in evidence)
        used, guard = ve._pruning((pos[target],), observed)
        codes = np.array([ASIA.states(n).index(s) for n, s in evidence.items()])
        safe = all(positive[tuple(codes[list(cols)])] for cols, positive in guard)
        return {ASIA.nodes[v] for v in used}, safe

    # asia is d-separated from bronc by smoke, and no CPT it touches has a zero: dropped
    assert pruning("bronc", {"asia": "yes", "smoke": "yes"}) == ({"smoke"}, True)
    # lung is d-separated from xray by either, but either's CPT (lung's child) is 0 at
    # lung = yes, either = no: that row keeps all its evidence ...
    assert pruning("xray", IMPOSSIBLE) == ({"either"}, False)
    # ... where lung = yes, either = yes cannot meet a zero there: it drops lung
    assert pruning("xray", {"lung": "yes", "either": "yes"}) == ({"either"}, True)
    np.testing.assert_allclose(ve.query("xray", {"lung": "yes", "either": "yes"}).values,
                               ve.query("xray", {"either": "yes"}).values, atol=1e-12)  # fmt: skip


# ------------------------------------------------------------------ property
def _deterministic_network(rng: np.random.Generator, n: int) -> BayesianNetwork:
    """A random network whose CPT rows are often one-hot (entries 0 and 1) or have zeros."""
    nodes = [f"v{i}" for i in range(n)]
    edges = [(nodes[i], nodes[j]) for j in range(n) for i in range(j) if rng.random() < 0.5]
    dag = DAG(nodes=nodes, edges=edges)
    card = {v: int(rng.integers(2, 4)) for v in nodes}
    cpts = {}
    for v in nodes:
        shape = [card[p] for p in dag.parents(v)] + [card[v]]
        rows = rng.dirichlet(np.ones(card[v]), size=int(np.prod(shape[:-1])))
        for r in rows:
            u = rng.random()
            if u < 0.4:  # deterministic
                r[:] = np.eye(card[v])[rng.integers(card[v])]
            elif u < 0.7:  # some zeros
                r[rng.random(card[v]) < 0.4] = 0.0
                if r.sum() == 0:
                    r[rng.integers(card[v])] = 1.0
                r /= r.sum()
        cpts[v] = rows.reshape(shape)
    states = {v: [f"s{k}" for k in range(card[v])] for v in nodes}
    return BayesianNetwork(dag, cpts, states=states)


def _raises_zero(call) -> bool:
    """Whether ``call`` refuses its evidence as impossible; a sampler may also fail to meet
    possible evidence, and say so otherwise."""
    message = ""
    try:
        call()
    except ZeroProbabilityEvidence:
        return True
    except ValueError as error:
        message = str(error)
    assert not message or "draw more samples" in message, message
    return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6))
def test_all_methods_agree_on_impossible_evidence_and_on_the_answer(seed, n):
    rng = np.random.default_rng(seed)
    net = _deterministic_network(rng, n)
    nodes, joint = list(net.nodes), _joint(net)
    ve, jt, gibbs = VariableElimination(net), JunctionTree(net), GibbsSampler(net)
    sets = []
    for _ in range(6):
        k = int(rng.integers(1, n))
        observed = list(rng.choice(nodes, size=k, replace=False))
        sets.append({v: net.states(v)[int(rng.integers(net.cardinality(v)))] for v in observed})
    for evidence in sets:
        free = [v for v in nodes if v not in evidence]
        p_e = _brute(net, joint, [], evidence)[1]
        target = free[int(rng.integers(len(free)))]
        impossible = p_e == 0
        assert (ve.probability_of_evidence(evidence) == 0) == impossible
        assert (jt.probability_of_evidence(evidence) == 0) == impossible
        exact = {
            "ve": lambda t=target, e=evidence: ve.query(t, e),
            "ve marginals": lambda f=free, e=evidence: ve.query(f, e, joint=False),
            "ve joint": lambda f=free, e=evidence: ve.query(f, e),
            "jt": lambda t=target, e=evidence: jt.query(t, e),
            "calibrate": lambda e=evidence: jt.calibrate(e),
            "map": lambda t=target, e=evidence: ve.map_query([t], e),
            "mpe": lambda e=evidence: ve.map_query(None, e),
        }
        sampled = {
            "lw": lambda t=target, e=evidence: likelihood_weighting(net, t, e, n_samples=300,
                                                                    seed=0),
            "rejection": lambda t=target, e=evidence: rejection_sampling(net, t, e,
                                                                         n_samples=300, seed=0),
            "gibbs": lambda t=target, e=evidence: gibbs.query(t, e, n_draws=5, burn_in=2,
                                                              n_chains=2, seed=0),
        }  # fmt: skip
        for name, call in {**exact, **sampled}.items():
            assert _raises_zero(call) == impossible, (name, evidence)
        if impossible:
            for call in exact.values():
                with pytest.raises(ZeroProbabilityEvidence):
                    call()
            continue
        expected = _brute(net, joint, [target], evidence)[0] / p_e
        np.testing.assert_allclose(ve.query(target, evidence).values, expected, atol=1e-12)
        np.testing.assert_allclose(jt.query(target, evidence).values, expected, atol=1e-12)
        np.testing.assert_allclose(jt.calibrate(evidence)[target].values, expected, atol=1e-12)
        marginals = ve.query(free, evidence, joint=False)
        np.testing.assert_allclose(marginals[target].values, expected, atol=1e-12)
        result = ve.map_query([target], evidence)
        assert result.probability == pytest.approx(expected.max(), abs=1e-12)
        assert expected[net.states(target).index(result.assignment[target])] == pytest.approx(
            expected.max(), abs=1e-12
        )
        # the samplers draw only states of positive posterior probability (asked only where
        # 300 samples meet the evidence for certain in practice: P(e) > 0.05 leaves a chance
        # below 1e-6 that none does; rarer evidence is answered 'draw more samples', above)
        if p_e > 0.05:
            for estimate in (
                likelihood_weighting(net, target, evidence, n_samples=300, seed=1)[target],
                rejection_sampling(net, target, evidence, n_samples=300, seed=1)[target],
            ):
                assert (estimate.values[expected == 0] == 0).all()
    # the same evidence sets as one batch: the rows refused are exactly the impossible ones
    target = nodes[-1]
    sets = [{k: v for k, v in e.items() if k != target} for e in sets]
    rows = [f"r{i}" for i, e in enumerate(sets) if _brute(net, joint, [], e)[1] == 0]
    batch = pd.DataFrame(sets, index=[f"r{i}" for i in range(len(sets))], columns=nodes[:-1])
    batch = batch.astype(object).where(batch.notna(), None)
    for call in (lambda: ve.query_batch(target, batch), lambda: jt.query_batch(target, batch)):
        if rows:
            assert _refused(call).rows == rows
        else:
            frame = call()
            assert np.isfinite(frame.to_numpy()).all()
    if not rows:
        np.testing.assert_allclose(ve.query_batch(target, batch), jt.query_batch(target, batch),
                                   atol=1e-12)  # fmt: skip
