"""Structure scores, decomposable into one term per family, from the family counts.

Zhou, *Machine Learning*, 7.5.2, defines the description-length score to minimise,
``s(B | D) = f(theta) |B| - LL(B | D)`` (Eq. 7.28), with ``LL(B | D) = sum_rows log P_B(x)``
(Eq. 7.29) at the maximum-likelihood parameters (Eq. 7.32), ``f = 1`` for AIC (Eq. 7.30) and
``f = log(m) / 2`` for BIC (Eq. 7.31). Here every score is given **to maximise**, as the
negative of Zhou's, in **natural logarithms**: ``LL``, ``AIC = LL - |B|``,
``BIC = LL - ln(m) / 2 |B|`` (the sign pgmpy and bnlearn use). The choice of the sign does not
change which structure is best; the log base does not either for LL and BIC (both terms scale
by the same factor), but it does for AIC, whose penalty is one unit per parameter: in nats it
is Akaike's ``AIC / 2`` (Zhou's formula with natural logs); with base-2 logs Zhou's
formula weighs each parameter ``1 / ln 2`` times more. ``K2`` and ``BDeu`` are log marginal
likelihoods (Cooper and Herskovits 1992; Heckerman, Geiger and Chickering 1995): Dirichlet
priors of 1 per cell, and of ``ess / (q r)`` per cell for a family of ``q`` parent
configurations and ``r`` states.

Each score is a sum of family terms, one per node given its parents, so a search that changes
one family rescores that family alone (:func:`family_score`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import gammaln, xlogy

from bayeskit._text import shown
from bayeskit.data.validation import check_real
from bayeskit.graphs.dag import as_dag
from bayeskit.networks.learning import _count, _encode_data

__all__ = ["SCORES", "family_score", "family_scores", "score"]

SCORES = ("ll", "aic", "bic", "k2", "bdeu")


def family_score(
    counts: np.ndarray, kind: str = "bic", *, n_rows: float, ess: float = 1.0
) -> float:
    """One family's term of a score (to maximise, natural logs; see the module docstring).

    Parameters
    ----------
    counts : ndarray of shape (*parent states, states)
        The family's counts, the node on the last axis.
    kind : {"ll", "aic", "bic", "k2", "bdeu"}
    n_rows : float
        The number of rows ``m`` (BIC's penalty ``ln(m) / 2`` per parameter).
    ess : float, default=1.0
        BDeu's equivalent sample size.

    Examples
    --------
    >>> round(family_score(np.array([[3.0, 1.0], [0.0, 4.0]]), "ll", n_rows=8), 4)
    -2.2493
    """
    check_real("n_rows", n_rows, low=0)
    n = np.asarray(counts, dtype=np.float64)
    r = n.shape[-1]
    q = n.size // r
    rows = np.array([q], dtype=np.int64)
    return float(family_scores(n.reshape(-1), r, rows, rows.astype(float), kind, n_rows, ess)[0])


def family_scores(
    flat: np.ndarray,
    r: int,
    rows: np.ndarray,
    q: np.ndarray,
    kind: str,
    n_rows: float,
    ess: float = 1.0,
) -> np.ndarray:
    """The terms of several families of one node at once (the structure search's batches).

    ``flat`` holds the families' tables one after the other, each ``rows[f]`` parent
    configurations by the node's ``r`` states; ``q[f]`` is the family's number of parent
    configurations for the penalty and the BDeu prior, which may exceed ``rows[f]`` when
    configurations never seen were left out of the table (they add nothing to any score's data
    term: a row of zero counts contributes 0 to the log-likelihood and ``ln 1 = 0`` to K2 and
    BDeu).
    """
    table = flat.reshape(-1, r)
    totals = table.sum(axis=1)
    starts = np.zeros(len(rows), dtype=np.int64)
    np.cumsum(rows[:-1], out=starts[1:])
    if kind in ("ll", "aic", "bic"):
        per_row = xlogy(table, table).sum(axis=1) - xlogy(totals, totals)
        ll = np.add.reduceat(per_row, starts)
        if kind == "ll":
            return ll
        per = 1.0 if kind == "aic" else 0.5 * math.log(n_rows) if n_rows > 0 else 0.0
        return ll - per * (r - 1) * np.asarray(q, dtype=np.float64)
    if kind == "k2":
        a_cell = np.ones(len(rows))
        a_row = np.full(len(rows), float(r))
    elif kind == "bdeu":
        check_real("ess", ess, above=0)
        a_row = ess / np.asarray(q, dtype=np.float64)
        a_cell = a_row / r
    else:
        msg = f"score must be one of {SCORES}, got {kind!r}"
        raise ValueError(msg)
    cell = np.repeat(a_cell, rows)[:, None]
    row = np.repeat(a_row, rows)
    per_row = (gammaln(table + cell) - gammaln(cell)).sum(axis=1)
    per_row += gammaln(row) - gammaln(totals + row)
    return np.add.reduceat(per_row, starts)


def score(
    dag: Any,
    data: pd.DataFrame,
    kind: str = "bic",
    *,
    ess: float = 1.0,
    states: Any = None,
    sample_weight: Any = None,
) -> float:
    """The score of ``dag`` (a DAG, or a list of (parent, child) pairs:
    :func:`~bayeskit.graphs.dag.as_dag`) on complete ``data``: the sum of its families'
    terms.

    ``states`` (node -> state names) as :func:`~bayeskit.networks.fit_parameters`; by default
    each column's categories or distinct values, so a state never seen still counts in
    ``|B|`` when its column is categorical.

    Examples
    --------
    >>> data = pd.DataFrame({"a": list("xxyy"), "b": list("uvuv")})
    >>> score({"nodes": ["a", "b"]}, data, "bic") > score([("a", "b")], data, "bic")
    True
    """
    dag = as_dag(dag, what="dag")
    if kind not in SCORES:
        msg = f"score must be one of {SCORES}, got {shown(kind)}"
        raise ValueError(msg)
    check_real("ess", ess, above=0)
    enc = _encode_data(dag.nodes, data, states, sample_weight)
    counts = _count(dag, enc)
    pos = {n: j for j, n in enumerate(dag.nodes)}
    tables = [counts.table((*(pos[p] for p in dag.parents(v)), pos[v])) for v in dag.nodes]
    return sum(family_score(t, kind, n_rows=enc.n_rows, ess=ess) for t in tables)
