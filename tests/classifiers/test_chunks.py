"""Out-of-core fitting (issue 16): ``fit_chunks`` over files read a chunk at a time, equal to one
``fit`` for every model whose statistics add up."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bayeskit.classifiers import (
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
    SelectiveKDBEnsemble,
    SubclassNaiveBayes,
)
from bayeskit.data import datasets, read_chunks


@pytest.fixture(scope="module")
def car():
    X, y = datasets.load("car")
    X = X.apply(lambda c: "v" + c.astype(str))  # text, as a file holds it
    return X, np.asarray(y)


@pytest.fixture(scope="module")
def files(car, tmp_path_factory):
    X, y = car
    folder = tmp_path_factory.mktemp("chunks")
    frame = X.assign(cls=y)
    frame.to_csv(folder / "car.csv.gz", index=False)
    frame.to_parquet(folder / "car.parquet", row_group_size=256)
    return folder


EXACT = [
    NaiveBayes(),
    FullBayes(),
    KNNBayes(),
    SPODE(),
    AODE(),
    AnDE(),
    TAN(),
    KDB(),
    KDB(k=3, smoothing="lidstone"),
    SelectiveKDB(),
]


@pytest.mark.parametrize("model", EXACT, ids=lambda m: repr(m))
@pytest.mark.parametrize("name", ["car.csv.gz", "car.parquet"])
def test_fit_chunks_equals_one_fit(car, files, model, name):
    X, y = car
    chunked = model.__class__(**model.get_params()).fit_chunks(
        read_chunks(files / name, chunksize=300), target="cls"
    )
    whole = model.__class__(**model.get_params()).fit(X, y)
    np.testing.assert_allclose(chunked.predict_proba(X), whole.predict_proba(X), atol=1e-12)
    assert chunked.schema_.names == whole.schema_.names
    if hasattr(whole, "structure_"):
        assert chunked.structure_ == whole.structure_


def test_numeric_and_count_models_from_tuples(car):
    rng = np.random.default_rng(0)
    values = rng.normal(size=(900, 3)) + np.repeat(np.arange(3), 300)[:, None]
    y = np.repeat(["a", "b", "c"], 300)
    order = rng.permutation(900)
    values, y = values[order], y[order]
    w = rng.integers(1, 4, size=900).astype(float)
    parts = [(values[k : k + 200], y[k : k + 200], w[k : k + 200]) for k in range(0, 900, 200)]
    gauss = NaiveBayes(discretize=None).fit_chunks(parts)
    whole = NaiveBayes(discretize=None).fit(values, y, sample_weight=w)
    np.testing.assert_allclose(gauss.predict_proba(values), whole.predict_proba(values),
                               atol=1e-12)  # fmt: skip
    counts = rng.poisson(np.where(np.arange(20) < 10, 1.0, 3.0), size=(900, 20))
    labels = (counts[:, :10].sum(axis=1) > counts[:, 10:].sum(axis=1) / 3).astype(int)
    for model in (MultinomialNaiveBayes(), BernoulliNaiveBayes(binarize=2.0)):
        chunks = [(counts[k : k + 250], labels[k : k + 250]) for k in range(0, 900, 250)]
        a = model.__class__(**model.get_params()).fit_chunks(chunks)
        b = model.__class__(**model.get_params()).fit(counts, labels)
        np.testing.assert_allclose(a.predict_proba(counts), b.predict_proba(counts), atol=1e-12)


@pytest.mark.parametrize(
    "model", [NBTree(), SelectiveKDBEnsemble(n_estimators=3), SubclassNaiveBayes(n_init=1)],
    ids=lambda m: type(m).__name__,
)  # fmt: skip
def test_models_of_a_first_chunk_structure_equal_partial_fit(car, files, model):
    X, y = car
    chunked = model.__class__(**model.get_params()).fit_chunks(
        read_chunks(files / "car.parquet", chunksize=600), target="cls"
    )
    step = model.__class__(**model.get_params())
    for k in range(0, len(y), 600):
        step.partial_fit(X.iloc[k : k + 600], y[k : k + 600], classes=np.unique(y))
    np.testing.assert_allclose(chunked.predict_proba(X), step.predict_proba(X), atol=1e-12)


def test_a_category_first_seen_in_a_late_chunk(car):
    X, y = car
    late = X.copy()
    late.loc[late.index[-5:], "buying"] = "vnew"  # only in the last chunk
    parts = [late.iloc[k : k + 400].assign(cls=y[k : k + 400]) for k in range(0, len(y), 400)]
    chunked = TAN().fit_chunks(parts, target="cls")
    whole = TAN().fit(late, y)
    assert "vnew" in chunked.schema_.column("buying").categories
    np.testing.assert_allclose(chunked.predict_proba(late), whole.predict_proba(late), atol=1e-12)


def test_generators_progress_and_errors(car, files):
    X, y = car
    classes = np.unique(y)

    def gen():
        for k in range(0, len(y), 500):
            yield X.iloc[k : k + 500], y[k : k + 500]

    seen = []
    model = AODE().fit_chunks(gen(), classes=classes, progress=seen.append)
    assert seen == [500, 1000, 1500, len(y)]
    # a model of two passes counts the rows of each (SPODE: counts, then its scores)
    parts = [(X.iloc[k : k + 500], y[k : k + 500]) for k in range(0, len(y), 500)]
    seen.clear()
    SPODE().fit_chunks(parts, progress=seen.append)
    assert seen == [500, 1000, 1500, len(y)] * 2
    np.testing.assert_allclose(model.predict_proba(X), AODE().fit(X, y).predict_proba(X),
                               atol=1e-12)  # fmt: skip
    with pytest.raises(ValueError, match="pass classes="):
        AODE().fit_chunks(gen())
    with pytest.raises(ValueError, match="reads the data twice"):
        KDB().fit_chunks(gen(), classes=classes)
    with pytest.raises(ValueError, match="pass target="):
        AODE().fit_chunks(read_chunks(files / "car.parquet", 500))
    with pytest.raises(ValueError, match="has no column 'label'"):
        AODE().fit_chunks(read_chunks(files / "car.parquet", 500), target="label")
    with pytest.raises(TypeError, match="chunk 0 is a ndarray"):
        AODE().fit_chunks([X.to_numpy()], classes=classes)
    with pytest.raises(ValueError, match="chunksize must be an integer >= 1"):
        read_chunks(files / "car.parquet", 0)
    with pytest.raises(FileNotFoundError, match="file not found"):
        read_chunks(files / "none.csv")
    with pytest.raises(ValueError, match="nothing to learn"):
        AODE().fit_chunks([], classes=classes)
    model = AODE().fit(X, y)
    before = model.predict_proba(X)
    with pytest.raises(ValueError, match="pass classes="):
        model.fit_chunks(gen())
    np.testing.assert_array_equal(model.predict_proba(X), before)  # a failed fit changes nothing


def test_network_parameters_from_chunks(tmp_path):
    from pathlib import Path

    from bayeskit.networks import fit_parameters, read_bif

    asia = read_bif(Path(__file__).parents[1] / "networks" / "data" / "asia.bif.gz")
    data = asia.sample(5000, seed=1)
    data.astype(str).to_csv(tmp_path / "asia.csv", index=False)
    as_text = fit_parameters(asia.dag, data.astype(str), estimator="bdeu")  # states sorted
    as_categories = fit_parameters(asia.dag, data, estimator="bdeu")  # the categories' order
    for source, whole in (
        (read_chunks(tmp_path / "asia.csv", 700), as_text),
        ([data.iloc[k : k + 1200] for k in range(0, 5000, 1200)], as_categories),
    ):
        chunked = fit_parameters(asia.dag, source, estimator="bdeu")
        np.testing.assert_allclose(chunked.counts.counts, whole.counts.counts)
        for node in asia.nodes:
            assert chunked.network.states(node) == whole.network.states(node)
            np.testing.assert_allclose(chunked.network.cpt(node), whole.network.cpt(node),
                                       atol=1e-12)  # fmt: skip
    states = {n: asia.states(n) for n in asia.nodes}
    one_shot = (data.iloc[k : k + 1000] for k in range(0, 5000, 1000))
    given = fit_parameters(asia.dag, one_shot, states=states, estimator="bdeu")
    np.testing.assert_allclose(given.counts.counts, as_categories.counts.counts)
    with pytest.raises(ValueError, match="pass states="):
        fit_parameters(asia.dag, (data.iloc[k : k + 1000] for k in range(0, 5000, 1000)))


def test_cli_fit_out_of_core(car, files, tmp_path):
    from typer.testing import CliRunner

    from bayeskit import load
    from bayeskit.cli import app

    X, y = car
    for name in ("car.parquet", "car.csv.gz"):
        out = tmp_path / f"{name}.bkm"
        result = CliRunner().invoke(app, ["fit", str(files / name), "--target", "cls",
                                          "--chunksize", "500", "-o", str(out), "--model",
                                          "kdb"])  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "out of core on 1,728 rows" in result.output
        model = load(out)
        whole = KDB().fit(X, y.astype(str))
        np.testing.assert_allclose(model.predict_proba(X), whole.predict_proba(X), atol=1e-12)
    bad = CliRunner().invoke(app, ["fit", "car", "--chunksize", "10", "-o", str(tmp_path / "m")])
    assert bad.exit_code != 0
    assert "reads a file" in bad.output


def test_network_structure_from_chunks_equals_the_in_memory_search(tmp_path):
    from pathlib import Path

    from bayeskit.networks import learn_structure, read_bif

    alarm = read_bif(Path(__file__).parents[1] / "networks" / "data" / "alarm.bif.gz")
    data = alarm.sample(6000, seed=5).astype(str)
    data.to_parquet(tmp_path / "alarm.parquet", row_group_size=1000)
    whole = learn_structure(data, "bic")
    assert learn_structure(read_chunks(tmp_path / "alarm.parquet", 1500), "bic") == whole
    parts = [data.iloc[k : k + 2500] for k in range(0, 6000, 2500)]
    assert learn_structure(parts, "k2", max_parents=3) == learn_structure(data, "k2", max_parents=3)
    with pytest.raises(ValueError, match="chunks carry no weights"):
        learn_structure(parts, sample_weight=np.ones(6000))


def test_declared_categories_do_not_grow_chunk_by_chunk(car):
    # fit refuses a value outside the declared categories; so do fit_chunks and partial_fit
    # (they grew the declared vocabulary before), and the model is left as it was
    from bayeskit.data.schema import SchemaError

    X, y = car
    late = X.copy()
    late.loc[late.index[-3:], "doors"] = "7"
    declared = {"doors": sorted(X["doors"].unique())}
    parts = [(late.iloc[k : k + 600], y[k : k + 600]) for k in range(0, len(y), 600)]
    for model in (NaiveBayes(categories=declared), KDB(k=1, categories=declared)):
        with pytest.raises(SchemaError, match=r"values \['7'\] outside its declared"):
            model.__class__(**model.get_params()).fit(late, y)
        with pytest.raises(SchemaError, match=r"values \['7'\] outside its declared"):
            model.__class__(**model.get_params()).fit_chunks(parts)
        fitted = model.__class__(**model.get_params()).partial_fit(
            X.iloc[:600], y[:600], classes=np.unique(y)
        )
        before = fitted.predict_proba(X)
        with pytest.raises(SchemaError, match=r"values \['7'\] outside its declared"):
            fitted.partial_fit(late.iloc[-600:], y[-600:])
        np.testing.assert_array_equal(fitted.predict_proba(X), before)
    # undeclared columns still grow
    grown = NaiveBayes(categories=declared).fit_chunks(
        [(X.iloc[:900], y[:900]), (X.iloc[900:].assign(lug_boot="huge"), y[900:])]
    )
    assert "huge" in grown.schema_.column("lug_boot").categories


def test_weights_generators_labels_and_refusals(car, tmp_path):
    from bayeskit.networks import learn_structure

    X, y = car
    w = np.ones(len(y))
    w[600:1200] = 0.0  # a chunk of weight 0 only
    w[::7] = 0.0
    parts = [(X.iloc[k : k + 600], y[k : k + 600], w[k : k + 600]) for k in range(0, len(y), 600)]
    for model in (NaiveBayes(), KDB(k=1, max_table_cells=None), SPODE()):
        chunked = model.__class__(**model.get_params()).fit_chunks(parts)
        whole = model.__class__(**model.get_params()).fit(X, y, sample_weight=w)
        np.testing.assert_allclose(chunked.predict_proba(X), whole.predict_proba(X), atol=1e-12)
        if hasattr(whole, "structure_"):
            assert chunked.structure_ == whole.structure_
    # a one-shot generator with the states given: every chunk counted
    data = X.assign(cls=y.astype(str))
    states = {c: tuple(sorted(map(str, data[c].unique()))) for c in data.columns}
    gen = (data.iloc[k : k + 500] for k in range(0, len(y), 500))
    assert learn_structure(gen, states=states) == learn_structure(data, states=states)
    # labels of two kinds across chunks are named, not merged as text
    mixed = [(X.iloc[:800], y[:800]), (X.iloc[800:], np.array(["other"] * (len(y) - 800)))]
    with pytest.raises(ValueError, match="mixes class labels of different types"):
        NaiveBayes().fit_chunks(mixed)
    for model in (NaiveBayes(unlabelled=-1), TAN(missing="em")):
        with pytest.raises(ValueError, match="fit_chunks adds counts up"):
            model.fit_chunks(parts)


def test_cli_fit_out_of_core_reads_the_encoding(tmp_path):
    from typer.testing import CliRunner

    from bayeskit.cli import app

    frame = pd.DataFrame({"a": ["é", "e", "é", "e"] * 30, "cls": ["x", "y", "x", "y"] * 30})
    path = tmp_path / "latin.csv"
    frame.to_csv(path, index=False, encoding="latin-1")
    args = ["fit", str(path), "-t", "cls", "-o", str(tmp_path / "m.bkm"), "--encoding", "latin-1"]
    result = CliRunner().invoke(app, [*args, "--chunksize", "50"])
    assert result.exit_code == 0, result.output


def test_selective_kdb_scores_the_rows_fit_scores(car):
    # more rows than max_score_rows: fit scores evenly spaced rows of all, weighted up; the
    # chunks gather the same rows
    X, y = car
    w = np.random.default_rng(3).integers(0, 3, len(y)).astype(float)
    for weights in (None, w):
        parts = [(X.iloc[k : k + 300], y[k : k + 300]) + (() if weights is None else
                 (weights[k : k + 300],)) for k in range(0, len(y), 300)]  # fmt: skip
        chunked = SelectiveKDB(max_score_rows=500).fit_chunks(parts)
        whole = SelectiveKDB(max_score_rows=500).fit(X, y, sample_weight=weights)
        np.testing.assert_allclose(chunked.stats_.scores, whole.stats_.scores, rtol=1e-12)
        np.testing.assert_allclose(chunked.predict_proba(X), whole.predict_proba(X), atol=1e-12)
