"""Schema inference, encoding and the checks at the data boundary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit.data import Schema, as_frame
from bayeskit.exceptions import SchemaError, UnknownCategoryWarning


def _frame():
    return pd.DataFrame(
        {
            "color": ["red", "blue", "red", None],
            "size": [1.5, 2.0, np.nan, 0.5],
            "n": [1, 2, 3, 2],
            "ok": [True, False, True, True],
        }
    )


def test_dtype_rule_kinds():
    schema = Schema.infer(_frame())
    assert [c.kind for c in schema.columns] == ["categorical", "numeric", "numeric", "categorical"]


def test_vocabulary_sorted_and_missing_excluded():
    assert Schema.infer(_frame()).column("color").categories == ("blue", "red")


def test_pandas_category_keeps_declared_order_and_unused():
    s = pd.Categorical(["b", "a"], categories=["c", "b", "a"])
    schema = Schema.infer(pd.DataFrame({"x": s}))
    assert schema.column("x").categories == ("c", "b", "a")
    assert schema.encode(pd.DataFrame({"x": s})).codes.ravel().tolist() == [1, 2]


def test_infer_rule_makes_small_integer_columns_categorical():
    df = pd.DataFrame({"code": [0, 1, 2, 1], "amount": [0.5, 1.25, 3.0, 2.0]})
    schema = Schema.infer(df, categorical_features="infer")
    assert schema.column("code").kind == "categorical"
    assert schema.column("amount").kind == "numeric"


def test_override_by_name_position_and_mask():
    df = _frame()[["size", "n"]]
    by_name = Schema.infer(df, categorical_features=["n"])
    by_pos = Schema.infer(df, categorical_features=[1])
    by_mask = Schema.infer(df, categorical_features=[False, True])
    assert by_name == by_pos == by_mask
    assert by_name.column("n").categories == (1, 2, 3)


def test_declared_domain_includes_unseen_values():
    df = pd.DataFrame({"w": [2, 3, 4]})
    schema = Schema.infer(df, categories={"w": [0, 1, 2, 3, 4]})
    assert schema.column("w").categories == (0, 1, 2, 3, 4)
    assert schema.encode(df).codes.ravel().tolist() == [2, 3, 4]


def test_value_outside_declared_domain_is_refused():
    with pytest.raises(SchemaError, match="column 'w' has values"):
        Schema.infer(pd.DataFrame({"w": [7]}), categories={"w": [0, 1]})


def test_encode_missing_marks():
    enc = Schema.infer(_frame()).encode(_frame())
    assert enc.codes[3, 0] == -1
    assert np.isnan(enc.values[2, 0])


def test_unknown_category_is_missing_by_default():
    schema = Schema.infer(_frame())
    new = _frame().assign(color=["green", "red", "blue", "red"])
    assert schema.encode(new).codes[:, 0].tolist() == [-1, 1, 0, 1]


def test_unknown_category_warns_when_asked():
    schema = Schema.infer(_frame())
    new = _frame().assign(color=["green", "red", "blue", "red"])
    with pytest.warns(UnknownCategoryWarning, match="column 'color'.*'green'"):
        schema.encode(new, handle_unknown="warn")


def test_unknown_category_error_names_column_and_value():
    schema = Schema.infer(_frame())
    new = _frame().assign(color=["green", "red", "blue", "red"])
    with pytest.raises(SchemaError, match=r"column 'color' has categories \['green'\]"):
        schema.encode(new, handle_unknown="error")


def test_infinite_numeric_value_is_refused_with_column_and_row():
    schema = Schema.infer(_frame())
    bad = _frame().assign(size=[1.0, np.inf, 2.0, 3.0])
    with pytest.raises(SchemaError, match="column 'size' holds an infinite value \\(row 1\\)"):
        schema.encode(bad)


def test_text_in_numeric_column_is_refused():
    schema = Schema.infer(_frame())
    bad = _frame().assign(size=["a", "b", "c", "d"])
    with pytest.raises(SchemaError, match="column 'size' is numeric but holds 'a'"):
        schema.encode(bad)


def test_missing_and_unexpected_columns_are_named():
    schema = Schema.infer(_frame())
    bad = _frame().rename(columns={"size": "width"})
    with pytest.raises(SchemaError, match=r"missing \['size'\], unexpected \['width'\]"):
        schema.encode(bad)


def test_reordered_columns_are_selected_by_name():
    schema = Schema.infer(_frame())
    a = schema.encode(_frame())
    b = schema.encode(_frame()[["ok", "n", "size", "color"]])
    np.testing.assert_array_equal(a.codes, b.codes)
    np.testing.assert_array_equal(a.values, b.values)


def test_array_feature_count_mismatch():
    schema = Schema.infer(np.zeros((3, 2)))
    with pytest.raises(SchemaError, match="X has 3 features, but the model was fitted with 2"):
        schema.encode(np.zeros((3, 3)))


def test_empty_data_is_refused():
    with pytest.raises(SchemaError, match="0 samples"):
        Schema.infer(pd.DataFrame({"a": []}))


def test_one_dimensional_input_is_refused():
    with pytest.raises(SchemaError, match="2-D"):
        Schema.infer(np.zeros(3))


def test_list_of_dicts():
    schema = Schema.infer([{"a": "x", "b": 1.0}, {"a": "y", "b": 2.0}])
    assert schema.names == ["a", "b"]
    assert schema.input_names


def test_object_array_of_numbers_is_numeric():
    X = np.array([[1.0, "a"], [2.5, "b"]], dtype=object)
    schema = Schema.infer(X)
    assert [c.kind for c in schema.columns] == ["numeric", "categorical"]


def test_extend_keeps_sorted_vocabulary_and_remaps():
    schema = Schema.infer(pd.DataFrame({"c": ["b", "d"]}))
    grown, remap = schema.extend(pd.DataFrame({"c": ["a", "c"]}))
    assert grown.column("c").categories == ("a", "b", "c", "d")
    assert remap[0].tolist() == [1, 3]


def test_round_trip_dict():
    schema = Schema.infer(_frame())
    assert Schema.from_dict(schema.to_dict()) == schema


def test_input_is_not_modified():
    df = _frame()
    before = df.copy()
    Schema.infer(df).encode(df)
    pd.testing.assert_frame_equal(df, before)


def test_as_frame_rejects_sparse():
    sp = pytest.importorskip("scipy.sparse")
    with pytest.raises(TypeError, match="sparse"):
        as_frame(sp.csr_matrix(np.eye(2)))


def test_code_dtype_is_compact():
    enc = Schema.infer(_frame()).encode(_frame())
    assert enc.codes.dtype == np.int8


# ---------------------------------------------------------------- discretization in the schema
def test_discretize_stores_cuts_and_bins_out_of_range_values():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0], "c": list("abcabc")})
    y = np.array([0, 0, 0, 1, 1, 1])
    schema = Schema.infer(X).discretize(X, y, 2)
    col = schema.column("x")
    assert col.kind == "categorical"
    assert col.cuts == (6.5,)
    assert schema.column("c").cuts is None
    codes = schema.encode(
        pd.DataFrame({"x": [-100.0, 6.5, 6.51, 1e9, np.nan], "c": list("aaaaa")})
    ).codes
    assert codes[:, 0].tolist() == [0, 0, 1, 1, -1]


def test_discretize_equal_width_zaki_table_18_1():
    # Zaki & Meira Table 18.1: sepal length in 4 equal-width bins over [4.3, 7.9]
    X = pd.DataFrame({"sl": [4.3, 5.0, 5.2, 5.3, 6.1, 6.5, 7.0, 7.9]})
    schema = Schema.infer(X).discretize(X, method="equal-width", n_bins=4)
    np.testing.assert_allclose(schema.column("sl").cuts, [5.2, 6.1, 7.0])
    assert schema.encode(X).codes.ravel().tolist() == [0, 0, 0, 1, 1, 2, 2, 3]


def test_discretized_schema_round_trips():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0]})
    schema = Schema.infer(X).discretize(X, np.array([0, 0, 0, 1, 1, 1]), 2)
    assert Schema.from_dict(schema.to_dict()) == schema
