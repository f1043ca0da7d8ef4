"""The hidden Markov model, learned by Baum-Welch on the one EM driver.

A hidden Markov model is the two-slice network ``z_{t-1} -> z_t -> x_t``: a start distribution
``P(z_1)``, a transition table ``P(z_t | z_{t-1})`` and an emission ``P(x_t | z_t)`` shared by
every step (Rabiner 1989; Bishop, *Pattern Recognition and Machine Learning*, 13.2). Learning
is counting, as for every bayeskit model: the statistics are the expected start, transition and
emission counts (or moments) that forward-backward fills, and the estimates are their
posterior modes under Dirichlet (and conjugate emission) priors; Baum-Welch is
:func:`bayeskit.estimate.em.run_em` with forward-backward as its E-step.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from bayeskit.sequences import _data, _learn
from bayeskit.sequences._choice import ModelChoice
from bayeskit.sequences._learn import LargeData
from bayeskit.sequences.baum_welch import _run, check_parameters, log_frame
from bayeskit.sequences.chain import sample_chain
from bayeskit.sequences.emissions import CategoricalEmission, Emission, PoissonEmission
from bayeskit.sequences.forward_backward import viterbi
from bayeskit.sequences.gaussian import GaussianEmission
from bayeskit.sequences.gmm import GaussianMixtureEmission
from bayeskit.sequences.mixed import ProductEmission

__all__ = ["EMISSIONS", "HiddenMarkovModel"]

#: Emission name -> its class.
EMISSIONS: dict[str, type[Emission]] = {
    "categorical": CategoricalEmission,
    "gaussian": GaussianEmission,
    "gmm": GaussianMixtureEmission,
    "mixed": ProductEmission,
    "poisson": PoissonEmission,
}
_EMISSION_SETTINGS = (
    "covariance_type",
    "n_features",
    "min_covar",
    "emissionprob_prior",
    "means_prior",
    "means_weight",
    "covars_prior",
    "covars_weight",
    "lambdas_prior",
    "lambdas_weight",
    "n_mix",
    "weights_prior",
    "column_emissions",
)


def _names(emission: Emission) -> tuple[str, ...]:
    return ("startprob_", "transmat_", *emission.parameter_names)


class HiddenMarkovModel(ModelChoice, LargeData, BaseEstimator):
    """A hidden Markov model with categorical, Gaussian or Poisson emissions.

    The names follow hmmlearn's, so that its users can switch without a dictionary:
    ``HiddenMarkovModel(n_states, emission="gaussian", covariance_type="diag")`` is hmmlearn's
    ``GaussianHMM(n_components, covariance_type="diag")``, with the same fitted attributes and
    methods (``fit(X, lengths)``, ``score``, ``decode``, ``predict``, ``predict_proba``,
    ``sample``).

    Parameters
    ----------
    n_states : int, default=2
        The number of hidden states.
    emission : {"gaussian", "categorical", "poisson", "gmm", "mixed"} or Emission
        Default ``"gaussian"``. The distribution of an observation given the state: a
        multivariate Gaussian, one
        categorical symbol (codes ``0..n_features - 1``), or independent Poisson counts;
        ``"gmm"`` a mixture of ``n_mix`` Gaussians, ``"mixed"`` a DataFrame's columns each
        with its own emission (:class:`~bayeskit.sequences.ProductEmission`).
    covariance_type : {"diag", "full", "spherical", "tied"}, default="diag"
        The Gaussian's covariance form (the shape of ``covars_``: see
        :class:`~bayeskit.sequences.emissions.GaussianEmission`).
    n_features : int, optional
        The number of symbols of a categorical emission (default: one more than the largest
        code in the training data).
    min_covar : float, default=1e-3
        Added to the diagonal of the starting covariances.
    startprob_prior, transmat_prior : float or array-like, default=1.0
        Dirichlet concentrations of the start distribution and of each transition row; 1 is
        flat (maximum likelihood), above 1 smooths.
    emissionprob_prior : float or array-like, default=1.0
        Dirichlet concentration of a categorical emission's rows.
    means_prior, means_weight, covars_prior, covars_weight : float, default 0, 0, 0.01, 1
        The Gaussian's Normal-inverse-Wishart prior (the defaults floor each variance by
        about ``0.01 / n``, where ``n`` is the state's expected count).
    lambdas_prior, lambdas_weight : float, default=0.0
        The Poisson rates' gamma prior.
    n_mix : int, default=1
        The number of Gaussians of each state's mixture (``emission="gmm"``).
    weights_prior : float or array-like, default=1.0
        Dirichlet concentration of each state's mixture weights (``emission="gmm"``).
    column_emissions : dict, optional
        ``emission="mixed"``: an emission name per column of a DataFrame (``"categorical"``,
        ``"gaussian"`` or ``"poisson"``); the columns left out are categorical when
        non-numeric, Gaussian when numeric (see :class:`~bayeskit.sequences.ProductEmission`).
    algorithm : {"viterbi", "map"}, default="viterbi"
        How :meth:`decode` and :meth:`predict` choose states: the most probable path, or each
        step's most probable state.
    implementation : {"scaling", "log"}, default="scaling"
        Forward-backward with scaled probabilities or in log space; the answers agree.
    n_iter : int, default=10
        The most Baum-Welch iterations per start.
    tol : float, default=1e-2
        Baum-Welch stops when its objective changes by less than this.
    n_init : int, default=1
        Starts from different random initialisations; the best objective's fit is kept.
    init_params : str, optional
        Letters of the parameters that :meth:`fit` initialises: ``s`` start, ``t``
        transitions, and the emission's (``e`` categorical, ``m``/``c`` Gaussian means and
        covariances, ``l`` Poisson rates, ``w`` mixture weights, ``k`` a mixed emission's
        column layout). Default all. Parameters left out must be set by
        hand before ``fit``.
    params : str, optional
        Letters of the parameters Baum-Welch updates (the rest stay frozen). Default all.
    random_state : int, numpy Generator or None, default=None
        Seeds the initialisation and :meth:`sample`.
    sequence_column : str, optional
        With pandas input: the column that names each row's sequence (a long frame); the
        rows of one sequence must be consecutive and in time order.

    Attributes
    ----------
    startprob_ : ndarray of shape (n_states,)
    transmat_ : ndarray of shape (n_states, n_states)
        ``transmat_[i, j] = P(z_t = j | z_{t-1} = i)``. Entries that are 0 when Baum-Welch
        starts stay 0.
    emissionprob_ : ndarray of shape (n_states, n_features)
        Categorical emissions.
    means_ : ndarray of shape (n_states, n_features)
    covars_ : ndarray
        Gaussian emissions, in the shape of ``covariance_type``.
    lambdas_ : ndarray of shape (n_states, n_features)
        Poisson emissions.
    weights_ : ndarray of shape (n_states, n_mix)
        Gaussian-mixture emissions' component weights (their ``means_`` and ``covars_`` have
        a component axis after the state's).
    layout_ : ndarray
        Mixed emissions: the columns, their kinds and categories, coded as numbers
        (:meth:`~bayeskit.sequences.ProductEmission.describe` reads them back).
    objective_ : list of float
        The objective (log-likelihood plus the priors' log density) of each iteration of the
        kept start; it never decreases.
    n_iter_ : int
    converged_ : bool
    stats_ : dict of str to ndarray or None
        The expected statistics :meth:`partial_fit` has gathered (None after :meth:`fit`).
    symbols_ : ndarray of str
        Set by the command line for categorical data: the value each code stands for.
    feature_names_in_ : ndarray of str
        Set by the command line: the observation columns, by name.

    Examples
    --------
    Durbin et al.'s occasionally dishonest casino (fair die, and a loaded one showing six half
    the time), sampled and learned back:

    >>> casino = HiddenMarkovModel(2, emission="categorical", random_state=0)
    >>> casino.startprob_ = np.array([1.0, 0.0])
    >>> casino.transmat_ = np.array([[0.95, 0.05], [0.10, 0.90]])
    >>> casino.emissionprob_ = np.vstack([np.full(6, 1 / 6), [0.1] * 5 + [0.5]])
    >>> rolls, dice = casino.sample(300)
    >>> log_prob, path = casino.decode(rolls)
    >>> float((path == dice).mean()) > 0.7  # the dice Viterbi gets right
    True
    """

    def __init__(
        self,
        n_states: int = 2,
        emission: str | Emission = "gaussian",
        *,
        covariance_type: str = "diag",
        n_features: int | None = None,
        min_covar: float = 1e-3,
        startprob_prior=1.0,
        transmat_prior=1.0,
        emissionprob_prior=1.0,
        means_prior=0.0,
        means_weight=0.0,
        covars_prior=1e-2,
        covars_weight=1.0,
        lambdas_prior=0.0,
        lambdas_weight=0.0,
        n_mix: int = 1,
        weights_prior=1.0,
        column_emissions: dict | None = None,
        algorithm: str = "viterbi",
        implementation: str = "scaling",
        n_iter: int = 10,
        tol: float = 1e-2,
        n_init: int = 1,
        init_params: str | None = None,
        params: str | None = None,
        random_state=None,
        sequence_column: str | None = None,
    ):
        self.n_states = n_states
        self.emission = emission
        self.covariance_type = covariance_type
        self.n_features = n_features
        self.min_covar = min_covar
        self.startprob_prior = startprob_prior
        self.transmat_prior = transmat_prior
        self.emissionprob_prior = emissionprob_prior
        self.means_prior = means_prior
        self.means_weight = means_weight
        self.covars_prior = covars_prior
        self.covars_weight = covars_weight
        self.lambdas_prior = lambdas_prior
        self.lambdas_weight = lambdas_weight
        self.n_mix = n_mix
        self.weights_prior = weights_prior
        self.column_emissions = column_emissions
        self.algorithm = algorithm
        self.implementation = implementation
        self.n_iter = n_iter
        self.tol = tol
        self.n_init = n_init
        self.init_params = init_params
        self.params = params
        self.random_state = random_state
        self.sequence_column = sequence_column

    # ---------------------------------------------------------------- set-up and checks

    def _emission(self) -> Emission:
        if isinstance(self.emission, Emission):
            return self.emission
        if self.emission not in EMISSIONS:
            msg = f"emission must be one of {sorted(EMISSIONS)}, got {self.emission!r}"
            raise ValueError(msg)
        settings = {name: getattr(self, name) for name in _EMISSION_SETTINGS}
        return EMISSIONS[self.emission](settings)

    def _parameters(self, emission: Emission) -> dict:
        return {name: getattr(self, name) for name in _names(emission)}

    def _fitted(self) -> tuple[Emission, dict]:
        emission = self._emission()
        check_is_fitted(self, ["startprob_", "transmat_", *emission.parameter_names])
        params = self._parameters(emission)
        check_parameters(emission, params, self.n_states)
        return emission, params

    # ---------------------------------------------------------------- learning

    def fit(self, X, lengths=None, states=None) -> HiddenMarkovModel:
        """Learn the parameters by Baum-Welch (EM) from one or more sequences.

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            The observations of all sequences, one after the other (NaN = missing).
        lengths : array-like of int, optional
            The length of each sequence in ``X`` (default: one sequence), as in hmmlearn.
        states : array-like of int of shape (n_steps,), optional
            Known states (``-1`` where unknown), for semi-supervised training: each known
            step is held to its state.

        Returns
        -------
        HiddenMarkovModel
            The fitted model.

        Raises
        ------
        ValueError
            On bad settings, data or hand-set parameters, or when a sequence is impossible
            under every start (probability 0).

        Examples
        --------
        >>> X = np.r_[np.zeros(20), np.full(20, 5.0), np.zeros(20)][:, None]
        >>> model = HiddenMarkovModel(2, random_state=0).fit(X)
        >>> sorted(model.means_.ravel().round(2).tolist())
        [0.0, 5.0]
        """
        _data.check_settings(self)
        emission = self._emission()
        data, offsets = _data.sequences(X, lengths, self.sequence_column, emission)
        known = _data.known_states(states, len(data), self.n_states)
        return _learn.learn(self, emission, data, data, offsets, known)

    def emission_distribution(self) -> Emission:
        """The emission distribution the settings describe (``emission``, ``covariance_type``,
        the priors, ...), which reads and estimates the emission's parameters.

        Returns
        -------
        Emission

        Raises
        ------
        ValueError
            On an unknown ``emission`` or covariance type.

        Examples
        --------
        >>> HiddenMarkovModel(2, emission="poisson").emission_distribution().parameter_names
        ('lambdas_',)
        """
        return self._emission()

    # ---------------------------------------------------------------- inference

    def _forward_backward(self, X, lengths, posteriors: bool):
        """Forward-backward on ``X`` under the fitted parameters (no expected transitions)."""
        emission, params = self._fitted()
        data, offsets = _data.sequences(X, lengths, self.sequence_column, emission)
        return _run(emission, params, data, offsets, None, self.implementation, False, posteriors)

    def score_samples(self, X, lengths=None) -> tuple[float, np.ndarray]:
        """The log-likelihood of the sequences and the state posteriors of every step.

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            The observations.
        lengths : array-like of int, optional
            The sequence lengths (default one sequence).

        Returns
        -------
        log_prob : float
            ``log P(X)``, summed over the sequences.
        posteriors : ndarray of shape (n_steps, n_states)
            ``P(z_t = j | x)``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before the parameters are fitted or set.

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> model = example_hmm("rainy-sunny")
        >>> log_prob, post = model.score_samples([[0], [1], [2]])
        >>> round(float(np.exp(log_prob)), 6), post[0].round(4).tolist()
        (0.033612, [0.2317, 0.7683])
        """
        fb = self._forward_backward(X, lengths, posteriors=True)
        assert fb.posteriors is not None  # asked for
        return float(fb.log_likelihood.sum()), fb.posteriors

    def score(self, X, lengths=None) -> float:
        """``log P(X)``: the log-likelihood of the sequences, summed.

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            The observations.
        lengths : array-like of int, optional
            The sequence lengths (default one sequence).

        Returns
        -------
        float

        Examples
        --------
        The exact-fraction example: P(+, -, 0) = 61/1728.

        >>> model = HiddenMarkovModel(2, emission="categorical")
        >>> model.startprob_ = np.array([0.5, 0.5])
        >>> model.transmat_ = np.array([[1 / 3, 2 / 3], [3 / 4, 1 / 4]])
        >>> model.emissionprob_ = np.array([[1 / 4, 1 / 2, 1 / 4], [1 / 3, 1 / 3, 1 / 3]])
        >>> round(float(np.exp(model.score([[0], [2], [1]]))) * 1728, 9)
        61.0
        """
        return float(self._forward_backward(X, lengths, posteriors=False).log_likelihood.sum())

    def decode(self, X, lengths=None, algorithm: str | None = None) -> tuple[float, np.ndarray]:
        """The most likely states: the best path (Viterbi) or each step's best state (MAP).

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            The observations.
        lengths : array-like of int, optional
            The sequence lengths (default one sequence).
        algorithm : {"viterbi", "map"}, optional
            Default: the model's ``algorithm``.

        Returns
        -------
        log_prob : float
            Viterbi: ``log P(X, path)`` summed over the sequences; MAP: the sum of the log
            posteriors of the chosen states.
        states : ndarray of shape (n_steps,)

        Raises
        ------
        ValueError
            On an unknown ``algorithm``.

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> log_prob, path = example_hmm("rainy-sunny").decode([[0], [1], [2]])
        >>> path.tolist(), round(float(np.exp(log_prob)), 5)
        ([1, 0, 0], 0.01344)
        """
        algorithm = self.algorithm if algorithm is None else algorithm
        if algorithm not in ("viterbi", "map"):
            msg = f"algorithm must be 'viterbi' or 'map', got {algorithm!r}"
            raise ValueError(msg)
        emission, params = self._fitted()
        data, offsets = _data.sequences(X, lengths, self.sequence_column, emission)
        if algorithm == "map":
            _, post = self.score_samples(X, lengths)
            path = post.argmax(axis=1)
            with np.errstate(divide="ignore"):
                return float(np.log(post[np.arange(len(path)), path]).sum()), path
        frame = log_frame(emission, params, data)
        log_prob, path = viterbi(params["startprob_"], params["transmat_"], frame, np.diff(offsets))
        return float(log_prob.sum()), path

    def predict(self, X, lengths=None) -> np.ndarray:
        """The most likely state of every step (by the model's ``algorithm``).

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            The observations.
        lengths : array-like of int, optional
            The sequence lengths (default one sequence).

        Returns
        -------
        ndarray of shape (n_steps,)

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> example_hmm("rainy-sunny").predict([[0], [1], [2]]).tolist()
        [1, 0, 0]
        """
        return self.decode(X, lengths)[1]

    def predict_proba(self, X, lengths=None) -> np.ndarray:
        """The posterior probability of each state at every step.

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            The observations.
        lengths : array-like of int, optional
            The sequence lengths (default one sequence).

        Returns
        -------
        ndarray of shape (n_steps, n_states)

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> example_hmm("rainy-sunny").predict_proba([[0], [1], [2]]).round(4).tolist()
        [[0.2317, 0.7683], [0.6241, 0.3759], [0.864, 0.136]]
        """
        return self.score_samples(X, lengths)[1]

    def sample(self, n_samples: int = 1, random_state=None, currstate: int | None = None):
        """Draw one sequence from the model.

        Parameters
        ----------
        n_samples : int, default=1
            Its length.
        random_state : int, numpy Generator or None, optional
            Default: the model's ``random_state``.
        currstate : int, optional
            The first state (default: drawn from ``startprob_``).

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
            The observations.
        states : ndarray of shape (n_samples,)
            The hidden states.

        Raises
        ------
        ValueError
            When ``n_samples`` is negative or ``currstate`` is not a state.

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> X, states = example_hmm("rainy-sunny").sample(5, random_state=1)
        >>> X.shape, states.shape
        ((5, 1), (5,))
        """
        emission, params = self._fitted()
        if not (isinstance(n_samples, int | np.integer) and n_samples >= 0):
            msg = f"n_samples must be a non-negative integer, got {n_samples!r}"
            raise ValueError(msg)
        if currstate is not None and not (0 <= currstate < self.n_states):
            msg = f"currstate must be a state 0..{self.n_states - 1}, got {currstate!r}"
            raise ValueError(msg)
        rng = np.random.default_rng(self.random_state if random_state is None else random_state)
        states = sample_chain(params["startprob_"], params["transmat_"], n_samples, rng, currstate)
        return emission.sample(params, states, rng), states
