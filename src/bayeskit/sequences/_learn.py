"""Baum-Welch from ``n_init`` starts for a :class:`~bayeskit.sequences.HiddenMarkovModel`, on
data in memory, in chunks, or wherever an E-step of your own computes the statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from bayeskit.estimate.em import EMRun
from bayeskit.sequences import _data
from bayeskit.sequences.baum_welch import (
    baum_welch,
    check_parameters,
    expected_statistics,
    initial_parameters,
    maximize,
    merge_statistics,
    summed_statistics,
)


def learn(model, emission, sample, data, offsets, known=None, progress=None):
    """Run Baum-Welch from ``model.n_init`` starts (initialised from ``sample``, the data or
    its first chunk) on ``data`` (an array with ``offsets``, or an E-step function); set
    the best run's parameters and history on ``model``."""
    init = _data.letters(emission, model.init_params, "init_params")
    update = _data.letters(emission, model.params, "params")
    names = ("startprob_", "transmat_", *emission.parameter_names)
    given = {k: getattr(model, k) for k in names if hasattr(model, k)}
    rng = np.random.default_rng(model.random_state)
    best: EMRun | None = None
    for _ in range(model.n_init):
        start = initial_parameters(emission, sample, model.n_states, init, rng, given)
        run = baum_welch(
            emission,
            start,
            data,
            offsets,
            update=update,
            known=known,
            startprob_prior=model.startprob_prior,
            transmat_prior=model.transmat_prior,
            implementation=model.implementation,
            max_iter=model.n_iter,
            tol=model.tol,
            progress=progress,
        )
        if best is None or run.objective[-1] > best.objective[-1]:
            best = run
    assert best is not None  # n_init >= 1
    for name, value in best.parameters.items():
        setattr(model, name, value)
    model.objective_, model.n_iter_, model.converged_ = best.objective, best.n_iter, best.converged
    model.stats_ = None  # partial_fit's statistics start afresh from these parameters
    return model


