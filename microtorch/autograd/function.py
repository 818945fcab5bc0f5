"""Graph nodes and the ``Function`` API: how an operation records itself for backward.

Every operation is a ``Function`` subclass with ``forward`` and ``backward`` side by side.
Calling ``MyOp.apply(...)`` runs ``forward`` and, when a graph is being recorded, creates one
node object of a class named as PyTorch names it (``MulBackward0``). That node is at once the
``ctx`` the op saves into and the tensor's ``grad_fn``, as in PyTorch.

Two kinds of ``Function``:

- built-in ops set ``_raw = True``: ``forward``/``backward`` receive and return numpy arrays,
  so the arithmetic is numpy's with no wrapping in between;
- a student's own ``class MyOp(microtorch.autograd.Function)`` receives and returns Tensors,
  exactly as in PyTorch, so code written for PyTorch runs unchanged.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from microtorch.autograd import grad_mode
from microtorch.autograd.grad_mode import state as _state
from microtorch.autograd.grad_mode import switches as _switches
from microtorch.autograd.versions import changed_by, epoch, record_versions, version_of

__all__ = ["Node", "AccumulateGrad", "BackwardNode", "Function", "FunctionCtx", "RemovableHandle"]

# The Tensor class and its constructor, set by microtorch.tensor when it is imported. This is
# the one link from the autograd layer up to the tensor layer (results must be Tensors).
Tensor: Any = None
make_tensor: Any = None

_sequence = itertools.count()  # creation order: the engine runs later-created nodes first
_scope_stack: list[str] = []  # names of the nn.Modules whose forward is running (for drawing)

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


class RemovableHandle:
    """Returned by ``register_hook``; ``handle.remove()`` unregisters the hook."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks: list[Callable[..., Any]], hook: Callable[..., Any]) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class Node:
    """A node of the backward graph: what ``tensor.grad_fn`` holds.

    ``next_functions`` pairs each input of the operation with the node its gradient goes to
    next (``None`` for inputs that need no gradient), in the order of the inputs.
    """

    __slots__ = ("_next_nodes", "_next_nrs", "_sequence_nr", "__weakref__", "__dict__")
    # The edges, stored as two tuples rather than one pair per edge: a graph holds fewer
    # objects, so there is less for Python's garbage collector to scan.
    _next_nodes: tuple[Node | None, ...]  # the node each input's gradient goes to
    _next_nrs: tuple[int, ...]  # which output of that node the input was
    _sequence_nr: int  # creation order; the engine runs the latest-created ready node first
    # Rarely set: class-level defaults, overridden per instance only when used.
    _num_outputs: int = 1
    _hooks: list[Callable[..., Any]] | None = None
    _pre_hooks: list[Callable[..., Any]] | None = None
    _tensor_pre_hooks: dict[int, list[Callable[..., Any]]] | None = None
    _retain_grad: dict[int, weakref.ref[Any]] | None = None
    _has_pre_hooks = False  # any of the three above: one check per node in the engine

    def name(self) -> str:
        """PyTorch's name for this node, e.g. ``'MulBackward0'``."""
        return type(self).__name__

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """``(node, output number)`` for each input, in order, as in PyTorch."""
        return tuple(zip(self._next_nodes, self._next_nrs))

    @property
    def metadata(self) -> dict[str, Any]:
        """A dict for your own notes about this node, as in PyTorch."""
        return self.__dict__.setdefault("_metadata", {})

    def register_hook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node has run during backward."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node runs; it may return replacement grads."""
        if self._pre_hooks is None:
            self._pre_hooks = []
            self._has_pre_hooks = True
        self._pre_hooks.append(fn)
        return RemovableHandle(self._pre_hooks, fn)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: it adds the incoming gradient into ``.grad``."""

    __slots__ = ("variable",)
    _next_nodes = _next_nrs = ()  # a leaf: the walk ends here

    def __init__(self, variable: Any) -> None:
        self.variable = variable
        # PyTorch gives AccumulateGrad the highest priority: leaves are filled as soon as ready.
        self._sequence_nr = (1 << 62) + next(_sequence)

    def name(self) -> str:
        """``'torch::autograd::AccumulateGrad'``, the C++ name PyTorch reports."""
        return "torch::autograd::AccumulateGrad"


class BackwardNode(Node):
    """Base of every ``XxxBackward`` node; also the ``ctx`` its ``Function`` saves into
    (``ctx.anything = ...`` works, as in PyTorch)."""

    __slots__ = ("_needs", "_saved", "_saved_meta", "_out_shape", "_out_dtype")
    _needs: tuple[bool, ...]  # needs_input_grad of a student's Function (set by apply)
    _saved: tuple[Any, ...] | None  # None once backward has freed it
    _saved_meta: tuple[Any, ...] | None  # versions of the saved values (versions.record_versions)
    _out_shape: Any  # the output's shape (a tuple per output when there are several)
    _out_dtype: Any
    _function: ClassVar[type[Function]]
    _scope: str | None = None  # the nn.Module whose forward created this node
    _trace: Any = None  # traceback.StackSummary of the forward call (anomaly mode only)

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        """For each input of ``forward``, whether it needs a gradient (skip the others)."""
        if not self._function._raw:  # a student's Function: one entry per argument
            return self._needs
        nodes = self._next_nodes
        if len(nodes) == 2:  # most ops (asked per node in backward: no comprehension here)
            return (nodes[0] is not None, nodes[1] is not None)
        return tuple([fn is not None for fn in nodes])

    @property
    def _input_metadata(self) -> list[Any]:
        """Shape and dtype of each gradient this node receives (PyTorch's private name)."""
        from types import SimpleNamespace

        return [SimpleNamespace(shape=shape, dtype=dt) for shape, dt in self._out_meta]

    @property
    def _out_meta(self) -> tuple[tuple[tuple[int, ...], Any], ...]:
        """(shape, dtype) of each output."""
        if self._num_outputs == 1:
            return ((self._out_shape, self._out_dtype),)
        return tuple(zip(self._out_shape, self._out_dtype))

    def save_for_backward(self, *values: Any) -> None:
        """Keep ``values`` for ``backward``; they are checked against in-place changes."""
        self._saved = values

    def mark_non_differentiable(self, *outputs: Any) -> None:
        """Accepted for PyTorch compatibility; integer outputs never get a gradient anyway."""

    def set_materialize_grads(self, value: bool) -> None:
        """Accepted for PyTorch compatibility; missing gradients are always zeros here."""

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        """What ``forward`` saved; raises if backward already freed it or it changed in place."""
        if self._saved is None:  # freed by a backward pass without retain_graph=True
            raise RuntimeError(FREED_MESSAGE)
        meta = self._saved_meta
        if meta is not None and meta[0] != epoch[0]:  # something changed in place since
            for k in range(1, len(meta), 3):  # flat groups: index, version, position
                value = self._saved[meta[k]]
                now = version_of(value._data if isinstance(value, Tensor) else value)
                if now != meta[k + 1]:
                    raise RuntimeError(_modified_message(now, meta[k + 1 : k + 3], self, value))
        return self._saved

    def apply_backward(self, grad_outputs: list[np.ndarray]) -> tuple[np.ndarray | None, ...]:
        """Run this op's ``backward`` on gradients given as numpy arrays."""
        fn = self._function
        if fn._raw:
            grads = fn.backward(self, *grad_outputs)
            return grads if type(grads) is tuple else (grads,)
        return _call_tensor_backward(self, fn, grad_outputs)


def _modified_message(now: int, entry: tuple[Any, ...], node: Node, value: Any) -> str:
    expected, position = entry
    desc = _describe(position, node, value)
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {desc} is at version {now}; expected version {expected} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False). "
        "(Fix: replace the in-place operation, e.g. x.add_(1) or x += 1, with an out-of-place "
        "one, x = x + 1, or apply it to a .clone().)"
    )


