"""SubclassNaiveBayes (seed 004, "reform the data") against NaiveBayes and a random forest, on the
data sets of the benchmark suite where naive Bayes loses most accuracy to the forest.

Two stages, both stratified 10-fold cross-validation on the folds of ``bench_defaults.py`` (the
same splitter and seed, so the same folds as ``bench_semi_naive_suite.py``), with its scoring:

* accuracy: the class of largest probability (the first in sorted class order on a tie);
* log-loss: the mean of ``-log(max(p_true, 1e-15))``.

1. Screening: bayeskit's ``NaiveBayes`` (defaults) and scikit-learn's ``RandomForestClassifier``
   (defaults, ``random_state=seed``, numeric columns as they are, categorical ones ordinal-coded,
   as in ``bench_semi_naive_suite.py``) on every set of the manifest. A set of more than
   ``--screen-cap`` rows is screened on a seeded stratified sample of that many rows, each row
   keeping its fold (so the folds are the full set's, restricted).
2. On the ``--top`` sets where the forest's accuracy lead over naive Bayes is largest:
   ``SubclassNaiveBayes`` (defaults: K chosen by BIC up to 10 per class, ``--max-components``
   to change that; MDL-binned numeric columns), and ``NaiveBayes`` and the forest again on
   the full set where screening used a sample (``--eval-cap`` caps these rows too; 0, the
   default, means every row).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/bench_subclass.py --data /work/shared/datasets
    PYTHONPATH=src python benchmarks/bench_subclass.py --top 3 --screen-cap 3000

Prints a markdown table (it does not write RESULTS.md); raw scores go to
``benchmarks/out/subclass/results.json`` (ignored by git).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from _common import REPO, load_average, machine_lines, markdown_table, say, suite_folder
from bench_defaults import EPS, N_FOLDS, bayeskit_fitter, cross_validate, prepare, scores
from bench_semi_naive_suite import ordinal
from sklearn.ensemble import RandomForestClassifier

from bayeskit.classifiers import NaiveBayes
from bayeskit.classifiers.subclass import SubclassNaiveBayes

DEFAULT_WORK = REPO / "benchmarks" / "out" / "subclass"
NB, SUB, RF = "NaiveBayes", "SubclassNaiveBayes", "RandomForest"


def forest(seed: int, jobs: int):
    """The forest of ``bench_semi_naive_suite.py`` (``n_jobs`` changes only the speed)."""

    def run(Xtr, ytr, Xte, classes):
        model = RandomForestClassifier(random_state=seed, n_jobs=jobs).fit(ordinal(Xtr), ytr)
        out = np.zeros((len(Xte), len(classes)))
        out[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(ordinal(Xte))
        return out

    return run


def subclass_fitter(record: list, max_components: int = 10):
    """SubclassNaiveBayes (defaults but ``max_components``); appends each fold's components
    per class to ``record``."""

    def run(Xtr, ytr, Xte, classes):
        model = SubclassNaiveBayes(max_components=max_components).fit(Xtr, ytr)
        record.append(model.n_components_.tolist())
        out = np.zeros((len(Xte), len(classes)))
        out[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(Xte)
        return out

    return run


def sample_rows(y: np.ndarray, cap: int, seed: int) -> np.ndarray:
    """A seeded stratified sample of ``cap`` row positions (every row when there are fewer),
    sorted; each class keeps its share (at least one row)."""
    if cap <= 0 or len(y) <= cap:
        return np.arange(len(y))
    rng = np.random.default_rng(seed)
    keep = []
    labels, counts = np.unique(y, return_counts=True)
    for label, count in zip(labels, counts, strict=True):
        rows = np.flatnonzero(y == label)
        take = max(1, round(cap * count / len(y)))
        keep.append(rng.choice(rows, size=min(take, count), replace=False))
    return np.sort(np.concatenate(keep))


def evaluate(label, fitter, X, y, fold, classes, seconds) -> list[float]:
    t0 = time.perf_counter()
    proba = cross_validate(fitter, X, y, fold, classes)
    seconds[label] = seconds.get(label, 0.0) + time.perf_counter() - t0
    return list(scores(proba, np.searchsorted(classes, y)))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, help="the suite's folder (or $BAYESKIT_SUITE)")
    ap.add_argument("--work", type=Path, default=DEFAULT_WORK, help="folds and raw results")
    ap.add_argument("--datasets", nargs="*", help="names to screen (default: the manifest's)")
    ap.add_argument("--seed", type=int, default=0, help="folds, samples, the forest's seed")
    ap.add_argument("--top", type=int, default=8, help="sets to evaluate SubclassNaiveBayes on")
    ap.add_argument("--screen-cap", type=int, default=10_000, help="rows for screening (0: all)")
    ap.add_argument("--eval-cap", type=int, default=0, help="rows for evaluation (0: all)")
    ap.add_argument("--jobs", type=int, default=2, help="the forest's n_jobs")
    ap.add_argument("--max-components", type=int, default=10, help="SubclassNaiveBayes's")
    args = ap.parse_args(argv)

    root = suite_folder(args.data)
    entries = json.loads((root / "manifest.json").read_text())["datasets"]
    if args.datasets:
        entries = [e for e in entries if e["name"] in set(args.datasets)]
    args.work.mkdir(parents=True, exist_ok=True)
    load_before = load_average()
    t_start = time.perf_counter()
    seconds: dict[str, float] = {}

    # -- 1. screening
    screen: dict[str, dict] = {}
    data = {}
    for entry in entries:
        name = entry["name"]
        X, y, classes, _, fold, kind = prepare(root, args.work, entry, args.seed)
        data[name] = (X, y, classes, fold, kind)
        rows = sample_rows(y, args.screen_cap, args.seed)
        Xs, ys, fs = X.iloc[rows], y[rows], fold[rows]
        got = {
            NB: evaluate("screen NB", bayeskit_fitter(NaiveBayes), Xs, ys, fs, classes, seconds),
            RF: evaluate("screen RF", forest(args.seed, args.jobs), Xs, ys, fs, classes, seconds),
        }
        screen[name] = {"rows": int(len(rows)), "of": int(len(y)), "kind": kind, **got}
        gap = got[RF][0] - got[NB][0]
        say(f"screen {name} ({len(rows)}/{len(y)} rows): NB {got[NB][0]:.3f} RF {got[RF][0]:.3f}")
        say(f"  forest's lead {100 * gap:+.1f} points")

    ranked = sorted(screen, key=lambda s: screen[s][RF][0] - screen[s][NB][0], reverse=True)
    chosen = ranked[: args.top]
    say("largest leads of the forest:", ", ".join(chosen))

    # -- 2. evaluation
    results: dict[str, dict] = {}
    for name in chosen:
        X, y, classes, fold, kind = data[name]
        rows = sample_rows(y, args.eval_cap, args.seed)
        X, y, fold = X.iloc[rows], y[rows], fold[rows]
        res = {"rows": int(len(rows)), "kind": kind}
        if len(rows) == screen[name]["rows"]:  # screened on these very rows
            res[NB], res[RF] = screen[name][NB], screen[name][RF]
        else:
            res[NB] = evaluate(NB, bayeskit_fitter(NaiveBayes), X, y, fold, classes, seconds)
            res[RF] = evaluate(RF, forest(args.seed, args.jobs), X, y, fold, classes, seconds)
        record: list = []
        t0 = time.perf_counter()
        fitter = subclass_fitter(record, args.max_components)
        res[SUB] = evaluate(SUB, fitter, X, y, fold, classes, seconds)
        res["sub seconds"] = time.perf_counter() - t0
        k = np.array(record, dtype=float)  # (folds, classes)
        res["K mean"] = float(k.mean())
        res["K per class"] = k.mean(axis=0).round(1).tolist()
        results[name] = res
        say(
            f"{name}: NB {res[NB][0]:.3f}/{res[NB][1]:.3f}  SUB {res[SUB][0]:.3f}/"
            f"{res[SUB][1]:.3f}  RF {res[RF][0]:.3f}/{res[RF][1]:.3f}  K {res['K per class']}"
        )
    (args.work / "results.json").write_text(
        json.dumps({"seed": args.seed, "screen": screen, "results": results}, indent=1)
    )
    elapsed = time.perf_counter() - t_start
    print(report(args, screen, results, seconds, load_before, elapsed))


def report(args, screen, results, seconds, load_before, elapsed) -> str:
    header = [
        "data set",
        "rows",
        "NB acc",
        "SubclassNB acc",
        "RF acc",
        "gap closed",
        "NB log-loss",
        "SubclassNB log-loss",
        "RF log-loss",
        "mean K",
        "SubclassNB s (10 folds)",
    ]
    rows = []
    for name, r in results.items():
        nb, sub, rf = r[NB], r[SUB], r[RF]
        lead = rf[0] - nb[0]
        closed = f"{100 * (sub[0] - nb[0]) / lead:.0f}%" if lead > 0 else ""
        rows.append(
            [
                name,
                str(r["rows"]),
                f"{nb[0]:.3f}",
                f"{sub[0]:.3f}",
                f"{rf[0]:.3f}",
                closed,
                f"{nb[1]:.3f}",
                f"{sub[1]:.3f}",
                f"{rf[1]:.3f}",
                f"{r['K mean']:.1f}",
                f"{r['sub seconds']:.0f}",
            ]
        )
    if results:
        mean = {m: np.mean([r[m] for r in results.values()], axis=0) for m in (NB, SUB, RF)}
        rows.append(
            [
                "mean",
                "",
                f"{mean[NB][0]:.3f}",
                f"{mean[SUB][0]:.3f}",
                f"{mean[RF][0]:.3f}",
                "",
                f"{mean[NB][1]:.3f}",
                f"{mean[SUB][1]:.3f}",
                f"{mean[RF][1]:.3f}",
                "",
                "",
            ]
        )
    capped = [f"{s} ({v['rows']} of {v['of']})" for s, v in screen.items() if v["rows"] < v["of"]]
    cmd = "python benchmarks/bench_subclass.py " + " ".join(sys.argv[1:])
    lines = [
        f"`{cmd.strip()}`, {time.strftime('%Y-%m-%d')}. Stratified {N_FOLDS}-fold CV on the "
        f"folds of bench_defaults.py (seed {args.seed}), the same for every contender; accuracy "
        f"(arg-max) and log-loss (mean of -log(max(p_true, {EPS:g}))). Defaults everywhere: "
        f"NaiveBayes and SubclassNaiveBayes (max_components={args.max_components}) bin numeric "
        "columns by MDL; the forest is "
        f"scikit-learn's RandomForestClassifier(random_state={args.seed}).",
        "",
        *machine_lines(("numpy", "pandas", "scipy", "sklearn")),
        f"- load average before / after: {load_before} / {load_average()}; whole run "
        f"{elapsed / 60:.1f} min",
        f"- screening (all {len(screen)} sets, NB and forest) on a stratified sample of at most "
        f"{args.screen_cap} rows: " + (", ".join(capped) if capped else "no set was sampled"),
        f"- evaluation rows: {'all' if args.eval_cap <= 0 else f'at most {args.eval_cap}'}",
        "",
        f"The {len(results)} sets where the forest's accuracy lead over NaiveBayes is largest "
        "(gap closed: the share of that lead SubclassNaiveBayes wins back; mean K: components "
        "per class, averaged over classes and folds):",
        "",
        markdown_table(header, rows),
        "",
        "Seconds per stage and contender: " + ", ".join(f"{k} {v:.0f}" for k, v in seconds.items()),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    warnings.simplefilter("ignore")
    main()
