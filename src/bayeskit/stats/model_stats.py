"""The statistics each classifier holds in ``stats_``: bundles of the basic statistics.

They live here, below the models, so that every layer (the model file format among them) finds
every statistics class in :mod:`bayeskit.stats` without looking into the models. Each is
mergeable (``a + b``), regrows with grown vocabularies, and states its invariants in
``validate(layout, where)`` for statistics read from a file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bayeskit.stats import _model_checks as _checks
from bayeskit.stats import checks
from bayeskit.stats.counts import CategoricalCounts
from bayeskit.stats.families import FamilyCounts, WithCounts
from bayeskit.stats.joint import JointCounts
from bayeskit.stats.moments import GaussianMoments, ShrinkageMoments

__all__ = ["FullStats", "KNNStats", "NaiveStats", "TreeCounts"]


@dataclass(frozen=True)
class NaiveStats:
    """The sufficient statistics of naive Bayes: categorical counts and Gaussian moments.

    Attributes
    ----------
    counts : CategoricalCounts
        Each categorical feature's counts per class.
    moments : GaussianMoments
        Each numeric feature's moments per class.

    Examples
    --------
    A naive Bayes model keeps them as ``stats_``:

    >>> import pandas as pd
    >>> from bayeskit import NaiveBayes
    >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
    >>> stats = NaiveBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> stats.class_count.tolist(), stats.moments.mean.ravel().tolist()
    ([2.0, 2.0], [29.0, 13.5])
    """

    counts: CategoricalCounts
    moments: GaussianMoments

    @property
    def class_count(self) -> np.ndarray:
        return self.counts.class_count

    def __add__(self, other: NaiveStats) -> NaiveStats:
        return NaiveStats(self.counts + other.counts, self.moments + other.moments)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> NaiveStats:
        """The counts regrown for grown vocabularies (see :meth:`CategoricalCounts.regrow`);
        the moments unchanged.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code.
        n_states : ndarray of int, shape (n_features,)
            Each categorical feature's number of states after growing.

        Returns
        -------
        NaiveStats

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import NaiveBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
        >>> stats = NaiveBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> grown = stats.regrow({0: np.array([0, 2])}, np.array([3]))  # a new code 1
        >>> grown.counts.feature_count[0].tolist()  # (class, sky): rain, new, sun
        [[0.0, 0.0, 2.0], [2.0, 0.0, 0.0]]
        """
        return NaiveStats(self.counts.regrow(remap, n_states), self.moments)

    def validate(self, layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout``.

        The counts as :meth:`CategoricalCounts.validate` and the moments as
        :meth:`GaussianMoments.validate`; no feature counting more weight in a class than the
        class count.

        Parameters
        ----------
        layout : Layout
            The classes, vocabulary sizes and numeric columns the statistics must fit.
        where : str, optional
            The statistics' path in the model, which starts every error message (default
            ``"stats_"``).

        Raises
        ------
        ValueError
            If they do not fit, naming the field and the problem.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import NaiveBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
        >>> stats = NaiveBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> stats.validate(checks.Layout(2, (2,), ("states",), 1, ("temp",)))  # fits: no output
        >>> stats.validate(checks.Layout(2, (2,), ("states",), 2, ("t", "w")))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.moments.count: shape (2, 1) does not match (2, 2): ...
        """
        _checks.validate_naive(self, layout, where)


