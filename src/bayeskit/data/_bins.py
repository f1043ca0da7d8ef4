"""The argument checks the cut-point methods of :mod:`bayeskit.data.discretize` share (values as
float64, class codes, the number of bins) and the rows they leave out (missing, or of weight
zero)."""

from __future__ import annotations

import numbers

import numpy as np

from bayeskit._text import shown

_EMPTY = np.empty(0, dtype=np.float64)


def _check_n_bins(n_bins: object) -> int:
    if not isinstance(n_bins, numbers.Integral) or isinstance(n_bins, bool) or int(n_bins) < 1:
        msg = f"n_bins must be an integer >= 1, got {shown(n_bins)}"
        raise ValueError(msg)
    return int(n_bins)


def _float_array(values: object, name: str, ndim: int, *, finite: bool) -> np.ndarray:
    """``values`` as float64 of ``ndim`` dimensions; with ``finite``, infinity is refused (NaN is
    a missing value). Every public entry point checks its values here."""
    try:
        v = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        msg = f"{name} must be an array of numbers, got {type(values).__name__}"
        raise ValueError(msg) from exc
    if v.ndim != ndim:
        shape = "1-D" if ndim == 1 else "2-D (n_samples, n_columns)"
        msg = f"{name} must be {shape}, got an array of shape {v.shape}"
        raise ValueError(msg)
    if finite and np.isinf(v).any():
        msg = f"{name} must not contain infinite values (NaN marks a missing value)"
        raise ValueError(msg)
    return v


def _check_values(values: object) -> np.ndarray:
    return _float_array(values, "values", 1, finite=True)


def _check_y(y: object, n: int, n_classes: object) -> tuple[np.ndarray, int]:
    if y is None:
        msg = "mdl discretization needs y (the class codes)"
        raise ValueError(msg)
    ya = np.asarray(y)
    if ya.ndim != 1:
        msg = f"y must be 1-D, got an array of shape {ya.shape}"
        raise ValueError(msg)
    if ya.shape[0] != n:
        msg = f"y has {ya.shape[0]} entries but values has {n} rows"
        raise ValueError(msg)
    if ya.dtype.kind == "f" and ya.size and np.all(np.isfinite(ya)) and np.all(ya == np.round(ya)):
        ya = ya.astype(np.int64)
    if ya.size and ya.dtype.kind not in "iub":
        msg = f"y must hold integer class codes, got dtype {ya.dtype}"
        raise ValueError(msg)
    ya = ya.astype(np.int64, copy=False)
    if n_classes is None:
        n_classes = int(ya.max()) + 1 if ya.size else 1
    if (
        not isinstance(n_classes, numbers.Integral)
        or isinstance(n_classes, bool)
        or int(n_classes) < 1
    ):
        msg = f"n_classes must be an integer >= 1, got {shown(n_classes)}"
        raise ValueError(msg)
    if ya.size and (ya.min() < 0 or ya.max() >= n_classes):
        msg = f"y must hold codes in [0, {n_classes}), got values in [{ya.min()}, {ya.max()}]"
        raise ValueError(msg)
    return ya, int(n_classes)


def _observed(v: np.ndarray, w: np.ndarray | None, *others: np.ndarray):
    """Drop NaN rows and rows of weight zero."""
    keep = ~np.isnan(v)
    if w is not None:
        keep &= w > 0
    if keep.all():
        return (v, w, *others)
    return (v[keep], None if w is None else w[keep], *(o[keep] for o in others))
