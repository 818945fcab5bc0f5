"""What the course tests share: course tools that are skipped locally but required in CI."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the .venv's bin: nbgrader, jupyterhub, alembic, zizmor


def require(program: str, variable: str, install: str) -> str:
    """The path of ``program`` (in the .venv or on PATH); skips, or fails if ``variable`` is 1."""
    found = shutil.which(program, path=os.pathsep.join([str(BIN), os.environ.get("PATH", "")]))
    if found:
        return found
    message = f"{program} not found: {install}"
    if os.environ.get(variable) == "1":
        pytest.fail(f"{message} ({variable}=1)")
    pytest.skip(message)


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """This environment, with the .venv first on PATH and no personal Jupyter config or kernels."""
    env = dict(os.environ)
    env.update(
        PATH=os.pathsep.join([str(BIN), env.get("PATH", "")]),
        JUPYTER_CONFIG_DIR=str(tmp / "jupyter-config"),
        JUPYTER_DATA_DIR=str(tmp / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(tmp / "jupyter-runtime"),
        PYTHONPATH=str(ROOT),  # the kernels import microtorch from this checkout
    )
    env.pop("JUPYTER_PATH", None)
    env.update(extra)
    return env
