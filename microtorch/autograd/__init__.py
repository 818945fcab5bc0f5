"""Automatic differentiation: the graph nodes, the engine, grad mode and custom Functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from microtorch.autograd.anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from microtorch.autograd.engine import BackwardStep, iter_backward, root_grads, run_backward
from microtorch.autograd.function import AccumulateGrad, Function, FunctionCtx, Node
from microtorch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from microtorch.autograd.gradcheck import gradcheck
from microtorch.autograd.teaching_mode import is_teaching_warnings_enabled, set_teaching_warnings

__all__ = [
    "AccumulateGrad", "BackwardStep", "Function", "FunctionCtx", "Node", "backward",
    "detect_anomaly", "enable_grad", "grad", "gradcheck", "inference_mode", "is_anomaly_enabled",
    "is_grad_enabled", "is_inference_mode_enabled", "is_teaching_warnings_enabled",
    "iter_backward", "no_grad", "set_detect_anomaly", "set_grad_enabled",
    "set_teaching_warnings",
]  # fmt: skip


def _as_list(x: Any) -> list[Any]:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _no_create_graph(create_graph: bool) -> None:
    if create_graph:
        raise NotImplementedError(
            "microtorch does not support create_graph=True (gradients of gradients): its "
            "backward formulas compute with numpy, outside the graph. Use PyTorch for "
            "higher-order derivatives."
        )


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Add d(tensors)/d(leaf) into every leaf's ``.grad`` (or only into ``inputs``')."""
    _no_create_graph(create_graph)
    outs = _as_list(tensors)
    grads = root_grads(outs, None if grad_tensors is None else _as_list(grad_tensors))
    if inputs is None:
        run_backward(outs, grads, bool(retain_graph))
        return
    targets = _as_list(inputs)
    captured = run_backward(outs, grads, bool(retain_graph), _capture_keys(targets), False)
    for t, g in zip(targets, captured or ()):
        if g is not None:
            t._add_to_grad(g, out_of_place=t.grad_fn is not None)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
) -> tuple[Any, ...]:
    """d(outputs)/d(inputs), returned instead of added into ``.grad``."""
    _no_create_graph(create_graph)
    outs, targets = _as_list(outputs), _as_list(inputs)
    for t in targets:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = root_grads(outs, None if grad_outputs is None else _as_list(grad_outputs))
    captured = run_backward(outs, grads, bool(retain_graph), _capture_keys(targets), False)
    result = []
    from microtorch.autograd import function as _function

    for i, g in enumerate(captured or ()):
        if g is None and not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {i} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior."
            )
        result.append(None if g is None else _function.Tensor._make(g.copy(), False, None))
    return tuple(result)


def _capture_keys(targets: Sequence[Any]) -> dict[Any, int]:
    # Leaves are caught at their AccumulateGrad; non-leaves where their grad_fn receives them.
    return {
        (t if t.grad_fn is None else (t.grad_fn, t._output_nr)): i for i, t in enumerate(targets)
    }
