"""Emission distributions of a hidden Markov model: ``P(x_t | z_t = j)``.

Each emission is the same four steps as every bayeskit model, per hidden state:

* **statistics** from observations weighted by the state posteriors (expected counts for a
  categorical emission, weighted moments for a Gaussian or Poisson one), added across sequences,
  chunks or partitions like any other statistic;
* **estimate**: the posterior mode under a conjugate prior (a Dirichlet for a categorical
  emission, a Normal-inverse-Wishart for a Gaussian one, a gamma for a Poisson one), which is
  the maximum-likelihood estimate when the prior is flat (the defaults, except for the small
  variance floor of the Gaussian's ``covars_prior``);
* **log-likelihood**: the ``(n_steps, n_states)`` frame that forward-backward runs on; a missing
  value (NaN, or -1 for a categorical code) adds nothing, so it is marginalised;
* **sampling** an observation given a state.

The fitted parameters live on the model (``emissionprob_``, ``means_``, ``covars_``,
``lambdas_``): an emission reads and returns them in a dict, so they can be set by hand.
The priors' forms follow hmmlearn, so that a model fitted there and here from the same start
gives the same estimates (the full and tied covariances' prior scale is ``covars_prior`` times
the identity here).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import linalg, special

__all__ = ["CategoricalEmission", "Emission", "GaussianEmission", "PoissonEmission"]

COVARIANCE_TYPES = ("diag", "full", "spherical", "tied")


def _xlogy(a, p):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a == 0, 0.0, a * np.log(p))


class Emission:
    """The protocol of an emission distribution (one per hidden state).

    Parameters
    ----------
    settings : dict
        The model's emission settings (its constructor arguments), read by name.

    Attributes
    ----------
    parameter_names : tuple of str
        The model attributes that hold the emission's parameters.
    codes : dict of str to str
        Which letter of the model's ``params`` and ``init_params`` stands for which attribute.

    Examples
    --------
    >>> e = PoissonEmission({})
    >>> e.parameter_names, e.codes
    (('lambdas_',), {'l': 'lambdas_'})
    """

    parameter_names: tuple[str, ...] = ()
    codes: dict[str, str] = {}

    def __init__(self, settings: dict):
        self.settings = settings

    def check(self, X: np.ndarray) -> np.ndarray:  # pragma: no cover - protocol
        """The observations as the emission reads them (validated)."""
        raise NotImplementedError

    def initialize(
        self, X: np.ndarray, n_states: int, rng: np.random.Generator
    ) -> dict:  # pragma: no cover
        """Starting parameters from the data."""
        raise NotImplementedError

    def validate(self, params: dict, n_states: int) -> None:  # pragma: no cover
        """Raise ``ValueError`` on parameters of the wrong shape or out of range."""
        raise NotImplementedError

    def log_likelihood(self, params: dict, X: np.ndarray) -> np.ndarray:  # pragma: no cover
        """``log P(x_t | z_t = j)``, shape ``(n_steps, n_states)``."""
        raise NotImplementedError

    def statistics(self, X: np.ndarray, posteriors: np.ndarray) -> dict:  # pragma: no cover
        """Posterior-weighted sufficient statistics; dicts of arrays added entry by entry."""
        raise NotImplementedError

    def estimate(self, stats: dict, params: dict, update: str) -> dict:  # pragma: no cover
        """The parameters named by the letters in ``update``, estimated from ``stats``."""
        raise NotImplementedError

    def log_prior(self, params: dict) -> float:  # pragma: no cover
        """The prior's log density at ``params`` (up to a constant)."""
        raise NotImplementedError

    def sample(
        self, params: dict, states: np.ndarray, rng: np.random.Generator
    ) -> np.ndarray:  # pragma: no cover
        """One observation per entry of ``states``."""
        raise NotImplementedError

    def n_free_parameters(self, params: dict) -> int:  # pragma: no cover
        """Free parameters, for AIC and BIC."""
        raise NotImplementedError


