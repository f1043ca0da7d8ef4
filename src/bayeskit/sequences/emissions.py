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

from abc import ABC, abstractmethod

import numpy as np
from scipy import special

__all__ = ["CategoricalEmission", "Emission", "PoissonEmission"]


class Emission(ABC):
    """The protocol of an emission distribution ``P(x_t | z_t = j)``, one per hidden state.

    A new emission (a mixture, a product of per-column emissions, ...) subclasses this and
    fills in its eight steps; :class:`~bayeskit.sequences.HiddenMarkovModel` and
    :func:`~bayeskit.sequences.baum_welch` use nothing else. Parameters travel as a dict keyed
    by the model attributes that hold them (:attr:`parameter_names`).

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

    @abstractmethod
    def check(self, X) -> np.ndarray:
        """The observations as the emission reads them, validated.

        Parameters
        ----------
        X : array-like
            The observations of all sequences, one row per step.

        Returns
        -------
        ndarray
            What the other methods take as ``X``.

        Raises
        ------
        ValueError
            On observations the emission cannot take, naming the rule.

        Examples
        --------
        >>> PoissonEmission({}).check([1, 2]).tolist()
        [[1.0], [2.0]]
        """

    @abstractmethod
    def initialize(self, X: np.ndarray, n_states: int, rng: np.random.Generator) -> dict:
        """Starting parameters for Baum-Welch, from the data.

        Parameters
        ----------
        X : ndarray
            The observations, as :meth:`check` returns them.
        n_states : int
            The number of hidden states.
        rng : numpy.random.Generator
            The random numbers.

        Returns
        -------
        dict
            A value for every name in :attr:`parameter_names`.

        Examples
        --------
        >>> e = CategoricalEmission({"n_features": 3})
        >>> e.initialize(e.check([[0], [2]]), 2, np.random.default_rng(0))["emissionprob_"].shape
        (2, 3)
        """

    @abstractmethod
    def validate(self, params: dict, n_states: int) -> None:
        """Check parameters set by hand or read from a file.

        Parameters
        ----------
        params : dict
            The emission's parameters.
        n_states : int
            The number of hidden states.

        Raises
        ------
        ValueError
            On a wrong shape or a value out of range, naming the parameter.

        Examples
        --------
        >>> PoissonEmission({}).validate({"lambdas_": np.array([[0.0]])}, 1)
        Traceback (most recent call last):
        ...
        ValueError: lambdas_ must be positive and finite
        """

    @abstractmethod
    def log_likelihood(self, params: dict, X: np.ndarray) -> np.ndarray:
        """``log P(x_t | z_t = j)`` of every step and state; missing values add 0.

        Parameters
        ----------
        params : dict
            The emission's parameters.
        X : ndarray
            The observations, as :meth:`check` returns them.

        Returns
        -------
        ndarray of shape (n_steps, n_states)

        Raises
        ------
        ValueError
            When ``X`` does not fit the parameters (another number of features, a symbol
            the model does not know).

        Examples
        --------
        >>> e = PoissonEmission({})
        >>> e.log_likelihood({"lambdas_": np.array([[2.0]])}, e.check([[0.0]])).tolist()
        [[-2.0]]
        """

    def _compiled_e_step(self, params: dict, X: np.ndarray):
        """Optional: the whole E-step as one compiled call per block of sequences, or None
        (the default) for the generic steps (:meth:`log_likelihood`, forward-backward,
        :meth:`statistics`). The call is ``step(start, trans, offsets, first, last, loglik)``
        and returns ``(expected transitions, first-step posteriors, statistics)`` of sequences
        ``first .. last - 1``, with NaN in ``loglik`` for a sequence it could not do (which
        adds nothing; the generic steps redo it)."""
        return None

    @abstractmethod
    def statistics(self, X: np.ndarray, posteriors: np.ndarray, params: dict) -> dict:
        """The posterior-weighted sufficient statistics of the observations.

        Parameters
        ----------
        X : ndarray
            The observations, as :meth:`check` returns them.
        posteriors : ndarray of shape (n_steps, n_states)
            ``P(z_t = j | x)`` of every step.
        params : dict
            The parameters the posteriors were computed with (a mixture splits each state's
            posterior among its components by them; other emissions need not read them).

        Returns
        -------
        dict of str to ndarray
            Sums over steps, so the statistics of two sets of sequences add entry by entry
            (:func:`~bayeskit.sequences.merge_statistics`).

        Examples
        --------
        >>> e = PoissonEmission({})
        >>> post = np.array([[1.0, 0.0], [0.5, 0.5]])
        >>> e.statistics(e.check([[1.0], [3.0]]), post, {"lambdas_": np.ones((2, 1))})["obs"]
        array([[2.5],
               [1.5]])
        """

    @abstractmethod
    def estimate(self, stats: dict, params: dict, update: str) -> dict:
        """The M-step: the posterior mode of the parameters given the statistics.

        Parameters
        ----------
        stats : dict
            From :meth:`statistics` (summed over sequences, chunks or partitions).
        params : dict
            The current parameters; a state without evidence keeps its own.
        update : str
            Letters of the parameters to estimate (:attr:`codes`); the others are not
            returned.

        Returns
        -------
        dict
            The new values of the parameters ``update`` names.

        Examples
        --------
        >>> stats = {"post_f": np.array([[2.0]]), "obs": np.array([[5.0]])}
        >>> PoissonEmission({}).estimate(stats, {"lambdas_": np.ones((1, 1))}, "l")
        {'lambdas_': array([[2.5]])}
        """

    @abstractmethod
    def log_prior(self, params: dict) -> float:
        """The log density of the prior at ``params``, up to a constant (0 for a flat prior).

        Parameters
        ----------
        params : dict
            The emission's parameters.

        Returns
        -------
        float
            Added to the log-likelihood, it is the objective Baum-Welch never decreases.

        Examples
        --------
        >>> PoissonEmission({}).log_prior({"lambdas_": np.ones((2, 1))})
        0.0
        """

    @abstractmethod
    def sample(self, params: dict, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One observation for each entry of ``states``.

        Parameters
        ----------
        params : dict
            The emission's parameters.
        states : ndarray of int of shape (n_steps,)
            The hidden state of each step.
        rng : numpy.random.Generator
            The random numbers.

        Returns
        -------
        ndarray of shape (n_steps, n_features)

        Examples
        --------
        >>> e, rng = PoissonEmission({}), np.random.default_rng(0)
        >>> e.sample({"lambdas_": np.array([[3.0]])}, np.zeros(4, int), rng).shape
        (4, 1)
        """

    @abstractmethod
    def n_free_parameters(self, params: dict) -> int:
        """The number of free parameters, for AIC and BIC.

        Parameters
        ----------
        params : dict
            The emission's parameters.

        Returns
        -------
        int

        Examples
        --------
        >>> CategoricalEmission({}).n_free_parameters({"emissionprob_": np.ones((2, 6)) / 6})
        10
        """


