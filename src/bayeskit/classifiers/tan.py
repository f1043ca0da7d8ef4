"""Tree-augmented naive Bayes (Friedman, Geiger and Goldszmidt 1997; Zhou, *Machine Learning*,
7.4; Yang Yu's Nanjing lecture *Bayesian Classifiers*)."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.sparse.csgraph import breadth_first_order

from bayeskit.classifiers._checks import _check_choice
from bayeskit.classifiers._em import LearnsFromIncompleteRows
from bayeskit.classifiers._family import (
    FamilyClassifier,
    class_information,
    pair_information,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.graphs import maximum_spanning_tree
from bayeskit.stats.information import CMI_WEIGHTINGS

__all__ = ["TAN"]


class TAN(LearnsFromIncompleteRows, FamilyClassifier):
    """Tree-augmented naive Bayes: each feature has the class and at most one feature parent.

    The structure (Zhou 7.4, steps 1-4): weigh every pair of features by the conditional mutual
    information ``I(x_i; x_j | y)`` of Eq. (7.22), computed from the all-pairs counts; take a
    maximum weighted spanning tree (scipy); direct its edges away from the root; add the class
    as a parent of every feature. Then ``P(c | x) ∝ P(c) prod_i P(x_i | c, pa_i)`` (Eq. 7.21).
    The pair counts hold everything, so ``partial_fit`` re-derives structure and tables exactly
    as one ``fit`` on all the data would.

    Missing values: skipped when counting; at prediction a missing feature contributes no
    factor of its own, and a feature whose tree parent is missing uses ``P(x_i | c)`` (its
    parent summed out under the class alone, ignoring what the parent's other neighbours say).

    Parameters
    ----------
    root : str or int, optional
        The feature the tree is directed from (a column name or position). By default the
        feature of highest mutual information with the class, ``I(x; y)``.
    cmi : {"joint", "per-class"}, default="joint"
        The edge weight: ``"joint"`` weighs each class by its frequency (Friedman et al.; Yang
        Yu's Nanjing lecture), ``"per-class"`` is Eq. (7.22) exactly as Zhou prints it.
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
        Counts of the class, of every ``(class, x_i)`` and every ``(class, x_i, x_j)``.
    structure_ : dict
        Feature name -> tuple of its feature parents (empty for the root).
    root_ : str
        The root feature.
    cmi_ : ndarray of shape (n_features, n_features)
        The edge weights ``I(x_i; x_j | y)`` (nats).
    edges_ : list of (str, str)
        The tree's directed edges, parent first.
    log_cpt_ : list of ndarray, one per feature, shape (n_classes, n_parent_states, n_states)
        ``log P(x_j | c, pa_j)``; ``n_parent_states`` is 1 for the root.
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
    >>> model = TAN().fit(X, y)
    >>> model.root_, model.structure_["safety"]
    ('safety', ())
    >>> round(model.score(X, y), 3)
    0.947
    """

    _missing_em = "network"  # missing="em": EM over the model's network

    def __init__(
        self,
        *,
        root: Any = None,
        cmi: str = "joint",
        alpha: float = 1.0,
        smoothing: str = "lidstone",
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

    def _check_own_params(self) -> None:
        super()._check_own_params()
        _check_choice("cmi", self.cmi, CMI_WEIGHTINGS)

    def _check_structure(self, d: int) -> None:
        if self.root is not None:
            self._feature_index("root", self.root)

    def _components(self) -> dict[str, Any]:
        d = self._d
        names = self.schema_.names
        weights = pair_information(self._counts(), d, self.cmi)
        if self.root is None:
            root = int(np.argmax(class_information(self._counts(), d)))
        else:
            root = self._feature_index("root", self.root)
        parents: dict[int, tuple[int, ...]] = {}
        # the weights as TAN has always compared them, through max - w + 1 (weights closer
        # than its rounding tie, the earlier pair winning), so that its trees stay the same
        flipped = weights - weights.max() - 1.0 if weights.size else weights
        edges = maximum_spanning_tree(flipped)
        if len(edges):
            n = d
            adj = np.zeros((n, n))
            adj[edges[:, 0], edges[:, 1]] = adj[edges[:, 1], edges[:, 0]] = 1.0
            _, pred = breadth_first_order(adj, root, directed=False, return_predecessors=True)
            parents = {j: (int(pred[j]),) for j in range(d) if pred[j] >= 0}
        self.cmi_ = weights
        self.root_ = names[root]
        self.edges_ = [(names[p[0]], names[j]) for j, p in sorted(parents.items())]
        return {"components": [self._structure_factors(parents)]}
