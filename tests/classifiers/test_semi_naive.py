"""SPODE, AODE, AnDE and TAN: the one-dependence classifiers over the family engine."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import bayeskit
from bayeskit.classifiers import AODE, SPODE, TAN, AnDE, NaiveBayes
from bayeskit.data import datasets
from bayeskit.exceptions import SchemaError

FAMILY_MODELS = [
    SPODE(),
    SPODE(parent="x2"),
    AODE(m=5),
    AnDE(n=2, m=2),
    TAN(),
    TAN(cmi="per-class"),
]


def _categorical(n=400, d=5, seed=0, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = {}
    prev = y
    for j in range(d):  # a chain x0 -> x1 -> ... with the class behind it
        noise = rng.integers(0, 3, n)
        cols[f"x{j}"] = np.where(rng.random(n) < 0.6, (prev + y) % 3, noise)
        prev = cols[f"x{j}"]
    X = pd.DataFrame({k: pd.Series(v).map({0: "a", 1: "b", 2: "c"}) for k, v in cols.items()})
    if missing:
        X = X.mask(rng.random(X.shape) < missing)
    return X, np.array(["lo", "mid", "hi"])[y]


# ------------------------------------------------------------------ conformance
def test_zhou_aode_estimates_watermelon():
    # Zhou ch. 7, Sect. 7.4, Eqs. (7.24)-(7.25), watermelon data set 3.0 (case
    # zhou-7.4-aode-estimates): P^(ripe=true, sound=muffled) = (6 + 1) / (17 + 3 * 2) = 7/23,
    # P^(umbilicus=hollow | ripe=true, sound=muffled) = (3 + 1) / (6 + 3) = 4/9
    X, y = datasets.load("watermelon3")
    model = AODE().fit(X, y)
    c = list(model.classes_).index("true")
    muffled = model.schema_.column("sound").categories.index("muffled")
    hollow = model.schema_.column("umbilicus").categories.index("hollow")
    joint = np.exp(model.joint_log_table(("sound",)))
    assert joint[c, muffled] == pytest.approx(7 / 23, abs=1e-12)
    assert joint.sum() == pytest.approx(1.0)
    cond = np.exp(model.conditional_log_table("umbilicus", given=("sound",)))
    assert cond[c, muffled, hollow] == pytest.approx(4 / 9, abs=1e-12)


def _count(rows, **match) -> int:
    """Rows of a DataFrame whose columns equal the given values (a brute-force count)."""
    hit = np.ones(len(rows), dtype=bool)
    for col, value in match.items():
        hit &= (rows[col] == value).to_numpy()
    return int(hit.sum())


def _aode_by_counting(X, y, classes, prior=None):
    """Zhou Eqs. (7.23)-(7.25) from the raw rows, one row and one class at a time: the mean over
    super-parents i of P(c, x_i) prod_{j != i} P(x_j | c, x_i), Laplace-corrected; with ``prior``
    given, P(c) P(x_i | c) in place of P(c, x_i). Returns log P(c, x), shape (rows, classes)."""
    data = X.assign(_y=y)
    cols = list(X.columns)
    levels = {col: len(X[col].unique()) for col in cols}
    out = np.zeros((len(X), len(classes)))
    for r, (_, row) in enumerate(X.iterrows()):
        for k, c in enumerate(classes):
            total = 0.0
            for i in cols:
                n_ci = _count(data, _y=c, **{i: row[i]})
                if prior is None:
                    term = (n_ci + 1) / (len(data) + len(classes) * levels[i])
                else:
                    term = prior[k] * (n_ci + 1) / (_count(data, _y=c) + levels[i])
                for j in cols:
                    if j != i:
                        n_cij = _count(data, _y=c, **{i: row[i], j: row[j]})
                        term *= (n_cij + 1) / (n_ci + levels[j])
                total += term
            out[r, k] = np.log(total / len(cols))
    return out


def test_aode_joint_is_the_mean_of_its_spodes():
    # Zhou Eq. (7.23): P(c | x) ∝ sum over qualifying i of P(c, x_i) prod_j P(x_j | c, x_i),
    # the estimates counted from the raw rows (Eqs. 7.24-7.25), not read from the model
    X, y = _categorical(n=60, d=4)
    model = AODE(m=0).fit(X, y)
    expected = _aode_by_counting(X, y, model.classes_)
    np.testing.assert_allclose(model.predict_joint_log_proba(X), expected, rtol=1e-12)


def test_aode_with_given_priors_uses_them_with_the_conditional_of_the_super_parent():
    X, y = _categorical(n=60, d=3, seed=2)
    priors = np.array([0.2, 0.5, 0.3])
    model = AODE(m=0, priors=priors).fit(X, y)
    expected = _aode_by_counting(X, y, model.classes_, prior=priors)
    np.testing.assert_allclose(model.predict_joint_log_proba(X), expected, rtol=1e-12)


# ------------------------------------------------------------------ properties
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_aode_with_m_above_the_rows_is_naive_bayes(missing):
    X, y = _categorical(missing=missing)
    nb = NaiveBayes().fit(X, y)
    aode = AODE(m=len(X) + 1).fit(X, y)
    np.testing.assert_allclose(
        aode.predict_log_proba(X), nb.predict_log_proba(X), rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("data", ["car", "watermelon3"])
def test_ande_with_n_0_is_naive_bayes_through_the_engine(data):
    # the family engine with the structure of no feature parents equals today's naive Bayes
    X, y = datasets.load(data)
    for params in ({}, {"alpha": 0.5, "prior_alpha": 0.0}, {"smoothing": "m-estimate"}):
        nb = NaiveBayes(**params).fit(X, y)
        ande = AnDE(n=0, **params).fit(X, y)
        np.testing.assert_allclose(
            ande.predict_joint_log_proba(X), nb.predict_joint_log_proba(X), atol=1e-12
        )


def _sample_tan(n, parents, rng, n_states=3, n_classes=2):
    """Rows from a tree-augmented network: class -> every feature, plus the given tree."""
    d = len(parents)
    y = rng.integers(0, n_classes, n)
    X = np.zeros((n, d), dtype=np.int64)
    order = sorted(range(d), key=lambda j: _depth(j, parents))
    cpts = {j: rng.dirichlet(np.full(n_states, 0.3), size=(n_classes, n_states)) for j in range(d)}
    for j in order:
        pa = X[:, parents[j]] if parents[j] is not None else np.zeros(n, dtype=np.int64)
        p = cpts[j][y, pa]
        u = rng.random(n)[:, None]
        X[:, j] = (u > np.cumsum(p, axis=1)).sum(axis=1)
    return X, y


def _depth(j, parents):
    k = 0
    while parents[j] is not None:
        j, k = parents[j], k + 1
    return k


def test_tan_recovers_the_tree_it_was_sampled_from():
    rng = np.random.default_rng(11)
    parents = [None, 0, 0, 1, 1, 2, 5, 6]
    X, y = _sample_tan(20_000, parents, rng)
    model = TAN(root=0, categorical_features="all").fit(X, y)
    expected = {f"x{j}": (() if p is None else (f"x{p}",)) for j, p in enumerate(parents)}
    assert model.structure_ == expected
    assert model.root_ == "x0"
    assert len(model.edges_) == len(parents) - 1


def test_spode_leave_one_out_equals_a_brute_force_refit():
    X, y = _categorical(n=60, d=4, seed=3, missing=0.05)
    categories = {c: ["a", "b", "c"] for c in X.columns}
    model = SPODE(categories=categories, alpha=0.7, prior_alpha=0.5).fit(X, y)
    brute = np.zeros(4)
    for p in range(4):
        for i in range(len(X)):
            rest = np.arange(len(X)) != i
            one = SPODE(parent=p, categories=categories, alpha=0.7, prior_alpha=0.5)
            one.fit(X[rest], y[rest])
            row = X.iloc[[i]]
            brute[p] += one.predict_log_proba(row)[0, list(one.classes_).index(y[i])]
    np.testing.assert_array_equal(model.stats_.scores[0], 0.0)
    np.testing.assert_allclose(model.stats_.scores[1], brute, rtol=1e-10)
    np.testing.assert_allclose(model.loo_log_loss_, -brute / len(X), rtol=1e-10)
    assert model.parent_ == f"x{int(np.argmax(brute))}"


@pytest.mark.parametrize(
    "make",
    [
        lambda: TAN(),
        lambda: AODE(m=3),
        lambda: AnDE(n=2, m=1),
        lambda: SPODE(parent="x1"),
    ],
)
def test_partial_fit_equals_fit(make):
    X, y = _categorical(n=300, missing=0.05, seed=5)
    whole = make().fit(X, y)
    parts = make()
    classes = np.unique(y)
    for lo in range(0, len(X), 70):
        parts.partial_fit(X.iloc[lo : lo + 70], y[lo : lo + 70], classes=classes)
    np.testing.assert_allclose(_flat_counts(parts), _flat_counts(whole))
    assert getattr(parts, "structure_", None) == getattr(whole, "structure_", None)
    np.testing.assert_allclose(
        parts.predict_log_proba(X), whole.predict_log_proba(X), rtol=1e-12, atol=1e-12
    )


def _flat_counts(model):
    counts = model.stats_.counts  # SPODE keeps FamilyCounts inside ScoredCounts
    return counts if isinstance(counts, np.ndarray) else counts.counts


def test_partial_fit_grows_vocabularies_exactly():
    X, y = _categorical(n=200, seed=8)
    first = X.iloc[:100].replace("c", "a")  # "c" first seen in the second chunk
    whole = TAN().fit(pd.concat([first, X.iloc[100:]]), y)
    parts = TAN().partial_fit(first, y[:100], classes=np.unique(y))
    parts.partial_fit(X.iloc[100:], y[100:])
    assert parts.structure_ == whole.structure_
    np.testing.assert_allclose(parts.predict_proba(X), whole.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("model", FAMILY_MODELS, ids=repr)
def test_missing_values_give_finite_posteriors(model):
    X, y = _categorical(missing=0.2, seed=9)
    proba = model.fit(X, y).predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    all_missing = pd.DataFrame([[None] * X.shape[1]], columns=X.columns)
    np.testing.assert_allclose(
        model.predict_log_proba(all_missing)[0],
        model.log_prior_ - np.log(np.exp(model.log_prior_).sum()),
    )


def test_tan_missing_parent_uses_the_class_conditional():
    X, y = _categorical(n=300, seed=12)
    model = TAN().fit(X, y)
    _, (parent,) = next((c, p) for c, p in model.structure_.items() if p)
    row = X.iloc[[0]].copy()
    row[parent] = None
    # brute force from the raw rows: Laplace-corrected P(c) and P(x_j | c, parent), with
    # P(x_j | c) for the feature whose parent is missing (the missing feature itself dropped)
    data = X.assign(_y=y)
    x = row.iloc[0]
    expected = np.zeros(len(model.classes_))
    for k, c in enumerate(model.classes_):
        n_c = _count(data, _y=c)
        expected[k] = np.log((n_c + 1) / (len(data) + len(model.classes_)))
        for name in X.columns:
            if name == parent:
                continue
            levels = len(X[name].unique())
            (pa,) = model.structure_[name] or (None,)
            if pa is None or pa == parent:
                n = _count(data, _y=c, **{name: x[name]})
                expected[k] += np.log((n + 1) / (n_c + levels))
            else:
                n_pa = _count(data, _y=c, **{pa: x[pa]})
                n = _count(data, _y=c, **{pa: x[pa], name: x[name]})
                expected[k] += np.log((n + 1) / (n_pa + levels))
    np.testing.assert_allclose(model.predict_joint_log_proba(row)[0], expected, rtol=1e-12)


def test_numeric_columns_are_discretized_by_default():
    X, y = datasets.load("watermelon3")
    model = TAN().fit(X, y)
    assert model.schema_.column("density").cuts is not None
    with pytest.raises(SchemaError, match=r"numeric columns \['density', 'sugar'\]"):
        TAN(discretize=None).fit(X, y)


def test_explain_adds_up_to_the_log_odds():
    X, y = _categorical(n=300, seed=13)
    model = TAN().fit(X, y)
    contrib = model.explain(X.iloc[:5])
    log_post = model.predict_log_proba(X.iloc[:5])
    lhs = log_post[:, 0] - log_post[:, 1]
    rhs = (model.log_prior_[0] - model.log_prior_[1]) + (contrib[:, :, 0] - contrib[:, :, 1]).sum(1)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)
    frame = model.explain(X.iloc[:2], as_frame=True)
    assert list(frame.columns) == ["row", "feature", "value", "class", "contribution"]
    with pytest.raises(AttributeError, match="averages several structures"):
        AODE().fit(X, y).explain(X.iloc[:1])


def test_cost_sensitive_decisions_and_reject_option():
    X, y = _categorical(seed=14)
    model = AODE().fit(X, y)
    proba = model.predict_proba(X)
    cost = np.ones((3, 3)) - np.eye(3)
    cost[:, list(model.classes_).index("hi")] *= 10  # missing "hi" costs 10
    decided = model.predict(X, cost=cost)
    assert (decided == "hi").sum() >= (model.predict(X) == "hi").sum()
    out = model.decide(X, reject_threshold=0.2, reject_label="?")
    assert ((out == "?") == (proba.max(axis=1) < 0.8)).all()


def test_save_and_load_round_trip(tmp_path):
    X, y = _categorical(missing=0.1, seed=15)
    for model in FAMILY_MODELS:
        model.fit(X, y)
        again = bayeskit.load(bayeskit.save(model, tmp_path / "m.bayeskit"))
        np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
        assert getattr(again, "structure_", None) == getattr(model, "structure_", None)


# ------------------------------------------------------------------ errors
def test_too_many_cells_is_refused_before_counting(monkeypatch):
    import bayeskit.classifiers._family as family

    monkeypatch.setattr(family, "MEMORY_LIMIT", 100_000)
    X, y = _categorical(d=6)
    with pytest.raises(MemoryError, match=r"AnDE would count .* families holding .* GiB"):
        AnDE(n=2).fit(X, y)


@pytest.mark.parametrize(
    ("model", "match"),
    [
        (SPODE(parent="nope"), r"parent='nope' is not a feature"),
        (SPODE(parent=9), r"parent=9 is not a feature"),
        (TAN(root="nope"), r"root='nope' is not a feature"),
        (AnDE(n=6), r"n=6 is larger than the number of features \(n_features=5\)"),
        (AnDE(n=-1), r"n must be >= 0"),
        (AODE(m=-1), r"m must be >= 0"),
        (TAN(cmi="mi"), r"cmi must be one of"),
        (AODE(alpha=-1), r"alpha must be >= 0"),
    ],
)
def test_bad_arguments_are_named(model, match):
    X, y = _categorical()
    with pytest.raises(ValueError, match=match):
        model.fit(X, y)
    assert not hasattr(model, "stats_")  # a failed fit leaves nothing behind


# ------------------------------------------------------------------ found in review
def test_naive_bayes_through_the_engine_equals_its_formula():
    # Zhou Eqs. (7.15), (7.19)-(7.20) computed with numpy from the raw data, independent of
    # any kernel: log P(c) + sum_j log P(x_j | c), Laplace on both, missing values skipped
    X, y = _categorical(n=200, missing=0.1, seed=21)
    model = NaiveBayes().fit(X, y)
    classes = model.classes_
    n_c = np.array([(y == c).sum() for c in classes], dtype=float)
    expected = np.tile(np.log((n_c + 1) / (n_c.sum() + len(classes))), (len(X), 1))
    for col in X.columns:
        values = sorted(X[col].dropna().unique())
        for k, c in enumerate(classes):
            seen = X[col][y == c].dropna()
            p = {v: ((seen == v).sum() + 1) / (len(seen) + len(values)) for v in values}
            expected[:, k] += [0.0 if pd.isna(v) else np.log(p[v]) for v in X[col]]
    np.testing.assert_allclose(model.predict_joint_log_proba(X), expected, rtol=1e-12)


@pytest.mark.parametrize("make", [TAN, SPODE, lambda: SPODE(parent=0), AODE, lambda: AnDE(n=2)])
def test_a_column_with_no_value_at_all(make):
    X, y = _categorical(n=60, d=3, seed=22)
    X["empty"] = None
    proba = make().fit(X, y).predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_spode_prefers_the_candidate_that_finds_no_row_impossible():
    # alpha=0: a category seen once makes its row impossible when left out, under the
    # candidates that hold it; the choice goes to the fewest such rows, not to feature 0
    rng = np.random.default_rng(23)
    n = 200
    y = rng.integers(0, 2, n)
    X = pd.DataFrame(
        {
            "rare": np.where(np.arange(n) == 0, "once", rng.choice(["a", "b"], n)),
            "x1": np.where(rng.random(n) < 0.9, y, 1 - y).astype(str),
            "x2": rng.choice(["a", "b"], n),
        }
    )
    model = SPODE(alpha=0).fit(X, y)
    impossible = model.stats_.scores[0]
    assert impossible[0] > 0  # the rare category's own row, left out, is impossible
    assert model.parent_ != "rare"
    assert np.isinf(model.loo_log_loss_[0])
    assert impossible[model.schema_.names.index(model.parent_)] == impossible.min()


def test_spode_partial_fit_in_one_chunk_is_fit_and_in_several_keeps_the_counts():
    X, y = _categorical(n=120, seed=24)
    whole = SPODE().fit(X, y)
    one = SPODE().partial_fit(X, y, classes=np.unique(y))
    assert one.parent_ == whole.parent_
    np.testing.assert_allclose(one.stats_.scores, whole.stats_.scores, rtol=1e-12)
    parts = SPODE()
    for lo in range(0, 120, 30):
        parts.partial_fit(X.iloc[lo : lo + 30], y[lo : lo + 30], classes=np.unique(y))
    np.testing.assert_allclose(parts.stats_.counts.counts, whole.stats_.counts.counts)
    # the tables of any one super-parent agree; only the choice may differ (documented)
    same = SPODE(parent=parts.parent_).fit(X, y)
    np.testing.assert_allclose(parts.predict_proba(X), same.predict_proba(X), atol=1e-12)


def test_order_is_checked_before_anything_is_counted(monkeypatch):
    import bayeskit.classifiers._family as family

    def never(*args, **kwargs):
        raise AssertionError("counted before the argument check")

    monkeypatch.setattr(family, "family_counts", never)
    X, y = _categorical(d=5)
    with pytest.raises(ValueError, match=r"n=16 is larger than the number of features"):
        AnDE(n=16).fit(X, y)


def test_integer_parent_is_a_column_label_before_a_position():
    X, y = _categorical(n=100, d=3, seed=25)
    X.columns = [10, 20, 30]
    assert SPODE(parent=20).fit(X, y).parent_ == "20"
    X.columns = [1, 0, 2]
    assert SPODE(parent=0).fit(X, y).parent_ == "0"  # the label 0, the second column
    arr = X.to_numpy()
    assert SPODE(parent=2).fit(arr, y).parent_ == "x2"  # no labels: a position
    assert TAN(root="x1").fit(arr, y).root_ == "x1"


def test_ande_with_n_0_explains_like_naive_bayes():
    X, y = _categorical(n=100, seed=26)
    np.testing.assert_allclose(
        AnDE(n=0).fit(X, y).explain(X.iloc[:3]), NaiveBayes().fit(X, y).explain(X.iloc[:3])
    )


def test_spode_with_an_unseen_class_warns_nothing():
    X, y = _categorical(n=90, seed=27)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        SPODE(prior_alpha=0).partial_fit(X, y, classes=[*np.unique(y), "zz"])


@pytest.mark.parametrize("model", [lambda: AnDE(n=2), lambda: AODE(), lambda: SPODE()])
def test_columns_labelled_by_numbers_are_not_read_as_positions(model):
    """Internal tables are asked for by position: columns labelled "1".."4" (so that the label
    1 is position 0) give the same model as any other labels (a regression: AnDE asked for the
    family (class, 0, 0))."""
    X, y = datasets.load("car")
    X = X.iloc[:, :4]
    numbered = X.set_axis([str(i + 1) for i in range(4)], axis=1)
    lettered = X.set_axis(list("abcd"), axis=1)
    a = model().fit(numbered, y).predict_proba(numbered)
    b = model().fit(lettered, y).predict_proba(lettered)
    np.testing.assert_allclose(a, b, atol=1e-12)
