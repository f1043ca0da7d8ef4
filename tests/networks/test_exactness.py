"""Exact inference gives one answer: variable elimination, the junction tree and brute-force
enumeration agree to 1e-12 on marginals, joint posteriors and ``log P(e)``.

They can only agree if every method works with the same distribution. Variable elimination
drops barren nodes (a node neither queried nor observed, with no such descendant, sums out to
1), the junction tree and enumeration sum them: the two agree only for rows that sum to 1. So
the network keeps each row divided by its sum, and this is checked on rows that sum to 1 only
within 1e-7 (generated here) and on the standard networks: the copies in ``data/`` always, the
whole bnlearn collection when ``$BAYESKIT_NETWORKS`` names its folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    JunctionTree,
    VariableElimination,
    read_bif,
    write_bif,
)
from bayeskit.networks.network import SUM_TOLERANCE

TOL = 1e-12
DATA = Path(__file__).parent / "data"
# the standard collection's folder, where $BAYESKIT_NETWORKS names one (as for test_bif.py)
COLLECTION = Path(os.environ.get("BAYESKIT_NETWORKS") or "missing-collection")
#: The collection's networks whose junction tree compiles in about a second; the others
#: (barley, diabetes, link, mildew, munin and its parts, pathfinder, pigs) take several seconds
#: each and are left out to keep the run short.
QUICK = ("alarm", "andes", "asia", "cancer", "child", "earthquake", "hailfinder", "hepar2",
         "insurance", "sachs", "survey", "water", "win95pts")  # fmt: skip
#: Enumerate the joint distribution up to this many joint states.
BRUTE_STATES = 1 << 18


def _near_network(seed: int) -> tuple[BayesianNetwork, dict]:
    """A random network of 7 nodes whose CPT rows sum to 1 only within about 1e-7 (as a file
    printing probabilities with seven digits gives them), and the tables as given."""
    rng = np.random.default_rng(seed)
    nodes = [f"v{i}" for i in range(7)]
    edges = [(nodes[i], nodes[j]) for j in range(7) for i in range(j) if rng.random() < 0.4]
    dag = DAG(nodes=nodes, edges=edges)
    card = {v: int(rng.integers(2, 4)) for v in nodes}
    given = {}
    for v in nodes:
        shape = [card[p] for p in dag.parents(v)] + [card[v]]
        rows = rng.dirichlet(np.ones(card[v]), size=int(np.prod(shape[:-1])))
        rows *= 1.0 + rng.uniform(-1e-7, 1e-7, size=rows.shape)
        given[v] = rows.reshape(shape)
    states = {v: [f"s{k}" for k in range(card[v])] for v in nodes}
    return BayesianNetwork(dag, given, states=states), given


def _networks() -> list:
    out = [pytest.param(path, id=path.name.split(".")[0]) for path in sorted(DATA.glob("*.bif.gz"))]
    local = {path.name for path in DATA.glob("*.bif.gz")}
    if COLLECTION.is_dir():
        out += [
            pytest.param(COLLECTION / f"{name}.bif.gz", id=f"collection-{name}")
            for name in QUICK
            if f"{name}.bif.gz" not in local and (COLLECTION / f"{name}.bif.gz").is_file()
        ]
    return out


def _joint(net: BayesianNetwork) -> np.ndarray:
    """The whole joint distribution, an axis per node in node order, by the chain rule."""
    nodes = list(net.nodes)
    joint = np.ones([net.cardinality(v) for v in nodes])
    for v in nodes:
        family = [nodes.index(p) for p in net.dag.parents(v)] + [nodes.index(v)]
        table = np.transpose(np.asarray(net.cpt(v)), np.argsort(family))  # axes in node order
        shape = [1] * len(nodes)
        for axis in family:
            shape[axis] = net.cardinality(nodes[axis])
        joint = joint * table.reshape(shape)
    return joint


def _brute(net, joint, targets, evidence) -> tuple[np.ndarray, float]:
    """``P(targets | evidence)`` (axes in ``targets``' order) and ``log P(evidence)``."""
    nodes = list(net.nodes)
    index = tuple(net.states(v).index(evidence[v]) if v in evidence else slice(None) for v in nodes)
    sub = joint[index]
    free = [v for v in nodes if v not in evidence]
    table = sub.sum(axis=tuple(k for k, v in enumerate(free) if v not in targets))
    kept = [v for v in free if v in targets]
    table = np.transpose(table, [kept.index(t) for t in targets])
    total = float(sub.sum())
    return table / total, float(np.log(total))


def _cases(net: BayesianNetwork, seed: int, n: int = 3) -> list[tuple[list, dict]]:
    """``n`` queries: two target nodes and evidence on up to four others, the evidence states
    from a forward sample (so the evidence is possible)."""
    rng = np.random.default_rng(seed)
    nodes = list(net.nodes)
    rows = net.sample(n, seed=seed)
    out = []
    for r in range(n):
        picked = [nodes[i] for i in rng.permutation(len(nodes))[: min(6, len(nodes))]]
        targets, observed = picked[:2], picked[2:]
        out.append((targets, {v: str(rows[v].iloc[r]) for v in observed}))
    return out


def _check_agree(net: BayesianNetwork, seed: int) -> None:
    ve, jt = VariableElimination(net), JunctionTree(net)
    brute = None
    if np.prod([float(net.cardinality(v)) for v in net.nodes]) <= BRUTE_STATES:
        brute = _joint(net)
    cases = _cases(net, seed)
    for targets, evidence in cases:
        joint = ve.query(targets, evidence).values
        assert joint.sum() == pytest.approx(1.0, abs=TOL)
        for k, t in enumerate(targets):
            from_ve = ve.query(t, evidence).values
            from_jt = jt.query(t, evidence).values
            np.testing.assert_allclose(from_ve, from_jt, rtol=0, atol=TOL)
            np.testing.assert_allclose(joint.sum(axis=1 - k), from_jt, rtol=0, atol=TOL)
        calibrated = jt.calibrate(evidence)
        for t in targets:
            np.testing.assert_allclose(calibrated[t].values, ve.query(t, evidence).values,
                                       rtol=0, atol=TOL)  # fmt: skip
        log_ve = ve.probability_of_evidence(evidence, log=True)
        log_jt = jt.probability_of_evidence(evidence, log=True)
        assert log_ve == pytest.approx(log_jt, abs=TOL)
        if brute is not None:
            expected, log_pe = _brute(net, brute, targets, evidence)
            np.testing.assert_allclose(joint, expected, rtol=0, atol=TOL)
            assert log_ve == pytest.approx(log_pe, abs=TOL)
    # the batched paths: every case's evidence in one frame (unobserved: missing)
    target = cases[0][0][0]
    frame = pd.DataFrame([evidence for _, evidence in cases]).drop(columns=target, errors="ignore")
    from_ve, from_jt = ve.query_batch(target, frame), jt.query_batch(target, frame)
    np.testing.assert_allclose(from_ve.to_numpy(), from_jt.to_numpy(), rtol=0, atol=TOL)


@pytest.mark.parametrize("seed", range(6))
def test_rows_within_the_tolerance_are_divided_by_their_sums(seed):
    net, given = _near_network(seed)
    off = max(float(np.abs(t.sum(axis=-1) - 1).max()) for t in given.values())
    assert 1e-9 < off < SUM_TOLERANCE  # the case is real: rows not summing to 1
    for v, table in given.items():
        stored = net.cpt(v)
        np.testing.assert_allclose(stored.sum(axis=-1), 1.0, rtol=0, atol=1e-15)
        np.testing.assert_allclose(stored, table / table.sum(axis=-1, keepdims=True),
                                   rtol=1e-15, atol=0)  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_methods_agree_on_rows_summing_to_one_within_1e_7(seed):
    net, _ = _near_network(seed)
    _check_agree(net, seed)


@pytest.mark.parametrize("path", _networks())
def test_methods_agree_on_the_standard_networks(path):
    _check_agree(read_bif(path), seed=len(path.name))


@pytest.mark.parametrize("seed", range(6))
def test_a_network_rebuilt_from_its_tables_is_the_same_bit_for_bit(seed, tmp_path):
    """Dividing by the sums again changes nothing: a network rebuilt from its own tables, or
    written to a file and read back, keeps its numbers exactly."""
    net, _ = _near_network(seed)
    again = BayesianNetwork(net.dag, {v: net.cpt(v) for v in net.nodes},
                            states={v: net.states(v) for v in net.nodes})  # fmt: skip
    write_bif(net, tmp_path / "near.bif")
    read = read_bif(tmp_path / "near.bif")
    for v in net.nodes:
        np.testing.assert_array_equal(again.cpt(v), net.cpt(v))
        np.testing.assert_array_equal(read.cpt(v), net.cpt(v))
