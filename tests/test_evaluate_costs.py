"""Cost-sensitive evaluation and evaluation on a separate test set."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import Perceptron

from bayeskit import NaiveBayes
from bayeskit.data import datasets
from bayeskit.evaluate import compare, cross_validate, holdout


@pytest.fixture(scope="module")
def iris():
    X, y = datasets.load("iris")
    return X, np.asarray(y)


def test_zero_one_costs_are_the_error_rate(iris):
    X, y = iris
    plain = cross_validate(NaiveBayes(), X, y, n_splits=5)
    costed = cross_validate(NaiveBayes(), X, y, n_splits=5, cost=1 - np.eye(3))
    np.testing.assert_array_equal(costed["accuracy"], plain["accuracy"])
    np.testing.assert_allclose(costed["cost"], 1 - plain["accuracy"], atol=1e-12)
    assert "cost" in costed["mean"]
    assert "cost" not in plain["mean"]


def test_a_costly_miss_moves_decisions_toward_that_class(iris):
    X, y = iris
    classes = np.unique(y)
    # missing the last class costs 20, any other error 1: fewer misses of it, more false alarms
    lam = pd.DataFrame(1 - np.eye(3), index=classes, columns=classes)
    lam.iloc[:2, 2] = 20.0
    plain = cross_validate(NaiveBayes(), X, y, n_splits=5)
    costed = cross_validate(NaiveBayes(), X, y, n_splits=5, cost=lam)
    missed = lambda cm: cm.iloc[2, :2].sum()  # noqa: E731
    alarms = lambda cm: cm.iloc[:2, 2].sum()  # noqa: E731
    assert missed(costed["confusion_matrix"]) < missed(plain["confusion_matrix"])
    assert alarms(costed["confusion_matrix"]) > alarms(plain["confusion_matrix"])
    # the mean cost is the confusion matrix weighted by the costs (rows truth, columns predicted)
    total = (costed["confusion_matrix"].to_numpy() * lam.to_numpy().T).sum()
    np.testing.assert_allclose(np.dot(costed["cost"], costed["n_test"]), total, rtol=1e-12)


def test_holdout_scores_the_model_fitted_on_the_training_set(iris):
    X, y = iris
    train, test = np.arange(0, 150, 2), np.arange(1, 150, 2)
    result = holdout(NaiveBayes(), X.iloc[train], y[train], X.iloc[test], y[test])
    model = NaiveBayes().fit(X.iloc[train], y[train])
    assert result["n_splits"] == 1
    assert result["accuracy"][0] == np.mean(model.predict(X.iloc[test]) == y[test])
    assert result["confusion_matrix"].to_numpy().sum() == len(test)
    assert result["n_train"].tolist() == [len(train)]


def test_compare_on_a_test_set_has_no_t_test(iris):
    X, y = iris
    models = {"nb": NaiveBayes(), "nb-gauss": NaiveBayes(discretize=None)}
    test = (X.iloc[1::2], y[1::2])
    table = compare(models, X.iloc[::2], y[::2], test=test, cost=1 - np.eye(3))
    assert table["n_splits"].tolist() == [1, 1]
    assert table["t_vs_best"].isna().all()
    np.testing.assert_allclose(table["cost"], 1 - table["accuracy"], atol=1e-12)


def test_costs_need_posteriors(iris):
    X, y = iris
    with pytest.raises(TypeError, match="Perceptron has no predict_proba"):
        cross_validate(Perceptron(), X, y, n_splits=3, cost=1 - np.eye(3))


def test_a_cost_matrix_of_the_wrong_shape_is_refused(iris):
    X, y = iris
    with pytest.raises(ValueError, match="cost matrix"):
        cross_validate(NaiveBayes(), X, y, n_splits=3, cost=np.ones((2, 2)))
