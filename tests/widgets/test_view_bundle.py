"""The committed view.js (the view without Graphviz, what a live view loads first) is what js/
builds, beside graphview.js (tests/viz/test_bundle.py checks that one)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
JS = ROOT / "js"
VIEW = ROOT / "microtorch" / "viz" / "static" / "view.js"


def test_the_view_is_small_and_has_no_graphviz() -> None:
    text = VIEW.read_text(encoding="utf-8")
    assert VIEW.stat().st_size < 40_000  # the first picture waits for this file only
    assert "WebAssembly" not in text and "setLayoutEngine" in text


@pytest.mark.slow
def test_committed_view_is_what_the_source_builds(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (JS / "node_modules" / "esbuild").is_dir():
        message = "needs Node 20 and `cd js && npm ci` (what `make widget-js` runs)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out = tmp_path / "graphview.js"
    subprocess.run([node, "build.mjs", "--outfile", str(out)], cwd=JS, check=True, timeout=120)
    assert (tmp_path / "view.js").read_bytes() == VIEW.read_bytes(), (
        "microtorch/viz/static/view.js is not what js/ builds: run `make widget-js` and commit it"
    )


def test_the_kernel_sends_each_part_the_page_asks_for() -> None:
    import microtorch as torch
    from microtorch.viz import walk
    from microtorch.viz.live import GraphView, view_bundle
    from microtorch.viz.page import bundle

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    view = GraphView(walk((x * x).sum()))
    sent: list[tuple[object, object]] = []
    view.send = lambda content, buffers=None: sent.append((content, buffers))  # type: ignore[method-assign]
    view._on_message(view, {"type": "microtorch-graphview-bundle?", "part": "view"}, [])
    view._on_message(view, {"type": "microtorch-graphview-bundle?", "part": "full"}, [])
    assert sent == [
        ({"type": "microtorch-graphview-bundle", "part": "view"}, [view_bundle()]),
        ({"type": "microtorch-graphview-bundle", "part": "full"}, [bundle()]),
    ]
    assert len(view._esm) < 3000  # the loader only: no code in the widget's state
