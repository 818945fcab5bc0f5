"""The GitHub workflow: it runs .ci/run, differs only in torch's CPU wheel, and lints clean."""

from __future__ import annotations

import subprocess

from .conftest import ROOT, require

WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
CPU_INDEX = "--index-url https://download.pytorch.org/whl/cpu"


def test_zizmor_finds_nothing_in_the_workflows():
    zizmor = require("zizmor", "MICROTORCH_REQUIRE_ZIZMOR", "make venv installs it")
    # --offline: no GitHub API calls; the policy for action pins is .github/zizmor.yml.
    run = subprocess.run(
        [zizmor, "--offline", "--no-progress", str(ROOT / ".github")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_workflow_runs_ci_run_with_torchs_cpu_wheel_and_a_cache():
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "run: bash .ci/run" in text
    assert CPU_INDEX in text and "torch==2.13.0 -c requirements-lock.txt" in text
    assert "actions/cache@" in text and "hashFiles('requirements-lock.txt')" in text
    assert "make venv" in text  # the lock's versions, the ruff and mypy of `make test` included


def test_ci_run_installs_plain_pinned_torch():
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '.venv/bin/pip install "torch==2.13.0" -c requirements-lock.txt' in text
    assert "--index-url" not in text and "uv pip install torch" not in text
