"""Out-of-core and Dask fitting at scale (issue 16).

1. A Parquet file of ``--rows`` rows (each size in turn) is generated in a temporary folder
   (``--folder``, deleted afterwards unless ``--keep``), never in the repository, a million
   rows at a time: a class of 3 values, 20 categorical columns of 2-10 categories (column ``j``
   has ``2 + j % 9``), each drawn given the class and the previous column, and 5 numeric ones,
   normal around a class mean. Categorical columns are stored dictionary-encoded (pandas
   categories); row groups of 1,000,000 rows.
2. Naive Bayes, AODE and TAN (defaults; numeric columns cut by MDL on the first chunk) are
   fitted out of core with ``fit_chunks(read_chunks(file, --chunksize))``, each in a fresh
   child process: wall time, and peak resident memory (the child's ``VmHWM``).
3. The same models fitted in memory on the first 1,000,000 rows (one process): rows per second,
   the throughput the out-of-core fit is compared with.
4. Dask: a LocalCluster of 2 worker processes (1 thread each) fits the ``--dask-rows`` file
   with ``bayeskit.dask.fit(model, dd.read_parquet(file), "y")``, against one process out of
   core on the same file.

Network structure from chunks and on Dask is ``bench_structure_passes.py``.

    python benchmarks/bench_out_of_core.py --rows 1000000 10000000 --dask-rows 10000000
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

TITLE = "Out-of-core and Dask fitting (issue 16)"
MODELS = ("naive-bayes", "aode", "tan")
BATCH = 1_000_000
N_CAT, N_NUM, N_CLASSES = 20, 5, 3


def generate(path: Path, rows: int, seed: int = 0) -> None:
    """The synthetic data set (module docstring), written a batch at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    cards = [2 + j % 9 for j in range(N_CAT)]
    # P(x_j | y, x_{j-1}): Dirichlet(0.7) rows; the first column given y alone
    tables = [rng.dirichlet(np.full(k, 0.7), size=(N_CLASSES, cards[j - 1] if j else 1))
              for j, k in enumerate(cards)]  # fmt: skip
    cdfs = [np.cumsum(t, axis=-1) for t in tables]
    means = rng.normal(scale=1.5, size=(N_CLASSES, N_NUM))
    writer = None
    done = 0
    while done < rows:
        n = min(BATCH, rows - done)
        y = rng.integers(N_CLASSES, size=n)
        cols: dict[str, pa.Array] = {}
        prev = np.zeros(n, dtype=np.int64)
        for j, cdf in enumerate(cdfs):
            rows_cdf = cdf[y, prev]
            x = (rng.random((n, 1)) > rows_cdf).sum(axis=1)
            x = np.minimum(x, cards[j] - 1)
            cols[f"c{j}"] = pa.DictionaryArray.from_arrays(
                pa.array(x.astype(np.int8)), pa.array([f"v{k}" for k in range(cards[j])])
            )
            prev = x
        values = means[y] + rng.normal(size=(n, N_NUM))
        for j in range(N_NUM):
            cols[f"n{j}"] = pa.array(values[:, j])
        cols["y"] = pa.array(y.astype(np.int64))
        table = pa.table(cols)
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=BATCH)
        done += n
    writer.close()


def _model(name: str):
    from bayeskit.classifiers import MODELS as REGISTRY

    return REGISTRY[name]()


def child_fit(name: str, path: str, chunksize: int) -> None:
    """In a fresh process: fit ``name`` out of core, print seconds and peak RSS as JSON."""
    from bayeskit.data import read_chunks

    chunks = read_chunks(path, chunksize)
    warm = next(iter(read_chunks(path, 2000)))  # compile the kernels before timing
    _model(name).fit(warm.drop(columns=["y"]), warm["y"].to_numpy())
    model = _model(name)
    t = time.perf_counter()
    model.fit_chunks(chunks, target="y")
    seconds = time.perf_counter() - t
    rss = peak_rss()
    print(json.dumps({"seconds": seconds, "rss": rss, "rows": float(model.class_count_.sum())}))


