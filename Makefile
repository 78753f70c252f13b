# Developer entry points. Everything runs from the project's own virtualenv in .venv.
#
#   make play   ARGS='...'        the whole stack and the playground page (Ctrl-C stops it)
#   make play-terminal ARGS='...' a terminal game between AI players
#   make test   PYTEST_ARGS='...' setup + services + lint + tests + the container check
#   make container-check          build the image, play a game through docker compose
#   make bench                    run every bench/*.py script (installs the bench extra)
#   make lock                     re-pin requirements*.lock after a change to pyproject.toml
#   make lock-upgrade             move every pin to the newest release the bounds allow

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

# Exact versions (with hashes) of everything installed: requirements.lock for the image
# (runtime dependencies), requirements-dev.lock for .venv and CI (runtime + dev extra).
# Both are written by `make lock` from pyproject.toml, for Python 3.11 on Linux.
LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
LOCK_ARGS ?=
LOCK_FLAGS := --python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
	--generate-hashes --custom-compile-command 'make lock' --quiet

# The install stamps are keyed on the content of pyproject.toml and the locks, so changing
# either reinstalls and unchanged files cost nothing. `make play` needs the runtime lock
# alone (RUN_STAMP); everything else the dev lock too (DEV_STAMP).
RUN_HASH := $(shell cat pyproject.toml $(LOCK) 2>/dev/null | sha256sum | cut -c1-16)
DEPS_HASH := $(shell cat pyproject.toml $(LOCK) $(DEV_LOCK) 2>/dev/null | sha256sum | cut -c1-16)
RUN_STAMP := $(BIN)/.installed-run-$(RUN_HASH)
DEV_STAMP := $(BIN)/.installed-dev-$(DEPS_HASH)
BENCH_STAMP := $(BIN)/.installed-bench-$(DEPS_HASH)

PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check

.PHONY: help setup setup-bench services tools browser lint test pytest container-check play \
	play-terminal bench lock vendor-page-libraries \
	lock-upgrade clean \
	catalogs catalogs-extract catalogs-update catalog-init

help:
	@echo "make play    ARGS='...'         start everything and the playground page; Ctrl-C stops it"
	@echo "make play-terminal ARGS='...'   play a game between AI players in the terminal"
	@echo "make test    PYTEST_ARGS='...'  install, start Redis/PostgreSQL, lint, type-check, test"
	@echo "make setup                      create .venv and install the project with the dev extra"
	@echo "make services                   start Redis/PostgreSQL if they are not running"
	@echo "make browser                    install Debian's chromium for the page's browser test"
	@echo "make lint                       ruff check + ruff format --check + mypy"
	@echo "make container-check            build the image, play a game through docker compose"
	@echo "make bench                      run the benchmarks in bench/"
	@echo "make lock    LOCK_ARGS='...'    re-pin the lock files from pyproject.toml"
	@echo "make lock-upgrade               re-pin everything to the newest allowed releases"
	@echo "make vendor-page-libraries       copy the page's npm libraries (package-lock.json) into its static files"
	@echo "make catalogs                   compile the bot's translations (part of setup)"
	@echo "make catalogs-extract           collect the bot's messages into bot.pot"
	@echo "make catalogs-update            merge bot.pot into every language's .po"
	@echo "make catalog-init LANG=xx       start the catalog of a new language"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is required (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)

# The lock first (exact versions, hashes checked), then the project itself. The last step
# installs only what pyproject.toml asks for and the lock does not hold yet (a dependency
# added since the last `make lock`; tests/deploy/test_lock.py fails until it is re-pinned).
# The runtime lock's versions are the dev lock's, so the dev install adds to it. For a quick
# first `make play`: no bytecode compiled ahead (Python compiles what it imports, once, and
# keeps it: `make play` writes bytecode whatever PYTHONDONTWRITEBYTECODE says), and
# the project built with the lock's own setuptools instead of a fresh build environment;
# pip check finds a dependency the lock does not hold yet, which is then installed.
$(RUN_STAMP): | $(BIN)/python
	$(PIP) install --no-compile --require-hashes --no-deps -r $(LOCK)
	$(PIP) install --no-compile --no-build-isolation --no-deps -e .
	@$(PIP) check >/dev/null || $(PIP) install --no-build-isolation -e .
	@rm -f $(BIN)/.installed-run-*
	@touch $@

$(DEV_STAMP): $(RUN_STAMP)
	$(PIP) install --require-hashes --no-deps -r $(DEV_LOCK)
	$(PIP) install -e '.[dev]'
	@rm -f $(BIN)/.installed-dev-*
	@touch $@

