"""No code line of a chapter or of its student version is longer than 100 characters, so none
scrolls sideways in a cell (the student versions' stubs included)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from .loader import load_tool

CHAPTERS = load_tool("make_exercises").chapters()
EXERCISES = sorted((CHAPTERS[0].parent / "exercises").glob("*.ipynb"))
LIMIT = 100  # the project's line length (ruff), about what a cell shows at 1280 px


@pytest.mark.parametrize(
    "path", CHAPTERS + EXERCISES, ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_code_lines_fit_the_cell(path: Path):
    nb = nbformat.read(path, as_version=4)
    long = [
        f"cell {index}: {len(line)} characters: {line}"
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for line in cell.source.splitlines()
        if len(line) > LIMIT
    ]
    assert long == [], "\n".join(long)
