"""Save and load fitted models: a documented, versioned, safe file format (never pickle).

A fitted bayeskit classifier is fully determined by its constructor parameters, its schema, its
class labels and its sufficient statistics (``stats_``): every table it predicts with is
re-estimated from the statistics by the model itself. So that is all a model file holds, and
loading a file is "construct the model from its parameters, hand it the statistics, estimate".

Format (``format_version`` 1)
-----------------------------
A model file is a zip archive holding exactly two members:

``bayeskit.json``
    UTF-8 JSON metadata, an object with the keys

    * ``format``: the string ``"bayeskit-model"``;
    * ``format_version``: the integer ``1``;
    * ``bayeskit_version``: the version that wrote the file (information only);
    * ``model``: the model's name in :data:`bayeskit.classifiers.MODELS` (e.g. ``"naive-bayes"``);
    * ``params``: the constructor parameters (``get_params(deep=False)``) as plain JSON: numpy
      arrays become lists and numpy scalars numbers; tuples come back as lists;
    * ``fitted``: ``classes`` (``{"dtype": numpy dtype string, "values": [...]}``),
      ``n_features_in``, ``feature_names_in`` (a list of strings or null), ``schema``
      (:meth:`bayeskit.data.Schema.to_dict`, or null for models without a schema) and ``stats``,
      a tree describing the statistics (below);
    * ``arrays``: ``{"member": "arrays.npz", "sha256": hex digest of that member's bytes}``;
    * ``metadata_sha256``: the sha256 of this JSON object *without* the ``metadata_sha256`` key,
      serialised canonically (``sort_keys=True``, ``separators=(",", ":")``,
      ``ensure_ascii=True``). As the body records the digest of ``arrays.npz``, the two digests
      together cover every byte that matters.

``arrays.npz``
    The numeric arrays of the statistics, written with :func:`numpy.savez` and read with
    ``allow_pickle=False``; keys ``a0``, ``a1``, ... are referenced from the stats tree.

The stats tree has one node type per kind of value, each a JSON object with one tag:

* ``{"array": key}``: an array (numeric, boolean or fixed-width string dtype; never ``object``);
* ``{"scalar": key}``: a numpy scalar, stored as a 0-d array;
* ``{"value": v}``: ``None``, a bool, an int, a finite float or a string;
  ``{"float": "nan" | "inf" | "-inf"}``: a non-finite Python float;
* ``{"tuple": [node, ...]}``, ``{"list": [node, ...]}``: sequences, kept as the type they were;
* ``{"dict": [[key, node], ...]}``: a dict with string or integer keys;
* ``{"dataclass": name, "fields": {field: node, ...}}``: a statistics dataclass, ``name`` being
  its class name in an allow-list gathered from :mod:`bayeskit.stats` (e.g. ``NaiveStats``
  holding a ``CategoricalCounts`` and a ``GaussianMoments``).

Safety
------
Loading never executes code from the file: no pickle anywhere (object arrays are refused on save
and on load), the model class is looked up by name in ``MODELS`` and statistics classes in the
allow-list (anything else is refused), and parameters go through the model's own constructor and
argument checks. The digests detect truncation, corruption and edits made without recomputing
them; they are not a signature, so a file from an untrusted source is still only as trustworthy
as its numbers, but it cannot make bayeskit run anything. Every problem with a file raises
:class:`~bayeskit.exceptions.ModelFileError` (a ``ValueError``) naming the file and what is
wrong; a file that does not exist raises ``FileNotFoundError``.

Validation
----------
A digest is integrity, not authenticity: anyone can edit a file and recompute both digests. So
:func:`load` treats a file as untrusted input and checks everything it reads before a model is
built from it; compiled look-ups and estimators below it then see only what ``fit`` could have
produced. In order:

* the parameters: only the model's own, through its constructor and its argument checks
  (``_check_params``, as ``fit`` runs them); ``priors`` must hold one probability per class;
* the class labels: at least two, of a plain dtype, distinct and sorted (as ``fit`` stores them);
* ``n_features_in`` a positive integer; ``feature_names_in`` null or that many distinct strings,
  equal to the schema's column names (its ``inputs`` where it ignores some columns);
* the schema (models that read tables; null for the count models): one column per feature, with
  distinct string names and kind ``"categorical"`` or ``"numeric"``, and where the model left
  columns out (identifiers: :attr:`bayeskit.data.Schema.ignored`) ``inputs``, every column of
  the training data in order, one per ``n_features_in``, the features among them in their order;
  a categorical column's
  vocabulary a list of strings, numbers or booleans, no two equal (the encoder looks them up by
  equality, so ``1``, ``1.0`` and ``True`` count as one); a binned column's cut points finite,
  strictly increasing, and one fewer than its categories; a numeric column has neither;
* the statistics: of exactly the class the model counts into (``stats_`` of a NaiveBayes is a
  ``NaiveStats``), and fitting the layout given by the classes and the schema. Each statistics
  class states its own invariants in a ``validate(layout, where)`` method, so that a new
  statistic brings its checks with it and this module stays thin:

  - count tables (:class:`~bayeskit.stats.CategoricalCounts`): ``class_count`` of shape
    ``(n_classes,)`` and one ``(n_classes, n_states)`` table per categorical column (per model
    for the multinomial and Bernoulli models, ``(n_classes, n_features_in)``), float64, finite,
    non-negative, with a finite and positive total;
  - Gaussian moments: count, mean and M2 of shape ``(n_classes, n_numeric)``, float64, counts
    and M2 non-negative, all finite; scatter moments (full Bayes): count ``(n_classes,)``, mean
    ``(n_classes, d)``, scatter ``(n_classes, d, d)`` finite, symmetric and positive
    semi-definite up to rounding, and the Ledoit-Wolf moments finite (norm4 non-negative);
  - sparse joint counts (full Bayes): ``n_states`` equal to the vocabulary sizes, ``combos``
    signed integer codes within them (-1 = missing), distinct and sorted, ``counts`` of shape
    ``(m, n_classes)`` as any count table;
  - the stored rows of KNNBayes: codes within the vocabularies, values float64 without
    infinities (NaN = missing), class indices within the classes, weights positive, and
    ``class_count`` the rows' weights summed per class;
  - counts that summarise the same rows agree, within rounding (1e-7 relative): a family's
    table summed over one of its columns holds no more weight than the table of the others
    (or, where that is not counted, the class counts), since a row missing a column is left
    out of the larger table; naive Bayes tables and moment counts hold no more weight per
    class than ``class_count``, full Bayes's joint counts sum to it and its moments hold no
    more; a leave-one-out score finds no more weight impossible than the rows counted; a
    Bernoulli count is at most its class's, and a multinomial class of no rows counts no word;
    a mixture's component counts sum to the class counts;
  - the families are those the model counts: the fixed ones of TAN, AODE/AnDE, SPODE and
    NBTree (each missing or extra family named), or for KDB, selective KDB and the network
    classifier a structure the model can read (the first family at fault named); after EM the
    expected counts hold the class and every ``(class, x_j)``. The number of cells the
    families declare is computed in Python integers and must equal the counts held, so no
    declared size is allocated or overflows before it is checked.

Whatever fails raises :class:`~bayeskit.exceptions.ModelFileError` naming the file and the field,
for example (a vocabulary grown by 3 categories) ``stats_.counts.feature_count[0]: shape (2, 3)
does not match (2, 6): 2 classes by 6 categories of column 'color'``. Should estimating the tables
from validated statistics still fail, that too is a ``ModelFileError``: no file makes ``load``
raise anything else (but ``FileNotFoundError`` where there is none), or crash the process.
``tests/test_io_validation.py`` holds a seeded fuzz test that edits saved files of every model
(array values, shapes and dtypes; vocabularies, classes, parameters, schema kinds) and checks that
each is refused or predicts finite probabilities summing to 1.

Versioning: a reader accepts every ``format_version`` up to its own and refuses a newer one with
an error saying it was written by a newer bayeskit. Additions that old readers can ignore keep
the version; anything else raises it.

Examples
--------
>>> import tempfile, pathlib
>>> import bayeskit
>>> from bayeskit.data import datasets
>>> X, y = datasets.load("watermelon3")
>>> model = bayeskit.NaiveBayes().fit(X, y)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "melon.bayeskit"
>>> _ = bayeskit.save(model, path)
>>> again = bayeskit.load(path)
>>> bool((again.predict_proba(X) == model.predict_proba(X)).all())
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import math
import os
import secrets
import sys
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from bayeskit import stats as _stats_pkg
from bayeskit._version import __version__
from bayeskit.classifiers import MODELS
from bayeskit.data.schema import CATEGORICAL, NUMERIC, Encoded, Schema
from bayeskit.exceptions import ModelFileError
from bayeskit.stats import ExpectedCounts
from bayeskit.stats._checks import Layout

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "load", "save"]

#: The ``format`` field of every model file.
FORMAT_NAME = "bayeskit-model"
#: The newest format version this bayeskit writes and reads.
FORMAT_VERSION = 1

_META = "bayeskit.json"
_ARRAYS = "arrays.npz"
_MEMBERS = {_META, _ARRAYS}
_ARRAY_KINDS = "biufcUS"  # bool, integers, floats, complex, fixed-width strings: no objects
_MAX_DEPTH = 64
_MAX_META_BYTES = 1 << 30


# --------------------------------------------------------------------------------------------
# the allow-list of statistics classes
# --------------------------------------------------------------------------------------------


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


def _model_name(model: Any) -> str:
    for name, cls in MODELS.items():
        if type(model) is cls:
            return name
    raise TypeError(_what_saves(model))


def _what_saves(model: Any) -> str:
    """Why ``model`` cannot be saved, and what saves it."""
    from sklearn.pipeline import Pipeline

    from bayeskit.networks import DAG, BayesianNetwork

    kind = type(model).__name__
    if isinstance(model, BayesianNetwork):
        return (
            f"bayeskit.save writes classifiers; a {kind} is saved as a network file: "
            "bayeskit.networks.write_bif(network, 'net.bif') or write_xmlbif(network, "
            "'net.xml') (either with .gz), read back by read_bif / read_xmlbif, every "
            "probability exactly"
        )
    if isinstance(model, DAG):
        return (
            f"bayeskit.save writes classifiers; a {kind} is a structure without tables: fit "
            "its parameters (bayeskit.networks.fit_parameters) and write the network with "
            "bayeskit.networks.write_bif or write_xmlbif"
        )
    if isinstance(model, Pipeline):
        return (
            f"bayeskit.save writes one bayeskit model, and a {kind} also holds other steps, "
            "which its format (JSON and arrays, never pickle) cannot carry: save the fitted "
            "model step, bayeskit.save(pipeline[-1], path), and rebuild the steps before it "
            "in code; or pickle the whole pipeline with joblib.dump at your own risk (loading "
            "a pickle runs code from the file: only ever load your own)"
        )
    best = getattr(model, "best_estimator_", None)
    if best is not None and type(best) in MODELS.values():
        return (
            f"cannot save a {kind}: save the model it chose, bayeskit.save(search."
            "best_estimator_, path)"
        )
    return (
        f"cannot save a {kind}: only the models registered in bayeskit.classifiers.MODELS can "
        f"be saved ({', '.join(MODELS)})"
    )


# --------------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------------


def _json_param(value: Any, where: str) -> Any:
    """A parameter value as plain JSON, or TypeError naming ``where``."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        msg = f"{where} = {value!r} cannot be saved: model files hold finite numbers only"
        raise TypeError(msg)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_json_param(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            msg = f"{where} has key {bad[0]!r}: model files hold dicts with string keys only"
            raise TypeError(msg)
        return {k: _json_param(v, f"{where}[{k!r}]") for k, v in value.items()}
    msg = (
        f"{where} = {value!r} ({type(value).__name__}) cannot be saved: a model file holds "
        "parameters expressible in JSON (None, booleans, numbers, strings, lists, dicts with "
        "string keys, numpy arrays and scalars)"
    )
    raise TypeError(msg)


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


def _canonical(doc: dict) -> bytes:
    return json.dumps(
        doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def save(model: Any, path: str | os.PathLike) -> Path:
    """Save a fitted model to ``path`` (see the module docstring for the format).

    The file is written to a temporary name next to ``path`` and moved into place, so a failed
    save never leaves a half-written file behind.

    Parameters
    ----------
    model : estimator
        A fitted model whose class is registered in :data:`bayeskit.classifiers.MODELS`.
    path : str or path-like
        Where to write; an existing file is replaced. ``.bayeskit`` is a good suffix.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        If the model is not fitted.
    TypeError
        If the model is not a registered class, or a parameter, class label or statistic cannot
        be expressed in the format (the message names it). The message says what saves other
        objects: a Bayesian network is written by :func:`bayeskit.networks.write_bif` or
        :func:`~bayeskit.networks.write_xmlbif`; of a scikit-learn ``Pipeline``, save the model
        step (``pipeline[-1]``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from bayeskit import NaiveBayes, save
    >>> model = NaiveBayes().fit([["a"], ["b"], ["a"]], [0, 1, 0])
    >>> save(model, pathlib.Path(tempfile.mkdtemp()) / "m.bayeskit").name
    'm.bayeskit'
    """
    name = _model_name(model)
    check_is_fitted(model, "stats_")
    cls_name = type(model).__name__
    params = {
        k: _json_param(v, f"parameter {k!r} of {cls_name}")
        for k, v in model.get_params(deep=False).items()
    }
    classes = np.asarray(model.classes_)
    if classes.dtype.kind not in "biufUO":
        msg = f"class labels of dtype {classes.dtype} cannot be saved"
        raise TypeError(msg)
    class_values = [_json_param(v, f"class label {v!r}") for v in classes.tolist()]
    if any(isinstance(v, (list, dict)) for v in class_values):
        msg = "class labels must be strings, numbers or booleans to be saved"
        raise TypeError(msg)
    schema = getattr(model, "schema_", None)
    names = getattr(model, "feature_names_in_", None)
    writer = _TreeWriter()
    tree = writer.node(model.stats_, "stats_")
    buffer = io.BytesIO()
    np.savez(buffer, **writer.arrays)
    array_bytes = buffer.getvalue()
    doc = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "bayeskit_version": __version__,
        "model": name,
        "params": params,
        "fitted": {
            "classes": {"dtype": classes.dtype.str, "values": class_values},
            "n_features_in": int(model.n_features_in_),
            "feature_names_in": None if names is None else [str(n) for n in names],
            "schema": None if schema is None else schema.to_dict(),
            "stats": tree,
        },
        "arrays": {"member": _ARRAYS, "sha256": _sha256(array_bytes)},
    }
    try:
        doc["metadata_sha256"] = _sha256(_canonical(doc))
    except ValueError as exc:  # allow_nan=False: a non-finite float slipped through
        msg = f"the model holds a value JSON cannot express: {exc}"
        raise TypeError(msg) from exc
    meta = json.dumps(doc, indent=1, sort_keys=True, allow_nan=False).encode("utf-8")

    path = Path(path)
    if not path.parent.is_dir():
        msg = f"cannot save to {path}: directory {path.parent} does not exist"
        raise FileNotFoundError(msg)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        with (
            open(tmp, "xb") as handle,
            zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED) as archive,
        ):
            archive.writestr(_META, meta)
            archive.writestr(_ARRAYS, array_bytes)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