def _dirichlet_mode(counts: np.ndarray, prior, previous: np.ndarray) -> np.ndarray:
    """Rows of ``counts + prior - 1`` (floored at 0) normalised; a row with nothing in it keeps
    ``previous`` (no evidence to move it), so no state ever gets NaN parameters."""
    mode = np.maximum(counts + np.asarray(prior, dtype=float) - 1.0, 0.0)
    total = mode.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = mode / total
    return np.where(total > 0, out, previous)


def _rows_observed(X: np.ndarray) -> np.ndarray:
    return ~np.isnan(X)


class CategoricalEmission(Emission):
    """One categorical symbol per step, codes ``0 .. n_features - 1`` (-1 or NaN = missing).

    Parameters
    ----------
    settings : dict
        ``n_features`` (the number of symbols; default one more than the largest code seen) and
        ``emissionprob_prior`` (Dirichlet concentration, default 1: maximum likelihood).

    Examples
    --------
    >>> e = CategoricalEmission({})
    >>> params = {"emissionprob_": np.array([[0.5, 0.5], [0.9, 0.1]])}
    >>> e.log_likelihood(params, e.check(np.array([[1], [-1]]))).round(3).tolist()
    [[-0.693, -2.303], [0.0, 0.0]]
    """

    parameter_names = ("emissionprob_",)
    codes = {"e": "emissionprob_"}

    def check(self, X):
        X = np.asarray(X)
        if X.ndim == 1:
            X = X[:, None]
        if X.ndim != 2 or X.shape[1] != 1:
            msg = f"a categorical emission reads one column of symbol codes, got shape {X.shape}"
            raise ValueError(msg)
        if np.issubdtype(X.dtype, np.floating):
            bad = ~np.isnan(X) & (X != np.round(X))
            if bad.any():
                msg = f"symbol codes must be whole numbers, got {X[bad][0]!r}"
                raise ValueError(msg)
            X = np.where(np.isnan(X), -1, X)
        elif not np.issubdtype(X.dtype, np.integer):
            msg = f"symbol codes must be integers, got dtype {X.dtype}"
            raise ValueError(msg)
        codes = X[:, 0].astype(np.intp)
        if np.any(codes < -1):
            msg = f"symbol codes must be >= 0 (-1 = missing), got {codes.min()}"
            raise ValueError(msg)
        return codes

    def n_symbols(self, codes: np.ndarray) -> int:
        given = self.settings.get("n_features")
        seen = int(codes.max()) + 1 if codes.size else 0
        return seen if given is None else int(given)

    def initialize(self, X, n_states, rng):
        k = max(self.n_symbols(X), 1)
        p = rng.random((n_states, k)) + 0.5
        return {"emissionprob_": p / p.sum(axis=1, keepdims=True)}

    def validate(self, params, n_states):
        p = np.asarray(params["emissionprob_"], dtype=float)
        if p.ndim != 2 or p.shape[0] != n_states:
            msg = f"emissionprob_ must have shape (n_states, n_symbols), got {p.shape}"
            raise ValueError(msg)
        _check_stochastic(p, "emissionprob_")

    def log_likelihood(self, params, X):
        p = np.asarray(params["emissionprob_"], dtype=float)
        if X.size and X.max() >= p.shape[1]:
            msg = (
                f"symbol code {int(X.max())} was not among the {p.shape[1]} symbols the model "
                f"knows (codes 0..{p.shape[1] - 1}); set n_features to the number of symbols"
            )
            raise ValueError(msg)
        with np.errstate(divide="ignore"):
            logp = np.log(p.T)
        out = logp[np.maximum(X, 0)]
        out[X < 0] = 0.0
        return out

    def statistics(self, X, posteriors):
        k = self.n_symbols(X) if self.settings.get("n_features") is None else None
        k = int(self.settings["n_features"]) if k is None else k
        seen = X >= 0
        x, w = X[seen], posteriors[seen]
        counts = np.stack([np.bincount(x, weights=w[:, j], minlength=k) for j in range(w.shape[1])])
        return {"emission_counts": counts}

    def estimate(self, stats, params, update):
        if "e" not in update:
            return {}
        counts = stats["emission_counts"]
        old = np.asarray(params["emissionprob_"], dtype=float)
        if counts.shape[1] < old.shape[1]:
            counts = np.pad(counts, ((0, 0), (0, old.shape[1] - counts.shape[1])))
        prior = self.settings.get("emissionprob_prior", 1.0)
        return {"emissionprob_": _dirichlet_mode(counts, prior, old)}

    def log_prior(self, params):
        prior = np.asarray(self.settings.get("emissionprob_prior", 1.0), dtype=float)
        return float(np.sum(_xlogy(prior - 1.0, params["emissionprob_"])))

    def sample(self, params, states, rng):
        p = np.asarray(params["emissionprob_"], dtype=float)[states]
        u = rng.random(len(states))[:, None]
        return (u > np.cumsum(p, axis=1)).sum(axis=1).clip(max=p.shape[1] - 1)[:, None]

    def n_free_parameters(self, params):
        n, k = np.shape(params["emissionprob_"])
        return n * (k - 1)


