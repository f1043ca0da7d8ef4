"""KNNBayes: parity with scikit-learn's KNeighborsClassifier, the density estimate, the overlap
distance on categorical data, ties, sample weights, incremental learning, missing values and bad
input (Zaki & Meira, Sect. 18.3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import gamma
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import bayeskit
from bayeskit import KNNBayes
from bayeskit.classifiers import MODELS
from bayeskit.data import datasets

METRICS = [
    ("euclidean", 2),
    ("manhattan", 2),
    ("minkowski", 3),
    ("minkowski", 1.5),
    ("chebyshev", 2),
]


@pytest.fixture(scope="module")
def iris():
    return datasets.load("iris")


def _blobs(n=300, d=3, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    X = rng.normal(size=(n, d)) + y[:, None] * rng.normal(size=d) * 1.5
    return X * rng.uniform(0.5, 20, d), y


# ---------------------------------------------------------------- parity with scikit-learn
@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize(("metric", "p"), METRICS)
@pytest.mark.parametrize("k", [1, 5, 12])
def test_matches_kneighborsclassifier_on_iris(iris, weights, metric, p, k):
    # Iris holds duplicate rows and many tied distances: parity includes how ties are broken.
    X, y = iris
    ours = KNNBayes(n_neighbors=k, weights=weights, metric=metric, p=p).fit(X, y)
    theirs = KNeighborsClassifier(n_neighbors=k, weights=weights, metric=metric, p=p).fit(X, y)
    queries = pd.concat([X, X + 0.05, X.sample(40, random_state=0) * 1.1])
    np.testing.assert_array_equal(ours.predict(queries), theirs.predict(queries))
    np.testing.assert_allclose(
        ours.predict_proba(queries), theirs.predict_proba(queries), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize(("metric", "p"), METRICS)
@pytest.mark.parametrize("algorithm", ["auto", "kd_tree", "ball_tree", "brute"])
def test_matches_kneighborsclassifier_on_random_data(weights, metric, p, algorithm):
    X, y = _blobs(seed=1)
    Xq, _ = _blobs(n=200, seed=2)
    kw = {"n_neighbors": 7, "weights": weights, "metric": metric, "p": p, "algorithm": algorithm}
    ours, theirs = KNNBayes(**kw).fit(X, y), KNeighborsClassifier(**kw).fit(X, y)
    np.testing.assert_array_equal(ours.predict(Xq), theirs.predict(Xq))
    np.testing.assert_allclose(ours.predict_proba(Xq), theirs.predict_proba(Xq), atol=1e-12)
    d_ours, i_ours = ours.kneighbors(Xq)
    d_theirs, i_theirs = theirs.kneighbors(Xq)
    np.testing.assert_array_equal(i_ours, i_theirs)
    np.testing.assert_allclose(d_ours, d_theirs, rtol=1e-12)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_standardised_matches_scaler_pipeline(weights):
    X, y = _blobs(seed=3)
    Xq, _ = _blobs(n=200, seed=4)
    ours = KNNBayes(scale="standard", weights=weights).fit(X, y)
    theirs = make_pipeline(StandardScaler(), KNeighborsClassifier(weights=weights)).fit(X, y)
    np.testing.assert_array_equal(ours.predict(Xq), theirs.predict(Xq))
    np.testing.assert_allclose(ours.predict_proba(Xq), theirs.predict_proba(Xq), atol=1e-9)
    np.testing.assert_allclose(ours.scale_, theirs[0].scale_, rtol=1e-12)


# ---------------------------------------------------------------- the Bayes reading
def test_training_moments_are_weighted_and_skip_missing_values():
    # mean_ and scale_ come from the shared statistics (stats.gaussian_moments): the weighted
    # mean and ML standard deviation of the observed values; a constant or never observed
    # feature keeps scale 1 (and mean 0 if never observed); class counts are weighted
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 4)) * [1.0, 10.0, 1.0, 1.0]
    X[::3, 0] = np.nan
    X[:, 2] = 7.0
    X[:, 3] = np.nan
    y = np.arange(40) % 2
    w = rng.uniform(0.5, 3.0, 40)
    model = KNNBayes(scale="standard").fit(X, y, sample_weight=w)
    for j in (0, 1):
        ok = ~np.isnan(X[:, j])
        mean = np.average(X[ok, j], weights=w[ok])
        std = np.sqrt(np.average((X[ok, j] - mean) ** 2, weights=w[ok]))
        assert model.mean_[j] == pytest.approx(mean, rel=1e-12)
        assert model.scale_[j] == pytest.approx(std, rel=1e-12)
    assert model.mean_[2] == pytest.approx(7.0)
    assert model.mean_[3] == 0.0
    np.testing.assert_array_equal(model.scale_[2:], [1.0, 1.0])
    np.testing.assert_allclose(model.class_count_, [w[y == 0].sum(), w[y == 1].sum()])
    assert np.isfinite(model.predict_proba(X)).all()


def test_posterior_is_neighbour_share(iris):
    # Zaki Sect. 18.3: P(c_i | x) = K_i / K, exactly (V, n_i and n cancel).
    X, y = iris
    model = KNNBayes(n_neighbors=7).fit(X, y)
    counts = model.neighbor_counts(X)
    np.testing.assert_array_equal(counts.sum(axis=1), 7.0)
    np.testing.assert_array_equal(model.predict_proba(X), counts / 7.0)
    assert set(np.unique(counts)) <= set(range(8))


def test_density_formula_euclidean_2d():
    # f(x | c_i) = K_i / (n_i V), V = pi r^2 for a disc (Zaki eq. 6.4 with d = 2).
    X = np.array([[0, 0], [1, 0], [0, 2], [3, 3], [4, 3], [3, 5], [5, 5]], dtype=float)
    y = np.array([0, 0, 0, 1, 1, 1, 1])
    model = KNNBayes(n_neighbors=3).fit(X, y)
    x = np.array([[1.0, 1.0]])
    dist = np.sort(np.hypot(*(X - x).T))
    r = dist[2]
    assert model.radius(x)[0] == pytest.approx(r)
    # the 3 nearest of (1, 1): (1, 0), (0, 0), (0, 2), all class 0
    np.testing.assert_array_equal(model.neighbor_counts(x), [[3.0, 0.0]])
    np.testing.assert_allclose(model.density(x), [[3 / (3 * np.pi * r**2), 0.0]], rtol=1e-12)
    # the joint log density log(K_i / (n V)) that the base class normalises
    with np.errstate(divide="ignore"):
        expected = np.log([3 / (7 * np.pi * r**2), 0.0])
    np.testing.assert_allclose(model.predict_joint_log_proba(x)[0], expected, rtol=1e-12)


@pytest.mark.parametrize(
    ("metric", "p", "unit_volume"),
    [
        ("euclidean", 2, lambda d: np.pi ** (d / 2) / gamma(d / 2 + 1)),
        ("manhattan", 2, lambda d: 2.0**d / gamma(d + 1)),
        ("chebyshev", 2, lambda d: 2.0**d),
        ("minkowski", 3, lambda d: (2 * gamma(1 + 1 / 3)) ** d / gamma(1 + d / 3)),
    ],
)
@pytest.mark.parametrize("d", [1, 2, 4])
def test_density_volume_per_metric(metric, p, unit_volume, d):
    X, y = _blobs(n=120, d=d, n_classes=2, seed=5)
    Xq, _ = _blobs(n=10, d=d, n_classes=2, seed=6)
    model = KNNBayes(n_neighbors=6, metric=metric, p=p).fit(X, y)
    r = model.radius(Xq)
    n_i = np.bincount(y)
    expected = model.neighbor_counts(Xq) / (n_i * unit_volume(d) * r[:, None] ** d)
    np.testing.assert_allclose(model.density(Xq), expected, rtol=1e-10)


def test_density_in_original_units_when_standardised():
    X, y = _blobs(n=200, d=2, seed=7)
    Xq, _ = _blobs(n=20, d=2, seed=8)
    scaled = KNNBayes(scale="standard").fit(X, y)
    z = (X - X.mean(axis=0)) / X.std(axis=0)
    zq = (Xq - X.mean(axis=0)) / X.std(axis=0)
    plain = KNNBayes().fit(z, y)
    # same ball, measured in the original units: V grows by the product of the scales
    np.testing.assert_allclose(
        scaled.density(Xq), plain.density(zq) / np.prod(X.std(axis=0)), rtol=1e-9
    )


def test_density_integrates_to_about_one():
    rng = np.random.default_rng(9)
    X = rng.normal(size=(4000, 1))
    y = (rng.random(4000) < 0.3).astype(int)
    model = KNNBayes(n_neighbors=60).fit(X, y)
    grid = np.linspace(-6, 6, 2001)[:, None]
    mass = model.density(grid).sum(axis=0) * (grid[1, 0] - grid[0, 0])
    np.testing.assert_allclose(mass, 1.0, atol=0.1)  # the KNN density is not normalised exactly


def test_density_is_infinite_on_a_ball_of_no_volume():
    X = np.array([[0.0], [0.0], [0.0], [5.0], [6.0], [7.0]])
    model = KNNBayes(n_neighbors=3).fit(X, [0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(model.density([[0.0]]), [[np.inf, 0.0]])
    np.testing.assert_array_equal(model.predict_proba([[0.0]]), [[1.0, 0.0]])
    assert np.isfinite(model.predict_joint_log_proba([[0.0]])[0, 0])


def test_density_refuses_categorical_features():
    X = pd.DataFrame({"colour": ["r", "g", "r", "b"], "size": [1.0, 2.0, 3.0, 4.0]})
    model = KNNBayes(n_neighbors=2).fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="categorical features \\('colour'\\)"):
        model.density(X)


def test_priors_reweight_the_density_ratio():
    X, y = _blobs(n=200, seed=10)
    priors = np.array([0.5, 0.3, 0.2])
    model = KNNBayes(priors=priors).fit(X, y)
    post = model.neighbor_counts(X) / np.bincount(y) * priors
    np.testing.assert_allclose(model.predict_proba(X), post / post.sum(axis=1, keepdims=True))


# ---------------------------------------------------------------- categorical: overlap distance
def _hamming(a, b):
    return (a[:, None, :] != b[None, :, :]).sum(axis=2)


@pytest.mark.parametrize(("metric", "power"), [("manhattan", 1.0), ("euclidean", 0.5)])
@pytest.mark.parametrize("weight", [1.0, 2.5])
def test_hamming_distance_on_categorical_data(metric, power, weight):
    rng = np.random.default_rng(11)
    X = rng.integers(0, 4, size=(80, 6))
    Xq = rng.integers(0, 4, size=(15, 6))
    model = KNNBayes(metric=metric, categorical_weight=weight, categorical_features="all")
    model.fit(X, rng.integers(0, 2, 80))
    dist, ind = model.kneighbors(Xq, n_neighbors=80)
    h = _hamming(Xq, X)
    np.testing.assert_allclose(dist, (weight * np.take_along_axis(h, ind, axis=1)) ** power)
    assert (np.diff(dist, axis=1) >= 0).all()


def test_shared_ties_on_categorical_data_match_a_direct_count():
    # ties="share": every row at the K-th mismatch count is in the ball, sharing the votes left.
    rng = np.random.default_rng(12)
    X = rng.integers(0, 3, size=(60, 5))
    y = rng.integers(0, 3, 60)
    Xq = rng.integers(0, 3, size=(25, 5))
    model = KNNBayes(n_neighbors=5, ties="share", categorical_features="all").fit(X, y)
    h = _hamming(Xq, X)
    r = np.sort(h, axis=1)[:, 4]
    inside, tied = h < r[:, None], h == r[:, None]
    share = inside + tied * ((5 - inside.sum(axis=1)) / tied.sum(axis=1))[:, None]
    expected = np.stack([(share * (y == c)).sum(axis=1) for c in range(3)], axis=1)
    np.testing.assert_allclose(model.neighbor_counts(Xq), expected, atol=1e-12)


def test_mixed_distance_formula():
    X = pd.DataFrame(
        {"a": ["u", "v", "u", "w"], "b": [0.0, 1.0, 3.0, 0.5], "c": [0.0, 0.0, 1.0, 2.0]}
    )
    q = pd.DataFrame({"a": ["v"], "b": [0.5], "c": [0.5]})
    for metric, p in [("euclidean", 2), ("manhattan", 1), ("minkowski", 3)]:
        model = KNNBayes(n_neighbors=4, metric=metric, p=p, categorical_weight=0.7).fit(
            X, [0, 1, 0, 1]
        )
        dist, ind = model.kneighbors(q)
        num = (np.abs(X[["b", "c"]].to_numpy() - [0.5, 0.5]) ** p).sum(axis=1)
        expected = (num + 0.7 * (X["a"] != "v").to_numpy()) ** (1 / p)
        np.testing.assert_allclose(dist[0], expected[ind[0]], rtol=1e-12)
    model = KNNBayes(n_neighbors=4, metric="chebyshev", categorical_weight=0.7).fit(X, [0, 1, 0, 1])
    dist, ind = model.kneighbors(q)
    num = np.abs(X[["b", "c"]].to_numpy() - [0.5, 0.5]).max(axis=1)
    expected = np.maximum(num, 0.7 * (X["a"] != "v").to_numpy())
    np.testing.assert_allclose(dist[0], expected[ind[0]], rtol=1e-12)


# ---------------------------------------------------------------- ties
def test_class_ties_go_to_the_first_class():
    X = np.array([[0.0], [1.0], [-1.0], [2.0]])
    model = KNNBayes(n_neighbors=2).fit(X, ["b", "a", "b", "a"])
    # the 2 nearest of 0.4 are 0 (b) and 1 (a): a tie, and "a" comes first in classes_
    np.testing.assert_array_equal(model.predict_proba([[0.4]]), [[0.5, 0.5]])
    assert model.predict([[0.4]])[0] == "a"


def test_shared_ties_do_not_depend_on_row_order(iris):
    X, y = iris
    rng = np.random.default_rng(13)
    base = KNNBayes(ties="share", weights="distance").fit(X, y)
    for _ in range(3):
        perm = rng.permutation(len(y))
        other = KNNBayes(ties="share", weights="distance").fit(X.iloc[perm], y[perm])
        np.testing.assert_allclose(other.predict_proba(X), base.predict_proba(X), atol=1e-12)


def test_shared_tie_at_the_kth_distance():
    X = np.array([[0.0], [1.0], [-1.0], [5.0]])
    model = KNNBayes(n_neighbors=2, ties="share").fit(X, [0, 1, 0, 1])
    # the nearest of 0 is itself (class 0); 1 and -1 tie for 2nd place and share one vote
    np.testing.assert_allclose(model.neighbor_counts([[0.0]]), [[1.5, 0.5]])


def test_distance_weights_let_exact_matches_vote_alone():
    X = np.array([[0.0], [0.0], [0.1], [0.2], [0.3]])
    model = KNNBayes(n_neighbors=5, weights="distance").fit(X, [0, 1, 1, 1, 1])
    np.testing.assert_allclose(model.predict_proba([[0.0]]), [[0.5, 0.5]])
    np.testing.assert_allclose(model.neighbor_counts([[0.0]]), [[2.5, 2.5]])


# ---------------------------------------------------------------- weights, chunks, missing values
@pytest.mark.parametrize("ties", ["index", "share"])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_integer_weights_equal_repeated_rows(iris, ties, weights):
    X, y = iris
    w = np.random.default_rng(14).integers(0, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    a = KNNBayes(ties=ties, weights=weights).fit(X, y, sample_weight=w)
    b = KNNBayes(ties=ties, weights=weights).fit(X.iloc[rep], y[rep])
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(a.neighbor_counts(X), b.neighbor_counts(X), atol=1e-12)


def test_fractional_weight_counts_partly():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    model = KNNBayes(n_neighbors=2).fit(X, [0, 1, 0, 1], sample_weight=[0.5, 1.0, 1.0, 1.0])
    # ball around 0: 0 (weight .5), 1 (weight 1), then .5 of the row at 2
    np.testing.assert_allclose(model.neighbor_counts([[0.0]]), [[1.0, 1.0]])
    assert model.radius([[0.0]])[0] == 2.0


def test_fewer_rows_than_k_use_all_rows():
    model = KNNBayes(n_neighbors=10).fit([[0.0], [1.0], [2.0]], [0, 1, 1])
    np.testing.assert_allclose(model.predict_proba([[0.0]]), [[1 / 3, 2 / 3]])


def test_partial_fit_equals_fit_and_grows_vocabularies():
    rng = np.random.default_rng(15)
    n = 240
    y = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {"a": np.array(list("uvwz"))[(y + rng.integers(0, 2, n)) % 4], "b": rng.normal(y, 1.0)}
    )
    order = np.argsort(X["a"].to_numpy(), kind="stable")  # later chunks bring new categories
    X, y = X.iloc[order].reset_index(drop=True), y[order]
    whole = KNNBayes(weights="distance").fit(X, y)
    inc = KNNBayes(weights="distance")
    for part in np.array_split(np.arange(n), 4):
        inc.partial_fit(X.iloc[part], y[part], classes=[0, 1, 2])
    assert inc.schema_ == whole.schema_
    np.testing.assert_array_equal(inc.predict_proba(X), whole.predict_proba(X))


def test_partial_fit_after_a_chunk_with_no_category_observed():
    # the first chunk's column "a" is all missing: its vocabulary starts empty and every code
    # held is -1, which the re-coding must leave alone (it used to index an empty mapping)
    X = pd.DataFrame({"a": [None, None, "u", "v", "u"], "b": [0.0, 1.0, 0.5, 2.0, 0.1]})
    y = np.array([0, 1, 0, 1, 0])
    inc = KNNBayes(n_neighbors=3).partial_fit(X.iloc[:2], y[:2], classes=[0, 1])
    inc.partial_fit(X.iloc[2:], y[2:])
    whole = KNNBayes(n_neighbors=3).fit(X, y)
    np.testing.assert_array_equal(inc.stats_.codes, whole.stats_.codes)
    np.testing.assert_array_equal(inc.predict_proba(X), whole.predict_proba(X))


def test_stats_add_concatenates_rows():
    X, y = _blobs(n=50, seed=16)
    a = KNNBayes().fit(X[:20], y[:20]).stats_
    b = KNNBayes().fit(X[20:], y[20:]).stats_
    whole = KNNBayes().fit(X, y).stats_
    both = a + b
    np.testing.assert_array_equal(both.values, whole.values)
    np.testing.assert_array_equal(both.y, whole.y)
    np.testing.assert_array_equal(both.class_count, whole.class_count)


def test_missing_query_value_drops_the_feature():
    X, y = _blobs(n=200, d=3, seed=17)
    Xq, _ = _blobs(n=30, d=3, seed=18)
    full = KNNBayes().fit(X, y)
    sub = KNNBayes().fit(X[:, [0, 2]], y)
    holey = Xq.copy()
    holey[:, 1] = np.nan
    np.testing.assert_array_equal(full.predict_proba(holey), sub.predict_proba(Xq[:, [0, 2]]))
    np.testing.assert_allclose(full.density(holey), sub.density(Xq[:, [0, 2]]), rtol=1e-12)


def test_missing_query_category_drops_the_feature():
    rng = np.random.default_rng(19)
    X = pd.DataFrame({"a": rng.choice(list("uvw"), 100), "b": rng.choice(list("pq"), 100)})
    y = rng.integers(0, 2, 100)
    q = pd.DataFrame({"a": ["u", "v", "w"], "b": [None, None, None]})
    full = KNNBayes(ties="share").fit(X, y)
    sub = KNNBayes(ties="share").fit(X[["a"]], y)
    np.testing.assert_allclose(full.predict_proba(q), sub.predict_proba(q[["a"]]), atol=1e-12)


def test_row_with_nothing_observed_gets_class_frequencies():
    X, y = _blobs(n=90, seed=20)
    model = KNNBayes().fit(X, y)
    np.testing.assert_allclose(
        model.predict_proba(np.full((2, 3), np.nan)), np.tile(np.bincount(y) / 90, (2, 1))
    )


@pytest.mark.parametrize(
    "kw", [{}, {"weights": "distance"}, {"scale": "standard", "ties": "share"}]
)
def test_missing_values_never_give_nan(kw):
    rng = np.random.default_rng(21)
    n = 200
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({"a": rng.choice(["u", "v", "w"], n).astype(object), "b": rng.normal(y, 1.0)})
    X.loc[rng.random(n) < 0.2, "a"] = None
    X.loc[rng.random(n) < 0.2, "b"] = np.nan
    model = KNNBayes(**kw).fit(X, y)
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert not np.isnan(model.predict_joint_log_proba(X)).any()


# ---------------------------------------------------------------- interfaces and errors
def test_registered_and_exported():
    assert MODELS["knn-bayes"] is KNNBayes
    assert "KNNBayes" in bayeskit.__all__


def test_save_and_load_round_trip(tmp_path, iris):
    io = pytest.importorskip("bayeskit.io")
    X, y = iris
    model = KNNBayes(weights="distance", scale="standard").fit(X, y)
    io.save(model, tmp_path / "knn.bayeskit")
    again = io.load(tmp_path / "knn.bayeskit")
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"n_neighbors": 0}, ValueError, "n_neighbors must be >= 1, got 0"),
        ({"n_neighbors": 2.5}, TypeError, "n_neighbors must be an integer"),
        ({"weights": "gaussian"}, ValueError, "weights must be one of 'uniform', 'distance'"),
        ({"metric": "cosine"}, ValueError, "metric must be one of 'euclidean'"),
        ({"p": 0.5}, ValueError, "p must be >= 1, got 0.5"),
        ({"scale": "minmax"}, ValueError, "scale must be one of None, 'standard'"),
        ({"categorical_weight": -1}, ValueError, "categorical_weight must be >= 0"),
        ({"ties": "random"}, ValueError, "ties must be one of 'index', 'share'"),
        ({"algorithm": "lsh"}, ValueError, "algorithm must be one of"),
        ({"posterior_alpha": -1}, ValueError, "posterior_alpha must be >= 0, got -1"),
    ],
)
def test_bad_parameters_are_refused_at_fit(kw, error, match):
    with pytest.raises(error, match=match):
        KNNBayes(**kw).fit([[0.0], [1.0]], [0, 1])


def test_kneighbors_refuses_more_neighbours_than_rows():
    model = KNNBayes(n_neighbors=2).fit([[0.0], [1.0], [2.0]], [0, 1, 1])
    with pytest.raises(ValueError, match="n_neighbors=4 exceeds the 3 training rows"):
        model.kneighbors([[0.0]], n_neighbors=4)


# ---------------------------------------------------------------- smoothed posterior
# six rows on a line, classes a (3 rows), b (2), c (1); the 3 nearest neighbours of 0.05 are the
# three a's: K = (3, 0, 0)
_LINE_X = [[0.0], [0.1], [0.2], [5.0], [5.1], [9.0]]
_LINE_Y = ["a", "a", "a", "b", "b", "c"]


def test_default_posterior_is_the_vote_share():
    model = KNNBayes(n_neighbors=3).fit(_LINE_X, _LINE_Y)
    np.testing.assert_array_equal(model.predict_proba([[0.05]]), [[1.0, 0.0, 0.0]])


def test_posterior_alpha_adds_a_pseudo_count_per_class():
    # (K_i + a) / (K + a C) = (3 + 1, 0 + 1, 0 + 1) / (3 + 3)
    model = KNNBayes(n_neighbors=3, posterior_alpha=1.0).fit(_LINE_X, _LINE_Y)
    np.testing.assert_allclose(model.predict_proba([[0.05]]), [[4 / 6, 1 / 6, 1 / 6]], rtol=1e-12)
    np.testing.assert_allclose(
        model.predict_log_proba([[0.05]]), np.log([[4 / 6, 1 / 6, 1 / 6]]), rtol=1e-12
    )
    assert model.predict([[0.05]])[0] == "a"
    # the counts themselves are not smoothed
    np.testing.assert_array_equal(model.neighbor_counts([[0.05]]), [[3.0, 0.0, 0.0]])


def test_posterior_alpha_with_a_smoothed_prior():
    # P(c_i) (K_i + a) / n_i with P(c) = (n_c + 1) / (n + C) = (4, 3, 2) / 9 and a = 0.5:
    # (4/9 * 3.5/3, 3/9 * 0.5/2, 2/9 * 0.5/1), normalised
    model = KNNBayes(n_neighbors=3, posterior_alpha=0.5, prior_alpha=1.0).fit(_LINE_X, _LINE_Y)
    raw = np.array([4 / 9 * 3.5 / 3, 3 / 9 * 0.5 / 2, 2 / 9 * 0.5 / 1])
    np.testing.assert_allclose(model.predict_proba([[0.05]]), [raw / raw.sum()], rtol=1e-12)


def test_posterior_alpha_keeps_a_zero_prior_at_zero():
    # P(c_i) (K_i + a) / n_i = (0.5 * 4 / 3, 0.5 * 1 / 2, 0 * 1 / 1), normalised: (8, 3, 0) / 11
    model = KNNBayes(n_neighbors=3, posterior_alpha=1.0, priors=[0.5, 0.5, 0.0])
    proba = model.fit(_LINE_X, _LINE_Y).predict_proba([[0.05]])
    np.testing.assert_allclose(proba, [[8 / 11, 3 / 11, 0.0]], rtol=1e-12)
