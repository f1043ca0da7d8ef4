"""Reading a model file, every field checked before a model is built from it (see "Validation"
in :mod:`bayeskit.io`): the archive, the metadata and its digests, the model and its
parameters, the arrays, and the fitted state (class labels, schema, statistics)."""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from bayeskit._version import __version__
from bayeskit.classifiers import MODELS
from bayeskit.data.discretize import cut_problem
from bayeskit.data.schema import CATEGORICAL, NUMERIC, Encoded, Schema
from bayeskit.exceptions import ModelFileError
from bayeskit.io._format import (
    _ARRAY_KINDS,
    _ARRAYS,
    _MAX_ARRAY_BYTES,
    _MAX_META_BYTES,
    _MEMBERS,
    _META,
    FORMAT_NAME,
    FORMAT_VERSION,
    _canonical,
    _sha256,
)
from bayeskit.io._tree import _TreeReader
from bayeskit.stats import ExpectedCounts, Layout

__all__ = ["read_archive", "read_arrays", "read_document", "read_fitted", "read_model"]


def read_archive(path: Path) -> tuple[bytes, bytes]:
    def fail(what: str, exc: BaseException | None = None):
        msg = f"{path}: {what}"
        raise ModelFileError(msg) from exc

    if not path.exists():
        msg = f"no model file at {path}"
        raise FileNotFoundError(msg)
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        if any(part in (".bif", ".xml", ".xmlbif", ".bifxml") for part in path.suffixes):
            fail(
                "not a bayeskit model file but, by its name, a network file: read it with "
                "bayeskit.networks.read_bif or read_xmlbif",
                exc,
            )
        fail("not a bayeskit model file, or truncated (it is not a readable zip archive)", exc)
    except OSError as exc:
        fail(f"cannot be read ({exc})", exc)
    with archive:
        listed = archive.namelist()
        if sorted(listed) != sorted(_MEMBERS):
            fail(
                f"not a bayeskit model file: the archive holds {sorted(listed)}, expected "
                f"exactly {sorted(_MEMBERS)}"
            )
        info = archive.getinfo(_META)
        if info.file_size > _MAX_META_BYTES:
            fail(f"{_META} claims {info.file_size} bytes, more than a model file can hold")
        size = archive.getinfo(_ARRAYS).file_size
        if size > _MAX_ARRAY_BYTES:
            fail(f"{_ARRAYS} claims {size} bytes, more than a model file can hold")
        try:
            meta = archive.read(_META)
            arrays = archive.read(_ARRAYS)
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            OSError,
            ValueError,
            NotImplementedError,
        ) as exc:
            fail(f"corrupted or truncated ({exc})", exc)
    return meta, arrays


