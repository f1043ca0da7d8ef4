"""Tests for the bundled data sets, bayeskit.data.datasets."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

import numpy as np
import pandas as pd
import pytest

from bayeskit.data import datasets

PACKAGE = "bayeskit.data.datasets"

# (rows, features after dropping identifiers), as printed by load().
SHAPES = {
    "age_credit_a": (7, 2),
    "age_credit_b": (7, 2),
    "age_numeric_credit": (7, 2),
    "buys_computer": (14, 4),
    "car": (1728, 6),
    "dice_coin": (6, 1),
    "iris": (150, 4),
    "mushroom": (8124, 22),
    "nursery": (12958, 8),
    "sweet": (5, 2),
    "watermelon3": (17, 8),
    "zaki_q1": (6, 2),
    "zaki_q2": (9, 3),
}

TARGETS = {
    "age_credit_a": "buys_computer",
    "age_credit_b": "buys_computer",
    "age_numeric_credit": "buys_computer",
    "buys_computer": "buys_computer",
    "car": "target",
    "dice_coin": "coin",
    "iris": "species",
    "mushroom": "target",
    "nursery": "target",
    "sweet": "sweet",
    "watermelon3": "ripe",
    "zaki_q1": "class",
    "zaki_q2": "class",
}


def _package_files():
    root = resources.files(PACKAGE)
    return {item.name: item for item in root.iterdir() if item.is_file()}


def test_names_lists_all_bundled_sets():
    assert datasets.names() == sorted(SHAPES)
    assert datasets.names() == sorted(datasets.names())


def test_default_is_car_and_bundled():
    assert datasets.DEFAULT == "car"
    assert datasets.DEFAULT in datasets.names()
    catalog = json.loads(resources.files(PACKAGE).joinpath("catalog.json").read_text("utf-8"))
    assert catalog["default"] == datasets.DEFAULT


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_load_shape_and_dtypes(name):
    X, y = datasets.load(name)
    info = datasets.describe(name)
    assert X.shape == SHAPES[name]
    assert isinstance(X, pd.DataFrame)
    assert isinstance(y, pd.Series)
    assert len(y) == len(X)
    assert y.name == TARGETS[name] == info["target"]
    assert isinstance(y.dtype, pd.CategoricalDtype)
    assert not X.isna().any().any()
    assert not y.isna().any()
    assert list(X.columns) == [f["name"] for f in info["features"]]
    assert info["target"] not in X.columns
    for column in info["drop"]:
        assert column not in X.columns
    assert info["rows"] == len(X)
    assert info["n_features"] == X.shape[1]
    counts = {str(k): int(v) for k, v in y.value_counts().items() if v}
    assert counts == info["class_counts"]
    for feature in info["features"]:
        col = X[feature["name"]]
        if feature["type"] == "numeric":
            assert col.dtype == np.float64
        else:
            assert feature["type"] == "categorical"
            assert isinstance(col.dtype, pd.CategoricalDtype)
            declared = feature.get("categories")
            expected = declared if declared is not None else sorted(col.unique().tolist())
            assert list(col.cat.categories) == expected


def test_printed_shapes(capsys):
    for name in datasets.names():
        X, y = datasets.load(name)
        print(name, X.shape, y.shape)
    out = capsys.readouterr().out
    assert "watermelon3 (17, 8) (17,)" in out


def test_declared_domains():
    X, _ = datasets.load("sweet")
    assert list(X["color"].cat.categories) == [0, 1, 2, 3]
    assert list(X["weight"].cat.categories) == [0, 1, 2, 3, 4]
    # weight 0 and 1 never occur in the data but belong to the declared domain
    assert set(X["weight"]) == {2, 3, 4}
    X, y = datasets.load("zaki_q1")
    assert list(X["car"].cat.categories) == ["sports", "vintage", "suv", "truck"]
    assert "truck" not in set(X["car"])
    assert X["age"].tolist() == [25.0, 20.0, 25.0, 45.0, 20.0, 25.0]
    assert y.tolist() == ["L", "H", "L", "H", "H", "H"]


def test_declared_categories_only_where_given():
    declared = {
        (name, f["name"]): f["categories"]
        for name in datasets.names()
        for f in datasets.describe(name)["features"]
        if "categories" in f
    }
    assert declared == {
        ("sweet", "color"): [0, 1, 2, 3],
        ("sweet", "weight"): [0, 1, 2, 3, 4],
        ("zaki_q1", "car"): ["sports", "vintage", "suv", "truck"],
    }


def test_identifier_columns_dropped():
    assert datasets.describe("zaki_q1")["drop"] == ["id"]
    assert datasets.describe("zaki_q2")["drop"] == ["id"]
    assert datasets.describe("dice_coin")["drop"] == ["trial"]
    X, y = datasets.load("dice_coin")
    assert list(X.columns) == ["dice"]
    assert y.name == "coin"
    assert list(y.cat.categories) == ["H", "T"]
    assert X["dice"].tolist() == [1, 2, 1, 3, 4, 1]


def test_watermelon_labels_are_strings():
    X, y = datasets.load("watermelon3")
    assert list(y.cat.categories) == ["false", "true"]
    assert y.iloc[0] == "true"
    assert X.iloc[0]["color"] == "green"
    assert X.iloc[0]["density"] == pytest.approx(0.697)
    assert X.iloc[0]["sugar"] == pytest.approx(0.460)


def test_pmlb_sets_have_integer_categories():
    X, y = datasets.load("nursery")
    assert list(y.cat.categories) == [0, 1, 3, 4]
    assert list(X["finance"].cat.categories) == [0, 1]
    X, y = datasets.load("car")
    assert list(y.cat.categories) == [0, 1, 2, 3]
    assert all(isinstance(X[c].dtype, pd.CategoricalDtype) for c in X.columns)
    assert y.value_counts().sort_index().tolist() == [384, 69, 1210, 65]


def test_iris_is_uci_version():
    X, y = datasets.load("iris")
    # 1-based row 38: UCI sepal width 3.1, petal length 1.5 (load_iris: 3.6, 1.4)
    assert X.iloc[37]["sepal_width"] == 3.1
    assert X.iloc[37]["petal_length"] == 1.5
    # 1-based row 35: UCI petal width 0.1 (load_iris: 0.2)
    assert X.iloc[34]["petal_width"] == 0.1
    assert y.value_counts().tolist() == [50, 50, 50]
    setosa = X[y == "setosa"]
    assert setosa["sepal_length"].mean() == pytest.approx(5.006)
    assert setosa["sepal_width"].mean() == pytest.approx(3.418)
    description = datasets.describe("iris")
    assert description["file"] == "iris_uci.csv"
    assert "UCI" in description["description"]
    assert "load_iris" in description["description"]


def test_iris_differs_from_sklearn_in_two_rows():
    sklearn_datasets = pytest.importorskip("sklearn.datasets")
    sk = sklearn_datasets.load_iris().data
    X, _ = datasets.load("iris", as_frame=False)
    rows = sorted({int(i) for i in np.nonzero(~np.isclose(sk, X))[0]})
    assert rows == [34, 37]


def test_as_frame_false():
    X, y = datasets.load("iris", as_frame=False)
    assert isinstance(X, np.ndarray)
    assert X.dtype == np.float64
    assert X.shape == (150, 4)
    assert y.shape == (150,)
    X, y = datasets.load("zaki_q2", as_frame=False)
    assert X.dtype == object
    assert X[0].tolist() == ["T", "T", 5.0]
    assert y.tolist()[:3] == ["Y", "Y", "N"]


def test_unknown_name():
    with pytest.raises(ValueError, match=r"unknown data set 'foo'; known: age_credit_a, ") as info:
        datasets.load("foo")
    for name in datasets.names():
        assert name in str(info.value)
    with pytest.raises(ValueError, match="unknown data set 'foo'"):
        datasets.describe("foo")


def test_describe_returns_a_copy():
    info = datasets.describe("sweet")
    info["features"][0]["categories"].append(99)
    info["target"] = "changed"
    assert datasets.describe("sweet")["features"][0]["categories"] == [0, 1, 2, 3]
    assert datasets.describe("sweet")["target"] == "sweet"
    X, _ = datasets.load("sweet")
    assert list(X["color"].cat.categories) == [0, 1, 2, 3]


def test_catalog_entries_complete():
    catalog = json.loads(resources.files(PACKAGE).joinpath("catalog.json").read_text("utf-8"))
    files = _package_files()
    listed = set()
    for entry in catalog["datasets"]:
        for key in ("name", "file", "target", "features", "drop", "description", "source"):
            assert entry.get(key) is not None, (entry["name"], key)
        assert entry["citation"]
        assert all(f["type"] in ("categorical", "numeric") for f in entry["features"])
        assert entry["file"] in files
        digest = hashlib.sha256(files[entry["file"]].read_bytes()).hexdigest()
        assert digest == entry["sha256"], entry["name"]
        listed.add(entry["file"])
        if entry["collection"] == "pmlb":
            assert entry["source"]["repository"] == "EpistasisLab/pmlb"
            assert "license" in entry
            assert any("PMLB" in c for c in entry["citation"])
    data_files = {n for n in files if n.endswith((".csv", ".csv.gz"))}
    assert data_files == listed


def test_files_are_plain_csv():
    files = _package_files()
    for name in (
        "watermelon3.csv",
        "buys_computer.csv",
        "age_credit_a.csv",
        "age_credit_b.csv",
        "age_numeric_credit.csv",
        "dice_coin.csv",
        "sweet.csv",
        "zaki_q1.csv",
        "zaki_q2.csv",
        "iris_uci.csv",
    ):
        text = files[name].read_text(encoding="utf-8")
        assert "\r" not in text
        header = text.splitlines()[0]
        assert "," in header
    for name in ("car.csv.gz", "mushroom.csv.gz", "nursery.csv.gz"):
        assert files[name].read_bytes()[:2] == b"\x1f\x8b"


def test_no_file_refers_to_shared():
    # the development checkout's shared folder is not in a user's clone: nothing may point there
    shared = "shared"
    forbidden = (f"../{shared}", f"/work/{shared}", f"{shared}/datasets")
    for name, item in _package_files().items():
        if name.endswith(".gz"):
            continue
        text = item.read_bytes().decode("utf-8", errors="replace")
        for path in forbidden:
            assert path not in text, name


def test_arrays_from_load_fit_a_classifier():
    from bayeskit import NaiveBayes

    X, y = datasets.load("car", as_frame=False)
    assert NaiveBayes(categorical_features="all").fit(X, y).score(X, y) > 0.8
