"""The product emission: DataFrames of categorical and numeric columns, per-column parts."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.base import clone

from bayeskit.sequences import (
    HiddenMarkovModel,
    ProductEmission,
    expected_statistics,
    merge_statistics,
)

TRUE_STATES = np.repeat([0, 1, 0, 1, 1, 0], 80)


def weather_frame(seed=0, states=TRUE_STATES):
    rng = np.random.default_rng(seed)
    n = len(states)
    sunny = rng.choice(["sun", "rain", "fog"], n, p=[0.8, 0.15, 0.05])
    rainy = rng.choice(["sun", "rain", "fog"], n, p=[0.1, 0.6, 0.3])
    return pd.DataFrame(
        {
            "weather": np.where(states == 0, sunny, rainy),
            "visits": rng.poisson(np.where(states == 0, 1.0, 9.0)),
            "temperature": rng.normal(np.where(states == 0, 22.0, 11.0), 2.0),
            "wind": pd.Categorical(
                np.where(states == 0, "calm", rng.choice(["calm", "gale"], n)),
                categories=["calm", "breeze", "gale"],
            ),
        }
    )


def fitted(**kw):
    settings = {"n_iter": 50, "random_state": 0, "column_emissions": {"visits": "poisson"}}
    return HiddenMarkovModel(2, emission="mixed", **{**settings, **kw}).fit(weather_frame())


def matched(model):
    """The fitted states in the true states' order (state 0 the warm one)."""
    return np.argsort(-model.means_[:, 0])


def test_log_likelihood_is_the_product_of_the_scipy_densities():
    model = fitted(n_iter=2)
    frame = weather_frame(seed=3).iloc[:6]
    e = ProductEmission({"column_emissions": {"visits": "poisson"}})
    params = {k: getattr(model, k) for k in ProductEmission.parameter_names}
    got = e.log_likelihood(params, e.check(frame))
    cats = e.describe(params)
    weather, wind = cats["weather"], cats["wind"]
    probs = model.emissionprob_
    want = np.zeros((len(frame), 2))
    for t, row in enumerate(frame.itertuples()):
        for j in range(2):
            want[t, j] = (
                np.log(probs[j, weather.index(row.weather)])
                + np.log(probs[j, len(weather) + wind.index(row.wind)])
                + stats.poisson(model.lambdas_[j, 0]).logpmf(row.visits)
                + stats.norm(model.means_[j, 0], np.sqrt(model.covars_[j, 0])).logpdf(
                    row.temperature
                )
            )
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_baum_welch_objective_never_decreases_with_missing_values():
    frame = weather_frame(seed=1)
    frame.loc[[3, 50, 200], "weather"] = None
    frame.loc[[7, 50], "temperature"] = np.nan
    frame.loc[[9], "visits"] = np.nan
    frame.loc[[11, 200], "wind"] = np.nan
    model = HiddenMarkovModel(
        2,
        emission="mixed",
        column_emissions={"visits": "poisson"},
        n_iter=30,
        tol=0,
        random_state=1,
        emissionprob_prior=1.5,
        lambdas_prior=0.5,
        lambdas_weight=0.1,
        covars_weight=2.0,
    ).fit(frame, [200, 280])
    o = np.asarray(model.objective_)
    assert len(o) == 30
    assert np.all(np.diff(o) >= -1e-9 * np.abs(o[:-1]))


def test_well_separated_states_are_recovered_and_predicted():
    model = fitted()
    order = matched(model)
    np.testing.assert_allclose(model.means_[order, 0], [22.0, 11.0], atol=0.5)
    np.testing.assert_allclose(model.lambdas_[order, 0], [1.0, 9.0], atol=0.3)
    empirical = weather_frame().groupby(TRUE_STATES)["visits"].mean().to_numpy()  # 0.82, 8.8
    np.testing.assert_allclose(model.lambdas_[order, 0], empirical, atol=0.05)
    cats = ProductEmission({}).describe({"layout_": model.layout_})
    assert cats == {
        "weather": ["fog", "rain", "sun"],
        "visits": "poisson",
        "temperature": "gaussian",
        "wind": ["calm", "breeze", "gale"],
    }
    np.testing.assert_allclose(
        model.emissionprob_[order, :3], [[0.05, 0.15, 0.8], [0.3, 0.6, 0.1]], atol=0.08
    )
    assert model.emissionprob_[:, 4].max() < 1e-6  # "breeze" is declared but never seen
    assert (order[model.predict(weather_frame())] == TRUE_STATES).mean() > 0.97


