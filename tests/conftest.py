"""Shared fixtures: optional PyTorch and Chromium, skipped locally but required in CI."""

import os
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Pinned as CI pins it; on Linux, PyPI's torch is the multi-GB CUDA build: add PyTorch's CPU index
TORCH_INSTALL = (
    ".venv/bin/pip install torch==2.13.0 -c requirements-lock.txt (on Linux, for the CPU build: "
    "--index-url https://download.pytorch.org/whl/cpu --extra-index-url https://pypi.org/simple)"
)


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
        "torch", reason=f"PyTorch not installed: {TORCH_INSTALL}, to run parity tests"
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


def _skip_reason(report: pytest.TestReport) -> str:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason.removeprefix("Skipped: ").strip()


def pytest_unconfigure(config: pytest.Config) -> None:
    """End the run (after pytest's own summary, so it is the last thing `make test`'s pytest
    prints) by saying what was skipped, and how to include it."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if not skipped:
        return
    reasons = Counter(_skip_reason(r) for r in skipped)
    on_torch = sum(reasons.pop(r) for r in list(reasons) if "PyTorch not installed" in r
                   or "No module named 'torch'" in r)  # fmt: skip
    reporter.write_sep("=", f"{len(skipped)} tests skipped: what, and how to include them")
    if on_torch:
        reporter.write_line(
            f"{on_torch} compare with PyTorch, which is not installed here. To run them: "
            + TORCH_INSTALL
        )
    for reason, count in reasons.most_common():
        reporter.write_line(f"{count}: {reason}")