@dataclass(frozen=True)
class FullStats:
    """The sufficient statistics of full Bayes: sparse joint counts of the categorical codes and
    the scatter (plus Ledoit-Wolf) moments of the numeric values.

    Attributes
    ----------
    joint : JointCounts
        Each distinct row of categorical codes counted per class.
    moments : ShrinkageMoments
        The numeric features' moments per class.

    Examples
    --------
    A full Bayes model keeps them as ``stats_``:

    >>> import pandas as pd
    >>> from bayeskit import FullBayes
    >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
    >>> stats = FullBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> stats.class_count.tolist(), stats.moments.scatter.mean.ravel().tolist()
    ([2.0, 2.0], [29.0, 13.5])
    """

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
        """The joint counts re-coded for grown vocabularies (see :meth:`JointCounts.regrow`);
        the moments unchanged.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code.
        n_states : ndarray of int, shape (n_features,)
            Each categorical feature's number of states after growing.

        Returns
        -------
        FullStats

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import FullBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
        >>> stats = FullBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> grown = stats.regrow({0: np.array([0, 2])}, np.array([3]))  # a new code 1
        >>> stats.joint.combos.tolist(), grown.joint.combos.tolist()
        ([[0], [1]], [[0], [2]])
        """
        return FullStats(self.joint.regrow(remap, n_states), self.moments)

    def validate(self, layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout``.

        The joint counts as :meth:`JointCounts.validate` and the moments as
        :meth:`ShrinkageMoments.validate`; no class with more weight of complete numeric rows
        than its class count.

        Parameters
        ----------
        layout : Layout
            The classes, vocabulary sizes and numeric columns the statistics must fit.
        where : str, optional
            The statistics' path in the model, which starts every error message (default
            ``"stats_"``).

        Raises
        ------
        ValueError
            If they do not fit, naming the field and the problem.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import FullBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
        >>> stats = FullBayes(discretize=None).fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> stats.validate(checks.Layout(2, (2,), ("states",), 1, ("temp",)))  # fits: no output
        >>> stats.validate(checks.Layout(2, (2,), ("states",), 2, ("t", "w")))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.moments.scatter.mean: shape (2, 1) does not match (2, 2): ...
        """
        for name, kind in (("joint", JointCounts), ("moments", ShrinkageMoments)):
            if not isinstance(getattr(self, name), kind):
                msg = f"{where}.{name}: expected {kind.__name__}"
                raise ValueError(msg)
        self.joint.validate(layout, f"{where}.joint")
        self.moments.validate(layout, f"{where}.moments")
        checks.at_most(
            self.moments.count,
            self.joint.class_count,
            f"{where}.moments.scatter.count",
            "the weight of complete numeric rows per class",
            "they are among the rows counted in joint.class_count",
        )


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

    Examples
    --------
    A KNN density classifier keeps them as ``stats_``:

    >>> import pandas as pd
    >>> from bayeskit import KNNBayes
    >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
    >>> stats = KNNBayes().fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> stats.values.ravel().tolist(), stats.y.tolist()
    ([30.0, 12.0, 28.0, 15.0], [0, 1, 0, 1])
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
        :class:`bayeskit.stats.checks.Layout`): codes in range of the vocabularies, values
        float64 without infinities (NaN = missing), class indices in range, weights finite and
        positive, ``class_count`` their sum per class.

        Parameters
        ----------
        layout : Layout
            The classes, vocabulary sizes and numeric columns the statistics must fit.
        where : str, optional
            The statistics' path in the model, which starts every error message (default
            ``"stats_"``).

        Raises
        ------
        ValueError
            If they do not fit, naming the field and the problem.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import KNNBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
        >>> stats = KNNBayes().fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> stats.validate(checks.Layout(2, (2,), ("states",), 1, ("temp",)))  # fits: no output
        >>> stats.validate(checks.Layout(2, (2,), ("states",), 2, ("t", "w")))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.values: shape (4, 1) does not match (4, 2): ...
        """
        _checks.validate_knn(self, layout, where)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> KNNStats:
        """Re-code categorical column ``j`` by ``remap[j]`` (old code -> new code) after its
        vocabulary grew; ``n_states`` is unused (a row needs no table to be re-laid out).

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code.
        n_states : ndarray of int, shape (n_features,)
            Unused.

        Returns
        -------
        KNNStats
            The same rows, re-coded (missing codes stay -1).

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import KNNBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "temp": [30.0, 12, 28, 15]})
        >>> stats = KNNBayes().fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> grown = stats.regrow({0: np.array([0, 2])}, np.array([3]))  # a new code 1
        >>> stats.codes.ravel().tolist(), grown.codes.ravel().tolist()
        ([1, 0, 1, 0], [2, 0, 2, 0])
        """
        codes = self.codes.astype(np.int64)
        for j, new_code in remap.items():
            col = codes[:, j]  # a view: re-coded in place
            seen = col >= 0  # a column with no category yet has none to re-code
            col[seen] = np.asarray(new_code)[col[seen]]
        return KNNStats(codes, self.values, self.y, self.weight, self.class_count)