def test_strings_map_to_the_same_codes_when_predicting_a_part():
    """A frame holding only some categories (so another order of first appearance) scores
    each row as the whole frame does."""
    model = fitted(n_iter=5)
    frame = weather_frame(seed=4)
    e = ProductEmission({"column_emissions": {"visits": "poisson"}})
    params = {k: getattr(model, k) for k in ProductEmission.parameter_names}
    whole = e.log_likelihood(params, e.check(frame))
    part = frame[frame["weather"] != "fog"].iloc[::-1]
    fresh = ProductEmission({"column_emissions": {"visits": "poisson"}})
    got = fresh.log_likelihood(params, fresh.check(part))
    np.testing.assert_array_equal(got, whole[part.index.to_numpy()])
    rows = frame.iloc[[5]]
    assert model.score(rows) == pytest.approx(model.score(frame.iloc[5:6].copy()))


def test_missing_values_add_nothing():
    model = fitted(n_iter=3)
    e = ProductEmission({"column_emissions": {"visits": "poisson"}})
    params = {k: getattr(model, k) for k in ProductEmission.parameter_names}
    frame = pd.DataFrame(
        {
            "weather": ["sun", None, None],
            "visits": [2.0, np.nan, np.nan],
            "temperature": [np.nan, 15.0, np.nan],
            "wind": pd.Categorical([None, "gale", None], categories=["calm", "breeze", "gale"]),
        }
    )
    got = e.log_likelihood(params, e.check(frame))
    j = np.arange(2)
    sun = e.describe(params)["weather"].index("sun")
    np.testing.assert_allclose(
        got[0], np.log(model.emissionprob_[j, sun]) + stats.poisson(model.lambdas_[:, 0]).logpmf(2)
    )
    normal = stats.norm(model.means_[:, 0], np.sqrt(model.covars_[:, 0])).logpdf(15.0)
    np.testing.assert_allclose(got[1], np.log(model.emissionprob_[j, 3 + 2]) + normal)
    assert got[2].tolist() == [0.0, 0.0]


def test_sample_gives_a_frame_the_model_reads_back():
    model = fitted(n_iter=5)
    X, states = model.sample(200, random_state=3)
    assert list(X.columns) == ["weather", "visits", "temperature", "wind"]
    assert set(X["weather"]) <= {"sun", "rain", "fog"}
    assert set(X["wind"]) <= {"calm", "breeze", "gale"}
    assert np.all(X["visits"] == np.round(X["visits"]))
    assert model.predict(X).shape == states.shape


def test_refit_clone_and_pickle():
    model = fitted(n_iter=3)
    before = model.score(weather_frame(seed=2))
    again = pickle.loads(pickle.dumps(model))
    assert again.score(weather_frame(seed=2)) == before
    model.fit(weather_frame(seed=5))  # a second fit starts afresh from the new data
    other = clone(model).fit(weather_frame(seed=5))
    np.testing.assert_allclose(other.means_, model.means_)


def test_statistics_add_across_chunks_and_need_the_parameters():
    model = fitted(n_iter=2)
    params = {
        k: getattr(model, k) for k in ("startprob_", "transmat_", *ProductEmission.parameter_names)
    }
    frame = weather_frame(seed=6)
    e = ProductEmission({"column_emissions": {"visits": "poisson"}})
    X = e.check(frame)
    both, _ = expected_statistics(e, params, X, np.array([0, 100, 480]))
    a, _ = expected_statistics(e, params, X[:100], np.array([0, 100]))
    fresh = ProductEmission({"column_emissions": {"visits": "poisson"}})
    b, _ = expected_statistics(fresh, params, fresh.check(frame.iloc[100:]), np.array([0, 380]))
    merged = merge_statistics(a, b)
    assert sorted(merged) == sorted(both)
    for key in both:
        np.testing.assert_allclose(merged[key], both[key], rtol=1e-12, atol=1e-12)


def test_free_parameters_add_up():
    model = fitted(n_iter=2)
    e = ProductEmission({"column_emissions": {"visits": "poisson"}})
    params = {k: getattr(model, k) for k in ProductEmission.parameter_names}
    # weather 2 x 2, wind 2 x 2, temperature 2 means + 2 variances, visits 2 rates
    assert e.n_free_parameters(params) == 4 + 4 + 4 + 2


