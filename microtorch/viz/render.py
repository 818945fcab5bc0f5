"""Run Graphviz: the only module that turns DOT text into SVG, PNG or PDF.

It uses the system ``dot`` when it is on PATH, else the pip-installed ``graphviz-pure`` program
(same flags as ``dot``, no PDF output), looked up on PATH and next to the running Python.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = [
    "FORMATS",
    "GraphvizNotFoundError",
    "RenderError",
    "find_renderer",
    "fit_width",
    "render",
]

FORMATS = ("svg", "png", "pdf")
FALLBACK = "graphviz-pure"
SYSTEM_INSTALL = """\
  Debian/Ubuntu:  sudo apt-get install graphviz
  macOS:          brew install graphviz
  Windows:        winget install graphviz   (or the installer from https://graphviz.org/download/)
  conda:          conda install -c conda-forge graphviz"""
INSTALL_HELP = f"""\
No Graphviz renderer found: neither the system `dot` nor the pip fallback `graphviz-pure`.
Install one of them:
{SYSTEM_INSTALL}
  any platform:   pip install graphviz-pure   (SVG and PNG only)
The text drawing needs no Graphviz: print(microtorch.viz.text_graph(loss))"""
NO_PDF = f"""\
graphviz-pure (the pip fallback for Graphviz) has no PDF output: save as SVG or PNG instead,
or install the system Graphviz, which writes PDF:
{SYSTEM_INSTALL}"""


# A cell's output in JupyterLab at 1280 px with the file browser open is about 795 px wide,
# 600 pt; the smallest scale keeps 12 pt text at 8 pt (about 10.5 px), still readable.
CELL_WIDTH_PT = 590.0
MIN_TEXT_PT = 8.0
MIN_SCALE = MIN_TEXT_PT / 12
_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')


class RenderError(RuntimeError):
    """Graphviz could not turn the DOT text into the requested format."""


class GraphvizNotFoundError(RenderError):
    """Neither the system ``dot`` nor ``graphviz-pure`` is installed."""


def _fallback_path() -> str | None:
    # pip puts console scripts next to the interpreter, which need not be on PATH
    # (e.g. `.venv/bin/python` run without activating the environment)
    beside_python = str(Path(sys.executable).parent)
    return shutil.which(FALLBACK) or shutil.which(FALLBACK, path=beside_python)


def find_renderer(renderer: str = "auto") -> str:
    """Path of the program to run: ``"auto"``, ``"dot"``, ``"graphviz-pure"`` or a path."""
    if renderer == "auto":
        found = shutil.which("dot") or _fallback_path()
    elif renderer == FALLBACK:
        found = _fallback_path()
    else:
        found = shutil.which(renderer)
    if found is None:
        raise GraphvizNotFoundError(INSTALL_HELP)
    return found


def render(
    dot_source: str,
    format: str = "svg",
    path: str | os.PathLike[str] | None = None,
    *,
    renderer: str = "auto",
    timeout: float = 120,
) -> bytes:
    """Lay out ``dot_source`` and return the image bytes; also write them to ``path`` if given."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {format!r}")
    program = find_renderer(renderer)
    if format == "pdf" and Path(program).name.startswith(FALLBACK):
        raise RenderError(NO_PDF)
    result = subprocess.run(
        [program, f"-T{format}"],
        input=dot_source.encode(),
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    if result.returncode != 0:
        message = result.stderr.decode(errors="replace").strip()
        raise RenderError(f"{program} -T{format} failed (exit {result.returncode}): {message}")
    if path is not None:
        Path(path).write_bytes(result.stdout)
    return result.stdout


def fit_width(svg: str, width_pt: float = CELL_WIDTH_PT, min_scale: float = MIN_SCALE) -> str:
    """``svg`` (as Graphviz writes it) shrunk to ``width_pt`` if wider, never below ``min_scale``.

    Only the outer width and height change; the viewBox keeps the drawing and its aspect ratio.
    """
    found = _SIZE.search(svg)
    if found is None:
        return svg
    width, height = float(found.group(1)), float(found.group(2))
    scale = max(min(1.0, width_pt / width), min_scale) if width > 0 else 1.0
    if scale == 1.0:
        return svg
    size = f'<svg width="{width * scale:.0f}pt" height="{height * scale:.0f}pt"'
    return svg[: found.start()] + size + svg[found.end() :]
