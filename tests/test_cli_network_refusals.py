"""The network commands refuse what they cannot use, as one line and a non-zero exit, never a
traceback: a network file that is missing, a directory, or no BIF/XMLBIF network (every command
that reads one), DATA that shares no column with the network (`network fit`), a node given
twice in --evidence (and a parameter given twice in --param), an empty or header-only CSV and a
latin-1 CSV read with --chunksize (the latter read as latin-1 with a note, as read whole)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from bayeskit.cli import app

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
ASIA = Path(__file__).parent / "networks" / "data" / "asia.bif.gz"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def refused(result, *words: str) -> str:
    """The output of a refused command: exit code not 0, no traceback, every word in it."""
    text = flat(result.output)
    assert result.exit_code != 0, text
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    for word in words:
        assert word in text, (word, text)
    return text


BAD_NETWORKS = {
    "bad.bif": "network x {\n}\nvariable a {\n  type discrete [ 2 ] { y, n };\n}\n"
    "probability ( a ) {\n  table 0.5, 0.7;\n}\n",
    "words.bif": "this is no network\n",
    "bad.xml": "<BIF><NETWORK><VARIABLE>",
    "words.xml": "not xml at all",
    "bad.bif.gz": None,  # gzip of bytes that are not text
}


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    out = {}
    for name, text in BAD_NETWORKS.items():
        path = tmp_path / name
        if text is None:
            path.write_bytes(gzip.compress(bytes(range(256))))
        else:
            path.write_text(text)
        out[name] = path
    folder = tmp_path / "folder.bif"
    folder.mkdir()
    out["folder"] = folder
    out["missing"] = tmp_path / "missing.bif"
    data = tmp_path / "asia.csv"
    pd.DataFrame({"asia": ["yes", "no"] * 10, "smoke": ["no", "yes"] * 10}).to_csv(
        data, index=False
    )
    out["data"] = data
    return out


def _commands(network: Path, data: Path, out: Path) -> dict[str, list]:
    return {
        "show": ["network", "show", network],
        "query": ["network", "query", network, "-t", "asia"],
        "map": ["network", "query", network, "--map"],
        "fit": ["network", "fit", data, "-s", network, "-o", out],
    }


@pytest.mark.parametrize("command", ["show", "query", "map", "fit"])
@pytest.mark.parametrize("bad", list(BAD_NETWORKS))
def test_a_file_that_holds_no_network_is_refused_by_every_command(files, tmp_path, command, bad):
    args = _commands(files[bad], files["data"], tmp_path / "o.bif")[command]
    text = refused(run(*args), bad, "is no network file that can be read")
    assert not (tmp_path / "o.bif").exists()
    assert "error:" in text


@pytest.mark.parametrize("command", ["show", "query", "map", "fit"])
@pytest.mark.parametrize(("which", "words"), [("folder", "is a directory"),
                                              ("missing", "file not found")])  # fmt: skip
def test_a_missing_file_or_a_directory_is_refused_by_every_command(files, tmp_path, command,
                                                                   which, words):  # fmt: skip
    args = _commands(files[which], files["data"], tmp_path / "o.bif")[command]
    refused(run(*args), words, files[which].name)


@pytest.mark.parametrize(
    "columns",
    [{"a": ["x", "y"] * 5}, {"a": [1, 2] * 5, "b": ["u", "v"] * 5}, {"ASIA": ["yes", "no"] * 5}],
)
def test_fit_refuses_data_that_shares_no_column_with_the_network(tmp_path, columns):
    data = tmp_path / "other.csv"
    pd.DataFrame(columns).to_csv(data, index=False)
    out = tmp_path / "o.bif"
    for method in ("auto", "em", "count"):
        result = run("network", "fit", data, "-s", ASIA, "-o", out, "--method", method)
        text = refused(result, "other.csv shares no column with the network", "asia.bif.gz")
        assert "asia, tub, smoke" in text  # the network's nodes
        assert ", ".join(columns) in text  # and DATA's columns
        assert not out.exists()


def test_fit_says_which_nodes_are_latent(tmp_path):
    data = tmp_path / "some.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({
        "asia": rng.choice(["yes", "no"], 200), "smoke": rng.choice(["yes", "no"], 200),
        "xray": rng.choice(["yes", "no"], 200), "dysp": rng.choice(["yes", "no"], 200),
    }).to_csv(data, index=False)  # fmt: skip
    result = run("network", "fit", data, "-s", ASIA, "-o", tmp_path / "o.bif", "--max-iter", "3")
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "no column for 4 of the network's 8 nodes (tub, lung, bronc, either)" in text
    assert "latent nodes: 4 (tub, lung, bronc, either)" in text


@pytest.mark.parametrize(
    "evidence",
    ["smoke=yes,smoke=no", "smoke=yes,smoke=yes", "smoke=yes, asia=no ,smoke =no",
     "dysp=yes,xray=no,dysp=no"],
)  # fmt: skip
@pytest.mark.parametrize("extra", [["-t", "lung"], ["--map"]])
def test_a_node_given_twice_in_evidence_is_refused(evidence, extra):
    node = "dysp" if evidence.startswith("dysp") else "smoke"
    result = run("network", "query", ASIA, "-e", evidence, *extra)
    refused(result, f"--evidence gives node '{node}' twice", "give each node one state")


@pytest.mark.parametrize(
    "params", [["alpha=1", "alpha=2"], ["alpha=1", "alpha=1"], ["alpha=1,", " alpha =2"]]
)
def test_a_parameter_given_twice_is_refused(tmp_path, params):
    args = ["fit", "weather", "-o", tmp_path / "m.json"]
    for p in params:
        args += ["--param", p.strip(",")]
    result = run(*args)
    refused(result, "parameter 'alpha' is given twice")
    assert not (tmp_path / "m.json").exists()


def _latin(path: Path) -> Path:
    rng = np.random.default_rng(0)
    rows = ["x,y"] + [
        f"{rng.choice(['café', 'thé', 'eau'])},{rng.choice(['oui', 'non'])}" for _ in range(60)
    ]
    path.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    return path


CHUNKED = [
    ["network", "learn", "{data}", "-o", "{out}.bif", "--chunksize", "7"],
    ["network", "learn", "{data}", "-o", "{out}.bif", "--chunksize", "7", "--tree"],
    ["fit", "{data}", "--target", "y", "-o", "{out}.json", "--chunksize", "7"],
]


def _args(template, data, out):
    return [a.format(data=data, out=out) for a in template]


@pytest.mark.parametrize("template", CHUNKED)
def test_a_latin1_csv_in_chunks_is_read_as_latin1_with_a_note(tmp_path, template):
    data = _latin(tmp_path / "latin.csv")
    result = run(*_args(template, data, tmp_path / "o"))
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "latin.csv is not valid UTF-8" in text
    assert "read it as latin-1" in text


def test_a_latin1_csv_gives_the_same_network_in_chunks_and_whole(tmp_path):
    from bayeskit.networks import read_bif

    data = _latin(tmp_path / "latin.csv")
    assert run("network", "learn", data, "-o", tmp_path / "whole.bif").exit_code == 0
    assert (
        run("network", "learn", data, "-o", tmp_path / "parts.bif", "--chunksize", "7").exit_code
        == 0
    )
    whole, parts = read_bif(tmp_path / "whole.bif"), read_bif(tmp_path / "parts.bif")
    assert whole.states("x") == parts.states("x") == ("café", "eau", "thé")
    assert whole.dag == parts.dag
    for node in whole.nodes:
        np.testing.assert_allclose(whole.cpt(node), parts.cpt(node), atol=1e-12)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "is empty: no header row and no data"),
        (b"x,y\n", "has a header (2 columns) but no data rows"),
        (b"x,y\r\n", "has a header (2 columns) but no data rows"),
    ],
)
@pytest.mark.parametrize("template", CHUNKED)
def test_an_empty_csv_in_chunks_is_refused_naming_it(tmp_path, content, words, template):
    data = tmp_path / "blank.csv"
    data.write_bytes(content)
    refused(run(*_args(template, data, tmp_path / "o")), "blank.csv", words)


ASIA_DATA = Path(__file__).parent / "networks" / "data" / "asia_2000.csv.gz"
GE = "Input should be greater than or equal to"  # a range error, as the command line words it
LEARN = ["network", "learn", ASIA_DATA, "-o", "{out}"]
FIT = ["network", "fit", ASIA_DATA, "-s", ASIA, "-o", "{out}", "--method", "em"]


@pytest.mark.parametrize(
    ("base", "extra", "words"),
    [
        (LEARN, ["--tabu", "-1"], f"'--tabu': {GE} 0"),
        (
            LEARN,
            ["--max-parents", "-2"],
            f"'--max-parents': {GE} 0",
        ),
        (
            LEARN,
            ["--chunksize", "500", "--max-distinct-rows", "-5"],
            f"'--max-distinct-rows': {GE} 0",
        ),  # fmt: skip
        (
            LEARN,
            ["--missing", "em", "--seed", "-3"],
            f"'--seed': {GE} 0",
        ),
        (LEARN, ["--alpha", "inf"], "alpha must be a finite number >= 0"),
        (LEARN, ["--alpha", "nan"], "alpha must be a finite number >= 0"),
        (LEARN, ["--alpha", "-1"], "alpha must be a finite number >= 0"),
        (FIT, ["--max-iter", "0"], f"'--max-iter': {GE} 1"),
        (FIT, ["--restarts", "-1"], f"'--restarts': {GE} 0"),
        (FIT, ["--seed", "-1"], f"'--seed': {GE} 0"),
        (FIT, ["--tol", "inf"], "tol must be a finite number >= 0, got inf"),
        (FIT, ["--tol", "nan"], "tol must be a finite number >= 0, got nan"),
        (FIT, ["--alpha", "inf"], "alpha must be a finite number >= 0"),
    ],
)
def test_numeric_options_are_refused_naming_the_option_and_the_rule(tmp_path, base, extra,
                                                                     words):  # fmt: skip
    out = tmp_path / "o.bif"
    refused(run(*[str(a).format(out=out) for a in base], *extra), words)
    assert not out.exists()
