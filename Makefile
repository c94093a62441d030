# balance: two commands set everything up on a fresh machine with Python 3.11+ and make.
#   make demo   creates .venv, installs, compiles Carnage's kernel (once), runs the main job (a car-cost sweep and its report)
#   make test   creates .venv, installs with test extras, checks the layering (lint-imports), compiles the games, runs the whole suite in two processes

PYTHON ?= python3
# make bench also measures games/s per thread against this commit (AGAINST= skips it)
AGAINST ?= 7c2510d
# make test runs the suite in this many processes (pytest-xdist; the CI machine has 2 cores)
TEST_WORKERS ?= 2
VENV   ?= .venv
BIN     = $(VENV)/bin
PY      = $(BIN)/python
STAMP   = $(VENV)/.installed
TSTAMP  = $(VENV)/.installed-test

.PHONY: setup demo test test-fast bench baseline lint layering format golden clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(TSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP) $@

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/balance warmup carnage
	$(BIN)/balance run carnage --games 1000000
	$(BIN)/balance sweep carnage --param car_cost=8..14 --rotate-seats --out runs/demo-car_cost --resume \
		--report reports/carnage-car_cost.html --png reports/carnage-car_cost.png
	@echo "report: reports/carnage-car_cost.html"

# The games' kernels compile first, two at a time (one per core, into numba's disk
# cache), then the suite runs in TEST_WORKERS processes (pytest-xdist), each loading them.
test: $(TSTAMP)
	$(BIN)/lint-imports
	$(BIN)/balance warmup carmarace carnage & warm=$$!; $(BIN)/balance warmup tagcity bahama taxi && wait $$warm
	$(BIN)/python -m pytest -q -p no:cacheprovider --timeout=900 -n $(TEST_WORKERS) --dist worksteal
	$(BIN)/balance check --no-config

baseline: $(STAMP)
	$(BIN)/balance baseline --update --no-config

test-fast: $(TSTAMP)
	$(BIN)/python -m pytest -q -x -m "not slow"

bench: $(TSTAMP)
	$(PY) -m benchmarks.run $(if $(AGAINST),--against $(AGAINST))

golden: $(STAMP)
	$(PY) -m tests.golden

lint: $(TSTAMP)
	$(PY) -m pip install --quiet ruff
	$(BIN)/ruff check balance sims tests
	$(BIN)/lint-imports

layering: $(TSTAMP)
	$(BIN)/lint-imports

format: $(TSTAMP)
	$(PY) -m pip install --quiet ruff
	$(BIN)/ruff format balance sims tests

clean:
	rm -rf $(VENV) runs .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
