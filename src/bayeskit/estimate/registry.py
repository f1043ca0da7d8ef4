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
from bayeskit.estimate._additive import lidstone
from bayeskit.estimate.dirichlet import (
    dirichlet_map,
    laplace,
    lidstone_where_zero,
    m_estimate,
    mle,
)
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


class Estimator:
    """One way of turning a family table into a conditional table (the base of the registry).

    Attributes
    ----------
    name : str
        Its name in the registry, as ``smoothing=`` and ``estimator=`` take it.
    uses_alpha : bool
        Whether ``alpha`` enters the estimate (False: ignored).
    fixed_prior : bool
        Whether the table is the posterior mode of one Dirichlet prior fixed before the data
        (so :meth:`log_prior` is that prior's log density and EM climbs the posterior).
    needs_parent_order : bool
        Whether the estimate reads the parents' order (the most important first).

    Examples
    --------
    >>> laplace = get_estimator("laplace")
    >>> laplace.name, laplace.uses_alpha, laplace.fixed_prior
    ('laplace', False, True)
    >>> np.exp(laplace.log_probabilities(np.array([3.0, 1.0]))).round(3)  # (n + 1) / (N + 2)
    array([0.667, 0.333])
    """

    name = ""
    uses_alpha = True
    fixed_prior = True
    needs_parent_order = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def check_alpha(self, alpha: float, what: str = "smoothing") -> None:
        """Refuse (ValueError) an ``alpha`` this estimator has no meaning for; ``alpha >= 0``
        is the caller's check."""

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        """The Lidstone pseudo-count per cell this estimator amounts to, for one family table
        of ``shape`` (child on ``axis``)."""
        return alpha

    def log_probabilities(
        self, counts: Any, alpha: float = 1.0, *, axis: int = -1, batch_axes: int = 0
    ) -> np.ndarray:
        """``log P(child | parents)`` of a family table (or of ``batch_axes`` leading axes of
        them), normalised along the child's ``axis``: the shape of ``counts``."""
        counts = np.asarray(counts, dtype=np.float64)
        pseudo = self.pseudo_count(alpha, counts.shape[batch_axes:], axis)
        return lidstone(counts, pseudo, axis)

    def probabilities(
        self, counts: Any, alpha: float = 1.0, *, axis: int = -1, batch_axes: int = 0
    ) -> np.ndarray:
        """``P(child | parents)``: :meth:`log_probabilities`, exponentiated."""
        return np.exp(self.log_probabilities(counts, alpha, axis=axis, batch_axes=batch_axes))

    def log_prior(self, log_tables: Iterable[np.ndarray], alpha: float) -> float:
        """``sum pseudo-count x log theta`` over conditional tables (child axis last): the log
        density, up to a constant, of the Dirichlet prior whose posterior mode the tables are;
        0 for an estimator that is no fixed prior."""
        if not self.fixed_prior:
            return 0.0
        total = 0.0
        for t in log_tables:
            pseudo = self.pseudo_count(alpha, np.shape(t))
            if pseudo > 0:
                total += pseudo * float(np.sum(t))
        return total


class MLE(Estimator):
    """Maximum likelihood: relative frequencies, ``P(k | j) = n_ijk / n_ij`` (Zhou, *Machine
    Learning*, 7.3, Eq. 7.17). Unseen states get probability 0 (log ``-inf``); ``alpha`` is not
    used.

    Examples
    --------
    >>> MLE().probabilities(np.array([[6.0, 2.0], [0.0, 0.0]])).tolist()
    [[0.75, 0.25], [0.5, 0.5]]
    """

    name = "mle"
    uses_alpha = False

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        return 0.0

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        return mle(counts, axis)


class Lidstone(Estimator):
    """Additive smoothing, ``P(k | j) = (n_ijk + alpha) / (n_ij + r alpha)``, ``alpha`` per cell
    (Lidstone's law: Manning and Schütze, *Foundations of Statistical Natural Language
    Processing*, 6.2.2); ``alpha = 1`` is Laplace's (Zhou, *Machine Learning*, 7.3, Eqs.
    7.19-7.20), ``alpha = 0`` the MLE. Also the posterior mean under a symmetric Dirichlet(alpha)
    prior.

    Examples
    --------
    >>> Lidstone().probabilities(np.array([3.0, 1.0]), alpha=0.5).tolist()
    [0.7, 0.3]
    """

    name = "lidstone"


class Laplace(Estimator):
    """The Laplacian correction, ``P(k | j) = (n_ijk + 1) / (n_ij + r)`` (Zhou, *Machine
    Learning*, 7.3, Eqs. 7.19-7.20): Lidstone with ``alpha = 1``, whatever ``alpha`` is given.

    Examples
    --------
    >>> Laplace().probabilities(np.array([3.0, 5.0, 0.0])).round(4).tolist()  # (3 + 1) / (8 + 3)
    [0.3636, 0.5455, 0.0909]
    """

    name = "laplace"
    uses_alpha = False

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        return 1.0

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        return laplace(counts, axis)


class MEstimate(Estimator):
    """The m-estimate with a uniform prior, ``P(k | j) = (n_ijk + m / r) / (n_ij + m)``, ``m =
    alpha`` an equivalent sample size per parent configuration (Mitchell, *Machine Learning*,
    6.9.1.1, Eq. 6.22): Lidstone with ``alpha / r``.

    Examples
    --------
    >>> MEstimate().probabilities(np.array([3.0, 1.0]), alpha=2.0).round(4).tolist()
    [0.6667, 0.3333]
    """

    name = "m-estimate"

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        return alpha / shape[axis]

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        return m_estimate(counts, alpha, axis=axis)


class DirichletMAP(Estimator):
    """The posterior mode under a symmetric Dirichlet(alpha) prior, ``alpha >= 1``:
    ``P(k | j) = (n_ijk + alpha - 1) / (n_ij + r (alpha - 1))`` (Gelman et al., *Bayesian Data
    Analysis*, ch. 2; Koller and Friedman, *Probabilistic Graphical Models*, 17.3): Lidstone with
    ``alpha - 1``; ``alpha = 1`` is the MLE.

    Examples
    --------
    >>> DirichletMAP().probabilities(np.array([3.0, 1.0]), alpha=2.0).round(4).tolist()
    [0.6667, 0.3333]
    """

    name = "dirichlet-map"

    def check_alpha(self, alpha: float, what: str = "smoothing") -> None:
        if alpha < 1:
            msg = f"{what}='dirichlet-map' needs alpha >= 1, got {shown(alpha)}"
            raise ValueError(msg)

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        return alpha - 1.0

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        return dirichlet_map(counts, alpha, axis)


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
        if not alpha > 0:
            msg = (
                f"{what}='bdeu' needs alpha > 0 (BDeu's equivalent sample size), got {shown(alpha)}"
            )
            raise ValueError(msg)

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
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
