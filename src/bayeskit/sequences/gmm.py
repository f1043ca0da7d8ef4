"""The Gaussian-mixture emission of a hidden Markov model (hmmlearn's ``GMMHMM``).

Each hidden state emits from its own mixture of ``n_mix`` Gaussians. The mixture is a second,
per-step latent variable: the E-step splits each state posterior ``gamma_t(j)`` among the
state's components by their responsibilities ``r_t(j, k)``, and every (state, component)
pair is then one Gaussian of :class:`~bayeskit.sequences.GaussianEmission` with weights
``gamma_t(j) r_t(j, k)``: the same weighted moments, the same Normal-inverse-Wishart modes,
the same log prior. The mixture weights get a Dirichlet mode.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import special
from sklearn.exceptions import ConvergenceWarning

from bayeskit.sequences.emissions import Emission, _check_stochastic, _dirichlet_mode
from bayeskit.sequences.gaussian import COVARIANCE_TYPES, GaussianEmission

__all__ = ["GaussianMixtureEmission"]

_PRIORS = ("means_weight", "covars_prior", "covars_weight", "min_covar")


class GaussianMixtureEmission(Emission):
    """A mixture of ``n_mix`` Gaussians per state, with one of four covariance forms.

    The parameters are hmmlearn's ``GMMHMM``'s: ``weights_`` ``(n_states, n_mix)``,
    ``means_`` ``(n_states, n_mix, n_features)`` and ``covars_`` in the shape of its form:
    ``"diag"`` ``(n_states, n_mix, n_features)``, ``"spherical"`` ``(n_states, n_mix)``,
    ``"full"`` ``(n_states, n_mix, n_features, n_features)``, ``"tied"``
    ``(n_states, n_features, n_features)`` (one matrix per state, shared by its components).
    With ``"diag"`` and ``"spherical"`` a missing feature (NaN) is left out of that step's
    density; with ``"full"`` and ``"tied"`` only whole rows may be missing.

    With ``n_mix=1`` it is :class:`~bayeskit.sequences.GaussianEmission` of the same form
    (``"tied"``: of the ``"full"`` form, the matrix being shared within a state only).

    Parameters
    ----------
    settings : dict
        ``n_mix`` (default 1), ``covariance_type`` (default ``"diag"``), ``min_covar``
        (added to the starting covariances) and the priors: ``weights_prior`` (Dirichlet
        concentration of each state's weights, default 1: maximum likelihood), and the
        Normal-inverse-Wishart prior of each component in
        :class:`~bayeskit.sequences.GaussianEmission`'s form: ``means_prior`` (float or an
        array broadcastable to ``(n_states, n_mix, n_features)``), ``means_weight``,
        ``covars_prior``, ``covars_weight`` (floats; defaults 0, 0, 0.01, 1). For
        ``"tied"`` the covariance prior applies once per state.

    Raises
    ------
    ValueError
        On an unknown ``covariance_type`` or ``n_mix`` below 1.

    Examples
    --------
    >>> e = GaussianMixtureEmission({"n_mix": 2})
    >>> params = {"weights_": np.array([[0.5, 0.5]]), "means_": np.array([[[-1.0], [1.0]]]),
    ...           "covars_": np.ones((1, 2, 1))}
    >>> e.log_likelihood(params, e.check([[0.0], [np.nan]])).round(4).tolist()
    [[-1.4189], [0.0]]
    """

    parameter_names = ("weights_", "means_", "covars_")
    codes = {"w": "weights_", "m": "means_", "c": "covars_"}

    def __init__(self, settings):
        super().__init__(settings)
        self.kind = settings.get("covariance_type", "diag")
        if self.kind not in COVARIANCE_TYPES:
            msg = f"covariance_type must be one of {COVARIANCE_TYPES}, got {self.kind!r}"
            raise ValueError(msg)
        n_mix = settings.get("n_mix", 1)
        if not (isinstance(n_mix, int | np.integer) and n_mix >= 1):
            msg = f"n_mix must be a positive integer, got {n_mix!r}"
            raise ValueError(msg)
        self.n_mix = int(n_mix)

    # ------------------------------------------------------------ the components as Gaussians

    def _gaussian(self, kind: str, means_prior=0.0) -> GaussianEmission:
        shared = {k: self.settings[k] for k in _PRIORS if self.settings.get(k) is not None}
        return GaussianEmission({**shared, "covariance_type": kind, "means_prior": means_prior})

    def _means_prior(self, n: int, d: int) -> np.ndarray:
        mu0 = np.asarray(self.settings.get("means_prior", 0.0), dtype=float)
        return np.broadcast_to(mu0, (n, self.n_mix, d))

    def _flat(self, params: dict) -> tuple[GaussianEmission, dict]:
        """Every (state, component) pair as one state of a Gaussian emission: ``tied`` as
        ``full`` with each state's matrix repeated for its components."""
        means = np.asarray(params["means_"], dtype=float)
        n, m, d = means.shape
        c = np.asarray(params["covars_"], dtype=float)
        if self.kind == "tied":
            kind, covars = "full", np.repeat(c, m, axis=0)
        else:
            kind, covars = self.kind, c.reshape(n * m, *c.shape[2:])
        inner = self._gaussian(kind, self._means_prior(n, d).reshape(n * m, d))
        return inner, {"means_": means.reshape(n * m, d), "covars_": covars}

    def component_log_likelihood(self, params: dict, X: np.ndarray) -> np.ndarray:
        """``log w_jk + log N(x_t; mu_jk, Sigma_jk)`` of every step, state and component.

        Parameters
        ----------
        params : dict
            ``weights_``, ``means_`` and ``covars_``.
        X : ndarray
            The observations, as :meth:`check` returns them.

        Returns
        -------
        ndarray of shape (n_steps, n_states, n_mix)

        Raises
        ------
        ValueError
            When ``X`` has another number of features than the means.

        Examples
        --------
        >>> e = GaussianMixtureEmission({"n_mix": 2})
        >>> params = {"weights_": np.array([[0.25, 0.75]]),
        ...           "means_": np.array([[[0.0], [1.0]]]), "covars_": np.ones((1, 2, 1))}
        >>> e.component_log_likelihood(params, e.check([[0.0]])).round(4).tolist()
        [[[-2.3052, -1.7066]]]
        """
        inner, flat = self._flat(params)
        weights = np.asarray(params["weights_"], dtype=float)
        dens = inner.log_likelihood(flat, X).reshape(len(X), *weights.shape)
        with np.errstate(divide="ignore"):
            return dens + np.log(weights)

    def responsibilities(self, params: dict, X: np.ndarray, posteriors: np.ndarray) -> np.ndarray:
        """``gamma_t(j) r_t(j, k)``: each state posterior split among the state's components.

        Parameters
        ----------
        params : dict
            ``weights_``, ``means_`` and ``covars_``.
        X : ndarray
            The observations, as :meth:`check` returns them.
        posteriors : ndarray of shape (n_steps, n_states)
            ``P(z_t = j | x)``.

        Returns
        -------
        ndarray of shape (n_steps, n_states, n_mix)
            Sums over components to ``posteriors``.

        Examples
        --------
        >>> e = GaussianMixtureEmission({"n_mix": 2})
        >>> params = {"weights_": np.array([[0.5, 0.5]]),
        ...           "means_": np.array([[[0.0], [2.0]]]), "covars_": np.ones((1, 2, 1))}
        >>> e.responsibilities(params, e.check([[1.0]]), np.ones((1, 1))).tolist()
        [[[0.5, 0.5]]]
        """
        return self._split(self.component_log_likelihood(params, X), posteriors)

    @staticmethod
    def _split(comp: np.ndarray, posteriors: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", under="ignore"):
            r = np.exp(comp - special.logsumexp(comp, axis=2, keepdims=True))
        return posteriors[:, :, None] * np.where(np.isfinite(r), r, 0.0)

    # ------------------------------------------------------------ the protocol

    def check(self, X):
        return self._gaussian(self.kind).check(X)

    def initialize(self, X, n_states, rng):
        with warnings.catch_warnings():  # fewer distinct rows than clusters: centres repeat
            warnings.simplefilter("ignore", ConvergenceWarning)
            return self._initialize(X, n_states, rng)

    def _initialize(self, X, n_states, rng):
        from sklearn.cluster import KMeans

        d, m = X.shape[1], self.n_mix
        rows = X[~np.isnan(X).any(axis=1)]
        g = self._gaussian(self.kind).initialize(X, n_states, rng)
        labels = np.zeros(len(rows), int)
        if len(rows) >= n_states > 1:
            seed = int(rng.integers(2**31 - 1))
            labels = KMeans(n_clusters=n_states, n_init=1, random_state=seed).fit_predict(rows)
        means = np.empty((n_states, m, d))
        for j in range(n_states):
            own = rows[labels == j]
            if len(own) >= m:
                seed = int(rng.integers(2**31 - 1))
                means[j] = (
                    KMeans(n_clusters=m, n_init=1, random_state=seed).fit(own).cluster_centers_
                )
            else:
                spread = np.sqrt(np.diag(np.atleast_2d(_full_cov(g["covars_"], self.kind, d))))
                means[j] = g["means_"][j] + 0.1 * spread * rng.standard_normal((m, d))
        c = np.asarray(g["covars_"], dtype=float)
        if self.kind == "tied":
            covars = np.tile(c, (n_states, 1, 1))
        else:  # each component starts with its state's covariance
            covars = np.repeat(c[:, None], m, axis=1)
        return {"weights_": np.full((n_states, m), 1.0 / m), "means_": means, "covars_": covars}

    def validate(self, params, n_states):
        w = np.asarray(params["weights_"], dtype=float)
        if w.shape != (n_states, self.n_mix):
            want_w = (n_states, self.n_mix)
            msg = f"weights_ must have shape (n_states, n_mix) = {want_w}, got {w.shape}"
            raise ValueError(msg)
        _check_stochastic(w, "weights_")
        means = np.asarray(params["means_"], dtype=float)
        if means.ndim != 3 or means.shape[:2] != w.shape:
            msg = f"means_ must have shape (n_states, n_mix, n_features), got {means.shape}"
            raise ValueError(msg)
        d = means.shape[2]
        c = np.asarray(params["covars_"], dtype=float)
        want = {
            "diag": (*w.shape, d),
            "spherical": w.shape,
            "full": (*w.shape, d, d),
            "tied": (n_states, d, d),
        }[self.kind]
        if c.shape != want:
            msg = f"covars_ of covariance_type={self.kind!r} must have shape {want}, got {c.shape}"
            raise ValueError(msg)
        inner, flat = self._flat(params)
        inner.validate(flat, n_states * self.n_mix)

    def log_likelihood(self, params, X):
        comp = self.component_log_likelihood(params, X)
        with np.errstate(under="ignore"):
            out = special.logsumexp(comp, axis=2)
        out[np.isnan(X).all(axis=1)] = 0.0  # exactly, not the log of the weights' sum
        return out

    def statistics(self, X, posteriors, params):
        """The posterior-weighted moments of every (state, component) pair.

        Parameters
        ----------
        X : ndarray
            The observations, as :meth:`check` returns them.
        posteriors : ndarray of shape (n_steps, n_states)
            ``P(z_t = j | x)`` of every step.
        params : dict
            The parameters that split the posteriors among the components.

        Returns
        -------
        dict of str to ndarray
            :class:`~bayeskit.sequences.GaussianEmission`'s statistics of the
            ``n_states * n_mix`` components (``post``, ``post_f``, ``obs`` and ``obs**2`` or
            ``obs*obs.T``), sums over steps that add across sequences.

        Examples
        --------
        >>> e = GaussianMixtureEmission({"n_mix": 2})
        >>> params = {"weights_": np.array([[0.5, 0.5]]),
        ...           "means_": np.array([[[0.0], [2.0]]]), "covars_": np.ones((1, 2, 1))}
        >>> X = e.check([[1.0], [1.0]])
        >>> e.statistics(X, np.ones((2, 1)), params)["post"].tolist()
        [1.0, 1.0]
        """
        resp = self.responsibilities(params, X, posteriors)
        n, m = resp.shape[1:]
        return self._gaussian(self.kind).statistics(X, resp.reshape(len(X), n * m))

    def estimate(self, stats, params, update):
        old_w = np.asarray(params["weights_"], dtype=float)
        n, m = old_w.shape
        out: dict = {}
        if "w" in update:
            counts = stats["post"].reshape(n, m)
            out["weights_"] = _dirichlet_mode(
                counts, self.settings.get("weights_prior", 1.0), old_w
            )
        if "m" not in update and "c" not in update:
            return out
        means = np.asarray(params["means_"], dtype=float)
        d = means.shape[2]
        if self.kind != "tied":
            inner, flat = self._flat(params)
            new = inner.estimate(stats, flat, update)
            if "means_" in new:
                out["means_"] = new["means_"].reshape(n, m, d)
            if "covars_" in new:
                out["covars_"] = new["covars_"].reshape(np.shape(params["covars_"]))
            return out
        mu0 = self._means_prior(n, d)
        covars = np.array(params["covars_"], dtype=float)
        new_means = np.empty_like(means)
        for j in range(n):  # one tied Gaussian emission per state, its components as states
            own = {k: v[j * m : (j + 1) * m] for k, v in stats.items()}
            inner = self._gaussian("tied", mu0[j])
            new = inner.estimate(own, {"means_": means[j], "covars_": covars[j]}, update)
            new_means[j] = new.get("means_", means[j])
            if "covars_" in new and own["post"].sum() > 0:
                covars[j] = new["covars_"]
        if "m" in update:
            out["means_"] = new_means
        if "c" in update:
            out["covars_"] = covars
        return out

    def log_prior(self, params):
        w = np.asarray(params["weights_"], dtype=float)
        alpha = np.asarray(self.settings.get("weights_prior", 1.0), dtype=float)
        total = float(np.sum(special.xlogy(np.broadcast_to(alpha - 1.0, w.shape), w)))
        if self.kind != "tied":
            inner, flat = self._flat(params)
            return total + inner.log_prior(flat)
        means = np.asarray(params["means_"], dtype=float)
        covars = np.asarray(params["covars_"], dtype=float)
        mu0 = self._means_prior(len(means), means.shape[2])
        for j in range(len(means)):
            inner = self._gaussian("tied", mu0[j])
            total += inner.log_prior({"means_": means[j], "covars_": covars[j]})
        return total

    def sample(self, params, states, rng):
        w = np.asarray(params["weights_"], dtype=float)[states]
        u = rng.random(len(states))[:, None]
        comp = (u > np.cumsum(w, axis=1)).sum(axis=1).clip(max=self.n_mix - 1)
        inner, flat = self._flat(params)
        return inner.sample(flat, states * self.n_mix + comp, rng)

    def n_free_parameters(self, params):
        n, m, d = np.shape(params["means_"])
        cov = {
            "diag": n * m * d,
            "spherical": n * m,
            "full": n * m * d * (d + 1) // 2,
            "tied": n * d * (d + 1) // 2,
        }
        return n * (m - 1) + n * m * d + cov[self.kind]


def _full_cov(covars: np.ndarray, kind: str, d: int) -> np.ndarray:
    """The first state's starting covariance as a matrix."""
    c = np.asarray(covars, dtype=float)
    if kind == "diag":
        return np.diag(c[0])
    if kind == "spherical":
        return c[0] * np.eye(d)
    return c if kind == "tied" else c[0]
