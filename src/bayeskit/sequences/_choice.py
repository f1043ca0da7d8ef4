"""Model choice and the long run: free parameters, AIC, BIC, the stationary distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from bayeskit.sequences import _data
from bayeskit.sequences.chain import stationary_distribution


class ModelChoice:
    """What :class:`~bayeskit.sequences.HiddenMarkovModel` offers for choosing a model (the
    number of states, say): its methods need the model's ``_fitted``, ``_emission`` and
    ``score``."""

    if TYPE_CHECKING:  # provided by the model
        params: str | None
        n_states: int
        sequence_column: str | None

        def _fitted(self) -> tuple[Any, dict]: ...

        def _emission(self) -> Any: ...

        def score(self, X: Any, lengths: Any = None) -> float: ...

    def n_parameters(self) -> int:
        """The number of free parameters (for AIC and BIC); frozen ones are not counted.

        Returns
        -------
        int

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> example_hmm("rainy-sunny").n_parameters()  # 1 start + 2 transition + 2 x 2 emission
        7
        """
        emission, params = self._fitted()
        update = _data.letters(emission, self.params, "params")
        n = self.n_states
        total = (n - 1) * ("s" in update) + n * (n - 1) * ("t" in update)
        if any(letter in update for letter in emission.codes):
            total += emission.n_free_parameters(params)
        return int(total)

    def aic(self, X, lengths=None) -> float:
        """Akaike's information criterion, ``-2 log P(X) + 2 k`` (lower is better).

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
        >>> from bayeskit.sequences import example_hmm
        >>> round(example_hmm("rainy-sunny").aic([[0], [1], [2]]), 3)
        20.786
        """
        return -2.0 * self.score(X, lengths) + 2.0 * self.n_parameters()

    def bic(self, X, lengths=None) -> float:
        """The Bayesian information criterion, ``-2 log P(X) + k log n`` with ``n`` the number
        of observed steps (lower is better).

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
        >>> from bayeskit.sequences import example_hmm
        >>> round(example_hmm("rainy-sunny").bic([[0], [1], [2]]), 3)
        14.476
        """
        emission = self._emission()
        data, _ = _data.sequences(X, lengths, self.sequence_column, emission)
        return -2.0 * self.score(X, lengths) + self.n_parameters() * float(
            np.log(max(len(data), 1))
        )

    def get_stationary_distribution(self) -> np.ndarray:
        """The stationary distribution ``pi = pi A`` of the state chain.

        Returns
        -------
        ndarray of shape (n_states,)
            The left eigenvector of ``transmat_`` for eigenvalue 1, normalised (for a chain
            with several closed classes, one of its stationary distributions).

        Examples
        --------
        >>> from bayeskit.sequences import example_hmm
        >>> example_hmm("rainy-sunny").get_stationary_distribution().round(4).tolist()
        [0.5714, 0.4286]
        """
        _, params = self._fitted()
        return stationary_distribution(params["transmat_"])
