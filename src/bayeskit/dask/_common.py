"""What the Dask fitting modules share: dask imported on first use, and tree reductions."""

from __future__ import annotations

from typing import Any


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
