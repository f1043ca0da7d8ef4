#!/usr/bin/env bash
# Create benchmarks/.venv-peers: bayeskit (editable, from this checkout) plus the peer libraries
# that the comparison benchmarks run against, pinned to exact versions so that a result in
# RESULTS.md can be reproduced. Peers are for benchmarking only: they are never dependencies of
# bayeskit (pyproject.toml does not name them) and nothing under src/ imports them.
#
#   bash benchmarks/setup.sh                  # uses python3 from PATH
#   PYTHON=/usr/bin/python3.11 bash benchmarks/setup.sh
#
# Then run a benchmark with benchmarks/.venv-peers/bin/python benchmarks/bench_<name>.py.
# Re-running the script reuses the environment and re-applies the pins.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
VENV="$HERE/.venv-peers"
PYTHON="${PYTHON:-python3}"

# Latest releases on PyPI on 2026-11-22 (`pip index versions pgmpy`, `pip index versions pyAgrum`).
# Change a pin deliberately, and note the new version with the results it produced.
PGMPY_VERSION="1.1.2"
PYAGRUM_VERSION="3.3.1"

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip)

"${PIP[@]}" install --quiet -e "$REPO"
"${PIP[@]}" install --quiet "pgmpy==$PGMPY_VERSION" "pyAgrum==$PYAGRUM_VERSION"

# The exact set installed, for the record (the venv folder is ignored by git).
"${PIP[@]}" freeze --exclude-editable > "$VENV/requirements-frozen.txt"

"$VENV/bin/python" - <<'PY'
import importlib.metadata as md

for name in ("bayeskit", "numpy", "pandas", "scikit-learn", "numba", "pgmpy", "pyAgrum"):
    print(f"{name:>12} {md.version(name)}")
PY

# Weka (Java), for the comparisons against Weka's NaiveBayes, TAN and AODE, is not installed here:
# it needs root and a Java runtime. On Debian or Ubuntu:
#   apt-get update && apt-get install -y weka default-jre-headless
# (Debian 12: Weka 3.6.14, OpenJDK 17; bench_defaults.py uses /usr/share/java/weka.jar and runs
# its Java driver as a single-file source program, which needs Java 11 or later.)
echo "peers ready in $VENV"
