# balance: two commands set everything up on a fresh machine with Python 3.11+ and make.
#   make demo   creates .venv, installs, runs the main job (a car-cost sweep of Carnage and its report)
#   make test   creates .venv, installs with test extras, runs the whole suite

PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
PY      = $(BIN)/python
STAMP   = $(VENV)/.installed
TSTAMP  = $(VENV)/.installed-test

.PHONY: setup demo test test-fast bench lint format golden clean

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
	$(BIN)/balance run carnage --games 1000000
	@if $(BIN)/balance sweep --help >/dev/null 2>&1; then \
		$(BIN)/balance sweep carnage --param car_cost=8..14 --games 200000 --out runs/demo-car_cost --report reports/carnage-car_cost.html --resume; \
	fi

test: $(TSTAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider --timeout=900
	@if [ -d reports/baselines ] && $(BIN)/balance check --help >/dev/null 2>&1; then \
		$(BIN)/balance check; \
	fi

test-fast: $(TSTAMP)
	$(BIN)/python -m pytest -q -x -m "not slow"

bench: $(TSTAMP)
	$(PY) -m benchmarks.run

golden: $(TSTAMP)
	$(PY) -m tests.golden

lint: $(TSTAMP)
	$(PY) -m pip install --quiet ruff
	$(BIN)/ruff check balance sims tests

format: $(TSTAMP)
	$(PY) -m pip install --quiet ruff
	$(BIN)/ruff format balance sims tests

clean:
	rm -rf $(VENV) runs .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
