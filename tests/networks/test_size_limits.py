"""Every size limit is computed without overflow: a query, a batch, a MAP query, a junction tree,
a factor product or a sampler's exact check either answers or refuses with
:class:`InferenceTooLarge` naming the query and the limit, before anything is allocated; never
numpy's "array is too big", "maximum supported dimension" or an allocation's MemoryError.

numpy multiplies sizes in int64, which wraps around past ``2**63``: 16 nodes of 16 states make
``16**16 = 2**64`` cells, which int64 counts as 0, and 32 four-state nodes the same; those are
the shapes that slipped through. Shapes with many small roots, few nodes of many states,
complete moral graphs (a child for every pair of roots) and nodes of one state (a table of many
axes but one cell) are each tried on every entry point.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from bayeskit.classifiers.kdb import kdb_parents
from bayeskit.cli import app
from bayeskit.factors import Factor, product, table_cells
from bayeskit.networks import (
    DAG,
    BayesianNetwork,
    GibbsSampler,
    InferenceTooLarge,
    JunctionTree,
    VariableElimination,
    likelihood_weighting,
    rejection_sampling,
    write_bif,
)
from bayeskit.stats.joint import joint_counts

ANSWER, REFUSE = "answer", "refuse"
#: A limit of 8 MiB of float64 for the shapes that answer: the overflow does not depend on it.
SMALL = 1 << 20


def _roots(n: int, k: int) -> BayesianNetwork:
    """``n`` independent roots of ``k`` states each, not uniform (so answers can be checked)."""
    rng = np.random.default_rng(n * 1000 + k)
    nodes = [f"r{i}" for i in range(n)]
    return BayesianNetwork(DAG(nodes=nodes), {v: rng.dirichlet(np.ones(k)) for v in nodes})


def _pairs(n: int, k: int) -> BayesianNetwork:
    """``n`` roots of ``k`` states and a binary child of every pair of them: observing the
    children joins all the roots in one clique of ``k**n`` cells."""
    rng = np.random.default_rng(n * 1000 + k)
    roots = [f"r{i}" for i in range(n)]
    kids = [(f"c{i}_{j}", roots[i], roots[j]) for i, j in itertools.combinations(range(n), 2)]
    edges = [e for c, a, b in kids for e in ((a, c), (b, c))]
    cpts = {v: rng.dirichlet(np.ones(k)) for v in roots}
    for c, *_ in kids:
        p = rng.uniform(0.2, 0.8, size=(k, k))
        cpts[c] = np.stack([p, 1 - p], axis=-1)
    return BayesianNetwork(DAG(nodes=roots + [c for c, *_ in kids], edges=edges), cpts)


def _children_observed(net: BayesianNetwork) -> dict:
    return {v: "0" for v in net.nodes if v.startswith("c")}


def _outcome(call, *names) -> str:
    """Run ``call``: ANSWER, or REFUSE after checking the refusal is InferenceTooLarge itself
    and names ``names`` and the limit."""
    try:
        call()
    except InferenceTooLarge as exc:
        error = exc
    else:
        return ANSWER
    assert type(error) is InferenceTooLarge
    text = str(error)
    assert "max_cells=" in text or "axes" in text, text
    for name in names:
        assert repr(name) in text, (name, text)
    return REFUSE


# ------------------------------------------------------------------ variable elimination
@pytest.mark.parametrize(
    ("n", "k", "expected"),
    [
        (10, 2, ANSWER),
        (20, 2, ANSWER),  # 2**20 cells: just at the limit
        (21, 2, REFUSE),
        (32, 4, REFUSE),  # 4**32 = 2**64 cells: 0 in int64
        (64, 2, REFUSE),
        (66, 2, REFUSE),  # 2**66: 4 in int64
        (200, 3, REFUSE),
        (2, 1000, ANSWER),
        (3, 1000, REFUSE),
        (16, 16, REFUSE),
        (70, 1, REFUSE),  # one cell, but 71 axes with the batch's
    ],
)
def test_joint_query_of_roots_answers_or_refuses(n, k, expected):
    net = _roots(n, k)
    nodes = list(net.nodes)
    ve = VariableElimination(net, max_cells=SMALL)
    assert _outcome(lambda: ve.query(nodes), "r0", f"r{min(n, 8) - 1}") == expected
    if expected == ANSWER:  # the roots are independent: the joint's margin is the root's CPT
        joint = ve.query(nodes).values
        np.testing.assert_allclose(joint.reshape(k, -1).sum(axis=1), net.cpt("r0"), atol=1e-12)


@pytest.mark.parametrize(
    ("n", "k", "expected"),
    [(4, 3, ANSWER), (10, 8, REFUSE), (16, 16, REFUSE), (17, 16, REFUSE), (28, 2, REFUSE)],
)
def test_queries_given_evidence_that_joins_the_roots(n, k, expected):
    net = _pairs(n, k)
    evidence = _children_observed(net)
    ve = VariableElimination(net)
    assert _outcome(lambda: ve.query("r0", evidence), "r0") == expected
    assert _outcome(lambda: ve.query(["r0", "r1"], evidence), "r0", "r1") == expected
    assert _outcome(lambda: ve.map_query(["r0", "r1"], evidence)) == expected
    assert _outcome(lambda: ve.map_query(None, evidence)) == expected
    assert _outcome(lambda: ve.probability_of_evidence(evidence)) == expected
    frame = pd.DataFrame([evidence, {c: "1" for c in evidence}])
    assert _outcome(lambda: ve.query_batch("r0", frame), "r0") == expected
    assert _outcome(lambda: ve.query_batch(["r0", "r1"], frame, joint=True)) == expected


@pytest.mark.parametrize(("n", "k"), [(32, 4), (66, 2), (16, 16), (70, 1)])
def test_mpe_of_many_roots_answers_one_root_at_a_time(n, k):
    """MPE never needs the joint table: each root is maximised alone."""
    net = _roots(n, k)
    result = VariableElimination(net).map_query()
    best = {v: net.states(v)[int(np.argmax(net.cpt(v)))] for v in net.nodes}
    assert result.assignment == best


@pytest.mark.parametrize(
    ("n", "k", "rows", "expected"),
    [(8, 2, 3, ANSWER), (31, 4, 2, REFUSE), (65, 2, 2, REFUSE), (16, 16, 5, REFUSE)],
)
def test_query_batch_of_a_joint_refuses_before_allocating(n, k, rows, expected):
    net = _roots(n + 1, k)
    targets = list(net.nodes)[1:]
    frame = pd.DataFrame({"r0": [net.states("r0")[i % k] for i in range(rows)]})
    ve = VariableElimination(net)
    got = _outcome(lambda: ve.query_batch(targets, frame, joint=True), "r1", "r0")
    assert got == expected


@pytest.mark.parametrize(("rows", "expected"), [(100, ANSWER), (250, ANSWER), (251, REFUSE)])
def test_a_batch_counts_its_rows_against_the_limit(rows, expected):
    net = _roots(3, 2)
    ve = VariableElimination(net, max_cells=1000)  # the joint of two nodes: 4 cells a row
    frame = pd.DataFrame({"r0": ["0"] * rows})
    assert _outcome(lambda: ve.query_batch(["r1", "r2"], frame, joint=True)) == expected


@pytest.mark.parametrize("max_cells", [0, -1, 2**61, 10**30, 1.5, True, "big"])
def test_max_cells_out_of_range_is_refused_by_name(max_cells):
    with pytest.raises(ValueError, match="max_cells must be an integer from 1 to 2\\*\\*60"):
        VariableElimination(_roots(2, 2), max_cells=max_cells)
    with pytest.raises(ValueError, match="max_cells"):
        JunctionTree(_roots(2, 2), max_cells=max_cells)


# ------------------------------------------------------------------ junction tree
@pytest.mark.parametrize(
    ("n", "k", "expected"),
    [(4, 3, ANSWER), (6, 4, ANSWER), (10, 8, REFUSE), (16, 16, REFUSE), (20, 10, REFUSE)],
)
def test_junction_tree_compiles_or_refuses(n, k, expected):
    net = _pairs(n, k)
    assert _outcome(lambda: JunctionTree(net)) == expected
    # what compiles a tree on the way refuses the same
    assert _outcome(lambda: net.predict_proba(pd.DataFrame([_children_observed(net)]), "r0")) == (
        expected
    )


def test_junction_tree_of_many_roots_compiles():
    """Cliques of one root each, however many roots: no table over all of them."""
    net = _roots(300, 4)
    tree = JunctionTree(net)
    assert tree.n_cells == 300 * 4
    np.testing.assert_allclose(tree.query("r7").values, net.cpt("r7"), atol=1e-12)


# ------------------------------------------------------------------ samplers
@pytest.mark.parametrize(("n", "k", "met"), [(4, 3, True), (16, 16, False), (20, 10, False)])
def test_samplers_with_evidence_answer_or_refuse_cleanly(n, k, met):
    """A sampler needs no table of the roots; only its exact check of evidence no sample met
    does, and where that is too large it says P(e) is unknown instead."""
    net = _pairs(n, k)
    evidence = _children_observed(net)
    weighted = likelihood_weighting(net, "r0", evidence, n_samples=200, seed=0)
    assert weighted["r0"].values.sum() == pytest.approx(1.0)
    gibbs = GibbsSampler(net).query("r0", evidence, n_draws=40, burn_in=5, n_chains=2, seed=0)
    assert gibbs.marginals["r0"].values.sum() == pytest.approx(1.0)
    if met:
        kept = rejection_sampling(net, "r0", evidence, n_samples=2000, seed=0)
        assert kept["r0"].values.sum() == pytest.approx(1.0)
    else:  # no sample meets evidence on every child, and exact P(e) is too large
        with pytest.raises(ValueError, match="too large to compute.*draw more samples") as info:
            rejection_sampling(net, "r0", evidence, n_samples=20, seed=0)
        assert type(info.value) is ValueError


# ------------------------------------------------------------------ factors and statistics
@pytest.mark.parametrize(
    ("n", "k", "expected"),
    [(10, 2, ANSWER), (20, 2, ANSWER), (21, 2, REFUSE), (32, 4, REFUSE), (16, 16, REFUSE),
     (66, 2, REFUSE), (70, 1, REFUSE)],
)  # fmt: skip
def test_factor_product_answers_or_refuses(n, k, expected):
    factors = [Factor([f"x{i}"], np.ones(k) / k, {f"x{i}": [str(s) for s in range(k)]})
               for i in range(n)]  # fmt: skip
    got = _outcome(lambda: product(factors, keep=["x0"], max_cells=SMALL), "x0")
    assert got == expected
    if got == ANSWER:  # uniform distributions: x0's margin is uniform
        margin = product(factors, keep=["x0"], max_cells=SMALL).values
        np.testing.assert_allclose(margin, np.full(k, 1 / k), rtol=1e-12)


@pytest.mark.parametrize("shape", [[4] * 32, [2] * 64, [16] * 16, [10] * 20, [3] * 200])
def test_table_cells_is_exact_where_numpy_wraps(shape):
    assert table_cells(np.array(shape, dtype=np.int64)) == int(np.prod(shape, dtype=object))
    assert table_cells(np.array(shape, dtype=np.int64)) > 1 << 62


@pytest.mark.parametrize(("d", "k"), [(32, 4), (64, 2), (16, 16), (200, 3)])
def test_a_dense_joint_count_table_too_large_is_refused(d, k):
    rng = np.random.default_rng(d)
    codes = rng.integers(0, k, size=(50, d))
    counts = joint_counts(codes, rng.integers(0, 2, size=50), 2, [k] * d)
    with pytest.raises(ValueError, match="max_cells=10000000"):
        counts.dense()


# ------------------------------------------------------------------ command line
@pytest.fixture(scope="module")
def pairs_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("nets") / "pairs.bif"
    write_bif(_pairs(16, 16), path)
    return path


@pytest.mark.parametrize("extra", [[], ["--map"], ["--max-cells", "100"]])
def test_network_query_refuses_too_large_in_one_line(pairs_file, extra):
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    evidence = ",".join(f"{c}=0" for c in _children_observed(_pairs(16, 16)))
    args = ["network", "query", str(pairs_file), "--target", "r0", "-e", evidence, *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "max_cells=" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("states", [2**40, 2**32, 3**38], ids=["2**40", "2**32", "3**38"])
def test_kdb_parents_count_a_family_table_without_overflow(states):
    """Columns of astronomically many states (as int64, as a count table's ``n_states`` holds
    them): a parent that would take the table past the cap is passed over, never taken because
    the product wrapped around to something small."""
    cmi = np.array([[0.0, 0.5, 0.1], [0.5, 0.0, 0.3], [0.1, 0.3, 0.0]])
    cells = np.array([states, states, states, 2], dtype=np.int64)
    assert kdb_parents([0, 1, 2], cmi, k=2, cells=cells, max_cells=1 << 62) == {}
    assert kdb_parents([0, 1, 2], cmi, k=2, cells=[2, 2, 2, 2], max_cells=1 << 62) == {
        1: (0,),
        2: (1, 0),
    }
