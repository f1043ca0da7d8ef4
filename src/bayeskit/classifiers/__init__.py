"""Bayes classifiers: each is a structure over shared statistics, estimators and decisions.

``MODELS`` maps the command-line name of every classifier to its class, in the order of the
registry :data:`bayeskit._models.MODEL_CLASSES`; the CLI, ``compare`` and the model file format
(``bayeskit.io``) all read it, so a new model is listed in one place.
"""

from bayeskit._models import MODEL_CLASSES
from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers.aode import AODE, AnDE
from bayeskit.classifiers.clg import CLGClassifier
from bayeskit.classifiers.eskdb import SelectiveKDBEnsemble
from bayeskit.classifiers.event_models import BernoulliNaiveBayes, MultinomialNaiveBayes
from bayeskit.classifiers.full_bayes import FullBayes
from bayeskit.classifiers.gaussian_process import GaussianProcessClassifier
from bayeskit.classifiers.kdb import KDB
from bayeskit.classifiers.knn import KNNBayes
from bayeskit.classifiers.naive_bayes import NaiveBayes
from bayeskit.classifiers.nbtree import NBTree
from bayeskit.classifiers.network import NetworkClassifier
from bayeskit.classifiers.selective_kdb import SelectiveKDB
from bayeskit.classifiers.spode import SPODE
from bayeskit.classifiers.subclass import SubclassNaiveBayes
from bayeskit.classifiers.tan import TAN

MODELS: dict[str, type[BayesClassifier]] = {
    name: globals()[cls] for name, cls in MODEL_CLASSES.items()
}

__all__ = [
    "AODE",
    "KDB",
    "MODELS",
    "SPODE",
    "TAN",
    "AnDE",
    "BayesClassifier",
    "BernoulliNaiveBayes",
    "CLGClassifier",
    "FullBayes",
    "GaussianProcessClassifier",
    "KNNBayes",
    "MultinomialNaiveBayes",
    "NBTree",
    "NaiveBayes",
    "NetworkClassifier",
    "SelectiveKDB",
    "SelectiveKDBEnsemble",
    "SubclassNaiveBayes",
]
