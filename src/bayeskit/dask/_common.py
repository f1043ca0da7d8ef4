"""What the Dask fitting modules share: dask imported on first use, and tree reductions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def _dask():
    try:
        import dask
        import dask.dataframe as dd
    except ImportError as exc:  # pragma: no cover - the extra not installed
        msg = f"bayeskit.dask needs dask ({exc}); install bayeskit[dask]"
        raise ImportError(msg) from exc
    return dask, dd


def _tree(parts: list, combine: Any) -> Any:
    """Delayed ``parts`` combined pairwise by ``combine`` (a tree of depth log2 n)."""
    dask, _ = _dask()
    step = dask.delayed(combine, pure=True)
    while len(parts) > 1:
        parts = [step(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i]
                 for i in range(0, len(parts), 2)]  # fmt: skip
    return parts[0]


def _distinct(frame: pd.DataFrame, columns: list, weight: Any) -> dict:
    if weight is not None:  # a row of weight 0 is never learned from (as in fit)
        frame = frame[frame[weight].to_numpy(dtype=np.float64) > 0]
    return {c: set(pd.unique(frame[c].dropna())) for c in columns}


def _union(a: dict, b: dict) -> dict:
    return {c: a[c] | b[c] for c in a}


def _distinct_values(dask, ddf, columns: list, weight: Any = None) -> dict:
    """Each column's distinct non-missing values over every partition (rows of positive
    weight): per-partition sets merged as a tree (no shuffle)."""
    if not columns:
        return {}
    parts = ddf[columns + ([weight] if weight is not None else [])].to_delayed()
    tasks = [dask.delayed(_distinct, pure=True)(p, columns, weight) for p in parts]
    return dask.compute(_tree(tasks, _union))[0]
