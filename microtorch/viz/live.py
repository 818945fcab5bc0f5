"""``GraphView``: the graph laid out and drawn in the browser, by Graphviz compiled to WebAssembly.

The kernel sends DOT text and, per node, what the side panel shows (``node_info``); the page
lays the graph out itself, so no ``dot`` program is needed anywhere. Zoom, pan, "fit", "1:1",
click or keyboard to inspect a node; ``highlight`` re-styles the one layout (the stepper's steps).

The kernel also sends the SVG, laid out by ``graphviz-pure`` when it is the same Graphviz as the
browser's WebAssembly (16.1.0: the same SVG), so the first picture needs no WebAssembly.
The renderer is not put into the widget's state, which notebooks save: ``_esm`` is a small
loader that asks the kernel, once per page, for the view (``static/view.js``, 18 KB) and, only
for a layout the kernel did not send, for Graphviz's WebAssembly (``static/graphview.js``, ~0.8 MB).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from microtorch.viz.graph import Graph
from microtorch.viz.highlight import Highlight
from microtorch.viz.node_info import all_node_info
from microtorch.viz.page import (
    VIEW_TRAITS,
    bundle,
    bundle_key,
    highlight_data,
    page_html,
    view_state,
    write_page,
)
from microtorch.viz.render import (
    FALLBACK,
    GraphvizNotFoundError,
    RenderError,
    find_renderer,
    render,
)

__all__ = ["GraphView", "live_available"]

BUNDLE_MESSAGE = "microtorch-graphview-bundle"
GRAPHVIZ_VERSION = "16.1.0"  # in static/graphview.js (@hpcc-js/wasm-graphviz 1.29.2)


@cache
def view_bundle() -> bytes:
    """The view alone, without Graphviz (``js/src/view.js``): what a live view loads first."""
    return resources.files("microtorch.viz").joinpath("static/view.js").read_bytes()


@cache
def _loader_key() -> str:
    return bundle_key() + hashlib.sha256(view_bundle()).hexdigest()[:8]


@cache
def _same_graphviz() -> str | None:
    """graphviz-pure's path when it ports the browser's Graphviz (so draws the same SVG)."""
    try:
        program = find_renderer(FALLBACK)
        said = subprocess.run([program, "-V"], capture_output=True, text=True, timeout=30)
    except (GraphvizNotFoundError, OSError, subprocess.SubprocessError):
        return None
    return program if f"Graphviz {GRAPHVIZ_VERSION})" in said.stdout + said.stderr else None


def kernel_svg(dot: str) -> str:
    """``dot`` laid out as the browser's Graphviz would, or "" (the browser lays it out then)."""
    program = _same_graphviz()
    if program is None or not dot:
        return ""
    try:
        return render(dot, "svg", renderer=program, timeout=60).decode()
    except (RenderError, OSError, subprocess.SubprocessError):
        return ""


# Loads each part once per page: the first view asks its kernel, every later view (of any
# kernel) awaits the same promise. Without a kernel (a saved notebook reopened) it says so.
_LOADER = """\
const KEY = "%(key)s";
function ask(model, part) {
  const key = KEY + part;
  if (!globalThis[key]) {
    globalThis[key] = new Promise((resolve, reject) => {
      function handler(msg, buffers) {
        if (!msg || msg.type !== "%(message)s" || msg.part !== part) return;
        model.off("msg:custom", handler);
        const blob = new Blob([buffers[0]], { type: "text/javascript" });
        import(URL.createObjectURL(blob)).then(resolve, reject);
      }
      model.on("msg:custom", handler);
      model.send({ type: "%(message)s?", part });
    }).catch((error) => { delete globalThis[key]; throw error; });
  }
  return globalThis[key];
}
function load(model) {
  return ask(model, "view").then((view) => {
    // Graphviz's WebAssembly only for a layout the kernel did not send
    view.setLayoutEngine((m) => ask(m, "full").then((full) => full.loadGraphviz()));
    return view;
  });
}
export default {
  initialize({ model }) {
    // as soon as the model exists (the kernel made the view): ask for the view, and, when the
    // kernel sent no SVG, start compiling Graphviz's WebAssembly, so less is left to wait for
    load(model).then((view) => model.get("svg") || view.graphvizFor(model)).catch(() => {});
  },
  async render({ model, el }) {
    const wait = document.createElement("div");
    wait.textContent = "Loading the graph view from the kernel…";
    el.appendChild(wait);
    const slow = setTimeout(() => {
      wait.textContent = "Waiting for the kernel to send the graph view (it is busy, or not " +
        "running: run this cell to see the interactive graph).";
    }, 10000);
    const asked = performance.now();
    const module = await load(model);
    el.dataset.mtLoadMs = (performance.now() - asked).toFixed(1); // the view, from the kernel
    clearTimeout(slow);
    wait.remove();
    return module.render({ model, el });
  },
};
"""


