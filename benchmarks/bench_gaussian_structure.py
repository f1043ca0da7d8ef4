"""Structure learning on continuous data: bayeskit against pgmpy's hill climbing, Gaussian BIC.

Random linear-Gaussian networks (pgmpy's ``LinearGaussianBayesianNetwork.get_random``, each
edge present with probability ``--edge-prob``), data sampled from them. bayeskit:
``learn_structure(data, "bic")`` (linear-Gaussian family scores from the scatter matrix; the
climb from the Chow-Liu tree with a tabu list, its defaults). pgmpy: ``HillClimbSearch(data)
.estimate(scoring_method="bic-g")`` (its defaults). Both learned DAGs are scored by the same
function, bayeskit's ``score(dag, data, "bic")`` (natural logs, higher is better), beside the
true DAG's. pgmpy runs once per cell (minutes each), bayeskit ``--repeats`` times (median);
cells over ``--peer-rows`` rows or ``--peer-nodes`` nodes run bayeskit alone (pgmpy took 6
minutes on 50 nodes and 10,000 rows, and grows faster than the number of nodes squared).

    benchmarks/.venv-peers/bin/python benchmarks/bench_gaussian_structure.py [--write no]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

from _common import machine_lines, markdown_table, publish, say  # noqa: E402
from bench_gaussian_inference import problem  # noqa: E402

from bayeskit.graphs import DAG  # noqa: E402
from bayeskit.learning import learn_structure, score  # noqa: E402

CELLS = [(20, 10_000), (20, 100_000), (50, 10_000), (100, 10_000), (100, 1_000_000)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--edge-prob", type=float, default=0.1)
    parser.add_argument("--peer-rows", type=int, default=100_000)
    parser.add_argument("--peer-nodes", type=int, default=50)
    parser.add_argument("--write", choices=["yes", "no"], default="yes")
    args = parser.parse_args()
    rows = []
    for n_nodes, n_rows in CELLS:
        _, truth, _, _ = problem(n_nodes, args.edge_prob, 10, seed=n_nodes)
        data = truth.sample(n_rows, seed=1)
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            ours = learn_structure(data)
            times.append(time.perf_counter() - t0)
        mine = statistics.median(times)
        ours_score, true_score = score(ours, data), score(truth.dag, data)
        if n_rows <= args.peer_rows and n_nodes <= args.peer_nodes:
            from pgmpy.estimators import HillClimbSearch

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                found = HillClimbSearch(data).estimate(scoring_method="bic-g", show_progress=False)
                peer = time.perf_counter() - t0
            theirs = DAG(list(data.columns), list(found.edges()))
            peer_cells = [f"{peer:,.2f}", f"{peer / mine:,.0f}x", f"{score(theirs, data):,.1f}"]
        else:
            peer_cells = ["not run", "", ""]
        rows.append([str(n_nodes), str(len(truth.dag.edges)), f"{n_rows:,}", f"{mine:,.3f}",
                     peer_cells[0], peer_cells[1], f"{ours_score:,.1f}", peer_cells[2],
                     f"{true_score:,.1f}"])  # fmt: skip
        say(" | ".join(rows[-1]))
    header = ["nodes", "true edges", "rows", "bayeskit (s)", "pgmpy (s)", "ratio",
              "bayeskit BIC", "pgmpy BIC", "true DAG's BIC"]  # fmt: skip
    body = "\n".join(
        [
            "`benchmarks/bench_gaussian_structure.py`: random linear-Gaussian networks "
            f"(pgmpy's `get_random`, edge probability {args.edge_prob}), data sampled from "
            "them; bayeskit `learn_structure(data)` (median of "
            f"{args.repeats}) against pgmpy `HillClimbSearch(...).estimate('bic-g')` (one run); "
            "every DAG scored by bayeskit's Gaussian BIC (higher is better).",
            "",
            *machine_lines(("numpy", "scipy", "pgmpy")),
            "",
            markdown_table(header, rows),
        ]
    )
    publish("Linear-Gaussian structure learning against pgmpy", body, args.write == "yes")


if __name__ == "__main__":
    main()
