"""Properties that hold for any data (hypothesis)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bayeskit import NaiveBayes

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
        }
    )
    df.loc[rng.random(n) < 0.2, "a"] = None
    df.loc[rng.random(n) < 0.2, "b"] = np.nan
    return df, y, rng


@SETTINGS
@given(mixed_data(), st.floats(0.0, 2.0))
def test_posteriors_are_finite_and_sum_to_one(data, alpha):
    df, y, _ = data
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        proba = NaiveBayes(alpha=alpha).fit(df, y).predict_proba(df)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


@SETTINGS
@given(mixed_data(), st.integers(1, 5))
def test_partial_fit_over_any_split_equals_fit(data, n_chunks):
    df, y, rng = data
    whole = NaiveBayes().fit(df, y)
    cuts = np.sort(rng.choice(np.arange(1, len(y)), size=min(n_chunks, len(y) - 1), replace=False))
    inc = NaiveBayes()
    for part in np.split(np.arange(len(y)), cuts):
        inc.partial_fit(df.iloc[part], y[part], classes=np.unique(y))
    np.testing.assert_allclose(
        inc.predict_joint_log_proba(df), whole.predict_joint_log_proba(df), rtol=1e-10, atol=1e-10
    )


@SETTINGS
@given(mixed_data())
def test_shuffling_rows_changes_nothing(data):
    df, y, rng = data
    perm = rng.permutation(len(y))
    a = NaiveBayes().fit(df, y).predict_proba(df)
    b = NaiveBayes().fit(df.iloc[perm], y[perm]).predict_proba(df)
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@SETTINGS
@given(mixed_data())
def test_integer_weights_equal_duplicated_rows(data):
    df, y, rng = data
    w = rng.integers(1, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    a = NaiveBayes().fit(df, y, sample_weight=w).predict_proba(df)
    b = NaiveBayes().fit(df.iloc[rep], y[rep]).predict_proba(df)
    np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)
