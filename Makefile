# Ekko Memory — `make help` lists the targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PKG_STAMP := $(VENV)/.installed-package
# Hermes Agent, for tests/hermes: an environment of its own (it pins its dependencies
# exactly, and its mcp 1.x cannot share one with this project's mcp 2.x), with this
# checkout installed as a Hermes user installs it.
HERMES_VERSION := 0.19.0
HERMES_VENV := build/hermes-venv
HERMES_STAMP := $(HERMES_VENV)/.installed-$(HERMES_VERSION)

.PHONY: help install run test lint format bench eval i18n clean package package-test install-desktop \
	uninstall-desktop icons screenshots hermes-venv

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-17s %s\n", $$1, $$2}'
	@echo "  make run DEMO=1        the app on a demo workspace"

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with all extras

run: $(STAMP) ## start the app on this folder's workspace (DEMO=1: demo data, WORKSPACE=dir)
	$(BIN)/ekko-memory-gui $(if $(DEMO),--demo) $(if $(WORKSPACE),--workspace "$(WORKSPACE)")

test: $(STAMP) $(HERMES_STAMP) ## run the whole test suite (core, GUI offscreen, e2e, reliability, Hermes)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

$(HERMES_STAMP): pyproject.toml
	rm -rf $(HERMES_VENV)
	$(PY) -m venv $(HERMES_VENV)
	$(HERMES_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(HERMES_VENV)/bin/python -m pip install --quiet -e '.[hermes]' 'hermes-agent==$(HERMES_VERSION)'
	touch $@

hermes-venv: $(HERMES_STAMP) ## build/hermes-venv: hermes-agent $(HERMES_VERSION) + this checkout, for tests/hermes

lint: $(STAMP) ## ruff lint + format check, mypy strict on the core, the layer contracts
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(STAMP) ## apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP) $(HERMES_STAMP) ## run the benchmarks (bench/README.md explains them)
	$(BIN)/python bench/run_all.py

eval: $(STAMP) ## score memory quality on bench/eval (LLM_BASE_URL=… LLM_MODEL=… [LLM_API_KEY=…]: the LLM extractor)
	$(BIN)/python bench/eval_quality.py $(if $(LLM_BASE_URL),--llm-base-url "$(LLM_BASE_URL)" --llm-model "$(LLM_MODEL)" $(if $(LLM_API_KEY),--llm-api-key "$(LLM_API_KEY)"))

$(PKG_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,package]'
	touch $(PKG_STAMP)

package: $(PKG_STAMP) ## build the app bundle dist/ekko-memory/ with PyInstaller (packaging/README.md)
	$(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/ekko-memory.spec
	@du -sh dist/ekko-memory

package-test: $(PKG_STAMP) ## build the bundle into dist/ and smoke-test it offscreen (~25 s)
	EKKO_PACKAGE_TEST=1 EKKO_PACKAGE_DIST=dist QT_QPA_PLATFORM=offscreen \
		$(BIN)/python -m pytest -m package tests/packaging -rA

install-desktop: ## add Ekko Memory to this user's app menu (~/.local/share; the bundle if built)
	sh packaging/linux/install-desktop.sh

uninstall-desktop: ## remove what install-desktop added
	sh packaging/linux/install-desktop.sh --uninstall

icons: $(STAMP) ## render the app icon PNGs/.ico/.icns from resources/icons/app.svg
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/render_icons.py

screenshots: $(STAMP) ## take docs/screenshots/*.png of the app on the demo workspace
	$(BIN)/python docs/screenshots/take_screenshots.py

i18n: $(STAMP) ## refresh resources/i18n/*.ts from the app's sources (edit them with pyside6-linguist)
	$(BIN)/pyside6-lupdate -no-obsolete $$(find ekko_memory_gui -name '*.py' | sort) -ts resources/i18n/ekko_memory_zh_CN.ts -source-language en -target-language zh_CN
	@grep -c 'type="unfinished"' resources/i18n/ekko_memory_zh_CN.ts | xargs -I{} echo "{} strings wait for a translation"

clean: ## remove the virtualenv and build output
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
