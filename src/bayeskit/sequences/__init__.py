"""Sequences: Markov chains and hidden Markov models.

A hidden Markov model is a two-slice network over a hidden state: its statistics are expected
start, transition and emission counts (or moments), filled by forward-backward
(:func:`forward_backward`), estimated like every other statistic (:func:`maximize`), and
alternated by the one EM driver (:func:`baum_welch`). :class:`HiddenMarkovModel` puts them
behind the scikit-learn and hmmlearn interface.
"""

from bayeskit.sequences.baum_welch import (
    baum_welch,
    check_parameters,
    expected_statistics,
    initial_parameters,
    log_frame,
    log_prior,
    maximize,
    merge_statistics,
    summed_statistics,
)
from bayeskit.sequences.chain import sample_chain, stationary_distribution
from bayeskit.sequences.dynamic import DynamicBayesianNetwork, example_dbn
from bayeskit.sequences.dynamic_learning import fit_dbn
from bayeskit.sequences.emissions import CategoricalEmission, Emission, PoissonEmission
from bayeskit.sequences.examples import EXAMPLE_HMMS, example_hmm
from bayeskit.sequences.forward_backward import (
    ForwardBackward,
    forward_backward,
    run_forward_backward,
    sequence_offsets,
    viterbi,
)
from bayeskit.sequences.frames import long_frame
from bayeskit.sequences.gaussian import COVARIANCE_TYPES, GaussianEmission
from bayeskit.sequences.gmm import GaussianMixtureEmission
from bayeskit.sequences.hmm import EMISSIONS, HiddenMarkovModel
from bayeskit.sequences.mixed import ProductEmission

__all__ = [
    "COVARIANCE_TYPES",
    "EMISSIONS",
    "EXAMPLE_HMMS",
    "CategoricalEmission",
    "DynamicBayesianNetwork",
    "Emission",
    "ForwardBackward",
    "GaussianEmission",
    "GaussianMixtureEmission",
    "HiddenMarkovModel",
    "PoissonEmission",
    "ProductEmission",
    "baum_welch",
    "example_dbn",
    "example_hmm",
    "check_parameters",
    "expected_statistics",
    "fit_dbn",
    "forward_backward",
    "initial_parameters",
    "log_frame",
    "long_frame",
    "log_prior",
    "maximize",
    "merge_statistics",
    "run_forward_backward",
    "sample_chain",
    "sequence_offsets",
    "stationary_distribution",
    "summed_statistics",
    "viterbi",
]
