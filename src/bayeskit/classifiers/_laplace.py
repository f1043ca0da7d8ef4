"""The Laplace approximation of Gaussian-process classification (Rasmussen and Williams,
*Gaussian Processes for Machine Learning*, 2006: GPML), the numerics only.

Binary (logistic likelihood): the posterior mode by Newton's method (GPML Algorithm 3.1), the
predictive mean and variance of the latent function (Algorithm 3.2), the approximate log
marginal likelihood and its gradient in the kernel's hyperparameters (Algorithm 5.1).

Multiclass (softmax likelihood, a latent function per class, one kernel for all): the mode
(Algorithm 3.3), the predictive mean and covariance of the latent functions (Algorithm 3.4),
and the gradient of the approximate log marginal likelihood (GPML section 5.5.2), derived
here in the notation below. ``W = -grad grad log p(y | f)``, per sample ``diag(pi) - pi pi^T``;
with the class-wise ``E_c = (K + D_c^-1)^-1`` (``D_c = diag(pi_c)``, computed as
``D_c^1/2 (I + D_c^1/2 K D_c^1/2)^-1 D_c^1/2``), ``G = (K + W^-1)^-1 = E - E R (sum_c E_c)^-1
R^T E`` (``R`` stacks identities) and, since ``sum_c D_c = I``,

    ``log |I + K W| = sum_c log |I + D_c^1/2 K D_c^1/2| + log |sum_c E_c|``

(Algorithm 3.3 as printed leaves out the second term). The gradient is the explicit term
``a^T K' a / 2 - tr(G K') / 2`` plus the implicit one through the mode,
``-s^T (I + K W)^-1 K' a / 2`` with ``s_ik = d log|I + K W| / d f_ik =
pi_ik [A_i,kk - sum_c A_i,cc pi_ic - 2 (A_i pi_i)_k + 2 pi_i^T A_i pi_i]``, ``A_i`` the
``C x C`` block of sample ``i`` in ``(K^-1 + W)^-1 = K - K G K``.

Sample weights multiply each sample's log-likelihood: ``W`` becomes ``w W`` and the gradient
``w (y - pi)``. For the multiclass case ``G`` is then computed from ``K~ = w^1/2 K w^1/2``
(``G = w^1/2 (K~ + W_0^-1)^-1 w^1/2``), where the structure above holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.special import expit, log_expit, logsumexp, ndtr

__all__ = [
    "BinaryMode",
    "MultiMode",
    "binary_gradient",
    "binary_latent",
    "binary_mode",
    "binary_probability",
    "multi_gradient",
    "multi_latent",
    "multi_mode",
]

#: Newton stops once the objective gains less than this (as scikit-learn's Laplace does).
TOLERANCE = 1e-10

# The logistic function as a mixture of five probits, sigma(x) ~ sum_i c_i Phi(k_i x), whose
# Gaussian integral is closed-form (Williams and Barber 1998, *Bayesian classification with
# Gaussian processes*, appendix; the erf form scikit-learn uses, with k_i = sqrt(2) lambda_i).
_PROBIT_SCALES = math.sqrt(2.0) * np.array([0.41, 0.4, 0.37, 0.44, 0.39])
_PROBIT_WEIGHTS = np.array(
    [-1854.8214151, 3516.89893646, 221.29346712, 128.12323805, -2010.49422654]
)


# ---------------------------------------------------------------------------------- binary


@dataclass
class BinaryMode:
    """The Laplace approximation at the mode: the latent ``f``, ``pi = sigma(f)``,
    ``sqrt(W)``, the Cholesky factor ``L`` of ``B = I + W^1/2 K W^1/2``, ``a = K^-1 f`` and
    the approximate log marginal likelihood."""

    f: np.ndarray
    pi: np.ndarray
    w_sqrt: np.ndarray
    chol: np.ndarray
    a: np.ndarray
    log_marginal: float
    gradient: np.ndarray  # of the log-likelihood at the mode: w (t - pi)


def binary_mode(K: np.ndarray, t: np.ndarray, w: np.ndarray, max_iter: int) -> BinaryMode:
    """The mode of the posterior of the latent values (GPML Algorithm 3.1), from ``f = 0``:
    Newton steps until the objective gains less than :data:`TOLERANCE` or ``max_iter`` steps.
    ``t`` is 0/1, ``w`` the samples' weights. As in Algorithm 3.1 (and scikit-learn), the
    objective and the returned ``pi``, ``sqrt(W)`` and ``L`` are those of the last step's
    start, ``f`` and ``a`` its result: they differ by less than the step, which the stopping
    rule makes negligible."""
    n = len(t)
    f = np.zeros(n)
    sign = 2.0 * t - 1.0
    best = -np.inf
    for _ in range(max_iter):
        pi = expit(f)
        W = w * pi * (1.0 - pi)
        w_sqrt = np.sqrt(W)
        chol = linalg.cholesky(np.eye(n) + w_sqrt[:, None] * K * w_sqrt[None, :], lower=True)
        b = W * f + w * (t - pi)
        a = b - w_sqrt * linalg.cho_solve((chol, True), w_sqrt * (K @ b))
        f = K @ a
        objective = (-0.5 * a @ f + float(np.dot(w, log_expit(sign * f)))
                     - float(np.log(np.diag(chol)).sum()))  # fmt: skip
        if objective - best < TOLERANCE:
            best = objective
            break
        best = objective
    return BinaryMode(f, pi, w_sqrt, chol, a, best, w * (t - pi))


def binary_gradient(K: np.ndarray, K_grad: np.ndarray, mode: BinaryMode, w: np.ndarray):
    """The gradient of the approximate log marginal likelihood in the hyperparameters
    (GPML Algorithm 5.1): ``K_grad[:, :, j] = dK / d theta_j``."""
    ws, chol = mode.w_sqrt, (mode.chol, True)
    R = ws[:, None] * linalg.cho_solve(chol, np.diag(ws))  # (W^-1 + K)^-1
    C = linalg.solve_triangular(mode.chol, ws[:, None] * K, lower=True)
    posterior_diag = np.diag(K) - np.einsum("ij,ij->j", C, C)  # diag (K^-1 + W)^-1
    pi = mode.pi
    s2 = -0.5 * posterior_diag * (w * pi * (1.0 - pi) * (1.0 - 2.0 * pi))  # dW/df
    out = np.empty(K_grad.shape[2])
    for j in range(K_grad.shape[2]):
        Cj = K_grad[:, :, j]
        s1 = 0.5 * mode.a @ Cj @ mode.a - 0.5 * np.einsum("ij,ji->", R, Cj)
        b = Cj @ mode.gradient
        s3 = b - K @ (R @ b)
        out[j] = s1 + s2 @ s3
    return out


def binary_latent(mode: BinaryMode, K_star: np.ndarray, k_diag: np.ndarray):
    """The predictive mean and variance of the latent function at test points (GPML
    Algorithm 3.2): ``K_star`` is ``k(X_train, X_test)``, ``k_diag`` ``k(x*, x*)``."""
    mean = K_star.T @ mode.gradient
    v = linalg.solve_triangular(mode.chol, mode.w_sqrt[:, None] * K_star, lower=True)
    var = np.maximum(k_diag - np.einsum("ij,ij->j", v, v), 0.0)
    return mean, var


def binary_probability(mean: np.ndarray, var: np.ndarray, method: str) -> np.ndarray:
    """``E[sigma(f)]`` for ``f ~ N(mean, var)``: the mixture of probits (``"probit"``), or
    Gauss-Hermite quadrature with 64 nodes (``"quadrature"``, exact to rounding)."""
    if method == "probit":
        k = _PROBIT_SCALES[:, None]
        terms = ndtr(k * mean[None, :] / np.sqrt(1.0 + k**2 * var[None, :]))
        return np.clip(_PROBIT_WEIGHTS @ terms, 0.0, 1.0)
    nodes, weights = np.polynomial.hermite_e.hermegauss(64)  # for exp(-x^2 / 2)
    f = mean[:, None] + np.sqrt(var)[:, None] * nodes[None, :]
    return expit(f) @ weights / math.sqrt(2.0 * math.pi)


# ---------------------------------------------------------------------------------- multiclass


@dataclass
class MultiMode:
    """The softmax Laplace approximation at the mode: ``f`` and ``pi`` of shape
    ``(n_classes, n)``, ``a = K^-1 f``, the class-wise ``E_c`` (of the weighted kernel), the
    Cholesky factor of ``sum_c E_c``, the weights' square roots, the approximate log marginal
    likelihood and ``w (y - pi)``."""

    f: np.ndarray
    pi: np.ndarray
    a: np.ndarray
    E: list
    chol_M: np.ndarray
    w_sqrt: np.ndarray
    log_marginal: float
    gradient: np.ndarray


def _softmax(f: np.ndarray) -> np.ndarray:
    z = f - f.max(axis=0, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=0, keepdims=True)


def _blocks(Kt: np.ndarray, pi: np.ndarray) -> tuple[list, float, np.ndarray]:
    """``E_c`` per class, ``sum_c log |I + D_c^1/2 K~ D_c^1/2| / 2`` and the Cholesky factor
    of ``sum_c E_c``."""
    n = Kt.shape[0]
    E, z = [], 0.0
    for pc in pi:
        d = np.sqrt(pc)
        L = linalg.cholesky(np.eye(n) + d[:, None] * Kt * d[None, :], lower=True)
        z += float(np.log(np.diag(L)).sum())
        E.append(d[:, None] * _inverse(L) * d[None, :])
    chol_M = linalg.cholesky(sum(E), lower=True)
    return E, z, chol_M


def _inverse(L: np.ndarray) -> np.ndarray:
    """``(L L^T)^-1`` from its Cholesky factor (LAPACK's potri: a third of the work of
    solving against the identity)."""
    inv, info = linalg.lapack.dpotri(L, lower=1)
    if info:
        msg = f"the Laplace approximation's matrix is singular (LAPACK potri info={info})"
        raise np.linalg.LinAlgError(msg)
    return np.tril(inv) + np.tril(inv, -1).T


def _apply_G(E: list, chol_M: np.ndarray, ws: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``G v`` for ``v`` of shape ``(C, n)`` (or ``(C, n, m)``):
    ``G = w^1/2 (E - E R (sum E)^-1 R^T E) w^1/2``."""
    scale = ws[:, None] if v.ndim == 3 else ws
    u = v * scale
    Eu = np.stack([Ec @ uc for Ec, uc in zip(E, u, strict=True)])
    inner = linalg.cho_solve((chol_M, True), Eu.sum(axis=0))
    out = Eu - np.stack([Ec @ inner for Ec in E])
    return out * scale


