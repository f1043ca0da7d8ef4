"""Bayesian network classifiers that keep numeric features continuous: naive Bayes, TAN and
KDB structures whose numeric features are conditional linear Gaussian nodes (Pérez, Larrañaga
and Inza 2006, *Supervised classification with conditional Gaussian networks: increasing the
structure complexity from naive Bayes*; Friedman, Geiger and Goldszmidt 1997 for TAN; Sahami
1996 for KDB; Zhou, *Machine Learning*, 7.4-7.5 for the discrete ones).

The class is a parent of every feature. A numeric feature is a linear regression on its
numeric feature parents, one per configuration of its discrete parents (the class among
them); a categorical feature is a table. So the model is a
:class:`~bayeskit.networks.HybridNetwork` (:meth:`CLGClassifier.to_network`), and its class
posterior is exact inference in it.

The structure is chosen from the conditional mutual information of two features given the
class, measured as a log-likelihood gain: ``n I(X_v; X_u | C) = LL(X_v | C, X_u) - LL(X_v |
C)``, the families' maximum log-likelihoods (counts for a table, least squares for a
regression: :func:`bayeskit.learning.score`'s families). For two numeric features it is
``-n/2 sum_c P(c) ln(1 - rho_c^2)``, symmetric; a categorical feature never gets a numeric
parent (the CLG rule), so that pair is measured in the one allowed direction.

* TAN: the maximum-weight spanning arborescence of the gains over the features (Edmonds'
  algorithm, :func:`networkx.maximum_spanning_arborescence`); for symmetric gains it is the
  Chow-Liu tree, directed away from the feature most related to the class;
* KDB: the features by decreasing ``I(X_v; C)``, each given the (at most) ``k`` earlier
  features of largest gain.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from bayeskit.classifiers._inputs import TabularInput
from bayeskit.data.frames import refuse_unhashable
from bayeskit.data.kinds import continuous_columns
from bayeskit.data.validation import check_count, check_real, check_sample_weight
from bayeskit.decision import decide_labels

__all__ = ["CLGClassifier"]

STRUCTURES = ("naive", "tan", "kdb")


class CLGClassifier(TabularInput, ClassifierMixin, BaseEstimator):
    """Naive Bayes, TAN or KDB over numeric and categorical features, the numeric ones kept
    continuous as conditional linear Gaussian nodes.

    Parameters
    ----------
    structure : {"naive", "tan", "kdb"}, default="tan"
        The feature dependencies: none, a tree, or up to ``k`` parents each.
    k : int, default=2
        KDB's most feature parents per feature.
    alpha : float, default=1.0
        The tables' Lidstone pseudo-count (the class prior's too); 0 for relative frequencies.
    ridge : float, default=0.0
        Penalty on the regressions' slopes (:meth:`~bayeskit.factors.LinearGaussianCPD.estimate`).
    var_smoothing : float, default=1e-9
        The regressions' residual variances are at least this share of the largest numeric
        feature's variance (scikit-learn's ``GaussianNB`` adds the same amount).
    categorical_features : list, optional
        Columns to treat as categorical whatever they hold; the others are typed by the one
        column rule (:func:`bayeskit.data.kinds.column_kind`).

    Attributes
    ----------
    classes_ : ndarray
    network_ : HybridNetwork
        The fitted model (the class node ``"class"``, unless a feature has that name).
    continuous_ : list
        The numeric features.
    n_features_in_ : int
    feature_names_in_ : ndarray
        With a DataFrame's column names.

    Examples
    --------
    Two numeric features that move together given the class: TAN links them.

    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(2, size=600)
    >>> a = y + rng.normal(size=600)
    >>> X = pd.DataFrame({"a": a, "b": a + 0.3 * rng.normal(size=600), "c": rng.normal(size=600)})
    >>> model = CLGClassifier(structure="tan").fit(X, y)
    >>> sorted(model.network_.dag.parents("b"))
    ['a', 'class']
    >>> model.predict_proba(X.iloc[:2]).round(3).tolist()
    [[0.158, 0.842], [0.411, 0.589]]
    """

    def __init__(self, structure: str = "tan", k: int = 2, alpha: float = 1.0,
                 ridge: float = 0.0, var_smoothing: float = 1e-9,
                 categorical_features: Any = None):  # fmt: skip
        self.structure = structure
        self.k = k
        self.alpha = alpha
        self.ridge = ridge
        self.var_smoothing = var_smoothing
        self.categorical_features = categorical_features

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # a missing value
        return tags

    # ------------------------------------------------------------------ fitting

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> CLGClassifier:
        """Choose the structure from the complete rows and fit the network to all of them
        (each family from the rows that observe it).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        CLGClassifier
            This model, fitted.

        Raises
        ------
        ValueError
            On an unknown ``structure``, bad options, no complete row, or labels that are
            missing.

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.continuous_, model.classes_.tolist()
        (['v'], [0, 1])
        """
        from bayeskit.networks import HybridNetwork

        if self.structure not in STRUCTURES:
            msg = f"structure must be one of {STRUCTURES}, got {self.structure!r}"
            raise ValueError(msg)
        check_count("k", self.k, low=1)
        check_real("alpha", self.alpha, low=0)
        check_real("ridge", self.ridge, low=0)
        check_real("var_smoothing", self.var_smoothing, low=0)
        if y is None:
            msg = "CLGClassifier requires y to be passed, but the target y is None"
            raise ValueError(msg)
        frame = self._frame(X, fitting=True)
        labels = column_or_1d(y, warn=True)
        if len(labels) != len(frame):
            msg = f"y has {len(labels)} labels for {len(frame)} rows of X"
            raise ValueError(msg)
        if pd.isna(labels).any():
            msg = "y has a missing label"
            raise ValueError(msg)
        if labels.dtype.kind == "f" and np.isinf(labels).any():
            msg = "Input y contains infinity: a label must be a class"
            raise ValueError(msg)
        check_classification_targets(labels)
        self.classes_, codes = np.unique(labels, return_inverse=True)
        weights = check_sample_weight(sample_weight, len(frame), positive_sum=True)
        self.class_node_ = _class_node(list(frame.columns))
        names = [str(k) for k in range(len(self.classes_))]
        frame[self.class_node_] = pd.Categorical(np.asarray(names)[codes.reshape(-1)], names)
        self.continuous_ = continuous_columns(frame, list(frame.columns)[:-1],
                                              discrete=self.categorical_features or ())  # fmt: skip
        states = _states(frame, self.continuous_)
        dag = self._structure(frame, states, weights)
        spread = [float(np.nanvar(frame[c].to_numpy(dtype=float))) for c in self.continuous_]
        floor = self.var_smoothing * max([s for s in spread if np.isfinite(s)], default=1.0)
        shell = HybridNetwork.template(dag, frame, continuous=self.continuous_, states=states)
        self.network_ = shell.estimated(
            shell.statistics(frame, weights), estimator="lidstone", alpha=self.alpha,
            ridge=self.ridge, min_variance=max(floor, 1e-300),
        )  # fmt: skip
        return self

    def _frame(self, X: Any, fitting: bool) -> pd.DataFrame:
        """``X`` checked as every classifier checks it (scikit-learn's feature bookkeeping,
        no sparse input), as a frame of named columns; NaN is a missing value, infinity and
        complex numbers are refused."""
        X = self._prepare_X(X, reset=fitting)
        if isinstance(X, pd.DataFrame):
            frame = X.copy()
        else:
            frame = pd.DataFrame(np.asarray(X), columns=[f"x{j}" for j in range(X.shape[1])])
        if hasattr(self, "feature_names_in_") and not fitting:
            frame.columns = [str(c) for c in self.feature_names_in_]
        frame.columns = [str(c) for c in frame.columns]
        for name in frame.columns:
            kind = frame[name].dtype.kind
            if kind == "c":
                msg = f"Complex data not supported: column {name!r} holds complex numbers"
                raise ValueError(msg)
            refuse_unhashable(frame[name])  # a dict or list can be no category
            if kind in "fiu" and np.isinf(frame[name].to_numpy(dtype=float)).any():
                msg = f"column {name!r} has an infinite value; a missing value is NaN"
                raise ValueError(msg)
        return frame

    def _structure(self, frame: pd.DataFrame, states: dict, weights: Any):
        """The DAG: the class a parent of every feature, and the feature edges of
        ``structure`` chosen from the complete rows."""
        from bayeskit.graphs import DAG

        features = list(frame.columns)[:-1]
        edges = [(self.class_node_, f) for f in features]
        if self.structure != "naive" and len(features) > 1:
            complete = frame.notna().all(axis=1).to_numpy()
            if not complete.any():
                msg = "X has no complete row to choose the structure from"
                raise ValueError(msg)
            w = None if weights is None else weights[complete]
            rows = frame[complete]
            varied = [f for f in features if rows[f].nunique() > 1]  # others: no feature edge
            gain = np.full((len(features), len(features)), -np.inf)
            relevance = np.zeros(len(features))
            if len(varied) > 1:
                at = [features.index(f) for f in varied]
                sub, rel = _gains(rows[[*varied, self.class_node_]], states, w, len(varied))
                gain[np.ix_(at, at)], relevance[at] = sub, rel
            if self.structure == "tan":
                edges += _tree(gain, relevance, features)
            else:
                edges += _kdb(gain, relevance, features, self.k)
        return DAG([self.class_node_, *features], edges=edges)

    # ------------------------------------------------------------------ prediction

    def predict_joint_log_proba(self, X: Any) -> np.ndarray:
        """``log p(c, x)`` for each row and class: the network's joint of the class and the
        row's observed features (missing ones summed and integrated out).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.predict_joint_log_proba(X.iloc[:1]).shape
        (1, 2)
        """
        check_is_fitted(self, "network_")
        frame = self._frame(X, fitting=False)
        net = self.network_
        for name in frame.columns:  # a category not seen in fit: a missing value
            if name not in self.continuous_:
                known = set(net.states(name))
                text = frame[name].astype("string")
                frame[name] = text.where(text.isin(known)).astype(object)
        out = np.empty((len(frame), len(self.classes_)))
        for c, state in enumerate(net.states(self.class_node_)):
            frame[self.class_node_] = state
            out[:, c] = net.log_likelihood(frame, per_row=True)
        return out

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """``log P(c | x)`` for each row and class.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> bool(np.allclose(np.exp(model.predict_log_proba(X)).sum(axis=1), 1.0))
        True
        """
        joint = self.predict_joint_log_proba(X)
        return joint - logsumexp(joint, axis=1, keepdims=True)

    def predict_proba(self, X: Any) -> np.ndarray:
        """``P(c | x)`` for each row and class.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.predict_proba(pd.DataFrame({"v": [1.5], "g": ["b"]})).round(3).tolist()
        [[0.323, 0.677]]
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: Any, *, cost: Any = None) -> np.ndarray:
        """The class of least conditional risk (Zhou, *Machine Learning*, 7.1): the most
        probable one under the 0/1 loss.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        cost : array-like, DataFrame or dict, optional
            ``cost[i, j]``: the cost of predicting class ``i`` when the truth is ``j``
            (:func:`~bayeskit.decision.cost_matrix`); None for the 0/1 loss.

        Returns
        -------
        ndarray of shape (n_samples,)

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.predict(X).tolist()
        [0, 0, 1, 1, 0, 1]
        """
        joint = self.predict_joint_log_proba(X)  # (checks the model is fitted)
        if cost is None:
            return self.classes_[np.argmax(joint, axis=1)]
        proba = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
        return decide_labels(proba, self.classes_, cost)

    def decide(self, X: Any, *, cost: Any = None, reject_threshold: float | None = None,
               reject_label: Any = None) -> np.ndarray:  # fmt: skip
        """Minimum-risk decisions with Chow's reject option (as every bayeskit classifier's
        ``decide``).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        cost : array-like, DataFrame or dict, optional
            The cost matrix; None for the 0/1 loss.
        reject_threshold : float, optional
            The cost of abstaining.
        reject_label : object, default=None
            What a rejected sample gets.

        Returns
        -------
        ndarray of shape (n_samples,)

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.decide(pd.DataFrame({"v": [1.5], "g": ["b"]}), reject_threshold=0.2).tolist()
        [None]
        """
        return decide_labels(self.predict_proba(X), self.classes_, cost,
                             reject_threshold=reject_threshold,
                             reject_label=reject_label)  # fmt: skip

    def to_network(self) -> Any:
        """The fitted model as a :class:`~bayeskit.networks.HybridNetwork` (its class node
        ``class_node_``, states ``"0"``, ``"1"``, ... for ``classes_`` in order): exact
        inference in it gives :meth:`predict_proba`.

        Returns
        -------
        HybridNetwork

        Examples
        --------
        >>> X = pd.DataFrame({"v": [0.1, 1.4, 2.2, 3.5, 0.9, 2.0], "g": list("aabbab")})
        >>> model = CLGClassifier(structure="naive").fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.to_network().continuous_nodes
        ('v',)
        """
        check_is_fitted(self, "network_")
        return self.network_


