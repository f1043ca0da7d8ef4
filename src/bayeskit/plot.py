"""Figures of fitted classifiers (class densities, decision regions) and of Bayesian networks
(their DAGs), with matplotlib.

The figures of Zaki & Meira ch. 18 (Figs. 18.1 and 18.2): over two numeric features, each class's
normal density drawn as level curves, the 1% level (1% of the class's peak density) among them,
the class means in black and a test point as a square; and the regions of the feature plane that
a model assigns to each class.

matplotlib is an optional extra (``pip install bayeskit[plot]``); it is imported when a function
here is called, so ``import bayeskit.plot`` works without it.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from bayeskit._text import shown
from bayeskit.data.schema import as_frame
from bayeskit.estimate import RIDGE_FACTOR, mvn_log_density, regularised_cholesky

__all__ = ["NetworkDrawing", "decision_regions", "density_contours", "network"]

_MARKERS = ("o", "^", "s", "D", "v", "P", "X", "*", "<", ">")
#: Level curves drawn by default, as fractions of each class's peak density.
DEFAULT_LEVELS = (0.01, 0.1, 0.5, 0.9)


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


def _class_gaussians(model: Any, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per-class means ``(n_classes, 2)`` and covariances ``(n_classes, 2, 2)`` of the two
    features: the marginal of each class's normal density over them."""
    numeric = [c.name for c in model.schema_.numeric]
    binned = [n for n in names if n not in numeric]
    if binned:
        msg = (
            f"density_contours draws class-conditional normal densities; the model discretized "
            f"{binned} (discretize={getattr(model, 'discretize', None)!r}), so it has none for "
            "them: fit it with discretize=None"
        )
        raise ValueError(msg)
    pos = [numeric.index(n) for n in names]
    if hasattr(model, "means_") and hasattr(model, "covariance_"):  # FullBayes
        return model.means_[:, pos], model.covariance_[:, pos][:, :, pos]
    if hasattr(model, "theta_") and hasattr(model, "var_"):  # NaiveBayes
        var = model.var_[:, pos] + getattr(model, "var_floor_", 0.0)
        cov = np.zeros((var.shape[0], 2, 2))
        cov[:, 0, 0], cov[:, 1, 1] = var[:, 0], var[:, 1]
        return model.theta_[:, pos], cov
    msg = (
        f"density_contours draws class-conditional normal densities, which a "
        f"{type(model).__name__} does not have; it takes a fitted NaiveBayes (theta_, var_) or "
        "FullBayes (means_, covariance_)"
    )
    raise TypeError(msg)


def _cholesky(cov: np.ndarray) -> np.ndarray | None:
    """The Cholesky factor of a covariance, or None where it is not finite or not positive
    definite (by the test :func:`bayeskit.estimate.regularised_cholesky` applies)."""
    diag = np.diagonal(cov)
    if not (np.all(np.isfinite(cov)) and np.all(diag > 0)):
        return None
    chol, ridge = regularised_cholesky(cov, RIDGE_FACTOR * float(diag.max()))
    return chol if ridge == 0 else None


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


