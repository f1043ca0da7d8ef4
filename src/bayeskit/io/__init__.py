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

Hidden Markov models
~~~~~~~~~~~~~~~~~~~~
A :class:`~bayeskit.sequences.HiddenMarkovModel` is determined by its constructor parameters
and its parameter arrays, so its file (same archive, same ``format_version``: an addition) has
``model`` ``"hidden-markov-model"``, ``params`` as above (``emission`` one of its names: a
custom :class:`~bayeskit.sequences.Emission` object cannot be saved), and ``fitted`` an object
with exactly the keys

* ``parameters``: attribute name -> ``arrays.npz`` key, one entry for each of ``startprob_``,
  ``transmat_`` and the emission's (``emissionprob_``; ``means_`` and ``covars_``;
  ``lambdas_``), every array float64, saved and loaded bit for bit;
* ``objective`` (the key of a float64 array, one entry per iteration), ``n_iter`` (an integer)
  and ``converged`` (a boolean): ``objective_``, ``n_iter_`` and ``converged_`` after ``fit``,
  all three null for parameters set by hand;
* ``symbols``: null, or, for a categorical emission, the names of its symbols (distinct strings,
  one per column of ``emissionprob_``), kept as the model's ``symbols_`` (the command line's
  ``bayeskit hmm`` stores the values it coded ``0 .. K-1`` there);
* ``feature_names_in``: null, or the names of the columns the emission reads (distinct strings,
  as many as its arrays have features), kept as the model's ``feature_names_in_`` (set by
  ``bayeskit hmm fit``).

Loading checks the parameters' names, types and ranges (init_params and params letters among
the emission's), that ``parameters`` names exactly the attributes the emission has, the arrays'
dtypes, the history's length (``n_iter``), the symbols, and then the arrays' shapes and values
by the model's own :func:`~bayeskit.sequences.check_parameters` (probability rows summing to 1,
positive definite covariances, ...).

Safety
------
Loading never executes code from the file: no pickle anywhere (object arrays are refused on save
and on load), the model class is looked up by name in ``MODELS`` and statistics classes in the
allow-list (anything else is refused), and parameters go through the model's own constructor and
argument checks. Sizes are checked before anything is allocated: the metadata may hold at most
1 GiB, the arrays at most 4 GiB once decompressed, and each array's header may not declare more
bytes than its member holds. The digests detect truncation, corruption and edits made without
recomputing them; they are not a signature, so a file from an untrusted source is still only as
trustworthy as its numbers, but it cannot make bayeskit run anything. Every problem with a file
raises :class:`~bayeskit.exceptions.ModelFileError` (a ``ValueError``) naming the file and what
is wrong; a file that does not exist raises ``FileNotFoundError``.

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

import io
import json
import math
import os
import secrets
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from bayeskit._version import __version__
from bayeskit.classifiers import MODELS
from bayeskit.exceptions import ModelFileError
from bayeskit.io._format import (
    _ARRAYS,
    _HMM_MODEL,
    _META,
    FORMAT_NAME,
    FORMAT_VERSION,
    _canonical,
    _sha256,
)
from bayeskit.io._read import read_archive, read_arrays, read_document, read_fitted, read_model
from bayeskit.io._tree import _TreeWriter

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "load", "save"]


# --------------------------------------------------------------------------------------------
# what saves
# --------------------------------------------------------------------------------------------


def _model_name(model: Any) -> str:
    for name, cls in MODELS.items():
        if type(model) is cls:
            return name
    raise TypeError(_what_saves(model))


def _is_hmm(model: Any) -> bool:
    """Whether ``model`` is a hidden Markov model (saved by :mod:`bayeskit.io._sequences`);
    :mod:`bayeskit.sequences` is imported only when one is saved or loaded."""
    if "bayeskit.sequences.hmm" not in sys.modules:
        return False  # never imported: no model can be one
    from bayeskit.io._sequences import is_hmm

    return is_hmm(model)


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
        f"be saved ({', '.join(MODELS)}), and hidden Markov models "
        "(bayeskit.sequences.HiddenMarkovModel)"
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


