"""bayeskit: Bayesian classifiers and Bayesian networks.

data --encode--> codes --count--> statistics --estimate--> tables --look up--> log P(c, x) --decide--> action
"""

from bayeskit.classifiers import NaiveBayes

__version__ = "0.1.0"

__all__ = ["NaiveBayes", "__version__"]
