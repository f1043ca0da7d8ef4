"""Reading and writing BIF files: bayeskit against pgmpy and pyAgrum (issue 13).

Every network of the collection (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``: the folder of
``manifest.json`` and the ``.bif.gz`` files, the project's ``shared/networks``) is unpacked once
into a temporary folder; each library then reads the same uncompressed ``.bif`` (bayeskit's
``read_bif``, pgmpy's ``BIFReader(path).get_model()``, pyAgrum's ``loadBN``) and writes its
network back (``write_bif``, ``BIFWriter.write_bif``, ``saveBN``). Median of ``--repeats``
runs (a single run for a peer past ``--slow`` seconds on its first). Run with the peers'
environment (``benchmarks/setup.sh``)::

    benchmarks/.venv-peers/bin/python benchmarks/bench_network_io.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
import time
import warnings
from pathlib import Path

from _common import (
    NETWORKS_ENV,
    load_average,
    machine_lines,
    markdown_table,
    networks_folder,
    say,
    time_runs,
    write_section,
)

from bayeskit.networks import read_bif, write_bif

TITLE = "Reading and writing BIF files (issue 13)"


def _peers():
    out = {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pgmpy.readwrite import BIFReader, BIFWriter
        out["pgmpy"] = (
            lambda p: BIFReader(str(p)).get_model(),
            lambda m, p: BIFWriter(m).write_bif(str(p)),
        )
    except ImportError as exc:
        say(f"pgmpy: not installed ({exc})")
    try:
        import pyagrum as gum

        out["pyAgrum"] = (lambda p: gum.loadBN(str(p)), lambda m, p: gum.saveBN(m, str(p)))
    except ImportError as exc:
        say(f"pyAgrum: not installed ({exc})")
    return out


def _timed(fn, repeats: int, slow: float) -> float:
    first = time_runs(fn, 1).median
    if first > slow or repeats == 1:
        return first
    return time_runs(fn, repeats - 1).median if repeats > 1 else first


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=Path, help=f"the collection's folder (or ${NETWORKS_ENV})")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--slow", type=float, default=20.0, help="one run past this many seconds")
    ap.add_argument("--only", nargs="*", help="network names (default: all)")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "manifest.json")
    entries = json.loads((folder / "manifest.json").read_text())["networks"]
    if args.only:
        entries = [e for e in entries if e["name"] in set(args.only)]
    peers = _peers()
    before = load_average()
    start = time.perf_counter()
    rows, totals = [], {"bayeskit": [0.0, 0.0], **{k: [0.0, 0.0] for k in peers}}
    failed: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            path = Path(tmp) / f"{e['name']}.bif"
            path.write_bytes(gzip.decompress((folder / e["file"]).read_bytes()))
            out = Path(tmp) / "out.bif"
            net = read_bif(path)
            read_s = {"bayeskit": _timed(lambda p=path: read_bif(p), args.repeats, args.slow)}
            write_s = {
                "bayeskit": _timed(lambda n=net, o=out: write_bif(n, o), args.repeats, args.slow)
            }
            for name, (reader, writer) in peers.items():
                try:
                    model = reader(path)
                    read_s[name] = _timed(lambda r=reader, p=path: r(p), args.repeats, args.slow)
                    write_s[name] = _timed(
                        lambda w=writer, m=model, o=out: w(m, o), args.repeats, args.slow
                    )
                except Exception as exc:  # noqa: BLE001 - a peer failing on a file is a result
                    say(f"{name} on {e['name']}: {type(exc).__name__}: {str(exc)[:120]}")
                    failed.setdefault(name, []).append(e["name"])
                    read_s[name] = write_s[name] = float("nan")
            for k in totals:
                totals[k][0] += read_s.get(k, float("nan"))
                totals[k][1] += write_s.get(k, float("nan"))
            cells = [e["name"], str(e["nodes"]), str(e["parameters"])]
            for k in totals:
                cells += [
                    f"{read_s.get(k, float('nan')):.3f}",
                    f"{write_s.get(k, float('nan')):.3f}",
                ]
            rows.append(cells)
            say(" ".join(cells))
    header = ["network", "nodes", "parameters"]
    for k in totals:
        header += [f"{k} read s", f"{k} write s"]
    rows.append(["all", "", ""] + [f"{v:.2f}" for k in totals for v in totals[k]])
    peers_line = ", ".join(f"{k}" for k in peers) or "none installed"
    body = "\n".join(
        [
            f"`benchmarks/.venv-peers/bin/python benchmarks/bench_network_io.py`, "
            f"{time.strftime('%Y-%m-%d')}. Every network of the collection, unpacked once; each "
            f"library reads the same `.bif` and writes its network back; median of "
            f"{args.repeats} runs (one past {args.slow:g} s). Peers: {peers_line}.",
            "",
            *machine_lines(("numpy", "pgmpy", "pyagrum")),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            markdown_table(header, rows),
            "",
            *(
                f"nan: {k} refused these files (an error, not a time): {', '.join(v)}."
                for k, v in failed.items()
            ),
        ]
    )
    if args.write == "yes" or (args.write == "auto" and not args.only):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


if __name__ == "__main__":
    main()
