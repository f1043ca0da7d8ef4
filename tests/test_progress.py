"""progress=True shows a display from the Python API, as the command line does."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit import NaiveBayes
from bayeskit.data import datasets
from bayeskit.evaluate import compare, cross_validate
from bayeskit.networks import DAG, fit_em, learn_structure


@pytest.fixture(scope="module")
def weather():
    return datasets.load("car")


def _rain_data() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rain = rng.choice(["y", "n"], 300)
    wet = np.where(rng.random(300) < 0.9, rain, np.where(rain == "y", "n", "y")).astype(object)
    wet[rng.random(300) < 0.3] = None
    return pd.DataFrame({"rain": rain, "wet": wet})


def test_progress_true_shows_a_display_and_changes_nothing(capsys, weather):
    X, y = weather
    quiet = cross_validate(NaiveBayes(), X, np.asarray(y), n_splits=3, random_state=0)
    shown = cross_validate(
        NaiveBayes(), X, np.asarray(y), n_splits=3, random_state=0, progress=True
    )
    err = capsys.readouterr().err
    assert "cross-validation" in err
    assert "3/3" in err  # the folds done, of all
    np.testing.assert_array_equal(quiet["accuracy"], shown["accuracy"])


def test_every_long_function_takes_progress_true(capsys, weather):
    X, y = weather
    data = _rain_data()
    dag = DAG(edges=[("rain", "wet")])
    assert fit_em(dag, data, max_iter=5, progress=True).n_iter >= 1
    assert "EM" in capsys.readouterr().err
    learn_structure(data.dropna(), progress=True)
    assert "hill climbing" in capsys.readouterr().err
    compare({"nb": NaiveBayes()}, X, np.asarray(y), n_splits=2, progress=True)
    assert "compare" in capsys.readouterr().err
    chunks = [(X.iloc[:800], np.asarray(y)[:800]), (X.iloc[800:], np.asarray(y)[800:])]
    NaiveBayes().fit_chunks(chunks, progress=True)
    err = capsys.readouterr().err
    assert "NaiveBayes.fit_chunks" in err
    assert "pass 1" in err


def test_a_callable_still_gets_the_functions_own_arguments():
    seen = []
    fit_em(DAG(edges=[("rain", "wet")]), _rain_data(), max_iter=3, tol=0,
           progress=lambda it, ll: seen.append((it, ll)))  # fmt: skip
    assert [it for it, _ in seen] == [1, 2, 3]
    assert all(isinstance(ll, float) for _, ll in seen)


@pytest.mark.parametrize("bad", ["yes", 1, 0.5])
def test_progress_of_another_kind_is_refused_by_name(bad, weather):
    X, y = weather
    with pytest.raises(TypeError, match="progress must be True"):
        cross_validate(NaiveBayes(), X, np.asarray(y), n_splits=2, progress=bad)
