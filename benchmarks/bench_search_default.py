"""The default score-based search against the true DAG's score, as rows grow.

For each bundled network (``bayeskit.networks.examples``) and each number of rows, rows are
sampled (seeds 0, 1, ...) and three searches climb on BIC: the default hill climb
(``start="auto"``: the best climb from greedy equivalence search's class for BIC, from GES's
class for AIC and from the climb's optimum for AIC), the climb from the Chow-Liu tree alone
(``start="tree"``, the default before) and greedy equivalence search alone (``algorithm=
"ges"``). Each learned DAG's BIC is given as its difference from the true DAG's BIC on the
same rows (positive: the learned DAG scores higher), with its structural Hamming distance to
the true DAG (between CPDAGs) and the seconds of one run. The target: the default at or
above the true DAG's BIC on every network and size from 20,000 to 2,000,000 rows. Run::

    .venv/bin/python benchmarks/bench_search_default.py --write yes
"""

from __future__ import annotations

import argparse

from _common import load_average, machine_lines, markdown_table, publish, say, timed

from bayeskit.networks import learn_structure, score
from bayeskit.networks import structural_hamming_distance as shd
from bayeskit.networks.examples import NAMES, example_network

TITLE = "The default structure search against the true DAG's BIC, 20,000 to 2,000,000 rows"

SEARCHES = {
    "default": {},
    "tree start": {"start": "tree"},
    "GES": {"algorithm": "ges"},
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", nargs="*", default=list(NAMES))
    ap.add_argument("--rows", type=int, nargs="*", default=[20_000, 100_000, 500_000, 2_000_000])
    ap.add_argument("--seeds", type=int, default=1, help="samples per network and size")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    load_before = load_average()
    rows, misses = [], 0
    for name in args.networks:
        net = example_network(name)
        states = {n: net.states(n) for n in net.nodes}
        for m in args.rows:
            for seed in range(args.seeds):
                data = net.sample(m, seed=seed)
                truth = score(net.dag, data, "bic", states=states)
                cells = [name, f"{m:,}", str(seed), f"{truth:,.1f}"]
                for label, options in SEARCHES.items():
                    dag, seconds = timed(
                        lambda o=options, d=data, s=states: learn_structure(d, "bic", states=s, **o)
                    )
                    gap = score(dag, data, "bic", states=states) - truth
                    # equal scores differ by rounding: a gap within 1e-9 of the score is none
                    gap = 0.0 if abs(gap) <= 1e-9 * abs(truth) else gap
                    misses += label == "default" and gap < 0
                    cells.append(f"{gap:+,.1f} / {shd(dag, net.dag)} / {seconds:.1f}")
                rows.append(cells)
                say(" | ".join(cells))
    body = "\n".join([
        *machine_lines(("numpy", "pandas")),
        f"- load average before / after: {load_before} / {load_average()}",
        "",
        f"`bench_search_default.py`: rows sampled from each network (seeds 0 to "
        f"{args.seeds - 1}); each cell is the learned DAG's BIC minus the true DAG's (natural "
        "logs; positive: higher than the true DAG), its SHD to the true DAG (CPDAGs) and the "
        "seconds of one run.",
        "",
        markdown_table(["network", "rows", "seed", "true DAG's BIC",
                        *(f"{label}: BIC gap / SHD / s" for label in SEARCHES)], rows),
        "",
        f"The default below the true DAG's BIC: {misses} of {len(rows)} samples.",
    ])  # fmt: skip
    publish(TITLE, body, args.write == "yes")


if __name__ == "__main__":
    main()
