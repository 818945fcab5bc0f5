"""Every graph drawing stored in a chapter fits a notebook cell, with text still readable.

The committed outputs are what GitHub, nbviewer and a student opening a chapter before running
it see; tests/notebooks/test_walk.py checks the same in JupyterLab after Run All.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from microtorch.viz.render import CELL_WIDTH_PT, MIN_TEXT_PT

from .loader import load_tool

CHAPTERS = load_tool("make_exercises").chapters()
_SVG = re.compile(r'<svg width="([\d.]+)pt" height="[\d.]+pt"\s+viewBox="[-\d.]+ [-\d.]+ ([\d.]+)')
_FONT = re.compile(r'font-size="([\d.]+)"')


def drawings(path: Path) -> list[tuple[int, str]]:
    nb = nbformat.read(path, as_version=4)
    return [
        (index, out.data["image/svg+xml"])
        for index, cell in enumerate(nb.cells)
        for out in cell.get("outputs", [])
        if "image/svg+xml" in out.get("data", {})
    ]


def test_the_chapters_store_drawings():
    assert sum(len(drawings(p)) for p in CHAPTERS) >= 8


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_every_stored_drawing_fits_the_cell_and_its_text_is_readable(path: Path):
    for index, svg in drawings(path):
        found = _SVG.search(svg)
        assert found, f"{path.name} cell {index}: no Graphviz SVG size"
        shown, natural = float(found.group(1)), float(found.group(2))
        assert shown <= CELL_WIDTH_PT + 1, (
            f"{path.name} cell {index}: {shown:.0f} pt wide, a cell shows {CELL_WIDTH_PT:.0f} pt"
        )
        smallest = min(float(size) for size in _FONT.findall(svg)) * shown / natural
        assert smallest >= MIN_TEXT_PT - 0.1, f"{path.name} cell {index}: {smallest:.1f} pt text"
