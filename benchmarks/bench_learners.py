"""Max-min hill climbing and the exact search on ALARM: bayeskit against its own hill climb
and pgmpy's MmhcEstimator, in the same run.

MMHC: rows sampled from the bundled ALARM network (``--rows``, seed 0); bayeskit's
``learn_mmhc`` (G-squared at 0.05, the climb on BIC from its defaults), bayeskit's default
hill climb, and pgmpy's ``MmhcEstimator.estimate(scoring_method="bic-d",
significance_level=0.05)``; each DAG scored by bayeskit's BIC and compared with the true DAG
by the structural Hamming distance. bayeskit's times are the median of ``--repeats`` runs
after an untimed one; pgmpy runs once.

Exact search: the first ``--exact-nodes`` nodes of ALARM in topological order (a
subnetwork), 5,000 rows; ``learn_exact`` on BIC, its time, its score against the climb's (20
restarts) and the true subnetwork's, and its table memory (``exact_memory``).

    benchmarks/.venv-peers/bin/python benchmarks/bench_learners.py
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from _common import load_average, machine_lines, markdown_table, publish, say, timed

from bayeskit.learning.exact import exact_memory
from bayeskit.networks import example_network, learn_exact, learn_mmhc, learn_structure, score
from bayeskit.networks import structural_hamming_distance as shd

TITLE = "MMHC and the exact search on ALARM"


def pgmpy_mmhc(df):
    from pgmpy.estimators import MmhcEstimator

    model = MmhcEstimator(df.astype(str)).estimate(scoring_method="bic-d",
                                                   significance_level=0.05)  # fmt: skip
    return list(model.edges())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--exact-nodes", type=int, nargs="*", default=[12, 16, 20])
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    args = ap.parse_args(argv)
    load_before = load_average()
    net = example_network("alarm")
    df = net.sample(args.rows, seed=0)
    true_bic = score(net.dag, df, "bic")
    rows = []
    for name, fn in (("bayeskit learn_mmhc", lambda: learn_mmhc(df, "bic")),
                     ("bayeskit learn_structure (hill climb)",
                      lambda: learn_structure(df, "bic"))):  # fmt: skip
        fn()
        runs = [timed(fn) for _ in range(args.repeats)]
        dag = runs[0][0]
        seconds = float(np.median([t for _, t in runs]))
        rows.append([name, f"{seconds:.2f}", f"{score(dag, df, 'bic'):,.1f}",
                     f"{shd(dag, net.dag)}", f"{len(dag.edges)}"])  # fmt: skip
        say(" | ".join(rows[-1]))
    if not args.skip_peers:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            edges, seconds = timed(lambda: pgmpy_mmhc(df))
        dag = {"nodes": list(df.columns), "edges": edges}
        rows.append(["pgmpy MmhcEstimator", f"{seconds:.2f}", f"{score(dag, df, 'bic'):,.1f}",
                     f"{shd(dag, net.dag)}", f"{len(edges)}"])  # fmt: skip
        say(" | ".join(rows[-1]))
    exact_rows = []
    sample = net.sample(5000, seed=0)
    for n in args.exact_nodes:
        nodes = net.dag.topological_order()[:n]
        part = sample[nodes]
        result, seconds = timed(lambda part=part: learn_exact(part, "bic"))
        climbed = learn_structure(part, "bic", restarts=20)
        inside = [(u, v) for u, v in net.dag.edges if u in nodes and v in nodes]
        sub = {"nodes": nodes, "edges": inside}
        exact_rows.append([str(n), f"{seconds:.1f}", f"{result.score:,.2f}",
                           f"{score(climbed, part, 'bic'):,.2f}", f"{score(sub, part, 'bic'):,.2f}",
                           f"{sum(len(c) for c in result.parent_sets.values()):,}",
                           f"{exact_memory(n) / 2**20:,.0f}"])  # fmt: skip
        say(" | ".join(exact_rows[-1]))
    body = "\n".join([
        *machine_lines(("numpy", "pandas", "pgmpy")),
        f"- load average before / after: {load_before} / {load_average()}",
        "",
        f"`bench_learners.py --rows {args.rows}`: ALARM, {args.rows:,} rows (seed 0); the true "
        f"DAG's BIC is {true_bic:,.1f}. bayeskit's seconds: median of {args.repeats} runs.",
        "",
        markdown_table(["learner", "seconds", "BIC", "SHD to the true DAG", "edges"], rows),
        "",
        "Exact search (BIC) on the first nodes of ALARM in topological order, 5,000 rows "
        "(seed 0):",
        "",
        markdown_table(["nodes", "seconds", "optimum's BIC", "climb (20 restarts)",
                        "true subnetwork", "candidate parent sets", "tables (MiB)"],
                       exact_rows),
    ])  # fmt: skip
    publish(TITLE, body, args.write == "yes")


if __name__ == "__main__":
    main()
