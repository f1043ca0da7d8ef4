"""Learning a classifier from incomplete rows by EM (Zhou, *Machine Learning*, 7.6; Han, Kamber
and Pei, *Data Mining: Concepts and Techniques*, 9.1.2).

Two kinds of incompleteness, one algorithm:

* **Rows without a class label** (semi-supervised learning in the manner of Nigam, McCallum,
  Thrun and Mitchell, 2000). The E-step gives each unlabelled row its posterior ``P(c | x)``
  under the current model; the M-step counts the labelled rows and, for every unlabelled row,
  one *completion* per class with weight ``unlabelled_weight x P(c | x)`` (Nigam's EM-lambda),
  then estimates as from complete data. Because a completion is just a weighted row, this works
  for every counting model, and a model that reads its structure from counts (TAN's tree,
  KDB's parents) chooses it again from the expected counts at every M-step: structural EM.
* **Missing feature values** (``missing="em"``, TAN and KDB). The structure is chosen as
  above (from the available values); then the parameters of that structure are learned by
  EM over the model's own Bayesian network: the E-step is the junction tree's compiled
  expected family counts (:meth:`~bayeskit.networks.JunctionTree.expected_family_counts`),
  with the class of an unlabelled row missing too, and the M-step is the model's own
  estimator applied to them.

For naive Bayes, skipping a missing value when counting (the default) *is* the EM estimate:
with ``P(x_j | c)`` the only table that holds ``x_j``, a row missing ``x_j`` adds ``P(x_j = v |
c)`` of its class to the counts, and ``theta = (n_obs,v + m theta + alpha) / (n_obs + m + K
alpha)`` is solved by ``theta = (n_obs,v + alpha) / (n_obs + K alpha)``, the skipping estimate
(likewise the Gaussian mean and MLE variance). So ``NaiveBayes(missing="em")`` gives the
default's tables, as a test checks against the network EM of :func:`bayeskit.networks.fit_em`.

What EM maximises (``history_``): the observed-data log-likelihood, unlabelled rows weighted by
``unlabelled_weight``, plus the log density of the Dirichlet prior that the smoothing amounts
to (``sum pseudo-count x log theta`` over the tables and the class prior,
:func:`bayeskit.estimate.table_log_prior`). With a smoothing that is a fixed Dirichlet prior
(MLE, Lidstone, Laplace, m-estimate, Dirichlet MAP, BDeu, K2) it never decreases; the
hierarchical smoothings shrink with concentrations learned from the counts, which is no fixed
prior, so for them (and Han's correction) ``history_`` is the log-likelihood alone and need not
rise at every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from bayeskit.classifiers.rows import n_rows, stack_rows, take_rows
from bayeskit.data.codes import value_text, value_texts
from bayeskit.data.rows import distinct_rows
from bayeskit.data.schema import Encoded
from bayeskit.estimate.em import EStep, run_em
from bayeskit.stats import ExpectedCounts, FamilyCounts

__all__ = [
    "EM_PARAMETERS",
    "fit_incomplete",
    "em_parameters_doc",
    "unlabelled_rows",
]

#: Documentation of the EM parameters, which the docstring of each model that takes them writes
#: out (:func:`em_parameters_doc`; a test checks each against it).
EM_PARAMETERS = """{missing}    unlabelled : scalar, optional
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
"""

_MISSING = """    missing : {{"skip", "em"}}, default="skip"
        How rows with missing feature values are learned from. ``"skip"``: a missing value is
        left out of the counts of its feature's tables. ``"em"``:
        {text}
"""

_MISSING_TEXT = {
    True: (
        "the structure is chosen from the available values, then its parameters are learned\n"
        "        by EM over the model's Bayesian network (exact expected family counts from the\n"
        "        junction tree); prediction is unchanged."
    ),
    False: (
        "EM over the missing values; for naive Bayes its fixed point is the skipping\n"
        "        estimate itself (module :mod:`bayeskit.classifiers._incomplete`), so both give\n"
        "        the same model."
    ),
}

#: Documentation of the attributes an EM fit sets, written out likewise.
EM_ATTRIBUTES = """    history_ : list of float
        With unlabelled rows or ``missing="em"``: the objective of each EM iteration (see
        :mod:`bayeskit.classifiers._incomplete`); empty after a fit from complete rows.
    n_iter_ : int
        The M-steps made, the first estimate included (1 for complete rows: counting).
    converged_ : bool
