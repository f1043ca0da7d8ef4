"""The junction tree's rows on threads: serial kernels run on blocks of rows in Python threads
(``bayeskit._compiled.run_blocks``) give the same answers, bit for bit, whatever the number of
threads, and the blocks cover every row once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bayeskit._compiled as compiled
from bayeskit._compiled import num_threads, row_blocks, run_blocks
from bayeskit.networks import JunctionTree, read_bif

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("n_rows", "n_blocks"), [(0, 3), (1, 4), (7, 2), (10, 10), (11, 3)])
def test_row_blocks_cover_every_row_once(n_rows, n_blocks):
    blocks = row_blocks(n_rows, n_blocks)
    covered = np.concatenate([np.arange(n_rows)[b] for b in blocks])
    assert covered.tolist() == list(range(n_rows))
    assert len(blocks) <= max(1, n_blocks)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_run_blocks_keeps_the_order_and_raises_the_first_error(threads):
    assert run_blocks([lambda k=k: k * k for k in range(7)], threads) == [k * k for k in range(7)]

    def fail():
        raise ValueError("block 3 failed")

    calls = [lambda: 1, lambda: 2, lambda: 3, fail, lambda: 5]
    with pytest.raises(ValueError, match="block 3 failed"):
        run_blocks(calls, threads)


@pytest.mark.parametrize("name", ["asia", "alarm"])
def test_answers_do_not_depend_on_the_threads(name, monkeypatch):
    net = read_bif(DATA / f"{name}.bif.gz")
    tree = JunctionTree(net)
    target = str(net.nodes[0])
    rows = net.sample(300, seed=4).drop(columns=[target]).astype(object)
    rows = rows.mask(np.random.default_rng(4).random(rows.shape) < 0.3)
    codes = np.full((300, len(net.nodes)), -1, dtype=np.int64)
    sampled = net.encode(net.sample(300, seed=5))
    keep = np.random.default_rng(5).random(codes.shape) < 0.6
    codes[keep] = sampled[keep]
    monkeypatch.setattr(compiled, "PARALLEL_MIN_WORK", 0)  # threads even for this little
    answers = []
    for n in (1, 2, 3):
        with num_threads(n):
            batch = tree.query_batch(target, rows).to_numpy()
            counts, log_pe = tree.expected_family_counts(codes)
        answers.append((batch, counts, log_pe))
    for batch, counts, log_pe in answers[1:]:
        assert np.array_equal(batch, answers[0][0])
        assert np.array_equal(log_pe, answers[0][2])
        for got, want in zip(counts, answers[0][1], strict=True):
            assert np.array_equal(got, want)
