"""CLGClassifier's prediction speed: ``predict_proba`` on rows of numeric and categorical
features (a chain of four numeric features, a categorical one and a numeric one that depends
on it, three classes), TAN fitted on 3,000 rows; the median of ``--repeats`` calls on
``--rows`` rows. ``--src`` runs another checkout's ``src`` (a before/after pair, alternated by
the caller).

    python benchmarks/bench_clg_classifier.py --rows 200000
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import pandas as pd


def chain_data(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(3, size=n)
    x0 = y + rng.normal(size=n)
    x1 = 0.9 * x0 + 0.4 * rng.normal(size=n)
    x2 = -0.8 * x1 + 0.5 * rng.normal(size=n) + 0.3 * y
    x3 = 0.7 * x2 + 0.5 * rng.normal(size=n)
    g = np.where(rng.random(n) < 0.2 + 0.25 * y, "on", "off")
    z = np.where(g == "on", 1.5, -1.5) + 0.5 * y + rng.normal(size=n) * 0.7
    return pd.DataFrame({"x0": x0, "x1": x1, "x2": x2, "x3": x3, "g": g, "z": z}), y


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--src", default=None)
    args = ap.parse_args(argv)
    if args.src:
        sys.path.insert(0, args.src)
    from bayeskit.classifiers import CLGClassifier

    X, y = chain_data(3000, 0)
    model = CLGClassifier(structure="tan").fit(X, y)
    test, _ = chain_data(args.rows, 1)
    model.predict_proba(test.iloc[:100])
    times = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        proba = model.predict_proba(test)
        times.append(time.perf_counter() - t)
    print(json.dumps({"seconds": float(np.median(times)), "checksum": float(proba[:, 0].sum())}))


if __name__ == "__main__":
    main()
