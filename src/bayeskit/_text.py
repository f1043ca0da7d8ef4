"""Values in messages as the user wrote them.

numpy 2 writes its scalars with their type (``repr(np.float64(0.0))`` is ``'np.float64(0.0)'``)
and arrays as ``array([...])``: a message that formats a label, a parameter or a cell with
``!r`` shows that to someone who wrote ``0.0``. :func:`shown` is the ``repr`` of the plain
Python value instead, inside lists, tuples and dicts too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["first_few", "plain", "shown"]


def plain(value: Any) -> Any:
    """``value`` with numpy scalars and arrays as the Python values they hold (recursively in
    lists, tuples and dicts).

    Examples
    --------
    >>> plain(np.float64(0.0)), plain((np.str_("a"), np.int64(2))), plain(np.array([1, 2]))
    (0.0, ('a', 2), [1, 2])
    """
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value


def shown(value: Any) -> str:
    """``repr`` of :func:`plain` ``(value)``: how a message shows a value.

    Examples
    --------
    >>> shown(np.float64(0.0)), shown([np.str_("a")]), shown("a")
    ('0.0', "['a']", "'a'")
    """
    return repr(plain(value))


def first_few(texts: Any, most: int) -> str:
    """Texts for a message as a comma list: the first ``most`` of them and how many more.

    Examples
    --------
    >>> first_few(["'a'", "'b'", "'c'"], 2), first_few(["x"], 5)
    ("'a', 'b' and 1 more", 'x')
    """
    texts = [str(t) for t in texts]
    more = f" and {len(texts) - most} more" if len(texts) > most else ""
    return ", ".join(texts[:most]) + more
