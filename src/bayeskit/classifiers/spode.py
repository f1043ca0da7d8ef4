"""Super-parent one-dependence estimator (Keogh and Pazzani 1999; Zhou 7.4, Fig. 7.1b)."""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.classifiers._family import (
    FamilyClassifier,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.schema import Encoded
from bayeskit.estimate import lidstone, lidstone_left_out
from bayeskit.stats import FamilyCounts, ScoredCounts
from bayeskit.stats.lookup import FamilyTables, LogFactor, leave_one_out_scores

__all__ = ["SPODE", "candidate_tables"]


def candidate_tables(
    counts: FamilyCounts,
    d: int,
    parents: Any,
    features: Any,
    alpha: Any,
    *,
    left_out: bool,
) -> FamilyTables:
    """One look-up component per candidate super-parent ``p`` of ``parents``: ``P(x_p | c)``
    and ``P(x_j | c, x_p)`` for the other ``j`` of ``features`` (``P(x_j | c)`` where ``x_p``
    is missing); ``p = None`` is naive Bayes over ``features``. Each table is Lidstone with
    pseudo-count ``alpha(n_states)``, with one row taken out of each cell (``left_out``, the
    tables a leave-one-out pass scores a row's own class with) or not. ``counts`` must hold the
    class ``d``, each ``(class, x_j)`` and each pair ``(class, x_p, x_j)`` asked for."""
    ks = counts.n_states
    estimate = lidstone_left_out if left_out else lidstone
    features = list(features)

    def cpt(child: int, given: tuple = ()) -> np.ndarray:
        return estimate(counts.table((d, *given, child)), alpha(int(ks[child])))

    naive = {j: cpt(j) for j in features}
    components = []
    for p in parents:
        if p is None:
            components.append([LogFactor(j, (), naive[j]) for j in features])
            continue
        head = [LogFactor(p, (), naive[p] if p in naive else cpt(p))]
        components.append(
            head + [LogFactor(j, (p,), cpt(j, (p,)), naive[j]) for j in features if j != p]
        )
    return FamilyTables(components, n_classes=len(counts.class_count))


class SPODE(FamilyClassifier):
    """Super-parent ODE: one feature, the super-parent, is a parent of every other feature.

    ``P(c | x) ∝ P(c) P(x_p | c) prod_{j != p} P(x_j | c, x_p)`` (Zhou Eq. 7.21 with
    ``pa_j = x_p``). With ``parent=None`` the super-parent is chosen by cross-validation, as
    Zhou says: the leave-one-out log-loss ``-sum_i w_i log P_{-i}(y_i | x_i)`` of every
    candidate, computed from the counts by taking row ``i`` out of the cells it fell in (no
    refit). The candidate that gives the fewest rows probability zero wins (possible only with
    ``alpha=0``, ``smoothing="dirichlet-map"`` with ``alpha=1``, or a zero in ``priors``), then
    the one of least loss on the rest; ties go to the first feature.

    Exact for unit and integer weights (an integer weight acts as that many repeated rows: one
    unit is left out at a time); with fractional weights one unit is still left out, floored at
    zero, so the choice is a heuristic there. Every smoothing is scored as the Lidstone estimate
    it amounts to (see :func:`bayeskit.estimate.lidstone_equivalent`; exact for "mle",
    "lidstone", "laplace", "m-estimate", "dirichlet-map" and "k2", approximate for
    "lidstone-where-zero", "bdeu" (taken as ``alpha / K``, one parent configuration) and the
    hierarchical ones).

    Incremental learning: the scores are summed into ``stats_``, and after ``partial_fit`` each
    chunk's rows were scored against the counts of the data seen up to and including that
    chunk. One chunk is exactly leave-one-out; several give a running estimate, so the chosen
    super-parent may differ from one ``fit`` on all the data (the counts, and so the tables of
    any given super-parent, never do). The leave-one-out normaliser depends on each whole row,
    which the pair counts do not keep. With a given ``parent`` everything is a function of the
    pair counts and ``partial_fit`` equals ``fit``.

    Missing values: skipped when counting; at prediction a missing feature contributes no
    factor, and where the super-parent is missing the others use ``P(x_j | c)`` (naive Bayes).

    Parameters
    ----------
    parent : str or int, optional
        The super-parent (a column name or position); None chooses it by leave-one-out.
    alpha : float, default=1.0
        Pseudo-count of the conditional tables: with ``smoothing="lidstone"``,
        ``P(x | c, pa) = (n_{c,pa,x} + alpha) / (n_{c,pa} + K alpha)``; 1 is the Laplacian
        correction (Zhou Eqs. 7.20 and 7.25), 0 the unsmoothed MLE.
    smoothing : str, default="lidstone"
        An estimator of :data:`bayeskit.estimate.ESTIMATORS`, applied along each table's child
        axis: "lidstone", "mle", "laplace", "m-estimate" (``alpha`` is m), "dirichlet-map",
        "lidstone-where-zero", "bdeu" (``alpha`` is the equivalent sample size, spread over a
        table's cells, the class counted as a parent), "k2", or "hierarchical"
        (:func:`~bayeskit.estimate.hierarchical_dirichlet`: each conditional table shrunk
        toward the one with a parent fewer, down to ``P(x | c)`` and ``P(x)``, ``alpha`` being
        the root's pseudo-count), or "hierarchical-gibbs" (the same model fitted by Petitjean
        et al.'s Gibbs sampler, :func:`~bayeskit.estimate.hierarchical_gibbs`: seeded, and
        slower); the hierarchical ones need parents in order of importance, which a
        NetworkClassifier's are not. Joint tables such as AODE's ``P(c, x_p)`` are Lidstone.
    priors : array-like of shape (n_classes,), optional
        Class probabilities to use instead of estimating them.
    prior_alpha : float, default=1.0
        Pseudo-count for the estimated class prior: ``P(c) = (n_c + prior_alpha) / (n + C
        prior_alpha)``; 1 is the Laplacian correction (Zhou Eq. 7.19, Weka), 0 the relative
        frequencies (scikit-learn).
    categorical_features, categories :
        Which columns are categorical, and declared vocabularies; see
        :class:`bayeskit.data.Schema`.
    handle_unknown : {"missing", "warn", "error"}, default="missing"
        A category not seen in fit is treated as missing (optionally with a warning) or refused.
    discretize : {"mdl", "equal-width", "equal-frequency", None}, default="mdl"
        How numeric columns are binned and then modelled as categorical (cut points learned by
        the first ``fit`` or ``partial_fit`` call and kept; "mdl" is the supervised method of
        Fayyad and Irani, Zaki & Meira 18.2); None: accepted only for data without numeric
        columns (these models need categories).
    n_bins : int, default=5
        Bins for the unsupervised discretizers.

    Attributes
    ----------
    classes_, schema_, class_count_, log_prior_ :
        As in :class:`NaiveBayes`.
    stats_ : ScoredCounts
        The pair counts and, per candidate, the weight of rows it found impossible and the
        summed leave-one-out log-likelihood of the others (shape ``(2, n_features)``).
    parent_ : str
        The super-parent used.
    loo_log_loss_ : ndarray of shape (n_features,)
        Mean leave-one-out log-loss of each candidate (inf for one that gives some row
        probability zero; NaN when ``parent`` was given).
    structure_ : dict
        Feature name -> tuple of its feature parents.
    log_cpt_ : list of ndarray, shape (n_classes, n_parent_states, n_states)

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> SPODE().fit(X, y).parent_
    'buying'
    """

    _scores_rows = True  # _after_count: the leave-one-out scores of the rows

    def __init__(
        self,
        *,
        parent: Any = None,
        alpha: float = 1.0,
        smoothing: str = "lidstone",
        priors: Any = None,
        prior_alpha: float = 1.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
        discretize: str | None = "mdl",
        n_bins: int = 5,
    ):
        store_parameters(self, locals())

    def _n_candidates(self, d: int) -> int:
        return d  # each feature as the super-parent

    def _check_structure(self, d: int) -> None:
        if self.parent is not None:
            self._feature_index("parent", self.parent)

    def _count(self, enc, y, w, n_classes) -> ScoredCounts:
        counts = super()._count(enc, y, w, n_classes)
        return ScoredCounts(counts, np.zeros((2, enc.codes.shape[1])))

    def _grow(self, X: Any, stats: ScoredCounts) -> ScoredCounts:
        counts = super()._grow(X, stats.counts)
        return ScoredCounts(counts, stats.scores)

    def _after_count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        if self.parent is None and enc.codes.shape[1] > 1:
            scores = self.stats_.scores + self._loo_scores(enc.codes, y, w)
            self.stats_ = ScoredCounts(self.stats_.counts, scores)

    def _components(self) -> dict[str, Any]:
        d = self._d
        if self.parent is not None:
            p = self._feature_index("parent", self.parent)
            self.loo_log_loss_ = np.full(d, np.nan)
        else:
            impossible, loglik = self.stats_.scores
            # fewest rows given probability zero first, then the best log-likelihood of the rest
            p = int(np.lexsort((-loglik, impossible))[0]) if d else 0
            with np.errstate(divide="ignore", invalid="ignore"):
                self.loo_log_loss_ = np.where(
                    impossible > 0, np.inf, -loglik / self.class_count_.sum()
                )
        self.parent_ = self.schema_.names[p]
        parents = {j: (p,) for j in range(d) if j != p}
        return {"components": [self._structure_factors(parents)]}

    # ------------------------------------------------------------------ leave-one-out
    def _loo_scores(self, codes: np.ndarray, y: np.ndarray, w: np.ndarray | None) -> np.ndarray:
        """Each candidate's leave-one-out score over these rows, shape ``(2, n_features)``: the
        weight of the rows it gives probability zero, and ``sum_i w_i log P_{-i}(y_i | x_i)``
        over the others, with the counts of ``stats_`` less one unit of row ``i``."""
        counts = self.stats_.counts
        d = self._d
        kept, left = (
            candidate_tables(counts, d, range(d), range(d), self._loo_alpha, left_out=b)
            for b in (False, True)
        )
        prior_kept, prior_left = self._loo_priors(counts.class_count)
        weights = np.ones(len(y)) if w is None else w
        return leave_one_out_scores(kept, left, codes, y, weights, prior_kept, prior_left)[:2]
