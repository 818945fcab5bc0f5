"""tools/execute_notebooks.py never overwrites PyTorch's stored output on a machine without it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from .loader import load_tool

CHAPTERS = {p.name[:2]: p for p in load_tool("make_exercises").chapters()}


def test_only_the_chapters_that_import_pytorch_need_it(execute_notebooks: ModuleType):
    import nbformat

    needing = [
        number
        for number, path in CHAPTERS.items()
        if execute_notebooks.needs_pytorch(nbformat.read(path, as_version=4))
    ]
    assert needing == ["03"]  # its side-by-side cell: `import torch as real_torch`


def test_without_pytorch_it_refuses_and_writes_nothing(
    execute_notebooks: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys
):
    real_find_spec = importlib.util.find_spec

    def no_torch(name: str, *args: object) -> object:
        return None if name == "torch" else real_find_spec(name, *args)

    def must_not_run(path: Path) -> float:
        raise AssertionError(f"{path.name} was executed")

    monkeypatch.setattr(importlib.util, "find_spec", no_torch)
    monkeypatch.setattr(execute_notebooks, "run", must_not_run)
    chapter = CHAPTERS["03"]
    before = chapter.read_bytes()
    assert execute_notebooks.main([str(chapter), "--no-exercises"]) == 1
    assert chapter.read_bytes() == before
    message = capsys.readouterr().err
    assert chapter.name in message and "pip install torch==2.13.0" in message
    # a chapter that does not import PyTorch still runs
    ran = []
    monkeypatch.setattr(execute_notebooks, "run", lambda path: ran.append(path.name) or 0.0)
    assert execute_notebooks.main([str(CHAPTERS["01"]), "--no-exercises"]) == 0
    assert ran == [CHAPTERS["01"].name]
