"""Out-of-core Baum-Welch: 10,000 sequences of 1,000 steps with 50 states, in bounded memory.

Writes a Parquet file of a long frame (sequence id, step, ``--dim`` Gaussian features) sampled
from a random 50-state model, then fits a HiddenMarkovModel to it with ``fit_chunks`` over
``read_chunks(path, chunksize)``, for ``--iterations`` Baum-Welch iterations. Reports the
file's size, the time per iteration and the peak resident memory of the fit (its growth over
the memory held before), against what the data and the posteriors of all steps would take in
memory at once. The peak must stay near the size of one chunk's work, whatever the file size.

    .venv/bin/python benchmarks/bench_hmm_out_of_core.py [--sequences 10000] [--write no]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from _common import MB, machine_lines, markdown_table, peak_memory, publish, say

from bayeskit.data import read_chunks
from bayeskit.sequences import HiddenMarkovModel


def truth(n_states: int, dim: int, seed: int = 0) -> HiddenMarkovModel:
    rng = np.random.default_rng(seed)
    model = HiddenMarkovModel(n_states, random_state=seed)
    model.startprob_ = rng.dirichlet(np.ones(n_states))
    stay = np.eye(n_states) * 20
    model.transmat_ = np.array([rng.dirichlet(np.ones(n_states) + row) for row in stay])
    model.means_ = rng.normal(size=(n_states, dim)) * 4
    model.covars_ = rng.uniform(0.5, 1.5, size=(n_states, dim))
    return model


def write_file(path: Path, model, sequences: int, length: int, dim: int) -> None:
    writer = None
    per = 100
    for first in range(0, sequences, per):
        count = min(per, sequences - first)
        parts = [model.sample(length, random_state=first + k)[0] for k in range(count)]
        X = np.concatenate(parts)
        frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(dim)])
        frame.insert(0, "seq", np.repeat(np.arange(first, first + count), length))
        table = pa.Table.from_pandas(frame, preserve_index=False)
        writer = writer or pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    if writer is not None:
        writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=10_000)
    parser.add_argument("--length", type=int, default=1_000)
    parser.add_argument("--states", type=int, default=50)
    parser.add_argument("--dim", type=int, default=2)
    parser.add_argument("--chunksize", type=int, default=200_000)
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=Path("/tmp"))
    parser.add_argument("--write", choices=["yes", "no"], default="yes")
    args = parser.parse_args()
    path = args.folder / f"hmm_{args.sequences}x{args.length}_{args.dim}d.parquet"
    model = truth(args.states, args.dim)
    if not path.exists():
        t0 = time.perf_counter()
        write_file(path, model, args.sequences, args.length, args.dim)
        say(f"wrote {path} in {time.perf_counter() - t0:.0f} s")
    steps = args.sequences * args.length
    fitted = HiddenMarkovModel(
        args.states, sequence_column="seq", n_iter=args.iterations, tol=0.0, random_state=1
    )
    seconds: list[float] = []

    def fit():
        t0 = time.perf_counter()
        fitted.fit_chunks(
            read_chunks(path, args.chunksize, columns=["seq", *[f"x{j}" for j in range(args.dim)]])
        )
        seconds.append(time.perf_counter() - t0)

    memory = peak_memory(fit)  # one run, traced and resident
    per_iteration = seconds[0] / args.iterations
    in_memory = steps * (args.dim + 1) * 8 + steps * args.states * 8
    rows = [
        [
            f"{args.sequences:,} x {args.length:,}",
            str(args.states),
            f"{path.stat().st_size / MB:,.0f}",
            f"{args.chunksize:,}",
            f"{per_iteration:,.1f}",
            f"{(memory.rss or 0) / MB:,.0f}",
            f"{memory.traced / MB:,.0f}",
            f"{in_memory / MB:,.0f}",
        ]
    ]
    header = ["sequences x steps", "states", "file (MB)", "chunk rows", "s per iteration",
              "peak RSS growth (MB)", "peak traced (MB)", "all in memory (MB)"]  # fmt: skip
    body = "\n".join(
        [
            "`benchmarks/bench_hmm_out_of_core.py`: `HiddenMarkovModel.fit_chunks` over "
            f"`read_chunks` of a Parquet long frame ({args.dim} Gaussian features, diagonal), "
            f"{args.iterations} Baum-Welch iterations after the initialisation pass; one run. "
            "'All in memory' counts the observations and the posteriors of every step.",
            "",
            *machine_lines(("numpy", "numba", "pyarrow")),
            "",
            markdown_table(header, rows),
        ]
    )
    say(" | ".join(rows[0]))
    publish("Hidden Markov models out of core", body, args.write == "yes")


if __name__ == "__main__":
    main()
