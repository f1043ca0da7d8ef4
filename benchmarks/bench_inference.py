"""Exact inference: bayeskit against pgmpy's VariableElimination and pyAgrum's LazyPropagation
(issue 14).

Networks from ``--networks FOLDER`` (or ``$BAYESKIT_NETWORKS``). For alarm, hailfinder and
win95pts, 200 queries per network, each with fresh evidence: a row sampled from the network
(bayeskit's forward sampler, seed 0), 3-5 of its nodes observed at their sampled states, and one
other node queried. Measured, as queries per second (the median of ``--repeats`` runs of all
200):

- one query at a time: bayeskit's ``JunctionTree.query`` (compiled once, before the timing) and
  ``VariableElimination.query``; pgmpy's ``VariableElimination.query``; pyAgrum's
  ``LazyPropagation`` (one engine, evidence erased and set per query, ``makeInference``,
  ``posterior``);
- batched: bayeskit's ``JunctionTree.query_batch`` of the same 200 evidence sets in one call,
  each asking for the same node (the first query's), against pyAgrum one query at a time on
  those sets;
- the classifier setting: 100,000 rows sampled from the network, one node the target and every
  other node observed except 10% of the values (missing at random), in one ``query_batch`` call;
  pyAgrum answers the first 2,000 rows one at a time.

Every answer is checked against pyAgrum's (largest absolute difference reported; pyAgrum reads
the files' probabilities about 1e-8 apart from bayeskit and pgmpy, whose answers agree to
1e-15). For pathfinder, munin1 and pigs, the compile time (``JunctionTree(net)``, pyAgrum's
``LazyPropagation`` with its first ``makeInference``) and the time of 20 such queries are
reported, each engine in a child process of its own. Run with the peers' environment::

    benchmarks/.venv-peers/bin/python benchmarks/bench_inference.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _common import (
    NETWORKS_ENV,
    load_average,
    machine_lines,
    markdown_table,
    networks_folder,
    say,
    time_runs,
    write_section,
)

from bayeskit.networks import JunctionTree, VariableElimination, read_bif

TITLE = "Exact inference: junction tree and variable elimination (issue 14)"
QUERY_NETS = ("alarm", "hailfinder", "win95pts")
BIG_NETS = ("pathfinder", "munin1", "pigs")


def _queries(net, n: int, seed: int) -> list[tuple[str, dict[str, str]]]:
    rng = np.random.default_rng(seed)
    rows = net.sample(n, seed=seed)
    nodes = list(net.nodes)
    out = []
    for k in range(n):
        chosen = list(rng.choice(nodes, size=int(rng.integers(3, 6)) + 1, replace=False))
        target = str(chosen.pop())
        out.append((target, {str(v): str(rows.iloc[k][v]) for v in chosen}))
    return out


def _pyagrum(path: Path):
    try:
        import pyagrum as gum
    except ImportError:
        return None
    bn = gum.loadBN(str(path))
    engine = gum.LazyPropagation(bn)

    def ask(target, evidence):
        engine.eraseAllEvidence()
        engine.setEvidence(evidence)
        engine.makeInference()
        return engine.posterior(target).toarray()

    return bn, ask


def _pgmpy(path: Path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pgmpy.inference import VariableElimination as PgmpyVE
            from pgmpy.readwrite import BIFReader
    except ImportError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = BIFReader(str(path)).get_model()
    engine = PgmpyVE(model)

    def ask(target, evidence):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return engine.query([target], evidence=evidence, show_progress=False).values

    return model, ask


def _rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--networks", type=Path, help=f"the folder of the .bif.gz files (or ${NETWORKS_ENV})"
    )
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rows", type=int, default=100_000, help="rows of the classifier setting")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    ap.add_argument("--skip-big", action="store_true", help="leave out the large networks")
    ap.add_argument("--big-one", help=argparse.SUPPRESS)
    ap.add_argument("--engine", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "alarm.bif.gz")
    if args.big_one:
        _big_one(args.big_one, args.engine, folder)
        return
    before, start = load_average(), time.perf_counter()
    single, batched, big, notes = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in (*QUERY_NETS, *BIG_NETS):
            if name in BIG_NETS:
                if args.skip_big:
                    continue
                big.append(_big(name, folder))
                say(" ".join(big[-1]))
                continue
            path = Path(tmp) / f"{name}.bif"
            path.write_bytes(gzip.decompress((folder / f"{name}.bif.gz").read_bytes()))
            net = read_bif(path)
            agrum = _pyagrum(path)
            queries = _queries(net, 200, seed=0)
            t0 = time.perf_counter()
            jt = JunctionTree(net)
            compile_s = time.perf_counter() - t0
            ve = VariableElimination(net)
            pg = _pgmpy(path)
            answers = [jt.query(t, e).values for t, e in queries]  # also compiles the kernel
            rates = {
                "bayeskit JunctionTree": time_runs(
                    lambda jt=jt, qs=queries: [jt.query(t, e) for t, e in qs], args.repeats
                ).median,
                "bayeskit VariableElimination": time_runs(
                    lambda net=net, qs=queries: [
                        VariableElimination(net).query(t, e) for t, e in qs
                    ],
                    args.repeats,
                ).median,
            }
            diff = 0.0
            if agrum is not None:
                ask = agrum[1]
                for (t, e), mine in zip(queries, answers, strict=True):
                    diff = max(diff, float(np.abs(ask(t, e) - mine).max()))
                rates["pyAgrum LazyPropagation"] = time_runs(
                    lambda a=ask, qs=queries: [a(t, e) for t, e in qs], args.repeats
                ).median
            if pg is not None:
                rates["pgmpy VariableElimination"] = time_runs(
                    lambda a=pg[1], qs=queries: [a(t, e) for t, e in qs], 1
                ).median
            del ve
            for who, seconds in rates.items():
                single.append([name, who, _rate(200, seconds), f"{seconds * 1e3 / 200:.3f}"])
                say(" ".join(single[-1]))
            notes.append(
                f"{name}: {len(jt.cliques)} cliques, {jt.n_cells:,} cells, compiled in "
                f"{compile_s * 1e3:.1f} ms; largest difference from pyAgrum {diff:.1e}"
            )
            batched += _batched(name, net, jt, agrum, queries, args)
    body = "\n".join(
        [
            f"`benchmarks/.venv-peers/bin/python benchmarks/bench_inference.py`, "
            f"{time.strftime('%Y-%m-%d')}. See the script's docstring for the settings; median "
            f"of {args.repeats} runs (pgmpy: one run).",
            "",
            *machine_lines(("numpy", "numba", "pgmpy", "pyagrum")),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            "One query at a time (200 queries, 3-5 evidence nodes each):",
            "",
            markdown_table(["network", "engine", "queries / s", "ms / query"], single),
            "",
            *(f"- {n}" for n in notes),
            "",
            "Batched (one call) against pyAgrum one query at a time:",
            "",
            markdown_table(
                [
                    "network",
                    "setting",
                    "rows",
                    "bayeskit rows / s",
                    "pyAgrum rows / s",
                    "ratio",
                    "largest difference",
                ],
                batched,
            ),  # fmt: skip
            "",
            "Large networks (compile, then 20 queries of 3-5 evidence nodes):",
            "",
            markdown_table(
                [
                    "network",
                    "bayeskit compile s",
                    "bayeskit ms / query",
                    "pyAgrum compile s",
                    "pyAgrum ms / query",
                    "cells",
                ],
                big,
            ),  # fmt: skip
        ]
    )
    if args.write == "yes" or (args.write == "auto" and args.rows == 100_000):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


def _batched(name, net, jt, agrum, queries, args) -> list[list[str]]:
    out = []
    target = queries[0][0]
    sets = [e for _, e in queries if target not in e]
    frame = pd.DataFrame(sets, columns=[v for v in net.nodes if v != target])
    data = net.sample(args.rows, seed=1)
    observed = data.drop(columns=[target]).astype(object)
    observed = observed.mask(np.random.default_rng(2).random(observed.shape) < 0.1)
    for setting, evidence, peer_rows in (("200 evidence sets", frame, len(frame)),
                                         ("classifier", observed, 2000)):  # fmt: skip
        mine = jt.query_batch(target, evidence)
        seconds = time_runs(
            lambda ev=evidence, t=target: jt.query_batch(t, ev), args.repeats
        ).median
        row = [name, setting, f"{len(evidence):,}", _rate(len(evidence), seconds)]
        if agrum is not None:
            ask = agrum[1]
            dicts = [{k: v for k, v in r.items() if isinstance(v, str)}
                     for r in evidence.iloc[:peer_rows].to_dict("records")]  # fmt: skip
            t0 = time.perf_counter()
            theirs = np.array([ask(target, d) for d in dicts])
            peer_s = time.perf_counter() - t0
            diff = float(np.abs(theirs - mine.iloc[:peer_rows].to_numpy()).max())
            ratio = (len(evidence) / seconds) / (peer_rows / peer_s)
            row += [_rate(peer_rows, peer_s), f"{ratio:.0f}x", f"{diff:.1e}"]
        else:
            row += ["", "", ""]
        out.append(row)
        say(" ".join(row))
    return out


def _big(name: str, folder: Path) -> list[str]:
    """Compile and query times of one large network, each engine in a child process of its
    own (a network too large for memory kills the child, not the benchmark)."""
    out = {}
    for engine in ("bayeskit", "pyagrum"):
        cmd = [sys.executable, __file__, "--big-one", name, "--engine", engine,
               "--networks", str(folder)]  # fmt: skip
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
            lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
            out[engine] = (json.loads(lines[-1]) if lines and done.returncode == 0
                           else {"error": f"exit {done.returncode}"})  # fmt: skip
        except subprocess.TimeoutExpired:
            out[engine] = {"error": "over 15 min"}
    row = [name]
    for engine in ("bayeskit", "pyagrum"):
        r = out[engine]
        row += ([f"{r['compile_s']:.2f}", f"{r['query_ms']:.2f}"] if "error" not in r
                else [r["error"], ""])  # fmt: skip
    row.append(f"{out['bayeskit'].get('cells', 0):,}")
    return row


def _big_one(name: str, engine: str, folder: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.bif"
        path.write_bytes(gzip.decompress((folder / f"{name}.bif.gz").read_bytes()))
        net = read_bif(path)
        queries = _queries(net, 20, seed=0)
        t0 = time.perf_counter()
        if engine == "bayeskit":
            jt = JunctionTree(net, max_cells=1 << 28)  # munin1 needs 188M cells (1.4 GiB)
            cells = jt.n_cells
            ask = jt.query
        else:
            import pyagrum as gum

            bn = gum.loadBN(str(path))
            engine_ = gum.LazyPropagation(bn)
            engine_.makeInference()
            cells = 0

            def ask(target, evidence, e=engine_):
                e.eraseAllEvidence()
                e.setEvidence(evidence)
                e.makeInference()
                return e.posterior(target)

        compile_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        for t, e in queries:
            ask(t, e)
        query_ms = (time.perf_counter() - t0) * 1e3 / len(queries)
    print(json.dumps({"compile_s": compile_s, "query_ms": query_ms, "cells": cells}))


if __name__ == "__main__":
    main()
