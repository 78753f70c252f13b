# Developer entry points. Everything runs from the project's own virtualenv in .venv.
#
#   make play   ARGS='...'        the whole stack and the playground page (Ctrl-C stops it)
#   make play-terminal ARGS='...' a terminal game between AI players
#   make test   PYTEST_ARGS='...' setup + services + lint + tests
#   make bench                    run every bench/*.py script (installs the bench extra)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=
PYTEST_ARGS ?=
# Space-separated: redis postgres rabbitmq (RabbitMQ is opt-in; Celery's broker is Redis).
SERVICES ?= redis postgres

# The install stamps are keyed on the content of pyproject.toml, so changing the
# dependencies reinstalls and an unchanged file costs nothing.
PYPROJECT_HASH := $(shell sha256sum pyproject.toml 2>/dev/null | cut -c1-16)
DEV_STAMP := $(BIN)/.installed-dev-$(PYPROJECT_HASH)
BENCH_STAMP := $(BIN)/.installed-bench-$(PYPROJECT_HASH)

.PHONY: help setup setup-bench services browser lint test pytest play play-terminal bench clean

help:
	@echo "make play    ARGS='...'         start everything and the playground page; Ctrl-C stops it"
	@echo "make play-terminal ARGS='...'   play a game between AI players in the terminal"
	@echo "make test    PYTEST_ARGS='...'  install, start Redis/PostgreSQL, lint, type-check, test"
	@echo "make setup                      create .venv and install the project with the dev extra"
	@echo "make services                   start Redis/PostgreSQL if they are not running"
	@echo "make browser                    install Debian's chromium for the page's browser test"
	@echo "make lint                       ruff check + mypy"
	@echo "make bench                      run the benchmarks in bench/"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is required (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)

$(DEV_STAMP): | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@rm -f $(BIN)/.installed-dev-*
	@touch $@

$(BENCH_STAMP): | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	@rm -f $(BIN)/.installed-bench-*
	@touch $@

setup: $(DEV_STAMP)

setup-bench: $(BENCH_STAMP)

services:
	bash scripts/ensure-services.sh $(SERVICES)

# The headless Chromium (Debian's package) that the playground page's test drives.
browser:
	bash scripts/ensure-browser.sh

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# Development mode (UNO_DEV_MODE): the development engine token is accepted. Never in images.
pytest: setup
	UNO_DEV_MODE=1 $(BIN)/pytest $(PYTEST_ARGS)

test: setup services browser lint pytest

play: setup
	@$(BIN)/python -m services.playground.stack $(ARGS)

play-terminal: setup
	@$(BIN)/python -m services.worker.ai.play $(ARGS)

bench: setup-bench
	@shopt -s nullglob; scripts=(bench/*.py); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "no benchmarks in bench/ yet"; exit 0; fi; \
	for script in "$${scripts[@]}"; do \
		echo "== $$script"; \
		$(BIN)/python "$$script" $(ARGS); \
	done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build *.egg-info
