"""EM for Bayesian network parameters: bayeskit against pyAgrum's and pgmpy's EM (issue 15).

Two problems, each with the structure given:

- ALARM (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``): ``--rows`` rows sampled by bayeskit
  (seed 0), every value removed with probability 0.2 (numpy seed 1);
- a latent-class model: a hidden node of 3 states with 8 children of 4 states (Dirichlet(0.5)
  rows, seed 2), ``--rows`` rows, the hidden node never observed.

Every learner starts EM from its own default start with a pseudo-count of 1 per cell (bayeskit
``estimator="lidstone", alpha=1``; pyAgrum ``useSmoothingPrior(1)``, which reads the CSV file
inside its timing) and stops on a relative change of the log-likelihood of 1e-6, or after
``--max-iter`` iterations. Reported: iterations, seconds in all and per iteration (median of
``--repeats`` runs for bayeskit and pyAgrum), and bayeskit's final log-likelihood. pgmpy's
``ExpectationMaximization`` is slow, so it runs ``--pgmpy-iter`` iterations on the first
``--pgmpy-rows`` rows in a child process stopped after ``--timeout`` seconds, and its time per
iteration per row is scaled to the full rows for the ratio. Run with the peers' environment::

    benchmarks/.venv-peers/bin/python benchmarks/bench_em.py
"""

from __future__ import annotations

import argparse
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
    load_average,
    machine_lines,
    markdown_table,
    networks_folder,
    say,
    time_runs,
    write_section,
)

from bayeskit.networks import DAG, BayesianNetwork, fit_em, read_bif

TITLE = "EM for network parameters (issue 15)"


def _problems(folder: Path, rows: int):
    alarm = read_bif(folder / "alarm.bif.gz")
    data = alarm.sample(rows, seed=0).astype(object)
    data = data.mask(np.random.default_rng(1).random(data.shape) < 0.2)
    yield "alarm, 20% missing", alarm, data, {}
    rng = np.random.default_rng(2)
    children = [f"x{i}" for i in range(8)]
    states = {"z": ["a", "b", "c"], **dict.fromkeys(children, list("pqrs"))}
    cpts = {"z": rng.dirichlet(np.ones(3)),
            **{c: rng.dirichlet(np.full(4, 0.5), size=3) for c in children}}  # fmt: skip
    planted = BayesianNetwork(DAG(edges=[("z", c) for c in children]), cpts, states=states)
    data = planted.sample(rows, seed=3).drop(columns=["z"]).astype(object)
    yield "latent class (z: 3 states, 8 children)", planted, data, {"z": 3}


