"""The BGe score of Gaussian networks (Geiger and Heckerman 1994, 2002; in the corrected form of
Kuipers, Moffa and Heckerman 2014).

The BGe score is the log marginal likelihood of a linear-Gaussian network under a
Normal-Wishart prior on the joint mean and precision: ``mu | W ~ N(nu, (alpha_mu W)^-1)``,
``W ~ Wishart(alpha_w, T0^-1)``. It is score-equivalent (Markov-equivalent DAGs score alike)
and decomposes into families, ``log p(D_{v, P}) - log p(D_P)``, where for a set ``Y`` of ``l``
of the ``n`` variables and ``N`` rows

    ``log p(D_Y) = -(l N / 2) ln(pi) + (l / 2) ln(alpha_mu / (alpha_mu + N))
    + sum_{j=1..l} [lgamma((N + a + 1 - j) / 2) - lgamma((a + 1 - j) / 2)]
    + (a / 2) ln|T0_YY| - ((a + N) / 2) ln|R_YY|``,

``a = alpha_w - n + l``, ``R = T0 + S + (alpha_mu N / (alpha_mu + N)) (nu - m)(nu - m)^T``,
``S`` the scatter matrix about the sample mean ``m``. The defaults are those of bnlearn and of
Kuipers et al.: ``alpha_mu = 1`` (``ess``), ``alpha_w = n + 2``, ``nu`` the sample mean and
``T0 = t I`` with ``t = alpha_mu (alpha_w - n - 1) / (alpha_mu + 1)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import gammaln

from bayeskit.learning._scorer import Scorer
from bayeskit.learning.gaussian_scores import finite_values
from bayeskit.stats import scatter_moments

__all__ = ["BGeScores"]


class BGeScores(Scorer):
    """BGe family scores of continuous data, from its scatter matrix (read once).

    Parameters
    ----------
    values : ndarray of shape (n_rows, n_nodes)
        Complete, finite data.
    alpha_mu : float, default=1.0
        The prior's equivalent sample size for the mean (``ess``).
    alpha_w : float, optional
        The Wishart's degrees of freedom (default ``n_nodes + 2``; above ``n_nodes - 1``).
    names : sequence, optional
        The nodes' names, for messages.

    Raises
    ------
    ValueError
        On a missing or infinite value, or priors out of range.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=300)
    >>> scorer = BGeScores(np.column_stack([x, x + rng.normal(size=300)]))
    >>> bool(scorer(1, frozenset({0})) > scorer(1, frozenset()))
    True
    """

    def __init__(
        self,
        values: np.ndarray,
        alpha_mu: float = 1.0,
        alpha_w: float | None = None,
        names: Sequence = (),
    ):
        values = finite_values(values, names)
        n_rows, n = values.shape
        alpha_w = float(n + 2) if alpha_w is None else float(alpha_w)
        if not (alpha_mu > 0 and alpha_w > n - 1):
            msg = f"BGe needs alpha_mu > 0 and alpha_w > n_nodes - 1, got {alpha_mu}, {alpha_w}"
            raise ValueError(msg)
        super().__init__(np.ones(n, dtype=np.int64), "bge", alpha_mu, float(n_rows))
        moments = scatter_moments(values, np.zeros(n_rows, dtype=np.intp), 1)
        t = alpha_mu * (alpha_w - n - 1) / (alpha_mu + 1)
        t = t if t > 0 else 1.0  # alpha_w <= n + 1: a unit scale
        self.T0 = t * np.eye(n)
        # nu = the sample mean: the mean term of R vanishes
        self.R = self.T0 + moments.scatter[0]
        self.alpha_mu, self.alpha_w, self.n = alpha_mu, alpha_w, n
        self._sets: dict[frozenset, float] = {}

    def log_marginal(self, nodes: frozenset) -> float:
        """``log p(D_Y)`` of the set ``Y`` of nodes (positions).

        Parameters
        ----------
        nodes : frozenset of int
            The set.

        Returns
        -------
        float

        Examples
        --------
        >>> BGeScores(np.array([[0.0], [1.0], [3.0]])).log_marginal(frozenset())
        0.0
        """
        if nodes not in self._sets:
            y = sorted(nodes)
            big_n, ell = self.n_rows, len(y)
            if not ell:
                self._sets[nodes] = 0.0
                return 0.0
            a = self.alpha_w - self.n + ell
            j = np.arange(1, ell + 1)
            gammas = float(np.sum(gammaln((big_n + a + 1 - j) / 2) - gammaln((a + 1 - j) / 2)))
            log_t = np.linalg.slogdet(self.T0[np.ix_(y, y)])[1]
            log_r = np.linalg.slogdet(self.R[np.ix_(y, y)])[1]
            self._sets[nodes] = float(
                -ell * big_n / 2 * math.log(math.pi)
                + ell / 2 * math.log(self.alpha_mu / (self.alpha_mu + big_n))
                + gammas
                + a / 2 * log_t
                - (a + big_n) / 2 * log_r
            )
        return self._sets[nodes]

    def __call__(self, v: int, parents: frozenset) -> float:
        key = (v, parents)
        if key not in self.cache:
            family = self.log_marginal(parents | {v}) - self.log_marginal(parents)
            self.cache[key] = family
        return self.cache[key]
