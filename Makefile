# qforge developer commands. Everything installs into .venv; all runtime state goes to QFORGE_HOME.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export QFORGE_HOME ?= $(CURDIR)/.qforge

.PHONY: install run test test-fast lint format bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## run: build today's paper offline, then serve it on http://127.0.0.1:8000
run: $(STAMP)
	$(BIN)/qforge nightly
	$(BIN)/qforge api --host 127.0.0.1 --port 8000

## test: install (or update) .venv and run the whole test suite, with its 15 slowest steps
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile --durations=15

## test-fast: the suite without the `system` tests (whole nightlies, subprocesses, browser, fuzzing)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not system" --hypothesis-profile fast -p no:schemathesis

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy core kb pipeline site_builder flows api_stub bench scripts tests

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## bench: the benchmarks described in BENCHMARKS.md (they print their figures and baselines)
bench: $(STAMP)
	$(BIN)/python -m bench.retrieval
	$(BIN)/python -m bench.generation
	$(BIN)/python -m bench.assembly
	$(BIN)/python -m bench.maxflow
	$(BIN)/python -m bench.export
	$(BIN)/python -m bench.worker
	$(BIN)/python -m bench.llm
	$(BIN)/python -m bench.storage
	$(BIN)/python -m bench.libraries
	$(BIN)/python -m bench.figures_circuit
	$(BIN)/python -m bench.calibration
	$(BIN)/python -m bench.feedback

clean:
	rm -rf $(VENV) .qforge .pytest_cache .mypy_cache .ruff_cache
