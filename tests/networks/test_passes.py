"""Structure search over data read in passes (bayeskit.learning.passes): a pass over the
chunks or partitions per climbing step, counting every family the step asks for, gives the
in-memory search's DAG (issue 16)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bayeskit.data import read_chunks
from bayeskit.factors.states import encode_columns
from bayeskit.learning import passes as _passes
from bayeskit.learning import search
from bayeskit.learning.parameters import encode_data as _encode_data
from bayeskit.learning.passes import PassScores, add_counts, count_needs
from bayeskit.learning.scores import _FamilyScores
from bayeskit.networks import learn_structure, learn_tree, read_bif

DATA = Path(__file__).parent / "data"


class Passes(list):
    """Chunks that count how often they are read to the end."""

    reads = 0

    def __iter__(self):
        yield from super().__iter__()
        self.reads += 1


@pytest.fixture(scope="module")
def alarm():
    return read_bif(DATA / "alarm.bif.gz").sample(6000, seed=11).astype(str)


@pytest.fixture(scope="module")
def asia():
    return read_bif(DATA / "asia.bif.gz").sample(4000, seed=3).astype(str)


def chunks_of(data: pd.DataFrame, size: int) -> Passes:
    return Passes(data.iloc[k : k + size] for k in range(0, len(data), size))


def test_a_pass_per_step_gives_the_in_memory_dag_and_counts_its_passes(alarm, monkeypatch):
    moves = []
    whole = learn_structure(alarm, "bic", start="tree", progress=lambda m, s: moves.append(s))
    passes, folders = [], []
    count = _passes.ChunkPasses.__call__

    def counted(self, needs):
        passes.append(len(needs))
        out = count(self, needs)
        folders.append(Path(self._folder.name))
        return out

    monkeypatch.setattr(_passes.ChunkPasses, "__call__", counted)
    chunks = chunks_of(alarm, 1700)
    found = learn_structure(chunks, "bic", start="tree", max_distinct_rows=0)
    assert found == whole
    # passes: the tree's pairs and its families, then at most one per move
    assert 2 < len(passes) <= 2 + len(moves)
    # the chunks themselves are read twice (the states, the first counting pass, which keeps
    # each chunk's codes in a temporary folder for the passes after it); the folder is gone
    assert chunks.reads == 2
    assert len(set(folders)) == 1
    assert not folders[0].exists()
    # a look-ahead of 8 moves saves most passes, and changes nothing else
    steps = len(passes)
    passes.clear()
    monkeypatch.setattr(_passes, "LOOKAHEAD", 8)
    found = learn_structure(chunks_of(alarm, 1700), "bic", start="tree", max_distinct_rows=0)
    assert found == whole
    assert len(passes) < 2 + len(moves) / 2
    assert len(passes) < steps
    # a file read in chunks, with the states given: no states pass
    states = {c: tuple(sorted(alarm[c].unique())) for c in alarm.columns}
    found = learn_structure(chunks_of(alarm, 2500), "bic", states=states, start="tree",
                            max_distinct_rows=0)  # fmt: skip
    assert found == whole


def test_every_option_matches_in_memory(asia, tmp_path):
    asia.to_parquet(tmp_path / "asia.parquet", row_group_size=700)
    file = read_chunks(tmp_path / "asia.parquet", 900)
    cases = [
        {"score": "k2"},
        {"score": "bdeu", "ess": 5.0},
        {"score": "aic", "start": "empty", "tabu_length": 0},
        {"score": "bic", "max_parents": 1},
        {"score": "bic", "restarts": 2, "perturb": 3, "seed": 4},
        {"score": "ll", "max_parents": 2, "max_iter": 5},
        {"score": "bic", "black_list": [("either", "lung")], "white_list": [("asia", "tub")]},
    ]
    for options in cases:
        assert learn_structure(file, max_distinct_rows=0, **options) == learn_structure(
            asia, **options
        ), options
    for score in ("ll", "bic", "k2"):
        assert learn_tree(file, score, max_distinct_rows=0) == learn_tree(asia, score)


def test_large_tables_counted_as_distinct_rows_score_the_same(asia, monkeypatch):
    whole = learn_structure(asia, "bdeu", ess=2.0)
    monkeypatch.setattr(_passes, "_DENSE_CELLS", 4)  # every table with a parent: sparse
    chunks = chunks_of(asia, 1000)
    assert learn_structure(chunks, "bdeu", ess=2.0, max_distinct_rows=0) == whole
    assert learn_tree(chunks, "k2", max_distinct_rows=0) == learn_tree(asia, "k2")


def test_counts_of_parts_add_up_and_score_as_in_memory(alarm, monkeypatch):
    nodes = tuple(alarm.columns)
    states = {n: tuple(sorted(alarm[n].unique())) for n in nodes}
    n_states = [len(states[n]) for n in nodes]
    needs = ((3, (), True), (5, (0, 7), True), (9, (1, 2, 4), False))
    memory = _FamilyScores(_encode_data(nodes, alarm, states, None), "bic", 1.0)

    def scored():
        total = None
        for k in range(0, len(alarm), 2000):
            codes = encode_columns(nodes, states, alarm.iloc[k : k + 2000])
            total = add_counts(total, count_needs(codes, None, needs, n_states))
        assert add_counts(None, total) is total
        assert total[0] == len(alarm)
        scorer = PassScores(nodes, states, lambda _: total, "bic", 1.0)
        scorer.prefetch(needs)
        assert scorer.passes == 1
        scorer.prefetch(needs)  # counted already: no pass
        assert scorer.passes == 1
        return scorer

    for dense_cells in (1 << 20, 8):
        monkeypatch.setattr(_passes, "_DENSE_CELLS", dense_cells)
        scorer = scored()
        for v, parents, ext in needs:
            assert scorer(v, frozenset(parents)) == pytest.approx(
                memory(v, frozenset(parents)), rel=1e-13
            )
            if ext:
                np.testing.assert_allclose(
                    scorer.extensions(v, frozenset(parents)),
                    memory.extensions(v, frozenset(parents)),
                    rtol=1e-13,
                )
        assert scorer.has(9, frozenset((1, 2, 4)), False)
        assert not scorer.has(9, frozenset((1, 2, 4)), True)


def test_weighted_parts_count_their_weights():
    codes = np.array([[0, 1, 1, 0], [1, 1, 0, 0]], dtype=np.int8)  # node-major: 2 nodes
    weights = np.array([2.0, 0.5, 1.0, 0.0])
    total, ((family, dense, _),) = count_needs(codes, weights, ((1, (0,), True),), [2, 2])
    assert total == 3.5
    # family (x0, x1) cells: x0 * 2 + x1
    np.testing.assert_array_equal(family, [0.0 + 0.0, 2.0, 1.0, 0.5])
    assert len(dense) == 0  # no other node to add


def test_refusals(asia):
    gen = (asia.iloc[k : k + 1000] for k in range(0, len(asia), 1000))
    states = {c: tuple(sorted(asia[c].unique())) for c in asia.columns}
    with pytest.raises(ValueError, match="re-iterable source"):
        learn_structure(gen, states=states, max_distinct_rows=0)
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="max_distinct_rows must be"):
            learn_structure(chunks_of(asia, 1000), max_distinct_rows=bad)


def test_without_room_to_spill_every_pass_reads_the_chunks(asia, monkeypatch):
    states = {c: tuple(sorted(asia[c].unique())) for c in asia.columns}
    whole = learn_structure(asia, "bic")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    nodes = tuple(asia.columns)
    kept = _passes.ChunkPasses(chunks_of(asia, 1000), nodes, states)
    assert kept.lookahead == _passes.LOOKAHEAD_READING  # nothing kept yet
    kept(((0, (), True),))
    assert kept.lookahead == 0  # the codes kept: passes cost little beyond counting
    kept.close()
    assert kept.lookahead == _passes.LOOKAHEAD_READING
    monkeypatch.setattr(_passes.np, "save", full)  # the disk refuses the first chunk
    chunks = chunks_of(asia, 1000)
    assert learn_structure(chunks, "bic", states=states, max_distinct_rows=0) == whole
    assert chunks.reads > 3  # a read of the chunks per pass
    refused = _passes.ChunkPasses(chunks_of(asia, 1000), nodes, states)
    refused(((0, (), True),))
    assert refused.lookahead == _passes.LOOKAHEAD_READING
    tries = []

    def counted(*args, **kwargs):
        tries.append(1)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_passes.np, "save", counted)
    refused = _passes.ChunkPasses(chunks_of(asia, 1000), nodes, states)
    for _ in range(3):
        refused(((0, (), True),))
    assert len(tries) == 1  # refused once: never tried again

    class Shrinking(list):  # a source whose rows change between passes
        def __iter__(self):
            yield from super().__iter__()
            self.pop()

    changing = Shrinking([asia.iloc[:1500], asia.iloc[1500:3000], asia.iloc[3000:]])
    with pytest.raises(ValueError, match="the data changed between passes"):
        learn_structure(changing, states=states, max_distinct_rows=0)


def test_node_major_encoding_and_parquet_text_read_as_categories(asia, tmp_path):
    nodes = tuple(asia.columns)
    states = {n: tuple(sorted(asia[n].unique())) for n in nodes}
    columns = encode_columns(nodes, states, asia)
    assert columns.dtype == np.int8
    assert columns.shape == (len(nodes), len(asia))
    np.testing.assert_array_equal(columns.T, _encode_data(nodes, asia, states, None).codes)
    with pytest.raises(ValueError, match="column 'lung' has a missing value"):
        encode_columns(nodes, states, asia.assign(lung=asia["lung"].where(asia.index != 7)))
    asia.to_parquet(tmp_path / "asia.parquet", row_group_size=1500)
    file = read_chunks(tmp_path / "asia.parquet", 1000)
    plain, coded = list(file), list(file.as_categories())
    assert [len(c) for c in coded] == [len(c) for c in plain] == [1000] * 4
    for a, b in zip(plain, coded, strict=True):
        assert all(isinstance(t, pd.CategoricalDtype) for t in b.dtypes)
        pd.testing.assert_frame_equal(a, b.astype(object), check_dtype=False)
    asia.to_csv(tmp_path / "asia.csv", index=False)
    csv = read_chunks(tmp_path / "asia.csv", 1000)
    assert not any(
        isinstance(t, pd.CategoricalDtype) for t in next(iter(csv.as_categories())).dtypes
    )


def test_states_pass_reads_parquet_text_as_categories(asia, tmp_path):
    from bayeskit.learning.parameters import gather_states as _chunk_states

    # row groups with different dictionaries; a declared categorical keeps its categories
    frame = asia.copy()
    frame["lung"] = pd.Categorical(frame["lung"], categories=["yes", "no", "unseen"])
    part = pd.concat([frame.iloc[:1500].assign(asia="yes"), frame.iloc[1500:]])
    part.to_parquet(tmp_path / "a.parquet", row_group_size=1500)
    file = read_chunks(tmp_path / "a.parquet", 1000)
    assert file.as_categories().text_as_categories() == [c for c in asia.columns if c != "lung"]
    assert file.text_as_categories() == []
    states = _chunk_states(list(asia.columns), file, None)
    assert states["lung"] == ("yes", "no", "unseen")
    for node in asia.columns:
        if node != "lung":
            assert states[node] == tuple(sorted(part[node].unique())), node


def test_a_file_s_columns_from_its_header_and_an_empty_file(asia, tmp_path):
    asia.to_parquet(tmp_path / "asia.parquet", row_group_size=1000)
    some = ["asia", "tub", "either", "xray"]
    chosen = read_chunks(tmp_path / "asia.parquet", 700, columns=some)
    for limit in (None, 0):
        assert learn_structure(chosen, max_distinct_rows=limit) == learn_structure(asia[some])
    asia.iloc[:0].to_parquet(tmp_path / "empty.parquet")
    asia.iloc[:0].to_csv(tmp_path / "empty.csv", index=False)
    for name in ("empty.parquet", "empty.csv"):  # refused when opened, naming the file
        with pytest.raises(ValueError, match=rf"{name} has a header \(8 columns\) but no data"):
            read_chunks(tmp_path / name, 100)
    with pytest.raises(ValueError, match="hold no rows"):
        learn_structure([asia.iloc[:0]], max_distinct_rows=0)


def test_the_default_search_over_passes_gives_the_in_memory_dag(asia):
    # the default start runs greedy equivalence search (a pass per step) and a climb on AIC
    found = learn_structure(chunks_of(asia, 1000), "bic", max_distinct_rows=0)
    assert found == learn_structure(asia, "bic")


def test_restarts_perturb_in_one_pass_each(asia, monkeypatch):
    passes = []
    count = _passes.ChunkPasses.__call__
    monkeypatch.setattr(_passes.ChunkPasses, "__call__",
                        lambda self, needs: passes.append(1) or count(self, needs))  # fmt: skip
    perturbing = []
    perturb = search._Climb.perturb

    def counted(self, moves):
        before = len(passes)
        perturb(self, moves)
        perturbing.append(len(passes) - before)

    monkeypatch.setattr(search._Climb, "perturb", counted)
    options = {"restarts": 3, "perturb": 5, "seed": 2, "start": "tree"}
    found = learn_structure(chunks_of(asia, 1000), "bic", max_distinct_rows=0, **options)
    assert found == learn_structure(asia, "bic", **options)
    # each restart's 5 perturbing moves are rescored after one pass (not one per move)
    assert len(perturbing) == 6  # 3 here, 3 in the in-memory search
    assert perturbing[:3] == [1, 1, 1]


def test_row_group_dictionaries_csv_selection_order_and_one_shot_sources(asia, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    # a categorical column whose row groups carry different categories: the union
    first = asia.iloc[:2000].assign(lung=pd.Categorical(asia["lung"].iloc[:2000]))
    second = asia.iloc[2000:].assign(
        lung=pd.Categorical(asia["lung"].iloc[2000:].map({"yes": "maybe", "no": "no"}))
    )
    with pq.ParquetWriter(tmp_path / "d.parquet", pa.Schema.from_pandas(first, False)) as w:
        w.write_table(pa.Table.from_pandas(first, preserve_index=False))
        w.write_table(pa.Table.from_pandas(second, preserve_index=False))
    whole = pd.concat([first, second]).astype({"lung": str})
    file = read_chunks(tmp_path / "d.parquet", 900)
    for limit in (None, 0):
        assert learn_structure(file, max_distinct_rows=limit) == learn_structure(whole)
    # a CSV file's selected columns come in the order asked, as from a Parquet file
    asia.to_csv(tmp_path / "a.csv", index=False)
    some = ["dysp", "either", "bronc", "smoke", "lung"]
    csv = read_chunks(tmp_path / "a.csv", 1000, columns=some)
    assert [list(c.columns) for c in csv] == [some] * 4
    assert learn_structure(csv) == learn_structure(asia[some])
    # a one-shot source beyond max_distinct_rows cannot be read again: all are held, warned
    states = {c: tuple(sorted(asia[c].unique())) for c in asia.columns}
    gen = (asia.iloc[k : k + 1000] for k in range(0, len(asia), 1000))
    with pytest.warns(ResourceWarning, match="all of them are held"):
        found = learn_structure(gen, states=states, max_distinct_rows=3)
    assert found == learn_structure(asia, states=states)
