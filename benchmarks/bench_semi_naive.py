"""Semi-naive Bayes (TAN, AODE, SPODE, KDB, SelectiveKDB) vs Weka, pgmpy and pyAgrum: time and
accuracy (issues 11 and 12).

Targets, on 100,000 training rows x 50 categorical features (2 to 10 states, 2 classes) and 2,000
test rows, fit + predict of each:

* bayeskit's ``TAN`` at least 20x faster than Weka 3.6's TAN (``BayesNet`` with the ``TAN``
  search and ``SimpleEstimator``) and at least 100x faster than pgmpy's TAN and pyAgrum's
  ``BNClassifier(learningMethod="TAN")``;
* bayeskit's ``AODE`` at least 2x faster than Weka's ``AODE``;
* bayeskit's ``KDB(k=2)`` and ``SelectiveKDB`` (defaults) within 3x of bayeskit's ``TAN`` (issue
  12).

Data: drawn with a fixed seed from a known tree-augmented network: the class is a parent of every
feature, and the features form a random tree (each feature but the root has one feature parent).
Each feature's table P(x | class, parent) is, per parent value, a strongly skewed distribution
(Dirichlet(0.4) base) that the class perturbs a little (Dirichlet(50 x base)), so a feature says
much about its tree neighbour and a little about the class; naive Bayes double-counts the
evidence, TAN can learn the tree. The generating network's own posterior is scored too, as the
best any model can do. Every library gets the same values 0..k-1 of each feature as categories:
bayeskit an int8 array with ``categorical_features="all"``, Weka nominal ARFF attributes declaring
every value, pgmpy and pyAgrum a DataFrame of int64 columns (pgmpy's estimator is told every
state, pyAgrum's type processor every feature's range 0..k-1, without discretization).

Timing: fit + class probabilities of the test rows (the predicted class is their arg-max), for
every contender. bayeskit, Weka and naive Bayes: median of ``--repeats`` runs, interleaved; pgmpy
and pyAgrum take tens of seconds a run, so they get ``--slow-repeats`` runs (interleaved with
each other, after the others). Weka is timed inside the JVM: one Java process loads the ARFF files
(not timed), warms each classifier up once on the first 2,000 training rows, then for each run
times ``buildClassifier`` and ``distributionForInstance`` over the test rows with
``System.nanoTime``; Python asks it for each run in turn, so its runs interleave with the
others too. bayeskit's numba kernels are warmed up by fits on 2,000 and 20,000 rows first.

Settings: bayeskit's defaults (``alpha=1``); Weka's defaults (``AODE -F 1``, Laplace;
``BayesNet -D``, ``SimpleEstimator -A 0.5``); pgmpy ``TreeSearch(estimator_type="tan")`` with
``n_jobs=1`` (``--pgmpy-jobs``; its default, -1, was slower on two shared cores),
``DiscreteBayesianEstimator(prior_type="K2")`` (Laplace, a pseudo-count of 1, as bayeskit's
``alpha=1``) and ``predict_probability``; pyAgrum ``prior="Smoothing",
priorWeight=1`` (Laplace; its own default is 0.01) and ``predict_proba``.

    PYTHONPATH=src python benchmarks/bench_semi_naive.py --no-pgmpy --no-pyagrum   # no peers env
    benchmarks/.venv-peers/bin/python benchmarks/bench_semi_naive.py              # all, full size
    benchmarks/.venv-peers/bin/python benchmarks/bench_semi_naive.py --rows 10000 --repeats 2

At the default size, with every contender run, the section of RESULTS.md is written (replaced);
otherwise only with ``--write yes``. Raw figures and the ARFF files go to
``benchmarks/out/semi_naive/`` (ignored by git).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from _common import (
    REPO,
    load_average,
    machine_lines,
    markdown_table,
    say,
    time_phases,
    timed_fit_predict,
    versions,
    write_section,
)
from bench_defaults import EPS, _java_version, scores, weka_version

from bayeskit.classifiers import NaiveBayes

try:
    from bayeskit.classifiers import AODE, KDB, SPODE, TAN, SelectiveKDB
except ImportError as exc:  # the models of issue 11 are being written
    AODE = SPODE = TAN = None
    OURS_MISSING = f"bayeskit's TAN/AODE/SPODE are not importable yet ({exc}): skipped"
else:
    OURS_MISSING = ""

SECTION = "Semi-naive Bayes vs Weka, pgmpy and pyAgrum (issues 11 and 12)"
DEFAULT_ROWS = 100_000
DEFAULT_FEATURES = 50
DEFAULT_TEST = 2_000
WARM_ROWS = 2_000
WORK = REPO / "benchmarks" / "out" / "semi_naive"
PEERS_PYTHON = "benchmarks/.venv-peers/bin/python"

WEKA_TAN = (
    "weka.classifiers.bayes.BayesNet",
    "-D -Q weka.classifiers.bayes.net.search.local.TAN -- -S BAYES "
    "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5",
)
WEKA_AODE = ("weka.classifiers.bayes.AODE", "-F 1")

# ---------------------------------------------------------------------- data


class TreeNetwork:
    """A tree-augmented naive Bayes network with random tables, and sampling from it."""

    def __init__(self, d: int, seed: int, base: float = 0.4, concentration: float = 50.0):
        rng = np.random.default_rng(seed)
        self.card = rng.integers(2, 11, d)
        self.order = rng.permutation(d)  # a topological order of the features
        self.parent = np.full(d, -1)
        for i in range(1, d):
            self.parent[self.order[i]] = self.order[rng.integers(0, i)]
        self.prior = np.array([0.5, 0.5])
        self.tables = []  # per feature: [class, parent value, value]
        for j in range(d):
            kp = self.card[self.parent[j]] if self.parent[j] >= 0 else 1
            shared = rng.dirichlet(np.full(self.card[j], base), size=kp)
            t = np.empty((2, kp, self.card[j]))
            for c in range(2):
                for v in range(kp):
                    t[c, v] = rng.dirichlet(concentration * shared[v] + 1e-3)
            self.tables.append(t)

    def _parent_values(self, X: np.ndarray, j: int) -> np.ndarray:
        p = self.parent[j]
        return X[:, p].astype(np.int64) if p >= 0 else np.zeros(len(X), np.int64)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        y = (rng.random(n) < self.prior[1]).astype(np.int64)
        X = np.zeros((n, len(self.card)), np.int8)
        for j in self.order:
            cdf = np.cumsum(self.tables[j], axis=-1)[y, self._parent_values(X, j)]
            x = (rng.random(n)[:, None] > cdf).sum(axis=1)
            X[:, j] = np.minimum(x, self.card[j] - 1)
        return X, y

    def posterior(self, X: np.ndarray) -> np.ndarray:
        """P(class | x) under the generating network: the best any model can do."""
        logp = np.tile(np.log(self.prior), (len(X), 1))
        for j, t in enumerate(self.tables):
            pv = self._parent_values(X, j)
            for c in range(2):
                logp[:, c] += np.log(np.maximum(t[c, pv, X[:, j]], 1e-300))
        logp -= logp.max(axis=1, keepdims=True)
        p = np.exp(logp)
        return p / p.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------- bayeskit


def bayeskit_contender(make: Callable[[], object], X, y, Xte, keep: dict) -> Callable:
    def once() -> dict[str, float]:
        proba, fit, predict = timed_fit_predict(make(), X, y, Xte)
        keep.setdefault("proba", proba)
        return {"fit": fit, "predict": predict}

    return once


# ---------------------------------------------------------------------- Weka

JAVA_SERVER = r"""
import java.io.*;
import java.util.*;
import weka.core.*;
import weka.core.converters.ConverterUtils.DataSource;
import weka.classifiers.Classifier;

