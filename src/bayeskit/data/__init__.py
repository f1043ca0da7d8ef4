"""The data layer: schemas, encoding, discretization, input checks and the bundled data sets.

This is the only layer that knows about pandas, strings and dtypes; everything below it sees
integer codes (-1 = missing) and float values (NaN = missing).
"""

from bayeskit.data.arff import read_arff
from bayeskit.data.chunks import Chunks, read_chunks
from bayeskit.data.discretize import (
    Discretizer,
    apply_cuts,
    bin_labels,
    cut_problem,
    equal_frequency_cuts,
    equal_width_cuts,
    mdl_cuts,
)
from bayeskit.data.missing import row_patterns
from bayeskit.data.schema import Column, Encoded, Schema, as_frame
from bayeskit.data.validation import check_sample_weight

__all__ = [
    "Chunks",
    "Column",
    "Discretizer",
    "Encoded",
    "Schema",
    "apply_cuts",
    "as_frame",
    "bin_labels",
    "check_sample_weight",
    "cut_problem",
    "equal_frequency_cuts",
    "equal_width_cuts",
    "mdl_cuts",
    "read_arff",
    "read_chunks",
    "row_patterns",
]
