"""The backward engine: walk the graph from the output, apply the chain rule node by node.

``run_backward`` is the one walk. It is iterative (a 100,000-op chain needs no recursion), and
runs a node only once every gradient headed for it has arrived, so a value used twice gets the
sum of both gradients. Among ready nodes the one created last runs first, as in PyTorch.
``backward``, ``autograd.grad`` and ``iter_backward`` all drain it; ``iter_backward`` turns
each step into a ``BackwardStep`` record, which the widgets replay (they never compute a
gradient themselves).
"""

from __future__ import annotations

import contextlib
import heapq
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.autograd.node import AccumulateGrad, Node, accumulate_grad_of
from microtorch.autograd.quiet import quiet_numpy
from microtorch.autograd.teaching_mode import warn_stale_grads

__all__ = ["BackwardStep", "iter_backward", "run_backward", "root_grads", "roots_of"]

Root = tuple[Node, int, np.ndarray]  # (node, which of its outputs, the gradient arriving there)


def run_backward(
    roots: list[Root], retain_graph: bool, stop_at: set[Node] | None = None
) -> Iterator[tuple[Node, list[Any], tuple[Any, ...] | None]]:
    """Run each node once every gradient headed for it has arrived; yield what it did.

    With ``stop_at`` (the nodes of ``autograd.grad``'s inputs), only the nodes that lead to
    one of them run; a node of ``stop_at`` that leads nowhere further is yielded with its
    gradients but not run (``None`` for what it passed on).
    """
    pending = count_dependencies(node for node, _, _ in roots)
    needed = visit = None
    if stop_at is not None:  # autograd.grad: only the part of the graph leading to its inputs
        needed = nodes_leading_to(stop_at, pending)
        visit = needed | stop_at
    buffers: dict[Node, list[Any]] = {}  # node -> one gradient per output, summed over uses
    for node, output_nr, grad in roots:
        add_into(buffers, node, output_nr, grad)
    ready: list[Node] = []  # a heap: the node created last comes out first (see Node.__lt__)
    for node in buffers:
        if pending[node] == 0:
            heapq.heappush(ready, node)
    while ready:
        node = heapq.heappop(ready)
        grad_outputs = buffers.pop(node)
        if node.has_pre_hooks:  # tensor hooks, retain_grad() (most nodes have none)
            grad_outputs = node.pre_hooks(grad_outputs)
        if needed is not None and node not in needed:  # one of stop_at: its gradient is the result
            yield node, grad_outputs, None
            continue
        grad_inputs = node.run(grad_outputs)  # AccumulateGrad.run does leaf.grad += grad
        yield node, grad_outputs, grad_inputs
        if not retain_graph:
            node.release_saved()
        for child, output_nr, grad in zip(node._next_nodes, node._next_nrs, grad_inputs):
            if child is None or (visit is not None and child not in visit):
                continue
            if visit is None and type(child) is AccumulateGrad:  # .grad keeps only a gradient
                grad = private(grad, node, grad_outputs, grad_inputs)  # that nothing else holds
            add_into(buffers, child, output_nr, grad)
            pending[child] -= 1
            if pending[child] == 0:
                heapq.heappush(ready, child)