def _describe(position: int, node: Node, value: Any) -> str:
    # PyTorch's "[torch.FloatTensor [3]], which is output 0 of Sigmoid", describing the saved
    # tensor as it is now. A saved output (position >= 0: its output number) is described by
    # the node that saved it, as PyTorch does. A saved input (position -1 - k: the node's
    # input k) by the op that last changed it in place with recording on (noted by
    # versions.record_change), else by the op that made it.
    creator: str | None = None
    if position >= 0:
        (shape, dt), creator = node._out_meta[position], node.name()  # type: ignore[attr-defined]
        output_nr = position
    else:
        from microtorch.dtypes import from_numpy_dtype

        data = value._data if hasattr(value, "_data") else value
        shape, dt = data.shape, from_numpy_dtype(data.dtype)
        change = changed_by(data)
        if change is not None:
            creator, output_nr = change
        else:
            fn, output_nr = node.next_functions[-1 - position]  # (the edge to input k)
            creator = None if fn is None or isinstance(fn, AccumulateGrad) else fn.name()
    desc = f"[microtorch.{dt._legacy} [{', '.join(str(s) for s in shape)}]]"
    if creator is not None:
        base = creator[: creator.rfind("Backward")] if "Backward" in creator else creator
        desc += f", which is output {output_nr} of {base},"
    return desc


