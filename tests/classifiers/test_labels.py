"""Class labels of every kind a user passes: encoded once, checked on the distinct labels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit import TAN, NaiveBayes
from bayeskit.classifiers import labels as _labels
from bayeskit.classifiers.labels import encode_targets
from bayeskit.data import datasets

WORDS = np.array(["gamma", "alpha", "beta"])
CODES = np.array([0, 1, 2, 2, 1, 0, 0, 1])


def _label_inputs():
    text = WORDS[CODES]
    return {
        "int": CODES * 10 - 5,
        "bool": CODES == 1,
        "whole floats": CODES.astype(float) + 0.0,
        "object text": text.astype(object),
        "numpy text": text,
        "list of text": text.tolist(),
        "categorical": pd.Categorical(text, categories=["zeta", "gamma", "beta", "alpha"]),
        "categorical series": pd.Series(pd.Categorical(text)),
        "string series": pd.Series(text, dtype="string"),
        "object series": pd.Series(text.astype(object)),
        "nullable ints": pd.Series(CODES, dtype="Int64"),
        "object ints": np.array(CODES.tolist(), dtype=object),
    }


@pytest.mark.parametrize("name", list(_label_inputs()))
def test_labels_are_the_sorted_distinct_values_and_each_row_indexes_its_own(name):
    y = _label_inputs()[name]
    got = encode_targets(y, len(CODES))
    values = np.asarray(y.astype(object) if isinstance(y, pd.Series) else y)
    if isinstance(y, pd.Categorical):
        values = np.asarray(y.astype(object))
    expected = np.unique(np.asarray(values.tolist()))
    assert got.labels.tolist() == expected.tolist()  # unused categories make no class
    assert got.labels[got.index].tolist() == values.tolist()
    assert got.index.dtype == np.int64


def test_numpy_text_labels_keep_their_dtype():
    assert encode_targets(WORDS[CODES], len(CODES)).labels.dtype == WORDS.dtype


def test_label_kinds_are_checked_once_per_distinct_label(monkeypatch):
    # the per-row Python work that made text labels 15-80x slower than integers: the type
    # check looked at every row (2,000,000 calls for 2,000,000 rows)
    calls = []
    real = _labels._label_kind
    monkeypatch.setattr(_labels, "_label_kind", lambda v: calls.append(v) or real(v))
    y = np.repeat(WORDS, 1000).astype(object)
    NaiveBayes().fit(pd.DataFrame({"x": np.tile(["a", "b"], 1500)}), y)
    assert len(calls) <= len(WORDS)


def test_text_and_categorical_labels_fit_the_model_integer_labels_fit():
    X, y = datasets.load("car")
    codes = pd.Categorical(y).codes
    names = np.array(["acc", "good", "unacc", "vgood"])[codes]  # sorted as the codes are
    by_code = TAN().fit(X, codes)
    for labels in (names.astype(object), names, pd.Series(names).astype("category"),
                   pd.Series(names, dtype="string")):  # fmt: skip
        model = TAN().fit(X, labels)
        assert model.classes_.tolist() == ["acc", "good", "unacc", "vgood"]
        np.testing.assert_array_equal(model.predict_proba(X), by_code.predict_proba(X))
        assert model.predict(X[:5]).tolist() == model.classes_[by_code.predict(X[:5])].tolist()


@pytest.mark.parametrize(
    ("y", "match"),
    [
        (np.array(["a", None, "b"], dtype=object), "missing class label at position 1"),
        (pd.Series(["a", "b", None], dtype="string"), "missing class label at position 2"),
        (pd.Series(pd.Categorical(["a", np.nan, "b"])), "missing class label at position 1"),
        (np.array(["a", 1, "b"], dtype=object), "mixes class labels of different types"),
        (np.array([True, 1, 0], dtype=object), "mixes class labels of different types"),
        (np.array([0.5, 1.5, 2.0]), "Unknown label type"),
        (np.array([0.5, 1.5, 2.0], dtype=object), "Unknown label type"),
        (np.array([1.0, np.inf, 2.0]), "NaN or infinity \\(position 1\\)"),
    ],
)
def test_bad_labels_are_refused_by_position_or_example(y, match):
    with pytest.raises(ValueError, match=match):
        encode_targets(y, 3)


def test_a_single_class_is_named_as_the_user_wrote_it():
    X = pd.DataFrame({"x": ["a", "b", "a"]})
    with pytest.raises(ValueError, match=r"y has only 1 class \(0\.0\) on its labelled rows"):
        NaiveBayes().fit(X, np.zeros(3))


def test_a_label_only_on_weightless_rows_makes_no_class():
    X = pd.DataFrame({"x": ["a", "b", "a", "b"]})
    model = NaiveBayes().fit(X, ["u", "v", "u", "w"], sample_weight=[1, 1, 1, 0])
    assert model.classes_.tolist() == ["u", "v"]


def test_partial_fit_names_labels_outside_the_declared_classes():
    X = pd.DataFrame({"x": ["a", "b", "a"]})
    model = NaiveBayes().partial_fit(X, ["u", "v", "u"], classes=["u", "v"])
    with pytest.raises(ValueError, match=r"y has labels \['w'\] not in classes \['u', 'v'\]"):
        model.partial_fit(X, ["u", "w", "u"])


@pytest.mark.parametrize(
    ("y", "kinds"),
    [
        ([True, 1, False, 0], r"bool \(True\), number \(1\)"),
        ([1, 1.0, True], r"number \(1\), bool \(True\)"),
        (["a", b"b"], r"text \('a'\), bytes"),
    ],
)
def test_labels_that_hashing_would_merge_are_refused_by_kind(y, kinds):
    # pandas hashes True and 1 alike: the kinds are checked before the labels are merged
    with pytest.raises(ValueError, match=f"mixes class labels of different types: {kinds}"):
        encode_targets(np.array(y, dtype=object), len(y))
