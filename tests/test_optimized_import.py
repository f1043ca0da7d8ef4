"""Every module imports under ``python -OO``, which strips docstrings (``__doc__`` is None):
the class decorators that fill in shared parameter text must not assume a docstring."""

import subprocess
import sys

_SCRIPT = """
import importlib, pkgutil
import bayeskit
failed = []
for info in pkgutil.walk_packages(bayeskit.__path__, "bayeskit."):
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        failed.append(f"{info.name}: {exc!r}")
print("\\n".join(failed))
"""


def test_every_module_imports_without_docstrings():
    done = subprocess.run(
        [sys.executable, "-OO", "-c", _SCRIPT], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""