def multi_mode(K: np.ndarray, Y: np.ndarray, w: np.ndarray, max_iter: int,
               start: np.ndarray | None = None) -> MultiMode:  # fmt: skip
    """The mode of the softmax posterior (GPML Algorithm 3.3) from ``f = 0``, or from
    ``start`` (a nearby mode: the optimiser's previous one); ``Y`` is the one-hot
    ``(n_classes, n)`` matrix of the labels. Each Newton step factorises at the current ``f``;
    the factors at the last one are the approximation's."""
    C, n = Y.shape
    ws = np.sqrt(w)
    Kt = ws[:, None] * K * ws[None, :]
    f = np.zeros((C, n)) if start is None else start
    a = np.zeros((C, n))
    objective = -np.inf  # Newton's objective (unknown at a start other than 0)
    gain = np.inf
    for step in range(max_iter + 1):
        pi = _softmax(f)
        E, z, chol_M = _blocks(Kt, pi)
        if step == max_iter or gain < TOLERANCE:
            break
        b = w * (pi * f - pi * (pi * f).sum(axis=0, keepdims=True)) + w * (Y - pi)  # W f + ..
        Kb = b @ K  # K is symmetric: (K b_c) for every class at once
        a = b - _apply_G(E, chol_M, ws, Kb)
        f = a @ K
        previous, objective = objective, -0.5 * float((a * f).sum()) + _log_lik(f, Y, w)
        gain = objective - previous
    log_marginal = objective - z - float(np.log(np.diag(chol_M)).sum())
    return MultiMode(f, pi, a, E, chol_M, ws, log_marginal, w * (Y - pi))


