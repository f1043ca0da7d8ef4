"""The generic EM driver (bayeskit.estimate.em.run_em) on cases whose answer is known apart
from it: Dempster, Laird and Rubin's genetic linkage example (closed-form MLE, and the iterates
of their Table 1), and a mixing weight whose MAP estimate a grid search finds."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from bayeskit.estimate.em import EStep, run_em, settled, settled_finite

# Dempster, Laird and Rubin (1977), Sect. 1: 197 animals in 4 cells of probabilities
# (1/2 + t/4, (1 - t)/4, (1 - t)/4, t/4); the first cell is two unobserved ones (1/2 and t/4)
COUNTS = (125, 18, 20, 34)
# the MLE: the root in (0, 1) of 197 t^2 - 15 t - 68 = 0 (the score equation times 4 t(1-t)(2+t))
LINKAGE_MLE = (15 + math.sqrt(15**2 + 4 * 197 * 68)) / (2 * 197)
# their Table 1: EM's iterates from t = 0.5
TABLE_1 = [0.608247423, 0.624321050, 0.626488879, 0.626777322, 0.626815632]


def linkage_e_step(t: float, _: int) -> EStep:
    """Expected count of the t/4 half of the first cell, and the observed log-likelihood."""
    hidden = COUNTS[0] * (t / 4) / (0.5 + t / 4)
    ll = COUNTS[0] * math.log(2 + t) + (COUNTS[1] + COUNTS[2]) * math.log(1 - t)
    ll += COUNTS[3] * math.log(t)
    return EStep(hidden, ll, ll)


def linkage_m_step(hidden: float) -> float:
    return (hidden + COUNTS[3]) / (hidden + COUNTS[3] + COUNTS[1] + COUNTS[2])


def never(objective, tol) -> bool:
    return False


def test_linkage_reaches_the_closed_form_mle():
    # a fixed number of iterations: EM's error shrinks by some 0.13 at each (Table 1)
    run = run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=40, tol=0.0, stop=never)
    assert run.parameters == pytest.approx(LINKAGE_MLE, abs=1e-12)
    assert np.all(np.diff(run.objective) >= -1e-12)  # EM never lowers the log-likelihood
    assert run.log_likelihood == run.objective
    assert run.n_iter == len(run.objective)


@pytest.mark.parametrize("n", [1, 3, 5])
def test_ending_on_an_e_step_returns_the_parameters_of_the_last_objective(n):
    # n E-steps at t_0 .. t_{n-1}: n - 1 M-steps; the parameters are t_{n-1}
    run = run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=n, tol=0.0, stop=never)
    assert run.n_iter == n
    assert not run.converged
    assert run.parameters == pytest.approx(([0.5] + TABLE_1)[n - 1], abs=1e-9)
    assert run.objective[-1] == pytest.approx(linkage_e_step(run.parameters, 0).objective)


@pytest.mark.parametrize("n", [1, 3, 5])
def test_m_step_last_estimates_after_every_e_step(n):
    run = run_em(
        linkage_e_step, linkage_m_step, 0.5, max_iter=n, tol=0.0, stop=never, m_step_last=True
    )
    assert run.n_iter == n
    assert run.parameters == pytest.approx(TABLE_1[n - 1], abs=1e-9)
    # the statistics are those of the last E-step, at t_{n-1}
    assert run.statistics == pytest.approx(linkage_e_step(([0.5] + TABLE_1)[n - 1], 0)[0])


def test_steps_are_called_in_order_and_counted():
    calls = []

    def e_step(p, it):
        calls.append(("E", p, it))
        return EStep(p, [0.0, 1.0, 1.5, 1.5, 9.0][it - 1])

    def m_step(s):
        calls.append(("M", s))
        return s + 1

    run = run_em(e_step, m_step, 0, max_iter=10, tol=1e-9)
    # the fourth objective equals the third: settled, no M-step after it
    assert calls == [("E", 0, 1), ("M", 0), ("E", 1, 2), ("M", 1), ("E", 2, 3), ("M", 2),
                     ("E", 3, 4)]  # fmt: skip
    assert (run.n_iter, run.converged, run.parameters, run.objective) == (
        4,
        True,
        3,
        [0, 1, 1.5, 1.5],
    )
    assert run.log_likelihood == []

    calls.clear()
    run = run_em(e_step, m_step, 0, max_iter=10, tol=1e-9, m_step_last=True)
    assert calls[-2:] == [("E", 3, 4), ("M", 3)]
    assert (run.n_iter, run.converged, run.parameters) == (4, True, 4)


def test_max_iter_bounds_the_e_steps_and_the_run_is_not_converged():
    run = run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=4, tol=1e-14)
    assert (run.n_iter, run.converged) == (4, False)


def test_progress_gets_each_iteration_and_log_likelihood():
    seen = []
    run = run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=3, tol=0.0, stop=never,
                 progress=lambda it, value: seen.append((it, value)))  # fmt: skip
    assert seen == list(enumerate(run.log_likelihood, start=1))


def test_progress_shows_the_objective_when_there_is_no_log_likelihood():
    seen = []

    def e_step(p, it):
        return EStep(p, -1.0 / it)

    def record(iteration, value):
        seen.append((iteration, value))

    run_em(e_step, lambda s: s, 0, max_iter=2, tol=0.0, stop=never, progress=record)
    assert seen == [(1, -1.0), (2, -0.5)]


def test_warning_when_not_converged_only_if_asked():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=3, tol=1e-14)
    with pytest.warns(ConvergenceWarning, match="the model: EM did not converge in 3 iterations"):
        run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=3, tol=1e-14,
               warn_unconverged="the model")  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_em(linkage_e_step, linkage_m_step, 0.5, max_iter=200, tol=1e-14,
               warn_unconverged="the model")  # fmt: skip


def test_map_em_of_a_mixing_weight_matches_a_grid_search():
    # two known densities f0, f1 at 7 points; the weight pi of f1 under a Beta(3, 2) prior:
    # the objective sum log(pi f1 + (1 - pi) f0) + 2 log pi + log(1 - pi) is the log posterior
    f0 = np.array([0.9, 0.8, 0.7, 0.5, 0.3, 0.2, 0.1])
    f1 = 1.0 - f0

    def log_posterior(pi):
        return np.log(np.multiply.outer(pi, f1) + np.multiply.outer(1 - pi, f0)).sum(-1) + (
            2 * np.log(pi) + np.log(1 - pi)
        )

    def e_step(pi, _):
        r = pi * f1 / (pi * f1 + (1 - pi) * f0)
        return EStep(r.sum(), float(log_posterior(pi)))

    def m_step(expected):  # the Beta(3, 2) MAP: (N_1 + 2) / (N + 3)
        return (expected + 2) / (len(f0) + 3)

    run = run_em(e_step, m_step, 0.1, max_iter=500, tol=0.0, stop=never)
    grid = np.linspace(1e-6, 1 - 1e-6, 1_000_001)
    assert run.parameters == pytest.approx(grid[np.argmax(log_posterior(grid))], abs=2e-6)
    assert np.all(np.diff(run.objective) >= -1e-12)


def test_the_two_stopping_rules():
    assert settled([-1e6, -1e6 + 0.5], 1e-6)  # relative to 1e6
    assert not settled_finite([0.5, 0.5000008], 1e-6)  # relative to 0.5, no floor at 1
    assert settled([0.5, 0.5000008], 1e-6)  # floor at 1
    assert not settled([1.0], 1.0)
    assert not settled_finite([1.0], 1.0)
    assert not settled_finite([-np.inf, -np.inf], 1.0)
    assert not settled_finite([-np.inf, 0.0], 1.0)


def test_a_rule_may_stop_at_the_first_iteration_on_what_the_m_step_found():
    # as structural EM: stop when the M-step returns the parameters it was given
    found = []

    def m_step(s):
        found.append(round(s))
        return round(s)

    run = run_em(lambda p, it: EStep(p, 0.0), m_step, 3, max_iter=5, tol=0.0, m_step_last=True,
                 stop=lambda objective, tol: len(found) > 0 and found[-1] == 3)  # fmt: skip
    assert (run.n_iter, run.converged, run.parameters, found) == (1, True, 3, [3])
