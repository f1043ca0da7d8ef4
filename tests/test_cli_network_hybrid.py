"""`bayeskit network learn|fit|query|show` on data with numeric columns and .json networks
with continuous nodes, against the library's answers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from bayeskit.cli import app
from bayeskit.learning import learn_structure
from bayeskit.networks import HybridInference, HybridNetwork, fit_hybrid_em, read_json

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.fixture(scope="module")
def mixed() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 1500
    a = rng.choice(["lo", "hi"], n, p=[0.4, 0.6])
    x = np.where(a == "hi", 2.0, -1.0) + rng.normal(size=n)
    y = 1 + 0.5 * x + rng.normal(size=n) * 0.3
    return pd.DataFrame({"a": a, "x": x, "y": y, "z": y + rng.normal(size=n) * 2})


@pytest.fixture
def mixed_csv(tmp_path, mixed):
    path = tmp_path / "mixed.csv"
    mixed.to_csv(path, index=False)
    return path


def test_learn_keeps_numeric_columns_continuous_in_a_json_network(mixed_csv, mixed, tmp_path):
    out = tmp_path / "net.json"
    result = run("network", "learn", mixed_csv, "-o", out)
    assert result.exit_code == 0, result.output
    assert "3 continuous" in result.output
    net = read_json(out)
    assert set(net.continuous_nodes) == {"x", "y", "z"}
    assert net.discrete_nodes == ("a",)
    # the library's own climb on the same frame, and its fit
    frame = pd.read_csv(mixed_csv)
    expected = learn_structure(frame, "bic", states={"a": ["hi", "lo"]})
    assert set(net.dag.edges) == set(expected.edges)
    direct = HybridNetwork.fit(expected, frame)
    for v in net.continuous_nodes:
        np.testing.assert_allclose(net.cpd(v).coefficients, direct.cpd(v).coefficients,
                                   rtol=1e-12)  # fmt: skip


def test_show_names_each_node_kind(mixed_csv, tmp_path):
    out = tmp_path / "net.json"
    run("network", "learn", mixed_csv, "-o", out)
    result = run("network", "show", out)
    assert result.exit_code == 0, result.output
    lines = {line.split()[1]: line for line in result.output.splitlines() if line.startswith("│")}
    assert "continuous" in lines["x"]
    assert "discrete" in lines["a"]
    assert " 2 " in lines["a"]


def test_query_gives_the_exact_posteriors_of_both_kinds(mixed_csv, tmp_path):
    out = tmp_path / "net.json"
    run("network", "learn", mixed_csv, "-o", out)
    result = run("network", "query", out, "-t", "a", "-t", "y", "-e", "x=1.5,z=0.3",
                 "--format", "json")  # fmt: skip
    assert result.exit_code == 0, result.output
    records = json.loads(result.output)
    engine = HybridInference(read_json(out))
    evidence = {"x": 1.5, "z": 0.3}
    table = engine.query(["a"], evidence)
    got = {r["state"]: r["probability"] for r in records if r["node"] == "a"}
    for state, p in zip(table.states["a"], table.values, strict=True):
        assert got[state] == pytest.approx(float(p), abs=1e-9)
    y = engine.query(["y"], evidence)
    row = next(r for r in records if r["node"] == "y")
    assert row["mean"] == pytest.approx(float(y.mean[0]), abs=1e-9)
    assert row["sd"] == pytest.approx(float(np.sqrt(y.covariance[0, 0])), abs=1e-9)
    table_out = run("network", "query", out, "-t", "y", "-e", "x=1.5")
    log_pe = engine.log_probability_of_evidence({"x": 1.5})
    assert f"log {log_pe:.6f}" in table_out.output
    assert "a density" in table_out.output


def test_fit_with_missing_values_runs_em_as_the_library_does(mixed, tmp_path):
    holed = mixed.copy()
    rng = np.random.default_rng(1)
    holed.loc[rng.random(len(holed)) < 0.2, "y"] = np.nan
    holed.loc[rng.random(len(holed)) < 0.1, "a"] = None
    data = tmp_path / "holes.csv"
    holed.to_csv(data, index=False)
    complete = tmp_path / "complete.csv"
    mixed.to_csv(complete, index=False)
    structure = tmp_path / "net.json"
    run("network", "learn", complete, "-o", structure)
    out = tmp_path / "fitted.json"
    result = run("network", "fit", data, "--structure", structure, "-o", out, "--tol", "1e-10")
    assert result.exit_code == 0, result.output
    assert "by EM" in result.output
    given = read_json(structure)
    frame = pd.read_csv(data, dtype={"a": object})
    expected = fit_hybrid_em(given.dag, frame, continuous=given.continuous_nodes,
                             states={"a": given.states("a")}, estimator="bdeu",
                             tol=1e-10).network  # fmt: skip
    fitted = read_json(out)
    for v in fitted.continuous_nodes:
        np.testing.assert_allclose(fitted.cpd(v).coefficients, expected.cpd(v).coefficients,
                                   atol=1e-9)  # fmt: skip


def test_refusals_name_the_rule(mixed, mixed_csv, tmp_path):
    result = run("network", "learn", mixed_csv, "-o", tmp_path / "net.bif")
    assert result.exit_code == 2
    assert "write a .json network" in flat(result.output)
    holed = mixed.copy()
    holed.loc[3, "x"] = np.nan
    holed.to_csv(tmp_path / "holes.csv", index=False)
    result = run("network", "learn", tmp_path / "holes.csv", "-o", tmp_path / "n.json")
    assert result.exit_code == 1
    assert "needs complete rows" in flat(result.output)
    result = run("network", "learn", mixed_csv, "-o", tmp_path / "n.json", "--missing", "em")
    assert result.exit_code == 1
    assert "learns discrete networks only" in flat(result.output)
    out = tmp_path / "net.json"
    run("network", "learn", mixed_csv, "-o", out)
    result = run("network", "query", out, "-t", "a", "-e", "x=abc")
    assert result.exit_code == 1
    assert "'x' is continuous and takes a number" in flat(result.output)
    result = run("network", "query", out, "--map")
    assert result.exit_code == 1
    assert "discrete networks only" in flat(result.output)
    result = run("network", "fit", mixed_csv, "--structure", out, "-o", tmp_path / "f.bif")
    assert result.exit_code == 1
    assert "write it as JSON" in flat(result.output)


def test_discretize_still_makes_a_discrete_network(mixed_csv, tmp_path):
    out = tmp_path / "net.json"
    result = run("network", "learn", mixed_csv, "-o", out, "--discretize", "equal-frequency:3")
    assert result.exit_code == 0, result.output
    net = read_json(out)
    assert not getattr(net, "continuous_nodes", ())


def test_fit_of_a_structure_with_a_node_data_lacks_treats_it_as_latent(tmp_path):
    from bayeskit.factors import CPD, LinearGaussianCPD
    from bayeskit.graphs import DAG
    from bayeskit.networks import write_json

    states = {"z": ["a", "b"]}
    start = HybridNetwork(DAG(edges=[("z", "v")]), [
        CPD("z", [], [0.5, 0.5], states),
        LinearGaussianCPD("v", ["z"], [-1.0, 1.0], [[], []], [1.0, 1.0], states),
    ])  # fmt: skip
    structure = tmp_path / "mixture.json"
    write_json(start, structure)
    rng = np.random.default_rng(4)
    v = np.where(rng.random(800) < 0.3, -2.0, 2.0) + rng.normal(size=800) * 0.5
    data = tmp_path / "v.csv"
    pd.DataFrame({"v": v}).to_csv(data, index=False)
    out = tmp_path / "fitted.json"
    result = run("network", "fit", data, "--structure", structure, "-o", out, "--from-file")
    assert result.exit_code == 0, result.output
    assert "latent nodes: 1" in flat(result.output)
    fitted = read_json(out)
    means = np.sort(fitted.cpd("v").intercept)
    np.testing.assert_allclose(means, [-2.0, 2.0], atol=0.1)
    np.testing.assert_allclose(np.sort(fitted.cpd("z").values), [0.3, 0.7], atol=0.05)
