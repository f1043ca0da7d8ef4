"""Distributed fitting on Dask: statistics per partition, summed as a tree, on a
LocalCluster of 2 worker processes; every counting model equals its in-memory fit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

from bayeskit import dask as bkd  # noqa: E402
from bayeskit.classifiers import (  # noqa: E402
    AODE,
    KDB,
    SPODE,
    TAN,
    AnDE,
    BernoulliNaiveBayes,
    FullBayes,
    KNNBayes,
    MultinomialNaiveBayes,
    NaiveBayes,
    NBTree,
    SelectiveKDB,
    SubclassNaiveBayes,
)
from bayeskit.data import datasets  # noqa: E402
from bayeskit.data.schema import SchemaError  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def car():
    X, y = datasets.load("car")
    X = X.apply(lambda c: "v" + c.astype(str))
    return X, np.asarray(y)


# (KNN with ties="share": with "index", rows tied at the K-th distance are chosen in the
# neighbour index's order, which may differ between a batch and its parts)
COUNTING = [NaiveBayes(), FullBayes(), KNNBayes(ties="share"), SPODE(), AODE(), AnDE(),
            TAN(), KDB(), KDB(k=3, smoothing="lidstone"), SelectiveKDB()]  # fmt: skip


@pytest.mark.parametrize("model", COUNTING, ids=lambda m: repr(m))
def test_every_counting_model_equals_its_in_memory_fit(client, car, model):
    X, y = car
    ddf = dd.from_pandas(X.assign(label=y), npartitions=4)
    fitted = bkd.fit(model.__class__(**model.get_params()), ddf, "label")
    whole = model.__class__(**model.get_params()).fit(X, y)
    np.testing.assert_allclose(fitted.predict_proba(X), whole.predict_proba(X), atol=1e-12)
    if hasattr(whole, "structure_"):
        assert fitted.structure_ == whole.structure_
    proba = bkd.predict_proba(fitted, dd.from_pandas(X, npartitions=3)).compute()
    np.testing.assert_allclose(proba.to_numpy(), whole.predict_proba(X), atol=1e-12)
    assert list(proba.columns) == [str(c) for c in whole.classes_]
    labels = bkd.predict(fitted, dd.from_pandas(X, npartitions=3)).compute()
    np.testing.assert_array_equal(labels.to_numpy(), whole.predict(X))


def test_numeric_count_and_weighted_data(client):
    rng = np.random.default_rng(0)
    n = 1200
    values = rng.normal(size=(n, 3)) + np.repeat(np.arange(3), n // 3)[:, None]
    y = np.repeat(["a", "b", "c"], n // 3)
    w = rng.integers(1, 4, size=n).astype(float)
    frame = pd.DataFrame(values, columns=["u", "v", "w"]).assign(label=y, weight=w)
    ddf = dd.from_pandas(frame, npartitions=5)
    gauss = bkd.fit(NaiveBayes(discretize=None), ddf, "label", sample_weight="weight")
    X = frame[["u", "v", "w"]]
    whole = NaiveBayes(discretize=None).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(gauss.predict_proba(X), whole.predict_proba(X), atol=1e-12)
    counts = pd.DataFrame(rng.poisson(2.0, size=(n, 6)), columns=list("abcdef"))
    labels = (counts["a"] + counts["b"] > counts["c"] + 1).astype(int)
    cdf = dd.from_pandas(counts.assign(label=labels), npartitions=3)
    for model in (MultinomialNaiveBayes(), BernoulliNaiveBayes(binarize=1.0)):
        a = bkd.fit(model.__class__(**model.get_params()), cdf, "label")
        b = model.__class__(**model.get_params()).fit(counts, labels)
        np.testing.assert_allclose(a.predict_proba(counts), b.predict_proba(counts), atol=1e-12)


def test_categories_seen_only_in_a_late_partition_and_errors(client, car):
    X, y = car
    late = X.copy()
    late.loc[late.index[-3:], "buying"] = "vnew"
    ddf = dd.from_pandas(late.assign(label=y), npartitions=4)
    model = bkd.fit(TAN(), ddf, "label")
    assert "vnew" in model.schema_.column("buying").categories
    whole = TAN().fit(late, y)
    np.testing.assert_allclose(model.predict_proba(late), whole.predict_proba(late), atol=1e-12)
    for other in (NBTree(), SubclassNaiveBayes()):
        with pytest.raises(TypeError, match="use model.fit_chunks"):
            bkd.fit(other, ddf, "label")
    with pytest.raises(ValueError, match="no column 'class'"):
        bkd.fit(TAN(), ddf, "class")
    with pytest.raises(TypeError, match="dask DataFrame"):
        bkd.fit(TAN(), late.assign(label=y), "label")
    # declared categories do not grow: a value outside them is refused, as by fit
    declared = {"buying": sorted(X["buying"].unique())}
    with pytest.raises(SchemaError, match=r"values \['vnew'\] outside its declared"):
        TAN(categories=declared).fit(late, y)
    with pytest.raises(SchemaError, match=r"values \['vnew'\] outside its declared"):
        bkd.fit(TAN(categories=declared), ddf, "label")


def test_network_structure_on_dask_equals_the_in_memory_search(client):
    from pathlib import Path

    from bayeskit.networks import learn_structure, read_bif

    alarm = read_bif(Path(__file__).parent / "networks" / "data" / "alarm.bif.gz")
    data = alarm.sample(6000, seed=4).astype(str)
    whole = learn_structure(data, "bic")
    found = bkd.learn_structure(dd.from_pandas(data, npartitions=5), "bic")
    assert found == whole
    limited = bkd.learn_structure(dd.from_pandas(data, npartitions=3), "bdeu", max_parents=2,
                                  tabu_length=0)  # fmt: skip
    assert limited == learn_structure(data, "bdeu", max_parents=2, tabu_length=0)
    # more distinct rows than allowed: a pass over the partitions per climbing step, the
    # families of a step counted per partition and added up as a tree; the same DAG
    for limit in (0, 2000):
        passes = bkd.learn_structure(dd.from_pandas(data, npartitions=4), "bic",
                                     max_distinct_rows=limit)  # fmt: skip
        assert passes == whole
    with pytest.raises(ValueError, match="max_distinct_rows must be"):
        bkd.learn_structure(dd.from_pandas(data, npartitions=2), max_distinct_rows=-1)
    # every other learner runs on the partitions' distinct rows: its in-memory result
    part = data.iloc[:3000, :10]
    ddf = dd.from_pandas(part, npartitions=3)
    from bayeskit.learning import STRUCTURE_LEARNERS

    for name, options in (("pc", {"max_cond_size": 2}), ("mmhc", {"max_cond_size": 2}),
                          ("exact", {"max_parents": 2})):  # fmt: skip
        expected = STRUCTURE_LEARNERS[name].learn(part, "bic", **options)
        assert bkd.learn_structure(ddf, "bic", algorithm=name, **options) == expected
    with pytest.raises(ValueError, match="only the hill climb reads the partitions"):
        bkd.learn_structure(ddf, algorithm="pc", max_distinct_rows=10)
    with pytest.raises(TypeError, match="structure learner 'pc' takes no option 'tabu_length'"):
        bkd.learn_structure(ddf, algorithm="pc", tabu_length=3)


def test_leave_one_out_scores_and_refusals_on_dask(client):
    # SPODE's parent and SelectiveKDB's choice rest on leave-one-out scores summed over the
    # partitions: each partition adds its own share (skewed halves: a decides, then b)
    rng = np.random.default_rng(7)
    n = 1900
    a, b, x = (rng.integers(0, 3, n) for _ in range(3))
    label = np.where(np.arange(n) < 1000, a % 2, b % 2).astype(str)
    frame = pd.DataFrame({"a": a, "b": b, "x": x}).astype(str).assign(label=label)
    X = frame.drop(columns="label")
    for model in (SPODE(), SelectiveKDB(k=2)):
        fitted = bkd.fit(model.__class__(**model.get_params()), dd.from_pandas(frame, 4), "label")
        whole = model.__class__(**model.get_params()).fit(X, label)
        np.testing.assert_allclose(fitted.stats_.scores, whole.stats_.scores, rtol=1e-12)
        np.testing.assert_allclose(fitted.predict_proba(X), whole.predict_proba(X), atol=1e-12)
    ddf = dd.from_pandas(frame, npartitions=2)
    for model in (NaiveBayes(unlabelled="-1"), TAN(missing="em")):
        with pytest.raises(ValueError, match="needs all rows at once"):
            bkd.fit(model, ddf, "label")


def test_rows_of_weight_zero_teach_nothing_on_dask(client, car):
    X, y = car
    frame = X.assign(label=y.astype(str), w=1.0)
    frame.loc[frame.index[:40], "w"] = 0.0  # a whole partition of weight 0 ...
    frame.loc[frame.index[100], ["buying", "label", "w"]] = ["vnew", "zzz", 0.0]  # ... and a row
    ddf = dd.from_pandas(frame, npartitions=43)
    fitted = bkd.fit(TAN(), ddf, "label", sample_weight="w")
    whole = TAN().fit(frame.drop(columns=["label", "w"]), frame["label"], sample_weight=frame["w"])
    assert list(fitted.classes_) == list(whole.classes_)
    assert fitted.schema_.column("buying").categories == whole.schema_.column("buying").categories
    np.testing.assert_allclose(fitted.predict_proba(X), whole.predict_proba(X), atol=1e-12)


def test_selective_kdb_scores_the_rows_fit_scores_on_dask(client, car):
    X, y = car
    w = np.random.default_rng(8).integers(0, 3, len(y)).astype(float)
    frame = X.assign(label=y, w=w)
    ddf = dd.from_pandas(frame, npartitions=5)
    fitted = bkd.fit(SelectiveKDB(max_score_rows=500), ddf, "label", sample_weight="w")
    whole = SelectiveKDB(max_score_rows=500).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(fitted.stats_.scores, whole.stats_.scores, rtol=1e-12)
    np.testing.assert_allclose(fitted.predict_proba(X), whole.predict_proba(X), atol=1e-12)


def test_fit_prints_no_dask_warning_from_the_workers(car, capfd):
    # the schema's sample was ddf.head(SCHEMA_ROWS), which made each worker print dask's
    # "Insufficient elements for `head`" when the first partition is shorter than the sample.
    # The cluster starts inside the test, so its worker processes write to the captured stderr
    # (checked: an explicit ddf.head(SCHEMA_ROWS) there shows up in it).
    X, y = car
    ddf = dd.from_pandas(X.assign(label=y), npartitions=4)  # 432 rows each
    assert len(ddf.partitions[0]) < bkd.SCHEMA_ROWS
    capfd.readouterr()
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, distributed.Client(cluster):
        fitted = bkd.fit(NaiveBayes(), ddf, "label")
    assert "Insufficient elements" not in capfd.readouterr().err
    whole = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(fitted.predict_proba(X), whole.predict_proba(X), atol=1e-12)


@pytest.mark.filterwarnings("error")
def test_fit_raises_no_warning_on_the_synchronous_scheduler(car):
    import dask

    X, y = car
    ddf = dd.from_pandas(X.assign(label=y), npartitions=4)
    with dask.config.set(scheduler="synchronous"):
        fitted = bkd.fit(NaiveBayes(), ddf, "label")
    assert list(fitted.classes_) == sorted(set(y))
