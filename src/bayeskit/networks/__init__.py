"""Bayesian networks: the structure (a DAG), independence by d-separation, discrete networks
(CPTs, the joint probability, log-likelihood, forward sampling) and BIF files; parameter and
structure learning, XMLBIF and inference are to come."""

from bayeskit.networks.bif import BIFError, read_bif, write_bif
from bayeskit.networks.dag import DAG, bayes_ball
from bayeskit.networks.network import BayesianNetwork

__all__ = ["DAG", "BIFError", "BayesianNetwork", "bayes_ball", "read_bif", "write_bif"]
