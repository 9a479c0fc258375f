# Entry points (each creates the local virtual environment when missing):
#   make play       a game in the terminal against three bots; installs only the
#                   runtime package (click, NumPy, tqdm)
#   make test       the suite on both cores (pytest-xdist), without the full-size
#                   reference sweeps (marker `slow`) and the exhaustive checks (marker
#                   `nightly`); about 5 minutes on 2 cores
#   make test-fast  the quick part of it, for the edit-test loop (under 90 s):
#                   no sweeps, server, browser, environment, bot, poker or doc-command
#                   tests
#   make test-slow  the full-size reference sweeps and the exhaustive checks alone
#   make test-all   everything, as CI runs it (.ci/run)
# The test targets install the `test` extra; the svg and browser tests also need
# Debian's chromium (see README, "Tests"). Installing builds the compiled core
# (big2._native, C++17) with the machine's C++ compiler; a change to its sources
# (CMakeLists.txt, src/native/) rebuilds it on the next make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
JOBS ?= 2
PYTEST := $(BIN)/python -m pytest -n $(JOBS) --dist loadgroup
# the quick part: no reference sweeps (their files, and marker `sweep`: make test's
# share of the others), no browser or server, no environments, bots or poker, no doc
# commands
FAST := -m "not slow and not nightly and not sweep" --ignore=tests/core/test_legal_vs_reference.py \
	--ignore=tests/core/test_random_deals.py --ignore=tests/server --ignore=tests/env \
	--ignore=tests/bots --ignore=tests/poker --ignore=tests/cli/test_doc_commands.py \
	--ignore=src/big2/server --ignore=src/big2/learn --ignore=src/big2/poker

.PHONY: play test test-fast test-slow test-all bench clean

NATIVE := CMakeLists.txt $(wildcard src/native/*)

$(BIN)/activate:
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || \
	  { echo "make: $(PYTHON) cannot create .venv: apt-get install python3-venv"; exit 1; }
	@command -v c++ >/dev/null || command -v g++ >/dev/null || \
	  { echo "make: no C++ compiler to build big2._native: apt-get install g++"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# the runtime package alone
$(VENV)/.runtime: pyproject.toml $(NATIVE) $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

# the runtime package with the test extra (which holds the runtime too)
# (and PyTorch's CPU build for the trainer's tests: 2.13.0 lies on the development and CI
# machines' disk, so pip takes it from there instead of downloading a CUDA build)
$(VENV)/.installed: pyproject.toml $(NATIVE) $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet 'torch==2.13.0'
	touch $@ $(VENV)/.runtime

play: $(VENV)/.runtime
	$(BIN)/big2 play $(ARGS)

test: $(VENV)/.installed
	$(PYTEST) -m "not slow and not nightly"

test-fast: $(VENV)/.installed
	$(PYTEST) $(FAST)

test-slow: $(VENV)/.installed
	$(PYTEST) -m "slow or nightly"

test-all: $(VENV)/.installed
	$(PYTEST)

bench: $(VENV)/.runtime
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
