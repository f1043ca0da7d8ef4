"""One typing rule for Python and files, categories matched however a file was read, identifier
columns left out, and one convention for naming rows (bayeskit.data.kinds, codes, rows)."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold, cross_val_predict

import bayeskit
from bayeskit import TAN, NaiveBayes
from bayeskit.data import Schema, datasets
from bayeskit.data.codes import category_key
from bayeskit.data.kinds import (
    FEW_VALUES,
    MAX_CODES,
    ROWS_PER_CODE,
    column_kind,
    identifier_reason,
    numeric_identifier_reason,
    read_text_column,
)
from bayeskit.data.rows import label_file_lines, row_name
from bayeskit.data.schema import category_codes
from bayeskit.exceptions import IdentifierWarning, ModelFileError, SchemaError

CELLS = {
    "upper": ["TRUE", "FALSE", "TRUE", ""],
    "mixed_case": ["True", "false", "TRUE", "true"],
    "letters": ["T", "F", "T", "F"],
    "ints": ["1", "2", "3", "4"],
    "ints_gap": ["1", "2", "", "4"],
    "floats": ["1.5", "2", "3e2", "-4"],
    "signs": ["+1", "-2", "3", "4"],
    "text": ["1", "x", "3", "4"],
    "yes_no": ["yes", "no", "yes", ""],
    "zeros": ["007", "7", "08", "9"],
    "bool_and_ints": ["TRUE", "1", "0", "FALSE"],
    "empty": ["", "", "", ""],
}


def _csv(cells: dict[str, list[str]]) -> str:
    n = len(next(iter(cells.values())))
    rows = [",".join(cells)] + [",".join(c[i] for c in cells.values()) for i in range(n)]
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- typing a file's text cells
def test_text_cells_are_typed_as_pandas_read_csv_types_them():
    text = _csv(CELLS)
    by_pandas = pd.read_csv(io.StringIO(text))
    as_text = pd.read_csv(io.StringIO(text), dtype=str)
    for name in CELLS:
        typed = read_text_column(as_text[name])
        expected = by_pandas[name]
        assert [category_key(v) for v in typed] == [category_key(v) for v in expected], name
        assert column_kind(typed) == column_kind(expected), name


def test_the_kind_rule_has_one_set_of_thresholds():
    n = ROWS_PER_CODE * MAX_CODES
    codes = pd.Series(np.arange(n) % MAX_CODES)
    assert column_kind(codes)[0] == "categorical"
    assert column_kind(pd.Series(np.arange(n) % (MAX_CODES + 1)))[0] == "numeric"
    assert column_kind(pd.Series(np.arange(n - 1) % MAX_CODES))[0] == "numeric"  # too few rows
    few = pd.Series(np.arange(40.0) % FEW_VALUES)  # floats: the few-values rule only
    assert column_kind(few)[0] == "categorical"
    assert column_kind(pd.Series(np.arange(40.0) % (FEW_VALUES + 1)))[0] == "numeric"
    # Schema's "infer" is the same rule
    frame = pd.DataFrame({"codes": codes, "wide": np.arange(n) % (MAX_CODES + 1)})
    schema = Schema.infer(frame, categorical_features="infer")
    assert [c.kind for c in schema.columns] == ["categorical", "numeric"]


def test_integers_with_a_gap_are_still_integer_codes():
    # pandas reads an integer column with one missing cell as floats: still codes
    values = (np.arange(1000) % 40).astype(float)
    gap = pd.Series(values).where(np.arange(1000) != 7)
    assert column_kind(gap)[0] == "categorical"
    assert column_kind(pd.Series(values))[0] == "numeric"  # written 13.0 throughout: measured
    assert column_kind(pd.Series(np.arange(1000) % 40))[0] == "categorical"


# ---------------------------------------------------------------- canonical category keys
@pytest.mark.parametrize(
    ("values", "key"),
    [
        ([True, np.bool_(True), "TRUE", "True", "true"], "True"),
        ([False, "FALSE", "false"], "False"),
        ([1, np.int64(1), 1.0, np.float32(1.0), "1", "+1", "1.0", "1e0"], "1"),
        ([2.5, "2.50", np.float64(2.5)], "2.5"),
        (["yes"], "yes"),
        (["Yes"], "Yes"),
    ],
)
def test_category_keys_name_a_value_however_it_was_read(values, key):
    assert {category_key(v) for v in values} == {key}


def test_missing_values_have_no_key():
    assert [category_key(v) for v in (None, np.nan, pd.NA, float("nan"))] == [None] * 4


@pytest.mark.parametrize(
    ("learnt", "given"),
    [
        ([True, False, True], ["TRUE", "FALSE", "true"]),
        (["TRUE", "FALSE", "TRUE"], [True, False, True]),
        (["True", "False", "True"], [True, False, True]),
        ([1, 2, 3], ["1", "2", "3"]),
        (["1", "2", "3"], [1, 2, 3]),
        ([1.0, 2.0, 3.0], ["1", "2", "3"]),
        (["1", "2", "3"], [1.0, 2.0, 3.0]),
        ([1.5, 2.5, 3.5], ["1.5", "2.50", "3.5"]),
    ],
    ids=lambda v: type(v[0]).__name__,
)
def test_a_category_is_found_whichever_way_its_column_was_read(learnt, given):
    schema = Schema.infer(pd.DataFrame({"c": learnt}), categorical_features="all")
    expected = schema.encode(pd.DataFrame({"c": learnt})).codes.ravel()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unknown-category warning
        got = schema.encode(pd.DataFrame({"c": given}), handle_unknown="warn").codes.ravel()
    np.testing.assert_array_equal(got, expected)


def test_equal_values_come_first_and_shared_keys_match_nothing():
    # a vocabulary holding both 1 and "1" keeps them apart; "1.0" names both, so neither
    values = pd.Series([1, "1", "1.0", "yes", "YES"], dtype=object)
    assert category_codes(values, (1, "1", "yes")).tolist() == [0, 1, -1, 2, -1]


def test_unseen_text_is_still_unseen():
    schema = Schema.infer(pd.DataFrame({"c": [True, False]}))
    with pytest.raises(SchemaError, match=r"column 'c' has categories \['maybe'\]"):
        schema.encode(pd.DataFrame({"c": ["TRUE", "maybe"]}), handle_unknown="error")


def test_a_category_read_another_way_does_not_grow_the_vocabulary():
    model = NaiveBayes().partial_fit(
        pd.DataFrame({"c": [True, False, True]}), ["a", "b", "a"], classes=["a", "b"]
    )
    model.partial_fit(pd.DataFrame({"c": ["TRUE", "FALSE", "maybe"]}), ["a", "b", "b"])
    assert model.schema_.column("c").categories == (False, True, "maybe")
    whole = NaiveBayes().fit(
        pd.DataFrame({"c": [True, False, True, True, False, "maybe"]}), list("abaabb")
    )
    np.testing.assert_allclose(
        model.predict_proba(pd.DataFrame({"c": [True, "maybe"]})),
        whole.predict_proba(pd.DataFrame({"c": [True, "maybe"]})),
    )


# ---------------------------------------------------------------- identifiers
def _car_with_id(ids):
    X, y = datasets.load("car")
    return X.assign(patient_id=ids(len(X))), y, X


def _cv_log_loss(model, X, y):
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    return log_loss(y, cross_val_predict(model, X, y, cv=cv, method="predict_proba"))


def test_identifier_column_is_left_out_with_a_warning_and_recorded():
    X, y, _ = _car_with_id(lambda n: [f"P{i:05d}" for i in range(n)])
    with pytest.warns(IdentifierWarning, match=r"column 'patient_id' looks like an identifier"):
        model = TAN().fit(X, y)
    assert model.schema_.ignored == ("patient_id",)
    assert "patient_id" not in model.schema_.names
    assert list(model.feature_names_in_) == list(X.columns)
    # predicting ignores it, whether given, given with new values, or not given at all
    expected = model.predict_proba(X)
    again = X.assign(patient_id=[f"Q{i}" for i in range(len(X))])
    np.testing.assert_array_equal(model.predict_proba(again), expected)
    np.testing.assert_array_equal(model.predict_proba(X.drop(columns="patient_id")), expected)
    with pytest.warns(UserWarning, match="valid feature names"):  # by position: all columns
        np.testing.assert_array_equal(model.predict_proba(X.to_numpy()), expected)


@pytest.mark.parametrize("kind", ["text", "integer codes"])
def test_tan_with_an_identifier_scores_as_without_it(kind):
    # the user trial: 569 distinct patient ids in 569 rows took TAN's log-loss from 0.204 to 0.514
    if kind == "text":
        X, y, plain = _car_with_id(lambda n: [f"P{i:05d}" for i in range(n)])
        model = TAN()
    else:
        X, y, plain = _car_with_id(lambda n: np.random.default_rng(0).permutation(n))
        model = TAN(categorical_features="all")
    with pytest.warns(IdentifierWarning, match="'patient_id'"):
        got = _cv_log_loss(model, X, y)
    assert got == pytest.approx(_cv_log_loss(TAN(), plain, y), abs=1e-12)


def test_declared_identifier_is_kept():
    X, y, plain = _car_with_id(lambda n: [f"P{i:05d}" for i in range(n)])
    with warnings.catch_warnings():
        warnings.simplefilter("error", IdentifierWarning)
        model = TAN(categories={"patient_id": sorted(X["patient_id"])})
        kept = _cv_log_loss(model, X, y)
    assert kept > _cv_log_loss(TAN(), plain, y) + 0.1  # what the warning protects from


def test_near_identifiers_of_text_and_short_columns():
    n = 300
    near = [f"id{i}" for i in range(n - 2)] + ["id0", "id1"]  # 2 repeats in 300: under 1%
    assert identifier_reason(pd.Series(near)) == "298 different values in its 300 rows"
    assert identifier_reason(pd.Series(near[:100] + near[:5])) is None  # 5 in 105: too many
    assert identifier_reason(pd.Series([f"id{i}" for i in range(19)])) is None  # too few rows
    codes = pd.Series(list(range(n - 2)) + [0, 1])
    assert identifier_reason(codes) is None  # whole numbers: all distinct or nothing


def test_numeric_identifier_is_kept_with_a_warning():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"row_id": np.arange(60) + 1000, "x": rng.normal(size=60)})
    y = np.repeat([0, 1], 30)
    with pytest.warns(IdentifierWarning, match=r"column 'row_id' holds a different whole number"):
        model = NaiveBayes(discretize=None).fit(X, y)
    assert model.schema_.column("row_id").kind == "numeric"
    assert model.schema_.ignored == ()
    assert numeric_identifier_reason(pd.Series(rng.normal(size=60))) is None
    assert numeric_identifier_reason(pd.Series(np.arange(60) % 7)) is None
    assert numeric_identifier_reason(pd.Series(rng.normal(size=60) * 1e300)) is None


def test_a_model_that_ignores_a_column_saves_and_loads(tmp_path):
    X, y, _ = _car_with_id(lambda n: [f"P{i:05d}" for i in range(n)])
    with pytest.warns(IdentifierWarning):
        model = TAN().fit(X, y)
    path = bayeskit.save(model, tmp_path / "tan.bkm")
    back = bayeskit.load(path)
    assert back.schema_ == model.schema_
    np.testing.assert_array_equal(back.predict_proba(X), model.predict_proba(X))


def test_schema_inputs_round_trip_and_are_checked():
    with pytest.warns(IdentifierWarning, match="'id'"):
        schema = Schema.infer(
            pd.DataFrame({"a": ["x", "y"] * 15, "id": [f"{i}" for i in range(30)]})
        )
    assert schema.ignored == ("id",)
    assert Schema.from_dict(schema.to_dict()) == schema
    with pytest.raises(SchemaError, match="X has 1 features, but the model was fitted with 2"):
        schema.encode(np.array([["x"], ["y"]], dtype=object))


def test_edited_inputs_are_refused_on_load(tmp_path):
    import json
    import zipfile

    X, y, _ = _car_with_id(lambda n: [f"P{i:05d}" for i in range(n)])
    with pytest.warns(IdentifierWarning):
        path = bayeskit.save(NaiveBayes().fit(X, y), tmp_path / "nb.bkm")
    with zipfile.ZipFile(path) as z:
        files = {n: z.read(n) for n in z.namelist()}
    doc = json.loads(files["bayeskit.json"])
    doc["fitted"]["schema"]["inputs"] = doc["fitted"]["schema"]["inputs"][::-1]
    from bayeskit.io import _canonical, _sha256

    doc.pop("metadata_sha256")
    doc["metadata_sha256"] = _sha256(_canonical(doc))
    files["bayeskit.json"] = json.dumps(doc).encode()
    bad = tmp_path / "bad.bkm"
    with zipfile.ZipFile(bad, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    with pytest.raises(ModelFileError, match="inputs"):
        bayeskit.load(bad)


# ---------------------------------------------------------------- naming rows
def test_rows_of_python_data_are_0_based_positions_and_of_files_lines():
    frame = pd.DataFrame({"x": [1.0, 2.0, np.inf]}, index=[10, 11, 12])
    schema = Schema.infer(pd.DataFrame({"x": [1.0, 2.0]}))
    with pytest.raises(SchemaError, match=r"infinite value \(row 2\)"):
        schema.encode(frame)
    with pytest.raises(SchemaError, match=r"infinite value \(line 4\)"):
        schema.encode(label_file_lines(frame.reset_index(drop=True)))
    text = pd.DataFrame({"x": pd.Series(["1", "2", "three"], dtype=object)})
    with pytest.raises(SchemaError, match=r"holds 'three' \(str\) in line 4"):
        schema.encode(label_file_lines(text))
    assert row_name(None, 5) == "row 5"
