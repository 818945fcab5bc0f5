"""Turn a ``Graph`` into Graphviz DOT text: a pure function, the same text for the same input.

Statements always come in the same order (top-level nodes, then each module's cluster, then
edges); the legend is the graph's label, a few lines of words under the drawing, so it never
widens a drawing wider than itself. A ``Highlight`` only changes attributes, and its labels are
``xlabel``s, which Graphviz places after layout, so every step of a walk-through keeps one
layout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from microtorch.viz.graph import KINDS, Edge, Graph, Node
from microtorch.viz.highlight import Highlight
from microtorch.viz.style import LEGEND, Style, get_style

__all__ = ["legend_text", "to_dot"]

RANKDIRS = ("BT", "TB", "LR", "RL")
_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


def _value(value: object) -> str:
    if isinstance(value, (int, float)):
        return f"{value:g}"
    text = str(value)
    if _ID.fullmatch(text) and text.lower() not in _KEYWORDS:
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(pairs: Iterable[tuple[str, object]]) -> str:
    text = " ".join(f"{key}={_value(value)}" for key, value in pairs)
    return f" [{text}]" if text else ""


def _marks(item_id: str, style_attr: str, st: Style, hl: Highlight) -> list[tuple[str, object]]:
    """Highlight attributes: colour plus line width or dashes, so never colour alone."""
    state = hl.state(item_id)
    marks: list[tuple[str, object]] = []
    if state == "current":
        marks = [("color", st.current), ("penwidth", st.penwidth * 3)]
    elif state == "done":
        marks = [("color", st.done), ("penwidth", st.penwidth * 2)]
    elif state == "pending":
        dashed = f"{style_attr},dashed" if style_attr else "dashed"
        marks = [("color", st.pending), ("style", dashed)]
    if item_id in hl.labels:
        marks.append(("xlabel", hl.labels[item_id]))
    return marks


def _node(node: Node, st: Style, hl: Highlight) -> str:
    look = st.looks[node.kind]
    label = "\n".join(([node.title] if node.title else []) + list(node.lines))
    attrs: list[tuple[str, object]] = [("label", label), ("shape", look.shape)]
    attrs.append(("fillcolor", look.fill))
    if look.fontcolor != "#000000":
        attrs.append(("fontcolor", look.fontcolor))
    if look.peripheries != 1:
        attrs.append(("peripheries", look.peripheries))
    marks = _marks(node.id, look.style, st, hl)
    if look.style != "filled" and not any(key == "style" for key, _ in marks):
        attrs.append(("style", look.style))
    return f"{node.id}{_attrs(attrs + marks)}"


def _edge(edge: Edge, st: Style, hl: Highlight) -> str:
    base = "dashed" if edge.kind == "saved" else ""
    attrs: list[tuple[str, object]] = [("style", base)] if base else []
    marks = _marks(edge.id, base, st, hl)
    if any(key == "style" for key, _ in marks):
        attrs = []
    return f"{edge.src} -> {edge.dst}{_attrs(attrs + marks)}"


LEGEND_LINE = 60  # characters per line of the legend: about as wide as a small graph


def legend_text(graph: Graph, st: Style) -> str:
    """What each kind of node drawn in ``graph`` looks like and means, in a few short lines."""
    present = {n.kind for n in graph.nodes}
    entries = [f"{st.looks[k].words}: {LEGEND[k]}" for k in LEGEND if k in present]
    lines: list[str] = []
    for entry in entries:
        if lines and len(lines[-1]) + 3 + len(entry) <= LEGEND_LINE:
            lines[-1] += f" · {entry}"
        else:
            lines.append(entry)
    return "\n".join(lines)


def to_dot(
    graph: Graph,
    *,
    highlight: Highlight | None = None,
    style: str | Style = "default",
    rankdir: str | None = None,
    legend: bool = False,
) -> str:
    """DOT text for ``graph``; ``rankdir`` defaults to "BT" (loss on top) for the backward view.

    >>> from microtorch.viz.graph import Graph, Node
    >>> graph = Graph("backward", (Node("n0", "op", "MulBackward0"),), (), (), ())
    >>> print(to_dot(graph).splitlines()[-2])
      n0 [label=MulBackward0 shape=ellipse fillcolor="#FFFFFF"]
    """
    st, hl = get_style(style), highlight or Highlight()
    rankdir = rankdir or ("BT" if graph.view == "backward" else "TB")
    if rankdir not in RANKDIRS:
        raise ValueError(f"rankdir must be one of {RANKDIRS}, not {rankdir!r}")
    unknown = {n.kind for n in graph.nodes} - set(KINDS)
    assert not unknown, f"walk made nodes of unknown kinds {unknown}"
    font = [("fontname", st.fontname), ("fontsize", st.fontsize)]
    ink = [("color", st.ink), ("fontcolor", st.ink)]  # cluster outlines, labels and arrows
    graph_attrs = [("rankdir", rankdir), ("bgcolor", st.background), *font, *ink]
    graph_attrs += [("nodesep", st.nodesep), ("ranksep", st.ranksep)]
    if legend and graph.nodes:
        graph_attrs += [("label", legend_text(graph, st)), ("labelloc", "b")]
    node_attrs = [*font, ("penwidth", st.penwidth), ("color", st.ink), ("style", "filled")]
    edge_attrs = [*font, ("penwidth", st.penwidth), ("arrowsize", st.arrowsize), *ink]
    lines = [
        "digraph microtorch {",
        f"  graph{_attrs(graph_attrs)}",
        f"  node{_attrs(node_attrs)}",
        f"  edge{_attrs(edge_attrs)}",
    ]
    known = {c.name for c in graph.clusters}
    by_cluster: dict[str | None, list[Node]] = {}
    for node in graph.nodes:  # a node naming no known cluster is drawn at the top level
        by_cluster.setdefault(node.cluster if node.cluster in known else None, []).append(node)
    lines += [f"  {_node(n, st, hl)}" for n in by_cluster.get(None, [])]
    for cluster in graph.clusters:
        lines += [
            f"  subgraph cluster_{cluster.id} {{",
            f"    label={_value(cluster.name)}",
            "    style=rounded",
        ]
        lines += [f"    {_node(n, st, hl)}" for n in by_cluster.get(cluster.name, [])]
        lines.append("  }")
    lines += [f"  {_edge(e, st, hl)}" for e in graph.edges]
    return "\n".join([*lines, "}"]) + "\n"
