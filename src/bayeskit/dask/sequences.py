"""Baum-Welch on a Dask DataFrame: each partition's expected statistics, added up as a tree."""

from __future__ import annotations

from typing import Any

import pandas as pd

from bayeskit.dask._common import _dask, _tree

#: Rows the initialisation looks at, taken from the heads of all partitions alike.
SAMPLE_ROWS = 100_000


def _sequence_ids(frame, column: str) -> set:
    return set(frame[column].unique().tolist()) if len(frame) else set()


def _part_statistics(frame, params: dict, model: Any, emission: Any):
    """The E-step on one partition: its statistics and log-likelihood (None when empty)."""
    from bayeskit.sequences import long_frame, sequence_offsets, summed_statistics

    if not len(frame):
        return None
    X, lengths = long_frame(frame, model.sequence_column)
    data = emission.check(X)
    piece = [(data, sequence_offsets(lengths, len(data)))]
    return summed_statistics(emission, params, piece, model.implementation)


def _merged(a, b):
    from bayeskit.sequences import merge_statistics

    if a is None:
        return b
    if b is None:
        return a
    return merge_statistics(a[0], b[0]), a[1] + b[1]


def fit_hmm(model: Any, ddf: Any, *, progress: Any = None) -> Any:
    """Fit a hidden Markov model by Baum-Welch on a Dask DataFrame, where the data live.

    Each iteration's E-step runs forward-backward on every partition and adds the expected
    statistics pairwise as a tree, so what travels is statistics (a few arrays per
    partition), never rows; the M-step runs here. The fit equals ``model.fit`` on the same
    rows, to rounding of the sums' order. The initialisation looks at the first partition.

    Parameters
    ----------
    model : HiddenMarkovModel
        With ``sequence_column`` set: the frame is a long one, one row per step.
    ddf : dask.dataframe.DataFrame
        The sequences; all rows of one sequence must be in one partition, consecutive and in
        time order (``ddf.set_index(id)`` or ``read_parquet`` of files split by sequence give
        that).
    progress : bool or callable, optional
        Called as ``progress(iteration, log_likelihood)``; True shows a display.

    Returns
    -------
    HiddenMarkovModel
        The fitted model.

    Raises
    ------
    TypeError
        If ``model`` is not a HiddenMarkovModel or ``ddf`` not a Dask DataFrame.
    ValueError
        If ``sequence_column`` is not set, or a sequence is split across partitions.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import numpy as np, pandas as pd
    >>> from bayeskit.sequences import HiddenMarkovModel
    >>> x = np.r_[np.zeros(20), np.full(20, 5.0)]
    >>> frame = pd.DataFrame({"id": np.repeat([0, 1, 2, 3], 10), "x": np.r_[x[:20], x[20:]]})
    >>> ddf = dd.from_pandas(frame, npartitions=2)
    >>> model = fit_hmm(HiddenMarkovModel(2, sequence_column="id", random_state=0), ddf)
    >>> sorted(model.means_.ravel().round(2).tolist())
    [0.0, 5.0]
    """
    from bayeskit.sequences import HiddenMarkovModel

    dask, dd = _dask()
    if not isinstance(model, HiddenMarkovModel):
        msg = f"fit_hmm fits a HiddenMarkovModel, got {type(model).__name__}"
        raise TypeError(msg)
    if not isinstance(ddf, dd.DataFrame):
        msg = f"ddf must be a dask DataFrame, got {type(ddf).__name__}"
        raise TypeError(msg)
    column = model.sequence_column
    if column is None:
        msg = "set the model's sequence_column: the column naming each row's sequence"
        raise ValueError(msg)
    if column not in ddf.columns:
        msg = f"sequence_column {column!r} is not a column of the data"
        raise ValueError(msg)
    parts = ddf.to_delayed()
    ids = dask.compute(*[dask.delayed(_sequence_ids)(p, column) for p in parts])
    seen: dict = {}
    for k, found in enumerate(ids):
        for value in found:
            if value in seen:
                msg = (
                    f"sequence {value!r} is split across partitions {seen[value]} and {k}; "
                    f"keep each sequence in one partition (ddf.set_index({column!r}))"
                )
                raise ValueError(msg)
            seen[value] = k
    if not any(ids):
        msg = "the data hold no rows"
        raise ValueError(msg)
    # the initialisation sees rows from every partition (a partition may hold one regime only)
    per = max(1, SAMPLE_ROWS // len(parts))
    sample = dask.compute(*[dask.delayed(lambda f: f.head(per))(p) for p in parts])
    sample = pd.concat([f for f in sample if len(f)], ignore_index=True)
    emission = model.emission_distribution()

    def e_step(params: dict):
        each = [dask.delayed(_part_statistics)(p, params, model, emission) for p in parts]
        return dask.compute(_tree(each, _merged))[0]

    return model.fit_e_step(e_step, sample, progress=progress)