def _classifier_fitted(model: Any) -> tuple[dict, dict[str, Any]]:
    """The ``fitted`` section of a classifier's file and the arrays its stats tree refers to."""
    check_is_fitted(model, "stats_")
    classes = np.asarray(model.classes_)
    if classes.dtype.kind not in "biufUO":
        msg = f"class labels of dtype {classes.dtype} cannot be saved"
        raise TypeError(msg)
    class_values = [_json_param(v, f"class label {v!r}") for v in classes.tolist()]
    if any(isinstance(v, (list, dict)) for v in class_values):
        msg = "class labels must be strings, numbers or booleans to be saved"
        raise TypeError(msg)
    schema = model.schema_
    names = getattr(model, "feature_names_in_", None)
    writer = _TreeWriter()
    tree = writer.node(model.stats_, "stats_")
    fitted = {
        "classes": {"dtype": classes.dtype.str, "values": class_values},
        "n_features_in": int(model.n_features_in_),
        "feature_names_in": None if names is None else [str(n) for n in names],
        "schema": None if schema is None else schema.to_dict(),
        "stats": tree,
    }
    weights = getattr(model, "cell_weights_", None)
    if weights is not None:  # discriminative parameters: fitted on rows, not in the counts
        fitted["weights"] = writer.node(np.asarray(weights, dtype=np.float64), "cell_weights_")
        fitted["l2"] = None if model.l2_ is None else float(model.l2_)
    return fitted, writer.arrays


def save(model: Any, path: str | os.PathLike) -> Path:
    """Save a fitted model to ``path`` (see the module docstring for the format).

    The file is written to a temporary name next to ``path`` and moved into place, so a failed
    save never leaves a half-written file behind.

    Parameters
    ----------
    model : estimator
        A fitted model whose class is registered in :data:`bayeskit.classifiers.MODELS`, or a
        fitted (or set by hand) :class:`~bayeskit.sequences.HiddenMarkovModel`.
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
    ValueError
        If a hidden Markov model's parameters, set by hand, are not a valid model.
    TypeError
        If the model is not a registered class, or a parameter, class label or statistic cannot
        be expressed in the format (the message names it), or a hidden Markov model's emission
        is a custom :class:`~bayeskit.sequences.Emission` object. The message says what saves other
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
    arrays: dict[str, Any]  # (a key could be allow_pickle, as numpy types it)
    if _is_hmm(model):
        from bayeskit.io._sequences import hmm_fitted

        name = _HMM_MODEL
        fitted, arrays = hmm_fitted(model)
    else:
        name = _model_name(model)
        fitted, arrays = _classifier_fitted(model)
    cls_name = type(model).__name__
    params = {
        k: _json_param(v, f"parameter {k!r} of {cls_name}")
        for k, v in model.get_params(deep=False).items()
    }
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    array_bytes = buffer.getvalue()
    doc = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "bayeskit_version": __version__,
        "model": name,
        "params": params,
        "fitted": fitted,
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


def load(path: str | os.PathLike) -> Any:
    """Load a model saved by :func:`save`, checking the file before trusting any of it.

    The checks, in order: the file is a zip archive with exactly the two expected members and
    intact CRCs; the metadata is JSON of format ``"bayeskit-model"`` with a version this
    bayeskit reads; both digests match; the model name is in ``MODELS``, the parameters are the
    model's own and pass its argument checks; the arrays load without pickle; the statistics
    name only known classes; then every field is validated (class labels, schema, and each
    array's shape, dtype and values, by the statistics' own ``validate``: see "Validation" in
    the module docstring). Only then is the model built with its parameters, handed the
    statistics, and its tables are estimated from them. A hidden Markov model's file is checked
    likewise, its parameter arrays by the model's own
    :func:`~bayeskit.sequences.check_parameters`, and they are set on the model as they were
    saved.

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

    meta_bytes, array_bytes = read_archive(path)
    doc = read_document(meta_bytes, array_bytes, fail)
    name = doc.get("model")
    if name == _HMM_MODEL:
        from bayeskit.io._sequences import read_hmm

        return read_hmm(doc, read_arrays(array_bytes, fail), fail)
    if not isinstance(name, str) or name not in MODELS:
        fail(f"unknown model {name!r}; this bayeskit knows {', '.join([*MODELS, _HMM_MODEL])}")
    model = read_model(doc, fail)
    arrays = read_arrays(array_bytes, fail)
    return read_fitted(model, doc.get("fitted"), arrays, fail)
