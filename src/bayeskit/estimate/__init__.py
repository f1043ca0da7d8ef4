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
    sparse_lidstone,
)
from bayeskit.estimate.gaussian import (
    gaussian_log_density,
    gaussian_log_terms,
    gaussian_parameters,
    variance_floor,
)

__all__ = [
    "SMOOTHINGS",
    "dirichlet_map",
    "dirichlet_posterior_mean",
    "gaussian_log_density",
    "gaussian_log_terms",
    "gaussian_parameters",
    "laplace",
    "lidstone",
    "log_probabilities",
    "m_estimate",
    "mle",
    "sparse_lidstone",
    "variance_floor",
]

from bayeskit.estimate.shrinkage import (  # noqa: E402
    PIVOT_RTOL,
    RIDGE_FACTOR,
    ledoit_wolf_intensity,
    log_determinant,
    mahalanobis_squared,
    mvn_log_density,
    regularised_cholesky,
    ridge_start,
    ridge_to_diagonal,
    scatter_covariance,
    shrink_to_identity,
    shrunk_covariance,
)

__all__ += [
    "PIVOT_RTOL",
    "RIDGE_FACTOR",
    "ledoit_wolf_intensity",
    "log_determinant",
    "mahalanobis_squared",
    "mvn_log_density",
    "regularised_cholesky",
    "ridge_start",
    "ridge_to_diagonal",
    "scatter_covariance",
    "shrink_to_identity",
    "shrunk_covariance",
]
