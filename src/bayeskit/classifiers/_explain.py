"""Per-feature evidence as the models that explain themselves report it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["EXPLAIN_ZERO", "explain_frame", "snap_to_zero"]

#: Evidence closer to 0 than this is rounding noise and is reported as exactly 0.
EXPLAIN_ZERO = 1e-12


def snap_to_zero(evidence: np.ndarray) -> np.ndarray:
    """``evidence`` with entries within :data:`EXPLAIN_ZERO` of 0 (and -0.0) as 0.0.

    A value every class finds equally likely carries no evidence, ``log P(x | c) - log P(x)
    = 0``, which log-sum-exp gives up to rounding (-3.3e-16): shown as 0, not as noise.

    Examples
    --------
    >>> snap_to_zero(np.array([-3.3e-16, 0.405, -0.0, 1e-9])).tolist()
    [0.0, 0.405, 0.0, 1e-09]
    """
    return np.where(np.abs(evidence) < EXPLAIN_ZERO, 0.0, evidence)


def explain_frame(model: Any, X: Any, out: np.ndarray) -> pd.DataFrame:
    """Per-feature evidence ``out`` (``(n_samples, n_features, n_classes)``, features in the
    schema's order) as a long DataFrame: ``row`` (the index label of ``X`` if it is a DataFrame,
    else the row's position), ``feature``, ``value`` (the value explained, as given), ``class``
    and ``contribution``, one row per (sample, feature, class)."""
    frame = model.schema_._select(X)  # the user's values, in the schema's column order
    n, d, n_classes = out.shape
    rows = frame.index if isinstance(X, pd.DataFrame) else pd.RangeIndex(n)
    return pd.DataFrame(
        {
            "row": np.repeat(np.asarray(rows, dtype=object), d * n_classes),
            "feature": np.tile(np.repeat(model.schema_.names, n_classes), n),
            "value": np.repeat(frame.to_numpy(dtype=object).reshape(-1), n_classes),
            "class": np.tile(model.classes_, n * d),
            "contribution": out.reshape(-1),
        }
    )
