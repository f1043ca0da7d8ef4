"""Selective k-dependence Bayes (Martinez, Webb, Chen and Zaidi 2016): KDB that chooses, from
the data, how many parents to use and how many features, by a leave-one-out score of the rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.classifiers._checks import _check_number
from bayeskit.classifiers._params import store_parameters
from bayeskit.classifiers.kdb import _KDBBase
from bayeskit.classifiers.rows import stack_rows, take_rows
from bayeskit.data.schema import Encoded
from bayeskit.stats import ScoredCounts
from bayeskit.stats.lookup import nested_leave_one_out_scores

__all__ = ["SelectiveKDB"]


class SelectiveKDB(_KDBBase):
    """Selective k-dependence Bayes (Martinez, Webb, Chen and Zaidi, JMLR 17(44), 2016): KDB
    that chooses, from the data, how many parents ``k' <= k`` to use and how many features.

    Two passes build the KDB structure with ``k`` parents (see :class:`KDB`); one more pass
    scores, for each row, every nested model at once: the first ``s`` features of the order
    (by ``I(x; y)``), each with its first ``k'`` parents, for every ``k' <= k`` and every ``s``.
    Each score is the leave-one-out log-likelihood of the row's class, computed from the
    counts with the row taken out (incrementally: a feature adds its term to the model with
    one feature fewer, so all ``(k + 1) d`` models cost one look-up per feature and level). The
    model kept is the one with the best total: fewest rows given probability zero, then the
    highest log-likelihood. The left-out estimates are Lidstone's, with the smoothing's
    equivalent pseudo-count (``alpha`` for the hierarchical one), as Martinez et al. score with
    m-estimates. For "lidstone", "m-estimate" and "dirichlet-map" with unit or integer weights
    the scores are exactly those of refits without each row (missing values included; tested);
    for the hierarchical smoothing they are those of its Lidstone stand-in, because its
    concentrations are themselves fitted to the rows: scoring with them (fitted on all the rows)
    was measured optimistic, choosing models too large on small data sets (mean log-loss on the
    11 sets of :mod:`bayeskit.estimate.hierarchical` 0.446, against 0.371 this way). Martinez
    et al. score by RMSE or 0-1 loss; log-loss is used here, the measure of a probability
    model's fit.

    ``k`` is only an upper bound here: the leave-one-out pass chooses ``k'``, and the cap on
    table cells stops parents that the data cannot fill, so the default reaches further than
    Martinez et al.'s 5 (a parity of ``n`` features needs a feature with ``n - 1`` parents) at
    a cost linear in ``k``.

    A feature left out takes no part in prediction (its table is zero: no evidence);
    ``selected_`` lists the features kept. Lower levels ``k' < k`` are the families' counts
    summed over their last parents (rows missing such a parent are not in them).

    ``partial_fit``: as :class:`KDB` (the structure of the first call is kept); the scores of
    later rows are added, each chunk scored against the counts of the rows up to it, so the
    choice of ``k'`` and ``s`` follows all the data but not exactly as one ``fit``.

    Parameters
    ----------
    k : int, default=8
        The most feature parents a feature takes (besides the class). 0 is naive Bayes, 1 a
        one-dependence model; the data a table needs grows exponentially with ``k`` (Zhou,
        *Machine Learning*, 7.4), which the hierarchical smoothing (the default) makes
        affordable.
    cmi : {"joint", "per-class"}, default="joint"
        The weighting of ``I(x_i; x_j | y)`` used to rank parents (as in :class:`TAN`).
    max_table_cells : int, optional
        A parent that would take a feature's table ``(class, parents, x)`` beyond this many
        cells is passed over for the next best one, so a feature of many states cannot make
        the model's memory explode. By default four cells per training row (of the first call),
        at least 4,096 and at most 2**20: a table of many more cells than rows is mostly empty.
    max_score_rows : int or None, default=20_000
        The most rows of a call scored by the leave-one-out pass: beyond it, that many rows
        evenly spaced through the call's rows are scored (against the counts of all of them)
        and their weights scaled up to the call's total weight. None scores every row, as
        Martinez et al. do. Counting costs a pass over the rows whatever the tables' size, but
        scoring costs a look-up per row, feature, class and level, ``(k + 1)`` times a naive
        Bayes prediction; a mean over 20,000 rows estimates each candidate's loss to well under
        the differences that set it apart from its neighbours.
    alpha : float, default=1.0
        Pseudo-count of the conditional tables: with ``smoothing="lidstone"``,
        ``P(x | c, pa) = (n_{c,pa,x} + alpha) / (n_{c,pa} + K alpha)``; 1 is the Laplacian
        correction (Zhou Eqs. 7.20 and 7.25), 0 the unsmoothed MLE.
    smoothing : str, default="hierarchical"
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
    parameters : {"generative", "discriminative"}, default="generative"
        ``"generative"``: the tables are the smoothed counts. ``"discriminative"``: each table
        cell and each class prior also gets a weight, fitted to maximise the conditional
        log-likelihood of the training rows (Zaidi et al. 2017), starting from the generative
        model (all weights 1); the counts and the structure are unchanged, and numeric
        features must be binned. ``fit`` and ``partial_fit`` only (the weights need the rows:
        not ``fit_chunks``, Dask or EM).
    l2 : float, optional
        The penalty ``l2 / 2 * sum (weight - 1)^2`` that pulls the weights towards the
        generative model. None (default): chosen among 100, 10, 1, 0.1 and 0.01, or no
        weighting at all, by the conditional log-likelihood of held-out rows (5-fold
        cross-validation up to 10,000 rows, one held-out fifth beyond; the most conservative
        choice within a standard error of the best).

    Attributes
    ----------
    cell_weights_ : ndarray
        With ``parameters="discriminative"``: the weight of each table cell (in the packed
        order of the look-up tables), then of each class's log prior.
    l2_ : float or None
        With ``parameters="discriminative"``: the penalty used (None: the generative model was
        kept, all weights 1).
    classes_, schema_, class_count_, log_prior_, order_, structure_, log_cpt_ :
        As in :class:`KDB`; ``structure_`` with the ``k_`` parents used and the selected
        features only.
    stats_ : ScoredCounts
        The family counts and the leave-one-out score of every candidate ``(k', s)``.
    k_ : int
        The number of parents used.
    selected_ : list of str
        The features used, in order.
    loo_log_loss_ : ndarray of shape (k + 1, n_features)
        Mean leave-one-out log-loss of the model with ``k'`` parents and the first ``s``
        features (entry ``[k', s - 1]``; inf for one that gives some row probability zero).

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = SelectiveKDB(k=3).fit(X, y)
    >>> model.k_, len(model.selected_)
    (3, 6)
    """

    _scores_rows = True  # _after_count: the leave-one-out scores of the rows

    def __init__(
        self,
        *,
        k: int = 8,
        cmi: str = "joint",
        max_table_cells: int | None = None,
        max_score_rows: int | None = 20_000,
        alpha: float = 1.0,
        smoothing: str = "hierarchical",
        priors: Any = None,
        prior_alpha: float = 1.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
        discretize: str | None = "mdl",
        n_bins: int = 5,
        parameters: str = "generative",
        l2: float | None = None,
    ):
        store_parameters(self, locals())

    def _check_own_params(self) -> None:
        super()._check_own_params()
        if self.max_score_rows is not None:
            _check_number("max_score_rows", self.max_score_rows, low=1, integer=True)

    def _count(self, enc, y, w, n_classes) -> ScoredCounts:
        counts = super()._count(enc, y, w, n_classes)
        return ScoredCounts(counts, np.zeros((2, (self.k + 1) * enc.codes.shape[1])))

    def _n_candidates(self, d: int) -> int:
        return (self.k + 1) * d  # every number of parents 0..k and of features 1..d

    def _after_count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        scores = self.stats_.scores + self._loo_scores(enc.codes, y, w)
        self.stats_ = ScoredCounts(self.stats_.counts, scores)

    def _components(self) -> dict[str, Any]:
        order, parents = self._structure()
        d = self._d
        impossible, loglik = self.stats_.scores
        best = int(np.lexsort((-loglik, impossible))[0]) if d else 0
        q, used = divmod(best, d) if d else (0, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            loss = np.where(impossible > 0, np.inf, -loglik / self.class_count_.sum())
        self.loo_log_loss_ = loss.reshape(self.k + 1, d)
        self.k_ = q
        names = self.schema_.names
        self.selected_ = [names[j] for j in order[: used + 1]]
        trimmed = {j: p[:q] for j, p in parents.items() if p[:q]}
        return self._set_structure(order, trimmed, used + 1)

    # ------------------------------------------------------------------ leave-one-out
    def _score_chunks(self, batches: Any, n_rows: int) -> None:
        """As ``fit`` scores: with more than ``max_score_rows`` rows, the same evenly spaced
        rows of all of them (gathered chunk by chunk: at most ``max_score_rows`` held),
        weighted up to the whole; so ``fit_chunks`` equals ``fit`` on any number of rows."""
        m = self.max_score_rows
        if m is None or n_rows <= m:
            super()._score_chunks(batches, n_rows)
            return
        wanted = np.arange(m) * n_rows // m  # fit's rows, as global positions
        start, kept = 0, []
        for enc, y, w in batches:
            w = np.ones(len(y)) if w is None else w
            local = wanted[(wanted >= start) & (wanted < start + len(y))] - start
            kept.append((take_rows(enc, local), y[local], w[local], float(w.sum())))
            start += len(y)
        self._score_selected(kept)

    def _score_distributed(self, run: Any, n_rows: int) -> None:
        """As :meth:`_score_chunks`, on Dask: the partitions' lengths, then fit's evenly
        spaced rows gathered from them (at most ``max_score_rows``), scored here."""
        m = self.max_score_rows
        if m is None or n_rows <= m:
            super()._score_distributed(run, n_rows)
            return
        sizes = run("positions", self)
        starts = np.concatenate([[0], np.cumsum(sizes)])
        wanted = np.arange(m) * n_rows // m
        bounds = zip(starts[:-1], starts[1:], strict=True)
        local = [wanted[(wanted >= a) & (wanted < b)] - a for a, b in bounds]
        self._score_selected([k for k in run("selected", self, local) if k is not None])

    def _score_selected(self, kept: list) -> None:
        """Score rows gathered from parts, ``(encoded, class codes, weights, the part's total
        weight)``, weighted up to the total as ``fit`` weights its evenly spaced rows."""
        enc = stack_rows([k[0] for k in kept])
        y = np.concatenate([k[1] for k in kept])
        w = np.concatenate([k[2] for k in kept])
        total = sum(k[3] for k in kept)
        self._after_count(enc, y, w * (total / w.sum() if w.sum() > 0 else 0.0))

    def _loo_scores(self, codes: np.ndarray, y: np.ndarray, w: np.ndarray | None) -> np.ndarray:
        """Every candidate's leave-one-out score over these rows, against ``stats_``."""
        order, parents = self._structure()
        counts = self._counts()
        w = np.ones(len(y)) if w is None else w
        n, m = len(y), self.max_score_rows
        if m is not None and n > m:  # evenly spaced rows, weighted up to the whole call
            rows = np.arange(m) * n // m
            total, kept = w.sum(), w[rows].sum()
            codes, y, w = codes[rows], y[rows], w[rows] * (total / kept if kept > 0 else 0.0)
        n_states = [*self.schema_.n_states.tolist(), len(self.classes_)]
        prior_kept, prior_left = self._loo_priors(counts.class_count)
        return nested_leave_one_out_scores(
            counts,
            order,
            [parents.get(j, ()) for j in order],
            [self._loo_alpha(n_states[j]) for j in order],
            n_candidates=self.k + 1,
            codes=codes,
            y=y,
            weights=w,
            prior_kept=prior_kept,
            prior_left=prior_left,
        )
