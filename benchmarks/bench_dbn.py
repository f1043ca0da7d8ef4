"""Dynamic Bayesian networks: bayeskit against pyAgrum on the unrolled umbrella world.

Russell and Norvig's umbrella world (rain hidden, umbrella seen) over T days, the umbrellas
drawn from the model. Two questions:

* smoothing: every day's P(rain | all the umbrellas);
* filtering: every day's P(rain | the umbrellas up to that day).

bayeskit: ``DynamicBayesianNetwork.smooth`` and ``filter`` (compiled forward-backward and
forward passes over a day's joint state, the network as a hidden Markov model). pyAgrum 3 (whose
``pyagrum.lib.dynamicBN`` needs IPython, so the network is unrolled here by hand, node for node
as bayeskit unrolls it): ``LazyPropagation`` on the unrolled network, with all the evidence for
smoothing and, for filtering, one inference per day with the evidence up to that day (its API
has no forward pass). The answers are checked equal to 1e-9. Median of ``--repeats`` runs.

    benchmarks/.venv-peers/bin/python benchmarks/bench_dbn.py [--repeats 5] [--write no]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from _common import machine_lines, markdown_table, publish, say

from bayeskit.sequences import example_dbn


def pyagrum_unrolled(dbn, steps: int):
    import pyagrum as gum

    bn = gum.BayesNet("umbrella")
    net = dbn.network
    for k in range(steps):
        for v in dbn.nodes:
            bn.add(gum.LabelizedVariable(f"{v}@{k}", v, list(dbn.states(v))))
    for k in range(steps):
        for v in dbn.nodes:
            source = f"{v}0" if k == 0 else f"{v}t"
            for parent in net.dag.parents(source):
                base, at = str(parent)[:-1], k if (k == 0 or str(parent).endswith("t")) else k - 1
                bn.addArc(f"{base}@{at}", f"{v}@{k}")
            bn.cpt(f"{v}@{k}").fillWith(np.asarray(net.cpt(source)).ravel().tolist())
    return bn


def run_pyagrum(bn, umbrellas: list[str], smooth: bool) -> np.ndarray:
    import pyagrum as gum

    steps = len(umbrellas)
    if smooth:
        ie = gum.LazyPropagation(bn)
        ie.setEvidence({f"umbrella@{k}": u for k, u in enumerate(umbrellas)})
        ie.makeInference()
        return np.array([ie.posterior(f"rain@{k}").toarray() for k in range(steps)])
    rows = []
    for k in range(steps):
        ie = gum.LazyPropagation(bn)
        ie.setEvidence({f"umbrella@{j}": umbrellas[j] for j in range(k + 1)})
        ie.makeInference()
        rows.append(ie.posterior(f"rain@{k}").toarray())
    return np.array(rows)


def median_seconds(fn, repeats: int) -> tuple[float, object]:
    result = fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", choices=["yes", "no"], default="yes")
    args = parser.parse_args()
    dbn = example_dbn("umbrella")
    rows = []
    for steps in (100, 300):
        drawn = dbn.unroll(steps).sample(1, seed=steps)
        umbrellas = [str(drawn[f"umbrella@{k}"].iloc[0]) for k in range(steps)]
        days = pd.DataFrame({"umbrella": umbrellas})
        bn = pyagrum_unrolled(dbn, steps)
        for task in ("smooth", "filter"):
            ours_s, ours = median_seconds(
                lambda t=task, d=days: getattr(dbn, t)(d)["rain"], args.repeats
            )
            theirs_s, theirs = median_seconds(
                lambda t=task, b=bn, u=umbrellas: run_pyagrum(b, u, t == "smooth"), args.repeats
            )
            gap = float(np.abs(np.asarray(ours) - np.asarray(theirs)).max())
            assert gap < 1e-9, f"{task} {steps}: answers differ by {gap}"
            rows.append([f"{steps}", task, f"{ours_s * 1e3:,.1f}", f"{theirs_s * 1e3:,.1f}",
                         f"{theirs_s / ours_s:.1f}x", f"{gap:.0e}"])  # fmt: skip
            say(" | ".join(rows[-1]))
    header = ["days", "question", "bayeskit (ms)", "pyAgrum (ms)", "ratio", "largest gap"]
    body = "\n".join(
        [
            "`benchmarks/bench_dbn.py`: the umbrella world unrolled over T days; smoothing "
            "(every day given all the umbrellas) and filtering (every day given the umbrellas "
            f"so far); median of {args.repeats} runs. Ratio = pyAgrum's time / bayeskit's.",
            "",
            *machine_lines(("numpy", "pyagrum")),
            "",
            markdown_table(header, rows),
        ]
    )
    publish("Dynamic Bayesian networks against pyAgrum", body, args.write == "yes")


if __name__ == "__main__":
    main()