$(BENCH_STAMP): $(DEV_STAMP)
	$(PIP) install -e '.[dev,bench]'
	@rm -f $(BIN)/.installed-bench-*
	@touch $@

setup: $(DEV_STAMP) catalogs

setup-bench: $(BENCH_STAMP)

# --------------------------------------------------------------- translations (Babel)
# English is the source; each other language has locales/<lang>/LC_MESSAGES/bot.po.
# The compiled .mo files are build output (git ignores them): setup and the Docker image
# build them from the .po files. Fuzzy entries are left out of the .mo (and fail the tests).
LOCALES := services/presentation/locales
CATALOG_TEMPLATE := $(LOCALES)/bot.pot
CATALOG_SOURCES := $(wildcard $(LOCALES)/*/LC_MESSAGES/bot.po)

catalogs: $(CATALOG_SOURCES:.po=.mo)

$(LOCALES)/%/LC_MESSAGES/bot.mo: $(LOCALES)/%/LC_MESSAGES/bot.po | $(RUN_STAMP)
	$(BIN)/pybabel compile --domain=bot --locale=$* --input-file=$< --output-file=$@

# The catalogs' header names the project's own version, read from pyproject.toml.
PROJECT_VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -n 1)

catalogs-extract: $(DEV_STAMP)
	$(BIN)/pybabel extract --mapping-file=babel.cfg --sort-by-file \
		--project=uno-bot --version=$(PROJECT_VERSION) --copyright-holder="the uno-bot authors" \
		--output-file=$(CATALOG_TEMPLATE) services/presentation services/bot services/webapp \
		services/engine/rules/variants

catalogs-update: catalogs-extract
	$(BIN)/pybabel update --domain=bot --input-file=$(CATALOG_TEMPLATE) \
		--output-dir=$(LOCALES) --previous --ignore-obsolete

catalog-init: $(DEV_STAMP)
	@test -n "$(LANG)" || { echo "usage: make catalog-init LANG=xx"; exit 2; }
	$(BIN)/pybabel init --domain=bot --input-file=$(CATALOG_TEMPLATE) \
		--output-dir=$(LOCALES) --locale=$(LANG)

services:
	bash scripts/ensure-services.sh $(SERVICES)

# Compose, kustomize/kubectl and pg_dump for tests/deploy, Docker and debootstrap for the
# container check (installed with apt-get when root).
tools:
	bash scripts/ensure-tools.sh

# The headless Chromium (Debian's package) that the playground page's test drives.
browser:
	bash scripts/ensure-browser.sh

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Development mode (UNO_DEV_MODE): the development engine token is accepted. Never in images.
pytest: setup
	UNO_DEV_MODE=1 $(BIN)/pytest $(PYTEST_ARGS)

# The image built and a game played through docker compose (scripts/container-check.sh);
# it says SKIPPED where no Docker daemon can run.
container-check: setup tools
	bash scripts/container-check.sh

test: setup services tools browser lint pytest container-check

# The runtime lock alone: playing needs none of the dev extra (linters, browser, test tools).
# Bytecode is written (PYTHONDONTWRITEBYTECODE emptied) so that the first run's imports
# compile each module once for every later run; harness/play.py does so for its children.
play: $(RUN_STAMP) catalogs
	@PYTHONDONTWRITEBYTECODE= $(BIN)/python -m harness.play $(ARGS)

play-terminal: $(RUN_STAMP)
	@UNO_DEV_MODE=1 $(BIN)/python -m services.worker.ai.play $(ARGS)

bench: setup-bench
	@shopt -s nullglob; scripts=(bench/*.py); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "no benchmarks in bench/ yet"; exit 0; fi; \
	for script in "$${scripts[@]}"; do \
		echo "== $$script"; \
		$(BIN)/python "$$script" $(ARGS); \
	done

# Re-pin after editing the dependencies in pyproject.toml: pins that still satisfy the new
# bounds are kept, so the diff shows only what the edit needs. The runtime lock is solved
# under the dev lock's pins, so the image runs the very versions the tests ran.
lock: setup
	$(BIN)/uv pip compile pyproject.toml --extra dev $(LOCK_FLAGS) $(LOCK_ARGS) -o $(DEV_LOCK)
	$(BIN)/uv pip compile pyproject.toml --constraint $(DEV_LOCK) $(LOCK_FLAGS) -o $(LOCK)

lock-upgrade:
	$(MAKE) lock LOCK_ARGS=--upgrade

# The Mini App page's browser libraries, as package-lock.json pins them (needs npm; the
# copies are committed, so neither play nor test runs it).
vendor-page-libraries:
	scripts/vendor-page-libraries.sh

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis build *.egg-info
