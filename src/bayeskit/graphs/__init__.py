"""Graphs: the structure of a Bayesian network (a :class:`DAG`), independence by d-separation
(:meth:`DAG.d_separated`, :func:`bayes_ball`), and the distance between two structures
(:func:`structural_hamming_distance`)."""

from bayeskit.graphs.dag import DAG, as_dag, bayes_ball, edge_pairs, structural_hamming_distance

__all__ = ["DAG", "as_dag", "bayes_ball", "edge_pairs", "structural_hamming_distance"]