def read_document(meta_bytes: bytes, array_bytes: bytes, fail) -> dict:
    """The metadata: JSON of this format, of a version this bayeskit reads, both digests
    matching (the metadata's own and that of the arrays' bytes)."""
    try:
        doc = json.loads(meta_bytes.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        fail(f"{_META} is not valid JSON ({exc})", exc)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        got = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        fail(f"not a bayeskit model file (format {got!r}, expected {FORMAT_NAME!r})")
    version = doc.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        fail(f"format_version must be a positive integer, got {version!r}")
    if version > FORMAT_VERSION:
        fail(
            f"written by a newer bayeskit ({doc.get('bayeskit_version', 'unknown version')}, "
            f"format_version {version}); this bayeskit {__version__} reads format "
            f"versions up to {FORMAT_VERSION}. Upgrade bayeskit to load it"
        )
    recorded = doc.pop("metadata_sha256", None)
    try:
        body_digest = _sha256(_canonical(doc))
    except ValueError as exc:
        fail(f"{_META} holds a value outside strict JSON ({exc})", exc)
    if recorded != body_digest:
        fail(
            f"{_META} does not match its checksum (metadata_sha256): the file was edited or "
            "corrupted"
        )
    arrays_entry = doc.get("arrays")
    if not isinstance(arrays_entry, dict) or arrays_entry.get("sha256") != _sha256(array_bytes):
        fail(f"{_ARRAYS} does not match its checksum: the file was edited or corrupted")
    return doc


def read_model(doc: dict, fail: Callable[..., NoReturn]) -> Any:
    """The model, unfitted: its class looked up in ``MODELS``, built from its own parameters
    only, which pass its argument checks (``_check_params``, as ``fit`` runs them)."""
    name = doc.get("model")
    if not isinstance(name, str) or name not in MODELS:
        fail(f"unknown model {name!r}; this bayeskit knows {', '.join(MODELS)}")
    cls = MODELS[name]
    params = doc.get("params")
    if not isinstance(params, dict):
        fail("params must be a JSON object")
    known = cls().get_params(deep=False)
    unknown = sorted(set(params) - set(known))
    if unknown:
        fail(f"parameters {unknown} are not parameters of {cls.__name__} (known: {sorted(known)})")
    try:
        model = cls(**params)
        model._check_params()
    except (TypeError, ValueError) as exc:
        fail(f"invalid parameters for {cls.__name__}: {exc}", exc)
    return model


def read_arrays(array_bytes: bytes, fail) -> dict[str, np.ndarray]:
    """The arrays of the statistics, read without pickle, of the dtypes a file may hold."""
    if not array_bytes.startswith(b"PK"):
        fail(f"{_ARRAYS} is not an npz archive")
    _check_array_sizes(array_bytes, fail)
    try:
        with np.load(io.BytesIO(array_bytes), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        fail(f"{_ARRAYS} cannot be read without pickle ({exc})", exc)
    for key, arr in arrays.items():
        if arr.dtype.kind not in _ARRAY_KINDS:
            fail(f"{_ARRAYS} array {key!r} has dtype {arr.dtype}, which model files never hold")
    return arrays


def _check_array_sizes(array_bytes: bytes, fail) -> None:
    """Each array's header against its member's size, before numpy allocates what the header
    declares (a tiny file could otherwise claim terabytes)."""
    problem = None
    try:
        with zipfile.ZipFile(io.BytesIO(array_bytes)) as npz:
            for info in npz.infolist():
                with npz.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    read = (
                        np.lib.format.read_array_header_1_0
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0
                    )
                    shape, _, dtype = read(member)
                declared = int(np.prod(shape, dtype=object)) * dtype.itemsize
                if declared > info.file_size:
                    problem = (
                        f"{_ARRAYS} array {info.filename!r} declares shape {shape} "
                        f"({declared} bytes) but holds {info.file_size} bytes"
                    )
                    break
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError, TypeError) as exc:
        fail(f"{_ARRAYS} cannot be read without pickle ({exc})", exc)
    if problem is not None:
        fail(problem)


def read_fitted(model: Any, fitted: Any, arrays: dict[str, np.ndarray], fail) -> Any:
    """``model`` fitted from the file's fitted state: class labels, statistics (rebuilt from
    the stats tree), feature bookkeeping and schema, each checked; the statistics validated
    against the layout they give, then the tables estimated from them."""
    cls = type(model)
    if not isinstance(fitted, dict):
        fail("'fitted' must be a JSON object")
    classes = _read_classes(fitted.get("classes"), fail)
    reader = _TreeReader(arrays, fail)
    try:
        stats = reader.node(fitted.get("stats"), "stats_")
        weights = reader.node(fitted["weights"], "cell_weights_") if "weights" in fitted else None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ModelFileError):
            raise
        fail(f"the statistics cannot be rebuilt ({exc})", exc)
    unused = sorted(set(arrays) - reader.used)
    if unused:
        fail(f"{_ARRAYS} holds arrays {unused} that the metadata does not refer to")
    n_features = fitted.get("n_features_in")
    if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
        fail(f"fitted.n_features_in must be a positive integer, got {n_features!r}")
    names = fitted.get("feature_names_in")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != n_features
        or not all(isinstance(n, str) for n in names)
    ):
        fail(f"fitted.feature_names_in must be null or {n_features} strings")
    if names is not None and len(set(names)) != len(names):
        fail(f"fitted.feature_names_in must be distinct, got {names[:10]}")
    tabular = cls._reads_tables  # models that read tables have a schema
    schema = _read_schema(fitted.get("schema"), tabular, n_features, names, fail)
    if model.priors is not None and len(model.priors) != len(classes):
        fail(
            f"params.priors holds {len(model.priors)} probabilities, expected "
            f"{len(classes)} (one per class)"
        )

    model.classes_ = classes
    model.schema_ = schema
    model.n_features_in_ = n_features
    if names is not None:
        model.feature_names_in_ = np.array(names, dtype=object)
    layout = _layout(schema, len(classes), n_features)
    _check_stats(model, stats, layout, fail)
    model.stats_ = stats
    try:
        model._validate_stats(layout)  # what only the model knows (the families it counts)
    except ValueError as exc:
        fail(str(exc), exc)
    _set_weights(model, weights, fitted.get("l2"), fail)
    try:
        model._reestimate()
    except Exception as exc:  # noqa: BLE001 - whatever the numbers do, the user gets one error
        fail(f"the statistics do not fit a {cls.__name__} ({type(exc).__name__}: {exc})", exc)
    if weights is not None and len(weights) != model._n_weights():
        fail(f"fitted.weights holds {len(weights)} numbers; the tables have {model._n_weights()} "
             "cells and class priors")  # fmt: skip
    return model