def live_available() -> bool:
    """True inside a Jupyter kernel, where a front end may run the widget."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - anywidget needs IPython
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class GraphView(anywidget.AnyWidget):
    """``GraphView(graph)``: a ``Graph`` drawn in the browser; ``view.highlight = ...`` restyles.

    ``selected`` is the node whose panel is open (set by a click, or from Python).
    """

    _esm = traitlets.Unicode(_LOADER % {"key": _loader_key(), "message": BUNDLE_MESSAGE}).tag(
        sync=True
    )
    dot = traitlets.Unicode("").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)  # dot laid out in the kernel, or "" (see kernel_svg)
    edges: traitlets.List[Any] = traitlets.List().tag(sync=True)  # [edge id, src, dst] in DOT order
    nodes = traitlets.Dict().tag(sync=True)  # node id -> node_info(...)
    highlight = traitlets.Dict().tag(sync=True)  # highlight_data(...)
    selected = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)  # the text drawing: for screen readers
    summary = traitlets.Unicode("").tag(sync=True)
    palette = traitlets.Dict().tag(sync=True)
    theme = traitlets.Unicode("auto").tag(sync=True)  # "auto" follows JupyterLab's theme
    max_height = traitlets.Int(640).tag(sync=True)

    def __init__(
        self,
        graph: Graph,
        source: str | None = None,
        *,
        description: str = "",
        style: str = "default",
        highlight: Highlight | None = None,
        fallback: Any = None,
        **kwargs: Any,
    ) -> None:
        self.graph = graph
        self._fallback = fallback  # () -> extra MIME data for viewers without widgets
        state = view_state(graph, source, description=description, style=style)
        if highlight is not None:
            state["highlight"] = highlight_data(highlight)
        super().__init__(**{**state, **kwargs})
        self.on_msg(self._on_message)

    @traitlets.validate("dot")
    def _lay_out(self, proposal: Any) -> str:
        # before the new dot is sent: the page finds the svg of a dot with it
        self.svg = kernel_svg(proposal["value"])
        return str(proposal["value"])

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == BUNDLE_MESSAGE + "?":
            part = content.get("part")
            if part is None:  # everything, as the loader of before this split asked
                self.send({"type": BUNDLE_MESSAGE}, [bundle()])
            else:
                code = view_bundle() if part == "view" else bundle()
                self.send({"type": BUNDLE_MESSAGE, "part": part}, [code])

    def set_graph(self, graph: Graph, source: str | None = None) -> None:
        """Show another graph; the same DOT text (a new loss, same code) keeps the layout."""
        state = view_state(graph, source, description=self.description)
        self.graph = graph
        with self.hold_sync():
            self.dot, self.edges, self.nodes = state["dot"], state["edges"], state["nodes"]
            self.summary = state["summary"]

    def save_html(self, path: str | os.PathLike[str], title: str = "") -> Path:
        """This view, as it is now, in one offline HTML file (zoom, pan, click; no kernel)."""
        return write_page(path, page_html(self.state(), title=title or self.summary))

    def refresh(self, ids: set[str] | None = None) -> None:
        """Read the panel data again (all nodes, or ``ids``): e.g. after backward freed them."""
        self.nodes = {**self.nodes, **all_node_info(self.graph, ids)}

    def show(self, highlight: Highlight) -> None:
        """Re-style the drawn graph: no new layout, only classes and labels change."""
        self.highlight = highlight_data(highlight)

    def state(self) -> dict[str, Any]:
        """The traits the page reads (what ``save_html`` stores)."""
        return {key: getattr(self, key) for key in VIEW_TRAITS}

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        shown = super()._repr_mimebundle_(**kwargs)
        if shown is None:
            return None
        data, metadata = shown
        if self._fallback is not None:
            data = {**data, **self._fallback()}
        return data, metadata
