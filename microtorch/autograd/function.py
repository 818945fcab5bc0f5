"""The ``Function`` API: how an operation records itself for backward.

Every operation is a ``Function`` subclass with ``forward`` and ``backward`` side by side.
``MyOp.apply(...)`` runs ``forward`` and, when a graph is being recorded, creates one node of a
class named as PyTorch names it (``MulBackward0``). That node is at once the ``ctx`` the op
saves into and the result's ``grad_fn``, as in PyTorch.

Two kinds of ``Function``, differing only in what ``forward`` and ``backward`` receive:

- ``Function``: your own ``class MyOp(microtorch.autograd.Function)`` gets and returns Tensors,
  exactly as in PyTorch, so code written for PyTorch runs unchanged;
- ``NumpyFunction``: microtorch's built-in ops get and return numpy arrays, so each formula
  is plain numpy with nothing in between.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.autograd.anomaly_mode import check_nan, forward_stack
from microtorch.autograd.grad_mode import state
from microtorch.autograd.grad_mode import switches as _switches
from microtorch.autograd.node import (
    AccumulateGrad,
    Node,
    RemovableHandle,
    _sequence,
    gradient_edges,
)
from microtorch.autograd.quiet import hush, unhush
from microtorch.autograd.saved import FREED_MESSAGE, SavedTensor, keep_saved
from microtorch.device import check_same_device
from microtorch.dtypes import from_numpy_dtype

__all__ = [
    "Node", "AccumulateGrad", "BackwardNode", "Function", "NumpyFunction", "FunctionCtx",
    "RemovableHandle", "FREED_MESSAGE",
]  # fmt: skip

_scope_stack: list[str] = []  # names of the nn.Modules whose forward is running (for drawing)


class BackwardNode(Node):
    """Base of every ``XxxBackward`` node; also the ``ctx`` its ``Function`` saves into
    (``ctx.anything = ...`` works, as in PyTorch)."""

    __slots__ = ("needs_input_grad", "_saved", "_out_shape", "_out_dtype")
    needs_input_grad: tuple[bool, ...]  # per argument of forward: does it need a gradient?
    _saved: tuple[SavedTensor | None, ...] | None  # None once backward has freed it
    _out_shape: Any  # the output's shape (a tuple of shapes when there are several outputs)
    _out_dtype: Any
    _function: ClassVar[type[Function]]
    _scope: str | None = None  # the nn.Module whose forward created this node
    _grad_dtypes: tuple[Any, ...] | None = None  # inputs of several dtypes: the dtype of each
    _trace: Any = None  # traceback.StackSummary of the forward call (anomaly mode only)

    def outputs(self, out: Any, inputs: list[Any], device: Any) -> Any:
        """The op's results as Tensors whose ``grad_fn`` is this node (a tuple for several);
        what forward saved is kept with each value's version, now that the outputs exist."""
        if type(out) is not tuple:  # one output, nearly every op
            result = _node.op_result(out, self, 0, device)
            # (its shape one tuple shared by the nodes of that shape: fewer objects to track)
            self._out_shape, self._out_dtype = _node.shapes[result._data.shape], result._dtype
            if self._saved:  # each value with its version, and which tensor it is
                self._saved = keep_saved(self._saved, inputs, (out,), (result,))
            return result
        results = tuple([_node.op_result(o, self, i, device) for i, o in enumerate(out)])
        self._num_outputs = len(results)
        if len(results) == 1:  # (unbind of a size-1 dim: one output, kept as one)
            self._out_shape, self._out_dtype = results[0]._data.shape, results[0]._dtype
        else:
            self._out_shape = tuple([r._data.shape for r in results])
            self._out_dtype = tuple([r._dtype for r in results])
        if self._saved:
            self._saved = keep_saved(self._saved, inputs, out, results)
        return results

    def save_for_backward(self, *values: Any) -> None:
        """Keep ``values`` for ``backward``; they are checked against in-place changes."""
        self._saved = values  # (raw until apply has the outputs: see saved.keep_saved)

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        """What ``forward`` saved; raises if backward freed it or it was changed in place."""
        if self._saved is None:  # freed by a backward pass without retain_graph=True
            raise RuntimeError(FREED_MESSAGE)
        values = []
        for saved in self._saved:
            values.append(None if saved is None else saved.unpack(self))
        if _switches.create_graph:  # gradients of gradients: the formula computes in the graph
            return self._function.formula_values(values)
        return tuple(values)

    def release_saved(self) -> None:
        saved = self._saved  # (a node that saved nothing, or only None, can run again)
        if saved and saved.count(None) < len(saved) or self._function.runs_once:
            self._saved = None

    def mark_non_differentiable(self, *outputs: Any) -> None:
        """Accepted for PyTorch compatibility; integer outputs never get a gradient anyway."""

    def set_materialize_grads(self, value: bool) -> None:
        """Accepted for PyTorch compatibility; missing gradients are always zeros here."""

    def input_shape(self, i: int) -> tuple[int, ...]:
        """The shape of the input whose gradient goes along edge ``i``: the shape of the output
        it was of the node at the other end (PyTorch reads an edge's input metadata so)."""
        node: Any = self._next_nodes[i]  # (not None: a gradient goes along it)
        return node._out_shape if node._num_outputs == 1 else node._out_shape[self._next_nrs[i]]

    def run(self, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """Apply the op's ``backward`` to the gradients of its outputs (the chain rule)."""
        if grad_outputs[0] is None and all(g is None for g in grad_outputs):  # nothing came
            return (None,) * len(self._next_nodes)
        if self._num_outputs > 1:  # outputs nobody used get zeros, as PyTorch materializes
            grad_outputs = [
                _node.carried(np.zeros(shape, dt.numpy)) if g is None else g
                for g, (shape, dt) in zip(grad_outputs, self._out_meta)
            ]
        grad_inputs = self._function.call_backward(self, grad_outputs)
        if _switches.anomaly and _switches.anomaly_check_nan:
            check_nan(self, grad_inputs)
        for hook in self._hooks:
            new = hook(_node._tensors(list(grad_inputs)), _node._tensors(grad_outputs))
            if new is not None:
                grad_inputs = tuple(_node._carried(new))
        return grad_inputs

    @property
    def _out_meta(self) -> tuple[tuple[tuple[int, ...], Any], ...]:
        """(shape, dtype) of each output."""
        if self._num_outputs == 1:
            return ((self._out_shape, self._out_dtype),)
        return tuple(zip(self._out_shape, self._out_dtype))

    @property
    def _input_metadata(self) -> list[Any]:
        """Shape and dtype of each gradient this node receives (PyTorch's private name)."""

        return [SimpleNamespace(shape=shape, dtype=dt) for shape, dt in self._out_meta]


class FunctionCtx:
    """The ``ctx`` when nothing is recorded (no input requires grad, or under no_grad)."""

    __slots__ = ("__dict__", "needs_input_grad")

    def __init__(self, n_args: int) -> None:
        self.needs_input_grad = (False,) * n_args  # (as PyTorch's ctx outside a graph)

    def save_for_backward(self, *values: Any) -> None:
        pass  # no backward will run

    def mark_non_differentiable(self, *outputs: Any) -> None:
        pass

    def set_materialize_grads(self, value: bool) -> None:
        pass


class Function:
    """Base class for operations with a custom backward, as ``torch.autograd.Function``.

    >>> import microtorch as torch
    >>> class Square(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * grad_output
    >>> x = torch.tensor([3.0], requires_grad=True)
    >>> y = Square.apply(x)
    >>> y.backward(); x.grad
    tensor([6.])
    >>> y.grad_fn.name()
    'SquareBackward'
    """

    ctx_fields: ClassVar[tuple[str, ...]] = ()  # names forward sets on ctx (optional; faster)
    # freed by a backward even with nothing saved, as PyTorch's CopySlices (x[i] = v) lets go
    # of its op: a second backward through it raises
    runs_once: ClassVar[bool] = False
    # PyTorch's grad_fn name, default "<Class>Backward"; a C++ node's carries its namespace
    node_name: ClassVar[str | None] = None
    # what makes the ``ctx`` your ``forward`` gets when nothing is recorded: a fresh one each call
    unrecorded_ctx: ClassVar[Any] = FunctionCtx  # (called with the number of arguments)
    node_type: ClassVar[type[BackwardNode]]  # its nodes' class (``MulBackward0``), made below

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        full = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        name = full.rsplit("::", 1)[-1]  # "torch::autograd::CopySlices" -> class CopySlices
        # ctx_fields: what forward keeps on ctx (ctx.shapes = ...), as slots, not a dict per node
        attrs: dict[str, Any] = {"_function": cls, "__slots__": cls.__dict__.get("ctx_fields", ())}
        if name != full:
            attrs["name"] = lambda self: full
        cls.node_type = type(name, (BackwardNode,), attrs)
        cls.node_type.__module__ = cls.__module__
        cls.node_type.__qualname__ = name

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError("a Function subclass must implement forward(ctx, *inputs)")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "a Function subclass must implement backward(ctx, *grad_outputs) to be differentiated"
        )

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run ``forward``; if an input requires grad (and grad mode is on), record a node."""
        inputs, values, device, recorded = unpack(cls, args)  # (a tensor's value: its array)
        if not recorded:  # no input requires grad, or grad mode is off: no node
            out = cls.call_forward(cls.unrecorded_ctx(len(args)), args, values)
            if type(out) is tuple:  # several outputs
                return tuple([_node.plain_tensor(o, device, state.inference) for o in out])
            return _node.plain_tensor(out, device, state.inference)  # outside any graph
        node = cls.new_node(args, inputs)  # the result's grad_fn, and forward's ctx
        out = cls.call_forward(node, args, values)  # (forward saves into the node)
        return node.outputs(out, inputs, device)  # Tensors whose grad_fn is the node

    @classmethod
    def new_node(cls, args: tuple[Any, ...], inputs: list[Any]) -> BackwardNode:
        """A node of this op's class (``MulBackward0``), connected to its inputs' nodes."""
        node = cls.node_type()
        node.sequence_nr, node._saved = next(_sequence), ()  # (later nodes run first)
        cls.connect(node, args, inputs)  # the edges (and, for built-ins, the dtypes to give)
        if _scope_stack:  # the nn.Module whose forward is running (for drawing)
            node._scope = _scope_stack[-1]
        if _switches.anomaly:
            node._trace = forward_stack()  # the caller of apply, outwards
        return node

    @classmethod
    def connect(cls, node: BackwardNode, args: tuple[Any, ...], inputs: list[Any]) -> None:
        """The node's edges, one per tensor input: to the node that made it, to a leaf's
        AccumulateGrad, or None if it needs no gradient (and which output of that node)."""
        # (t._grad_fn and t._rg are current: apply's t.requires_grad renewed any stale view)
        node._next_nodes, node._next_nrs, _ = gradient_edges(inputs)
        node.needs_input_grad = tuple(
            [isinstance(a, _node.Tensor) and a.requires_grad for a in args]
        )

    @classmethod
    def call_forward(cls, ctx: Any, args: tuple[Any, ...], values: list[Any]) -> Any:
        """Your ``forward`` gets the Tensors, with recording off inside; its outputs' values."""
        Tensor = _node.Tensor
        # where each tensor argument is, and its shape: backward's gradients must match them
        ctx.__dict__["_input_shapes"] = [
            (i, a._data.shape) for i, a in enumerate(args) if isinstance(a, Tensor)
        ]
        with grad_mode.no_grad():
            out = cls.forward(ctx, *args)
        if isinstance(out, Tensor):
            return out._data
        if isinstance(out, tuple) and all(isinstance(o, Tensor) for o in out):
            return tuple(o._data for o in out)
        raise TypeError(
            f"{cls.__name__}.forward must return a Tensor or a tuple of Tensors, "
            f"but returned {type(out).__name__}"
        )

    @staticmethod
    def formula_values(values: list[Any]) -> tuple[Any, ...]:
        """What ``ctx.saved_tensors`` gives ``backward`` with create_graph=True: the Tensors."""
        return tuple(values)

    @classmethod
    def call_backward(cls, ctx: Any, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """Your ``backward`` gets and returns Tensors; the engine gets one array per input
        (with create_graph=True, one Tensor: ``backward`` runs in grad mode, recorded)."""
        recorded = _switches.create_graph
        with grad_mode.set_grad_enabled(recorded):
            result = cls.backward(ctx, *_node._tensors(grad_outputs))
        grads = result if isinstance(result, tuple) else (result,)
        n_args = len(ctx.needs_input_grad)
        if len(grads) < n_args or any(g is not None for g in grads[n_args:]):
            raise RuntimeError(
                f"function {ctx.name()} returned an incorrect number of gradients "
                f"(expected {n_args}, got {len(grads)}). (Fix: return one gradient per input of "
                "forward, None for inputs that need none.)"
            )
        shapes = ctx.__dict__["_input_shapes"]  # (position, shape) of each tensor argument
        out: list[np.ndarray | None] = []
        for i, shape in shapes:
            g = grads[i]
            if g is not None:  # a view: the memory stays your tensor's (a leaf's .grad copies it)
                g = (g._data if isinstance(g, _node.Tensor) else np.asarray(g)).view()
            if g is not None and g.shape != shape:
                raise RuntimeError(
                    f"Function {ctx.name()} returned an invalid gradient at index {i} - got "
                    f"{list(g.shape)} but expected shape compatible with {list(shape)}"
                )
            if g is not None and recorded:  # the Tensor itself: its graph is the gradient's
                g = grads[i] if isinstance(grads[i], _node.Tensor) else _node.plain_tensor(g)
            out.append(g)
        return tuple(out)


class _SharedCtx(FunctionCtx):
    """The ``ctx`` built-in ops share when nothing is recorded (one per number of arguments)."""

    __slots__ = ()
    # Keeps nothing, as FunctionCtx's, but in C: ``str.format`` ignores the arguments its
    # format (here none) does not ask for. An op outside a graph makes no Python call for it.
    save_for_backward = staticmethod("".format)  # type: ignore[assignment]


class _Unrecorded(dict[int, FunctionCtx]):
    def __missing__(self, n_args: int) -> FunctionCtx:
        ctx = self[n_args] = _SharedCtx(n_args)
        return ctx


_UNRECORDED = _Unrecorded()


class NumpyFunction(Function):
    """A built-in op: ``forward`` and ``backward`` get and return numpy arrays.

    Only ``apply`` sees Tensors: it passes their values to ``forward`` and wraps what comes
    back. Backward returns one gradient per tensor input (``None`` where none is needed).
    """

    # PyTorch's node for this op's backward formula under create_graph=True, where it records
    # one (``"TanhBackwardBackward0"``); None: the formula records the ops it is written with
    double_backward_name: ClassVar[str | None] = None

    @classmethod
    def connect(cls, node: BackwardNode, args: tuple[Any, ...], inputs: list[Any]) -> None:
        """As ``Function.connect``, for the floating-point inputs only: integer and boolean
        ones (indices, masks) are data, as in PyTorch. One ``needs_input_grad`` per edge."""
        floats = inputs  # (views are current: see Function.connect)
        for t in inputs:
            if not t._dtype.is_floating_point:  # (rare: only these inputs get an edge)
                floats = [t for t in inputs if t._dtype.is_floating_point]
                break
        node._next_nodes, node._next_nrs, node.needs_input_grad = gradient_edges(floats)
        n = len(floats)  # (two inputs of one dtype, the usual case, need no look)
        if n > 2 or n == 2 and floats[0]._dtype is not floats[1]._dtype:
            _note_dtypes(node, floats)  # (float32 * float64: each gradient in its input's dtype)

    # Built-in ops share one ``ctx`` per number of arguments when nothing is recorded: what
    # their forwards set on it is never read. (A dict lookup: no call of Python's per op.)
    unrecorded_ctx = _UNRECORDED.__getitem__

    # Every built-in op runs through here: the one place numpy's warnings are silenced for
    # all forwards (log(0) is -inf without a word, as in PyTorch: see autograd/quiet.py).
    # Backward formulas run inside a backward pass, which is silenced once as a whole.
    @classmethod
    def call_forward(cls, ctx: Any, args: tuple[Any, ...], values: list[Any]) -> Any:
        token = hush()
        try:
            return cls.forward(ctx, *values)
        finally:
            unhush(token)

    @classmethod
    def call_backward(cls, ctx: Any, grad_outputs: list[np.ndarray]) -> tuple[Any, ...]:
        if _switches.create_graph:
            return cls.call_recorded_backward(ctx, grad_outputs)
        grads = cls.backward(ctx, *grad_outputs)
        grads = grads if type(grads) is tuple else (grads,)
        if ctx._grad_dtypes is not None:  # each gradient in its input's dtype
            grads = tuple(
                g if g is None else g.astype(dt, copy=False)
                for g, dt in zip(grads, ctx._grad_dtypes)
            )
        return grads

    @staticmethod
    def formula_values(values: list[Any]) -> tuple[Any, ...]:
        """With create_graph=True the formula gets Tensors that numpy's functions record
        (``RecordedArray``, see ``api/recorded.py``) where it otherwise gets arrays."""
        return tuple([_node.record(v) for v in values])

    @classmethod
    def call_recorded_backward(cls, ctx: Any, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """``backward`` with create_graph=True: the same formula, run on ``RecordedArray``s
        in grad mode, so what it computes is recorded; one Tensor per input comes back."""
        if cls.double_backward_name is not None:  # PyTorch records one node for it
            tensors = list(_node.record_formula(cls, ctx, grad_outputs))
        else:
            with grad_mode.enable_grad():
                grads = cls.backward(ctx, *[_node.record(g) for g in grad_outputs])
            grads = grads if type(grads) is tuple else (grads,)
            tensors = [None if g is None else _node.carried(_node.tensor_of(g)) for g in grads]
        dtypes = ctx._grad_dtypes or [None] * len(tensors)  # each in its input's dtype
        return tuple(
            t if t is None or dt is None or t._data.dtype == dt else t.to(from_numpy_dtype(dt))
            for t, dt in zip(tensors, dtypes)
        )


def _note_dtypes(node: BackwardNode, inputs: list[Any]) -> None:
    # Inputs of several float dtypes (float32 * float64 is computed in float64): note each
    # one's, so that its gradient is given in it, as PyTorch's engine does.
    dtypes = [t._data.dtype for t in inputs if t._dtype.is_floating_point]  # (the edges)
    if dtypes and dtypes.count(dtypes[0]) != len(dtypes):
        node._grad_dtypes = tuple(dtypes)


def _device_error(cls: type[Function], args: tuple[Any, ...]) -> None:

    name = cls.node_name or cls.__name__
    op = name[: name.rfind("Backward")] if "Backward" in name else name
    devices = [a._device for a in args if isinstance(a, _node.Tensor)]
    check_same_device(op.lower(), *devices)


def unpack(cls: type[Function], args: tuple[Any, ...]) -> tuple[list[Any], list[Any], Any, bool]:
    """The tensor arguments; every argument's value (a tensor's, its numpy array); their
    device; and whether the op is recorded: grad mode is on and an input requires grad."""
    Tensor, grad_enabled = _node.Tensor, state.grad_enabled
    inputs, values = [], []
    device, recorded = None, False
    for a in args:
        if isinstance(a, Tensor):
            if a._device is not device:
                if device is not None:
                    _device_error(cls, args)
                device = a._device
            if a._base is not None and grad_enabled:
                a._refresh_view()  # (PyTorch's error, for a view it no longer lets you use)
                recorded = recorded or a._base._rg  # (it requires grad when its base does)
            recorded = recorded or a._rg
            inputs.append(a)
            values.append(a._data)
        else:
            values.append(a)
    return inputs, values, device, recorded and grad_enabled
