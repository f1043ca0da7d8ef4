"""One EM loop for every model that learns from incomplete data (Dempster, Laird and Rubin
1977; Zhou, *Machine Learning*, 7.6, Eqs. 7.36-7.37).

EM alternates two steps, and only they differ from one model to the next:

* the **E-step** turns the current parameters into *expected statistics* (the counts or
  responsibilities that complete data would give, in expectation under the parameters) and
  the *objective* of those parameters: the observed-data log-likelihood, plus the log density
  of a prior for MAP-EM (the log posterior up to a constant);
* the **M-step** turns statistics into parameters: the model's estimator, as from complete
  data.

:func:`run_em` owns the rest, once: the loop, the stopping rule, the objective's history, the
count of iterations, whether EM converged, progress reports and the warning when it did not.
Network EM's E-step is the junction tree's expected family counts, a semi-supervised
classifier's the posterior of its unlabelled rows' classes, a mixture's the responsibilities
of its components; each M-step is the estimator the model uses on complete data.

Two orders of the steps occur, both ``E, M, E, M, ...`` from given parameters, differing in
the last step: with ``m_step_last=False`` the loop ends on an E-step, so the parameters
returned are those whose objective is last in the history; with ``m_step_last=True`` every
E-step is followed by an M-step, the last included (the parameters returned are one M-step
past the last objective). A caller that starts from statistics (initial responsibilities, the
labelled rows' counts) makes the first M-step itself and passes its parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from bayeskit._progress import iterations_adapter, reporting
from bayeskit._warnings import warn

__all__ = ["EMRun", "EStep", "run_em", "settled", "settled_finite"]


class EStep(NamedTuple):
    """What an E-step returns.

    Attributes
    ----------
    statistics : object
        The expected statistics the M-step estimates from (any object: the driver only hands
        it on).
    objective : float
        What EM maximises, for the parameters this E-step used: the log-likelihood, or the log
        posterior (log-likelihood plus the log prior density) for MAP-EM.
    log_likelihood : float, optional
        The observed-data log-likelihood, when the caller keeps it apart from the objective
        (it is then what progress reports show).

    Examples
    --------
    An E-step that fills the missing values of ``[1, 2, ?]`` with the current mean returns
    the filled sum (the M-step divides it by 3) and the objective at that mean:

    >>> mean = 1.0
    >>> step = EStep(1.0 + 2.0 + mean, objective=-((1.0 - mean) ** 2 + (2.0 - mean) ** 2))
    >>> step.statistics, step.objective, step.log_likelihood
    (4.0, -1.0, None)
    """

    statistics: Any
    objective: float
    log_likelihood: float | None = None


@dataclass
class EMRun:
    """The outcome of :func:`run_em`.

    Attributes
    ----------
    parameters : object
        The last parameters: those of the last E-step (``m_step_last=False``), or the M-step's
        estimate from its statistics (``m_step_last=True``).
    statistics : object
        The last E-step's statistics.
    objective : list of float
        The objective of each E-step, in order.
    log_likelihood : list of float
        The log-likelihood of each E-step, where the E-step gave one (else empty).
    n_iter : int
        E-steps made (the length of ``objective``).
    converged : bool
        Whether the stopping rule held before ``max_iter`` E-steps were spent (or at the last).

    Examples
    --------
    The mean of ``[1, 2, ?]`` by EM (:func:`run_em`), stopped after three E-steps:

    >>> def e_step(mean, t):
    ...     return EStep(3.0 + mean, -((1.0 - mean) ** 2 + (2.0 - mean) ** 2))
    >>> run = run_em(e_step, lambda total: total / 3, 0.0, max_iter=3, tol=1e-12)
    >>> run.n_iter, run.converged, round(run.parameters, 4)  # the third E-step's mean
    (3, False, 1.3333)
    >>> [round(v, 3) for v in run.objective]
    [-5.0, -1.0, -0.556]
    """

    parameters: Any
    statistics: Any = None
    objective: list[float] = field(default_factory=list)
    log_likelihood: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False


def settled(objective: Sequence[float], tol: float) -> bool:
    """Whether EM has converged: the last change of ``objective`` is at most ``tol`` relative
    to its size, taken as at least 1: ``|o[-1] - o[-2]| <= tol max(1, |o[-2]|)``. Network EM
    and the classifiers' EM stop on it.

    Parameters
    ----------
    objective : sequence of float
        The objective after each iteration so far.
    tol : float
        The relative tolerance.

    Returns
    -------
    bool
        False with fewer than two values.

    Examples
    --------
    >>> settled([-100.0, -99.99999], 1e-6), settled([-100.0, -99.9], 1e-6)
    (True, False)
    >>> settled([0.5, 0.5000008], 1e-6)  # near 0 the change is measured against 1
    True
    """
    return len(objective) > 1 and abs(objective[-1] - objective[-2]) <= tol * max(
        1.0, abs(objective[-2])
    )


def settled_finite(objective: Sequence[float], tol: float) -> bool:
    """Whether EM has converged: the last two values of ``objective`` are finite and differ by
    at most ``tol`` times the earlier one's size, ``|o[-1] - o[-2]| <= tol |o[-2]|`` (no floor
    at 1). The mixtures of :class:`~bayeskit.classifiers.SubclassNaiveBayes` stop on it.

    Parameters
    ----------
    objective : sequence of float
        The objective after each iteration so far.
    tol : float
        The relative tolerance.

    Returns
    -------
    bool
        False with fewer than two values, or where either is not finite.

    Examples
    --------
    >>> settled_finite([-100.0, -99.99999], 1e-6), settled_finite([-np.inf, -5.0], 1e-6)
    (True, False)
    >>> settled_finite([0.5, 0.5000008], 1e-6)  # measured against 0.5 itself
    False
    """
    if len(objective) < 2:
        return False
    last, prev = objective[-1], objective[-2]
    return bool(np.isfinite(last) and np.isfinite(prev) and abs(last - prev) <= tol * abs(prev))


def run_em(
    e_step: Callable[[Any, int], EStep],
    m_step: Callable[[Any], Any],
    parameters: Any,
    *,
    max_iter: int,
    tol: float,
    stop: Callable[[Sequence[float], float], bool] = settled,
    m_step_last: bool = False,
    progress: Any = None,
    description: str = "EM",
    warn_unconverged: str | None = None,
) -> EMRun:
    """Run EM from ``parameters``: E-step, M-step, ... until ``stop`` holds or ``max_iter``
    E-steps are made.

    Each iteration ``t = 1, 2, ...``: ``e_step(parameters, t)`` gives the expected statistics
    and the objective, which is recorded (and reported to ``progress``); the iteration stops
    EM when ``stop(objective history, tol)`` holds (EM then *converged*) or when
    ``t == max_iter``; otherwise, and always with ``m_step_last=True``, ``parameters =
    m_step(statistics)`` (with ``m_step_last=True`` before ``stop`` is asked, so a rule may
    look at what the M-step found, as structural EM asks whether the DAG changed).

    Parameters
    ----------
    e_step : callable
        ``e_step(parameters, iteration) -> EStep`` (``iteration`` from 1, for messages).
    m_step : callable
        ``m_step(statistics) -> parameters``: the estimator.
    parameters : object
        Where EM starts (the first E-step's parameters).
    max_iter : int
        The most E-steps (at least 1).
    tol : float
        The tolerance ``stop`` is given.
    stop : callable, default=:func:`settled`
        ``stop(objective, tol) -> bool`` on the history so far, asked after every iteration:
        :func:`settled` (relative change, at least 1 in scale) or :func:`settled_finite`
        (relative change, finite values), both false on a history of one value.
    m_step_last : bool, default=False
        Whether the last E-step is followed by an M-step too (module docstring).
    progress : None, bool or callable
        Called as ``progress(iteration, value)`` after every E-step, ``value`` the E-step's
        log-likelihood if it gave one, else its objective; ``True`` shows a display on standard
        error (:mod:`bayeskit._progress`).
    description : str, default="EM"
        What a progress display calls the work.
    warn_unconverged : str, optional
        Who is running EM (``"SubclassNaiveBayes"``, ``"fit_em"``): when given and EM stops
        at ``max_iter`` without converging, a :class:`~sklearn.exceptions.ConvergenceWarning`
        says so. None (default): no warning.

    Returns
    -------
    EMRun

    Examples
    --------
    The mean of ``[1, 2, ?, ?]`` by EM: the E-step fills each missing value with the current
    mean, the M-step averages; each step halves the distance to the fixed point, 1.5.

    >>> def e_step(mean, t):
    ...     filled = [1.0, 2.0, mean, mean]
    ...     return EStep(sum(filled), -((1.0 - mean) ** 2 + (2.0 - mean) ** 2))
    >>> run = run_em(e_step, lambda total: total / 4, 0.0, max_iter=100, tol=1e-12)
    >>> round(run.parameters, 6), run.converged, run.n_iter  # change 13.5 / 4^(t-1) at t
    (1.5, True, 23)
    >>> bool(np.all(np.diff(run.objective) >= 0))  # the objective never decreases
    True
    """
    objective: list[float] = []
    log_likelihood: list[float] = []
    converged = False
    statistics = None
    with reporting(progress, description, iterations_adapter(max_iter, "log-likelihood")) as tick:
        for iteration in range(1, max_iter + 1):
            step = e_step(parameters, iteration)
            statistics = step.statistics
            objective.append(step.objective)
            if step.log_likelihood is not None:
                log_likelihood.append(step.log_likelihood)
            if tick is not None:
                shown = step.objective if step.log_likelihood is None else step.log_likelihood
                tick(iteration, shown)
            if m_step_last:
                parameters = m_step(statistics)
            if stop(objective, tol):
                converged = True
                break
            if iteration == max_iter:
                break
            if not m_step_last:
                parameters = m_step(statistics)
    if not converged and warn_unconverged is not None:
        _warn_unconverged(warn_unconverged, max_iter, objective)
    return EMRun(parameters, statistics, objective, log_likelihood, len(objective), converged)


def _warn_unconverged(who: str, max_iter: int, objective: list[float]) -> None:
    from sklearn.exceptions import ConvergenceWarning  # only when there is one to raise

    change = f"{objective[-1] - objective[-2]:.3g}" if len(objective) > 1 else "none"
    msg = (
        f"{who}: EM did not converge in {max_iter} iterations (last change of the objective: "
        f"{change}); raise max_iter or tol"
    )
    warn(msg, ConvergenceWarning)