def density_contours(
    model: Any,
    features: Sequence | None = None,
    *,
    X: Any = None,
    y: Any = None,
    point: Sequence[float] | None = None,
    levels: Sequence[float] = DEFAULT_LEVELS,
    grid: int = 200,
    ax: Any = None,
) -> Any:
    """Level curves of each class's normal density over two numeric features (Zaki Figs. 18.1-2).

    For each class ``c`` the density of the two features, ``N(mu_c, Sigma_c)`` restricted to them
    (the marginal of the class's fitted normal: the full 2 x 2 covariance block for
    :class:`~bayeskit.classifiers.FullBayes`, the diagonal one for
    :class:`~bayeskit.NaiveBayes`), is drawn at the given fractions of its peak; the curve at 1%
    of the peak, the one of Zaki and Meira's Figs. 18.1 and 18.2, is always drawn, thicker. Since
    ``f(x) / f(mu) = exp(-d^2 / 2)`` with ``d`` the Mahalanobis distance, the 1% curve is the
    ellipse ``d^2 = 2 ln 100``. Class means are marked in black.

    Parameters
    ----------
    model : fitted NaiveBayes or FullBayes
    features : pair of column names or positions, optional
        The two numeric features (default: the first two numeric columns).
    X, y : optional
        Data (as the model takes it) and labels, scattered by class.
    point : pair of float, optional
        A test point (its two feature values), marked as a square labelled ``x``.
    levels : sequence of float in (0, 1), default=(0.01, 0.1, 0.5, 0.9)
        Fractions of each class's peak density at which curves are drawn (0.01 is added).
    grid : int, default=200
        Grid points per axis.
    ax : matplotlib Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Holding one contour set per class.

    Raises
    ------
    TypeError
        If the model has no normal class densities.
    ValueError
        If a feature is categorical or unknown, or a level is outside (0, 1).
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit import NaiveBayes
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("iris")
    >>> model = NaiveBayes(discretize=None).fit(X, y)
    >>> ax = density_contours(model, ("sepal_length", "sepal_width"), point=(6.75, 4.25))
    >>> len(ax.collections) >= 3
    True
    """
    check_is_fitted(model, "classes_")
    names = _numeric_features(model, features)
    means, covs = _class_gaussians(model, names)
    fractions = np.array(sorted({float(v) for v in levels} | {0.01}))
    if not ((fractions > 0) & (fractions < 1)).all():
        msg = f"levels must be fractions of the peak density in (0, 1), got {list(levels)}"
        raise ValueError(msg)
    ax = _axes(ax)
    colours = _colours(len(model.classes_))

    sd = np.sqrt(np.maximum(np.diagonal(covs, axis1=1, axis2=2), 0.0))
    reach = np.sqrt(-2.0 * np.log(fractions[0]))  # the outermost curve, in standard deviations
    low, high = (means - 1.15 * reach * sd).min(axis=0), (means + 1.15 * reach * sd).max(axis=0)
    points = None
    if X is not None:
        points = _frame(model, X)[names].to_numpy(dtype=np.float64)
        low = np.fmin(low, np.nanmin(points, axis=0))
        high = np.fmax(high, np.nanmax(points, axis=0))
    if point is not None:
        p = np.asarray(point, dtype=np.float64)
        if p.shape != (2,):
            msg = f"point must be the two feature values, got {shown(point)}"
            raise ValueError(msg)
        low, high = np.minimum(low, p), np.maximum(high, p)
    pad = 0.02 * np.where(high > low, high - low, 1.0)
    gx = np.linspace(low[0] - pad[0], high[0] + pad[0], grid)
    gy = np.linspace(low[1] - pad[1], high[1] + pad[1], grid)
    xx, yy = np.meshgrid(gx, gy)
    cells = np.stack([xx.ravel(), yy.ravel()], axis=1)

    if points is not None and y is not None:
        _scatter_classes(ax, model, points, y, colours)
    widths = [2.0 if np.isclose(f, 0.01) else 0.8 for f in fractions]
    for i, c in enumerate(model.classes_.tolist()):  # plain labels in the warning
        chol = _cholesky(covs[i])
        if chol is None:
            warnings.warn(
                f"class {shown(c)} has a singular 2 x 2 covariance over {names}; no contours drawn",
                UserWarning,
                stacklevel=2,
            )
            continue
        # f(x) / f(mu) = exp(-d^2 / 2), from the estimate layer's Cholesky-based log density
        log_f = mvn_log_density(cells, means[i], chol)
        log_peak = mvn_log_density(means[i][None, :], means[i], chol)
        lines = ax.contour(
            xx,
            yy,
            np.exp(log_f - log_peak).reshape(xx.shape),
            levels=fractions,
            colors=[colours[i]],
            linewidths=widths,
        )
        ax.clabel(lines, fmt=lambda f: f"{100 * f:g}%", fontsize="x-small")
    for i, _ in enumerate(model.classes_):
        ax.scatter(*means[i], marker=_MARKERS[i % len(_MARKERS)], c="black", s=60, zorder=3)
    if point is not None:
        ax.scatter(*p, marker="s", facecolors="white", edgecolors="black", s=70, zorder=4)
        ax.annotate("x", p, xytext=(6, 6), textcoords="offset points", fontweight="bold")
    _legend(ax, model, colours)
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    percent = ", ".join(f"{100 * f:g}%" for f in fractions)
    ax.set_title(
        f"{type(model).__name__}: class densities of {names[0]} and {names[1]}\n"
        f"curves at {percent} of each class's peak density (1% thick)",
        fontsize="medium",
    )
    return ax


