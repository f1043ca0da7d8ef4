"""Start-up cost of the compiled kernels in fresh processes, and their threading (issue 10, §4).

Every figure comes from a new Python process, as a user's script or the command line starts:

* ``import bayeskit``, then ``from bayeskit import NaiveBayes`` (what the models pull in);
* the first ``NaiveBayes`` fit + predict_proba on small mixed data (150 rows, 4 numeric and
  1 categorical feature: the serial builds), then a second one;
* the first fit + predict_proba on large data (400,000 rows, 4 numeric and 1 categorical: the
  parallel builds), then a second one;
* the whole ``bayeskit compare`` command (what ``make demo`` runs), as process wall time.

"cold" runs start with an empty numba cache (a new ``NUMBA_CACHE_DIR``), "warm" ones reuse the
cache that the cold run left. With ``--before REV`` the same is measured for the source tree of a
git revision (extracted to a temporary directory), for a before/after comparison. The script
also checks fit -> fork -> fit in the child for each tree, times each parallel kernel against its
serial build around ``PARALLEL_MIN_WORK``, and compares numba's threading layers on
1,000,000 x 50 inputs.

With ``--networks`` it measures instead the first calls of the network code, each in a fresh
process, cold and warm, for this tree and ``--before REV``: structure learning on 5,000 rows
sampled from sachs (first and second call), the first exact query on alarm (the default engine
where the tree has one, else the junction tree, as ``network query`` used), the first batched
propagation of 200,000 rows on alarm by the junction tree (with threads: the parallel build
where the tree has one), and the whole ``bayeskit network query`` command as process wall
time.

    PYTHONPATH=src python benchmarks/bench_startup.py [--before REV] [--repeats N] [--write yes]
    PYTHONPATH=src python benchmarks/bench_startup.py --networks DIR --before REV [--write yes]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from _common import REPO, load_average, machine_lines, markdown_table, say, write_section

from bayeskit._compiled import PARALLEL_MIN_WORK

STARTUP = """
import json, os, time
t0 = time.perf_counter()
import bayeskit
t1 = time.perf_counter()
from bayeskit import NaiveBayes
t2 = time.perf_counter()
import numpy as np
from numba.core import event

compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        if func.__module__.startswith("bayeskit"):  # not numba's helpers compiled with them
            compiled.append(func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())


def data(n, seed):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=(n, 4)), rng.integers(0, 3, n)])
    return X, rng.integers(0, 3, n)


def fit_predict(X, y):
    t = time.perf_counter()
    NaiveBayes(categorical_features=[4], discretize=None).fit(X, y).predict_proba(X)
    return time.perf_counter() - t


small, large = data(150, 0), data(400_000, 1)
out = {"import bayeskit": t1 - t0, "import models": t2 - t1}
out["first fit small"] = fit_predict(*small)
out["second fit small"] = fit_predict(*small)
out["first fit large"] = fit_predict(*large)
out["second fit large"] = fit_predict(*large)
out["kernels compiled"] = len(compiled)
print(json.dumps(out))
"""

FORK = """
import json, os
import numpy as np
from bayeskit import NaiveBayes
rng = np.random.default_rng(0)
X, y = rng.normal(size=(400_000, 3)), rng.integers(0, 2, 400_000)
NaiveBayes(discretize=None).fit(X, y)
pid = os.fork()
if pid == 0:
    NaiveBayes(discretize=None).fit(X, y)
    os._exit(0)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
NaiveBayes(discretize=None).fit(X, y)
import numba
print(json.dumps({"child": code, "layer": numba.threading_layer()}))
"""

LAYERS = """
import json, time
import numba, numpy as np
from bayeskit.stats._kernels import count_codes, moment_sums
from bayeskit.stats._lookup import (
    add_gaussian_log_density, add_table_entries, log_normalise_rows)
