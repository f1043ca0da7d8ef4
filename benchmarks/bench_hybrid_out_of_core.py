"""Fitting a conditional linear Gaussian network out of core: one pass of moments.

1. A Parquet file of ``--rows`` rows (each size in turn) is generated in a temporary folder
   (``--folder``, deleted afterwards unless ``--keep``), never in the repository, a million
   rows at a time, by forward sampling a fixed network of 3 discrete nodes (2-4 states) and 9
   continuous ones (regressions on one or two continuous parents, some per configuration of a
   discrete parent). Discrete columns are stored dictionary-encoded.
2. ``HybridNetwork.fit(dag, read_chunks(file, --chunksize), continuous=..., states=...)``
   in a fresh child process: the kinds and states given, so the file is read once (counts and
   scatter moments per chunk, added up); wall time and peak resident memory (``VmHWM``).
3. The same fit in memory on the first 1,000,000 rows (one process): rows per second, the
   throughput the out-of-core fit is compared with.

    python benchmarks/bench_hybrid_out_of_core.py --rows 1000000 10000000 100000000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import load_average, machine_lines, markdown_table, peak_rss, publish, say

TITLE = "Conditional linear Gaussian networks fitted out of core"
BATCH = 1_000_000
STATES = {"a": ["a0", "a1"], "b": ["b0", "b1", "b2"], "c": ["c0", "c1", "c2", "c3"]}


def network():
    """The generating network: a -> b, a -> c; a -> x0, b -> x1, x0 -> x1, ..., a chain of
    nine continuous nodes with a second parent two steps back and discrete parents on some."""
    from bayeskit.factors import CPD, LinearGaussianCPD
    from bayeskit.graphs import DAG
    from bayeskit.networks import HybridNetwork

    rng = np.random.default_rng(0)
    edges = [("a", "b"), ("a", "c")]
    cpds = [
        CPD("a", [], [0.4, 0.6], STATES),
        CPD("b", ["a"], rng.dirichlet(np.ones(3), size=2), STATES),
        CPD("c", ["a"], rng.dirichlet(np.ones(4), size=2), STATES),
    ]
    for i in range(9):
        cont = [f"x{i - 1}"] if i else []
        cont += [f"x{i - 3}"] if i >= 3 else []
        disc = ["abc"[i % 3]] if i % 2 == 0 else []
        edges += [(p, f"x{i}") for p in (*disc, *cont)]
        shape = tuple(len(STATES[p]) for p in disc)
        cpds.append(LinearGaussianCPD(
            f"x{i}", [*disc, *cont], rng.normal(size=shape), rng.normal(size=(*shape, len(cont))),
            rng.uniform(0.5, 2.0, size=shape), STATES,
        ))  # fmt: skip
    nodes = ["a", "b", "c", *[f"x{i}" for i in range(9)]]
    return HybridNetwork(DAG(nodes, edges=edges), cpds)


def generate(path: Path, rows: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    net = network()
    rng = np.random.default_rng(1)
    writer, done = None, 0
    while done < rows:
        n = min(BATCH, rows - done)
        frame = net.sample(n, seed=rng)
        for node in STATES:
            frame[node] = frame[node].astype("category")
        table = pa.Table.from_pandas(frame, preserve_index=False)
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=BATCH)
        done += n
    writer.close()


def _fit(data):
    from bayeskit.networks import HybridNetwork

    net = network()
    return HybridNetwork.fit(net.dag, data, continuous=net.continuous_nodes, states=STATES)


def child_fit(path: str, chunksize: int) -> None:
    """In a fresh process: fit out of core, print seconds and peak RSS as JSON."""
    from bayeskit.data import read_chunks

    _fit(next(iter(read_chunks(path, 2000))))  # imports and first calls before timing
    t = time.perf_counter()
    _fit(read_chunks(path, chunksize))
    seconds = time.perf_counter() - t
    print(json.dumps({"seconds": seconds, "rss": peak_rss()}))


def in_memory(path: Path, rows: int) -> float:
    import pyarrow.parquet as pq

    frame = next(pq.ParquetFile(path).iter_batches(batch_size=rows)).to_pandas()
    _fit(frame.iloc[:2000])
    times = []
    for _ in range(3):
        t = time.perf_counter()
        _fit(frame)
        times.append(time.perf_counter() - t)
    return len(frame) / float(np.median(times))


def run_child(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         check=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, nargs="*", default=[1_000_000, 10_000_000])
    ap.add_argument("--chunksize", type=int, default=BATCH)
    ap.add_argument("--folder", type=Path, default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child_fit(args.child[0], int(args.child[1]))
        return
    folder = Path(tempfile.mkdtemp(dir=args.folder, prefix="bayeskit-clg-ooc-"))
    load_before = load_average()
    try:
        table, throughput = [], 0.0
        for rows in args.rows:
            path = folder / f"data_{rows}.parquet"
            t = time.perf_counter()
            generate(path, rows)
            say(f"generated {rows:,} rows in {time.perf_counter() - t:.0f} s "
                f"({path.stat().st_size / 2**30:.2f} GiB)")  # fmt: skip
            if not throughput:
                throughput = in_memory(path, min(rows, BATCH))
            r = run_child("--child", str(path), str(args.chunksize))
            rate = rows / r["seconds"]
            cells = [f"{rows:,}", f"{r['seconds']:.1f}", f"{rate:,.0f}", f"{throughput:,.0f}",
                     f"{throughput / rate:.2f}", f"{r['rss'] / 2**30:.2f}"]  # fmt: skip
            table.append(cells)
            say(" | ".join(cells))
            path.unlink()
        header = ["rows", "seconds", "rows/s out of core", "rows/s in memory",
                  "in memory / out of core", "peak RSS (GiB)"]  # fmt: skip
        lines = [
            *machine_lines(("numpy", "pandas", "pyarrow")),
            f"- load average before / after: {load_before} / {load_average()}",
            "",
            "A network of 3 discrete and 9 continuous nodes (`bench_hybrid_out_of_core.py`), "
            f"fitted out of core (one process, chunks of {args.chunksize:,} rows, one pass: "
            "kinds and states given) against the in-memory fit of the first "
            f"{min(args.rows[0], BATCH):,} rows (median of 3):",
            "",
            markdown_table(header, table),
        ]
        publish(TITLE, "\n".join(lines), args.write == "yes")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
