# Everything runs in a local .venv: no conda, no admin rights.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NOTEBOOKS := $(wildcard notebooks/*.ipynb notebooks/exercises/*.ipynb)
SANITIZE := $(if $(wildcard notebooks/sanitize.cfg),--nbval-sanitize-with notebooks/sanitize.cfg)

.PHONY: venv lint test lab lab-key bench bench-compare notebooks clean widget-js

venv: $(VENV)/.installed

# The stamp makes re-runs instant until pyproject.toml changes; pip upgrades only what it must.
# microtorch/__init__.py is a prerequisite so a .venv made before the package existed is redone.
$(VENV)/.installed: pyproject.toml $(wildcard microtorch/__init__.py)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e ".[viz,widgets,lab,dev]"
	touch $@

lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/mypy microtorch

test: lint
	@command -v dot >/dev/null || echo "Graphviz's dot not found: using the pip fallback graphviz-pure; to install the system one: apt-get install graphviz / brew install graphviz / conda install -c conda-forge graphviz"
	@test -x /usr/bin/chromium || echo "Chromium not found: the browser test will be skipped; to enable it: apt-get install chromium"
	$(BIN)/python -m pytest tests
ifneq ($(NOTEBOOKS),)
	$(BIN)/python -m pytest --nbval --nbval-current-env $(SANITIZE) $(NOTEBOOKS)
else
	@echo "no notebooks yet"
endif

# Local only, token auth on; --allow-root only where Jupyter would otherwise refuse (containers).
# Students: `make lab` opens the exercise versions (notebooks/exercises/), where they write their
# answers. Instructors: `make lab-key` opens the chapters themselves, the answer key.
LAB = $(BIN)/jupyter lab --ip=127.0.0.1 --notebook-dir=notebooks $(if $(filter 0,$(shell id -u)),--allow-root)
lab: venv
	$(LAB) --LabApp.default_url=/lab/tree/exercises/00_welcome.ipynb

lab-key: venv
	$(LAB) --LabApp.default_url=/lab/tree/00_welcome.ipynb

bench: venv
	$(BIN)/python benchmarks/run.py

# Side by side with another revision or checkout: make bench-compare REF=before-autograd-model
REF ?= HEAD
bench-compare: venv
	$(BIN)/python benchmarks/compare.py $(REF) $(if $(ROUNDS),--rounds $(ROUNDS))

notebooks: venv
	$(BIN)/python tools/execute_notebooks.py

# The browser side of GraphView: js/ (source, package-lock.json) bundled by esbuild into the
# package. Only this needs Node (20+); the bundle is committed, so `make lab` and pip need none.
widget-js:
	cd js && npm ci --no-audit --no-fund && node build.mjs

# Keeps .venv (slow to rebuild); `rm -rf .venv` for a full reset.
clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