def _csv(data: pd.DataFrame, net: BayesianNetwork, path: Path) -> None:
    frame = data.copy()
    for node in net.nodes:
        if node not in frame.columns:
            frame[node] = None
    frame[list(net.nodes)].fillna("?").to_csv(path, index=False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=Path)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--max-iter", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pgmpy-rows", type=int, default=2_000)
    ap.add_argument("--pgmpy-iter", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    ap.add_argument("--pgmpy-one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "alarm.bif.gz")
    if args.pgmpy_one:
        _pgmpy_one(int(args.pgmpy_one), folder, args)
        return
    before, start = load_average(), time.perf_counter()
    rows_out, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, net, data, latent) in enumerate(_problems(folder, args.rows)):
            states = {n: net.states(n) for n in net.nodes}
            options = dict(states=states, latent=latent, estimator="lidstone", alpha=1.0,
                           tol=1e-6, max_iter=args.max_iter, seed=0)  # fmt: skip
            fit_em(net.dag, data.iloc[:200], **options)  # compile the kernels
            result = fit_em(net.dag, data, **options)
            ours = time_runs(lambda d=data, o=options, g=net.dag: fit_em(g, d, **o),
                             args.repeats).median  # fmt: skip
            per = ours / result.n_iter
            rows_out.append([name, "bayeskit", str(result.n_iter), f"{ours:.2f}",
                             f"{per * 1e3:.1f}", f"{result.history[-1]:.1f}"])  # fmt: skip
            say(" | ".join(rows_out[-1]))
            csv = Path(tmp) / f"problem{k}.csv"
            _csv(data, net, csv)
            agrum = _pyagrum(net, csv, args)
            if agrum is not None:
                seconds, iters = agrum
                rows_out.append([name, "pyAgrum", str(iters), f"{seconds:.2f}",
                                 f"{seconds / iters * 1e3:.1f}", ""])  # fmt: skip
                say(" | ".join(rows_out[-1]))
                ratios.append(f"{name}: per iteration, pyAgrum / bayeskit = "
                              f"{seconds / iters / per:.1f}x")  # fmt: skip
            pg = _pgmpy_in_child(k, folder, args)
            if "seconds" in pg:
                scaled = pg["seconds"] / args.pgmpy_iter * args.rows / args.pgmpy_rows
                rows_out.append([name, f"pgmpy ({args.pgmpy_rows:,} rows)",
                                 str(args.pgmpy_iter), f"{pg['seconds']:.2f}",
                                 f"{pg['seconds'] / args.pgmpy_iter * 1e3:.1f}", ""])  # fmt: skip
                ratios.append(f"{name}: per iteration and row, pgmpy / bayeskit = "
                              f"{scaled / per:.0f}x")  # fmt: skip
            else:
                rows_out.append([name, "pgmpy", pg["error"], "", "", ""])
            say(" | ".join(rows_out[-1]))
    body = "\n".join(
        [
            f"`benchmarks/.venv-peers/bin/python benchmarks/bench_em.py`, "
            f"{time.strftime('%Y-%m-%d')}. See the script's docstring; {args.rows:,} rows.",
            "",
            *machine_lines(("numpy", "numba", "pgmpy", "pyagrum")),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            markdown_table(
                ["problem", "learner", "iterations", "seconds", "ms / iteration", "log-likelihood"],
                rows_out,
            ),  # fmt: skip
            "",
            *(f"- {r}" for r in ratios),
        ]
    )
    if args.write == "yes" or (args.write == "auto" and args.rows == 100_000):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


def _pyagrum(net, csv: Path, args):
    try:
        import pyagrum as gum
    except ImportError:
        return None
    from bayeskit.networks import write_bif

    bif = csv.with_suffix(".bif")
    write_bif(net, bif)
    template = gum.loadBN(str(bif))
    iters = []

    def learn():
        learner = gum.BNLearner(str(csv), template, ["?"])
        learner.useEM(1e-6)
        learner.EMsetMaxIter(args.max_iter)
        learner.useSmoothingPrior(1.0)
        learner.learnParameters(template.dag())
        iters.append(learner.EMnbrIterations())

    seconds = time_runs(learn, args.repeats).median
    return seconds, iters[-1]


def _pgmpy_in_child(k: int, folder: Path, args) -> dict:
    cmd = [sys.executable, __file__, "--pgmpy-one", str(k), "--networks", str(folder),
           "--rows", str(args.rows), "--pgmpy-rows", str(args.pgmpy_rows),
           "--pgmpy-iter", str(args.pgmpy_iter)]  # fmt: skip
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


def _pgmpy_one(k: int, folder: Path, args) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.estimators import ExpectationMaximization
        from pgmpy.models import DiscreteBayesianNetwork
    name, net, data, latent = list(_problems(folder, args.rows))[k]
    data = data.iloc[: args.pgmpy_rows]
    model = DiscreteBayesianNetwork(list(net.dag.edges), latents=set(latent))
    model.add_nodes_from(net.nodes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        ExpectationMaximization(model, data).get_parameters(
            latent_card=latent or None, max_iter=args.pgmpy_iter, show_progress=False
        )
        seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "problem": name}))


if __name__ == "__main__":
    main()
