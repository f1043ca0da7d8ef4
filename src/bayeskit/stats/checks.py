"""Invariants of statistics read from outside (a model file): the helpers behind every
statistics class's ``validate`` method.

A statistic built by bayeskit's own counting code is right by construction; one read from a file
may have been edited. Each statistics class states its invariants in a ``validate(layout, where)``
method built from these checks, so that ``bayeskit.io`` stays thin: it describes the expected
layout (:class:`Layout`) and asks the statistics whether they fit it. Every failure is a
``ValueError`` whose message starts with the field's path (``where``), such as
``stats_.counts.feature_count[2]``. A model whose statistics carry invariants only it knows
checks them with the same helpers (its ``_validate_stats``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

_FLOAT = np.dtype(np.float64)
#: How far apart two sums of the same weights, added in different orders (and merged chunk by
#: chunk), may be and still agree: far above float64 rounding over billions of rows, far below
#: any edit that changes what a model predicts.
RTOL = 1e-7


class Layout(NamedTuple):
    """What a model's statistics must fit: the class labels and the schema, in numbers.

    Attributes
    ----------
    n_classes : int
    n_states : tuple of int
        Size of the state axis of each count table, in code order (the vocabulary size of each
        categorical column; the number of features for the multinomial and Bernoulli models).
    state_names : tuple of str
        What each state axis counts, for messages (``"categories of column 'color'"``).
    n_numeric : int
        Number of numeric features.
    numeric_names : tuple of str
        Their names, for messages.
    column_names : tuple of str
        The name of each categorical column, in code order, for messages naming a family
        (empty: the columns are named by position).
    numeric_positions : tuple of int
        Where each numeric column stands among all the columns (categorical and numeric, in
        the schema's order): what statistics of the numeric columns binned need (empty: after
        the categorical ones).

    Examples
    --------
    A fitted model's statistics checked against the layout of its data (a model file's reader
    does this before it trusts what it read):

    >>> import pandas as pd
    >>> from bayeskit import NaiveBayes
    >>> from bayeskit.stats.checks import Layout
    >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
    >>> stats = NaiveBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> sky = "categories of column 'sky'"
    >>> stats.validate(Layout(2, (2,), (sky,), 1, ("temp",), ("sky",)))
    >>> stats.validate(Layout(2, (3,), (sky,), 1, ("temp",), ("sky",)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: stats_.counts.feature_count[0]: shape (2, 2) does not match (2, 3): ...
    """

    n_classes: int
    n_states: tuple[int, ...]
    state_names: tuple[str, ...]
    n_numeric: int = 0
    numeric_names: tuple[str, ...] = ()
    column_names: tuple[str, ...] = ()
    numeric_positions: tuple[int, ...] = ()

    def binned(self, bins: tuple[int, ...]) -> Layout:
        """The layout of the same data with its numeric columns binned, ``bins[j]`` bins for
        numeric column ``j``, each at its place among the columns.

        Parameters
        ----------
        bins : tuple of int
            The number of bins of each numeric column.

        Returns
        -------
        Layout
            Every column categorical, in the schema's order.

        Raises
        ------
        ValueError
            If ``bins`` does not have one entry per numeric column.

        Examples
        --------
        >>> Layout(2, (3,), ("states",), 1, ("x",), ("c",), (0,)).binned((4,))
        Layout(n_classes=2, n_states=(4, 3), state_names=("bins of column 'x'", 'states'), \
n_numeric=0, numeric_names=(), column_names=('x', 'c'), numeric_positions=())
        """
        if len(bins) != self.n_numeric:
            fail("bins", f"{len(bins)} numbers given for {self.n_numeric} numeric columns")
        total = len(self.n_states) + self.n_numeric
        at = self.numeric_positions or tuple(range(len(self.n_states), total))
        where = dict(zip(at, range(self.n_numeric), strict=True))
        names = self.column_names
        states, state_names, column_names, cat = [], [], [], 0
        for p in range(total):
            if p in where:
                j = where[p]
                name = self.numeric_names[j] if j < len(self.numeric_names) else f"numeric {j}"
                states.append(int(bins[j]))
                state_names.append(f"bins of column {name!r}")
                column_names.append(name)
            else:
                states.append(self.n_states[cat])
                state_names.append(self.state_names[cat])
                column_names.append(names[cat] if names else "")
                cat += 1
        return Layout(self.n_classes, tuple(states), tuple(state_names), 0, (),
                      tuple(column_names) if names else ())  # fmt: skip


def fail(where: str, what: str) -> None:
    msg = f"{where}: {what}"
    raise ValueError(msg)


def array(
    value: Any,
    where: str,
    dims: tuple[tuple[int | None, str], ...],
    *,
    kind: str = "float",
) -> np.ndarray:
    """``value`` as an array of the expected dtype and shape, or ValueError naming ``where``.

    ``dims`` gives, per axis, the expected length (None: any) and what the axis counts (for the
    message). ``kind`` is ``"float"`` (float64), ``"int"`` (any signed integer: codes) or
    ``"count"`` (any integer, signed or not).
    """
    if not isinstance(value, np.ndarray):
        fail(where, f"expected an array, got {type(value).__name__}")
    if kind == "float" and value.dtype != _FLOAT:
        fail(where, f"dtype {value.dtype}, expected float64")
    if kind == "int" and value.dtype.kind != "i":
        fail(where, f"dtype {value.dtype}, expected signed integer codes")
    if kind == "count" and value.dtype.kind not in "iu":
        fail(where, f"dtype {value.dtype}, expected integers")
    if value.ndim != len(dims):
        fail(where, f"has {value.ndim} dimensions, expected {len(dims)}")
    expected = tuple(n for n, _ in dims)
    if any(n is not None and got != n for got, n in zip(value.shape, expected, strict=True)):
        wanted = " by ".join(f"{n} {label}" if n is not None else label for n, label in dims)
        shown = tuple("any" if n is None else n for n in expected)
        fail(where, f"shape {value.shape} does not match {shown}: {wanted}")
    return value


def counts(value: Any, where: str, dims: tuple[tuple[int | None, str], ...]) -> np.ndarray:
    """A float64 count array: finite, non-negative, with a finite total (so that no sum the
    estimators form can overflow)."""
    arr = array(value, where, dims)
    if not np.isfinite(arr).all():
        fail(where, f"holds non-finite counts at {_first(~np.isfinite(arr))}")
    if (arr < 0).any():
        fail(where, f"holds negative counts at {_first(arr < 0)}")
    with np.errstate(over="ignore"):
        total = arr.sum()
    if not np.isfinite(total):
        fail(where, "counts sum to more than float64 holds")
    return arr


def finite(value: Any, where: str, dims: tuple[tuple[int | None, str], ...]) -> np.ndarray:
    """A float64 array of finite numbers."""
    arr = array(value, where, dims)
    if not np.isfinite(arr).all():
        fail(where, f"holds non-finite values at {_first(~np.isfinite(arr))}")
    return arr


def nonnegative(value: Any, where: str, dims: tuple[tuple[int | None, str], ...]) -> np.ndarray:
    """A float64 array of finite, non-negative numbers (second moments, weights)."""
    arr = finite(value, where, dims)
    if (arr < 0).any():
        fail(where, f"holds negative values at {_first(arr < 0)}")
    return arr


def codes(value: Any, where: str, n_states: tuple[int, ...], names: tuple[str, ...]) -> np.ndarray:
    """An ``(n_rows, n_features)`` array of signed integer codes, each in ``[-1, n_states_j)``
    (-1 = missing)."""
    arr = array(value, where, ((None, "rows"), (len(n_states), "categorical features")), kind="int")
    for j, k in enumerate(n_states):
        col = arr[:, j]
        bad = (col < -1) | (col >= k)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            fail(
                f"{where}[{row}, {j}]",
                f"code {int(col[row])} is outside the {k} {names[j]} (codes run from -1, "
                f"missing, to {k - 1})",
            )
    return arr


def class_count(value: Any, where: str, n_classes: int) -> np.ndarray:
    """The weighted number of samples per class: counts of shape ``(n_classes,)`` with a
    positive total (a fitted model has learned from something)."""
    arr = counts(value, where, ((n_classes, "classes"),))
    if not arr.sum() > 0:
        fail(where, "counts sum to zero: the model has learned from nothing")
    return arr


def at_most(part: Any, whole: Any, where: str, what: str, rule: str) -> None:
    """``part <= whole`` element by element, within rounding, or ValueError naming ``where``.

    For counts that summarise the same rows: a table summed over some of its columns never
    holds more weight than the smaller table of the columns kept (a row missing a column is
    left out of the larger table, never added to it), and no score claims more weight than the
    rows scored. ``what`` says what ``part`` and ``whole`` are, ``rule`` why the one bounds the
    other.
    """
    part, whole = np.broadcast_arrays(
        np.asarray(part, dtype=np.float64), np.asarray(whole, dtype=np.float64)
    )
    scale = float(np.abs(whole).max(initial=0.0))
    over = part > whole * (1 + RTOL) + RTOL * 1e-3 * scale
    if over.any():
        at = _first(over) if over.ndim else ()
        fail(
            where,
            f"{what}: {float(part[at]):.6g} at {at} is more than {float(whole[at]):.6g}; {rule}",
        )


def sequence(value: Any, where: str, n: int, what: str) -> tuple:
    """A tuple or list of ``n`` items."""
    if not isinstance(value, (tuple, list)):
        fail(where, f"expected a sequence of {n} {what}, got {type(value).__name__}")
    if len(value) != n:
        fail(where, f"holds {len(value)} {what}, expected {n}")
    return tuple(value)


def _first(mask: np.ndarray) -> tuple[int, ...] | int:
    index = tuple(int(i) for i in np.argwhere(mask)[0])
    return index[0] if len(index) == 1 else index
