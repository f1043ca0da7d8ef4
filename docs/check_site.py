"""Check the built documentation site in a real headless browser.

Serves the built HTML on a localhost port, opens every page reachable from ``index.html`` in
headless Chromium (driven by selenium and chromedriver) and fails on:

- an internal link whose target is missing, or whose ``#anchor`` is not an id on the target page;
- an image that is missing or did not load (``naturalWidth == 0``);
- a script, stylesheet or other resource of the site that the server could not serve;
- a JavaScript console error (level SEVERE);
- maths that MathJax could not typeset;
- any request leaving localhost (the site must work offline);
- a gallery page showing a Python traceback or sphinx-gallery's failing-example marks.

Usage::

    python docs/check_site.py [--site docs/_build/html] [--chromium PATH] [--chromedriver PATH]

Prints a summary and exits 1 when anything failed. Needs ``selenium`` (the ``docs`` extra) and
Debian's ``chromium`` and ``chromium-driver`` packages.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

DEFAULT_SITE = Path(__file__).resolve().parent / "_build" / "html"
# folders holding sphinx-gallery output, relative to the site root
GALLERY_DIRS = ("auto_examples/",)
# Flags without which Chromium hangs on connections when the network is closed.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
# Chromium asks for /favicon.ico by itself; the site does not link one.
BROWSER_OWN = ("/favicon.ico",)
LOCAL_SCHEMES = ("data:", "blob:", "about:", "chrome:", "chrome-extension:", "devtools:")

# Run in the page after it loaded: make lazy images load, wait for every image, then report
# links, images, ids, failed resources and the gallery's failure marks.
PAGE_SCRIPT = """
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
imgs.forEach(img => { if (img.loading === 'lazy') img.loading = 'eager'; });
const waitImg = img => img.complete ? Promise.resolve() : new Promise(ok => {
  img.addEventListener('load', ok); img.addEventListener('error', ok);
});
const timeout = new Promise(ok => setTimeout(ok, 5000));
const maths = (window.MathJax && MathJax.startup && MathJax.startup.promise) || Promise.resolve();
const loaded = Promise.all(imgs.map(waitImg).concat([maths.catch(() => null)]));
Promise.race([loaded, timeout]).then(() => {
  const failedResources = performance.getEntriesByType('resource')
    .filter(e => e.responseStatus !== undefined && e.responseStatus >= 400)
    .map(e => ({url: e.name, status: e.responseStatus}));
  const tracebacks = [];
  const blocks = document.querySelectorAll(
    '.sphx-glr-script-out, div.highlight-pytb, div.highlight-py3tb');
  blocks.forEach(b => {
    if (b.matches('div.highlight-pytb, div.highlight-py3tb')
        || b.textContent.includes('Traceback (most recent call last)')) {
      tracebacks.push(b.textContent.trim().split('\\n').slice(-1)[0].slice(0, 200));
    }
  });
  done({
    links: Array.from(document.querySelectorAll('a[href]'))
      .map(a => a.getAttribute('href').startsWith('javascript:') ? null : a.href)
      .filter(h => h),
    images: imgs.map(img => ({src: img.currentSrc || img.src,
                              ok: img.complete && img.naturalWidth > 0})),
    ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id)
      .concat(Array.from(document.querySelectorAll('a[name]')).map(e => e.name)),
    failedResources: failedResources,
    tracebacks: tracebacks,
    // MathJax marks a TeX error with data-mjx-error, and an unknown macro as red text
    mathErrors: Array.from(document.querySelectorAll(
      '[data-mjx-error], mjx-assistive-mml merror, mjx-assistive-mml mtext[mathcolor="red"]'))
      .map(e => (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 200)),
    brokenThumbs: imgs.map(img => img.src).filter(s => s.includes('broken_example')),
  });
});
"""


@dataclass
class Report:
    """What the crawl saw, and every failure as ``(page, kind, target)``."""

    pages: int = 0
    links: int = 0
    images: int = 0
    failures: list[tuple[str, str, str]] = field(default_factory=list)

    def fail(self, page: str, kind: str, target: str) -> None:
        entry = (page, kind, target)
        if entry not in self.failures:
            self.failures.append(entry)


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site quietly and records every response with an error status."""

    errors: list[tuple[str, int, str]]

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def send_response(self, code: int, message: str | None = None) -> None:
        if code >= 400:
            self.errors.append((self.path, code, self.headers.get("Referer", "")))
        super().send_response(code, message)


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, list[tuple[str, int, str]]]:
    """Serve ``site`` on a free localhost port in a thread; return the server and its error log."""
    errors: list[tuple[str, int, str]] = []
    handler = type("Handler", (_Handler,), {"errors": errors})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, errors


def find_program(given: str | None, names: tuple[str, ...], package: str) -> str:
    """The path of ``given`` or of the first of ``names`` on PATH; exit with what to install."""
    for name in (given,) if given else names:
        path = shutil.which(name)
        if path:
            return path
    sys.exit(
        f"check_site: {given or names[0]} not found; install it "
        f"(Debian: sudo apt-get install {package}) or pass its path"
    )