# --------------------------------------------------------------------------------------------
# reading
# --------------------------------------------------------------------------------------------


class _TreeReader:
    """Rebuilds a statistics object from its JSON tree and the arrays, refusing the unknown."""

    def __init__(self, arrays: dict[str, np.ndarray], fail) -> None:
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
        if not isinstance(fields, dict) or set(fields) != expected:
            got = sorted(fields) if isinstance(fields, dict) else fields
            self.fail(f"{where} ({name}) has fields {got}; expected {sorted(expected)}")
        values = {k: self.node(v, f"{where}.{k}", depth + 1) for k, v in fields.items()}
        return cls(**values)


def _read_archive(path: Path) -> tuple[bytes, bytes]:
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


def load(path: str | os.PathLike) -> Any:
    """Load a model saved by :func:`save`, checking the file before trusting any of it.

    The checks, in order: the file is a zip archive with exactly the two expected members and
    intact CRCs; the metadata is JSON of format ``"bayeskit-model"`` with a version this
    bayeskit reads; both digests match; the model name is in ``MODELS``, the parameters are the
    model's own and pass its argument checks; the arrays load without pickle; the statistics
    name only known classes; then every field is validated (class labels, schema, and each
    array's shape, dtype and values, by the statistics' own ``validate``: see "Validation" in
    the module docstring). Only then is the model built with its parameters, handed the
    statistics, and its tables are estimated from them.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    estimator
        The fitted model, ready to predict and to continue with ``partial_fit``.

    Raises
    ------
    FileNotFoundError
        If there is no file at ``path``.
    bayeskit.exceptions.ModelFileError
        If the file is not a model file, is truncated, corrupted or tampered with (including
        edits whose digests were recomputed), or was written by a newer bayeskit (the message
        names the file, the field and the problem).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from bayeskit import NaiveBayes, save, load
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.bayeskit"
    >>> _ = save(NaiveBayes(alpha=0.5).fit([["a"], ["b"], ["a"]], ["x", "y", "x"]), path)
    >>> load(path).predict([["b"]])
    array(['y'], dtype='<U1')
    """
    path = Path(path)

    def fail(what: str, exc: BaseException | None = None):
        msg = f"{path}: {what}"
        raise ModelFileError(msg) from exc

    meta_bytes, array_bytes = _read_archive(path)
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

    # -- the model class and its parameters
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

    # -- the arrays, without pickle
    if not array_bytes.startswith(b"PK"):
        fail(f"{_ARRAYS} is not an npz archive")
    try:
        with np.load(io.BytesIO(array_bytes), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        fail(f"{_ARRAYS} cannot be read without pickle ({exc})", exc)
    for key, arr in arrays.items():
        if arr.dtype.kind not in _ARRAY_KINDS:
            fail(f"{_ARRAYS} array {key!r} has dtype {arr.dtype}, which model files never hold")

    # -- the fitted state
    fitted = doc.get("fitted")
    if not isinstance(fitted, dict):
        fail("'fitted' must be a JSON object")
    classes = _read_classes(fitted.get("classes"), fail)
    reader = _TreeReader(arrays, fail)
    try:
        stats = reader.node(fitted.get("stats"), "stats_")
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
    tabular = "categorical_features" in known  # models that read tables have a schema
    schema = _read_schema(fitted.get("schema"), tabular, n_features, names, fail)
    if getattr(model, "priors", None) is not None and len(model.priors) != len(classes):
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
    try:
        model._reestimate()
    except Exception as exc:  # noqa: BLE001 - whatever the numbers do, the user gets one error
        fail(f"the statistics do not fit a {cls.__name__} ({type(exc).__name__}: {exc})", exc)
    return model


# --------------------------------------------------------------------------------------------
# validation of what was read (see "Validation" in the module docstring)
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
        seen: set = set()
        dup = next(v for v in cats if v in seen or seen.add(v))
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
    if not np.isfinite(arr).all():
        fail(f"{at}.cuts must be finite")
    if arr.size > 1 and np.any(arr[1:] <= arr[:-1]):
        fail(f"{at}.cuts must be strictly increasing, got {cuts[:10]}")
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
    )


def _check_stats(model: Any, stats: Any, layout: Layout, fail) -> None:
    """The statistics are of the class the model counts into, and fit ``layout`` (checked by
    their own ``validate``)."""
    # the class the model's own counting produces, from no rows and no columns (so that a
    # vocabulary claimed by the file allocates nothing here)
    schema = model.schema_
    y = np.zeros(0, dtype=np.intp)
    if schema is None:
        empty = np.zeros((0, 0))
    else:
        model.schema_ = Schema(())
        empty = Encoded(np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0)))
    try:
        expected = type(model._count(empty, y, None, layout.n_classes))
    finally:
        model.schema_ = schema
    if getattr(model, "missing", None) == "em" and type(stats) is ExpectedCounts:
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
