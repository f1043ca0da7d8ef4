"""Hidden Markov models in model files: bayeskit.save / bayeskit.load round trips (every
parameter bit for bit, predictions identical), and files edited by a careful attacker (digests
recomputed) refused with a ModelFileError naming the file and the field."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import numpy as np
import pytest

import bayeskit
from bayeskit.exceptions import ModelFileError
from bayeskit.sequences import COVARIANCE_TYPES, HiddenMarkovModel, PoissonEmission, example_hmm

RNG = np.random.default_rng(0)
LENGTHS = [40, 40]


def _gaussian_data():
    return np.r_[RNG.normal(0, 1, (40, 2)), RNG.normal(4, 1, (40, 2))]


def _fitted(emission, covariance_type="diag"):
    if emission == "gaussian":
        X = _gaussian_data()
    elif emission == "poisson":
        X = np.r_[RNG.poisson(1, (40, 2)), RNG.poisson(6, (40, 2))].astype(float)
    else:
        X = np.r_[RNG.integers(0, 3, 40), RNG.integers(2, 5, 40)][:, None]
    model = HiddenMarkovModel(
        3 if emission == "categorical" else 2,
        emission=emission,
        covariance_type=covariance_type,
        n_iter=5,
        random_state=0,
    )
    return model.fit(X, LENGTHS), X


class ModelFile:
    """A saved file's metadata and arrays, editable, written back with both digests
    recomputed."""

    def __init__(self, path):
        self.path = path
        with zipfile.ZipFile(path) as archive:
            self.doc = json.loads(archive.read("bayeskit.json"))
            with np.load(io.BytesIO(archive.read("arrays.npz"))) as npz:
                self.arrays = {k: npz[k] for k in npz.files}

    def key(self, name):
        return self.doc["fitted"]["parameters"][name]

    def write(self):
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


def _refused(path, *match):
    with pytest.raises(ModelFileError) as info:
        bayeskit.load(path)
    text = str(info.value)
    assert str(path) in text
    for part in match:
        assert part in text, text
    return text


@pytest.mark.parametrize(
    ("emission", "covariance_type"),
    [("gaussian", c) for c in COVARIANCE_TYPES] + [("categorical", "diag"), ("poisson", "diag")],
)
def test_round_trip_is_exact(tmp_path, emission, covariance_type):
    model, X = _fitted(emission, covariance_type)
    again = bayeskit.load(bayeskit.save(model, tmp_path / "m.bayeskit"))
    assert type(again) is HiddenMarkovModel
    assert again.get_params() == model.get_params()
    names = ["startprob_", "transmat_", *model.emission_distribution().parameter_names]
    for name in names:
        saved, loaded = getattr(model, name), getattr(again, name)
        assert loaded.dtype == saved.dtype
        assert loaded.shape == saved.shape
        assert loaded.tobytes() == saved.tobytes(), name  # bit for bit
    assert again.objective_ == model.objective_
    assert (again.n_iter_, again.converged_) == (model.n_iter_, model.converged_)
    assert np.array_equal(again.predict(X, LENGTHS), model.predict(X, LENGTHS))
    assert np.array_equal(again.predict_proba(X, LENGTHS), model.predict_proba(X, LENGTHS))
    assert again.score(X, LENGTHS) == model.score(X, LENGTHS)


def test_parameters_set_by_hand_symbols_and_names_round_trip(tmp_path):
    model = example_hmm("casino")
    model.symbols_ = np.array(list("123456"), dtype=object)
    model.feature_names_in_ = np.array(["roll"], dtype=object)
    again = bayeskit.load(bayeskit.save(model, tmp_path / "casino.bayeskit"))
    assert again.symbols_.tolist() == list("123456")
    assert again.feature_names_in_.tolist() == ["roll"]
    assert not hasattr(again, "objective_")
    assert np.array_equal(again.emissionprob_, model.emissionprob_)


def test_custom_emission_cannot_be_saved(tmp_path):
    model = HiddenMarkovModel(2, emission=PoissonEmission({}))
    model.startprob_ = np.array([0.5, 0.5])
    model.transmat_ = np.eye(2)
    model.lambdas_ = np.array([[1.0], [2.0]])
    with pytest.raises(TypeError, match="custom Emission object"):
        bayeskit.save(model, tmp_path / "m.bayeskit")
    assert not (tmp_path / "m.bayeskit").exists()


def test_unfitted_model_is_refused(tmp_path):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        bayeskit.save(HiddenMarkovModel(2), tmp_path / "m.bayeskit")


def test_symbols_of_the_wrong_length_cannot_be_saved(tmp_path):
    model = example_hmm("casino")
    model.symbols_ = np.array(["a", "b"], dtype=object)
    with pytest.raises(TypeError, match="symbols_ names 2 symbols"):
        bayeskit.save(model, tmp_path / "m.bayeskit")


def test_tampered_bytes_are_refused(tmp_path):
    model = _fitted("gaussian")[0]
    path = bayeskit.save(model, tmp_path / "m.bayeskit")
    with zipfile.ZipFile(path) as archive:
        meta, data = archive.read("bayeskit.json"), archive.read("arrays.npz")
    means = model.means_.tobytes()
    assert data.count(means) == 1
    edited = model.means_.copy()
    edited[0, 0] += 1.0
    data = data.replace(means, edited.tobytes())  # one mean moved, digests left as they were
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bayeskit.json", meta)
        archive.writestr("arrays.npz", data)
    _refused(path, "checksum")


def test_unknown_parameter_name_is_refused(tmp_path):
    file = ModelFile(bayeskit.save(_fitted("gaussian")[0], tmp_path / "m.bayeskit"))
    file.doc["fitted"]["parameters"]["lambdas_"] = file.key("means_")
    _refused(file.write(), "fitted.parameters names ['lambdas_']", "means_, covars_")


def test_missing_parameter_is_refused(tmp_path):
    file = ModelFile(bayeskit.save(_fitted("poisson")[0], tmp_path / "m.bayeskit"))
    key = file.doc["fitted"]["parameters"].pop("lambdas_")
    del file.arrays[key]
    _refused(file.write(), "fitted.parameters lacks ['lambdas_']")


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda f: f.arrays.__setitem__(f.key("transmat_"), np.ones((2, 2))), "transmat_ rows"),
        (lambda f: f.arrays.__setitem__(f.key("means_"), np.zeros((3, 2))), "means_"),
        (lambda f: f.arrays.__setitem__(f.key("covars_"), -np.ones((2, 2))), "covars_"),
        (lambda f: f.arrays.__setitem__(f.key("startprob_"), np.array([1, 0])), "dtype int64"),
        (lambda f: f.doc["params"].__setitem__("n_states", 3), "startprob_ must have shape"),
        (lambda f: f.doc["params"].__setitem__("emission", "poisson"), "fitted.parameters"),
        (lambda f: f.doc["params"].__setitem__("covariance_type", "full"), "covars_"),
        (lambda f: f.doc["params"].__setitem__("n_iter", -1), "params.n_iter"),
        (lambda f: f.doc["params"].__setitem__("params", "stx"), "params.params"),
        (lambda f: f.doc["params"].__setitem__("bogus", 1), "'bogus'"),
        (lambda f: f.doc["fitted"].__setitem__("n_iter", 999), "fitted.objective has shape"),
        (lambda f: f.doc["fitted"].__setitem__("converged", "yes"), "fitted.converged"),
        (lambda f: f.doc["fitted"].__setitem__("symbols", ["a", "b"]), "not categorical"),
        (lambda f: f.doc["fitted"].__setitem__("feature_names_in", ["a"]), "means_ has 2"),
        (lambda f: f.doc["fitted"].__setitem__("feature_names_in", ["a", "a"]), "distinct"),
        (lambda f: f.doc["fitted"].pop("symbols"), "'fitted' must be a JSON object"),
        (lambda f: f.arrays.__setitem__("a9", np.zeros(1)), "does not refer to"),
        (lambda f: f.doc.__setitem__("model", "hidden-markov"), "unknown model"),
    ],
)
def test_edited_files_are_refused(tmp_path, edit, match):
    file = ModelFile(bayeskit.save(_fitted("gaussian")[0], tmp_path / "m.bayeskit"))
    edit(file)
    _refused(file.write(), match)


def test_edited_symbols_are_refused(tmp_path):
    model = example_hmm("rainy-sunny")
    model.symbols_ = np.array(["walk", "shop", "clean"], dtype=object)
    file = ModelFile(bayeskit.save(model, tmp_path / "m.bayeskit"))
    file.doc["fitted"]["symbols"] = ["walk", "walk", "clean"]
    _refused(file.write(), "fitted.symbols must be distinct")
    file.doc["fitted"]["symbols"] = ["walk", "shop"]
    _refused(file.write(), "fitted.symbols names 2 symbols")


def test_an_array_header_claiming_more_than_its_bytes_is_refused_before_allocating():
    import io as _io
    import zipfile

    from bayeskit.exceptions import ModelFileError
    from bayeskit.io._read import read_arrays

    header = _io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)}
    )
    buffer = _io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as npz:
        npz.writestr("a0.npy", header.getvalue() + b"\0" * 16)

    def fail(what, exc=None):
        raise ModelFileError(what)

    with pytest.raises(ModelFileError, match=r"declares shape \(1000000000000,\)"):
        read_arrays(buffer.getvalue(), fail)


def test_priors_saved_as_arrays_come_back_as_arrays(tmp_path):
    X = np.random.default_rng(0).normal(size=(60, 2))
    model = HiddenMarkovModel(2, means_prior=np.zeros((2, 2)), means_weight=1.0,
                              random_state=0, n_iter=3).fit(X)  # fmt: skip
    loaded = bayeskit.load(bayeskit.save(model, tmp_path / "m.bayeskit"))
    loaded.fit(X)  # refits: the prior is an array again
    np.testing.assert_allclose(loaded.means_, model.means_, rtol=1e-12)
