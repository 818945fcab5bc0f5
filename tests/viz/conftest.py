"""Fixtures for the viz tests: microtorch (skipped until its core exists) and PyTorch."""

from __future__ import annotations

from types import ModuleType

import pytest


def microtorch_or_none() -> ModuleType | None:
    """microtorch if its tensors can be made (the core may still be being written)."""
    try:
        import microtorch
    except ImportError:
        return None
    return microtorch if hasattr(microtorch, "tensor") else None


@pytest.fixture
def mt() -> ModuleType:
    """microtorch, imported as students do: ``import microtorch as torch``."""
    module = microtorch_or_none()
    if module is None:
        pytest.skip("microtorch core not importable yet")
    return module


@pytest.fixture(params=["microtorch", "torch"])
def lib(request: pytest.FixtureRequest) -> ModuleType:
    """Each library in turn: the same code must draw the same graph with both."""
    if request.param == "torch":
        module: ModuleType = request.getfixturevalue("torch_module")
        return module
    return request.getfixturevalue("mt")
