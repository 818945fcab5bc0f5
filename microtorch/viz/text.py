"""Draw the backward graph as text, like the seed's ``Loss / ↑ / CrossEntropyBackward / ...``.

Needs no Graphviz, so it works in a terminal, a doctest and nbval-compared output. A chain is
drawn as a column joined by ``↑``; where a node has several inputs they branch as a tree. An
operation reached a second time is written once more with ``(see above)`` instead of its inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from microtorch.viz.describe import is_tensor
from microtorch.viz.graph import Graph, Node, walk

__all__ = ["text_graph"]


def _tensor_text(node: Node) -> str:
    return node.name or f"tensor {node.title}"


def _inputs(graph: Graph) -> dict[str, list[str]]:
    inputs: dict[str, list[str]] = {}
    for edge in graph.edges:
        inputs.setdefault(edge.dst, []).append(edge.src)
    return inputs


def _lines(graph: Graph) -> list[str]:
    nodes = {n.id: n for n in graph.nodes}
    inputs = _inputs(graph)
    lines: list[str] = []
    expanded: set[str] = set()
    for output in graph.outputs:
        if lines:
            lines.append("")
        # items: a plain line of text, or (node id, prefix of its line, prefix of what follows)
        stack: list[str | tuple[str, str, str]] = [(output, "", "")]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                lines.append(item)
                continue
            node_id, first, rest = item
            node, below = nodes[node_id], inputs.get(node_id, [])
            if node.kind == "output" and below:  # the output and its grad_fn share one line
                text = f"{_tensor_text(node)} ({nodes[below[0]].title})"
                node_id, below = below[0], inputs.get(below[0], [])
            elif node.kind == "accumulate" and below:
                text, below = f"{_tensor_text(nodes[below[0]])} (AccumulateGrad)", []
            elif node.kind in ("leaf", "param"):
                text = f"{_tensor_text(node)} (leaf)"
            elif node.kind == "output":  # a tensor that needs no gradient: no graph behind it
                text = _tensor_text(node)
            elif node.kind in ("op", "recorded") and node.name:
                text = f"{node.name} ({node.title})"
            else:
                text = node.title
            if node_id in expanded and below:
                text, below = f"{text} (see above)", []
            expanded.add(node_id)
            lines.append(first + text)
            if len(below) == 1:
                stack += [(below[0], rest, rest), f"{rest} ↑"]
            for i, child in enumerate(reversed(below) if len(below) > 1 else ()):
                last = i == 0  # reversed: the first pushed is drawn last
                branch = (rest + ("└─↑ " if last else "├─↑ "), rest + ("    " if last else "│   "))
                stack.append((child, *branch))
    return lines


def text_graph(*outputs: Any, names: Mapping[str, Any] | None = None) -> str:
    """The backward graph of ``outputs`` as lines of text (no Graphviz needed).

    >>> import microtorch as torch
    >>> x = torch.tensor([2.0], requires_grad=True)
    >>> y = x * 3
    >>> print(text_graph(y, names={"x": x, "y": y}))
    y (MulBackward0)
     ↑
    x (AccumulateGrad)
    """
    if len(outputs) == 1 and not is_tensor(outputs[0]):
        outputs = tuple(outputs[0])  # also accept one list or tuple of tensors
    return "\n".join(_lines(walk(outputs, names, view="backward")))
