"""Hidden Markov models: bayeskit against hmmlearn on the HiddenMarkovModels.jl grid.

Gaussian emissions with diagonal covariances, ``--dim`` features; one sequence of T = 1,000
steps and 100 sequences of T = 100, with N = 2, 10 and 20 states, plus the published cell of
forward-backward over 50 sequences x 100 steps with N = 10. Two operations per cell:

* forward-backward: the log-likelihood and the state posteriors of every step
  (``score_samples``);
* Baum-Welch: 10 iterations from the same given parameters (``fit`` with no initialisation and
  no early stop).

A timed run repeats its operation back to back (a fresh model each time) until 20 ms have
passed and reports the mean per call, for every contender alike.

hmmlearn runs both of its implementations ("log", its default, and "scaling"); the ratio is
taken against the faster. bayeskit runs single-threaded and on every core. BLAS is limited to
one thread for everyone (set before numpy loads), so "single-threaded" means it. Times are the
median of ``--repeats`` interleaved runs, after one warm-up run each (numba compilation).

    benchmarks/.venv-peers/bin/python benchmarks/bench_hmm.py [--repeats 5] [--write no]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _common import machine_lines, markdown_table, publish, say, time_phases  # noqa: E402

import bayeskit  # noqa: E402
from bayeskit.sequences import HiddenMarkovModel  # noqa: E402

CELLS = [(1, 1000, 2), (1, 1000, 10), (1, 1000, 20), (100, 100, 2), (100, 100, 10)]
CELLS += [(100, 100, 20), (50, 100, 10)]


def problem(n_seq: int, length: int, n: int, dim: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    start = rng.dirichlet(np.ones(n))
    trans = rng.dirichlet(np.ones(n), size=n)
    means = rng.normal(size=(n, dim)) * 3
    covars = rng.uniform(0.5, 2.0, size=(n, dim))
    truth = HiddenMarkovModel(n, random_state=seed)
    truth.startprob_, truth.transmat_, truth.means_, truth.covars_ = start, trans, means, covars
    X = np.concatenate([truth.sample(length, random_state=seed + k)[0] for k in range(n_seq)])
    p = rng.dirichlet(np.ones(n) * 5)
    guess = {
        "startprob_": p,
        "transmat_": rng.dirichlet(np.ones(n) * 5, size=n),
        "means_": means + rng.normal(size=means.shape),
        "covars_": np.ones((n, dim)),
    }
    return X, [length] * n_seq, guess


def ours(guess, n, threads):
    model = HiddenMarkovModel(n, init_params="", n_iter=10, tol=0.0)
    for k, v in guess.items():
        setattr(model, k, v.copy())
    return model, threads


def theirs(guess, n, implementation):
    from hmmlearn import hmm

    model = hmm.GaussianHMM(
        n, covariance_type="diag", init_params="", n_iter=10, tol=-np.inf,
        implementation=implementation,
    )  # fmt: skip
    for k, v in guess.items():
        setattr(model, k, v.copy())
    return model


def runner(make, X, lengths, op, least=0.02):
    """One timed run: calls back to back (a fresh model each) until ``least`` seconds have
    passed, the mean per call; a single sub-millisecond call after the harness's garbage
    collection measures cold caches more than the work."""

    def run():
        total, calls = 0.0, 0
        while calls == 0 or total < least:
            model = make()
            t0 = time.perf_counter()
            if op == "forward-backward":
                model.score_samples(X, lengths)
            else:
                model.fit(X, lengths)
            total += time.perf_counter() - t0
            calls += 1
        return {op: total / calls}

    return run


def with_threads(threads, run):
    def wrapped():
        with bayeskit.num_threads(threads):
            return run()

    return wrapped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dim", type=int, default=10)
    parser.add_argument("--write", choices=["yes", "no"], default="yes")
    parser.add_argument(
        "--cells", default="", help="comma-separated indices of the grid's cells to run (all)"
    )
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    rows = []
    cells = [CELLS[int(k)] for k in args.cells.split(",")] if args.cells else CELLS
    for n_seq, length, n in cells:
        X, lengths, guess = problem(n_seq, length, n, args.dim)
        for op in ("forward-backward", "Baum-Welch"):
            contenders = {
                "bayeskit 1 thread": with_threads(
                    1, runner(lambda g=guess, n=n: ours(g, n, 1)[0], X, lengths, op)
                ),
                f"bayeskit {cores} threads": with_threads(
                    cores, runner(lambda g=guess, n=n: ours(g, n, cores)[0], X, lengths, op)
                ),
                "hmmlearn log": runner(lambda g=guess, n=n: theirs(g, n, "log"), X, lengths, op),
                "hmmlearn scaling": runner(
                    lambda g=guess, n=n: theirs(g, n, "scaling"), X, lengths, op
                ),
            }
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                time_phases(contenders, 1)  # warm-up: numba compilation, imports
                timing = time_phases(contenders, args.repeats)
            med = {k: v[op].median for k, v in timing.items()}
            peer = min(med["hmmlearn log"], med["hmmlearn scaling"])
            one, many = med["bayeskit 1 thread"], med[f"bayeskit {cores} threads"]
            cell = f"{n_seq} x {length}, N = {n}"
            peers = (med["hmmlearn log"], med["hmmlearn scaling"])
            ms = [f"{v * 1e3:.2f}" for v in (one, many, *peers)]
            rows.append([cell, op, *ms, f"{peer / one:.1f}x", f"{peer / many:.1f}x"])
            say(" | ".join(rows[-1]))
    header = ["sequences x steps, states", "operation", "bayeskit 1 thread (ms)",
              f"bayeskit {cores} threads (ms)", "hmmlearn log (ms)", "hmmlearn scaling (ms)",
              "ratio 1 thread", f"ratio {cores} threads"]  # fmt: skip
    body = "\n".join(
        [
            "`benchmarks/bench_hmm.py`: Gaussian diagonal emissions, "
            f"{args.dim} features; median of {args.repeats} interleaved runs after a warm-up, "
            "each run the mean of back-to-back calls over at least 20 ms; "
            "BLAS on one thread. Ratio = the faster hmmlearn implementation's time / bayeskit's.",
            "",
            *machine_lines(("numpy", "numba", "hmmlearn")),
            "",
            markdown_table(header, rows),
        ]
    )
    publish("Hidden Markov models against hmmlearn", body, args.write == "yes")


if __name__ == "__main__":
    main()
