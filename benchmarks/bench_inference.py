"""Exact inference on every standard network: the default engine (``ExactInference``, which
chooses variable elimination or the junction tree per query) against each engine alone, and
pyAgrum's ``LazyPropagation`` when the peers' environment has it.

Networks: every ``*.bif.gz`` in ``--networks FOLDER`` (or ``$BAYESKIT_NETWORKS``), each in a
child process of its own (``--only NAME`` runs one). Per network, queries with fresh evidence:
a row sampled from the network (forward sampler), 3-5 of its nodes observed at their sampled
states, and one other node queried. Measured, as queries (or rows) per second, the median of
``--repeats`` runs, each run a new set of queries (seed = the run's number) so that no engine
reuses a plan of an earlier run, the engines interleaved within each run, each run starting
with the next engine:

- **single**: one query at a time; ``ExactInference.query`` (made once, given the junction
  tree compiled for the JT column, which it would compile itself once variable elimination has
  spent 0.1 s, and warmed on another set of queries), ``VariableElimination.query`` (one engine,
  plans kept
  per query shape), ``JunctionTree.query`` (compiled before the timing), pyAgrum
  (``LazyPropagation``, evidence erased and set per query, ``makeInference``, ``posterior``);
- **batched**: ``query_batch`` of the same evidence sets in one call, each asking for the same
  node, for each of the three bayeskit engines;
- **classifier**: rows sampled from the network, one node the target and every other node
  observed except 10% of the values (missing at random), in one ``query_batch`` call.

The number of queries (and rows) per network is set by a probe so that each engine's run takes
about ``--budget`` seconds (at most ``--queries``); slow networks get fewer. A junction tree
beyond ``max_cells`` (2**27, the default) is not built: ``n/a``, and the default engine uses
variable elimination there. The answers of the engines are compared (largest absolute
difference). ``default / best`` is the default engine's rate over the faster of the two
engines: the target is >= 1 within the noise of a shared machine.

    PYTHONPATH=src python benchmarks/bench_inference.py [--networks DIR] [--repeats 3]
    benchmarks/.venv-peers/bin/python benchmarks/bench_inference.py      # with pyAgrum
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _common import (
    NETWORKS_ENV,
    load_average,
    machine_lines,
    markdown_table,
    networks_folder,
    say,
    write_section,
)

from bayeskit.networks import (
    ExactInference,
    InferenceTooLarge,
    JunctionTree,
    VariableElimination,
    read_bif,
)

TITLE = "Exact inference: the default engine against variable elimination and the junction tree"
ENGINES = ("default", "VE", "JT")


def _queries(net, n: int, seed: int) -> list[tuple[str, dict[str, str]]]:
    rng = np.random.default_rng(seed)
    rows = net.sample(n, seed=seed)
    nodes = list(net.nodes)
    out = []
    for k in range(n):
        size = min(len(nodes), int(rng.integers(3, 6)) + 1)
        chosen = list(rng.choice(nodes, size=size, replace=False))
        target = str(chosen.pop())
        out.append((target, {str(v): str(rows.iloc[k][v]) for v in chosen}))
    return out


def _classifier_rows(net, target: str, n: int, seed: int) -> pd.DataFrame:
    data = net.sample(n, seed=seed).drop(columns=[target]).astype(object)
    return data.mask(np.random.default_rng(seed).random(data.shape) < 0.1)


def _pyagrum(path: Path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pyagrum as gum
    except ImportError:
        return None
    try:
        bn = gum.loadBN(str(path))
    except gum.GumException:  # a file its reader refuses (child's state "Asy/Patch")
        return None
    engine = gum.LazyPropagation(bn)

    def ask(target, evidence):
        engine.eraseAllEvidence()
        engine.setEvidence(evidence)
        engine.makeInference()
        return engine.posterior(target).toarray()

    return ask


def _turn(items: dict, run: int) -> list:
    """The engines in the order of this run: each run starts one further along, so none is
    always first (the first after a pause often runs slower or faster)."""
    pairs = list(items.items())
    k = run % len(pairs)
    return pairs[k:] + pairs[:k]


def _timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _one(name: str, folder: Path, args) -> dict:
    """Every measure of one network (run in a child process)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.bif"
        path.write_bytes(gzip.decompress((folder / f"{name}.bif.gz").read_bytes()))
        net = read_bif(path)
        agrum = _pyagrum(path) if args.peers else None
    out: dict = {"network": name, "nodes": len(net.nodes)}
    compile_s, jt = _timed(lambda: _tree(net))
    out["jt_compile_s"] = compile_s if jt is not None else None
    out["jt_cells"] = jt.n_cells if jt is not None else None
    # the default engine, warmed on other queries (it compiles its tree once that pays)
    default = ExactInference(net)
    if jt is not None:  # the same tree it would compile, once warm (spares a second compile)
        default._tree = jt
    ve = VariableElimination(net)
    askers = {
        "default": lambda t, e: default.query(t, e).values,
        "VE": lambda t, e: ve.query(t, e).values,
    }
    if jt is not None:
        askers["JT"] = lambda t, e: jt.query(t, e).values
    if agrum is not None:
        askers["pyAgrum"] = agrum
    warm = _queries(net, 40, seed=100)
    t_warm = time.perf_counter()
    for t, e in warm:
        default.query(t, e)
        if time.perf_counter() - t_warm > 2 * args.budget:
            break
    for t, e in warm[:3]:  # the kernels loaded
        for ask in askers.values():
            ask(t, e)
    # how many queries fit the budget: the slowest engine on a probe
    probe = _queries(net, 3, seed=99)
    slowest = max(
        _timed(lambda a=ask: [a(t, e) for t, e in probe])[0] / 3 for ask in askers.values()
    )
    n = int(np.clip(args.budget / max(slowest, 1e-9), 3, args.queries))
    out["queries"] = n
    single = {who: [] for who in askers}
    batched = {who: [] for who in ENGINES if who in askers}
    diff = {"single": 0.0, "batched": 0.0}
    for run in range(args.repeats):
        queries = _queries(net, n, seed=run)
        answers = {}
        for who, ask in _turn(askers, run):
            seconds, answers[who] = _timed(lambda a=ask, qs=queries: [a(t, e) for t, e in qs])
            single[who].append(n / seconds)
        for who in answers:
            if who in ENGINES:
                pairs = zip(answers[who], answers["VE"], strict=True)
                diff["single"] = max(
                    diff["single"], *(float(np.abs(a - b).max()) for a, b in pairs)
                )
        target = queries[0][0]
        frame = pd.DataFrame([e for _, e in queries if target not in e])
        frame = frame.drop(columns=[c for c in frame.columns if c == target])
        engines = {"default": default, "VE": ve, "JT": jt}
        results = {}
        for who, _ in _turn(batched, run):
            seconds, results[who] = _timed(
                lambda x=engines[who], t=target, f=frame: x.query_batch(t, f)
            )
            batched[who].append(len(frame) / seconds)
        for who in results:
            diff["batched"] = max(diff["batched"], float(np.abs(
                results[who].to_numpy() - results["VE"].to_numpy()).max()))  # fmt: skip
    out["single"] = {who: float(np.median(r)) for who, r in single.items()}
    out["batched"] = {who: float(np.median(r)) for who, r in batched.items()}
    out["diff"] = diff
    out["classifier"] = _classifier(net, default, ve, jt, args)
    return out