def run_child(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         check=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def in_memory(path: Path, rows: int) -> dict[str, float]:
    """Rows per second of each model fitted in memory on the first ``rows`` rows."""
    import pyarrow.parquet as pq

    frame = next(pq.ParquetFile(path).iter_batches(batch_size=rows)).to_pandas()
    X, y = frame.drop(columns=["y"]), frame["y"].to_numpy()
    out = {}
    for name in MODELS:
        _model(name).fit(X.iloc[:2000], y[:2000])  # compile the kernels before timing
        t = time.perf_counter()
        _model(name).fit(X, y)
        out[name] = len(y) / (time.perf_counter() - t)
    return out


def dask_fit(path: Path, name: str) -> float:
    import dask.dataframe as dd
    import distributed

    from bayeskit import dask as bkd

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                       dashboard_address=None, memory_limit="6GiB")  # fmt: skip
    with distributed.Client(cluster):
        ddf = dd.read_parquet(str(path), split_row_groups=True)  # a partition per row group
        warm = dd.from_pandas(ddf.head(20_000), npartitions=2)
        bkd.fit(_model(name), warm, "y")  # the workers import and compile first
        t = time.perf_counter()
        bkd.fit(_model(name), ddf, "y")
        seconds = time.perf_counter() - t
    cluster.close()
    return seconds


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, nargs="*", default=[1_000_000, 10_000_000])
    ap.add_argument("--chunksize", type=int, default=BATCH)
    ap.add_argument("--dask-rows", type=int, default=0)
    ap.add_argument("--folder", type=Path, default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child_fit(args.child[0], args.child[1], int(args.child[2]))
        return
    folder = Path(tempfile.mkdtemp(dir=args.folder, prefix="bayeskit-ooc-"))
    load_before = load_average()
    try:
        table, throughput = [], {}
        for rows in args.rows:
            path = folder / f"data_{rows}.parquet"
            t = time.perf_counter()
            generate(path, rows)
            say(f"generated {rows:,} rows in {time.perf_counter() - t:.0f} s "
                f"({path.stat().st_size / 2**30:.2f} GiB)")  # fmt: skip
            if not throughput:
                throughput = in_memory(path, min(rows, BATCH))
            for name in MODELS:
                r = run_child("--child", name, str(path), str(args.chunksize))
                rate = r["rows"] / r["seconds"]
                cells = [name, f"{rows:,}", f"{r['seconds']:.1f}", f"{rate:,.0f}",
                         f"{throughput[name]:,.0f}", f"{throughput[name] / rate:.2f}",
                         f"{r['rss'] / 2**30:.2f}"]  # fmt: skip
                table.append(cells)
                say(" | ".join(cells))
            if rows != args.dask_rows:
                path.unlink()
        lines = [
            *machine_lines(("numpy", "pandas", "pyarrow", "dask", "distributed")),
            f"- load average before / after: {load_before} / {load_average()}",
            "",
            "Out of core (one process, chunks of "
            f"{args.chunksize:,} rows) against the in-memory fit of the first "
            f"{min(args.rows[0], BATCH):,} rows; throughput is rows per second of the one process:",
            "",
            markdown_table(
                [
                    "model",
                    "rows",
                    "seconds",
                    "rows/s out of core",
                    "rows/s in memory",
                    "in memory / out of core",
                    "peak RSS (GiB)",
                ],
                table,
            ),  # fmt: skip
        ]
        if args.dask_rows:
            path = folder / f"data_{args.dask_rows}.parquet"
            if not path.exists():
                generate(path, args.dask_rows)
            rows_d = []
            for name in MODELS:
                single = run_child("--child", name, str(path), str(args.chunksize))["seconds"]
                two = dask_fit(path, name)
                rows_d.append([name, f"{args.dask_rows:,}", f"{single:.1f}", f"{two:.1f}",
                               f"{single / two:.2f}"])  # fmt: skip
                say(" | ".join(rows_d[-1]))
            lines += [
                "",
                "Dask: a LocalCluster of 2 worker processes (1 thread each) against one process "
                "out of core, the same file (what the workers send back is statistics):",
                "",
                markdown_table(
                    ["model", "rows", "one process (s)", "Dask, 2 workers (s)", "speed-up"], rows_d
                ),  # fmt: skip
            ]
        publish(TITLE, "\n".join(lines), args.write == "yes")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
