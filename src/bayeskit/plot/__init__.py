"""Figures of fitted classifiers (class densities, decision regions) and of Bayesian networks
(their DAGs), and of hidden Markov models (state sequences), with matplotlib.

The figures of Zaki & Meira ch. 18 (Figs. 18.1 and 18.2): over two numeric features, each class's
normal density drawn as level curves, the 1% level (1% of the class's peak density) among them,
the class means in black and a test point as a square; and the regions of the feature plane that
a model assigns to each class.

matplotlib is an optional extra (``pip install bayeskit[plot]``); it is imported when a function
here is called, so ``import bayeskit.plot`` works without it.
"""

from __future__ import annotations

# the constants too, as bayeskit.plot.DEFAULT_LEVELS and bayeskit.plot.NETWORK_FONTSIZE
from bayeskit.plot.densities import DEFAULT_LEVELS, density_contours  # noqa: F401
from bayeskit.plot.networks import NETWORK_FONTSIZE, NetworkDrawing, network  # noqa: F401
from bayeskit.plot.regions import decision_regions
from bayeskit.plot.sequences import state_sequence

__all__ = ["NetworkDrawing", "decision_regions", "density_contours", "network", "state_sequence"]
