"""Properties that hold for any data (hypothesis), for every model they apply to.

* posteriors are finite and sum to 1: every model in ``bayeskit.classifiers.MODELS``, on mixed
  data with missing values where the model allows NaN, else on non-negative counts;
* ``fit`` equals ``partial_fit`` over any split, integer weights equal duplicated rows:
  NaiveBayes, FullBayes and KNNBayes (their statistics are mergeable / the rows themselves);
* shuffling the rows changes nothing: NaiveBayes, FullBayes and KNNBayes with ``ties="share"``
  (with the default ``ties="index"`` the neighbour index picks among rows tied at the K-th
  distance in its own order, which depends on row order by design).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.utils import get_tags

from bayeskit import AODE, SPODE, TAN, AnDE, FullBayes, KNNBayes, NaiveBayes
from bayeskit.classifiers import MODELS
from bayeskit.exceptions import SingularCovarianceWarning, ZeroEvidenceWarning

# a chunk may hold no row with every numeric feature: FullBayes says so, rightly
pytestmark = pytest.mark.filterwarnings("ignore:no training row has all")

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# one instance per model for the order, split and weight properties
MERGEABLE = [NaiveBayes, FullBayes, KNNBayes, TAN, AODE, AnDE, SPODE]
# Chunk by chunk equals one fit where no cut points are learned: a discretizing model (NaiveBayes's
# default, discretize="mdl") takes its cut points from the first chunk, as documented.
BY_CHUNKS = [functools.partial(NaiveBayes, discretize=None), FullBayes, KNNBayes]
# (SPODE with a given parent: its automatic choice sums leave-one-out scores in row order, so two
# candidates tied to the last bit could swap)
ORDER_FREE = [
    NaiveBayes,
    FullBayes,
    lambda: KNNBayes(ties="share"),
    TAN,
    AODE,
    AnDE,
    lambda: SPODE(parent="a"),
]
ORDER_FREE_IDS = ["NaiveBayes", "FullBayes", "KNNBayes-share", "TAN", "AODE", "AnDE", "SPODE-a"]

# "Equal" is up to rounding. Summing in another order (chunks, permutations, weights) changes the
# moments in the last bits; FullBayes solves with covariances whose condition number reaches
# ~1e10 when a ridge (starting at 1e-9 of the largest variance) regularises a singular one, and
# that amplifies the rounding of the moments to ~1e-6 relative in the log density.
ILL_CONDITIONED = {"rtol": 1e-5, "atol": 1e-6}


def _tol(model, rtol: float, atol: float) -> dict[str, float]:
    return ILL_CONDITIONED if isinstance(model, FullBayes) else {"rtol": rtol, "atol": atol}


@st.composite
def mixed_data(draw):
    n = draw(st.integers(4, 40))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    y[:2] = [0, 1]
    df = pd.DataFrame(
        {
            "a": rng.choice(["u", "v", "w"], n).astype(object),
            "b": rng.normal(size=n) * draw(st.floats(1e-3, 1e3)),
            "c": rng.normal(size=n) + y,
        }
    )
    df.loc[rng.random(n) < 0.2, "a"] = None
    df.loc[rng.random(n) < 0.2, "b"] = np.nan
    return df, y, rng


@st.composite
def count_data(draw):
    n = draw(st.integers(4, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    y = rng.integers(0, 3, n)
    y[:2] = [0, 1]
    X = rng.poisson(1.0 + y[:, None] * np.arange(1, 5), size=(n, 4)).astype(np.float64)
    return X, y, rng


@contextmanager
def _quiet():
    """Ignore bayeskit's own warnings (singular covariances, zero evidence with alpha=0); a
    RuntimeWarning still fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularCovarianceWarning)
        warnings.simplefilter("ignore", ZeroEvidenceWarning)
        yield


@pytest.mark.parametrize("model_class", list(MODELS.values()), ids=list(MODELS))
@SETTINGS
@given(data=st.data(), alpha=st.floats(0.0, 2.0))
def test_posteriors_are_finite_and_sum_to_one(model_class, data, alpha):
    params = {"alpha": alpha} if "alpha" in inspect.signature(model_class).parameters else {}
    model = model_class(**params)
    strategy = mixed_data() if get_tags(model).input_tags.allow_nan else count_data()
    X, y, _ = data.draw(strategy)
    with _quiet():
        proba = model.fit(X, y).predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("model_class", BY_CHUNKS, ids=lambda c: getattr(c, "func", c).__name__)
@SETTINGS
@given(data=mixed_data(), n_chunks=st.integers(1, 5))
def test_partial_fit_over_any_split_equals_fit(model_class, data, n_chunks):
    df, y, rng = data
    with _quiet():
        whole = model_class().fit(df, y)
        cuts = np.sort(
            rng.choice(np.arange(1, len(y)), size=min(n_chunks, len(y) - 1), replace=False)
        )
        inc = model_class()
        for part in np.split(np.arange(len(y)), cuts):
            inc.partial_fit(df.iloc[part], y[part], classes=np.unique(y))
        a, b = inc.predict_joint_log_proba(df), whole.predict_joint_log_proba(df)
    np.testing.assert_allclose(a, b, **_tol(whole, rtol=1e-10, atol=1e-10))


@pytest.mark.parametrize("make", ORDER_FREE, ids=ORDER_FREE_IDS)
@SETTINGS
@given(data=mixed_data())
def test_shuffling_rows_changes_nothing(make, data):
    df, y, rng = data
    perm = rng.permutation(len(y))
    with _quiet():
        model = make()
        a = model.fit(df, y).predict_proba(df)
        b = make().fit(df.iloc[perm], y[perm]).predict_proba(df)
    np.testing.assert_allclose(a, b, **_tol(model, rtol=1e-10, atol=1e-12))


@pytest.mark.parametrize("model_class", MERGEABLE, ids=lambda c: c.__name__)
@SETTINGS
@given(data=mixed_data())
def test_integer_weights_equal_duplicated_rows(model_class, data):
    df, y, rng = data
    w = rng.integers(1, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    with _quiet():
        model = model_class()
        a = model.fit(df, y, sample_weight=w).predict_proba(df)
        b = model_class().fit(df.iloc[rep], y[rep]).predict_proba(df)
    np.testing.assert_allclose(a, b, **_tol(model, rtol=1e-8, atol=1e-10))
