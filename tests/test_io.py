"""bayeskit.io: model files round-trip exactly, and a bad file is refused with a clear error."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import bayeskit
from bayeskit.classifiers import MODELS, NaiveBayes
from bayeskit.data import datasets
from bayeskit.exceptions import ModelFileError
from bayeskit.stats import CategoricalCounts, NaiveStats


def _data_for(cls):
    """Mixed data (watermelon3) for models that read tables, numeric counts (iris) otherwise."""
    name = "watermelon3" if "categorical_features" in cls().get_params() else "iris"
    return datasets.load(name)


def _halves(X, y):
    return (X.iloc[::2], y.iloc[::2]), (X.iloc[1::2], y.iloc[1::2])


# the documented format, rebuilt here from the module docstring rather than from io's helpers
def _canonical_digest(doc: dict) -> str:
    body = {k: v for k, v in doc.items() if k != "metadata_sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _read(path):
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("bayeskit.json")), archive.read("arrays.npz")


def _write(path, doc, arrays, *, rehash=True, extra=None):
    if rehash:
        doc["arrays"]["sha256"] = hashlib.sha256(arrays).hexdigest()
        doc["metadata_sha256"] = _canonical_digest(doc)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bayeskit.json", json.dumps(doc))
        archive.writestr("arrays.npz", arrays)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)


@pytest.fixture
def saved(tmp_path):
    X, y = datasets.load("watermelon3")
    model = NaiveBayes(alpha=0.5).fit(X, y)
    path = bayeskit.save(model, tmp_path / "melon.bayeskit")
    return model, path, X


# -------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", list(MODELS))
def test_round_trip_predicts_identically(name, tmp_path):
    cls = MODELS[name]
    X, y = _data_for(cls)
    model = cls().fit(X, y)
    loaded = bayeskit.load(bayeskit.save(model, tmp_path / f"{name}.bayeskit"))
    assert type(loaded) is cls
    assert loaded.get_params() == model.get_params()
    np.testing.assert_array_equal(loaded.classes_, model.classes_)
    assert loaded.classes_.dtype == model.classes_.dtype
    np.testing.assert_allclose(loaded.predict_proba(X), model.predict_proba(X), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))


@pytest.mark.parametrize("name", list(MODELS))
def test_partial_fit_continues_after_load(name, tmp_path):
    cls = MODELS[name]
    X, y = _data_for(cls)
    (X1, y1), (X2, y2) = _halves(X, y)
    first = cls().partial_fit(X1, y1, classes=np.unique(np.asarray(y)))
    loaded = bayeskit.load(bayeskit.save(first, tmp_path / "half.bayeskit"))
    loaded.partial_fit(X2, y2)
    # the same two calls without saving (for most models also one fit: tests/test_properties.py)
    whole = cls().partial_fit(X1, y1, classes=np.unique(np.asarray(y))).partial_fit(X2, y2)
    np.testing.assert_allclose(loaded.predict_proba(X), whole.predict_proba(X), atol=1e-12)


def test_stats_keep_tuples_and_nested_dataclasses(saved):
    model, path, _ = saved
    loaded = bayeskit.load(path)
    assert isinstance(loaded.stats_, NaiveStats)
    assert isinstance(loaded.stats_.counts, CategoricalCounts)
    assert isinstance(loaded.stats_.counts.feature_count, tuple)
    for a, b in zip(
        loaded.stats_.counts.feature_count, model.stats_.counts.feature_count, strict=True
    ):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(loaded.stats_.moments.m2, model.stats_.moments.m2)
    assert loaded.schema_ == model.schema_
    np.testing.assert_array_equal(loaded.feature_names_in_, model.feature_names_in_)


def test_discretized_schema_keeps_its_cut_points(tmp_path):
    X, y = datasets.load("iris")
    model = NaiveBayes(discretize="equal-frequency").fit(X, y)
    loaded = bayeskit.load(bayeskit.save(model, tmp_path / "binned.bayeskit"))
    assert loaded.schema_ == model.schema_
    np.testing.assert_allclose(loaded.predict_proba(X), model.predict_proba(X), rtol=0, atol=1e-15)


@pytest.mark.parametrize("labels", [[0, 1], ["no", "yes"], [True, False], [1.0, 2.0]])
def test_class_label_types_round_trip(labels, tmp_path):
    X = np.array([["a"], ["b"], ["a"], ["b"]], dtype=object)
    y = np.array(labels * 2)
    model = NaiveBayes().fit(X, y)
    loaded = bayeskit.load(bayeskit.save(model, tmp_path / "m.bayeskit"))
    assert loaded.classes_.dtype == model.classes_.dtype
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))


def test_numpy_parameters_are_saved_as_plain_json(tmp_path):
    X, y = datasets.load("watermelon3")
    model = NaiveBayes(priors=np.array([0.25, 0.75]), alpha=np.float64(2.0)).fit(X, y)
    path = bayeskit.save(model, tmp_path / "m.bayeskit")
    doc, _ = _read(path)
    assert doc["params"]["priors"] == [0.25, 0.75]
    assert doc["params"]["alpha"] == 2.0
    loaded = bayeskit.load(path)
    np.testing.assert_allclose(loaded.predict_proba(X), model.predict_proba(X), rtol=0, atol=1e-15)


def test_documented_metadata_fields(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    assert doc["format"] == "bayeskit-model"
    assert doc["format_version"] == 1
    assert doc["model"] == "naive-bayes"
    assert doc["bayeskit_version"] == bayeskit.__version__
    assert doc["arrays"]["sha256"] == hashlib.sha256(arrays).hexdigest()
    assert doc["metadata_sha256"] == _canonical_digest(doc)


# -------------------------------------------------------------------------- refusing to save
def test_save_unfitted_model_raises_not_fitted(tmp_path):
    with pytest.raises(NotFittedError):
        bayeskit.save(NaiveBayes(), tmp_path / "m.bayeskit")


def test_save_unregistered_class_is_refused(tmp_path):
    class MyNB(NaiveBayes):
        pass

    X, y = datasets.load("sweet")
    with pytest.raises(TypeError, match="only the models registered"):
        bayeskit.save(MyNB().fit(X, y), tmp_path / "m.bayeskit")


def test_save_parameter_outside_json_names_it(tmp_path):
    X, y = datasets.load("watermelon3")
    model = NaiveBayes(categories={"color": {"dark", "green", "light"}}).fit(X, y)
    with pytest.raises(TypeError, match="parameter 'categories'"):
        bayeskit.save(model, tmp_path / "m.bayeskit")
    assert not list(tmp_path.iterdir())  # nothing half-written left behind


def test_save_object_array_in_stats_is_refused(tmp_path):
    X, y = datasets.load("sweet")
    model = NaiveBayes().fit(X, y)
    counts = model.stats_.counts
    bad = CategoricalCounts(counts.class_count.astype(object), counts.feature_count)
    model.stats_ = NaiveStats(bad, model.stats_.moments)
    with pytest.raises(TypeError, match="dtype object"):
        bayeskit.save(model, tmp_path / "m.bayeskit")


def test_save_into_missing_directory(tmp_path):
    X, y = datasets.load("sweet")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        bayeskit.save(NaiveBayes().fit(X, y), tmp_path / "nope" / "m.bayeskit")


# -------------------------------------------------------------------------- refusing to load
def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="no model file"):
        bayeskit.load(tmp_path / "absent.bayeskit")


def test_non_zip_file_is_refused(tmp_path):
    path = tmp_path / "model.bayeskit"
    path.write_text("alpha,beta\n1,2\n")
    with pytest.raises(ModelFileError, match="not a bayeskit model file"):
        bayeskit.load(path)


@pytest.mark.parametrize("keep", [0.0, 0.1, 0.5, 0.9, 0.999])
def test_truncated_file_is_refused(saved, keep):
    _, path, _ = saved
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ModelFileError, match=str(path.name)):
        bayeskit.load(path)


def test_flipped_byte_in_arrays_is_refused(saved):
    _, path, _ = saved
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("arrays.npz")
    data = bytearray(path.read_bytes())
    # local header: 30 bytes + name + extra field, then the member's compressed bytes
    name_len = int.from_bytes(data[info.header_offset + 26 : info.header_offset + 28], "little")
    extra_len = int.from_bytes(data[info.header_offset + 28 : info.header_offset + 30], "little")
    start = info.header_offset + 30 + name_len + extra_len
    data[start + info.compress_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="corrupted"):
        bayeskit.load(path)


def test_replaced_arrays_fail_their_checksum(saved):
    model, path, _ = saved
    doc, _ = _read(path)
    buffer = io.BytesIO()
    with np.load(io.BytesIO(_read(path)[1])) as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays["a0"] = arrays["a0"] * 2
    np.savez(buffer, **arrays)
    _write(path, doc, buffer.getvalue(), rehash=False)
    with pytest.raises(ModelFileError, match="arrays.npz does not match its checksum"):
        bayeskit.load(path)


def test_edited_parameter_fails_the_metadata_checksum(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["params"]["alpha"] = 3.0
    _write(path, doc, arrays, rehash=False)
    with pytest.raises(ModelFileError, match="does not match its checksum"):
        bayeskit.load(path)


def test_unknown_model_name_is_refused_even_with_valid_checksums(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["model"] = "os.system"
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="unknown model 'os.system'"):
        bayeskit.load(path)


def test_unknown_statistics_class_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["fitted"]["stats"]["dataclass"] = "subprocess.Popen"
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="statistics class 'subprocess.Popen'"):
        bayeskit.load(path)


def test_unknown_parameter_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["params"]["__class__"] = "os.system"
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="not parameters of NaiveBayes"):
        bayeskit.load(path)


def test_invalid_parameter_value_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["params"]["alpha"] = -1
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="alpha must be >= 0"):
        bayeskit.load(path)


def test_newer_format_version_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["format_version"] = 2
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="written by a newer bayeskit"):
        bayeskit.load(path)


def test_wrong_format_name_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["format"] = "something-else"
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="not a bayeskit model file"):
        bayeskit.load(path)


def test_extra_archive_member_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    _write(path, doc, arrays, extra={"payload.pkl": b"\x80\x04."})
    with pytest.raises(ModelFileError, match="expected exactly"):
        bayeskit.load(path)


def test_class_count_must_match_the_classes(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["fitted"]["classes"]["values"].append("maybe")
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError, match="class_count"):
        bayeskit.load(path)


def test_pickled_object_array_is_refused(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    with np.load(io.BytesIO(arrays)) as npz:
        content = {k: npz[k] for k in npz.files}
    content["a0"] = np.array([{"x": 1}, {"y": 2}], dtype=object)  # savez pickles objects
    buffer = io.BytesIO()
    np.savez(buffer, **content)
    _write(path, doc, buffer.getvalue())
    with pytest.raises(ModelFileError, match="without pickle"):
        bayeskit.load(path)


def test_arrays_are_loaded_with_pickle_disabled(saved, monkeypatch):
    _, path, _ = saved
    calls = []
    real_load = np.load

    def spy(*args, **kwargs):
        calls.append(kwargs.get("allow_pickle"))
        return real_load(*args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    bayeskit.load(path)
    assert calls == [False]


def test_error_names_the_file(saved):
    _, path, _ = saved
    doc, arrays = _read(path)
    doc["model"] = "nope"
    _write(path, doc, arrays)
    with pytest.raises(ModelFileError) as info:
        bayeskit.load(path)
    assert str(path) in str(info.value)
    assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------- what the format does not hold
@pytest.fixture(scope="module")
def car_network():
    X, y = datasets.load("car")
    return NaiveBayes().fit(X, y).to_network(class_node="label")


def test_saving_a_network_points_to_the_network_files(car_network, tmp_path):
    from bayeskit.networks import read_bif, write_bif

    with pytest.raises(TypeError, match=r"write_bif\(network, 'net.bif'\) or write_xmlbif"):
        bayeskit.save(car_network, tmp_path / "net.bkm")
    with pytest.raises(TypeError, match="DAG is a structure without tables: fit"):
        bayeskit.save(car_network.dag, tmp_path / "dag.bkm")
    assert not list(tmp_path.iterdir())  # nothing half-written
    write_bif(car_network, tmp_path / "net.bif")  # what the message points to works
    again = read_bif(tmp_path / "net.bif")
    np.testing.assert_array_equal(again.cpt("label"), car_network.cpt("label"))
    with pytest.raises(ModelFileError, match="network file: read it with"):
        bayeskit.load(tmp_path / "net.bif")


def test_saving_a_pipeline_or_a_search_points_to_its_model(tmp_path):
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    X, y = datasets.load("watermelon3")
    pipeline = make_pipeline(FunctionTransformer(), NaiveBayes()).fit(X, y)
    with pytest.raises(TypeError, match=r"bayeskit.save\(pipeline\[-1\], path\)") as info:
        bayeskit.save(pipeline, tmp_path / "p.bkm")
    assert "joblib.dump" in str(info.value)
    bayeskit.save(pipeline[-1], tmp_path / "p.bkm")  # what the message points to works
    same = bayeskit.load(tmp_path / "p.bkm")
    np.testing.assert_array_equal(same.predict_proba(X), pipeline.predict_proba(X))
    search = GridSearchCV(NaiveBayes(), {"alpha": [0.5, 1.0]}, cv=2).fit(X, y)
    with pytest.raises(TypeError, match=r"bayeskit.save\(search.best_estimator_, path\)"):
        bayeskit.save(search, tmp_path / "s.bkm")
    with pytest.raises(TypeError, match="only the models registered"):
        bayeskit.save(object(), tmp_path / "o.bkm")
