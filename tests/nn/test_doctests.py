"""The examples in nn's docstrings (and save/load's) run and print what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["microtorch.nn.parameter", "microtorch.nn.module", "microtorch.nn.container",
           "microtorch.serialization", "microtorch.nn.conv", "microtorch.nn.pooling",
           "microtorch.nn.normalization", "microtorch.nn.lazy"]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
