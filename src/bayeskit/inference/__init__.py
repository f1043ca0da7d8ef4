"""Inference in discrete Bayesian networks: exact, by variable elimination
(:class:`VariableElimination`, with MAP/MPE and batched queries) and by a compiled junction tree
(:class:`JunctionTree`), or by whichever of the two costs less per query
(:class:`ExactInference`); approximate, by Gibbs sampling (:class:`GibbsSampler`), likelihood
weighting and rejection sampling. Every engine checks its input the same way
(:class:`EvidenceChecker`) and raises :class:`ZeroProbabilityEvidence` for evidence of
probability zero. In linear-Gaussian networks, :class:`GaussianInference` answers exactly from
the joint Gaussian in canonical form; in conditional linear Gaussian networks,
:class:`HybridInference` over the configurations of the discrete nodes.

The engines read a network through its public attributes only (``dag``, ``nodes``,
``states(node)``, ``cardinality(node)``, ``cpt(node)``): this layer does not import
:mod:`bayeskit.networks`, which builds on it."""

from bayeskit.factors.limits import InferenceTooLarge
from bayeskit.inference.elimination import ORDERS, MAPResult, VariableElimination
from bayeskit.inference.evidence import (
    EvidenceChecker,
    ZeroProbabilityEvidence,
    check_network,
    zero_evidence,
)
from bayeskit.inference.exact import ENGINES, ExactInference
from bayeskit.inference.gaussian import GaussianInference, GaussianPosterior
from bayeskit.inference.hybrid import HybridInference, MixturePosterior
from bayeskit.inference.hybrid_sampling import hybrid_likelihood_weighting
from bayeskit.inference.junction import JunctionTree
from bayeskit.inference.sampling import (
    CompiledNetwork,
    DeterministicCPTWarning,
    GibbsResult,
    GibbsSampler,
    likelihood_weighting,
    rejection_sampling,
    split_r_hat,
)

__all__ = [
    "ENGINES",
    "ORDERS",
    "CompiledNetwork",
    "DeterministicCPTWarning",
    "EvidenceChecker",
    "ExactInference",
    "GaussianInference",
    "GaussianPosterior",
    "GibbsResult",
    "GibbsSampler",
    "HybridInference",
    "InferenceTooLarge",
    "JunctionTree",
    "MAPResult",
    "MixturePosterior",
    "VariableElimination",
    "ZeroProbabilityEvidence",
    "check_network",
    "hybrid_likelihood_weighting",
    "likelihood_weighting",
    "rejection_sampling",
    "split_r_hat",
    "zero_evidence",
]
