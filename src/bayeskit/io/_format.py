"""The model file's format: its names and limits, the canonical JSON its digest is taken of,
and the allow-list of statistics classes a file may name (see :mod:`bayeskit.io`)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from typing import Any

from bayeskit import stats as _stats_pkg

#: The ``format`` field of every model file.
FORMAT_NAME = "bayeskit-model"
#: The newest format version this bayeskit writes and reads.
FORMAT_VERSION = 1

#: The ``model`` name of a hidden Markov model's file (:mod:`bayeskit.io._sequences`).
_HMM_MODEL = "hidden-markov-model"
_META = "bayeskit.json"
_ARRAYS = "arrays.npz"
_MEMBERS = {_META, _ARRAYS}
_ARRAY_KINDS = "biufcUS"  # bool, integers, floats, complex, fixed-width strings: no objects
_MAX_DEPTH = 64
_MAX_META_BYTES = 1 << 30
#: The most bytes the arrays of a model file may hold once decompressed (4 GiB): a larger claim
#: is refused before anything is decompressed.
_MAX_ARRAY_BYTES = 1 << 32


def _stats_types() -> dict[str, Any]:
    """Class name -> dataclass type, for every statistics class a model file may name.

    Every statistics class lives in :mod:`bayeskit.stats` (the models' own bundles in
    :mod:`bayeskit.stats.model_stats`), so the allow-list is gathered from the modules of its
    public names, never from model modules. A name two different classes share maps to
    ``None`` (ambiguous: such a class cannot be saved or loaded).
    """
    modules = {getattr(_stats_pkg, n).__module__ for n in _stats_pkg.__all__}
    found: dict[str, Any] = {}
    for name in sorted(modules):
        module = sys.modules.get(name)
        for obj in vars(module).values() if module is not None else ():
            if not (isinstance(obj, type) and dataclasses.is_dataclass(obj)):
                continue
            if obj.__module__ != name or not all(f.init for f in dataclasses.fields(obj)):
                continue
            key = obj.__qualname__
            found[key] = obj if found.get(key, obj) is obj else None
    return found


def _canonical(doc: dict) -> bytes:
    return json.dumps(
        doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
