"""Bayesian networks: the structure (a DAG), independence by d-separation, and (to come) CPTs,
files, parameter and structure learning, and inference."""

from bayeskit.networks.dag import DAG, bayes_ball

__all__ = ["DAG", "bayes_ball"]
