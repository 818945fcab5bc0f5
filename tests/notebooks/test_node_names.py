"""Node names the chapters' text mentions are names a student will really see in a graph.

A name such as ``CrossEntropyLossBackward0`` or ``MatMulBackward0`` looks like PyTorch's but is
never recorded (cross entropy records ``NllLossBackward0``, ``x @ W`` records ``MmBackward0``).
microtorch names its nodes as PyTorch does, so its node classes are the list to check against.
(Course notes' informal names, such as "CrossEntropyBackward" without the number, are allowed
where a chapter sets them beside the real ones.)
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

import microtorch  # noqa: F401 - defines every node class
from microtorch.autograd.node import Node

from .loader import load_tool

CHAPTERS = load_tool("make_exercises").chapters()
NODE_NAME = re.compile(r"\b[A-Z][A-Za-z0-9]*Backward[0-9]+\b")


def _node_classes(cls: type) -> set[str]:
    names = set()
    for sub in cls.__subclasses__():
        names |= {sub.__name__} | _node_classes(sub)
    return names


RECORDED = _node_classes(Node)


def test_the_recorded_names_include_the_common_ones():
    assert {"MmBackward0", "NllLossBackward0", "AddBackward0", "AddmmBackward0"} <= RECORDED
    assert "CrossEntropyLossBackward0" not in RECORDED and "MatMulBackward0" not in RECORDED


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_node_name_in_the_text_is_one_microtorch_and_pytorch_record(path: Path):
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    unknown = sorted(set(NODE_NAME.findall(text)) - RECORDED)
    assert unknown == [], f"{path.name} names nodes no graph records: {unknown}"
