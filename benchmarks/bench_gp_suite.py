"""Gaussian-process classification on the suite's multiclass data sets: the softmax Laplace
approximation (bayeskit) against scikit-learn's one-vs-rest binary Laplace models.

Both fit ``C(1.0) * RBF(sqrt(p))`` by L-BFGS-B from the same start, on the same inputs: numeric
columns standardised and categorical ones one-hot coded (fitted on the training folds), ``p``
the number of coded columns (so the start's length scale is the typical distance between two
rows; a length scale of 1 in 40 standardised dimensions makes the kernel matrix the identity,
from which both searches end at a constant function). Sets of at most ``--restart-max-rows``
rows get ``--restarts`` random restarts of the search (seed 0) for both models, since a single
search can end on the plateau of huge length scales. The folds are drawn as
``bench_defaults.py`` draws the suite's (stratified 10-fold, shuffled, seed 0). Exact Gaussian-
process fits cost n^3, so a set of more than ``--max-rows`` rows is first cut to a stratified
sample of that many rows (seed 0), on which its own 10 folds are drawn; the sets of thousands
of rows and many classes (nursery, krkopt, connect_4, fars) are left out by default for the
same reason. Scoring as in ``bench_defaults.py``: accuracy, and log-loss with probabilities
clipped at 1e-15.

    PYTHONPATH=src python benchmarks/bench_gp_suite.py --data SUITE   # or $BAYESKIT_SUITE
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from _common import load_average, machine_lines, markdown_table, publish, say, suite_folder
from bench_defaults import cross_validate, load, scores, stratified_folds
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import OneHotEncoder, StandardScaler

TITLE = "Gaussian-process classification on the suite's multiclass sets"
DEFAULT_SETS = ["iris", "wine_recognition", "lymphography", "car", "waveform_40"]


def fitter(make, cat: list[str], num: list[str]):
    """Fit ``make(p)`` on standardised numeric and one-hot categorical columns (``p`` of
    them)."""

    def run(Xtr, ytr, Xte, classes):
        coder = ColumnTransformer(
            [("num", StandardScaler(), num),
             ("cat", OneHotEncoder(handle_unknown="ignore", sparse_output=False), cat)]
        )  # fmt: skip
        Ztr = coder.fit_transform(Xtr)
        model = make(Ztr.shape[1]).fit(Ztr, ytr)
        out = np.zeros((len(Xte), len(classes)))
        out[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(coder.transform(Xte))
        return out

    return run


def main(argv: list[str] | None = None) -> None:
    from sklearn.gaussian_process import GaussianProcessClassifier as Scikit
    from sklearn.gaussian_process.kernels import RBF
    from sklearn.gaussian_process.kernels import ConstantKernel as C

    from bayeskit.classifiers import GaussianProcessClassifier as Ours

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="the suite's folder")
    ap.add_argument("--datasets", nargs="*", default=DEFAULT_SETS)
    ap.add_argument("--max-rows", type=int, default=800)
    ap.add_argument("--restarts", type=int, default=4)
    ap.add_argument("--restart-max-rows", type=int, default=300)
    ap.add_argument("--write", choices=("yes", "no"), default="yes")
    args = ap.parse_args(argv)
    root = suite_folder(args.data)
    manifest = {e["name"]: e for e in json.loads((root / "manifest.json").read_text())["datasets"]}
    load_before = load_average()
    rows, wins = [], 0
    for name in args.datasets:
        X, y, cat, num = load(root, manifest[name])
        full = len(y)
        if full > args.max_rows:
            X, _, y, _ = train_test_split(X, y, train_size=args.max_rows, stratify=y,
                                          random_state=0)  # fmt: skip
            X, y = X.reset_index(drop=True), np.asarray(y)
        classes = np.unique(y)
        fold = stratified_folds(y, 0)
        y_idx = np.searchsorted(classes, y)
        restarts = args.restarts if len(y) <= args.restart_max_rows else 0
        cells = [name, f"{len(y):,} of {full:,}", str(len(classes)), f"{len(num)} / {len(cat)}",
                 str(restarts)]  # fmt: skip
        losses = []
        for cls in (Ours, Scikit):

            def make(p, cls=cls, restarts=restarts):
                kernel = C(1.0) * RBF(float(np.sqrt(p)))
                return cls(kernel, n_restarts_optimizer=restarts, random_state=0)

            start = time.perf_counter()
            proba = cross_validate(fitter(make, cat, num), X, y, fold, classes)
            seconds = time.perf_counter() - start
            accuracy, loss = scores(proba, y_idx)
            losses.append(loss)
            cells += [f"{loss:.4f}", f"{accuracy:.3f}", f"{seconds:.0f}"]
        wins += losses[0] <= losses[1]
        rows.append(cells)
        say(" | ".join(cells))
    header = ["data set", "rows", "classes", "numeric / categorical columns", "restarts",
              "bayeskit log-loss", "accuracy", "seconds",
              "scikit-learn one-vs-rest log-loss", "accuracy", "seconds"]  # fmt: skip
    body = "\n".join([
        *machine_lines(("numpy", "scipy", "sklearn")),
        f"- load average before / after: {load_before} / {load_average()}",
        "",
        f"`bench_gp_suite.py --max-rows {args.max_rows}`: 10-fold cross-validated (stratified, "
        "seed 0) on each set, or on a stratified sample of that many rows; seconds are the "
        "10 fits and predictions; restarts: each search's random restarts (seed 0). The "
        "softmax Laplace approximation's log-loss is at most "
        f"one-vs-rest's on {wins} of {len(rows)} sets.",
        "",
        markdown_table(header, rows),
    ])  # fmt: skip
    publish(TITLE, body, args.write == "yes")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