def start_browser(chromium: str, chromedriver: str, profile: str):  # noqa: ANN201
    """Headless Chromium driven by chromedriver, logging the console and the network."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        sys.exit("check_site: selenium is missing; pip install 'selenium>=4' (the docs extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    return driver


def site_path(site: Path, url: str, base: str) -> Path | None:
    """The file that serves ``url`` (no fragment), or None when ``url`` is outside the site."""
    if not url.startswith(base):
        return None
    path = site / unquote(urlsplit(url).path).lstrip("/")
    return path / "index.html" if path.is_dir() else path


def outside_requests(log: list[dict], base: str) -> list[str]:
    """URLs of the network requests in a performance log that leave ``base``."""
    urls = []
    for entry in log:
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.requestWillBeSent":
            continue
        url = message["params"]["request"]["url"]
        if not url.startswith(base) and not url.startswith(LOCAL_SCHEMES):
            urls.append(url)
    return urls


def check_page(driver, url: str, base: str, report: Report) -> dict:  # noqa: ANN001
    """Open ``url``, record its own failures, and return what ``PAGE_SCRIPT`` found."""
    page = url[len(base) :] or "index.html"
    driver.get(url)
    found = driver.execute_async_script(PAGE_SCRIPT)
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE" and not any(own in entry["message"] for own in BROWSER_OWN):
            report.fail(page, "console error", entry["message"][:300])
    for target in outside_requests(driver.get_log("performance"), base):
        report.fail(page, "request leaving localhost", target)
    for resource in found["failedResources"]:
        if urlsplit(resource["url"]).path not in BROWSER_OWN:
            report.fail(page, f"resource failed (HTTP {resource['status']})", resource["url"])
    if page.startswith(GALLERY_DIRS):
        for last_line in found["tracebacks"]:
            report.fail(page, "example raised (traceback shown)", last_line)
    for message in found["mathErrors"]:
        report.fail(page, "maths failed to render", message)
    for src in found["brokenThumbs"]:
        report.fail(page, "failing example thumbnail", src)
    return found


def check_site(site: Path, chromium: str, chromedriver: str) -> Report:
    """Crawl ``site`` from its index.html in the browser and return the report."""
    report = Report()
    server, server_errors = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    anchors: list[tuple[str, str, str]] = []  # (page, target page url, fragment)
    ids: dict[str, set[str]] = {}
    with tempfile.TemporaryDirectory(prefix="check-site-profile-") as profile:
        driver = start_browser(chromium, chromedriver, profile)
        try:
            queue, seen = deque([base + "index.html"]), {base + "index.html"}
            while queue:
                url = queue.popleft()
                found = check_page(driver, url, base, report)
                report.pages += 1
                page = url[len(base) :]
                ids[url] = set(found["ids"])
                for img in found["images"]:
                    report.images += 1
                    if not img["ok"]:
                        report.fail(page, "image missing or not loaded", img["src"])
                for link in found["links"]:
                    target, fragment = urldefrag(link)
                    path = site_path(site, target, base)
                    if path is None:
                        continue  # outside the site: not followed
                    report.links += 1
                    if not path.is_file():
                        report.fail(page, "broken link", link[len(base) :])
                        continue
                    if path.name == "index.html" and not target.endswith(".html"):
                        target = target.rstrip("/") + "/index.html"
                    if fragment:
                        anchors.append((page, target, fragment))
                    if path.suffix == ".html" and target not in seen:
                        seen.add(target)
                        queue.append(target)
        finally:
            driver.quit()
            server.shutdown()
    for page, target, fragment in anchors:
        if target in ids and unquote(fragment) not in ids[target]:
            report.fail(page, "missing anchor", f"{target[len(base) :]}#{fragment}")
    for path, code, referer in server_errors:
        if path in BROWSER_OWN:
            continue
        page = referer[len(base) :] if referer.startswith(base) else "?"
        report.fail(page, f"server answered {code}", path)
    return report


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: check the site, print the summary, return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=DEFAULT_SITE, help="the built HTML folder")
    parser.add_argument("--chromium", help="the Chromium binary (default: chromium on PATH)")
    parser.add_argument("--chromedriver", help="chromedriver (default: chromedriver on PATH)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        sys.exit(f"check_site: {args.site / 'index.html'} not found; build the site (make docs)")
    chromium = find_program(args.chromium, ("chromium", "chromium-browser"), "chromium")
    chromedriver = find_program(args.chromedriver, ("chromedriver",), "chromium-driver")
    start = time.perf_counter()
    report = check_site(args.site.resolve(), chromium, chromedriver)
    print(
        f"checked {report.pages} pages, {report.links} internal links, {report.images} images "
        f"in {time.perf_counter() - start:.0f} s"
    )
    for page, kind, target in report.failures:
        print(f"FAIL {page}: {kind}: {target}")
    print(f"{len(report.failures)} failure(s)" if report.failures else "no failures")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
