"""Files other tools write, read by bayeskit: pgmpy's and pyAgrum's BIF and XMLBIF writers.

Every network of the collection (``--networks FOLDER`` or ``$BAYESKIT_NETWORKS``: the folder of
``manifest.json`` and the ``.bif.gz`` files, the project's ``shared/networks``) is read by each
peer from its original ``.bif`` and written back by that peer's own writers: pgmpy's
``BIFWriter`` and ``XMLBIFWriter``, pyAgrum's ``saveBN`` to ``.bif`` and ``.bifxml``. bayeskit
then reads every file written (``read_bif``, ``read_xmlbif``) and compares the network with
the original as bayeskit reads it: the same nodes, each node's parents (as a set: pgmpy sorts
the nodes) and states, and the largest difference of a CPT entry after lining up the parents.
A file the peer cannot write (its reader refuses the original) is counted as such; a file
bayeskit refuses is listed with the reason. Run with the peers' environment
(``benchmarks/setup.sh``)::

    benchmarks/.venv-peers/bin/python benchmarks/bench_peer_files.py

``--fixtures DIR`` instead writes the small test fixtures (asia and sachs by each tool in both
formats, and pgmpy's XMLBIF of child, whose states it writes twice) into ``DIR``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _common import (
    NETWORKS_ENV,
    load_average,
    machine_lines,
    markdown_table,
    networks_folder,
    say,
    write_section,
)

from bayeskit.networks import BIFError, RenormalizedCPTWarning, read_bif, read_xmlbif

TITLE = "Reading the BIF and XMLBIF files pgmpy and pyAgrum write"

#: (tool, format) -> the file's suffix; the fixtures' names are NETWORK.TOOL.SUFFIX
FILES = {
    ("pgmpy", "BIF"): "bif",
    ("pgmpy", "XMLBIF"): "xml",
    ("pyagrum", "BIF"): "bif",
    ("pyagrum", "XMLBIF"): "bifxml",
}


def writers() -> dict[str, Callable[[Path, Path, Path], None]]:
    """Per tool: ``write(source_bif, bif_out, xml_out)`` with the tool's own reader and
    writers."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pyagrum as gum
        from pgmpy.readwrite import BIFReader, BIFWriter, XMLBIFWriter

    def pgmpy(source: Path, bif: Path, xml: Path) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pgmpy's deprecation notices
            model = BIFReader(str(source)).get_model()
            BIFWriter(model).write_bif(str(bif))
            XMLBIFWriter(model).write_xmlbif(str(xml))

    def pyagrum(source: Path, bif: Path, xml: Path) -> None:
        bn = gum.loadBN(str(source))
        gum.saveBN(bn, str(bif))
        gum.saveBN(bn, str(xml))

    return {"pgmpy": pgmpy, "pyagrum": pyagrum}


def write_files(source: Path, name: str, folder: Path, tools: dict) -> dict[tuple, str | Path]:
    """Each tool's two files of the network ``source`` in ``folder``: (tool, format) -> the path,
    or why the tool could not write it."""
    out: dict[tuple, str | Path] = {}
    for tool, write in tools.items():
        paths = {fmt: folder / f"{name}.{tool}.{FILES[tool, fmt]}" for fmt in ("BIF", "XMLBIF")}
        try:
            write(source, paths["BIF"], paths["XMLBIF"])
            out.update({(tool, fmt): p for fmt, p in paths.items()})
        except Exception as exc:  # noqa: BLE001 - a peer failing on a file is a result
            why = f"{type(exc).__name__}: {' '.join(str(exc).split())[:100]}"
            out.update({(tool, fmt): why for fmt in paths})
    return out


def difference(net, original) -> float:
    """The largest difference of a CPT entry of ``net`` from ``original``'s, the parents lined
    up; inf when the nodes, parent sets or states differ."""
    if set(net.nodes) != set(original.nodes):
        return float("inf")
    worst = 0.0
    for node in original.nodes:
        parents, theirs = original.dag.parents(node), net.dag.parents(node)
        if set(parents) != set(theirs) or any(
            net.states(v) != original.states(v) for v in (node, *parents)
        ):
            return float("inf")
        axes = [theirs.index(p) for p in parents] + [len(parents)]
        aligned = np.transpose(net.cpt(node), axes)
        worst = max(worst, float(np.abs(aligned - original.cpt(node)).max()))
    return worst


