"""Gaussian columns at the edge of float64, as the models with Gaussian densities handle them:
values whose log-density cannot be represented, and variances that underflow."""

from __future__ import annotations

import numpy as np

from bayeskit._warnings import warn
from bayeskit.estimate import beyond_float64
from bayeskit.stats import underflowed_features

__all__ = ["drop_beyond_float64", "redo_rows_beyond_float64", "warn_underflowed_variances"]


def redo_rows_beyond_float64(
    jll: np.ndarray, values: np.ndarray, mean: np.ndarray, scale: np.ndarray, schema, terms
) -> np.ndarray:
    """Rows of ``jll`` that are ``-inf`` for every class, computed again by
    ``terms(rows, values_of_rows)`` with their values beyond float64 left out (see
    :func:`drop_beyond_float64`); ``jll`` is updated in place and returned.

    A value beyond float64 for every class makes its whole row ``-inf``, so only such rows need
    a second look: no extra pass over the data in prediction.
    """
    if not values.shape[1]:
        return jll
    dead = np.flatnonzero(jll.max(axis=1, initial=-np.inf) == -np.inf)
    if dead.size:
        rows = values[dead]
        usable = drop_beyond_float64(rows, mean, scale, schema)
        if usable is not rows:
            jll[dead] = terms(dead, usable)
    return jll


def drop_beyond_float64(values: np.ndarray, mean: np.ndarray, scale: np.ndarray, schema):
    """``values`` with every value beyond float64 for all classes set to NaN, with a warning
    naming the columns: a new array, or ``values`` itself when no value is beyond (so callers
    can tell by identity); the caller's array is never written to."""
    mask = beyond_float64(values, mean, scale)
    if mask is None:
        return values
    names = [c.name for c in schema.numeric]
    per_column = mask.sum(axis=0)
    which = ", ".join(f"{names[j]!r} ({int(per_column[j])})" for j in np.flatnonzero(per_column))
    warn(
        f"numeric values too far from every class's mean for their Gaussian log-density to be "
        f"represented in float64 were left out of their rows, as if missing (column and count: "
        f"{which}); rescale the column if such values are genuine",
        UserWarning,
    )
    values = np.array(values, dtype=np.float64)
    values[mask] = np.nan
    return values


def warn_underflowed_variances(moments, schema) -> None:
    """Warn, naming them, about numeric columns whose variance underflows float64 (values of
    order 1e-300: see :func:`bayeskit.stats.underflowed_features`)."""
    bad = underflowed_features(moments)
    if bad.any():
        names = [c.name for c in schema.numeric]
        cols = [names[j] for j in np.flatnonzero(bad)]
        warn(
            f"numeric columns {cols} have values so small (below about 1e-154) that their "
            "squares underflow float64, so their variance is computed as 0 and any value off a "
            "class mean looks impossible; rescale them (multiply by a power of ten, or "
            "standardise)",
            UserWarning,
        )
