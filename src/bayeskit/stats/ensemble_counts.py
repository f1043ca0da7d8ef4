"""The statistics of an ensemble of scored family models: each member's counts, and where a
member bins the numeric columns its own way, its cut points (the counts are laid out by them).

Kept apart from :mod:`bayeskit.stats.model_stats` (the single models' bundles) as the one
statistic whose members may see other columns than the schema's: numeric ones binned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bayeskit.data.discretize import cut_problem
from bayeskit.stats import checks
from bayeskit.stats.families import ScoredCounts

__all__ = ["EnsembleCounts"]

#: The most cut points a numeric column's bins may have in a model file: far more than any
#: discretizer gives, and a bound on what a file can make a model allocate.
MAX_CUTS = 1 << 16


@dataclass(frozen=True)
class EnsembleCounts:
    """The statistics of an ensemble of scored family models (selective KDBs), one per
    member, each counted with its own row weights; member 0 counts the rows as given, so its
    class counts are the ensemble's. Mergeable member by member.

    Attributes
    ----------
    members : tuple of ScoredCounts
    cuts : tuple of tuple of ndarray, or None
        Where each member bins the numeric columns itself: for member ``i``, one array of
        cut points per numeric column (in the schema's order), and the member's counts have
        that column binned at them, at its place among the columns. None: the members count
        the schema's own columns.

    Examples
    --------
    A selective KDB ensemble keeps them as ``stats_``, one member per estimator:

    >>> import pandas as pd
    >>> from bayeskit.classifiers import SelectiveKDBEnsemble
    >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["no", "yes", "no", "no"]})
    >>> model = SelectiveKDBEnsemble(n_estimators=3)
    >>> stats = model.fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> len(stats.members), stats.class_count.tolist()
    (3, [2.0, 2.0])
    """

    members: tuple[ScoredCounts, ...]
    cuts: tuple[tuple[np.ndarray, ...], ...] | None = None

    @property
    def class_count(self) -> np.ndarray:
        return self.members[0].class_count

    @property
    def n_states(self) -> np.ndarray:
        return self.members[0].n_states

    def __add__(self, other: EnsembleCounts) -> EnsembleCounts:
        if not isinstance(other, EnsembleCounts) or len(other.members) != len(self.members):
            msg = "cannot add ensemble counts of different numbers of members"
            raise ValueError(msg)
        if not _same_cuts(self.cuts, other.cuts):
            msg = "cannot add ensemble counts whose members bin the numeric columns differently"
            raise ValueError(msg)
        members = tuple(a + b for a, b in zip(self.members, other.members, strict=True))
        return EnsembleCounts(members, self.cuts)

    def regrow(self, remap: dict[int, np.ndarray], n_states: Any) -> EnsembleCounts:
        """Each member regrown for grown vocabularies (see :meth:`ScoredCounts.regrow`).

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code;
            keys are positions among the members' columns (with ``cuts``, the binned numeric
            columns count as columns too).
        n_states : ndarray of int, or a sequence of them (one per member)
            Each column's number of states after growing, then the number of classes: for
            every member alike, or each member's own (with ``cuts``, whose binned columns
            differ).

        Returns
        -------
        EnsembleCounts

        Raises
        ------
        ValueError
            If ``n_states`` holds another number of arrays than there are members.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import SelectiveKDBEnsemble
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["n", "y", "n", "n"]})
        >>> stats = SelectiveKDBEnsemble(n_estimators=2).fit(X, ["go", "stay", "go", "stay"]).stats_
        >>> grown = stats.regrow({0: np.array([0, 2])}, np.array([3, 2, 2]))  # a new code 1
        >>> [member.n_states.tolist() for member in grown.members]
        [[3, 2, 2], [3, 2, 2]]
        """
        per_member = not isinstance(n_states, np.ndarray) and all(np.ndim(s) == 1 for s in n_states)
        if per_member and len(n_states) != len(self.members):
            msg = f"n_states: {len(n_states)} arrays given for {len(self.members)} members"
            raise ValueError(msg)
        states = list(n_states) if per_member else [n_states] * len(self.members)
        members = tuple(m.regrow(remap, s) for m, s in zip(self.members, states, strict=True))
        return EnsembleCounts(members, self.cuts)

    def validate(self, layout: checks.Layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout``: at least one member,
        each as :meth:`ScoredCounts.validate`; with ``cuts``, one array of cut points per
        numeric column for each member (finite, strictly increasing), and each member
        against the layout of the columns binned at its cut points.

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
        >>> from bayeskit.classifiers import SelectiveKDBEnsemble
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["n", "y", "n", "n"]})
        >>> stats = SelectiveKDBEnsemble(n_estimators=2).fit(X, ["go", "stay", "go", "stay"]).stats_
        >>> stats.validate(checks.Layout(2, (2, 2), ("states", "states")))  # fits: no output
        >>> stats.validate(checks.Layout(2, (3, 2), ("states", "states")))
        Traceback (most recent call last):
        ...
        ValueError: stats_.members[0].counts.n_states[0]: is 2, expected 3 states
        """
        if not isinstance(self.members, tuple) or not self.members:
            checks.fail(f"{where}.members", "expected a non-empty tuple of ScoredCounts")
        if self.cuts is not None:
            _check_cuts(self.cuts, len(self.members), layout, where)
        for i, member in enumerate(self.members):
            if not isinstance(member, ScoredCounts):
                checks.fail(f"{where}.members[{i}]", "expected ScoredCounts")
            member.validate(self.member_layout(layout, i), f"{where}.members[{i}]")

    def member_layout(self, layout: checks.Layout, i: int) -> checks.Layout:
        """What member ``i``'s counts must fit: ``layout``, its numeric columns binned at the
        member's cut points where it has its own.

        Parameters
        ----------
        layout : Layout
            The ensemble's (its schema's) layout.
        i : int
            The member.

        Returns
        -------
        Layout

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import SelectiveKDBEnsemble
        >>> X = pd.DataFrame({"x": [1.0, 2, 8, 9], "c": list("abab")})
        >>> stats = SelectiveKDBEnsemble(n_estimators=2).fit(X, [0, 0, 1, 1]).stats_
        >>> layout = checks.Layout(2, (2,), ("states",), 1, ("x",), ("c",), (0,))
        >>> stats.member_layout(layout, 0).n_states  # x in two bins, then c
        (2, 2)
        """
        if self.cuts is None:
            return layout
        return layout.binned(tuple(c.size + 1 for c in self.cuts[i]))


