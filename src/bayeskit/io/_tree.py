"""The stats tree of a model file: statistics written as JSON nodes plus arrays, and rebuilt
from them, refusing anything but the allow-listed statistics classes (see :mod:`bayeskit.io`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

from bayeskit.io._format import _ARRAY_KINDS, _ARRAYS, _MAX_DEPTH, _stats_types


class _TreeWriter:
    """Turns a statistics object into a JSON tree plus a dict of arrays."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}
        self.types = _stats_types()

    def _store(self, arr: np.ndarray, where: str) -> str:
        if arr.dtype.kind not in _ARRAY_KINDS:
            msg = (
                f"{where} is an array of dtype {arr.dtype}, which cannot be saved: model files "
                "hold numeric, boolean and string arrays only (never objects, never pickle)"
            )
            raise TypeError(msg)
        key = f"a{len(self.arrays)}"
        self.arrays[key] = arr
        return key

    def node(self, obj: Any, where: str, depth: int = 0) -> dict:
        if depth > _MAX_DEPTH:
            msg = f"{where} is nested more than {_MAX_DEPTH} levels deep"
            raise TypeError(msg)
        if isinstance(obj, np.ndarray):
            return {"array": self._store(obj, where)}
        if isinstance(obj, np.generic):
            return {"scalar": self._store(np.asarray(obj), where)}
        if obj is None or isinstance(obj, (bool, int, str)):
            return {"value": obj}
        if isinstance(obj, float):
            return {"value": obj} if math.isfinite(obj) else {"float": repr(obj)}
        if isinstance(obj, (tuple, list)):
            tag = "tuple" if isinstance(obj, tuple) else "list"
            return {tag: [self.node(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(obj)]}
        if isinstance(obj, dict):
            items = []
            for k, v in obj.items():
                if isinstance(k, bool) or not isinstance(k, (str, int)):
                    msg = f"{where} has key {k!r}: only string and integer keys can be saved"
                    raise TypeError(msg)
                items.append([k, self.node(v, f"{where}[{k!r}]", depth + 1)])
            return {"dict": items}
        name = type(obj).__qualname__
        if dataclasses.is_dataclass(obj) and self.types.get(name) is type(obj):
            fields = {
                f.name: self.node(getattr(obj, f.name), f"{where}.{f.name}", depth + 1)
                for f in dataclasses.fields(obj)
            }
            return {"dataclass": name, "fields": fields}
        msg = (
            f"{where} is a {type(obj).__module__}.{name}, which is not a statistics class "
            "model files know; statistics must be dataclasses from bayeskit.stats or a "
            "registered model's module, made of arrays, tuples, lists, dicts and numbers"
        )
        raise TypeError(msg)


class _TreeReader:
    """Rebuilds a statistics object from its JSON tree and the arrays, refusing the unknown."""

    def __init__(self, arrays: dict[str, np.ndarray], fail: Callable[..., NoReturn]) -> None:
        self.arrays = arrays
        self.used: set[str] = set()
        self.types = _stats_types()
        self.fail = fail

    def _array(self, key: Any, where: str) -> np.ndarray:
        if not isinstance(key, str) or key not in self.arrays:
            self.fail(f"{where} refers to array {key!r}, which {_ARRAYS} does not hold")
        self.used.add(key)
        return self.arrays[key]

    def node(self, node: Any, where: str, depth: int = 0) -> Any:
        if depth > _MAX_DEPTH:
            self.fail(f"{where} is nested more than {_MAX_DEPTH} levels deep")
        if not isinstance(node, dict) or not node:
            self.fail(f"{where} is not a stats-tree node: {str(node)[:80]}")
        tag = "dataclass" if "dataclass" in node else next(iter(node))
        allowed = {"dataclass": {"dataclass", "fields"}}.get(tag, {tag})
        if set(node) != allowed:
            self.fail(f"{where} has unexpected keys {sorted(node)}")
        body = node[tag]
        if tag == "array":
            return self._array(body, where)
        if tag == "scalar":
            arr = self._array(body, where)
            if arr.ndim != 0:
                self.fail(f"{where} should be a scalar but has shape {arr.shape}")
            return arr[()]
        if tag == "value":
            if body is not None and not isinstance(body, (bool, int, float, str)):
                self.fail(f"{where} holds {type(body).__name__}, not a plain value")
            return body
        if tag == "float":
            if body not in ("nan", "inf", "-inf"):
                self.fail(f"{where} holds float {body!r}; expected 'nan', 'inf' or '-inf'")
            return float(body)
        if tag in ("tuple", "list"):
            if not isinstance(body, list):
                self.fail(f"{where} should hold a list of nodes")
            items = [self.node(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(body)]
            return tuple(items) if tag == "tuple" else items
        if tag == "dict":
            if not isinstance(body, list):
                self.fail(f"{where} should hold a list of [key, node] pairs")
            out = {}
            for item in body:
                ok = isinstance(item, list) and len(item) == 2
                if not ok or isinstance(item[0], bool) or not isinstance(item[0], (str, int)):
                    self.fail(f"{where} holds {str(item)[:80]}, not a [key, node] pair")
                out[item[0]] = self.node(item[1], f"{where}[{item[0]!r}]", depth + 1)
            return out
        if tag == "dataclass":
            return self._dataclass(body, node["fields"], where, depth)
        self.fail(f"{where} has unknown node type {tag!r}")
        return None  # pragma: no cover - fail raises

    def _dataclass(self, name: Any, fields: Any, where: str, depth: int) -> Any:
        cls = self.types.get(name) if isinstance(name, str) else None
        if cls is None:
            self.fail(
                f"{where} names statistics class {name!r}, which is not one this bayeskit "
                f"knows (known: {', '.join(sorted(k for k, v in self.types.items() if v))})"
            )
        expected = {f.name for f in dataclasses.fields(cls)}
        # a field added later with a default may be absent (a file an older bayeskit wrote)
        required = {
            f.name
            for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        if not isinstance(fields, dict) or not required <= set(fields) <= expected:
            got = sorted(fields) if isinstance(fields, dict) else fields
            self.fail(f"{where} ({name}) has fields {got}; expected {sorted(expected)}")
        values = {k: self.node(v, f"{where}.{k}", depth + 1) for k, v in fields.items()}
        return cls(**values)
