"""The examples in viz's docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
from types import ModuleType

import pytest

MODULES = ["dot", "graph", "highlight", "text"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, mt: ModuleType) -> None:
    module = importlib.import_module(f"microtorch.viz.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
