"""Time MDL discretization (Fayyad & Irani 1993) of 1,000,000 rows x 20 numeric columns.

Random normal features; the class (2 to 5 classes) is a noisy linear function of the features,
so every column is correlated with it to a different degree. Prints the median of 3 runs of
``Discretizer("mdl").fit`` for each number of classes (wall clock, and the CPU time of all
threads: on a busy shared machine the latter is the steadier figure).

    PYTHONPATH=src python benchmarks/bench_discretize.py [--rows N] [--cols D] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from bayeskit.data.discretize import Discretizer


def make_data(n_rows: int, n_cols: int, n_classes: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n_rows, n_cols))
    beta = rng.uniform(0.1, 1.0, n_cols) * rng.choice([-1.0, 1.0], n_cols)
    score = x @ beta + rng.standard_normal(n_rows)
    edges = np.quantile(score, np.arange(1, n_classes) / n_classes)
    y = np.searchsorted(edges, score).astype(np.int64)
    return x, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--classes", type=int, nargs="+", default=[2, 5])
    args = parser.parse_args()

    warm_x, warm_y = make_data(1000, 2, 2)
    Discretizer("mdl").fit(warm_x, warm_y, 2)  # compile / load the numba kernel outside timing
    for k in args.classes:
        x, y = make_data(args.rows, args.cols, k)
        times, cpu = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            d = Discretizer("mdl").fit(x, y, k)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        print(
            f"mdl fit {args.rows} x {args.cols}, {k} classes: "
            f"median {statistics.median(times):.3f} s over {args.repeat} runs "
            f"(CPU {statistics.median(cpu):.3f} s on {len(os.sched_getaffinity(0))} CPUs) "
            f"(cuts per column: median {int(np.median(d.n_bins_ - 1))}, max {d.n_bins_.max() - 1})"
        )


if __name__ == "__main__":
    main()
