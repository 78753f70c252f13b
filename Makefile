# Developer entry points. Everything runs from the project's own virtualenv in .venv.
#
#   make play   ARGS='...'        a terminal game between AI players
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

.PHONY: help setup setup-bench services lint test pytest play bench clean \
	catalogs catalogs-extract catalogs-update catalog-init

help:
	@echo "make play    ARGS='...'         play a game between AI players in the terminal"
	@echo "make test    PYTEST_ARGS='...'  install, start Redis/PostgreSQL, lint, type-check, test"
	@echo "make setup                      create .venv and install the project with the dev extra"
	@echo "make services                   start Redis/PostgreSQL if they are not running"
	@echo "make lint                       ruff check + mypy"
	@echo "make bench                      run the benchmarks in bench/"
	@echo "make catalogs                   compile the bot's translations (part of setup)"
	@echo "make catalogs-extract           collect the bot's messages into bot.pot"
	@echo "make catalogs-update            merge bot.pot into every language's .po"
	@echo "make catalog-init LANG=xx       start the catalog of a new language"

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

setup: $(DEV_STAMP) catalogs

setup-bench: $(BENCH_STAMP)

# --------------------------------------------------------------- translations (Babel)
# English is the source; each other language has locales/<lang>/LC_MESSAGES/bot.po.
# The compiled .mo files are build output (git ignores them): setup and the Docker image
# build them from the .po files. Fuzzy entries are left out of the .mo (and fail the tests).
LOCALES := services/bot/locales
CATALOG_TEMPLATE := $(LOCALES)/bot.pot
CATALOG_SOURCES := $(wildcard $(LOCALES)/*/LC_MESSAGES/bot.po)

catalogs: $(CATALOG_SOURCES:.po=.mo)

$(LOCALES)/%/LC_MESSAGES/bot.mo: $(LOCALES)/%/LC_MESSAGES/bot.po | $(DEV_STAMP)
	$(BIN)/pybabel compile --domain=bot --locale=$* --input-file=$< --output-file=$@

catalogs-extract: $(DEV_STAMP)
	$(BIN)/pybabel extract --mapping-file=babel.cfg --sort-by-file \
		--project=uno-bot --version=0.1.0 --copyright-holder="the uno-bot authors" \
		--output-file=$(CATALOG_TEMPLATE) services/bot

catalogs-update: catalogs-extract
	$(BIN)/pybabel update --domain=bot --input-file=$(CATALOG_TEMPLATE) \
		--output-dir=$(LOCALES) --previous --ignore-obsolete

catalog-init: $(DEV_STAMP)
	@test -n "$(LANG)" || { echo "usage: make catalog-init LANG=xx"; exit 2; }
	$(BIN)/pybabel init --domain=bot --input-file=$(CATALOG_TEMPLATE) \
		--output-dir=$(LOCALES) --locale=$(LANG)

services:
	bash scripts/ensure-services.sh $(SERVICES)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# Development mode (UNO_DEV_MODE): the development engine token is accepted. Never in images.
pytest: setup
	UNO_DEV_MODE=1 $(BIN)/pytest $(PYTEST_ARGS)

test: setup services lint pytest

play: setup
	UNO_DEV_MODE=1 $(BIN)/python -m services.worker.ai.play $(ARGS)

bench: setup-bench
	@shopt -s nullglob; scripts=(bench/*.py); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "no benchmarks in bench/ yet"; exit 0; fi; \
	for script in "$${scripts[@]}"; do \
		echo "== $$script"; \
		$(BIN)/python "$$script" $(ARGS); \
	done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build *.egg-info
