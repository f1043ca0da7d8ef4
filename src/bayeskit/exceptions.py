"""Exceptions and warnings raised by bayeskit.

Every exception subclasses the builtin one a caller would catch anyway (``ValueError``), so
``except ValueError`` keeps working; the subclass says which layer refused the input.
"""

from __future__ import annotations

__all__ = [
    "CostMatrixError",
    "IdentifierWarning",
    "ModelFileError",
    "SchemaError",
    "SingularCovarianceWarning",
    "UnknownCategoryWarning",
    "ZeroEvidenceWarning",
]


class SchemaError(ValueError):
    """The data does not fit the schema: wrong columns, dtypes, values or shapes."""


class CostMatrixError(ValueError):
    """A cost (loss) matrix has the wrong shape, labels or values."""


class ModelFileError(ValueError):
    """A saved model file is truncated, corrupted, tampered with or of an unknown version."""


class UnknownCategoryWarning(UserWarning):
    """A category not seen in fit was met at predict time and treated as missing."""


class IdentifierWarning(UserWarning):
    """A column looks like an identifier (a different value in every row): left out of the
    model if categorical, kept but named if numeric (see :mod:`bayeskit.data.kinds`)."""


class ZeroEvidenceWarning(UserWarning):
    """Every class has probability zero for a sample; its posterior is reported as the class
    prior."""


class SingularCovarianceWarning(UserWarning):
    """A covariance matrix was singular and a ridge was added to make it invertible."""
