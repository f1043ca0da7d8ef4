"""Baum-Welch from ``n_init`` starts for a :class:`~bayeskit.sequences.HiddenMarkovModel`."""

from __future__ import annotations

import numpy as np

from bayeskit.estimate.em import EMRun
from bayeskit.sequences import _data
from bayeskit.sequences.baum_welch import baum_welch, initial_parameters


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
    return model
