"""The Gaussian emission of a hidden Markov model, with four covariance forms."""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import linalg

from bayeskit.sequences import _gaussian_kernels
from bayeskit.sequences.emissions import Emission, _rows_observed

__all__ = ["COVARIANCE_TYPES", "GaussianEmission"]

#: The covariance forms: a variance per feature, one per state, a full matrix, one shared.
COVARIANCE_TYPES = ("diag", "full", "spherical", "tied")


def _is_number(value, equal_to=None) -> bool:
    """Whether a setting is a plain number (equal to ``equal_to`` when given), not an array."""
    plain = isinstance(value, int | float)
    return plain and (equal_to is None or value == equal_to)


class GaussianEmission(Emission):
    """A Gaussian per state, with one of four covariance forms (NaN = missing).

    ``covars_`` has the shape of its form: ``"diag"`` ``(n_states, n_features)``, ``"spherical"``
    ``(n_states,)``, ``"full"`` ``(n_states, n_features, n_features)``, ``"tied"``
    ``(n_features, n_features)`` shared by every state (as scikit-learn's ``GaussianMixture``).
    With ``"diag"`` and ``"spherical"`` a missing feature is left out of that step's density;
    with ``"full"`` and ``"tied"`` only whole rows may be missing.

    Parameters
    ----------
    settings : dict
        ``covariance_type``, ``min_covar`` (added to the starting covariances), and the prior:
        ``means_prior``, ``means_weight`` (``kappa``), ``covars_prior`` (``psi``),
        ``covars_weight`` (``nu``). The estimates are ``mu = (kappa mu_0 + sum w x) / (kappa + n)``
        and ``Sigma = (psi I + S + kappa (mu - mu_0)(mu - mu_0)^T) / (n + max(nu - c, 0))``,
        with ``n = sum w``, ``S`` the weighted scatter about ``mu``, ``c = 1`` for diagonal forms
        and ``n_features`` for full ones: the mode of the posterior under a Normal-inverse-Wishart
        prior (hmmlearn's forms and defaults: ``means_weight=0``, ``covars_prior=0.01``,
        ``covars_weight=1``).

    Examples
    --------
    >>> e = GaussianEmission({"covariance_type": "diag"})
    >>> params = {"means_": np.array([[0.0], [2.0]]), "covars_": np.array([[1.0], [1.0]])}
    >>> e.log_likelihood(params, e.check([[0.0], [np.nan]])).round(4).tolist()
    [[-0.9189, -2.9189], [0.0, 0.0]]
    """

    parameter_names = ("means_", "covars_")
    codes = {"m": "means_", "c": "covars_"}

    def __init__(self, settings):
        super().__init__(settings)
        self.kind = settings.get("covariance_type", "diag")
        if self.kind not in COVARIANCE_TYPES:
            msg = f"covariance_type must be one of {COVARIANCE_TYPES}, got {self.kind!r}"
            raise ValueError(msg)

    def check(self, X):
        X = np.asarray(X, dtype=float)
        if X.ndim == 1:
            X = X[:, None]
        if X.ndim != 2:
            msg = f"observations must be a 2-d array (n_steps, n_features), got {X.shape}"
            raise ValueError(msg)
        if np.isinf(X).any():
            msg = "observations must be finite (NaN marks a missing value)"
            raise ValueError(msg)
        if self.kind in ("full", "tied"):
            seen = _rows_observed(X)
            partial = seen.any(axis=1) & ~seen.all(axis=1)
            if partial.any():
                msg = (
                    f"covariance_type={self.kind!r} takes whole rows missing only; row "
                    f"{int(np.argmax(partial))} is partly missing (use 'diag' or 'spherical')"
                )
                raise ValueError(msg)
        return X

    def initialize(self, X, n_states, rng):
        from sklearn.cluster import KMeans
        from sklearn.exceptions import ConvergenceWarning

        full_rows = X[_rows_observed(X).all(axis=1)]
        d = X.shape[1]
        if len(full_rows) >= n_states:
            seed = int(rng.integers(2**31 - 1))
            with warnings.catch_warnings():  # fewer distinct rows than states: centres repeat
                warnings.simplefilter("ignore", ConvergenceWarning)
                km = KMeans(n_clusters=n_states, n_init=1, random_state=seed).fit(full_rows)
            means = km.cluster_centers_
        else:
            means = rng.normal(size=(n_states, d))
        cov = np.atleast_2d(np.cov(full_rows.T)) if len(full_rows) > 1 else np.eye(d)
        cov = np.where(np.isfinite(cov), cov, 0.0) + self.settings.get("min_covar", 1e-3) * np.eye(
            d
        )
        covars = {
            "diag": np.tile(np.diag(cov), (n_states, 1)),
            "spherical": np.full(n_states, np.diag(cov).mean()),
            "full": np.tile(cov, (n_states, 1, 1)),
            "tied": cov,
        }[self.kind]
        return {"means_": means, "covars_": covars}

    def full_covariances(self, params: dict, n_states: int) -> np.ndarray:
        """``covars_`` as ``(n_states, n_features, n_features)`` matrices, whatever the form.

        Parameters
        ----------
        params : dict
            ``means_`` and ``covars_``.
        n_states : int
            The number of hidden states.

        Returns
        -------
        ndarray of shape (n_states, n_features, n_features)

        Examples
        --------
        >>> e = GaussianEmission({"covariance_type": "spherical"})
        >>> e.full_covariances({"means_": np.zeros((1, 2)), "covars_": np.array([2.0])}, 1)
        array([[[2., 0.],
                [0., 2.]]])
        """
        c = np.asarray(params["covars_"], dtype=float)
        d = np.shape(params["means_"])[1]
        if self.kind == "diag":
            return np.stack([np.diag(row) for row in c])
        if self.kind == "spherical":
            return c[:, None, None] * np.eye(d)
        return np.tile(c, (n_states, 1, 1)) if self.kind == "tied" else c

    def validate(self, params, n_states):
        means = np.asarray(params["means_"], dtype=float)
        if means.ndim != 2 or means.shape[0] != n_states or not np.all(np.isfinite(means)):
            msg = f"means_ must be finite, shape (n_states, n_features), got {means.shape}"
            raise ValueError(msg)
        d = means.shape[1]
        c = np.asarray(params["covars_"], dtype=float)
        want = {
            "diag": (n_states, d),
            "spherical": (n_states,),
            "full": (n_states, d, d),
            "tied": (d, d),
        }[self.kind]
        if c.shape != want:
            msg = f"covars_ of covariance_type={self.kind!r} must have shape {want}, got {c.shape}"
            raise ValueError(msg)
        if self.kind in ("diag", "spherical"):
            if not np.all(np.isfinite(c)) or np.any(c <= 0):
                msg = "covars_ must be positive and finite"
                raise ValueError(msg)
            return
        for k, m in enumerate(self.full_covariances(params, n_states)):
            if not np.allclose(m, m.T) or np.any(np.linalg.eigvalsh(m) <= 0):
                msg = f"covars_ of state {k} must be symmetric, positive definite"
                raise ValueError(msg)

    def _means(self, params, X) -> np.ndarray:
        means = np.asarray(params["means_"], dtype=float)
        if X.shape[1] != means.shape[1]:
            msg = f"X has {X.shape[1]} features but the model has {means.shape[1]}"
            raise ValueError(msg)
        return means

    def _variances(self, params, d: int) -> np.ndarray:
        """The per-feature variances ``(n_states, d)`` of a diagonal or spherical form."""
        c = np.asarray(params["covars_"], dtype=float)
        return np.tile(c[:, None], (1, d)) if self.kind == "spherical" else c

    def _compiled_e_step(self, params, X):
        if self.kind not in ("diag", "spherical") or X.dtype != np.float64:
            return None
        means = np.ascontiguousarray(self._means(params, X))
        var = self._variances(params, X.shape[1])
        terms = _gaussian_kernels.diag_terms(var)  # precisions, log normalisers, their sums
        data = np.ascontiguousarray(X)

        def step(start, trans, offsets, first, last, loglik):
            xi, firsts, post, lost, s1, s2 = _gaussian_kernels.diag_e_step(
                start, trans, data, means, *terms, offsets, first, last, loglik
            )
            stats = {"post": post, "post_f": post[:, None] - lost, "obs": s1, "obs**2": s2}
            return xi, firsts, stats

        return step

    def log_likelihood(self, params, X):
        means = self._means(params, X)
        n = means.shape[0]
        if self.kind in ("diag", "spherical"):
            return _gaussian_kernels.diag_log_likelihood(
                np.ascontiguousarray(X, dtype=np.float64),
                np.ascontiguousarray(means),
                self._variances(params, X.shape[1]),
            )
        out = np.zeros((len(X), n))
        rows = _rows_observed(X).all(axis=1)
        for k, cov in enumerate(self.full_covariances(params, n)):
            chol = np.linalg.cholesky(cov)
            z = linalg.solve_triangular(chol, (X[rows] - means[k]).T, lower=True)
            log_det = 2.0 * np.log(np.diag(chol)).sum()
            out[rows, k] = -0.5 * (X.shape[1] * math.log(2 * np.pi) + log_det + (z * z).sum(axis=0))
        return out

    def statistics(self, X, posteriors, params=None):
        post = posteriors.sum(axis=0)
        if np.isnan(X.sum()) and (missing := np.isnan(X)).any():
            x = np.where(missing, 0.0, X)
            post_f = posteriors.T @ ~missing
        else:
            x, post_f = X, np.repeat(post[:, None], X.shape[1], axis=1)
        stats = {"post": post, "post_f": post_f, "obs": posteriors.T @ x}
        if self.kind in ("diag", "spherical"):
            stats["obs**2"] = posteriors.T @ (x * x)
        else:
            stats["obs*obs.T"] = np.stack([(x * w[:, None]).T @ x for w in posteriors.T])
        return stats

    def estimate(self, stats, params, update):
        out: dict = {}
        old_means = np.asarray(params["means_"], dtype=float)
        s = self.settings
        mu0, kappa = s.get("means_prior", 0.0), s.get("means_weight", 0.0)
        denom = stats["post_f"]
        means = old_means
        if "m" in update:
            flat = _is_number(kappa, 0)  # no prior on the means (the default)
            num = stats["obs"] if flat else kappa * mu0 + stats["obs"]
            den = denom if flat else kappa + denom
            seen = den > 0
            if seen.all():
                means = num / den
            else:  # a state or feature without evidence keeps its mean
                means = np.where(seen, num / np.where(seen, den, 1.0), old_means)
            out["means_"] = means
        if "c" in update:
            out["covars_"] = self._covariances(
                stats, means, np.asarray(params["covars_"], dtype=float)
            )
        return out

    def _covariances(self, stats, means, old):
        s = self.settings
        mu0, kappa = s.get("means_prior", 0.0), s.get("means_weight", 0.0)
        psi, nu = s.get("covars_prior", 1e-2), s.get("covars_weight", 1.0)
        diff = means - mu0
        if self.kind in ("diag", "spherical"):
            denom = stats["post_f"]
            # the scatter about the means: sum w x^2 - 2 mu sum w x + mu^2 sum w
            c_n = stats["obs**2"] - means * (2.0 * stats["obs"] - means * denom)
            if not _is_number(kappa, 0):
                c_n += kappa * diff**2
            c_d = max(nu - 1.0, 0.0) + denom
            if self.kind == "spherical":
                var = (psi * c_n.shape[1] + c_n.sum(axis=1)) / np.maximum(c_d.sum(axis=1), 1e-5)
            else:
                var = (psi + c_n) / np.maximum(c_d, 1e-5)
            return np.where(np.isfinite(var) & (var > 0), var, old)
        post = stats["post"]
        d = means.shape[1]
        c_n = (
            kappa * np.einsum("ki,kj->kij", diff, diff)
            + stats["obs*obs.T"]
            - np.einsum("ki,kj->kij", stats["obs"], means)
            - np.einsum("ki,kj->kij", means, stats["obs"])
            + np.einsum("ki,kj->kij", means, means) * post[:, None, None]
        )
        weight = max(nu - d, 0.0)
        if self.kind == "tied":
            return (psi * np.eye(d) + c_n.sum(axis=0)) / max(weight + post.sum(), 1e-5)
        cov = (psi * np.eye(d) + c_n) / np.maximum(weight + post, 1e-5)[:, None, None]
        return np.where((post > 0)[:, None, None], cov, old)

    def log_prior(self, params):
        s = self.settings
        mu0, kappa = s.get("means_prior", 0.0), s.get("means_weight", 0.0)
        psi, nu = s.get("covars_prior", 1e-2), s.get("covars_weight", 1.0)
        means = np.asarray(params["means_"], dtype=float)
        n, d = means.shape
        diff = means - mu0
        if self.kind in ("diag", "spherical"):
            var = self._variances(params, d)
            inv = 0.5 / var
            total = -psi * float(inv.sum()) if _is_number(psi) else -float(np.sum(psi * inv))
            if np.any(kappa):
                total -= float(np.sum(kappa * diff**2 * inv))
            if nu > 1:
                total -= (nu - 1) / 2 * float(np.sum(np.log(var)))
            return total
        covs = self.full_covariances(params, n)
        prec = np.linalg.inv(covs)
        total = -0.5 * kappa * float(np.einsum("ki,kij,kj->", diff, prec, diff))
        weight = max(nu - d, 0.0)
        if self.kind == "tied":
            return (
                total - 0.5 * weight * np.linalg.slogdet(covs[0])[1] - 0.5 * psi * np.trace(prec[0])
            )
        return total - 0.5 * float(
            weight * np.linalg.slogdet(covs)[1].sum() + psi * np.trace(prec, axis1=1, axis2=2).sum()
        )

    def sample(self, params, states, rng):
        means = np.asarray(params["means_"], dtype=float)
        covs = self.full_covariances(params, means.shape[0])
        chols = np.linalg.cholesky(covs)
        z = rng.standard_normal((len(states), means.shape[1]))
        return means[states] + np.einsum("tij,tj->ti", chols[states], z)

    def n_free_parameters(self, params):
        n, d = np.shape(params["means_"])
        cov = {
            "diag": n * d,
            "spherical": n,
            "full": n * d * (d + 1) // 2,
            "tied": d * (d + 1) // 2,
        }
        return n * d + cov[self.kind]
