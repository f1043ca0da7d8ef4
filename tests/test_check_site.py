"""docs/check_site.py on small hand-written sites: a clean one passes, each planted fault fails.

Runs headless Chromium, so it is skipped where chromium, chromedriver or selenium is missing.
"""

import base64
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "check_site.py"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PAGE = "<!DOCTYPE html><html><head><title>t</title></head><body>{}</body></html>"

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None
    or shutil.which("chromedriver") is None
    or importlib.util.find_spec("selenium") is None,
    reason="needs chromium, chromedriver and selenium",
)


def _site(root: Path, index: str, example: str = "<pre>ok</pre>") -> Path:
    (root / "auto_examples").mkdir(parents=True)
    (root / "fig.png").write_bytes(PNG)
    (root / "index.html").write_text(PAGE.format(index))
    other = '<h1 id="top">Other</h1><a href="index.html">i</a>'
    (root / "other.html").write_text(PAGE.format(other))
    (root / "auto_examples" / "plot_a.html").write_text(PAGE.format(example))
    return root


def _check(site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--site", str(site)],
        capture_output=True,
        text=True,
        timeout=300,
    )


GOOD_INDEX = (
    '<a href="other.html#top">o</a> <a href="auto_examples/plot_a.html">e</a> '
    '<img src="fig.png" alt="f"> <a href="https://example.org/">outside, not followed</a>'
)


def test_clean_site_passes(tmp_path):
    result = _check(_site(tmp_path, GOOD_INDEX))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "checked 3 pages" in result.stdout
    assert "no failures" in result.stdout


def test_each_planted_fault_fails(tmp_path):
    index = GOOD_INDEX + (
        '<a href="missing.html">gone</a> <a href="other.html#nowhere">bad anchor</a> '
        '<img src="lost.png" alt="lost"> <script src="_static/gone.js"></script>'
        '<link rel="stylesheet" href="http://cdn.invalid/theme.css">'
    )
    traceback = (
        '<div class="sphx-glr-script-out highlight-pytb"><pre>Traceback (most recent call last):\n'
        '  File "plot_a.py", line 1, in &lt;module&gt;\nValueError: boom</pre></div>'
    )
    result = _check(_site(tmp_path, index, traceback))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "index.html: broken link: missing.html" in out
    assert "index.html: missing anchor: other.html#nowhere" in out
    assert "index.html: image missing or not loaded: http://127.0.0.1:" in out
    assert "/lost.png" in out
    assert "index.html: server answered 404: /_static/gone.js" in out
    assert "index.html: request leaving localhost: http://cdn.invalid/theme.css" in out
    assert "auto_examples/plot_a.html: example raised (traceback shown): ValueError: boom" in out
