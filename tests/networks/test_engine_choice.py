"""ExactInference, the default engine: choosing variable elimination or the junction tree per
query changes no answer, the tree is compiled only when queries need it, and the choice follows
the estimated costs.

Each answer is checked against VariableElimination and JunctionTree alone, under the choice the
costs make and under each engine forced, on the networks in ``data/`` (and water from the
standard collection when ``$BAYESKIT_NETWORKS`` names its folder), for single queries, joint
and separate posteriors of several nodes, P(e), batches with missing values and batches whose
patterns go to different engines.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.inference import exact as exact_module
from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    ExactInference,
    InferenceTooLarge,
    JunctionTree,
    VariableElimination,
    ZeroProbabilityEvidence,
    read_bif,
)

TOL = 1e-12
DATA = Path(__file__).parent / "data"
# the standard collection's folder, where $BAYESKIT_NETWORKS names one (as for test_bif.py)
COLLECTION = Path(os.environ.get("BAYESKIT_NETWORKS") or "missing-collection")
LARGE = ("water",)  # cliques large enough that variable elimination often wins
CHOICES = ("auto", "always-tree", "never-tree")


def _paths() -> list:
    out = [pytest.param(p, id=p.name.split(".")[0]) for p in sorted(DATA.glob("*.bif.gz"))]
    out += [
        pytest.param(COLLECTION / f"{name}.bif.gz", id=name)
        for name in LARGE
        if (COLLECTION / f"{name}.bif.gz").is_file()
    ]
    return out


@pytest.fixture(scope="module", params=_paths())
def engines(request):
    net = read_bif(request.param)
    return net, VariableElimination(net), JunctionTree(net)


def _exact(net, choice: str, monkeypatch) -> ExactInference:
    """An ExactInference whose tree is compiled, choosing by the costs or always / never the
    tree."""
    exact = ExactInference(net)
    exact.junction_tree  # noqa: B018 - compile it now: the choice is then made per query
    if choice != "auto":
        monkeypatch.setattr(exact, "_use_tree", lambda *a, **k: choice == "always-tree")
    return exact


def _shapes(net, n: int, seed: int) -> list[tuple[list[str], dict[str, str]]]:
    """Queries of 1-3 targets and 0-5 observed nodes at states sampled from the network."""
    rng = np.random.default_rng(seed)
    rows = net.sample(n, seed=seed)
    nodes = list(net.nodes)
    out = []
    for k in range(n):
        chosen = [str(v) for v in rng.choice(nodes, size=min(len(nodes), 8), replace=False)]
        n_targets, n_observed = int(rng.integers(1, 4)), int(rng.integers(0, 6))
        targets = chosen[:n_targets]
        observed = chosen[n_targets : n_targets + n_observed]
        out.append((targets, {v: str(rows.iloc[k][v]) for v in observed}))
    return out


@pytest.mark.parametrize("choice", CHOICES)
def test_queries_agree_with_each_engine_alone(engines, choice, monkeypatch):
    net, ve, jt = engines
    exact = _exact(net, choice, monkeypatch)
    for targets, evidence in _shapes(net, 8, seed=3):
        for t in targets:  # one node: the junction tree's own answer too
            got = exact.query(t, evidence).values
            np.testing.assert_allclose(got, jt.query(t, evidence).values, atol=TOL)
            np.testing.assert_allclose(got, ve.query(t, evidence).values, atol=TOL)
        joint = exact.query(targets, evidence)
        np.testing.assert_allclose(joint.values, ve.query(targets, evidence).values, atol=TOL)
        apart = exact.query(targets, evidence, joint=False)
        want = ve.query(targets, evidence, joint=False)
        assert list(apart) == list(want)
        for node in want:
            np.testing.assert_allclose(apart[node].values, want[node].values, atol=TOL)
        if evidence:
            log_pe = exact.probability_of_evidence(evidence, log=True)
            assert log_pe == pytest.approx(ve.probability_of_evidence(evidence, log=True), abs=1e-9)
            assert log_pe == pytest.approx(jt.probability_of_evidence(evidence, log=True), abs=1e-9)


def _batch(net, target: str, n: int, seed: int) -> pd.DataFrame:
    """Rows sampled from the network, ``target`` dropped, most values removed (so the rows
    observe many different sets of nodes)."""
    rows = net.sample(n, seed=seed).drop(columns=[target]).astype(object)
    return rows.mask(np.random.default_rng(seed).random(rows.shape) < 0.8)


@pytest.mark.parametrize("choice", [*CHOICES, "by-pattern"])
def test_batches_agree_with_each_engine_alone(engines, choice, monkeypatch):
    net, ve, jt = engines
    if choice == "by-pattern":  # patterns split between the engines: the rows put back in order
        exact = _exact(net, "auto", monkeypatch)
        by_parity = lambda groups, observed, codes: len(observed) % 2 == 0  # noqa: E731
        monkeypatch.setattr(exact, "_use_tree", by_parity)
        monkeypatch.setattr(exact_module, "_JT_CALL", np.inf)  # no batch all by the tree
    else:
        exact = _exact(net, choice, monkeypatch)
    targets = [str(v) for v in list(net.nodes)[:2]]
    for target in targets:
        evidence = _batch(net, target, 40, seed=5)
        got = exact.query_batch(target, evidence)
        pd.testing.assert_frame_equal(got, jt.query_batch(target, evidence), atol=TOL, rtol=0)
        pd.testing.assert_frame_equal(got, ve.query_batch(target, evidence), atol=TOL, rtol=0)
    evidence = _batch(net, targets[0], 40, seed=6).drop(columns=[targets[1]])
    got = exact.query_batch(targets, evidence)
    want = ve.query_batch(targets, evidence)
    for node in targets:
        pd.testing.assert_frame_equal(got[node], want[node], atol=TOL, rtol=0)
    joint = exact.query_batch(targets, evidence, joint=True)
    pd.testing.assert_frame_equal(
        joint, ve.query_batch(targets, evidence, joint=True), atol=TOL, rtol=0
    )


def _certain() -> BayesianNetwork:
    """a -> b -> c with b a copy of a: evidence a=x, b=y is impossible."""
    xy = ["x", "y"]
    copy = [[1.0, 0.0], [0.0, 1.0]]
    return BayesianNetwork(
        DAG(edges=[("a", "b"), ("b", "c")]),
        {"a": [0.5, 0.5], "b": copy, "c": [[0.3, 0.7], [0.6, 0.4]]},
        states={"a": xy, "b": xy, "c": xy},
    )


@pytest.mark.parametrize("choice", CHOICES)
def test_impossible_evidence_is_refused_alike(choice, monkeypatch):
    net = _certain()
    exact = _exact(net, choice, monkeypatch)
    with pytest.raises(ZeroProbabilityEvidence):
        exact.query("c", {"a": "x", "b": "y"})
    frame = pd.DataFrame({"a": ["x", "x", "y", None], "b": ["x", "y", "x", "y"]})
    with pytest.raises(ZeroProbabilityEvidence) as caught:
        exact.query_batch("c", frame)
    assert caught.value.rows == [1, 2]
    assert exact.probability_of_evidence({"a": "x", "b": "y"}) == 0.0


def test_the_tree_is_compiled_only_when_queries_need_it(monkeypatch):
    net = read_bif(DATA / "alarm.bif.gz")
    exact = ExactInference(net)
    exact.query("HR", {"CO": "LOW"})
    exact.query_batch("HR", pd.DataFrame({"CO": ["LOW", "HIGH"]}))
    assert exact._tree is None  # a few queries: variable elimination alone
    monkeypatch.setattr(exact_module, "_BUILD_AFTER", 0.0)
    got = exact.query("HR", {"CO": "LOW"})
    assert exact._tree is not None  # worth it now: compiled and used from then on
    np.testing.assert_allclose(got.values, JunctionTree(net).query("HR", {"CO": "LOW"}).values)
    fixed = ExactInference(net, engine="variable-elimination")
    fixed.query("HR", {"CO": "LOW"})
    assert fixed._tree is None


def test_a_tree_beyond_max_cells_leaves_the_queries_to_elimination(monkeypatch):
    net = read_bif(DATA / "alarm.bif.gz")
    cells = JunctionTree(net).n_cells
    with pytest.raises(InferenceTooLarge):
        JunctionTree(net, max_cells=cells - 1)
    monkeypatch.setattr(exact_module, "_BUILD_AFTER", 0.0)
    exact = ExactInference(net, max_cells=cells - 1)
    got = exact.query("HR", {"CO": "LOW"})
    np.testing.assert_allclose(
        got.values, VariableElimination(net).query("HR", {"CO": "LOW"}).values
    )
    assert exact._tree is None
    assert exact._no_tree
    with pytest.raises(InferenceTooLarge):
        ExactInference(net, engine="junction-tree", max_cells=cells - 1).query("HR")


@pytest.mark.parametrize("engine", ["tree", "", None, "ve"])
def test_unknown_engine_is_refused_naming_the_choices(engine):
    with pytest.raises(ValueError, match="engine must be one of .*'auto'.*got"):
        ExactInference(_certain(), engine=engine)


def _picks(exact: ExactInference, seed: int) -> set[bool]:
    """Whether the tree answers each of 20 queries of one target (the choice, not run)."""
    picks = set()
    for targets, evidence in _shapes(exact.network, 20, seed=seed):
        observed, codes = exact._checks.evidence(evidence)
        picks.add(exact._use_tree([(exact._pos[targets[0]],)], observed, codes[None, :]))
    return picks


def test_the_choice_follows_the_costs():
    """On a network of small cliques the tree answers everything; on one of large cliques the
    costs send queries whose plan prunes most of the network to variable elimination."""
    small = ExactInference(read_bif(DATA / "alarm.bif.gz"))
    small.junction_tree  # noqa: B018 - compiled: the choice is made per query
    assert _picks(small, seed=1) == {True}
    path = COLLECTION / "water.bif.gz"
    if not path.is_file():
        pytest.skip(f"{path} is not there")
    large = ExactInference(read_bif(path))
    large.junction_tree  # noqa: B018
    assert False in _picks(large, seed=1)


def test_network_predictions_and_kl_use_the_default_engine():
    net = read_bif(DATA / "asia.bif.gz")
    target = str(net.nodes[0])
    evidence = _batch(net, target, 30, seed=2)
    got = net.predict_proba(evidence, target)
    pd.testing.assert_frame_equal(got, JunctionTree(net).query_batch(target, evidence), atol=TOL,
                                  rtol=0)  # fmt: skip
    assert isinstance(net._exact(), ExactInference)
    assert net.kl_divergence(net) == pytest.approx(0.0, abs=1e-12)
