# All tools run from .venv/bin and node_modules/.bin: no activation needed.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
VENV_STAMP := $(VENV)/.installed.stamp
NODE_STAMP := node_modules/.installed.stamp
LAB_TARGET := notebooks/en/01-play.ipynb

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: venv node js lab lint test test-js test-py clean

venv: $(VENV_STAMP)

# The editable install runs the hatch-jupyter-builder hook (npm install +
# npm run build), so node_modules is set up first (order-only).
$(VENV_STAMP): pyproject.toml | $(NODE_STAMP)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

node: $(NODE_STAMP)

$(NODE_STAMP): package.json $(wildcard package-lock.json)
	if [ -f package-lock.json ]; then npm ci; else npm install; fi
	touch $@

js: $(NODE_STAMP)
	npm run build

lab: venv js
	$(BIN)/jupyter lab $(LAB_TARGET)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy mindwidget
	$(BIN)/lint-imports

test-js: js
	npm test

test-py: venv js
	$(BIN)/python -m pytest

test: venv js lint test-js test-py

clean:
	rm -rf $(VENV) node_modules mindwidget/static/*.js mindwidget/static/*.css
