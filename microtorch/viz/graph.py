"""Walk a computation graph into plain, immutable data: nodes, edges and module clusters.

Two views of one autograd graph:

* ``"backward"``: what ``loss.backward()`` walks: the output, the ``grad_fn`` nodes by PyTorch's
  names, ``AccumulateGrad`` and the leaf tensors it fills, optionally the saved tensors;
* ``"forward"``: what the student wrote: tensors as boxes (values and ``.grad``) with the
  operations between them.

A gradient taken with ``create_graph=True`` has a graph of its own, made of the nodes its
backward pass recorded and of forward nodes it reads (a saved ``exp(x)``, say). Given
``forward=`` (the tensors of the forward pass), nodes that are not part of the forward's graph
are of kind ``recorded``: the backward pass made them.

Edges point the way data flowed in the forward pass (input -> consumer) in both views. Node ids
are ``n0, n1, ...`` in discovery order from the outputs (inputs in ``next_functions`` order), so
the same code always gives the same ids. The walk uses an explicit stack: no recursion limit.
Nothing here draws; ``to_dot`` and ``text_graph`` turn a ``Graph`` into pictures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from microtorch.viz.describe import dtype_text, is_tensor, shape_text, tensor_lines
from microtorch.viz.nodes import (
    is_accumulate,
    next_nodes,
    node_name,
    op_name,
    output_meta,
    saved_tensors,
    scope,
)

__all__ = ["KINDS", "Cluster", "Edge", "Graph", "Node", "View", "walk"]

View = Literal["backward", "forward"]
# output: a tensor passed to walk; tensor: an intermediate; leaf/param: leaves needing grad;
# op: a grad_fn (backward) or an operation (forward); recorded: an op that a backward pass with
# create_graph=True recorded; saved: saved for backward; module: collapsed
KINDS = ("output", "tensor", "leaf", "param", "op", "recorded", "accumulate", "saved", "module")


@dataclass(frozen=True)
class Node:
    """One box of the picture; ``name`` is the user's name for the tensor it shows or makes."""

    id: str
    kind: str
    title: str
    lines: tuple[str, ...] = ()
    name: str | None = None
    cluster: str | None = None  # module path such as "fc1"


@dataclass(frozen=True)
class Edge:
    """An arrow from an input to the node that consumed it; kind is "data" or "saved"."""

    id: str
    src: str
    dst: str
    kind: str = "data"


@dataclass(frozen=True)
class Cluster:
    """A labelled box around the nodes of one ``nn.Module``."""

    id: str
    name: str


@dataclass(frozen=True)
class Graph:
    """The walked graph; ``sources`` holds the autograd node or tensor behind each node."""

    view: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    clusters: tuple[Cluster, ...]
    outputs: tuple[str, ...]
    sources: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    def node_id(self, obj: object) -> str | None:
        """Id of the node drawn for ``obj`` (a grad_fn or tensor), e.g. to highlight a step."""
        return self._index.get(id(obj))

    @cached_property
    def _index(self) -> dict[int, str]:
        return {
            id(s): n.id for n, s in zip(self.nodes, self.sources, strict=False) if s is not None
        }