def _set_weights(model: Any, weights: Any, l2: Any, fail) -> None:
    """The discriminative weights of a file (checked: a model that takes them, a finite 1-D
    float array, a penalty that is null or a non-negative number), set before the tables are
    estimated, which apply them."""
    if weights is None:
        return
    if getattr(model, "parameters", None) != "discriminative":
        fail("fitted.weights goes with params.parameters = 'discriminative'")
    if not (isinstance(weights, np.ndarray) and weights.ndim == 1 and weights.dtype.kind == "f"
            and np.isfinite(weights).all()):  # fmt: skip
        fail("fitted.weights must be a 1-D array of finite floats")
    ok = l2 is None or (isinstance(l2, int | float) and not isinstance(l2, bool) and l2 >= 0)
    if not ok or (l2 is not None and not np.isfinite(l2)):
        fail(f"fitted.l2 must be null or a non-negative number, got {l2!r}")
    model.cell_weights_, model.l2_ = weights, l2


# --------------------------------------------------------------------------------------------
# validation of what was read (see "Validation" in the module docstring of bayeskit.io)
# --------------------------------------------------------------------------------------------


def _read_schema(
    raw: Any, tabular: bool, n_features: int, names: list[str] | None, fail
) -> Schema | None:
    """The schema, after checking every field :meth:`Schema.from_dict` and the encoder rely on."""
    where = "fitted.schema"
    if not tabular:
        if raw is not None:
            fail(f"{where} must be null: this model reads numeric matrices, not tables")
        return None
    if not isinstance(raw, dict) or not (
        {"input_names", "columns"} <= set(raw) <= {"input_names", "columns", "inputs"}
    ):
        fail(
            f"{where} must be an object with keys 'columns' and 'input_names' (and 'inputs' "
            "where some columns are ignored)"
        )
    if not isinstance(raw["input_names"], bool):
        fail(f"{where}.input_names must be true or false, got {raw['input_names']!r}")
    inputs = raw.get("inputs")
    if inputs is not None and (
        not isinstance(inputs, list)
        or len(inputs) != n_features
        or not all(isinstance(n, str) for n in inputs)
        or len(set(inputs)) != len(inputs)
    ):
        fail(f"{where}.inputs must list {n_features} distinct names (n_features_in)")
    columns = raw["columns"]
    n_columns = n_features if inputs is None else None  # with inputs: fewer (some ignored)
    if not isinstance(columns, list) or (
        len(columns) != n_features if inputs is None else not 0 < len(columns) < n_features
    ):
        got = len(columns) if isinstance(columns, list) else type(columns).__name__
        want = n_columns if n_columns is not None else f"fewer than {n_features}"
        fail(f"{where}.columns must list {want} columns (n_features_in), got {got}")
    seen: set[str] = set()
    for i, col in enumerate(columns):
        at = f"{where}.columns[{i}]"
        if (
            not isinstance(col, dict)
            or not {"name", "kind", "categories"} <= set(col)
            or not (set(col) <= {"name", "kind", "categories", "cuts"})
        ):
            fail(f"{at} must be an object with keys 'name', 'kind', 'categories' and 'cuts'")
        name, kind, cats, cuts = col["name"], col["kind"], col["categories"], col.get("cuts")
        if not isinstance(name, str) or name in seen:
            fail(f"{at}.name must be a string naming no other column, got {name!r}")
        seen.add(name)
        at = f"{where} column {name!r}"
        if kind == NUMERIC:
            if cats is not None or cuts is not None:
                fail(f"{at} is numeric, so its categories and cuts must be null")
            continue
        if kind != CATEGORICAL:
            fail(f"{at} has kind {kind!r}; expected {CATEGORICAL!r} or {NUMERIC!r}")
        _check_vocabulary(cats, at, fail)
        if cuts is not None:
            _check_cuts(cuts, len(cats), at, fail)
    features = [c["name"] for c in columns]
    if inputs is not None and features != [n for n in inputs if n in set(features)]:
        fail(f"{where}.inputs {inputs[:10]} do not hold the columns {features[:10]} in order")
    if names is not None and names != (features if inputs is None else inputs):
        fail(f"fitted.feature_names_in {names[:10]} differ from the schema's column names")
    try:
        return Schema.from_dict(raw)
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        fail(f"the schema cannot be read ({exc!r})", exc)
    return None  # pragma: no cover - fail raises


