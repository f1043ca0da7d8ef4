"""Start-up of the command line: `bayeskit --version` and `--help`, before and after.

Each figure is the wall time of a new process running the console script's entry point
(``bayeskit.cli.main``) with the given arguments, and the modules it imported (``-X importtime``:
the cumulative import time of ``bayeskit.cli`` and which heavy dependencies were loaded). With
``--before REV`` the same is measured for the source tree of a git revision (extracted to a
temporary directory).

    PYTHONPATH=src python benchmarks/bench_cli_startup.py [--before REV] [--repeats N]
        [--write yes]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, load_average, machine_lines, markdown_table, publish, say

COMMANDS = (["--version"], ["--help"], ["evaluate", "--help"])
HEAVY = ("numpy", "pandas", "scipy", "sklearn", "numba")
RUN = "import sys; from bayeskit.cli import main; sys.argv = ['bayeskit', *sys.argv[1:]]; main()"


def _run(src: Path, args: list[str], importtime: bool = False) -> tuple[float, str]:
    flags = ["-X", "importtime"] if importtime else []
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *flags, "-c", RUN, *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "COLUMNS": "100", "PATH": ""},
        check=False,
    )
    return time.perf_counter() - start, done.stderr


def _imports(src: Path) -> tuple[float, list[str]]:
    """Cumulative import time of bayeskit.cli (s) and the heavy modules it imported."""
    _, log = _run(src, ["--version"], importtime=True)
    cli = re.search(r"\|\s*(\d+) \| bayeskit\.cli$", log, flags=re.MULTILINE)
    loaded = {m.split(".")[0] for m in re.findall(r"\|\s+([\w.]+)$", log, flags=re.MULTILINE)}
    return (int(cli.group(1)) / 1e6 if cli else float("nan")), [m for m in HEAVY if m in loaded]


def measure(src: Path, repeats: int) -> dict[str, str]:
    out = {}
    for args in COMMANDS:
        times = [_run(src, args)[0] for _ in range(repeats)]
        out[f"bayeskit {' '.join(args)} s"] = f"{statistics.median(times):.2f}"
    seconds, heavy = _imports(src)
    out["import bayeskit.cli s (-X importtime)"] = f"{seconds:.2f}"
    out["heavy modules imported by --version"] = ", ".join(heavy) or "none"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", help="a git revision to measure too")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", choices=("yes", "no"), default="no")
    args = parser.parse_args()
    load_before = load_average()
    trees = {"this tree": REPO / "src"}
    with tempfile.TemporaryDirectory() as tmp:
        if args.before:
            archive = subprocess.run(
                ["git", "-C", str(REPO), "archive", args.before, "src"],
                capture_output=True,
                check=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            trees = {f"before ({args.before})": Path(tmp) / "src", **trees}
        results = {}
        for name, src in trees.items():
            say(f"measuring {name}")
            _run(src, ["--version"])  # byte-compile once, outside the figures
            results[name] = measure(src, args.repeats)
    rows = [[m, *(results[t][m] for t in results)] for m in next(iter(results.values()))]
    body = "\n".join(
        [
            f"`PYTHONPATH=src python benchmarks/bench_cli_startup.py"
            f"{' --before ' + args.before if args.before else ''} --repeats {args.repeats}`. "
            "Each time is the median over new processes running the console script's entry "
            "point; the import figure is `python -X importtime`'s cumulative time of "
            "`bayeskit.cli` in one such process.",
            "",
            *machine_lines(("numpy", "pandas", "sklearn", "typer")),
            f"- load average (1/5/15 min) before / after: {load_before} / {load_average()}",
            "",
            markdown_table(["measure", *results], rows),
        ]
    )
    publish("Command line start-up: --version and --help", body, args.write == "yes")


if __name__ == "__main__":
    main()