class FunctionCtx:
    """Stand-in ``ctx`` when nothing is recorded: saving is a no-op."""

    __slots__ = ("__dict__",)
    needs_input_grad: tuple[bool, ...] = ()

    def save_for_backward(self, *values: Any) -> None:
        pass

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

    _raw: ClassVar[bool] = False
    ctx_fields: ClassVar[tuple[str, ...]] = ()  # names forward sets on ctx (optional; faster)
    # PyTorch's grad_fn name, default "<Class>Backward"; a C++ node's carries its namespace
    node_name: ClassVar[str | None] = None
    _backward_cls: ClassVar[type[BackwardNode]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        full = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        # PyTorch's C++-only nodes report their namespace: "torch::autograd::CopySlices".
        name = full.rsplit("::", 1)[-1]
        # ctx_fields: what forward keeps on ctx (ctx.shapes = ...), as slots, not a dict per node
        attrs: dict[str, Any] = {"_function": cls, "__slots__": getattr(cls, "ctx_fields", ())}
        if name != full:
            attrs["name"] = lambda self: full
        cls._backward_cls = type(name, (BackwardNode,), attrs)
        cls._backward_cls.__module__ = cls.__module__
        cls._backward_cls.__qualname__ = name

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
        """Run ``forward`` on ``args`` and, if any input requires grad, record the node."""
        # One pass over the arguments: their values, one device, any grad, any non-tensor.
        values = []
        device = None
        requires_grad = mixed = False
        for a in args:
            if isinstance(a, Tensor):
                if a._device is not device:
                    if device is not None:
                        _device_error(cls, args)
                    device = a._device
                values.append(a._data)
                if a._rg:
                    requires_grad = True
            else:
                values.append(a)
                mixed = True
        tensors = [a for a in args if isinstance(a, Tensor)] if mixed else args
        if not (requires_grad and _state.grad_enabled):
            return _run_unrecorded(cls, args, values, device)
        ctx: Any = cls._backward_cls()  # the node: a plain object, its fields set here
        ctx._saved, ctx._sequence_nr = (), next(_sequence)
        if _scope_stack:
            ctx._scope = _scope_stack[-1]
        out = cls.forward(ctx, *values) if cls._raw else _run_tensor_forward(cls, ctx, args)
        if type(out) is not tuple:  # the common case: one output
            result = make_tensor(out, True, ctx, 0, device, False)
            ctx._out_shape, ctx._out_dtype = out.shape, result._dtype
            _record(cls, ctx, args, tensors, (result,))
            return result
        results = tuple(make_tensor(o, True, ctx, i, device, False) for i, o in enumerate(out))
        ctx._num_outputs = len(results)
        ctx._out_shape = tuple([r._data.shape for r in results])
        ctx._out_dtype = tuple([r._dtype for r in results])
        _record(cls, ctx, args, tensors, results)
        return results


def _run_unrecorded(
    cls: type[Function], args: tuple[Any, ...], values: list[Any], device: Any
) -> Any:
    # No input requires grad, or grad mode is off: results are plain tensors, no node.
    ctx = FunctionCtx()
    if cls._raw:
        out = cls.forward(ctx, *values)
    else:
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._rg for a in args)
        with grad_mode.no_grad():
            out = _unwrap_outputs(cls, cls.forward(ctx, *args))
    inference = _state.inference
    if type(out) is not tuple:
        return make_tensor(out, False, None, 0, device, inference)
    return tuple(make_tensor(o, False, None, 0, device, inference) for o in out)


def _run_tensor_forward(cls: type[Function], ctx: BackwardNode, args: tuple[Any, ...]) -> Any:
    # A student's Function: its forward gets the Tensors, with recording off inside.
    ctx._needs = tuple(isinstance(a, Tensor) and a._rg for a in args)
    ctx._saved_meta = None  # (set by _record; its forward may already read saved_tensors)
    with grad_mode.no_grad():
        return _unwrap_outputs(cls, cls.forward(ctx, *args))