def test_an_unseen_value_names_its_column_and_value():
    model = fitted(n_iter=2)
    frame = weather_frame(seed=2)
    frame.loc[7, "weather"] = "snow"
    with pytest.raises(ValueError, match="column 'weather' has the value 'snow'"):
        model.predict(frame)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda f: f.drop(columns=["wind"]), "are not the model's"),
        (lambda f: f.rename(columns={"wind": "gust"}), "are not the model's"),
        (lambda f: f.assign(temperature=f["temperature"].astype(str)), "temperature"),
    ],
)
def test_other_columns_are_refused(change, match):
    model = fitted(n_iter=2)
    with pytest.raises(ValueError, match=match):
        model.predict(change(weather_frame(seed=2)))


@pytest.mark.parametrize(
    ("settings", "frame", "match"),
    [
        ({"column_emissions": {"gone": "poisson"}}, pd.DataFrame({"a": [1.0]}), "lacks"),
        ({"column_emissions": {"a": "binomial"}}, pd.DataFrame({"a": [1.0]}), "must be among"),
        ({"column_emissions": {"a": "poisson"}}, pd.DataFrame({"a": [-1.0]}), "non-negative"),
        ({"column_emissions": {"a": "gaussian"}}, pd.DataFrame({"a": ["x"]}), "not numbers"),
        ({}, pd.DataFrame({"a": [np.inf]}), "finite"),
        ({}, np.zeros(3), "2-d"),
    ],
)
def test_bad_input_is_refused(settings, frame, match):
    with pytest.raises(ValueError, match=match):
        ProductEmission(settings).check(frame)


def test_bad_settings_and_parameters_are_refused():
    with pytest.raises(ValueError, match="column_emissions must be a dict"):
        ProductEmission({"column_emissions": ["a"]})
    model = fitted(n_iter=2)
    model.emissionprob_ = model.emissionprob_[:, :4]
    with pytest.raises(ValueError, match="emissionprob_ must have shape"):
        model.predict(weather_frame())
    model = fitted(n_iter=2)
    model.emissionprob_ = model.emissionprob_ * 1.1
    with pytest.raises(ValueError, match=r"sum to 1.*column weather"):
        model.predict(weather_frame())
    model = fitted(n_iter=2)
    model.layout_ = model.layout_[:, :1]
    with pytest.raises(ValueError, match="layout_"):
        model.predict(weather_frame())


def test_plain_arrays_name_their_columns_by_position():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=60), rng.integers(0, 3, 60)]).astype(object)
    X[:, 1] = np.array(["a", "b", "c"], dtype=object)[X[:, 1].astype(int)]
    e = ProductEmission({})
    params = e.initialize(e.check(X), 2, rng)
    assert e.describe(params) == {"0": "gaussian", "1": ["a", "b", "c"]}


def test_integer_codes_match_whether_or_not_missing_values_made_them_float():
    e = ProductEmission({"column_emissions": {"code": "categorical"}})
    fit = pd.DataFrame({"code": [1, 2, 2, 1]})
    params = e.initialize(e.check(fit), 1, np.random.default_rng(0))
    assert e.describe(params) == {"code": ["1", "2"]}
    fresh = ProductEmission({"column_emissions": {"code": "categorical"}})
    later = fresh.log_likelihood(params, fresh.check(pd.DataFrame({"code": [2.0, np.nan]})))
    np.testing.assert_allclose(later[:, 0], [np.log(params["emissionprob_"][0, 1]), 0.0])


def test_a_layout_read_from_a_file_is_checked_whole():
    from bayeskit.sequences import _layout

    good = _layout.encode(["w", "t"], ["categorical", "gaussian"], {0: ["fog", "sun"]})
    assert _layout.decode(good)[0] == ["w", "t"]
    twice = _layout.encode(["w", "w"], ["categorical", "gaussian"], {0: ["fog", "sun"]})
    with pytest.raises(ValueError, match="names a column twice"):
        _layout.decode(twice)
    repeated = _layout.encode(["w"], ["categorical"], {0: ["fog", "fog"]})
    with pytest.raises(ValueError, match="a category twice"):
        _layout.decode(repeated)
    surrogate = good.copy()
    surrogate[0, 2] = 0xD800
    with pytest.raises(ValueError, match="not valid Unicode"):
        _layout.decode(surrogate)
    fractional = good.copy()
    fractional[1, 1] = 1.5
    with pytest.raises(ValueError, match="whole numbers"):
        _layout.decode(fractional)
