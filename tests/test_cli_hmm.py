"""`bayeskit hmm fit | decode | score | sample`: hidden Markov models of a long table from the
command line, saved in model files (categorical symbols coded and kept with the model), and
refusals of bad input as one clear line and a non-zero exit, never a traceback."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import bayeskit
import bayeskit.cli.hmm  # noqa: F401  (registers the commands, should bayeskit.cli not import it)
from bayeskit.cli import app
from bayeskit.sequences import HiddenMarkovModel, example_hmm

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


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


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A long CSV of Gaussian sequences (ids seq, columns a, b), one of dice rolls (ids as
    text, the faces as symbols), and a classifier's model file."""
    folder = tmp_path_factory.mktemp("hmm")
    truth = HiddenMarkovModel(2, random_state=0)
    truth.startprob_ = np.array([0.5, 0.5])
    truth.transmat_ = np.array([[0.9, 0.1], [0.1, 0.9]])
    truth.means_ = np.array([[0.0, 0.0], [5.0, 5.0]])
    truth.covars_ = np.ones((2, 2))
    parts = []
    for s in range(4):
        X, _ = truth.sample(50, random_state=s)
        parts.append(pd.DataFrame({"seq": s, "a": X[:, 0].round(3), "b": X[:, 1].round(3)}))
    pd.concat(parts).to_csv(folder / "gauss.csv", index=False)
    casino = example_hmm("casino")
    parts = []
    for s in range(5):
        X, z = casino.sample(60, random_state=s)
        faces = np.array(["one", "two", "three", "four", "five", "six"])[X[:, 0]]
        parts.append(pd.DataFrame({"id": f"s{s}", "roll": faces, "die": z}))
    pd.concat(parts).to_csv(folder / "casino.csv", index=False)
    classifier = bayeskit.NaiveBayes().fit([["a"], ["b"], ["a"]], [0, 1, 0])
    bayeskit.save(classifier, folder / "nb.bayeskit")
    return folder


@pytest.fixture(scope="module")
def gauss_model(files):
    ok(run("hmm", "fit", files / "gauss.csv", "-s", "seq", "-n", 2, "-o", files / "g.bayeskit"))
    return files / "g.bayeskit"


@pytest.fixture(scope="module")
def casino_model(files):
    path = files / "c.bayeskit"
    ok(run("hmm", "fit", files / "casino.csv", "-s", "id", "-c", "roll", "-n", 2,
           "-e", "categorical", "--n-iter", 20, "-o", path))  # fmt: skip
    return path


def test_fit_prints_a_summary_and_saves_the_model(files, tmp_path):
    out = flat(ok(run("hmm", "fit", files / "gauss.csv", "-s", "seq", "-n", 2, "-o",
                      tmp_path / "g.bayeskit")))  # fmt: skip
    for word in ("2 states", "gaussian emission", "200 steps", "iterations", "converged",
                 "log-likelihood", "BIC"):  # fmt: skip
        assert word in out, (word, out)
    model = bayeskit.load(tmp_path / "g.bayeskit")
    assert isinstance(model, HiddenMarkovModel)
    assert model.sequence_column == "seq"
    assert model.feature_names_in_.tolist() == ["a", "b"]
    frame = pd.read_csv(files / "gauss.csv", dtype={"seq": str})
    assert f"{model.score(frame):.3f}" in out


def test_decode_writes_the_sequence_column_and_the_states(files, gauss_model, tmp_path):
    ok(run("hmm", "decode", gauss_model, files / "gauss.csv", "--proba", "-o", tmp_path / "d.csv"))
    out = pd.read_csv(tmp_path / "d.csv")
    assert list(out.columns) == ["seq", "state", "proba_0", "proba_1"]
    model = bayeskit.load(gauss_model)
    frame = pd.read_csv(files / "gauss.csv", dtype={"seq": str})
    assert np.array_equal(out["state"], model.predict(frame))
    assert np.allclose(out[["proba_0", "proba_1"]].sum(axis=1), 1.0)
    stdout = ok(run("hmm", "decode", gauss_model, files / "gauss.csv", "--algorithm", "map"))
    assert stdout.splitlines()[0] == "seq,state"
    assert len(stdout.splitlines()) == 201


