"""The data layer: schemas, encoding, discretization and the bundled data sets.

This is the only layer that knows about pandas, strings and dtypes; everything below it sees
integer codes (-1 = missing) and float values (NaN = missing).
"""

from bayeskit.data.schema import Column, Encoded, Schema, as_frame

__all__ = ["Column", "Encoded", "Schema", "as_frame"]
