"""The backward engine: walk the graph from the output, apply the chain rule node by node.

The walk is iterative (a 100,000-op chain needs no recursion) and runs a node only once every
gradient headed for it has arrived, so a value used twice gets the sum of both gradients.
Among ready nodes the one created last runs first, as in PyTorch.

``iter_backward`` performs a real backward pass one node at a time and yields a
``BackwardStep`` record for each; ``backward`` is the same walk without the records. The
widgets replay those records: they never compute a gradient themselves.
"""

from __future__ import annotations

import heapq
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from microtorch.autograd import function as _function
from microtorch.autograd import grad_mode
from microtorch.autograd.function import AccumulateGrad, BackwardNode, Node

__all__ = ["BackwardStep", "iter_backward", "run_backward", "root_grads"]


class BackwardStep(NamedTuple):
    """One node processed by a real backward pass, as the engine saw it.

    ``grad_outputs`` arrived at ``node`` (already summed over every use); ``grad_inputs`` went
    out, one per entry of ``node.next_functions``. ``saved`` holds copies of the values the
    op's forward saved (what its local derivative is computed from) and ``formula`` the local
    derivative in words, e.g. ``"z = a * b, so dz/da = b and dz/db = a."``. For an
    ``AccumulateGrad`` node, ``variable`` is the leaf and ``grad_before``/``grad_after`` its
    ``.grad`` around the ``+=``. (A NamedTuple: immutable, and cheaper to import than a
    dataclass.)
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


def root_grads(tensors: Sequence[Any], grad_tensors: Sequence[Any] | None) -> list[np.ndarray]:
    """The starting gradients: ``gradient=`` if given, else 1 for scalar outputs."""
    Tensor = _function.Tensor
    grads = []
    for i, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn "
                "(Fix: create the inputs with requires_grad=True, and do not compute this "
                "inside torch.no_grad() or after .detach().)"
            )
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
        if not isinstance(g, (Tensor, np.ndarray)):  # arrays: gradcheck passes them
            raise TypeError(
                f"gradients can be either Tensors or None, but got {type(g).__name__} (Fix: "
                "pass gradient=torch.ones_like(y), a tensor of the output's shape)"
            )
        g_data = g._data if isinstance(g, Tensor) else np.asarray(g, dtype=t._data.dtype)
        if g_data.shape != t._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of "
                f"torch.Size({list(g_data.shape)}) and output[{i}] has a shape of "
                f"torch.Size({list(t._data.shape)})."
            )
        grads.append(g_data)
    return grads


def _roots(tensors: Sequence[Any], grads: list[np.ndarray]) -> list[tuple[Node, int, np.ndarray]]:
    return [
        (t.grad_fn, t._output_nr, g) if t.grad_fn is not None else (t._accumulate_grad(), 0, g)
        for t, g in zip(tensors, grads)
    ]


def _count_dependencies(roots: list[Node]) -> dict[Node, int]:
    # How many edges point at each node: a node is ready when that many gradients arrived.
    deps: dict[Node, int] = dict.fromkeys(roots, 0)
    stack = list(deps)
    while stack:
        for child in stack.pop()._next_nodes:
            if child is None:
                continue
            if child in deps:
                deps[child] += 1
            else:
                deps[child] = 1
                stack.append(child)
    return deps


def run_backward(
    tensors: Sequence[Any],
    grads: list[np.ndarray],
    retain_graph: bool,
    capture: dict[Any, int] | None = None,
    accumulate: bool = True,
) -> list[np.ndarray | None] | None:
    """Run a whole backward pass (see ``iter_backward``); returns captured grads if asked."""
    captured: list[np.ndarray | None] | None = None if capture is None else [None] * len(capture)
    roots = _roots(tensors, grads)
    if grad_mode.switches.teaching and accumulate:  # opt-in hints (autograd.teaching_mode)
        _warn_stale_grads(_count_dependencies([node for node, _, _ in roots]))
    for _ in _walk(roots, retain_graph, False, capture, captured, accumulate):
        pass
    return captured


def iter_backward(
    tensor: Any, gradient: Any = None, retain_graph: bool | None = None
) -> Iterator[BackwardStep]:
    """Run ``tensor.backward(gradient)`` one node at a time, yielding what each node did.

    Running it to the end leaves every ``.grad`` exactly as ``tensor.backward()`` would.
    """
    grads = root_grads([tensor], None if gradient is None else [gradient])
    yield from _walk(_roots([tensor], grads), bool(retain_graph), True, None, None, True)


def _walk(
    roots: list[tuple[Node, int, np.ndarray]],
    retain_graph: bool,
    record: bool,
    capture: dict[Any, int] | None,
    captured: list[np.ndarray | None] | None,
    accumulate: bool,
) -> Iterator[BackwardStep]:
    deps = _count_dependencies([node for node, _, _ in roots])
    buffers: dict[Node, list[Any]] = {}
    for node, nr, g in roots:
        buffers.setdefault(node, [None] * node._num_outputs)[nr] = g
    # A max-heap on creation order (sequence numbers are unique, so nodes are never compared).
    ready = [(-node._sequence_nr, node) for node in buffers if deps[node] == 0]
    heapq.heapify(ready)
    pop, push = heapq.heappop, heapq.heappush
    simple = not record and capture is None and accumulate  # plain loss.backward()
    index = 0
    anomaly = grad_mode.switches.anomaly and grad_mode.switches.anomaly_check_nan
    while ready:
        node = pop(ready)[1]
        grad_outputs = buffers.pop(node)
        if type(node) is AccumulateGrad:
            if simple:
                g = grad_outputs[0]
                if g is not None:
                    # Drop the buffer's reference, so that .grad can take over the array
                    # when nothing else holds it (Tensor._add_to_grad counts references).
                    grad_outputs[0] = None
                    variable = node.variable
                    if variable._hooks:
                        for hook in variable._hooks:
                            g = _call_tensor_hook(hook, g)
                    variable._add_to_grad(g)
                continue
            step = _accumulate(node, grad_outputs[0], record, capture, captured, accumulate, index)
            if record and step is not None:
                yield step
                index += 1
            continue
        if node._has_pre_hooks or capture:
            grad_outputs = _run_pre_hooks(node, grad_outputs, capture, captured)
        saved = _saved_copies(node) if record else ()
        n_out = node._num_outputs
        if (grad_outputs[0] is None) if n_out == 1 else all(g is None for g in grad_outputs):
            grad_inputs: tuple[Any, ...] = (None,) * len(node._next_nodes)
        else:
            if n_out > 1:
                grad_outputs = _materialize(node, grad_outputs)
            fn = node._function  # type: ignore[attr-defined]
            if fn._raw:  # a built-in op: call its backward directly (this runs per node)
                grad_inputs = fn.backward(node, *grad_outputs)
                if type(grad_inputs) is not tuple:
                    grad_inputs = (grad_inputs,)
            else:
                grad_inputs = node.apply_backward(grad_outputs)  # type: ignore[attr-defined]
            if anomaly:
                _check_anomaly(node, grad_inputs)  # type: ignore[arg-type]
            if node._hooks:
                for hook in node._hooks:
                    hook(grad_inputs, grad_outputs)
        if not retain_graph:
            node._saved = None  # type: ignore[attr-defined]  # free what forward saved
        if record:
            yield BackwardStep(
                index,
                node,
                node.name(),
                _tensors(grad_outputs),
                _tensors(grad_inputs),
                saved=saved,
                formula=local_derivative(node),
            )
            index += 1
        for child, nr, g in zip(node._next_nodes, node._next_nrs, grad_inputs):
            if child is None:
                continue
            buf = buffers.get(child)
            if buf is None:
                buf = buffers[child] = [None] * child._num_outputs
            if g is not None:
                prev = buf[nr]
                buf[nr] = g if prev is None else prev + g  # out of place: g may be shared
            left = deps[child] - 1
            deps[child] = left
            if left == 0:
                push(ready, (-child._sequence_nr, child))
        # Let go of this node's gradients, so .grad can take over an array nobody else holds
        # (Tensor._add_to_grad copies one that is still referenced from here).
        grad_inputs = g = prev = None  # type: ignore[assignment]


def local_derivative(node: Node) -> str:
    """The local derivative of ``node``'s op in words: the first line of its docstring."""
    if type(node) is AccumulateGrad:
        return "leaf.grad += incoming gradient (gradients add up, they are not replaced)."
    doc = getattr(node, "_function", None).__doc__ or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def _saved_copies(node: Node) -> tuple[Any, ...]:
    # What forward saved, copied before backward frees it (for the step-through widget).
    values = getattr(node, "_saved", None) or ()
    Tensor = _function.Tensor
    out = []
    for v in values:
        if isinstance(v, np.ndarray):
            out.append(Tensor._make(v.copy(), False, None, 0, None, False))
        elif isinstance(v, Tensor):
            out.append(Tensor._make(v._data.copy(), False, None, 0, None, False))
    return tuple(out)