def test_categorical_symbols_are_coded_and_kept_with_the_model(files, casino_model, tmp_path):
    model = bayeskit.load(casino_model)
    assert model.symbols_.tolist() == sorted(["one", "two", "three", "four", "five", "six"])
    assert model.n_features == 6
    ok(run("hmm", "decode", casino_model, files / "casino.csv", "-o", tmp_path / "d.csv"))
    decoded = pd.read_csv(tmp_path / "d.csv")
    assert list(decoded.columns) == ["id", "state"]
    frame = pd.read_csv(files / "casino.csv")
    codes = frame["roll"].map({s: k for k, s in enumerate(model.symbols_)})
    model.sequence_column = "id"
    expected = model.predict(pd.DataFrame({"id": frame["id"], "roll": codes}))
    assert np.array_equal(decoded["state"], expected)
    ok(run("hmm", "sample", casino_model, "--length", 7, "-k", 3, "-o", tmp_path / "s.csv"))
    drawn = pd.read_csv(tmp_path / "s.csv")
    assert list(drawn.columns) == ["id", "step", "state", "roll"]
    assert len(drawn) == 21
    assert set(drawn["roll"]) <= set(model.symbols_)


def test_score_prints_the_total_and_each_sequence(files, casino_model, tmp_path):
    out = flat(ok(run("hmm", "score", casino_model, files / "casino.csv", "-o",
                      tmp_path / "scores.csv")))  # fmt: skip
    scores = pd.read_csv(tmp_path / "scores.csv")
    assert list(scores.columns) == ["id", "steps", "log_likelihood"]
    assert scores["id"].tolist() == [f"s{s}" for s in range(5)]
    assert (scores["steps"] == 60).all()
    assert f"log-likelihood {scores['log_likelihood'].sum():.3f} of 300 steps" in out
    assert "s4" in out


def test_sample_is_a_long_table_fit_reads(gauss_model, tmp_path):
    ok(run("hmm", "sample", gauss_model, "--length", 30, "--sequences", 2, "--seed", 3,
           "-o", tmp_path / "s.csv"))  # fmt: skip
    drawn = pd.read_csv(tmp_path / "s.csv")
    assert list(drawn.columns) == ["seq", "step", "state", "a", "b"]
    assert drawn["seq"].tolist() == [0] * 30 + [1] * 30
    assert drawn["step"].tolist() == list(range(30)) * 2
    ok(run("hmm", "sample", gauss_model, "--length", 30, "--sequences", 2, "--seed", 3,
           "-o", tmp_path / "again.csv"))  # fmt: skip
    assert pd.read_csv(tmp_path / "again.csv").equals(drawn)  # the same seed, the same draw
    ok(run("hmm", "fit", tmp_path / "s.csv", "-s", "seq", "-c", "a,b", "-n", 2,
           "-o", tmp_path / "refit.bayeskit"))  # fmt: skip


def test_fit_in_chunks_equals_fit_whole(files, tmp_path):
    args = ("-s", "id", "-c", "roll", "-n", 2, "-e", "categorical", "--n-iter", 5)
    ok(run("hmm", "fit", files / "casino.csv", *args, "-o", tmp_path / "whole.bayeskit"))
    out = ok(run("hmm", "fit", files / "casino.csv", *args, "--chunksize", 70,
                 "-o", tmp_path / "chunks.bayeskit"))  # fmt: skip
    assert "in chunks of 70 rows" in flat(out)
    whole = bayeskit.load(tmp_path / "whole.bayeskit")
    chunks = bayeskit.load(tmp_path / "chunks.bayeskit")
    assert chunks.symbols_.tolist() == whole.symbols_.tolist()
    assert np.allclose(chunks.emissionprob_, whole.emissionprob_)
    assert np.allclose(chunks.transmat_, whole.transmat_)