@dataclass(frozen=True)
class TreeCounts(WithCounts):
    """The statistics of a tree whose nodes hold naive Bayes models (NBTree): the tree, and
    the counts of each node's rows.

    The counts are :class:`FamilyCounts` over the features' codes, then the node column
    (``d``: each row's deepest node, where it stops), then the class (``d + 1``), with the
    families ``(class,)``, ``(class, node)`` and ``(class, node, x_j)`` for every feature: one
    counting pass for every node at once. A node's model uses the counts of its subtree.

    Attributes
    ----------
    counts : FamilyCounts
    split : ndarray of int64, shape (n_nodes,)
        The feature each node splits on, -1 for a leaf.
    parent : ndarray of int64, shape (n_nodes,)
        Each node's parent (an earlier node), -1 for the root (node 0).
    value : ndarray of int64, shape (n_nodes,)
        The code of the parent's split feature that leads to the node, -1 for the root.

    Examples
    --------
    An NBTree keeps them as ``stats_``; on four rows the tree is one leaf, the root:

    >>> import pandas as pd
    >>> from bayeskit import NBTree
    >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["no", "yes", "no", "no"]})
    >>> stats = NBTree().fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> stats.split.tolist(), stats.counts.class_count.tolist()
    ([-1], [2.0, 2.0])
    """

    counts: FamilyCounts
    split: np.ndarray
    parent: np.ndarray
    value: np.ndarray

    def __add__(self, other: TreeCounts) -> TreeCounts:
        same = isinstance(other, TreeCounts) and all(
            np.array_equal(getattr(self, f), getattr(other, f))
            for f in ("split", "parent", "value")
        )
        if not same:
            msg = "cannot add the counts of different trees"
            raise ValueError(msg)
        return TreeCounts(self.counts + other.counts, self.split, self.parent, self.value)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> TreeCounts:
        """Re-lay the counts out for grown vocabularies of the features: the counts regrow
        (see :meth:`FamilyCounts.regrow`) and each branch's code moves with its category; the
        node column keeps its size.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code.
        n_states : ndarray of int, shape (n_features + 1,)
            Each feature's number of states after growing, then the number of classes.

        Returns
        -------
        TreeCounts

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import NBTree
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["n", "y", "n", "n"]})
        >>> stats = NBTree().fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> grown = stats.regrow({0: np.array([0, 2])}, np.array([3, 2, 2]))  # a new code 1
        >>> grown.counts.n_states.tolist()  # sky, wind, the tree node, the class
        [3, 2, 1, 2]
        """
        n_states = np.asarray(n_states, dtype=np.int64)
        full = np.concatenate([n_states[:-1], [len(self.split)], n_states[-1:]])
        value = self.value.copy()  # the branches follow their codes to the new ones
        for i in range(1, len(value)):
            a = int(self.split[self.parent[i]])
            if a in remap:
                value[i] = int(np.asarray(remap[a])[value[i]])
        return TreeCounts(self.counts.regrow(remap, full), self.split, self.parent, value)

    def validate(self, layout: checks.Layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout``.

        The tree: node 0 the root, every other node's parent an earlier node that splits on
        a feature, with a code of that feature no sibling has and no feature split twice on a
        path; then the counts as :meth:`FamilyCounts.validate` with the node column.

        Parameters
        ----------
        layout : Layout
            The classes, vocabulary sizes and numeric columns the statistics must fit.
        where : str, optional
            The statistics' path in the model, which starts every error message (default
            ``"stats_"``).

        Raises
        ------
        ValueError
            If they do not fit, naming the field and the problem.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import NBTree
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["n", "y", "n", "n"]})
        >>> stats = NBTree().fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> stats.validate(checks.Layout(2, (2, 2), ("states", "states")))  # fits: no output
        >>> stats.validate(checks.Layout(2, (3, 2), ("states", "states")))
        Traceback (most recent call last):
        ...
        ValueError: stats_.counts.n_states[0]: is 2, expected 3 states
        """
        _checks.validate_tree(self, layout, where)
