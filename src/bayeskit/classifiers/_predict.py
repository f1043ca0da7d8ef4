"""Prediction every classifier shares: the joint log-likelihood a model computes plus its class
prior, the posterior normalised in log space, and decisions through :mod:`bayeskit.decision`.

:class:`Prediction` is one of :class:`~bayeskit.classifiers.BayesClassifier`'s bases: it reads
the model's ``_log_likelihood`` hook, ``log_prior_`` and ``classes_``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from bayeskit._warnings import warn
from bayeskit.decision import bayes_decision, cost_matrix, decide_labels
from bayeskit.exceptions import ZeroEvidenceWarning
from bayeskit.stats.lookup import log_normalise_rows

__all__ = ["Prediction", "normalise"]


class Prediction:
    """``predict_*`` and ``decide``, written once from ``_log_likelihood`` and the prior."""

    classes_: np.ndarray
    log_prior_: np.ndarray
    # defined by BayesClassifier and the models
    _encode_for_predict: Callable[[Any], Any]
    _log_likelihood: Callable[[Any], np.ndarray]

    def predict_joint_log_proba(self, X: Any) -> np.ndarray:
        """``log P(c) + log P(x | c)`` for every class: the unnormalised log posterior.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on (matched by name where
            both have names, else by position); missing values are allowed.

        Returns
        -------
        jll : ndarray of shape (n_samples, n_classes)
            The joint log-likelihood of each sample and class, classes in ``classes_`` order;
            ``-inf`` where a class finds the sample impossible.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
        >>> model.predict_joint_log_proba(X.head(2)).round(3)
        array([[-0.981, -2.079],
               [-2.079, -0.981]])
        """
        enc = self._encode_for_predict(X)
        return self._log_likelihood(enc) + self.log_prior_

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Log posterior ``log P(c | x)``, normalised in log space (Bayes' theorem, Zhou eq. 7.8).

        A sample that every class finds impossible (all joint probabilities zero, as with
        unsmoothed estimates and an unseen combination) gets the class prior as its posterior and a
        :class:`~bayeskit.exceptions.ZeroEvidenceWarning`, never NaN.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on (matched by name where
            both have names, else by position); missing values are allowed.

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            ``log P(c | x)``, classes in ``classes_`` order; ``exp`` of each row sums to 1.

        Warns
        -----
        ZeroEvidenceWarning
            For samples that every class of positive prior finds impossible.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
        >>> model.predict_log_proba(X.head(2)).round(3)
        array([[-0.288, -1.386],
               [-1.386, -0.288]])
        """
        return normalise(self.predict_joint_log_proba(X), self.log_prior_)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Posterior ``P(c | x)``, shape ``(n_samples, n_classes)``; rows sum to 1.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on (matched by name where
            both have names, else by position); missing values are allowed.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            The probability of each class, classes in ``classes_`` order.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
        >>> model.predict_proba(X.head(2)).round(3)
        array([[0.75, 0.25],
               [0.25, 0.75]])
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: Any, *, cost: Any = None) -> np.ndarray:
        """The Bayes decision: the class of least conditional risk (Zhou eq. 7.3).

        With ``cost=None`` (0/1 loss) this is the most probable class (eq. 7.6). ``cost[i, j]`` is
        the cost of predicting class ``i`` when the truth is ``j`` (see
        :func:`bayeskit.decision.cost_matrix` for the accepted forms). Ties go to the first class.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on (matched by name where
            both have names, else by position); missing values are allowed.
        cost : array-like of shape (n_classes, n_classes), DataFrame or dict, optional
            The cost matrix, rows the predicted classes and columns the true ones (in
            ``classes_`` order for an array); None (the default) is the 0/1 loss.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            The decided class of each sample, from ``classes_``.

        Raises
        ------
        CostMatrixError
            If ``cost`` is not a finite square matrix over the classes (see
            :func:`~bayeskit.decision.cost_matrix`).

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
        >>> model.predict(X.head(2))
        array(['play', 'stay'], dtype='<U4')
        >>> model.predict(X.head(2), cost=[[0, 1], [9, 0]])  # wrongly staying costs 9
        array(['play', 'play'], dtype='<U4')
        """
        if cost is None:
            jll = self.predict_joint_log_proba(X)
            return self.classes_[np.argmax(jll, axis=1)]
        lam = cost_matrix(cost, self.classes_)
        return self.classes_[bayes_decision(self.predict_proba(X), lam)]

    def decide(
        self,
        X: Any,
        *,
        cost: Any = None,
        reject_threshold: float | None = None,
        reject_label: Any = None,
    ) -> np.ndarray:
        """Minimum-risk decisions with an optional reject option.

        Abstains (returns ``reject_label``) where the least conditional risk exceeds
        ``reject_threshold``; with 0/1 loss, where the largest posterior is below
        ``1 - reject_threshold`` (Chow's rule). Without a threshold the result has the dtype of
        ``classes_``; with one it is an object array (so ``reject_label`` fits), whether or not
        any sample was rejected.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or list of dicts
            The samples, with the features the model was fitted on (matched by name where
            both have names, else by position); missing values are allowed.
        cost : array-like of shape (n_classes, n_classes), DataFrame or dict, optional
            The cost matrix, rows the predicted classes and columns the true ones (as
            :meth:`predict`); None (the default) is the 0/1 loss.
        reject_threshold : float, optional
            The cost of abstaining: a sample whose least conditional risk exceeds it is
            rejected. None (the default) never rejects.
        reject_label : object, default=None
            What a rejected sample gets in place of a class.

        Returns
        -------
        decisions : ndarray of shape (n_samples,)
            The decided class of each sample (dtype of ``classes_``), or with a
            ``reject_threshold`` an object array holding ``reject_label`` where rejected.

        Raises
        ------
        CostMatrixError
            If ``cost`` is not a finite square matrix over the classes.
        ValueError
            If ``reject_threshold`` is NaN or infinite.
        TypeError
            If ``reject_threshold`` is not a real number.

        Examples
        --------
        >>> import pandas as pd
        >>> from bayeskit.classifiers import NaiveBayes
        >>> X = pd.DataFrame({"outlook": ["sun", "rain", "sun", "rain"]})
        >>> model = NaiveBayes().fit(X, ["play", "stay", "play", "stay"])
        >>> model.decide(X.head(2))
        array(['play', 'stay'], dtype='<U4')
        >>> model.decide(X.head(2), reject_threshold=0.2, reject_label="ask")  # 0.75 < 0.8
        array(['ask', 'ask'], dtype=object)
        """
        return decide_labels(self.predict_proba(X), self.classes_, cost,
                             reject_threshold=reject_threshold,
                             reject_label=reject_label)  # fmt: skip


