"""Checks for what comes with the data: sample weights, and counts given as arguments.

One function for each, used wherever weights enter (the classifiers, the discretizers, the
empirical risk) or a count is given (search lengths, limits, sample sizes), so every entry point
refuses the same things with the same words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit._text import shown

__all__ = ["check_count", "check_real", "check_sample_weight", "check_seed"]


def check_sample_weight(
    sample_weight: Any, n_samples: int, *, positive_sum: bool = False
) -> np.ndarray | None:
    """Validate sample weights: ``None``, a scalar (the same weight for every row) or a 1-D array
    of ``n_samples`` finite, non-negative numbers. Returns float64 (a new array) or ``None``.

    Parameters
    ----------
    sample_weight : None, scalar or array-like of shape (n_samples,)
    n_samples : int
        The number of rows.
    positive_sum : bool, default=False
        Whether the weights must have a positive sum.

    Returns
    -------
    ndarray of float64 of shape (n_samples,), or None

    Raises
    ------
    ValueError
        A wrong shape, a value that is not a finite non-negative real number (its position
        named), or with ``positive_sum`` a zero sum.

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


def check_count(name: str, value: Any, *, none_ok: bool = False, low: int = 0) -> None:
    """ValueError unless ``value`` is an integer ``>= low`` (a bool is no integer), or None
    with ``none_ok``.

    Examples
    --------
    >>> check_count("tabu_length", 3)
    >>> check_count("max_parents", -1, none_ok=True)
    Traceback (most recent call last):
    ...
    ValueError: max_parents must be a non-negative integer or None, got -1
    >>> check_count("max_iter", 0, low=1)
    Traceback (most recent call last):
    ...
    ValueError: max_iter must be an integer >= 1, got 0
    """
    if value is None and none_ok:
        return
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer) or value < low:
        rule = "a non-negative integer" if low == 0 else f"an integer >= {low}"
        msg = f"{name} must be {rule}{' or None' if none_ok else ''}, got {shown(value)}"
        raise ValueError(msg)


def check_real(
    name: str, value: Any, *, low: float | None = None, above: float | None = None,
    none_ok: bool = False,
) -> None:  # fmt: skip
    """ValueError unless ``value`` is a finite real number (a bool is none), ``>= low`` and
    ``> above`` where given, or None with ``none_ok``.

    Examples
    --------
    >>> check_real("tol", 1e-6, low=0)
    >>> check_real("ess", float("inf"), above=0)
    Traceback (most recent call last):
    ...
    ValueError: ess must be a finite number > 0, got inf
    """
    if value is None and none_ok:
        return
    rule = "".join(
        f" {op} {shown(bound)}" for op, bound in ((">=", low), (">", above)) if bound is not None
    )
    number = isinstance(value, int | float | np.integer | np.floating)
    if (
        isinstance(value, bool | np.bool_)
        or not number
        or not np.isfinite(value)
        or (low is not None and value < low)
        or (above is not None and not value > above)
    ):
        rule += " or None" if none_ok else ""
        msg = f"{name} must be a finite number{rule}, got {shown(value)}"
        raise ValueError(msg)


def check_seed(seed: Any, name: str = "seed") -> np.random.Generator:
    """The random generator of ``seed``: None (fresh entropy), a non-negative integer, or a
    numpy ``Generator`` (used as it is), ``BitGenerator`` or ``SeedSequence``; ValueError
    naming ``name`` for anything else (text, a float, a bool, a negative integer).

    Examples
    --------
    >>> int(check_seed(0).integers(10)) == int(check_seed(0).integers(10))
    True
    >>> check_seed("abc")
    Traceback (most recent call last):
    ...
    ValueError: seed must be None, an integer >= 0 or a numpy Generator, got 'abc' (str)
    """
    if isinstance(seed, np.random.Generator):
        return seed
    ok = seed is None or isinstance(seed, np.random.SeedSequence | np.random.BitGenerator) or (
        isinstance(seed, int | np.integer) and not isinstance(seed, bool | np.bool_) and seed >= 0
    )  # fmt: skip
    if not ok:
        msg = (
            f"{name} must be None, an integer >= 0 or a numpy Generator, got {shown(seed)} "
            f"({type(seed).__name__})"
        )
        raise ValueError(msg)
    return np.random.default_rng(seed)