def _log_lik(f: np.ndarray, Y: np.ndarray, w: np.ndarray) -> float:
    return float(np.dot(w, (Y * f).sum(axis=0) - logsumexp(f, axis=0)))


def multi_gradient(K: np.ndarray, K_grad: np.ndarray, mode: MultiMode, w: np.ndarray):
    """The gradient of the approximate log marginal likelihood in the hyperparameters (the
    module docstring's formulas).

    Five ``n^3`` products per class: ``X_c = L_M^-1 E_c`` and ``X_c^T X_c`` give ``sum_c G_cc``
    (all ``tr(G K')`` needs, as ``K'`` is the same for every class); ``T_c = E_c w^1/2 K`` and
    ``P_c = L_M^-1 T_c`` give the blocks ``A_i``, the diagonal of ``K w^1/2 E_c w^1/2 K`` read
    from ``T_c``."""
    E, chol_M, ws, pi = mode.E, mode.chol_M, mode.w_sqrt, mode.pi
    C, n = pi.shape
    wK = ws[:, None] * K
    G_sum = np.zeros((n, n))  # sum_c (E_c - E_c M^-1 E_c), scaled by w^1/2 below
    P, diag_kek = [], []
    for Ec in E:
        X = linalg.solve_triangular(chol_M, Ec, lower=True)
        G_sum += Ec
        G_sum -= X.T @ X
        T = Ec @ wK
        diag_kek.append(np.einsum("ij,ij->j", wK, T))
        P.append(linalg.solve_triangular(chol_M, T, lower=True, overwrite_b=True))
    G_sum *= ws[:, None] * ws[None, :]
    # the C x C blocks A_i of (K^-1 + W)^-1 = K - K G K, for every sample i
    A = np.empty((n, C, C))
    k_diag = np.diag(K)
    for c in range(C):
        for d in range(c, C):
            cross = np.einsum("ji,ji->i", P[c], P[d])
            A[:, c, d] = A[:, d, c] = (k_diag - diag_kek[c] if c == d else 0.0) + cross
    s = softmax_third(A, pi, w)
    out = np.empty(K_grad.shape[2])
    a = mode.gradient  # K^-1 f at the mode
    for j in range(K_grad.shape[2]):
        Kj = K_grad[:, :, j]
        v = a @ Kj
        # the off-diagonal blocks of G do not meet the block-diagonal K'
        explicit = 0.5 * float((a * v).sum()) - 0.5 * float(np.einsum("ij,ij->", G_sum, Kj))
        moved = v - _apply_G(E, chol_M, ws, v) @ K  # (I + K W)^-1 K' a
        out[j] = explicit - 0.5 * float((s * moved).sum())
    return out


