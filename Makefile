# Two commands set everything up on a fresh machine: `make demo` and `make test` (`make docs`
# builds the site).
# Each installs what it needs into .venv and records it in its own stamp, so either may run
# first: `make demo` installs bayeskit alone, `make test` adds the test extras (pytest, hypothesis,
# dask, matplotlib, ruff, mypy). Editing pyproject.toml makes each install again.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
DOCS_STAMP := $(VENV)/.installed-docs
SPHINXBUILD = $(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

.PHONY: demo test lint docs docs-fast check-site clean venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DEMO_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(DOCS_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	touch $@

venv: $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/bayeskit compare

test: $(TEST_STAMP)
	$(BIN)/python -m pytest -n 2 -q

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/python -m mypy

# The site (docs/_build/html/index.html), warnings as errors; docs-fast skips running the gallery.
docs: $(DOCS_STAMP)
	$(SPHINXBUILD)

docs-fast: $(DOCS_STAMP)
	$(SPHINXBUILD) -D plot_gallery=0

# Opens the built site (run `make docs` first; this does not rebuild) in headless Chromium and
# fails on a broken link, anchor or image, a console error, a request leaving localhost, or a
# gallery example that raised. Needs Debian's chromium and chromium-driver.
check-site: $(DOCS_STAMP)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  echo "check-site needs Chromium and chromedriver: sudo apt-get install chromium chromium-driver" >&2; \
	  exit 1; }
	$(BIN)/python docs/check_site.py

clean:
	rm -rf $(VENV) build dist .pytest_cache docs/_build docs/api/generated docs/auto_examples
