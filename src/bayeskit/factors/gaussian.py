"""The conditional distribution of a continuous node: linear-Gaussian, and conditional linear
Gaussian (CLG) when some parents are discrete.

A continuous node ``X`` with continuous parents ``Y`` and discrete parents in configuration
``c`` is ``X = b0[c] + b[c] . Y + e``, ``e ~ N(0, s2[c])``: Zhou, *Machine Learning*, 7.5's
conditional probability table generalised to a conditional density, one linear regression per
configuration of the discrete parents (Lauritzen and Wermuth 1989). A discrete node may not have
a continuous parent; the network refuses such an edge.

It is a :class:`~bayeskit.factors.ConditionalDistribution`: its statistic is the family's
scatter moments per configuration (:class:`~bayeskit.stats.ScatterMoments` over ``(Y, X)``,
mergeable with ``+``, so chunks, partitions and EM's weighted rows fill it alike); its estimate is
the least-squares regression, which is the maximum-likelihood one (the residual variance divided
by the weight, not by the degrees of freedom), with an optional ridge penalty ``ridge * |b|^2``
on the slopes; its factor form is the canonical (information) form of the Gaussian density of
``(Y, X)`` per configuration (:class:`CanonicalForm`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import linalg

from bayeskit.stats import ScatterMoments, scatter_moments

__all__ = ["CanonicalForm", "LinearGaussianCPD", "parent_columns"]

#: A residual variance at most this fraction of the child's own scatter counts as zero.
ZERO_VARIANCE = 1e-12


@dataclass(frozen=True)
class CanonicalForm:
    """A Gaussian potential in canonical form per configuration of discrete variables,
    ``phi_c(z) = exp(-z^T K[c] z / 2 + h[c]^T z + g[c])`` over continuous variables ``z``.

    Attributes
    ----------
    discrete : tuple
        The discrete variables; their configurations are in C order.
    cardinalities : tuple of int
        Their numbers of states.
    continuous : tuple
        The continuous variables, in the order of ``K``'s axes.
    K : ndarray of shape (n_configurations, m, m)
    h : ndarray of shape (n_configurations, m)
    g : ndarray of shape (n_configurations,)

    Examples
    --------
    >>> cpd = LinearGaussianCPD("x", [], intercept=1.0, coefficients=[], variance=4.0)
    >>> form = cpd.to_factor()
    >>> form.continuous, round(float(form.log_value(np.array([0]), np.array([[1.0]]))[0]), 4)
    (('x',), -1.6121)
    """

    discrete: tuple
    cardinalities: tuple
    continuous: tuple
    K: np.ndarray
    h: np.ndarray
    g: np.ndarray

    def log_value(self, configuration: np.ndarray, z: np.ndarray) -> np.ndarray:
        """``log phi_c(z)`` of each row.

        Parameters
        ----------
        configuration : ndarray of int of shape (n_rows,)
            Each row's configuration of the discrete variables (its C-order index).
        z : ndarray of shape (n_rows, m)
            The continuous variables' values, in the order of :attr:`continuous`.

        Returns
        -------
        ndarray of shape (n_rows,)

        Examples
        --------
        >>> form = CanonicalForm((), (), ("x",), np.ones((1, 1, 1)), np.zeros((1, 1)),
        ...                      np.zeros(1))
        >>> form.log_value(np.array([0]), np.array([[2.0]])).tolist()
        [-2.0]
        """
        K, h = self.K[configuration], self.h[configuration]
        quad = np.einsum("ni,nij,nj->n", z, K, z)
        return -0.5 * quad + np.einsum("ni,ni->n", h, z) + self.g[configuration]


class LinearGaussianCPD:
    """``P(variable | parents)`` of a continuous node: a linear regression on its continuous
    parents with normal noise, one per configuration of its discrete parents.

    Parameters
    ----------
    variable : hashable
        The node.
    parents : sequence
        All its parents, in the order the data's columns give them; those named in ``states``
        are discrete, the others continuous.
    intercept : float or array-like
        ``b0`` per configuration of the discrete parents: an array with an axis per discrete
        parent (its states, in the order of ``parents``); a number without discrete parents.
    coefficients : array-like
        ``b`` per configuration, in the order of the continuous parents: the intercept's axes
        and one more, of length the number of continuous parents.
    variance : float or array-like
        ``s2 > 0`` per configuration, shaped as ``intercept``.
    states : mapping, optional
        The state names of each discrete parent (entries for other variables are ignored).

    Raises
    ------
    ValueError
        On shapes that do not fit the family, a variance that is not positive and finite, or
        coefficients that are not finite.

    Examples
    --------
    >>> cpd = LinearGaussianCPD("y", ["x"], intercept=1.0, coefficients=[2.0], variance=0.5)
    >>> round(float(cpd.log_density(np.array([5.0]), np.array([[2.0]]))[0]), 4)
    -0.5724
    >>> cpd.continuous_parents, cpd.discrete_parents
    (('x',), ())
    """

    def __init__(
        self,
        variable: Any,
        parents: Sequence[Any],
        intercept: Any,
        coefficients: Any,
        variance: Any,
        states: Mapping[Any, Sequence[Any]] | None = None,
    ):
        self.variable = variable
        self.parents = tuple(parents)
        states = dict(states or {})  # entries for other variables are ignored, as a CPD does
        self.states = {p: tuple(states[p]) for p in self.parents if p in states}
        self.discrete_parents = tuple(p for p in self.parents if p in self.states)
        self.continuous_parents = tuple(p for p in self.parents if p not in self.states)
        shape = tuple(len(self.states[p]) for p in self.discrete_parents)
        k = len(self.continuous_parents)
        self.intercept = _shaped(intercept, shape, "intercept", variable)
        self.coefficients = _shaped(coefficients, (*shape, k), "coefficients", variable)
        self.variance = _shaped(variance, shape, "variance", variable)
        if not np.all(self.variance > 0):
            msg = f"variance of {variable!r} must be positive, got {self.variance.min()}"
            raise ValueError(msg)

    # ------------------------------------------------------------------ the family's data

    @property
    def _cardinalities(self) -> tuple[int, ...]:
        return tuple(len(self.states[p]) for p in self.discrete_parents)

    def _split(self, parents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The configuration index of each row (-1: a discrete parent missing) and the
        continuous parents' values."""
        parents = np.asarray(parents, dtype=float)
        if parents.ndim != 2 or parents.shape[1] != len(self.parents):
            msg = (
                f"the parents of {self.variable!r} must come as an array of shape "
                f"(n_rows, {len(self.parents)}), got {parents.shape}"
            )
            raise ValueError(msg)
        disc = [self.parents.index(p) for p in self.discrete_parents]
        cont = [self.parents.index(p) for p in self.continuous_parents]
        codes = parents[:, disc]
        missing = np.isnan(codes) | (codes < 0)
        shape = self._cardinalities
        valid = np.where(missing, 0, codes)
        if np.any(valid != np.round(valid)) or np.any(valid >= np.array(shape or [1])[None, :]):
            msg = f"the discrete parents of {self.variable!r} must be state codes 0..k-1"
            raise ValueError(msg)
        config = np.ravel_multi_index(valid.astype(np.intp).T, shape) if shape else None
        if config is None:
            config = np.zeros(len(parents), dtype=np.intp)
        return np.where(missing.any(axis=1), -1, config), parents[:, cont]

    def statistic(
        self, child: np.ndarray, parents: np.ndarray, weights: Any = None
    ) -> ScatterMoments:
        """The scatter moments of ``(continuous parents, child)`` per configuration of the
        discrete parents, over the rows with nothing missing.

        Parameters
        ----------
        child : ndarray of shape (n_rows,)
            The node's values (NaN: missing).
        parents : ndarray of shape (n_rows, len(parents))
            The parents' values: state codes for discrete ones (-1 or NaN: missing), numbers
            for continuous ones (NaN: missing).
        weights : array-like of shape (n_rows,), optional
            Non-negative row weights (one each by default).

        Returns
        -------
        ScatterMoments
            One class per configuration; mergeable with ``+``.

        Raises
        ------
        ValueError
            On negative or non-finite weights, or infinite values.

        Examples
        --------
        >>> cpd = LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)
        >>> stat = cpd.statistic(np.array([1.0, 3.0]), np.array([[0.0], [1.0]]))
        >>> stat.count.tolist(), stat.mean.tolist()
        ([2.0], [[0.5, 2.0]])
        """
        config, cont = self._split(parents)
        values = np.column_stack([cont, np.asarray(child, dtype=float).reshape(-1)])
        if np.isinf(values).any():
            msg = f"the family of {self.variable!r} has infinite values"
            raise ValueError(msg)
        values[config < 0] = np.nan
        w = None
        if weights is not None:
            w = np.asarray(weights, dtype=float).reshape(-1)
            if w.shape != (len(values),) or not np.all(np.isfinite(w) & (w >= 0)):
                msg = "weights must be one finite, non-negative number per row"
                raise ValueError(msg)
        n_configs = int(np.prod(self._cardinalities)) if self.discrete_parents else 1
        return scatter_moments(values, np.maximum(config, 0), n_configs, w)

    def estimate(
        self, statistic: ScatterMoments, ridge: float = 0.0, min_variance: float = 0.0
    ) -> LinearGaussianCPD:
        """The least-squares (maximum-likelihood) regression per configuration.

        Parameters
        ----------
        statistic : ScatterMoments
            From :meth:`statistic` (summed over pieces of data, or weighted).
        ridge : float, default=0.0
            Penalty ``ridge * |b|^2`` on the slopes (not the intercept): the posterior mode
            under a normal prior on them. With 0 and perfectly collinear parents the slopes are
            the least-squares solution of least norm.
        min_variance : float, default=0.0
            A floor on the residual variance. With 0, a node its parents determine exactly
            (or a constant one) is refused.

        Returns
        -------
        LinearGaussianCPD

        Raises
        ------
        ValueError
            When a configuration has no rows, or the residual variance is 0 and
            ``min_variance`` is 0.

        Examples
        --------
        >>> cpd = LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)
        >>> x = np.array([0.0, 1.0, 2.0, 3.0])
        >>> fit = cpd.estimate(cpd.statistic(1 + 2 * x + [0.1, -0.1, -0.1, 0.1], x[:, None]))
        >>> round(float(fit.intercept), 3), fit.coefficients.round(3).tolist(), float(fit.variance)
        (1.0, [2.0], 0.01)
        """
        if not (ridge >= 0 and math.isfinite(ridge)):
            msg = f"ridge must be a finite number >= 0, got {ridge!r}"
            raise ValueError(msg)
        shape = self._cardinalities
        k = len(self.continuous_parents)
        n_configs = int(np.prod(shape)) if shape else 1
        b0, b, s2 = np.empty(n_configs), np.empty((n_configs, k)), np.empty(n_configs)
        for c in range(n_configs):
            b0[c], b[c], s2[c] = self._regress(statistic, c, k, ridge, min_variance)
        return LinearGaussianCPD(
            self.variable, self.parents, b0.reshape(shape), b.reshape((*shape, k)),
            s2.reshape(shape), self.states,
        )  # fmt: skip

    def _regress(self, stat: ScatterMoments, c: int, k: int, ridge: float, floor: float):
        n, mean, scatter = float(stat.count[c]), stat.mean[c], stat.scatter[c]
        if n <= 0:
            msg = f"{self.variable!r} has no complete rows for {self._describe(c)}"
            raise ValueError(msg)
        s_cc, s_cx, s_xx = scatter[:k, :k], scatter[:k, k], float(scatter[k, k])
        if k:
            beta = linalg.lstsq(s_cc + ridge * np.eye(k), s_cx, lapack_driver="gelsd")[0]
            rss = s_xx - 2.0 * beta @ s_cx + beta @ s_cc @ beta
        else:
            beta, rss = np.zeros(0), s_xx
        variance = max(rss, 0.0) / n
        if variance <= ZERO_VARIANCE * s_xx / n or variance == 0.0:
            if floor <= 0:
                what = "is constant" if s_xx == 0 else "is a linear function of its parents"
                msg = (
                    f"{self.variable!r} {what} for {self._describe(c)} (residual variance 0); "
                    "set min_variance to floor it"
                )
                raise ValueError(msg)
        variance = max(variance, floor)
        return mean[k] - beta @ mean[:k], beta, variance

    def _describe(self, c: int) -> str:
        if not self.discrete_parents:
            return "its parents"
        codes = np.unravel_index(c, self._cardinalities)
        parts = [
            f"{p}={self.states[p][i]}" for p, i in zip(self.discrete_parents, codes, strict=True)
        ]
        return "the configuration " + ", ".join(parts)

    # ------------------------------------------------------------------ reading it

    def _regression(self, parents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        config, cont = self._split(parents)
        if np.any(config < 0):
            msg = f"the parents of {self.variable!r} must all be given (no missing values)"
            raise ValueError(msg)
        n_configs = max(1, self.intercept.size)
        b0 = self.intercept.reshape(n_configs)[config]
        b = self.coefficients.reshape(n_configs, -1)[config]
        return b0 + np.einsum("ni,ni->n", b, cont), self.variance.reshape(n_configs)[config]

    def log_density(self, child: np.ndarray, parents: np.ndarray) -> np.ndarray:
        """The normal log density of each row's value around its regression mean.

        Parameters
        ----------
        child : ndarray of shape (n_rows,)
            The node's values.
        parents : ndarray of shape (n_rows, len(parents))
            The parents' values (state codes for discrete ones), none missing.

        Returns
        -------
        ndarray of shape (n_rows,)

        Raises
        ------
        ValueError
            When a parent's value is missing.

        Examples
        --------
        >>> cpd = LinearGaussianCPD("y", [], 0.0, [], 1.0)
        >>> cpd.log_density(np.array([0.0]), np.zeros((1, 0))).round(4).tolist()
        [-0.9189]
        """
        mean, var = self._regression(parents)
        x = np.asarray(child, dtype=float).reshape(-1)
        return -0.5 * (np.log(2 * np.pi * var) + (x - mean) ** 2 / var)

    def sample(self, parents: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One draw per row: the regression mean plus normal noise.

        Parameters
        ----------
        parents : ndarray of shape (n_rows, len(parents))
            The parents' values (their draws).
        rng : numpy.random.Generator
            The source of randomness.

        Returns
        -------
        ndarray of shape (n_rows,)

        Raises
        ------
        ValueError
            When a parent's value is missing.

        Examples
        --------
        >>> cpd = LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1e-12)
        >>> cpd.sample(np.array([[3.0]]), np.random.default_rng(0)).round(3).tolist()
        [3.0]
        """
        mean, var = self._regression(parents)
        return mean + np.sqrt(var) * rng.standard_normal(len(mean))

    def to_factor(self) -> CanonicalForm:
        """The density of ``(continuous parents, variable)`` in canonical form, one per
        configuration of the discrete parents.

        With ``u = (y, x)`` and ``a = (-b, 1)``: ``K = a a^T / s2``, ``h = b0 a / s2`` and
        ``g = -b0^2 / (2 s2) - log(2 pi s2) / 2``.

        Returns
        -------
        CanonicalForm

        Examples
        --------
        >>> form = LinearGaussianCPD("y", ["x"], 1.0, [2.0], 0.5).to_factor()
        >>> form.continuous, form.K[0].tolist()
        (('x', 'y'), [[8.0, -4.0], [-4.0, 2.0]])
        """
        n_configs = max(1, self.intercept.size)
        b0 = self.intercept.reshape(n_configs)
        s2 = self.variance.reshape(n_configs)
        b = self.coefficients.reshape(n_configs, -1)
        a = np.concatenate([-b, np.ones((n_configs, 1))], axis=1)
        K = np.einsum("ci,cj->cij", a, a) / s2[:, None, None]
        h = a * (b0 / s2)[:, None]
        g = -(b0**2) / (2 * s2) - 0.5 * np.log(2 * np.pi * s2)
        return CanonicalForm(
            self.discrete_parents, self._cardinalities,
            (*self.continuous_parents, self.variable), K, h, g,
        )  # fmt: skip

    def __repr__(self) -> str:
        return (
            f"LinearGaussianCPD({self.variable!r}, parents={list(self.parents)!r}, "
            f"discrete={list(self.discrete_parents)!r})"
        )


def _shaped(value: Any, shape: tuple, name: str, variable: Any) -> np.ndarray:
    arr = np.array(value, dtype=float)
    if arr.shape != shape:
        msg = f"{name} of {variable!r} must have shape {shape}, got {arr.shape}"
        raise ValueError(msg)
    if not np.all(np.isfinite(arr)):
        msg = f"{name} of {variable!r} must be finite"
        raise ValueError(msg)
    arr.flags.writeable = False
    return arr


def parent_columns(cpd: Any, columns: Mapping[Any, np.ndarray], n: int) -> np.ndarray:
    """A node's parents' columns ``(n, len(parents))`` as its distribution reads them: float64
    for a :class:`LinearGaussianCPD` (discrete parents' state codes as numbers), state codes
    (int64) for a table.

    Parameters
    ----------
    cpd : CPD or LinearGaussianCPD
        The node's distribution.
    columns : mapping
        Node -> its column (state codes, or numbers).
    n : int
        The number of rows (for a node without parents).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> cpd = LinearGaussianCPD("y", ["x"], 0.0, [1.0], 1.0)
    >>> parent_columns(cpd, {"x": np.array([1, 2])}, 2).tolist()
    [[1.0], [2.0]]
    """
    dtype = np.float64 if isinstance(cpd, LinearGaussianCPD) else np.int64
    if not cpd.parents:
        return np.zeros((n, 0), dtype=dtype)
    return np.column_stack([columns[p] for p in cpd.parents]).astype(dtype)