def softmax_third(A: np.ndarray, pi: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``s_ik = d log|I + K W| / d f_ik = tr(A_i dW_i / d f_ik)`` ``(C, n)`` for the softmax
    (the module docstring's formula), from the ``C x C`` blocks ``A_i`` ``(n, C, C)`` of the
    latent posterior covariance and ``pi`` ``(C, n)``."""
    P = pi.T
    Api = np.einsum("icd,id->ic", A, P)
    quad = np.einsum("ic,ic->i", P, Api)
    trace = np.einsum("icc,ic->i", A, P)
    diagA = np.einsum("icc->ic", A)
    return (w[:, None] * P * (diagA - trace[:, None] - 2.0 * Api + 2.0 * quad[:, None])).T


def multi_latent(mode: MultiMode, K_star: np.ndarray, k_diag: np.ndarray):
    """The predictive mean ``(m, C)`` and covariance ``(m, C, C)`` of the latent functions at
    test points (GPML Algorithm 3.4): ``cov_cd = d_cd k(x*, x*) - k*^T G_cd k*``."""
    E, chol_M, ws = mode.E, mode.chol_M, mode.w_sqrt
    C = len(E)
    mean = (mode.gradient @ K_star).T
    Ks = ws[:, None] * K_star
    b = [Ec @ Ks for Ec in E]  # E_c w^1/2 k*
    Q = [linalg.solve_triangular(chol_M, bc, lower=True) for bc in b]
    cov = np.empty((K_star.shape[1], C, C))
    for c in range(C):
        for d in range(c, C):
            cov[:, c, d] = cov[:, d, c] = np.einsum("ij,ij->j", Q[c], Q[d])
        cov[:, c, c] += k_diag - np.einsum("ij,ij->j", b[c], Ks)
    return mean, cov


def softmax_expectation(mean: np.ndarray, cov: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """``E[softmax(f)]`` for ``f ~ N(mean_i, cov_i)`` per test point, averaged over
    ``mean_i + S_i z`` for the standard normal ``draws`` ``z`` ``(S, C)`` (Monte Carlo, GPML
    Algorithm 3.4). ``S_i`` is the symmetric square root of ``cov_i``, which permuting the
    classes permutes alike: with draws closed under permuting their coordinates, the estimate
    does not depend on the order of the classes."""
    values, vectors = np.linalg.eigh(cov)
    roots = np.einsum("mij,mj,mkj->mik", vectors, np.sqrt(np.maximum(values, 0.0)), vectors)
    out = np.empty_like(mean)
    for i in range(len(mean)):
        f = mean[i][None, :] + draws @ roots[i]
        out[i] = _softmax(f.T).mean(axis=1)
    return out
