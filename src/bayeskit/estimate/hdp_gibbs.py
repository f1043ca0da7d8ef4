"""Hierarchical Dirichlet smoothing by Gibbs sampling, as Petitjean et al. estimate it.

The model is the one of :mod:`bayeskit.estimate.hierarchical`: each node (a configuration of
the conditioning variables, coarsest first) has a distribution Dirichlet around its parent's,
``theta_v ~ Dir(s_j theta_u)``, down from the root ``P(x) ~ Dir(alpha)``. Petitjean, Buntine,
Webb and Zaidi ("Accurate parameter estimation for Bayesian network classifiers using
hierarchical Dirichlet processes", Machine Learning 107, 2018) fit it by Gibbs sampling in its
Chinese restaurant franchise form, with one concentration per level ("tying"). This module
does that, so the two estimates can be measured side by side; the empirical-Bayes quadrature
of :func:`~bayeskit.estimate.hierarchical_dirichlet` stays the default (see
benchmarks/RESULTS.md for the measurement).

One sweep, with every node's distribution ``theta`` and every level's concentration ``s``:

1. table counts, leaves first: a node with ``n_x`` customers of value ``x`` (rows at the
   leaves, its children's tables above) opens ``t_x ~ Antoniak(n_x, s theta_parent(x))``
   tables, the number of distinct tables that ``n_x`` draws from a Chinese restaurant of
   concentration ``s theta_parent(x)`` occupy: a sum of Bernoulli draws of probability
   ``a / (a + i)``, ``i < n_x``. The first 64 are drawn; beyond, their sum is drawn from the
   normal of the same mean and variance (digamma and trigamma differences). A fractional
   (weighted) count's last part opens a table with its fraction as weight.
2. distributions, root first: ``theta_root ~ Dir(alpha + t)``, ``theta_v ~ Dir(s_j theta_u +
   t)`` from the tables its children send up (the direct-assignment sampler of Teh, Jordan,
   Beal and Blei, 2006).
3. each level's concentration by the auxiliary variables of Escobar and West (1995), under a
   Gamma(1, 0.1) prior, kept within :data:`~bayeskit.estimate.hierarchical.CONCENTRATION_BOUNDS`.

The estimate is the leaves' posterior predictive given each sweep's tables and
concentrations, every distribution integrated out (``(n_x + s p_parent(x)) / (n + s)`` down
from the root's ``(alpha + t_x) / (K alpha + t)``), averaged over the sweeps after burn-in
(Rao-Blackwellised: a sampled distribution that underflows to 0 never reaches it). Each table
of a batch has its own random stream, seeded by ``seed`` and its own counts, so its estimate
does not depend on the tables estimated beside it.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
from scipy.special import digamma, polygamma

from bayeskit._text import shown
from bayeskit.estimate._additive import lidstone
from bayeskit.estimate.hierarchical import (
    CONCENTRATION_BOUNDS,
    conditioning_levels,
    level_tables,
)

__all__ = ["hierarchical_gibbs"]

_EXACT_DRAWS = 64  # Bernoulli draws per cell before the normal approximation of the rest
_PRIOR_SHAPE, _PRIOR_RATE = 1.0, 0.1  # Gamma prior of each concentration


def hierarchical_gibbs(
    counts: np.ndarray,
    alpha: float = 1.0,
    *,
    batch_axes: int = 0,
    n_iter: int = 200,
    burn_in: int | None = None,
    seed: int = 0,
) -> np.ndarray:
    """Hierarchical Dirichlet estimate of a conditional table by Gibbs sampling, in log space.

    Parameters
    ----------
    counts, alpha, batch_axes :
        As :func:`~bayeskit.estimate.hierarchical_dirichlet` (each batch item its own tables
        and concentrations).
    n_iter : int, default=200
        Sweeps of the sampler.
    burn_in : int, optional
        Sweeps left out of the average; half of ``n_iter`` by default.
    seed : int, default=0
        Seed of the sampler's random numbers.

    Returns
    -------
    ndarray of the shape of ``counts``: log-probabilities normalised along the last axis.

    Raises
    ------
    ValueError
        ``n_iter`` is not a positive integer, ``burn_in`` not an integer in ``[0, n_iter)``,
        or ``counts`` holds a negative or non-finite entry.

    Examples
    --------
    >>> counts = np.array([[[30.0, 10.0], [1.0, 0.0], [9.0, 3.0]],
    ...                    [[5.0, 15.0], [0.0, 0.0], [0.0, 0.0]]])   # (class, parent, x)
    >>> p = np.exp(hierarchical_gibbs(counts))
    >>> bool(0.65 < p[0, 1, 0] < 0.85), bool(np.allclose(p[1, 1], p[1, 2]))
    (True, True)
    """
    counts, m = conditioning_levels(counts, batch_axes)
    if not isinstance(n_iter, int | np.integer) or n_iter < 1:
        msg = f"n_iter must be a positive integer, got {shown(n_iter)}"
        raise ValueError(msg)
    burn = n_iter // 2 if burn_in is None else burn_in
    if not isinstance(burn, int | np.integer) or not 0 <= burn < n_iter:
        msg = f"burn_in must be an integer in [0, n_iter), got {shown(burn_in)}"
        raise ValueError(msg)
    if counts.size and (not np.isfinite(counts).all() or (counts < 0).any()):
        msg = "counts must be finite and non-negative"
        raise ValueError(msg)
    k = counts.shape[-1]
    batch = math.prod(counts.shape[:batch_axes])
    widths = counts.shape[batch_axes:-1]  # L_1 .. L_m
    # level j as (batch, nodes of level j, K); node v of level j has parent v // L_j
    levels = [
        t.reshape(batch, math.prod(widths[:j]), k)
        for j, t in enumerate(level_tables(counts, batch_axes))
    ]
    if m == 0 or not counts.size:
        return lidstone(levels[0], alpha).reshape(counts.shape)
    out = np.empty((batch, *levels[m].shape[1:]))
    for b in range(batch):  # each table its own stream: a function of its own counts only
        item = [lev[b : b + 1] for lev in levels]
        key = zlib.crc32(np.ascontiguousarray(item[m]).tobytes())
        rng = np.random.default_rng([int(seed), key])
        out[b] = _sample(rng, item, widths, alpha, n_iter, burn)[0]
    with np.errstate(divide="ignore"):
        return np.log(out).reshape(counts.shape)


def _sample(rng, levels: list, widths: tuple, alpha: float, n_iter: int, burn: int) -> np.ndarray:
    """The sweeps over one table's levels (each (1, nodes, K)); the leaves' mean predictive."""
    m = len(levels) - 1
    data = levels[m]
    tables = [None] + [(lev > 0).astype(np.float64) for lev in levels[1:]]  # one per cell
    for j in range(m - 1, 0, -1):  # above the leaves, customers are the children's tables
        tables[j] = np.minimum(tables[j], _up(tables[j + 1], widths[j]))
    conc = np.full((1, m), 10.0)
    mean = np.zeros_like(data)
    for sweep in range(n_iter):
        customers = _customers(tables, data, widths)
        thetas = [_dirichlet(rng, alpha + customers[0])]
        for j in range(1, m):
            base = conc[:, j - 1, None, None] * _down(thetas[j - 1], widths[j - 1])
            thetas.append(_dirichlet(rng, base + customers[j]))
        for j in range(m, 0, -1):  # tables, leaves first (each level's customers from below)
            if j < m:
                customers[j] = _up(tables[j + 1], widths[j])
            base = conc[:, j - 1, None, None] * _down(thetas[j - 1], widths[j - 1])
            tables[j] = _antoniak(rng, customers[j], base)
        for j in range(1, m + 1):
            conc[:, j - 1] = _concentration(
                rng, conc[:, j - 1], customers[j].sum(axis=-1), tables[j].sum(axis=-1)
            )
        if sweep >= burn:
            mean += _predictive(_customers(tables, data, widths), conc, widths, alpha)
    return mean / (n_iter - burn)


def _customers(tables: list, data: np.ndarray, widths: tuple) -> list:
    """Each level's customers: the root's and the inner levels' are their children's tables,
    the leaves' the rows."""
    m = len(tables) - 1
    return [_up(tables[j + 1], widths[j]) for j in range(m)] + [data]


