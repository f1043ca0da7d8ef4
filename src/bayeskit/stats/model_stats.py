"""The statistics each classifier holds in ``stats_``: bundles of the basic statistics.

They live here, below the models, so that every layer (the model file format among them) finds
every statistics class in :mod:`bayeskit.stats` without looking into the models. Each is
mergeable (``a + b``), regrows with grown vocabularies, and states its invariants in
``validate(layout, where)`` for statistics read from a file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bayeskit.stats import _checks
from bayeskit.stats.counts import CategoricalCounts
from bayeskit.stats.joint import JointCounts
from bayeskit.stats.moments import GaussianMoments, ShrinkageMoments

__all__ = ["FullStats", "KNNStats", "NaiveStats"]


@dataclass(frozen=True)
class NaiveStats:
    """The sufficient statistics of naive Bayes: categorical counts and Gaussian moments."""

    counts: CategoricalCounts
    moments: GaussianMoments

    @property
    def class_count(self) -> np.ndarray:
        return self.counts.class_count

    def __add__(self, other: NaiveStats) -> NaiveStats:
        return NaiveStats(self.counts + other.counts, self.moments + other.moments)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> NaiveStats:
        return NaiveStats(self.counts.regrow(remap, n_states), self.moments)

    def validate(self, layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout`` (a
        :class:`bayeskit.stats._checks.Layout`); ValueError naming the field if they do not
        fit."""
        for name, kind in (("counts", CategoricalCounts), ("moments", GaussianMoments)):
            if not isinstance(getattr(self, name), kind):
                msg = f"{where}.{name}: expected {kind.__name__}"
                raise ValueError(msg)
        self.counts.validate(layout, f"{where}.counts")
        self.moments.validate(layout, f"{where}.moments")


@dataclass(frozen=True)
class FullStats:
    """The sufficient statistics of full Bayes: sparse joint counts of the categorical codes and
    the scatter (plus Ledoit-Wolf) moments of the numeric values."""

    joint: JointCounts
    moments: ShrinkageMoments

    @property
    def class_count(self) -> np.ndarray:
        return self.joint.class_count

    def __add__(self, other: FullStats) -> FullStats:
        with np.errstate(over="ignore", invalid="ignore"):  # FullBayes refuses overflow by name
            moments = self.moments + other.moments
        return FullStats(self.joint + other.joint, moments)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> FullStats:
        return FullStats(self.joint.regrow(remap, n_states), self.moments)

    def validate(self, layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout`` (a
        :class:`bayeskit.stats._checks.Layout`); ValueError naming the field if they do not
        fit."""
        for name, kind in (("joint", JointCounts), ("moments", ShrinkageMoments)):
            if not isinstance(getattr(self, name), kind):
                msg = f"{where}.{name}: expected {kind.__name__}"
                raise ValueError(msg)
        self.joint.validate(layout, f"{where}.joint")
        self.moments.validate(layout, f"{where}.moments")


@dataclass(frozen=True)
class KNNStats:
    """The statistics of a lazy learner: the training rows, kept as encoded arrays.

    Two pieces of data added (``a + b``) are their rows concatenated, ``a``'s first, so fitting
    chunk by chunk stores exactly what one fit on the whole data stores.

    Attributes
    ----------
    codes : ndarray of shape (n_rows, n_categorical)
        Categorical codes, ``-1`` = missing.
    values : ndarray of shape (n_rows, n_numeric)
        Numeric values, ``NaN`` = missing.
    y : ndarray of shape (n_rows,)
        Class index of each row (into ``classes_``).
    weight : ndarray of shape (n_rows,)
        Sample weight of each row, all positive (rows of weight zero are not kept).
    class_count : ndarray of shape (n_classes,)
        Weighted number of rows of each class.
    """

    codes: np.ndarray
    values: np.ndarray
    y: np.ndarray
    weight: np.ndarray
    class_count: np.ndarray

    def __add__(self, other: KNNStats) -> KNNStats:
        if (self.codes.shape[1], self.values.shape[1]) != (
            other.codes.shape[1],
            other.values.shape[1],
        ):
            msg = (
                f"cannot add the rows of data with {self.codes.shape[1]} categorical and "
                f"{self.values.shape[1]} numeric features to rows with "
                f"{other.codes.shape[1]} and {other.values.shape[1]}"
            )
            raise ValueError(msg)
        return KNNStats(
            np.concatenate([self.codes, other.codes]),
            np.concatenate([self.values, other.values]),
            np.concatenate([self.y, other.y]),
            np.concatenate([self.weight, other.weight]),
            self.class_count + other.class_count,
        )

    def validate(self, layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout`` (a
        :class:`bayeskit.stats._checks.Layout`): codes in range of the vocabularies, values
        float64 without infinities (NaN = missing), class indices in range, weights finite and
        positive, ``class_count`` their sum per class. ValueError naming the field otherwise."""
        codes = _checks.codes(self.codes, f"{where}.codes", layout.n_states, layout.state_names)
        n = codes.shape[0]
        rows = (n, "rows (of codes)")
        values = _checks.array(
            self.values, f"{where}.values", (rows, (layout.n_numeric, "numeric features"))
        )
        if np.isinf(values).any():
            _checks.fail(f"{where}.values", "holds infinite values (NaN is the missing mark)")
        y = _checks.array(self.y, f"{where}.y", (rows,), kind="int")
        if n and (y.min() < 0 or y.max() >= layout.n_classes):
            _checks.fail(f"{where}.y", f"holds class indices outside [0, {layout.n_classes})")
        weight = _checks.nonnegative(self.weight, f"{where}.weight", (rows,))
        if (weight <= 0).any():
            _checks.fail(f"{where}.weight", "holds weights of zero (such rows are never kept)")
        total = _checks.class_count(self.class_count, f"{where}.class_count", layout.n_classes)
        summed = np.bincount(y, weights=weight, minlength=layout.n_classes) if n else 0 * total
        if not np.allclose(summed, total, rtol=1e-9, atol=0):
            _checks.fail(
                f"{where}.class_count",
                f"{total.tolist()} differs from the weights of the rows per class "
                f"{summed.tolist()}",
            )

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> KNNStats:
        """Re-code categorical column ``j`` by ``remap[j]`` (old code -> new code) after its
        vocabulary grew; ``n_states`` is unused (a row needs no table to be re-laid out)."""
        codes = self.codes.astype(np.int64)
        for j, new_code in remap.items():
            col = codes[:, j]  # a view: re-coded in place
            seen = col >= 0  # a column with no category yet has none to re-code
            col[seen] = np.asarray(new_code)[col[seen]]
        return KNNStats(codes, self.values, self.y, self.weight, self.class_count)
