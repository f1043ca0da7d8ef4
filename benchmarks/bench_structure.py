"""Score-and-search structure learning on ALARM: bayeskit against pgmpy and pyAgrum (issue 13).

Rows are sampled from the ALARM network (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``, the
folder of ``alarm.bif.gz``) by bayeskit's forward sampler (seed 0); every learner gets the same
rows (pyAgrum through a CSV file written once) and climbs on BIC:
bayeskit's ``learn_structure(data, "bic")`` with its defaults (from the Chow-Liu forest, a tabu
list of 10), bayeskit's plain greedy climb from the empty graph (``start="empty",
tabu_length=0``), pgmpy's ``HillClimbSearch.estimate(scoring_method=
"bic-d")`` (its defaults otherwise, a tabu list of 100 among them) and pyAgrum's ``BNLearner``
with ``useGreedyHillClimbing`` and ``useScoreBIC``. Times are the median of ``--repeats`` runs
(data already in memory; pyAgrum reads its CSV inside the timing) on the first of ``--seeds``
samples (seeds 0, 1, ...; 3 by default). On every sample each learned DAG is scored
by bayeskit's BIC (natural logs, to maximise) against the true DAG's, and compared with the true
DAG by the structural Hamming distance (SHD: node pairs whose edge is missing, extra or
reversed). Run with the peers' environment::

    benchmarks/.venv-peers/bin/python benchmarks/bench_structure.py
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

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

from bayeskit.networks import DAG, learn_structure, read_bif, score
from bayeskit.networks import structural_hamming_distance as shd

TITLE = "Structure learning on ALARM: hill climbing with BIC (issue 13)"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--networks", type=Path, help=f"the folder of alarm.bif.gz (or ${NETWORKS_ENV})"
    )
    ap.add_argument("--rows", type=int, nargs="*", default=[20_000, 100_000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=3, help="samples scored (the first is timed)")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "alarm.bif.gz")
    alarm = read_bif(folder / "alarm.bif.gz")
    states = {n: alarm.states(n) for n in alarm.nodes}
    learners = {
        "bayeskit": lambda d, csv: learn_structure(d, "bic", states=states),
        "bayeskit greedy": lambda d, csv: learn_structure(
            d, "bic", states=states, start="empty", tabu_length=0
        ),
    }
    versions = ["numpy"]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pgmpy.estimators import HillClimbSearch

        def pgmpy_hc(d, csv):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                g = HillClimbSearch(d).estimate(scoring_method="bic-d", show_progress=False)
            return DAG(nodes=list(d.columns), edges=list(g.edges()))

        learners["pgmpy"] = pgmpy_hc
        versions.append("pgmpy")
    except ImportError as exc:
        say(f"pgmpy: not installed ({exc})")
    try:
        import pyagrum as gum

        def pyagrum_ghc(d, csv):
            learner = gum.BNLearner(str(csv))
            learner.useGreedyHillClimbing()
            learner.useScoreBIC()
            bn = learner.learnDAG()
            edges = [(learner.nameFromId(u), learner.nameFromId(v)) for u, v in bn.arcs()]
            return DAG(nodes=list(d.columns), edges=edges)

        learners["pyAgrum"] = pyagrum_ghc
        versions.append("pyagrum")
    except ImportError as exc:
        say(f"pyAgrum: not installed ({exc})")
    before, start = load_average(), time.perf_counter()
    rows_out, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.rows:
            seconds, quality = {}, {name: [] for name in learners}
            for seed in range(args.seeds):
                data = alarm.sample(n, seed=seed).astype(str)
                csv = Path(tmp) / f"alarm_{n}_{seed}.csv"
                data.to_csv(csv, index=False)
                true_bic = score(alarm.dag, data, "bic", states=states)
                for name, learn in learners.items():
                    dag = learn(data, csv)
                    if seed == 0:  # timed on the first sample, after the run above
                        seconds[name] = time_runs(
                            lambda f=learn, d=data, c=csv: f(d, c), args.repeats
                        ).median
                    got = score(dag, data, "bic", states=states)
                    quality[name].append(
                        (
                            (got - true_bic) / abs(true_bic) * 100,
                            shd(dag, alarm.dag),
                            len(dag.edges),
                        )  # fmt: skip
                    )
                    say(f"{n} rows, sample {seed}, {name}: {quality[name][-1]}")
            for name in learners:
                rows_out.append(
                    [
                        f"{n:,}",
                        name,
                        f"{seconds[name]:.2f}",
                        " / ".join(f"{q[0]:+.2f}%" for q in quality[name]),
                        " / ".join(str(q[1]) for q in quality[name]),
                        " / ".join(str(q[2]) for q in quality[name]),
                    ]
                )
            for peer in ("pgmpy", "pyAgrum"):
                if peer in seconds:
                    ratios.append(
                        f"{n:,} rows: bayeskit greedy {seconds['bayeskit greedy']:.2f} s against "
                        f"{peer} {seconds[peer]:.2f} s "
                        f"({seconds[peer] / seconds['bayeskit greedy']:.1f}x)"
                    )
                    ratios.append(
                        f"{n:,} rows: bayeskit {seconds['bayeskit']:.2f} s against {peer} "
                        f"{seconds[peer]:.2f} s ({seconds[peer] / seconds['bayeskit']:.1f}x)"
                    )
    body = "\n".join(
        [
            f"`benchmarks/.venv-peers/bin/python benchmarks/bench_structure.py`, "
            f"{time.strftime('%Y-%m-%d')}. See the script's docstring for the settings; median "
            f"of {args.repeats} runs on sample 0; BIC (relative to the true DAG's, on the same "
            f"rows), SHD and edge count per sample (seeds 0 / 1 / ...). The true DAG has "
            f"{len(alarm.dag.edges)} edges.",
            "",
            *machine_lines(tuple(versions)),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            markdown_table(
                ["rows", "learner", "seconds", "BIC vs true DAG", "SHD", "edges"], rows_out
            ),
            "",
            *(f"- {r}" for r in ratios),
        ]
    )
    if args.write == "yes" or (args.write == "auto" and args.rows == [20_000, 100_000]):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


if __name__ == "__main__":
    main()
