"""Bayesian networks: the structure (a DAG), independence by d-separation, discrete networks
(CPTs, the joint probability, log-likelihood, forward sampling); files, parameter and structure
learning, and inference are to come."""

from bayeskit.networks.dag import DAG, bayes_ball
from bayeskit.networks.network import BayesianNetwork

__all__ = ["DAG", "BayesianNetwork", "bayes_ball"]
