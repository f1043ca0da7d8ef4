"""Before/after timings for a restructuring of the package: the same cases on two source trees.

A redesign that moves code between modules (the layers of the package, one estimator registry,
one EM driver, ...) must not make anything slower. This script times one case per part of the
library that such a change touches, on the working tree's ``src/`` and on the ``src/`` of a git
revision (``--before REV``, exported with ``git archive`` into a temporary folder), each case
in a child process per tree and round, the two trees alternating so that the machine's load
hits both alike. Every case uses only the public API that both trees have.

Cases (synthetic data are drawn with fixed seeds; networks from ``--networks`` or
``$BAYESKIT_NETWORKS``):

* ``import``: ``import bayeskit.networks`` and ``import bayeskit.classifiers`` in a fresh process
  (wall time of the whole child, interpreter start included);
* ``naive-bayes``, ``tan``, ``kdb``: fit + ``predict_proba`` on 200,000 x 30 categorical rows
  (4 states, 3 classes), 5,000 test rows;
* ``subclass``: ``SubclassNaiveBayes`` on the bundled ``car`` data;
* ``alarm-fit``, ``alarm-loglik``, ``alarm-sample``: parameter learning, log-likelihood and
  forward sampling of 100,000 rows on ALARM;
* ``alarm-query``: 200 single-node queries with 3 evidence nodes by the default engine;
* ``alarm-jt``: a junction tree built and 200 queries answered;
* ``hill-climb``: BIC hill climbing on 20,000 ALARM rows;
* ``em``: 10 EM iterations on 20,000 ALARM rows with 20% of the values missing;
* ``bif``: reading hepar2 and win95pts.

Each child runs its case once to warm up (numba compiles or loads its cache) and then
``--repeats`` times; the figure is the median over all rounds. Run::

    .venv/bin/python benchmarks/bench_redesign.py --before 441ddbb --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NETWORKS_ENV = "BAYESKIT_NETWORKS"

CHILD = r"""
import json, os, sys, time
import numpy as np
import pandas as pd
case, repeats, networks = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def categorical(n, d, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = (rng.integers(0, 4, (n, d)) + y[:, None] * (rng.random((n, d)) < 0.3)) % 4
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(d)]).astype("category")
    return frame, y

def alarm():
    from bayeskit.networks import read_bif
    return read_bif(os.path.join(networks, "alarm.bif.gz"))

def setup():
    import bayeskit
    if case in ("naive-bayes", "tan", "kdb"):
        X, y = categorical(200_000, 30, 0)
        Xt, _ = categorical(5_000, 30, 1)
        model = {"naive-bayes": lambda: bayeskit.NaiveBayes(),
                 "tan": lambda: bayeskit.TAN(), "kdb": lambda: bayeskit.KDB(k=2)}[case]
        return lambda: model().fit(X, y).predict_proba(Xt)
    if case == "subclass":
        from bayeskit.data import datasets
        X, y = datasets.load("car")
        return lambda: bayeskit.SubclassNaiveBayes().fit(X, y)
    if case == "bif":
        from bayeskit.networks import read_bif
        return lambda: [read_bif(os.path.join(networks, f"{n}.bif.gz"))
                        for n in ("hepar2", "win95pts")]
    net = alarm()
    data = net.sample(100_000, seed=0)
    if case == "alarm-fit":
        from bayeskit.networks import fit_parameters
        return lambda: fit_parameters(net.dag, data)
    if case == "alarm-loglik":
        return lambda: net.log_likelihood(data)
    if case == "alarm-sample":
        return lambda: net.sample(100_000, seed=1)
    rng = np.random.default_rng(2)
    nodes = list(net.nodes)
    queries = []
    for _ in range(200):
        picked = rng.choice(len(nodes), 4, replace=False)
        evidence = {nodes[i]: data.iloc[int(rng.integers(len(data)))][nodes[i]] for i in picked[1:]}
        queries.append((nodes[picked[0]], evidence))
    def answer(engine):
        out = []
        for target, evidence in queries:
            try:
                out.append(engine.query([target], evidence))
            except Exception:
                out.append(None)
        return out
    if case == "alarm-query":
        from bayeskit.networks import ExactInference
        return lambda: answer(ExactInference(net))
    if case == "alarm-jt":
        from bayeskit.networks import JunctionTree
        return lambda: answer(JunctionTree(net))
    if case == "hill-climb":
        from bayeskit.networks import learn_structure
        rows = data.iloc[:20_000]
        return lambda: learn_structure(rows, "bic")
    if case == "em":
        from bayeskit.networks import fit_em
        rows = data.iloc[:20_000].copy()
        mask = np.random.default_rng(3).random(rows.shape) < 0.2
        rows = rows.mask(mask)
        return lambda: fit_em(net.dag, rows, max_iter=10, tol=0.0)
    raise SystemExit(f"unknown case {case}")

run = setup()
run()
times = []
for _ in range(repeats):
    t0 = time.perf_counter()
    run()
    times.append(time.perf_counter() - t0)
print(json.dumps(times))
"""

CASES = (
    "import",
    "naive-bayes",
    "tan",
    "kdb",
    "subclass",
    "alarm-fit",
    "alarm-loglik",
    "alarm-sample",
    "alarm-query",
    "alarm-jt",
    "hill-climb",
    "em",
    "bif",
)


def run_case(src: Path, case: str, repeats: int, networks: str) -> list[float]:
    """The seconds of each timed run of ``case`` in a child process on the tree ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    if case == "import":
        out = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", "import bayeskit.networks, bayeskit.classifiers"],
                env=env,
                check=True,
            )
            out.append(time.perf_counter() - t0)
        return out
    done = subprocess.run(
        [sys.executable, "-c", CHILD, case, str(repeats), networks],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def export(rev: str, folder: Path) -> Path:
    """The ``src/`` tree of git revision ``rev``, written under ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True, help="the git revision to compare with")
    ap.add_argument("--networks", type=Path, help=f"the .bif.gz folder (or ${NETWORKS_ENV})")
    ap.add_argument("--rounds", type=int, default=3, help="child processes per tree and case")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per child")
    ap.add_argument("--only", nargs="*", choices=CASES, help="cases to run (default: all)")
    args = ap.parse_args(argv)
    networks = args.networks or os.environ.get(NETWORKS_ENV)
    if not networks:
        ap.error(f"name the standard networks' folder with --networks or ${NETWORKS_ENV}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": export(args.before, Path(tmp)), "after": REPO / "src"}
        print("| case | before (s) | after (s) | after / before |")
        print("|---|---|---|---|")
        for case in args.only or CASES:
            runs: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.rounds):
                for name, src in trees.items():
                    runs[name] += run_case(src, case, args.repeats, str(networks))
            b, a = statistics.median(runs["before"]), statistics.median(runs["after"])
            print(f"| {case} | {b:.3f} | {a:.3f} | {a / b:.2f} |", flush=True)


if __name__ == "__main__":
    main()