def _record(
    cls: type[Function],
    ctx: BackwardNode,
    args: tuple[Any, ...],
    tensors: Sequence[Any],
    results: tuple[Any, ...],
) -> None:
    # Connect the new node to the graph: one edge per tensor input, in order, to the node
    # that made the input, to a leaf's AccumulateGrad, or to None if it needs no gradient.
    nodes = []
    numbers = _ZEROS[len(tensors)]  # which output of its node each input is: nearly always 0
    for t in tensors:
        fn = t.grad_fn
        if fn is not None:
            nodes.append(fn)
            if t._output_nr:  # (an output of a multi-output op, e.g. max(dim=...))
                numbers = _output_numbers(tensors)
        elif t._rg:
            nodes.append(t._accumulate_grad())
        else:
            nodes.append(None)
    ctx._next_nodes, ctx._next_nrs = tuple(nodes), numbers
    saved = ctx._saved
    ctx._saved_meta = record_versions(saved, tensors, results, cls._raw) if saved else None
    if not cls._raw:
        _finish_tensor_ctx(ctx, args, results)
    if _switches.anomaly:
        import traceback

        ctx._trace = traceback.extract_stack()[:-2]  # the caller of apply, outwards


class _Zeros(dict[int, tuple[int, ...]]):
    # _ZEROS[n] is one shared tuple of n zeros (made on first use).
    def __missing__(self, n: int) -> tuple[int, ...]:
        zeros = self[n] = (0,) * n
        return zeros


_ZEROS = _Zeros({n: (0,) * n for n in range(8)})


def _output_numbers(tensors: Sequence[Any]) -> tuple[int, ...]:
    return tuple([t._output_nr if t.grad_fn is not None else 0 for t in tensors])


def _device_error(cls: type[Function], args: tuple[Any, ...]) -> None:
    from microtorch.device import check_same_device

    name = cls.node_name or cls.__name__
    op = name[: name.rfind("Backward")] if "Backward" in name else name
    check_same_device(op.lower(), *(a._device for a in args if hasattr(a, "_device")))


def _unwrap_outputs(cls: type[Function], out: Any) -> Any:
    if isinstance(out, Tensor):
        return out._data
    if isinstance(out, tuple) and all(isinstance(o, Tensor) for o in out):
        return tuple(o._data for o in out)
    raise TypeError(
        f"{cls.__name__}.forward must return a Tensor or a tuple of Tensors, "
        f"but returned {type(out).__name__}"
    )


def _finish_tensor_ctx(ctx: BackwardNode, args: tuple[Any, ...], results: tuple[Any, ...]) -> None:
    # A saved output would hold its own grad_fn (a reference cycle): keep a plain alias instead.
    ctx._saved = tuple(
        Tensor._make(v._data, False, None, 0, v._device, False)
        if any(v is r for r in results)
        else v
        for v in ctx._saved or ()
    )
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    ctx.__dict__["_tensor_positions"] = positions
    ctx.__dict__["_input_shapes"] = [args[i]._data.shape for i in positions]


def _call_tensor_backward(
    node: BackwardNode, fn: type[Function], grad_outputs: list[np.ndarray]
) -> tuple[np.ndarray | None, ...]:
    # A student's Function: hand it Tensors, check what it returns, give the engine arrays.
    wrapped = [Tensor._make(g, False, None, 0, None, False) for g in grad_outputs]
    with grad_mode.no_grad():
        result = fn.backward(node, *wrapped)
    grads = result if isinstance(result, tuple) else (result,)
    n_inputs = len(node.needs_input_grad)
    if len(grads) < n_inputs or any(g is not None for g in grads[n_inputs:]):
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {n_inputs}, got {len(grads)}). (Fix: return one gradient per input of "
            "forward, None for inputs that need none.)"
        )
    out: list[np.ndarray | None] = []
    for i, shape in zip(node.__dict__["_tensor_positions"], node.__dict__["_input_shapes"]):
        g = grads[i]
        if g is None:
            out.append(None)
            continue
        g = g._data if isinstance(g, Tensor) else np.asarray(g)
        if g.shape != shape:
            got, want = list(g.shape), list(shape)
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - got {got} "
                f"but expected shape compatible with {want}"
            )
        out.append(g)
    return tuple(out)
