"""The family engine: one base that counts, estimates and looks up for every discrete structure.

A classifier of this kind is a set of *families* over the codes of the features and the class
(the class is the last column: column ``d`` when there are ``d`` features). It supplies two
things:

* ``_families(d)``: which families to count (:func:`bayeskit.stats.family_counts`, one pass);
  by default the class, every ``(class, x_i)`` and the all-pairs table ``(class, x_i, x_j)``,
  from which every one-dependence structure and its parameters are read;
* ``_components()``: the structure chosen from ``stats_`` (the parents of each feature), as one
  or more lists of :class:`~bayeskit.stats.lookup.LogFactor`, built with :meth:`_factor`.

Everything else is written here once: numeric columns are discretized (MDL by default), counts
are merged by ``partial_fit`` and regrown with vocabularies, each conditional table is estimated
by the model's smoothing along its child axis, and prediction is one compiled look-up pass
(:class:`~bayeskit.stats.lookup.FamilyTables`). Because structure and parameters are functions of
mergeable counts, ``partial_fit`` over any split of the data followed by re-deriving the
structure equals one ``fit`` (with ``discretize=None`` or categorical data, as cut points are
learned from the first call). The one structure that is not a function of counts alone is
SPODE's automatic super-parent, chosen by a leave-one-out score of the rows (see there).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import logsumexp
from sklearn.utils.validation import check_is_fitted

from bayeskit._compiled import get_num_threads
from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers._checks import (
    _check_smoothing,
    require_categorical,
)
from bayeskit.classifiers._discriminative import DiscriminativeWeights
from bayeskit.classifiers._explain import explain_frame, snap_to_zero
from bayeskit.classifiers._family_helpers import (
    FAMILY_PARAMETERS,
    class_information,
    family_parameters_doc,
    feature_index,
    pair_information,
    with_class_column,
)
from bayeskit.data.schema import Encoded
from bayeskit.estimate import lidstone_equivalent, log_probabilities, table_log_prior
from bayeskit.stats import (
    ExpectedCounts,
    FamilyCounts,
    ScoredCounts,
    family_counts,
    pair_families,
    table_shapes,
)
from bayeskit.stats.families import WithCounts
from bayeskit.stats.lookup import FamilyTables, LogFactor

__all__ = [
    "FAMILY_PARAMETERS",
    "FamilyClassifier",
    "class_information",
    "family_parameters_doc",
    "pair_information",
]

#: Bytes a fit may plan to use; None: the machine's physical memory. Beyond, fitting refuses
#: with a MemoryError that says how much it would need (AnDE with n = 2 on hundreds of features).
MEMORY_LIMIT: int | None = None
# Peak memory of a fit, per count cell: the counts, the flat array they are cut from, the pair
# kernel's layout (up to twice the pairs' cells), the log tables and their packed copy, plus one
# copy per thread of the families the generic kernel counts: 8 bytes each.
_COPIES_PER_CELL = 6


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return 1 << 40


def _check_memory(model: str, families: list, n_states: list[int], n_rows: int) -> None:
    """Refuse, before counting, a set of families whose fit would not fit in memory."""
    cells = sum(math.prod(shape) for shape in table_shapes(n_states, families))
    check_fit_memory(
        8 * cells * (_COPIES_PER_CELL + (get_num_threads() if n_rows else 1)),
        f"{model} would count {len(families):,} families holding {cells:,} cells",
        "use fewer features or categories, or a lower order (AnDE's n)",
    )


def check_fit_memory(need: int, what: str, remedy: str) -> None:
    """Refuse, before allocating, a fit that would need ``need`` bytes (a Python int: no
    overflow), more than :data:`MEMORY_LIMIT`: MemoryError saying what needs them, the sizes
    and ``remedy``."""
    limit = MEMORY_LIMIT if MEMORY_LIMIT is not None else _physical_memory()
    if need > limit:
        msg = (
            f"{what} and need about {need / 2**30:.1f} GiB to fit, more than the "
            f"{limit / 2**30:.1f} GiB available; {remedy}"
        )
        raise MemoryError(msg)


class FamilyClassifier(DiscriminativeWeights, BayesClassifier):
    """Base class of the discrete structure classifiers (see the module docstring)."""

    #: the factors of a model of one structure (set by ``_structure_factors``), which
    #: ``explain`` and ``to_network`` read; None for a model that averages several
    _explain_factors: list[LogFactor] | None = None

    structure_: dict[str, tuple[str, ...]]

    # ------------------------------------------------------------------ hooks
    def _families(self, d: int) -> list[tuple[int, ...]]:
        """The families to count: the class, ``(class, x_i)`` and all ``(class, x_i, x_j)``."""
        return [(d,), *((d, i) for i in range(d)), *pair_families(range(d), (d,))]

    def _check_scores(self) -> None:
        """``stats_.scores``, where the model scores candidates, holds one column per candidate
        (a model file's, or after ``set_params`` changed how many there are)."""
        if not isinstance(self.stats_, ScoredCounts):
            return
        scores, d = self.stats_.scores, self._d
        if scores.shape[1] != self._n_candidates(d):
            msg = (
                f"stats_.scores has shape {scores.shape}, expected {(2, self._n_candidates(d))}"
                f" (one per candidate structure of a {type(self).__name__} over {d} features)"
            )
            raise ValueError(msg)

    def _n_candidates(self, d: int) -> int:
        """How many candidate structures a model that scores them (``stats_.scores``) keeps a
        score of, over ``d`` features."""
        raise NotImplementedError

    def _stored_families(self, d: int) -> list[tuple[int, ...]] | None:
        """The families a fitted model's counts hold, in order (checked when a model file is
        loaded); None where the families are the learned structure itself, which the model
        reads (and checks) with its ``_structure()``."""
        return self._families(d)

    def _validate_stats(self, layout: Any) -> None:
        """The counts of a model file hold the families this model counts, no more, no less,
        or a structure it reads; after EM, the expected counts hold the class and every
        ``(class, x_j)``."""
        model = type(self).__name__
        counts, d = self._counts(), self._d
        try:  # the structure's arguments against the file's features
            self._check_structure(d)
        except ValueError as exc:
            msg = f"params: {exc}"
            raise ValueError(msg) from exc
        self._check_scores()
        expected = self._stored_families(d)
        where = "stats_" if counts is self.stats_ else "stats_.counts"
        if expected is not None:
            counts.require_families(expected, where, layout, model)
        elif isinstance(counts, FamilyCounts):  # (an ensemble's members check their own)
            try:
                self._structure()
            except ValueError as exc:
                msg = f"{where}.families: {exc}"
                raise ValueError(msg) from exc
        if isinstance(self.stats_, ExpectedCounts):
            naive = [(d,), *((d, j) for j in range(d))]
            self.stats_.expected.require_families(
                naive, "stats_.expected", layout, model, exact=False
            )

    def _components(self) -> dict[str, Any]:
        """The look-up structure: keyword arguments of :class:`FamilyTables` (``components``,
        and optionally ``base``, ``gates``, ``fallback``)."""
        raise NotImplementedError

    def _check_structure(self, d: int) -> None:
        """Checks of structure arguments that need the features (run before counting)."""

    # ------------------------------------------------------------------ parameters
    def _check_own_params(self) -> None:
        _check_smoothing(self.alpha, self.smoothing)
        if "parameters" in self._get_param_names():  # SelectiveKDBEnsemble takes no weights
            self._check_weight_options()

    def _feature_index(self, name: str, value: Any) -> int:
        """The position of the feature ``value`` given as argument ``name``: a column label
        (matched as text, so the label ``20`` of a DataFrame column is found by ``20`` or
        ``"20"``), else an integer position; ValueError naming the argument and the features
        otherwise. Labels come first: with columns ``[1, 0, 2]``, ``0`` is the column labelled
        0, the second one."""
        return feature_index(self.schema_, name, value)

    # ------------------------------------------------------------------ learning
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int) -> Any:
        # FamilyCounts here; models that score candidates return ScoredCounts
        d = enc.codes.shape[1]
        if enc.n_samples:  # (a model file's check counts no rows, before the schema is set)
            self._check_structure(d)
        return self._count_families(enc, y, w, n_classes, self._families(d))

    def _count_families(
        self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int, families: list
    ) -> FamilyCounts:
        """Count ``families`` of the rows (the class is column ``d``) in one pass."""
        self._require_categorical(enc)
        d = enc.codes.shape[1]
        n_states = [*self.schema_.n_states.tolist(), n_classes]
        _check_memory(type(self).__name__, families, n_states, enc.n_samples)
        codes = with_class_column(enc.codes, y, n_classes)
        return family_counts(codes, families, n_states, w, target=d)

    def _require_categorical(self, enc: Encoded) -> None:
        """SchemaError naming the numeric columns, which these models cannot count."""
        require_categorical(self, enc)

    def _grow(self, X: Any, stats: Any) -> Any:
        """Grow the vocabularies with ``X``'s new categories and re-lay ``stats`` (any
        statistic with ``regrow``: family counts, scored counts, an ensemble's)."""
        self.schema_, remap = self.schema_.extend(X, self.categories)
        if not remap:
            return stats
        return stats.regrow(remap, [*self.schema_.n_states.tolist(), len(self.classes_)])

    def _estimate(self) -> None:
        self._check_structure(self._d)
        self._check_scores()
        self._explain_factors = None
        self._generative_tables = FamilyTables(n_classes=len(self.classes_), **self._components())
        self._tables = self._generative_tables
        self._apply_weights()

    # ------------------------------------------------------------------ tables
    @property
    def _d(self) -> int:
        return len(self.stats_.n_states) - 1

    def _log_cpt(self, child: int, parents: tuple[int, ...] = ()) -> np.ndarray:
        """``log P(x_child | c, x_parents)``, shape ``(n_classes, *parent states, n_states)``,
        estimated from the family's counts with the model's smoothing."""
        return self._log_cpts([(child, tuple(parents))])[0]

    def _log_cpts(self, families: list[tuple[int, tuple[int, ...]]]) -> list[np.ndarray]:
        """:meth:`_log_cpt` of many ``(child, parents)`` at once: tables gathered and estimated
        a group of one shape at a time (the estimators work along the child axis, table by
        table), so AODE's 2,450 tables on 50 features take a few dozen calls, not 2,450."""
        asked = [(self._d, *parents, child) for child, parents in families]
        out: list[np.ndarray] = [np.empty(0)] * len(asked)
        for positions, stacked in self._grouped_tables(asked):
            logp = log_probabilities(stacked, self.smoothing, self.alpha, batch_axes=1)
            for i, k in enumerate(positions):
                out[k] = logp[i]
        return out

    def _grouped_tables(self, asked: list[tuple[int, ...]]) -> list[tuple[list[int], np.ndarray]]:
        """The count tables of ``asked`` families, stacked a group of one shape at a time; a
        family that was not counted is summed out of a larger one that was
        (:meth:`FamilyCounts.marginal`)."""
        counts = self._table_counts()
        index = counts._layout[0]
        counted = [k for k, fam in enumerate(asked) if tuple(sorted(fam)) in index]
        groups = [
            ([counted[i] for i in positions], stacked)
            for positions, stacked in counts.grouped_tables([asked[k] for k in counted])
        ]
        by_shape: dict[tuple, list[int]] = {}
        others = [k for k in range(len(asked)) if tuple(sorted(asked[k])) not in index]
        tables = {k: counts.marginal(asked[k]) for k in others}
        for k in others:
            by_shape.setdefault(tables[k].shape, []).append(k)
        groups += [(ks, np.stack([tables[k] for k in ks])) for ks in by_shape.values()]
        return groups

    def _factors(
        self, families: list[tuple[int, tuple[int, ...]]], *, fallback: bool = True
    ) -> list[LogFactor]:
        """Log factors of ``(child, parents)`` families; with parents (and ``fallback``),
        ``log P(x | c)`` is a family's fallback for rows where a parent is missing."""
        tables = self._log_cpts(families)
        naive: dict[int, np.ndarray] = {}
        if fallback:
            kids = sorted({c for c, p in families if p})
            naive = dict(zip(kids, self._log_cpts([(c, ()) for c in kids]), strict=True))
        return [
            LogFactor(c, tuple(p), t, naive.get(c) if p else None)
            for (c, p), t in zip(families, tables, strict=True)
        ]

    def _joint_factor(self, columns: tuple[int, ...]) -> LogFactor:
        """The factor that, with the class prior the base adds, gives ``P(c, x_columns)``.

        Estimated prior (``priors=None``): the smoothed joint of the class and the columns (Zhou
        Eq. 7.24: ``(|D_c,x| + alpha) / (|D| + alpha N prod N_i)``) less ``log_prior_``, so the
        class enters through Eq. 7.24 alone; ``prior_alpha`` then matters only for the
        naive-Bayes fallback, and for a class never seen in training: with ``prior_alpha=0``
        its prior is 0 (the factor is 0 and the class is never predicted), otherwise Eq. 7.24's
        pseudo-counts give it a little mass. Given ``priors``: ``log P(x_columns | c)``
        (smoothed over the columns' joint values), so the class enters through the given
        prior."""
        table = self._table_counts().table((self._d, *columns))
        if self.priors is not None:
            flat = table.reshape(table.shape[0], -1)
            cond = log_probabilities(flat, self.smoothing, self.alpha).reshape(table.shape)
            return LogFactor(columns[-1], tuple(columns[:-1]), cond)
        joint = self._joint_log_table(columns)
        prior = self.log_prior_.reshape((-1,) + (1,) * len(columns))
        with np.errstate(invalid="ignore"):
            rel = np.where(np.isfinite(prior), joint - prior, 0.0)
        return LogFactor(columns[-1], tuple(columns[:-1]), rel)

    def _structure_factors(
        self, parents: Mapping[int, tuple[int, ...]], features: list[int] | None = None
    ) -> list[LogFactor]:
        """One component: a factor per feature given its parents; also sets ``structure_``
        (feature name -> parent names) and ``log_cpt_``. Only ``features`` (all by default)
        take part: the others get a zero log table (no evidence) and no entry in
        ``structure_``."""
        names = self.schema_.names
        used = list(range(self._d)) if features is None else sorted(features)
        fitted = self._factors([(j, parents.get(j, ())) for j in used])
        estimated = dict(zip(used, fitted, strict=True))
        n_classes = len(self.classes_)
        zero = {
            j: LogFactor(j, (), np.zeros((n_classes, int(self.stats_.n_states[j]))))
            for j in range(self._d)
            if j not in estimated
        }
        factors = [estimated.get(j) or zero[j] for j in range(self._d)]
        self.structure_ = {names[j]: tuple(names[p] for p in parents.get(j, ())) for j in used}
        self.log_cpt_ = [
            f.log_table.reshape(
                n_classes, math.prod(f.log_table.shape[1:-1]), f.log_table.shape[-1]
            )
            for f in factors
        ]
        self._explain_factors = factors
        return factors

    # ------------------------------------------------------------------ reading the tables
    def conditional_log_table(self, feature: Any, given: tuple = ()) -> np.ndarray:
        """``log P(x_feature | c, x_given)`` as this model estimates it from its counts, shape
        ``(n_classes, *states of given, states of feature)`` (features by name or position).

        Parameters
        ----------
        feature : str or int
            The child feature: a column name, or its position among the features.
        given : tuple of str or int, default=()
            The features it is conditioned on besides the class (names or positions); the
            model must have counted their family with the child's (every pair for the
            one-dependence models).

        Returns
        -------
        log_table : ndarray of shape (n_classes, states of each given feature..., states of feature)
            The smoothed log conditional probabilities: classes in ``classes_`` order, states
            in the order of ``schema_.column(name).categories``; each table sums to 1 along
            its last axis.

        Raises
        ------
        NotFittedError
            If the model is not fitted.
        ValueError
            If ``feature`` or a ``given`` is not a feature of the model.
        KeyError
            If the model counted no family holding the class, ``feature`` and ``given``.

        Examples
        --------
        >>> from bayeskit.classifiers import AODE
        >>> from bayeskit.data import datasets
        >>> X, y = datasets.load("watermelon3")
        >>> model = AODE().fit(X, y)   # Zhou Eq. 7.25: (3 + 1) / (6 + 3)
        >>> j = model.schema_.column("umbilicus").categories.index("hollow")
        >>> v = model.schema_.column("sound").categories.index("muffled")
        >>> c = list(model.classes_).index("true")
        >>> table = model.conditional_log_table("umbilicus", given=("sound",))
        >>> round(float(np.exp(table[c, v, j])), 3)
        0.444
        """
        check_is_fitted(self, "stats_")
        child = self._feature_index("feature", feature)
        parents = tuple(self._feature_index("given", g) for g in given)
        return self._log_cpt(child, parents)

    def joint_log_table(self, features: tuple) -> np.ndarray:
        """``log P(c, x_features)``, the smoothed joint of the class and ``features`` (Zhou Eq.
        7.24), shape ``(n_classes, *states of features)``.

        Parameters
        ----------
        features : tuple of str or int
            The features of the joint (names or positions), ``()`` for the class alone; the
            model must have counted their family (up to two features for the
            one-dependence models).

        Returns
        -------
        log_table : ndarray of shape (n_classes, states of each feature...)
            The smoothed log joint probabilities, classes in ``classes_`` order and states in
            the order of ``schema_.column(name).categories``; the table sums to 1.

        Raises
        ------
        NotFittedError
            If the model is not fitted.
        ValueError
            If an entry of ``features`` is not a feature of the model.
        KeyError
            If the model counted no family holding the class and ``features``.

        Examples
        --------
        >>> from bayeskit.classifiers import AODE
        >>> from bayeskit.data import datasets
        >>> X, y = datasets.load("watermelon3")
        >>> model = AODE().fit(X, y)   # Zhou Eq. 7.24: (6 + 1) / (17 + 3 * 2)
        >>> v = model.schema_.column("sound").categories.index("muffled")
        >>> c = list(model.classes_).index("true")
        >>> round(float(np.exp(model.joint_log_table(("sound",))[c, v])), 3)
        0.304
        """
        check_is_fitted(self, "stats_")
        return self._joint_log_table(tuple(self._feature_index("features", f) for f in features))

    def _joint_log_table(self, columns: tuple[int, ...]) -> np.ndarray:
        """:meth:`joint_log_table` of feature positions (never read as column labels)."""
        table = self._table_counts().table((self._d, *columns))
        flat = log_probabilities(table.ravel(), self.smoothing, self.alpha)
        return flat.reshape(table.shape)

    def _counts(self) -> FamilyCounts:
        """The family counts of ``stats_`` the structure is read from (inside
        :class:`ScoredCounts` where scores come too, or :class:`ExpectedCounts` after EM)."""
        return self.stats_.counts if isinstance(self.stats_, WithCounts) else self.stats_

    def _table_counts(self) -> FamilyCounts:
        """The family counts the tables are estimated from: the expected counts of EM
        (``missing="em"``), else those of :meth:`_counts`."""
        stats = self.stats_
        return stats.expected if isinstance(stats, ExpectedCounts) else self._counts()

    # ------------------------------------------------------------------ EM
    def _network_tables(self) -> tuple[list[np.ndarray], list[tuple[int, ...]]]:
        """The CPTs of :meth:`to_network` (class prior first, then each feature's table over
        ``(class, parents, x_j)``) and each feature's family as code columns, for the E-step of
        :mod:`bayeskit.classifiers._incomplete`."""
        d = self._d
        prior = np.exp(self.log_prior_ - logsumexp(self.log_prior_))
        factors = self._explain_factors
        if factors is None:  # (as iterating None did)
            msg = f"{type(self).__name__} has no factor per feature"
            raise TypeError(msg)
        tables = [prior, *(np.exp(f.log_table) for f in factors)]
        return tables, [(d, *f.parents, f.child) for f in factors]

    def _table_log_prior(self) -> float:
        # log_cpt_ is an optional fitted attribute: a model of one structure sets it (with
        # structure_), one that averages several (AODE, NBTree, the ensembles) has none, and
        # no declared flag tells them apart (_explain_factors is also set by AODE's naive
        # fallback). A class default of None would show a log_cpt_ those models do not have.
        tables = getattr(self, "log_cpt_", None)
        if tables is None:
            return 0.0
        return table_log_prior(tables, self.smoothing, self.alpha)

    # ------------------------------------------------------------------ leave-one-out
    def _loo_alpha(self, n_states: int) -> float:
        """The Lidstone pseudo-count a leave-one-out pass scores this model's smoothing with."""
        return lidstone_equivalent(self.smoothing, self.alpha, n_states)

    def _loo_priors(self, class_count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The class terms of a leave-one-out pass: ``log(n_c + prior_alpha)`` for the other
        classes and ``log(n_c - 1 + prior_alpha)`` for the row's own (their common denominator
        cancels), or the given ``priors`` for both."""
        with np.errstate(divide="ignore"):  # a class never seen, with prior_alpha=0
            if self.priors is not None:
                given = np.log(np.asarray(self.priors, dtype=np.float64))
                return given, given
            kept = np.log(class_count + self.prior_alpha)
            left = np.log(np.maximum(class_count - 1.0, 0.0) + self.prior_alpha)
        return kept, left

    # ------------------------------------------------------------------ prediction
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        jll = np.zeros((enc.n_samples, len(self.classes_)))
        return self._tables.add_to(jll, enc.codes)

    def to_network(self, class_node: Any = "class") -> Any:
        """The model as a :class:`~bayeskit.networks.BayesianNetwork`: the class a root named
        ``class_node``, each feature a node whose parents are the class and its feature
        parents, with the model's own (smoothed) tables as CPTs, in their axis order. For
        complete rows the network's ``P(class | x)`` is the model's. Defined for models of one
        structure (naive Bayes, TAN, SPODE, KDB, SelectiveKDB; a feature SelectiveKDB left out
        becomes an unconnected node); AODE and AnDE average several, NBTree's leaves are no
        feature: AttributeError.

        Parameters
        ----------
        class_node : str, default="class"
            The name of the class's node in the network.

        Returns
        -------
        network : BayesianNetwork
            The class and the features as nodes (binned features with their bins as states),
            the model's structure as edges, its smoothed tables as CPTs.

        Raises
        ------
        NotFittedError
            If the model is not fitted.
        AttributeError
            If the model averages several structures (AODE, AnDE) or is an NBTree.

        Examples
        --------
        >>> from bayeskit.classifiers import TAN
        >>> from bayeskit.data import datasets
        >>> X, y = datasets.load("watermelon3")
        >>> network = TAN().fit(X, y).to_network()
        >>> sorted(network.dag.parents("umbilicus"))
        ['class', 'texture']
        """
        check_is_fitted(self, "stats_")
        self._refuse_weighted("to_network")
        factors = self._explain_factors
        if factors is None:
            msg = (
                f"{type(self).__name__} is no single network over its features: to_network is "
                "not defined"
            )
            raise AttributeError(msg)
        from bayeskit.classifiers._export import network_from_factors

        return network_from_factors(self, factors, class_node)

    def explain(self, X: Any, *, as_frame: bool = False) -> np.ndarray | pd.DataFrame:
        """Per-feature evidence for each class: ``log P(x_j | c, pa_j) - log P(x_j | pa_j)``,
        where ``P(x_j | pa_j) = sum_c P(c) P(x_j | c, pa_j)`` is that family's term averaged
        over the classes under the prior. Positive: the feature's value (given its parents)
        speaks for the class. Shape ``(n_samples, n_features, n_classes)``, 0 where ``x_j`` is
        missing; ``as_frame=True`` gives the long table of :meth:`NaiveBayes.explain`.

        Defined for models of one structure (not for the averaged AODE / AnDE).

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples to explain, with the features the model was fitted on.
        as_frame : bool, default=False
            Return a long DataFrame (columns ``row``, ``feature``, ``value``, ``class`` and
            ``contribution``, one row per sample, feature and class) instead of an array.

        Returns
        -------
        evidence : ndarray of shape (n_samples, n_features, n_classes) or DataFrame
            Each feature's evidence (nats) for each class, features in ``schema_.names``
            order and classes in ``classes_`` order.

        Raises
        ------
        AttributeError
            If the model averages several structures (AODE, AnDE, NBTree's leaves).

        Examples
        --------
        >>> from bayeskit.classifiers import TAN
        >>> from bayeskit.data import datasets
        >>> X, y = datasets.load("watermelon3")
        >>> model = TAN().fit(X, y)
        >>> model.explain(X[:1])[0, :2].round(3) + 0.0  # color (no evidence), root
        array([[ 0.   ,  0.   ],
               [-0.834,  0.488]])
        """
        self._refuse_weighted("explain")
        factors = self._explain_factors
        if factors is None:
            msg = f"{type(self).__name__} averages several structures: explain is not defined"
            raise AttributeError(msg)
        enc = self._encode_for_predict(X)
        single = FamilyTables([[f] for f in factors], n_classes=len(self.classes_))
        fll = single.component_terms(enc.codes)  # (n, d, n_classes)
        observed = enc.codes >= 0
        with np.errstate(invalid="ignore"):
            out = fll - logsumexp(fll + self.log_prior_, axis=2, keepdims=True)
        out = snap_to_zero(np.where(observed[:, :, None] & np.isfinite(out), out, 0.0))
        if not as_frame:
            return out
        return explain_frame(self, X, out)