def _dirichlet_mode(counts: np.ndarray, prior, previous: np.ndarray) -> np.ndarray:
    """Rows of ``counts + prior - 1`` (floored at 0) normalised; a row with nothing in it keeps
    ``previous`` (no evidence to move it), so no state ever gets NaN parameters."""
    mode = np.maximum(counts + (np.asarray(prior, dtype=float) - 1.0), 0.0)
    return _normalised_rows(mode, previous)


def _normalised_rows(mode: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """Rows of ``mode`` (>= 0) divided by their sums; a row summing to 0 keeps ``previous``."""
    total = mode.sum(axis=-1, keepdims=True)
    if (total > 0).all():  # the common case, one division
        return mode / total
    filled = total > 0
    return np.where(filled, mode / np.where(filled, total, 1.0), previous)


def _rows_observed(X: np.ndarray) -> np.ndarray:
    return ~np.isnan(X)


class CategoricalEmission(Emission):
    """One categorical symbol per step, coded from 0 to ``n_features - 1`` (-1 or NaN = missing).

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
            msg = (
                f"symbol codes must be integers 0..K-1, got dtype {X.dtype}; for symbols "
                "written as text use emission='mixed' (it codes a DataFrame's text columns)"
            )
            raise ValueError(msg)
        codes = X[:, 0].astype(np.intp)
        if np.any(codes < -1):
            msg = f"symbol codes must be >= 0 (-1 = missing), got {codes.min()}"
            raise ValueError(msg)
        return codes

    def n_symbols(self, codes: np.ndarray) -> int:
        """The number of symbols: ``n_features`` when set, else one more than the largest code.

        Parameters
        ----------
        codes : ndarray of int
            Symbol codes, as :meth:`check` returns them (-1 = missing).

        Returns
        -------
        int

        Examples
        --------
        >>> CategoricalEmission({}).n_symbols(np.array([0, 4, -1]))
        5
        """
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

    def statistics(self, X, posteriors, params=None):
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
        return float(np.sum(special.xlogy(prior - 1.0, params["emissionprob_"])))

    def sample(self, params, states, rng):
        p = np.asarray(params["emissionprob_"], dtype=float)[states]
        u = rng.random(len(states))[:, None]
        return (u > np.cumsum(p, axis=1)).sum(axis=1).clip(max=p.shape[1] - 1)[:, None]

    def n_free_parameters(self, params):
        n, k = np.shape(params["emissionprob_"])
        return n * (k - 1)


def _check_stochastic(p: np.ndarray, name: str) -> None:
    sums = p.sum(axis=-1)
    # NaN fails ">= 0"; an infinite entry makes its row's sum infinite
    if not ((p >= 0).all() and np.isfinite(sums).all()):
        msg = f"{name} must hold probabilities (finite, >= 0)"
        raise ValueError(msg)
    gaps = np.abs(sums - 1.0)
    if gaps.size and gaps.max() > 1e-8:
        worst = int(np.argmax(gaps))
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

    def statistics(self, X, posteriors, params=None):
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
        return float(np.sum(special.xlogy(np.broadcast_to(a, lam.shape), lam) - b * lam))

    def sample(self, params, states, rng):
        return rng.poisson(np.asarray(params["lambdas_"], dtype=float)[states]).astype(float)

    def n_free_parameters(self, params):
        return int(np.size(params["lambdas_"]))