def _class_node(features: list) -> str:
    name = "class"
    while name in features:
        name = f"_{name}"
    return name


def _states(frame: pd.DataFrame, continuous: list) -> dict:
    from bayeskit.learning.parameters import column_states

    return {c: column_states(frame, c, None) for c in frame.columns if c not in continuous}


def _gains(frame: pd.DataFrame, states: dict, weights: Any, n: int):
    """``gain[v, u] = LL(v | class, u) - LL(v | class)`` (``-inf`` where ``u`` may not be a
    parent of ``v``) and ``relevance[v] = LL(v | class) - LL(v)``, over the features."""
    from bayeskit.learning.data_scorers import family_scorer

    scorer, _ = family_scorer(frame, "ll", 1.0, states, weights)
    c = n  # the class is the last column
    gain = np.full((n, n), -np.inf)
    relevance = np.empty(n)
    for v in range(n):
        given = scorer(v, frozenset({c}))
        relevance[v] = given - scorer(v, frozenset())
        ext = np.asarray(scorer.extensions(v, frozenset({c})))[:n]
        gain[v] = ext - given
        gain[v, v] = -np.inf
    return gain, relevance


def _tree(gain: np.ndarray, relevance: np.ndarray, features: list) -> list:
    """The maximum-weight spanning arborescence of the gains (edge ``u -> v`` weighs
    ``gain[v, u]``); when every pair may go either way, the tree is directed away from the
    feature most related to the class, as TAN directs its Chow-Liu tree (the total gain is
    the same in every direction)."""
    import networkx as nx

    finite = np.isfinite(gain)
    linked = [v for v in range(len(features)) if finite[v].any() or finite[:, v].any()]
    graph = nx.DiGraph()
    graph.add_nodes_from(linked)  # a constant feature has no feature edge
    for v in linked:
        for u in np.flatnonzero(np.isfinite(gain[v])):
            graph.add_edge(int(u), v, weight=float(gain[v, u]))
    if len(linked) < 2:
        return []
    tree = nx.maximum_spanning_arborescence(graph, attr="weight", preserve_attrs=True)
    edges = list(tree.edges())
    block = gain[np.ix_(linked, linked)]
    if np.isfinite(block[~np.eye(len(linked), dtype=bool)]).all():
        root = linked[int(np.argmax(relevance[linked]))]
        edges = list(nx.bfs_edges(tree.to_undirected(), root))
    return [(features[u], features[v]) for u, v in sorted(edges)]


def _kdb(gain: np.ndarray, relevance: np.ndarray, features: list, k: int) -> list:
    """Each feature, by decreasing relevance, given the ``k`` earlier ones of largest gain."""
    order = np.argsort(-relevance, kind="stable")
    edges = []
    for i, v in enumerate(order):
        earlier = [int(u) for u in order[:i] if np.isfinite(gain[v, u])]
        best = sorted(earlier, key=lambda u: (-gain[v, u], u))[:k]
        edges += [(features[u], features[int(v)]) for u in best]
    return edges
