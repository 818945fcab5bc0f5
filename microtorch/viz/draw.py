"""``draw(loss)``: one call from tensors to a picture that shows itself in JupyterLab.

A ``Drawing`` keeps the walked ``Graph`` and its DOT text. In a Jupyter kernel it shows the
live ``GraphView`` (laid out in the browser: zoom, pan, click a node), with the static form in
the same output for viewers that cannot run widgets (GitHub, nbviewer, nbval): SVG from the
kernel's Graphviz, rendered lazily, or the text drawing with the reason when there is none.
``save_html`` writes the live view into one offline HTML file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from microtorch.viz.collapse import collapse as collapse_graph
from microtorch.viz.describe import is_tensor
from microtorch.viz.dot import to_dot
from microtorch.viz.graph import Graph, View, walk
from microtorch.viz.highlight import Highlight
from microtorch.viz.page import page_html, view_state, write_page
from microtorch.viz.render import FORMATS, MIN_TEXT_PT, RenderError, fit_width, render
from microtorch.viz.style import Style, get_style
from microtorch.viz.text import text_graph

__all__ = ["Drawing", "draw", "live_wanted"]


def live_wanted() -> bool:
    """Show the live view: inside a Jupyter kernel, with anywidget installed."""
    try:
        from microtorch.viz.live import live_available
    except ImportError:  # no anywidget: the static picture, as before
        return False
    return live_available()


class Drawing:
    """A drawn graph: ``.source`` is DOT, ``.save(path)`` writes a file, Jupyter shows SVG."""

    def __init__(
        self,
        graph: Graph,
        source: str,
        text: Callable[[], str],
        renderer: str = "auto",
        fontsize: float = 12,
    ) -> None:
        self.graph = graph
        self.fontsize = fontsize  # shown shrunk to a cell's width, never below MIN_TEXT_PT
        self.source = source
        self.renderer = renderer
        self._text = text
        self._svg: str | None = None
        self._live: Any = None

    @cached_property
    def text(self) -> str:
        """The text drawing of the backward graph (made on first use)."""
        return self._text()

    def svg(self) -> str:
        """The SVG text, shrunk to a notebook cell's width if wider (rendered once, then cached);
        raises ``RenderError`` without Graphviz. ``save`` writes the natural size."""
        if self._svg is None:
            svg = render(self.source, "svg", renderer=self.renderer).decode()
            self._svg = fit_width(svg, min_scale=min(1.0, MIN_TEXT_PT / self.fontsize))
        return self._svg

    def save(self, path: str | os.PathLike[str], format: str | None = None) -> Path:
        """Write SVG, PNG or PDF (from the file's suffix unless ``format`` is given)."""
        target = Path(path)
        chosen = format or target.suffix.lstrip(".").lower()
        if chosen not in FORMATS:
            raise ValueError(f"cannot tell the format of {target.name!r}: pass format= {FORMATS}")
        render(self.source, chosen, target, renderer=self.renderer)
        return target

    def _repr_svg_(self) -> str | None:
        try:
            return self.svg()
        except RenderError:
            return None  # Jupyter then falls back to the text in _repr_mimebundle_

    def static_bundle(self) -> dict[str, str]:
        """What viewers without widgets show: SVG and the text drawing, or the text and why."""
        try:
            return {"image/svg+xml": self.svg(), "text/plain": self.text}
        except RenderError as error:
            return {"text/plain": f"{self.text}\n\n{error}"}

    def live(self) -> Any:
        """The ``GraphView`` of this drawing (needs ``anywidget``), made once."""
        if self._live is None:
            from microtorch.viz.live import GraphView  # anywidget: only when a view is asked for

            self._live = GraphView(
                self.graph, self.source, description=self.text, fallback=self.static_bundle
            )
        return self._live

    def save_html(self, path: str | os.PathLike[str]) -> Path:
        """One self-contained HTML file with the live view: zoom, pan, click; no kernel, offline."""
        state = view_state(self.graph, self.source, description=self.text)
        title = f"{self.graph.view} graph"
        return write_page(path, page_html(state, title=title))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        if live_wanted():
            return self.live()._repr_mimebundle_()
        return self.static_bundle()

    def __repr__(self) -> str:
        return self.text


def draw(
    *outputs: Any,
    names: Mapping[str, Any] | None = None,
    view: View = "backward",
    highlight: Highlight | None = None,
    style: str | Style = "default",
    rankdir: str | None = None,
    max_values: int = 6,
    show_saved: bool = False,
    collapse: Iterable[str] = (),
    legend: bool = True,
    renderer: str = "auto",
    forward: Any = None,
) -> Drawing:
    """Draw the graph behind ``outputs``: ``draw(loss, names=dict(model.named_parameters()))``.

    ``view="forward"`` draws tensors (values, ``.grad``) and operations; ``collapse=("fc1",)``
    draws that module as one box; ``style="classroom"`` (or ``"classroom-dark"``) is for projectors.
    For a gradient taken with ``create_graph=True``, ``draw(dy_dx, forward=y)`` draws the nodes
    that its backward pass recorded apart from those of the forward pass that made ``y``.
    """
    if len(outputs) == 1 and not is_tensor(outputs[0]):
        outputs = tuple(outputs[0])  # also accept one list or tuple of tensors
    graph = walk(
        outputs, names, view=view, show_saved=show_saved, max_values=max_values, forward=forward
    )
    graph = collapse_graph(graph, collapse)
    source = to_dot(graph, highlight=highlight, style=style, rankdir=rankdir, legend=legend)
    tensors = {k: v for k, v in (names or {}).items() if is_tensor(v)}  # not all of locals()
    text = partial(text_graph, *outputs, names=tensors)
    return Drawing(graph, source, text, renderer, fontsize=get_style(style).fontsize)