rng = np.random.default_rng(0)
n, d = 1_000_000, 50
codes = rng.integers(0, 5, (n, d)).astype(np.int8)
y = rng.integers(0, 2, n).astype(np.intp)
w = np.ones(n)
offsets = np.arange(d, dtype=np.int64) * 5
values = rng.normal(size=(n, d))
table = rng.normal(size=(5 * d, 2))
mean, log_norm, half_precision = np.zeros((2, d)), np.zeros((2, d)), np.ones((2, d))
jll = rng.normal(size=(n, 2))
calls = {
    "count_codes": lambda: count_codes(codes, y, w, offsets, 2, 5 * d),
    "moment_sums": lambda: moment_sums(values, y, w, 2),
    "add_table_entries": lambda: add_table_entries(np.zeros((n, 2)), codes, table, offsets),
    "add_gaussian_log_density": lambda: add_gaussian_log_density(
        np.zeros((n, 2)), values, mean, log_norm, half_precision),
    "log_normalise_rows": lambda: log_normalise_rows(jll.copy()),
}
out = {}
for name, call in calls.items():
    call()
    runs = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        call()
        runs.append(time.perf_counter() - t)
    out[name] = sorted(runs)[len(runs) // 2]
out["layer"] = numba.threading_layer()
print(json.dumps(out))
"""

SWEEP = """
import json, time
import numpy as np
import bayeskit, bayeskit._compiled as compiled
from bayeskit.stats._kernels import count_codes, moment_sums
from bayeskit.stats._lookup import (
    add_gaussian_log_density, add_table_entries, log_normalise_rows)
rng = np.random.default_rng(0)
d, k = 10, 2


def median_ms(call, repeats=31):
    call()
    runs = []
    for _ in range(repeats):
        t = time.perf_counter()
        call()
        runs.append(time.perf_counter() - t)
    return 1e3 * sorted(runs)[repeats // 2]


rows = {}
for n in (2_000, 5_000, 10_000, 25_000, 50_000, 100_000):
    codes = rng.integers(0, 5, (n, d)).astype(np.int8)
    values = rng.normal(size=(n, d))
    y = rng.integers(0, k, n).astype(np.intp)
    w = np.ones(n)
    offsets = np.arange(d, dtype=np.int64) * 5
    table = rng.normal(size=(5 * d, k))
    zeros = np.zeros((k, d))
    jll = rng.normal(size=(n, k))
    cases = {
        "count_codes": (codes.size, lambda: count_codes(codes, y, w, offsets, k, 5 * d)),
        "moment_sums": (2 * values.size, lambda: moment_sums(values, y, w, k)),
        "add_table_entries": (codes.size * k,
                              lambda: add_table_entries(jll.copy(), codes, table, offsets)),
        "add_gaussian_log_density": (values.size * k, lambda: add_gaussian_log_density(
            jll.copy(), values, zeros, zeros, zeros + 1.0)),
        "log_normalise_rows": (8 * jll.size, lambda: log_normalise_rows(jll.copy())),
    }
    for name, (work, call) in cases.items():
        compiled.PARALLEL_MIN_WORK = 10**15
        serial = median_ms(call)
        compiled.PARALLEL_MIN_WORK = 0
        with bayeskit.num_threads(2):
            parallel = median_ms(call)
        rows.setdefault(name, []).append([n, work, serial, parallel])
print(json.dumps(rows))
"""


NETWORK = """
import json, time
from pathlib import Path
t0 = time.perf_counter()
import numpy as np
from bayeskit.networks import BayesianNetwork, JunctionTree, read_bif
from numba.core import event
out = {"import networks": time.perf_counter() - t0}
compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        if ev.data["dispatcher"].py_func.__module__.startswith("bayeskit"):
            compiled.append(1)

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
folder = Path(FOLDER)
alarm, sachs = read_bif(folder / "alarm.bif.gz"), read_bif(folder / "sachs.bif.gz")
data, rows = sachs.sample(5000, seed=0), alarm.sample(200_000, seed=1)
rows = rows.drop(columns=["HR"])
try:
    from bayeskit.networks import ExactInference as Default
except ImportError:
    Default = JunctionTree
for key in ("first learn", "second learn"):
    t = time.perf_counter()
    BayesianNetwork.learn(data)
    out[key] = time.perf_counter() - t
t = time.perf_counter()
Default(alarm).query("HR", {"CO": "LOW", "BP": "HIGH"})
out["first query (default engine)"] = time.perf_counter() - t
tree = JunctionTree(alarm)
for key in ("first batch propagation", "second batch propagation"):
    t = time.perf_counter()
    tree.query_batch("HR", rows)
    out[key] = time.perf_counter() - t
out["kernels compiled"] = len(compiled)
print(json.dumps(out))
"""


def first_calls(src: Path, r: int, workdir: Path, folder: Path, res: dict) -> None:
    """Run ``r`` of the cold and warm figures of the network measures, added to ``res``."""
    code = NETWORK.replace("FOLDER", repr(str(folder)))
    query = (
        "import sys\nfrom bayeskit.cli import main\n"
        f"sys.argv = ['bayeskit', 'network', 'query', {str(folder / 'alarm.bif.gz')!r}, "
        "'--target', 'HR', '--evidence', 'CO=LOW,BP=HIGH']\nmain()"
    )
    for state in ("cold", "warm"):
        got, _ = run_child(code, src, workdir / f"net-{src.parent.name}-{r}")
        for key, value in got.items():
            res[state].setdefault(key, []).append(value)
    for state in ("cold", "warm"):
        _, wall = run_child(query, src, workdir / f"cli-{src.parent.name}-{r}")
        res[state].setdefault("network query (process)", []).append(wall)


def networks_main(args) -> None:
    """``--networks``: the first calls of the network code, before and after."""
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        trees = {"this tree": REPO / "src"}
        if args.before:
            trees = {f"before ({args.before})": extract(args.before, workdir), **trees}
        results: dict = {label: {"cold": {}, "warm": {}} for label in trees}
        for src in trees.values():
            run_child("import bayeskit.networks", src, None)  # write .pyc files first
        for r in range(args.repeats):  # the trees interleaved
            for label, src in trees.items():
                first_calls(src, r, workdir, args.networks, results[label])
            say(f"first calls: run {r + 1}/{args.repeats} done")
    measures = [
        "import networks",
        "first learn",
        "second learn",
        "first query (default engine)",
        "first batch propagation",
        "second batch propagation",
        "kernels compiled",
        "network query (process)",
    ]
    header = ["measure (median of runs)"] + [
        f"{label}, {state}" for label in results for state in ("cold", "warm")
    ]
    rows = []
    for m in measures:
        row = [m + ("" if m == "kernels compiled" else " s")]
        for label in results:
            for state in ("cold", "warm"):
                v = results[label][state].get(m)
                row.append(fmt(v, "n" if m == "kernels compiled" else "s") if v else "-")
        rows.append(row)
    body = "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_startup.py --networks DIR"
            f"{' --before ' + args.before if args.before else ''} --repeats {args.repeats}`, "
            f"{time.strftime('%Y-%m-%d')}. Each figure is the median of {args.repeats} runs, "
            "each in a new process, the two trees interleaved; cold = empty numba cache, warm "
            "= the cache the cold run left. learn = `BayesianNetwork.learn` on 5,000 rows "
            "sampled from sachs; first query = one posterior on alarm given two observed nodes "
            "by the default engine (the junction tree before); batch propagation = "
            "`JunctionTree.query_batch` of 200,000 rows of alarm (every node but the target "
            "observed), large enough for threads; `network query (process)` is the wall time "
            "of the whole command asking that query. `kernels compiled` counts bayeskit's "
            "kernels numba compiled in the process.",
            "",
            *machine_lines(("numpy", "numba", "pandas")),
            f"- load average (1/5/15 min) before / after: {load_before} / {load_average()}",
            "",
            markdown_table(header, rows),
        ]
    )
    say(body)
    if args.write == "yes":
        write_section("First calls of the network code: fresh processes, cold and warm", body)


def run_child(code: str, src: Path, cache: Path | None, **env: str) -> tuple[dict, float]:
    """Run ``code`` in a fresh process on the source tree ``src``; its JSON line and wall time."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "BAYESKIT_"))}
    full["PYTHONPATH"] = str(src)
    if cache is not None:
        full["NUMBA_CACHE_DIR"] = str(cache)
    full.update(env)
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=full,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    lines = proc.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1]) if lines else {}, wall
    except json.JSONDecodeError:
        return {"output": proc.stdout[-500:] + proc.stderr[-500:]}, wall


