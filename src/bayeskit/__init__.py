"""bayeskit: Bayesian classifiers and Bayesian networks.

data --encode--> codes --count--> statistics --estimate--> tables --look up--> log P(c, x) --decide--> action
"""

from bayeskit.classifiers import NaiveBayes

__version__ = "0.1.0"

__all__ = ["NaiveBayes", "__version__"]

from bayeskit.io import load, save  # noqa: E402  (io reads __version__, defined above)

__all__ += ["load", "save"]

from bayeskit.classifiers import FullBayes  # noqa: E402

__all__ += ["FullBayes"]

from bayeskit.classifiers import KNNBayes  # noqa: E402

__all__ += ["KNNBayes"]
