"""Checks every classifier shares: its arguments (run at the start of ``fit``, so values set by
``set_params`` are checked too), the shape of ``X``, rows of weight 0, and categorical input.

:func:`check_shared_params` checks the parameters a model declares it takes (see the class
attributes of :class:`~bayeskit.classifiers.BayesClassifier`); a model's own parameters are its
``_check_own_params``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bayeskit._text import shown
from bayeskit.classifiers.labels import Targets
from bayeskit.data.discretize import METHODS as DISCRETIZE_METHODS
from bayeskit.data.schema import HANDLE_UNKNOWN, Encoded
from bayeskit.data.validation import check_sample_weight
from bayeskit.estimate import get_estimator
from bayeskit.exceptions import SchemaError

if TYPE_CHECKING:
    from bayeskit.classifiers._base import BayesClassifier

__all__ = [
    "check_shape",
    "check_shared_params",
    "drop_weightless",
    "require_categorical",
]


def _check_number(
    name: str, value: Any, *, low: float | None = None, integer: bool = False
) -> None:
    ok_type = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, ok_type):
        kind = "an integer" if integer else "a number"
        msg = f"{name} must be {kind}, got {shown(value)} ({type(value).__name__})"
        raise TypeError(msg)
    if not np.isfinite(value):
        msg = f"{name} must be finite, got {shown(value)}"
        raise ValueError(msg)
    if low is not None and value < low:
        msg = f"{name} must be >= {low}, got {shown(value)}"
        raise ValueError(msg)


def _check_choice(name: str, value: Any, options: tuple) -> None:
    if value not in options:
        msg = f"{name} must be one of {', '.join(map(repr, options))}, got {shown(value)}"
        raise ValueError(msg)


def _check_smoothing(alpha: Any, smoothing: Any) -> None:
    """The pseudo-count and smoothing of a categorical table, as every counting model takes
    them: a name of the registry :data:`bayeskit.estimate.ESTIMATORS`, and an ``alpha`` it
    takes."""
    _check_number("alpha", alpha, low=0)
    get_estimator(smoothing).check_alpha(alpha)


def check_shared_params(model: BayesClassifier) -> None:
    """The parameters every model takes (``priors``, ``prior_alpha``) and those its class
    declares it takes: the columns' (``_reads_tables``), binning (``_bins_numeric``), EM over
    unlabelled rows (``_learns_unlabelled``) and over missing values (``_missing_em``)."""
    _check_number("prior_alpha", model.prior_alpha, low=0)
    if model.priors is not None:
        p = np.asarray(model.priors)
        if p.ndim != 1 or p.dtype.kind not in "fiu" or not np.isfinite(p).all() or (p < 0).any():
            msg = f"priors must be a 1-D array of non-negative numbers, got {model.priors!r}"
            raise ValueError(msg)
        if not np.isclose(p.sum(), 1.0, rtol=0, atol=1e-9):
            msg = f"priors must sum to 1, got {shown(p.sum())}"
            raise ValueError(msg)
    if model._reads_tables:
        _check_choice("handle_unknown", model.handle_unknown, HANDLE_UNKNOWN)
    if model._bins_numeric:
        if model.discretize is not None:
            _check_choice("discretize", model.discretize, DISCRETIZE_METHODS)
        _check_number("n_bins", model.n_bins, low=1, integer=True)
    if model._learns_unlabelled:  # the EM parameters (bayeskit.classifiers._incomplete)
        _check_number("unlabelled_weight", model.unlabelled_weight, low=0)
        _check_number("max_iter", model.max_iter, low=1, integer=True)
        _check_number("tol", model.tol, low=0)
    if model._missing_em is not None:
        _check_choice("missing", model.missing, ("skip", "em"))


def check_shape(X: Any) -> None:
    """The one check of every model that ``X`` is a table of at least one row and column
    (ValueError with its shape otherwise)."""
    shape: tuple[int, ...] = getattr(X, "shape", ())
    if len(shape) != 2:
        msg = (
            f"X must be 2-D (n_samples, n_features), got shape {shape}. Reshape your data "
            "with X.reshape(-1, 1) for a single feature or X.reshape(1, -1) for one sample"
        )
        raise ValueError(msg)
    if shape[0] == 0:
        msg = f"Found array with 0 sample(s) (shape={shape}) while a minimum of 1 is required."
        raise ValueError(msg)
    if shape[1] == 0:
        msg = f"0 feature(s) (shape={shape}) while a minimum of 1 is required."
        raise ValueError(msg)


def drop_weightless(X: Any, targets: Targets, sample_weight: Any):
    """Rows of weight 0 are left out before anything is learned from them (their categories
    do not enter a vocabulary, their labels do not make a class), so an integer weight equals
    repeating the row that many times, 0 included."""
    w = check_sample_weight(sample_weight, X.shape[0])
    if w is None or (w > 0).all():
        return X, targets, w
    keep = w > 0
    if not keep.any():
        msg = "sample_weight sums to zero: there is nothing to learn from"
        raise ValueError(msg)
    rows = X.iloc[keep] if isinstance(X, pd.DataFrame) else X[keep]
    return rows, targets.take(keep), w[keep]


def rows_weighed(y: Any, w: Any) -> int:
    """The rows of a chunk that count: every row, or those of positive weight."""
    return len(y) if w is None else int((np.asarray(w, dtype=np.float64) > 0).sum())


def require_categorical(model: Any, enc: Encoded) -> None:
    """SchemaError naming ``model``'s numeric columns, for a model that counts categories
    only (the semi-naive models, SubclassNaiveBayes)."""
    if enc.values.shape[1]:
        names = [c.name for c in model.schema_.numeric]
        msg = (
            f"{type(model).__name__} models categorical features only; numeric columns "
            f"{names} need binning: pass discretize='mdl' (the default), 'equal-width' or "
            "'equal-frequency', or declare them categorical"
        )
        kind = {"TAN": "tan", "KDB": "kdb"}.get(type(model).__name__)
        if kind is not None:  # the same structure exists with numeric features kept continuous
            msg += f"; CLGClassifier(structure={kind!r}) keeps them continuous"
        raise SchemaError(msg)