def _check_stochastic(p: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        msg = f"{name} must hold probabilities (finite, >= 0)"
        raise ValueError(msg)
    sums = p.sum(axis=-1)
    if not np.allclose(sums, 1.0, rtol=0, atol=1e-8):
        worst = int(np.argmax(np.abs(sums - 1.0)))
        msg = f"{name} rows must sum to 1; row {worst} sums to {float(sums.flat[worst]):.10g}"
        raise ValueError(msg)


class PoissonEmission(Emission):
    """Independent Poisson counts per feature given the state (NaN = missing).

    Parameters
    ----------
    settings : dict
        ``lambdas_prior`` and ``lambdas_weight``: a gamma prior of shape ``lambdas_prior + 1``
        and rate ``lambdas_weight`` on each rate, so that the estimate is
        ``(lambdas_prior + sum w x) / (lambdas_weight + sum w)`` (defaults 0: maximum
        likelihood).

    Examples
    --------
    >>> e = PoissonEmission({})
    >>> e.log_likelihood({"lambdas_": np.array([[1.0], [4.0]])}, e.check([[2.0]])).round(4)
    array([[-1.6931, -1.9206]])
    """

    parameter_names = ("lambdas_",)
    codes = {"l": "lambdas_"}

    def check(self, X):
        X = np.asarray(X, dtype=float)
        if X.ndim == 1:
            X = X[:, None]
        seen = X[~np.isnan(X)]
        if np.any(seen < 0) or np.any(seen != np.round(seen)) or not np.all(np.isfinite(seen)):
            msg = "Poisson observations must be non-negative whole numbers (NaN = missing)"
            raise ValueError(msg)
        return X

    def initialize(self, X, n_states, rng):
        mean = np.nanmean(X, axis=0) if X.size else np.ones(X.shape[1])
        mean = np.where(np.isfinite(mean) & (mean > 0), mean, 1.0)
        return {"lambdas_": rng.gamma(shape=mean, scale=1.0, size=(n_states, X.shape[1])) + 1e-3}

    def validate(self, params, n_states):
        lam = np.asarray(params["lambdas_"], dtype=float)
        if lam.ndim != 2 or lam.shape[0] != n_states:
            msg = f"lambdas_ must have shape (n_states, n_features), got {lam.shape}"
            raise ValueError(msg)
        if not np.all(np.isfinite(lam)) or np.any(lam <= 0):
            msg = "lambdas_ must be positive and finite"
            raise ValueError(msg)

    def log_likelihood(self, params, X):
        lam = np.asarray(params["lambdas_"], dtype=float)
        if X.shape[1] != lam.shape[1]:
            msg = f"X has {X.shape[1]} features but the model has {lam.shape[1]}"
            raise ValueError(msg)
        seen = _rows_observed(X)
        x = np.where(seen, X, 0.0)
        return (
            x @ np.log(lam).T - seen @ lam.T - (special.gammaln(x + 1) * seen).sum(axis=1)[:, None]
        )

    def statistics(self, X, posteriors):
        seen = _rows_observed(X)
        return {"post_f": posteriors.T @ seen, "obs": posteriors.T @ np.where(seen, X, 0.0)}

    def estimate(self, stats, params, update):
        if "l" not in update:
            return {}
        a = self.settings.get("lambdas_prior", 0.0)
        b = self.settings.get("lambdas_weight", 0.0)
        old = np.asarray(params["lambdas_"], dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = (a + stats["obs"]) / (b + stats["post_f"])
        return {"lambdas_": np.where(np.isfinite(lam) & (lam > 0), lam, old)}

    def log_prior(self, params):
        lam = np.asarray(params["lambdas_"], dtype=float)
        a = self.settings.get("lambdas_prior", 0.0)
        b = self.settings.get("lambdas_weight", 0.0)
        return float(np.sum(_xlogy(np.broadcast_to(a, lam.shape), lam) - b * lam))

    def sample(self, params, states, rng):
        return rng.poisson(np.asarray(params["lambdas_"], dtype=float)[states]).astype(float)

    def n_free_parameters(self, params):
        return int(np.size(params["lambdas_"]))


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

        full_rows = X[_rows_observed(X).all(axis=1)]
        d = X.shape[1]
        if len(full_rows) >= n_states:
            seed = int(rng.integers(2**31 - 1))
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
        """``covars_`` as ``(n_states, n_features, n_features)`` matrices, whatever the form."""
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

    def log_likelihood(self, params, X):
        means = np.asarray(params["means_"], dtype=float)
        if X.shape[1] != means.shape[1]:
            msg = f"X has {X.shape[1]} features but the model has {means.shape[1]}"
            raise ValueError(msg)
        n = means.shape[0]
        if self.kind in ("diag", "spherical"):
            c = np.asarray(params["covars_"], dtype=float)
            var = np.tile(c[:, None], (1, X.shape[1])) if self.kind == "spherical" else c
            prec = 1.0 / var
            missing = np.isnan(X)
            if not missing.any():  # the common case: no masks to multiply
                const = np.log(2 * np.pi * var).sum(axis=1) + (means * means * prec).sum(axis=1)
                quad = (X * X) @ prec.T - 2.0 * X @ (means * prec).T
                return -0.5 * (quad + const)
            seen = ~missing
            x = np.where(seen, X, 0.0)
            quad = (x * x) @ prec.T - 2.0 * x @ (means * prec).T + seen @ (means * means * prec).T
            return -0.5 * (seen @ (np.log(2 * np.pi * var)).T + quad)
        out = np.zeros((len(X), n))
        rows = _rows_observed(X).all(axis=1)
        for k, cov in enumerate(self.full_covariances(params, n)):
            chol = np.linalg.cholesky(cov)
            z = linalg.solve_triangular(chol, (X[rows] - means[k]).T, lower=True)
            log_det = 2.0 * np.log(np.diag(chol)).sum()
            out[rows, k] = -0.5 * (X.shape[1] * math.log(2 * np.pi) + log_det + (z * z).sum(axis=0))
        return out

    def statistics(self, X, posteriors):
        missing = np.isnan(X)
        post = posteriors.sum(axis=0)
        if missing.any():
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
            with np.errstate(invalid="ignore", divide="ignore"):
                means = (kappa * mu0 + stats["obs"]) / (kappa + denom)
            means = np.where(np.isfinite(means), means, old_means)
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
            c_n = kappa * diff**2 + stats["obs**2"] - 2 * means * stats["obs"] + means**2 * denom
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
            c = np.asarray(params["covars_"], dtype=float)
            var = np.tile(c[:, None], (1, d)) if self.kind == "spherical" else c
            return float(
                np.sum(
                    -kappa * diff**2 / (2 * var)
                    - max(nu - 1, 0) / 2 * np.log(var)
                    - psi / (2 * var)
                )
            )
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
