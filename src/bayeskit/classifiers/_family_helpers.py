"""Helpers of the family engine (:mod:`bayeskit.classifiers._family`), which imports them from
here: the shared text of the family models' parameters, a feature named by a model's argument,
the code matrix with the class column appended, and the mutual information of features with
each other given the class and with the class, read from the family counts."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from bayeskit._text import shown
from bayeskit.classifiers._params import tabular_parameters_doc
from bayeskit.data.codes import code_dtype
from bayeskit.data.schema import Schema
from bayeskit.stats import FamilyCounts, conditional_mutual_information, mutual_information

__all__ = [
    "FAMILY_PARAMETERS",
    "class_information",
    "family_parameters_doc",
    "feature_index",
    "pair_information",
    "with_class_column",
]

#: The parameters every family model shares, documented once (each model's docstring writes
#: them out: :func:`family_parameters_doc`).
FAMILY_PARAMETERS = """    alpha : float, default=1.0
        Pseudo-count of the conditional tables: with ``smoothing="lidstone"``,
        ``P(x | c, pa) = (n_{c,pa,x} + alpha) / (n_{c,pa} + K alpha)``; 1 is the Laplacian
        correction (Zhou Eqs. 7.20 and 7.25), 0 the unsmoothed MLE.
    smoothing : str, default="lidstone"
        An estimator of :data:`bayeskit.estimate.ESTIMATORS`, applied along each table's child
        axis: "lidstone", "mle", "laplace", "m-estimate" (``alpha`` is m), "dirichlet-map",
        "lidstone-where-zero", "bdeu" (``alpha`` is the equivalent sample size, spread over a
        table's cells, the class counted as a parent), "k2", or "hierarchical"
        (:func:`~bayeskit.estimate.hierarchical_dirichlet`: each conditional table shrunk
        toward the one with a parent fewer, down to ``P(x | c)`` and ``P(x)``, ``alpha`` being
        the root's pseudo-count), or "hierarchical-gibbs" (the same model fitted by Petitjean
        et al.'s Gibbs sampler, :func:`~bayeskit.estimate.hierarchical_gibbs`: seeded, and
        slower); the hierarchical ones need parents in order of importance, which a
        NetworkClassifier's are not. Joint tables such as AODE's ``P(c, x_p)`` are Lidstone.
    {tabular}
"""


def family_parameters_doc(cls: type) -> str:
    """The text of :data:`FAMILY_PARAMETERS` as ``cls``'s docstring writes it out: with the
    class's own default smoothing, and the shared tabular parameters in place of ``{tabular}``
    (a test checks each family model's docstring against it)."""
    default = inspect.signature(cls).parameters["smoothing"].default
    text = FAMILY_PARAMETERS.replace('default="lidstone"', f"default={default!r}".replace("'", '"'))
    none = "accepted only for data without numeric columns (these models need categories)"
    return text.replace("    {tabular}\n", tabular_parameters_doc(cls, none=none))


def feature_index(schema: Schema, name: str, value: Any) -> int:
    """The position of the feature ``value`` given as argument ``name`` of a model of
    ``schema``: :meth:`FamilyClassifier._feature_index`."""
    names = schema.names
    if isinstance(value, str) and value in names:
        return names.index(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if schema.input_names and str(value) in names:
            return names.index(str(value))  # a column label: labels come first
        if 0 <= value < len(names):
            return int(value)
    listed = ", ".join(map(repr, names[:20])) + (" ..." if len(names) > 20 else "")
    msg = (
        f"{name}={shown(value)} is not a feature; give a column name or a position below "
        f"{len(names)} (features: {listed})"
    )
    raise ValueError(msg)


def with_class_column(codes: np.ndarray, y: np.ndarray, n_classes: int) -> np.ndarray:
    """The code matrix with the class codes appended as its last column."""
    n_max = max(int(codes.max(initial=0)), n_classes)
    dtype = np.promote_types(codes.dtype, code_dtype(n_max))
    out = np.empty((codes.shape[0], codes.shape[1] + 1), dtype=dtype)
    out[:, :-1] = codes
    out[:, -1] = y
    return out


def pair_information(counts: FamilyCounts, d: int, weighting: str) -> np.ndarray:
    """``I(x_i; x_j | y)`` of every pair of the ``d`` features (the class is column ``d``),
    from the all-pairs counts: a symmetric ``(d, d)`` matrix (nats), zero diagonal."""
    weights = np.zeros((d, d))
    pairs = [(i, j) for i in range(d) for j in range(i + 1, d)]
    for positions, stacked in counts.grouped_tables([(d, i, j) for i, j in pairs]):
        values = conditional_mutual_information(stacked, weighting)  # a group at a time
        for k, v in zip(positions, values, strict=True):
            i, j = pairs[k]
            weights[i, j] = weights[j, i] = v
    return weights


def class_information(counts: FamilyCounts, d: int) -> np.ndarray:
    """``I(x_i; y)`` of each of the ``d`` features (nats), from the ``(class, x_i)`` counts."""
    return np.array([mutual_information(counts.table((d, i))) for i in range(d)])
