"""Family counts: the one statistic below every discrete model with dependencies.

A *family* is a tuple of columns of a code matrix: a child and its parents (for a classifier, the
class among them; the class is just another column). :class:`FamilyCounts` holds, for a list of
families, the weighted count of every joint value of each family's columns, one dense table per
family with **one axis per column, in the family's order** (for a classifier's family
``(class, parent, child)``: ``(n_classes, n_parent_states, n_states)``). Keeping the parent axes
separate (not one flattened "parent configuration" axis) lets a vocabulary that grows in
``partial_fit`` regrow the tables axis by axis.

Counts are float64 (sample weights are native), a row missing (-1) any column of a family is not
counted in that family's table, and counts are mergeable: the counts of two disjoint pieces of
data added (``a + b``) equal the counts of their concatenation, which is all that ``partial_fit``,
out-of-core and distributed fitting need. All families are counted in one compiled pass over the
rows (:func:`family_counts`); the all-pairs table of a semi-naive classifier in one pass of a
dedicated kernel (:func:`pair_families` names the families, :func:`family_counts` spots them).

Examples
--------
>>> codes = np.array([[0, 1, 0], [1, 1, 1], [1, 0, 1], [1, -1, 1]])  # x0, x1 and the class (2)
>>> fc = family_counts(codes, [(2,), (2, 0), (2, 0, 1)], [2, 2, 2])
>>> fc.table((2,))
array([1., 3.])
>>> fc.table((2, 0))          # (class, x0)
array([[1., 0.],
       [0., 3.]])
>>> fc.table((2, 1, 0))[1]    # (class, x1, x0): axes follow the order asked for
array([[0., 1.],
       [0., 1.]])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from bayeskit.stats import _family_helpers as helpers
from bayeskit.stats import checks
from bayeskit.stats._family_helpers import WithCounts as WithCounts

__all__ = [
    "FamilyCounts",
    "ScoredCounts",
    "family_counts",
    "pair_families",
    "sum_over_last_parent",
    "table_shapes",
]

Family = tuple[int, ...]


def table_shapes(
    n_states: Sequence[int] | np.ndarray, families: Sequence[Sequence[int]]
) -> list[tuple]:
    """The shape of each family's table: the states of its columns, in its order.

    Parameters
    ----------
    n_states : sequence of int
        Each column's number of states.
    families : sequence of sequences of column indices

    Returns
    -------
    list of tuple

    Examples
    --------
    >>> table_shapes([2, 3, 4], [(2,), (2, 0, 1)])
    [(4,), (4, 2, 3)]
    """
    return helpers.shapes(n_states, families)


@dataclass(frozen=True)
class FamilyCounts:
    """Weighted counts over the joint values of families of columns.

    Attributes
    ----------
    n_states : ndarray of int64, shape (n_columns,)
        The number of states (vocabulary size) of each column of the code matrix counted.
    families : tuple of tuple of int
        The columns of each family, in the order of its table's axes.
    counts : ndarray of float64, shape (sum of the tables' sizes,)
        The tables, each flattened in C order, one after the other in the order of
        ``families``; :meth:`table` gives them back shaped.
    target : int
        The column of the class for a classifier's counts, -1 for none. When set, the family
        ``(target,)`` must be among the families: it gives :attr:`class_count`.

    Examples
    --------
    Counts add up: those of two chunks of rows are those of all the rows.

    >>> codes = np.array([[0, 1, 0], [1, 1, 1], [1, 0, 1], [0, 1, 1]])  # class: column 2
    >>> fams = [(2,), (2, 0)]
    >>> a = family_counts(codes[:2], fams, [2, 2, 2], target=2)
    >>> b = family_counts(codes[2:], fams, [2, 2, 2], target=2)
    >>> (a + b).table((2, 0)).tolist(), (a + b).class_count.tolist()
    ([[1.0, 0.0], [1.0, 2.0]], [1.0, 3.0])
    """

    n_states: np.ndarray
    families: tuple[Family, ...]
    counts: np.ndarray
    target: int = -1

    @cached_property
    def _layout(self) -> tuple[dict[Family, int], np.ndarray, list[tuple[int, ...]]]:
        return helpers.layout(self)

    @property
    def class_count(self) -> np.ndarray:
        """The weighted number of samples per class (the table of the family ``(target,)``)."""
        return helpers.class_count(self)

    def table(self, family: Sequence[int]) -> np.ndarray:
        """The counts over ``family``'s columns, axes in the order given.

        The family must have been counted, in any column order: a table summed out of a larger
        family would lose the rows missing the summed-out column (:meth:`marginal` does that).

        Parameters
        ----------
        family : sequence of int
            The columns of a counted family, in the order wanted for the table's axes.

        Returns
        -------
        ndarray of float64
            One axis per column of ``family``, in its order (a view of :attr:`counts`).

        Raises
        ------
        KeyError
            If no family over these columns was counted.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1], [1, 1], [1, 1]]), [(1, 0)], [2, 2], target=1)
        >>> fc.table((0, 1)).tolist()  # (x0, class); counted as (class, x0)
        [[0.0, 1.0], [0.0, 2.0]]
        """
        return helpers.table(self, family)

    def start(self, family: Sequence[int]) -> int:
        """Where ``family``'s table starts in :attr:`counts` (flat, C order), for kernels.

        Parameters
        ----------
        family : sequence of int
            A counted family's columns, in their stored order (as in :attr:`families`).

        Returns
        -------
        int
            The index of the table's first cell in :attr:`counts`.

        Raises
        ------
        KeyError
            If the family was not counted, or is stored with its columns in another order.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> fc.start((1,)), fc.start((1, 0))
        (0, 2)
        """
        return helpers.start(self, family)

    def grouped_tables(
        self, families: Sequence[Sequence[int]]
    ) -> list[tuple[list[int], np.ndarray]]:
        """:meth:`table` of many families, each group of families stored with one shape and
        asked for in one axis order gathered with one fancy index.

        Parameters
        ----------
        families : sequence of sequences of int
            Counted families, each in the axis order wanted.

        Returns
        -------
        list of (list of int, ndarray) pairs
            Per group: its members' positions in ``families`` and their tables, stacked in an
            array of shape ``(n_members, *table_shape)``.

        Raises
        ------
        KeyError
            If one of ``families`` was not counted.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1, 0], [1, 1, 1]]), [(2, 0), (2, 1)], [2, 2, 2])
        >>> [(pos, tables.shape) for pos, tables in fc.grouped_tables([(2, 0), (0, 2), (2, 1)])]
        [([0, 2], (2, 2, 2)), ([1], (1, 2, 2))]
        """
        return helpers.grouped_tables(self, families)

    def marginal(self, family: Sequence[int]) -> np.ndarray:
        """The counts over ``family``'s columns, summed out of the smallest counted family that
        holds them all (with missing values, only the rows complete on that family count).

        Parameters
        ----------
        family : sequence of int
            The columns wanted, in the order wanted for the axes.

        Returns
        -------
        ndarray of float64
            One axis per column of ``family``, in its order.

        Raises
        ------
        KeyError
            If no counted family holds all the columns.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1, 0], [1, -1, 1]]), [(2,), (2, 0, 1)], [2, 2, 2])
        >>> fc.marginal((2, 0)).tolist()  # from (class, x0, x1): the row missing x1 left out
        [[1.0, 0.0], [0.0, 0.0]]
        """
        return helpers.marginal(self, family)

    def __add__(self, other: FamilyCounts) -> FamilyCounts:
        helpers.check_addable(self, other, FamilyCounts)
        return FamilyCounts(self.n_states, self.families, self.counts + other.counts, self.target)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> FamilyCounts:
        """Re-lay the tables out for vocabularies grown by ``partial_fit``: old code ``k`` of
        column ``c`` moves to ``remap[c][k]``; the new states' counts are zero.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each column whose vocabulary grew, the new code of each old code.
        n_states : array-like of int, shape (n_columns,)
            Every column's number of states after growing (the class column included).

        Returns
        -------
        FamilyCounts
            New counts over the same families.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 0], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> grown = fc.regrow({0: np.array([0, 2])}, [3, 2])  # a new code 1 between 0 and 1
        >>> grown.table((1, 0)).tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
        """
        return helpers.regrow(self, remap, n_states, FamilyCounts)

    def validate(self, layout: checks.Layout, where: str = "stats_") -> None:
        """Check counts read from a model file against ``layout``: a column per categorical
        feature (vocabulary sizes as the schema says), then the class; the families within those
        columns, the class family among them; the counts float64, finite, non-negative, as many
        as the tables hold, with a positive class total and no table outweighing its parts.

        Parameters
        ----------
        layout : Layout
            The class and vocabulary sizes the counts must fit.
        where : str, optional
            The counts' path, which starts every error message. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If they do not fit, naming the field (``stats_.n_states[0]``) and the problem.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> fc.validate(checks.Layout(2, (2,), ("categories of x0",)))  # fits: no output
        >>> fc.validate(checks.Layout(2, (3,), ("categories of x0",)))
        Traceback (most recent call last):
        ValueError: stats_.n_states[0]: is 2, expected 3 categories of x0
        """
        helpers.validate(self, layout, where)

    def family_name(self, family: Sequence[int], layout: checks.Layout) -> str:
        """``family`` in words for messages: ``(class, 'color', 'size')``.

        Parameters
        ----------
        family : sequence of int
        layout : Layout
            Its ``column_names`` name the columns (a column beyond them is named by position).

        Returns
        -------
        str

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> fc.family_name((1, 0), checks.Layout(2, (2,), ("",), column_names=("sky",)))
        "(class, 'sky')"
        """
        return helpers.family_name(self, family, layout)

    def require_families(
        self,
        expected: Sequence[Sequence[int]],
        where: str,
        layout: checks.Layout,
        model: str,
        *,
        exact: bool = True,
    ) -> None:
        """Check that the families a model needs were counted (and, if ``exact``, no others).

        Parameters
        ----------
        expected : sequence of sequences of int
            The families the model counts, each in its stored column order.
        where : str
            The counts' path, which starts the error message.
        layout : Layout
            Names the columns in the message (see :meth:`family_name`).
        model : str
            The model's name, for the message.
        exact : bool, default=True
            Also refuse counted families that are not in ``expected``.

        Raises
        ------
        ValueError
            Naming every family of ``expected`` not counted and, if ``exact``, every counted
            family not expected.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 1], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> layout = checks.Layout(2, (2,), ("",), column_names=("sky",))
        >>> fc.require_families([(1,)], "stats_", layout, "TAN", exact=False)
        >>> fc.require_families([(1,)], "stats_", layout, "TAN")
        Traceback (most recent call last):
        ValueError: stats_.families: holds the family (class, 'sky') that TAN does not count
        """
        helpers.require_families(self, expected, where, layout, model, exact)


@dataclass(frozen=True)
class ScoredCounts(WithCounts):
    """Family counts plus a running score per candidate structure, both mergeable: what a model
    that chooses among candidates by a score summed over rows (SPODE's leave-one-out log-loss)
    keeps so that the choice survives ``partial_fit``, saving and loading.

    Attributes
    ----------
    counts : FamilyCounts
    scores : ndarray of float64, shape (2, n_candidates)
        One column per candidate (the model that reads them checks how many). Summed over the
        rows seen: the weight of the rows a candidate gives probability zero
        (lower is better), and the log-likelihood of the others (higher is better).

    Examples
    --------
    >>> import pandas as pd
    >>> from bayeskit import SelectiveKDB
    >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["no", "yes", "no", "no"]})
    >>> stats = SelectiveKDB().fit(X, ["play", "stay", "play", "stay"]).stats_  # its statistics
    >>> stats.class_count.tolist(), stats.scores.shape
    ([2.0, 2.0], (2, 18))
    """

    counts: FamilyCounts
    scores: np.ndarray

    def __add__(self, other: ScoredCounts) -> ScoredCounts:
        helpers.check_scored_addable(self, other, ScoredCounts)
        return ScoredCounts(self.counts + other.counts, self.scores + other.scores)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> ScoredCounts:
        """The counts regrown as :meth:`FamilyCounts.regrow`; the scores unchanged.

        Parameters
        ----------
        remap, n_states
            As in :meth:`FamilyCounts.regrow`.

        Returns
        -------
        ScoredCounts

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 0], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> grown = ScoredCounts(fc, np.zeros((2, 1))).regrow({0: np.array([0, 2])}, [3, 2])
        >>> grown.n_states.tolist(), grown.scores.shape
        ([3, 2], (2, 1))
        """
        return ScoredCounts(self.counts.regrow(remap, n_states), self.scores)

    def validate(self, layout: checks.Layout, where: str = "stats_") -> None:
        """Check statistics read from a model file: the counts as :meth:`FamilyCounts.validate`;
        per candidate, a weight of impossible rows in ``[0, rows' weight]`` and a finite
        log-likelihood of at most 0.

        Parameters
        ----------
        layout : Layout
        where : str, optional
            As in :meth:`FamilyCounts.validate`. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If they do not fit, naming the field and the problem.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 0], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> ScoredCounts(fc, np.array([[0.0], [0.5]])).validate(checks.Layout(2, (2,), ("",)))
        Traceback (most recent call last):
        ValueError: stats_.scores: impossible-row weights must be >= 0 and log-likelihoods <= 0
        """
        helpers.validate_scored(self, layout, where, FamilyCounts)


@dataclass(frozen=True)
class ExpectedCounts(WithCounts):
    """What a classifier fitted by EM over missing feature values holds
    (:mod:`bayeskit.classifiers._incomplete`): the counts its structure was chosen from, and the
    expected counts of that structure's families that its tables were estimated from.

    EM needs all rows at once, so these do not add up chunk by chunk: ``+`` and ``regrow``
    raise a ValueError that says so.

    Attributes
    ----------
    counts : FamilyCounts
        The available-case counts (labelled rows and class completions): the structure.
    expected : FamilyCounts
        The E-step's counts of the class, of each ``(class, x_j)`` and of each family
        ``(class, parents, x_j)``: the tables and the class prior.

    Examples
    --------
    >>> import pandas as pd
    >>> from bayeskit import TAN
    >>> X = pd.DataFrame({"sky": ["sun", None, "sun", "rain"], "wind": ["no", "yes", None, "no"]})
    >>> stats = TAN(missing="em").fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> stats.expected.class_count.round(6).tolist()  # rows with a missing value included
    [2.0, 2.0]
    """

    counts: FamilyCounts
    expected: FamilyCounts

    @property
    def class_count(self) -> np.ndarray:
        return self.expected.class_count

    def __add__(self, other: Any) -> ExpectedCounts:
        raise ValueError(helpers.EM_REFUSAL)

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> ExpectedCounts:
        """Refuse to regrow: the counts of an EM fit take no more rows.

        Parameters
        ----------
        remap, n_states
            As in :meth:`FamilyCounts.regrow` (unused).

        Returns
        -------
        ExpectedCounts
            Never: it always raises.

        Raises
        ------
        ValueError
            Always, saying to fit again on all the rows.

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 0], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> ExpectedCounts(fc, fc).regrow({}, [2, 2])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ValueError: a model fitted by EM (missing='em') cannot take more rows with partial_fit...
        """
        raise ValueError(helpers.EM_REFUSAL)

    def validate(self, layout: checks.Layout, where: str = "stats_") -> None:
        """Check both counts, read from a model file, as :meth:`FamilyCounts.validate`.

        Parameters
        ----------
        layout : Layout
        where : str, optional
            As in :meth:`FamilyCounts.validate`. Default ``"stats_"``.

        Raises
        ------
        ValueError
            If either does not fit, naming the field (``stats_.expected.counts``).

        Examples
        --------
        >>> fc = family_counts(np.array([[0, 0], [1, 1]]), [(1,), (1, 0)], [2, 2], target=1)
        >>> ExpectedCounts(fc, fc).validate(checks.Layout(2, (2,), ("",)))  # fits: no output
        """
        helpers.validate_expected(self, layout, where, FamilyCounts)


def pair_families(columns: Iterable[int], given: Sequence[int] = ()) -> list[Family]:
    """The families ``(*given, a, b)`` for every pair ``a < b`` of ``columns``: the all-pairs
    table over ``(class, x_a, x_b)`` when ``given`` is the class column.

    Parameters
    ----------
    columns : iterable of int
    given : sequence of int, default=()
        The columns that lead every family.

    Returns
    -------
    list of tuple

    Examples
    --------
    >>> pair_families([0, 1, 2], given=(3,))
    [(3, 0, 1), (3, 0, 2), (3, 1, 2)]
    """
    given = tuple(int(g) for g in given)
    cols = sorted(int(c) for c in columns)
    return [(*given, a, b) for a, b in itertools.combinations(cols, 2)]


def sum_over_last_parent(table: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A ``(..., parent, child)`` table summed over its second-last axis, the parents' level
    below (written into ``out`` when given). Parent by parent, in order: ``ndarray.sum`` over
    that axis runs its inner loop over the child's few states and is 4-7 times slower.

    Examples
    --------
    >>> sum_over_last_parent(np.arange(12.0).reshape(2, 3, 2)).tolist()
    [[6.0, 9.0], [24.0, 27.0]]
    """
    return helpers.sum_over_last_parent(table, out)


