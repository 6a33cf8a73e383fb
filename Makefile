# Ten Pennies. `make test` and `make play` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test play bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

test: install
	$(BIN)/python -m pytest -q

play: install
	$(BIN)/tenpennies play

bench: install
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
