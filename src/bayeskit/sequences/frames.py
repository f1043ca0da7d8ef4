"""Sequences in a long table: one row per step, a column naming each row's sequence."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["long_frame"]


def long_frame(frame: pd.DataFrame, sequence_column: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Split a long frame into its observations and the lengths of its sequences.

    Each run of equal ids in ``sequence_column`` is one sequence, its rows in time order.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per step of every sequence.
    sequence_column : str
        The column naming each row's sequence.

    Returns
    -------
    observations : pandas.DataFrame
        ``frame`` without ``sequence_column``.
    lengths : ndarray of int
        The number of rows of each sequence, in the order they come.

    Raises
    ------
    ValueError
        When ``frame`` is not a DataFrame, lacks the column, has missing ids, or the rows of
        one sequence are not consecutive (the id comes back after another one).

    Examples
    --------
    >>> frame = pd.DataFrame({"id": ["a", "a", "b", "a"], "x": [1.0, 2.0, 3.0, 4.0]})
    >>> long_frame(frame.iloc[:3], "id")[1].tolist()
    [2, 1]
    >>> long_frame(frame, "id")
    Traceback (most recent call last):
    ...
    ValueError: the rows of sequence 'a' (column 'id') are not consecutive; sort the frame by sequence, keeping time order within each
    """  # noqa: E501
    if not isinstance(frame, pd.DataFrame):
        msg = f"a long frame must be a pandas DataFrame, got {type(frame).__name__}"
        raise ValueError(msg)
    if sequence_column not in frame.columns:
        msg = f"sequence_column {sequence_column!r} is not a column of the data"
        raise ValueError(msg)
    ids = frame[sequence_column].to_numpy()
    if len(ids) and pd.isna(ids).any():
        msg = f"sequence_column {sequence_column!r} has missing ids"
        raise ValueError(msg)
    change = np.flatnonzero(ids[1:] != ids[:-1]) + 1 if len(ids) else np.zeros(0, int)
    starts = np.r_[0, change].astype(int) if len(ids) else np.zeros(0, int)
    firsts = ids[starts]
    if len(pd.unique(firsts)) != len(firsts):
        where = pd.Series(firsts).duplicated()
        again = firsts[int(np.argmax(where.to_numpy()))]
        msg = (
            f"the rows of sequence {again!r} (column {sequence_column!r}) are not "
            f"consecutive; sort the frame by sequence, keeping time order within each"
        )
        raise ValueError(msg)
    return frame.drop(columns=[sequence_column]), np.diff(np.r_[starts, len(ids)])
