"""Discriminative parameters on the suite's 26 data sets: each family model generative (its
defaults) and with ``parameters="discriminative"``, against scikit-learn's random forest and
histogram gradient boosting, in the same run.

The folds are bench_defaults.py's (stratified 10-fold, shuffled, seed 0, saved under
``--work``); scoring as there: accuracy (arg-max class) and log-loss (probabilities clipped at
1e-15), means over the rows of all folds. The forest and the boosting get numeric columns as
they are and categorical ones ordinal-coded, as bench_semi_naive_suite.py gives them (the
boosting is told which columns are categorical). Naive Bayes discriminative is run as
``KDB(k=0)`` (the same model as ``NaiveBayes(parameters="discriminative")`` up to the
smoothing: KDB's default is hierarchical). Means are reported over all sets, and apart over
the sets with numeric columns (numeric or mixed) and the all-categorical ones. Run::

    .venv/bin/python benchmarks/bench_discriminative_suite.py --data SUITE --write yes
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _common import load_average, machine_lines, markdown_table, publish, say, suite_folder
from bench_defaults import DEFAULT_WORK, bayeskit_fitter, cross_validate, prepare, scores
from bench_semi_naive_suite import gradient_boosting, random_forest

from bayeskit.classifiers import KDB, TAN, NaiveBayes, SelectiveKDB, SelectiveKDBEnsemble

TITLE = "Discriminative parameters on 26 data sets, against the forest and the boosting"

DISC = {"parameters": "discriminative"}


def contenders(ensemble: bool) -> dict:
    c = {
        "NaiveBayes": bayeskit_fitter(NaiveBayes),
        "NB discriminative (KDB k=0)": bayeskit_fitter(lambda: KDB(k=0, **DISC)),
        "TAN": bayeskit_fitter(TAN),
        "TAN discriminative": bayeskit_fitter(lambda: TAN(**DISC)),
        "KDB": bayeskit_fitter(KDB),
        "KDB discriminative": bayeskit_fitter(lambda: KDB(**DISC)),
        "SelectiveKDB": bayeskit_fitter(SelectiveKDB),
        "SelectiveKDB discriminative": bayeskit_fitter(lambda: SelectiveKDB(**DISC)),
    }
    if ensemble:
        c["SelectiveKDBEnsemble"] = bayeskit_fitter(SelectiveKDBEnsemble)
    c["sklearn RandomForest"] = lambda a, b, x, k: random_forest(a, b, x, k, 0)
    c["sklearn HistGradientBoosting"] = lambda a, b, x, k: gradient_boosting(a, b, x, k, 0)
    return c


def main(argv: list[str] | None = None) -> None:
    run_suite(argv, __doc__, TITLE, contenders)


def run_suite(argv: list[str] | None, doc: str, title: str, make: Callable) -> None:
    """Cross-validate ``make(ensemble)``'s contenders on the suite's sets (smallest first) and
    publish the table under ``title``."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--data", type=Path, help="the suite's folder (or $BAYESKIT_SUITE)")
    ap.add_argument("--work", type=Path, default=DEFAULT_WORK)
    ap.add_argument("--sets", nargs="*", help="data sets by name (default: all)")
    ap.add_argument("--no-ensemble", action="store_true", help="leave SelectiveKDBEnsemble out")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    root = suite_folder(args.data)
    entries = json.loads((root / "manifest.json").read_text())["datasets"]
    if args.sets:
        entries = [e for e in entries if e["name"] in args.sets]
    entries.sort(key=lambda e: e["rows"] * max(len(e["features"]), 1))
    load_before, began = load_average(), time.perf_counter()
    fitters = make(not args.no_ensemble)
    results: dict[str, dict[str, tuple[float, float]]] = {}
    kinds: dict[str, str] = {}
    seconds = dict.fromkeys(fitters, 0.0)
    for entry in entries:
        s = prepare(root, args.work, entry, 0)
        kinds[entry["name"]] = s.kind
        results[entry["name"]] = {}
        for name, fit in fitters.items():
            start = time.perf_counter()
            proba = cross_validate(fit, s.X, s.y, s.fold, s.classes)
            seconds[name] += time.perf_counter() - start
            results[entry["name"]][name] = scores(proba, s.y_idx)
            acc, loss = results[entry["name"]][name]
            say(f"{entry['name']} | {name} | {acc:.4f} | {loss:.4f}")
        # written after every set (the sets run smallest first), so a stopped run keeps its part
        body = report(results, kinds, list(fitters), seconds)
        header = [*machine_lines(("numpy", "scipy", "sklearn", "numba")),
                  f"- load average before / now: {load_before} / {load_average()}; "
                  f"{(time.perf_counter() - began) / 60:.1f} min for {len(results)} of "
                  f"{len(entries)} sets", ""]  # fmt: skip
        if args.write == "yes" or entry is entries[-1]:
            publish(title, "\n".join([*header, body]), args.write == "yes")


def report(results: dict, kinds: dict, names: list[str], seconds: dict) -> str:
    sets = list(results)
    groups = {
        "all": sets,
        "numeric or mixed": [s for s in sets if kinds[s] != "categorical"],
        "categorical": [s for s in sets if kinds[s] == "categorical"],
    }
    rows = []
    for name in names:
        cells = [name]
        for members in groups.values():
            acc = np.mean([results[s][name][0] for s in members]) if members else np.nan
            loss = np.mean([results[s][name][1] for s in members]) if members else np.nan
            cells.append(f"{acc:.4f} / {loss:.4f}")
        cells.append(f"{seconds[name]:.0f}")
        rows.append(cells)
    per_set = [[s, kinds[s], *(f"{results[s][n][0]:.3f} / {results[s][n][1]:.3f}"
                               for n in names)] for s in sets]  # fmt: skip
    forest = "sklearn RandomForest"
    rf_loss = np.mean([results[s][forest][1] for s in sets])
    rf_acc = np.mean([results[s][forest][0] for s in sets])
    verdicts = []
    for name in names:
        if name.startswith("sklearn"):
            continue
        loss = np.mean([results[s][name][1] for s in sets])
        acc = np.mean([results[s][name][0] for s in sets])
        met = "yes" if loss <= 0.9 * rf_loss and acc >= rf_acc else "no"
        verdicts.append([name, f"{(loss / rf_loss - 1) * 100:+.1f}%",
                         f"{(acc - rf_acc) * 100:+.2f}", met])  # fmt: skip
    numeric, categorical = len(groups["numeric or mixed"]), len(groups["categorical"])
    return "\n".join([
        f"Stratified 10-fold cross-validation on {len(sets)} sets ({numeric} numeric or mixed, "
        f"{categorical} categorical). Mean accuracy / mean "
        "log-loss per group of sets, and the seconds of all folds of all sets (fit + predict):",
        "",
        markdown_table(["contender", *(f"{g} ({len(m)})" for g, m in groups.items()), "seconds"],
                       rows),
        "",
        "Against the forest over all sets (target: mean log-loss at least 10% below the "
        "forest's and mean accuracy at least the forest's):",
        "",
        markdown_table(["contender", "log-loss vs forest", "accuracy points vs forest",
                        "target"], verdicts),
        "",
        "Per data set, accuracy / log-loss:",
        "",
        markdown_table(["data set", "kind", *names], per_set),
    ])  # fmt: skip


if __name__ == "__main__":
    main()
