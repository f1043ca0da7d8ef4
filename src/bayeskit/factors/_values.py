"""What a single value or state name is, for the state names of :mod:`bayeskit.factors.states`:
a missing value, a name that reads as a number, and the error of a missing name."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd

_NUMBER = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*")


def _number(name: str) -> float | None:
    """The finite number a state name reads as, else None."""
    if not _NUMBER.fullmatch(name):
        return None
    x = float(name)
    return x if math.isfinite(x) else None


def _missing(value: Any) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float | np.floating) and math.isnan(value)


class _MissingName(ValueError):
    """A missing value (None, NaN) where a state name is wanted."""