def _accumulate(
    node: AccumulateGrad,
    grad: np.ndarray | None,
    record: bool,
    capture: dict[Any, int] | None,
    captured: list[np.ndarray | None] | None,
    accumulate: bool,
    index: int,
) -> BackwardStep | None:
    variable = node.variable
    if grad is None:
        return None
    for hook in variable._hooks or ():
        grad = _call_tensor_hook(hook, grad)
    if capture is not None and variable in capture:
        captured[capture[variable]] = grad  # type: ignore[index]
    if not accumulate:
        return None
    before = None if not record or variable._grad is None else variable._grad._data.copy()
    variable._add_to_grad(grad)
    if not record:
        return None
    Tensor = _function.Tensor
    return BackwardStep(
        index,
        node,
        "AccumulateGrad",
        (Tensor._make(grad.copy(), False, None, 0, None, False),),
        (),
        variable,
        None if before is None else Tensor._make(before, False, None, 0, None, False),
        Tensor._make(variable._grad._data.copy(), False, None, 0, None, False),
        formula=local_derivative(node),
    )


def _run_pre_hooks(
    node: Node,
    grad_outputs: list[Any],
    capture: dict[Any, int] | None,
    captured: list[np.ndarray | None] | None,
) -> list[Any]:
    # Tensor hooks first, then retain_grad (PyTorch runs retains_grad hooks last).
    if node._pre_hooks:
        for hook in node._pre_hooks:
            new = hook(tuple(_tensors(grad_outputs)))
            if new is not None:
                grad_outputs = [None if g is None else g._data for g in new]
    for nr, hooks in (node._tensor_pre_hooks or {}).items():
        for hook in hooks:
            if grad_outputs[nr] is not None:
                grad_outputs[nr] = _call_tensor_hook(hook, grad_outputs[nr])
    for nr, ref in (node._retain_grad or {}).items():
        t = ref()
        if t is not None and grad_outputs[nr] is not None:
            t._add_to_grad(grad_outputs[nr], out_of_place=True)
    if capture:
        for nr in range(len(grad_outputs)):
            key = (node, nr)
            if key in capture:
                captured[capture[key]] = grad_outputs[nr]  # type: ignore[index]
    return grad_outputs


