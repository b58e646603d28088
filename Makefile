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
DIST := dist
SITE := site

export PIP_DISABLE_PIP_VERSION_CHECK := 1
# (Material for MkDocs prints a banner about MkDocs 2 on every build otherwise)
export NO_MKDOCS_2_WARNING := 1

.PHONY: venv node js lab lint dist docs docs-serve test test-js test-py clean

venv: $(VENV_STAMP)

# The editable install runs the hatch-jupyter-builder hook (npm install +
# npm run build), so node_modules is set up first (order-only).
$(VENV_STAMP): pyproject.toml | $(NODE_STAMP)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test,docs]'
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

# The release files: the sdist and the wheel built from it (as PyPI gets them),
# checked by twine (metadata, the README as the long description).
# tests/browser/test_install.py installs this wheel (MINDWIDGET_WHEEL).
dist: venv js
	rm -rf $(DIST)
	$(BIN)/python -m build --outdir $(DIST) .
	$(BIN)/twine check --strict $(DIST)/*

# The documentation site (mkdocs.yml), strict: a broken link or a missing page
# fails. tests/browser/test_docs_site.py opens it (MINDWIDGET_SITE).
docs: venv
	$(BIN)/mkdocs build --strict --site-dir $(SITE)

docs-serve: venv
	$(BIN)/mkdocs serve --strict

test-js: js
	npm test

test-py: venv js dist docs
	MINDWIDGET_WHEEL="$(wildcard $(DIST)/mindwidget-*.whl)" MINDWIDGET_SITE="$(abspath $(SITE))" \
		$(BIN)/python -m pytest

test: venv js lint test-js dist docs test-py

clean:
	rm -rf $(VENV) node_modules mindwidget/static/*.js mindwidget/static/*.css $(DIST) $(SITE)
