"""Baum-Welch on a Dask DataFrame equals the in-memory fit."""

from __future__ import annotations

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from tests.sequences.test_hmm_chunks import PARAMS, data, started

from bayeskit.dask import fit_hmm
from bayeskit.sequences import HiddenMarkovModel


def long(X, lengths):
    ids = np.repeat(np.arange(len(lengths)), lengths)
    return pd.DataFrame({"seq": ids, "a": X[:, 0], "b": X[:, 1]})


def test_fit_hmm_equals_fit():
    X, lengths = data()
    whole = started().fit(X, lengths)
    frame = long(X, lengths)
    ddf = dd.from_pandas(frame.set_index("seq", drop=False), npartitions=3, sort=True)
    fitted = fit_hmm(started(sequence_column="seq"), ddf)
    for name in PARAMS:
        np.testing.assert_allclose(getattr(fitted, name), getattr(whole, name), rtol=1e-10)
    np.testing.assert_allclose(fitted.objective_, whole.objective_, rtol=1e-12)


def test_fit_hmm_with_an_empty_partition_and_random_starts():
    X, lengths = data()
    frame = long(X, lengths)
    parts = [frame.iloc[:0], frame[frame.seq < 2], frame[frame.seq >= 2]]
    ddf = dd.from_delayed([dask.delayed(p) for p in parts], meta=frame.iloc[:0])
    model = fit_hmm(HiddenMarkovModel(2, sequence_column="seq", random_state=0, n_iter=20), ddf)
    assert np.all(np.isfinite(model.means_))
    assert np.all(np.diff(model.objective_) >= -1e-9)


def test_fit_hmm_refuses_split_sequences_and_missing_settings():
    X, lengths = data()
    frame = long(X, lengths)
    ddf = dd.from_pandas(frame, npartitions=4, sort=False)  # cuts inside sequences
    with pytest.raises(ValueError, match="is split across partitions"):
        fit_hmm(started(sequence_column="seq"), ddf)
    with pytest.raises(ValueError, match="set the model's sequence_column"):
        fit_hmm(started(), ddf)
    with pytest.raises(TypeError, match="fits a HiddenMarkovModel"):
        fit_hmm(object(), ddf)
