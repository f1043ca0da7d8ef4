"""Which naive Bayes defaults win: bayeskit's candidates, scikit-learn and Weka on 26 data sets
(issue 10, section 5).

Every contender sees the same stratified 10-fold cross-validation folds (seeded, saved under the
work folder so that Weka reads the same folds from ARFF files), and the same scoring: each
contender's per-row class probabilities are collected (Weka's through a small Java driver that
prints ``distributionForInstance`` at full precision), then

* accuracy: the class of largest probability (the first in sorted class order on a tie) equals
  the true class;
* log-loss: the mean of ``-log(max(p_true, 1e-15))``, so a true class given probability 0 costs
  ``-log(1e-15) = 34.5`` for every contender alike (probabilities are not renormalised).

Data: each set is read with the manifest's column types. Categorical and binary columns become
pandas categoricals whose categories are every value of the column in the whole file (as an
ARFF header declares them for Weka), numeric columns float64. scikit-learn's ``GaussianNB`` runs
on the all-numeric sets, ``CategoricalNB`` on the all-categorical ones (codes of the same
categories, ``min_categories`` set), each with its defaults.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/bench_defaults.py                  # all, writes RESULTS.md
    PYTHONPATH=src python benchmarks/bench_defaults.py --datasets iris car --write no

Weka is found at ``--weka-jar`` (default ``/usr/share/java/weka.jar``; ``apt-get install weka
default-jre-headless``); ``--no-weka`` skips it. The Java driver runs as a single-file source
program (``java Driver.java``, Java 11 or later).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from _common import (
    REPO,
    load_average,
    machine_lines,
    markdown_table,
    say,
    suite_folder,
    write_section,
)
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from bayeskit.classifiers import KNNBayes, NaiveBayes
from bayeskit.estimate import gaussian_log_terms

TITLE = "Naive Bayes defaults on 26 data sets (issue 10)"
EPS = 1e-15
N_FOLDS = 10
DEFAULT_WORK = REPO / "benchmarks" / "out" / "defaults"

# ---------------------------------------------------------------------- data


def load(root: Path, entry: dict) -> tuple[pd.DataFrame, np.ndarray, list[str], list[str]]:
    """Features (categoricals declared with every value in the file), labels, and the names of
    the categorical and numeric columns."""
    df = pd.read_csv(root / entry["file"])
    y = df.pop("target").to_numpy()
    cat = [f["name"] for f in entry["features"] if f["type"] in ("categorical", "binary")]
    num = [f["name"] for f in entry["features"] if f["type"] == "continuous"]
    X = pd.DataFrame(index=df.index)
    for f in entry["features"]:
        col = df[f["name"]]
        if f["name"] in cat:
            X[f["name"]] = pd.Categorical(col, categories=np.unique(col.to_numpy()))
        else:
            X[f["name"]] = col.astype(np.float64)
    return X, y, cat, num


def folds_for(work: Path, name: str, y: np.ndarray, seed: int) -> np.ndarray:
    """Fold number of each row: made once (stratified, seeded), then read back from disk."""
    path = work / "folds" / f"{name}.csv"
    if path.exists():
        fold = np.loadtxt(path, dtype=np.int64)
        if fold.shape == y.shape:
            return fold
    fold = stratified_folds(y, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(path, fold, fmt="%d")
    return fold


def stratified_folds(y: np.ndarray, seed: int) -> np.ndarray:
    """Fold number of each row: stratified 10-fold, shuffled with ``seed``."""
    fold = np.empty(len(y), dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # classes with fewer than 10 rows
        splitter = StratifiedKFold(N_FOLDS, shuffle=True, random_state=seed)
        for k, (_, test) in enumerate(splitter.split(np.zeros(len(y)), y)):
            fold[test] = k
    return fold


class SuiteSet(NamedTuple):
    """One data set of the suite, ready for cross-validation."""

    X: pd.DataFrame
    y: np.ndarray
    classes: np.ndarray
    y_idx: np.ndarray
    fold: np.ndarray
    kind: str  # "categorical", "numeric" or "mixed"


def prepare(root: Path, work: Path, entry: dict, seed: int) -> SuiteSet:
    """Load a data set of the manifest, with its saved folds and its kind."""
    X, y, cat, num = load(root, entry)
    classes = np.unique(y)
    fold = folds_for(work, entry["name"], y, seed)
    kind = "categorical" if not num else "numeric" if not cat else "mixed"
    return SuiteSet(X, y, classes, np.searchsorted(classes, y), fold, kind)


def cross_validate(fitter: Callable, X, y, fold, classes) -> np.ndarray:
    """Class probabilities of every row, from the model fitted on the other folds."""
    proba = np.zeros((len(y), len(classes)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(N_FOLDS):
            tr, te = fold != k, fold == k
            proba[te] = fitter(X[tr], y[tr], X[te], classes)
    return proba


def scores(proba: np.ndarray, y_idx: np.ndarray) -> tuple[float, float]:
    """Accuracy and clipped log-loss (see the module docstring)."""
    acc = float(np.mean(np.argmax(proba, axis=1) == y_idx))
    p_true = proba[np.arange(len(y_idx)), y_idx]
    return acc, float(np.mean(-np.log(np.maximum(p_true, EPS))))


# ---------------------------------------------------------------------- contenders


class PrecisionFloorNB(NaiveBayes):
    """Benchmark-only candidate: Gaussian features whose standard deviation is at least a sixth of
    the feature's precision, the mean gap between adjacent distinct training values (the floor of
    Weka's NormalEstimator), instead of a floor proportional to the largest variance."""

    def fit(self, X, y, sample_weight=None):
        values = np.asarray(X[[c for c in X.columns if X[c].dtype.kind == "f"]], dtype=float)
        self._precision = np.array([_precision(v) for v in values.T])
        return super().fit(X, y, sample_weight)

    def _estimate(self) -> None:
        super()._estimate()
        floor = (self._precision / 6.0) ** 2
        self._log_norm, self._half_precision = gaussian_log_terms(np.maximum(self.var_, floor))


