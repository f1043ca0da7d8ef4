"""Sufficient statistics: count tables and Gaussian moments, all mergeable with ``a + b``, and
what is computed from them alone (mutual information, tests of independence)."""

from bayeskit.stats.checks import Layout
from bayeskit.stats.counts import CategoricalCounts, categorical_counts, class_counts, count_table
from bayeskit.stats.ensemble_counts import EnsembleCounts
from bayeskit.stats.families import (
    ExpectedCounts,
    FamilyCounts,
    ScoredCounts,
    family_counts,
    pair_families,
    table_shapes,
)
from bayeskit.stats.independence import discrete_test, fisher_z
from bayeskit.stats.information import conditional_mutual_information, mutual_information
from bayeskit.stats.joint import JointCounts, joint_counts
from bayeskit.stats.mixture import MixtureCounts
from bayeskit.stats.model_stats import FullStats, KNNStats, NaiveStats, TreeCounts
from bayeskit.stats.moments import (
    GaussianMoments,
    ScatterMoments,
    ShrinkageMoments,
    gaussian_moments,
    nonfinite_features,
    scatter_moments,
    shrinkage_moments,
    underflowed_features,
)

__all__ = [
    "CategoricalCounts",
    "EnsembleCounts",
    "ExpectedCounts",
    "FamilyCounts",
    "FullStats",
    "GaussianMoments",
    "JointCounts",
    "KNNStats",
    "Layout",
    "MixtureCounts",
    "NaiveStats",
    "ScatterMoments",
    "ScoredCounts",
    "ShrinkageMoments",
    "categorical_counts",
    "class_counts",
    "conditional_mutual_information",
    "count_table",
    "discrete_test",
    "family_counts",
    "fisher_z",
    "gaussian_moments",
    "joint_counts",
    "mutual_information",
    "nonfinite_features",
    "pair_families",
    "scatter_moments",
    "shrinkage_moments",
    "table_shapes",
    "TreeCounts",
    "underflowed_features",
]
