"""The registry of models: every classifier's command-line name and its class's name.

The one list that names the models. :data:`bayeskit.classifiers.MODELS` (name -> class, which
the model files use), the command line's ``--model``, its help and ``compare``, and
``bayeskit.<Class>`` (imported on first use) are all built from it; the tests check the README's
list of names against it. It holds plain strings, so reading it imports nothing:
``bayeskit --help`` lists the models without loading scikit-learn or compiling a kernel.
A new model is registered here and exported by :mod:`bayeskit.classifiers`.
"""

from __future__ import annotations

__all__ = ["MODEL_CLASSES"]

#: Command-line name -> name of the class in :mod:`bayeskit.classifiers`, in the order the
#: command line lists and ``compare`` runs them.
MODEL_CLASSES: dict[str, str] = {
    "naive-bayes": "NaiveBayes",
    "multinomial-nb": "MultinomialNaiveBayes",
    "bernoulli-nb": "BernoulliNaiveBayes",
    "full-bayes": "FullBayes",
    "knn-bayes": "KNNBayes",
    "spode": "SPODE",
    "aode": "AODE",
    "ande": "AnDE",
    "tan": "TAN",
    "kdb": "KDB",
    "selective-kdb": "SelectiveKDB",
    "selective-kdb-ensemble": "SelectiveKDBEnsemble",
    "nbtree": "NBTree",
    "network": "NetworkClassifier",
    "subclass-nb": "SubclassNaiveBayes",
}
