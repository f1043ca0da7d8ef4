"""What class labels cost: integer, text, categorical and string labels against one more feature.

A classifier's labels should cost no more than one feature column of the same kind. 2,000,000
rows x 13 categorical features (5 states, pandas categoricals), 3 classes; TAN and naive Bayes
fitted with the labels as integers, as Python text (object), as a numpy text array, as a pandas
categorical and as a pandas string column; and, for scale, the integer-label fit with one more
feature column holding the labels as text. Median of N interleaved runs, numba warmed up first.

    PYTHONPATH=src python benchmarks/bench_labels.py [--rows N] [--repeats R] [--write yes|no]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from _common import load_average, machine_lines, markdown_table, publish, say, time_phases

from bayeskit import TAN, NaiveBayes

WORDS = np.array(["setosa", "versicolor", "virginica"])


def make_data(n: int, d: int = 13, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    states = [f"v{i}" for i in range(5)]
    y = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {
            f"f{j}": pd.Categorical.from_codes((rng.integers(0, 5, n) + y * (j % 2)) % 5, states)
            for j in range(d)
        }
    )
    return X, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = parser.parse_args()
    X, y = make_data(args.rows)
    text = WORDS[y]
    labels = {
        "integers (int64)": y,
        "text (object)": text.astype(object),
        "text (numpy <U10)": text,
        "pandas categorical": pd.Series(pd.Categorical(text)),
        "pandas string": pd.Series(text, dtype="string"),
    }
    X_extra = X.assign(extra=text.astype(object))  # one more feature: the labels as text
    before = load_average()
    rows = []
    for model in (TAN, NaiveBayes):
        model().fit(X, y)  # compiles the kernels that large inputs use (untimed)
        model().fit(X_extra, y)

        def run(data, target, model=model):
            def once() -> dict[str, float]:
                t0 = time.perf_counter()
                model().fit(data, target)
                return {"fit": time.perf_counter() - t0}

            return once

        contenders = {name: run(X, target) for name, target in labels.items()}
        contenders["integers, one more text feature"] = run(X_extra, y)
        timings = time_phases(contenders, args.repeats)
        base = timings["integers (int64)"]["fit"].median
        extra = timings["integers, one more text feature"]["fit"].median - base
        for name, t in timings.items():
            over = t["fit"].median - base
            rows.append(
                [
                    model.__name__,
                    name,
                    f"{t['fit'].median:.3f}",
                    t["fit"].spread,
                    f"{over:+.3f}",
                    "-" if "feature" in name or name.startswith("integers") else
                    f"{over / extra:.2f}" if extra > 0 else "n/a",
                ]
            )  # fmt: skip
    after = load_average()
    body = "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_labels.py --rows {args.rows} --repeats "
            f"{args.repeats}`: {args.rows:,} rows x 13 categorical features (5 states), 3 "
            f"classes; median of {args.repeats} interleaved fits, numba warmed up first.",
            "",
            *machine_lines(("numpy", "pandas", "sklearn", "numba")),
            f"- load average before / after: {before} / {after}",
            "",
            markdown_table(
                [
                    "model",
                    "labels",
                    "fit s",
                    "range s",
                    "over integer labels s",
                    "cost / one text feature's",
                ],  # fmt: skip
                rows,
            ),
            "",
            "Target: labels of any kind cost no more than one feature column (last column <= 1).",
        ]
    )
    say(body)
    publish("Class labels of every kind", body, args.write == "yes" or (
        args.write == "auto" and args.rows == 2_000_000))  # fmt: skip


if __name__ == "__main__":
    main()