def _same_cuts(a: tuple | None, b: tuple | None) -> bool:
    """Whether two ensembles' members bin the numeric columns alike."""
    if a is None or b is None:
        return a is None and b is None
    return len(a) == len(b) and all(
        len(x) == len(y) and all(np.array_equal(u, v) for u, v in zip(x, y, strict=True))
        for x, y in zip(a, b, strict=True)
    )


def _check_cuts(cuts: Any, n_members: int, layout: checks.Layout, where: str) -> None:
    """One finite, strictly increasing float64 array of cut points per numeric column, for
    each member."""
    if not isinstance(cuts, tuple) or len(cuts) != n_members:
        checks.fail(f"{where}.cuts", f"expected a tuple of {n_members} members' cut points")
    for i, own in enumerate(cuts):
        at = f"{where}.cuts[{i}]"
        if not isinstance(own, tuple) or len(own) != layout.n_numeric:
            checks.fail(at, f"expected a tuple of {layout.n_numeric} arrays (numeric columns)")
        for j, c in enumerate(own):
            ok = isinstance(c, np.ndarray) and c.dtype == np.float64
            if not ok or c.size > MAX_CUTS:
                what = c.dtype if isinstance(c, np.ndarray) else type(c).__name__
                checks.fail(f"{at}[{j}]", f"expected a 1-D float64 array (dtype) of at most "
                            f"{MAX_CUTS} cut points, got {what}")  # fmt: skip
            problem = cut_problem(c)
            if problem is not None:
                checks.fail(f"{at}[{j}]", f"cut points {problem}")
