"""Lay a graph out once, then re-style the SVG per step: no Graphviz run after the first.

``to_dot`` + Graphviz give one SVG; every node and edge group in it is found by its ``<title>``
(the graph's node id, or ``src->dst`` for an edge) and gets a class slot. A step only fills the
slots with ``mt-current``/``mt-done``/``mt-pending`` and adds text labels, so the picture never
moves between steps and one update costs a string join.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict

from microtorch.viz import Graph, Highlight, render, to_dot
from microtorch.viz.style import get_style

__all__ = ["StyledSVG", "svg_css"]

_GROUP = re.compile(
    r'<g id="[^"]*" class="(?P<kind>node|edge)">\s*<title>(?P<title>[^<]*)</title>'
    r"(?P<body>.*?)</g>",
    re.DOTALL,
)
_NUMBER = r"-?\d+(?:\.\d+)?"
_ELLIPSE = re.compile(rf'cx="({_NUMBER})" cy="({_NUMBER})" rx="({_NUMBER})"')
_POINTS = re.compile(rf"({_NUMBER}),({_NUMBER})")
_PATH = re.compile(r' d="([^"]*)"')
_SVG_TAG = "<svg "
_WIDTH = re.compile(rf'<svg width="({_NUMBER})pt"')


def svg_css(style: str = "default") -> str:
    """The CSS that draws the step states (scoped to ``svg.mt-graph``): colour and line width."""
    st = get_style(style)
    rules = []
    for state, colour, width, dash in (
        ("current", st.current, 3.5, "none"),
        ("done", st.done, 2.2, "none"),
        ("pending", st.pending, 1.0, "5,3"),
    ):
        shapes = f"svg.mt-graph g.mt-{state} > :is(ellipse, polygon, path)"
        rules.append(
            f"{shapes} {{ stroke: {colour}; stroke-width: {width}px; stroke-dasharray: {dash}; }}"
        )
        arrow = f"svg.mt-graph g.edge.mt-{state} > polygon"
        rules.append(f"{arrow} {{ fill: {colour}; stroke-dasharray: none; }}")
        rules.append(f"svg.mt-graph text.mt-{state} {{ fill: {colour}; }}")
    rules.append(
        "svg.mt-graph text.mt-label { font: bold 11px Helvetica, sans-serif; "
        "paint-order: stroke; stroke: #FFFFFF; stroke-width: 3px; }"
    )
    return "\n".join(rules)


def _anchor(kind: str, body: str) -> tuple[float, float]:
    """Where a label goes: right of a node, at the middle of an edge's path."""
    if kind == "edge":
        found = _PATH.search(body)
        points = _POINTS.findall(found.group(1)) if found else []
    else:
        ellipse = _ELLIPSE.search(body)
        if ellipse:
            cx, cy, rx = (float(v) for v in ellipse.groups())
            return cx + rx + 4, cy + 4
        points = _POINTS.findall(body)
    if not points:
        return 0.0, 0.0
    if kind == "edge":
        x, y = points[len(points) // 2]
        return float(x) + 5, float(y)
    return max(float(x) for x, _ in points) + 4, sum(float(y) for _, y in points) / len(points) + 4


class StyledSVG:
    """One Graphviz layout of ``graph`` whose node and edge styles change per ``Highlight``."""

    def __init__(self, graph: Graph, *, style: str = "default", renderer: str = "auto") -> None:
        svg = render(to_dot(graph, style=style), "svg", renderer=renderer).decode()
        svg = svg[svg.index("<svg") :]  # inline HTML: no XML prolog or DOCTYPE
        found = _WIDTH.match(svg)
        self.width_px = float(found.group(1)) * 4 / 3 if found else 0.0  # natural width (CSS px)
        # natural size, shrunk to fit the page's width (the viewBox keeps the aspect ratio)
        svg = svg.replace(
            _SVG_TAG, f'{_SVG_TAG}class="mt-graph" style="max-width:100%;height:auto" ', 1
        )
        svg = svg.replace(">", f"><style>{svg_css(style)}</style>", 1)
        edge_ids: dict[str, list[str]] = defaultdict(list)  # "n1->n0" -> ["e0", ...] in order
        for edge in graph.edges:
            edge_ids[f"{edge.src}->{edge.dst}"].append(edge.id)
        self.ids: list[str] = []  # the id filling each class slot, in document order
        self.anchors: dict[str, tuple[float, float]] = {}
        self._parts: list[str] = []
        known = {node.id for node in graph.nodes}
        end = 0
        for match in _GROUP.finditer(svg):
            title = html.unescape(match.group("title"))
            ids = edge_ids.get(title) if match.group("kind") == "edge" else None
            item_id = ids.pop(0) if ids else (title if title in known else None)
            if item_id is None:
                continue  # legend entries keep their look
            class_at = match.start() + match.group(0).index('">')  # inside class="..."
            self._parts.append(svg[end:class_at])
            end = class_at
            self.ids.append(item_id)
            self.anchors[item_id] = _anchor(match.group("kind"), match.group("body"))
        closing = svg.rindex("</g>")  # the end of the whole-graph group: labels go on top
        self._parts += [svg[end:closing], svg[closing:]]

    def svg(self, highlight: Highlight) -> str:
        """The SVG text with ``highlight``'s states and labels."""
        out = [self._parts[0]]
        for item_id, part in zip(self.ids, self._parts[1:]):
            state = highlight.state(item_id)
            # closes class="node mt-done" and adds data-mt="n3", for tests and the browser
            out.append(f' mt-{state}" data-mt="{item_id}' if state else f'" data-mt="{item_id}')
            out.append(part)
        out.append(self._labels(highlight))
        out.append(self._parts[-1])
        return "".join(out)

    def _labels(self, highlight: Highlight) -> str:
        texts = []
        placed: list[tuple[float, float, float]] = []  # (x, y, width) of each label so far
        for item_id, text in highlight.labels.items():
            if item_id not in self.anchors:
                continue
            x, y = _free_spot(*self.anchors[item_id], _LABEL_CHAR_PX * len(text), placed)
            state = highlight.state(item_id) or "current"
            texts.append(
                f'<text class="mt-label mt-{state}" x="{x:.1f}" y="{y:.1f}" '
                f'data-for="{item_id}">{html.escape(text)}</text>'
            )
        return '<g class="mt-labels">' + "".join(texts) + "</g>"


_LABEL_CHAR_PX = 6.5  # about one character of the bold 11 px label font
_LABEL_LINE_PX = 13.0


def _free_spot(
    x: float, y: float, width: float, placed: list[tuple[float, float, float]]
) -> tuple[float, float]:
    """The anchor, moved down a line at a time until the label overlaps no earlier one."""
    while any(
        abs(y - py) < _LABEL_LINE_PX and x < px + pw and px < x + width for px, py, pw in placed
    ):
        y += _LABEL_LINE_PX
    placed.append((x, y, width))
    return x, y