def _predictive(customers: list, conc: np.ndarray, widths: tuple, alpha: float) -> np.ndarray:
    """The leaves' predictive given the tables and concentrations, every distribution above
    integrated out (the Chinese restaurant franchise's): root ``(alpha + t) / (K alpha + T)``,
    then ``(n + s_j p_parent) / (N + s_j)`` down the levels. Positive wherever the root is, so a
    sampled distribution underflowing to 0 (a Dirichlet draw of a tiny parameter) never
    reaches the estimate."""
    pred = np.exp(lidstone(customers[0], alpha))
    for j in range(1, len(customers)):
        s = conc[:, j - 1, None, None]
        n = customers[j]
        pred = (n + s * _down(pred, widths[j - 1])) / (n.sum(axis=-1, keepdims=True) + s)
    return pred


def _up(child_level: np.ndarray, width: int) -> np.ndarray:
    """A level's counts summed into its parents: (B, N * width, K) -> (B, N, K)."""
    b, n, k = child_level.shape
    return child_level.reshape(b, n // width, width, k).sum(axis=2)


def _down(parent_level: np.ndarray, width: int) -> np.ndarray:
    """Each parent's row repeated for its ``width`` children: (B, N, K) -> (B, N * width, K)."""
    return np.repeat(parent_level, width, axis=1)


def _dirichlet(rng: np.random.Generator, params: np.ndarray) -> np.ndarray:
    """One Dirichlet draw per row of ``params`` (last axis); a zero parameter gives 0 there, a
    row of zeros the uniform distribution."""
    g = np.zeros_like(params)
    pos = params > 0
    g[pos] = rng.standard_gamma(params[pos])
    total = g.sum(axis=-1, keepdims=True)
    k = params.shape[-1]
    # a draw can underflow to 0 for tiny parameters: fall back to the parameters' proportions
    weights = params.sum(axis=-1, keepdims=True)
    safe = np.where(weights > 0, params / np.where(weights > 0, weights, 1.0), 1.0 / k)
    return np.where(total > 0, g / np.where(total > 0, total, 1.0), safe)


def _antoniak(rng: np.random.Generator, n: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The number of tables ``n`` customers occupy in a Chinese restaurant of concentration
    ``a`` (elementwise): the first :data:`_EXACT_DRAWS` Bernoulli draws exactly, the rest by a
    normal of their mean and variance; a fractional part of ``n`` weighs its draw."""
    out = np.zeros_like(n)
    idx = np.nonzero(n > 0)
    if not idx[0].size:
        return out
    cnt, conc = n[idx], np.maximum(a[idx], 1e-300)
    whole = np.floor(cnt)
    frac = cnt - whole
    exact = np.minimum(whole, _EXACT_DRAWS)
    t = np.zeros_like(cnt)
    for i in range(int(exact.max(initial=0))):
        live = exact > i
        t += live & (rng.random(cnt.size) < conc / (conc + i))
    tail = whole > _EXACT_DRAWS
    if tail.any():
        c, lo, hi = conc[tail], _EXACT_DRAWS + conc[tail], whole[tail] + conc[tail]
        mu = c * (digamma(hi) - digamma(lo))
        var = np.maximum(mu - c * c * (polygamma(1, lo) - polygamma(1, hi)), 0.0)
        draw = np.rint(mu + np.sqrt(var) * rng.standard_normal(mu.size))
        t[tail] += np.clip(draw, 0.0, whole[tail] - _EXACT_DRAWS)
    t += frac * (rng.random(cnt.size) < conc / (conc + whole))
    out[idx] = t
    return out


def _concentration(
    rng: np.random.Generator, s: np.ndarray, customers: np.ndarray, tables: np.ndarray
) -> np.ndarray:
    """Each batch item's concentration given its nodes' customers and tables (both (B, N)):
    Escobar and West's auxiliary variables ``w ~ Beta(s + 1, n)`` and ``b ~ Bernoulli(n / (n
    + s))`` per node with customers, then ``s ~ Gamma(a + sum(t - b), r - sum(log w))``."""
    shape = np.full(s.shape, _PRIOR_SHAPE)
    rate = np.full(s.shape, _PRIOR_RATE)
    item, node = np.nonzero(customers > 0)
    n, t, si = customers[item, node], tables[item, node], s[item]
    w = rng.beta(si + 1.0, n)
    b = rng.random(n.size) < n / (n + si)
    shape += np.bincount(item, t - b, minlength=s.size)
    rate -= np.bincount(item, np.log(np.maximum(w, 1e-300)), minlength=s.size)
    draw = rng.standard_gamma(np.maximum(shape, 1e-3)) / rate
    return np.clip(draw, *CONCENTRATION_BOUNDS)
