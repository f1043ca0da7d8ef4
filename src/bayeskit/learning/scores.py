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
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import gammaln, xlogy

from bayeskit._text import shown
from bayeskit.data.codes import code_dtype
from bayeskit.data.kinds import continuous_columns
from bayeskit.data.rows import distinct_rows
from bayeskit.data.validation import check_real
from bayeskit.graphs.dag import as_dag
from bayeskit.learning._scorer import Scorer
from bayeskit.learning.bge import BGeScores
from bayeskit.learning.clg_scores import CLGScores
from bayeskit.learning.gaussian_scores import GaussianScores, finite_values
from bayeskit.learning.parameters import NetworkData, count_families, encode_data
from bayeskit.stats.extensions import extension_counts, family_table, parent_configurations

__all__ = ["SCORES", "Scorer", "family_score", "family_scores", "score"]

SCORES = ("ll", "aic", "bic", "k2", "bdeu", "bge")
TABLE_CELLS = 1 << 22  # cells counted at once by one batch of candidate parents (32 MB)
_DISTINCT_FROM = 2048  # from this many rows, repeated rows are counted once, weighted ...
_DISTINCT_SHARE = 0.75  # ... when no more than this share of them are distinct


def family_score(
    counts: np.ndarray, kind: str = "bic", *, n_rows: float, ess: float = 1.0
) -> float:
    """One family's term of a score (to maximise, natural logs; see the module docstring).

    Parameters
    ----------
    counts : ndarray of shape ``(*parent states, states)``
        The family's counts, the node on the last axis.
    kind : {"ll", "aic", "bic", "k2", "bdeu"}
    n_rows : float
        The number of rows ``m`` (BIC's penalty ``ln(m) / 2`` per parameter).
    ess : float, default=1.0
        BDeu's equivalent sample size.

    Returns
    -------
    float
        The family's term (natural logs; higher is better).

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
    terms. Data whose columns are all continuous (numbers the one column rule calls numeric,
    no ``states``) is scored by linear-Gaussian families
    (:mod:`bayeskit.learning.gaussian_scores`), data with both kinds by conditional linear
    Gaussian ones (:mod:`bayeskit.learning.clg_scores`); ``"ll"``, ``"aic"`` and ``"bic"``.

    ``states`` (node -> state names) as :func:`~bayeskit.networks.fit_parameters`; by default
    each column's categories or distinct values, so a state never seen still counts in
    ``|B|`` when its column is categorical.

    Parameters
    ----------
    dag : DAG, or list of (parent, child) pairs
        The structure scored; ``{"nodes": [...], "edges": [...]}`` names nodes without edges.
    data : DataFrame
        Complete data, a column per node (others are ignored).
    kind : {"ll", "aic", "bic", "k2", "bdeu", "bge"}, default="bic"
        The score (see the module docstring; ``"bge"``: :mod:`bayeskit.learning.bge`, for
        continuous data, ``ess`` its ``alpha_mu``).
    ess : float, default=1.0
        BDeu's equivalent sample size (> 0).
    states : mapping node -> state names, optional
    sample_weight : array-like of shape (n_rows,), optional
        Non-negative row weights.

    Returns
    -------
    float
        The sum of the families' terms (natural logs; higher is better).

    Raises
    ------
    ValueError
        ``kind`` is no score (the message lists them), ``ess`` is not positive, or the data
        are refused (a missing value, a node without a column).

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
    names = list(dag.nodes)
    if isinstance(data, pd.DataFrame) and all(n in data.columns for n in names):
        scorer = moment_scorer(data[names], kind, ess, states, sample_weight)
        if scorer is not None:
            at = {n: j for j, n in enumerate(names)}
            return sum(scorer(at[v], frozenset(at[p] for p in dag.parents(v))) for v in names)
    refuse_bge(kind)
    enc = encode_data(dag.nodes, data, states, sample_weight)
    counts = count_families(dag, enc)
    pos = {n: j for j, n in enumerate(dag.nodes)}
    tables = [counts.table((*(pos[p] for p in dag.parents(v)), pos[v])) for v in dag.nodes]
    return sum(family_score(t, kind, n_rows=enc.n_rows, ess=ess) for t in tables)


def compact_rows(codes: np.ndarray, weights: np.ndarray | None,
                 r: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:  # fmt: skip
    """Rows of state codes as the smallest integer type, each repeated row once with its
    number (or total weight) as weight when that saves a quarter of them or more: what the
    scorers and the tests of independence count, since both read the data through counts
    alone (ALARM samples of 20,000 and 100,000 rows have 10,792 and 40,373 distinct ones)."""
    rows = np.ascontiguousarray(codes, dtype=code_dtype(int(np.max(r, initial=1))))
    if len(rows) >= _DISTINCT_FROM:
        distinct, summed = distinct_rows(rows, weights, r, missing="last")
        if len(distinct) <= _DISTINCT_SHARE * len(rows):
            return distinct, summed
    return rows, weights


class CountScorer(Scorer):
    """A scorer whose families are count tables: scored by :func:`family_scores`."""

    def _scores(self, flat, r, rows, q) -> np.ndarray:
        return family_scores(flat, r, rows, q, self.kind, self.n_rows, self.ess)


def cell_batches(cands: np.ndarray, cells: np.ndarray):
    """``cands`` in consecutive batches of at most :data:`TABLE_CELLS` cells (``cells[c]``
    each; a larger single candidate is a batch of its own)."""
    start, size = 0, 0
    for c in range(len(cands)):
        if c > start and size + cells[c] > TABLE_CELLS:
            yield cands[start:c]
            start, size = c, 0
        size += cells[c]
    if start < len(cands):
        yield cands[start:]


class _FamilyScores(CountScorer):
    """Family scores of one data set, each computed once and kept.

    ``family(v, parents)`` is one family's score; ``extensions(v, parents)`` scores the family
    with each other node added as a parent, all of them in one compiled pass over the rows
    (:func:`bayeskit.stats.extensions.extension_counts`): what a search needs after a move
    changes ``v``'s family. A parent configuration is the mixed-radix number of the parents'
    states; when the parents have more joint configurations than there are rows, the ones
    seen are renumbered (``np.unique``), so no table is ever larger than rows x states.
    """

    def __init__(self, data: NetworkData, kind: str, ess: float):
        super().__init__(data.n_states, kind, ess, data.n_rows)
        rows, weights = compact_rows(data.codes, data.weights, self.r)
        self.codes = np.ascontiguousarray(rows.T)  # node-major
        m = self.codes.shape[1]
        self.weights = np.ones(m) if weights is None else weights.astype(np.float64)
        self._kernel_weights = np.empty(0) if weights is None else self.weights
        self._compact_above = max(m, 1 << 12)  # renumber parent configurations beyond this
        self._dense_cells = max(8 * m, 1 << 16)  # a larger candidate table is renumbered too

    def _configurations(self, parents: Iterable[int]) -> tuple[np.ndarray, int, float]:
        """Each row's parent configuration, the number of configurations numbered, and the
        number there are (``q``, for the penalties and priors)."""
        return parent_configurations(self.codes, parents, self.r, compact_above=self._compact_above)

    def __call__(self, v: int, parents: frozenset) -> float:
        key = (v, parents)
        if key not in self.cache:
            ids, k, q = self._configurations(parents)
            r = int(self.r[v])
            flat = family_table(ids, k, self.codes[v], r, self.weights)
            rows = np.array([k], dtype=np.int64)
            self.cache[key] = float(self._scores(flat, r, rows, np.array([q]))[0])
        return self.cache[key]

    def _extend(self, v: int, parents: frozenset, cands: np.ndarray) -> np.ndarray:
        """Every candidate's extension counted in one compiled pass over the rows
        (:func:`~bayeskit.stats.extensions.extension_counts`), in batches of at most
        :data:`TABLE_CELLS` cells."""
        out = np.empty(len(cands))
        ids, k, q = self._configurations(parents)
        r = int(self.r[v])
        child = self.codes[v]
        cells = k * self.r[cands] * r
        dense = cells <= self._dense_cells
        at = {int(u): i for i, u in enumerate(cands)}
        for batch in cell_batches(cands[dense], cells[dense]):
            r_cand = self.r[batch]
            flat = extension_counts(
                self.codes, self._kernel_weights, batch, r_cand, ids, k, r, child
            )
            scores = self._scores(flat, r, k * r_cand, q * r_cand.astype(np.float64))
            out[[at[int(u)] for u in batch]] = scores
        for u in cands[~dense]:  # rare: a table larger than the rows, renumbered
            uniq, rows_of = np.unique(ids * self.r[u] + self.codes[u], return_inverse=True)
            flat = family_table(rows_of.astype(np.int64), len(uniq), child, r, self.weights)
            rows = np.array([len(uniq)], dtype=np.int64)
            out[at[int(u)]] = self._scores(flat, r, rows, np.array([q * self.r[u]]))[0]
        return out


def moment_scorer(
    data: pd.DataFrame, kind: str, ess: float, states: Any, sample_weight: Any
) -> Scorer | None:
    """The scorer of a DataFrame with continuous columns (each column typed once, by the one
    column rule; those ``states`` names are discrete): linear-Gaussian families (or BGe) for
    continuous columns only, conditional linear Gaussian ones for both kinds; None for
    discrete columns only (or repeated column names, which the encoder refuses)."""
    if data.shape[1] == 0 or not data.columns.is_unique:
        return None
    names = list(data.columns)
    continuous = continuous_columns(data, discrete=states)
    if not continuous:
        return None
    if len(continuous) == len(names):
        values = data.to_numpy(dtype=np.float64, na_value=np.nan)
        return continuous_scorer(values, kind, ess, sample_weight, names)
    refuse_bge(kind)
    discrete = [c for c in names if c not in continuous]
    values = finite_values(data[continuous].to_numpy(dtype=np.float64, na_value=np.nan),
                           continuous)  # fmt: skip
    encoded = encode_data(discrete, data, states, sample_weight)
    order = [(c in continuous, (continuous if c in continuous else discrete).index(c))
             for c in names]  # fmt: skip
    return CLGScores(_FamilyScores(encoded, kind, 1.0), encoded, values, order, kind)


def continuous_scorer(values: np.ndarray, kind: str, ess: float, weights: Any, names: Any):
    """The scorer of continuous data: BGe for ``"bge"``, else the linear-Gaussian scores."""
    if kind == "bge":
        if weights is not None:
            msg = "the BGe score takes no sample_weight"
            raise ValueError(msg)
        return BGeScores(values, ess, None, names)
    return GaussianScores(values, kind, weights, names)


def refuse_bge(kind: str) -> None:
    """ValueError for the BGe score on data that is not all continuous."""
    if kind == "bge":
        msg = "score 'bge' is for continuous data (Gaussian networks): every column numeric"
        raise ValueError(msg)
