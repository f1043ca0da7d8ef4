"""Degenerate training data, the same for every registered model: no rows, no feature columns,
one class, a column (or every column) with nothing observed. Each model either fits (and then
predicts finite probabilities summing to 1) or refuses with the one message all models share;
and a fit too large for memory is refused before it allocates."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from bayeskit.classifiers import MODELS, FullBayes, MultinomialNaiveBayes, NaiveBayes
from bayeskit.classifiers import _family as family
from bayeskit.data import datasets
from bayeskit.exceptions import SchemaError

TABULAR = [n for n, cls in MODELS.items() if "categorical_features" in cls().get_params()]
COUNTS = [n for n in MODELS if n not in TABULAR]  # the models of count matrices


def _data(name):
    X, y = datasets.load("watermelon3" if name in TABULAR else "iris")
    return X, np.asarray(y)


def _empty(X, y):
    return {
        "no rows": (X.iloc[:0], y[:0], "0 sample(s)"),
        "no rows, no columns": (pd.DataFrame(), y[:0], "0 sample(s)"),
        "no columns": (X.iloc[:, :0], y, "0 feature(s)"),
        "no columns, as an array": (np.zeros((len(y), 0)), y, "0 feature(s)"),
        "no rows, as an array": (np.zeros((0, X.shape[1])), y[:0], "0 sample(s)"),
    }


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize(
    "case",
    [
        "no rows",
        "no rows, no columns",
        "no columns",
        "no columns, as an array",
        "no rows, as an array",
    ],
)
def test_empty_data_is_refused_with_the_shared_message(name, case):
    X, y, message = _empty(*_data(name))[case]
    with pytest.raises(ValueError, match=rf"{re.escape(message)} \(shape=\(\d+, \d+\)\) while a"):
        MODELS[name]().fit(X, y)


@pytest.mark.parametrize("name", COUNTS)
@pytest.mark.parametrize("shape", [(0, 4), (3, 0), (0, 0)])
def test_count_models_refuse_empty_sparse_matrices(name, shape):
    X = sp.csr_matrix(shape)
    with pytest.raises(ValueError, match=r"while a minimum of 1 is required"):
        MODELS[name]().fit(X, np.arange(shape[0]) % 2)


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("rows", [slice(None), slice(0, 1)])
def test_one_class_is_refused_naming_it(name, rows):
    X, y = _data(name)
    X, y = X.iloc[rows], np.full(len(y), y[0])[rows]
    label = re.escape(repr(y[0].item()))
    with pytest.raises(ValueError, match=rf"y has only 1 class \({label}\).*at least 2 classes"):
        MODELS[name]().fit(X, y)


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("columns", ["first", "all"])
def test_columns_with_nothing_observed_fit_or_are_refused_by_name(name, columns):
    X, y = _data(name)
    emptied = list(X.columns[:1]) if columns == "first" else list(X.columns)
    X = X.assign(**{c: np.nan for c in emptied})
    if name in COUNTS:  # counts have no missing mark: scikit-learn's check names NaN
        with pytest.raises(ValueError, match="NaN"):
            MODELS[name]().fit(X, y)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (models may warn that a column carries nothing)
        proba = MODELS[name]().fit(X, y).predict_proba(X)
    assert proba.shape == (len(y), 2)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# ---------------------------------------------------------------------- memory
@pytest.fixture
def one_mebibyte(monkeypatch):
    monkeypatch.setattr(family, "MEMORY_LIMIT", 2**20)


def _numeric(d, n_classes, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(4 * n_classes, d))
    return X, np.arange(4 * n_classes) % n_classes


@pytest.mark.parametrize(("d", "n_classes"), [(200, 3), (100, 10), (20, 300)])
@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_full_bayes_refuses_covariances_beyond_the_limit_before_allocating(
    one_mebibyte, d, n_classes, method
):
    X, y = _numeric(d, n_classes)
    model = FullBayes()
    kwargs = {"classes": np.arange(n_classes)} if method == "partial_fit" else {}
    with pytest.raises(MemoryError) as info:
        getattr(model, method)(X, y, **kwargs)
    message = str(info.value)
    assert f"{d:,} x {d:,} covariance matrix for each of {n_classes:,} classes" in message
    assert f"{n_classes * d * d:,} cells" in message
    assert "NaiveBayes" in message
    assert "fewer" in message
    assert not hasattr(model, "stats_")


@pytest.mark.parametrize(("d", "n_classes"), [(60, 3), (20, 10)])
def test_full_bayes_within_the_limit_fits(one_mebibyte, d, n_classes):
    X, y = _numeric(d, n_classes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # singular covariances: fewer rows than features
        model = FullBayes().fit(X, y)
    assert model.covariance_.shape == (n_classes, d, d)


def test_the_limit_is_the_one_the_family_models_use(one_mebibyte):
    # a TAN whose pair tables exceed the limit is refused by the same check and wording;
    # naive Bayes and the count models hold no such tables and fit
    X = pd.DataFrame({f"x{j}": [str((i * (j + 1)) % 50) for i in range(300)] for j in range(5)})
    y = np.arange(300) % 2
    with pytest.raises(MemoryError, match=r"GiB to fit, more than the 0\.0 GiB available; use"):
        MODELS["tan"](discretize=None).fit(X, y)
    assert NaiveBayes().fit(X, y).predict_proba(X).shape == (300, 2)
    counts = MultinomialNaiveBayes().fit(np.ones((4, 3)), [0, 1, 0, 1])
    assert counts.feature_count_.tolist() == [[2.0] * 3, [2.0] * 3]


@pytest.mark.parametrize("ddof", [0, 1, 10**6])
@pytest.mark.parametrize("big", [1e300, -1e300, 1e200])
def test_full_bayes_names_a_column_whose_classes_are_too_far_apart_to_pool(ddof, big):
    # each class's own scatter is finite, but the pooled one (the covariance of a class of too
    # few rows, and the scale of a ridge) overflows: refused naming the column, as at any fit
    X = np.array([[big, 1.0], [big, 2.0], [1.0, 3.0], [2.0, 5.0]])
    with pytest.raises(SchemaError, match=r"numeric columns \['x0'\] hold values too large"):
        FullBayes(ddof=ddof).fit(X, [0, 0, 1, 1])


@pytest.mark.parametrize("weight", [1e-310, 1e-320])
def test_full_bayes_names_classes_whose_weights_are_too_small_for_a_covariance(weight):
    X, y = _data("full-bayes")
    with pytest.raises(SchemaError, match=r"covariance of classes \[.*\] is beyond float64"):
        FullBayes().fit(X, y, sample_weight=np.full(len(y), weight))