"""


def em_parameters_doc(*, network_em: bool | None) -> str:
    """The text of :data:`EM_PARAMETERS` as a model's docstring writes it out; ``network_em``:
    whether missing values are learned by EM over the model's network (True), equal the
    skipping estimate (False), or cannot occur (None: no ``missing`` parameter).

    Examples
    --------
    >>> print(em_parameters_doc(network_em=None).splitlines()[0])
        unlabelled : scalar, optional
    """
    missing = "" if network_em is None else _MISSING.format(text=_MISSING_TEXT[network_em])
    return EM_PARAMETERS.format(missing=missing)


# --------------------------------------------------------------------------------------------
# unlabelled rows
# --------------------------------------------------------------------------------------------


def unlabelled_rows(y: Any, marker: Any) -> tuple[np.ndarray, np.ndarray]:
    """``y`` as an array and the mask of its unlabelled rows: equal to ``marker`` (or to its
    text, so ``-1`` matches ``"-1"``), or missing (None, NaN)."""
    arr: np.ndarray
    if isinstance(y, pd.Series | pd.Index) and pd.api.types.is_extension_array_dtype(y):
        arr = y.to_numpy(dtype=object)  # a nullable Int64 stays integers, not floats
    else:
        arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        msg = f"y must be 1-D (n_samples,), got shape {arr.shape}"
        raise ValueError(msg)
    texts = value_texts(pd.Series(arr, dtype=object))
    missing = pd.isna(texts)
    # matched as text, both ways: -1 marks -1, -1.0 and "-1"; 0 never marks False
    return arr, missing | (texts == value_text(marker))


# --------------------------------------------------------------------------------------------
# the EM loops
# --------------------------------------------------------------------------------------------


def _count_and_estimate(model, enc, y, w, n_classes: int) -> None:
    """``model``'s statistics counted afresh from the rows (structure included), then its
    tables."""
    if model._has_stats():
        del model.stats_
    model.stats_ = model._count(enc, y, w, n_classes)
    if model.stats_.class_count.sum() <= 0:
        msg = "sample_weight sums to zero: there is nothing to learn from"
        raise ValueError(msg)
    model._after_count(enc, y, w)
    model._reestimate()


def fit_incomplete(model, enc: Any, y: np.ndarray, w: np.ndarray | None, n_classes: int) -> None:
    """Fit ``model`` (schema and ``classes_`` set) by EM from encoded rows ``enc`` whose class
    codes ``y`` are -1 where unlabelled; sets ``stats_``, the tables, ``history_``,
    ``n_iter_`` and ``converged_``."""
    weights = np.ones(len(y)) if w is None else np.asarray(w, dtype=np.float64)
    lam = float(model.unlabelled_weight)
    labelled = np.flatnonzero(y >= 0)
    unlabelled = np.flatnonzero(y < 0)
    if lam == 0.0:
        unlabelled = unlabelled[:0]
    enc_l, y_l, w_l = take_rows(enc, labelled), y[labelled], weights[labelled]
    enc_u, w_u = take_rows(enc, unlabelled), lam * weights[unlabelled]
    # n_iter_ counts the M-steps, the first estimate (from the labelled rows) included
    model.history_, model.n_iter_, model.converged_ = [], 1, True
    _count_and_estimate(model, enc_l, y_l, w_l, n_classes)
    if len(unlabelled):
        classes = np.arange(n_classes)
        repeated = take_rows(enc_u, np.repeat(np.arange(len(unlabelled)), n_classes))
        completed = stack_rows([enc_l, repeated])
        y_all = np.concatenate([y_l, np.tile(classes, len(unlabelled))])

        def e_step(_: Any, __: int) -> EStep:  # the tables live on the model
            objective, post = _objective(model, enc_l, y_l, w_l, enc_u, w_u)
            return EStep(post, objective)

        def m_step(post: np.ndarray) -> None:
            w_all = np.concatenate([w_l, (w_u[:, None] * post).ravel()])
            _count_and_estimate(model, completed, y_all, w_all, n_classes)

        # E-steps: one per M-step, the first estimate's included; the last ends the run
        run = run_em(e_step, m_step, None, max_iter=model.max_iter + 1, tol=model.tol)
        model.history_, model.n_iter_, model.converged_ = run.objective, run.n_iter, run.converged
    if model._missing_by_em(network_only=True):
        missing = isinstance(enc, Encoded) and bool((enc.codes < 0).any())
        if missing or len(unlabelled):
            _network_em(model, enc, y, weights, lam, n_classes)


def _objective(model, enc_l, y_l, w_l, enc_u, w_u) -> tuple[float, np.ndarray]:
    """The EM objective of the current tables, and the posterior of the unlabelled rows."""
    total = model._parameter_log_prior()
    if n_rows(enc_l):
        jll = model._log_likelihood(enc_l) + model.log_prior_
        total += float(np.dot(w_l, jll[np.arange(len(y_l)), y_l]))
    post = np.zeros((0, len(model.classes_)))
    if n_rows(enc_u):
        jll = model._log_likelihood(enc_u) + model.log_prior_
        with np.errstate(invalid="ignore"):
            evidence = logsumexp(jll, axis=1)
            post = np.exp(jll - evidence[:, None])
        dead = ~np.isfinite(evidence)
        if dead.any():  # impossible under every class: the class prior, as prediction says
            post[dead] = np.exp(model.log_prior_ - logsumexp(model.log_prior_))
            evidence = np.where(dead, 0.0, evidence)
        total += float(np.dot(w_u, evidence))
    return total, post


def _network_em(model, enc: Encoded, y: np.ndarray, weights, lam: float, n_classes: int) -> None:
    """Parameter EM for the model's structure over its Bayesian network (module docstring)."""
    from bayeskit.networks import JunctionTree

    structure = model._counts()  # what the structure is read from: kept as it is
    d = enc.codes.shape[1]
    names = set(model.schema_.names)
    class_node = next(
        n for n in (f"class{k or ''}" for k in range(len(names) + 1)) if n not in names
    )
    tree = JunctionTree(model.to_network(class_node=class_node))
    codes = np.empty((len(y), d + 1), dtype=np.int64)
    codes[:, 0] = y
    codes[:, 1:] = enc.codes
    w = np.where(y < 0, lam * weights, weights)
    keep = w > 0
    codes, w = distinct_rows(codes[keep], w[keep], missing="last")
    n_states = np.append(np.asarray(structure.n_states[:-1], dtype=np.int64), n_classes)

    def e_step(_: Any, it: int) -> EStep:  # the tables live on the model
        tables, families = model._network_tables()
        counts, log_pe = tree.expected_family_counts(codes, w, tables)
        if not np.isfinite(log_pe).all():
            msg = (
                f"a row has probability zero under the model (EM iteration {it - 1}); use a "
                "positive alpha"
            )
            raise ValueError(msg)
        objective = float(np.dot(w, log_pe)) + model._parameter_log_prior()
        return EStep((counts, families), objective)

    def m_step(statistics: tuple[list[np.ndarray], list]) -> None:
        counts, families = statistics
        # the class is node 0 of the network and column d of the counts
        fams: list[tuple[int, ...]] = [(d,)]
        flat = [counts[0]]
        for j, (fam, table) in enumerate(zip(families, counts[1:], strict=True)):
            fams.append(fam)
            flat.append(table)
            if len(fam) > 2:  # the naive fallback P(x_j | c) of a feature with parents
                fams.append((d, j))
                flat.append(table.sum(axis=tuple(range(1, table.ndim - 1))))
        expected = FamilyCounts(
            n_states, tuple(fams), np.concatenate([t.ravel() for t in flat]), target=d
        )
        model.stats_ = ExpectedCounts(structure, expected)
        model._reestimate()

    # the EM that sets the tables is this one: from the tables fitted so far, max_iter M-steps
    run = run_em(e_step, m_step, None, max_iter=model.max_iter + 1, tol=model.tol)
    model.history_, model.n_iter_, model.converged_ = run.objective, run.n_iter, run.converged
