"""From scatter moments to covariance matrices, and the log-density of the resulting normal.

The class covariance of full Bayes is ``Sigma = S / (n - ddof)`` with ``S`` the scatter matrix
(Zaki & Meira Algorithm 18.1 uses ``ddof=0``, the MLE). With fewer rows than features, or with
duplicated columns, ``Sigma`` is singular and Eq. (18.3) is undefined. Three remedies:

* :func:`ridge_to_diagonal`: ``(1 - lam) Sigma + lam diag(Sigma)``. ``lam = 1`` is the naive Bayes
  covariance (Zaki & Meira 18.2: the naive assumption zeroes the covariances).
* :func:`ledoit_wolf_intensity` and :func:`shrink_to_identity`: Ledoit & Wolf (2004) shrinkage
  toward ``mu I`` (``mu = tr(Sigma) / d``) with the intensity that minimises the expected squared
  Frobenius loss. The estimate needs ``sum ||x - mean||^4``, which the scatter matrix does not
  hold, so it reads :class:`~bayeskit.stats.ShrinkageMoments`; with ``ddof=0`` it equals
  :func:`sklearn.covariance.ledoit_wolf`.
* :func:`regularised_cholesky`: the fallback when a covariance (shrunk or not) is still not
  positive definite: a ridge ``tau I`` with ``tau`` starting at ``RIDGE_FACTOR`` times the
  largest variance of any feature over all classes (:func:`ridge_start`, so it scales with the
  data) and growing tenfold until the Cholesky factorisation succeeds with no pivot below
  ``PIVOT_RTOL`` of its diagonal entry.

:func:`mvn_parameters` gathers the class means and (shrunk) covariances, backing a class with no
complete row off to the pooled moments of all classes.

Densities are computed from the Cholesky factor ``L`` (``Sigma = L L^T``): the squared
Mahalanobis distance is ``||L^{-1} (x - mu)||^2`` by a triangular solve, and
``log |Sigma| = 2 sum_j log L_jj``; no inverse and no determinant is formed.

References: Zaki & Meira ch. 18, Eq. (18.3) and Algorithm 18.1; O. Ledoit and M. Wolf, "A
well-conditioned estimator for large-dimensional covariance matrices", J. Multivariate Analysis
88 (2004) 365-411.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import LinAlgError, cholesky, solve_triangular

from bayeskit.stats.moments import ScatterMoments, ShrinkageMoments

__all__ = [
    "PIVOT_RTOL",
    "RIDGE_FACTOR",
    "ledoit_wolf_intensity",
    "log_determinant",
    "mahalanobis_squared",
    "mvn_log_density",
    "mvn_parameters",
    "regularised_cholesky",
    "ridge_start",
    "ridge_to_diagonal",
    "scatter_covariance",
    "shrink_to_identity",
    "shrunk_covariance",
]

LOG_2PI = float(np.log(2.0 * np.pi))
#: The fallback ridge starts at this fraction of the largest feature variance.
RIDGE_FACTOR = 1e-9
#: A Cholesky pivot ``L_jj^2`` below this fraction of ``Sigma_jj`` counts as singular.
PIVOT_RTOL = 1e-12
_SMALLEST = float(np.finfo(np.float64).smallest_subnormal)


def scatter_covariance(moments: ScatterMoments, ddof: int = 0) -> np.ndarray:
    """Per-class covariance ``S / (n - ddof)``, shape ``(n_classes, d, d)`` (Zaki & Meira
    Algorithm 18.1, ``ddof=0``). Zero where ``n - ddof <= 0``.

    Parameters
    ----------
    moments : ScatterMoments
        Per-class counts, means and scatter matrices.
    ddof : int, default=0
        Delta degrees of freedom (0: the ML covariance).

    Returns
    -------
    ndarray of shape (n_classes, d, d)

    Examples
    --------
    >>> from bayeskit.stats import scatter_moments
    >>> sm = scatter_moments(np.array([[0.0, 1.0], [2.0, 5.0]]), np.array([0, 0]), 1)
    >>> scatter_covariance(sm)[0].tolist(), scatter_covariance(sm, ddof=1)[0].tolist()
    ([[1.0, 2.0], [2.0, 4.0]], [[2.0, 4.0], [4.0, 8.0]])
    """
    dof = moments.count - ddof
    scale = np.where(dof > 0, 1.0 / np.where(dof > 0, dof, 1.0), 0.0)
    return moments.scatter * scale[:, None, None]


def ridge_to_diagonal(cov: np.ndarray, lam: float) -> np.ndarray:
    """``(1 - lam) Sigma + lam diag(Sigma)``: shrink the covariances, keep the variances.

    Parameters
    ----------
    cov : ndarray of shape (..., d, d)
        Covariance matrices.
    lam : float
        The weight of the diagonal, in [0, 1].

    Returns
    -------
    ndarray
        Of the shape of ``cov``.

    Examples
    --------
    >>> ridge_to_diagonal(np.array([[2.0, 2.0], [2.0, 2.0]]), 0.25).tolist()
    [[2.0, 1.5], [1.5, 2.0]]
    """
    cov = np.asarray(cov, dtype=np.float64)
    diag = np.einsum("...ii->...i", cov)
    out = (1.0 - lam) * cov
    np.einsum("...ii->...i", out)[...] = diag
    return out


def ledoit_wolf_intensity(moments: ShrinkageMoments) -> np.ndarray:
    """The Ledoit-Wolf shrinkage intensity of each class, in ``[0, 1]``, shape ``(n_classes,)``.

    With ``S = scatter / n`` (the ML covariance), ``mu = tr(S) / d``,
    ``delta = ||S - mu I||_F^2 / d`` and ``beta = (norm4 / n - ||S||_F^2) / (d n)``, the intensity
    is ``min(beta, delta) / delta`` (0 when ``delta = 0``): the formula of
    :func:`sklearn.covariance.ledoit_wolf_shrinkage`, written with mergeable moments.

    Parameters
    ----------
    moments : ShrinkageMoments
        The scatter moments with the fourth moments (``norm4``) of each class.

    Returns
    -------
    ndarray of shape (n_classes,)

    Examples
    --------
    >>> from bayeskit.stats import shrinkage_moments
    >>> x = np.array([[0.0, 0.0], [1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0], [6.0, 6.0]])
    >>> float(ledoit_wolf_intensity(shrinkage_moments(x, np.zeros(6, dtype=int), 1))[0].round(4))
    0.3827
    """
    n = moments.count
    d = moments.mean.shape[1]
    out = np.zeros(len(n))
    for c in np.flatnonzero(n > 0) if d else ():
        s = moments.scatter.scatter[c] / n[c]
        mu = np.trace(s) / d
        frob = float(np.sum(s * s))
        delta = (frob - d * mu * mu) / d
        if delta <= 0:
            continue
        beta = (moments.norm4[c] / n[c] - frob) / (d * n[c])
        out[c] = min(max(beta, 0.0), delta) / delta
    return out


def shrink_to_identity(cov: np.ndarray, intensity) -> np.ndarray:
    """``(1 - a) Sigma + a mu I`` with ``mu = tr(Sigma) / d``, per class (leading axis).

    Parameters
    ----------
    cov : ndarray of shape (n_classes, d, d)
    intensity : array-like of shape (n_classes,)
        Each class's ``a`` in [0, 1].

    Returns
    -------
    ndarray of shape (n_classes, d, d)

    Examples
    --------
    >>> shrink_to_identity(np.array([[[4.0, 2.0], [2.0, 2.0]]]), [0.5])[0].tolist()
    [[3.5, 1.0], [1.0, 2.5]]
    """
    cov = np.asarray(cov, dtype=np.float64)
    a = np.asarray(intensity, dtype=np.float64)
    d = cov.shape[-1]
    mu = np.trace(cov, axis1=-2, axis2=-1) / max(d, 1)
    out = (1.0 - a)[:, None, None] * cov
    np.einsum("...ii->...i", out)[...] += (a * mu)[:, None]
    return out


def shrunk_covariance(
    moments: ShrinkageMoments, ddof: int = 0, shrinkage: float | str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The covariance a full Bayes model uses, and the shrinkage intensity per class.

    ``shrinkage=None``: :func:`scatter_covariance` (intensity 0); a float ``lam`` in ``[0, 1]``:
    :func:`ridge_to_diagonal`; ``"ledoit-wolf"``: :func:`shrink_to_identity` with
    :func:`ledoit_wolf_intensity` (computed from the ML moments, applied to the ``ddof``
    covariance).

    Parameters
    ----------
    moments : ShrinkageMoments
    ddof : int, default=0
    shrinkage : float, "ledoit-wolf" or None, default=None

    Returns
    -------
    cov : ndarray of shape (n_classes, d, d)
    intensity : ndarray of shape (n_classes,)

    Raises
    ------
    ValueError
        ``shrinkage`` is a string other than "ledoit-wolf".

    Examples
    --------
    >>> from bayeskit.stats import shrinkage_moments
    >>> sm = shrinkage_moments(np.array([[0.0, 0.0], [2.0, 2.0]]), np.array([0, 0]), 1)
    >>> cov, a = shrunk_covariance(sm, shrinkage=0.5)
    >>> cov[0].tolist(), a.tolist()
    ([[1.0, 0.5], [0.5, 1.0]], [0.5])
    """
    cov = scatter_covariance(moments.scatter, ddof)
    n_classes = cov.shape[0]
    if shrinkage is None:
        return cov, np.zeros(n_classes)
    if isinstance(shrinkage, str):
        if shrinkage != "ledoit-wolf":
            msg = f"shrinkage must be None, a number in [0, 1] or 'ledoit-wolf', got {shrinkage!r}"
            raise ValueError(msg)
        a = ledoit_wolf_intensity(moments)
        return shrink_to_identity(cov, a), a
    return ridge_to_diagonal(cov, float(shrinkage)), np.full(n_classes, float(shrinkage))


