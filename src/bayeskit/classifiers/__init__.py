"""Bayes classifiers: each is a structure over shared statistics, estimators and decisions."""

from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers.event_models import BernoulliNaiveBayes, MultinomialNaiveBayes
from bayeskit.classifiers.naive_bayes import NaiveBayes

__all__ = ["BayesClassifier", "BernoulliNaiveBayes", "MultinomialNaiveBayes", "NaiveBayes"]
