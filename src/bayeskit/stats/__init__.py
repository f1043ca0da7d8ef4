"""Sufficient statistics: count tables and Gaussian moments, all mergeable with ``a + b``."""

from bayeskit.stats.counts import CategoricalCounts, categorical_counts, class_counts, count_table
from bayeskit.stats.moments import (
    GaussianMoments,
    ScatterMoments,
    gaussian_moments,
    scatter_moments,
)

__all__ = [
    "CategoricalCounts",
    "GaussianMoments",
    "ScatterMoments",
    "categorical_counts",
    "class_counts",
    "count_table",
    "gaussian_moments",
    "scatter_moments",
]

from bayeskit.stats.joint import (  # noqa: E402
    JointCounts,
    ShrinkageMoments,
    joint_counts,
    shrinkage_moments,
)

__all__ += ["JointCounts", "ShrinkageMoments", "joint_counts", "shrinkage_moments"]
