"""FullBayes: parity with QDA, the sparse joint PMF, missing values, regularisation, extreme
scales, incremental learning, discretization and persistence (scikit-learn's estimator checks are
in tests/test_estimator_checks.py)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp
from scipy.stats import multivariate_normal
from sklearn.covariance import ledoit_wolf
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
from sklearn.model_selection import cross_val_score

from bayeskit import FullBayes, NaiveBayes
from bayeskit.classifiers import MODELS
from bayeskit.data import datasets
from bayeskit.exceptions import SchemaError, SingularCovarianceWarning, ZeroEvidenceWarning


def _gaussian(n=600, d=4, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    x = np.empty((n, d))
    for c in range(n_classes):
        a = rng.normal(0, 0.5, size=(d, d)) + 1.5 * np.eye(d)  # well conditioned
        rows = y == c
        x[rows] = rng.normal(size=(rows.sum(), d)) @ a + rng.normal(0, 2, d)
    return x, y


def _categorical(n=300, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    df = pd.DataFrame(
        {
            "a": np.array(["p", "q", "r"])[(y + rng.integers(0, 2, n)) % 3],
            "b": np.array(["s", "t"])[(y * rng.integers(0, 2, n))],
            "c": np.array(["u", "v", "w", "z"])[rng.integers(0, 4, n)],
        }
    )
    if missing:
        for col in df.columns:
            df.loc[rng.random(n) < missing, col] = None
    return df, np.array(["no", "yes"])[y]


def _likelihood(model, X):
    return model.predict_joint_log_proba(X) - model.log_prior_


# ---------------------------------------------------------------- parity with scikit-learn QDA
def _qda_ddof(qda, x, y):
    """The ddof behind QDA's covariance: recent scikit-learn divides by n, older releases by
    n - 1 (the matching FullBayes setting is ddof=0 or ddof=1 accordingly)."""
    cov = np.asarray(qda.covariance_[0])
    for ddof in (0, 1):
        if np.allclose(cov, np.cov(x[y == qda.classes_[0]].T, ddof=ddof), rtol=1e-10):
            return ddof
    raise AssertionError("QDA's covariance is neither the ddof=0 nor the ddof=1 estimate")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_probabilities_equal_quadratic_discriminant_analysis(seed):
    x, y = _gaussian(seed=seed)
    qda = QuadraticDiscriminantAnalysis(reg_param=0.0, store_covariance=True).fit(x, y)
    model = FullBayes(ddof=_qda_ddof(qda, x, y)).fit(x, y)
    x_test, _ = _gaussian(200, seed=seed + 10)
    np.testing.assert_allclose(model.predict_proba(x_test), qda.predict_proba(x_test), atol=1e-8)
    np.testing.assert_allclose(model.means_, qda.means_, rtol=1e-12)
    np.testing.assert_allclose(model.covariance_, np.array(qda.covariance_), rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(model.predict(x_test), qda.predict(x_test))


def test_given_priors_match_quadratic_discriminant_analysis():
    x, y = _gaussian(seed=5)
    qda = QuadraticDiscriminantAnalysis(priors=[0.2, 0.3, 0.5], store_covariance=True).fit(x, y)
    model = FullBayes(ddof=_qda_ddof(qda, x, y), priors=[0.2, 0.3, 0.5]).fit(x, y)
    np.testing.assert_allclose(model.predict_proba(x), qda.predict_proba(x), atol=1e-8)


def test_log_density_is_the_multivariate_normal():
    x, y = _gaussian()
    model = FullBayes(ddof=1).fit(x, y)
    for c in range(3):
        expected = multivariate_normal(x[y == c].mean(0), np.cov(x[y == c].T)).logpdf(x[:20])
        np.testing.assert_allclose(_likelihood(model, x[:20])[:, c], expected, rtol=1e-10)


def test_full_diagonal_shrinkage_is_naive_bayes():
    # Zaki & Meira 18.2: the naive assumption is the full model with the covariances set to zero.
    x, y = _gaussian()
    full = FullBayes(shrinkage=1.0).fit(x, y)
    naive = NaiveBayes(discretize=None, var_smoothing=0.0, prior_alpha=0.0).fit(x, y)
    np.testing.assert_allclose(full.predict_proba(x), naive.predict_proba(x), atol=1e-10)


def test_ledoit_wolf_covariance_matches_scikit_learn():
    x, y = _gaussian(90, d=6)
    model = FullBayes(shrinkage="ledoit-wolf").fit(x, y)
    for c in range(3):
        expected, intensity = ledoit_wolf(x[y == c])
        np.testing.assert_allclose(model.covariance_[c], expected, rtol=1e-9, atol=1e-12)
        assert model.shrinkage_[c] == pytest.approx(intensity, rel=1e-9)
    assert np.all(model.ridge_ == 0)


# ---------------------------------------------------------------- singular covariances
def _fewer_rows_than_features():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(12, 8))
    return x, np.repeat([0, 1], 6)


def _duplicate_columns():
    x, y = _gaussian(200, d=3)
    return np.column_stack([x, x[:, 1]]), y


@pytest.mark.parametrize("make", [_fewer_rows_than_features, _duplicate_columns])
def test_singular_covariance_falls_back_to_a_ridge_with_a_warning(make):
    x, y = make()
    with pytest.warns(SingularCovarianceWarning, match="ridge"):
        model = FullBayes().fit(x, y)
    assert np.all(model.ridge_ > 0)
    proba = model.predict_proba(x + 0.01)
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    if make is _fewer_rows_than_features:  # each class lives on its own subspace
        np.testing.assert_array_equal(model.predict(x), y)
    else:  # the ridge only touches the direction x1 - x3, where every row has 0
        reduced = FullBayes().fit(x[:, :3], y)
        assert np.mean(model.predict(x) == reduced.predict(x[:, :3])) > 0.99


@pytest.mark.parametrize("shrinkage", ["ledoit-wolf", 0.5])
@pytest.mark.parametrize("make", [_fewer_rows_than_features, _duplicate_columns])
def test_explicit_shrinkage_regularises_without_a_ridge(make, shrinkage):
    x, y = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularCovarianceWarning)
        model = FullBayes(shrinkage=shrinkage).fit(x, y)
    assert np.all(model.ridge_ == 0)
    assert np.all(np.isfinite(model.predict_proba(x)))


def test_the_singular_warning_points_at_the_callers_line():
    x, y = _fewer_rows_than_features()
    with pytest.warns(SingularCovarianceWarning) as record:
        FullBayes().fit(x, y)
    assert record[0].filename == __file__
    with pytest.warns(SingularCovarianceWarning) as record:
        FullBayes().partial_fit(x, y, classes=[0, 1])
    assert record[0].filename == __file__


def test_a_single_row_class_gets_a_ridge_not_a_nan():
    x = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [5.0, 5.0]])
    with pytest.warns(SingularCovarianceWarning, match="'b'"):
        model = FullBayes(ddof=1).fit(x, ["a", "a", "a", "b"])
    assert np.all(np.isfinite(model.predict_proba([[5.0, 5.0], [0.5, 0.5]])))
    assert model.predict([[5.0, 5.0]])[0] == "b"


# ---------------------------------------------------------------- the joint PMF
def _brute_joint(df, y, alpha, sizes):
    """Eq. 18.6 cell by cell over the dense domain: {class: {combination: probability}}."""
    out = {}
    for label in np.unique(y):
        rows = df[y == label]
        n = len(rows)
        counts = rows.value_counts()
        cells = int(np.prod(sizes))
        out[label] = {
            combo: (counts.get(combo, 0) + alpha) / (n + alpha * cells)
            for combo in itertools.product(*[sorted(df[c].unique()) for c in df.columns])
        }
    return out


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_joint_pmf_is_equation_18_6(alpha):
    df, y = _categorical()
    model = FullBayes(alpha=alpha).fit(df, y)
    expected = _brute_joint(df, y, alpha, [3, 2, 4])
    grid = pd.DataFrame(list(expected["no"]), columns=df.columns)
    with np.errstate(divide="ignore"):
        got = np.exp(_likelihood(model, grid))
    for c, label in enumerate(model.classes_):
        np.testing.assert_allclose(got[:, c], list(expected[label].values()), rtol=1e-12)
        assert got[:, c].sum() == pytest.approx(1.0)


def test_only_seen_combinations_are_stored():
    df, y = _categorical()
    model = FullBayes().fit(df, y)
    seen = df.drop_duplicates()
    assert model.joint_combos_.shape == (len(seen), 3)
    assert model.log_joint_.shape == (len(seen), 2)
    # an unseen combination gets the pseudo-count probability alpha / (n_c + alpha prod K)
    n_c = model.class_count_
    np.testing.assert_allclose(np.exp(model.log_joint_unseen_), 1.0 / (n_c + 24))


def test_many_attributes_do_not_overflow():
    # 300 binary attributes: 2^300 cells, more than a float64 can count; logs keep it exact.
    rng = np.random.default_rng(0)
    x = pd.DataFrame(rng.integers(0, 2, size=(100, 300)).astype(str))
    y = rng.integers(0, 2, 100)
    model = FullBayes().fit(x, y)
    lik = _likelihood(model, x.iloc[:5])
    n_c = model.class_count_[y[:5]]
    np.testing.assert_allclose(
        lik[np.arange(5), y[:5]], np.log(2) - np.logaddexp(np.log(n_c), 300 * np.log(2)), rtol=1e-12
    )
    assert np.all(np.isfinite(model.predict_proba(x)))


def test_empirical_pmf_gives_zero_to_an_unseen_combination():
    df = pd.DataFrame({"a": ["p", "p", "q", "q"], "b": ["s", "t", "s", "s"]})
    model = FullBayes(alpha=0).fit(df, [0, 0, 1, 1])
    with np.errstate(divide="ignore"):
        lik = np.exp(_likelihood(model, pd.DataFrame({"a": ["p"], "b": ["t"]})))
    assert lik.tolist() == [[0.5, 0.0]]
    with pytest.warns(ZeroEvidenceWarning):
        proba = model.predict_proba(pd.DataFrame({"a": ["q"], "b": ["t"]}))
    assert proba.tolist() == [[0.5, 0.5]]


# ---------------------------------------------------------------- missing values
def test_missing_category_is_summed_out_of_the_joint_pmf():
    df, y = _categorical()
    model = FullBayes(alpha=0.7).fit(df, y)
    query = pd.DataFrame({"a": ["q"], "b": [None], "c": ["w"]})
    full = pd.DataFrame({"a": ["q", "q"], "b": ["s", "t"], "c": ["w", "w"]})
    np.testing.assert_allclose(
        _likelihood(model, query)[0], logsumexp(_likelihood(model, full), axis=0), rtol=1e-12
    )
    nothing = pd.DataFrame({"a": [None], "b": [None], "c": [None]})
    np.testing.assert_allclose(_likelihood(model, nothing), 0.0)


def test_training_rows_with_missing_codes_count_for_the_marginals_they_observe():
    df, y = _categorical(missing=0.2)
    model = FullBayes(alpha=1.0).fit(df, y)
    query = pd.DataFrame({"a": ["q"], "b": [None], "c": ["w"]})
    for c, label in enumerate(model.classes_):
        rows = df[(y == label) & df["a"].notna() & df["c"].notna()]
        n_x = ((rows["a"] == "q") & (rows["c"] == "w")).sum()
        expected = (n_x + 1.0 * 2) / (len(rows) + 1.0 * 24)  # K_b = 2, prod K = 3 * 2 * 4
        assert np.exp(_likelihood(model, query)[0, c]) == pytest.approx(expected, rel=1e-12)


def test_missing_numbers_use_the_marginal_normal():
    x, y = _gaussian()
    model = FullBayes().fit(x, y)
    q = x[:6].copy()
    q[0, 1] = q[1, [0, 2]] = q[2, :] = np.nan
    q[3:, 3] = np.nan
    lik = _likelihood(model, q)
    for i in (0, 1, 3, 4, 5):
        obs = ~np.isnan(q[i])
        for c in range(3):
            cov = model.covariance_[c][np.ix_(obs, obs)]
            expected = multivariate_normal(model.means_[c, obs], cov).logpdf(q[i, obs])
            assert lik[i, c] == pytest.approx(expected, rel=1e-10)
    np.testing.assert_allclose(lik[2], 0.0)
    np.testing.assert_allclose(model.predict_proba(q[2:3]), np.exp(model.log_prior_)[None])


def test_rows_with_nan_are_left_out_of_the_scatter_statistics():
    x, y = _gaussian()
    x_nan = x.copy()
    x_nan[::7, 2] = np.nan
    model = FullBayes().fit(x_nan, y)
    complete = ~np.isnan(x_nan).any(axis=1)
    reference = FullBayes().fit(x[complete], y[complete])
    np.testing.assert_allclose(model.means_, reference.means_)
    np.testing.assert_allclose(model.covariance_, reference.covariance_)
    np.testing.assert_allclose(model.class_count_, np.bincount(y))  # the prior counts every row


def test_a_class_with_no_complete_numeric_row_backs_off_to_the_pooled_normal():
    x, y = _gaussian()
    x[y == 2, 0] = np.nan  # class 2 never has a complete numeric row
    model = FullBayes().fit(x, y)
    complete = x[y != 2]
    np.testing.assert_allclose(model.means_[2], complete.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(model.covariance_[2], np.cov(complete.T, ddof=0), rtol=1e-10)
    for c in (0, 1):  # the classes with data keep their own normal
        np.testing.assert_allclose(model.means_[c], x[y == c].mean(axis=0), rtol=1e-12)
    assert np.all(np.isfinite(_likelihood(model, x)))


def test_a_class_whose_numbers_are_all_missing_can_still_be_predicted():
    # Its numeric values carry no evidence (pooled normal); the category decides. Before the
    # backoff its density was 0 wherever a number was observed, so it was never predicted.
    df, y = _mixed(missing=0.0)
    df["tag"] = np.where(y == "yes", "t", "f")
    df.loc[y == "yes", ["m", "n"]] = np.nan
    model = FullBayes().fit(df, y)
    np.testing.assert_array_equal(model.predict(df), y)
    query = df[y == "yes"].iloc[:100].copy()  # the class's categories, with numbers observed
    query[["m", "n"]] = df.loc[y == "no", ["m", "n"]].to_numpy()[:100]
    assert (model.predict(query) == "yes").all()


@pytest.mark.filterwarnings("ignore:no training row has all")
def test_no_complete_numeric_row_anywhere_leaves_the_numeric_block_out():
    df, y = _categorical()
    rng = np.random.default_rng(2)
    df["m"] = rng.normal(size=len(df))
    df["n"] = rng.normal(size=len(df))
    df.loc[::2, "m"] = np.nan
    df.loc[1::2, "n"] = np.nan  # every row misses one of the two
    model = FullBayes().fit(df, y)
    categorical = FullBayes().fit(df[["a", "b", "c"]], y)
    np.testing.assert_allclose(
        _likelihood(model, df), _likelihood(categorical, df[["a", "b", "c"]]), rtol=1e-12
    )
    assert not model.means_.any()
    assert not model.covariance_.any()
    numeric_only = FullBayes().fit(df[["m", "n"]], y)
    proba = numeric_only.predict_proba(df[["m", "n"]])
    np.testing.assert_allclose(proba, np.tile(np.exp(numeric_only.log_prior_), (len(df), 1)))


# ---------------------------------------------------------------- extreme scales
def _two_blobs(duplicate=False):
    rng = np.random.default_rng(3)
    x = np.vstack([rng.normal(0, 1, (30, 2)), rng.normal(8, 1, (30, 2))])
    if duplicate:  # a singular covariance: the ridge must scale with the data
        x = np.column_stack([x, x[:, 1]])
    return x, np.repeat(["a", "b"], 30)


@pytest.mark.parametrize("scale", [1e-150, 1e-160], ids=["1e-150", "1e-160-subnormal"])
@pytest.mark.parametrize("duplicate", [False, True], ids=["regular", "singular"])
def test_tiny_scales_are_separated(scale, duplicate):
    # covariances ~1e-300 (1e-320 is subnormal): an absolute ridge would drown them, and a
    # relative one that underflows to 0 would never make the matrix positive definite
    x, y = _two_blobs(duplicate)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularCovarianceWarning)
        model = FullBayes().fit(x * scale, y)
    np.testing.assert_array_equal(model.predict(x * scale), y)
    assert np.all(model.predict_proba(x * scale).max(axis=1) > 0.99)
    if duplicate:  # a ridge of the data's scale (variances ~ scale^2), not an absolute one
        assert np.all((model.ridge_ > 0) & (model.ridge_ < 1e-6 * scale**2 + 1e-300))
    else:
        assert np.all(model.ridge_ == 0)


@pytest.mark.parametrize("scale", [1e160, 1e300])
def test_overflowing_values_are_refused_naming_the_column(scale):
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"ok": rng.normal(size=20), "huge": rng.normal(size=20) * scale})
    y = np.arange(20) % 2
    with pytest.raises(SchemaError, match=r"numeric columns \['huge'\]"):
        FullBayes().fit(df, y)
    model = FullBayes().fit(df[["ok"]], y)
    with pytest.raises(SchemaError, match="'huge'"):  # a later chunk: refused, model unchanged
        FullBayes().partial_fit(df[:10], y[:10], classes=[0, 1]).partial_fit(df[10:] * 1e10, y[10:])
    assert model.means_.shape == (2, 1)


def test_ledoit_wolf_refuses_overflowing_fourth_moments_naming_the_column():
    # squares of 1e100 fit in float64, fourth powers do not: only Ledoit-Wolf needs them
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"ok": rng.normal(size=20), "big": rng.normal(size=20) * 1e100})
    y = np.arange(20) % 2
    with pytest.raises(SchemaError, match=r"ledoit-wolf.*\['big'\]"):
        FullBayes(shrinkage="ledoit-wolf").fit(df, y)
    model = FullBayes().fit(df, y)
    assert np.all(np.isfinite(model.predict_proba(df)))


# ---------------------------------------------------------------- mixed data
def test_mixed_data_multiply_the_categorical_and_numeric_parts():
    df, y = _categorical()
    rng = np.random.default_rng(4)
    df["m"] = rng.normal(size=len(df)) + (y == "yes")
    df["n"] = rng.normal(size=len(df)) - df["m"]
    model = FullBayes().fit(df, y)
    cat = FullBayes().fit(df[["a", "b", "c"]], y)
    num = FullBayes().fit(df[["m", "n"]], y)
    np.testing.assert_allclose(
        _likelihood(model, df),
        _likelihood(cat, df[["a", "b", "c"]]) + _likelihood(num, df[["m", "n"]]),
        rtol=1e-12,
    )


# ---------------------------------------------------------------- incremental learning, weights
def _mixed(seed=0, missing=0.1):
    df, y = _categorical(seed=seed, missing=missing)
    rng = np.random.default_rng(seed)
    df["m"] = rng.normal(size=len(df)) + (y == "yes")
    df["n"] = rng.normal(size=len(df)) * 2 - df["m"]
    df.loc[rng.random(len(df)) < missing, "n"] = np.nan
    return df, y


@pytest.mark.parametrize("shrinkage", [None, 0.3, "ledoit-wolf"])
def test_partial_fit_over_chunks_equals_fit(shrinkage):
    df, y = _mixed()
    whole = FullBayes(shrinkage=shrinkage).fit(df, y)
    part = FullBayes(shrinkage=shrinkage)
    for lo in range(0, len(df), 70):
        part.partial_fit(df.iloc[lo : lo + 70], y[lo : lo + 70], classes=["no", "yes"])
    np.testing.assert_allclose(part.predict_proba(df), whole.predict_proba(df), atol=1e-9)
    np.testing.assert_allclose(part.covariance_, whole.covariance_, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(part.joint_combos_, whole.joint_combos_)


def test_partial_fit_grows_vocabularies():
    df, y = _categorical()
    first = df["a"] != "r"
    whole = FullBayes().fit(df, y)
    part = FullBayes().partial_fit(df[first], y[first], classes=["no", "yes"])
    part.partial_fit(df[~first], y[~first])
    assert part.schema_.column("a").categories == ("p", "q", "r")
    np.testing.assert_allclose(part.predict_proba(df), whole.predict_proba(df), atol=1e-12)


def test_integer_weights_equal_repeated_rows():
    df, y = _mixed(missing=0.0)
    w = np.random.default_rng(1).integers(0, 3, len(df))
    weighted = FullBayes().fit(df, y, sample_weight=w)
    repeated = FullBayes().fit(df.loc[df.index.repeat(w)], np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict_proba(df), repeated.predict_proba(df), atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 25),
    n_num=st.integers(0, 5),
    n_cat=st.integers(0, 3),
    missing=st.sampled_from([0.0, 0.2, 0.6]),
    shrinkage=st.sampled_from([None, 0.0, 0.5, "ledoit-wolf"]),
    alpha=st.sampled_from([0.0, 1.0]),
    seed=st.integers(0, 10_000),
)
@pytest.mark.filterwarnings("ignore:no training row has all")
def test_posteriors_are_finite_and_sum_to_one(n, n_num, n_cat, missing, shrinkage, alpha, seed):
    # any data, however few rows, constant or missing: no crash, no NaN
    if n_num + n_cat == 0:
        n_num = 1
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{j}": rng.normal(size=n).round(rng.integers(0, 3)) for j in range(n_num)})
    for j in range(n_cat):
        df[f"c{j}"] = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    mask = rng.random(df.shape) < missing
    df = df.mask(mask)
    y = np.arange(n) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularCovarianceWarning)
        warnings.simplefilter("ignore", ZeroEvidenceWarning)
        model = FullBayes(shrinkage=shrinkage, alpha=alpha).fit(df, y)
        proba = model.predict_proba(df)
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.all(np.isfinite(model.covariance_))


# ---------------------------------------------------------------- persistence, registry, errors
def test_registered_as_full_bayes():
    assert MODELS["full-bayes"] is FullBayes


def test_model_file_round_trip(tmp_path):
    io = pytest.importorskip("bayeskit.io")
    df, y = _mixed()
    model = FullBayes(shrinkage="ledoit-wolf", alpha=0.5).fit(df, y)
    again = io.load(io.save(model, tmp_path / "full.bayeskit"))
    np.testing.assert_array_equal(again.predict_proba(df), model.predict_proba(df))


def test_unknown_category_is_refused_when_asked():
    df, y = _categorical()
    model = FullBayes(handle_unknown="error").fit(df, y)
    with pytest.raises(SchemaError, match="column 'a'"):
        model.predict(pd.DataFrame({"a": ["zz"], "b": ["s"], "c": ["u"]}))


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ({"alpha": -1}, ValueError, "alpha must be >= 0"),
        ({"ddof": 0.5}, TypeError, "ddof must be an integer"),
        ({"shrinkage": 1.5}, ValueError, r"shrinkage must be None, a number in \[0, 1\]"),
        ({"shrinkage": "oas"}, ValueError, "shrinkage must be one of 'ledoit-wolf'"),
        ({"shrinkage": True}, TypeError, "shrinkage must be a number"),
        ({"prior_alpha": -0.1}, ValueError, "prior_alpha must be >= 0"),
        ({"handle_unknown": "skip"}, ValueError, "handle_unknown must be one of"),
    ],
)
def test_bad_arguments_are_refused_at_fit(params, error, match):
    x, y = _gaussian(60)
    with pytest.raises(error, match=match):
        FullBayes(**params).fit(x, y)


# ---------------------------------------------------------------- automatic discretization
def test_discretized_full_bayes_bins_iris_into_the_joint_pmf():
    X, y = datasets.load("iris")
    model = FullBayes(discretize="equal-width", n_bins=4).fit(X, y)
    assert all(c.kind == "categorical" and len(c.cuts) == 3 for c in model.schema_.columns)
    assert model.means_.shape == (3, 0)  # no numeric block left
    assert model.joint_combos_.shape[1] == 4  # every binned column enters the joint PMF
    assert np.all(model.joint_combos_ < 4)
    chance = 1 / 3
    assert model.score(X, y) > chance
    scores = cross_val_score(FullBayes(discretize="equal-width", n_bins=4), X, y, cv=5)
    assert scores.mean() > chance


@pytest.mark.parametrize(
    ("params", "match"),
    [({"discretize": "kmeans"}, "discretize must be one of"), ({"n_bins": 0}, "n_bins must be")],
)
def test_bad_discretize_arguments_are_refused_at_fit(params, match):
    with pytest.raises(ValueError, match=match):
        FullBayes(**params).fit(pd.DataFrame({"x": [1.0, 2.0]}), [0, 1])


def test_no_complete_numeric_row_is_said_in_a_warning():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    X[:, 2] = np.nan
    with pytest.warns(UserWarning, match="no training row has all 3 numeric features observed"):
        FullBayes().fit(X, (X[:, 0] > 0).astype(int))
