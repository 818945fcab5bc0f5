"""Automatic differentiation: the graph nodes, the engine, grad mode and custom Functions."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from microtorch import _coverage, _lazy
from microtorch._warn import warn
from microtorch.autograd import node as _node
from microtorch.autograd import views
from microtorch.autograd.anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from microtorch.autograd.engine import (
    BackwardStep,
    input_node,
    iter_backward,
    recorded_roots,
    recording,
    root_grads,
    roots_of,
    run_backward,
    warn_if_stale,
)
from microtorch.autograd.function import AccumulateGrad, Function, FunctionCtx, Node, NumpyFunction
from microtorch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from microtorch.autograd.grad_mode import switches as _switches
from microtorch.autograd.quiet import quiet_numpy
from microtorch.autograd.teaching_mode import is_teaching_warnings_enabled, set_teaching_warnings
from microtorch.autograd.variable import Variable

__all__ = [
    "AccumulateGrad", "BackwardStep", "Function", "FunctionCtx", "Node", "NumpyFunction",
    "backward", "detect_anomaly", "enable_grad", "functional", "grad", "gradcheck",
    "gradgradcheck", "inference_mode",
    "is_anomaly_enabled", "is_grad_enabled", "is_inference_mode_enabled",
    "is_teaching_warnings_enabled", "iter_backward", "no_grad", "set_detect_anomaly",
    "set_grad_enabled", "set_teaching_warnings", "Variable",
]  # fmt: skip


def _as_list(x: Any) -> list[Any]:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


_CYCLE_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)
_warned_cycle = False  # PyTorch warns once per process


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Add d(tensors)/d(leaf) into every leaf's ``.grad`` (or only into ``inputs``')."""
    global _warned_cycle
    outs = _as_list(tensors)
    given = None if grad_tensors is None else _as_list(grad_tensors)
    roots = roots_of(outs, root_grads(outs, given))
    warn_if_stale(roots)  # (before the quiet pass: the warning points at the caller's line)
    retain = create_graph if retain_graph is None else bool(retain_graph)  # (PyTorch's default)
    if not (create_graph or _switches.create_graph):  # (the usual case)
        _backward_pass(roots, retain, inputs)
        return
    if create_graph and not _warned_cycle:
        _warned_cycle = True
        warn(_CYCLE_WARNING)
    with recording(create_graph):
        _backward_pass(recorded_roots(roots, given), retain, inputs)


def _from_method() -> bool:
    # called from Tensor.backward (one frame more between the caller and here)
    frame = sys._getframe(2)
    return frame.f_code.co_name == "backward" and "self" in frame.f_locals


@quiet_numpy  # no numpy warning from any backward formula (see autograd/quiet.py)
def _backward_pass(roots: list[Any], retain_graph: bool, inputs: Any) -> None:
    if inputs is None:
        for _ in run_backward(roots, retain_graph):
            pass
        return
    wanted = _as_list(inputs)
    for t in wanted:  # as PyTorch: a non-leaf input keeps its .grad from now on
        if t.grad_fn is not None:
            t.retain_grad()  # (its hook adds the gradient in, this pass and later ones)
    targets = _targets(wanted)
    for node, grad_outputs, ran in run_backward(roots, retain_graph, set(targets)):
        if ran is None and node in targets and type(node) is not AccumulateGrad:  # an input's
            node.run(grad_outputs)  # grad_fn: PyTorch runs it too (its results go nowhere)
            if not retain_graph:
                node.release_saved()
        for t, output_nr in targets.get(node, ()):
            if t.grad_fn is None and grad_outputs[output_nr] is not None:
                t._add_to_grad(grad_outputs[output_nr].view())  # (a copy)