def _legend(ax: Any, model: Any, colours: list) -> None:
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], color=colours[i], marker=_MARKERS[i % len(_MARKERS)], label=str(c))
        for i, c in enumerate(model.classes_)
    ]
    ax.legend(handles=handles, title="class", fontsize="small")


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
    low, high = np.nanmin(points, axis=0), np.nanmax(points, axis=0)
    pad = 0.05 * np.where(high > low, high - low, 1.0)
    gx = np.linspace(low[0] - pad[0], high[0] + pad[0], grid)
    gy = np.linspace(low[1] - pad[1], high[1] + pad[1], grid)
    xx, yy = np.meshgrid(gx, gy)

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
    grid_frame = pd.DataFrame(cells)
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
    return ax


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


# ---------------------------------------------------------------- networks
#: The labels' font size (points) in a figure :func:`network` makes; drawn into smaller axes,
#: the whole drawing, its font with it, is scaled down to fit.
NETWORK_FONTSIZE = 9.0
_NODE_COLOUR, _HIGHLIGHT_COLOUR, _EDGE_COLOUR = "#d1e5f0", "#f4a582", "#555555"
_PAD_X, _PAD_Y = 0.6, 0.4  # room between a label and its box's sides, in font sizes
_MAX_ZOOM = 1.5  # into large axes, a drawing is scaled up at most this much
_MAX_FIGURE_INCHES = 60.0  # the largest side of a figure network() makes


@dataclass
class NetworkDrawing:
    """The geometry of a network drawn by :func:`network`, kept on its axes as
    ``ax.bayeskit_network``. Coordinates are the axes' data coordinates.

    Attributes
    ----------
    boxes : dict
        Node -> ``(x0, y0, x1, y1)``, its box (left, bottom, right, top).
    edges : dict
        ``(parent, child)`` -> array of shape ``(k, 2)``: the polyline drawn, from a point on the
        bottom side of the parent's box to the arrow's tip on the top side of the child's.
    layers : dict
        Node -> its layer, 0 at the top; every edge goes down to a later layer.
    labels : dict
        Node -> its label (a matplotlib ``Text``).
    arrows : dict
        ``(parent, child)`` -> the edge's ``FancyArrowPatch``.
    fontsize : float
        The labels' font size, in points.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit.networks import DAG
    >>> drawn = network(DAG(edges=[("rain", "wet grass")])).bayeskit_network
    >>> drawn.edges[("rain", "wet grass")].shape
    (2, 2)
    >>> drawn.boxes["rain"][1] > drawn.boxes["wet grass"][3]  # the parent above
    True
    """

    boxes: dict
    edges: dict
    layers: dict
    labels: dict
    arrows: dict
    fontsize: float