def mvn_parameters(
    moments: ShrinkageMoments,
    ddof: int = 0,
    shrinkage: float | str | None = None,
    *,
    backoff: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean ``(n_classes, d)``, covariance ``(n_classes, d, d)`` and shrinkage intensity
    ``(n_classes,)`` of each class's normal (Zaki & Meira Algorithm 18.1, then
    :func:`shrunk_covariance`).

    A class with no complete row has no estimate of its own: with ``backoff`` (the default) it
    takes the pooled moments of all classes, so its normal is that of the whole data (as
    :func:`~bayeskit.estimate.gaussian_parameters` does for naive Bayes), and the numeric
    features carry no evidence about it; without, its mean and covariance are 0. Where no class
    has a complete row, every class keeps mean and covariance 0.

    Parameters
    ----------
    moments : ShrinkageMoments
    ddof : int, default=0
    shrinkage : float, "ledoit-wolf" or None, default=None
        As :func:`shrunk_covariance`.
    backoff : bool, default=True
        Whether a class with no complete row takes the pooled moments.

    Returns
    -------
    mean : ndarray of shape (n_classes, d)
    cov : ndarray of shape (n_classes, d, d)
    intensity : ndarray of shape (n_classes,)

    Examples
    --------
    >>> from bayeskit.stats import shrinkage_moments
    >>> x = np.array([[0.0, 0.0], [2.0, 2.0], [np.nan, 1.0]])
    >>> mean, cov, _ = mvn_parameters(shrinkage_moments(x, np.array([0, 0, 1]), 2))
    >>> mean.tolist(), cov[1].tolist()  # class 1 has no complete row: the pooled normal
    ([[1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]])
    """
    mean = moments.mean.copy()
    cov, intensity = shrunk_covariance(moments, ddof, shrinkage)
    empty = moments.count <= 0
    if backoff and empty.any() and not empty.all():
        if shrinkage == "ledoit-wolf":
            pooled = moments.pooled()
        else:  # only the scatter matrix is used: leave the fourth moments alone
            d = moments.mean.shape[1]
            pooled = ShrinkageMoments(moments.scatter.pooled(), np.zeros((1, d)), np.zeros(1))
        pooled_cov, pooled_intensity = shrunk_covariance(pooled, ddof, shrinkage)
        mean[empty], cov[empty], intensity[empty] = pooled.mean, pooled_cov, pooled_intensity
    return mean, cov, intensity


def ridge_start(moments: ScatterMoments) -> float:
    """``RIDGE_FACTOR`` times the largest ML variance of any feature over all classes pooled
    (``RIDGE_FACTOR`` when every feature is constant).

    The start is relative to the data's scale, so data measured in tiny units (variances near
    ``1e-300``) get a ridge as tiny; where that product underflows, the smallest positive float
    is used, so the ridge is never 0.

    Parameters
    ----------
    moments : ScatterMoments

    Returns
    -------
    float
        The first ridge :func:`regularised_cholesky` tries (positive).

    Examples
    --------
    >>> from bayeskit.stats import scatter_moments
    >>> ridge_start(scatter_moments(np.array([[0.0], [2.0]]), np.array([0, 1]), 2))
    1e-09
    >>> ridge_start(scatter_moments(np.array([[0.0], [2e-150]]), np.array([0, 1]), 2))
    1e-309
    """
    pooled = moments.pooled()
    n = pooled.count[0]
    var = np.diagonal(pooled.scatter[0]) / n if n > 0 else np.zeros(0)
    top = float(var.max()) if var.size else 0.0
    if not top > 0:
        return RIDGE_FACTOR
    return max(RIDGE_FACTOR * top, _SMALLEST)


def _cholesky(cov: np.ndarray) -> np.ndarray | None:
    """Lower Cholesky factor, or None if ``cov`` is not safely positive definite."""
    try:
        chol = cholesky(cov, lower=True, check_finite=False)
    except LinAlgError:
        return None
    pivots = np.diagonal(chol) ** 2
    if not np.all(np.isfinite(chol)) or np.any(pivots <= PIVOT_RTOL * np.diagonal(cov)):
        return None
    return chol


def regularised_cholesky(cov: np.ndarray, start: float) -> tuple[np.ndarray, float]:
    """Cholesky factor of ``cov + tau I`` and ``tau``: 0 if ``cov`` is positive definite, else
    the first of ``start, 10 start, 100 start, ...`` that makes it so (a ``start`` of 0 or
    below is raised to the smallest positive float).

    Parameters
    ----------
    cov : ndarray of shape (d, d)
    start : float
        The first ridge tried (:func:`ridge_start`).

    Returns
    -------
    chol : ndarray of shape (d, d)
        The lower Cholesky factor.
    tau : float
        The ridge added (0: none was needed).

    Raises
    ------
    numpy.linalg.LinAlgError
        If ``cov`` holds a non-finite entry, or no ridge helps.

    Examples
    --------
    >>> chol, tau = regularised_cholesky(np.ones((2, 2)), 1e-9)
    >>> tau, bool(np.all(np.diagonal(chol) > 0))
    (1e-09, True)
    """
    if not np.all(np.isfinite(cov)):
        msg = "the covariance holds a non-finite entry; no ridge can make it positive definite"
        raise LinAlgError(msg)
    d = cov.shape[0]
    start = max(float(start), _SMALLEST)
    tau = 0.0
    for _ in range(400):  # from the smallest float, tenfold steps reach 1e76 within this
        chol = _cholesky(cov + tau * np.eye(d) if tau else cov)
        if chol is not None:
            return chol, tau
        tau = start if tau == 0 else 10.0 * tau
        if not np.isfinite(tau):
            break
    msg = f"no ridge up to {tau:.3g} makes the covariance positive definite"
    raise LinAlgError(msg)


def log_determinant(chol: np.ndarray) -> float:
    """``log |Sigma| = 2 sum_j log L_jj`` from the Cholesky factor ``L``.

    Parameters
    ----------
    chol : ndarray of shape (d, d)
        A lower Cholesky factor.

    Returns
    -------
    float

    Examples
    --------
    >>> chol = np.linalg.cholesky(np.array([[5.0, 3.0], [3.0, 2.0]]))
    >>> round(float(np.exp(log_determinant(chol))), 12)
    1.0
    """
    return 2.0 * float(np.sum(np.log(np.diagonal(chol))))


def mahalanobis_squared(x: np.ndarray, mean: np.ndarray, chol: np.ndarray) -> np.ndarray:
    """``(x - mu)^T Sigma^{-1} (x - mu)`` for each row of ``x``, by one triangular solve.

    Parameters
    ----------
    x : array-like of shape (n_samples, d)
    mean : ndarray of shape (d,)
    chol : ndarray of shape (d, d)
        The lower Cholesky factor of the covariance.

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> chol = np.linalg.cholesky(np.array([[5.0, 3.0], [3.0, 2.0]]))
    >>> mahalanobis_squared(np.array([[3.0, 4.0]]), np.array([1.0, 3.0]), chol).round(12)
    array([1.])
    """
    z = _whitened(x, mean, chol)
    return np.einsum("ij,ij->j", z, z)


def _whitened(x: np.ndarray, mean: np.ndarray, chol: np.ndarray) -> np.ndarray:
    """``L^-1 (x - mu)`` for each row of ``x``, as columns ``(d, n_samples)``."""
    dev = np.atleast_2d(np.asarray(x, dtype=np.float64)) - mean
    return solve_triangular(chol, dev.T, lower=True, check_finite=False, overwrite_b=True)


def mvn_log_density(x: np.ndarray, mean: np.ndarray, chol: np.ndarray) -> np.ndarray:
    """``log f(x | mu, Sigma)`` of the multivariate normal (Zaki & Meira Eq. 18.3) for each row
    of ``x``: ``-(d log 2 pi + log |Sigma| + (x - mu)^T Sigma^{-1} (x - mu)) / 2``.

    Parameters
    ----------
    x : array-like of shape (n_samples, d)
    mean : ndarray of shape (d,)
    chol : ndarray of shape (d, d)
        The lower Cholesky factor of the covariance.

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    Zaki & Meira Exercise Q3, class c2 at x = (3, 4):

    >>> chol = np.linalg.cholesky(np.array([[2.0, 0.0], [0.0, 1.0]]))
    >>> np.exp(mvn_log_density(np.array([[3.0, 4.0]]), np.array([5.0, 5.0]), chol)).round(6)
    array([0.025111])
    """
    d = chol.shape[0]
    # halve before squaring: the term overflows only where the log-density is beyond float64
    z = _whitened(x, mean, chol) * np.sqrt(0.5)
    with np.errstate(over="ignore"):
        half_quad = np.einsum("ij,ij->j", z, z)
    return -0.5 * (d * LOG_2PI + log_determinant(chol)) - half_quad
