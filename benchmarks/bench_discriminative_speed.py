"""The cost of discriminative parameters: fit and predict of TAN and KDB on 100,000 rows x 50
categorical features, generative against discriminative (the penalty given, and chosen by
held-out rows), in the same run.

The rows are drawn from a model with chained features (each feature, with probability 0.06, a
function of the class and of the feature before it, else uniform noise; 4 states each, 2
classes, seed 0): a weak signal spread over many features (KDB's log-loss about 0.56), so the
structures have dependencies to find and the weights have work to do. Times are the median
of ``--repeats`` runs; predict is ``predict_proba`` on 100,000 new rows. Run::

    .venv/bin/python benchmarks/bench_discriminative_speed.py --write yes
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _common import load_average, machine_lines, markdown_table, publish, say, time_runs

from bayeskit.classifiers import KDB, TAN

TITLE = "Discriminative parameters: fit and predict on 100,000 x 50"


def sample(n: int, d: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    cols = {}
    last = rng.integers(0, 4, n)
    for j in range(d):
        shift = (y + last) % 4 if j % 2 else y * 2
        noise = rng.integers(0, 4, n)
        keep = rng.random(n) < 0.06
        last = np.where(keep, shift, noise)
        cols[f"x{j}"] = last
    return pd.DataFrame(cols).astype(str), y


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--features", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    load_before = load_average()
    X, y = sample(args.rows, args.features, 0)
    X_new, y_new = sample(args.rows, args.features, 1)
    rows = []
    for label, make in [("TAN", TAN), ("KDB k=2", lambda **k: KDB(k=2, **k))]:
        base = None
        disc = {"parameters": "discriminative"}
        variants = [("generative", {}), ("discriminative, l2=1", {**disc, "l2": 1.0}),
                    ("discriminative, l2 chosen", disc)]  # fmt: skip
        for variant, options in variants:
            fit = time_runs(lambda m=make, o=options: m(**o).fit(X, y), args.repeats)
            model = make(**options).fit(X, y)
            pred = time_runs(lambda m=model: m.predict_proba(X_new), args.repeats)
            p = model.predict_proba(X_new)
            loss = float(-np.log(p[np.arange(len(y_new)), y_new]).mean())
            base = fit.median if base is None else base
            rows.append([label, variant, f"{fit.median:.2f}", f"{fit.median / base:.1f}x",
                         f"{pred.median:.2f}", f"{loss:.4f}",
                         str(getattr(model, "l2_", "-"))])  # fmt: skip
            say(" | ".join(rows[-1]))
    body = "\n".join([
        *machine_lines(("numpy", "scipy", "numba")),
        f"- load average before / after: {load_before} / {load_average()}",
        "",
        f"`bench_discriminative_speed.py`: {args.rows:,} rows x {args.features} categorical "
        f"features (4 states, 2 classes), median of {args.repeats} runs; log-loss on "
        f"{args.rows:,} new rows. Target: a discriminative fit within 10x the generative fit, "
        "predict unchanged.",
        "",
        markdown_table(["model", "parameters", "fit (s)", "fit vs generative",
                        "predict_proba (s)", "log-loss", "l2"], rows),
    ])  # fmt: skip
    publish(TITLE, body, args.write == "yes")


if __name__ == "__main__":
    main()
