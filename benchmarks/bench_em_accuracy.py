"""How close EM gets to the true CPTs and to pyAgrum's EM, values missing at random (issue 15).

For asia and alarm (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``), ``--rows`` rows are
sampled by bayeskit (seed 0) and every value removed with probability 0.1, 0.3 and 0.5 (numpy
seed 1). Both learners run EM on the true structure with a pseudo-count of 1 per cell (bayeskit
``fit_em(estimator="lidstone", alpha=1)``; pyAgrum ``BNLearner.useEM(tol)``,
``useSmoothingPrior(1)``), each from its own default start, stopping on a relative change of
the log-likelihood below ``--tol``. Reported per case:

- KL: the Kullback-Leibler divergence of the fitted joint from the true one, ``sum over nodes
  and parent configurations of P_true(parents) KL(P_true(node | parents) || P_fit(node |
  parents))`` (nats), for bayeskit and pyAgrum;
- the largest difference between the two learners' CPT entries, and between their
  observed-data log-likelihoods on the data (both computed by bayeskit's
  ``expected_counts``);
- iterations and seconds of each.

``--fixture FILE`` also writes pyAgrum's CPTs of every case as JSON (the test fixture of
tests/networks/data/). Run with the peers' environment::

    benchmarks/.venv-peers/bin/python benchmarks/bench_em_accuracy.py --networks FOLDER
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import machine_lines, markdown_table, networks_folder, say, write_section

from bayeskit.networks import BayesianNetwork, expected_counts, fit_em, read_bif

TITLE = "EM: distance to the true CPTs and to pyAgrum (issue 15)"
TITLE_ROWS = "EM: distance to the true CPTs as rows grow (issue 15)"
SHARES = (0.1, 0.3, 0.5)


def holed(net: BayesianNetwork, rows: int, share: float) -> pd.DataFrame:
    data = net.sample(rows, seed=0).astype(object)
    return data.mask(np.random.default_rng(1).random(data.shape) < share)


def pyagrum_fit(net: BayesianNetwork, data: pd.DataFrame, tol: float, folder: Path):
    """pyAgrum's EM on ``data`` (its CSV written with '?' for missing): the fitted network as a
    bayeskit one, iterations and seconds (the CSV's reading included, as pyAgrum reads it)."""
    import pyagrum as gum

    from bayeskit.networks import write_bif

    bif, csv = folder / "template.bif", folder / "data.csv"
    write_bif(net, bif)
    data[list(net.nodes)].fillna("?").to_csv(csv, index=False)
    template = gum.loadBN(str(bif))
    t = time.perf_counter()
    learner = gum.BNLearner(str(csv), template, ["?"])
    learner.useEM(tol)
    learner.EMsetMaxIter(1_000_000)
    learner.useSmoothingPrior(1.0)
    fitted = learner.learnParameters(template.dag())
    seconds = time.perf_counter() - t
    cpts = {}
    for node in net.nodes:
        parents = list(net.dag.parents(node))
        shape = [net.cardinality(p) for p in parents] + [net.cardinality(node)]
        table = np.zeros(shape)
        inst = gum.Instantiation(fitted.cpt(node))
        names = {fitted.variable(i).name(): i for i in fitted.nodes()}
        order = [node, *parents]
        inst.setFirst()
        while not inst.end():
            idx = tuple(inst.val(fitted.variable(names[v])) for v in order)
            table[(*idx[1:], idx[0])] = fitted.cpt(node).get(inst)
            inst.inc()
        # pyAgrum orders a variable's labels as the template does, which is net's order
        cpts[node] = table
    states = {n: net.states(n) for n in net.nodes}
    return BayesianNetwork(net.dag, cpts, states=states), learner.EMnbrIterations(), seconds


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=Path)
    ap.add_argument("--names", nargs="*", default=["asia", "alarm"])
    ap.add_argument("--rows", type=int, nargs="*", default=[1_000, 10_000])
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--no-pyagrum", action="store_true")
    ap.add_argument("--fixture", type=Path, help="write pyAgrum's CPTs of every case here")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "asia.bif.gz")
    header = ["network", "rows", "missing", "KL bayeskit", "KL pyAgrum", "max |CPT diff|",
              "log-lik. bayeskit", "log-lik. pyAgrum", "iterations (ours / pyAgrum)",
              "seconds (ours / pyAgrum)"]  # fmt: skip
    table, fixture = [], {}
    for name in args.names:
        net = read_bif(folder / f"{name}.bif.gz")
        states = {n: net.states(n) for n in net.nodes}
        for rows in args.rows:
            for share in SHARES:
                data = holed(net, rows, share)
                t = time.perf_counter()
                ours = fit_em(net.dag, data, states=states, estimator="lidstone", alpha=1.0,
                              tol=args.tol, max_iter=100_000, seed=0)  # fmt: skip
                our_s = time.perf_counter() - t
                our_ll = expected_counts(ours.network, data)[1]
                cells = [
                    name,
                    f"{rows:,}",
                    f"{share:.0%}",
                    f"{net.kl_divergence(ours.network):.5f}",
                ]
                if args.no_pyagrum:
                    cells += ["", "", f"{our_ll:,.3f}", "", f"{ours.n_iter} / ", f"{our_s:.2f} / "]
                else:
                    with tempfile.TemporaryDirectory() as tmp:
                        peer, iters, peer_s = pyagrum_fit(net, data, args.tol, Path(tmp))
                    peer_ll = expected_counts(peer, data)[1]
                    diff = max(
                        float(np.abs(np.asarray(ours.network.cpt(n)) - peer.cpt(n)).max())
                        for n in net.nodes
                    )
                    cells += [f"{net.kl_divergence(peer):.5f}", f"{diff:.1e}", f"{our_ll:,.3f}",
                              f"{peer_ll:,.3f}", f"{ours.n_iter} / {iters}",
                              f"{our_s:.2f} / {peer_s:.2f}"]  # fmt: skip
                    fixture.setdefault(name, {}).setdefault(str(rows), {})[str(share)] = {
                        "log_likelihood": peer_ll,
                        "cpts": {n: np.asarray(peer.cpt(n)).ravel().tolist() for n in net.nodes},
                    }
                table.append(cells)
                say(" | ".join(cells))
    if args.fixture is not None and fixture:
        fixture["source"] = (
            "benchmarks/bench_em_accuracy.py: pyAgrum BNLearner with useEM(tol), "
            f"useSmoothingPrior(1.0), tol={args.tol}; rows net.sample(rows, seed=0), each value "
            "removed with probability share (numpy seed 1); CPTs flattened with axes (parents in "
            "bayeskit's DAG order, node)"
        )
        args.fixture.write_text(json.dumps(fixture))
    body = "\n".join([
        *machine_lines(("numpy", "pyagrum")),
        "",
        f"Both stop on a relative change of the log-likelihood below {args.tol:g}; pseudo-count "
        "1 per cell; KL of the fitted joint from the true one (nats).",
        "",
        markdown_table(header, table),
    ])  # fmt: skip
    title = TITLE_ROWS if args.no_pyagrum else TITLE
    if args.no_pyagrum:  # bayeskit alone: the columns of pyAgrum are left out
        keep = [0, 1, 2, 3, 6, 8, 9]
        table = [[c for k, c in enumerate(row) if k in keep] for row in table]
        header = [h.replace(" (ours / pyAgrum)", "") for k, h in enumerate(header) if k in keep]
        body = body.split("| network")[0] + markdown_table(header, [
            [c.rstrip(" /") for c in row] for row in table
        ])  # fmt: skip
    if args.write in ("yes", "auto"):
        write_section(title, body)
        say(f"wrote RESULTS.md section: {title}")
    else:
        print(body)


if __name__ == "__main__":
    main()
