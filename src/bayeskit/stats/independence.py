"""Tests of conditional independence, as functions of count tables (discrete data) or of a
correlation matrix (Gaussian data): what constraint-based structure learning asks of the data.

Discrete: the counts ``n_xys`` of ``X``, ``Y`` and a conditioning set ``S``, as tables of shape
``(..., m, r_x, r_y)`` (``m`` the configurations of ``S``; the leading axes stack many tests
of one shape, so a whole batch is one array expression). Under ``X _||_ Y | S`` the expected
count is ``n_xs n_ys / n_s`` and

* ``"g2"``: the likelihood-ratio statistic ``G^2 = 2 sum n_xys ln(n_xys n_s / (n_xs n_ys))``,
  which is ``2 n`` times the empirical conditional mutual information (so ``"mi"`` names it
  too, as in bnlearn);
* ``"x2"``: Pearson's ``X^2 = sum (n_xys - E)^2 / E`` over the cells with ``E > 0``;
* ``"mi-sh"``: ``2 n`` times the conditional mutual information of the James-Stein shrinkage
  estimate of the cell probabilities (Hausser and Strimmer 2009, *Entropy inference and the
  James-Stein estimator*), which is less biased upward in sparse tables;
* ``"mc-mi"``: the ``G^2`` statistic with a permutation p-value: tables drawn with each
  stratum's margins fixed (what permuting ``Y`` within the strata of ``S`` gives:
  :func:`scipy.stats.random_table`), ``p = (1 + #{G^2_b >= G^2}) / (B + 1)``.

The asymptotic tests refer the statistic to a chi-squared law with ``(r_x - 1)(r_y - 1) m``
degrees of freedom, or, with ``adjusted_df=True``, ``sum_s (r_x,s - 1)(r_y,s - 1)`` where
``r_x,s`` counts the values of ``X`` seen in stratum ``s`` (bnlearn's adjustment for empty
cells; strata without rows add nothing). With no degree of freedom left the statistic is 0
and the p-value 1.

Gaussian: ``"fisher-z"``, the partial correlation ``r`` of ``X`` and ``Y`` given ``S`` from
the inverse of their correlation matrix, ``z = atanh(r) sqrt(n - |S| - 3)``, two-sided
normal p-value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats as sps

__all__ = ["DISCRETE_TESTS", "TESTS", "discrete_test", "fisher_z"]

#: The tests of count tables, by name.
DISCRETE_TESTS = ("g2", "mi", "x2", "mi-sh", "mc-mi")
#: Every test by name: the discrete ones and Fisher's z for Gaussian data.
TESTS = (*DISCRETE_TESTS, "fisher-z")


def _margins(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        t.sum(axis=-1, keepdims=True),
        t.sum(axis=-2, keepdims=True),
        t.sum(axis=(-1, -2), keepdims=True),
    )


def _g2(t: np.ndarray) -> np.ndarray:
    nx, ny, ns = _margins(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = t * (np.log(t) + np.log(ns) - np.log(nx) - np.log(ny))
    return 2.0 * np.where(t > 0, terms, 0.0).sum(axis=(-1, -2, -3))


def _x2(t: np.ndarray) -> np.ndarray:
    nx, ny, ns = _margins(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = nx * ny / ns
        terms = (t - expected) ** 2 / expected
    return np.where(expected > 0, terms, 0.0).sum(axis=(-1, -2, -3))


def _shrunk_g2(t: np.ndarray) -> np.ndarray:
    """``2 n`` times the conditional mutual information of the James-Stein shrinkage estimate
    of each table's cell probabilities towards the uniform (Hausser and Strimmer's
    ``lambda*``, clipped to [0, 1])."""
    lead = t.shape[:-3]
    flat = t.reshape(*lead, -1)
    n = flat.sum(axis=-1, keepdims=True)
    k = flat.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        theta = np.where(n > 0, flat / n, 1.0 / k)
        spread = ((1.0 / k - theta) ** 2).sum(axis=-1, keepdims=True)
        lam = (1.0 - (theta**2).sum(axis=-1, keepdims=True)) / ((n - 1.0) * spread)
    lam = np.clip(np.where(np.isfinite(lam), lam, 1.0), 0.0, 1.0)
    shrunk = (lam / k + (1.0 - lam) * theta).reshape(t.shape)
    return _g2(shrunk) * n.reshape(lead)  # _g2 of probabilities is 2 I; times n


def _degrees(t: np.ndarray, adjusted: bool) -> np.ndarray:
    m, rx, ry = t.shape[-3:]
    if not adjusted:
        return np.full(t.shape[:-3], float((rx - 1) * (ry - 1) * m))
    seen_x = (t.sum(axis=-1) > 0).sum(axis=-1)  # values of X seen per stratum
    seen_y = (t.sum(axis=-2) > 0).sum(axis=-1)
    return (np.maximum(seen_x - 1, 0) * np.maximum(seen_y - 1, 0)).sum(axis=-1).astype(float)


def _p_values(statistic: np.ndarray, df: np.ndarray) -> np.ndarray:
    p = sps.chi2.sf(statistic, np.maximum(df, 1.0))
    return np.where(df > 0, p, 1.0)


def discrete_test(tables: Any, method: str = "g2", *, adjusted_df: bool = False,
                  permutations: int = 1000, random_state: Any = None,
                  strata: Any = None):  # fmt: skip
    """Test ``X _||_ Y | S`` on count tables: the statistic, its degrees of freedom and its
    p-value (see the module docstring for each method).

    Parameters
    ----------
    tables : array-like of shape (..., m, r_x, r_y), or a list of 3-D arrays
        Counts (non-negative, weighted counts allowed) of ``S``'s ``m`` configurations by
        ``X``'s and ``Y``'s values; leading axes hold independent tests of that shape. A list
        holds tables of any shapes, one test each; they are evaluated together in groups
        padded with empty cells, which change no statistic (exact shapes for ``"mi-sh"``,
        whose shrinkage depends on the number of cells).
    method : {"g2", "mi", "x2", "mi-sh", "mc-mi"}, default="g2"
    adjusted_df : bool, default=False
        Count only the values seen in each stratum (bnlearn's adjustment).
    permutations : int, default=1000
        ``"mc-mi"``'s number of tables drawn under independence.
    random_state : int, Generator or None
        ``"mc-mi"``'s draws.
    strata : int or array-like of int, optional
        The number of configurations of ``S`` of each table, where the tables hold only the
        strata seen (empty strata change no statistic): the unadjusted degrees of freedom
        count them all. None: each table's ``m``.

    Returns
    -------
    statistic, df, p_value : ndarray of shape (...)
        Floats (0-d arrays for a single table; one per table of a list).

    Raises
    ------
    ValueError
        An unknown method, a table of fewer than 3 axes, or counts that are negative or not
        finite.

    Examples
    --------
    The same figures as :func:`scipy.stats.chi2_contingency` without its continuity
    correction:

    >>> t = np.array([[[10.0, 20.0], [30.0, 15.0]]])  # one stratum: S is empty
    >>> stat, df, p = discrete_test(t, "x2")
    >>> round(float(stat), 6), float(df), round(float(p), 6)
    (8.035714, 1.0, 0.004586)
    """
    if method not in DISCRETE_TESTS:
        msg = f"method must be one of {', '.join(DISCRETE_TESTS)}, got {method!r}"
        raise ValueError(msg)
    if isinstance(tables, list):
        return _ragged(tables, method, adjusted_df, permutations, random_state, strata)
    t = np.asarray(tables, dtype=np.float64)
    if t.ndim < 3:
        msg = f"tables must have shape (..., m, r_x, r_y), got shape {t.shape}"
        raise ValueError(msg)
    if not np.isfinite(t).all() or (t < 0).any():
        msg = "tables must hold finite, non-negative counts"
        raise ValueError(msg)
    df = _degrees(t, adjusted_df)
    if strata is not None and not adjusted_df:
        rx, ry = t.shape[-2:]
        df = np.broadcast_to((rx - 1) * (ry - 1) * np.asarray(strata, float), df.shape).copy()
    if method == "x2":
        stat = _x2(t)
    elif method == "mi-sh":
        stat = _shrunk_g2(t)
    else:
        stat = _g2(t)
    if method != "mc-mi":
        return stat, df, _p_values(stat, df)
    return stat, df, _permutation_p(t, stat, permutations, random_state)


def _ragged(tables: list, method: str, adjusted: bool, permutations: int, random_state: Any,
            strata: Any):  # fmt: skip
    """``discrete_test`` of tables of any shapes: grouped by ``(r_x, r_y)`` and the number
    of strata rounded up to a power of two, each group padded with empty strata (exact shapes
    for the shrinkage test)."""
    arrays = [np.asarray(t, dtype=np.float64) for t in tables]
    if any(a.ndim != 3 for a in arrays):
        msg = "a list of tables must hold 3-D arrays, each of shape (m, r_x, r_y)"
        raise ValueError(msg)
    out = np.empty((3, len(arrays)))
    groups: dict[tuple, list[int]] = {}
    for i, a in enumerate(arrays):
        m, rx, ry = a.shape
        key = a.shape if method == "mi-sh" else (1 << max(m - 1, 0).bit_length(), rx, ry)
        groups.setdefault(key, []).append(i)
    rng = np.random.default_rng(random_state) if method == "mc-mi" else None
    for (m, rx, ry), members in groups.items():
        block = np.zeros((len(members), m, rx, ry))
        for j, i in enumerate(members):
            block[j, : arrays[i].shape[0]] = arrays[i]
        stat, df, p = discrete_test(block, method, adjusted_df=adjusted,
                                    permutations=permutations, random_state=rng)  # fmt: skip
        if not adjusted:  # the degrees of freedom of the tables' own strata
            m_of = [arrays[i].shape[0] if strata is None else strata[i] for i in members]
            df = np.array([(rx - 1) * (ry - 1) * m for m in m_of], dtype=float)
            p = _p_values(stat, df) if method != "mc-mi" else p
        out[:, members] = stat, df, p
    return out[0], out[1], out[2]


def _permutation_p(t: np.ndarray, stat: np.ndarray, b: int, random_state: Any) -> np.ndarray:
    """Monte Carlo p-values of ``G^2``: per test, ``b`` tables with every stratum's margins
    fixed (integer counts: weighted counts are rounded for the draws)."""
    rng = np.random.default_rng(random_state)
    flat = np.rint(t.reshape(-1, *t.shape[-3:]))
    out = np.empty(len(flat))
    for i, table in enumerate(flat):
        draws = np.zeros((b, *table.shape))
        for s, stratum in enumerate(table):
            rows, cols = stratum.sum(axis=1), stratum.sum(axis=0)
            if rows.sum() > 0:
                draws[:, s] = sps.random_table(rows, cols, seed=rng).rvs(size=b)
        exceed = int((_g2(draws) >= stat.reshape(-1)[i] - 1e-9).sum())
        out[i] = (1 + exceed) / (b + 1)
    return out.reshape(stat.shape)


def fisher_z(correlation: Any, n: float, x: int, y: int, given: Any = ()) -> tuple[float, float]:
    """Fisher's z test of ``X _||_ Y | S`` for Gaussian data from the correlation (or
    covariance) matrix of all the variables.

    Parameters
    ----------
    correlation : array-like of shape (d, d)
        Symmetric, positive definite on the variables tested.
    n : float
        The number of rows the matrix was estimated from.
    x, y : int
        The two variables' indices.
    given : sequence of int
        ``S``'s indices.

    Returns
    -------
    z, p_value : float
        ``atanh(r) sqrt(n - |S| - 3)`` and its two-sided p-value; p is 1 when
        ``n - |S| - 3 <= 0`` (too few rows to test).

    Raises
    ------
    ValueError
        ``x``, ``y`` and ``given`` not distinct.

    Examples
    --------
    >>> R = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.25], [0.5, 0.25, 1.0]])
    >>> z, p = fisher_z(R, 100, 1, 2, [0])  # r(1, 2 | 0) = 0
    >>> round(z, 12), round(p, 12)
    (0.0, 1.0)
    """
    idx = [x, y, *given]
    if len(set(idx)) != len(idx):
        msg = f"x, y and given must be distinct variables, got {x}, {y}, {list(given)}"
        raise ValueError(msg)
    sub = np.asarray(correlation, dtype=np.float64)[np.ix_(idx, idx)]
    dof = n - len(idx) + 2 - 3
    if dof <= 0:
        return 0.0, 1.0
    P = np.linalg.pinv(sub, hermitian=True)
    r = -P[0, 1] / np.sqrt(P[0, 0] * P[1, 1])
    r = float(np.clip(r, -1.0 + 1e-15, 1.0 - 1e-15))
    z = float(np.arctanh(r) * np.sqrt(dof))
    return z, float(2.0 * sps.norm.sf(abs(z)))
