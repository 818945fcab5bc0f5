"""What the live view's side panel says about one drawn node: plain, JSON-ready data.

For a ``grad_fn`` node: what it is, its inputs (``next_functions``) and what it saved for
backward, or that backward has freed it. For ``AccumulateGrad``: its ``variable`` and that
tensor's ``.grad``. For a tensor box: shape, dtype, values and ``.grad``. Everything is read
from the objects now, so asking again after ``backward()`` shows what backward changed.

Node attributes read (both libraries have them): ``name()``, ``next_functions``,
``variable`` (AccumulateGrad), ``saved_tensors`` (raises RuntimeError once freed).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from microtorch.viz.describe import dtype_text, is_tensor, shape_text, values_text
from microtorch.viz.graph import Graph, Node
from microtorch.viz.nodes import is_accumulate, node_name, saved_tensors
from microtorch.viz.style import LEGEND

__all__ = ["all_node_info", "node_info", "value_rows"]

MAX_VALUES = 24  # a panel row shows every value up to this many, else min/max/mean
FREED = (
    "freed: backward has already run through this node and released what it saved "
    "(PyTorch does the same; backward(retain_graph=True) keeps it)"
)
WHAT = {
    "op": "A node of the backward graph: given the gradient of its forward output, it sends "
    "one gradient to each input (next_functions).",
    "recorded": "A node that a backward pass recorded (create_graph=True): the gradient it "
    "helps compute can itself be differentiated.",
    "accumulate": "AccumulateGrad: adds the gradient that reaches it into its leaf's .grad.",
    "leaf": "A leaf tensor: you made it with requires_grad=True, so backward fills its .grad.",
    "param": "A parameter (a leaf tensor of a module): backward fills its .grad.",
    "output": "The tensor backward starts from: its gradient with respect to itself is 1.",
    "tensor": "An intermediate tensor, made by an operation in the forward pass.",
    "saved": "A value the operation saved in the forward pass for its backward.",
    "module": "A whole nn.Module drawn as one box.",
}


def _array(value: Any) -> np.ndarray:
    if is_tensor(value):
        return np.asarray(value.detach().numpy())
    return np.asarray(value)


def _values(data: np.ndarray) -> str:
    return values_text(data, MAX_VALUES)  # as the drawings write them: [2, 3], 0.25


def _grad(tensor: Any) -> Any:
    with warnings.catch_warnings():  # PyTorch warns when .grad of a non-leaf is read
        warnings.simplefilter("ignore")
        return tensor.grad


def value_rows(value: Any, prefix: str = "") -> list[list[str]]:
    """Rows ``[label, text]`` for a tensor or array: shape, dtype, values, and ``.grad``."""
    data = _array(value)
    dtype = dtype_text(value.dtype) if is_tensor(value) else str(data.dtype)
    rows = [
        [f"{prefix}shape", shape_text(data.shape)],
        [f"{prefix}dtype", dtype],
        [f"{prefix}values", _values(data)],
    ]
    if is_tensor(value) and value.requires_grad:
        grad = _grad(value)
        if value.grad_fn is None:  # a leaf: None until a backward reaches it
            rows.append([f"{prefix}.grad", "None" if grad is None else _values(_array(grad))])
        else:
            rows.append([f"{prefix}grad_fn", node_name(value.grad_fn)])
    return rows


def _op_sections(fn: Any, titles: dict[int, str]) -> list[dict[str, Any]]:
    inputs = []
    for i, (child, _) in enumerate(fn.next_functions):
        if child is None:
            inputs.append([f"input {i}", "None (needs no gradient)"])
        else:
            inputs.append([f"input {i}", titles.get(id(child), node_name(child))])
    sections: list[dict[str, Any]] = [
        {"heading": "next_functions (where its gradients go)", "rows": inputs}
    ]
    saved = saved_tensors(fn)
    heading = "saved for backward (ctx.saved_tensors)"
    if saved is None:
        sections.append({"heading": heading, "note": FREED, "rows": [], "freed": True})
    elif not saved:
        sections.append({"heading": heading, "note": "nothing: its backward needs no values"})
    else:
        rows = []
        for label, value in saved:
            if hasattr(value, "shape"):
                rows += value_rows(value, f"{label} ")
            else:
                rows.append([label, repr(value)])
        sections.append({"heading": heading, "rows": rows})
    return sections


def _titles(graph: Graph) -> dict[int, str]:
    """id(source object) -> how the panel names it: its title, plus the leaf of AccumulateGrad."""
    by_id = {n.id: n for n in graph.nodes}
    into = {e.dst: e.src for e in graph.edges}
    titles = {}
    for node, source in zip(graph.nodes, graph.sources, strict=False):
        if source is None:
            continue
        title = node.title
        if node.kind == "accumulate" and node.id in into:
            title = f"AccumulateGrad of {by_id[into[node.id]].title}"
        titles[id(source)] = title
    return titles


def node_info(
    graph: Graph, node: Node, source: Any, titles: dict[int, str] | None = None
) -> dict[str, Any]:
    """The panel's data for ``node`` (``source``: the grad_fn or tensor it was drawn for)."""
    titles = titles if titles is not None else _titles(graph)
    info: dict[str, Any] = {
        "kind": node.kind,
        "title": node.title or (node.name or ""),
        "what": WHAT.get(node.kind, ""),
        "label": f"{node.title or node.name or node.kind}, {LEGEND.get(node.kind, node.kind)}",
    }
    sections: list[dict[str, Any]] = []
    if node.name and node.name != node.title:
        sections.append({"heading": "your name for it", "rows": [["name", node.name]]})
    if source is not None and is_tensor(source):
        sections.append({"heading": "tensor", "rows": value_rows(source)})
    elif source is not None and is_accumulate(source):
        sections.append({"heading": "AccumulateGrad.variable", "rows": value_rows(source.variable)})
    elif source is not None and hasattr(source, "next_functions"):
        if graph.view == "forward":
            info["what"] = f"The operation {node.title}; backward runs {node_name(source)} for it."
        sections += _op_sections(source, titles)
    elif node.lines:
        sections.append({"heading": "drawn as", "rows": [["", line] for line in node.lines]})
    info["sections"] = sections
    return info


def all_node_info(graph: Graph, ids: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """``node_info`` for every node of ``graph`` (or only ``ids``), keyed by node id."""
    titles = _titles(graph)
    sources = list(graph.sources) + [None] * (len(graph.nodes) - len(graph.sources))
    return {
        node.id: node_info(graph, node, source, titles)
        for node, source in zip(graph.nodes, sources)
        if ids is None or node.id in ids
    }
