"""Data typing that never surprises (issue 10, section 3): one rule for every model, refusals
that name the column, and integer codes that cost little more than counting them."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from bayeskit import BernoulliNaiveBayes, MultinomialNaiveBayes, NaiveBayes
from bayeskit.classifiers import MODELS
from bayeskit.data import Schema
from bayeskit.data._int_codes import integer_codes, integer_vocabularies
from bayeskit.exceptions import IdentifierWarning, SchemaError, UnknownCategoryWarning

EVENT_MODELS = [MultinomialNaiveBayes, BernoulliNaiveBayes]


# ---------------------------------------------------------------- values pandas would merge
def test_booleans_and_numbers_in_one_object_column_are_refused():
    X = pd.DataFrame({"flag": pd.Series([1, True, 0, False], dtype=object)})
    with pytest.raises(SchemaError, match=r"column 'flag' mixes booleans .* numbers"):
        NaiveBayes().fit(X, [0, 0, 1, 1])
    # booleans alone, or numbers alone, are fine
    NaiveBayes().fit(pd.DataFrame({"flag": [True, True, False, False]}), [0, 0, 1, 1])
    ok = pd.DataFrame({"flag": pd.Series(["1", "True", "0", "False"], dtype=object)})
    assert NaiveBayes().fit(ok, [0, 0, 1, 1]).predict_proba(ok).argmax(axis=1).tolist() == [
        0,
        0,
        1,
        1,
    ]


@pytest.mark.parametrize(
    "column",
    [
        pd.to_datetime(["2024-01-01", "2024-01-02", "2024-02-01", "2024-03-01"]),
        pd.to_timedelta([1, 2, 3, 4], unit="D"),
        pd.Series(pd.to_datetime(["2024-01-01", "2024-01-02", None, "2024-03-01"]), dtype=object),
        pd.period_range("2024-01", periods=4, freq="M"),
        pd.Categorical(pd.to_datetime(["2024-01-01", "2024-01-02", "2024-02-01", "2024-03-01"])),
    ],
    ids=["datetime64", "timedelta64", "object-timestamps", "period", "categorical-dates"],
)
@pytest.mark.parametrize("model", list(MODELS.values()), ids=list(MODELS))
def test_dates_and_durations_are_refused_by_name(column, model):
    X = pd.DataFrame({"when": column, "x": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(SchemaError, match=r"'when'.*(dates or durations|dtype|a date)"):
        model().fit(X, [0, 0, 1, 1])


def test_mixed_type_labels_are_refused_with_their_types():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match=r"y mixes class labels .*number \(1\).*text \('b'\)"):
        NaiveBayes().fit(X, [1, "b", 2.5])
    with pytest.raises(ValueError, match=r"bool \(True\).*number \(1\)"):
        NaiveBayes().fit(X, np.array([True, 1, 0], dtype=object))


@pytest.mark.parametrize("model", list(MODELS.values()), ids=list(MODELS))
def test_duplicate_column_names_are_refused_by_name(model):
    X = pd.DataFrame([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], columns=["a", "a"])
    with pytest.raises(SchemaError, match=r"duplicate column names \['a'\]"):
        model().fit(X, [0, 1, 1])


# ---------------------------------------------------------------- sample weight 0
def test_a_weightless_row_adds_nothing_not_even_its_category():
    X = pd.DataFrame({"c": ["u", "v", "u", "v", "w"], "x": [0.1, 0.2, 1.1, 1.3, 9.0]})
    y = np.array([0, 0, 1, 1, 2])
    weighted = NaiveBayes().fit(X, y, sample_weight=[1, 1, 1, 1, 0])
    removed = NaiveBayes().fit(X.iloc[:4], y[:4])
    assert weighted.schema_ == removed.schema_
    assert weighted.classes_.tolist() == [0, 1]  # a label seen only with weight 0 is no class
    np.testing.assert_array_equal(weighted.predict_proba(X), removed.predict_proba(X))


@pytest.mark.parametrize("name", list(MODELS))
def test_integer_weights_equal_repeated_rows_for_every_model(name):
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.integers(0, 4, (30, 3)).astype(float), columns=["a", "b", "c"])
    y = rng.integers(0, 2, 30)
    w = rng.integers(0, 3, 30)
    # KNN: rows at the same distance are shared (ties="index" would depend on row order)
    params = {"ties": "share"} if name == "knn-bayes" else {}
    if name == "selective-kdb-ensemble":  # each repeated row draws its own bagging weight;
        params = {"n_estimators": 1}  # member 0, the rows as given, is the invariant part
    weighted = MODELS[name](**params).fit(X, y, sample_weight=w)
    repeated = MODELS[name](**params).fit(X.loc[X.index.repeat(w)], np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), atol=1e-12)


def test_all_weights_zero_is_refused():
    with pytest.raises(ValueError, match="sums to zero"):
        NaiveBayes().fit([[0.0], [1.0]], [0, 1], sample_weight=[0, 0])


# ---------------------------------------------------------------- count models
@pytest.mark.parametrize("model", EVENT_MODELS)
def test_count_models_name_columns_that_are_not_numbers(model):
    X = pd.DataFrame(
        {"n": [1, 2, 3], "word": ["a", "b", "c"], "t": pd.date_range("2024", periods=3)}
    )
    with pytest.raises(SchemaError, match=r"'word' \(row 0: 'a'\), 't' \(dtype datetime64"):
        model().fit(X, [0, 1, 1])
    with pytest.raises(SchemaError, match=r"'x1' \(row 1: 'b'\)"):
        model().fit(np.array([[1, 0], [2, "b"]], dtype=object), [0, 1])
    with pytest.raises(ValueError, match="0 sample"):
        model().fit(pd.DataFrame({"n": pd.Series([], dtype=float)}), [])
    # numbers written as text are numbers
    fitted = model().fit(pd.DataFrame({"n": ["1", "2", "3"]}, dtype=object), [0, 1, 1])
    assert fitted.n_features_in_ == 1


# ---------------------------------------------------------------- one column rule
@pytest.mark.parametrize("name", list(MODELS))
def test_one_column_rule_for_every_model(name):
    rng = np.random.default_rng(0)
    A = rng.integers(0, 4, (40, 3)).astype(float)
    y = np.r_[[0] * 20, [1] * 20]
    df = pd.DataFrame(A, columns=["a", "b", "c"])
    model = MODELS[name]().fit(df, y)
    expected = model.predict_proba(df)
    # named on both sides: by name, in any order
    np.testing.assert_array_equal(model.predict_proba(df[["c", "a", "b"]]), expected)
    for bad, words in [
        (df[["a", "b"]], r"fit: missing \['c'\]; columns are matched by name"),
        (df.assign(d=1.0), r"fit: unexpected \['d'\]; columns are matched by name"),
        (df.set_axis(["a", "b", "z"], axis=1), r"missing \['c'\], unexpected \['z'\]"),
    ]:
        with pytest.raises(SchemaError, match=words):
            model.predict_proba(bad)
    # one side unnamed: by position, with scikit-learn's warning
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        np.testing.assert_array_equal(model.predict_proba(A), expected)
    unnamed = MODELS[name]().fit(A, y)
    with pytest.warns(UserWarning, match="X has feature names"):
        np.testing.assert_array_equal(unnamed.predict_proba(df), unnamed.predict_proba(A))


# ---------------------------------------------------------------- integer codes
def test_integer_kernels_agree_with_the_general_path():
    rng = np.random.default_rng(1)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64):
        x = rng.integers(0, 7, (500, 4)).astype(dtype)
        x[:, 1] += 3  # a column whose values start above 0
        vocabs = integer_vocabularies(x)
        assert vocabs == [tuple(sorted(set(x[:, j].tolist()))) for j in range(4)]
        codes, unknown = integer_codes(x, vocabs, np.dtype(np.int8))
        expected = np.column_stack([np.searchsorted(vocabs[j], x[:, j]) for j in range(4)])
        assert unknown == 0
        np.testing.assert_array_equal(codes, expected)
    wide = np.array([[0], [100_000]], dtype=np.int32)
    assert integer_vocabularies(wide) is None  # beyond the look-up table: the general path
    assert integer_codes(np.array([[1]]), [("1",)], np.dtype(np.int8)) is None


def test_integer_array_input_matches_object_input():
    rng = np.random.default_rng(2)
    codes = rng.integers(-2, 5, (300, 5)).astype(np.int16)
    y = (codes[:, 0] + codes[:, 1] > 2).astype(int)
    as_ints = NaiveBayes(categorical_features="all").fit(codes, y)
    as_objects = NaiveBayes(categorical_features="all").fit(codes.astype(object), y)
    assert as_ints.schema_ == as_objects.schema_
    np.testing.assert_array_equal(as_ints.predict_proba(codes), as_objects.predict_proba(codes))
    # an integer never seen in fit: missing, or warned about, or refused, as for any category
    query = codes[:2].copy()
    query[0, 0] = 99
    np.testing.assert_array_equal(
        as_ints.predict_proba(query), as_objects.predict_proba(query.astype(object))
    )
    with pytest.warns(UnknownCategoryWarning, match="column 'x0' has categories \\['99'\\]"):
        as_ints.set_params(handle_unknown="warn").predict_proba(query)
    with pytest.raises(SchemaError, match="column 'x0'"):
        as_ints.set_params(handle_unknown="error").predict_proba(query)


def test_infer_rule_on_integer_arrays_uses_the_counted_vocabulary():
    X = np.column_stack([np.arange(100) % 3, np.arange(100)]).astype(np.int32)
    with pytest.warns(IdentifierWarning, match="'x1' holds a different whole number"):
        schema = Schema.infer(X, categorical_features="infer")  # a row number: kept, named
    assert [c.kind for c in schema.columns] == ["categorical", "numeric"]
    assert schema.columns[0].categories == (0, 1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert schema.encode(X).codes[:4, 0].tolist() == [0, 1, 2, 0]
