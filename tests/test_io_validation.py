"""A model file is untrusted input: edited files whose digests were recomputed must be refused
with a ModelFileError naming the field, or load into a model whose predictions are finite
(issue 10, section 1), for every registered model."""

from __future__ import annotations

import hashlib
import io
import json
import warnings
import zipfile

import numpy as np
import pytest

import bayeskit
from bayeskit.classifiers import MODELS
from bayeskit.data import datasets
from bayeskit.exceptions import ModelFileError

TABULAR = [n for n, cls in MODELS.items() if "categorical_features" in cls().get_params()]


# -------------------------------------------------------------------------- file surgery
def _data_for(name):
    tabular = name in TABULAR
    return datasets.load("watermelon3" if tabular else "iris")


class ModelFile:
    """A saved model taken apart: the metadata, the arrays and the stats-tree path of each."""

    def __init__(self, path):
        self.path = path
        with zipfile.ZipFile(path) as archive:
            self.doc = json.loads(archive.read("bayeskit.json"))
            with np.load(io.BytesIO(archive.read("arrays.npz"))) as npz:
                self.arrays = {k: npz[k] for k in npz.files}
        self.paths = {}  # array key -> "stats_.counts.feature_count[0]"
        self._walk(self.doc["fitted"]["stats"], "stats_")

    def _walk(self, node, where):
        tag = "dataclass" if "dataclass" in node else next(iter(node))
        if tag in ("array", "scalar"):
            self.paths[node[tag]] = where
        elif tag in ("tuple", "list"):
            for i, child in enumerate(node[tag]):
                self._walk(child, f"{where}[{i}]")
        elif tag == "dict":
            for key, child in node[tag]:
                self._walk(child, f"{where}[{key!r}]")
        elif tag == "dataclass":
            for field, child in node["fields"].items():
                self._walk(child, f"{where}.{field}")

    def key(self, suffix):
        """The key of the array whose path ends in ``suffix``."""
        keys = [k for k, p in self.paths.items() if p.endswith(suffix)]
        assert len(keys) == 1, (suffix, self.paths)
        return keys[0]

    @property
    def schema_columns(self):
        return self.doc["fitted"]["schema"]["columns"]

    def first_categorical(self):
        return next(c for c in self.schema_columns if c["kind"] == "categorical")

    def write(self):
        """Write the file back with both digests recomputed, as a careful attacker would."""
        buffer = io.BytesIO()
        np.savez(buffer, **self.arrays)
        data = buffer.getvalue()
        doc = self.doc
        doc["arrays"]["sha256"] = hashlib.sha256(data).hexdigest()
        doc.pop("metadata_sha256", None)
        body = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        doc["metadata_sha256"] = hashlib.sha256(body.encode("ascii")).hexdigest()
        with zipfile.ZipFile(self.path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("bayeskit.json", json.dumps(doc))
            archive.writestr("arrays.npz", data)
        return self.path


@pytest.fixture(scope="module")
def fitted():
    """One fitted model per registered name, with its data."""
    out = {}
    for name, cls in MODELS.items():
        X, y = _data_for(name)
        # naive Bayes with Gaussian numeric columns, so its moments are in the file too (the
        # default bins them; binned schemas are tested with their cut points below)
        params = {"discretize": None} if name == "naive-bayes" else {}
        out[name] = (cls(**params).fit(X, y), X)
    return out


def _saved(fitted, name, tmp_path):
    model, X = fitted[name]
    return ModelFile(bayeskit.save(model, tmp_path / f"{name}.bayeskit")), X


def _refused(path, *match):
    with pytest.raises(ModelFileError) as info:
        bayeskit.load(path)
    for text in match:
        assert text in str(info.value), str(info.value)
    return str(info.value)


def test_unedited_files_load_for_every_model(fitted, tmp_path):
    for name in MODELS:
        f, X = _saved(fitted, name, tmp_path)
        loaded = bayeskit.load(f.write())  # digests recomputed over the same content
        np.testing.assert_array_equal(loaded.predict_proba(X), fitted[name][0].predict_proba(X))


# -------------------------------------------------------------------------- vocabularies
TABLES = [n for n in TABULAR if n != "knn-bayes"]  # models that predict from count tables


@pytest.mark.parametrize("name", TABLES)
@pytest.mark.parametrize("grow", [2_000_000, 3])
def test_grown_vocabulary_is_refused(fitted, tmp_path, name, grow):
    # without validation, +2,000,000 made predict_proba read outside the table (signal 11) and
    # +3 read a probability from outside the column's table; load must refuse either (so this
    # test never gets as far as predicting)
    f, _ = _saved(fitted, name, tmp_path)
    col = f.first_categorical()
    col["categories"] = col["categories"] + list(range(grow))
    message = _refused(f.write(), "stats_.")
    assert f"column {col['name']!r}" in message
    assert str(len(col["categories"])) in message


def test_knn_grown_vocabulary_is_a_consistent_model(fitted, tmp_path):
    # KNN keeps rows of codes, not tables: extra categories no row holds are merely unseen, so
    # the file is consistent, loads, and predicts as before (the extra one-hot columns are 0)
    f, X = _saved(fitted, "knn-bayes", tmp_path)
    col = f.first_categorical()
    col["categories"] = col["categories"] + ["new0", "new1", "new2"]
    loaded = bayeskit.load(f.write())
    np.testing.assert_allclose(loaded.predict_proba(X), fitted["knn-bayes"][0].predict_proba(X))


@pytest.mark.parametrize("name", TABULAR)
def test_vocabulary_shrunk_to_one_is_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    col = f.first_categorical()
    col["categories"] = col["categories"][:1]
    _refused(f.write(), "stats_.", f"column {col['name']!r}")


@pytest.mark.parametrize("name", TABULAR)
def test_repeated_category_is_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    col = f.first_categorical()
    col["categories"][1] = col["categories"][0]
    _refused(f.write(), f"column {col['name']!r}", "more than once")


@pytest.mark.parametrize("name", TABULAR)
def test_numeric_column_turned_categorical_is_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    col = next((c for c in f.schema_columns if c["kind"] == "numeric"), None)
    if col is None:  # the family models bin every column: turn one numeric instead
        col = f.first_categorical()
        col["kind"], col["categories"], col["cuts"] = "numeric", None, None
    else:
        col["kind"], col["categories"] = "categorical", ["lo", "hi"]
    _refused(f.write(), "stats_.")


@pytest.mark.parametrize("name", TABULAR)
def test_unknown_column_kind_is_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    f.schema_columns[0]["kind"] = "ordinal"
    _refused(f.write(), "'ordinal'", f"column {f.schema_columns[0]['name']!r}")


@pytest.mark.parametrize(
    ("cuts", "match"),
    [([0.5, 0.2], "strictly increasing"), ([0.2], "cut points"), ([0.1, "x"], "numbers")],
)
def test_bad_cut_points_are_refused(tmp_path, cuts, match):
    X, y = datasets.load("watermelon3")
    model = MODELS["naive-bayes"](discretize="equal-width", n_bins=3).fit(X, y)
    f = ModelFile(bayeskit.save(model, tmp_path / "binned.bayeskit"))
    col = next(c for c in f.schema_columns if c["cuts"] is not None)
    col["cuts"] = cuts
    _refused(f.write(), f"column {col['name']!r}", match)


# -------------------------------------------------------------------------- arrays
def _cases(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    return list(f.paths.items())


_NONNEGATIVE = ("class_count", "count", "counts", "weight", "m2", "norm4")


@pytest.mark.parametrize("name", list(MODELS))
def test_nan_in_any_statistic_is_refused_naming_it(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    floats = [k for k, a in f.arrays.items() if a.dtype.kind == "f" and a.size]
    assert floats
    for key in floats:
        f, _ = _saved(fitted, name, tmp_path)
        bad = f.arrays[key].copy()
        # NaN is the missing mark in KNN's stored rows; infinity is not a value there
        bad.flat[bad.size // 2] = np.inf if f.paths[key].endswith(".values") else np.nan
        f.arrays[key] = bad
        _refused(f.write(), f.paths[key])


@pytest.mark.parametrize("name", list(MODELS))
def test_negative_count_is_refused_naming_it(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    keys = [k for k, p in f.paths.items() if p.split(".")[-1].split("[")[0] in _NONNEGATIVE]
    assert keys
    for key in keys:
        f, _ = _saved(fitted, name, tmp_path)
        bad = f.arrays[key].copy()
        bad.flat[0] = -1.0
        f.arrays[key] = bad
        _refused(f.write(), f.paths[key], "negative")


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "<U4", "complex128"])
def test_wrong_dtype_is_refused_naming_it(fitted, tmp_path, name, dtype):
    for key, path in _cases(fitted, tmp_path, name):
        f, _ = _saved(fitted, name, tmp_path)
        if f.arrays[key].dtype == np.dtype(dtype) or (
            dtype == "int64" and f.arrays[key].dtype.kind in "iu"
        ):
            continue
        with np.errstate(invalid="ignore"):  # an infinite float (a K not tried) as an integer
            f.arrays[key] = f.arrays[key].astype(dtype)
        _refused(f.write(), path, "dtype")


@pytest.mark.parametrize("name", list(MODELS))
def test_integer_codes_stored_as_floats_are_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    ints = [k for k, a in f.arrays.items() if a.dtype.kind in "iu"]
    for key in ints:
        f, _ = _saved(fitted, name, tmp_path)
        f.arrays[key] = f.arrays[key].astype(np.float64)
        _refused(f.write(), f.paths[key], "dtype")


@pytest.mark.parametrize("name", list(MODELS))
def test_wrong_shape_is_refused(fitted, tmp_path, name):
    for key, _ in _cases(fitted, tmp_path, name):
        for change in ("drop", "add", "flatten", "extra-axis"):
            f, _ = _saved(fitted, name, tmp_path)
            a = f.arrays[key]
            if change == "drop":
                a = a[..., :-1]
            elif change == "add":
                a = np.concatenate([a, a[..., :1]], axis=-1)
            elif change == "flatten":
                if a.ndim == 1:
                    continue
                a = a.ravel()
            else:
                a = a[None]
            if a.shape == f.arrays[key].shape:  # dropping from or adding to nothing: no change
                continue
            f.arrays[key] = a
            _refused(f.write(), "stats_.")


@pytest.mark.parametrize("name", [n for n in MODELS if n not in TABULAR])
def test_count_model_table_must_match_n_features(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    f.doc["fitted"]["n_features_in"] += 1
    f.doc["fitted"]["feature_names_in"] = None
    _refused(f.write(), "stats_.feature_count[0]", "features")


@pytest.mark.parametrize("name", TABULAR)
def test_schema_must_have_n_features_in_columns(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    f.doc["fitted"]["n_features_in"] += 1
    f.doc["fitted"]["feature_names_in"] = None
    _refused(f.write(), "fitted.schema.columns", "n_features_in")


def test_knn_codes_outside_the_vocabulary_are_refused(fitted, tmp_path):
    f, _ = _saved(fitted, "knn-bayes", tmp_path)
    key = f.key(".codes")
    bad = f.arrays[key].copy()
    bad[3, 1] = 100
    f.arrays[key] = bad
    _refused(f.write(), "stats_.codes[3, 1]", "code 100")


def test_knn_class_index_outside_the_classes_is_refused(fitted, tmp_path):
    f, _ = _saved(fitted, "knn-bayes", tmp_path)
    key = f.key(".y")
    f.arrays[key] = f.arrays[key] + 5
    _refused(f.write(), "stats_.y", "class indices")


def test_knn_class_count_must_be_the_row_weights(fitted, tmp_path):
    f, _ = _saved(fitted, "knn-bayes", tmp_path)
    key = f.key(".class_count")
    f.arrays[key] = f.arrays[key] * 2
    _refused(f.write(), "stats_.class_count", "differs")


def test_full_bayes_joint_combos_must_be_sorted_and_in_range(fitted, tmp_path):
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    key = f.key("joint.combos")
    f.arrays[key] = f.arrays[key][::-1].copy()
    _refused(f.write(), "stats_.joint.combos", "lexicographic")
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    bad = f.arrays[key].copy()
    bad[0, 0] = 99
    f.arrays[key] = bad
    _refused(f.write(), "stats_.joint.combos[0, 0]", "code 99")


def test_full_bayes_joint_n_states_must_match_the_schema(fitted, tmp_path):
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    key = f.key("joint.n_states")
    f.arrays[key] = f.arrays[key] + 1
    _refused(f.write(), "stats_.joint.n_states[0]", "vocabulary sizes")


def test_full_bayes_scatter_must_be_symmetric_and_positive_semidefinite(fitted, tmp_path):
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    key = f.key("scatter.scatter")
    bad = f.arrays[key].copy()
    bad[0, 0, 1] += 1.0
    f.arrays[key] = bad
    _refused(f.write(), "stats_.moments.scatter.scatter[0]", "symmetric")
    f, _ = _saved(fitted, "full-bayes", tmp_path)
    bad = f.arrays[key].copy()
    bad[0] = -np.eye(bad.shape[1]) + 2 * np.ones_like(bad[0])  # eigenvalues -1 and 2d - 1
    f.arrays[key] = bad
    _refused(f.write(), "stats_.moments.scatter.scatter[0]", "positive semi-definite")


# -------------------------------------------------------------------------- JSON fields
@pytest.mark.parametrize("name", list(MODELS))
def test_unsorted_or_repeated_classes_are_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    values = f.doc["fitted"]["classes"]["values"]
    values[0], values[1] = values[1], values[0]
    _refused(f.write(), "sorted")
    f, _ = _saved(fitted, name, tmp_path)
    values = f.doc["fitted"]["classes"]["values"]
    values[1] = values[0]
    _refused(f.write(), "repeat")


@pytest.mark.parametrize("name", list(MODELS))
def test_priors_of_the_wrong_length_are_refused(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    n = len(f.doc["fitted"]["classes"]["values"])
    f.doc["params"]["priors"] = [1.0 / (n + 1)] * (n + 1)
    _refused(f.write(), "params.priors", f"expected {n}")


@pytest.mark.parametrize("name", list(MODELS))
def test_stats_of_another_model_are_refused(fitted, tmp_path, name):
    other = next(n for n in MODELS if type(fitted[n][0].stats_) is not type(fitted[name][0].stats_))
    f, _ = _saved(fitted, name, tmp_path)
    g, _ = _saved(fitted, other, tmp_path)
    f.doc["fitted"]["stats"], f.arrays = g.doc["fitted"]["stats"], g.arrays
    _refused(f.write(), "stats_ is a")


@pytest.mark.parametrize("name", TABULAR)
def test_feature_names_must_match_the_schema(fitted, tmp_path, name):
    f, _ = _saved(fitted, name, tmp_path)
    names = f.doc["fitted"]["feature_names_in"]
    assert names is not None
    names[0], names[1] = names[1], names[0]
    _refused(f.write(), "feature_names_in")


# -------------------------------------------------------------------------- fuzz
_VALUES = [np.nan, np.inf, -np.inf, -1.0, -1e-300, 0.0, 1e300, 1.7e308, 1e-320, 2.5, 7.0]


def _mutate_array(rng, f):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow on casts is the point
        _mutate_one_array(rng, f)


def _mutate_one_array(rng, f):
    key = rng.choice(sorted(f.arrays))
    a = f.arrays[key]
    how = rng.integers(5)
    if a.dtype.kind not in "biuf":  # text from an earlier mutation: only reshape it
        how = 2
    if how == 0 and a.size:  # one value
        a = a.copy()
        value = _VALUES[rng.integers(len(_VALUES))]
        if a.dtype.kind in "iu":
            value = int(rng.choice([-2, -1, 0, 1, 3, 127, 2**31 - 1]))
            value = np.clip(value, np.iinfo(a.dtype).min, np.iinfo(a.dtype).max)
        elif a.dtype.kind == "b":
            value = not a.flat[0]
        a.flat[rng.integers(a.size)] = value
    elif how == 1 and a.size:  # scale everything
        a = (a * rng.choice([-1.0, 0.0, 1e-300, 1e300, 2.0])).astype(a.dtype)
    elif how == 2:  # shape
        axis = rng.integers(max(a.ndim, 1))
        if a.ndim == 0:
            a = a[None]
        elif rng.integers(2) and a.shape[axis]:
            a = np.delete(a, -1, axis=axis)
        else:
            a = np.concatenate([a, np.take(a, [0], axis=axis) if a.shape[axis] else a], axis=axis)
    elif how == 3:  # dtype
        dtype = rng.choice(["float32", "float16", "int64", "int8", "uint8", "bool", "<U3"])
        a = a.astype(dtype)
    else:  # swap with another array
        a = f.arrays[rng.choice(sorted(f.arrays))]
    f.arrays[key] = a


_PARAM_VALUES = [-1, 0, 1, 2.5, 1e300, 10**30, "x", None, [], [0.5, 0.5], True, {"a": 1}]


def _mutate_json(rng, f):
    fitted = f.doc["fitted"]
    how = rng.integers(7)
    columns = (fitted["schema"] or {}).get("columns", [])
    if how == 0 and columns:  # a vocabulary grown, shrunk or retyped
        col = columns[rng.integers(len(columns))]
        cats = col["categories"]
        choice = rng.integers(5)
        if choice == 0 or cats is None:
            col["categories"] = (cats or []) + [f"n{i}" for i in range(rng.integers(1, 4))]
        elif choice == 1:
            col["categories"] = cats[: rng.integers(len(cats) + 1)]
        elif choice == 2:
            col["categories"] = [str(v) for v in cats][::-1]
        elif choice == 3:
            col["categories"] = "abc"
        else:
            col["categories"] = [[v] for v in cats]
    elif how == 1 and columns:  # kinds and cut points
        col = columns[rng.integers(len(columns))]
        col["kind"] = rng.choice(["categorical", "numeric", "ordinal"])
        if rng.integers(2):
            cuts = [None, [0.5], [0.5, 0.1], [], [1, 2, 3], [float("nan")]]
            col["cuts"] = cuts[rng.integers(len(cuts))]
    elif how == 2:  # class labels
        values = fitted["classes"]["values"]
        choice = rng.integers(4)
        if choice == 0:
            values.append(values[-1] + 1 if isinstance(values[-1], int) else "zz")
        elif choice == 1:
            values.pop()
        elif choice == 2:
            values.reverse()
        else:
            fitted["classes"]["dtype"] = rng.choice(["<f8", "|b1", "<U1", "|O", "<M8[ns]"])
    elif how == 3:  # a parameter
        name = rng.choice(sorted(f.doc["params"]))
        f.doc["params"][name] = _PARAM_VALUES[rng.integers(len(_PARAM_VALUES))]
    elif how == 4:
        fitted["n_features_in"] = int(fitted["n_features_in"]) + int(rng.choice([-1, 1]))
    elif how == 5 and fitted["feature_names_in"] is not None:
        names = fitted["feature_names_in"]
        names[0] = names[-1]
    else:  # the stats tree: an array node turned into another node type
        node = fitted["stats"]
        while "dataclass" in node:
            node = node["fields"][rng.choice(sorted(node["fields"]))]
        if "array" in node:
            node.clear()
            node.update([{"value": 3}, {"list": []}, {"scalar": "a0"}][rng.integers(3)])


_EXTREMES = [0.0, 1e-320, 1e-300, 1e-154, 2.5, 1e154, 1e300, 5e307, 1.7e308]
# parameter values that pass the models' checks but push the numbers to their edges
_EDGE_PARAMS = {
    "alpha": [0, 1e-300, 1e300],
    "prior_alpha": [0, 1e300],
    "var_smoothing": [0, 1e300],
    "ddof": [0, 5, 10**6],
    "shrinkage": [0, 1, "ledoit-wolf", None],
    "n_neighbors": [1, 10**9],
    "weights": ["distance"],
    "p": [1, 1e300],
    "metric": ["chebyshev", "manhattan"],
    "scale": ["standard"],
    "ties": ["share"],
    "categorical_weight": [0, 1e300],
    "binarize": [1e300, -1e300],
}


def _mutate_plausibly(rng, f):
    """Edits that keep the file well-formed, so that more of them load: extreme but finite
    statistics (either sign) and extreme but valid parameters."""
    if rng.integers(3) == 0:
        names = sorted(k for k in f.doc["params"] if k in _EDGE_PARAMS)
        name = names[rng.integers(len(names))]
        f.doc["params"][name] = _EDGE_PARAMS[name][rng.integers(len(_EDGE_PARAMS[name]))]
        return
    key = sorted(f.arrays)[rng.integers(len(f.arrays))]
    a = f.arrays[key].copy()
    if a.dtype.kind != "f" or not a.size:
        return
    value = _EXTREMES[rng.integers(len(_EXTREMES))] * (-1 if rng.integers(3) == 0 else 1)
    with np.errstate(all="ignore"):
        if rng.integers(2):
            a.flat[rng.integers(a.size)] = value
        else:
            a = a * value
    f.arrays[key] = a


_MUTATIONS = (_mutate_array, _mutate_json, _mutate_plausibly)


@pytest.mark.parametrize("name", list(MODELS))
def test_fuzzed_files_are_refused_or_predict_finite_probabilities(fitted, tmp_path, name):
    # seeded and bounded, so the test is fast and repeatable; each case applies 1-3 mutations
    # of arrays (values, shapes, dtypes) and JSON fields, then recomputes both digests
    rng = np.random.default_rng(sum(map(ord, name)))
    outcomes = {"refused": 0, "loaded": 0}
    for case in range(60):
        f, X = _saved(fitted, name, tmp_path)
        for _ in range(rng.integers(1, 4)):
            _MUTATIONS[rng.integers(len(_MUTATIONS))](rng, f)
        path = f.write()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                model = bayeskit.load(path)
        except ModelFileError:
            outcomes["refused"] += 1
            continue
        outcomes["loaded"] += 1
        names = getattr(model, "feature_names_in_", None)
        if names is not None and len(names) == X.shape[1]:
            X = X.set_axis(list(names), axis=1)  # a consistent renaming is a valid model
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            proba = model.predict_proba(X)
        assert np.isfinite(proba).all(), (name, case)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9, err_msg=f"{name} {case}")
    # both outcomes occur, so the mutations reach the checks and the loaded models' predictions
    assert outcomes["refused"] > 0
    assert outcomes["loaded"] > 0
