"""Sequences in: one concatenation of steps and where each sequence starts."""

from __future__ import annotations

import numpy as np

from bayeskit.sequences.forward_backward import sequence_offsets
from bayeskit.sequences.frames import long_frame


def sequences(X, lengths, sequence_column, emission) -> tuple[np.ndarray, np.ndarray]:
    """``X`` as the emission reads it and the sequences' offsets.

    A pandas frame with ``sequence_column`` is a long frame: each run of equal ids is one
    sequence (the column itself is not an observation); ``lengths`` then must be None.
    """
    if sequence_column is not None:
        if lengths is not None:
            msg = "give either lengths or sequence_column, not both"
            raise ValueError(msg)
        X, lengths = long_frame(X, sequence_column)
    data = emission.check(X)
    return data, sequence_offsets(lengths, len(data))


def known_states(states, n_steps: int, n_states: int) -> np.ndarray | None:
    """Known states of a semi-supervised fit, -1 where unknown; checked."""
    if states is None:
        return None
    known = np.asarray(states)
    if known.shape != (n_steps,):
        msg = f"states must have one entry per step ({n_steps}), got shape {known.shape}"
        raise ValueError(msg)
    if not np.issubdtype(known.dtype, np.integer):
        msg = f"states must be integers (-1 = unknown), got dtype {known.dtype}"
        raise ValueError(msg)
    if np.any((known < -1) | (known >= n_states)):
        msg = f"states must be -1 (unknown) or a state 0..{n_states - 1}"
        raise ValueError(msg)
    return known.astype(np.intp)


def letters(emission, given: str | None, name: str) -> str:
    """The parameter letters of ``init_params`` or ``params`` (None: all), checked."""
    known = "st" + "".join(emission.codes)
    if given is None:
        return known
    unknown = sorted(set(given) - set(known))
    if unknown:
        msg = f"{name} letters must be among {known!r}, got {''.join(unknown)!r}"
        raise ValueError(msg)
    return given


def check_settings(model) -> None:
    """Raise ``ValueError`` on a hidden Markov model's settings out of range, naming them."""
    if not (isinstance(model.n_states, int | np.integer) and model.n_states >= 1):
        msg = f"n_states must be a positive integer, got {model.n_states!r}"
        raise ValueError(msg)
    if model.algorithm not in ("viterbi", "map"):
        msg = f"algorithm must be 'viterbi' or 'map', got {model.algorithm!r}"
        raise ValueError(msg)
    for name in ("n_iter", "n_init"):
        value = getattr(model, name)
        if not (isinstance(value, int | np.integer) and value >= 1):
            msg = f"{name} must be a positive integer, got {value!r}"
            raise ValueError(msg)
    if not (model.tol >= 0):
        msg = f"tol must be >= 0, got {model.tol!r}"
        raise ValueError(msg)


def _frame_pieces(frames, sequence_column, emission):
    """Long DataFrames cut anywhere: a sequence that runs on past the end of one frame is held
    back and joined to the start of the next, so every piece holds whole sequences."""
    import pandas as pd

    carry = None
    for frame in frames:
        if not isinstance(frame, pd.DataFrame):
            msg = f"with sequence_column set, every chunk must be a DataFrame, got {type(frame)}"
            raise ValueError(msg)
        if sequence_column not in frame.columns:
            msg = f"sequence_column {sequence_column!r} is not a column of a chunk"
            raise ValueError(msg)
        if carry is not None:
            frame = pd.concat([carry, frame], ignore_index=True)
        if not len(frame):
            continue
        ids = frame[sequence_column].to_numpy()
        tail = len(ids) - int(np.argmax(ids[::-1] != ids[-1])) if (ids != ids[-1]).any() else 0
        carry = frame.iloc[tail:]
        if tail:
            yield sequences(frame.iloc[:tail], None, sequence_column, emission)
    if carry is not None and len(carry):
        yield sequences(carry, None, sequence_column, emission)


def pieces(chunks, sequence_column, emission):
    """``(data, offsets)`` of each chunk of whole sequences.

    A chunk is a long DataFrame (with ``sequence_column``; a sequence may run across chunk
    boundaries), an ``(X, lengths)`` pair, or an array holding one sequence.
    """
    if sequence_column is not None:
        yield from _frame_pieces(chunks, sequence_column, emission)
        return
    for chunk in chunks:
        X, lengths = chunk if isinstance(chunk, tuple) else (chunk, None)
        yield sequences(X, lengths, None, emission)


def reiterable(chunks):
    """A function giving a fresh pass over ``chunks`` each call; refuses a one-pass iterator
    (Baum-Welch reads the data once per iteration)."""
    if callable(chunks):
        return lambda: iter(chunks())
    if iter(chunks) is chunks:
        msg = (
            "chunks must be re-iterable (a list, a file's read_chunks, or a function returning "
            "a fresh iterator): Baum-Welch reads the data once per iteration"
        )
        raise ValueError(msg)
    return lambda: iter(chunks)


def head_rows(pieces, budget: int = 100_000):
    """Rows for the initialisation from every piece alike: the first rows of each, in a
    first pass (a piece may hold one regime only); None when there are none."""
    heads, total = [], 0
    for data, _ in pieces:
        heads.append(data[: max(1, budget // 100)])
        total += len(heads[-1])
        if total >= budget:
            break
    heads = [h for h in heads if len(h)]
    return np.concatenate(heads) if heads else None