def _reachable(outputs: tuple[Any, ...]) -> set[int]:
    """The ids of every node in the graph behind ``outputs``."""
    seen: set[int] = set()
    stack = [t.grad_fn for t in outputs if t.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if id(fn) not in seen:
            seen.add(id(fn))
            stack.extend(next_nodes(fn))
    return seen


def _module_of(name: str | None) -> str | None:
    return name.rsplit(".", 1)[0] if name and "." in name else None


class _Builder:
    """Collects nodes and edges in creation order and remembers the user's names."""

    def __init__(
        self,
        names: Mapping[str, Any] | None,
        outputs: tuple[Any, ...],
        forward: tuple[Any, ...] | None = None,
    ) -> None:
        self.nodes: list[Node] = []
        self.sources: list[Any] = []
        self.edges: list[Edge] = []
        self.tensor_names: dict[int, str] = {}
        self.made_by: dict[int, Any] = {}  # id(grad_fn) -> the named or output tensor it made
        self.made_name: dict[int, str] = {}
        self.keep: list[Any] = []  # keeps every id() above valid for the walk's lifetime
        for key, value in (names or {}).items():
            if key.startswith("_") or not is_tensor(value) or id(value) in self.tensor_names:
                continue
            self.tensor_names[id(value)] = key
            if value.grad_fn is not None:
                self.made_name.setdefault(id(value.grad_fn), key)
                self._remember(value)
        self.output_fns = {id(t.grad_fn) for t in outputs if t.grad_fn is not None}
        for tensor in outputs:
            self._remember(tensor)
        self.forward_fns = None if forward is None else _reachable(forward)

    def op_kind(self, fn: Any) -> str:
        """The kind of an op node: "recorded" if it is not part of the forward pass's graph."""
        if self.forward_fns is None or id(fn) in self.forward_fns:
            return "op"
        return "recorded"

    def _remember(self, tensor: Any) -> None:
        fn = tensor.grad_fn
        if fn is not None:
            self.made_by.setdefault(id(fn), tensor)
            self.keep.append(fn)

    def node(
        self,
        kind: str,
        title: str,
        lines: Iterable[str] = (),
        *,
        name: str | None = None,
        cluster: str | None = None,
        source: Any = None,
    ) -> str:
        node_id = f"n{len(self.nodes)}"
        self.nodes.append(Node(node_id, kind, title, tuple(lines), name, cluster))
        self.sources.append(source)
        return node_id

    def edge(self, src: str, dst: str, kind: str = "data") -> None:
        self.edges.append(Edge(f"e{len(self.edges)}", src, dst, kind))

    def tensor(self, tensor: Any, kind: str, lines: Iterable[str] | None = None) -> str:
        """A box for a known tensor; unnamed tensors are titled by their shape."""
        name = self.tensor_names.get(id(tensor))
        if kind == "leaf" and type(tensor).__name__ == "Parameter":
            kind = "param"
        shape = shape_text(tensor.shape)
        if lines is None:
            lines = (shape,) if name else ()
        return self.node(
            kind, name or shape, lines, name=name, cluster=_module_of(name), source=tensor
        )

    def graph(self, view: str, outputs: list[str]) -> Graph:
        order = dict.fromkeys(n.cluster for n in self.nodes if n.cluster)
        clusters = tuple(Cluster(f"c{i}", name) for i, name in enumerate(order))
        return Graph(
            view,
            tuple(self.nodes),
            tuple(self.edges),
            clusters,
            tuple(outputs),
            tuple(self.sources),
        )


def _walk_backward(b: _Builder, outputs: tuple[Any, ...], show_saved: bool) -> list[str]:
    ids: dict[int, str] = {}  # id(grad_fn) -> node id

    def discover(fn: Any) -> bool:
        if id(fn) in ids:
            return False
        if is_accumulate(fn):
            leaf = b.tensor(fn.variable, "leaf")
            cluster = b.nodes[-1].cluster
            ids[id(fn)] = b.node("accumulate", "AccumulateGrad", cluster=cluster, source=fn)
            b.edge(leaf, ids[id(fn)])
            return False  # a leaf: nothing to expand
        name = None if id(fn) in b.output_fns else b.made_name.get(id(fn))
        ids[id(fn)] = b.node(
            b.op_kind(fn), node_name(fn), (name,) if name else (), name=name, cluster=scope(fn),
            source=fn,
        )  # fmt: skip
        return True

    output_ids = []
    for out in outputs:
        if out.grad_fn is None:
            output_ids.append(b.tensor(out, "leaf" if out.requires_grad else "output"))
            continue
        output_ids.append(b.tensor(out, "output"))
        stack = [out.grad_fn] if discover(out.grad_fn) else []
        b.edge(ids[id(out.grad_fn)], output_ids[-1])
        while stack:
            fn = stack.pop()
            new = [child for child in next_nodes(fn) if discover(child)]
            for child in next_nodes(fn):
                b.edge(ids[id(child)], ids[id(fn)])
            if show_saved:
                _add_saved(b, fn, ids[id(fn)])
            stack.extend(reversed(new))  # the first input is expanded first
    return output_ids


def _add_saved(b: _Builder, fn: Any, fn_id: str) -> None:
    saved = saved_tensors(fn)
    if saved is None:
        b.edge(b.node("saved", "saved tensors", ("freed by backward",)), fn_id, "saved")
        return
    for label, value in saved:  # microtorch's built-in ops save numpy arrays, PyTorch tensors
        text = shape_text(value.shape) if hasattr(value, "shape") else repr(value)
        b.edge(b.node("saved", label, (text,)), fn_id, "saved")


def _walk_forward(b: _Builder, outputs: tuple[Any, ...], max_values: int) -> list[str]:
    value_ids: dict[int, str] = {}  # id(grad_fn) -> the box of the tensor it produced

    def value_box(fn: Any) -> bool:
        if id(fn) in value_ids:
            return False
        if is_accumulate(fn):
            value_ids[id(fn)] = b.tensor(fn.variable, "leaf", tensor_lines(fn.variable, max_values))
            return False
        tensor = b.made_by.get(id(fn))  # a tensor passed in names= (a node, as in PyTorch,
        if tensor is not None:  # does not keep its output: only its shape and dtype)
            lines = tensor_lines(tensor, max_values)
        else:
            meta = output_meta(fn)
            lines = (f"{shape_text(meta[0])} {dtype_text(meta[1])}",) if meta else ()
            lines += ("no name given",)
        name = b.made_name.get(id(fn))
        kind = "output" if id(fn) in b.output_fns else "tensor"
        value_ids[id(fn)] = b.node(
            kind, name or "", lines, name=name, cluster=_module_of(name) or scope(fn), source=tensor
        )
        return True

    output_ids = []
    for out in outputs:
        if out.grad_fn is None:
            kind = "leaf" if out.requires_grad else "output"
            output_ids.append(b.tensor(out, kind, tensor_lines(out, max_values)))
            continue
        stack = [out.grad_fn] if value_box(out.grad_fn) else []
        output_ids.append(value_ids[id(out.grad_fn)])
        while stack:
            fn = stack.pop()
            op = b.node(b.op_kind(fn), op_name(fn), cluster=scope(fn), source=fn)
            b.edge(op, value_ids[id(fn)])
            new = [child for child in next_nodes(fn) if value_box(child)]
            for child in next_nodes(fn):
                b.edge(value_ids[id(child)], op)
            stack.extend(reversed(new))
    return output_ids


def walk(
    outputs: Any,
    names: Mapping[str, Any] | None = None,
    *,
    view: View = "backward",
    show_saved: bool = False,
    max_values: int = 6,
    forward: Any = None,
) -> Graph:
    """Walk the graph behind ``outputs`` (a tensor or a sequence of them) into a ``Graph``.

    ``forward`` (a tensor or a sequence of them, for the graph of a gradient): the forward
    pass's outputs; the nodes not behind them are drawn as recorded by the backward pass.

    >>> import microtorch as torch
    >>> x = torch.tensor([2.0], requires_grad=True)
    >>> [n.title for n in walk(x * 3, {"x": x}).nodes]
    ['(1,)', 'MulBackward0', 'x', 'AccumulateGrad']
    """
    if view not in ("backward", "forward"):
        raise ValueError(f'view must be "backward" or "forward", not {view!r}')
    outs = (outputs,) if is_tensor(outputs) else tuple(outputs)
    for out in outs:
        if not is_tensor(out):
            raise TypeError(f"walk() takes tensors, got {type(out).__name__}")
    fwd = None if forward is None else (forward,) if is_tensor(forward) else tuple(forward)
    for out in fwd or ():
        if not is_tensor(out):
            raise TypeError(f"walk(forward=...) takes tensors, got {type(out).__name__}")
    builder = _Builder(names, outs, fwd)
    if view == "backward":
        output_ids = _walk_backward(builder, outs, show_saved)
    else:
        output_ids = _walk_forward(builder, outs, max_values)
    return builder.graph(view, output_ids)
