"""Rows as a classifier reads them, after encoding: a table's :class:`~bayeskit.data.Encoded`
codes and values, or a count model's (possibly sparse) matrix. EM, leave-one-out scoring and
:mod:`bayeskit.dask` take and stack them without knowing which."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from bayeskit.data.schema import Encoded

__all__ = ["n_rows", "stack_rows", "take_rows"]


def take_rows(enc: Any, idx: np.ndarray) -> Any:
    """The rows ``idx`` (positions or a mask) of encoded rows ``enc``."""
    if isinstance(enc, Encoded):
        return Encoded(enc.codes[idx], enc.values[idx])
    return enc[idx]


def stack_rows(parts: list) -> Any:
    """Encoded rows of ``parts`` (all of one kind), one after the other."""
    if isinstance(parts[0], Encoded):
        return Encoded(
            np.concatenate([p.codes for p in parts]), np.concatenate([p.values for p in parts])
        )
    if sp.issparse(parts[0]):
        return sp.vstack(parts, format="csr")
    return np.concatenate(parts)


def n_rows(enc: Any) -> int:
    """How many rows ``enc`` holds."""
    return enc.n_samples if isinstance(enc, Encoded) else enc.shape[0]
