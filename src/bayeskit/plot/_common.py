"""What the classifier figures share: matplotlib imported on first use, axes and colours, the
two numeric features plotted, the data as the model names its columns, and the data scattered by
class with its legend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.data.schema import as_frame

_MARKERS = ("o", "^", "s", "D", "v", "P", "X", "*", "<", ">")


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        msg = (
            "bayeskit.plot needs matplotlib, which is not installed; install it with "
            "`pip install bayeskit[plot]` (or `pip install matplotlib`)"
        )
        raise ImportError(msg) from exc
    return plt


def _axes(ax: Any):
    plt = _pyplot()
    if ax is None:
        _, ax = plt.subplots()
    return ax


def _colours(n: int) -> list:
    cmap = _pyplot().get_cmap("tab10")
    return [cmap(i % 10) for i in range(n)]


def _plottable(schema: Any) -> list[str]:
    """Columns that take numbers as input: numeric ones, and numeric ones binned (``cuts``)."""
    return [c.name for c in schema.columns if c.kind != "categorical" or c.cuts is not None]


def _numeric_features(model: Any, features: Sequence | None) -> list[str]:
    """The names of the two numeric features to plot (default: the first two). A discretized
    column (``cuts`` set) takes numbers as input, so it counts as numeric here."""
    schema = model.schema_
    numeric = _plottable(schema)
    if features is None:
        if len(numeric) < 2:
            msg = (
                f"these plots need two numeric features; the model has {len(numeric)} "
                f"({', '.join(map(repr, numeric)) or 'none'})"
            )
            raise ValueError(msg)
        return numeric[:2]
    if isinstance(features, str) or len(features) != 2:
        msg = f"features must be a pair of column names or positions, got {shown(features)}"
        raise ValueError(msg)
    names = []
    for f in features:
        if isinstance(f, (int, np.integer)) and not isinstance(f, bool):
            if not -len(schema.names) <= f < len(schema.names):
                msg = f"feature position {f} is out of range for {len(schema.names)} columns"
                raise ValueError(msg)
            name = schema.names[f]
        else:
            name = schema.column(str(f)).name  # SchemaError naming the known columns
        if name not in numeric:
            msg = (
                f"feature {name!r} is categorical; these plots need numeric features "
                f"(numeric: {', '.join(map(repr, numeric)) or 'none'})"
            )
            raise ValueError(msg)
        names.append(name)
    if names[0] == names[1]:
        msg = f"features must be two different columns, got {shown(names[0])} twice"
        raise ValueError(msg)
    return names


def _frame(model: Any, X: Any) -> pd.DataFrame:
    """``X`` as a DataFrame with the model's column names."""
    named = isinstance(X, pd.DataFrame) or (
        isinstance(X, list) and len(X) > 0 and isinstance(X[0], dict)
    )
    frame = as_frame(X, names=None if named else model.schema_.names)
    missing = [n for n in model.schema_.names if n not in frame.columns]
    if missing:
        msg = f"X lacks the columns {missing} the model was fitted with"
        raise ValueError(msg)
    return frame[model.schema_.names]


def _grid(low: np.ndarray, high: np.ndarray, pad: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """An ``n`` by ``n`` grid from ``low`` to ``high`` of the two features, each side widened
    by ``pad`` of its range (of 1 where the range is 0), as ``np.meshgrid`` gives it."""
    pad_ = pad * np.where(high > low, high - low, 1.0)
    gx = np.linspace(low[0] - pad_[0], high[0] + pad_[0], n)
    gy = np.linspace(low[1] - pad_[1], high[1] + pad_[1], n)
    return np.meshgrid(gx, gy)


def _scatter_classes(ax: Any, model: Any, points: np.ndarray, y: Any, colours: list) -> None:
    labels = np.asarray(y)
    if labels.shape != (points.shape[0],):
        msg = f"y must have shape ({points.shape[0]},) to match X, got {labels.shape}"
        raise ValueError(msg)
    index = {c: i for i, c in enumerate(model.classes_.tolist())}
    unknown = sorted({str(v) for v in labels.tolist() if v not in index})
    if unknown:
        msg = f"y has labels {unknown} that are not classes of the model {list(model.classes_)}"
        raise ValueError(msg)
    idx = np.array([index[v] for v in labels.tolist()], dtype=np.int64)
    for i, c in enumerate(model.classes_):
        sel = idx == i
        ax.scatter(
            points[sel, 0],
            points[sel, 1],
            marker=_MARKERS[i % len(_MARKERS)],
            facecolors="none",
            edgecolors=[colours[i]],
            s=22,
            linewidths=0.8,
            label=str(c),
        )


def _legend(ax: Any, model: Any, colours: list) -> None:
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], color=colours[i], marker=_MARKERS[i % len(_MARKERS)], label=str(c))
        for i, c in enumerate(model.classes_)
    ]
    ax.legend(handles=handles, title="class", fontsize="small")
