# Two entry points: `make play` (a game against three bots) and `make test`
# (the whole suite). Each creates the local virtual environment when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

play: $(VENV)/.installed
	$(BIN)/big2 play $(ARGS)

test: $(VENV)/.installed
	$(BIN)/python -m pytest

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
