"""render(): the system dot, the graphviz-pure fallback, and the errors that teach."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from microtorch.viz import GraphvizNotFoundError, RenderError, render
from microtorch.viz.render import find_renderer

DOT = 'digraph microtorch {\n  n0 [label="y\\n(1,)"]\n  n1 [label=MulBackward0]\n  n1 -> n0\n}\n'


@pytest.fixture
def system_dot() -> str:
    path = shutil.which("dot")
    if path is None:
        pytest.skip("system Graphviz not installed: apt-get install graphviz")
    return path


@pytest.fixture
def fallback() -> str:
    try:
        return find_renderer("graphviz-pure")
    except GraphvizNotFoundError:
        pytest.skip("graphviz-pure not installed: pip install graphviz-pure")


@pytest.fixture
def no_system_dot(monkeypatch: pytest.MonkeyPatch, fallback: str) -> None:
    """Hide the system dot: PATH is emptied, graphviz-pure is still found beside Python."""
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(sys, "executable", str(Path(fallback).parent / "python"))


def test_svg_with_system_dot(system_dot: str, tmp_path: Path) -> None:
    svg = render(DOT, "svg", tmp_path / "g.svg", renderer="dot")
    assert svg.startswith(b"<?xml") and b"MulBackward0" in svg and b"graphviz-pure" not in svg
    assert (tmp_path / "g.svg").read_bytes() == svg
    assert render(DOT, "png", renderer="dot").startswith(b"\x89PNG")
    assert render(DOT, "pdf", renderer="dot").startswith(b"%PDF")


def test_auto_prefers_system_dot(system_dot: str) -> None:
    assert find_renderer() == system_dot


def test_svg_with_fallback(fallback: str) -> None:
    svg = render(DOT, "svg", renderer="graphviz-pure")
    assert b"graphviz-pure" in svg and b"MulBackward0" in svg
    assert render(DOT, "png", renderer="graphviz-pure").startswith(b"\x89PNG")


def test_auto_falls_back_when_dot_is_missing(no_system_dot: None) -> None:
    assert Path(find_renderer()).name.startswith("graphviz-pure")
    assert b"graphviz-pure" in render(DOT)


def test_pdf_with_fallback_says_it_has_none(no_system_dot: None, tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="no PDF output") as raised:
        render(DOT, "pdf", tmp_path / "g.pdf")
    assert "apt-get install graphviz" in str(raised.value)
    assert not (tmp_path / "g.pdf").exists()


def test_no_renderer_explains_every_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(sys, "executable", "/nonexistent/bin/python")
    with pytest.raises(GraphvizNotFoundError) as raised:
        render(DOT)
    message = str(raised.value)
    for hint in (
        "apt-get install graphviz",
        "brew install graphviz",
        "winget install graphviz",
        "conda install -c conda-forge graphviz",
        "pip install graphviz-pure",
        "text_graph",
    ):
        assert hint in message


def test_bad_dot_and_bad_format() -> None:
    try:
        find_renderer()
    except GraphvizNotFoundError:
        pytest.skip("no Graphviz renderer installed")
    with pytest.raises(RenderError, match="failed"):
        render("digraph { n0 -> }")
    with pytest.raises(ValueError, match="format"):
        render(DOT, "gif")


def test_fit_width_shrinks_wide_drawings_to_a_cell_but_not_below_the_readable_scale():
    from microtorch.viz.render import CELL_WIDTH_PT, MIN_SCALE, fit_width

    def svg(width: float, height: float) -> str:
        size = f'<svg width="{width:g}pt" height="{height:g}pt"'
        return f'{size}\n viewBox="0.00 0.00 {width} {height}">'

    assert fit_width(svg(400, 300)) == svg(400, 300)  # fits: unchanged
    wide = fit_width(svg(CELL_WIDTH_PT * 1.25, 500))
    assert wide.startswith(f'<svg width="{CELL_WIDTH_PT:.0f}pt" height="400pt"')
    assert f'viewBox="0.00 0.00 {CELL_WIDTH_PT * 1.25}' in wide  # the drawing itself is kept
    huge = fit_width(svg(CELL_WIDTH_PT * 4, 100))
    assert huge.startswith(f'<svg width="{CELL_WIDTH_PT * 4 * MIN_SCALE:.0f}pt"')
