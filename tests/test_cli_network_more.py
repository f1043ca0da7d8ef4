"""`bayeskit network query --map` (MAP and MPE) and `bayeskit network learn --missing em`
(structural EM), through the command line, against the library's answers."""

from __future__ import annotations

import itertools
import json
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from bayeskit.cli import app
from bayeskit.networks import DAG, BayesianNetwork, VariableElimination, read_bif, write_bif

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
YN = ("yes", "no")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    """The output as one line, without the error box's borders."""
    return " ".join(text.replace("│", " ").split())


def asia() -> BayesianNetwork:
    """Lauritzen and Spiegelhalter's chest clinic, 'either' the deterministic OR of 'tub' and
    'lung' (so some evidence has probability zero)."""
    dag = DAG(
        nodes=["asia", "tub", "smoke", "lung", "bronc", "either", "xray", "dysp"],
        edges=[("asia", "tub"), ("smoke", "lung"), ("smoke", "bronc"), ("tub", "either"),
               ("lung", "either"), ("either", "xray"), ("either", "dysp"), ("bronc", "dysp")],
    )  # fmt: skip
    cpts = {
        "asia": [0.01, 0.99],
        "tub": [[0.05, 0.95], [0.01, 0.99]],
        "smoke": [0.5, 0.5],
        "lung": [[0.1, 0.9], [0.01, 0.99]],
        "bronc": [[0.6, 0.4], [0.3, 0.7]],
        "either": [[[1.0, 0.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]],
        "xray": [[0.98, 0.02], [0.05, 0.95]],
        "dysp": [[[0.9, 0.1], [0.7, 0.3]], [[0.8, 0.2], [0.1, 0.9]]],
    }
    return BayesianNetwork(dag, cpts, states=dict.fromkeys(dag.nodes, YN))


@pytest.fixture
def asia_bif(tmp_path):
    path = tmp_path / "asia.bif"
    write_bif(asia(), path)
    return path


# ------------------------------------------------------------------ network query --map


def test_map_without_target_is_the_mpe_of_every_unobserved_node(asia_bif):
    expected = VariableElimination(asia()).map_query(None, {"xray": "yes", "dysp": "yes"})
    result = run("network", "query", asia_bif, "--map", "-e", "xray=yes,dysp=yes", "-f", "csv")
    assert result.exit_code == 0, result.output
    table = pd.read_csv(StringIO(result.output), dtype=str, keep_default_na=False)
    assert dict(zip(table["node"], table["state"], strict=True)) == expected.assignment
    assert set(table["node"]) == {"asia", "tub", "smoke", "lung", "bronc", "either"}
    assert table["probability_given_evidence"].astype(float).tolist() == pytest.approx(
        [expected.probability] * 6, rel=1e-8
    )


def test_map_of_the_targets_matches_the_library_with_joint_and_conditional(asia_bif):
    evidence = {"xray": "yes", "smoke": "no"}
    engine = VariableElimination(asia())
    expected = engine.map_query(["lung", "bronc"], evidence)
    p_e = engine.probability_of_evidence(evidence)
    result = run("network", "query", asia_bif, "--map", "-t", "lung", "--target", "bronc",
                 "-e", "xray=yes,smoke=no", "-f", "json")  # fmt: skip
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["query"] == "MAP"
    assert answer["assignment"] == expected.assignment
    assert list(answer["assignment"]) == ["lung", "bronc"]
    assert answer["evidence"] == evidence
    assert answer["probability_given_evidence"] == pytest.approx(expected.probability)
    assert answer["log_probability_given_evidence"] == pytest.approx(expected.log_probability)
    assert answer["joint_probability"] == pytest.approx(expected.probability * p_e)
    assert answer["probability_of_evidence"] == pytest.approx(p_e)


def _joint_table(net: BayesianNetwork) -> dict[tuple, float]:
    """P(x) of each of the 256 assignments (in ``net.nodes`` order), the product of one CPT
    entry per node: no inference engine involved."""
    index = {n: {s: k for k, s in enumerate(net.states(n))} for n in net.nodes}
    out = {}
    for values in itertools.product(*(net.states(n) for n in net.nodes)):
        x = dict(zip(net.nodes, values, strict=True))
        p = 1.0
        for n in net.nodes:
            p *= net.cpt(n)[(*(index[u][x[u]] for u in net.dag.parents(n)), index[n][x[n]])]
        out[values] = p
    return out


def test_map_table_names_the_query_and_says_which_probability_is_which(asia_bif):
    # the expected figures by enumeration of the joint: MAP of tub given xray=yes sums out the
    # other six nodes; MPE is the single most probable assignment
    net = asia()
    table = _joint_table(net)
    tub, xray = net.nodes.index("tub"), net.nodes.index("xray")
    with_evidence = {k: p for k, p in table.items() if k[xray] == "yes"}
    by_tub = {s: sum(p for k, p in with_evidence.items() if k[tub] == s) for s in YN}
    best_tub = max(by_tub, key=by_tub.get)
    evidence = sum(with_evidence.values())
    result = run("network", "query", asia_bif, "--map", "-t", "tub", "-e", "xray=yes")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "MAP: the most probable joint state of tub given xray=yes" in text
    assert f"tub {best_tub}" in text
    assert f"P(assignment | evidence) = {by_tub[best_tub] / evidence:.6g}" in text
    assert f"P(assignment, evidence) = {by_tub[best_tub]:.6g}" in text
    assert "joint" in text
    mpe = run("network", "query", asia_bif, "--map")
    assert mpe.exit_code == 0, mpe.output
    best = max(table, key=table.get)
    assert "MPE: the most probable joint state of every unobserved node" in flat(mpe.output)
    assert f"P(assignment) = {table[best]:.6g}" in flat(mpe.output)
    for node, state in zip(net.nodes, best, strict=True):
        assert f"{node} {state}" in flat(mpe.output)
    assert "no evidence" in flat(mpe.output)


def test_map_refuses_evidence_of_probability_zero_as_the_posterior_query_does(asia_bif):
    impossible = "either=no,lung=yes"  # either is lung OR tub
    posterior = run("network", "query", asia_bif, "-t", "dysp", "-e", impossible)
    assert posterior.exit_code == 1
    for targets in ((), ("-t", "dysp")):
        result = run("network", "query", asia_bif, "--map", *targets, "-e", impossible)
        assert result.exit_code == 1
        assert "has probability zero" in flat(result.output)
        assert flat(result.output) == flat(posterior.output)


def test_target_is_still_required_without_map(asia_bif):
    result = run("network", "query", asia_bif, "-e", "xray=yes")
    assert result.exit_code == 2
    text = flat(result.output)
    assert "--target" in text
    assert "--map" in text


# ------------------------------------------------------------------ network learn --missing em


@pytest.fixture(scope="module")
def holed_csv(tmp_path_factory):
    """2,000 rows sampled from asia, about 10% of the cells then emptied (seeded)."""
    data = asia().sample(2000, seed=0).astype(object)
    rng = np.random.default_rng(0)
    data = data.mask(rng.random(data.shape) < 0.1)
    path = tmp_path_factory.mktemp("holes") / "asia_holes.csv"
    data.to_csv(path, index=False)
    return path, data


def test_missing_values_are_refused_naming_the_columns_and_the_option(holed_csv, tmp_path):
    path, data = holed_csv
    result = run("network", "learn", path, "-o", tmp_path / "n.bif")
    assert result.exit_code == 1
    text = flat(result.output)
    assert f"DATA has {int(data.isna().sum().sum())} missing values, in columns" in text
    assert "has a missing value (line " in text
    for column, n in data.isna().sum().items():
        assert f"'{column}' ({n})" in text
    assert "--missing em" in text
    chunked = run("network", "learn", path, "-o", tmp_path / "n.bif", "--chunksize", "500")
    assert chunked.exit_code == 1
    assert "has a missing value" in flat(chunked.output)
    assert "--missing em" in flat(chunked.output)
    assert "no --chunksize" in flat(chunked.output)


def test_missing_em_learns_a_network_that_reads_back(holed_csv, tmp_path):
    path, data = holed_csv
    out = tmp_path / "learned.bif"
    result = run("network", "learn", path, "-o", out, "--missing", "em", "--max-iter", "4",
                 "--seed", "1", "--completions", "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    net = read_bif(out)
    assert list(net.nodes) == list(data.columns)
    assert all(sorted(net.states(n)) == sorted(YN) for n in net.nodes)
    assert f"learned a network of 8 nodes and {len(net.dag.edges)} edges" in text
    assert "from 2000 rows by structural EM" in text
    assert f"{int(data.isna().sum().sum())} missing values in 8 of 8 columns" in text
    assert "iteration" in text
    assert ("converged" in text) != ("stopped at --max-iter" in text)
    assert f"saved to {out}" in text
    # the seed makes the run repeatable
    again = tmp_path / "again.bif"
    rerun = run("network", "learn", path, "-o", again, "--missing", "em", "--max-iter", "4",
                "--seed", "1", "--completions", "2")  # fmt: skip
    assert rerun.exit_code == 0, rerun.output
    assert again.read_text() == out.read_text()


def test_missing_em_refuses_options_that_do_not_go_with_it(holed_csv, tmp_path):
    path, _ = holed_csv
    out = tmp_path / "n.bif"
    for extra, named in ((("--chunksize", "500"), "--chunksize"), (("--tree",), "--tree")):
        result = run("network", "learn", path, "-o", out, "--missing", "em", *extra)
        assert result.exit_code == 1
        assert f"--missing em and {named} do not go together" in flat(result.output)
    bad = run("network", "learn", path, "-o", out, "--missing", "drop")
    assert bad.exit_code == 1
    assert "--missing must be em" in flat(bad.output)
    assert "'drop'" in flat(bad.output)
    alone = run("network", "learn", path, "-o", out, "--seed", "3", "--max-iter", "2")
    assert alone.exit_code == 1
    assert "--max-iter, --seed go with --missing em" in flat(alone.output)
    assert not out.exists()


def test_missing_em_stops_at_max_iter_and_says_so(holed_csv, tmp_path):
    path, _ = holed_csv
    out = tmp_path / "n.bif"
    # from the empty graph the first search adds edges, so one iteration cannot converge
    result = run("network", "learn", path, "-o", out, "--missing", "em", "--start", "empty",
                 "--max-iter", "1", "--completions", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "1 iteration, stopped at --max-iter" in flat(result.output)
    assert list(read_bif(out).nodes) == ["asia", "tub", "smoke", "lung", "bronc", "either",
                                         "xray", "dysp"]  # fmt: skip


def test_missing_em_on_complete_data_is_one_search_with_a_note(tmp_path):
    path = tmp_path / "complete.csv"
    asia().sample(1000, seed=0).to_csv(path, index=False)
    result = run("network", "learn", path, "-o", tmp_path / "n.bif", "--missing", "em")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "DATA has no missing values" in text
    assert "by structural EM (no missing values; 1 iteration, converged)" in text
    # one search: the network written is the one a plain learn writes, CPTs included
    plain = run("network", "learn", path, "-o", tmp_path / "plain.bif")
    assert plain.exit_code == 0, plain.output
    by_em, by_search = read_bif(tmp_path / "n.bif"), read_bif(tmp_path / "plain.bif")
    assert by_em.dag == by_search.dag
    assert len(by_em.dag.edges) > 0
    for node in by_search.nodes:
        np.testing.assert_allclose(by_em.cpt(node), by_search.cpt(node), atol=1e-12)


# ------------------------------------------------------------------ network learn --method


def _prufer_trees(n: int):
    """Every labelled tree on ``n`` nodes (Cayley: n ** (n - 2) of them), by Prüfer sequence."""
    for seq in itertools.product(range(n), repeat=n - 2):
        degree = [1] * n
        for v in seq:
            degree[v] += 1
        edges = []
        for v in seq:
            leaf = min(u for u in range(n) if degree[u] == 1)
            edges.append(frozenset((leaf, v)))
            degree[leaf] -= 1
            degree[v] -= 1
        u, w = (x for x in range(n) if degree[x] == 1)
        edges.append(frozenset((u, w)))
        yield edges


def _mutual_information(frame: pd.DataFrame, a: str, b: str) -> float:
    joint = pd.crosstab(frame[a], frame[b]).to_numpy(dtype=float)
    joint = joint / joint.sum()
    outer = joint.sum(1, keepdims=True) * joint.sum(0, keepdims=True)
    seen = joint > 0
    return float((joint[seen] * np.log(joint[seen] / outer[seen])).sum())


def test_method_tree_is_the_chow_liu_tree_found_by_trying_every_tree(tmp_path):
    # Chow and Liu (1968): the tree of highest likelihood maximises the summed mutual
    # information of its edges; here every one of the 5 ** 3 labelled trees is tried
    cols = ["smoke", "lung", "bronc", "either", "dysp"]
    data = asia().sample(3000, seed=4)[cols]
    path = tmp_path / "five.csv"
    data.to_csv(path, index=False)
    mi = {
        frozenset((i, j)): _mutual_information(data, cols[i], cols[j])
        for i, j in itertools.combinations(range(5), 2)
    }
    best = max(_prufer_trees(5), key=lambda edges: sum(mi[e] for e in edges))
    expected = {frozenset((cols[i], cols[j])) for i, j in (tuple(e) for e in best)}
    for how in (("--method", "tree"), ("--tree",)):
        out = tmp_path / f"tree{len(how)}.bif"
        result = run("network", "learn", path, "-o", out, "--score", "ll", *how)
        assert result.exit_code == 0, result.output
        assert {frozenset(e) for e in read_bif(out).dag.edges} == expected


def test_method_hill_climb_is_the_default_and_unknown_methods_are_refused(tmp_path):
    data = asia().sample(1500, seed=2)
    path = tmp_path / "asia.csv"
    data.to_csv(path, index=False)
    default, named = tmp_path / "default.bif", tmp_path / "named.bif"
    assert run("network", "learn", path, "-o", default).exit_code == 0
    assert run("network", "learn", path, "-o", named, "--method", "hill-climb").exit_code == 0
    assert default.read_text() == named.read_text()
    bad = run("network", "learn", path, "-o", tmp_path / "x.bif", "--method", "pc-stable")
    assert bad.exit_code == 1
    assert "--method must name a structure learner (hill-climb, tree" in flat(bad.output)
    assert "'pc-stable'" in flat(bad.output)
    both = run("network", "learn", path, "-o", tmp_path / "y.bif", "--tree", "--method", "x")
    assert both.exit_code == 1
    assert "--tree and --method x do not go together" in flat(both.output)
    em = run("network", "learn", path, "-o", tmp_path / "z.bif", "--missing", "em",
             "--method", "tree")  # fmt: skip
    assert em.exit_code == 1
    assert "--missing em and --method tree do not go together" in flat(em.output)
    assert not (tmp_path / "x.bif").exists()


def test_learn_and_fit_each_describe_their_own_method_option():
    learn = flat(run("network", "learn", "--help").output)
    fit = flat(run("network", "fit", "--help").output)
    assert "Structure learner by name" in learn
    assert "gradient" not in learn
    assert "Structure learner by name" not in fit
    assert "gradient" in fit


def test_learn_by_pc_is_the_library_s_pc(tmp_path):
    from bayeskit.learning import learn_pc

    data = asia().sample(4000, seed=3)
    path = tmp_path / "asia.csv"
    data.to_csv(path, index=False)
    out = tmp_path / "pc.bif"
    result = run("network", "learn", path, "-o", out, "--method", "pc",
                 "--significance-level", "0.01", "--max-cond", "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    learned = read_bif(out).dag
    klass = learn_pc(pd.read_csv(path), significance_level=0.01, max_cond_size=2)
    assert {frozenset(e) for e in learned.edges} == klass.skeleton()
    assert set(klass.directed) <= set(learned.edges)
    refused = run("network", "learn", path, "-o", out, "--test", "x2")
    assert refused.exit_code != 0
    assert "go with --method pc or mmhc" in flat(refused.output)
    mmhc = run("network", "learn", path, "-o", out, "--method", "mmhc", "--max-cond", "2")
    assert mmhc.exit_code == 0, mmhc.output
