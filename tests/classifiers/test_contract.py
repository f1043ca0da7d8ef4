"""The base class's contract: what each model declares (class attributes) matches what it takes
(constructor parameters) and does (the hooks it overrides), so the base reads declarations and
never probes a model's attributes."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

from bayeskit.classifiers import KDB, MODELS, BayesClassifier, NetworkClassifier, SelectiveKDB
from bayeskit.classifiers._em import LearnsFromIncompleteRows
from bayeskit.data import datasets
from bayeskit.learning import STRUCTURE_LEARNERS, StructureLearner, learn_tree

CLASSES = sorted(MODELS.values(), key=lambda cls: cls.__name__)


@pytest.fixture(scope="module")
def car():
    return datasets.load("car")


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


def test_the_structure_pass_is_a_flag_of_a_fit_never_a_declaration():
    # set only while a two-pass fit's first pass runs, on the instance (KDB's own passes)
    assert BayesClassifier._structure_pass is False
    for cls in CLASSES:
        assert cls._structure_pass is False, cls.__name__


@pytest.mark.parametrize("cls", [KDB, SelectiveKDB], ids=lambda cls: cls.__name__)
def test_a_two_pass_model_on_dask_counts_what_fit_counts(car, cls):
    # dask's copies of the model that count the partitions are given the flag of the first
    # pass (_structure_pass), so they count the pairs alone; the structure chosen from their
    # sum, the second pass counts its families: the very counts and tables of fit
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    from bayeskit import dask as bkd

    X, y = car
    whole = cls().fit(X, y)
    with dask.config.set(scheduler="synchronous"):
        parts = bkd.fit(cls(), dd.from_pandas(X.assign(label=y), npartitions=3), "label")
    assert "_structure_pass" not in vars(parts)
    counts, expected = parts._counts(), whole._counts()
    assert counts.families == expected.families
    np.testing.assert_allclose(counts.counts, expected.counts, atol=1e-9)
    assert parts.structure_ == whole.structure_
    for got, want in zip(parts.log_cpt_, whole.log_cpt_, strict=True):
        np.testing.assert_allclose(got, want, atol=1e-12)


def test_a_learner_added_to_the_registry_is_a_network_classifier_structure(car, monkeypatch):
    # NetworkClassifier looks its structure names up in the one registry, and passes a learner
    # the score and those of its search settings the learner takes
    seen = {}

    def class_rooted_tree(data, score, *, max_parents=None):
        seen.update(score=score, max_parents=max_parents, nodes=data.nodes)
        return learn_tree(data, score, root=data.nodes[-1])

    learner = StructureLearner("class-tree", class_rooted_tree, True, "a tree from the class")
    monkeypatch.setitem(STRUCTURE_LEARNERS, "class-tree", learner)
    X, y = car
    model = NetworkClassifier(structure="class-tree", structure_score="ll", max_parents=3)
    model.fit(X, y)
    assert seen == {"score": "ll", "max_parents": 3, "nodes": (*X.columns, "class")}
    dag = model.network_.dag
    assert dag.parents("class") == ()
    assert all(len(dag.parents(f)) == 1 for f in X.columns)  # "ll": a spanning tree
    listed = ", ".join(repr(name) for name in STRUCTURE_LEARNERS)
    with pytest.raises(ValueError, match=re.escape(f"{listed}, 'naive', got 'k2'")):
        NetworkClassifier(structure="k2").fit(X, y)
