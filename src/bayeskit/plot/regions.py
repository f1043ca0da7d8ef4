"""The class a model predicts over a grid of two numeric features, every other feature held at
a typical value, with the data on top."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from bayeskit.plot._common import (
    _axes,
    _colours,
    _frame,
    _grid,
    _numeric_features,
    _plottable,
    _scatter_classes,
)

__all__ = ["decision_regions"]


def decision_regions(
    model: Any,
    X: Any,
    y: Any,
    features: Sequence | None = None,
    *,
    grid: int = 200,
    alpha: float = 0.25,
    ax: Any = None,
) -> Any:
    """The class a model predicts over a grid of two numeric features, with the data on top.

    Every other feature is held at one value: its median (numeric) or its most frequent value
    (categorical) in ``X``; the figure says which values (a note under the axes, also kept in
    ``ax.bayeskit_held``). The grid spans the data's range of the two features, padded by 5%.

    By default the two features plotted are the numeric ones that separate the classes best in
    ``(X, y)``: the largest ratio of between-class to within-class variance (Fisher's
    criterion, each feature alone). Plotting the first two columns instead can show one solid
    region when those two carry little evidence next to the features held fixed.

    Parameters
    ----------
    model : any fitted bayeskit classifier with a schema
    X : DataFrame or array-like
        Data as the model takes it; its points are scattered by class and set the grid's range.
    y : array-like of shape (n_samples,)
        Labels of ``X`` (classes of the model).
    features : pair of column names or positions, optional
        The two numeric features (default: the two that separate the classes best, see above).
    grid : int, default=200
        Grid points per axis.
    alpha : float, default=0.25
        Opacity of the regions.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Holding one filled contour set (the regions) and one scatter collection per class.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        ``model`` is not fitted.
    TypeError
        ``model`` was not fitted on tabular data (it has no schema).
    ValueError
        ``features`` is not a pair of the model's numeric columns (by name or position), or
        the model has fewer than two numeric features to choose from.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit import KNNBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("iris")
    >>> model = KNNBayes().fit(X, y)
    >>> ax = decision_regions(model, X, y, features=("petal_length", "petal_width"))
    >>> ax.get_xlabel()
    'petal_length'
    """
    check_is_fitted(model, "classes_")
    if getattr(model, "schema_", None) is None:
        msg = (
            "decision_regions needs a model fitted on tabular data; "
            f"{type(model).__name__} has no schema"
        )
        raise TypeError(msg)
    frame = _frame(model, X)
    if features is None:
        features = _separating_pair(model, frame, y)
    names = _numeric_features(model, features)
    points = frame[names].to_numpy(dtype=np.float64)
    xx, yy = _grid(np.nanmin(points, axis=0), np.nanmax(points, axis=0), 0.05, grid)
    grid_frame, held = _grid_rows(model, frame, names, xx, yy)
    grid_X = grid_frame if hasattr(model, "feature_names_in_") else grid_frame.to_numpy()
    predicted = np.asarray(model.predict(grid_X))
    index = {c: i for i, c in enumerate(model.classes_.tolist())}
    z = np.array([index[v] for v in predicted.tolist()], dtype=np.float64).reshape(xx.shape)

    ax = _axes(ax)
    colours = _colours(len(model.classes_))
    ax.contourf(
        xx, yy, z, levels=np.arange(len(model.classes_) + 1) - 0.5, colors=colours, alpha=alpha
    )
    _scatter_classes(ax, model, points, y, colours)
    ax.legend(title="class", fontsize="small")
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.set_title(f"{type(model).__name__}: predicted class over {names[0]} and {names[1]}")
    ax.bayeskit_held = held
    if held:
        _note_held(ax, held)
    return ax


def _grid_rows(model: Any, frame: pd.DataFrame, names: list[str], xx: np.ndarray,
               yy: np.ndarray) -> tuple[pd.DataFrame, dict[str, Any]]:  # fmt: skip
    """A row per grid point: the two features plotted at the point, every other one held at
    its typical value in ``frame`` (:func:`_typical`); and the values held."""
    cells = {}
    held = {}
    for col in frame.columns:
        if col == names[0]:
            cells[col] = xx.ravel()
        elif col == names[1]:
            cells[col] = yy.ravel()
        else:
            value = held[col] = _typical(frame[col], model, col)
            numeric = model.schema_.column(str(col)).kind == "numeric"
            cells[col] = pd.Series(
                [value] * xx.size, dtype=np.float64 if numeric else frame[col].dtype
            )
    return pd.DataFrame(cells), held


def _note_held(ax: Any, held: dict[str, Any]) -> None:
    """A note under the axes: the values the other features are held at (the first six)."""
    shown = [f"{k}={_short(v)}" for k, v in list(held.items())[:6]]
    more = f", and {len(held) - 6} more" if len(held) > 6 else ""
    ax.annotate(
        "other features held at (median / most frequent): " + ", ".join(shown) + more,
        xy=(0.0, -0.13),
        xycoords="axes fraction",
        va="top",
        fontsize="x-small",
        wrap=True,
    )


def _short(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _separating_pair(model: Any, frame: pd.DataFrame, y: Any) -> list[str]:
    """The two numeric features with the largest Fisher ratio (between- over within-class
    variance) in the data; the first two numeric ones where fewer can be scored."""
    schema = model.schema_
    numeric = _plottable(schema)
    if len(numeric) <= 2:
        return numeric
    labels = np.asarray(y)
    scores = []
    for name in numeric:
        v = pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=np.float64)
        ok = ~np.isnan(v)
        if ok.sum() < 2:
            scores.append(-np.inf)
            continue
        v, lab = v[ok], labels[ok]
        between = within = 0.0
        for c in np.unique(lab):
            part = v[lab == c]
            between += part.size * (part.mean() - v.mean()) ** 2
            within += ((part - part.mean()) ** 2).sum()
        scores.append(between / within if within > 0 else (np.inf if between > 0 else 0.0))
    order = np.argsort(-np.asarray(scores), kind="stable")[:2]
    return [numeric[i] for i in sorted(order)]


def _typical(s: pd.Series, model: Any, name: str) -> Any:
    """The value a feature is held at: median if numeric, most frequent value if categorical."""
    if model.schema_.column(name).kind == "numeric":
        v = pd.to_numeric(s, errors="coerce").median()
        return 0.0 if pd.isna(v) else float(v)
    mode = s.dropna().mode()
    return mode.iloc[0] if len(mode) else None
