"""scikit-learn's estimator checks over the naive Bayes estimators.

No check is expected to fail. ``allow_nan`` is declared (NaN means missing), so scikit-learn does
not run its "NaN must be refused" check; infinity is still refused.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from bayeskit.classifiers import BernoulliNaiveBayes, MultinomialNaiveBayes, NaiveBayes


@parametrize_with_checks([NaiveBayes(), MultinomialNaiveBayes(), BernoulliNaiveBayes()])
def test_sklearn_compatible(estimator, check):
    check(estimator)
