"""The integer type of category codes: the smallest signed type that holds every code and -1."""

from __future__ import annotations

import numpy as np

__all__ = ["code_dtype"]


def code_dtype(max_code: int) -> np.dtype:
    """The smallest signed integer dtype holding ``0 .. max_code`` and the missing mark ``-1``.

    Examples
    --------
    >>> code_dtype(10), code_dtype(200), code_dtype(70_000)
    (dtype('int8'), dtype('int16'), dtype('int32'))
    """
    for dt in (np.int8, np.int16, np.int32):
        if max_code <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)
