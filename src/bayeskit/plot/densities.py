"""Level curves of each class's normal density over two numeric features (Zaki & Meira
Figs. 18.1 and 18.2): the class's fitted normal restricted to the two features, evaluated on a
grid, drawn at fractions of its peak."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from bayeskit._text import shown
from bayeskit.estimate import RIDGE_FACTOR, mvn_log_density, regularised_cholesky
from bayeskit.plot._common import (
    _MARKERS,
    _axes,
    _colours,
    _frame,
    _grid,
    _legend,
    _numeric_features,
    _scatter_classes,
)

__all__ = ["DEFAULT_LEVELS", "density_contours"]

#: Level curves drawn by default, as fractions of each class's peak density.
DEFAULT_LEVELS = (0.01, 0.1, 0.5, 0.9)


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
    points = None if X is None else _frame(model, X)[names].to_numpy(dtype=np.float64)
    p = None if point is None else _test_point(point)
    low, high = _extent(means, covs, fractions[0], points, p)
    xx, yy = _grid(low, high, 0.02, grid)
    if points is not None and y is not None:
        _scatter_classes(ax, model, points, y, colours)
    _draw_densities(ax, model, names, means, covs, fractions, xx, yy, colours)
    for i, _ in enumerate(model.classes_):
        ax.scatter(*means[i], marker=_MARKERS[i % len(_MARKERS)], c="black", s=60, zorder=3)
    if p is not None:
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


def _test_point(point: Sequence[float]) -> np.ndarray:
    """``point=``: the two feature values of the test point drawn."""
    p = np.asarray(point, dtype=np.float64)
    if p.shape != (2,):
        msg = f"point must be the two feature values, got {shown(point)}"
        raise ValueError(msg)
    return p


def _extent(means: np.ndarray, covs: np.ndarray, outermost: float, points: np.ndarray | None,
            p: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The lowest and highest values of the two features drawn: every class's curve at the
    ``outermost`` fraction of its peak, with room, and the data and the test point."""
    sd = np.sqrt(np.maximum(np.diagonal(covs, axis1=1, axis2=2), 0.0))
    reach = np.sqrt(-2.0 * np.log(outermost))  # the outermost curve, in standard deviations
    low, high = (means - 1.15 * reach * sd).min(axis=0), (means + 1.15 * reach * sd).max(axis=0)
    if points is not None:
        low = np.fmin(low, np.nanmin(points, axis=0))
        high = np.fmax(high, np.nanmax(points, axis=0))
    if p is not None:
        low, high = np.minimum(low, p), np.maximum(high, p)
    return low, high


def _draw_densities(ax: Any, model: Any, names: list[str], means: np.ndarray, covs: np.ndarray,
                    fractions: np.ndarray, xx: np.ndarray, yy: np.ndarray,
                    colours: list) -> None:  # fmt: skip
    """Each class's density over the grid ``xx, yy`` as level curves at ``fractions`` of its
    peak (the 1% one thick); a class of singular covariance skipped with a warning."""
    cells = np.stack([xx.ravel(), yy.ravel()], axis=1)
    widths = [2.0 if np.isclose(f, 0.01) else 0.8 for f in fractions]
    for i, c in enumerate(model.classes_.tolist()):  # plain labels in the warning
        chol = _cholesky(covs[i])
        if chol is None:
            warnings.warn(
                f"class {shown(c)} has a singular 2 x 2 covariance over {names}; no contours drawn",
                UserWarning,
                stacklevel=3,  # the caller of density_contours
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
