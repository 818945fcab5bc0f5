"""Fixtures for the notebook tests: the scripts of tools/, imported as modules."""

from __future__ import annotations

from types import ModuleType

import pytest

from .loader import load_tool


@pytest.fixture(scope="session")
def make_exercises() -> ModuleType:
    """tools/make_exercises.py."""
    return load_tool("make_exercises")


@pytest.fixture(scope="session")
def execute_notebooks() -> ModuleType:
    """tools/execute_notebooks.py (needs nbclient and ipykernel, from the dev extras)."""
    pytest.importorskip("nbclient")
    return load_tool("execute_notebooks")
