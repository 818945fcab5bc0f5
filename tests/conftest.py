"""Shared fixtures: optional PyTorch and Chromium, skipped locally but required in CI."""

import os
from pathlib import Path
from types import ModuleType

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def _required(name: str) -> bool:
    return os.environ.get(name) == "1"


def pytest_sessionstart(session: pytest.Session) -> None:
    # CI sets this so the parity tests can never be skipped without anyone noticing.
    if not _required("MICROTORCH_REQUIRE_TORCH"):
        return
    try:
        import torch  # noqa: F401
    except Exception as error:  # ImportError, or OSError from a broken wheel
        pytest.exit(
            f"MICROTORCH_REQUIRE_TORCH=1 but `import torch` failed ({error!r}): "
            "run .venv/bin/pip install torch==2.13.0",
            returncode=1,
        )


@pytest.fixture(scope="session")
def torch_module() -> ModuleType:
    """The real PyTorch, single-threaded for reproducible results; skips if it is missing."""
    torch = pytest.importorskip(
        "torch", reason="PyTorch not installed: pip install torch==2.13.0 to run parity tests"
    )
    torch.set_num_threads(1)
    return torch


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of the system Chromium for the browser test; skips (or fails in CI) if missing."""
    if CHROMIUM.exists():
        return str(CHROMIUM)
    message = "Chromium not found: apt-get install chromium to run the browser test"
    if _required("MICROTORCH_REQUIRE_CHROMIUM"):
        pytest.fail(message + " (MICROTORCH_REQUIRE_CHROMIUM=1)")
    pytest.skip(message)