def _classifier(net, default, ve, jt, args) -> dict:
    """Rows per second of the classifier setting: the number of rows set by a probe of 5."""
    target = str(net.nodes[-1])
    engines = {"default": default, "VE": ve}
    if jt is not None:
        engines["JT"] = jt
    probe = _classifier_rows(net, target, 5, seed=50)
    slowest = max(_timed(lambda x=x: x.query_batch(target, probe))[0] / 5 for x in engines.values())
    n = int(np.clip(args.budget / max(slowest, 1e-9), 5, args.rows))
    rates = {who: [] for who in engines}
    for run in range(args.repeats):
        rows = _classifier_rows(net, target, n, seed=run)
        for who, x in _turn(engines, run):
            seconds, _ = _timed(lambda x=x, r=rows: x.query_batch(target, r))
            rates[who].append(n / seconds)
    return {"rows": n, **{who: float(np.median(r)) for who, r in rates.items()}}


def _tree(net):
    try:
        return JunctionTree(net)
    except InferenceTooLarge:
        return None


def _rate(value) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _ratio(rates: dict) -> str:
    best = max(v for k, v in rates.items() if k in ("VE", "JT"))
    return f"{rates['default'] / best:.2f}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=Path, help=f"the .bif.gz folder (or ${NETWORKS_ENV})")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--queries", type=int, default=200, help="the most queries per run")
    ap.add_argument("--rows", type=int, default=20_000, help="the most rows, classifier setting")
    ap.add_argument("--budget", type=float, default=0.5, help="seconds per engine and run")
    ap.add_argument("--only", help="one network, printed as JSON (what each child runs)")
    ap.add_argument("--no-peers", dest="peers", action="store_false", help="leave out pyAgrum")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "alarm.bif.gz")
    if args.only:
        print(json.dumps(_one(args.only, folder, args)))
        return
    before, start = load_average(), time.perf_counter()
    names = sorted(p.name.split(".")[0] for p in folder.glob("*.bif.gz"))
    results = []
    for name in names:
        cmd = [sys.executable, __file__, "--only", name, "--networks", str(folder),
               "--repeats", str(args.repeats), "--queries", str(args.queries),
               "--rows", str(args.rows), "--budget", str(args.budget)]  # fmt: skip
        if not args.peers:
            cmd.append("--no-peers")
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode or not lines:
            say(f"{name}: failed (exit {done.returncode}) {done.stderr[-500:]}")
            continue
        results.append(json.loads(lines[-1]))
        r = results[-1]
        say(name, r["single"], r["batched"], r["classifier"])
    body = _report(results, args, before, start)
    if args.write == "yes" or (args.write == "auto" and len(results) == len(names)):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    print(body)


