"""`bayeskit network query --map` (MAP and MPE) and `bayeskit network learn --missing em`
(structural EM), through the command line, against the library's answers."""

from __future__ import annotations

import json
from io import StringIO

import pandas as pd
import pytest
from typer.testing import CliRunner

from bayeskit.cli import app
from bayeskit.networks import DAG, BayesianNetwork, VariableElimination, write_bif

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


def test_map_table_names_the_query_and_says_which_probability_is_which(asia_bif):
    engine = VariableElimination(asia())
    expected = engine.map_query(["tub"], {"xray": "yes"})
    joint = expected.probability * engine.probability_of_evidence({"xray": "yes"})
    result = run("network", "query", asia_bif, "--map", "-t", "tub", "-e", "xray=yes")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "MAP: the most probable joint state of tub given xray=yes" in text
    assert f"tub {expected.assignment['tub']}" in text
    assert f"P(assignment | evidence) = {expected.probability:.6g}" in text
    assert f"P(assignment, evidence) = {joint:.6g}" in text
    assert "joint" in text
    mpe = run("network", "query", asia_bif, "--map")
    assert mpe.exit_code == 0, mpe.output
    best = VariableElimination(asia()).map_query()
    assert "MPE: the most probable joint state of every unobserved node" in flat(mpe.output)
    assert f"P(assignment) = {best.probability:.6g}" in flat(mpe.output)
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
