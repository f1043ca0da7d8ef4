"""Sufficient statistics: count tables and Gaussian moments, all mergeable with ``a + b``."""

from bayeskit.stats.counts import CategoricalCounts, categorical_counts, class_counts, count_table
from bayeskit.stats.joint import JointCounts, joint_counts
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
    "GaussianMoments",
    "JointCounts",
    "ScatterMoments",
    "ShrinkageMoments",
    "categorical_counts",
    "class_counts",
    "count_table",
    "gaussian_moments",
    "joint_counts",
    "nonfinite_features",
    "scatter_moments",
    "shrinkage_moments",
    "underflowed_features",
]
