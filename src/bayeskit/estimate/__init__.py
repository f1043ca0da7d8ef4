"""Estimators: pure functions from statistics to log-probability tables and Gaussian parameters."""

from bayeskit.estimate.dirichlet import (
    SMOOTHINGS,
    dirichlet_map,
    dirichlet_posterior_mean,
    laplace,
    lidstone,
    log_probabilities,
    m_estimate,
    mle,
)
from bayeskit.estimate.gaussian import gaussian_log_density, gaussian_parameters, variance_floor

__all__ = [
    "SMOOTHINGS",
    "dirichlet_map",
    "dirichlet_posterior_mean",
    "gaussian_log_density",
    "gaussian_parameters",
    "laplace",
    "lidstone",
    "log_probabilities",
    "m_estimate",
    "mle",
    "variance_floor",
]
