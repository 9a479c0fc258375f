# Entry points (each sets up what it needs first: the Debian packages it lacks, through
# scripts/system-packages.sh, then the local virtual environment .venv):
#   make play          a game in the terminal against three bots; installs only the
#                      runtime package (click, NumPy, tqdm)
#   make test          README's second command: the suite in three pytest-xdist workers,
#                      browser and PostgreSQL included, a share of every sweep
#   make test-fast     the edit-test loop (about 30 s, two workers): core, rules, records, command line
#                      and a share of the bots; no server, browser, environments or sweeps
#   make typecheck     mypy --strict on src/big2 (CI runs it as a step of its own)
#   make lint          ruff check over the whole tree, 0 findings (CI runs it too)
#   make test-nightly  the exhaustive sweeps and enumerations alone (marker `nightly`)
#   make test-all      make test, then make test-nightly: every test there is
#   make docs          the documentation site (MkDocs, mkdocs.yml) into site/, with --strict
#   make dist          the release files in dist/: the sdist and a manylinux_2_17 wheel
#   make ci            what .ci/run runs: make test, make typecheck, make lint, make docs and a slice
#                      of the nightly set that turns with the day (NIGHTLY_SLICE=K/N picks one)
# Installing builds the compiled core (big2._native, C++17) with the machine's C++
# compiler; a change to its sources (CMakeLists.txt, src/native/) rebuilds it on the next
# make.
PYTHON ?= python3
# bytecode is written (where the environment says not to): each of the suite's processes
# (the workers, the commands the tests start) would otherwise compile src/big2 and the
# tests again, about 4 s of CPU each
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
JOBS ?= 3
PYTEST_ON := $(BIN)/python -m pytest --dist loadgroup --no-loadscope-reorder -n
PYTEST := $(PYTEST_ON) $(JOBS)
# make test-fast: two workers (its tests wait on nothing, so a third only adds its own
# start-up and collection: 31.3 s wall and 55.5 s CPU with three, 30.7 s and 50.6 s with two)
FAST_JOBS ?= 2
# the bot tests that play many deals or start other processes: make test runs them
SLOW_BOTS := test_arena_paired.py test_arena_protocol.py test_belief.py test_arena_leads.py \
	test_expert_analyse.py test_house_rule_bots.py test_protocol_wild.py test_endgame.py \
	test_policy_net.py test_native_heuristic.py test_levels.py test_policy_native.py \
	test_search_decide.py test_search_exact_leaves.py
# the edit-test loop: no sweeps (marker `sweep`: make test's share of them; `nightly`: the
# rest), no browser, server, environment or poker, no training or documentation commands,
# and of the bots only their quick tests
FAST := -m "not nightly and not sweep" \
	--ignore=tests/core/test_legal_vs_reference.py --ignore=tests/core/test_random_deals.py \
	--ignore=tests/server --ignore=tests/env --ignore=tests/poker --ignore=tests/learn \
	--ignore=tests/research --ignore=research \
	--ignore=tests/cli/test_doc_commands.py --ignore=tests/records/test_svg.py \
	--ignore=src/big2/server --ignore=src/big2/learn --ignore=src/big2/poker \
	$(foreach f,$(SLOW_BOTS),--ignore=tests/bots/$(f))
# CI's slice of the nightly set: one of NIGHTLY_SLICES parts, turning with the day
NIGHTLY_SLICES ?= 28
NIGHTLY_SLICE ?= $(shell echo $$(( $$(date +%j | sed 's/^0*//') % $(NIGHTLY_SLICES) )))/$(NIGHTLY_SLICES)

.PHONY: play test test-fast typecheck lint test-nightly test-all ci bench clean system-play \
	system-test docs dist

NATIVE := CMakeLists.txt $(wildcard src/native/*)

system-play:
	@sh scripts/system-packages.sh play

system-test:
	@sh scripts/system-packages.sh test

$(BIN)/activate:
	@sh scripts/system-packages.sh play
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# the runtime package alone
$(VENV)/.runtime: pyproject.toml $(NATIVE) $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

# the runtime package with the test extra (which holds the runtime too), the docs extra
# (MkDocs) and the dist extra (build, Zig's compiler, auditwheel)
# (and PyTorch's CPU build for the trainer's tests: 2.13.0 lies on the development and CI
# machines' disk, so pip takes it from there instead of downloading a CUDA build)
$(VENV)/.installed: pyproject.toml $(NATIVE) $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test,docs,dist]'
	$(BIN)/pip install --quiet 'torch==2.13.0'
	touch $@ $(VENV)/.runtime

play: system-play $(VENV)/.runtime
	$(BIN)/big2 play $(ARGS)

test: system-test $(VENV)/.installed
	$(PYTEST) -m "not nightly"

# one BLAS/OpenMP thread a worker: the xdist workers are the parallelism (27.8-29.6 s against
# 30.4-31.2 s idle on 2026-12-07; `make test` measured no gain)
test-fast: system-play $(VENV)/.installed
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(PYTEST_ON) $(FAST_JOBS) $(FAST)

typecheck: system-play $(VENV)/.installed
	$(BIN)/python -m mypy

# ruff over the whole tree (the rules: pyproject's [tool.ruff]); make ci runs it
lint: system-play $(VENV)/.installed
	$(BIN)/ruff check .

test-nightly: system-test $(VENV)/.installed
	$(PYTEST) -m nightly

test-all: test test-nightly

docs: system-play $(VENV)/.installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --quiet

# The sdist, and from it a wheel whose C++ Zig's clang compiles against glibc 2.17
# (scripts/zig-c++), which auditwheel checks and tags manylinux_2_17 (it fails on a symbol
# newer than the tag allows). The core keeps its run-time CPU dispatch (src/native/hot.hpp),
# with GCC's libgcc.a for the CPU detection (BIG2_CPU_MODEL_LIB, CMakeLists.txt).
# (DIST and DIST_BUILD: where the release files and the unrepaired wheel go; the wheel test
# builds into its own folder)
DIST_PLAT ?= manylinux_2_17_x86_64
DIST ?= dist
DIST_BUILD ?= build/dist
dist: system-play $(VENV)/.installed
	rm -rf $(DIST) $(DIST_BUILD)
	BIG2_ZIG_PYTHON=$(CURDIR)/$(BIN)/python CC=$(CURDIR)/scripts/zig-cc \
		CXX=$(CURDIR)/scripts/zig-c++ BIG2_CPU_MODEL_LIB=$$(gcc -print-libgcc-file-name) \
		$(BIN)/python -m build --outdir $(DIST_BUILD) .
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m auditwheel repair --plat $(DIST_PLAT) \
		--wheel-dir $(DIST) $(DIST_BUILD)/*.whl
	cp $(DIST_BUILD)/*.tar.gz $(DIST)/
	ls -l $(DIST)

# (the release tests, marker `release`, build the wheel and sdist: make test-nightly runs them)
ci: test typecheck lint docs
	$(PYTEST) -m "nightly and not release" --nightly-slice $(NIGHTLY_SLICE)

bench: $(VENV)/.runtime
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build dist site *.egg-info src/*.egg-info
