"""SelectiveKDBEnsemble's numeric columns binned by each member on its own weighted rows."""

from __future__ import annotations

import hashlib
import json
import zipfile

import numpy as np
import pandas as pd
import pytest

import bayeskit
from bayeskit import SelectiveKDB, SelectiveKDBEnsemble
from bayeskit.data import datasets
from bayeskit.data.discretize import Discretizer
from bayeskit.exceptions import ModelFileError
from bayeskit.stats import EnsembleCounts


@pytest.fixture(scope="module")
def mixed():
    """Two informative numeric columns around a categorical one, and a noise column."""
    rng = np.random.default_rng(3)
    n = 400
    a, b = rng.normal(size=n), rng.normal(size=n)
    c = rng.choice(["p", "q", "r"], size=n)
    y = ((a + 0.8 * b + (c == "p") + 0.4 * rng.normal(size=n)) > 0.6).astype(int)
    X = pd.DataFrame({"a": a, "c": c, "b": b, "noise": rng.normal(size=n)})
    return X, y


def test_each_member_is_the_selective_kdb_of_its_own_weighted_rows(mixed):
    X, y = mixed
    model = SelectiveKDBEnsemble(n_estimators=4, k=2, order_noise=0.0).fit(X, y)
    assert [c.kind for c in model.schema_.columns] == ["numeric", "categorical"] + ["numeric"] * 2
    alone = SelectiveKDB(k=2).fit(X, y)  # member 0: the rows as given
    np.testing.assert_allclose(model.members_[0].predict_proba(X), alone.predict_proba(X))
    for i, member in enumerate(model.members_[1:], start=1):
        w = model._draws(i, len(y), X.shape[1], 0.0)[0]
        own = SelectiveKDB(k=2).fit(X, y, sample_weight=w)
        assert member.schema_ == own.schema_  # the same cut points, from the same weights
        np.testing.assert_allclose(member.predict_proba(X), own.predict_proba(X))
    mean = np.mean([m.predict_proba(X) for m in model.members_], axis=0)
    np.testing.assert_allclose(model.predict_proba(X), mean, atol=1e-12)


def test_members_bin_differently_and_hold_their_cut_points(mixed):
    X, y = mixed
    model = SelectiveKDBEnsemble(n_estimators=6, k=2).fit(X, y)
    cuts = model.stats_.cuts
    assert len(cuts) == 6
    assert all(len(own) == 3 for own in cuts)
    w1 = model._draws(1, len(y), X.shape[1], 0.0)[0]
    expected = Discretizer().fit(X[["a", "b", "noise"]].to_numpy(), y, 2, w1).cuts_
    for held, want in zip(cuts[1], expected, strict=True):
        np.testing.assert_array_equal(held, want)
    assert any(not np.array_equal(own[0], cuts[0][0]) for own in cuts[1:])
    for member, own in zip(model.members_, cuts, strict=True):
        assert member.schema_.column("a").cuts == tuple(own[0].tolist())


def test_shared_cut_points_bin_once(mixed):
    X, y = mixed
    model = SelectiveKDBEnsemble(n_estimators=3, k=2, cut_points="shared").fit(X, y)
    assert model.stats_.cuts is None
    assert not model.schema_.numeric
    assert all(m.schema_ is model.schema_ for m in model.members_)


def test_categorical_data_is_the_same_either_way():
    X, y = datasets.load("car")
    own = SelectiveKDBEnsemble(n_estimators=3, k=2).fit(X, y)
    shared = SelectiveKDBEnsemble(n_estimators=3, k=2, cut_points="shared").fit(X, y)
    assert own.stats_.cuts is None
    np.testing.assert_array_equal(own.predict_proba(X), shared.predict_proba(X))


def test_bad_cut_points_value(mixed):
    X, y = mixed
    with pytest.raises(ValueError, match="cut_points"):
        SelectiveKDBEnsemble(cut_points="each").fit(X, y)


def test_partial_fit_keeps_the_cuts_and_grows_vocabularies_in_place(mixed):
    X, y = mixed
    model = SelectiveKDBEnsemble(n_estimators=3, k=2)
    model.partial_fit(X.iloc[:200], y[:200], classes=[0, 1])
    cuts = model.stats_.cuts
    later = X.iloc[200:].copy()
    later.loc[later.index[:20], "c"] = "s"  # a category first seen now
    model.partial_fit(later, y[200:])
    assert model.stats_.cuts is cuts
    assert model.schema_.column("c").categories == ("p", "q", "r", "s")
    for member in model.stats_.members:
        states = member.n_states.tolist()
        assert states[1] == 4
        assert states[-1] == 2
    np.testing.assert_array_equal(model.class_count_, np.bincount(y, minlength=2))
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_counts_of_other_bins_do_not_add(mixed):
    X, y = mixed
    a = SelectiveKDBEnsemble(n_estimators=2, k=1).fit(X, y).stats_
    b = SelectiveKDBEnsemble(n_estimators=2, k=1, random_state=5).fit(X, y).stats_
    with pytest.raises(ValueError, match="bin the numeric columns differently"):
        a + b
    shared = SelectiveKDBEnsemble(n_estimators=2, k=1, cut_points="shared").fit(X, y).stats_
    with pytest.raises(ValueError, match="differently"):
        a + shared
    assert isinstance(a + a, EnsembleCounts)


def _edit(path, change):
    """The file with its metadata changed and its digest recomputed."""
    with zipfile.ZipFile(path) as archive:
        doc = json.loads(archive.read("bayeskit.json"))
        arrays = archive.read("arrays.npz")
    change(doc)
    doc.pop("metadata_sha256", None)
    body = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    doc["metadata_sha256"] = hashlib.sha256(body.encode("ascii")).hexdigest()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bayeskit.json", json.dumps(doc))
        archive.writestr("arrays.npz", arrays)
    return path


def test_saved_and_loaded_with_the_members_cut_points(mixed, tmp_path):
    X, y = mixed
    model = SelectiveKDBEnsemble(n_estimators=3, k=2).fit(X, y)
    loaded = bayeskit.load(bayeskit.save(model, tmp_path / "m.bayeskit"))
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    # a file whose members hold their own cut points, its parameters saying they share them
    path = bayeskit.save(model, tmp_path / "bad.bayeskit")

    def shared(doc):
        doc["params"]["cut_points"] = "shared"

    with pytest.raises(ModelFileError, match="cut points"):
        bayeskit.load(_edit(path, shared))


def test_a_file_written_before_cut_points_were_held_still_loads(tmp_path):
    X, y = datasets.load("car")
    model = SelectiveKDBEnsemble(n_estimators=2, k=2).fit(X, y)
    path = bayeskit.save(model, tmp_path / "old.bayeskit")

    def as_before(doc):
        del doc["fitted"]["stats"]["fields"]["cuts"]

    loaded = bayeskit.load(_edit(path, as_before))
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
