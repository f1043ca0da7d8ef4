"""Bayesian networks: the structure (a DAG), independence by d-separation, discrete networks (CPTs,
the joint probability, log-likelihood, forward sampling), BIF and XMLBIF files, parameter learning,
scores and score-and-search structure learning (structural EM with missing values); exact inference
by variable elimination (queries, batched queries, P(e), MAP/MPE) on factors, and with a compiled
junction tree, or by whichever of the two costs less per query (:class:`ExactInference`, the default
of predictions and ``network query``); Gibbs sampling, likelihood weighting and rejection sampling.
:class:`NetworkClassifier` (any network as a classifier) lives with the classifiers and is named
here too, imported on first use: this layer never imports the classifiers' layer (which imports it),
so there is no import cycle. Factors, CPDs (:meth:`BayesianNetwork.cpd`), marginals and MAP answers
print as tables with the states named (text and HTML) and turn into labelled pandas objects;
evidence of probability zero raises :class:`ZeroProbabilityEvidence` from every query."""

from typing import Any

from bayeskit.factors import CPD, Factor, Marginals
from bayeskit.graphs import DAG, bayes_ball, structural_hamming_distance
from bayeskit.networks.bif import BIFError, RenormalizedCPTWarning, read_bif, write_bif
from bayeskit.networks.em import EMResult, expected_counts, fit_em
from bayeskit.networks.exact import ExactInference
from bayeskit.networks.inference import (
    InferenceTooLarge,
    MAPResult,
    VariableElimination,
    ZeroProbabilityEvidence,
)
from bayeskit.networks.junction import JunctionTree
from bayeskit.networks.learning import ESTIMATORS, NetworkFit, fit_parameters
from bayeskit.networks.network import BayesianNetwork
from bayeskit.networks.sampling import (
    DeterministicCPTWarning,
    GibbsResult,
    GibbsSampler,
    likelihood_weighting,
    rejection_sampling,
)
from bayeskit.networks.scores import SCORES, family_score, score
from bayeskit.networks.search import learn_structure, learn_tree
from bayeskit.networks.structure_em import StructuralEMResult, structural_em
from bayeskit.networks.xmlbif import XMLBIFError, read_xmlbif, write_xmlbif

__all__ = [
    "CPD",
    "DAG",
    "ESTIMATORS",
    "SCORES",
    "BIFError",
    "BayesianNetwork",
    "DeterministicCPTWarning",
    "EMResult",
    "ExactInference",
    "Factor",
    "GibbsResult",
    "GibbsSampler",
    "InferenceTooLarge",
    "JunctionTree",
    "MAPResult",
    "Marginals",
    "NetworkClassifier",
    "NetworkFit",
    "RenormalizedCPTWarning",
    "StructuralEMResult",
    "XMLBIFError",
    "bayes_ball",
    "expected_counts",
    "family_score",
    "fit_em",
    "fit_parameters",
    "learn_structure",
    "learn_tree",
    "likelihood_weighting",
    "read_bif",
    "read_xmlbif",
    "rejection_sampling",
    "score",
    "structural_em",
    "structural_hamming_distance",
    "VariableElimination",
    "ZeroProbabilityEvidence",
    "write_bif",
    "write_xmlbif",
]


def __getattr__(name: str) -> Any:
    if name == "NetworkClassifier":  # PEP 562: the classifiers' layer, loaded when asked for
        from bayeskit.classifiers.network import NetworkClassifier

        globals()[name] = NetworkClassifier
        return NetworkClassifier
    msg = f"module 'bayeskit.networks' has no attribute {name!r}"
    raise AttributeError(msg)
