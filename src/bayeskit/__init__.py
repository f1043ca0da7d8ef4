"""bayeskit: Bayesian classifiers and Bayesian networks.

Every model follows one pipeline::

    data --encode--> codes --count--> statistics --estimate--> tables --look up--> log P(c, x)
         --decide--> action

The layers are subpackages: :mod:`bayeskit.data`, :mod:`bayeskit.stats`,
:mod:`bayeskit.estimate`, :mod:`bayeskit.decision` and :mod:`bayeskit.classifiers`; the interfaces
are :mod:`bayeskit.io` (``save``/``load``), :mod:`bayeskit.evaluate`, :mod:`bayeskit.plot` and the
``bayeskit`` command line.
"""

from bayeskit._compiled import get_num_threads, num_threads, set_num_threads
from bayeskit._version import __version__
from bayeskit.classifiers import (
    BernoulliNaiveBayes,
    FullBayes,
    KNNBayes,
    MultinomialNaiveBayes,
    NaiveBayes,
)
from bayeskit.io import load, save

__all__ = [
    "BernoulliNaiveBayes",
    "FullBayes",
    "KNNBayes",
    "MultinomialNaiveBayes",
    "NaiveBayes",
    "__version__",
    "get_num_threads",
    "load",
    "num_threads",
    "save",
    "set_num_threads",
]
