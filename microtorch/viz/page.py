"""One self-contained HTML file: the live view with its data, for slides and pages with no kernel.

The file holds the built view (Graphviz's WebAssembly included) and the graph's data; it needs
no network (its Content-Security-Policy forbids any request) and no Jupyter. With ``frames``
(the recorded steps of a backward pass) it has first/prev/next/last buttons and arrow keys.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from microtorch.viz.dot import to_dot
from microtorch.viz.graph import Graph
from microtorch.viz.highlight import Highlight
from microtorch.viz.node_info import all_node_info
from microtorch.viz.style import get_style, styles

__all__ = [
    "VIEW_TRAITS",
    "bundle",
    "bundle_key",
    "highlight_data",
    "page_html",
    "palette",
    "view_state",
    "write_page",
]

VIEW_TRAITS = (
    "dot", "edges", "nodes", "highlight", "selected", "description", "summary", "palette",
    "theme", "max_height",
)  # fmt: skip


@cache
def bundle() -> bytes:
    """The built view (``js/`` bundled by ``make widget-js``), shipped inside the package."""
    return resources.files("microtorch.viz").joinpath("static/graphview.js").read_bytes()


@cache
def bundle_key() -> str:
    """A name for this build on the page: a rebuilt bundle is loaded anew, never mixed up."""
    return "__microtorch_graphview_" + hashlib.sha256(bundle()).hexdigest()[:16]


# 'wasm-unsafe-eval' lets Graphviz's WebAssembly compile; nothing may be fetched from anywhere.
_CSP = (
    "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval' blob:; "
    "style-src 'unsafe-inline'; img-src data:"
)
_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1em 2em; color: #000; background: #fff; }
.mt-page-controls { display: flex; gap: 6px; }
.mt-page-controls button { font-size: 15px; padding: 4px 12px; cursor: pointer;
  display: inline-flex; align-items: center; gap: 6px; }
.mt-page-status { font-weight: bold; }
.mt-page-body { display: flex; gap: 1.5em; flex-wrap: wrap; align-items: flex-start; }
.mt-page-graph { flex: 1 1 var(--mt-graph-width, 480px);
  min-width: min(100%, var(--mt-graph-width, 0px)); }
.mt-page-panel { flex: 1 1 320px; min-width: 320px; }
.mt-stepper-panel p, .mt-stepper-panel li { line-height: 1.4; }
.mt-stepper-panel pre.mt-value { margin: 2px 0; font-size: 12px; white-space: pre;
  overflow-x: auto; }
.mt-stepper-panel h4 { margin: 8px 0 2px 0; }
"""
_BOOT = """
const text = document.getElementById("mt-bundle").textContent;
const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const url = URL.createObjectURL(new Blob([bytes], { type: "text/javascript" }));
const view = await import(url);
const data = JSON.parse(document.getElementById("mt-data").textContent);
view.mountPage(document.getElementById("mt-root"), data);
"""


def palette(style: str = "default") -> dict[str, Any]:
    """Step colours and the dark looks per node kind, from ``microtorch.viz.style``."""
    st = get_style(style)
    dark = styles["classroom-dark"].looks
    return {
        "name": st.name,
        "states": {"current": st.current, "done": st.done, "pending": st.pending},
        "dark": {
            kind: {"fill": look.fill, "fontcolor": look.fontcolor} for kind, look in dark.items()
        },
    }


def highlight_data(highlight: Highlight) -> dict[str, Any]:
    """A ``Highlight`` as JSON: the state of each id, and the labels."""
    states: dict[str, str] = {}
    for state in ("pending", "done", "current"):  # later wins, as Highlight.state says
        states.update(dict.fromkeys(sorted(getattr(highlight, state)), state))
    return {"states": dict(sorted(states.items())), "labels": dict(highlight.labels)}


def view_state(
    graph: Graph, source: str | None = None, *, description: str = "", style: str = "default"
) -> dict[str, Any]:
    """What the view in the page is given: DOT, edge order, panel data per node, palette."""
    return {
        "dot": source if source is not None else to_dot(graph, style=style),
        "edges": [[e.id, e.src, e.dst] for e in graph.edges],
        "nodes": all_node_info(graph),
        "highlight": highlight_data(Highlight()),
        "selected": "",
        "description": description,
        "summary": f"{graph.view} graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges",
        "palette": palette(style),
        "theme": "auto",
        "max_height": 640,
    }


def _json_for_script(data: Any) -> str:
    # "<" as \\u003c: no "</script>" can end the element early; still the same JSON
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")


def page_html(
    view: dict[str, Any],
    *,
    title: str,
    frames: Sequence[dict[str, Any]] = (),
    start: int = 0,
) -> str:
    """The page: ``view`` holds a view's traits; a frame: highlight, nodes, status, panel."""
    data = {"view": view, "frames": list(frames), "start": start, "title": title}
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        '<div id="mt-root"></div>\n'
        f'<script type="application/json" id="mt-data">{_json_for_script(data)}</script>\n'
        '<script type="text/plain" id="mt-bundle">'
        f"{base64.b64encode(bundle()).decode()}</script>\n"
        f'<script type="module">{_BOOT}</script>\n</body>\n</html>\n'
    )


def write_page(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` (UTF-8) and return the path."""
    target = Path(path)
    target.write_text(text, encoding="utf-8")
    return target
