"""PC-stable on ALARM: bayeskit against pgmpy and causal-learn, in the same run.

Rows are sampled from the bundled ALARM network by bayeskit's forward sampler (``--rows``,
seed 0). Every learner runs the order-independent skeleton of PC-stable with the G-squared
test at ``alpha = 0.05`` and conditioning sets of at most ``--max-cond`` nodes (pgmpy's
default, 5): bayeskit's :func:`~bayeskit.learning.constraint.learn_pc`, pgmpy's
``PC.estimate(variant="stable", ci_test="g_sq")`` on one job, causal-learn's
``pc(indep_test="gsq", stable=True)``. bayeskit runs on one thread
(``BAYESKIT_NUM_THREADS=1``), timed as the median of ``--repeats`` runs after one untimed run
(which compiles its counting kernels); the peers once each (their runs take seconds to
minutes). Each result's skeleton is compared with bayeskit's (edges in one and not the
other), and each CPDAG with the true DAG's by the structural Hamming distance.

    benchmarks/.venv-peers/bin/python benchmarks/bench_pc.py
"""

from __future__ import annotations

import os

os.environ.setdefault("BAYESKIT_NUM_THREADS", "1")

import argparse  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _common import load_average, machine_lines, markdown_table, publish, say, timed  # noqa: E402

from bayeskit.graphs import PDAG, cpdag, structural_hamming_distance  # noqa: E402
from bayeskit.learning.constraint import learn_pc  # noqa: E402
from bayeskit.networks.examples import example_network  # noqa: E402

TITLE = "PC-stable on ALARM against pgmpy and causal-learn"


def pgmpy_pc(df, max_cond):
    from pgmpy.estimators import PC

    model = PC(data=df.astype(str)).estimate(
        variant="stable", ci_test="g_sq", significance_level=0.05, max_cond_vars=max_cond,
        n_jobs=1, show_progress=False, return_type="pdag",
    )  # fmt: skip
    directed = set(model.directed_edges)
    undirected = {frozenset(e) for e in model.undirected_edges}
    return PDAG(list(df.columns), directed, [tuple(e) for e in undirected])


def causallearn_pc(df, max_cond):
    from causallearn.search.ConstraintBased.PC import pc

    codes = np.column_stack([df[c].cat.codes.to_numpy() for c in df.columns]).astype(float)
    graph = pc(codes, 0.05, "gsq", stable=True, show_progress=False, max_k=max_cond).G.graph
    names = list(df.columns)
    directed, undirected = set(), set()
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = graph[i, j], graph[j, i]  # causal-learn: [j, i] == 1 and [i, j] == -1: i -> j
            if a == -1 and b == 1:
                directed.add((names[i], names[j]))
            elif a == 1 and b == -1:
                directed.add((names[j], names[i]))
            elif a == -1 and b == -1:
                undirected.add((names[i], names[j]))
    return PDAG(names, directed, undirected)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--max-cond", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    args = ap.parse_args(argv)
    load_before = load_average()
    net = example_network("alarm")
    df = net.sample(args.rows, seed=0)
    true = cpdag(net.dag)
    learn_pc(df, max_cond_size=args.max_cond)  # compiles the counting kernels
    times = []
    for _ in range(args.repeats):
        ours, seconds = timed(lambda: learn_pc(df, max_cond_size=args.max_cond))
        times.append(seconds)
    mine = float(np.median(times))
    results = [("bayeskit learn_pc", ours, mine)]
    if not args.skip_peers:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name, fn in (("pgmpy PC (stable)", pgmpy_pc), ("causal-learn pc", causallearn_pc)):
                graph, seconds = timed(lambda fn=fn: fn(df, args.max_cond))
                results.append((name, graph, seconds))
                say(name, f"{seconds:.2f} s")
    rows = []
    for name, graph, seconds in results:
        extra = graph.skeleton() - ours.skeleton()
        missing = ours.skeleton() - graph.skeleton()
        rows.append([name, f"{seconds:.3f}", f"{seconds / mine:.1f}x",
                     f"{len(graph.skeleton())}", f"{len(extra)} / {len(missing)}",
                     f"{structural_hamming_distance(graph, true)}"])  # fmt: skip
        say(" | ".join(rows[-1]))
    header = ["learner", "seconds", "ratio to bayeskit", "edges",
              "edges not in / only in bayeskit's skeleton", "SHD to the true CPDAG"]  # fmt: skip
    body = "\n".join([
        *machine_lines(("numpy", "pandas", "pgmpy", "causallearn")),
        f"- load average before / after: {load_before} / {load_average()}",
        "",
        f"`bench_pc.py --rows {args.rows} --max-cond {args.max_cond}`: ALARM, {args.rows:,} "
        f"rows (seed 0), G-squared, alpha 0.05; bayeskit on one thread, median of "
        f"{args.repeats} runs ({', '.join(f'{t:.3f}' for t in times)} s), the peers once. "
        f"bnlearn's published figure for this task is 0.42 s.",
        "",
        markdown_table(header, rows),
    ])  # fmt: skip
    publish(TITLE, body, args.write == "yes")


if __name__ == "__main__":
    main()
