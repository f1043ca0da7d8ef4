"""Bayes classifiers: each is a structure over shared statistics, estimators and decisions.

``MODELS`` maps the command-line name of every classifier to its class; the CLI, ``compare`` and
the model file format (``bayeskit.io``) all read it, so a new model is listed in one place.
"""

from bayeskit.classifiers._base import BayesClassifier
from bayeskit.classifiers.event_models import BernoulliNaiveBayes, MultinomialNaiveBayes
from bayeskit.classifiers.naive_bayes import NaiveBayes

MODELS: dict[str, type[BayesClassifier]] = {
    "naive-bayes": NaiveBayes,
    "multinomial-nb": MultinomialNaiveBayes,
    "bernoulli-nb": BernoulliNaiveBayes,
}

__all__ = [
    "MODELS",
    "BayesClassifier",
    "BernoulliNaiveBayes",
    "MultinomialNaiveBayes",
    "NaiveBayes",
]

from bayeskit.classifiers.full_bayes import FullBayes  # noqa: E402

MODELS["full-bayes"] = FullBayes
__all__ += ["FullBayes"]

from bayeskit.classifiers.knn import KNNBayes  # noqa: E402

MODELS["knn-bayes"] = KNNBayes
__all__ += ["KNNBayes"]

from bayeskit.classifiers.aode import AODE, AnDE  # noqa: E402
from bayeskit.classifiers.spode import SPODE  # noqa: E402
from bayeskit.classifiers.tan import TAN  # noqa: E402

MODELS["spode"] = SPODE
MODELS["aode"] = AODE
MODELS["ande"] = AnDE
MODELS["tan"] = TAN
__all__ += ["AODE", "SPODE", "TAN", "AnDE"]

from bayeskit.classifiers.kdb import KDB, SelectiveKDB  # noqa: E402

MODELS["kdb"] = KDB
MODELS["selective-kdb"] = SelectiveKDB
__all__ += ["KDB", "SelectiveKDB"]

from bayeskit.classifiers.eskdb import SelectiveKDBEnsemble  # noqa: E402

MODELS["selective-kdb-ensemble"] = SelectiveKDBEnsemble
__all__ += ["SelectiveKDBEnsemble"]

from bayeskit.classifiers.nbtree import NBTree  # noqa: E402

MODELS["nbtree"] = NBTree
__all__ += ["NBTree"]

from bayeskit.classifiers.network import NetworkClassifier  # noqa: E402

MODELS["network"] = NetworkClassifier
__all__ += ["NetworkClassifier"]

from bayeskit.classifiers.subclass import SubclassNaiveBayes  # noqa: E402

MODELS["subclass-nb"] = SubclassNaiveBayes
__all__ += ["SubclassNaiveBayes"]
