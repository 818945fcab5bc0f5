"""draw(): one call to a Drawing that Jupyter shows inline, saves to files, or prints as text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from microtorch.viz import Drawing, GraphvizNotFoundError, draw, text_graph, to_dot, walk
from microtorch.viz.render import find_renderer


@pytest.fixture
def renderer() -> str:
    try:
        return find_renderer()
    except GraphvizNotFoundError:
        pytest.skip("no Graphviz renderer installed")


def seed_demo(mt: ModuleType) -> dict[str, object]:
    x = mt.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    return {"x": x, "y": y}


def test_drawing_holds_dot_and_text(mt: ModuleType) -> None:
    names = seed_demo(mt)
    drawing = draw(names["y"], names=names)
    assert isinstance(drawing, Drawing)
    assert drawing.source == to_dot(walk(names["y"], names), legend=True)
    assert repr(drawing) == drawing.text == text_graph(names["y"], names=names)
    forward = draw(names["y"], names=names, view="forward", style="classroom", rankdir="LR")
    assert "rankdir=LR" in forward.source and "label=Mul " in forward.source


def test_inline_svg_for_jupyter(mt: ModuleType, renderer: str) -> None:
    names = seed_demo(mt)
    drawing = draw(names["y"], names=names)
    bundle = drawing._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<?xml") and "MulBackward0" in bundle["image/svg+xml"]
    assert bundle["text/plain"] == drawing.text
    assert drawing._repr_svg_() == bundle["image/svg+xml"]


def test_save_by_suffix(mt: ModuleType, renderer: str, tmp_path: Path) -> None:
    names = seed_demo(mt)
    drawing = draw(names["y"], names=names)
    assert drawing.save(tmp_path / "graph.svg").read_bytes().startswith(b"<?xml")
    assert drawing.save(tmp_path / "graph", format="png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="format"):
        drawing.save(tmp_path / "graph.txt")


def test_without_graphviz_jupyter_shows_text_and_help(
    mt: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(sys, "executable", "/nonexistent/bin/python")
    names = seed_demo(mt)
    drawing = draw(names["y"], names=names)
    assert drawing._repr_svg_() is None
    text = drawing._repr_mimebundle_()["text/plain"]
    assert text.startswith("y (MulBackward0)\n") and "brew install graphviz" in text
    with pytest.raises(GraphvizNotFoundError):
        drawing.save("never.svg")


def test_several_outputs_and_collapse(mt: ModuleType) -> None:
    w = mt.ones(2, 2, requires_grad=True)
    a = (w * 2).sum()
    b = w.mean()
    drawing = draw([a, b], names={"fc1.weight": w, "a": a, "b": b}, collapse=("fc1",))
    kinds = [n.kind for n in drawing.graph.nodes]
    assert kinds == ["output", "op", "op", "module", "output", "op"]
    assert drawing.text.endswith("b (MeanBackward0)\n ↑\nfc1.weight (AccumulateGrad)")


def test_ipython_displays_svg(mt: ModuleType, renderer: str) -> None:
    """What JupyterLab does with a bare ``draw(loss)`` as the last line of a cell."""
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    names = seed_demo(mt)
    data, _ = shell.display_formatter.format(draw(names["y"], names=names))
    assert "MulBackward0" in data["image/svg+xml"]
    assert data["text/plain"].startswith("y (MulBackward0)")


def test_viz_works_without_torch_or_graphviz_python_package(mt: ModuleType) -> None:
    code = (
        "import sys\n"
        "sys.modules['torch'] = sys.modules['graphviz'] = None  # as if not installed\n"
        "import microtorch as torch\n"
        "from microtorch.viz import text_graph, to_dot, walk\n"
        "x = torch.tensor([2.0], requires_grad=True)\n"
        "assert 'MulBackward0' in to_dot(walk(x * 3)) + text_graph(x * 3)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
