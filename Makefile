# Everything runs in a local .venv: no conda, no admin rights.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NOTEBOOKS := $(wildcard notebooks/*.ipynb notebooks/exercises/*.ipynb)
SANITIZE := $(if $(wildcard notebooks/sanitize.cfg),--nbval-sanitize-with notebooks/sanitize.cfg)

.PHONY: venv lock hub-proxy lint test lab lab-key bench bench-compare notebooks clean widget-js

# Every version `make venv` installs is pinned in the lock (`make lock` refreshes it).
LOCK := requirements-lock.txt
EXTRAS := viz,widgets,lab,dev,course,bench
UV_VERSION = $(shell sed -n 's/^uv==\([^ ;]*\).*/\1/p' $(LOCK))

venv: $(VENV)/.installed

# The stamp makes re-runs instant until pyproject.toml or the lock changes. uv (pinned by the
# lock, from PyPI) installs the locked set several times faster than pip does.
# microtorch/__init__.py is a prerequisite so a .venv made before the package existed is redone.
$(VENV)/.installed: pyproject.toml $(LOCK) $(wildcard microtorch/__init__.py)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "uv==$(UV_VERSION)"
	$(BIN)/uv pip install --python $(BIN)/python --constraints $(LOCK) --build-constraints $(LOCK) \
	    -e ".[$(EXTRAS)]"
	touch $@

# Re-resolves every pin to the newest releases; run `make test` on the result before committing.
lock: venv
	$(BIN)/uv pip compile pyproject.toml tools/torch-deps.in --all-extras --universal \
	    --python-version 3.10 --upgrade --custom-compile-command "make lock" --output-file $(LOCK)

# JupyterHub's proxy, from npm (pinned by its package-lock.json), for the JupyterHub test and
# docs/jupyterhub_config.py; installed under tools/hub-proxy/, nothing global.
HUB_PROXY := tools/hub-proxy/node_modules/.bin/configurable-http-proxy
hub-proxy: $(HUB_PROXY)
$(HUB_PROXY): tools/hub-proxy/package-lock.json
	npm ci --prefix tools/hub-proxy --no-audit --no-fund
	touch $@

lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/mypy microtorch

# The tests run on every core (pytest-xdist, at most 4 processes; a file's tests stay together,
# so a module's fixture is made once), then those that need the machine to themselves one at a
# time: the JupyterHub classes and Chromium in JupyterLab, whose time limits a busy machine breaks.
XDIST := -n auto --maxprocesses 4 --dist loadfile
test: lint
	@command -v dot >/dev/null || echo "Graphviz's dot not found: using the pip fallback graphviz-pure; to install the system one: apt-get install graphviz / brew install graphviz / conda install -c conda-forge graphviz"
	@test -x /usr/bin/chromium || echo "Chromium not found: the browser test will be skipped; to enable it: apt-get install chromium"
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory hub-proxy; else echo "npm not found: the JupyterHub test will be skipped; to enable it: apt-get install npm"; fi
	$(BIN)/python -m pytest tests $(XDIST) -m "not (alone or browser)"
	$(BIN)/python -m pytest tests -m "alone or browser"
ifneq ($(NOTEBOOKS),)
	$(BIN)/python -m pytest --nbval --nbval-current-env $(SANITIZE) $(XDIST) $(NOTEBOOKS)
else
	@echo "no notebooks yet"
endif

# Local only, token auth on; --allow-root only where Jupyter would otherwise refuse (containers).
# Students: `make lab` opens the exercise versions (notebooks/exercises/), where they write their
# answers. Instructors: `make lab-key` opens the chapters themselves, the answer key.
# tools/lab_config/ (first on Jupyter's config path, for these commands only): common/ turns
# off the "Jupyter news?" toast and the update check, and serves each notebook with the
# language_info its kernel reports (else every chapter shows as modified as soon as its kernel
# starts: the chapters store no Python version); student/ also keeps nbgrader's instructor
# tools (Formgrader, Create Assignment, course and assignment lists) out of the students' lab.
# nbgrader's Validate stays: it fails on stubs and wrong answers. The notebooks are signed for
# this user first (`jupyter trust`), so the server does not call each one "not trusted".
LAB_CONFIG := $(CURDIR)/tools/lab_config
LAB = $(BIN)/jupyter lab --ip=127.0.0.1 --notebook-dir=notebooks $(if $(filter 0,$(shell id -u)),--allow-root)
lab: venv
	$(BIN)/jupyter trust notebooks/exercises/*.ipynb >/dev/null
	JUPYTER_CONFIG_PATH=$(LAB_CONFIG)/student:$(LAB_CONFIG)/common $(LAB) --LabApp.default_url=/lab/tree/exercises/00_welcome.ipynb

lab-key: venv
	$(BIN)/jupyter trust notebooks/*.ipynb notebooks/exercises/*.ipynb >/dev/null
	JUPYTER_CONFIG_PATH=$(LAB_CONFIG)/common $(LAB) --LabApp.default_url=/lab/tree/00_welcome.ipynb

# The benchmark alone runs with numpy's own BLAS kernel choice, as on a student's laptop: the
# machine sets OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, under which numpy's matmul is about 6x
# slower. Only this command unsets them; tests and CI never touch them. CPU time, as the machine
# may be shared. ARGS passes options on: make bench ARGS="--only W2,R --rounds 7".
bench: venv
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(BIN)/python benchmarks/run.py --clock cpu $(ARGS)

# Side by side with another revision or checkout: make bench-compare REF=before-autograd-model
REF ?= HEAD
bench-compare: venv
	$(BIN)/python benchmarks/compare.py $(REF) $(if $(ROUNDS),--rounds $(ROUNDS))

notebooks: venv
	$(BIN)/python tools/nbgrader_metadata.py
	$(BIN)/python tools/execute_notebooks.py

# The browser side of GraphView: js/ (source, package-lock.json) bundled by esbuild into the
# package. Only this needs Node (20+); the bundle is committed, so `make lab` and pip need none.
widget-js:
	cd js && npm ci --no-audit --no-fund && node build.mjs

# Keeps .venv (slow to rebuild); `rm -rf .venv` for a full reset.
clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
