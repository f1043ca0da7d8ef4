"""The Laplace approximation of Gaussian-process classification on inducing points: the
subset-of-regressors prior with the deterministic-training-conditional predictive variance
(Quiñonero-Candela and Rasmussen 2005, *A unifying view of sparse approximate Gaussian process
regression*; GPML section 8.3), the numerics only.

With ``m`` inducing inputs ``Z``, the prior of the latent values at the training points is
replaced by the rank-``m`` ``Q = K_nZ K_ZZ^-1 K_Zn = Phi Phi^T`` (``Phi = K_nZ L^-T``,
``L L^T = K_ZZ``): ``f_c = Phi beta_c`` with ``beta_c ~ N(0, I_m)``, one ``beta`` per latent
function (one for two classes, one per class for the softmax). The Laplace approximation is
then Newton's method in ``beta`` (``C m`` unknowns): the Hessian is ``H = I + J^T W J``
(``J = I_C (x) Phi``), every step costs ``O(n C^2 m^2 + (C m)^3)``, and

    ``log q(y) = log p(y | f^) - |beta^|^2 / 2 - log |H| / 2``.

Its gradient in the kernel's hyperparameters: the explicit change of ``Phi`` and, through the
mode, of ``W`` (the same third derivatives as the exact method, ``s``, on the ``C x C`` blocks
of ``J H^-1 J^T``). ``dPhi = dK_nZ L^-T - Phi L^-1 dK_ZZ L^-T / 2`` (any ``dPhi`` with
``d(Phi Phi^T) = dQ`` serves: the approximation does not change when ``beta`` is rotated).
With ``Z`` the training inputs themselves ``Q = K`` and everything equals the exact method.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import linalg
from scipy.special import expit, log_expit, logsumexp

from bayeskit.classifiers._laplace import softmax_third

__all__ = ["SparseMode", "cross_covariances", "sparse_gradient", "sparse_latent", "sparse_mode"]

#: Newton stops once the objective gains less than this.
TOLERANCE = 1e-10


def cross_covariances(kernel: Any, X: np.ndarray, Z: np.ndarray, jitter: float,
                      gradient: bool) -> dict:  # fmt: skip
    """``K_nZ``, the Cholesky factor of ``K_ZZ`` (plus ``jitter`` on its diagonal) and, with
    ``gradient``, their derivatives in the hyperparameters. scikit-learn's kernels give
    gradients of ``k(X, X)`` only, so ``dK_nZ`` is read from the kernel of ``[X_block; Z]``,
    a block of ``m`` rows at a time (about ``4 n m`` kernel entries)."""
    m = len(Z)
    out: dict[str, Any] = {}
    if gradient:
        K_zz, dK_zz = kernel(Z, eval_gradient=True)
        p = dK_zz.shape[2]
        K_nz, dK_nz = np.empty((len(X), m)), np.empty((len(X), m, p))
        for start in range(0, len(X), max(m, 1)):
            block = X[start : start + m]
            b = len(block)
            K, dK = kernel(np.vstack([block, Z]), eval_gradient=True)
            K_nz[start : start + b] = K[:b, b:]
            dK_nz[start : start + b] = dK[:b, b:]
        out |= {"dK_nz": dK_nz, "dK_zz": dK_zz}
    else:
        K_zz, K_nz = kernel(Z), kernel(X, Z)
    scale = jitter * max(float(np.mean(np.diag(K_zz))), 1e-300)
    chol = linalg.cholesky(K_zz + scale * np.eye(m), lower=True)
    out |= {"K_nz": K_nz, "chol": chol}
    out["Phi"] = linalg.solve_triangular(chol, K_nz.T, lower=True).T
    return out


def _likelihood(f: np.ndarray, Y: np.ndarray, w: np.ndarray, binary: bool):
    """The log-likelihood, its gradient ``(C, n)``, the blocks ``W_i`` ``(n, C, C)`` of its
    negative Hessian, and ``pi``."""
    if binary:
        t = Y[0]
        pi = expit(f)
        log_lik = float(np.dot(w, log_expit((2.0 * t - 1.0) * f[0])))
        grad = w * (t - pi)
        Wb = (w * pi[0] * (1.0 - pi[0]))[:, None, None]
        return log_lik, grad, Wb, pi
    z = f - f.max(axis=0, keepdims=True)
    pi = np.exp(z) / np.exp(z).sum(axis=0, keepdims=True)
    log_lik = float(np.dot(w, (Y * f).sum(axis=0) - logsumexp(f, axis=0)))
    grad = w * (Y - pi)
    P = pi.T
    Wb = w[:, None, None] * (
        np.einsum("ic,cd->icd", P, np.eye(len(pi))) - P[:, :, None] * P[:, None, :]
    )
    return log_lik, grad, Wb, pi


@dataclass
class SparseMode:
    """The approximation at the mode: ``beta`` ``(C, m)``, ``f = beta Phi^T``, ``pi``, the
    Cholesky factor of ``H``, the blocks ``W_i``, ``w (y - pi)`` and ``log q(y)``."""

    beta: np.ndarray
    f: np.ndarray
    pi: np.ndarray
    chol_H: np.ndarray
    Wb: np.ndarray
    gradient: np.ndarray
    log_marginal: float


def _hessian(Phi: np.ndarray, Wb: np.ndarray) -> np.ndarray:
    """``H = I + J^T W J`` of shape ``(C m, C m)``: a BLAS product per pair of classes."""
    C, m = Wb.shape[1], Phi.shape[1]
    H = np.empty((C, m, C, m))
    for c in range(C):
        for d in range(c, C):
            block = Phi.T @ (Wb[:, c, d, None] * Phi)
            H[c, :, d, :] = block
            H[d, :, c, :] = block.T
    return np.eye(C * m) + H.reshape(C * m, C * m)


def _projected(Phi: np.ndarray, Hinv: np.ndarray) -> np.ndarray:
    """``Phi H^-1`` per pair of classes, ``(C, C, n, m)``."""
    C = Hinv.shape[0]
    return np.stack([np.stack([Phi @ Hinv[c, :, d, :] for d in range(C)]) for c in range(C)])


def sparse_mode(Phi: np.ndarray, Y: np.ndarray, w: np.ndarray, max_iter: int,
                binary: bool) -> SparseMode:  # fmt: skip
    """Newton's method in ``beta`` from 0 until the objective gains less than
    :data:`TOLERANCE` (``Y``: the 0/1 row of the second class for two classes, else the
    one-hot ``(C, n)`` labels)."""
    C = 1 if binary else len(Y)
    m = Phi.shape[1]
    beta = np.zeros((C, m))
    f = beta @ Phi.T
    lik = _likelihood(f, Y, w, binary)  # at the current f: read by the step and the stop
    best = -np.inf
    for _ in range(max_iter):
        _, grad, Wb, _ = lik
        chol = linalg.cholesky(_hessian(Phi, Wb), lower=True)
        Wf = np.einsum("icd,di->ci", Wb, f)
        rhs = ((Wf + grad) @ Phi).reshape(-1)
        beta = linalg.cho_solve((chol, True), rhs).reshape(C, m)
        f = beta @ Phi.T
        lik = _likelihood(f, Y, w, binary)
        objective = lik[0] - 0.5 * float((beta**2).sum())
        if objective - best < TOLERANCE:
            break
        best = objective
    log_lik, grad, Wb, pi = lik
    chol = linalg.cholesky(_hessian(Phi, Wb), lower=True)
    log_marginal = (log_lik - 0.5 * float((beta**2).sum())
                    - float(np.log(np.diag(chol)).sum()))  # fmt: skip
    return SparseMode(beta, f, pi, chol, Wb, grad, log_marginal)


def _third(A: np.ndarray, pi: np.ndarray, w: np.ndarray, binary: bool) -> np.ndarray:
    """``s_ik = d log|H| / d f_ik = tr(A_i dW_i / d f_ik)`` ``(C, n)`` from the ``C x C``
    blocks ``A_i`` of ``J H^-1 J^T``."""
    if binary:
        p = pi[0]
        return (A[:, 0, 0] * w * p * (1.0 - p) * (1.0 - 2.0 * p))[None, :]
    return softmax_third(A, pi, w)


def sparse_gradient(parts: dict, mode: SparseMode, w: np.ndarray, binary: bool) -> np.ndarray:
    """The gradient of ``log q(y)`` in the hyperparameters (the module docstring)."""
    Phi, chol = parts["Phi"], parts["chol"]
    C, m = mode.beta.shape
    Hinv = linalg.cho_solve((mode.chol_H, True), np.eye(C * m)).reshape(C, m, C, m)
    PH = _projected(Phi, Hinv)
    A = np.einsum("cdib,ib->icd", PH, Phi)  # the C x C blocks of J H^-1 J^T
    s = _third(A, mode.pi, w, binary)
    out = np.empty(parts["dK_zz"].shape[2])
    for j in range(len(out)):
        Am = linalg.solve_triangular(chol, parts["dK_zz"][:, :, j], lower=True)
        Am = linalg.solve_triangular(chol, Am.T, lower=True)  # L^-1 dK_ZZ L^-T
        dK = linalg.solve_triangular(chol, parts["dK_nz"][:, :, j].T, lower=True).T
        dPhi = dK - 0.5 * Phi @ Am
        dJb = mode.beta @ dPhi.T  # (C, n)
        explicit = float((mode.gradient * dJb).sum())
        WdJb = np.einsum("icd,di->ci", mode.Wb, dJb)
        rhs = (mode.gradient @ dPhi - WdJb @ Phi).reshape(-1)
        d_beta = linalg.cho_solve((mode.chol_H, True), rhs).reshape(C, m)
        df = dJb + d_beta @ Phi.T
        trace = float(np.einsum("cdi,icd->", np.einsum("cdib,ib->cdi", PH, dPhi), mode.Wb))
        out[j] = explicit - trace - 0.5 * float((s * df).sum())
    return out


def sparse_latent(parts: dict, mode: SparseMode, K_zs: np.ndarray, k_diag: np.ndarray):
    """The latent predictive mean and variance (two classes: ``(t,)`` each) or means
    ``(t, C)`` and covariances ``(t, C, C)``, with the deterministic training conditional's
    variance ``k(x*, x*) - |phi*|^2 + phi*^T H^-1 phi*`` (``phi* = L^-1 k_Z(x*)``)."""
    phi = linalg.solve_triangular(parts["chol"], K_zs, lower=True)  # (m, t)
    C, m = mode.beta.shape
    mean = (mode.beta @ phi).T  # (t, C)
    Hinv = linalg.cho_solve((mode.chol_H, True), np.eye(C * m)).reshape(C, m, C, m)
    cov = np.empty((phi.shape[1], C, C))
    for c in range(C):
        for d in range(c, C):
            cov[:, c, d] = cov[:, d, c] = np.einsum("at,at->t", Hinv[c, :, d, :] @ phi, phi)
    prior = np.maximum(k_diag - np.einsum("at,at->t", phi, phi), 0.0)
    cov += prior[:, None, None] * np.eye(C)[None, :, :]
    if C == 1:
        return mean[:, 0], np.maximum(cov[:, 0, 0], 0.0)
    return mean, cov
