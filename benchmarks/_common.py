"""Shared helpers for the benchmark scripts: timing, peak memory, machine facts, RESULTS.md.

Timing is the median of N runs measured with ``time.perf_counter``. Peak memory is measured in a
separate, untimed run (tracing slows Python code down), two ways:

* ``traced``: the peak of ``tracemalloc`` during the call, counting only memory allocated after
  the call starts (so the input, built beforehand, is not counted). numpy and pandas buffers are
  traced; memory that compiled code takes with its own ``malloc`` (numba's runtime, some C/Cython
  code) is not.
* ``rss``: growth of the process's resident-set high-water mark (``VmHWM``) over the resident
  size before the call, after resetting the mark through ``/proc/self/clear_refs``. It sees every
  allocation, but also page-cache effects and memory freed but kept by the allocator; ``None``
  where the kernel does not allow the reset (not Linux, or no permission).
"""

from __future__ import annotations

import gc
import os
import platform
import re
import statistics
import subprocess
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
MB = 1e6


def timed_fit_predict(model: Any, X: Any, y: Any, X_test: Any) -> tuple[Any, float, float]:
    """Fit ``model`` on ``(X, y)``, then ``predict_proba(X_test)``, each timed: the
    probabilities, the fit's seconds and the prediction's."""
    t0 = time.perf_counter()
    model.fit(X, y)
    t1 = time.perf_counter()
    proba = model.predict_proba(X_test)
    return proba, t1 - t0, time.perf_counter() - t1


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """``fn()``'s result and the seconds it took (one call)."""
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


@dataclass(frozen=True)
class Timing:
    """Seconds of each run, in order."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def spread(self) -> str:
        return f"{min(self.runs):.3f}-{max(self.runs):.3f}"


def time_runs(fn: Callable[[], Any], repeats: int) -> Timing:
    """Call ``fn`` ``repeats`` times; the seconds of each call (garbage collected before each)."""
    runs = []
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return Timing(tuple(runs))


def time_phases(
    contenders: dict[str, Callable[[], dict[str, float]]], repeats: int
) -> dict[str, dict[str, Timing]]:
    """Time several contenders, interleaved: run 1 of each, then run 2 of each, and so on.

    Each contender is a function that does one run and returns the seconds of each of its named
    phases (say ``fit`` and ``predict_proba``). Interleaving spreads any change in the machine's
    load (other jobs starting or stopping) over all contenders alike. Returns, per contender, a
    :class:`Timing` per phase and ``"total"``: the sum of the phases of each run (so its median
    is the median of the totals, not the sum of the medians).
    """
    per: dict[str, dict[str, list[float]]] = {name: {} for name in contenders}
    for _ in range(repeats):
        for name, fn in contenders.items():
            gc.collect()
            got = fn()
            for k, v in got.items():
                per[name].setdefault(k, []).append(v)
            per[name].setdefault("total", []).append(sum(got.values()))
    return {name: {k: Timing(tuple(v)) for k, v in phases.items()} for name, phases in per.items()}


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_hwm() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def peak_rss() -> int:
    """This process's peak resident memory in bytes: ``VmHWM``, the high-water mark of its own
    address space. ``ru_maxrss`` is no measure for a child process: Linux carries the parent's
    high-water mark across fork and exec, so a child of a large parent reports the parent's."""
    hwm = _status_kb("VmHWM")
    if hwm is not None:
        return hwm * 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@dataclass(frozen=True)
class Memory:
    """Peak extra memory of one call, in bytes (see the module docstring)."""

    traced: int
    rss: int | None


def peak_memory(fn: Callable[[], Any]) -> Memory:
    """Peak memory that ``fn()`` takes beyond what was held before it (one untimed run)."""
    gc.collect()
    rss_ok = _reset_hwm()
    rss_before = _status_kb("VmRSS")
    tracemalloc.start()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    hwm = _status_kb("VmHWM")
    rss = None
    if rss_ok and rss_before is not None and hwm is not None:
        rss = max(hwm - rss_before, 0) * 1024
    return Memory(peak, rss)


# ---------------------------------------------------------------------- machine and versions
def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        m = re.search(r"^Model name:\s*(.+)$", out, flags=re.M)
        if m:
            return m.group(1).strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or platform.machine()


