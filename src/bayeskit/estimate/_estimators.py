"""The base of the registry of table estimators, :class:`Estimator`, and the classical smoothings
built on it: maximum likelihood, Lidstone's and Laplace's additive smoothing, the m-estimate and
the Dirichlet posterior mode. Public as names of :mod:`bayeskit.estimate.registry` (and of
:mod:`bayeskit.estimate`), which lists every estimator by name and holds the others; the
notation is the registry's: counts ``n_ijk`` of child state ``k`` under parent configuration
``j``, ``n_ij = sum_k n_ijk``, ``r`` child states and ``q`` parent configurations.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from bayeskit._text import shown
from bayeskit.estimate._additive import lidstone
from bayeskit.estimate.dirichlet import dirichlet_map, laplace, m_estimate, mle

__all__ = ["DirichletMAP", "Estimator", "Laplace", "Lidstone", "MEstimate", "MLE"]


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
    >>> from bayeskit.estimate import get_estimator
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
        """Refuse an ``alpha`` this estimator has no meaning for; the base accepts any.

        Estimators whose formula needs more than ``alpha >= 0`` (which is the caller's check)
        override it and raise ValueError: :class:`DirichletMAP` (``alpha >= 1``) and
        :class:`BDeu` (``alpha > 0``).

        Parameters
        ----------
        alpha : float
            The ``alpha`` the estimator is to be given.
        what : str, default="smoothing"
            The name of the argument that chose the estimator (``"smoothing"`` for a
            classifier, ``"estimator"`` for a network), for the message.

        Examples
        --------
        >>> Lidstone().check_alpha(0.0) is None  # accepted
        True
        """

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        """The Lidstone pseudo-count per cell this estimator amounts to, for one family table.

        An estimator that adds one fixed pseudo-count ``a`` to every cell estimates
        ``P(k | j) = (n_ijk + a) / (n_ij + r a)``; this is that ``a``: exact for those, a
        stand-in (``alpha``) for the others. Leave-one-out scoring and :meth:`log_prior` use
        it. The base, :class:`Lidstone`'s, is ``a = alpha``.

        Parameters
        ----------
        alpha : float
            The estimator's ``alpha``.
        shape : tuple of int
            The shape of one family table (no batch axis): ``r = shape[axis]`` child states,
            ``q`` (the product of the others) parent configurations.
        axis : int, default=-1
            The child's axis in ``shape``.

        Returns
        -------
        float
            The pseudo-count ``a`` added to each cell.

        Examples
        --------
        >>> Lidstone().pseudo_count(0.5, (3, 2))
        0.5
        """
        return alpha

    def log_probabilities(
        self, counts: Any, alpha: float = 1.0, *, axis: int = -1, batch_axes: int = 0
    ) -> np.ndarray:
        """``log P(child | parents)`` of a family table, or of a stack of them.

        The base, :class:`Lidstone`'s, is ``log((n_ijk + a) / (n_ij + r a))`` with ``a`` the
        :meth:`pseudo_count` of one table's shape. A distribution with no count and no
        pseudo-count is uniform, never NaN.

        Parameters
        ----------
        counts : array-like
            Counts ``n_ijk`` (weighted counts allowed): ``batch_axes`` leading axes, then one
            family table, the parents on its leading axes (in the family's order) and the
            child on ``axis``.
        alpha : float, default=1.0
            The estimator's ``alpha`` (ignored by one whose ``uses_alpha`` is False).
        axis : int, default=-1
            The child's axis (counted from the end when there are batch axes).
        batch_axes : int, default=0
            Leading axes of ``counts`` that stack independent family tables of one shape.

        Returns
        -------
        ndarray
            ``log P(X_i = k | pa_i = j)``, float64 of the shape of ``counts``, normalised
            along ``axis`` (``-inf`` for a probability of 0).

        Examples
        --------
        >>> np.exp(Lidstone().log_probabilities(np.array([[3.0, 1.0], [0.0, 0.0]]), 0.5))
        array([[0.7, 0.3],
               [0.5, 0.5]])
        """
        counts = np.asarray(counts, dtype=np.float64)
        pseudo = self.pseudo_count(alpha, counts.shape[batch_axes:], axis)
        return lidstone(counts, pseudo, axis)

    def probabilities(
        self, counts: Any, alpha: float = 1.0, *, axis: int = -1, batch_axes: int = 0
    ) -> np.ndarray:
        """``P(child | parents)``: :meth:`log_probabilities`, exponentiated.

        Parameters
        ----------
        counts : array-like
            Counts, as :meth:`log_probabilities` takes them.
        alpha : float, default=1.0
            The estimator's ``alpha``.
        axis : int, default=-1
            The child's axis.
        batch_axes : int, default=0
            Leading axes that stack independent family tables.

        Returns
        -------
        ndarray
            The conditional probabilities, float64 of the shape of ``counts``, each
            distribution along ``axis`` summing to 1.

        Examples
        --------
        >>> Lidstone().probabilities(np.array([3.0, 1.0]), alpha=0.5).tolist()
        [0.7, 0.3]
        """
        return np.exp(self.log_probabilities(counts, alpha, axis=axis, batch_axes=batch_axes))

    def log_prior(self, log_tables: Iterable[np.ndarray], alpha: float) -> float:
        """The log density (up to a constant) of the prior whose posterior mode the tables are.

        A table of pseudo-count ``a`` per cell is the posterior mode under the Dirichlet prior
        of ``a + 1`` per cell, whose log density is ``sum_jk a log theta_ijk`` plus a
        constant; this sums it over the tables, ``a`` the :meth:`pseudo_count` of each table's
        shape (a table of ``a <= 0`` adds nothing). EM adds it to the log-likelihood, so it
        climbs the posterior whose mode its M-step computes. 0 for an estimator that is no
        fixed prior (``fixed_prior`` False).

        Parameters
        ----------
        log_tables : iterable of ndarray
            Conditional log tables ``log theta``, one per family, the child on the last axis.
        alpha : float
            The estimator's ``alpha``.

        Returns
        -------
        float
            ``sum a x log theta`` over every cell of every table (``-inf`` where a table with
            ``a > 0`` holds a probability of 0).

        Examples
        --------
        >>> round(Lidstone().log_prior([np.log(np.array([[0.5, 0.5]]))], 2.0), 4)  # 2 log(1/4)
        -2.7726
        >>> MLE().log_prior([np.log(np.array([0.5, 0.5]))], 2.0)
        0.0
        """
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
        """0: the MLE adds no pseudo-count.

        Parameters
        ----------
        alpha, shape, axis
            As :meth:`Estimator.pseudo_count`; none is used.

        Returns
        -------
        float
            ``0.0``.

        Examples
        --------
        >>> MLE().pseudo_count(1.0, (2, 3))
        0.0
        """
        return 0.0

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        """Relative frequencies, ``log(n_ijk / n_ij)``.

        An unseen state gets ``-inf`` (probability 0); a distribution with no count is
        uniform.

        Parameters
        ----------
        counts : array-like
            Counts (weighted counts allowed), the child on ``axis``.
        alpha : float, default=1.0
            Not used.
        axis : int, default=-1
            The child's axis.
        batch_axes : int, default=0
            Not needed: each distribution along ``axis`` is normalised on its own.

        Returns
        -------
        ndarray
            The log conditional table, float64 of the shape of ``counts``.

        Examples
        --------
        >>> np.exp(MLE().log_probabilities(np.array([6.0, 2.0, 0.0]))).round(3).tolist()
        [0.75, 0.25, 0.0]
        """
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
        """1, whatever ``alpha`` is: Laplace's correction adds one to every cell.

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
        >>> Laplace().pseudo_count(3.0, (2,))
        1.0
        """
        return 1.0

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        """``log((n_ijk + 1) / (n_ij + r))``, ``r`` the length of the child's axis.

        Parameters
        ----------
        counts : array-like
            Counts (weighted counts allowed), the child on ``axis``.
        alpha : float, default=1.0
            Not used (the pseudo-count is 1).
        axis : int, default=-1
            The child's axis.
        batch_axes : int, default=0
            Not needed: each distribution along ``axis`` is normalised on its own.

        Returns
        -------
        ndarray
            The log conditional table, float64 of the shape of ``counts``.

        Examples
        --------
        >>> np.exp(Laplace().log_probabilities(np.array([3.0, 5.0, 0.0]), 7.0)).round(4).tolist()
        [0.3636, 0.5455, 0.0909]
        """
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
        """``alpha / r``: the equivalent sample size ``m = alpha`` spread over the child states.

        ``r = shape[axis]``: each of the ``r`` cells of a parent configuration gets ``m / r``.

        Parameters
        ----------
        alpha : float
            The equivalent sample size ``m`` of each parent configuration.
        shape : tuple of int
            The shape of one family table.
        axis : int, default=-1
            The child's axis in ``shape``.

        Returns
        -------
        float
            ``alpha / shape[axis]``.

        Examples
        --------
        >>> MEstimate().pseudo_count(2.0, (3, 4))  # 4 child states
        0.5
        """
        return alpha / shape[axis]

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        """``log((n_ijk + alpha / r) / (n_ij + alpha))``, ``r`` the length of the child's axis.

        Parameters
        ----------
        counts : array-like
            Counts (weighted counts allowed), the child on ``axis``.
        alpha : float, default=1.0
            The equivalent sample size ``m`` of each parent configuration (>= 0).
        axis : int, default=-1
            The child's axis.
        batch_axes : int, default=0
            Not needed: each distribution along ``axis`` is normalised on its own.

        Returns
        -------
        ndarray
            The log conditional table, float64 of the shape of ``counts``.

        Examples
        --------
        >>> counts = np.array([3.0, 1.0, 0.0, 0.0])  # (n + 2 / 4) / (4 + 2)
        >>> np.exp(MEstimate().log_probabilities(counts, 2.0)).round(4).tolist()
        [0.5833, 0.25, 0.0833, 0.0833]
        """
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
        """Refuse an ``alpha`` below 1, for which the Dirichlet prior has no proper mode.

        Parameters
        ----------
        alpha : float
            The Dirichlet concentration of each cell.
        what : str, default="smoothing"
            The name of the argument that chose the estimator, for the message.

        Raises
        ------
        ValueError
            ``alpha < 1``.

        Examples
        --------
        >>> DirichletMAP().check_alpha(0.5, "estimator")
        Traceback (most recent call last):
        ...
        ValueError: estimator='dirichlet-map' needs alpha >= 1, got 0.5
        """
        if alpha < 1:
            msg = f"{what}='dirichlet-map' needs alpha >= 1, got {shown(alpha)}"
            raise ValueError(msg)

    def pseudo_count(self, alpha: float, shape: tuple[int, ...], axis: int = -1) -> float:
        """``alpha - 1``: the mode of Dirichlet(alpha) adds ``alpha - 1`` to every cell.

        Parameters
        ----------
        alpha : float
            The Dirichlet concentration of each cell (>= 1).
        shape, axis
            As :meth:`Estimator.pseudo_count`; not used.

        Returns
        -------
        float
            ``alpha - 1.0``.

        Examples
        --------
        >>> DirichletMAP().pseudo_count(2.5, (2,))
        1.5
        """
        return alpha - 1.0

    def log_probabilities(self, counts, alpha=1.0, *, axis=-1, batch_axes=0):
        """The log posterior mode, ``log((n_ijk + alpha - 1) / (n_ij + r (alpha - 1)))``.

        ``r`` is the length of the child's axis; a distribution with no count and ``alpha = 1``
        is uniform.

        Parameters
        ----------
        counts : array-like
            Counts (weighted counts allowed), the child on ``axis``.
        alpha : float, default=1.0
            The Dirichlet concentration of each cell (>= 1; 1 gives the MLE).
        axis : int, default=-1
            The child's axis.
        batch_axes : int, default=0
            Not needed: each distribution along ``axis`` is normalised on its own.

        Returns
        -------
        ndarray
            The log conditional table, float64 of the shape of ``counts``.

        Raises
        ------
        ValueError
            ``alpha < 1`` (no proper mode).

        Examples
        --------
        >>> counts = np.array([3.0, 1.0, 0.0])  # (n + 1) / (4 + 3)
        >>> np.exp(DirichletMAP().log_probabilities(counts, 2.0)).round(4).tolist()
        [0.5714, 0.2857, 0.1429]
        """
        return dirichlet_map(counts, alpha, axis)
