"""The hidden states of a sequence drawn over its observations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bayeskit.plot._common import _colours, _pyplot


def state_sequence(
    observations: Any,
    *,
    states: Any = None,
    posteriors: Any = None,
    true_states: Any = None,
    state_names: Sequence[str] | None = None,
    feature: int = 0,
    ax: Any = None,
) -> Any:
    """One sequence's observations over time, with its decoded states as coloured bands.

    Parameters
    ----------
    observations : array-like of shape (n_steps,) or (n_steps, n_features)
        The sequence (one feature is drawn: ``feature``).
    states : array-like of int of shape (n_steps,), optional
        A state per step (a decoded path, say): the background of each step is coloured by it.
    posteriors : array-like of shape (n_steps, n_states), optional
        State posteriors: drawn as stacked areas in a panel below the observations.
    true_states : array-like of int of shape (n_steps,), optional
        The true states, where known: a thin strip along the top of the observations.
    state_names : sequence of str, optional
        Names for the legend (default ``state 0``, ``state 1``, ...).
    feature : int, default=0
        Which column of ``observations`` to draw.
    ax : matplotlib Axes, optional
        Where to draw the observations (default: a new figure, with a second panel for
        ``posteriors``).

    Returns
    -------
    matplotlib.axes.Axes
        The observations' axes.

    Raises
    ------
    ValueError
        When the arrays do not have one row per step, or ``feature`` is out of range.
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from bayeskit.sequences import example_hmm
    >>> casino = example_hmm("casino", random_state=0)
    >>> rolls, dice = casino.sample(200)
    >>> ax = state_sequence(rolls + 1, states=casino.predict(rolls), true_states=dice,
    ...                     posteriors=casino.predict_proba(rolls), state_names=["fair", "loaded"])
    >>> ax.get_ylabel()
    'observation'
    """
    plt = _pyplot()
    obs = np.asarray(observations, dtype=float)
    obs = obs[:, None] if obs.ndim == 1 else obs
    if not 0 <= feature < obs.shape[1]:
        msg = f"feature must be a column 0..{obs.shape[1] - 1}, got {feature}"
        raise ValueError(msg)
    steps = len(obs)
    given = {"states": states, "posteriors": posteriors, "true_states": true_states}
    arrays = {k: np.asarray(v) for k, v in given.items() if v is not None}
    for name, value in arrays.items():
        if len(value) != steps:
            msg = f"{name} has {len(value)} rows; observations has {steps}"
            raise ValueError(msg)
    n_states = max(
        [int(arrays[k].max()) + 1 for k in ("states", "true_states") if k in arrays and steps]
        + [arrays["posteriors"].shape[1] if "posteriors" in arrays else 1]
    )
    names = (
        list(state_names) if state_names is not None else [f"state {k}" for k in range(n_states)]
    )
    colours = _colours(n_states)
    if ax is None:
        rows = 2 if "posteriors" in arrays else 1
        _, axes = plt.subplots(rows, 1, figsize=(10, 2.5 * rows + 1), sharex=True, squeeze=False)
        ax = axes[0, 0]
        below = axes[1, 0] if rows == 2 else None
    else:
        below = None
    t = np.arange(steps)
    if "states" in arrays:
        _bands(ax, arrays["states"], colours, (0.0, 1.0), alpha=0.25, names=names)
    if "true_states" in arrays:
        _bands(ax, arrays["true_states"], colours, (0.95, 1.0), alpha=1.0)
    ax.plot(t, obs[:, feature], color="black", lw=0.8, marker=".", ms=3)
    ax.set_ylabel("observation")
    ax.set_xlim(-0.5, steps - 0.5)
    if "states" in arrays:
        ax.legend(loc="upper left", fontsize="small", ncol=n_states)
    (below if below is not None else ax).set_xlabel("step")
    if below is not None:
        post = arrays["posteriors"]
        below.stackplot(t, post.T, colors=colours[: post.shape[1]], alpha=0.8, step="mid")
        below.set_ylim(0, 1)
        below.set_ylabel("P(state | sequence)")
    return ax


def _bands(ax, states, colours, span, alpha, names=None) -> None:
    """Colour the steps of each state between the fractions ``span`` of the axes' height."""
    t = np.arange(len(states))
    for k, colour in enumerate(colours):
        ax.fill_between(
            t, span[0], span[1], where=states == k, step="mid", color=colour, alpha=alpha,
            transform=ax.get_xaxis_transform(), label=None if names is None else names[k],
        )  # fmt: skip
