# Ten Pennies. `make test` and `make play` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

PROTO := protos/tenpennies/v1/tenpennies.proto

.PHONY: install protos lint test play serve bench clean

install: $(STAMP)

$(STAMP): pyproject.toml $(PROTO)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(MAKE) protos
	touch $(STAMP)

# The stubs are generated from the .proto, never edited; they are committed so that a checkout imports
# without a build, and tests/test_protos.py fails if they drift from the .proto.
protos:
	$(BIN)/python -m grpc_tools.protoc -Iprotos --python_out=protos --pyi_out=protos \
		--grpc_python_out=protos --plugin=protoc-gen-mypy_grpc=$(BIN)/protoc-gen-mypy_grpc \
		--mypy_grpc_out=protos $(PROTO)

# The contract against buf's STANDARD style guide (needs npm; buf comes as an npm package).
lint:
	cd protos && npx --yes @bufbuild/buf@1 lint
	$(BIN)/ruff check .
	$(BIN)/mypy

# The layer contracts (pyproject's [tool.importlinter]), the whole suite, then the linter and the type checker
# (the engine under --strict): all must be clean.
test: install
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q
	$(BIN)/ruff check .
	$(BIN)/mypy

play: install
	$(BIN)/tenpennies play --local

serve: install
	$(BIN)/tenpennies serve

bench: install
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/server_bench.py
	$(BIN)/python bench/restart_bench.py
	$(BIN)/python bench/outside_bench.py
	$(BIN)/python bench/fairness_bench.py
	$(BIN)/python bench/tui_bench.py
	$(BIN)/python bench/tournament_bench.py
	$(BIN)/python bench/discovery_bench.py
	$(BIN)/python bench/lan_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
