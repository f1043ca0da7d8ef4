"""Learning Bayesian networks from data: parameters from counts (:mod:`.parameters`), scores
(:mod:`.scores`: LL, AIC, BIC, K2, BDeu), structure searches (:mod:`.search`: hill climbing and
the Chow-Liu tree; :mod:`.ges`, greedy equivalence search; :mod:`.constraint`: PC-stable,
and :mod:`.mmhc`, max-min hill climbing, on the tests of :mod:`.independence_tests`;
:mod:`.exact`, the optimum by dynamic programming) in a registry of learners by name with one
entry, :func:`learn_structure` (:mod:`.learners`), searches over data read in passes
(:mod:`.passes`), EM for missing values and latent nodes (:mod:`.em`) and structural EM
(:mod:`.structure_em`).

This layer sits below the network class: its functions return DAGs, CPTs and states, or build
a network of the class they are given (``network_type``); :mod:`bayeskit.networks` wraps them in
the functions that return a :class:`~bayeskit.networks.BayesianNetwork`."""

from bayeskit.learning.constraint import V_STRUCTURE_RULES, learn_pc, pc_dag, pc_stable
from bayeskit.learning.em import EMResult, expected_counts, fit_network_em
from bayeskit.learning.exact import ExactResult, learn_exact
from bayeskit.learning.ges import ges_dag, learn_ges
from bayeskit.learning.independence_tests import CountTests, GaussianTests, OracleTests
from bayeskit.learning.learners import (
    LEARNER_ALIASES,
    STRUCTURE_LEARNERS,
    StructureLearner,
    learn_structure,
    structure_learner,
)
from bayeskit.learning.mmhc import learn_mmhc, mmpc_skeleton
from bayeskit.learning.parameters import (
    ESTIMATORS,
    MAX_TABLE_CELLS,
    NetworkData,
    NetworkFit,
    fit_network,
)
from bayeskit.learning.scores import SCORES, family_score, score
from bayeskit.learning.search import hill_climb, learn_tree
from bayeskit.learning.structure_em import StructuralEMResult, structural_em_network

__all__ = [
    "ESTIMATORS",
    "LEARNER_ALIASES",
    "MAX_TABLE_CELLS",
    "SCORES",
    "STRUCTURE_LEARNERS",
    "V_STRUCTURE_RULES",
    "CountTests",
    "EMResult",
    "ExactResult",
    "GaussianTests",
    "NetworkData",
    "NetworkFit",
    "OracleTests",
    "StructuralEMResult",
    "StructureLearner",
    "expected_counts",
    "family_score",
    "fit_network",
    "fit_network_em",
    "ges_dag",
    "hill_climb",
    "learn_exact",
    "learn_ges",
    "learn_mmhc",
    "learn_pc",
    "learn_structure",
    "learn_tree",
    "mmpc_skeleton",
    "pc_dag",
    "pc_stable",
    "score",
    "structural_em_network",
    "structure_learner",
]