def _call_tensor_hook(hook: Any, grad: np.ndarray) -> np.ndarray:
    Tensor = _function.Tensor
    result = hook(Tensor._make(grad, False, None, 0, None, False))
    if result is None:
        return grad
    if not isinstance(result, Tensor) or result._data.shape != grad.shape:
        raise RuntimeError(
            "hook returned a value that is not a Tensor of the gradient's shape "
            f"{list(grad.shape)}; a tensor hook must return None or a Tensor like its input"
        )
    return result._data


def _materialize(node: Node, grad_outputs: list[Any]) -> list[Any]:
    # Outputs that received no gradient get zeros, as PyTorch's materialize_grads does.
    meta = [(shape, dt.numpy) for shape, dt in node._out_meta]  # type: ignore[attr-defined]
    return [np.zeros(s, d) if g is None else g for g, (s, d) in zip(grad_outputs, meta)]


def _tensors(arrays: Sequence[Any]) -> tuple[Any, ...]:
    Tensor = _function.Tensor
    return tuple(
        None if a is None else Tensor._make(a, False, None, 0, None, False) for a in arrays
    )


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../microtorch


def _warn_stale_grads(nodes: Any) -> None:
    # Teaching warnings (opt-in): leaves whose .grad still holds an earlier backward's result.
    stale = [  # zeros (zero_grad(set_to_none=False)) are a fresh start, not a leftover
        n.variable
        for n in nodes
        if type(n) is AccumulateGrad
        and n.variable._grad is not None
        and n.variable._grad._data.any()
    ]
    if not stale:
        return
    shapes = ", ".join(str(list(t._data.shape)) for t in stale[:3])
    more = ", ..." if len(stale) > 3 else ""
    warnings.warn(
        f"backward() is adding to the .grad of {len(stale)} tensor(s) (shapes {shapes}{more}) "
        "that still hold the gradient of an earlier backward(): gradients accumulate, as in "
        "PyTorch. In a training loop, call optimizer.zero_grad() (or model.zero_grad()) before "
        "loss.backward(). If you are accumulating on purpose, ignore this, or turn these hints "
        "off with torch.autograd.set_teaching_warnings(False).",
        UserWarning,
        stacklevel=_user_stacklevel(),
    )


