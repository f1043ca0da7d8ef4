"""Structural EM on ALARM with values missing: against hill climbing with and without them.

Rows are sampled from the ALARM network (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``, the
folder of ``alarm.bif.gz``) by bayeskit's forward sampler (seeds 0, 1, ...: ``--seeds``
samples per size), then every value is removed with probability ``--missing`` (0.1; numpy seed
100 + the sample's seed). Three learners, all scored by BIC:

- ``structural EM``: ``structural_em(data, score="bic")`` with its defaults (5 completions per
  incomplete row, EM with a BDeu prior of 1, at most 10 iterations);
- ``listwise deletion``: ``learn_structure`` on the rows with nothing missing (about 2% of them
  with 10% missing: 0.9 ** 37);
- ``complete data``: ``learn_structure`` on the rows before the removal (what the data held).

Each DAG is scored by BIC (natural logs) on the complete data, against the true DAG's BIC on the
same rows, and compared with the true DAG by the structural Hamming distance (SHD). Times: one
run of structural EM (after a run on 500 rows that compiles the kernels), median of
``--repeats`` runs of the hill climbs. If R's ``Rscript`` and bnlearn are found, bnlearn's
``structural.em`` (hill climbing on BIC, ``impute = "bayes-lw"``, its defaults otherwise) runs
on the same rows through a CSV file, timed inside R.

    PYTHONPATH=src python benchmarks/bench_structural_em.py --networks /path/to/networks
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
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

from bayeskit.networks import DAG, learn_structure, read_bif, score, structural_em
from bayeskit.networks import structural_hamming_distance as shd

TITLE = "Structural EM on ALARM with 10% of the values missing"

_R_SCRIPT = """
suppressMessages(library(bnlearn))
args <- commandArgs(trailingOnly = TRUE)
x <- read.csv(args[1], colClasses = "character", na.strings = "")
x[] <- lapply(x, factor)
t <- system.time(
  g <- structural.em(x, maximize = "hc", maximize.args = list(score = "bic"),
                     impute = "bayes-lw", return.all = FALSE)
)[["elapsed"]]
write.csv(arcs(g), args[2], row.names = FALSE)
cat(t, "\\n")
"""


def _bnlearn_available() -> str | None:
    """None when Rscript and bnlearn are there, else why not."""
    if shutil.which("Rscript") is None:
        return "R is not installed (no Rscript on PATH): bnlearn's structural.em not run"
    probe = subprocess.run(["Rscript", "-e", "library(bnlearn)"], capture_output=True, text=True)
    if probe.returncode != 0:
        return "R's bnlearn is not installed: its structural.em not run"
    return None


def _bnlearn(data, nodes, tmp: Path, timeout: int):
    """bnlearn's structural.em on ``data``: (seconds inside R, DAG)."""
    csv, arcs, script = tmp / "holed.csv", tmp / "arcs.csv", tmp / "sem.R"
    data.to_csv(csv, index=False, na_rep="")
    script.write_text(_R_SCRIPT)
    out = subprocess.run(["Rscript", str(script), str(csv), str(arcs)], capture_output=True,
                         text=True, timeout=timeout, check=True)  # fmt: skip
    seconds = float(out.stdout.split()[-1])
    lines = arcs.read_text().splitlines()[1:]
    edges = [tuple(part.strip('"') for part in line.split(",")) for line in lines if line]
    return seconds, DAG(nodes=nodes, edges=edges)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--networks", type=Path, help=f"the folder of alarm.bif.gz (or ${NETWORKS_ENV})"
    )
    ap.add_argument("--rows", type=int, nargs="*", default=[10_000, 20_000])
    ap.add_argument("--missing", type=float, default=0.1)
    ap.add_argument("--seeds", type=int, default=1, help="samples per size")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each hill climb timed")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds for bnlearn's run")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "alarm.bif.gz")
    alarm = read_bif(folder / "alarm.bif.gz")
    states = {n: alarm.states(n) for n in alarm.nodes}
    no_r = _bnlearn_available()
    if no_r:
        say(no_r)
    before, start = load_average(), time.perf_counter()
    warm = alarm.sample(500, seed=99).astype(object)
    structural_em(warm.mask(np.random.default_rng(0).random(warm.shape) < args.missing),
                  states=states)  # fmt: skip
    rows_out = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.rows:
            for seed in range(args.seeds):
                full = alarm.sample(n, seed=seed).astype(str)
                holes = np.random.default_rng(100 + seed).random(full.shape) < args.missing
                data = full.astype(object).mask(holes)
                complete = data.dropna()
                true_bic = score(alarm.dag, full, "bic", states=states)

                def report(
                    name, seconds, dag, iters="", path="", n=n, seed=seed, tb=true_bic, full=full
                ):
                    got = score(dag, full, "bic", states=states)
                    row = [f"{n:,}", str(seed), name, f"{seconds:.2f}", iters,
                           f"{(got - tb) / abs(tb) * 100:+.3f}%", f"{got:,.0f}",
                           str(shd(dag, alarm.dag)), str(len(dag.edges)), path]  # fmt: skip
                    rows_out.append(row)
                    say(" | ".join(row))

                t0 = time.perf_counter()
                result = structural_em(data, states=states)
                seconds = time.perf_counter() - t0
                path = " > ".join(str(shd(d, alarm.dag)) for d in result.dags)
                conv = "" if result.converged else " (not converged)"
                report("structural EM", seconds, result.network.dag,
                       f"{result.n_iter}{conv}", path)  # fmt: skip
                learners = {
                    f"listwise deletion ({len(complete):,} rows)": complete,
                    "complete data (before removal)": full,
                }
                for name, rows in learners.items():
                    dag = learn_structure(rows, "bic", states=states)
                    took = time_runs(lambda r=rows: learn_structure(r, "bic", states=states),
                                     args.repeats).median  # fmt: skip
                    report(name, took, dag)
                if no_r is None:
                    try:
                        took, dag = _bnlearn(data, list(alarm.nodes), Path(tmp), args.timeout)
                        report("bnlearn structural.em", took, dag)
                    except (subprocess.SubprocessError, OSError, ValueError) as exc:
                        say(f"bnlearn failed: {exc}")
    body = "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_structural_em.py`, "
            f"{time.strftime('%Y-%m-%d')}. See the script's docstring for the settings: "
            f"{args.missing:.0%} of the values removed at random; BIC on the complete data "
            f"(before removal), relative to the true DAG's on the same rows, and in nats; SHD "
            f"to the true DAG ({len(alarm.dag.edges)} edges); for structural EM the SHD of each "
            f"iteration's DAG (the start: hill climbing on the complete rows).",
            "",
            *machine_lines(("numpy",)),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            *([f"- {no_r}"] if no_r else []),
            "",
            markdown_table(
                [
                    "rows",
                    "sample",
                    "learner",
                    "seconds",
                    "iterations",
                    "BIC vs true DAG",
                    "BIC",
                    "SHD",
                    "edges",
                    "SHD by iteration",
                ],
                rows_out,
            ),  # fmt: skip
        ]
    )
    default = args.rows == [10_000, 20_000] and args.missing == 0.1
    if args.write == "yes" or (args.write == "auto" and default):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


if __name__ == "__main__":
    main()