/** Times Weka classifiers inside the JVM. args: train.arff test.arff warm.arff. Loads the three
 *  files (not timed), prints "ready", then reads requests from stdin, one a line, tab-separated:
 *  label, classifier class, options, file for the test rows' probabilities ("-" for none). The
 *  first request of a label is preceded by one untimed warm-up (build on warm.arff, predict the
 *  test rows). Each request builds on train.arff and predicts every test row, timing the two with
 *  System.nanoTime, and answers "fitSeconds predictSeconds<TAB>options in effect". */
public class Driver {
  static Instances read(String path) throws Exception {
    Instances d = DataSource.read(path);
    d.setClassIndex(d.numAttributes() - 1);
    return d;
  }

  static Classifier make(String name, String options) throws Exception {
    return (Classifier) Utils.forName(Classifier.class, name, Utils.splitOptions(options));
  }

  static double[][] predict(Classifier c, Instances test) throws Exception {
    double[][] p = new double[test.numInstances()][];
    for (int i = 0; i < p.length; i++) p[i] = c.distributionForInstance(test.instance(i));
    return p;
  }

  public static void main(String[] args) throws Exception {
    Instances train = read(args[0]);
    Instances test = read(args[1]);
    Instances warm = read(args[2]);
    Set<String> warmed = new HashSet<String>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    System.out.println("ready");
    System.out.flush();
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.split("\t", -1);
      if (warmed.add(f[0])) {
        Classifier w = make(f[1], f[2]);
        w.buildClassifier(warm);
        predict(w, test);
      }
      Classifier c = make(f[1], f[2]);
      long t0 = System.nanoTime();
      c.buildClassifier(train);
      long t1 = System.nanoTime();
      double[][] p = predict(c, test);
      long t2 = System.nanoTime();
      if (!f[3].equals("-")) {
        PrintWriter out = new PrintWriter(new BufferedWriter(new FileWriter(f[3])));
        for (double[] row : p) {
          StringBuilder s = new StringBuilder();
          for (int k = 0; k < row.length; k++) {
            if (k > 0) s.append(' ');
            s.append(Double.toString(row[k]));
          }
          out.println(s);
        }
        out.close();
      }
      String used = Utils.joinOptions(((OptionHandler) c).getOptions());
      System.out.println((t1 - t0) / 1e9 + " " + (t2 - t1) / 1e9 + "\t" + used);
      System.out.flush();
    }
  }
}
"""


def write_arff(path: Path, X: np.ndarray, y: np.ndarray, card: np.ndarray) -> None:
    """Every feature nominal with all of its values 0..k-1 declared; the class last."""
    head = [f"@relation {path.stem}", ""]
    head += [
        f"@attribute x{j} {{{','.join(str(v) for v in range(k))}}}" for j, k in enumerate(card)
    ]
    head += ["@attribute class {0,1}", "", "@data"]
    with open(path, "w") as f:
        f.write("\n".join(head) + "\n")
        np.savetxt(f, np.column_stack([X, y]).astype(np.int64), fmt="%d", delimiter=",")


class WekaServer:
    """One JVM that loads the data once and times Weka classifiers on request."""

    def __init__(self, jar: Path, work: Path, X, y, Xte, yte, card):
        for name, (a, b) in {
            "train": (X, y),
            "test": (Xte, yte),
            "warm": (X[:WARM_ROWS], y),
        }.items():
            write_arff(work / f"{name}.arff", a, b[: len(a)], card)
        (work / "Driver.java").write_text(JAVA_SERVER)
        cmd = ["java", "-Xmx4g", "-cp", str(jar), str(work / "Driver.java")]
        cmd += [str(work / f"{n}.arff") for n in ("train", "test", "warm")]
        self.work = work
        self.err = open(work / "java-stderr.txt", "w")
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, text=True
        )
        self._expect_line()
        self.options: dict[str, str] = {}

    def _expect_line(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.err.flush()
            raise RuntimeError(
                "Weka's driver stopped:\n" + (self.work / "java-stderr.txt").read_text()[-3000:]
            )
        return line.rstrip("\n")

    def run(self, label: str, classname: str, options: str, proba_file: Path | None):
        self.proc.stdin.write(f"{label}\t{classname}\t{options}\t{proba_file or '-'}\n")
        self.proc.stdin.flush()
        times, used = self._expect_line().split("\t", 1)
        self.options[label] = f"{classname} {used}".strip()
        fit, predict = (float(v) for v in times.split())
        return {"fit": fit, "predict": predict}

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()
        self.err.close()


def weka_contender(server: WekaServer, label: str, spec: tuple[str, str], keep: dict):
    proba_file = server.work / f"proba-{label.replace(' ', '_')}.txt"

    def once() -> dict[str, float]:
        first = "proba" not in keep
        got = server.run(label, *spec, proba_file if first else None)
        if first:
            keep["proba"] = np.loadtxt(proba_file, ndmin=2)
        return got

    return once


# ---------------------------------------------------------------------- pgmpy and pyAgrum


def frames(X, y, Xte) -> tuple[pd.DataFrame, pd.DataFrame]:
    cols = [f"x{j}" for j in range(X.shape[1])]
    train = pd.DataFrame(X.astype(np.int64), columns=cols)
    train["y"] = y
    return train, pd.DataFrame(Xte.astype(np.int64), columns=cols)


def pgmpy_contender(train: pd.DataFrame, test: pd.DataFrame, card, jobs: int, keep: dict):
    from pgmpy.estimators import TreeSearch
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator

    logging.getLogger("pgmpy").setLevel(logging.ERROR)
    states = {f"x{j}": list(range(k)) for j, k in enumerate(card)}
    states["y"] = [0, 1]

    def once() -> dict[str, float]:
        t0 = time.perf_counter()
        search = TreeSearch(train, n_jobs=jobs)
        dag = search.estimate(estimator_type="tan", class_node="y", show_progress=False)
        model = DiscreteBayesianNetwork(dag.edges())
        model.fit(train, estimator=DiscreteBayesianEstimator(prior_type="K2", state_names=states))
        t1 = time.perf_counter()
        out = model.predict_probability(test)
        t2 = time.perf_counter()
        keep.setdefault("proba", out[["y_0", "y_1"]].to_numpy())
        return {"fit": t1 - t0, "predict": t2 - t1}

    return once


def pyagrum_contender(train: pd.DataFrame, test: pd.DataFrame, card, keep: dict) -> Callable:
    import pyagrum.skbn as skbn
    from pyagrum.lib.discreteTypeProcessor import DiscreteTypeProcessor

    X, y = train.drop(columns="y"), train["y"]

    def states() -> DiscreteTypeProcessor:
        """Every feature discrete with all of its values 0..k-1 (not only those in training)."""
        tp = DiscreteTypeProcessor()
        for j, k in enumerate(card):
            tp.setDiscretizationParameters(f"x{j}", "NoDiscretization", f"[0,{k - 1}]")
        return tp

    def once() -> dict[str, float]:
        model = skbn.BNClassifier(
            type_processor=states(),
            learningMethod="TAN",
            prior="Smoothing",
            priorWeight=1.0,
        )
        t0 = time.perf_counter()
        model.fit(X, y)
        t1 = time.perf_counter()
        proba = model.predict_proba(test)
        t2 = time.perf_counter()
        if "proba" not in keep:
            order = np.argsort(np.asarray(model.classes_).astype(np.int64))
            keep["proba"] = np.asarray(proba)[:, order]
        return {"fit": t1 - t0, "predict": t2 - t1}

    return once


# ---------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=DEFAULT_ROWS, help="training rows")
    ap.add_argument("--features", type=int, default=DEFAULT_FEATURES)
    ap.add_argument("--test-rows", type=int, default=DEFAULT_TEST)
    ap.add_argument("--repeats", type=int, default=5, help="runs of bayeskit and Weka")
    ap.add_argument("--slow-repeats", type=int, default=2, help="runs of pgmpy and pyAgrum")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weka-jar", type=Path, default=Path("/usr/share/java/weka.jar"))
    ap.add_argument("--no-weka", action="store_true")
    ap.add_argument("--no-pgmpy", action="store_true")
    ap.add_argument("--no-pyagrum", action="store_true")
    ap.add_argument(
        "--pgmpy-jobs",
        type=int,
        default=1,
        help="TreeSearch's n_jobs (its default -1 was slower on two shared cores)",
    )
    ap.add_argument("--work", type=Path, default=WORK, help="ARFF files and raw results")
    ap.add_argument(
        "--write",
        choices=("auto", "yes", "no"),
        default="auto",
        help="auto: write RESULTS.md only at the default size with every contender run",
    )
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)

    net = TreeNetwork(args.features, args.seed)
    rng = np.random.default_rng(args.seed + 1)
    X, y = net.sample(args.rows, rng)
    Xte, yte = net.sample(args.test_rows, rng)
    say(f"data: {args.rows:,} x {args.features} training rows, {args.test_rows:,} test rows")
    if OURS_MISSING:
        say(OURS_MISSING)

    fast: dict[str, Callable] = {}
    slow: dict[str, Callable] = {}
    kept: dict[str, dict] = {}

    def keep(name: str) -> dict:
        return kept.setdefault(name, {})

    ours = {"bayeskit NaiveBayes": NaiveBayes}
    if not OURS_MISSING:
        ours = {
            "bayeskit TAN": TAN,
            "bayeskit AODE": AODE,
            "bayeskit SPODE": SPODE,
            "bayeskit KDB": KDB,
            "bayeskit SelectiveKDB": SelectiveKDB,
            **ours,
        }
    for label, cls in ours.items():
        for n in (WARM_ROWS, 20_000):  # compile or load the numba kernels, serial and parallel
            cls(categorical_features="all").fit(X[:n], y[:n]).predict_proba(Xte)
        make = (lambda c: lambda: c(categorical_features="all"))(cls)
        fast[label] = bayeskit_contender(make, X, y, Xte, keep(label))

    server = None
    wversion = "not run"
    if not args.no_weka:
        wversion = weka_version(args.weka_jar)
        server = WekaServer(args.weka_jar, args.work, X, y, Xte, yte, net.card)
        fast["Weka TAN"] = weka_contender(server, "Weka TAN", WEKA_TAN, keep("Weka TAN"))
        fast["Weka AODE"] = weka_contender(server, "Weka AODE", WEKA_AODE, keep("Weka AODE"))
    train_df = test_df = None
    if not (args.no_pgmpy and args.no_pyagrum):
        train_df, test_df = frames(X, y, Xte)
    if not args.no_pgmpy:
        slow["pgmpy TAN"] = pgmpy_contender(
            train_df, test_df, net.card, args.pgmpy_jobs, keep("pgmpy TAN")
        )
    if not args.no_pyagrum:
        slow["pyAgrum TAN"] = pyagrum_contender(train_df, test_df, net.card, keep("pyAgrum TAN"))

    before = load_average()
    t_start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        say(f"timing {', '.join(fast)}: {args.repeats} interleaved runs")
        timings = time_phases(fast, args.repeats)
        if server is not None:
            server.close()  # its JVM would sit idle through the slow runs
        if slow:
            say(f"timing {', '.join(slow)}: {args.slow_repeats} interleaved runs")
            timings.update(time_phases(slow, args.slow_repeats))
    after = load_average()
    elapsed = time.perf_counter() - t_start

    results = {}
    for name, t in timings.items():
        acc, ll = scores(kept[name]["proba"], yte)
        results[name] = {
            "repeats": len(t["total"].runs),
            "fit": list(t["fit"].runs),
            "predict": list(t["predict"].runs),
            "total": list(t["total"].runs),
            "accuracy": acc,
            "log_loss": ll,
        }
        say(
            f"{name:>20}: fit {t['fit'].median:8.3f} s, predict {t['predict'].median:7.3f} s, "
            f"total {t['total'].median:8.3f} s ({t['total'].spread}), accuracy {acc:.4f}, "
            f"log-loss {ll:.4f}"
        )
    best = scores(net.posterior(Xte), yte)
    (args.work / "results.json").write_text(
        json.dumps(
            {
                "args": {k: str(v) for k, v in vars(args).items()},
                "results": results,
                "generating network": best,
                "weka options": server.options if server else {},
                "load before / after": [before, after],
            },
            indent=1,
        )
    )
    body = report(args, timings, results, best, server, wversion, before, after, elapsed)
    say("")
    say(body)
    complete = not (OURS_MISSING or args.no_weka or args.no_pgmpy or args.no_pyagrum)
    default_size = (args.rows, args.features, args.test_rows) == (
        DEFAULT_ROWS,
        DEFAULT_FEATURES,
        DEFAULT_TEST,
    )
    if args.write == "yes" or (args.write == "auto" and default_size and complete):
        write_section(SECTION, body)
        say("wrote RESULTS.md section:", SECTION)
    elif args.write == "auto":
        say("RESULTS.md not written (not the default size, or a contender skipped)")


def ratio(timings, a: str, b: str) -> float | None:
    if a in timings and b in timings:
        return timings[b]["total"].median / timings[a]["total"].median
    return None


def target_line(timings, ours: str, theirs: str, goal: float) -> str:
    r = ratio(timings, ours, theirs)
    if r is None:
        return f"{ours} vs {theirs}: not measured."
    verdict = "met" if r >= goal else "NOT met"
    a, b = timings[ours]["total"].median, timings[theirs]["total"].median
    return (
        f"{ours} vs {theirs}: {r:.1f}x faster (fit + predict, {a:.3f} s vs {b:.3f} s; "
        f"target >= {goal:g}x): {verdict}."
    )


def within_line(timings, ours: str, base: str, goal: float) -> str:
    r = ratio(timings, base, ours)  # ours' time over base's
    if r is None:
        return f"{ours} vs {base}: not measured."
    verdict = "met" if r <= goal else "NOT met"
    a, b = timings[ours]["total"].median, timings[base]["total"].median
    return (
        f"{ours} vs {base}: {r:.1f}x its time (fit + predict, {a:.3f} s vs {b:.3f} s; target "
        f"within {goal:g}x): {verdict}."
    )


def report(args, timings, results, best, server, wversion, before, after, elapsed) -> str:
    rows = []
    for name, t in timings.items():
        r = results[name]
        rows.append(
            [
                name,
                str(r["repeats"]),
                f"{t['fit'].median:.3f}",
                f"{t['predict'].median:.3f}",
                f"{t['total'].median:.3f}",
                t["total"].spread,
                f"{r['accuracy']:.4f}",
                f"{r['log_loss']:.4f}",
            ]
        )
    rows.append(["generating network (best possible)", "", "", "", "", "", f"{best[0]:.4f}",
                 f"{best[1]:.4f}"])  # fmt: skip
    cmd = " ".join(
        ["benchmarks/.venv-peers/bin/python benchmarks/bench_semi_naive.py", *sys.argv[1:]]
    )
    peers = versions("pgmpy", "pyagrum")
    lines = [
        f"`{cmd.strip()}`, {time.strftime('%Y-%m-%d')}. {args.rows:,} training rows x "
        f"{args.features} categorical features (2 to 10 states) and {args.test_rows:,} test rows, "
        f"2 classes, drawn (seed {args.seed}) from a known tree-augmented network: class -> every "
        "feature, plus a random tree among the features with strong dependencies (see the "
        "script's docstring). Every library gets the same values 0..k-1 as categories. Times: fit "
        "+ class probabilities of the test rows (the class is their arg-max); median of "
        f"{args.repeats} interleaved runs for bayeskit and Weka"
        + (
            f", {args.slow_repeats} for pgmpy and pyAgrum (tens of seconds a run)"
            if not (args.no_pgmpy and args.no_pyagrum)
            else ""
        )
        + ". Weka timed inside the JVM (System.nanoTime around "
        "buildClassifier and distributionForInstance; JVM start-up and data loading excluded, "
        f"one warm-up on {WARM_ROWS:,} rows per classifier); bayeskit's kernels warmed up by fits "
        "on 2,000 and 20,000 rows. Accuracy and log-loss (mean of -log(max(p_true, "
        f"{EPS:g}))) on the test rows.",
        "",
        *machine_lines(("numpy", "pandas", "sklearn", "numba")),
        "- peers: "
        + ", ".join(f"{k} {v}" for k, v in peers.items() if k != "python")
        + f", Weka {wversion} (OpenJDK {_java_version()})",
        f"- load average (1/5/15 min) before / after: {before} / {after}; timing took "
        f"{elapsed / 60:.1f} min",
        "",
        markdown_table(
            [
                "contender",
                "runs",
                "fit s",
                "predict s",
                "total s",
                "total range s",
                "accuracy",
                "log-loss",
            ],
            rows,
        ),
        "",
        'Settings: bayeskit defaults (`categorical_features="all"`); '
        + (
            "Weka `" + "`, `".join(f"{k}: {v}" for k, v in server.options.items()) + "`; "
            if server
            else ""
        )
        + f'pgmpy `TreeSearch(n_jobs={args.pgmpy_jobs}).estimate(estimator_type="tan")`, '
        '`DiscreteBayesianEstimator(prior_type="K2")`, `predict_probability`; pyAgrum '
        '`BNClassifier(learningMethod="TAN", prior="Smoothing", priorWeight=1)`, '
        "`predict_proba`.",
        "",
        target_line(timings, "bayeskit TAN", "Weka TAN", 20),
        target_line(timings, "bayeskit TAN", "pgmpy TAN", 100),
        target_line(timings, "bayeskit TAN", "pyAgrum TAN", 100),
        target_line(timings, "bayeskit AODE", "Weka AODE", 2),
        within_line(timings, "bayeskit KDB", "bayeskit TAN", 3),
        within_line(timings, "bayeskit SelectiveKDB", "bayeskit TAN", 3),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    main()
