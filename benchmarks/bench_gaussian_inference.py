"""Exact inference in linear-Gaussian networks: bayeskit against pgmpy.

Random linear-Gaussian networks from pgmpy's ``LinearGaussianBayesianNetwork.get_random`` (20,
50 and 100 nodes, each edge present with probability ``--edge-prob``), the same network built
in bayeskit from pgmpy's CPDs. Half of the nodes (chosen at random) are observed; the question
is the posterior of all the others.

* one at a time: ``--queries`` evidence rows, one call per row (bayeskit
  ``GaussianInference.query``; pgmpy ``predict_probability`` on a one-row frame);
* batched: ``--rows`` evidence rows in one call (bayeskit ``query_batch``; pgmpy
  ``predict_probability`` on the whole frame).

Both engines' posterior means are compared with the moment form's (the structural-equation
covariance conditioned by a dense solve), relative to their scale. The engines are
built once, outside the timings (bayeskit's factorises the joint once per evidence set, the
first query's work; pgmpy rebuilds its joint Gaussian on every call). Median of ``--repeats``
runs, interleaved.

    benchmarks/.venv-peers/bin/python benchmarks/bench_gaussian_inference.py [--write no]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from _common import machine_lines, markdown_table, publish, say, time_phases  # noqa: E402

from bayeskit.factors import LinearGaussianCPD  # noqa: E402
from bayeskit.graphs import DAG  # noqa: E402
from bayeskit.networks import GaussianInference, HybridNetwork  # noqa: E402


def problem(n_nodes: int, edge_prob: float, rows: int, seed: int):
    from pgmpy.models import LinearGaussianBayesianNetwork

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = LinearGaussianBayesianNetwork.get_random(
            n_nodes=n_nodes, edge_prob=edge_prob, seed=seed
        )
    cpds = []
    for cpd in theirs.get_cpds():
        beta = np.asarray(cpd.beta, dtype=float)
        cpds.append(LinearGaussianCPD(cpd.variable, list(cpd.evidence), beta[0], beta[1:],
                                      float(cpd.std) ** 2))  # fmt: skip
    ours = HybridNetwork(DAG(list(theirs.nodes()), list(theirs.edges())), cpds)
    rng = np.random.default_rng(seed)
    names = list(theirs.nodes())
    seen = sorted(rng.choice(len(names), size=len(names) // 2, replace=False).tolist())
    observed = [names[i] for i in seen]
    hidden = [v for v in names if v not in observed]
    data = ours.sample(rows, seed=seed)[observed]
    return theirs, ours, data, hidden


def moment_form(net, data, hidden) -> np.ndarray:
    """The posterior means by the structural-equation formula, independently of both."""
    names = list(net.nodes)
    at = {v: i for i, v in enumerate(names)}
    n = len(names)
    B, c, d = np.zeros((n, n)), np.zeros(n), np.zeros(n)
    for v in names:
        cpd = net.cpd(v)
        c[at[v]], d[at[v]] = float(cpd.intercept), float(cpd.variance)
        B[at[v], [at[p] for p in cpd.parents]] = cpd.coefficients
    inv = np.linalg.inv(np.eye(n) - B)
    mu, cov = inv @ c, inv @ np.diag(d) @ inv.T
    q, e = [at[v] for v in hidden], [at[v] for v in data.columns]
    shift = np.linalg.solve(cov[np.ix_(e, e)], (data.to_numpy() - mu[e]).T)
    return mu[q][None, :] + (cov[np.ix_(q, e)] @ shift).T


def check(theirs, ours, engine, data, hidden) -> tuple[float, float]:
    """The largest gaps of bayeskit's and pgmpy's posterior means from the moment form."""
    rows = data.iloc[:20]
    want = moment_form(ours, rows, hidden)
    names, mu, _ = theirs.predict_probability(rows)
    mu = mu[:, [names.index(v) for v in hidden]]
    got = engine.query_batch(hidden, rows)
    got = np.column_stack([got[(v, "mean")] for v in hidden])
    scale = max(1.0, float(np.abs(want).max()))
    return float(np.abs(got - want).max() / scale), float(np.abs(mu - want).max() / scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--edge-prob", type=float, default=0.1)
    parser.add_argument("--write", choices=["yes", "no"], default="yes")
    args = parser.parse_args()
    rows = []
    for n_nodes in (20, 50, 100):
        theirs, ours, data, hidden = problem(n_nodes, args.edge_prob, args.rows, seed=n_nodes)
        engine = GaussianInference(ours)
        gap = check(theirs, ours, engine, data, hidden)
        one = data.iloc[: args.queries]
        singles = [one.iloc[[i]] for i in range(len(one))]
        dicts = [row.to_dict() for _, row in one.iterrows()]
        engine.query(hidden, dicts[0])  # the evidence set's factorisation, kept

        def ours_one(dicts=dicts, engine=engine, hidden=hidden):
            t0 = time.perf_counter()
            for d in dicts:
                engine.query(hidden, d)
            return {"one at a time": time.perf_counter() - t0}

        def theirs_one(singles=singles, theirs=theirs):
            t0 = time.perf_counter()
            for frame in singles:
                theirs.predict_probability(frame)
            return {"one at a time": time.perf_counter() - t0}

        def ours_batch(engine=engine, hidden=hidden, data=data):
            t0 = time.perf_counter()
            engine.query_batch(hidden, data)
            return {"batched": time.perf_counter() - t0}

        def theirs_batch(theirs=theirs, data=data):
            t0 = time.perf_counter()
            theirs.predict_probability(data)
            return {"batched": time.perf_counter() - t0}

        for label, mine, peer, per in (
            ("one at a time", ours_one, theirs_one, args.queries),
            ("batched", ours_batch, theirs_batch, 1),
        ):
            timing = time_phases({"bayeskit": mine, "pgmpy": peer}, args.repeats)
            a, b = timing["bayeskit"][label].median, timing["pgmpy"][label].median
            what = f"{args.queries} queries" if per > 1 else f"{args.rows:,} rows, one call"
            times = [f"{a * 1e3:,.1f}", f"{b * 1e3:,.1f}", f"{b / a:,.1f}x"]
            gaps = [f"{gap[0]:.0e}", f"{gap[1]:.0e}"]
            rows.append([str(n_nodes), str(len(theirs.edges())), label, what, *times, *gaps])
            say(" | ".join(rows[-1]))
    header = ["nodes", "edges", "question", "work", "bayeskit (ms)", "pgmpy (ms)", "ratio",
              "bayeskit gap", "pgmpy gap"]  # fmt: skip
    body = "\n".join(
        [
            "`benchmarks/bench_gaussian_inference.py`: random linear-Gaussian networks "
            f"(pgmpy's `get_random`, edge probability {args.edge_prob}), half of the nodes "
            "observed, the posterior of the others; median of "
            f"{args.repeats} interleaved runs. Ratio = pgmpy's time / bayeskit's; gap = the "
            "largest difference of each one's posterior means from the moment form's "
            "(structural-equation covariance, conditioned by a dense solve), relative to "
            "their scale.",
            "",
            *machine_lines(("numpy", "scipy", "pgmpy")),
            "",
            markdown_table(header, rows),
        ]
    )
    publish("Linear-Gaussian inference against pgmpy", body, args.write == "yes")


if __name__ == "__main__":
    main()
