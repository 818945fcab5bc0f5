"""The committed GraphView bundle is what js/ builds: rebuilt with the locked npm packages."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
JS = ROOT / "js"
BUNDLE = ROOT / "microtorch" / "viz" / "static" / "graphview.js"


def test_package_data_ships_the_bundle() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"microtorch.viz" = ["static/*.js"]' in text
    assert BUNDLE.stat().st_size > 500_000  # the view and Graphviz's WebAssembly


@pytest.mark.slow
def test_committed_bundle_is_what_the_source_builds(tmp_path: Path) -> None:
    node = shutil.which("node")
    installed = (JS / "node_modules" / "esbuild").is_dir()
    if node is None or not installed:
        message = "needs Node 20 and `cd js && npm ci` (what `make widget-js` runs)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out = tmp_path / "graphview.js"
    subprocess.run([node, "build.mjs", "--outfile", str(out)], cwd=JS, check=True, timeout=120)
    assert out.read_bytes() == BUNDLE.read_bytes(), (
        "microtorch/viz/static/graphview.js is not what js/ builds: run `make widget-js` "
        "and commit the bundle"
    )
