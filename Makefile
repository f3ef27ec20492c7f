# Ekko Memory — `make help` lists the targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help install run test lint format bench i18n clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'
	@echo "  make run DEMO=1   the app on a demo workspace"

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with all extras

run: $(STAMP) ## start the app on this folder's workspace (DEMO=1: demo data, WORKSPACE=dir)
	$(BIN)/ekko-memory-gui $(if $(DEMO),--demo) $(if $(WORKSPACE),--workspace "$(WORKSPACE)")

test: $(STAMP) ## run the whole test suite (core, GUI offscreen, e2e, reliability)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

lint: $(STAMP) ## ruff lint + format check, mypy strict on the core
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP) ## apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP) ## run the benchmarks (bench/README.md explains them)
	$(BIN)/python bench/run_all.py

i18n: $(STAMP) ## refresh resources/i18n/*.ts from the app's sources (edit them with pyside6-linguist)
	$(BIN)/pyside6-lupdate $$(find ekko_memory_gui -name '*.py' | sort) -ts resources/i18n/ekko_memory_zh_CN.ts -source-language en -target-language zh_CN
	@grep -c 'type="unfinished"' resources/i18n/ekko_memory_zh_CN.ts | xargs -I{} echo "{} strings wait for a translation"

clean: ## remove the virtualenv and build output
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
