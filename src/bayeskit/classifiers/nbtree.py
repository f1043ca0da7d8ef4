"""Naive-Bayes tree (Kohavi 1996; "TreeNB" in Yang Yu's Nanjing lecture *Bayesian
Classifiers*): a decision tree with naive Bayes leaves."""

from __future__ import annotations

from typing import Any

import numpy as np

from bayeskit.classifiers._checks import _check_number
from bayeskit.classifiers._family import (
    FamilyClassifier,
    _check_memory,
    with_class_column,
)
from bayeskit.classifiers._params import store_parameters
from bayeskit.classifiers.spode import candidate_tables
from bayeskit.data.schema import Encoded
from bayeskit.estimate import log_probabilities
from bayeskit.stats import FamilyCounts, TreeCounts, family_counts, pair_families
from bayeskit.stats.lookup import leave_one_out_scores

__all__ = ["NBTree"]


class NBTree(FamilyClassifier):
    """Naive-Bayes tree (Kohavi, "Scaling up the accuracy of naive-Bayes classifiers: a
    decision-tree hybrid", KDD 1996): a decision tree whose leaves hold naive Bayes models.

    Growing, from the root: a node of at least ``min_samples`` rows (weighted) scores naive
    Bayes on its rows and, for every feature not split above it, the split on that feature
    with a naive Bayes model in each child (multiway, one child per value seen; the features
    split on the path are left out of the models, being constant there). Each score is the
    leave-one-out accuracy, computed exactly from the node's counts with each row taken out of
    its cells (the split on ``a`` scores as the SPODE with super-parent ``a``, which classifies
    as naive Bayes in each child of ``a``: ``P(c) P(x_a | c)`` is proportional to
    ``P(c | x_a)``). The best split is made when it cuts
    the node's error by more than ``min_gain`` of it (relative), Kohavi's rule with his
    thresholds, 30 rows and 5%; else the node is a leaf. Kohavi scores by 5-fold
    cross-validation; leave-one-out from the counts is exact and costs one pass over the
    node's rows.

    Prediction: a row goes down the tree while its value of the node's split feature has a
    child; it stops at a node where that value is missing or was never seen there, and that
    node's naive Bayes model (over its subtree's rows) classifies it:
    ``P(c | x) ∝ P(node | c) P(c) prod_j P(x_j | c, node)`` over the features not split on its
    path, with ``P(node | c)`` the share of class ``c``'s rows that reach the node (each leaf
    smoothed by ``prior_alpha``, so the leaves' shares sum to 1 for every class). Tables are
    estimated with the model's smoothing; with ``smoothing="hierarchical"`` each node's
    ``P(x_j | c, node)`` is shrunk toward ``P(x_j | c)`` over all the rows (the node and the
    rest of the rows as the two children of that level).

    ``partial_fit``: the first call grows the tree from its rows; later calls keep the tree and
    add their rows to the counts of the nodes they reach (as :class:`KDB` keeps its structure).

    Parameters
    ----------
    min_samples : float, default=30
        The fewest rows (weighted) a node needs to be split (Kohavi's 30).
    min_gain : float, default=0.05
        The relative cut in leave-one-out error a split must exceed (Kohavi's 5%).
    max_depth : int, optional
        The deepest a leaf may be (the root is at depth 0); unlimited by default.
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
    stats_ : TreeCounts
        The tree and the counts of ``(class, node, x_j)``.
    n_nodes_, n_leaves_, depth_ : int
    tree_ : list of dict
        One per node: ``node``, ``parent``, ``feature`` (the split above it leads through
        ``feature == value``), ``value``, ``split`` (its own split feature or None) and
        ``n_samples`` (weighted rows of its subtree).

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = NBTree().fit(X, y)
    >>> model.tree_[0]["split"], model.n_leaves_ > 1
    ('buying', True)
    >>> print(model.export_text().splitlines()[1])
    |   persons = 0: naive Bayes on 144 rows (mostly 2)
    """

    #: not a sum of statistics over partitions (its tree is grown from rows):
    #: fit_chunks, not bayeskit.dask
    _distributable = False

    def __init__(
        self,
        *,
        min_samples: float = 30,
        min_gain: float = 0.05,
        max_depth: int | None = None,
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

    def _check_own_params(self) -> None:
        super()._check_own_params()
        _check_number("min_samples", self.min_samples, low=0)
        _check_number("min_gain", self.min_gain, low=0)
        if self.max_depth is not None:
            _check_number("max_depth", self.max_depth, low=0, integer=True)

    @property
    def _d(self) -> int:
        return len(self.stats_.n_states) - 2

    def _stored_families(self, d: int) -> list[tuple[int, ...]]:
        """The class, ``(class, node)`` and every ``(class, node, x_j)`` (the node is column
        ``d``, the class ``d + 1``)."""
        return [(d + 1,), (d + 1, d), *((d + 1, d, j) for j in range(d))]

    def _validate_stats(self, layout: Any) -> None:
        # the node is a column of the counts too (column d): named in messages
        names = (*layout.column_names, "tree node")
        super()._validate_stats(layout._replace(column_names=names))

    # ------------------------------------------------------------------ learning
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int):
        d = enc.codes.shape[1]
        n_states = [*self.schema_.n_states.tolist()]
        if self._has_stats():  # partial_fit: the tree is kept
            tree = (self.stats_.split, self.stats_.parent, self.stats_.value)
        elif not enc.n_samples:  # a model file's check: the type only
            tree = (np.array([-1]), np.array([-1]), np.array([-1]))
        else:
            self._require_categorical(enc)
            _check_memory(type(self).__name__, self._families(d), [*n_states, n_classes], 1)
            weights = np.ones(enc.n_samples) if w is None else w
            tree = self._grow_tree(enc.codes, y, weights, n_states, n_classes)
        split, parent, value = (np.asarray(a, dtype=np.int64) for a in tree)
        node = route(enc.codes, split, parent, value, n_states)
        codes = with_class_column(np.column_stack([enc.codes, node]), y, n_classes)
        families = self._stored_families(d)
        sizes = [*n_states, len(split), n_classes]
        counts = family_counts(codes, families, sizes, w, target=d + 1)
        return TreeCounts(counts, split, parent, value)

    def _grow(self, X: Any, stats: TreeCounts) -> TreeCounts:
        # a grown vocabulary recodes the branches too; the chunk is then routed by the
        # recoded tree, so it is held as stats_ at once (a failed call restores the old one)
        self.stats_ = super()._grow(X, stats)
        return self.stats_

    def _grow_tree(self, codes, y, w, n_states, n_classes) -> tuple[list, list, list]:
        """Kohavi's growing, breadth first, so that a parent precedes its children."""
        split: list[int] = []
        parent, value = [-1], [-1]
        todo: list[tuple[np.ndarray, tuple[int, ...]]] = [(np.arange(len(y)), ())]
        i = 0
        while i < len(todo):
            rows, path = todo[i]
            a = self._best_split(codes[rows], y[rows], w[rows], path, n_states, n_classes)
            split.append(a)
            if a >= 0:
                col = codes[rows, a]
                for v in range(n_states[a]):
                    sub = rows[col == v]
                    if w[sub].sum() > 0:
                        todo.append((sub, (*path, a)))
                        parent.append(i)
                        value.append(v)
            i += 1
        return split, parent, value

    def _best_split(self, codes, y, w, path, n_states, n_classes) -> int:
        """The feature to split a node of these rows on, or -1 for a leaf."""
        deep = self.max_depth is not None and len(path) >= self.max_depth
        if deep or w.sum() < max(self.min_samples, 1e-300):
            return -1
        d = codes.shape[1]
        free = [j for j in range(d) if j not in path]
        cands = [a for a in free if len(np.unique(codes[codes[:, a] >= 0, a])) > 1]
        if not cands:
            return -1
        families = [(d,), *((d, j) for j in free), *pair_families(free, (d,))]
        counts = family_counts(
            with_class_column(codes, y, n_classes), families, [*n_states, n_classes], w, target=d
        )

        kept, left = (
            candidate_tables(counts, d, [*cands, None], free, self._loo_alpha, left_out=b)
            for b in (False, True)
        )
        priors = self._loo_priors(counts.class_count)
        right = leave_one_out_scores(kept, left, codes, y, w, *priors)[2]
        total = w.sum()
        err = 1.0 - right / total  # the last is naive Bayes on the node
        best = int(np.argmin(err[:-1]))
        if err[-1] <= 0 or (err[-1] - err[best]) / err[-1] <= self.min_gain:
            return -1
        return cands[best]

    # ------------------------------------------------------------------ estimation
    def _estimate(self) -> None:
        self._explain_factors = None
        stats: TreeCounts = self.stats_
        d = self._d
        split, parent, value = stats.split, stats.parent, stats.value
        n_nodes = len(split)
        counts: FamilyCounts = stats.counts
        n_classes = len(self.classes_)
        # every node's counts summed over its subtree, in one pass up the tree: the leaf
        # indicator, then (class, node), then each (class, node, x_j), side by side
        own = [counts.table((d + 1, d, j)) for j in range(d)]
        leaf = np.broadcast_to(
            (split < 0).astype(np.float64)[None, :, None], (n_classes, n_nodes, 1)
        )
        sums = _subtree_sums(
            np.concatenate([leaf, counts.table((d + 1, d))[:, :, None], *own], 2), parent
        )
        leaves, node_class = sums[0, :, 0], sums[:, :, 1]
        subtrees = np.split(sums[:, :, 2:], np.cumsum([t.shape[2] for t in own])[:-1], axis=2)
        on_path = np.zeros((n_nodes, d), dtype=bool)  # the features split above each node
        for i in range(1, n_nodes):
            on_path[i] = on_path[parent[i]]
            on_path[i, split[parent[i]]] = True
        tables = []
        for j, sub in enumerate(subtrees):  # (C, nodes, K)
            # each node against the rest of the rows: (node, class, [node, rest], x), so that a
            # hierarchical estimate shrinks P(x | c, node) toward P(x | c) over every row once
            pair = np.stack([sub, sub[:, :1] - sub], axis=2).transpose(1, 0, 2, 3)
            logp = log_probabilities(pair, self.smoothing, self.alpha, batch_axes=1)
            logp = logp[:, :, 0, :].transpose(1, 0, 2)
            logp[:, on_path[:, j], :] = 0.0  # constant in the node: no evidence
            tables.append(logp)
        a = self.prior_alpha
        # P(node | c): the node's subtree's share of the class's rows, each leaf (a region of
        # the space) with pseudo-count a, so the leaves' shares sum to 1 for every class and a
        # node's is the sum of its leaves'
        class_total = node_class[:, :1] + leaves[0] * a  # the root's subtree: every row
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.log(node_class + leaves * a) - np.log(class_total)
        # a class with no row and no pseudo-count: its prior is 0 already
        self._node_term = np.where(class_total > 0, term, 0.0)
        self._node_class = node_class
        self._node_tables = tables
        names = self.schema_.names
        self.n_nodes_ = n_nodes
        self.n_leaves_ = int((split < 0).sum())
        self.depth_ = int(on_path.sum(axis=1).max())  # a feature is split once on a path
        cats = [self.schema_.column(n).categories for n in names]
        self.tree_: list[dict[str, Any]] = [
            {
                "node": i,
                "parent": int(parent[i]) if i else None,
                "feature": names[split[parent[i]]] if i else None,
                "value": cats[split[parent[i]]][value[i]] if i else None,
                "split": names[split[i]] if split[i] >= 0 else None,
                "n_samples": float(node_class[:, i].sum()),
            }
            for i in range(n_nodes)
        ]

    def export_text(self) -> str:
        """The tree as indented text: a line per node, its branch and, at a leaf, its rows and
        most frequent class.

        Returns
        -------
        text : str
            One line per node below the root, ``|   `` once per level of depth, then
            ``feature = value``; a leaf's line ends with its (weighted) rows and most frequent
            class. A tree of no split reads ``"naive Bayes on every row (no split)"``.

        Examples
        --------
        >>> from bayeskit.data import datasets
        >>> X, y = datasets.load("car")
        >>> print("\\n".join(NBTree().fit(X, y).export_text().splitlines()[:3]))
        buying = 0:
        |   persons = 0: naive Bayes on 144 rows (mostly 2)
        |   persons = 1: naive Bayes on 144 rows (mostly 2)
        """
        children: dict[int, list[int]] = {}
        for node in self.tree_[1:]:
            children.setdefault(node["parent"], []).append(node["node"])
        node_class = self._node_class
        lines: list[str] = []

        def walk(i: int, depth: int) -> None:
            for c in children.get(i, []):
                node = self.tree_[c]
                head = "|   " * depth + f"{node['feature']} = {node['value']}"
                if node["split"] is None:
                    top = self.classes_[int(np.argmax(node_class[:, c]))]
                    head += f": naive Bayes on {node['n_samples']:g} rows (mostly {top})"
                else:
                    head += ":"
                lines.append(head)
                walk(c, depth + 1)

        walk(0, 0)
        return "\n".join(lines) if lines else "naive Bayes on every row (no split)"

    # ------------------------------------------------------------------ prediction
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        s = self.stats_
        node = route(enc.codes, s.split, s.parent, s.value, self.schema_.n_states.tolist())
        jll = self._node_term[:, node].T.copy()  # log P(node | c); the base adds log P(c)
        for j, table in enumerate(self._node_tables):
            x = enc.codes[:, j]
            seen = x >= 0
            jll[seen] += table[:, node[seen], x[seen]].T
        return jll


