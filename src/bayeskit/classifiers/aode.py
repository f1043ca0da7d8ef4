"""Averaged one-dependence estimators: AODE (Webb, Boughton and Wang 2005; Zhou Eqs. 7.23-7.25)
and its generalisation AnDE (Webb, Boughton, Zheng, Ting and Salem 2012)."""

from __future__ import annotations

import itertools
from typing import Any

from bayeskit.classifiers._checks import _check_number
from bayeskit.classifiers._family import FamilyClassifier
from bayeskit.classifiers._params import store_parameters

__all__ = ["AODE", "AnDE"]


class AnDE(FamilyClassifier):
    """Averaged n-dependence estimators: the mean of every SPODE with ``n`` super-parents.

    For each set ``S`` of ``n`` features whose joint value in the row was seen at least ``m``
    times in training, ``P(c, x_S) prod_{j not in S} P(x_j | c, x_S)`` is an estimate of
    ``P(c, x)``; AnDE averages them (Zhou Eq. 7.23 for ``n = 1``). Where no set qualifies (or
    its features are missing) it falls back to naive Bayes, as Webb et al. do. ``n = 0`` is
    naive Bayes, ``n = 1`` is AODE. Estimates are Zhou Eqs. (7.24)-(7.25) with ``alpha`` as the
    pseudo-count: ``P(c, x_S) = (|D_{c,x_S}| + alpha) / (|D_S| + alpha N prod_{i in S} N_i)``
    and ``P(x_j | c, x_S) = (|D_{c,x_S,x_j}| + alpha) / (|D_{c,x_S}| + alpha N_j)``.

    The model counts every family ``(class, x_S, x_j)``: ``n + 1`` features at a time, all in
    one pass and all mergeable, so ``partial_fit`` is exact. That is ``C(d, n + 1)`` tables: fine
    for ``n = 1`` (the pair table), heavy for ``n = 2`` beyond a few dozen features.

    Missing values: a set with a missing feature does not take part in that row; a missing
    child contributes no factor.

    The class enters through ``P(c, x_S)`` (Eq. 7.24), so ``prior_alpha`` matters only for the
    naive-Bayes fallback and for a class never seen in training (given to ``partial_fit``'s
    ``classes``): ``prior_alpha=0`` gives it prior 0, so it is never predicted. Given
    ``priors`` replace Eq. 7.24's class term: the members are ``P(c) P(x_S | c) prod ...``.

    Parameters
    ----------
    n : int, default=2
        Number of super-parents of each member (0 <= n <= number of features).
    m : float, default=30
        Frequency limit ``m'`` (Zhou Eq. 7.23): a super-parent value must occur at least ``m``
        times (weighted) in training to take part. 30 is Webb et al.'s and Zhou's value; Weka's
        AODE defaults to 1.
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
    stats_ : FamilyCounts
        Counts of every family of the class with up to ``n + 1`` features.
    structure_ : tuple of tuple of str
        The super-parent sets averaged over (each of ``n`` feature names).

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("car")
    >>> round(AnDE(n=2).fit(X, y).score(X, y), 3)
    0.986
    """

    # the parent sets of the members, not a feature's parents as in the other family models
    structure_: tuple[tuple[str, ...], ...]  # type: ignore[assignment]

    def __init__(
        self,
        *,
        n: int = 2,
        m: float = 30,
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

    def _order(self) -> int:
        return self.n

    def _check_own_params(self) -> None:
        super()._check_own_params()
        if "n" in self.get_params(deep=False):
            _check_number("n", self.n, low=0, integer=True)
        _check_number("m", self.m, low=0)

    def _check_structure(self, d: int) -> None:
        if self._order() > d:
            msg = f"n={self._order()} is larger than the number of features (n_features={d})"
            raise ValueError(msg)

    def _families(self, d: int) -> list[tuple[int, ...]]:
        fams = [(d,), *((d, i) for i in range(d))]
        for size in range(2, self._order() + 2):
            fams += [(d, *s) for s in itertools.combinations(range(d), size)]
        return fams

    def _components(self) -> dict[str, Any]:
        d, n = self._d, self._order()
        names = self.schema_.names
        naive = self._factors([(j, ()) for j in range(d)])
        if n == 0:  # naive Bayes: one structure, so explain is defined
            self.structure_ = ((),)
            self._explain_factors = naive
            return {"components": [naive]}
        members = list(itertools.combinations(range(d), n))
        # no fallback tables: the gate opens only where every parent is observed
        children = [(j, parents) for parents in members for j in range(d) if j not in parents]
        factors = iter(self._factors(children, fallback=False))
        gates: list[tuple[tuple[int, ...], Any] | None]
        components, gates, sets = [], [], []
        for parents in members:
            comp = [self._joint_factor(parents)]
            comp += [next(factors) for j in range(d) if j not in parents]
            seen = self.stats_.table((d, *parents)).sum(axis=0)
            components.append(comp)
            gates.append((parents, seen >= self.m))
            sets.append(tuple(names[p] for p in parents))
        self.structure_ = tuple(sets)
        components.append(naive)
        gates.append(None)
        return {"components": components, "gates": gates, "fallback": len(components) - 1}


class AODE(AnDE):
    """Averaged one-dependence estimators (Webb, Boughton and Wang 2005; Zhou Eq. 7.23).

    Every feature in turn is the super-parent of all the others; the SPODEs whose super-parent
    value was seen at least ``m`` times are averaged, and naive Bayes is used where none is.
    Estimates are Zhou Eqs. (7.24)-(7.25) (Laplace with ``alpha = 1``). No structure is
    searched, so fitting is one counting pass over the data and ``partial_fit`` is exact. This
    is :class:`AnDE` with ``n = 1``; see there for missing values.

    Parameters
    ----------
    m : float, default=30
        Frequency limit ``m'``: a super-parent value must occur at least ``m`` times (weighted)
        in training for its SPODE to take part (Weka's AODE defaults to 1).
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
    stats_ : FamilyCounts
        Counts of the class, every ``(class, x_i)`` and every ``(class, x_i, x_j)``.
    structure_ : tuple of tuple of str
        The super-parents, one per SPODE.

    Examples
    --------
    >>> from bayeskit.data import datasets
    >>> X, y = datasets.load("watermelon3")
    >>> model = AODE(m=0, discretize="mdl").fit(X, y)
    >>> model.predict(X.iloc[:2]).tolist()
    ['true', 'true']
    """

    def __init__(
        self,
        *,
        m: float = 30,
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

    def _order(self) -> int:
        return 1