def read(path: Path):
    reader = read_xmlbif if path.suffix in (".xml", ".bifxml") else read_bif
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RenormalizedCPTWarning)
        net = reader(path)
    return net, sum(issubclass(w.category, RenormalizedCPTWarning) for w in caught)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--networks", type=Path, help=f"the collection's folder (or ${NETWORKS_ENV})")
    ap.add_argument("--only", nargs="*", help="network names (default: all)")
    ap.add_argument("--fixtures", type=Path, help="write the test fixtures into this folder")
    ap.add_argument("--write", choices=("auto", "yes", "no"), default="auto")
    args = ap.parse_args(argv)
    folder = networks_folder(args.networks, "manifest.json")
    entries = json.loads((folder / "manifest.json").read_text())["networks"]
    tools = writers()
    if args.fixtures is not None:
        args.fixtures.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            for name in args.only or ("asia", "sachs", "child"):
                source = Path(tmp) / f"{name}.bif"
                source.write_bytes(gzip.decompress((folder / f"{name}.bif.gz").read_bytes()))
                for key, got in write_files(source, name, Path(tmp), tools).items():
                    if isinstance(got, Path) and (name != "child" or key == ("pgmpy", "XMLBIF")):
                        (args.fixtures / got.name).write_bytes(got.read_bytes())
                        say(f"wrote {args.fixtures / got.name}")
        return
    if args.only:
        entries = [e for e in entries if e["name"] in set(args.only)]
    before, start = load_average(), time.perf_counter()
    rows, refused, unwritten = [], [], []
    counts = {key: [0, 0] for key in FILES}  # read, written
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            source = Path(tmp) / f"{e['name']}.bif"
            source.write_bytes(gzip.decompress((folder / e["file"]).read_bytes()))
            original = read_bif(source)
            cells = [e["name"]]
            for key, got in write_files(source, e["name"], Path(tmp), tools).items():
                if not isinstance(got, Path):
                    unwritten.append(f"{e['name']} ({key[0]}: {got})")
                    cells.append("not written")
                    continue
                counts[key][1] += 1
                try:
                    net, warned = read(got)
                except BIFError as exc:
                    refused.append(f"{got.name}: {exc}")
                    cells.append("refused")
                    continue
                counts[key][0] += 1
                cells.append(f"{difference(net, original):.1g}" + (" (renormalized)" * warned))
            rows.append(cells)
            say(" | ".join(cells))
    header = ["network"] + [f"{tool} {fmt}" for tool, fmt in FILES]
    rows.append(["read / written"] + [f"{r} / {w}" for r, w in counts.values()])
    unique_unwritten = sorted(set(unwritten))
    body = "\n".join(
        [
            f"`benchmarks/.venv-peers/bin/python benchmarks/bench_peer_files.py`, "
            f"{time.strftime('%Y-%m-%d')}. Each network of the collection read by each tool and "
            "written by its own writers (pgmpy: `BIFWriter`, `XMLBIFWriter`; pyAgrum: `saveBN` "
            "to `.bif` and `.bifxml`); bayeskit reads every file written. A cell is the largest "
            "difference of a CPT entry from the original's (parents lined up; nodes, parent "
            "sets and states equal), '(renormalized)' where rows summing to 1 only to the digits "
            "printed were divided by their sums (with a warning).",
            "",
            *machine_lines(("numpy", "pgmpy", "pyagrum")),
            f"- load average before / after: {before} / {load_average()}; whole run "
            f"{(time.perf_counter() - start) / 60:.1f} min",
            "",
            markdown_table(header, rows),
            "",
            *(f"- not written: {u}" for u in unique_unwritten),
            *(f"- refused: {r}" for r in refused),
        ]
    )
    if args.write == "yes" or (args.write == "auto" and not args.only):
        write_section(TITLE, body)
        say(f"wrote RESULTS.md section: {TITLE}")
    else:
        print(body)


if __name__ == "__main__":
    main()