def add_into(buffers: dict[Node, list[Any]], node: Node, output_nr: int, grad: Any) -> None:
    """Add ``grad`` into ``node``'s slot for that output (a value used twice gets the sum)."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node._num_outputs
    if grad is not None:
        current = slots[output_nr]
        slots[output_nr] = grad if current is None else current + grad  # out of place: shared


def private(grad: Any, node: Node, grad_outputs: list[Any], grad_inputs: tuple[Any, ...]) -> Any:
    """``grad`` on its way to a leaf: as it is if ``node``'s formula made it for this edge alone,
    else a view of it. The leaf's first ``.grad`` is an array that owns its memory as it is,
    a copy of a view (``Tensor._add_to_grad``, the one place that decides), so ``.grad += ...``
    later changes nothing else, as in PyTorch (which keeps a gradient no other tensor refers
    to, and copies a shared one)."""
    if not isinstance(grad, np.ndarray) or grad.base is not None:  # (a view is copied anyway;
        return grad  # a Tensor, with create_graph=True, joins .grad's graph out of place)
    if node._hooks:  # (a hook saw it)
        return grad.view()
    for g in grad_outputs:  # passed through, as AddBackward0 does
        if g is grad:
            return grad.view()
    uses = 0
    for g in grad_inputs:  # sent along two edges
        uses += g is grad
    return grad.view() if uses > 1 else grad


def count_dependencies(roots: Iterable[Node]) -> dict[Node, int]:
    """How many edges point at each node: a node is ready when that many gradients arrived."""
    pending: dict[Node, int] = dict.fromkeys(roots, 0)
    stack = list(pending)
    while stack:
        for child in stack.pop()._next_nodes:
            if child is None:
                continue
            if child in pending:
                pending[child] += 1
            else:
                pending[child] = 1
                stack.append(child)
    return pending


def nodes_leading_to(targets: set[Node], graph: dict[Node, int]) -> set[Node]:
    """The nodes of ``graph`` with a path to one of ``targets`` (of at least one edge)."""
    users: dict[Node, list[Node]] = {}  # node -> the nodes with an edge to it
    for node in graph:
        for child in node._next_nodes:
            if child is not None:
                users.setdefault(child, []).append(node)
    needed: set[Node] = set()
    stack = list(targets)  # walk the edges backwards, from the targets up
    while stack:
        for user in users.get(stack.pop(), ()):
            if user not in needed:
                needed.add(user)
                stack.append(user)
    return needed


def roots_of(tensors: Sequence[Any], grads: list[np.ndarray]) -> list[Root]:
    """Where backward starts: each output's node (a leaf's AccumulateGrad) and its gradient."""
    for i, t in enumerate(tensors):  # (a view made before its base's requires_grad_() has
        if t.grad_fn is None and not t._rg:  # neither: it requires grad, yet is no root)
            raise RuntimeError(_no_root(i))
    return [
        (input_node(t), t._output_nr if t.grad_fn is not None else 0, g)
        for t, g in zip(tensors, grads)
    ]


def input_node(t: Any) -> Node:
    """The node whose gradient slot holds ``t``'s gradient: its grad_fn, or AccumulateGrad."""
    return t.grad_fn if t.grad_fn is not None else accumulate_grad_of(t)


def _no_root(i: int) -> str:
    return (
        f"element {i} of tensors does not require grad and does not have a grad_fn (Fix: "
        "create the inputs with requires_grad=True, and do not compute this inside "
        "torch.no_grad() or after .detach().)"
    )


def root_grads(tensors: Sequence[Any], grad_tensors: Sequence[Any] | None) -> list[np.ndarray]:
    """The starting gradients: ``gradient=`` if given, else 1 for scalar outputs."""
    grads = []
    for i, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError(_no_root(i))
        g = None if grad_tensors is None else grad_tensors[i]
        if g is None:
            if t._data.size != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs (this output has "
                    f"shape {list(t._data.shape)}; reduce it first, e.g. y.sum().backward(), or "
                    "pass gradient= with that shape)"
                )
            grads.append(np.ones_like(t._data))
            continue
        if not isinstance(g, (_node.Tensor, np.ndarray)):  # arrays: gradcheck passes them
            raise TypeError(
                f"gradients can be either Tensors or None, but got {type(g).__name__} (Fix: "
                "pass gradient=torch.ones_like(y), a tensor of the output's shape)"
            )
        g_data = g._data if isinstance(g, _node.Tensor) else np.asarray(g, dtype=t._data.dtype)
        if g_data.shape != t._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of "
                f"torch.Size({list(g_data.shape)}) and output[{i}] has a shape of "
                f"torch.Size({list(t._data.shape)})."
            )
        # the engine's own copy (a leaf may keep it as .grad), in the output's dtype, as PyTorch
        grads.append(np.array(g_data, dtype=t._data.dtype))
    return grads


@contextlib.contextmanager
def recording(create_graph: bool) -> Iterator[None]:
    """A backward pass with ``create_graph`` on or off: on, the nodes' formulas compute on
    Tensors in grad mode, so what they compute is recorded (and off again inside it, for a
    hook's own first-order ``autograd.grad``)."""
    was = grad_mode.switches.create_graph
    grad_mode.switches.create_graph = create_graph
    try:
        with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
            yield
    finally:
        grad_mode.switches.create_graph = was


