"""Network structure from data that does not fit in memory (issue 16): ALARM, hill climbing
with BIC, from chunks of a Parquet file and on Dask.

``--rows`` ALARM rows (``--networks``: the folder of ``alarm.bif.gz``) are sampled a million
at a time into a Parquet file (text columns, row groups of 1,000,000) in a temporary folder,
never in the repository. Each run is a fresh child process (peak resident memory is the
child's ``VmHWM``):

- ``memory``: the in-memory search on the file's first 1,000,000 rows (a DataFrame);
- ``distinct``: ``learn_structure(read_chunks(file, --chunksize), "bic")``, the default: one
  pass for the states, one that reads the data into its distinct rows, then the in-memory
  search on them;
- ``passes``: the same with ``max_distinct_rows=0``: a counting pass per climbing step, each
  counting every family the step (and the next best moves) asks for;
- ``dask``: ``bayeskit.dask.learn_structure(dd.read_parquet(file, split_row_groups=True),
  max_distinct_rows=0)`` on a LocalCluster of 2 worker processes (1 thread each): the same
  passes, each partition counted on a worker and the counts added up as a tree.

Reported: passes over the file (a pass that stops early is not counted; on Dask, the states'
pass and the one that encodes the partitions), counting passes (over the chunks' codes kept
from the first, or the workers' encoded partitions), the families counted, seconds, peak RSS
(of the client on Dask), and the DAGs against each other and the true one. ``--lookahead`` repeats
the ``passes`` and ``dask`` runs with other look-ahead depths (moves whose families a pass
counts beyond the next one), on the same file or on ``--lookahead-rows`` rows.

    python benchmarks/bench_structure_passes.py --rows 10000000 --networks /path/to/networks
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

from _common import (
    load_average,
    machine_lines,
    markdown_table,
    networks_folder,
    peak_rss,
    publish,
    say,
)

TITLE = "Network structure from chunks and on Dask: a pass per climbing step (issue 16)"
BATCH = 1_000_000


def generate(path: Path, networks: Path, rows: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bayeskit.networks import read_bif

    alarm = read_bif(networks / "alarm.bif.gz")
    writer = None
    for k in range(0, rows, BATCH):
        part = alarm.sample(min(BATCH, rows - k), seed=k // BATCH).astype(str)
        table = pa.Table.from_pandas(part, preserve_index=False)
        writer = writer or pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    writer.close()


def child(kind: str, path: str, chunksize: int, lookahead: int) -> None:
    """One run, in this (fresh) process; prints its figures as JSON."""
    from bayeskit.data import Chunks, read_chunks
    from bayeskit.learning import passes as _passes
    from bayeskit.learning import search
    from bayeskit.networks import learn_structure

    _passes.LOOKAHEAD = None if lookahead < 0 else lookahead
    full_passes, families, counted_passes = [0], [0], [0]
    iterate = Chunks.__iter__

    def counting(self):
        read = 0
        for chunk in iterate(self):
            read += len(chunk)
            yield chunk
        full_passes[0] += read == self_rows(self)

    rows_of: dict = {}

    def self_rows(chunks) -> int:
        return rows_of.setdefault(chunks.path, chunks.n_rows)

    Chunks.__iter__ = counting
    init = _passes.PassScores.__init__

    class Counted:
        """The reader, counting its passes and families (its look-ahead and close kept)."""

        def __init__(self, read) -> None:
            self.read = read

        def __call__(self, needs):
            families[0] += len(needs)
            counted_passes[0] += 1
            return self.read(needs)

        def __getattr__(self, name):
            return getattr(self.read, name)

    def counted_init(self, nodes, states, read, kind, ess):
        init(self, nodes, states, Counted(read), kind, ess)

    _passes.PassScores.__init__ = counted_init
    t = time.perf_counter()
    if kind == "memory":
        frame = next(iter(read_chunks(path, BATCH)))
        t = time.perf_counter()
        dag = learn_structure(frame, "bic")
    elif kind in ("distinct", "passes"):
        limit = 0 if kind == "passes" else search.MAX_DISTINCT_ROWS
        dag = learn_structure(read_chunks(path, chunksize), "bic", max_distinct_rows=limit)
    else:
        import dask.dataframe as dd
        from dask.distributed import Client, LocalCluster

        from bayeskit import dask as bkd

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster:
            with Client(cluster):
                ddf = dd.read_parquet(path, split_row_groups=True)
                t = time.perf_counter()
                dag = bkd.learn_structure(ddf, "bic", max_distinct_rows=0)
        full_passes[0] = 2  # the states' pass, then the one that encodes the partitions
    seconds = time.perf_counter() - t
    print(json.dumps({
        "seconds": seconds, "passes": full_passes[0], "families": families[0],
        "counting": counted_passes[0],
        "edges": [list(e) for e in dag.edges], "nodes": list(dag.nodes),
        "rss": peak_rss(),
    }))  # fmt: skip


def run_child(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", *args], check=True,
                         capture_output=True, text=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--chunksize", type=int, default=BATCH)
    ap.add_argument("--networks", type=Path)
    ap.add_argument("--runs", nargs="*", default=["memory", "distinct", "passes", "dask"])
    ap.add_argument("--lookahead", type=int, nargs="*", default=[0, 8, 16])
    ap.add_argument("--lookahead-rows", type=int, default=0, help="0: the --rows file")
    ap.add_argument("--lookahead-kinds", nargs="*", default=["passes", "dask"])
    ap.add_argument("--folder", type=Path, default=None)
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]), int(args.child[3]))
        return
    from bayeskit.learning.passes import LOOKAHEAD_READING
    from bayeskit.networks import DAG, read_bif, structural_hamming_distance

    networks = networks_folder(args.networks, "alarm.bif.gz")
    truth = read_bif(networks / "alarm.bif.gz").dag
    folder = Path(tempfile.mkdtemp(dir=args.folder, prefix="bayeskit-passes-"))
    load_before = load_average()
    try:
        path = folder / "alarm.parquet"
        t = time.perf_counter()
        generate(path, networks, args.rows)
        say(f"generated {args.rows:,} ALARM rows in {time.perf_counter() - t:.0f} s")
        found, table = {}, []
        for kind in args.runs:
            r = run_child(kind, str(path), str(args.chunksize), "-1")
            dag = DAG(nodes=r["nodes"], edges=[tuple(e) for e in r["edges"]])
            found[kind] = dag
            rows = f"first {min(BATCH, args.rows):,}" if kind == "memory" else f"{args.rows:,}"
            shd = structural_hamming_distance(dag, truth)
            cells = [kind, rows, str(r["passes"]) if kind != "memory" else "-",
                     str(r["counting"]) if r["counting"] else "-",
                     f"{r['families']:,}" if r["families"] else "-", f"{r['seconds']:.1f}",
                     f"{r['rss'] / 2**30:.2f}", str(shd)]  # fmt: skip
            table.append(cells)
            say(" | ".join(cells))
        same = [
            f"- `{a}` and `{b}` give {'the same DAG' if found[a] == found[b] else 'different DAGs'}"
            f" (SHD {structural_hamming_distance(found[a], found[b])})"
            for a, b in (("distinct", "passes"), ("passes", "dask"), ("distinct", "memory"))
            if a in found and b in found
        ]
        look = []
        if args.lookahead:
            small = path
            if args.lookahead_rows and args.lookahead_rows != args.rows:
                small = folder / "alarm_small.parquet"
                generate(small, networks, args.lookahead_rows)
            for kind in args.lookahead_kinds:
                for depth in sorted(set(args.lookahead)):
                    r = run_child(kind, str(small), str(args.chunksize), str(depth))
                    look.append([kind, str(depth), str(r["counting"]), f"{r['families']:,}",
                                 f"{r['seconds']:.1f}"])  # fmt: skip
                    say(" | ".join(look[-1]))
        lines = [
            *machine_lines(("numpy", "pandas", "pyarrow", "dask", "distributed")),
            f"- load average before / after: {load_before} / {load_average()}",
            f"- chunks of {args.chunksize:,} rows; look-ahead: each reader's own (0 on kept "
            f"codes, {LOOKAHEAD_READING} on passes that read the source)",
            "",
            markdown_table(
                [
                    "run",
                    "rows",
                    "passes over the file",
                    "counting passes",
                    "families counted",
                    "seconds",
                    "peak RSS (GiB)",
                    "SHD to the true DAG",
                ],
                table,
            ),  # fmt: skip
            "",
            *same,
        ]
        if look:
            lines += [
                "",
                f"Look-ahead depth on {args.lookahead_rows or args.rows:,} rows:",
                "",
                markdown_table(
                    ["run", "look-ahead", "counting passes", "families counted", "seconds"], look
                ),
            ]
        publish(TITLE, "\n".join(lines), args.write == "yes")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
