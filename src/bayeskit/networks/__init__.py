"""Bayesian networks: the structure (a DAG), independence by d-separation, discrete networks
(CPTs, the joint probability, log-likelihood, forward sampling), BIF files and parameter
learning; structure learning, XMLBIF and inference are to come."""

from bayeskit.networks.bif import BIFError, read_bif, write_bif
from bayeskit.networks.dag import DAG, bayes_ball
from bayeskit.networks.learning import ESTIMATORS, NetworkFit, fit_parameters
from bayeskit.networks.network import BayesianNetwork
from bayeskit.networks.scores import SCORES, family_score, score
from bayeskit.networks.search import learn_structure, learn_tree

__all__ = [
    "DAG",
    "ESTIMATORS",
    "SCORES",
    "BIFError",
    "BayesianNetwork",
    "NetworkFit",
    "bayes_ball",
    "family_score",
    "fit_parameters",
    "learn_structure",
    "learn_tree",
    "read_bif",
    "score",
    "write_bif",
]
