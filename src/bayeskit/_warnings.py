"""Warnings that point at the user's line, however deep inside bayeskit they are raised."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from types import FrameType

_PACKAGE_DIR = str(Path(__file__).resolve().parent)


def outside_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside bayeskit, seen from the caller of this."""
    level = 1
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and str(Path(frame.f_code.co_filename).resolve()).startswith(
        _PACKAGE_DIR
    ):
        frame, level = frame.f_back, level + 1
    return level


def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` attributed to the user's call (the first frame outside the package)."""
    warnings.warn(message, category, stacklevel=outside_stacklevel())