def _subtree_sums(table: np.ndarray, parent: np.ndarray) -> np.ndarray:
    """Counts per node (axis 1) summed over each node's subtree (children follow parents)."""
    out = table.copy()
    for i in range(len(parent) - 1, 0, -1):
        out[:, parent[i]] += out[:, i]
    return out


def route(
    codes: np.ndarray, split: np.ndarray, parent: np.ndarray, value: np.ndarray, n_states: list
) -> np.ndarray:
    """Each row's deepest node: from the root, down while the row's value of the node's split
    feature is observed and has a child there."""
    n_nodes = len(split)
    offsets = np.zeros(n_nodes + 1, dtype=np.int64)
    width = np.array([n_states[a] if a >= 0 else 0 for a in split], dtype=np.int64)
    np.cumsum(width, out=offsets[1:])
    child = np.full(int(offsets[-1]) + 1, -1, dtype=np.int64)  # (+1: a slot for "no child")
    for i in range(1, n_nodes):
        child[offsets[parent[i]] + value[i]] = i
    node = np.zeros(codes.shape[0], dtype=np.int64)
    active = np.arange(codes.shape[0])
    while active.size:
        a = split[node[active]]
        inner = a >= 0
        active, a = active[inner], a[inner]
        v = codes[active, a]
        slot = np.where(v >= 0, offsets[node[active]] + v, offsets[-1])
        nxt = child[slot]
        moved = nxt >= 0
        node[active[moved]] = nxt[moved]
        active = active[moved]
    return node
