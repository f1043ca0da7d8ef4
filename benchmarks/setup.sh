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
# Run as root on Debian or Ubuntu, it also installs Weka (apt) when it is missing; see the end.
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
# hmmlearn: latest on PyPI on 2026-11-27 (`pip index versions hmmlearn`).
HMMLEARN_VERSION="0.3.3"
# causal-learn: latest on PyPI on 2026-11-27 (`pip index versions causal-learn`).
CAUSALLEARN_VERSION="0.1.4.8"

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip)

"${PIP[@]}" install --quiet -e "$REPO"
"${PIP[@]}" install --quiet "pgmpy==$PGMPY_VERSION" "pyAgrum==$PYAGRUM_VERSION" "hmmlearn==$HMMLEARN_VERSION" \
    "causal-learn==$CAUSALLEARN_VERSION"

# The exact set installed, for the record (the venv folder is ignored by git).
"${PIP[@]}" freeze --exclude-editable > "$VENV/requirements-frozen.txt"

"$VENV/bin/python" - <<'PY'
import importlib.metadata as md

for name in ("bayeskit", "numpy", "pandas", "scikit-learn", "numba", "pgmpy", "pyAgrum", "hmmlearn",
             "causal-learn"):
    print(f"{name:>12} {md.version(name)}")
PY

# Weka (Java), for the comparisons against Weka's NaiveBayes, TAN and AODE: the Debian package
# (Debian 12: Weka 3.6.14, OpenJDK 17), installed here when running as root and missing. The
# benchmarks use /usr/share/java/weka.jar and run their Java drivers as single-file source
# programs (`java Driver.java`), which needs Java 11 or later. SKIP_WEKA=1 leaves it alone.
WEKA_JAR=/usr/share/java/weka.jar
if [ "${SKIP_WEKA:-0}" = "1" ]; then
    echo "Weka: skipped (SKIP_WEKA=1)"
elif [ -f "$WEKA_JAR" ] && command -v java >/dev/null 2>&1; then
    echo "Weka: $WEKA_JAR present"
elif [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Weka: installing the Debian packages weka and default-jre-headless"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq weka default-jre-headless >/dev/null
else
    echo "Weka: not installed ($WEKA_JAR missing). As root on Debian or Ubuntu run:" >&2
    echo "    apt-get update && apt-get install -y weka default-jre-headless" >&2
    echo "(the Weka benchmarks can also be skipped with --no-weka)" >&2
fi
if [ -f "$WEKA_JAR" ] && command -v java >/dev/null 2>&1; then
    printf 'Weka %s, ' "$(unzip -p "$WEKA_JAR" weka/core/version.txt 2>/dev/null || echo '?')"
    java -version 2>&1 | head -n 1
fi
echo "peers ready in $VENV"
