"""PyTorch's nodes for a backward formula: ``TanhBackwardBackward0`` and the like.

With ``create_graph=True`` most built-in formulas record the ops they are written with
(``grad_output * b`` records ``MulBackward0``). Where PyTorch records one node for the
whole formula instead, the op's ``Function`` names it in ``double_backward_name``, and the
engine records that one node: its forward is the op's own backward formula, on arrays; its
backward is found by running the same formula once more on ``RecordedArray``s of its inputs
and back-propagating through what that recorded. So each formula is still written once.

The node's inputs are the gradients that came into the op, then the values the op saved (as
PyTorch's: ``TanhBackwardBackward0`` takes ``grad_output`` and tanh's result). A saved value
PyTorch's node keeps as a constant, not as an input (a loss's class ``weight``), is named by
its place in ``saved_tensors`` in the op's ``double_backward_constants``: the formula gets it,
the node has no edge for it.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.autograd.engine import add_into, recording
from microtorch.autograd.function import FREED_MESSAGE, NumpyFunction
from microtorch.autograd.node import AccumulateGrad, Node, gradient_edge, next_sequence_nr
from microtorch.autograd.saved import SavedTensor

__all__ = ["FormulaBackward", "record_formula"]


class Formula:
    """The ``ctx`` an op's backward formula reads, with ``saved_tensors`` given: the op's
    node for everything else (``ctx.shape``, ``ctx.needs_input_grad``)."""

    __slots__ = ("node", "saved_tensors")

    def __init__(self, node: Node, saved_tensors: tuple[Any, ...]) -> None:
        self.node, self.saved_tensors = node, saved_tensors

    def __getattr__(self, name: str) -> Any:
        return getattr(self.node, name)


def run_formula(op_node: Any, n_grads: int, values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The op's backward formula on ``values`` (its grad_outputs, then what it saved)."""
    ctx = Formula(op_node, tuple(values[n_grads:]))
    grads = op_node._function.backward(ctx, *values[:n_grads])
    return grads if type(grads) is tuple else (grads,)