def recorded_roots(roots: list[Root], given: Sequence[Any] | None) -> list[Any]:
    """``roots`` with each gradient a Tensor: the one you passed (its graph goes on into the
    gradients), else the starting ones."""
    out = []
    for i, (node, output_nr, grad) in enumerate(roots):
        g = None if given is None else given[i]
        if isinstance(g, _node.Tensor):
            g = g if g._data.dtype == grad.dtype else g.to(_node.plain_tensor(grad)._dtype)
        else:
            g = _node.plain_tensor(grad)
        out.append((node, output_nr, g))
    return out


class BackwardStep(NamedTuple):
    """One node processed by a real backward pass, as the engine saw it.

    ``grad_outputs`` arrived at ``node`` (already summed over every use); ``grad_inputs`` went
    out, one per entry of ``node.next_functions``. ``saved`` holds copies of the values the
    op's forward saved (what its local derivative is computed from) and ``formula`` the local
    derivative in words, e.g. ``"z = a * b, so dz/da = b and dz/db = a."``. For an
    ``AccumulateGrad`` node, ``variable`` is the leaf and ``grad_before``/``grad_after`` its
    ``.grad`` around the ``+=``.
    """

    index: int  # type: ignore[assignment]  # (shadows tuple.index, which nobody needs here)
    node: Node
    name: str
    grad_outputs: tuple[Any, ...]
    grad_inputs: tuple[Any, ...]
    variable: Any = None
    grad_before: Any = None
    grad_after: Any = None
    saved: tuple[Any, ...] = ()
    formula: str = ""


def iter_backward(
    tensor: Any, gradient: Any = None, retain_graph: bool | None = None
) -> Iterator[BackwardStep]:
    """Run ``tensor.backward(gradient)`` one node at a time, yielding what each node did.

    Running it to the end leaves every ``.grad`` exactly as ``tensor.backward()`` would.
    """
    roots = roots_of([tensor], root_grads([tensor], None if gradient is None else [gradient]))
    # Each leaf's AccumulateGrad runs once per pass, so .grad before it is .grad now.
    before = {
        n: _copy(n.variable._grad)
        for n in count_dependencies([roots[0][0]])
        if type(n) is AccumulateGrad
    }
    # The walk keeps what nodes saved: each step copies it, then frees it before it is shown,
    # so a step already sees its node as backward leaves it.
    walk = _quietly(run_backward(roots, retain_graph=True))
    for index, (node, grad_outputs, grad_inputs) in enumerate(walk):
        if type(node) is AccumulateGrad:
            yield BackwardStep(
                index, node, "AccumulateGrad", _tensors(grad_outputs), (), node.variable,
                before[node], _copy(node.variable._grad), formula=local_derivative(node),
            )  # fmt: skip
            continue
        step = BackwardStep(
            index, node, node.name(), _tensors(grad_outputs), _tensors(grad_inputs or ()),
            saved=_saved_copies(node), formula=local_derivative(node),
        )  # fmt: skip
        if not retain_graph:
            node.release_saved()
        yield step


def _quietly(walk: Iterator[Any]) -> Iterator[Any]:
    """The steps of ``walk``, each run with numpy's warnings off (see autograd/quiet.py)."""
    step = quiet_numpy(next)  # only while a step runs: the caller's code in between warns
    while (item := step(walk, None)) is not None:
        yield item


def local_derivative(node: Node) -> str:
    """The local derivative of ``node``'s op in words: the first line of its docstring."""
    if type(node) is AccumulateGrad:
        return "leaf.grad += incoming gradient (gradients add up, they are not replaced)."
    doc = getattr(node, "_function", type(node)).__doc__ or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def _saved_copies(node: Node) -> tuple[Any, ...]:
    # What forward saved, copied before backward frees it (for the step-through widget).
    saved = getattr(node, "_saved", None) or ()
    values = [s.value for s in saved if s is not None]
    return tuple(_copy(v if isinstance(v, np.ndarray) else v._data) for v in values)


def _copy(value: Any) -> Any:
    if value is None:
        return None
    return _node.plain_tensor(np.array(value if isinstance(value, np.ndarray) else value._data))


def _tensors(arrays: Sequence[Any]) -> tuple[Any, ...]:
    # copies: a step's gradients stay as they were when a later pass adds into a .grad
    return tuple(None if a is None else _node.plain_tensor(np.array(a)) for a in arrays)


def warn_if_stale(roots: list[Root]) -> None:
    """Teaching warnings (opt-in): hint when backward adds into a .grad left from before."""
    if grad_mode.switches.teaching:
        warn_stale_grads(count_dependencies(node for node, _, _ in roots))
