"""The one registry of table estimators: from a family's counts to its conditional table.

A *family table* holds the counts ``n_ijk`` of a child ``X_i`` in state ``k`` under parent
configuration ``j``: the parents on the leading axes (in the family's order), the child on the
last; ``batch_axes`` leading axes before them may index independent tables of one shape. With
``r`` child states and ``q`` parent configurations (the product of the parents' numbers of
states), every estimator here turns such a table into ``P(X_i = k | pa_i = j)``, along the child
axis, in log space. The classifiers (their ``smoothing=``) and the networks (their
``estimator=``) look their estimator up here by name, so both take the same names:

==========================  ================================================================
``"mle"``                   ``n_ijk / n_ij`` (:class:`MLE`)
``"lidstone"``              ``(n_ijk + alpha) / (n_ij + r alpha)`` (:class:`Lidstone`)
``"laplace"``               ``(n_ijk + 1) / (n_ij + r)`` (:class:`Laplace`)
``"m-estimate"``            ``(n_ijk + alpha / r) / (n_ij + alpha)`` (:class:`MEstimate`)
``"dirichlet-map"``         ``(n_ijk + alpha - 1) / (n_ij + r (alpha - 1))`` (:class:`DirichletMAP`)
``"lidstone-where-zero"``   Lidstone where a distribution holds a zero, else the MLE
``"bdeu"``                  ``(n_ijk + alpha / (q r)) / (n_ij + alpha / q)`` (:class:`BDeu`)
``"k2"``                    ``(n_ijk + 1) / (n_ij + r)`` (:class:`K2`)
``"hierarchical"``          each table shrunk toward the one with a parent fewer
``"hierarchical-gibbs"``    the same model fitted by Gibbs sampling
==========================  ================================================================

Besides its table, an estimator says which Lidstone pseudo-count per cell it amounts to
(:meth:`Estimator.pseudo_count`; exact for those that add a fixed pseudo-count to each cell, a
stand-in for the others), which leave-one-out scoring uses, and the log density of the Dirichlet
prior whose posterior mode its table is (:meth:`Estimator.log_prior`), which EM adds to the
log-likelihood it climbs. A distribution with no count and no pseudo-count is uniform, never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from bayeskit._text import shown
from bayeskit.estimate._estimators import (
    MLE,
    DirichletMAP,
    Estimator,
    Laplace,
    Lidstone,
    MEstimate,
)
from bayeskit.estimate.dirichlet import lidstone_where_zero
from bayeskit.estimate.hdp_gibbs import hierarchical_gibbs
from bayeskit.estimate.hierarchical import hierarchical_dirichlet

__all__ = [
    "ESTIMATORS",
    "SMOOTHINGS",
    "BDeu",
    "DirichletMAP",
    "Estimator",
    "Hierarchical",
    "HierarchicalGibbs",
    "K2",
    "Laplace",
    "Lidstone",
    "LidstoneWhereZero",
    "MEstimate",
    "MLE",
    "get_estimator",
    "lidstone_equivalent",
    "log_probabilities",
    "table_log_prior",
]


def _sizes(shape: tuple[int, ...], axis: int = -1) -> tuple[int, int]:
    """``(q, r)`` of one family table's shape: parent configurations and child states."""
    r = int(shape[axis])
    return (math.prod(shape) // r if r else 0), r


class LidstoneWhereZero(Estimator):
    """Han, Kamber and Pei's Laplacian correction (*Data Mining*, 6.3): a distribution (one
    parent configuration) holding a zero count gets ``alpha`` added to every cell, one without
    zeros keeps its relative frequencies. No fixed prior; its Lidstone stand-in is ``alpha``.

    Examples
    --------
    >>> LidstoneWhereZero().probabilities(np.array([[0.0, 3.0], [1.0, 3.0]])).tolist()
    [[0.2, 0.8], [0.25, 0.75]]
    """

    name = "lidstone-where-zero"
    fixed_prior = False

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        """Lidstone where a distribution holds a zero count, else relative frequencies.

        Each distribution along ``axis`` (one parent configuration ``j``) is judged on its
        own: ``log((n_ijk + alpha) / (n_ij + r alpha))`` if some ``n_ijk`` is 0, else
        ``log(n_ijk / n_ij)``.

        Parameters
        ----------
        counts : array-like
            Counts (weighted counts allowed), the child on ``axis``.
        alpha : float, default=1.0
            The pseudo-count added to every cell of a distribution that holds a zero.
        axis : int, default=-1
            The child's axis.
        batch_axes : int, default=0
            Not needed: each distribution along ``axis`` is estimated on its own.

        Returns
        -------
        ndarray
            The log conditional table, float64 of the shape of ``counts``.

        Examples
        --------
        >>> counts = np.array([[0.0, 3.0], [1.0, 3.0]])  # a zero in the first row only
        >>> np.exp(LidstoneWhereZero().log_probabilities(counts, 1.0)).round(3).tolist()
        [[0.2, 0.8], [0.25, 0.75]]
        """
        return lidstone_where_zero(counts, alpha, axis)


class BDeu(Estimator):
    """The posterior mean under the BDeu prior (Bayesian Dirichlet, likelihood-equivalent and
    uniform) of equivalent sample size ``alpha``: each of the ``q r`` cells of the family gets the
    pseudo-count ``alpha / (q r)``,

        P(k | j) = (n_ijk + alpha / (q r)) / (n_ij + alpha / q)

    (Koller and Friedman, *Probabilistic Graphical Models*, 17.4; Heckerman, Geiger and
    Chickering, 1995), the prior of the BDeu score. The prior's ``alpha`` rows are spread evenly
    over every family, so two structures of one equivalence class get one prior. ``alpha`` must
    be > 0. Outside a family (a table of no parent axis), ``q = 1``.

    Examples
    --------
    A 2 x 3 table with ``alpha = 6``: one pseudo-count per cell.

    >>> BDeu().probabilities(np.array([[2.0, 0.0, 1.0], [0.0, 0.0, 0.0]]), 6.0).round(4)
    array([[0.5   , 0.1667, 0.3333],
           [0.3333, 0.3333, 0.3333]])
    """

    name = "bdeu"

    def check_alpha(self, alpha: float, what: str = "smoothing") -> None:
        """Refuse an ``alpha`` that is not positive: BDeu's equivalent sample size.

        Parameters
        ----------
        alpha : float
            The equivalent sample size.
        what : str, default="smoothing"
            The name of the argument that chose the estimator, for the message.

        Raises
        ------
        ValueError
            ``alpha`` is not > 0 (0, negative or NaN).

        Examples
        --------
        >>> BDeu().check_alpha(0.0, "estimator")
        Traceback (most recent call last):
        ...
        ValueError: estimator='bdeu' needs alpha > 0 (BDeu's equivalent sample size), got 0.0
        """
        if not alpha > 0:
            msg = (
                f"{what}='bdeu' needs alpha > 0 (BDeu's equivalent sample size), got {shown(alpha)}"
            )
            raise ValueError(msg)

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        """``alpha / (q r)``: the equivalent sample size spread over the family's cells.

        Parameters
        ----------
        alpha : float
            The equivalent sample size (> 0).
        shape : tuple of int
            The shape of one family table: ``r = shape[axis]`` child states and ``q`` (the
            product of the other lengths) parent configurations; ``q = 1`` for no parent axis.
        axis : int, default=-1
            The child's axis in ``shape``.

        Returns
        -------
        float
            ``alpha / prod(shape)``; 0 for a table of no cell.

        Examples
        --------
        >>> BDeu().pseudo_count(6.0, (2, 3))  # q = 2, r = 3
        1.0
        """
        q, r = _sizes(tuple(shape), axis)
        return alpha / (q * r) if q * r else 0.0


class K2(Estimator):
    """The posterior mean under the Cooper-Herskovits prior of the K2 score: Dirichlet with
    pseudo-count 1 in every cell, ``P(k | j) = (n_ijk + 1) / (n_ij + r)`` (Cooper and Herskovits,
    "A Bayesian method for the induction of probabilistic networks from data", 1992; Koller and
    Friedman, 17.4). The same table as :class:`Laplace`; ``alpha`` is not used.

    Examples
    --------
    >>> K2().probabilities(np.array([[2.0, 0.0], [0.0, 0.0]])).tolist()
    [[0.75, 0.25], [0.5, 0.5]]
    """

    name = "k2"
    uses_alpha = False

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        """1, whatever ``alpha`` is: the Cooper-Herskovits prior puts 1 in every cell.

        Parameters
        ----------
        alpha, shape, axis
            As :meth:`Estimator.pseudo_count`; none is used.

        Returns
        -------
        float
            ``1.0``.

        Examples
        --------
        >>> K2().pseudo_count(5.0, (2, 3))
        1.0
        """
        return 1.0


class Hierarchical(Estimator):
    """Hierarchical Dirichlet smoothing (Petitjean, Buntine, Webb and Zaidi, *Machine Learning*
    107, 2018): ``P(x | pa_1..pa_m)`` shrunk toward ``P(x | pa_1..pa_{m-1})``, and so on down to
    ``P(x)``, Lidstone with ``alpha``, each level's concentrations learned from the counts
    (:func:`~bayeskit.estimate.hierarchical_dirichlet`). The parents must be in order, the most
    important first, and the child on the last axis. No fixed prior; its Lidstone stand-in is
    ``alpha``.

    Examples
    --------
    A parent value seen once is pulled toward the child's distribution over all rows:

    >>> p = Hierarchical().probabilities(np.array([[30.0, 10.0], [1.0, 0.0]]))
    >>> bool(0.7 < p[1, 0] < 0.8)
    True
    """

    name = "hierarchical"
    fixed_prior = False
    needs_parent_order = True
    _function = staticmethod(hierarchical_dirichlet)

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        """The hierarchical Dirichlet estimate, ``log P(x | pa_1..pa_m)``, in log space.

        ``P(x | pa_1..pa_m)`` is shrunk toward ``P(x | pa_1..pa_{m-1})``, and so on down to
        ``P(x)``, which is Lidstone with ``alpha``; each level's concentrations are learned
        from the counts (:class:`HierarchicalGibbs`: the same model fitted by Gibbs sampling,
        seed 0). A parent configuration never seen gets its parent level's distribution.

        Parameters
        ----------
        counts : array-like
            Counts of shape ``(*batch, L_1, ..., L_m, r)``: the parents' axes in order of
            importance, the most important first, and the child on the last axis.
        alpha : float, default=1.0
            The Lidstone pseudo-count of the root ``P(x)``; 0 leaves it the relative frequency.
        axis : int, default=-1
            The child's axis: it must be the last.
        batch_axes : int, default=0
            Leading axes that stack independent tables (each with its own concentrations).

        Returns
        -------
        ndarray
            The log conditional table, of the shape of ``counts``, normalised along the last
            axis.

        Raises
        ------
        ValueError
            ``axis`` is not the last axis.

        Examples
        --------
        >>> p = np.exp(Hierarchical().log_probabilities(np.array([[30.0, 10.0], [1.0, 0.0]])))
        >>> bool(0.7 < p[1, 0] < 0.8)  # 1 / 1 seen, pulled toward the distribution of x
        True
        """
        counts = np.asarray(counts)
        if axis not in (-1, counts.ndim - 1):
            msg = f"{self.name} smoothing needs the child on the last axis, got axis={axis}"
            raise ValueError(msg)
        return self._function(counts, alpha, batch_axes=batch_axes)


class HierarchicalGibbs(Hierarchical):
    """:class:`Hierarchical`'s model fitted by Petitjean et al.'s Gibbs sampler
    (:func:`~bayeskit.estimate.hierarchical_gibbs`, random seed 0): slower, and random.

    Examples
    --------
    >>> p = HierarchicalGibbs().probabilities(np.array([[30.0, 10.0], [1.0, 0.0]]))
    >>> bool(np.allclose(p.sum(axis=-1), 1.0))
    True
    """

    name = "hierarchical-gibbs"
    _function = staticmethod(hierarchical_gibbs)


#: Every estimator by name, in the order messages list them.
ESTIMATORS: dict[str, Estimator] = {
    e.name: e
    for e in (
        MLE(),
        Lidstone(),
        Laplace(),
        MEstimate(),
        DirichletMAP(),
        LidstoneWhereZero(),
        BDeu(),
        K2(),
        Hierarchical(),
        HierarchicalGibbs(),
    )
}

#: The estimators' names, as ``smoothing=`` and ``estimator=`` take them.
SMOOTHINGS = tuple(ESTIMATORS)


def get_estimator(
    name: Any, what: str = "smoothing", *, ordered_parents: bool = True, fixed_prior: bool = False
) -> Estimator:
    """The registry's estimator called ``name``; ValueError naming ``what`` (the argument) and
    the choices otherwise. ``ordered_parents=False``: the caller's parents are in no order of
    importance, so the estimators that need one are not offered; ``fixed_prior=True``: only the
    estimators that are the posterior mode of a fixed Dirichlet prior are offered (what an EM
    whose objective adds that prior's log density needs).

    Parameters
    ----------
    name : str
        A key of :data:`ESTIMATORS`.
    what : str, default="smoothing"
        The argument's name, for the message.
    ordered_parents : bool, default=True
        Whether the caller's parents are in order of importance.
    fixed_prior : bool, default=False
        Whether only the posterior modes of a fixed Dirichlet prior are offered.

    Returns
    -------
    Estimator

    Raises
    ------
    ValueError
        ``name`` is none of the estimators offered; the message lists them.

    Examples
    --------
    >>> get_estimator("bdeu")
    BDeu()
    >>> get_estimator("k3", "estimator")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: estimator must be one of 'mle', 'lidstone', 'laplace', ..., got 'k3'
    """
    offered = [
        n
        for n, e in ESTIMATORS.items()
        if (ordered_parents or not e.needs_parent_order) and (e.fixed_prior or not fixed_prior)
    ]
    if not isinstance(name, str) or name not in offered:
        msg = f"{what} must be one of {', '.join(map(repr, offered))}, got {shown(name)}"
        raise ValueError(msg)
    return ESTIMATORS[name]


def log_probabilities(
    counts: np.ndarray,
    smoothing: str = "lidstone",
    alpha: float = 1.0,
    axis: int = -1,
    *,
    batch_axes: int = 0,
) -> np.ndarray:
    """The conditional log table of the estimator called ``smoothing`` (any name of
    :data:`ESTIMATORS`): ``get_estimator(smoothing).log_probabilities(counts, alpha, ...)``.
    The axes after the first ``batch_axes`` are one family table each, the child on ``axis``.

    Parameters
    ----------
    counts : ndarray
        Family counts, the child on ``axis``.
    smoothing : str, default="lidstone"
        A name of :data:`ESTIMATORS`.
    alpha : float, default=1.0
        The estimator's ``alpha``.
    axis : int, default=-1
        The child axis.
    batch_axes : int, default=0
        Leading axes that stack several family tables.

    Returns
    -------
    ndarray
        The log conditional table, of the shape of ``counts``.

    Examples
    --------
    >>> np.exp(log_probabilities(np.array([3.0, 1.0]), "m-estimate", 2.0)).round(3)
    array([0.667, 0.333])
    """
    return get_estimator(smoothing).log_probabilities(
        counts, alpha, axis=axis, batch_axes=batch_axes
    )


def lidstone_equivalent(
    smoothing: str, alpha: float, n_states: int, n_parent_configs: int = 1
) -> float:
    """The Lidstone pseudo-count per cell the estimator called ``smoothing`` amounts to for a
    family of ``n_states`` child states and ``n_parent_configs`` parent configurations: exact
    for the additive ones (Dirichlet MAP with ``alpha`` is Lidstone with ``alpha - 1``, the
    m-estimate Lidstone with ``m / K``, BDeu with ``alpha / (q K)``); ``alpha`` for those with no
    single one (Han's correction, the hierarchical smoothings).

    Parameters
    ----------
    smoothing : str
        A name of :data:`ESTIMATORS`.
    alpha : float
        The estimator's ``alpha``.
    n_states : int
        The child's number of states ``K``.
    n_parent_configs : int, default=1
        The family's parent configurations ``q`` (the class counted as a parent).

    Returns
    -------
    float

    Examples
    --------
    >>> lidstone_equivalent("m-estimate", 2.0, 4), lidstone_equivalent("dirichlet-map", 2.0, 4)
    (0.5, 1.0)
    >>> lidstone_equivalent("bdeu", 6.0, 3, n_parent_configs=2)
    1.0
    """
    return get_estimator(smoothing).pseudo_count(alpha, (n_parent_configs, n_states))


def table_log_prior(log_tables: Iterable[np.ndarray], smoothing: str, alpha: float) -> float:
    """``sum pseudo-count x log theta`` over conditional log tables (child axis last) estimated
    by the estimator called ``smoothing`` (:meth:`Estimator.log_prior`): the log density, up to
    a constant, of the Dirichlet prior whose posterior mode the tables are; 0 for the estimators
    that are no fixed prior.

    Parameters
    ----------
    log_tables : iterable of ndarray
        Conditional log tables, the child on the last axis.
    smoothing : str
        The name of the estimator that gave them.
    alpha : float
        Its ``alpha``.

    Returns
    -------
    float

    Examples
    --------
    >>> round(table_log_prior([np.log(np.array([[0.5, 0.5]]))], "lidstone", 2.0), 4)
    -2.7726
    """
    return get_estimator(smoothing).log_prior(log_tables, alpha)