def normalise(jll: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
    """Log posterior from joint log-likelihoods, computed in place: ``jll`` must be the caller's
    own fresh array (every caller passes ``log-likelihood + log_prior_``). A compiled row-wise
    log-sum-exp replaces ``scipy.special.logsumexp``, which is slower and allocates temporaries
    the size of ``jll`` (benchmarks/RESULTS.md).

    A row that every class finds impossible carries contradictory evidence; its posterior is
    the prior ``log_prior`` (normalised), so a class of prior 0 stays at 0.
    """
    if not np.isfinite(jll).all():
        dead = ~np.isfinite(jll).any(axis=1) & ~np.isposinf(jll).any(axis=1)
        if dead.any():
            warn(
                f"{int(dead.sum())} sample(s) have probability zero under every class of "
                "positive prior (causes: an unsmoothed estimate, alpha=0, of a value never seen "
                "with such a class; a value off a zero-variance point mass; no neighbour of such "
                "a class); their posterior is reported as the class prior",
                ZeroEvidenceWarning,
            )
            jll[dead] = log_prior
        inf = np.isposinf(jll).any(axis=1)
        if inf.any():  # a point-mass density matched exactly: that class (or those classes) win
            jll[inf] = np.where(np.isposinf(jll[inf]), 0.0, -np.inf)
    log_normalise_rows(jll)
    return jll
