"""bayeskit.data.read_arff: ARFF files by scipy's reader, typed as they declare."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

from bayeskit.classifiers import NaiveBayes
from bayeskit.data import read_arff, read_chunks

# the weather data with a numeric humidity (Witten, Frank and Hall, *Data Mining*, Table 1.3),
# a declared outlook 'foggy' that no row uses, and two missing values
WEATHER = """% comment lines are skipped
@RELATION 'weather numeric'

@attribute outlook {sunny, overcast, rainy, foggy}
@attribute humidity numeric
@attribute 'is windy' {TRUE, FALSE}
@attribute play {yes, no}

@data
sunny,85,FALSE,no
sunny,90,TRUE,no
overcast,86,FALSE,yes
rainy,?,FALSE,yes
?,80,FALSE,yes
rainy,70,TRUE,no
"""


@pytest.fixture
def weather(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(WEATHER)
    return path


def test_nominal_attributes_are_categoricals_of_their_declared_values(weather):
    frame = read_arff(weather)
    assert list(frame.columns) == ["outlook", "humidity", "is windy", "play"]
    assert isinstance(frame["outlook"].dtype, pd.CategoricalDtype)
    assert list(frame["outlook"].cat.categories) == ["sunny", "overcast", "rainy", "foggy"]
    assert list(frame["is windy"].cat.categories) == ["TRUE", "FALSE"]
    assert frame["play"].tolist() == ["no", "no", "yes", "yes", "yes", "no"]
    assert all(isinstance(v, str) for v in frame["outlook"].dropna())  # decoded, not bytes
    assert frame.attrs["relation"] == "weather numeric"


def test_numeric_attributes_stay_numeric_and_question_marks_are_missing(weather):
    frame = read_arff(weather)
    assert frame["humidity"].dtype == np.float64
    assert frame["humidity"].isna().tolist() == [False, False, False, True, False, False]
    assert frame["outlook"].isna().tolist() == [False, False, False, False, True, False]
    assert frame["humidity"].sum() == 85 + 90 + 86 + 80 + 70


def test_gzipped_and_non_ascii_files(tmp_path):
    text = WEATHER.replace("overcast", "nuageux é").replace("'is windy'", "venté")
    path = tmp_path / "météo.arff.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(text)
    frame = read_arff(path)
    assert "venté" in frame.columns
    assert list(frame["outlook"].cat.categories)[1] == "nuageux é"
    assert frame["outlook"].tolist()[2] == "nuageux é"
    latin = tmp_path / "latin.arff"
    latin.write_bytes(text.encode("latin-1"))
    assert read_arff(latin)["outlook"].tolist()[2] == "nuageux é"


def test_a_model_learns_the_declared_domain(weather):
    frame = read_arff(weather)
    model = NaiveBayes().fit(frame.drop(columns="play"), frame["play"])
    outlook = next(c for c in model.schema_.categorical if c.name == "outlook")
    assert sorted(outlook.categories) == ["foggy", "overcast", "rainy", "sunny"]


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ("@attribute s string\n@attribute c {a, b}\n@data\nhi,a\n", "String attributes"),
        ("@attribute n numeric\n@attribute c {a, b}\n@data\n{0 1, 1 b}\n", "rows are sparse"),
        ("@attribute n numeric\n@attribute c {a, b}\n@data\n1,z\n", "z value not in"),
    ],
    ids=["string attribute", "sparse rows", "undeclared value"],
)
def test_what_scipy_cannot_read_is_refused_by_file_and_reason(tmp_path, body, match):
    path = tmp_path / "bad.arff"
    path.write_text(f"@relation r\n{body}")
    with pytest.raises(ValueError, match=match) as info:
        read_arff(path)
    assert "bad.arff" in str(info.value)


def test_missing_file_and_chunks(tmp_path, weather):
    with pytest.raises(FileNotFoundError, match="file not found"):
        read_arff(tmp_path / "none.arff")
    with pytest.raises(ValueError, match=r"read whole \(bayeskit.data.read_arff\)"):
        read_chunks(weather, chunksize=2)
