"""Checks for what comes with the data: sample weights, and counts given as arguments.

One function for each, used wherever weights enter (the classifiers, the discretizers, the
empirical risk) or a count is given (search lengths, limits, sample sizes), so every entry point
refuses the same things with the same words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["check_count", "check_sample_weight"]


def check_sample_weight(
    sample_weight: Any, n_samples: int, *, positive_sum: bool = False
) -> np.ndarray | None:
    """Validate sample weights: ``None``, a scalar (the same weight for every row) or a 1-D array
    of ``n_samples`` finite, non-negative numbers. Returns float64 (a new array) or ``None``.

    Examples
    --------
    >>> check_sample_weight([1, 2], 2)
    array([1., 2.])
    >>> check_sample_weight([1.0, -1.0], 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight must be finite and >= 0, got -1.0 at position 1 (negative)
    """
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.ndim == 0:
        w = np.full(n_samples, w)
    if w.ndim != 1 or w.shape[0] != n_samples:
        msg = f"sample_weight must have shape ({n_samples},), got {w.shape}: one weight per sample"
        raise ValueError(msg)
    if w.dtype.kind not in "fiub":
        msg = f"sample_weight must hold real numbers, got dtype {w.dtype}"
        raise ValueError(msg)
    w = w.astype(np.float64)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        pos = int(np.flatnonzero(bad)[0])
        why = "negative" if w[pos] < 0 else "not finite"
        got = float(w[pos])
        msg = f"sample_weight must be finite and >= 0, got {got!r} at position {pos} ({why})"
        raise ValueError(msg)
    if positive_sum and w.sum() <= 0:
        msg = (
            "sample_weight sums to zero (a positive sum is needed): there is nothing to learn from"
        )
        raise ValueError(msg)
    return w


def check_count(name: str, value: Any, *, none_ok: bool = False) -> None:
    """ValueError unless ``value`` is a non-negative integer (or None, with ``none_ok``).

    Examples
    --------
    >>> check_count("tabu_length", 3)
    >>> check_count("max_parents", -1, none_ok=True)
    Traceback (most recent call last):
    ...
    ValueError: max_parents must be a non-negative integer or None, got -1
    """
    if value is None and none_ok:
        return
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer) or value < 0:
        msg = f"{name} must be a non-negative integer{' or None' if none_ok else ''}, got {value!r}"
        raise ValueError(msg)
