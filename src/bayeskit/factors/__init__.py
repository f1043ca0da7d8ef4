"""Factors: tables over named discrete variables (:class:`Factor`), the dict of one-variable
posteriors (:class:`Marginals`), the limits on a table's size (:func:`table_cells`,
:class:`InferenceTooLarge`), the rules that name a node's states and turn data into state codes
(:mod:`bayeskit.factors.states`), and a node's conditional distribution: the protocol every kind
of node follows (:class:`ConditionalDistribution`), the tabular :class:`CPD` and the
linear-Gaussian :class:`LinearGaussianCPD` of a continuous node (conditional linear Gaussian
with discrete parents), whose factor form is a :class:`CanonicalForm`."""

from bayeskit.factors.cpd import CPD, ConditionalDistribution, aligned_cpts
from bayeskit.factors.factor import Factor, Marginals, in_state_order, product
from bayeskit.factors.gaussian import CanonicalForm, LinearGaussianCPD
from bayeskit.factors.limits import (
    DEFAULT_MAX_CELLS,
    MAX_TABLE_CELLS,
    InferenceTooLarge,
    table_cells,
)
from bayeskit.factors.states import encode_columns, encode_frame, state_codes

__all__ = [
    "CPD",
    "CanonicalForm",
    "DEFAULT_MAX_CELLS",
    "MAX_TABLE_CELLS",
    "ConditionalDistribution",
    "Factor",
    "InferenceTooLarge",
    "LinearGaussianCPD",
    "Marginals",
    "aligned_cpts",
    "encode_columns",
    "encode_frame",
    "in_state_order",
    "product",
    "state_codes",
    "table_cells",
]