def family_counts(
    codes: np.ndarray,
    families: Sequence[Sequence[int]],
    n_states: Sequence[int] | np.ndarray,
    weights: np.ndarray | None = None,
    *,
    target: int = -1,
) -> FamilyCounts:
    """Count every family in one compiled pass over the rows.

    The families that are the all-pairs table (:func:`pair_families`) of some columns given the
    same prefix (the class; for AnDE's triples, the class and a feature) are counted by a
    dedicated kernel, one pass per such block; the rest by the generic one.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_columns), integer, -1 = missing
    families : sequence of tuples of column indices
    n_states : sequence of int, the vocabulary size of each column
    weights : ndarray of shape (n_samples,), optional
    target : int, default=-1
        The class column, for a classifier's counts (see :class:`FamilyCounts`).

    Returns
    -------
    FamilyCounts
        Each family's table (:meth:`FamilyCounts.table`), its axes in the family's order; a
        row with a missing value in a family is left out of that family's table.

    Raises
    ------
    ValueError
        A family listed twice (as a set of columns), empty, with a repeated column, or naming
        a column beyond ``n_states``.

    Examples
    --------
    >>> codes = np.array([[0, 1, 0], [1, 1, 1], [1, 0, 1], [-1, 1, 1]])  # class: column 2
    >>> counts = family_counts(codes, [(2,), (2, 0), (2, 0, 1)], [2, 2, 2], target=2)
    >>> counts.table((2,)).tolist(), counts.table((2, 0)).tolist()
    ([1.0, 3.0], [[1.0, 0.0], [0.0, 2.0]])
    """
    return helpers.family_counts(FamilyCounts, codes, families, n_states, weights, target)