def _report(results, args, before, start) -> str:
    peers = any("pyAgrum" in r["single"] for r in results)
    single, batched, facts = [], [], []
    for r in results:
        s, b, c = r["single"], r["batched"], r["classifier"]
        single.append([r["network"], str(r["queries"]), _rate(s["default"]), _rate(s["VE"]),
                       _rate(s.get("JT")), _ratio(s)]
                      + ([_rate(s.get("pyAgrum"))] if peers else []))  # fmt: skip
        batched.append([r["network"], _rate(b["default"]), _rate(b["VE"]), _rate(b.get("JT")),
                        _ratio(b), f"{c['rows']:,}", _rate(c["default"]), _rate(c["VE"]),
                        _rate(c.get("JT")), _ratio(c)])  # fmt: skip
        cells = "over max_cells" if r["jt_cells"] is None else f"{r['jt_cells']:,} cells"
        compiled = "" if r["jt_compile_s"] is None else f", compiled in {r['jt_compile_s']:.2f} s"
        facts.append(f"{r['network']}: {r['nodes']} nodes, junction tree {cells}{compiled}; "
                     f"largest difference from VE {max(r['diff'].values()):.1e}")  # fmt: skip
    worst = {
        kind: min((float(_ratio(r[kind])), r["network"]) for r in results if r[kind])  # fmt: skip
        for kind in ("single", "batched", "classifier")
    }
    return "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_inference.py --repeats {args.repeats}`, "
            f"{time.strftime('%Y-%m-%d')}. Queries per second (rows per second when batched), "
            f"median of {args.repeats} runs, each of fresh queries, the engines interleaved; "
            "default = `ExactInference` (the engine of predictions and `network query`), VE = "
            "`VariableElimination`, JT = `JunctionTree`; see the script's docstring.",
            "",
            *machine_lines(("numpy", "numba", "pyagrum")),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            "One query at a time (3-5 evidence nodes):",
            "",
            markdown_table(
                ["network", "queries", "default q/s", "VE q/s", "JT q/s", "default / best"]
                + (["pyAgrum q/s"] if peers else []),
                single,
            ),  # fmt: skip
            "",
            "Batched (one `query_batch` call): the evidence sets above, and the classifier "
            "setting (every other node observed, 10% missing):",
            "",
            markdown_table(
                [
                    "network",
                    "default rows/s",
                    "VE rows/s",
                    "JT rows/s",
                    "default / best",
                    "classifier rows",
                    "default rows/s",
                    "VE rows/s",
                    "JT rows/s",
                    "default / best",
                ],
                batched,
            ),  # fmt: skip
            "",
            *(f"- {f}" for f in facts),
            "",
            "Lowest `default / best`: "
            + "; ".join(f"{k} {v[0]:.2f} ({v[1]})" for k, v in worst.items())
            + ". The target (the default never slower than the faster engine) is met where "
            "this is about 1 or above; below 1 the default chose the slower engine.",
        ]
    )


if __name__ == "__main__":
    main()