def _precision(v: np.ndarray) -> float:
    u = np.unique(v[~np.isnan(v)])
    return float((u[-1] - u[0]) / (len(u) - 1)) if len(u) > 1 else 0.01


def bayeskit_fitter(make: Callable[[], object]) -> Callable:
    def run(Xtr, ytr, Xte, classes):
        model = make().fit(Xtr, ytr)
        out = np.zeros((len(Xte), len(classes)))
        out[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(Xte)
        return out

    return run


def sklearn_fitter(make: Callable[[], object], kind: str) -> Callable:
    def run(Xtr, ytr, Xte, classes):
        if kind == "categorical":
            A = np.column_stack([Xtr[c].cat.codes for c in Xtr.columns])
            B = np.column_stack([Xte[c].cat.codes for c in Xte.columns])
            model = make(min_categories=[len(Xtr[c].cat.categories) for c in Xtr.columns])
        else:
            A, B = Xtr.to_numpy(float), Xte.to_numpy(float)
            model = make()
        model.fit(A, ytr)
        out = np.zeros((len(Xte), len(classes)))
        out[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(B)
        return out

    return run


def contenders(knn: bool) -> dict[str, tuple[Callable, str]]:
    """name -> (fitter, where it applies: 'all', 'numeric' or 'categorical')."""
    c = {
        "bayeskit default": (bayeskit_fitter(NaiveBayes), "all"),
        "Gaussian, floor 1e-9 max var (old default)": (
            bayeskit_fitter(lambda: NaiveBayes(discretize=None, var_smoothing=1e-9)),
            "all",
        ),
        "Gaussian, precision floor, prior_alpha=1": (
            bayeskit_fitter(lambda: PrecisionFloorNB(discretize=None, prior_alpha=1.0)),
            "all",
        ),
        "MDL, prior_alpha=0": (
            bayeskit_fitter(lambda: NaiveBayes(discretize="mdl", prior_alpha=0.0)),
            "all",
        ),
        "MDL, prior_alpha=1": (
            bayeskit_fitter(lambda: NaiveBayes(discretize="mdl", prior_alpha=1.0)),
            "all",
        ),
        "sklearn GaussianNB": (sklearn_fitter(GaussianNB, "numeric"), "numeric"),
        "sklearn CategoricalNB": (sklearn_fitter(CategoricalNB, "categorical"), "categorical"),
    }
    if knn:
        c["KNNBayes (K_c/K)"] = (bayeskit_fitter(KNNBayes), "all")
        c["KNNBayes posterior_alpha=1"] = (
            bayeskit_fitter(lambda: KNNBayes(posterior_alpha=1.0)),
            "all",
        )
    return c


# ---------------------------------------------------------------------- Weka

WEKA_CONFIGS = {"Weka NaiveBayes": "", "Weka NaiveBayes -D": "-D"}

JAVA_DRIVER = r"""
import java.io.*;
import weka.core.*;
import weka.core.converters.ConverterUtils.DataSource;
import weka.classifiers.bayes.NaiveBayes;

/** args: folder, number of folds, output file, Weka options. Prints, per test row of each fold,
 *  the fold, the row's position in the test file and the class distribution (full precision). */
public class Driver {
  public static void main(String[] args) throws Exception {
    File dir = new File(args[0]);
    int folds = Integer.parseInt(args[1]);
    PrintWriter out = new PrintWriter(new BufferedWriter(new FileWriter(args[2])));
    String[] options = args.length > 3 ? Utils.splitOptions(args[3]) : new String[0];
    for (int k = 0; k < folds; k++) {
      Instances train = DataSource.read(new File(dir, "train" + k + ".arff").getPath());
      Instances test = DataSource.read(new File(dir, "test" + k + ".arff").getPath());
      train.setClassIndex(train.numAttributes() - 1);
      test.setClassIndex(test.numAttributes() - 1);
      NaiveBayes nb = new NaiveBayes();
      nb.setOptions(options.clone());
      nb.buildClassifier(train);
      for (int i = 0; i < test.numInstances(); i++) {
        double[] p = nb.distributionForInstance(test.instance(i));
        StringBuilder s = new StringBuilder();
        s.append(k).append(' ').append(i);
        for (double v : p) s.append(' ').append(Double.toString(v));
        out.println(s);
      }
    }
    out.close();
  }
}
"""


def weka_version(jar: Path) -> str:
    src = "public class V { public static void main(String[] a) { "
    src += "System.out.println(weka.core.Version.VERSION); } }"
    tmp = DEFAULT_WORK / "V.java"
    tmp.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text(src)
    out = subprocess.run(
        ["java", "-cp", str(jar), str(tmp)], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def write_arff(path: Path, X: pd.DataFrame, y: np.ndarray, classes: np.ndarray) -> None:
    lines = [f"@relation {path.stem}", ""]
    for j, c in enumerate(X.columns):
        if isinstance(X[c].dtype, pd.CategoricalDtype):
            vals = ",".join(str(v) for v in X[c].cat.categories)
            lines.append(f"@attribute a{j} {{{vals}}}")
        else:
            lines.append(f"@attribute a{j} numeric")
    lines.append("@attribute class {" + ",".join(str(v) for v in classes) + "}")
    lines += ["", "@data"]
    body = X.astype(object).astype(str)
    body["class"] = [str(v) for v in y]
    text = "\n".join(lines) + "\n" + body.to_csv(header=False, index=False, lineterminator="\n")
    path.write_text(text)


def write_fold_arffs(folder: Path, X, y, fold, classes) -> None:
    """The training and test rows of every fold as ARFF files ``train{k}.arff`` and
    ``test{k}.arff`` in ``folder`` (created), for Weka to read the same folds."""
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(N_FOLDS):
        tr, te = fold != k, fold == k
        write_arff(folder / f"train{k}.arff", X[tr], y[tr], classes)
        write_arff(folder / f"test{k}.arff", X[te], y[te], classes)


def run_weka(jar, work, name, X, y, fold, classes) -> dict[str, np.ndarray]:
    folder = work / "arff" / name
    write_fold_arffs(folder, X, y, fold, classes)
    driver = work / "Driver.java"
    driver.write_text(JAVA_DRIVER)
    out = {}
    for label, options in WEKA_CONFIGS.items():
        result = folder / ("pred" + options.replace(" ", "").replace("-", "_") + ".txt")
        cmd = ["java", "-Xmx4g", "-cp", str(jar), str(driver), str(folder), str(N_FOLDS)]
        subprocess.run([*cmd, str(result), options], check=True, capture_output=True)
        raw = np.loadtxt(result, ndmin=2)
        proba = np.zeros((len(y), len(classes)))
        for k in range(N_FOLDS):
            rows = np.flatnonzero(fold == k)
            mine = raw[raw[:, 0] == k]
            proba[rows[mine[:, 1].astype(int)]] = mine[:, 2:]
        out[label] = proba
    return out


# ---------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, help="the suite's folder (or $BAYESKIT_SUITE)")
    ap.add_argument("--work", type=Path, default=DEFAULT_WORK, help="folds, ARFF files, results")
    ap.add_argument("--datasets", nargs="*", help="names (default: all in the manifest)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weka-jar", type=Path, default=Path("/usr/share/java/weka.jar"))
    ap.add_argument("--no-weka", action="store_true")
    ap.add_argument("--no-knn", action="store_true")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)

    args.data = suite_folder(args.data)
    manifest = json.loads((args.data / "manifest.json").read_text())
    entries = manifest["datasets"]
    if args.datasets:
        entries = [e for e in entries if e["name"] in set(args.datasets)]
    args.work.mkdir(parents=True, exist_ok=True)
    use_weka = not args.no_weka
    wversion = weka_version(args.weka_jar) if use_weka else "not run"
    say(f"Weka: {wversion}")
    cons = contenders(knn=not args.no_knn)
    load_before = load_average()
    t_start = time.perf_counter()

    results: dict[str, dict[str, tuple[float, float]]] = {}  # dataset -> contender -> scores
    seconds: dict[str, float] = {}
    for entry in entries:
        name = entry["name"]
        X, y, classes, y_idx, fold, kind = prepare(args.data, args.work, entry, args.seed)
        res = results.setdefault(name, {})
        for label, (fitter, where) in cons.items():
            if where != "all" and where != kind:
                continue
            t0 = time.perf_counter()
            proba = cross_validate(fitter, X, y, fold, classes)
            seconds[label] = seconds.get(label, 0.0) + time.perf_counter() - t0
            res[label] = scores(proba, y_idx)
        if use_weka:
            t0 = time.perf_counter()
            for label, proba in run_weka(
                args.weka_jar, args.work, name, X, y, fold, classes
            ).items():
                res[label] = scores(proba, y_idx)
            seconds["Weka (both)"] = seconds.get("Weka (both)", 0.0) + time.perf_counter() - t0
        say(name, " ".join(f"{k[:18]}={a:.3f}/{ll:.3f}" for k, (a, ll) in res.items()))
        (args.work / "results.json").write_text(json.dumps(results, indent=1))

    elapsed = time.perf_counter() - t_start
    names = [*cons, *(WEKA_CONFIGS if use_weka else {})]
    body = report(args, results, names, seconds, wversion, load_before, elapsed)
    print(body)
    full = not args.datasets and use_weka
    if args.write == "yes" or (args.write == "auto" and full):
        write_section(TITLE, body)
        say("wrote RESULTS.md section:", TITLE)


def report(args, results, names, seconds, wversion, load_before, elapsed) -> str:
    sets = list(results)
    short = {n: f"[{i + 1}]" for i, n in enumerate(names)}
    header = ["data set", *(short[n] for n in names)]
    rows = []
    for s in sets:
        cells = [s]
        for n in names:
            a = results[s].get(n)
            cells.append("" if a is None else f"{a[0]:.3f} / {a[1]:.3f}")
        rows.append(cells)
    mean_rows = []
    for n in names:
        got = [results[s][n] for s in sets if n in results[s]]
        if not got:
            continue
        acc = np.mean([g[0] for g in got])
        ll = np.mean([g[1] for g in got])
        mean_rows.append([short[n], n, str(len(got)), f"{acc:.4f}", f"{ll:.4f}"])
    cmd = "PYTHONPATH=src python benchmarks/bench_defaults.py " + " ".join(
        sys.argv[1:] if sys.argv[1:] else []
    )
    lines = [
        f"`{cmd.strip()}`, {time.strftime('%Y-%m-%d')}. Stratified {N_FOLDS}-fold "
        f"cross-validation (scikit-learn's StratifiedKFold, shuffled, seed {args.seed}; the fold "
        "of each row saved and given to Weka as ARFF files), the same folds for every "
        "contender. Accuracy: arg-max class (first in sorted order on a tie). Log-loss: mean of "
        f"-log(max(p_true, {EPS:g})) over all rows, probabilities as each contender returns "
        "them (Weka's from `distributionForInstance`, printed at full precision).",
        "",
        *machine_lines(("numpy", "pandas", "scipy", "sklearn", "numba")),
        f"- Weka: {wversion} (Debian package `weka`, OpenJDK "
        f"{_java_version()}), called through a small Java driver on the saved folds",
        f"- load average before / after: {load_before} / {load_average()}; whole run "
        f"{elapsed / 60:.1f} min",
        "",
        "Means over the data sets each contender applies to (scikit-learn's GaussianNB: the "
        "all-numeric sets, CategoricalNB: the all-categorical ones):",
        "",
        markdown_table(["", "contender", "sets", "mean accuracy", "mean log-loss"], mean_rows),
        "",
        "Per data set, accuracy / log-loss (columns numbered as above):",
        "",
        markdown_table(header, rows),
        "",
        "Seconds for all 10 folds of every set, per contender (fit + predict_proba; Weka's "
        "includes writing ARFF files and starting Java): "
        + ", ".join(f"{k} {v:.0f}" for k, v in seconds.items()),
    ]
    return "\n".join(lines)


def _java_version() -> str:
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True, check=True)
        return out.stderr.splitlines()[0].split('"')[1]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "unknown"


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
