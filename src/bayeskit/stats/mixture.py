"""Expected counts of a per-class mixture of naive Bayes components (SubclassNaiveBayes).

EM does not count: it spreads each row of class ``c`` over the class's components ``k`` by its
responsibility ``r_ik``. What the fitted tables are estimated from is then the *expected* counts,
``sum_i w_i r_ik`` per (class, component) and ``sum_i w_i r_ik [x_ij = v]`` per (class,
component, feature, state): :class:`MixtureCounts` holds them, so that a model's tables are rebuilt
from its statistics exactly, as for every other model (and a model file stores them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bayeskit.stats import checks

__all__ = ["MixtureCounts"]


@dataclass(frozen=True)
class MixtureCounts:
    """Expected counts of each class's mixture components, and the record of how many components
    each class got.

    The component axis has the length of the largest number of components tried for any class;
    a class with fewer components has zero counts in the others.

    Attributes
    ----------
    class_count : ndarray of shape (n_classes,)
        Weighted number of rows of each class.
    n_components : ndarray of int64, shape (n_classes,)
        Components of each class's mixture, at least 1.
    component_count : ndarray of shape (n_classes, n_slots)
        ``sum_i w_i r_ik`` over the rows of the class; sums to ``class_count`` per class.
    feature_count : tuple of ndarray, each of shape (n_classes, n_slots, n_states_f)
        ``sum_i w_i r_ik [x_if = v]``; a missing value is not counted, so a component's row may
        sum to less than its ``component_count``.
    log_likelihood : ndarray of shape (n_classes, n_slots)
        ``[c, K - 1]``: the class's log-likelihood with ``K`` components at fit; ``-inf`` where
        that ``K`` was not tried.
    bic : ndarray of shape (n_classes, n_slots)
        The matching Bayesian information criterion; ``+inf`` where not tried.
    n_iter : ndarray of int64, shape (n_classes, n_slots)
        EM iterations of the run kept for each ``K`` tried; 0 where not tried.

    Examples
    --------
    A subclass naive Bayes model keeps them as ``stats_``:

    >>> import pandas as pd
    >>> from bayeskit import SubclassNaiveBayes
    >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"], "wind": ["no", "yes", "no", "no"]})
    >>> stats = SubclassNaiveBayes().fit(X, ["play", "stay", "play", "stay"]).stats_
    >>> stats.n_components.tolist(), stats.component_count.sum(axis=1).round(6).tolist()
    ([1, 1], [2.0, 2.0])

    Adding two (``a + b``, ``partial_fit``) adds the counts of components with the same number
    per class; the record (``log_likelihood``, ``bic``, ``n_iter``) is ``a``'s, that of the fit
    which chose the components.
    """

    class_count: np.ndarray
    n_components: np.ndarray
    component_count: np.ndarray
    feature_count: tuple[np.ndarray, ...]
    log_likelihood: np.ndarray
    bic: np.ndarray
    n_iter: np.ndarray

    def __add__(self, other: MixtureCounts) -> MixtureCounts:
        same = (
            isinstance(other, MixtureCounts)
            and np.array_equal(self.n_components, other.n_components)
            and self.component_count.shape == other.component_count.shape
            and len(self.feature_count) == len(other.feature_count)
        )
        if not same:
            msg = "cannot add the expected counts of mixtures with different components"
            raise ValueError(msg)
        return MixtureCounts(
            self.class_count + other.class_count,
            self.n_components,
            self.component_count + other.component_count,
            tuple(a + b for a, b in zip(self.feature_count, other.feature_count, strict=True)),
            self.log_likelihood,
            self.bic,
            self.n_iter,
        )

    def regrow(self, remap: dict[int, np.ndarray], n_states: np.ndarray) -> MixtureCounts:
        """Re-lay the tables out for grown vocabularies (``partial_fit`` meeting new categories).

        Old code ``k`` of feature ``f`` moves to ``remap[f][k]`` in a table of ``n_states[f]``
        states; the new states' expected counts start at zero.

        Parameters
        ----------
        remap : dict of int to ndarray of int
            For each categorical feature whose vocabulary grew, the new code of each old code.
        n_states : ndarray of int, shape (n_features,)
            Each categorical feature's number of states after growing.

        Returns
        -------
        MixtureCounts
            New statistics; the arrays other than the regrown tables are shared, not copied.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import SubclassNaiveBayes
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"]})  # codes: rain 0, sun 1
        >>> stats = SubclassNaiveBayes().fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> grown = stats.regrow({0: np.array([0, 2])}, np.array([3]))  # a new code 1: "snow"
        >>> grown.feature_count[0][:, 0].round(6).tolist()  # (class, component 0, state)
        [[0.0, 0.0, 2.0], [2.0, 0.0, 0.0]]
        """
        tables = list(self.feature_count)
        for f, where in remap.items():
            old = tables[f]
            grown = np.zeros((*old.shape[:2], int(n_states[f])))
            grown[:, :, where] = old
            tables[f] = grown
        return MixtureCounts(
            self.class_count,
            self.n_components,
            self.component_count,
            tuple(tables),
            self.log_likelihood,
            self.bic,
            self.n_iter,
        )

    def validate(self, layout: checks.Layout, where: str = "stats_") -> None:
        """Check statistics read from a model file against ``layout``.

        Every count array float64, finite and non-negative, of the shapes the classes, the
        component slots and the vocabularies give; ``n_components`` integers in
        ``[1, n_slots]``; no count in a slot beyond a class's components; each class's
        component counts summing to its class count; the record free of NaN. Numeric
        (unbinned) columns are refused.

        Parameters
        ----------
        layout : Layout
            The number of classes, each categorical feature's number of states and the
            numeric columns (there must be none).
        where : str, optional
            Where the statistics are in the model (``"stats_"``), to start error messages.

        Raises
        ------
        ValueError
            If the statistics do not fit, naming the field and the problem.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit import SubclassNaiveBayes
        >>> from bayeskit.stats import Layout
        >>> X = pd.DataFrame({"sky": ["sun", "rain", "sun", "rain"]})
        >>> stats = SubclassNaiveBayes().fit(X, ["play", "stay", "play", "stay"]).stats_
        >>> stats.validate(Layout(2, (2,), ("states",)))  # fits: no output
        >>> stats.validate(Layout(2, (2,), ("states",), 1, ("temp",)))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: stats_.feature_count: a mixture of naive Bayes components has tables ...
        """
        n_classes = layout.n_classes
        total = checks.class_count(self.class_count, f"{where}.class_count", n_classes)
        comp = checks.counts(
            self.component_count,
            f"{where}.component_count",
            ((n_classes, "classes"), (None, "component slots")),
        )
        n_slots = comp.shape[1]
        if n_slots < 1:
            checks.fail(f"{where}.component_count", "has no component slot")
        k = checks.array(
            self.n_components, f"{where}.n_components", ((n_classes, "classes"),), kind="int"
        )
        if (k < 1).any() or (k > n_slots).any():
            checks.fail(
                f"{where}.n_components",
                f"must be integers from 1 to {n_slots} (the component slots), got {k.tolist()}",
            )
        unused = np.arange(n_slots)[None, :] >= k[:, None]
        if (comp[unused] != 0).any():
            checks.fail(
                f"{where}.component_count", "holds counts in slots beyond a class's components"
            )
        if not np.allclose(comp.sum(axis=1), total, rtol=checks.RTOL, atol=0):
            checks.fail(
                f"{where}.component_count",
                f"sums to {comp.sum(axis=1).tolist()} per class, not the class counts "
                f"{total.tolist()}",
            )
        tables = checks.sequence(
            self.feature_count, f"{where}.feature_count", len(layout.n_states), "tables"
        )
        for f, (table, n_states, label) in enumerate(
            zip(tables, layout.n_states, layout.state_names, strict=True)
        ):
            at = f"{where}.feature_count[{f}]"
            dims: tuple[tuple[int, str], ...] = (
                (n_classes, "classes"),
                (n_slots, "component slots"),
                (n_states, label),
            )
            arr = checks.counts(table, at, dims)
            if (arr[unused] != 0).any():
                checks.fail(at, "holds counts in slots beyond a class's components")
            checks.at_most(
                arr.sum(axis=2),
                comp,
                at,
                "the weight counted per (class, component)",
                "a feature counts only rows its component counts (component_count)",
            )
        if layout.n_numeric:
            checks.fail(
                f"{where}.feature_count",
                "a mixture of naive Bayes components has tables for categorical features only, "
                f"but the schema has numeric columns {list(layout.numeric_names)}",
            )
        dims = ((n_classes, "classes"), (n_slots, "component slots"))
        for name, bad in (("log_likelihood", np.inf), ("bic", -np.inf)):
            arr = checks.array(getattr(self, name), f"{where}.{name}", dims)
            if np.isnan(arr).any() or (arr == bad).any():
                checks.fail(f"{where}.{name}", f"holds NaN or {bad}")
        n_iter = checks.array(self.n_iter, f"{where}.n_iter", dims, kind="int")
        if (n_iter < 0).any():
            checks.fail(f"{where}.n_iter", "holds negative numbers of iterations")