def load_average() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "n/a"


def git_commit() -> str:
    """The commit of the working tree; if files under ``src/`` differ from it, says which."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if not status:
        return sha
    paths = [line[3:] for line in status]
    shown = ", ".join(paths[:6]) + (f" and {len(paths) - 6} more" if len(paths) > 6 else "")
    return f"{sha}, with uncommitted changes under src/ ({shown})"


def versions(*modules: str) -> dict[str, str]:
    """Python and the given packages' versions (``"not installed"`` when absent)."""
    out = {"python": platform.python_version()}
    for name in modules:
        try:
            mod = __import__(name)
            version = getattr(mod, "__version__", None)
            if version is None:  # a module without one: its distribution's metadata
                from importlib.metadata import PackageNotFoundError, packages_distributions
                from importlib.metadata import version as dist_version

                try:
                    version = dist_version(packages_distributions()[name][0])
                except (KeyError, IndexError, PackageNotFoundError):
                    version = "unknown"
            out[name] = str(version)
        except ImportError:
            out[name] = "not installed"
    return out


def machine_lines(modules: tuple[str, ...]) -> list[str]:
    """Markdown bullet lines: CPU, cores, memory, OS, versions, bayeskit commit."""
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1])
    except (OSError, ValueError, IndexError):
        mem = None
    lines = [
        f"- machine: {cpu_model()}, {os.cpu_count()} cores"
        + (f", {mem / 1024 / 1024:.0f} GiB memory" if mem else "")
        + f", {platform.system()} {platform.release()}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in versions(*modules).items()),
        f"- bayeskit commit: {git_commit()}",
    ]
    return lines


# ---------------------------------------------------------------------- output
def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def write_section(title: str, body: str, path: Path = RESULTS) -> None:
    """Put ``## title`` + ``body`` into RESULTS.md, replacing a section of that title if present.

    A section runs from its ``## `` heading to the next ``## `` heading (or the end of the file),
    so other scripts' sections are left as they are.
    """
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    heading = f"## {title}"
    section = f"{heading}\n\n{body.strip()}\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.rstrip("\n") == heading), None)
    if start is None:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        tail = "".join(lines[end:])
        text = "".join(lines[:start]) + section + ("\n" + tail if tail else "")
    path.write_text(text)


#: The environment variable naming the benchmark suite's folder (it holds ``manifest.json``).
SUITE_ENV = "BAYESKIT_SUITE"


def publish(title: str, body: str, write: bool) -> None:
    """Write ``body`` as RESULTS.md's section ``title``, or print it (``--write no``)."""
    if write:
        write_section(title, body)
        say(f"wrote RESULTS.md section: {title}")
    else:
        print(body)


def suite_folder(given: Path | None) -> Path:
    """The folder of the benchmark suite of data sets: ``--data``, else ``$BAYESKIT_SUITE``.

    The suite is not part of the repository (nor of a user's clone): say where it is, or stop
    with a message saying how, rather than guess a path.
    """
    folder = given if given is not None else os.environ.get(SUITE_ENV)
    if folder is None:
        raise SystemExit(
            f"where is the benchmark suite? pass --data FOLDER or set {SUITE_ENV}=FOLDER (the "
            "folder holding manifest.json and the data sets' .csv.gz files)"
        )
    folder = Path(folder)
    if not (folder / "manifest.json").is_file():
        raise SystemExit(f"{folder} holds no manifest.json: not the benchmark suite's folder")
    return folder


#: The environment variable naming the folder of the BIF networks (``alarm.bif.gz``, ...).
NETWORKS_ENV = "BAYESKIT_NETWORKS"


def networks_folder(given: Path | None, need: str = "alarm.bif.gz") -> Path:
    """The folder of the networks: ``--networks``, else ``$BAYESKIT_NETWORKS``; stop with a
    message saying how when it is not given or lacks ``need``."""
    folder = given if given is not None else os.environ.get(NETWORKS_ENV)
    if folder is None or not (Path(folder) / need).is_file():
        raise SystemExit(f"pass --networks FOLDER or set {NETWORKS_ENV} (the folder of {need})")
    return Path(folder)


def say(*args: Any) -> None:
    print(*args, flush=True)