class FormulaBackward(NumpyFunction):
    """z = an op's backward formula, as a function of its grad_outputs and saved values."""

    ctx_fields = ("op_node", "n_grads", "given")

    @staticmethod
    def forward(ctx, op_node, n_grads, *values):
        grads = run_formula(op_node, n_grads, values)
        ctx.op_node, ctx.n_grads = op_node, n_grads
        ctx.given = [g is not None for g in grads]  # (the formula's None: no output)
        out = tuple([np.asarray(g) for g in grads if g is not None])
        return out[0] if len(out) == 1 else out

    @classmethod
    def call_backward(cls, ctx: Any, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """d(formula)/d(its inputs), against ``grad_outputs``: the formula recorded on its
        inputs once more, then back-propagated through (recorded too with create_graph)."""
        if ctx._saved is None:
            raise RuntimeError(FREED_MESSAGE)
        missing = getattr(ctx.op_node._function, "missing_derivative", None)
        if missing is not None:  # PyTorch's formula has no derivative of its own
            if missing.startswith("'"):  # (a native function's: PyTorch's other wording)
                raise NotImplementedError(f"the derivative for {missing} is not implemented.")
            raise RuntimeError(f"derivative for {missing} is not implemented")
        for saved in ctx._saved:
            if saved is not None:
                saved.unpack(ctx)  # (raises if one was changed in place since)
        inputs = [None if s is None else s.tensor for s in ctx._saved]
        mark = next_sequence_nr()  # every node the formula records comes after this
        with recording(True):
            grads = run_formula(ctx.op_node, ctx.n_grads, tuple(_node.record(t) for t in inputs))
        outs = [_node.tensor_of(g) for g in grads if g is not None]
        found = vjp(outs, grad_outputs, mark)
        result = []
        constants = _constants(ctx.op_node, ctx.n_grads)
        for i, t in enumerate(inputs):  # one gradient per edge: the floating-point tensors
            if t is None or not isinstance(t, _node.Tensor) or not t._dtype.is_floating_point:
                continue
            if i in constants:
                continue
            edge = gradient_edge(t)
            g = None if edge is None else found.pop((edge, t._output_nr), None)
            if g is None and edge is not None:  # no path: zeros, as PyTorch's formulas give
                g = _node.carried(np.zeros_like(t._data))
            result.append(g)
        return tuple(result)


def _constants(op_node: Any, n_grads: int) -> set[int]:
    # the places, among the node's inputs, of the saved values that are constants of it
    return {n_grads + k for k in getattr(op_node._function, "double_backward_constants", ())}


def vjp(outs: list[Any], grads: list[Any], mark: int) -> dict[tuple[Node, int], Any]:
    """Back-propagate ``grads`` from ``outs`` through the nodes created after ``mark`` (a
    formula's own); what leaves them, per (node, output number) it goes to."""
    inside = lambda node: node.sequence_nr > mark and type(node) is not AccumulateGrad  # noqa: E731
    found: dict[tuple[Node, int], Any] = {}
    buffers: dict[Node, list[Any]] = {}
    roots = []
    for t, g in zip(outs, grads):
        node = t._grad_fn if isinstance(t, _node.Tensor) else None
        edge = gradient_edge(t) if isinstance(t, _node.Tensor) else None
        if edge is None or g is None:
            continue
        if inside(edge):
            add_into(buffers, edge, t._output_nr, g)
            roots.append(edge)
        else:  # the formula passed an input through unchanged
            _add(found, (edge, t._output_nr if node is not None else 0), g)
    pending: dict[Node, int] = {}
    stack, seen = list(dict.fromkeys(roots)), set(roots)
    while stack:
        for child in stack.pop()._next_nodes:
            if child is not None and inside(child):
                pending[child] = pending.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    ready = [n for n in dict.fromkeys(roots) if pending.get(n, 0) == 0]
    heapq.heapify(ready)
    while ready:
        node = heapq.heappop(ready)
        grad_inputs = node.run(buffers.pop(node))
        for child, nr, g in zip(node._next_nodes, node._next_nrs, grad_inputs):
            if child is None:
                continue
            if not inside(child):
                if g is not None:
                    _add(found, (child, nr), g)
                continue
            add_into(buffers, child, nr, g)
            pending[child] -= 1
            if pending[child] == 0:
                heapq.heappush(ready, child)
    return found


def _add(found: dict[tuple[Node, int], Any], key: tuple[Node, int], g: Any) -> None:
    found[key] = g if key not in found else found[key] + g


_nodes: dict[str, type[FormulaBackward]] = {}  # one FormulaBackward per name, made once


def record_formula(cls: Any, ctx: Any, grad_outputs: list[Any]) -> tuple[Any, ...]:
    """``cls``'s backward with create_graph=True, recorded as one node named
    ``cls.double_backward_name``; one Tensor (or None) per input comes back."""
    if ctx._saved is None:
        raise RuntimeError(FREED_MESSAGE)
    saved = [None if s is None else s.unpack(ctx) for s in ctx._saved]  # (in the graph)
    inputs = [*grad_outputs, *saved]
    if not any(isinstance(t, _node.Tensor) and t.requires_grad for t in inputs):
        values = tuple(t._data if isinstance(t, _node.Tensor) else t for t in inputs)
        grads = run_formula(ctx, len(grad_outputs), values)  # (nothing to record)
        return tuple(None if g is None else _node.plain_tensor(np.asarray(g)) for g in grads)
    fn = _nodes.get(cls.double_backward_name)
    if fn is None:
        name = cls.double_backward_name
        fn = _nodes[name] = type(name, (FormulaBackward,), {"node_name": name})
    constants = _constants(ctx, len(grad_outputs))
    args = [
        t._data if i in constants and isinstance(t, _node.Tensor) else t
        for i, t in enumerate(inputs)
    ]
    with grad_mode.enable_grad():
        out = fn.apply(ctx, len(grad_outputs), *args)  # (a constant as an array: no edge)
    outs = out if type(out) is tuple else (out,)
    node = outs[0].grad_fn
    node._saved = tuple(  # what its backward runs the formula on again (checked, freed)
        SavedTensor(t._data, t._data, t) if isinstance(t, _node.Tensor) else None for t in inputs
    )
    given = iter(outs)
    return tuple([next(given) if g else None for g in node.given])


_node.record_formula = record_formula  # (function.py calls it through node.py: no cycle)
