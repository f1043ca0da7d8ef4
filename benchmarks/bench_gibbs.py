"""Gibbs sampling: bayeskit's GibbsSampler against pgmpy's GibbsSampling (issue 14).

On asia, survey, sachs and alarm (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``) without
evidence (pgmpy's sampler takes none): pgmpy draws ``--pgmpy-draws`` samples of one chain
(started at a forward sample, since its random start can be impossible where CPTs have zeros;
seed 0); bayeskit draws with 4 chains, 10% burn-in, for about the same time. Reported: draws
per second (every node of a draw counts once: one sweep), and at that equal time each sampler's
largest absolute error over every node's marginal against the exact one (bayeskit's junction
tree). Median of ``--repeats`` runs for the rates. pgmpy runs in a child process stopped after
``--timeout`` seconds (building its sampler for alarm enumerates every Markov-blanket
configuration of every node). Run with the peers' environment::

    benchmarks/.venv-peers/bin/python benchmarks/bench_gibbs.py
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
from _common import load_average, machine_lines, markdown_table, networks_folder, say, write_section

from bayeskit.networks import GibbsSampler, JunctionTree, read_bif

TITLE = "Gibbs sampling against pgmpy (issue 14)"


def _error(marginals: dict, exact: dict) -> float:
    return max(float(np.abs(marginals[n] - exact[n]).max()) for n in exact)


def _pgmpy_in_child(name: str, folder: Path, args) -> dict:
    cmd = [sys.executable, __file__, "--pgmpy-one", name, "--networks", str(folder),
           "--pgmpy-draws", str(args.pgmpy_draws), "--repeats", str(args.repeats)]  # fmt: skip
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout,
                              check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"error": f"not done in {args.timeout} s"}
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode or not lines:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1][:80]
        return {"error": f"failed: {tail}"}
    return json.loads(lines[-1])


def _pgmpy_one(name: str, folder: Path, args) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.readwrite import BIFReader
        from pgmpy.sampling import GibbsSampling
        from pgmpy.sampling.Sampling import State
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.bif"
        path.write_bytes(gzip.decompress((folder / f"{name}.bif.gz").read_bytes()))
        net = read_bif(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = BIFReader(str(path)).get_model()
            sampler = GibbsSampling(model)
            # a start of positive probability (a forward sample): pgmpy's random start can be
            # impossible where CPTs have zeros, and its sampler then fails on NaN
            first = net.sample(1, seed=0).iloc[0]
            start_state = [State(v, net.states(v).index(str(first[v]))) for v in sampler.variables]
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                draws = sampler.sample(start_state=list(start_state), size=args.pgmpy_draws,
                                       seed=0)  # fmt: skip
                times.append(time.perf_counter() - t0)
    marginals = {}
    for n in net.nodes:  # pgmpy's draws are state indices, in the file's order as ours
        counts = np.bincount(draws[n].to_numpy(dtype=np.int64), minlength=net.cardinality(n))
        marginals[n] = (counts / counts.sum()).tolist()
    print(json.dumps({"seconds": float(np.median(times)), "marginals": marginals}))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=Path)
    ap.add_argument("--pgmpy-draws", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    ap.add_argument("--timeout", type=int, default=300, help="seconds pgmpy may take")
    ap.add_argument("--pgmpy-one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "alarm.bif.gz")
    if args.pgmpy_one:
        _pgmpy_one(args.pgmpy_one, folder, args)
        return
    before, start = load_average(), time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("asia", "survey", "sachs", "alarm"):
            path = Path(tmp) / f"{name}.bif"
            path.write_bytes(gzip.decompress((folder / f"{name}.bif.gz").read_bytes()))
            net = read_bif(path)
            calibrated = JunctionTree(net).calibrate()
            exact = {n: f.values for n, f in calibrated.items()}
            pg = _pgmpy_in_child(name, folder, args)
            pg_s = pg["seconds"] if "seconds" in pg else 5.0  # ours alone: 5 s
            pg_marg = {n: np.asarray(v) for n, v in pg.get("marginals", {}).items()}
            ours = GibbsSampler(net)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours.query(list(net.nodes), n_draws=100, burn_in=10, seed=0)  # compile
                # draws per chain that take about pgmpy's time: measure a short run first
                t0 = time.perf_counter()
                ours.query(list(net.nodes), n_draws=5000, burn_in=500, seed=0)
                per_draw = (time.perf_counter() - t0) / 5500
                n_draws = max(100, int(pg_s / per_draw / 1.1))
                times = []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    result = ours.query(list(net.nodes), n_draws=n_draws,
                                        burn_in=n_draws // 10, seed=0)  # fmt: skip
                    times.append(time.perf_counter() - t0)
            bk_s = float(np.median(times))
            bk_rate = 4 * (n_draws + n_draws // 10) / bk_s
            marg = {n: f.values for n, f in result.marginals.items()}
            if "seconds" in pg:
                pg_rate = args.pgmpy_draws / pg_s
                rows.append([name, "pgmpy GibbsSampling", f"{args.pgmpy_draws:,}", f"{pg_s:.2f}",
                             f"{pg_rate:,.0f}", f"{_error(pg_marg, exact):.4f}", ""])  # fmt: skip
            else:
                pg_rate = float("nan")
                rows.append([name, "pgmpy GibbsSampling", pg["error"], "", "", "", ""])
            worst = max(result.r_hat.values())
            rows.append([name, "bayeskit GibbsSampler (4 chains)", f"{4 * n_draws:,}",
                         f"{bk_s:.2f}", f"{bk_rate:,.0f}", f"{_error(marg, exact):.4f}",
                         f"{worst:.3f}"])  # fmt: skip
            say(" | ".join(rows[-2]))
            say(" | ".join(rows[-1]), f"({bk_rate / pg_rate:.0f}x pgmpy's draws / s)")
    body = "\n".join(
        [
            f"`benchmarks/.venv-peers/bin/python benchmarks/bench_gibbs.py`, "
            f"{time.strftime('%Y-%m-%d')}. See the script's docstring; median of "
            f"{args.repeats} runs.",
            "",
            *machine_lines(("numpy", "numba", "pgmpy")),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            markdown_table(
                [
                    "network",
                    "sampler",
                    "draws kept",
                    "seconds",
                    "draws / s",
                    "largest error",
                    "largest R-hat",
                ],
                rows,
            ),  # fmt: skip
        ]
    )
    if args.write == "yes" or (args.write == "auto" and args.pgmpy_draws == 2000):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


if __name__ == "__main__":
    main()