class LargeData:
    """What :class:`~bayeskit.sequences.HiddenMarkovModel` offers for data too large for
    memory: Baum-Welch over chunks, and over an E-step of your own (a cluster's)."""

    if TYPE_CHECKING:  # provided by the model
        sequence_column: str | None
        implementation: str
        init_params: str | None
        params: str | None
        n_states: int
        random_state: Any
        startprob_prior: Any
        transmat_prior: Any
        stats_: dict | None
        zeros_: dict

        def _emission(self) -> Any: ...

    def fit_chunks(self, chunks, *, progress=None) -> Any:
        """Learn by Baum-Welch from data too large for memory, one chunk at a time.

        Each iteration reads every chunk once: the E-step's expected statistics of each chunk
        are added up (they are sums over sequences), then one M-step estimates from the total.
        Memory holds one chunk and its posteriors at a time. The fit equals :meth:`fit` on
        the whole data up to the order of the sums.

        Parameters
        ----------
        chunks : re-iterable
            A long frame's chunks (:func:`bayeskit.data.read_chunks` of a CSV or Parquet
            file, or a list of DataFrames) with ``sequence_column`` set (a sequence may run
            across chunk boundaries, but its rows must be consecutive); or ``(X, lengths)``
            pairs; or arrays of one sequence each; or a function returning a fresh iterator
            of any of these. The initialisation looks at the first rows of every chunk.
        progress : bool or callable, optional
            Called as ``progress(iteration, log_likelihood)``; True shows a display.

        Returns
        -------
        HiddenMarkovModel
            The fitted model.

        Raises
        ------
        ValueError
            When ``chunks`` can be read only once (a generator), is empty, or holds bad data.

        Examples
        --------
        >>> from bayeskit.sequences import HiddenMarkovModel
        >>> X = np.r_[np.zeros(20), np.full(20, 5.0), np.zeros(20)][:, None]
        >>> chunks = [(X[:30], [30]), (X[30:], [30])]
        >>> model = HiddenMarkovModel(2, random_state=0).fit_chunks(chunks)
        >>> sorted(model.means_.ravel().round(2).tolist())
        [0.0, 5.0]
        """
        _data.check_settings(self)
        emission = self._emission()
        again = _data.reiterable(chunks)

        def pieces():
            return _data.pieces(again(), self.sequence_column, emission)

        sample = _data.head_rows(pieces())
        if sample is None:
            msg = "chunks holds no data"
            raise ValueError(msg)

        def e_step(params):
            return summed_statistics(emission, params, pieces(), self.implementation)

        return learn(self, emission, sample, e_step, None, progress=progress)

    def fit_e_step(self, e_step, sample, *, progress=None) -> Any:
        """Learn by Baum-Welch with an E-step of your own (data on a cluster, say).

        Parameters
        ----------
        e_step : callable
            ``e_step(params) -> (stats, log_likelihood)``: the expected statistics of all the
            data under the parameters ``params`` (a dict of ``startprob_``, ``transmat_`` and
            the emission's arrays), merged over its parts, and their log-likelihood;
            :func:`~bayeskit.sequences.summed_statistics` computes them for a part.
            :func:`bayeskit.dask.fit_hmm` runs it on each partition of a Dask DataFrame.
        sample : array-like or pandas.DataFrame
            Observations (with ``sequence_column`` for a long frame) that the initialisation
            looks at: a part of the data is enough.
        progress : bool or callable, optional
            Called as ``progress(iteration, log_likelihood)``; True shows a display.

        Returns
        -------
        HiddenMarkovModel
            The fitted model.

        Raises
        ------
        ValueError
            On bad settings or a bad ``sample``.

        Examples
        --------
        >>> from bayeskit.sequences import HiddenMarkovModel, sequence_offsets, summed_statistics
        >>> X = np.r_[np.zeros(20), np.full(20, 5.0)][:, None]
        >>> model = HiddenMarkovModel(2, random_state=0)
        >>> gaussian, parts = model.emission_distribution(), [X[:20], X[20:]]
        >>> pieces = [(gaussian.check(p), sequence_offsets(None, len(p))) for p in parts]
        >>> model.fit_e_step(lambda params: summed_statistics(gaussian, params, pieces), X)
        HiddenMarkovModel(random_state=0)
        >>> sorted(model.means_.ravel().round(2).tolist())
        [0.0, 5.0]
        """
        _data.check_settings(self)
        emission = self._emission()
        data, _ = _data.sequences(sample, None, self.sequence_column, emission)
        return learn(self, emission, data, e_step, None, progress=progress)

    def partial_fit(self, X, lengths=None, *, decay: float = 1.0) -> Any:
        """Learn from new sequences as they arrive: one incremental Baum-Welch step.

        The expected statistics of ``X`` under the current parameters are added to those of
        every earlier call (``stats_``), and the parameters are re-estimated from the total
        (incremental EM for a stream, Neal and Hinton 1998, without revisiting old data). The
        first call on a model without parameters initialises them from ``X`` as :meth:`fit`
        does (``init_params``); on a fitted model it continues from its parameters. Each
        sequence must lie within one call. :meth:`fit` starts the statistics afresh.

        Parameters
        ----------
        X : array-like of shape (n_steps, n_features) or pandas.DataFrame
            New sequences, one after the other (with ``sequence_column`` for a long frame).
        lengths : array-like of int, optional
            Their lengths (default one sequence).
        decay : float in (0, 1], default=1.0
            The weight of the earlier statistics: 1 counts every call's data alike; below 1
            forgets, geometrically, statistics computed under older (worse) parameters, so the
            model follows the stream faster and tracks a drifting one.

        Returns
        -------
        HiddenMarkovModel
            The updated model.

        Raises
        ------
        ValueError
            On bad settings, data or ``decay``, or a sequence of probability 0 under the model.

        Examples
        --------
        >>> from bayeskit.sequences import HiddenMarkovModel
        >>> model = HiddenMarkovModel(2, emission="poisson", init_params="stl", random_state=0)
        >>> counts = np.r_[np.zeros(10), np.full(10, 6.0)][:, None]
        >>> for day in range(5):
        ...     model = model.partial_fit(counts)
        >>> sorted(model.lambdas_.ravel().round(1).tolist())  # the first days' guesses weigh
        [0.4, 5.6]
        >>> for day in range(5):
        ...     model = model.partial_fit(counts, decay=0.5)
        >>> sorted(model.lambdas_.ravel().round(1).tolist())
        [0.0, 6.0]
        """
        _data.check_settings(self)
        if not 0.0 < decay <= 1.0:
            msg = f"decay must be in (0, 1], got {decay!r}"
            raise ValueError(msg)
        emission = self._emission()
        data, offsets = _data.sequences(X, lengths, self.sequence_column, emission)
        names = ("startprob_", "transmat_", *emission.parameter_names)
        earlier = getattr(self, "stats_", None)
        if earlier is None and not all(hasattr(self, k) for k in names):
            init = _data.letters(emission, self.init_params, "init_params")
            given = {k: getattr(self, k) for k in names if hasattr(self, k)}
            rng = np.random.default_rng(self.random_state)
            params = initial_parameters(emission, data, self.n_states, init, rng, given)
        else:  # continue from the fitted (or hand-set) parameters
            params = {k: getattr(self, k) for k in names}
            check_parameters(emission, params, self.n_states)
        if earlier is None:
            self.zeros_ = {k: np.asarray(params[k]) == 0 for k in ("startprob_", "transmat_")}
        stats, _ = expected_statistics(emission, params, data, offsets, None, self.implementation)
        if earlier is not None and decay < 1.0:
            earlier = {k: decay * v for k, v in earlier.items()}
        total = stats if earlier is None else merge_statistics(earlier, stats)
        update = _data.letters(emission, self.params, "params")
        priors = (self.startprob_prior, self.transmat_prior)
        new = maximize(emission, total, params, update, *priors, self.zeros_)
        for name, value in new.items():
            setattr(self, name, value)
        self.stats_ = total
        return self
