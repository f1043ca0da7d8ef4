"""Hidden Markov models of textbook examples, ready to use."""

from __future__ import annotations

import numpy as np

from bayeskit.sequences.hmm import HiddenMarkovModel

__all__ = ["EXAMPLE_HMMS", "example_hmm"]

#: Name -> what the model is, its states and its symbols.
EXAMPLE_HMMS = {
    "rainy-sunny": "Wikipedia's weather model: states rainy (0), sunny (1); "
    "symbols walk (0), shop (1), clean (2)",
    "fever": "Wikipedia's Viterbi example: states healthy (0), fever (1); "
    "symbols normal (0), cold (1), dizzy (2)",
    "casino": "Durbin et al.'s occasionally dishonest casino: states fair (0), loaded (1) die; "
    "symbols the faces 1-6 (codes 0-5)",
}


def example_hmm(name: str, random_state=None) -> HiddenMarkovModel:
    """A categorical hidden Markov model from a textbook example, with its parameters set.

    Parameters
    ----------
    name : {"rainy-sunny", "fever", "casino"}
        Which example (:data:`EXAMPLE_HMMS` describes them): Wikipedia's "Forward-backward
        algorithm" and "Viterbi algorithm" examples, and Durbin, Eddy, Krogh and Mitchison,
        *Biological Sequence Analysis* (1998), 3.2, the occasionally dishonest casino.
    random_state : int, numpy Generator or None, optional
        The model's ``random_state`` (for :meth:`~HiddenMarkovModel.sample`).

    Returns
    -------
    HiddenMarkovModel

    Raises
    ------
    ValueError
        On an unknown name.

    Examples
    --------
    >>> model = example_hmm("rainy-sunny")
    >>> model.predict([[0], [1], [2]]).tolist()  # walk, shop, clean
    [1, 0, 0]
    """
    tables = {
        "rainy-sunny": ([0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]], [[0.1, 0.4, 0.5], [0.6, 0.3, 0.1]]),
        "fever": ([0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]], [[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]]),
        "casino": ([0.5, 0.5], [[0.95, 0.05], [0.1, 0.9]], [[1 / 6] * 6, [0.1] * 5 + [0.5]]),
    }
    if name not in tables:
        msg = f"unknown example {name!r}; the examples are {sorted(tables)}"
        raise ValueError(msg)
    start, trans, emit = (np.array(t, dtype=float) for t in tables[name])
    model = HiddenMarkovModel(len(start), emission="categorical", random_state=random_state)
    model.startprob_, model.transmat_, model.emissionprob_ = start, trans, emit
    return model
