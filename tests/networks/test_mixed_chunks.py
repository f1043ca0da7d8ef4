"""A CSV file read in chunks gives a network the states and counts of the whole file read at
once, also where pandas types a column differently from chunk to chunk (text in some, numbers
or booleans in others): such a column is read as text, as a whole-file read types it, and a
column of numbers is refused only when no chunk turns it into text."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

from bayeskit.data import read_chunks
from bayeskit.factors.states import NumericColumnError
from bayeskit.learning.parameters import MAX_PENDING_VALUES
from bayeskit.networks import DAG, BayesianNetwork, fit_parameters, learn_structure

# column x: values drawn from FIRST in the first half of the rows, from SECOND in the other
MIXED = {
    "text then integers": (["a", "b", "1"], ["1", "2", "3"]),
    "text and floats then floats": (["a", "1.0", "2.5"], ["1.0", "2.0", "2.5"]),
    "text booleans then booleans": (["TRUE", "maybe"], ["TRUE", "FALSE"]),
    "leading zeros then integers": (["01", "x"], ["01", "2"]),
    "40 integers then text": ([str(i) for i in range(40)], ["other"]),
    "integers then text": (["1", "2"], ["1", "two"]),
    "booleans then text": (["true", "false"], ["true", "n/a?"]),
}
EXPECTED_STATES = {
    "text then integers": ("1", "2", "3", "a", "b"),
    "text and floats then floats": ("1.0", "2.0", "2.5", "a"),
    "text booleans then booleans": ("FALSE", "TRUE", "maybe"),
    "leading zeros then integers": ("01", "2", "x"),
    "integers then text": ("1", "2", "two"),
}


def _write(path, first, second, n=120, seed=0, gz=False):
    rng = np.random.default_rng(seed)
    x = [*rng.choice(first, n), *rng.choice(second, n)]
    y = ["u" if (len(v) % 2 == 0) == (rng.random() < 0.8) else "v" for v in x]  # y on x
    text = "x,y\n" + "".join(f"{a},{b}\n" for a, b in zip(x, y, strict=True))
    if gz:
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


@pytest.fixture(params=list(MIXED))
def mixed(request, tmp_path):
    first, second = MIXED[request.param]
    return request.param, _write(tmp_path / "mixed.csv", first, second)


@pytest.mark.parametrize("chunksize", [3, 7, 120, 1000])
def test_chunks_give_the_whole_files_states_and_counts(mixed, chunksize):
    name, path = mixed
    dag = DAG(edges=[("x", "y")])
    whole = fit_parameters(dag, pd.read_csv(path), estimator="mle")
    parts = fit_parameters(dag, read_chunks(path, chunksize), estimator="mle")
    assert parts.network.states("x") == whole.network.states("x")
    if name in EXPECTED_STATES:
        assert whole.network.states("x") == EXPECTED_STATES[name]
    np.testing.assert_array_equal(parts.counts.table((0, 1)), whole.counts.table((0, 1)))
    assert parts.counts.table((0, 1)).sum() == 240


@pytest.mark.parametrize("max_distinct_rows", [None, 0])
def test_learning_from_mixed_chunks_learns_the_whole_files_network(mixed, max_distinct_rows):
    _, path = mixed
    whole = BayesianNetwork.learn(pd.read_csv(path), score="bic")
    chunks = read_chunks(path, 50)
    parts = BayesianNetwork.learn(chunks, score="bic", max_distinct_rows=max_distinct_rows)
    assert parts.dag == whole.dag
    for node in whole.nodes:
        assert parts.states(node) == whole.states(node)
        np.testing.assert_allclose(parts.cpt(node), whole.cpt(node), atol=1e-12)
    assert learn_structure(read_chunks(path, 50)) == learn_structure(pd.read_csv(path))


@pytest.mark.parametrize("name", ["text booleans then booleans", "leading zeros then integers"])
def test_a_gzipped_mixed_file_is_read_as_whole(tmp_path, name):
    path = _write(tmp_path / "mixed.csv", *MIXED[name], gz=True, seed=3)
    dag = DAG(edges=[("x", "y")])
    whole = fit_parameters(dag, pd.read_csv(path), estimator="mle")
    parts = fit_parameters(dag, read_chunks(path, 30), estimator="mle")
    assert parts.network.states("x") == whole.network.states("x") == EXPECTED_STATES[name]
    np.testing.assert_array_equal(parts.counts.table((0, 1)), whole.counts.table((0, 1)))


def test_no_state_is_named_twice_by_its_key(mixed):
    # the reviewer's case: text in one chunk and numbers in another gave a vocabulary of both
    # spellings ('TRUE' and 'True', '01' and '1')
    _, path = mixed
    states = fit_parameters(DAG(edges=[("x", "y")]), read_chunks(path, 60)).network.states("x")
    spellings = {"TRUE": "True", "FALSE": "False", "01": "1", "1.0": "1", "2.0": "2"}
    for text, typed in spellings.items():
        assert not (text in states and typed in states), states


@pytest.mark.parametrize(
    ("values", "words"),
    [
        (np.arange(200) % 50, "has 50 distinct values, whole numbers"),
        (
            np.round(np.linspace(0, 1, 200), 3),
            "has 200 distinct values, numbers that are not whole",
        ),
        (
            np.arange(2 * MAX_PENDING_VALUES + 10),
            "has at least 1100 distinct values",  # at the 11th chunk of 100 rows
        ),
    ],
)
def test_a_column_of_numbers_in_every_chunk_is_still_refused(tmp_path, values, words):
    path = tmp_path / "numbers.csv"
    pd.DataFrame({"x": values, "y": np.arange(len(values)) % 2}).to_csv(path, index=False)
    chunksize = 100 if len(values) > MAX_PENDING_VALUES else 40
    with pytest.raises(NumericColumnError, match=f"column 'x' {words}".replace("(", r"\(")):
        fit_parameters(DAG(edges=[("x", "y")]), read_chunks(path, chunksize))


def test_the_text_columns_found_are_kept_by_the_chunks(tmp_path):
    path = _write(tmp_path / "mixed.csv", *MIXED["leading zeros then integers"])
    chunks = read_chunks(path, 60)
    assert chunks.text_columns == set()
    fit_parameters(DAG(edges=[("x", "y")]), chunks)
    assert chunks.text_columns == {"x"}
    assert {str(v) for chunk in chunks for v in chunk["x"]} == {"01", "2", "x"}


FRAMES = {
    "text then the same numbers": ({"x": ["a", "1"]}, {"x": [1, 2]}),
    "numbers then the same text": ({"x": [1, 2]}, {"x": ["a", "1"]}),
    "booleans then the same text": ({"x": [True, False]}, {"x": ["True", "maybe"]}),
    "text then other numbers": ({"x": ["a", "b"]}, {"x": [3, 2]}),
    "numbers then other text": ({"x": [3, 2]}, {"x": ["a", "b"]}),
}


@pytest.mark.parametrize("name", list(FRAMES))
def test_frames_in_chunks_are_read_as_their_concatenation(name):
    # a list of DataFrames is read as pd.concat of them would be: the same states, or the same
    # refusal of two values that name one state ('1' and 1) when they are in two chunks
    first, second = (pd.DataFrame({**x, "y": ["u", "v"]}) for x in FRAMES[name])
    dag = DAG(edges=[("x", "y")])

    def states(data):
        try:
            return fit_parameters(dag, data).network.states("x")
        except ValueError as exc:
            return "refused" if "two values that name one state" in str(exc) else str(exc)

    whole = states(pd.concat([first, second], ignore_index=True))
    assert states([first, second]) == whole
    assert (whole == "refused") == ("same" in name)
