"""Bayesian networks: the structure (a DAG), independence by d-separation, discrete networks (CPTs,
the joint probability, log-likelihood, forward sampling), BIF and XMLBIF files, eight bundled
example networks of the bnlearn repository (:func:`example_network`), parameter learning,
scores and score-and-search structure learning (structural EM with missing values); exact inference
by variable elimination (queries, batched queries, P(e), MAP/MPE) on factors, and with a compiled
junction tree, or by whichever of the two costs less per query (:class:`ExactInference`, the default
of predictions and ``network query``); Gibbs sampling, likelihood weighting and rejection sampling.
:class:`~bayeskit.classifiers.NetworkClassifier` (any network as a classifier) lives with the
classifiers and is imported from there (``bayeskit.classifiers`` or ``bayeskit``): this layer sits
below the classifiers and never imports them. Factors, CPDs (:meth:`BayesianNetwork.cpd`),
marginals and MAP answers print as tables with the states named (text and HTML) and turn into
labelled pandas objects; evidence of probability zero raises :class:`ZeroProbabilityEvidence`
from every query. :class:`HybridNetwork` holds continuous (linear-Gaussian) nodes beside discrete
ones (conditional linear Gaussian networks); :class:`GaussianInference` answers exact queries
on its all-continuous networks, :class:`HybridInference` on mixed ones; :func:`fit_hybrid_em` fits
them to data with missing values and latent nodes; :func:`write_json` and
:func:`read_json` keep networks of any node type in files."""

from bayeskit.factors import CPD, Factor, Marginals
from bayeskit.graphs import DAG, PDAG, bayes_ball, cpdag, equivalent, structural_hamming_distance
from bayeskit.inference import (
    DeterministicCPTWarning,
    ExactInference,
    GaussianInference,
    GibbsResult,
    GibbsSampler,
    HybridInference,
    InferenceTooLarge,
    JunctionTree,
    MAPResult,
    VariableElimination,
    ZeroProbabilityEvidence,
    likelihood_weighting,
    rejection_sampling,
)
from bayeskit.learning import (
    ESTIMATORS,
    SCORES,
    EMResult,
    NetworkFit,
    StructuralEMResult,
    expected_counts,
    family_score,
    hill_climb,
    learn_exact,
    learn_ges,
    learn_mmhc,
    learn_pc,
    learn_structure,
    learn_tree,
    score,
)
from bayeskit.networks.bif import BIFError, RenormalizedCPTWarning, read_bif, write_bif
from bayeskit.networks.examples import example_network
from bayeskit.networks.fitting import fit_em, fit_parameters, structural_em
from bayeskit.networks.hybrid import HybridNetwork, merge_statistics
from bayeskit.networks.hybrid_em import fit_hybrid_em
from bayeskit.networks.json_format import NetworkJSONError, read_json, write_json
from bayeskit.networks.network import BayesianNetwork
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
    "GaussianInference",
    "GibbsResult",
    "GibbsSampler",
    "HybridInference",
    "HybridNetwork",
    "InferenceTooLarge",
    "JunctionTree",
    "MAPResult",
    "Marginals",
    "NetworkFit",
    "NetworkJSONError",
    "PDAG",
    "RenormalizedCPTWarning",
    "StructuralEMResult",
    "XMLBIFError",
    "bayes_ball",
    "cpdag",
    "equivalent",
    "example_network",
    "expected_counts",
    "family_score",
    "fit_em",
    "fit_hybrid_em",
    "fit_parameters",
    "learn_exact",
    "learn_mmhc",
    "learn_pc",
    "hill_climb",
    "learn_ges",
    "learn_structure",
    "learn_tree",
    "merge_statistics",
    "likelihood_weighting",
    "read_bif",
    "read_json",
    "read_xmlbif",
    "rejection_sampling",
    "score",
    "structural_em",
    "structural_hamming_distance",
    "VariableElimination",
    "ZeroProbabilityEvidence",
    "write_bif",
    "write_json",
    "write_xmlbif",
]
