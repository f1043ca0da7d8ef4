"""k-dependence Bayesian classifiers: KDB (Sahami 1996), and the structure it shares with
selective KDB (:mod:`bayeskit.classifiers.selective_kdb`); Zhou, *Machine Learning*, 7.4
("replace the parent feature with a set of k features")."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from bayeskit.classifiers._checks import _check_choice, _check_number
from bayeskit.classifiers._em import LearnsFromIncompleteRows
from bayeskit.classifiers._family import (
    FamilyClassifier,
    class_information,
    pair_information,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.schema import Encoded
from bayeskit.stats import FamilyCounts, ScoredCounts
from bayeskit.stats.information import CMI_WEIGHTINGS

__all__ = ["KDB", "kdb_parents", "table_cell_cap"]

#: The bounds of the default cap on the cells of one family table ``(class, parents, x)``: at
#: least 4,096 and at most 2**20 (8 MB of counts).
TABLE_CELLS_BOUNDS = (1 << 12, 1 << 20)
#: Cells of a family table per training row, the default cap (within TABLE_CELLS_BOUNDS).
CELLS_PER_ROW = 4


def table_cell_cap(max_table_cells: int | None, n_rows: float) -> int:
    """The cap on a family table's cells: ``max_table_cells``, or by default four cells per
    training row within :data:`TABLE_CELLS_BOUNDS`: a table of many more cells than rows is
    mostly empty, and costs memory and time for nothing (one cell per row was measured to lose
    accuracy on krkopt, 0.627 against 0.671, where four lost nothing against a fixed 2**20).

    Examples
    --------
    >>> table_cell_cap(None, 100), table_cell_cap(None, 50_000), table_cell_cap(10, 50_000)
    (4096, 200000, 10)
    """
    if max_table_cells is not None:
        return int(max_table_cells)
    low, high = TABLE_CELLS_BOUNDS
    return int(min(max(CELLS_PER_ROW * n_rows, low), high))


def kdb_parents(
    order: list[int],
    cmi: np.ndarray,
    k: int,
    cells: list[int],
    max_cells: int,
) -> dict[int, tuple[int, ...]]:
    """Sahami's parent choice: each feature, in ``order``, takes up to ``k`` parents among the
    features before it, those of highest ``cmi`` with it first (earlier in ``order`` on ties),
    skipping any whose states (``cells``: each column's number of states, the class last)
    would take the family's table beyond ``max_cells``. Parents are listed best first.

    Examples
    --------
    >>> cmi = np.array([[0, .5, .1], [.5, 0, .3], [.1, .3, 0]])
    >>> kdb_parents([0, 1, 2], cmi, k=1, cells=[2, 2, 2, 2], max_cells=100)
    {1: (0,), 2: (1,)}
    """
    cells = [int(c) for c in cells]  # Python ints: sizes never wrap around as int64 does
    parents: dict[int, tuple[int, ...]] = {}
    for pos, j in enumerate(order):
        earlier = order[:pos]
        ranked = sorted(range(len(earlier)), key=lambda m: (-cmi[j, earlier[m]], m))
        size = cells[-1] * cells[j]
        chosen: list[int] = []
        for m in ranked:
            if len(chosen) == k:
                break
            p = earlier[m]
            if size * cells[p] <= max_cells:
                chosen.append(p)
                size *= cells[p]
        if chosen:
            parents[j] = tuple(chosen)
    return parents


_KDB_PARAMETERS = """    k : int, default={k}
        The most feature parents a feature takes (besides the class). 0 is naive Bayes, 1 a
        one-dependence model; the data a table needs grows exponentially with ``k`` (Zhou,
        *Machine Learning*, 7.4), which the hierarchical smoothing (the default) makes
        affordable.
    cmi : {{"joint", "per-class"}}, default="joint"
        The weighting of ``I(x_i; x_j | y)`` used to rank parents (as in :class:`TAN`).
    max_table_cells : int, optional
        A parent that would take a feature's table ``(class, parents, x)`` beyond this many
        cells is passed over for the next best one, so a feature of many states cannot make
        the model's memory explode. By default four cells per training row (of the first call),
        at least 4,096 and at most 2**20: a table of many more cells than rows is mostly empty.
"""


def _structure_problem(fams, d: int, k: int, order, rank, names) -> str:
    """What keeps ``fams`` from being a k-dependence structure over ``d`` features (the class
    is column ``d``), naming the first family at fault; empty if nothing does."""

    def name(fam) -> str:
        words = ["class" if c == d else repr(names[c]) if 0 <= c < d else str(c) for c in fam]
        return f"({', '.join(words)})"

    if fams[:1] != ((d,),):
        return f"the first family is {name(fams[0]) if fams else 'missing'}, not (class)"
    for fam in fams[1:]:
        if fam[0] != d or len(set(fam)) != len(fam) or not all(0 <= c < d for c in fam[1:]):
            return f"the family {name(fam)} is not the class and distinct features"
    if sorted(order) != list(range(d)):
        missing = [names[j] for j in range(d) if j not in rank]
        if missing:
            return f"the features {missing} have no (class, x_j) family"
        twice = sorted({names[j] for j in order if order.count(j) > 1})
        return f"the features {twice} have two (class, x_j) families"
    seen: set[int] = set()
    for fam in fams[1:]:
        if len(fam) <= 2:
            continue
        child, ps = fam[-1], fam[1:-1]
        if child in seen:
            return f"the feature {names[child]!r} has two families with parents, {name(fam)} one"
        seen.add(child)
        if len(ps) > k:
            return f"the family {name(fam)} gives {names[child]!r} {len(ps)} parents, more than k"
        late = [names[p] for p in ps if rank[p] > rank[child]]
        if late:
            return f"the family {name(fam)} has parents {late} after {names[child]!r} in the order"
    return ""


def kdb_parameters_doc(cls: type) -> str:
    """The k-dependence parameters' text as ``cls``'s docstring writes it out, with its default
    ``k`` (a test checks each k-dependence model's docstring against it)."""
    return _KDB_PARAMETERS.format(k=inspect.signature(cls).parameters["k"].default)


class _KDBBase(FamilyClassifier):
    """What KDB and selective KDB share: the two passes and the structure read from counts."""

    def _check_own_params(self) -> None:
        super()._check_own_params()
        _check_number("k", self.k, low=0, integer=True)
        _check_choice("cmi", self.cmi, CMI_WEIGHTINGS)
        if self.max_table_cells is not None:
            _check_number("max_table_cells", self.max_table_cells, low=1, integer=True)

    # ------------------------------------------------------------------ learning
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int):
        d = enc.codes.shape[1]
        if self._structure_pass:  # the first pass (fit_chunks, bayeskit.dask): the pairs
            return self._count_families(enc, y, w, n_classes, self._families(d))
        if self._has_stats():  # partial_fit: the structure is kept, its counts grow
            families = list(self._counts().families)
        elif not enc.n_samples:  # a model file's check: the type only
            families = [(d,)]
        else:  # first pass: the pairs, for the structure
            pairs = self._count_families(enc, y, w, n_classes, self._families(d))
            families = self._structure_families(pairs, enc.n_samples)
        return self._count_families(enc, y, w, n_classes, families)

    def _stored_families(self, d: int) -> None:
        """The families counted are the structure (:meth:`_structure` checks them)."""
        return None

    def _structure_families(self, pairs: FamilyCounts, n_rows: int) -> list[tuple[int, ...]]:
        """The families the structure needs, chosen from the all-pairs counts of ``n_rows``
        rows: the class, each ``(class, x_j)`` in order and each family with parents (the
        small tables are counted again: cheaper than copying the large ones out)."""
        d = len(pairs.n_states) - 1
        order = np.argsort(-self._order_scores(pairs, d), kind="stable").tolist()
        cmi = pair_information(pairs, d, self.cmi)
        cells = pairs.n_states.tolist()
        cap = table_cell_cap(self.max_table_cells, n_rows)
        parents = kdb_parents(order, cmi, self.k, cells, cap)
        families = [(d,), *((d, j) for j in order)]
        return families + [(d, *parents[j], j) for j in order if j in parents]

    def _fit_distributed(self, run: Any) -> None:
        """Two passes, as ``fit`` and ``fit_chunks``: the all-pairs counts summed over the
        partitions, the structure chosen from them, then the chosen families summed."""
        self._structure_pass = True
        try:
            stats, rows = run("count", self)
        finally:
            del self._structure_pass
        pairs = stats.counts if isinstance(stats, ScoredCounts) else stats
        self.stats_ = self._empty_families(stats, self._structure_families(pairs, rows))
        super()._fit_distributed(run)

    def _empty_families(self, stats: Any, families: list) -> Any:
        """Zero counts of ``families`` (inside :class:`ScoredCounts` with zero scores when
        ``stats`` is one): what the families' pass adds the rows to."""
        pairs = stats.counts if isinstance(stats, ScoredCounts) else stats
        layout = FamilyCounts(pairs.n_states, tuple(families), np.zeros(0), pairs.target)
        zero = FamilyCounts(layout.n_states, layout.families,
                            np.zeros(int(layout._layout[1][-1])), layout.target)  # fmt: skip
        if isinstance(stats, ScoredCounts):
            return ScoredCounts(zero, np.zeros_like(stats.scores))
        return zero

    def _fit_chunks(self, chunks: Any, target: Any, classes: Any, progress: Any) -> None:
        """Two passes, as ``fit`` counts the rows twice: the all-pairs counts of every chunk
        (and the vocabularies complete), the structure chosen from them, then the chosen
        families counted chunk by chunk: the model ``fit`` gives on all the rows."""
        if self._chunks_as_partial_fit:
            super()._fit_chunks(chunks, target, classes, progress)
            return
        from bayeskit.data.chunks import reiterable

        if not reiterable(chunks):
            msg = (
                f"{type(self).__name__} reads the data twice (the pairs for its structure, then "
                "its families): give a re-iterable source such as read_chunks(path) or a list"
            )
            raise ValueError(msg)
        self._structure_pass = True
        try:
            rows = self._count_pass(chunks, target, classes, progress)
        finally:
            del self._structure_pass
        if not self._has_stats():
            return
        families = self._structure_families(self._counts(), rows)
        self.stats_ = self._empty_families(self.stats_, families)
        super()._fit_chunks(chunks, target, classes, progress)

    def _order_scores(self, pairs: FamilyCounts, d: int) -> np.ndarray:
        """What the features are ordered by, highest first: ``I(x; y)``."""
        return class_information(pairs, d)

    def _structure(self) -> tuple[list[int], dict[int, tuple[int, ...]]]:
        """The feature order and the parents, read from the families counted (so a model file
        holds its structure); ValueError naming the first family that does not fit a
        k-dependence structure."""
        d = self._d
        fams = self._counts().families
        order = [f[1] for f in fams if len(f) == 2]
        rank = {j: pos for pos, j in enumerate(order)}
        parents = {f[-1]: tuple(f[1:-1]) for f in fams if len(f) > 2}
        problem = _structure_problem(fams, d, self.k, order, rank, self.schema_.names)
        if problem:
            model = next(c.__name__ for c in type(self).__mro__ if c.__name__[0] != "_")
            msg = (
                f"the counted families are not a {model} structure with k="
                f"{self.k}: {problem} (expected the class, each (class, x_j) in order and each "
                "feature's (class, parents, x_j) with at most k parents earlier in the order)"
            )
            raise ValueError(msg)
        return order, parents

    def _set_structure(
        self, order: list[int], parents: dict[int, tuple[int, ...]], used: int | None = None
    ) -> dict[str, Any]:
        """The look-up components of ``parents``, with only the first ``used`` features of
        ``order`` taking part (the others get a zero log table: no evidence)."""
        names = self.schema_.names
        kept = order if used is None else order[:used]
        factors = self._structure_factors({j: parents.get(j, ()) for j in kept}, features=kept)
        self.order_ = [names[j] for j in order]
        return {"components": [factors]}


class KDB(LearnsFromIncompleteRows, _KDBBase):
    """k-dependence Bayesian classifier (Sahami 1996): each feature has the class and up to
    ``k`` feature parents.

    Structure, from the all-pairs counts of a first pass: features are ordered by their mutual
    information with the class ``I(x; y)``; each takes as parents up to ``k`` of the features
    before it, those with the highest ``I(x_i; x_j | y)``. A second pass counts the family
    ``(class, parents, x)`` of each feature. ``k = 0`` is naive Bayes, ``k = 1`` a
    one-dependence model (a chain-like TAN). Then ``P(c | x) ∝ P(c) prod_j P(x_j | c, pa_j)``.

    Smoothing: ``"hierarchical"`` by default (:func:`bayeskit.estimate.hierarchical_dirichlet`),
    which shrinks ``P(x | c, pa_1..pa_k)`` toward ``P(x | c, pa_1..pa_{k-1})`` down to
    ``P(x | c)`` and ``P(x)`` with concentrations learned from the counts: thin tables borrow
    from their parents instead of going flat, which is what lets a larger ``k`` pay.

    ``partial_fit``: the first call learns the structure from its rows (both passes over
    them); later calls keep that structure and add their rows to its family counts. So
    chunk after chunk equals one ``fit`` whose structure was chosen on the first chunk; call
    ``fit`` to choose it on all the data (the pair counts of ``(class, x_i, x_j)`` would not
    tell the counts of a family of three features, so the structure cannot be re-chosen).

    Missing values: skipped when counting; at prediction a missing feature contributes no
    factor, and a feature with a missing parent uses ``P(x | c)``.

    Parameters
    ----------
    k : int, default=2
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
    missing : {"skip", "em"}, default="skip"
        How rows with missing feature values are learned from. ``"skip"``: a missing value is
        left out of the counts of its feature's tables. ``"em"``:
        the structure is chosen from the available values, then its parameters are learned
        by EM over the model's Bayesian network (exact expected family counts from the
        junction tree); prediction is unchanged.
    unlabelled : scalar, optional
        The value of ``y`` that marks a row without a class label; such rows (and rows whose
        label is missing, None or NaN) are learned from by semi-supervised EM (Nigam et al.
        2000). None (default): every value of ``y`` is a class, and a missing label is an
        error. Use ``-1`` for integer labels (scikit-learn's ``SelfTrainingClassifier``
        convention); for text labels any string, e.g. ``"-1"`` or ``"?"``. Labels are matched
        as text (``-1`` and ``"-1"`` mark each other; ``0`` does not mark ``False``).
        ``classes_`` holds the labels seen on labelled rows. ``fit`` only: ``partial_fit``,
        ``fit_chunks`` and :func:`bayeskit.dask.fit` refuse unlabelled rows.
    unlabelled_weight : float, default=1.0
        The weight of an unlabelled row relative to a labelled one (Nigam's lambda); small
        values stop a large unlabelled set from drowning the labels.
    max_iter : int, default=100
        At most this many EM iterations (M-steps) after the first estimate.
    tol : float, default=1e-6
        EM stops when the objective (``history_``) changes by less than ``tol`` times its
        size from one iteration to the next.
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
    classes_, schema_, class_count_, log_prior_ :
        As in :class:`NaiveBayes`.
    stats_ : FamilyCounts
        Counts of the class, of each ``(class, x_j)`` (in ``order_``) and of each feature's
        family ``(class, parents, x_j)``: the structure is read from them.
    order_ : list of str
        Features by decreasing ``I(x; y)``.
    structure_ : dict
        Feature name -> tuple of its feature parents, best first.
    log_cpt_ : list of ndarray, one per feature, shape (n_classes, n_parent_states, n_states)
    history_ : list of float
        With unlabelled rows or ``missing="em"``: the objective of each EM iteration (see
        :mod:`bayeskit.classifiers._incomplete`); empty after a fit from complete rows.
    n_iter_ : int
        The M-steps made, the first estimate included (1 for complete rows: counting).
    converged_ : bool

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = KDB(k=2).fit(X, y)
    >>> model.order_[:3], model.structure_["buying"]
    (['safety', 'persons', 'buying'], ('safety', 'persons'))
    >>> round(model.score(X, y), 3)
    0.96
    """

    _missing_em = "network"  # missing="em": EM over the model's network

    def __init__(
        self,
        *,
        k: int = 2,
        cmi: str = "joint",
        max_table_cells: int | None = None,
        alpha: float = 1.0,
        smoothing: str = "hierarchical",
        priors: Any = None,
        prior_alpha: float = 1.0,
        categorical_features: Any = None,
        categories: Any = None,
        handle_unknown: str = "missing",
        discretize: str | None = "mdl",
        n_bins: int = 5,
        missing: str = "skip",
        unlabelled: Any = None,
        unlabelled_weight: float = 1.0,
        max_iter: int = 100,
        tol: float = 1e-6,
        parameters: str = "generative",
        l2: float | None = None,
    ):
        store_parameters(self, locals())

    def _components(self) -> dict[str, Any]:
        order, parents = self._structure()
        return self._set_structure(order, parents)
