"""The base class's contract: what each model declares (class attributes) matches what it takes
(constructor parameters) and does (the hooks it overrides), so the base reads declarations and
never probes a model's attributes."""

from __future__ import annotations

import inspect

import pytest

from bayeskit.classifiers import MODELS, BayesClassifier
from bayeskit.classifiers._em import LearnsFromIncompleteRows

CLASSES = sorted(MODELS.values(), key=lambda cls: cls.__name__)


def test_the_base_is_abstract_in_exactly_the_three_hooks_every_model_provides():
    assert inspect.isabstract(BayesClassifier)
    assert BayesClassifier.__abstractmethods__ == {"_count", "_estimate", "_log_likelihood"}
    with pytest.raises(TypeError, match="abstract"):
        BayesClassifier()


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_a_model_declares_the_parameters_it_takes(cls):
    params = set(cls._get_param_names())
    assert {"priors", "prior_alpha"} <= params
    tabular = {"categorical_features", "categories", "handle_unknown"}
    assert cls._reads_tables == (tabular <= params)
    assert cls._reads_tables == bool(tabular & params)
    assert cls._bins_numeric == ({"discretize", "n_bins"} <= params)
    em = {"unlabelled", "unlabelled_weight", "max_iter", "tol"}
    assert cls._learns_unlabelled == (em <= params)
    assert cls._learns_unlabelled == issubclass(cls, LearnsFromIncompleteRows)
    assert (cls._missing_em is not None) == ("missing" in params)
    assert cls._missing_em in (None, "counting", "network")
    if cls._missing_em is not None:
        assert cls._learns_unlabelled  # the EM paths come with LearnsFromIncompleteRows


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_a_model_declares_the_row_scores_it_adds(cls):
    overrides = cls._after_count is not BayesClassifier._after_count
    assert cls._scores_rows == overrides
