"""An ensemble of selective KDBs (after Zhang, Petitjean and Buntine's ESKDB, 2020): members that
differ by the rows' weights and by the order of their features, whose posteriors are averaged.

One selective KDB chooses one structure; on small or hard data another, nearly as good, would
predict otherwise, and averaging such models lowers the variance that a single choice carries.
Each member is a :class:`~bayeskit.classifiers.SelectiveKDB` counted with its own weights:
Poisson(1) times the row's weight (online bagging, Oza and Russell 2001; the counts stay
mergeable, so ``partial_fit`` works as for one model), and with its features ranked by
``I(x; y)`` times a random factor ``exp(order_noise * G)``, ``G`` standard Gumbel, so that it
tries other parents and another selection. Member 0 is the selective KDB of the rows as given.

Numeric columns are binned by each member on its own weighted rows (``cut_points="per-member"``):
the MDL cut points of a bootstrap sample move, and members that see a column at other cuts
average into a finer, smoother step function of it than one set of cuts gives (the variance
that bagging averages away includes the discretization's; compare Yang and Webb's argument
that naive Bayes' bins trade bias for variance). The ensemble's schema keeps those columns
numeric; each member's counts are laid out by its own bins (``stats_.cuts``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import logsumexp

from bayeskit.classifiers._checks import _check_choice, _check_number
from bayeskit.classifiers._params import store_parameters
from bayeskit.classifiers._predict import normalise
from bayeskit.classifiers.selective_kdb import SelectiveKDB
from bayeskit.data.discretize import Discretizer
from bayeskit.data.kinds import CATEGORICAL
from bayeskit.data.schema import Encoded, Schema
from bayeskit.stats import EnsembleCounts, FamilyCounts

__all__ = ["SelectiveKDBEnsemble"]

#: The values of ``cut_points``.
CUT_POINTS = ("per-member", "shared")


class _Member(SelectiveKDB):
    """A member of the ensemble: its features ranked by ``I(x; y)`` times ``jitter``."""

    jitter: np.ndarray | None = None

    def _order_scores(self, pairs: FamilyCounts, d: int) -> np.ndarray:
        scores = super()._order_scores(pairs, d)
        return scores if self.jitter is None else scores * self.jitter[:d]


class SelectiveKDBEnsemble(SelectiveKDB):
    """Ensemble of selective k-dependence Bayes classifiers: the posterior averaged over
    ``n_estimators`` :class:`SelectiveKDB` members that differ by their rows' weights, their
    features' order and (by default) the cut points of their numeric columns (after Zhang,
    Petitjean and Buntine's ESKDB, 2020).

    Member ``i > 0`` counts each row with weight ``Poisson(1)`` times its own (online bagging:
    the counts stay sums over rows, so ``partial_fit`` adds chunks as for one model) and ranks
    the features by ``I(x; y) exp(order_noise * G_j)``, ``G_j`` standard Gumbel, before taking
    parents and choosing ``k'`` and the features by leave-one-out as SelectiveKDB does. Member
    0 is the SelectiveKDB of the rows as given. ``P(c | x)`` is the mean of the members'
    posteriors; :meth:`predict_joint_log_proba` is ``log P(c)`` plus the log of that mean over
    ``P(c)`` (no single joint exists), so normalising it gives the mean. The random numbers
    come from ``random_state``, the member and the rows counted before the call, so a fit is
    reproducible and a saved model predicts the same; ``partial_fit`` in chunks draws other
    weights than one ``fit`` on the same rows (member 0 excepted), so the two agree only in
    distribution.

    Averaging costs ``n_estimators`` times a SelectiveKDB's time and memory. On the benchmark
    suite (benchmarks/RESULTS.md) it lowers the mean log-loss and wins most on small data sets
    and on those where one structure is a hard choice.

    Parameters
    ----------
    n_estimators : int, default=10
        The number of members.
    order_noise : float, default=0.5
        The scale of the random factor on each feature's ``I(x; y)``, in nats of its log (0:
        every member orders the features as SelectiveKDB does, and differs by its weights only).
    cut_points : {"per-member", "shared"}, default="per-member"
        Where numeric columns are binned (by ``discretize``): "per-member", each member on
        its own weighted rows, so that members see a column at different cuts and their mean
        is a finer function of it; "shared", once for the ensemble on the rows as given.
        Categorical data is the same either way. On the 11 numeric or mixed sets of the
        benchmark suite "per-member" took the mean log-loss from 0.2864 to 0.2734 and the
        accuracy from 0.8858 to 0.8907 (benchmarks/RESULTS.md).
    random_state : int, default=0
        Seed of the members' weights and orders.
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
        As :class:`SelectiveKDB`, for each member.
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

    Attributes
    ----------
    classes_, schema_, class_count_, log_prior_ :
        As in :class:`NaiveBayes` (of the rows as given).
    stats_ : EnsembleCounts
        Each member's family counts and leave-one-out scores, and with per-member cut points
        each member's (``stats_.cuts``).
    members_ : list of SelectiveKDB
        The members, fitted (member 0 on the rows as given).

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> model = SelectiveKDBEnsemble(n_estimators=3, k=3).fit(X, y)
    >>> len(model.members_), model.predict_proba(X.iloc[:2]).shape
    (3, (2, 4))
    """

    #: not a sum of statistics over partitions (each member chooses its structure on the
    #: first rows it sees): fit_chunks, not bayeskit.dask
    _distributable = False

    #: fit_chunks is partial_fit chunk by chunk: each member's structure is chosen on the
    #: first chunk (its own weighted rows), its counts and scores grow with the others
    _chunks_as_partial_fit = True

    def __init__(
        self,
        *,
        n_estimators: int = 10,
        order_noise: float = 0.5,
        cut_points: str = "per-member",
        random_state: int = 0,
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
    ):
        store_parameters(self, locals())

    def _check_own_params(self) -> None:
        super()._check_own_params()
        _check_number("n_estimators", self.n_estimators, low=1, integer=True)
        _check_number("order_noise", self.order_noise, low=0)
        _check_number("random_state", self.random_state, low=0, integer=True)
        _check_choice("cut_points", self.cut_points, CUT_POINTS)

    @property
    def _own_cuts(self) -> bool:
        """Whether each member bins the numeric columns itself."""
        return self.cut_points == "per-member" and self.discretize is not None

    def _binning(self) -> str | None:
        """Numeric columns stay numeric in the ensemble's schema where members bin them."""
        return None if self._own_cuts else super()._binning()

    def _member_schema(self, cuts: tuple | None) -> Schema:
        """The schema a member counts and predicts with: the ensemble's, its numeric columns
        binned at ``cuts`` when the member has its own."""
        return self.schema_ if cuts is None else self.schema_.binned(cuts)

    def _member_rows(self, enc: Encoded, member: SelectiveKDB) -> Encoded:
        """Rows the ensemble encoded, as ``member`` reads them (its own bins)."""
        if member.schema_ is self.schema_:
            return enc
        return self.schema_.bin_encoded(enc, member.schema_)

    def _fit_cuts(self, enc: Encoded, y: np.ndarray, n_classes: int, w) -> tuple | None:
        """A member's cut points of the numeric columns, from its weighted rows (None: the
        schema has no numeric column, or binning is shared)."""
        if not self._own_cuts or not self.schema_.numeric:
            return None
        disc = Discretizer(self.discretize, self.n_bins).fit(enc.values, y, n_classes, w)
        return tuple(np.asarray(c, dtype=np.float64) for c in disc.cuts_)

    # ------------------------------------------------------------------ members
    def _member(self, stats=None, jitter=None, cuts=None) -> _Member:
        """A SelectiveKDB with this model's parameters, vocabularies and classes, and its own
        bins of the numeric columns where it has them."""
        shared = [p for p in SelectiveKDB._get_param_names() if p in self._get_param_names()]
        member = _Member(**{p: getattr(self, p) for p in shared})  # members are generative
        member.schema_ = self._member_schema(cuts)
        state = vars(self)
        for name in ("classes_", "n_features_in_", "feature_names_in_"):
            if name in state:
                setattr(member, name, state[name])
        if stats is not None:
            member.stats_ = stats
        member.jitter = jitter
        return member

    def _draws(self, i: int, n: int, d: int, seen: float) -> tuple[np.ndarray, np.ndarray]:
        """Member ``i``'s Poisson(1) row weights for a call of ``n`` rows after ``seen`` rows
        (weighted) were counted, and its order factors."""
        rng = np.random.default_rng([int(self.random_state), i, int(round(seen))])
        weights = rng.poisson(1.0, n).astype(np.float64)
        jitter = np.exp(float(self.order_noise) * rng.gumbel(size=d))
        return weights, jitter

    # ------------------------------------------------------------------ learning
    def _count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None, n_classes: int):
        held = self.stats_.members if self._has_stats() else None
        if held is not None and len(held) != self.n_estimators:
            msg = (
                f"the model holds {len(held)} members, but n_estimators={self.n_estimators}: "
                "partial_fit cannot change the number of members (call fit)"
            )
            raise ValueError(msg)
        seen = float(held[0].class_count.sum()) if held else 0.0
        d = enc.codes.shape[1] + enc.values.shape[1]
        members, weights, all_cuts = [], [], []
        for i in range(int(self.n_estimators)):
            mine, jitter = w, None
            if i:
                draw, jitter = self._draws(i, enc.n_samples, d, seen)
                mine = draw if w is None else draw * w
            if held:  # partial_fit: the member's structure, order and bins are chosen
                cuts = self._cuts_of(i)
                member = self._member(held[i], cuts=cuts)
            else:
                cuts = self._fit_cuts(enc, y, n_classes, mine)
                member = self._member(jitter=jitter, cuts=cuts)
            members.append(member._count(self._member_rows(enc, member), y, mine, n_classes))
            weights.append(mine)
            all_cuts.append(cuts)
        if enc.n_samples:  # for the leave-one-out pass of this call only
            self._call_weights = weights
        cuts_held = tuple(c for c in all_cuts if c is not None)
        return EnsembleCounts(tuple(members), cuts_held if cuts_held else None)

    def _after_count(self, enc: Encoded, y: np.ndarray, w: np.ndarray | None) -> None:
        weights = self.__dict__.pop("_call_weights")
        scored = []
        for i, (stats, mine) in enumerate(zip(self.stats_.members, weights, strict=True)):
            member = self._member(stats, cuts=self._cuts_of(i))
            member._after_count(self._member_rows(enc, member), y, mine)
            scored.append(member.stats_)
        self.stats_ = EnsembleCounts(tuple(scored), self.stats_.cuts)

    def _cuts_of(self, i: int) -> tuple | None:
        """Member ``i``'s cut points as held (None: it bins nothing itself)."""
        return None if self.stats_.cuts is None else self.stats_.cuts[i]

    def _grow(self, X: Any, stats: Any) -> Any:
        """Grown vocabularies; with per-member bins, each member's columns re-laid at their
        places among its binned ones."""
        if stats.cuts is None:
            return super()._grow(X, stats)
        self.schema_, remap = self.schema_.extend(X, self.categories)
        if not remap:
            return stats
        at = [p for p, c in enumerate(self.schema_.columns) if c.kind == CATEGORICAL]
        remap = {at[k]: v for k, v in remap.items()}
        states = [
            [*self.schema_.binned(cuts).n_states.tolist(), len(self.classes_)]
            for cuts in stats.cuts
        ]
        return stats.regrow(remap, states)

    def _validate_stats(self, layout: Any) -> None:
        """One member per estimator, each as a SelectiveKDB's (a model file's counts)."""
        if len(self.stats_.members) != self.n_estimators:
            msg = (
                f"stats_.members: holds {len(self.stats_.members)} members, expected "
                f"n_estimators={self.n_estimators}"
            )
            raise ValueError(msg)
        cuts = self.stats_.cuts
        if (cuts is not None) != (self._own_cuts and bool(self.schema_.numeric)):
            own = "holds" if cuts is not None else "lacks"
            msg = (f"stats_.cuts: the file {own} members' cut points, but the model's schema "
                   f"has {len(self.schema_.numeric)} numeric column(s) and cut_points="
                   f"{self.cut_points!r}, discretize={self.discretize!r}")  # fmt: skip
            raise ValueError(msg)
        for i, stats in enumerate(self.stats_.members):
            try:
                own = self.stats_.member_layout(layout, i)
                self._member(stats, cuts=self._cuts_of(i))._validate_stats(own)
            except ValueError as exc:
                msg = f"stats_.members[{i}]{str(exc).removeprefix('stats_')}"
                raise ValueError(msg) from exc

    def _estimate(self) -> None:
        if len(self.stats_.members) != self.n_estimators:
            msg = (
                f"stats_ holds {len(self.stats_.members)} members, expected n_estimators="
                f"{self.n_estimators}"
            )
            raise ValueError(msg)
        self.members_ = [
            self._member(stats, cuts=self._cuts_of(i))._reestimate()
            for i, stats in enumerate(self.stats_.members)
        ]

    # ------------------------------------------------------------------ prediction
    def _log_likelihood(self, enc: Encoded) -> np.ndarray:
        """``log mean_m P_m(c | x) - log P(c)``: the base adds the prior back and normalises,
        which leaves the members' mean posterior as it is."""
        posts = []
        for m in self.members_:
            log_joint = m._log_likelihood(self._member_rows(enc, m)) + m.log_prior_
            posts.append(normalise(log_joint, m.log_prior_))
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = logsumexp(np.stack(posts), axis=0) - np.log(len(posts))
            out = mean - self.log_prior_
        out[:, np.isneginf(self.log_prior_)] = -np.inf  # a class of prior 0 stays at 0
        return out

    def explain(self, X: Any, *, as_frame: bool = False):
        """Not defined for an ensemble, whose members have structures of their own: always
        raises; explain a member (``members_[i].explain``) instead.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples (not read).
        as_frame : bool, default=False
            Ignored.

        Raises
        ------
        AttributeError
            Always.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": list("uuvvuv"), "b": list("pqpqqp")})
        >>> model = SelectiveKDBEnsemble(n_estimators=2).fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.explain(X)
        Traceback (most recent call last):
        AttributeError: SelectiveKDBEnsemble averages several models: explain is not defined
        >>> model.members_[0].explain(X).shape
        (6, 2, 2)
        """
        msg = f"{type(self).__name__} averages several models: explain is not defined"
        raise AttributeError(msg)

    def conditional_log_table(self, feature: Any, given: tuple = ()) -> np.ndarray:
        """Not defined for an ensemble, whose members estimate tables of their own: always
        raises; read a member's (``members_[i].conditional_log_table``).

        Parameters
        ----------
        feature : str or int
            The child feature (not read).
        given : tuple of str or int, default=()
            The features conditioned on (not read).

        Returns
        -------
        log_table : ndarray
            Never: the method always raises.

        Raises
        ------
        AttributeError
            Always.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": list("uuvvuv"), "b": list("pqpqqp")})
        >>> model = SelectiveKDBEnsemble(n_estimators=2).fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.conditional_log_table("a")
        Traceback (most recent call last):
        AttributeError: SelectiveKDBEnsemble has one table per member: read members_[i]'s
        >>> model.members_[0].conditional_log_table("a").shape
        (2, 2)
        """
        msg = f"{type(self).__name__} has one table per member: read members_[i]'s"
        raise AttributeError(msg)

    def joint_log_table(self, features: tuple) -> np.ndarray:
        """Not defined for an ensemble, whose members estimate tables of their own: always
        raises; read a member's (``members_[i].joint_log_table``).

        Parameters
        ----------
        features : tuple of str or int
            The features of the joint (not read).

        Returns
        -------
        log_table : ndarray
            Never: the method always raises.

        Raises
        ------
        AttributeError
            Always.

        Examples
        --------
        >>> import pandas as pd
        >>> X = pd.DataFrame({"a": list("uuvvuv"), "b": list("pqpqqp")})
        >>> model = SelectiveKDBEnsemble(n_estimators=2).fit(X, [0, 0, 1, 1, 0, 1])
        >>> model.joint_log_table(("a",))
        Traceback (most recent call last):
        AttributeError: SelectiveKDBEnsemble has one table per member: read members_[i]'s
        >>> model.members_[0].joint_log_table(("a",)).shape
        (2, 2)
        """
        msg = f"{type(self).__name__} has one table per member: read members_[i]'s"
        raise AttributeError(msg)
