"""Out-of-core Baum-Welch: chunks' expected statistics add up to the whole data's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit.data import read_chunks
from bayeskit.sequences import HiddenMarkovModel

PARAMS = ("startprob_", "transmat_", "means_", "covars_")


def started(**settings):
    model = HiddenMarkovModel(2, init_params="", n_iter=6, tol=0.0, **settings)
    model.startprob_ = np.array([0.5, 0.5])
    model.transmat_ = np.array([[0.8, 0.2], [0.3, 0.7]])
    model.means_ = np.array([[0.0, 1.0], [2.0, -1.0]])
    model.covars_ = np.ones((2, 2))
    return model


def data(seed=0):
    rng = np.random.default_rng(seed)
    lengths = [37, 1, 52, 20, 90]
    states = np.concatenate([np.repeat(rng.integers(0, 2, n // 10 + 1), 10)[:n] for n in lengths])
    X = rng.normal(size=(sum(lengths), 2)) + np.where(states[:, None] == 1, [2.0, -1.0], 0.0)
    return X, lengths


def test_fit_chunks_of_pairs_equals_fit():
    X, lengths = data()
    whole = started().fit(X, lengths)
    cut = np.cumsum([0, *lengths])
    chunks = [(X[cut[0] : cut[2]], lengths[:2]), (X[cut[2] : cut[5]], lengths[2:])]
    chunked = started().fit_chunks(chunks)
    for name in PARAMS:
        np.testing.assert_allclose(getattr(chunked, name), getattr(whole, name), rtol=1e-10)
    np.testing.assert_allclose(chunked.objective_, whole.objective_, rtol=1e-12)


def test_fit_chunks_of_a_file_with_sequences_across_chunk_boundaries(tmp_path):
    X, lengths = data()
    ids = np.repeat([f"s{k}" for k in range(len(lengths))], lengths)
    path = tmp_path / "long.csv"
    pd.DataFrame({"seq": ids, "a": X[:, 0], "b": X[:, 1]}).to_csv(path, index=False)
    whole = started().fit(X, lengths)
    chunked = started(sequence_column="seq").fit_chunks(read_chunks(path, chunksize=25))
    for name in PARAMS:
        np.testing.assert_allclose(getattr(chunked, name), getattr(whole, name), rtol=1e-10)


def test_fit_chunks_refuses_a_generator_and_empty_input():
    X, lengths = data()
    with pytest.raises(ValueError, match="chunks must be re-iterable"):
        started().fit_chunks(iter([(X, lengths)]))
    with pytest.raises(ValueError, match="chunks holds no data"):
        started().fit_chunks([])
    # a function returning a fresh iterator is fine
    model = started().fit_chunks(lambda: iter([(X, lengths)]))
    assert model.n_iter_ == 6


def test_partial_fit_accumulates_statistics_like_one_fit_step():
    X, lengths = data()
    cut = np.cumsum([0, *lengths])
    # two partial fits from the same start: the second M-step uses both parts' statistics,
    # which (the first part's taken under the first parameters) differ from one fit step
    stream = started()
    stream.partial_fit(X[: cut[2]], lengths[:2])
    after_one = {k: getattr(stream, k).copy() for k in PARAMS}
    stream.partial_fit(X[cut[2] :], lengths[2:])
    one_step = started().set_params(n_iter=1).fit(X[: cut[2]], lengths[:2])
    for name in PARAMS:  # a single call is one Baum-Welch iteration
        np.testing.assert_allclose(after_one[name], getattr(one_step, name), rtol=1e-12)
    assert stream.stats_["trans"].sum() == pytest.approx(sum(n - 1 for n in lengths), rel=1e-12)


def test_partial_fit_continues_from_fit_and_checks_decay():
    X, lengths = data()
    model = started().fit(X, lengths)
    means = model.means_.copy()
    model.partial_fit(X[:37])  # continues from the fitted parameters, no re-initialisation
    assert np.abs(model.means_ - means).max() < 0.5
    with pytest.raises(ValueError, match=r"decay must be in \(0, 1\]"):
        model.partial_fit(X[:37], decay=0.0)
