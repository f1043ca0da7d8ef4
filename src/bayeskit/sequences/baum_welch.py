"""Baum-Welch: EM for a hidden Markov model, as an E-step and an M-step over statistics.

The E-step (:func:`expected_statistics`) runs forward-backward and returns the expected
counts that complete data would give: how often each state starts a sequence, how often each
transition is taken, and the emission's posterior-weighted statistics. They are sums over
sequences, so those of several chunks or partitions add up (``merge_statistics``). The M-step
(:func:`maximize`) turns them into parameters: posterior modes under Dirichlet priors for the
start and transition rows (Rabiner 1989, Eqs. 40a-c, with pseudo-counts) and the emission's
own estimate. :func:`baum_welch` runs the two on :func:`bayeskit.estimate.em.run_em`; its
objective, the log-likelihood plus the priors' log density, never decreases.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from scipy import special

from bayeskit._compiled import run_blocks
from bayeskit.estimate.em import EMRun, EStep, run_em
from bayeskit.sequences.emissions import Emission, _check_stochastic, _normalised_rows
from bayeskit.sequences.forward_backward import _blocks, _check_offsets, run_forward_backward

__all__ = [
    "baum_welch",
    "check_parameters",
    "expected_statistics",
    "initial_parameters",
    "log_frame",
    "log_prior",
    "maximize",
    "merge_statistics",
    "summed_statistics",
]


def check_parameters(emission: Emission, params: dict, n_states: int) -> None:
    """Raise ``ValueError`` unless ``params`` is a valid model of ``n_states`` states.

    Parameters
    ----------
    emission : Emission
        The emission whose parameters ``params`` also holds.
    params : dict
        ``startprob_``, ``transmat_`` and the emission's parameters.
    n_states : int
        The number of hidden states.

    Raises
    ------
    ValueError
        On a wrong shape, or rows that are not probability distributions (a user-set
        ``transmat_`` whose rows do not sum to 1, say).

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> params = {"startprob_": [0.5, 0.5], "transmat_": [[0.9, 0.2], [0.5, 0.5]],
    ...           "lambdas_": [[1.0], [2.0]]}
    >>> check_parameters(PoissonEmission({}), params, 2)
    Traceback (most recent call last):
    ...
    ValueError: transmat_ rows must sum to 1; row 0 sums to 1.1
    """
    start = np.asarray(params["startprob_"], dtype=float)
    trans = np.asarray(params["transmat_"], dtype=float)
    if start.shape != (n_states,):
        msg = f"startprob_ must have shape ({n_states},), got {start.shape}"
        raise ValueError(msg)
    if trans.shape != (n_states, n_states):
        msg = f"transmat_ must have shape ({n_states}, {n_states}), got {trans.shape}"
        raise ValueError(msg)
    _check_stochastic(start, "startprob_")
    _check_stochastic(trans, "transmat_")
    emission.validate(params, n_states)


def initial_parameters(
    emission: Emission,
    data: np.ndarray,
    n_states: int,
    init: str,
    rng: np.random.Generator,
    given: dict | None = None,
) -> dict:
    """Where Baum-Welch starts: uniform start and transition rows, the emission's own start
    from the data (k-means centres for a Gaussian, random rows for a categorical one), and
    ``given`` values for the parameters whose letters ``init`` leaves out.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    data : ndarray
        The observations, as ``emission.check`` returns them.
    n_states : int
        The number of hidden states.
    init : str
        Letters of the parameters to initialise (``s``, ``t`` and the emission's).
    rng : numpy.random.Generator
        The random numbers.
    given : dict, optional
        Parameters set by hand (copied, never changed).

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        When a parameter is neither initialised nor given, or a given one is invalid.

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> e = PoissonEmission({})
    >>> given = {"lambdas_": [[1.0], [5.0]]}
    >>> p = initial_parameters(e, e.check([[1.0]]), 2, "st", np.random.default_rng(0), given)
    >>> p["transmat_"].tolist(), p["lambdas_"].tolist()
    ([[0.5, 0.5], [0.5, 0.5]], [[1.0], [5.0]])
    """
    names = ("startprob_", "transmat_", *emission.parameter_names)
    params = {k: np.array(v, dtype=float, copy=True) for k, v in (given or {}).items()}
    if "s" in init:
        params["startprob_"] = np.full(n_states, 1.0 / n_states)
    if "t" in init:
        params["transmat_"] = np.full((n_states, n_states), 1.0 / n_states)
    if any(letter in init for letter in emission.codes):
        fresh = emission.initialize(data, n_states, rng)
        params.update({k: fresh[k] for letter, k in emission.codes.items() if letter in init})
    missing = [k for k in names if k not in params]
    if missing:
        msg = f"{', '.join(missing)} must be set before fit when init_params leaves them out"
        raise ValueError(msg)
    check_parameters(emission, params, n_states)
    return params


def log_frame(emission: Emission, params: dict, data: np.ndarray, known=None) -> np.ndarray:
    """The emission log-likelihoods ``(n_steps, n_states)``, with each known state enforced.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    params : dict
        Its parameters.
    data : ndarray
        The observations, as ``emission.check`` returns them.
    known : ndarray of int of shape (n_steps,), optional
        A state per step (-1 = unknown): at a known step every other state gets ``-inf``.

    Returns
    -------
    ndarray of shape (n_steps, n_states)

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> e = PoissonEmission({})
    >>> log_frame(e, {"lambdas_": [[1.0], [2.0]]}, e.check([[0.0]]), np.array([1])).tolist()
    [[-inf, -2.0]]
    """
    frame = emission.log_likelihood(params, data)
    if known is not None:
        rows = known >= 0
        own = np.arange(frame.shape[1]) == known[rows, None]
        frame[rows] = np.where(own, frame[rows], -np.inf)
    return frame


def _run(emission, params, data, offsets, known, implementation, transitions=True, posteriors=True):
    """Forward-backward under ``params`` (checked) on ``data`` with checked ``offsets``."""
    frame = np.ascontiguousarray(log_frame(emission, params, data, known), dtype=np.float64)
    # log-likelihoods are below +inf, so a sum is NaN only when an entry is (one pass, no mask)
    if np.isnan(frame.sum()) and np.isnan(frame).any():
        msg = "the emission log-likelihoods have NaN entries"
        raise ValueError(msg)
    start = np.ascontiguousarray(params["startprob_"], dtype=np.float64)
    trans = np.ascontiguousarray(params["transmat_"], dtype=np.float64)
    return run_forward_backward(
        start, trans, frame, offsets, implementation, posteriors, transitions
    )


def expected_statistics(
    emission: Emission,
    params: dict,
    data: np.ndarray,
    offsets: np.ndarray,
    known=None,
    implementation: str = "scaling",
) -> tuple[dict, np.ndarray]:
    """The E-step: expected start, transition and emission statistics, and log-likelihoods.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    params : dict
        ``startprob_``, ``transmat_`` and the emission's parameters.
    data : ndarray
        The observations of all sequences, as ``emission.check`` returns them.
    offsets : ndarray of int
        Where each sequence starts, and the end (:func:`~bayeskit.sequences.sequence_offsets`).
    known : ndarray of int, optional
        Known states (-1 = unknown).
    implementation : {"scaling", "log"}, default="scaling"
        Forward-backward's implementation.

    Returns
    -------
    stats : dict of str to ndarray
        ``"start"`` ``(n_states,)``, ``"trans"`` ``(n_states, n_states)`` and the emission's
        entries; mergeable with :func:`merge_statistics`.
    log_likelihood : ndarray of shape (n_sequences,)

    Raises
    ------
    ValueError
        When a sequence has probability 0 under ``params``.

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> e = PoissonEmission({})
    >>> params = {"startprob_": np.array([1.0, 0.0]), "transmat_": np.eye(2),
    ...           "lambdas_": np.array([[1.0], [2.0]])}
    >>> stats, ll = expected_statistics(e, params, e.check([[0.0], [3.0]]), np.array([0, 2]))
    >>> stats["start"].tolist(), stats["trans"].tolist(), stats["obs"].ravel().tolist()
    ([1.0, 0.0], [[1.0, 0.0], [0.0, 0.0]], [3.0, 0.0])
    """
    offsets = np.asarray(offsets, np.intp)
    step = None
    if known is None and implementation == "scaling":
        step = emission._compiled_e_step(params, data)
    if step is None:
        stats, loglik = _generic(emission, params, data, offsets, known, implementation)
    else:
        stats, loglik = _compiled(step, emission, params, data, offsets)
    if loglik.sum() == -np.inf:
        bad = np.flatnonzero(loglik == -np.inf)
        msg = (
            f"sequence {int(bad[0])} has probability 0 under the model (a transition or "
            f"emission it needs is 0); give it a prior above 1 or other starting values"
        )
        raise ValueError(msg)
    return stats, loglik


def _generic(emission, params, data, offsets, known, implementation) -> tuple[dict, np.ndarray]:
    """The E-step by the emission's log-likelihoods, forward-backward and its statistics."""
    fb = _run(emission, params, data, offsets, known, implementation)
    if fb.log_likelihood.sum() == -np.inf:  # the caller refuses it; no statistics to gather
        return {}, fb.log_likelihood
    assert fb.posteriors is not None
    assert fb.transitions is not None
    firsts = offsets[:-1] if len(offsets) == 2 else offsets[:-1][offsets[1:] > offsets[:-1]]
    stats = {"start": fb.posteriors[firsts].sum(axis=0), "trans": fb.transitions}
    stats.update(emission.statistics(data, fb.posteriors, params))
    return stats, fb.log_likelihood


def _compiled(step, emission, params, data, offsets) -> tuple[dict, np.ndarray]:
    """:func:`expected_statistics` by an emission's compiled E-step, a block of sequences per
    thread; a sequence the scaled pass could not do is redone by the generic steps."""
    start = np.ascontiguousarray(params["startprob_"], dtype=np.float64)
    trans = np.ascontiguousarray(params["transmat_"], dtype=np.float64)
    _check_offsets(offsets, len(data))
    loglik = np.zeros(len(offsets) - 1)
    n = len(start)
    blocks = _blocks(offsets, n, n * (n + 3 * data.shape[-1]))  # densities and moments too
    parts = run_blocks([partial(step, start, trans, offsets, a, b, loglik) for a, b in blocks],
                       len(blocks))  # fmt: skip
    stats = None
    for xi, firsts, emitted in parts:
        part = {"start": firsts, "trans": xi, **emitted}
        stats = part if stats is None else merge_statistics(stats, part)
    assert stats is not None
    if np.isnan(loglik.sum()):
        redo = np.flatnonzero(np.isnan(loglik))
        rows = np.concatenate([np.arange(offsets[s], offsets[s + 1]) for s in redo])
        sub = np.concatenate([[0], np.cumsum(offsets[redo + 1] - offsets[redo])])
        again, loglik[redo] = _generic(emission, params, data[rows], sub, None, "scaling")
        if again:
            stats = merge_statistics(stats, again)
    return stats, loglik


def merge_statistics(a: dict, b: dict) -> dict:
    """The statistics of two sets of sequences together: entry by entry sums.

    Parameters
    ----------
    a, b : dict of str to ndarray
        Statistics from :func:`expected_statistics`.

    Returns
    -------
    dict of str to ndarray

    Raises
    ------
    ValueError
        When the two hold different statistics (of different emissions).

    Examples
    --------
    >>> merge_statistics({"start": np.array([1.0, 0.0])}, {"start": np.array([0.5, 0.5])})
    {'start': array([1.5, 0.5])}
    """
    if a.keys() != b.keys():
        msg = f"statistics of different models: {sorted(a)} and {sorted(b)}"
        raise ValueError(msg)
    out = {}
    for key, value in a.items():
        other = b[key]
        if np.shape(value) != np.shape(other):  # categorical counts over different symbols
            width = max(np.shape(value)[-1], np.shape(other)[-1])
            pad = [(0, 0)] * (np.ndim(value) - 1)
            value = np.pad(value, [*pad, (0, width - np.shape(value)[-1])])
            other = np.pad(other, [*pad, (0, width - np.shape(other)[-1])])
        out[key] = value + other
    return out


def _mode(counts, prior, previous, zero) -> np.ndarray:
    """The Dirichlet mode, with the entries that started at 0 held at 0."""
    mode = np.maximum(counts + (np.asarray(prior, dtype=float) - 1.0), 0.0)
    if zero is not None:
        mode[zero] = 0.0
    return _normalised_rows(mode, previous)


def maximize(
    emission: Emission,
    stats: dict,
    params: dict,
    update: str,
    startprob_prior=1.0,
    transmat_prior=1.0,
    zeros: dict | None = None,
) -> dict:
    """The M-step: new parameters from expected statistics.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    stats : dict
        From :func:`expected_statistics` (or merged ones).
    params : dict
        The current parameters; those not updated are kept.
    update : str
        Letters of the parameters to update (``s`` start, ``t`` transitions, the emission's).
    startprob_prior, transmat_prior : float or array-like, default=1.0
        Dirichlet concentrations (1: maximum likelihood).
    zeros : dict of str to ndarray of bool, optional
        Entries of ``startprob_`` and ``transmat_`` to hold at 0.

    Returns
    -------
    dict
        The parameters. A start or transition row without expected counts keeps its
        previous values.

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> stats = {"start": np.array([2.0, 0.0]), "trans": np.array([[3.0, 1.0], [0.0, 0.0]]),
    ...          "post_f": np.array([[4.0], [1.0]]), "obs": np.array([[8.0], [1.0]])}
    >>> params = {"startprob_": np.full(2, 0.5), "transmat_": np.full((2, 2), 0.5),
    ...           "lambdas_": np.ones((2, 1))}
    >>> new = maximize(PoissonEmission({}), stats, params, "stl")
    >>> new["startprob_"].tolist(), new["transmat_"].tolist(), new["lambdas_"].ravel().tolist()
    ([1.0, 0.0], [[0.75, 0.25], [0.5, 0.5]], [2.0, 1.0])
    """
    zeros = zeros or {}
    new = dict(params)
    for letter, name, key, prior in (
        ("s", "startprob_", "start", startprob_prior),
        ("t", "transmat_", "trans", transmat_prior),
    ):
        if letter in update:
            old = np.asarray(params[name], dtype=float)
            new[name] = _mode(stats[key], prior, old, zeros.get(name))
    new.update(emission.estimate(stats, params, update))
    return new


def log_prior(emission: Emission, params: dict, startprob_prior=1.0, transmat_prior=1.0) -> float:
    """The priors' log density at ``params`` (up to a constant): Dirichlet terms
    ``sum (alpha - 1) log p`` and the emission's prior.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    params : dict
        The parameters.
    startprob_prior, transmat_prior : float or array-like, default=1.0
        Dirichlet concentrations.

    Returns
    -------
    float

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> params = {"startprob_": np.array([0.5, 0.5]), "transmat_": np.eye(2),
    ...           "lambdas_": np.ones((2, 1))}
    >>> round(log_prior(PoissonEmission({}), params, startprob_prior=2.0), 4)
    -1.3863
    """
    total = 0.0
    for prior, name in ((startprob_prior, "startprob_"), (transmat_prior, "transmat_")):
        if isinstance(prior, int | float) and prior == 1:
            continue  # a flat prior adds nothing
        weight = np.asarray(prior, dtype=float) - 1.0
        if weight.any():  # a flat prior (1) adds nothing
            total += float(np.sum(special.xlogy(weight, params[name])))
    return total + emission.log_prior(params)


def _absolute_change_below(objective, tol: float) -> bool:
    """hmmlearn's rule: stop when the objective changed by less than ``tol`` (absolute)."""
    return len(objective) > 1 and abs(objective[-1] - objective[-2]) < tol


def summed_statistics(
    emission: Emission, params: dict, pieces, implementation: str = "scaling"
) -> tuple[dict, float]:
    """The E-step over pieces of whole sequences (chunks, partitions): their expected
    statistics merged and their log-likelihoods added.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    params : dict
        ``startprob_``, ``transmat_`` and the emission's parameters.
    pieces : iterable of (ndarray, ndarray)
        ``(data, offsets)`` of each piece, ``data`` as ``emission.check`` returns it.
    implementation : {"scaling", "log"}, default="scaling"
        Forward-backward's implementation.

    Returns
    -------
    stats : dict of str to ndarray
        As :func:`expected_statistics` gives for all the pieces together.
    log_likelihood : float
        The log-likelihood of every sequence of every piece, summed.

    Raises
    ------
    ValueError
        When there are no pieces, or a sequence has probability 0.

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> e = PoissonEmission({})
    >>> params = {"startprob_": np.array([0.5, 0.5]), "transmat_": np.full((2, 2), 0.5),
    ...           "lambdas_": np.array([[1.0], [2.0]])}
    >>> one = [(e.check([[0.0], [3.0]]), np.array([0, 2]))]
    >>> two = [(e.check([[0.0]]), np.array([0, 1])), (e.check([[3.0]]), np.array([0, 1]))]
    >>> a, b = summed_statistics(e, params, one), summed_statistics(e, params, two)
    >>> bool(np.allclose(a[0]["obs"], b[0]["obs"])), round(a[1] - b[1], 12)  # no transition
    (True, 0.0)
    """
    return _summed(emission, params, pieces, None, implementation)


def _summed(emission, params, pieces, known, implementation) -> tuple[dict, float]:
    """:func:`summed_statistics`, with ``known`` states for a single piece."""
    stats, total, count = None, 0.0, 0
    for piece, offsets in pieces:
        count += 1
        part, loglik = expected_statistics(
            emission, params, piece, offsets, known if count == 1 else None, implementation
        )
        stats = part if stats is None else merge_statistics(stats, part)
        total += float(loglik.sum())
    if stats is None:
        msg = "there are no sequences to learn from (every chunk was empty)"
        raise ValueError(msg)
    return stats, total


def baum_welch(
    emission: Emission,
    params: dict,
    data: np.ndarray,
    offsets: np.ndarray,
    *,
    update: str,
    known=None,
    startprob_prior=1.0,
    transmat_prior=1.0,
    implementation: str = "scaling",
    max_iter: int = 10,
    tol: float = 1e-2,
    progress=None,
) -> EMRun:
    """Baum-Welch from ``params``: E-steps and M-steps in turn until the objective changes by less
    than ``tol`` or ``max_iter`` iterations are made. Entries of ``startprob_`` and
    ``transmat_`` that are 0 in ``params`` stay 0.

    Parameters
    ----------
    emission : Emission
        The emission distribution.
    params : dict
        The starting parameters.
    data : ndarray or callable
        The observations of all sequences, as ``emission.check`` returns them; or, for data
        too large for memory or spread over machines, the E-step itself: a function of the
        current parameters that returns the expected statistics and log-likelihood of all the
        data (``offsets`` and ``known`` are then None), as :func:`summed_statistics` does for
        chunks read one at a time.
    offsets : ndarray of int or None
        Where each sequence starts, and the end.
    update : str
        Letters of the parameters to update.
    known : ndarray of int, optional
        Known states (-1 = unknown).
    startprob_prior, transmat_prior : float or array-like, default=1.0
        Dirichlet concentrations.
    implementation : {"scaling", "log"}, default="scaling"
        Forward-backward's implementation.
    max_iter : int, default=10
        The most iterations.
    tol : float, default=1e-2
        The absolute change of the objective under which EM stops.
    progress : None, bool or callable
        Called as ``progress(iteration, log_likelihood)``; True shows a display.

    Returns
    -------
    EMRun
        The last M-step's ``parameters``; ``objective`` (log-likelihood plus log prior) and
        ``log_likelihood`` per iteration; ``n_iter``; ``converged``.

    Examples
    --------
    >>> from bayeskit.sequences import PoissonEmission
    >>> e = PoissonEmission({})
    >>> X = e.check(np.r_[np.zeros(10), np.full(10, 6.0)])
    >>> params = {"startprob_": np.full(2, 0.5), "transmat_": np.full((2, 2), 0.5),
    ...           "lambdas_": np.array([[1.0], [3.0]])}
    >>> run = baum_welch(e, params, X, np.array([0, 20]), update="stl", max_iter=50)
    >>> rates, climbs = run.parameters["lambdas_"], np.diff(run.objective)
    >>> rates.ravel().round(3).tolist(), bool(np.all(climbs >= 0))
    ([0.0, 6.0], True)

    The same from two chunks of one sequence each, read afresh on every iteration:

    >>> halves = [(X[:10], np.array([0, 10])), (X[10:], np.array([0, 10]))]
    >>> e_step = lambda current: summed_statistics(e, current, halves)
    >>> run = baum_welch(e, params, e_step, None, update="stl", max_iter=50)
    >>> run.parameters["lambdas_"].ravel().round(3).tolist()
    [0.0, 6.0]
    """
    zeros = {k: np.asarray(params[k]) == 0 for k in ("startprob_", "transmat_")}
    whole = [(data, offsets)]

    def e_step(current, iteration):
        if callable(data):
            stats, total = data(current)
        else:
            stats, total = _summed(emission, current, whole, known, implementation)
        objective = total + log_prior(emission, current, startprob_prior, transmat_prior)
        return EStep((current, stats), objective, total)

    def m_step(step):
        current, stats = step
        return maximize(emission, stats, current, update, startprob_prior, transmat_prior, zeros)

    return run_em(
        e_step,
        m_step,
        params,
        max_iter=max_iter,
        tol=tol,
        stop=_absolute_change_below,
        m_step_last=True,
        progress=progress,
        description="Baum-Welch",
    )