def compare_cli(src: Path, cache: Path) -> float:
    code = "from bayeskit.cli import main\nimport sys\nsys.argv = ['bayeskit', 'compare']\nmain()"
    return run_child(code, src, cache)[1]


def startup(src: Path, repeats: int, workdir: Path) -> dict[str, dict[str, list[float]]]:
    """Cold and warm figures of each measure, ``repeats`` runs each (cold: a new cache each)."""
    res: dict[str, dict[str, list[float]]] = {"cold": {}, "warm": {}}
    run_child("import bayeskit, bayeskit.classifiers", src, None)  # write .pyc files first
    for r in range(repeats):
        cache = workdir / f"cache-{src.name}-{r}"
        for state in ("cold", "warm"):
            got, _ = run_child(STARTUP, src, cache)
            for key, value in got.items():
                res[state].setdefault(key, []).append(value)
        cli_cache = workdir / f"cli-cache-{src.name}-{r}"
        for state in ("cold", "warm"):
            res[state].setdefault("bayeskit compare (process)", []).append(
                compare_cli(src, cli_cache)
            )
        say(f"  {src}: run {r + 1}/{repeats} done")
    return res


def extract(rev: str, workdir: Path) -> Path:
    """The ``src`` tree of git revision ``rev``, in ``workdir``."""
    dest = workdir / f"src-{rev}"
    dest.mkdir()
    archive = subprocess.run(
        ["git", "archive", rev, "src"], cwd=REPO, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "src"


def target_lines(results: dict, forks: dict) -> list[str]:
    """One sentence per target of issue 10, section 4, from the figures of the current tree."""
    now = results["this tree"]
    med = {state: {k: statistics.median(v) for k, v in now[state].items()} for state in now}
    fork = forks["this tree"]
    warm_compiled = med["warm"]["kernels compiled"]
    lines = [
        f"- Fork safety: {'met' if fork.get('child') == 0 else 'NOT met'}: the child of a "
        f"process that ran parallel kernels exits with code {fork.get('child')} "
        f"(threading layer {fork.get('layer')}).",
        f"- Kernels cached across processes: {'met' if warm_compiled == 0 else 'NOT met'}: a "
        f"second process compiles {warm_compiled:.0f} kernels (the first compiled "
        f"{med['cold']['kernels compiled']:.0f}); its first small fit takes "
        f"{med['warm']['first fit small']:.2f} s against {med['cold']['first fit small']:.2f} s "
        f"cold, its first large fit {med['warm']['first fit large']:.2f} s against "
        f"{med['cold']['first fit large']:.2f} s. What remains warm is numba's one-time set-up "
        "of its compiler context in each process, not compilation.",
        f"- `import bayeskit`: {med['warm']['import bayeskit']:.2f} s; importing the models "
        f"(scikit-learn, scipy, pandas, numba) then takes {med['warm']['import models']:.2f} s, "
        "on first use.",
    ]
    for label, res in results.items():
        if label == "this tree":
            continue
        old = {state: {k: statistics.median(v) for k, v in res[state].items()} for state in res}
        lines.append(
            f"- {label}: `import bayeskit` {old['warm']['import bayeskit']:.2f} s (it imported "
            f"the models); {old['cold']['kernels compiled']:.0f} kernels compiled cold against "
            f"{med['cold']['kernels compiled']:.0f} now: its serial and parallel builds shared "
            "one cache entry, so a parallel kernel whose serial build was already cached loaded "
            "the serial machine code and never ran on threads (its cold large fit is fast for "
            f"that reason); forked child exit code {forks[label].get('child')}."
        )
    return lines


def fmt(values: list[float], unit: str = "s") -> str:
    if unit == "n":
        return f"{statistics.median(values):.0f}"
    return f"{statistics.median(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="git revision to compare with (its src/ tree)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", choices=("yes", "no"), default="no")
    parser.add_argument("--networks", type=Path, help="the standard networks' folder")
    args = parser.parse_args()
    if args.networks:
        networks_main(args)
        return

    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        trees = {"this tree": REPO / "src"}
        if args.before:
            trees = {f"before ({args.before})": extract(args.before, workdir), **trees}
        results = {}
        forks = {}
        for label, src in trees.items():
            say(f"start-up: {label}")
            results[label] = startup(src, args.repeats, workdir)
            forks[label], _ = run_child(FORK, src, workdir / f"fork-{src.parent.name}")
        say("threading layers")
        layers = {}
        for _ in range(2):  # interleaved: omp, forksafe, omp, forksafe
            for name in ("omp", "forksafe"):
                got, _ = run_child(
                    LAYERS.replace("REPEATS", "5"),
                    REPO / "src",
                    workdir / "layers",
                    NUMBA_THREADING_LAYER=name,
                )
                layers.setdefault(name, []).append(got)
        say("serial / parallel sweep")
        sweep, _ = run_child(SWEEP, REPO / "src", workdir / "sweep")
    load_after = load_average()

    measures = [
        "import bayeskit",
        "import models",
        "first fit small",
        "second fit small",
        "first fit large",
        "second fit large",
        "kernels compiled",
        "bayeskit compare (process)",
    ]
    header = ["measure (median of runs)"] + [
        f"{label}, {state}" for label in results for state in ("cold", "warm")
    ]
    rows = []
    for m in measures:
        row = [m + ("" if m == "kernels compiled" else " s")]
        for label in results:
            for state in ("cold", "warm"):
                v = results[label][state].get(m)
                row.append(
                    fmt(v, "n" if m == "kernels compiled" else "s") if v is not None else "-"
                )
        rows.append(row)
    fork_lines = [
        f"- {label}: fit (400,000 x 3) -> os.fork -> fit in the child: child exit code "
        f"{f.get('child')}, threading layer {f.get('layer')}"
        for label, f in forks.items()
    ]
    targets = target_lines(results, forks)
    kernels = [k for k in layers["omp"][0] if k != "layer"]
    layer_rows = [
        [k]
        + [
            f"{statistics.median([r[k] for r in layers[name]]) * 1e3:.1f}"
            for name in ("omp", "forksafe")
        ]
        for k in kernels
    ]
    forksafe_is = layers["forksafe"][0].get("layer")
    sweep_rows = []
    for name, points in sweep.items():
        for n, work, serial, parallel in points:
            sweep_rows.append([name, f"{n:,}", f"{work:,}", f"{serial:.3f}", f"{parallel:.3f}"])
    crossings = []
    for name, points in sweep.items():
        wins = [work for _, work, serial, parallel in points if parallel < serial]
        crossings.append(f"{name} {min(wins):,}" if wins else f"{name} never in this range")
    crossing = (
        "Smallest work at which the parallel build was faster: "
        + "; ".join(crossings)
        + ". These depend on the machine's load: with every core busy, threads cannot help."
    )

    body = "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_startup.py"
            f"{' --before ' + args.before if args.before else ''} --repeats {args.repeats}`, "
            f"{time.strftime('%Y-%m-%d')}. Each figure is the median of {args.repeats} runs, "
            "each in a new process; cold = empty numba cache (a new `NUMBA_CACHE_DIR`), warm = "
            "the cache the cold run left. Small = 150 rows (serial builds), large = 400,000 rows "
            "(parallel builds), 4 numeric + 1 categorical feature, NaiveBayes fit + "
            "predict_proba. `kernels compiled` counts bayeskit kernels that numba compiled in "
            "the process (`numba:compile` events; 0 = all loaded from the cache); "
            "`bayeskit compare (process)` is the wall time of the whole command that "
            "`make demo` runs.",
            "",
            *machine_lines(("numpy", "numba", "sklearn", "pandas")),
            f"- load average (1/5/15 min) before / after: {load_before} / {load_after}",
            "",
            markdown_table(header, rows),
            "",
            *fork_lines,
            "",
            "Targets (issue 10, section 4):",
            "",
            *targets,
            "",
            "Threading layers, milliseconds per call on 1,000,000 x 50 inputs (2 classes), median "
            "of 5 calls in each of 2 interleaved processes per layer; `forksafe` is what bayeskit "
            f"selects by default, here `{forksafe_is}`:",
            "",
            markdown_table(["kernel", "omp (GNU OpenMP) ms", "forksafe ms"], layer_rows),
            "",
            "Serial against parallel build (2 threads), milliseconds per call, median of 31, "
            f"10 features, 2 classes; `work` is the kernel's estimate compared with "
            f"`PARALLEL_MIN_WORK` (now {PARALLEL_MIN_WORK:,}):",
            "",
            markdown_table(
                ["kernel", "rows", "work", "serial ms", "parallel ms"],
                sweep_rows,
            ),
            "",
            crossing,
        ]
    )
    say(body)
    if args.write == "yes":
        write_section("Start-up, caching and threads of the compiled kernels (issue 10)", body)


if __name__ == "__main__":
    main()
