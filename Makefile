# The two commands of the README (`make report`, `make test`) set up everything they need:
# a virtual environment in .venv with the project and its development extras.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
REPORT_DIR ?= reports

# make test runs the suite on this many pytest-xdist workers (conftest.py keeps each module's
# tests together on one worker); 1 runs it in one process.
TEST_WORKERS ?= 2

.PHONY: help venv assets browser test test-deep style lint format report notebooks bench soak clean

help:
	@echo "make report   run the notebooks against the embedded sample service, write HTML to $(REPORT_DIR)/"
	@echo "              (offline pages and the API reference in $(REPORT_DIR)/api)"
	@echo "make test     the style checks, then the whole test suite (the type check, the notebooks"
	@echo "              and the browser tests included)"
	@echo "make lint     the style checks (ruff) and the type check (mypy)"
	@echo "make test-deep  the suite with the randomized tests run long (5,000 client chaos seeds,"
	@echo "              300 archive chaos seeds, 100 kill trials, 50 whole-view sequences,"
	@echo "              20 fault seeds of a 56-day fetch;"
	@echo "              tests/depth.py): hours"
	@echo "make assets   fetch the report's web files (pinned npm packages) into build/report-assets"
	@echo "make notebooks  re-execute the notebooks in place (their committed outputs)"
	@echo "make bench    performance measurements (benchmarks/)"
	@echo "make soak     a one-minute loopback soak test of the reference service"

# uv (from PyPI, through pip) installs the same versions as pip in a third of the time on a fresh
# machine (112 s -> 38 s measured: parallel downloads and installs); where it cannot be
# installed, pip does the work. uv leaves the bytecode to the first import, which compiles the
# modules a run uses: compiling all of the environment's 1.4 GB at install took 35 s of the
# 44 s an install from uv's cache takes on 2 cores, for modules most runs never import.
INSTALL = $(BIN)/uv pip install --quiet --python $(BIN)/python

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet 'uv>=0.9' || $(BIN)/python -m pip install --quiet --upgrade pip
	if [ -x $(BIN)/uv ]; then $(INSTALL) -e '.[dev,archive]'; \
	else $(BIN)/python -m pip install --quiet -e '.[dev,archive]'; fi
	# chicken-dinner 0.11.0 (tests/thirdparty/test_pubg_clients.py) pins click<8.0, which dask's
	# click>=8.1 excludes; its API client needs only requests and tabulate, so it is installed
	# without its dependencies (and so cannot be in the dev extra).
	if [ -x $(BIN)/uv ]; then $(INSTALL) --no-deps 'chicken-dinner==0.11.0' 'tabulate>=0.8.3'; \
	else $(BIN)/python -m pip install --quiet --no-deps 'chicken-dinner==0.11.0' 'tabulate>=0.8.3'; fi
	touch $(STAMP)

venv: $(STAMP)

# The web files the report's pages load (widget manager, require.js, MathJax), at pinned versions
# and integrities, fetched with `npm pack` (see matchkit/report/assets.py); a no-op once there.
assets: venv
	@command -v npm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& { apt-get update -qq && apt-get install -y -qq npm; } >/dev/null 2>&1; } \
		|| echo "npm is not installed: the next step fails unless build/report-assets is complete"
	$(BIN)/python -m matchkit.report.assets

# tests/browser drives Debian's chromium through playwright (never `playwright install`).
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& { apt-get update -qq && apt-get install -y -qq chromium; } >/dev/null 2>&1; } \
		|| echo "chromium is not installed: tests/browser skips (and fails under CI=true)"

style: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy reads its configuration (files = matchkit) from pyproject.toml's [tool.mypy]. `make test`
# runs it as a test (tests/test_types.py), on a worker beside the others: run before them, it
# kept one core of two idle for its 30 s.
lint: style
	$(BIN)/mypy

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Bytecode is written (into git-ignored __pycache__ folders) even where the environment says
# PYTHONDONTWRITEBYTECODE: the suite starts about 50 Python processes (its workers, notebook
# kernels, command-line runs), and without .pyc files each one compiled matchkit from source and
# each worker rewrote every test module's asserts again (collection: 24 s a worker, 14 s with
# them).
test test-deep report notebooks: export PYTHONDONTWRITEBYTECODE :=

test: style assets browser
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

test-deep: style assets browser
	MATCHKIT_TEST_DEEP=1 $(BIN)/python -m pytest -n $(TEST_WORKERS)

report: assets
	$(BIN)/matchkit report --out $(REPORT_DIR) --overwrite

# Re-execute the notebooks in place after a change of their outputs (nbval compares them).
notebooks: venv
	MATCHKIT_CACHE_DIR=$$(mktemp -d) $(BIN)/python -c "from matchkit.report import refresh_notebooks; refresh_notebooks()"

# wrk (Debian) drives the service benchmark when it can be installed; else a Python load generator.
bench: venv
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
		&& { apt-get update -qq && apt-get install -y -qq wrk; } >/dev/null 2>&1; } \
		|| echo "wrk is not installed: the service benchmark uses its Python load generator"
	$(BIN)/python -m benchmarks

soak: venv
	$(BIN)/python -m benchmarks.soak

clean:
	rm -rf $(VENV) $(REPORT_DIR) build/report-assets .pytest_cache .ruff_cache
