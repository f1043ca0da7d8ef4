"""Settings shared by the whole suite.

Property tests (hypothesis) draw their examples from a fixed seed, so every run on every
machine tries the same cases: a failure is a defect to fix, never a draw that a rerun hides.
``HYPOTHESIS_PROFILE=explore`` draws new examples each run, to look for defects on purpose.

The conformance tests import their ``_cases`` helpers from their own folder, put on sys.path
here (one conftest for the suite: two files named conftest.py clash under --doctest-modules).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent / "conformance"))

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
