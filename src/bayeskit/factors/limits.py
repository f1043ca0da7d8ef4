"""Table sizes: how many cells a table holds, and the limits that refuse one too large.

Sizes are counted in Python integers (:func:`table_cells`), never in numpy's int64, whose
products wrap around past ``2**63`` (32 four-state variables make 0 cells): a product, a query
or a junction tree whose tables would exceed its ``max_cells`` (by default ``2**27``, 1 GiB of
float64) raises :class:`InferenceTooLarge`, before anything is allocated, naming what asked
for it and the limit. A network's CPTs together are held to :data:`MAX_TABLE_CELLS`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from bayeskit._text import shown

__all__ = ["DEFAULT_MAX_CELLS", "MAX_AXES", "MAX_TABLE_CELLS", "InferenceTooLarge", "listed",
           "table_cells", "too_large", "too_many_axes"]  # fmt: skip

#: The most cells a table of exact inference may have unless told otherwise: 1 GiB of float64.
DEFAULT_MAX_CELLS = 1 << 27
#: The most axes a numpy array may have (32 before numpy 2).
MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32
#: The most cells the CPTs of one network may hold together (1 GiB of float64 each copy):
#: checked before counting, so a structure of too many states or parents is refused by name
#: instead of failing in an allocation. The largest networks of the bnlearn repository hold
#: under a million.
MAX_TABLE_CELLS = 1 << 27


class InferenceTooLarge(MemoryError):
    """A query whose tables would exceed the memory limit (raised before computing anything)."""


def table_cells(cardinalities: Iterable[Any]) -> int:
    """The cells of a table over variables of these numbers of states, a Python int, exact
    however large (numpy's int64 product wraps around: ``np.prod([4] * 32)`` is 0).

    Parameters
    ----------
    cardinalities : iterable of int
        Each variable's number of states.

    Returns
    -------
    int
        Their product (1 for no variable).

    Examples
    --------
    >>> table_cells([4] * 32) == 4**32, table_cells([])
    (True, 1)
    """
    return math.prod(int(k) for k in cardinalities)


def listed(names: Iterable[Any], most: int = 8) -> str:
    """Names for a message: the list, or its first ``most`` and how many there are."""
    names = list(names)
    if len(names) <= most:
        return shown(names)
    return f"{shown(names[:most])[:-1]}, ...] ({len(names):,} in all)"


def too_large(
    what: str, cells: int, max_cells: int, way_out: str, tables: str = "a table of"
) -> InferenceTooLarge:
    """The error for ``what`` needing ``tables`` ``cells`` cells, above ``max_cells``."""
    if cells < 10**15:
        size = f"{cells:,} cells ({cells * 8 / 2**30:.1f} GiB)"
    else:  # beyond what a float's GiB or a row of digits shows well
        size = f"about 10^{math.log10(cells):.1f} cells"
    msg = f"{what} needs {tables} {size}, above max_cells={max_cells:,}; {way_out}"
    return InferenceTooLarge(msg)


def too_many_axes(what: str, axes: int, way_out: str) -> InferenceTooLarge:
    """The error for ``what`` needing a table of ``axes`` axes, more than numpy's arrays have."""
    msg = f"{what} needs a table of {axes} axes, more than numpy's {MAX_AXES}; {way_out}"
    return InferenceTooLarge(msg)
