"""Full Bayes against scikit-learn's QuadraticDiscriminantAnalysis on numeric data.

Target (FullBayes issue): on 200,000 rows x 50 numeric features, 5 classes, ``FullBayes()`` fit +
predict_proba at least as fast as ``QuadraticDiscriminantAnalysis()``, with the same accuracy.
The two are the same model: one multivariate normal per class with the ML covariance (ddof=0:
the QDA of scikit-learn 1.9 divides by n, older releases by n - 1; the parity test in
tests/classifiers/test_full_bayes.py detects which), class priors from frequencies.

Data: each class a Gaussian with its own random mean and random well-conditioned covariance,
drawn with a fixed seed; both models are fitted on the same float64 C-ordered array and predict
probabilities on a second draw of the same size. Runs of the two are interleaved; a warm-up fit on
small data comes first. Prints one markdown table row with the median of ``--repeats`` runs of
each, their ratio and both accuracies.

    cd /work/main && PYTHONPATH=src python benchmarks/bench_full_bayes.py [--rows N] [--cols D]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

from bayeskit import FullBayes


def make_data(n_rows: int, n_cols: int, n_classes: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    means = rng.normal(0.0, 0.6, (n_classes, n_cols))
    factors = []
    for _ in range(n_classes):
        a = rng.normal(0.0, 1.0, (n_cols, n_cols)) / np.sqrt(n_cols)
        factors.append(np.linalg.cholesky(a @ a.T + 0.5 * np.eye(n_cols)))

    def draw(n: int, r: np.random.Generator):
        y = r.integers(0, n_classes, n)
        x = r.standard_normal((n, n_cols))
        for c in range(n_classes):
            rows = y == c
            x[rows] = x[rows] @ factors[c].T + means[c]
        return np.ascontiguousarray(x), y

    x_train, y_train = draw(n_rows, rng)
    x_test, y_test = draw(n_rows, rng)
    return x_train, y_train, x_test, y_test


def run(model, x_train, y_train, x_test) -> np.ndarray:
    return model.fit(x_train, y_train).predict_proba(x_test)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--cols", type=int, default=50)
    parser.add_argument("--classes", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    x_train, y_train, x_test, y_test = make_data(args.rows, args.cols, args.classes)
    contenders = {
        "FullBayes": lambda: FullBayes(),
        "QDA": lambda: QuadraticDiscriminantAnalysis(),
    }
    for make in contenders.values():  # warm-up: imports, numba cache, BLAS threads
        run(make(), x_train[:2000], y_train[:2000], x_test[:2000])
    times: dict[str, list[float]] = {name: [] for name in contenders}
    proba: dict[str, np.ndarray] = {}
    for _ in range(args.repeats):
        for name, make in contenders.items():
            t0 = time.perf_counter()
            proba[name] = run(make(), x_train, y_train, x_test)
            times[name].append(time.perf_counter() - t0)
    med = {name: statistics.median(t) for name, t in times.items()}
    acc = {name: float(np.mean(p.argmax(axis=1) == y_test)) for name, p in proba.items()}
    gap = float(np.abs(proba["FullBayes"] - proba["QDA"]).max())
    print(f"<!-- {os.cpu_count()} CPUs; max |P_FullBayes - P_QDA| = {gap:.2e} -->")
    print(
        "| data | FullBayes fit+predict_proba (s) | QDA fit+predict_proba (s) | "
        "QDA / FullBayes | accuracy FullBayes | accuracy QDA |"
    )
    print("|---|---|---|---|---|---|")
    print(
        f"| {args.rows:,} x {args.cols} numeric, {args.classes} classes | "
        f"{med['FullBayes']:.3f} | {med['QDA']:.3f} | {med['QDA'] / med['FullBayes']:.2f}x | "
        f"{acc['FullBayes']:.4f} | {acc['QDA']:.4f} |"
    )


if __name__ == "__main__":
    main()