def test_poisson_counts(tmp_path):
    rng = np.random.default_rng(0)
    counts = np.r_[rng.poisson(1, 40), rng.poisson(8, 40)]
    pd.DataFrame({"day": range(80), "n": counts}).to_csv(tmp_path / "counts.csv", index=False)
    out = ok(run("hmm", "fit", tmp_path / "counts.csv", "-c", "n", "-n", 2, "-e", "poisson",
                 "-o", tmp_path / "p.bayeskit"))  # fmt: skip
    assert "poisson emission" in out
    rates = np.sort(bayeskit.load(tmp_path / "p.bayeskit").lambdas_.ravel())
    assert np.allclose(rates, [counts[:40].mean(), counts[40:].mean()], atol=1.0)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("-s", "nope"), ["unknown sequence column 'nope'", "seq, a, b"]),
        (("-s", "seq", "-c", "a,zz"), ["unknown columns ['zz']"]),
        (("-s", "seq", "-e", "mixed"), ["--emission must be one of"]),
        (("-s", "seq", "--covariance-type", "round"), ["--covariance-type must be one of"]),
        (("-c", "a", "--chunksize", 50), ["give --sequence-column"]),
    ],
)
def test_fit_refuses_bad_options(files, tmp_path, args, words):
    refused(run("hmm", "fit", files / "gauss.csv", "-n", 2, "-o", tmp_path / "m", *args), *words)
    assert not (tmp_path / "m").exists()


def test_bad_data_is_refused(files, gauss_model, casino_model, tmp_path):
    refused(run("hmm", "fit", tmp_path / "missing.csv", "-n", 2, "-o", tmp_path / "m"),
            "file not found")  # fmt: skip
    frame = pd.read_csv(files / "gauss.csv").astype(object)
    frame.loc[7, "a"] = "oops"
    frame.to_csv(tmp_path / "bad.csv", index=False)
    refused(run("hmm", "fit", tmp_path / "bad.csv", "-s", "seq", "-n", 2, "-o", tmp_path / "m"),
            "column 'a' holds 'oops' (line 9), not a number")  # fmt: skip
    shuffled = pd.read_csv(files / "gauss.csv")
    shuffled = pd.concat([shuffled.iloc[:20], shuffled.iloc[60:80], shuffled.iloc[20:40]])
    shuffled.to_csv(tmp_path / "shuffled.csv", index=False)
    refused(run("hmm", "decode", gauss_model, tmp_path / "shuffled.csv"), "not consecutive")
    rolls = pd.read_csv(files / "casino.csv")
    rolls.loc[3, "roll"] = "seven"
    rolls.to_csv(tmp_path / "seven.csv", index=False)
    refused(run("hmm", "score", casino_model, tmp_path / "seven.csv"),
            "column 'roll' holds 'seven' (line 5), not one of the model's 6 symbols")  # fmt: skip
    refused(run("hmm", "decode", gauss_model, files / "casino.csv"),
            "unknown sequence column 'seq'")  # fmt: skip


def test_model_files_that_are_not_hidden_markov_models_are_refused(files, tmp_path):
    refused(run("hmm", "decode", tmp_path / "none.bayeskit", files / "gauss.csv"),
            "no model file at")  # fmt: skip
    refused(run("hmm", "score", files / "nb.bayeskit", files / "gauss.csv"),
            "holds a NaiveBayes, not a hidden Markov model")  # fmt: skip
    refused(run("hmm", "sample", files / "gauss.csv", "--length", 3, "-o", tmp_path / "s.csv"),
            "not a bayeskit model file")  # fmt: skip


def test_classifier_commands_refuse_a_hidden_markov_model_file(tmp_path):
    from bayeskit import save
    from bayeskit.sequences import example_hmm

    path = save(example_hmm("casino"), tmp_path / "casino.bayeskit")
    data = tmp_path / "rows.csv"
    data.write_text("a\n1\n")
    for command in (["show", str(path)], ["predict", str(path), str(data)]):
        result = runner.invoke(app, command)
        assert result.exit_code != 0
        assert "holds a hidden Markov model: use bayeskit hmm decode" in result.output


def test_decode_draws_the_first_sequence(files, gauss_model, casino_model, tmp_path):
    from PIL import Image

    ok(run("hmm", "decode", gauss_model, files / "gauss.csv", "--plot", tmp_path / "g.png"))
    with Image.open(tmp_path / "g.png") as image:
        assert image.size[0] > 300
    ok(run("hmm", "decode", casino_model, files / "casino.csv", "--plot", tmp_path / "c.svg"))
    assert (tmp_path / "c.svg").read_text().lstrip().startswith("<?xml")
    result = runner.invoke(app, ["hmm", "decode", str(gauss_model), str(files / "gauss.csv"),
                                 "--plot", str(tmp_path / "g.gif")])  # fmt: skip
    assert result.exit_code != 0
    assert "--plot writes .png, .svg or .pdf files" in result.output
