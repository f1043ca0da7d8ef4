"""Classification with any Bayesian network: the class is one node among the features.

:class:`NetworkClassifier` learns (or is given) a DAG over the features and the class, counts
every family's table, estimates the CPTs with the family models' smoothing, and predicts
``P(class | observed features)`` by exact inference in a compiled junction tree
(:class:`~bayeskit.networks.JunctionTree`), all the rows in one call: a missing feature is
simply not observed, and is summed out exactly, whatever the pattern of missing values.
Decisions (cost matrices, the reject option) are the base class's, as for every classifier.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from bayeskit._warnings import warn
from bayeskit.classifiers._checks import _check_choice
from bayeskit.classifiers._family import FamilyClassifier
from bayeskit.classifiers._params import store_parameters
from bayeskit.data.schema import Encoded
from bayeskit.data.validation import check_count
from bayeskit.estimate import get_estimator, log_probabilities
from bayeskit.learning.learners import STRUCTURE_LEARNERS
from bayeskit.learning.parameters import NetworkData

__all__ = ["NetworkClassifier"]

#: the structure that is the classifier's own rather than a learner's: the class the one parent
#: of every feature
_NAIVE = "naive"


def _structure_names() -> tuple[str, ...]:
    """The names ``structure`` takes: every learner of the registry, then ``"naive"``."""
    return (*STRUCTURE_LEARNERS, _NAIVE)


class NetworkClassifier(FamilyClassifier):
    """A Bayesian network over the features and the class, used as a classifier.

    The structure is learned from the training rows (complete rows only; with fewer than two,
    the naive structure is used, with a warning) by a structure learner of
    :data:`~bayeskit.learning.STRUCTURE_LEARNERS`, over the features and the class as one more
    node, with ``structure_score`` and those of ``max_parents`` and ``tabu_length`` it takes:
    :func:`~bayeskit.networks.learn_structure` (``"hill-climb"``, both) or the Chow-Liu forest
    (``"tree"``, neither); or it is naive Bayes (``"naive"``), or given: a
    :class:`~bayeskit.networks.DAG`, a :class:`~bayeskit.networks.BayesianNetwork` (its
    structure), or a list of ``(parent, child)`` feature names, ``class_node`` naming the
    class. Every CPT is then estimated from its family's counts (rows missing a value of the
    family are left out of that family alone), the class's with ``prior_alpha`` (or
    ``priors``) when it is a root, and the posterior of the class is computed by a junction
    tree from whatever features each row observes.

    ``partial_fit`` keeps the structure chosen on the first call and adds to the family counts,
    as :class:`KDB` does.

    Parameters
    ----------
    structure : {"hill-climb", "tree", "naive"}, DAG, BayesianNetwork or list of pairs
        The network's structure, or how to learn it: a learner's name (any of
        :data:`~bayeskit.learning.STRUCTURE_LEARNERS`) or ``"naive"``. Only a list of pairs (or
        a string) can be saved in a model file.
    class_node : str, default="class"
        The class's node name (it must not be a feature's).
    structure_score : {"bic", "aic", "k2", "bdeu", "ll"}, default="bic"
        The structure score of the search.
    max_parents : int, optional
        The most parents a node may have in the search (a learner that takes it).
    tabu_length : int, default=10
        The search's tabu list (a learner that takes it).
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
        As in :class:`NaiveBayes`; ``log_prior_`` is the network's marginal of the class.
    stats_ : FamilyCounts
        Counts of the class and of every node's family (the structure is read from them).
    network_ : BayesianNetwork
        The fitted network (features named as in ``schema_``, binned features by their bins).
    edges_ : list of (str, str)
        The network's edges, parent first.

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = NetworkClassifier().fit(X, y)
    >>> sorted(model.network_.dag.parents("class"))
    ['buying', 'maint']
    >>> round(model.score(X, y), 3)
    0.91
    """

    #: not a sum of statistics over partitions (a learned structure is searched on rows):
    #: fit_chunks, not bayeskit.dask
    _distributable = False

    def __init__(
        self,
        *,
        structure: Any = "hill-climb",
        class_node: str = "class",
        structure_score: str = "bic",
        max_parents: int | None = None,
        tabu_length: int = 10,
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

    # ------------------------------------------------------------------ parameters
    def _check_own_params(self) -> None:
        from bayeskit.networks import DAG, SCORES, BayesianNetwork

        # its parents come in no order of importance: no hierarchical smoothing
        get_estimator(self.smoothing, ordered_parents=False)
        super()._check_own_params()
        _check_choice("structure_score", self.structure_score, SCORES)
        if not isinstance(self.class_node, str) or not self.class_node:
            msg = f"class_node must be a non-empty string, got {self.class_node!r}"
            raise ValueError(msg)
        s = self.structure
        if isinstance(s, str):
            _check_choice("structure", s, _structure_names())
        elif not isinstance(s, DAG | BayesianNetwork | list | tuple):
            msg = (
                f"structure must be one of {_structure_names()}, a DAG, a BayesianNetwork or a "
                f"list of (parent, child) pairs, got {type(s).__name__}"
            )
            raise ValueError(msg)
        check_count("max_parents", self.max_parents, none_ok=True)
        check_count("tabu_length", self.tabu_length)

    # ------------------------------------------------------------------ learning
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int):
        d = enc.codes.shape[1]
        if self._has_stats():  # partial_fit: the structure is kept, its counts grow
            families = list(self._counts().families)
        elif not enc.n_samples:  # a model file's check: the type only
            families = [(d,)]
        else:
            self._require_categorical(enc)
            parents = self._choose_structure(enc, y, w, n_classes)
            families = [(d,)]
            families += [(*parents[v], v) for v in range(d + 1) if v < d or parents[v]]
        return self._count_families(enc, y, w, n_classes, families)

    def _choose_structure(self, enc, y, w, n_classes) -> dict[int, tuple[int, ...]]:
        """Each node's parents (node ``d`` is the class), sorted."""
        from bayeskit.graphs.dag import as_dag
        from bayeskit.networks import DAG, BayesianNetwork

        names = list(self.schema_.names)
        if self.class_node in names:
            msg = f"class_node {self.class_node!r} is also a feature's name: pass another"
            raise ValueError(msg)
        nodes = [*names, self.class_node]
        s = self.structure
        complete = (enc.codes >= 0).all(axis=1)
        if isinstance(s, str) and s != _NAIVE and complete.sum() < 2:
            warn(
                f"structure learning needs complete rows (no missing value) and "
                f"{int(complete.sum())} of {len(complete)} are: the naive structure is used",
                UserWarning,
            )
            s = _NAIVE
        edges: list[tuple[Hashable, Hashable]]
        if isinstance(s, str) and s == _NAIVE:
            edges = [(self.class_node, f) for f in names]
        elif isinstance(s, str):
            edges = list(self._learn_edges(s, nodes, enc, y, w, n_classes, complete))
        else:
            given = s.dag if isinstance(s, BayesianNetwork) else s
            # an edge list's nodes: the features and the class, and any other its edges name
            given = as_dag(given, None if isinstance(given, DAG) else nodes, "structure")
            edges = list(given.edges)
            wanted, have = set(nodes), set(given.nodes)
            extra = have - wanted
            if extra or have != wanted:
                msg = (
                    f"the structure's nodes must be the features and class_node "
                    f"{self.class_node!r}; it names {sorted(map(str, extra))} that are not, "
                    f"or misses {sorted(map(str, wanted - have))}"
                )
                raise ValueError(msg)
        dag = DAG(nodes=nodes, edges=edges)  # names a cycle
        pos = {n: i for i, n in enumerate(nodes)}
        return {pos[v]: tuple(sorted(pos[p] for p in dag.parents(v))) for v in nodes}

    def _learn_edges(
        self, name: str, nodes: list[str], enc: Encoded, y: np.ndarray, w: np.ndarray | None,
        n_classes: int, complete: np.ndarray,
    ) -> tuple[tuple[Hashable, Hashable], ...]:  # fmt: skip
        """The edges the structure learner ``name`` finds over ``nodes`` (the features, then
        the class) in the ``complete`` rows, given ``structure_score`` and those of
        ``max_parents`` and ``tabu_length`` it takes."""
        learner = STRUCTURE_LEARNERS[name]
        codes = np.column_stack([enc.codes[complete], y[complete]]).astype(np.int64)
        n_states = [*self.schema_.n_states.tolist(), n_classes]
        states = {v: tuple(str(k) for k in range(n)) for v, n in zip(nodes, n_states, strict=True)}
        weights = None if w is None else np.asarray(w, dtype=np.float64)[complete]
        data = NetworkData(tuple(nodes), states, codes, weights)
        settings = {"max_parents": self.max_parents, "tabu_length": self.tabu_length}
        return learner.learn(data, self.structure_score, **learner.taken(settings)).edges

    def _stored_families(self, d: int) -> None:
        """The families counted are the structure (:meth:`_structure` checks them)."""
        return None

    def _structure(self) -> dict[int, tuple[int, ...]]:
        """The parents of every node (the class is ``d``), read from the families counted;
        ValueError if they are not one family per node of an acyclic graph."""
        from bayeskit.networks import DAG

        d = self._d
        fams = self._counts().families
        parents: dict[int, tuple[int, ...]] = {v: () for v in range(d + 1)}
        seen: set[int] = set()
        ok = fams[:1] == ((d,),)
        fault = "" if ok else f"the first family is {fams[:1]}, not the class ({d},)"
        for fam in fams[1:]:
            v = fam[-1]
            ok = ok and v not in seen and all(0 <= p <= d for p in fam)
            ok = ok and list(fam[:-1]) == sorted(set(fam[:-1]) - {v})
            if not (ok or fault):
                names = [self.class_node, *self.schema_.names]  # the class is column d
                named = [names[(c + 1) % (d + 1)] if 0 <= c <= d else c for c in fam]
                fault = f"the family {named} (parents, then the node)"
            seen.add(v)
            parents[v] = tuple(fam[:-1])
        lacking = [self.schema_.names[v] for v in range(d) if v not in seen]
        ok = ok and not lacking
        fault = fault or (f"the features {lacking} have no family" if lacking else "")
        if ok:
            try:
                DAG(nodes=range(d + 1), edges=[(p, v) for v, ps in parents.items() for p in ps])
            except ValueError as exc:
                ok, fault = False, str(exc)
        if not ok:
            msg = (
                f"the counted families are not a network structure: {fault}; expected the "
                "class, then one family (sorted parents, node) per feature, and the class's "
                "if it has parents, with no cycle"
            )
            raise ValueError(msg)
        return parents

    def _estimate(self) -> None:
        from bayeskit.networks import DAG, BayesianNetwork, JunctionTree

        d = self._d
        parents = self._structure()
        names = [*self.schema_.names, self.class_node]
        counts = self._counts()
        n_states = [int(n) for n in counts.n_states]
        cpts = {}
        for v in range(d + 1):
            if v == d and not parents[v]:
                cpts[names[v]] = np.exp(self.log_prior_ - np.logaddexp.reduce(self.log_prior_))
                continue
            if v == d and self.priors is not None:
                msg = "priors apply to a class without parents; this structure gives it some"
                raise ValueError(msg)
            table = counts.table((*parents[v], v))
            if table.size == 0:  # a feature never seen with a value: one dummy state
                table = np.zeros([max(k, 1) for k in table.shape])
            with np.errstate(invalid="ignore", divide="ignore"):
                cpt = np.exp(log_probabilities(table, self.smoothing, self.alpha))
            # a parent configuration never seen, unsmoothed (alpha = 0): uniform, never NaN
            empty = ~(np.abs(cpt.sum(axis=-1, keepdims=True) - 1.0) < 1e-6)
            cpts[names[v]] = np.where(empty, 1.0 / cpt.shape[-1], cpt)
        states = {names[v]: [str(k) for k in range(max(n_states[v], 1))] for v in range(d + 1)}
        for j, column in enumerate(self.schema_.columns):
            cats = list(column.categories or ())  # named by the network's one rule
            if cats and len(cats) == n_states[j]:
                states[names[j]] = cats
        states[self.class_node] = list(self.classes_)
        dag = DAG(nodes=names, edges=[(names[p], names[v]) for v in range(d + 1)
                                      for p in parents[v]])  # fmt: skip
        self.network_ = BayesianNetwork(dag, cpts, states=states)
        self.edges_ = list(dag.edges)
        self._jt = JunctionTree(self.network_)
        prior = self._jt.calibrate()[self.class_node].values
        with np.errstate(divide="ignore"):
            self.log_prior_ = np.log(prior)
        self._explain_factors = None

    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        """``log P(x_observed | c)``: the junction tree's ``log P(c | x) + log P(x)`` less the
        class's marginal; every class ``-inf`` for a row the network finds impossible."""
        d = self._d
        self._require_categorical(enc)
        codes = np.ascontiguousarray(enc.codes, dtype=np.int64)
        out, log_pe = self._jt._run([d], list(range(d)), codes, distribute=False)
        possible = np.isfinite(self.log_prior_)  # a class of marginal 0 (alpha = 0) stays 0
        jll = np.full(out.shape, -np.inf)
        with np.errstate(divide="ignore"):
            jll[:, possible] = (
                np.log(out[:, possible]) + log_pe[:, None] - self.log_prior_[possible]
            )
        jll[~np.isfinite(log_pe)] = -np.inf
        return jll

    def to_network(self, class_node: Any = None) -> Any:
        """The fitted :class:`~bayeskit.networks.BayesianNetwork` (``network_``).

        Parameters
        ----------
        class_node : str, optional
            The class's node name, for symmetry with the other classifiers' ``to_network``:
            None (the default) or the model's own ``class_node`` (the network's node names are
            fixed at fit).

        Returns
        -------
        network : BayesianNetwork
            ``network_`` itself (not a copy): the features and the class as nodes, the
            learned or given structure, the estimated CPTs.

        Raises
        ------
        NotFittedError
            If the model is not fitted.
        ValueError
            If ``class_node`` names another node than the model's ``class_node``.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": ["u", "u", "v", "v"], "b": ["p", "q", "p", "q"]})
        >>> network = NetworkClassifier(structure="naive").fit(X, [0, 0, 1, 1]).to_network()
        >>> network.dag.nodes, sorted(network.dag.parents("a"))
        (('a', 'b', 'class'), ['class'])
        """
        check_is_fitted(self, "stats_")
        if class_node not in (None, self.class_node):
            msg = f"this model's class node is {self.class_node!r} (its class_node parameter)"
            raise ValueError(msg)
        return self.network_

    def explain(self, X: Any, *, as_frame: bool = False) -> Any:
        """Not defined for a network classifier, whose class may have parents among the
        features (no per-feature term of the class's likelihood): always raises. Use
        :meth:`predict_proba`, or the network's own inference (:meth:`to_network`).

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples (not read).
        as_frame : bool, default=False
            Ignored.

        Returns
        -------
        evidence : ndarray or DataFrame
            Never: the method always raises.

        Raises
        ------
        AttributeError
            Always.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": ["u", "u", "v", "v"], "b": ["p", "q", "p", "q"]})
        >>> model = NetworkClassifier(structure="naive").fit(X, [0, 0, 1, 1])
        >>> model.explain(X)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        AttributeError: NetworkClassifier has no per-feature evidence (explain): ...
        """
        msg = "NetworkClassifier has no per-feature evidence (explain): its class may have parents"
        raise AttributeError(msg)