def network(net: Any, ax: Any = None, *, layout: str = "auto", highlight: Sequence = ()) -> Any:
    """Draw a Bayesian network's DAG (a :class:`~bayeskit.networks.BayesianNetwork` or a
    :class:`~bayeskit.networks.DAG`): nodes as labelled boxes, parents above their children,
    edges as arrows.

    The layout is layered, as graphviz's ``dot`` draws (Sugiyama, Tagawa & Toda 1981; Gansner
    et al. 1993), without needing graphviz: each node gets a layer and every edge goes down to
    a later one; an edge spanning several layers passes each layer in between through a gap of
    its own; the order within the layers is chosen by barycentre sweeps to keep crossings few;
    edges are straightened where that keeps them clear of the boxes. So no box overlaps another,
    no edge passes through a box other than its own two, and no two edges lie on top of each
    other (``A -> C`` beside ``A -> B -> C`` is routed round ``B``). Every box fits its whole
    label, measured in the font drawn; where the drawing must shrink to fit the axes, the font
    shrinks with it.

    Parameters
    ----------
    net : BayesianNetwork or DAG
    ax : matplotlib Axes, optional
        Where to draw. Its size when called sets the scale: resizing the figure afterwards can
        make labels overflow their boxes. Default: a new figure sized to the drawing, labels at
        :data:`NETWORK_FONTSIZE` points (smaller only past 60 inches a side).
    layout : {"auto", "layered"}, default="auto"
        Both draw the layered layout. ``"dot"`` and ``"spring"`` are deprecated (a
        ``FutureWarning``) and draw it too: their straight edges went through nodes.
    highlight : sequence of nodes, optional
        Nodes drawn in another colour (a query, the class).

    Returns
    -------
    matplotlib.axes.Axes
        Holding a label (``ax.texts``) and a box per node and an arrow per edge (``ax.patches``),
        and the geometry as ``ax.bayeskit_network``, a :class:`NetworkDrawing`.

    Raises
    ------
    TypeError
        If ``net`` is neither a BayesianNetwork nor a DAG.
    ValueError
        If ``layout`` is not one of the above.
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit.networks import DAG
    >>> dag = DAG(edges=[("Class", "Sex"), ("Sex", "Survived"), ("Class", "Survived")])
    >>> drawn = network(dag, highlight=["Class"]).bayeskit_network
    >>> [drawn.layers[n] for n in ("Class", "Sex", "Survived")]
    [0, 1, 2]
    >>> len(drawn.edges[("Class", "Survived")]) > 2  # bent round Sex
    True
    """
    from bayeskit._layered import layered_layout
    from bayeskit._warnings import warn
    from bayeskit.networks import DAG, BayesianNetwork

    dag = net.dag if isinstance(net, BayesianNetwork) else net
    if not isinstance(dag, DAG):
        msg = f"network needs a BayesianNetwork or a DAG, got {type(net).__name__}"
        raise TypeError(msg)
    if layout in ("dot", "spring"):
        warn(
            f"layout={layout!r} is deprecated and draws the layered layout (its straight edges "
            "went through nodes); pass layout='layered'",
            FutureWarning,
        )
    elif layout not in ("auto", "layered"):
        msg = f"layout must be 'auto' or 'layered', got {layout!r}"
        raise ValueError(msg)
    plt = _pyplot()
    nodes = list(dag.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    marked = {n for n in highlight if n in index}

    own = ax is None
    if own:
        fig, ax = plt.subplots()
        ax.set_position((0.0, 0.0, 1.0, 1.0))
    fig = ax.figure
    base = NETWORK_FONTSIZE
    texts = [_label(ax, n, base) for n in nodes]
    renderer = _renderer(fig)
    extents = _text_sizes(texts, renderer, fig.dpi)
    sizes = [(w + 2 * _PAD_X * base, h + 2 * _PAD_Y * base) for w, h in extents]
    geometry = layered_layout(len(nodes), [(index[u], index[v]) for u, v in dag.edges], sizes, base)

    points = [(b[0], b[1]) for b in geometry.boxes] + [(b[2], b[3]) for b in geometry.boxes]
    points += [tuple(p) for path in geometry.paths for p in path]
    margin = 0.5 * base
    xs, ys = [p[0] for p in points] or [0.0], [p[1] for p in points] or [0.0]
    x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin
    width, height = x1 - x0, y1 - y0
    if own:
        shrink = min(1.0, _MAX_FIGURE_INCHES * 72 / max(width, height))
        fig.set_size_inches(max(width * shrink, 36.0) / 72, max(height * shrink, 36.0) / 72)
    frame = ax.get_position()
    fig_w, fig_h = fig.get_size_inches() * 72
    ax_w, ax_h = frame.width * fig_w, frame.height * fig_h
    scale = min(ax_w / width, ax_h / height, _MAX_ZOOM)  # points on the page per layout unit
    if abs(scale - 1.0) < 1e-9:
        scale = 1.0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ax.set_xlim(cx - ax_w / scale / 2, cx + ax_w / scale / 2)
    ax.set_ylim(cy - ax_h / scale / 2, cy + ax_h / scale / 2)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_autoscale_on(False)
    ax.set_axis_off()

    for t, box in zip(texts, geometry.boxes, strict=True):
        t.set_position(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
    room = [(w + _PAD_X * base, h + _PAD_Y * base) for w, h in extents]  # half the padding
    fontsize = _fitting_font(texts, extents, room, scale, base, renderer, fig.dpi)

    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    line = max(0.3, min(1.0, scale))
    for node, box in zip(nodes, geometry.boxes, strict=True):
        ax.add_artist(  # add_patch would recompute the limits, slowly, for nothing
            FancyBboxPatch(
                (box[0], box[1]),
                box[2] - box[0],
                box[3] - box[1],
                boxstyle=f"round,pad=0,rounding_size={0.3 * base:g}",
                facecolor=_HIGHLIGHT_COLOUR if node in marked else _NODE_COLOUR,
                edgecolor="#4a6f8a",
                linewidth=0.6 * line,
                zorder=2,
            )
        )
    arrows, polylines = {}, {}
    for edge, pts in zip(dag.edges, geometry.paths, strict=True):
        arrows[edge] = ax.add_artist(
            FancyArrowPatch(
                path=MplPath(pts),
                arrowstyle="-|>",
                mutation_scale=0.9 * fontsize + 1.0,
                linewidth=0.9 * line,
                color=_EDGE_COLOUR,
                zorder=1,
            )
        )
        polylines[edge] = pts
    ax.bayeskit_network = NetworkDrawing(
        boxes={n: tuple(map(float, b)) for n, b in zip(nodes, geometry.boxes, strict=True)},
        edges=polylines,
        layers=dict(zip(nodes, geometry.layers, strict=True)),
        labels=dict(zip(nodes, texts, strict=True)),
        arrows=arrows,
        fontsize=fontsize,
    )
    return ax


def _label(ax: Any, node: Any, fontsize: float) -> Any:
    return ax.text(
        0.0,
        0.0,
        str(node),
        fontsize=fontsize,
        ha="center",
        va="center",
        zorder=3,
        parse_math=False,  # a '$' in a name is a dollar sign
    )


def _renderer(fig: Any) -> Any:
    """A renderer to measure text with: the figure's own, else an Agg one at its dpi."""
    get = getattr(fig.canvas, "get_renderer", None)
    if get is not None:
        return get()
    from matplotlib.backends.backend_agg import RendererAgg

    return RendererAgg(1, 1, fig.dpi)


def _text_sizes(texts: list, renderer: Any, dpi: float) -> list[tuple[float, float]]:
    """Each text's rendered width and height, in points."""
    out = []
    for t in texts:
        extent = t.get_window_extent(renderer)
        out.append((extent.width * 72 / dpi, extent.height * 72 / dpi))
    return out


def _fitting_font(texts, extents, room, scale, base, renderer, dpi) -> float:
    """The labels' font size: ``base * scale``, less where a label, drawn at that size, would
    not fit its ``room`` scaled by ``scale`` (text does not scale quite in proportion)."""
    fontsize = base * scale
    for _ in range(4):
        if fontsize != base:
            for t in texts:
                t.set_fontsize(fontsize)
            extents = _text_sizes(texts, renderer, dpi)
        worst = max(
            (
                max(w / (rw * scale), h / (rh * scale))
                for (w, h), (rw, rh) in zip(extents, room, strict=True)
            ),
            default=1.0,
        )
        if worst <= 1.0:
            break
        fontsize /= worst * 1.01
    return fontsize