def _check_vocabulary(cats: Any, at: str, fail) -> None:
    if not isinstance(cats, list):
        fail(f"{at} is categorical, so its categories must be a list, got {type(cats).__name__}")
    kinds = {type(v) for v in cats}
    if not kinds <= {str, int, float, bool}:
        bad = next(v for v in cats if type(v) not in (str, int, float, bool))
        fail(f"{at} has category {bad!r}: categories are strings, numbers or booleans")
    # the encoder looks categories up by equality (1 == 1.0 == True): none may equal another
    if len(set(cats)) != len(cats):
        dup = next(v for i, v in enumerate(cats) if v in cats[:i])
        fail(f"{at} lists category {dup!r} more than once")


def _check_cuts(cuts: Any, n_states: int, at: str, fail) -> None:
    if not isinstance(cuts, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in cuts
    ):
        fail(f"{at}.cuts must be a list of numbers")
    try:
        arr = np.array(cuts, dtype=np.float64)
    except OverflowError as exc:
        fail(f"{at}.cuts holds a number outside float64", exc)
    problem = cut_problem(arr)
    if problem is not None:
        fail(f"{at}.cuts {problem}, got {cuts[:10]}")
    if n_states != arr.size + 1:
        fail(
            f"{at} has {n_states} categories but {arr.size} cut points; binned columns have "
            "one category per bin, len(cuts) + 1"
        )


def _layout(schema: Schema | None, n_classes: int, n_features: int) -> Layout:
    """The shapes a model's statistics must have, from its schema and classes."""
    if schema is None:  # count models: one (n_classes, n_features) table
        return Layout(n_classes, (n_features,), ("features",))
    cats, nums = schema.categorical, schema.numeric
    return Layout(
        n_classes,
        tuple(c.n_states for c in cats),
        tuple(f"categories of column {c.name!r}" for c in cats),
        len(nums),
        tuple(c.name for c in nums),
        tuple(c.name for c in cats),
        tuple(i for i, c in enumerate(schema.columns) if c.kind != CATEGORICAL),
    )


def _check_stats(model: Any, stats: Any, layout: Layout, fail) -> None:
    """The statistics are of the class the model counts into, and fit ``layout`` (checked by
    their own ``validate``)."""
    # the class the model's own counting produces, from no rows and no columns (so that a
    # vocabulary claimed by the file allocates nothing here)
    schema = model.schema_
    y = np.zeros(0, dtype=np.intp)
    empty: Any
    if schema is None:
        empty = np.zeros((0, 0))
    else:
        model.schema_ = Schema(())
        empty = Encoded(np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0)))
    try:
        expected = type(model._count(empty, y, None, layout.n_classes))
    finally:
        model.schema_ = schema
    if model._missing_by_em() and type(stats) is ExpectedCounts:
        # fitted by EM over missing values: the structure's counts and the expected ones
        if type(stats.counts) is not expected:
            fail(f"stats_.counts is a {type(stats.counts).__name__}; expected {expected.__name__}")
    elif type(stats) is not expected:
        fail(
            f"stats_ is a {type(stats).__name__}; a {type(model).__name__} holds "
            f"{expected.__name__}"
        )
    if not callable(getattr(expected, "validate", None)):  # pragma: no cover - a new model's bug
        fail(f"{expected.__name__} states no invariants (validate), so it cannot be loaded safely")
    try:
        stats.validate(layout, "stats_")
    except ValueError as exc:
        fail(str(exc), exc)


def _read_classes(entry: Any, fail) -> np.ndarray:
    if not isinstance(entry, dict) or set(entry) != {"dtype", "values"}:
        fail("classes must be an object with 'dtype' and 'values'")
    values = entry["values"]
    if not isinstance(values, list) or len(values) < 2:
        fail("classes must list at least 2 labels")
    if not all(v is not None and isinstance(v, (bool, int, float, str)) for v in values):
        fail("class labels must be strings, numbers or booleans")
    try:
        dtype = np.dtype(entry["dtype"])
    except TypeError as exc:
        fail(f"classes have an unreadable dtype {entry['dtype']!r}", exc)
    if dtype.kind not in "biufUO":
        fail(f"classes have dtype {dtype}, which model files never hold")
    try:
        classes = np.array(values, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        fail(f"class labels do not fit dtype {dtype} ({exc})", exc)
    if classes.ndim != 1 or classes.tolist() != values:
        fail(f"class labels {values[:10]} do not fit dtype {dtype}")
    if len(set(values)) != len(values):
        fail(f"class labels repeat: {values[:10]}")
    try:  # fit keeps np.unique's order, which partial_fit's look-up of labels relies on
        ordered = np.array_equal(np.unique(classes), classes)
    except TypeError:
        ordered = False
    if not ordered:
        fail(f"class labels must be distinct and sorted, got {values[:10]}")
    return classes