def _user_stacklevel() -> int:
    # The warning's stacklevel that points at the first caller outside microtorch.
    frame: Any = sys._getframe(2)  # 1 is the function calling warnings.warn
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _PACKAGE + os.sep
    ):
        frame, level = frame.f_back, level + 1
    return level


def _check_anomaly(node: BackwardNode, grad_inputs: tuple[Any, ...]) -> None:
    # PyTorch's error and warning, plus the line of the user's code that made the operation.
    import traceback  # here, not at the top: only an anomaly report needs it

    for i, g in enumerate(grad_inputs):
        if g is not None and np.issubdtype(g.dtype, np.floating) and np.isnan(g).any():
            stack = _user_stack(node._trace)
            where = (
                "".join(traceback.format_list(stack))
                if stack
                else "(the forward ran before anomaly detection was enabled)\n"
            )
            warnings.warn(
                f"Error detected in {node.name()}. Traceback of forward call that caused the "
                f"error:\n{where}",
                UserWarning,
                stacklevel=2,
            )
            raise RuntimeError(
                f"Function '{node.name()}' returned nan values in its {i}th output."
                + _created_at(stack[-1] if stack else None)
            )


def _user_stack(stack: Any) -> list[Any]:
    # The forward's stack up to the innermost frame outside microtorch (the student's line):
    # like PyTorch's, whose operations run in C++, it ends in the user's code.
    frames = list(stack or ())
    while frames and os.path.abspath(frames[-1].filename).startswith(_PACKAGE + os.sep):
        frames.pop()
    return frames


def _created_at(user: Any) -> str:
    if user is None:
        return (
            " (Fix: turn anomaly detection on before the forward pass, so the error can name "
            "the line that created this operation.)"
        )
    code = f": {user.line.strip()}" if user.line else ""
    return (
        f" It was created at {user.filename}:{user.lineno}, in {user.name}{code} (Fix: a "
        "NaN gradient usually comes from log, sqrt, division or pow of 0, of a negative "
        "number, or of inf; check the values going into that line, e.g. clamp them.)"
    )
