"""Semi-supervised naive Bayes (issue 15): EM over unlabelled rows against naive Bayes trained
on the labelled rows alone, on the benchmark suite's larger data sets.

Protocol, per data set and seed: a stratified 70/30 split; of the training rows, ``--keep``
(1% by default) keep their label, drawn at random with at least one row of each class; the
others are given ``y = -1`` (``unlabelled=-1``). Both models get the same rows, the same
schema rules and the defaults otherwise; numeric columns are binned by MDL on the labelled
rows. Reported: test accuracy and log-loss, mean over seeds, for naive Bayes on the labelled
rows, semi-supervised EM with ``unlabelled_weight`` 1 and 0.1, and naive Bayes given every
training label (the ceiling).

    python benchmarks/bench_semi_supervised.py --data /path/to/suite [--seeds 5] [--write]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _common import machine_lines, say, suite_folder, write_section
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import train_test_split

from bayeskit.classifiers import NaiveBayes

TITLE = "Semi-supervised naive Bayes with 1% of the labels (issue 15)"
SETS = [
    "mushroom", "kr_vs_kp", "nursery", "connect_4", "adult", "spambase", "magic",
    "krkopt", "waveform_40", "hypothyroid", "fars", "car", "tic_tac_toe",
]  # fmt: skip


def load(root: Path, entry: dict) -> tuple[pd.DataFrame, np.ndarray]:
    df = pd.read_csv(root / entry["file"])
    y = df.pop("target").to_numpy()
    X = pd.DataFrame(index=df.index)
    for f in entry["features"]:
        col = df[f["name"]]
        if f["type"] in ("categorical", "binary"):
            X[f["name"]] = pd.Categorical(col, categories=np.unique(col.to_numpy()))
        else:
            X[f["name"]] = col.astype(np.float64)
    _, y = np.unique(y, return_inverse=True)
    return X, y.astype(np.int64)


def labelled_rows(y: np.ndarray, keep: float, rng: np.random.Generator) -> np.ndarray:
    """A mask keeping ``keep`` of the rows at random, with at least one row of each class."""
    mask = rng.random(len(y)) < keep
    for c in np.unique(y):
        rows = np.flatnonzero(y == c)
        if not mask[rows].any():
            mask[rng.choice(rows)] = True
    return mask


def scores(model, X, y, n_classes) -> tuple[float, float]:
    proba = np.zeros((len(y), n_classes))
    proba[:, model.classes_] = model.predict_proba(X)
    proba = np.clip(proba, 1e-15, 1.0)
    return accuracy_score(y, np.argmax(proba, axis=1)), log_loss(y, proba, labels=range(n_classes))


def run_set(root: Path, entry: dict, seeds: int, keep: float, cap: int) -> dict:
    X, y = load(root, entry)
    if len(y) > cap:
        rows = np.random.default_rng(0).choice(len(y), cap, replace=False)
        X, y = X.iloc[rows].reset_index(drop=True), y[rows]
    n_classes = int(y.max()) + 1
    out: dict[str, list] = {}
    for seed in range(seeds):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.3, stratify=y, random_state=seed
            )
            rng = np.random.default_rng(seed)
            mask = labelled_rows(y_tr, keep, rng)
            y_semi = np.where(mask, y_tr, -1)
            runs = {
                "labelled only": (NaiveBayes(), X_tr[mask], y_tr[mask]),
                "EM, weight 1": (NaiveBayes(unlabelled=-1), X_tr, y_semi),
                "EM, weight 0.1": (NaiveBayes(unlabelled=-1, unlabelled_weight=0.1), X_tr, y_semi),
                "every label": (NaiveBayes(), X_tr, y_tr),
            }
            for name, (model, X_fit, y_fit) in runs.items():
                t = time.perf_counter()
                model.fit(X_fit, y_fit)
                seconds = time.perf_counter() - t
                acc, ll = scores(model, X_te, y_te, n_classes)
                out.setdefault(name, []).append((acc, ll, seconds, getattr(model, "n_iter_", 0)))
        out.setdefault("labels", []).append(int(mask.sum()))
    return {"rows": len(y), **out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--keep", type=float, default=0.01)
    ap.add_argument("--cap", type=int, default=50_000, help="rows kept of a larger set")
    ap.add_argument("--datasets", nargs="*", default=SETS)
    ap.add_argument("--write", action="store_true", help="write the table into RESULTS.md")
    args = ap.parse_args()
    root = suite_folder(args.data)
    entries = {e["name"]: e for e in json.loads((root / "manifest.json").read_text())["datasets"]}
    names = ["labelled only", "EM, weight 1", "EM, weight 0.1", "every label"]
    lines = [
        f"| data set | rows | labels kept (mean) | {' | '.join(names)} | EM iterations (w=1) |",
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]
    gains = []
    for name in args.datasets:
        res = run_set(root, entries[name], args.seeds, args.keep, args.cap)
        cells = []
        for n in names:
            acc = np.mean([r[0] for r in res[n]])
            ll = np.mean([r[1] for r in res[n]])
            cells.append(f"{acc:.3f} / {ll:.3f}")
        base = np.mean([r[0] for r in res["labelled only"]])
        em = np.mean([r[0] for r in res["EM, weight 1"]])
        em01 = np.mean([r[0] for r in res["EM, weight 0.1"]])
        gains.append((em - base, em01 - base))
        iters = np.mean([r[3] for r in res["EM, weight 1"]])
        line = (
            f"| {name} | {res['rows']:,} | {np.mean(res['labels']):.0f} | {' | '.join(cells)} "
            f"| {iters:.0f} |"
        )
        lines.append(line)
        say(line)
    g = np.array(gains)
    summary = (
        f"Mean accuracy gain over the labelled-only model: {g[:, 0].mean():+.3f} with weight 1 "
        f"(better on {(g[:, 0] > 0).sum()} of {len(g)} sets), {g[:, 1].mean():+.3f} with weight "
        f"0.1 (better on {(g[:, 1] > 0).sum()} of {len(g)})."
    )
    say(summary)
    if args.write:
        body = "\n".join(
            [
                *machine_lines(("numpy", "scipy", "pandas", "sklearn")),
                "",
                f"Cells: test accuracy / log-loss, mean of {args.seeds} seeds (70/30 split; "
                f"{args.keep:.0%} of the training labels kept, at least one per class; sets over "
                f"{args.cap:,} rows subsampled).",
                "",
                *lines,
                "",
                summary,
            ]
        )
        write_section(TITLE, body)


if __name__ == "__main__":
    main()
