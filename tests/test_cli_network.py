"""`bayeskit network learn` / `network fit` on numeric columns: one rule
with the library (bayeskit.factors.states), refusals that name the column and the options
that exist, --discretize and --categorical, integer states in numeric order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from bayeskit.cli import app
from bayeskit.networks import read_bif, read_xmlbif

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
ASIA_PATH = Path(__file__).parent / "networks" / "data" / "asia.bif.gz"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    """The output as one line, without the error box's borders."""
    return " ".join(text.replace("│", " ").split())


@pytest.fixture
def numeric_csv(tmp_path):
    rng = np.random.default_rng(0)
    b = rng.integers(0, 2, 1500)
    frame = pd.DataFrame({
        "b": np.where(b == 1, "yes", "no"),
        "x": np.round(rng.normal(size=1500) + 2 * b, 3),  # a measurement
        "k": (rng.integers(0, 12, 1500) + 3 * b) % 12,  # 12 whole numbers: 0 .. 11
    })  # fmt: skip
    path = tmp_path / "numeric.csv"
    frame.to_csv(path, index=False)
    return path


def test_a_numeric_column_is_refused_by_name_with_options_that_exist(numeric_csv, tmp_path):
    result = run("network", "learn", numeric_csv, "-o", tmp_path / "n.xml")
    assert result.exit_code != 0
    text = flat(result.output)
    assert "column 'x' has" in text
    assert "numbers that are not whole" in text
    assert "--discretize equal-frequency:5" in text
    assert "--categorical x" in text
    assert "bayeskit schema" not in text
    assert "--numeric" not in text
    chunked = run("network", "learn", numeric_csv, "-o", tmp_path / "n.xml", "--chunksize", "400")
    assert chunked.exit_code != 0
    assert "column 'x' has" in flat(chunked.output)
    assert "--discretize equal-frequency:5" in flat(chunked.output)


def test_discretize_bins_numbers_into_interval_states(numeric_csv, tmp_path):
    out = tmp_path / "n.xml"
    result = run("network", "learn", numeric_csv, "-o", out, "--discretize", "equal-frequency:4")
    assert result.exit_code == 0, result.output
    assert "x binned equal-frequency:4" in flat(result.output)
    net = read_xmlbif(out)
    assert len(net.states("x")) == 4
    assert net.states("x")[0].startswith("(-inf, ")
    # whole numbers are left as states, in numeric order
    assert net.states("k") == tuple(str(i) for i in range(12))
    bif = run("network", "learn", numeric_csv, "-o", tmp_path / "n.bif", "--discretize",
              "equal-width:3")  # fmt: skip
    assert bif.exit_code != 0
    assert "BIF cannot hold" in flat(bif.output)
    assert "-o FILE.xml" in flat(bif.output)
    for bad in ("mdl", "quantiles:3", "equal-width:one"):
        refused = run("network", "learn", numeric_csv, "-o", out, "--discretize", bad)
        assert refused.exit_code != 0
        assert "--discretize" in flat(refused.output)
    chunked = run("network", "learn", numeric_csv, "-o", out, "--discretize", "equal-width:3",
                  "--chunksize", "500")  # fmt: skip
    assert chunked.exit_code != 0
    assert "no --chunksize" in flat(chunked.output)


def test_categorical_gives_a_state_per_value(numeric_csv, tmp_path):
    frame = pd.read_csv(numeric_csv)
    frame["x"] = np.round(frame["x"]) / 2 + 0.0  # a few values, some not whole (no -0.0)
    path = tmp_path / "few.csv"
    frame.to_csv(path, index=False)
    assert run("network", "learn", path, "-o", tmp_path / "f.bif").exit_code != 0
    result = run("network", "learn", path, "-o", tmp_path / "f.bif", "--categorical", "x")
    assert result.exit_code == 0, result.output
    states = read_bif(tmp_path / "f.bif").states("x")
    assert len(states) == frame["x"].nunique()
    assert [float(s) for s in states] == sorted(float(s) for s in states)  # numeric order
    chunked = run("network", "learn", path, "-o", tmp_path / "c.bif", "--categorical", "x",
                  "--chunksize", "400")  # fmt: skip
    assert chunked.exit_code == 0, chunked.output
    assert read_bif(tmp_path / "c.bif").states("x") == states
    unknown = run("network", "learn", path, "-o", tmp_path / "f.bif", "--categorical", "nope")
    assert unknown.exit_code != 0


def test_integer_states_sort_numerically_read_whole_or_in_chunks(numeric_csv, tmp_path):
    frame = pd.read_csv(numeric_csv).drop(columns="x")
    path = tmp_path / "ints.csv"
    frame.to_csv(path, index=False)
    want = tuple(str(i) for i in range(12))
    assert run("network", "learn", path, "-o", tmp_path / "w.bif").exit_code == 0
    assert read_bif(tmp_path / "w.bif").states("k") == want
    chunked = run("network", "learn", path, "-o", tmp_path / "c.bif", "--chunksize", "300")
    assert chunked.exit_code == 0, chunked.output
    assert read_bif(tmp_path / "c.bif").states("k") == want


def test_many_whole_numbers_and_wide_text_columns_are_refused(tmp_path):
    ids = tmp_path / "ids.csv"
    pd.DataFrame({"n": np.arange(40) % 40, "y": ["a", "b"] * 20}).to_csv(ids, index=False)
    result = run("network", "learn", ids, "-o", tmp_path / "i.bif")
    assert result.exit_code != 0
    assert "column 'n' has 40 distinct values, whole numbers" in flat(result.output)
    text = tmp_path / "text.csv"
    pd.DataFrame({"w": [f"w{i}" for i in range(100)], "y": ["a", "b"] * 50}).to_csv(
        text, index=False
    )
    wide = run("network", "learn", text, "-o", tmp_path / "t.bif")
    assert wide.exit_code != 0
    assert "100 distinct values" in flat(wide.output)
    assert "--categorical w" in flat(wide.output)
    declared = run("network", "learn", text, "-o", tmp_path / "t.bif", "--categorical", "w")
    assert declared.exit_code == 0, declared.output


def test_network_fit_takes_the_files_states_and_ignores_other_columns(tmp_path):
    asia = read_bif(ASIA_PATH)
    frame = asia.sample(800, seed=1)
    frame["row_id"] = np.arange(len(frame))  # not a node: ignored, however many values
    data = tmp_path / "asia_ids.csv"
    frame.to_csv(data, index=False)
    result = run("network", "fit", data, "--structure", ASIA_PATH, "-o", tmp_path / "f.bif")
    assert result.exit_code == 0, result.output
    fitted = read_bif(tmp_path / "f.bif")
    assert fitted.dag == asia.dag
    assert all(fitted.states(n) == asia.states(n) for n in asia.nodes)
