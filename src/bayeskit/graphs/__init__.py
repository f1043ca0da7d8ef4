"""Graphs: the structure of a Bayesian network (a :class:`DAG`), independence by d-separation
(:meth:`DAG.d_separated`, :func:`bayes_ball`), the distance between two structures
(:func:`structural_hamming_distance`), equivalence classes (:class:`PDAG`, :func:`cpdag`,
:func:`equivalent`), and the maximum spanning tree that TAN, the Chow-Liu
tree search and the junction tree are built on (:func:`maximum_spanning_tree`)."""

from bayeskit.graphs.dag import DAG, as_dag, bayes_ball, edge_pairs, structural_hamming_distance
from bayeskit.graphs.pdag import PDAG, cpdag, equivalent, v_structures
from bayeskit.graphs.trees import maximum_spanning_tree

__all__ = [
    "DAG",
    "PDAG",
    "as_dag",
    "bayes_ball",
    "cpdag",
    "edge_pairs",
    "equivalent",
    "maximum_spanning_tree",
    "structural_hamming_distance",
    "v_structures",
]