@quiet_numpy  # no numpy warning from any backward formula (see autograd/quiet.py)
def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
) -> tuple[Any, ...]:
    """d(outputs)/d(inputs), returned instead of added into ``.grad``.

    Only the part of the graph between ``outputs`` and ``inputs`` runs (and is freed), as in
    PyTorch: the rest keeps its saved tensors, and its hooks do not fire.
    """
    if create_graph or _switches.create_graph:
        with recording(create_graph):
            return _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)
    return _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)


def _grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any,
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool | None,
) -> tuple[Any, ...]:
    outs, wanted = _as_list(outputs), _as_list(inputs)
    for t in wanted:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    given = None if grad_outputs is None else _as_list(grad_outputs)
    roots = roots_of(outs, root_grads(outs, given))
    if create_graph:
        roots = recorded_roots(roots, given)
    retain = create_graph if retain_graph is None else bool(retain_graph)  # (PyTorch's default)
    targets = _targets(wanted)
    found: dict[int, Any] = {}
    for node, node_grads, _ in run_backward(roots, retain, set(targets)):
        for t, output_nr in targets.get(node, ()):
            found[id(t)] = node_grads[output_nr]
    result = []
    made: dict[int, Any] = {}  # one tensor per gradient: PyTorch returns the same one twice
    for i, t in enumerate(wanted):
        g = found.get(id(t))
        if g is None and not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {i} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior."
            )
        if g is not None and id(g) not in made:
            made[id(g)] = _result(g)
        result.append(None if g is None else made[id(g)])
    return tuple(result)


def _result(grad: Any) -> Any:
    if isinstance(grad, _node.Tensor):  # create_graph=True: the gradient with its graph
        return grad
    # As in PyTorch, a gradient that backward made as a view of another (a sum's is the
    # incoming gradient expanded, stride 0) is a view, made in no_grad mode (see views.py).
    # (Not a mere alias, grad.view(): the engine's mark that a hook saw the gradient.)
    t = _node.plain_tensor(grad)
    if grad.base is not None and not _alias(grad, grad.base):
        with no_grad():
            views.as_view(t, _node.plain_tensor(grad.base))
    return t


def _alias(a: np.ndarray, base: np.ndarray) -> bool:
    """Is ``a`` all of ``base``, as it is laid out (what ``base.view()`` gives)?"""
    return (a.shape, a.strides, a.dtype) == (base.shape, base.strides, base.dtype) and (
        a.__array_interface__["data"][0] == base.__array_interface__["data"][0]
    )


def _targets(tensors: Sequence[Any]) -> dict[Any, list[tuple[Any, int]]]:
    # Each input's gradient arrives at a node: a non-leaf's grad_fn (at its output number),
    # a leaf's AccumulateGrad.
    targets: dict[Any, list[tuple[Any, int]]] = {}
    for t in tensors:
        node = input_node(t)
        targets.setdefault(node, []).append((t, t._output_nr if t.grad_fn is not None else 0))
    return targets


# Rarely used parts, imported on first use (microtorch/_lazy.py): jacobian, hessian, vjp ...
# (functional), gradcheck, the op-timing table (profiler); a name not in the table raises an
# error that says what to use instead.
ON_FIRST_USE = {
    **_lazy.modules("microtorch.autograd", "functional profiler"),
    **_lazy.names("microtorch.autograd.gradcheck", "gradcheck gradgradcheck"),
}
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _lazy.module_getattr(
        globals(), ON_FIRST_USE, _coverage.module_getattr("torch.autograd", __name__)
    )
    __dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)
# (import microtorch.autograd.gradcheck leaves autograd.gradcheck the function, as in PyTorch)
sys.modules[__name__].__class__ = _lazy.FunctionsOverSubmodules

__all__ += ["profiler"]

# --- walkd (issue 24)
from microtorch.autograd.grad_mode import set_multithreading_enabled  # noqa: E402


def variable(*args: Any, **kwargs: Any) -> Any:  # (torch.autograd.variable: removed)
    """Removed from PyTorch: make a tensor with ``torch.tensor(...)`` instead."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead")


__all__ += ["set_multithreading_enabled", "variable"]
