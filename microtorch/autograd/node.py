"""Graph nodes: what ``tensor.grad_fn`` holds, and ``AccumulateGrad`` at the leaves.

A node knows the nodes its gradients go to next (``next_functions``) and how to run itself
during backward: ``run(grad_outputs)`` takes the gradient of each of its outputs and returns
the gradient of each of its inputs. The engine (``autograd/engine.py``) calls ``run`` on each
node once, in PyTorch's order; ``AccumulateGrad.run`` is where ``leaf.grad += grad`` happens.
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from microtorch import _lazy
from microtorch.autograd.grad_mode import switches as _switches

__all__ = [
    "Node",
    "AccumulateGrad",
    "RemovableHandle",
    "move_retain_grad",
    "next_sequence_nr",
    "op_name",
    "use_tensor_type",
    "gradient_edge",
    "gradient_edges",
    "accumulate_grad_of",
    "NO_REF",
]

# Set by use_tensor_type, which microtorch.tensor calls when it is imported: the one link from
# autograd up to the tensor layer, because what autograd hands out (op results, gradients for
# hooks) are Tensors.
Tensor: Any = None
plain_tensor: Any = None  # plain_tensor(data, device=None): a tensor outside any graph
op_result: Any = None  # op_result(data, node, output_nr, device): output output_nr of node


def use_tensor_type(tensor_type: type, make_plain: Any, make_result: Any) -> None:
    """Hand autograd the Tensor class and its two constructors (``tensor.py`` calls this)."""
    global Tensor, plain_tensor, op_result
    Tensor, plain_tensor, op_result = tensor_type, make_plain, make_result


# Set by use_recorded_arrays, which microtorch.tensor calls: with create_graph=True a built-in
# formula computes on RecordedArrays (api/recorded.py), Tensors that numpy's functions record.
record: Any = None  # record(value): a Tensor as the formula sees it (anything else unchanged)
tensor_of: Any = None  # tensor_of(value): the Tensor behind what a formula computed


def record_formula(cls: Any, ctx: Any, grad_outputs: list[Any]) -> tuple[Any, ...]:
    """With create_graph=True, record ``cls``'s backward formula as the one node PyTorch records
    for it (``TanhBackwardBackward0``): autograd/double_backward.py's ``record_formula``."""
    # Rarely needed (a gradient of a gradient), so its module is imported on the first call,
    # and puts its record_formula in this one's place.
    _lazy.load("microtorch.autograd.double_backward")
    return record_formula(cls, ctx, grad_outputs)  # (the global: double_backward's now)


def use_recorded_arrays(make_record: Any, make_tensor: Any) -> None:
    """Hand autograd the wrapper formulas compute on with create_graph=True."""
    global record, tensor_of
    record, tensor_of = make_record, make_tensor


def carried(value: Any) -> Any:
    """``value`` (an array, or a Tensor) as the engine carries gradients: arrays, or with
    create_graph=True Tensors (a gradient's graph is then part of it)."""
    if not _switches.create_graph or value is None or isinstance(value, Tensor):
        return value
    return plain_tensor(np.asarray(value))


_NONE: Mapping[int, Any] = MappingProxyType({})  # a node's hooks until one is registered


class _Gone:
    pass


# A weak reference whose object is gone: ``NO_REF()`` is None. What a tensor holds until it has
# an AccumulateGrad (or a saved record) to refer to, so reading one is a call in C, no test.
NO_REF: weakref.ref[Any] = weakref.ref(_Gone())  # (the _Gone dies at once: nothing holds it)
_sequence = itertools.count()  # creation order: the engine runs later-created nodes first


def next_sequence_nr() -> int:
    """A number larger than every earlier node's (PyTorch's ``sequence_nr``)."""
    return next(_sequence)


class RemovableHandle:
    """Returned by ``register_hook``; ``handle.remove()`` unregisters the hook."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks: list[Callable[..., Any]], hook: Callable[..., Any]) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class Node:
    """A node of the backward graph.

    ``next_functions`` pairs each tensor input of the operation with the node its gradient
    goes to next (``None`` for inputs that need no gradient), in the order of the inputs.
    """

    __slots__ = ("_next_nodes", "_next_nrs", "sequence_nr", "__weakref__", "__dict__")
    # The edges, as two tuples rather than one pair per edge: fewer objects in a graph.
    _next_nodes: tuple[Node | None, ...]  # the node each input's gradient goes to
    _next_nrs: tuple[int, ...]  # which output of that node the input was
    sequence_nr: int  # creation order; the engine runs the latest-created ready node first
    # Rarely used, so class-level defaults (empty, read-only) that an instance replaces only
    # when needed: a node without hooks builds nothing for them.
    _num_outputs: int = 1
    _hooks: list[Callable[..., Any]] | tuple[()] = ()  # node.register_hook
    _pre_hooks: list[Callable[..., Any]] | tuple[()] = ()  # node.register_prehook
    _tensor_hooks: Mapping[int, list[Callable[..., Any]]] = _NONE  # output.register_hook
    _retain_grad: Mapping[int, weakref.ref[Any]] = _NONE  # output.retain_grad()
    has_pre_hooks: bool = False  # one of the three above was registered: run pre_hooks

    def __lt__(self, other: Node) -> bool:
        """The engine's order among nodes ready to run, PyTorch's: the one created later first
        (``ready`` is a heap, smallest first). Equal ones (``AccumulateGrad``) come out as
        PyTorch's heap gives them."""
        return self.sequence_nr > other.sequence_nr

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

    def run(self, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """The gradient of each input, from the gradient of each output (numpy arrays)."""
        raise NotImplementedError

    def release_saved(self) -> None:
        """Let go of what forward saved (backward does this unless ``retain_graph=True``)."""

    def pre_hooks(self, grad_outputs: list[Any]) -> list[Any]:
        """Run the hooks registered on this node's outputs: they may replace a gradient."""
        if not (self._pre_hooks or self._tensor_hooks or self._retain_grad):
            return grad_outputs  # (most nodes have none)
        for hook in self._pre_hooks:
            new = hook(tuple(_tensors(grad_outputs)))
            if new is not None:
                grad_outputs = _carried(new)
        for nr, hooks in self._tensor_hooks.items():
            for hook in hooks:  # (as PyTorch: with None for an output no gradient reached)
                grad_outputs[nr] = call_tensor_hook(hook, grad_outputs[nr])
        for nr, ref in self._retain_grad.items():  # PyTorch runs these last
            t = ref()
            if t is not None and grad_outputs[nr] is not None and _switches.create_graph:
                t._add_recorded_grad(grad_outputs[nr], retained=True)
            elif t is not None and grad_outputs[nr] is not None:
                t._add_to_grad(grad_outputs[nr].view(), out_of_place=True)  # (a copy)
        return grad_outputs

    def register_hook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node has run during backward."""
        if not self._hooks:
            self._hooks = []
        self._hooks.append(fn)
        return RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node runs; it may return replacement grads."""
        if not self._pre_hooks:
            self._pre_hooks, self.has_pre_hooks = [], True
        self._pre_hooks.append(fn)
        return RemovableHandle(self._pre_hooks, fn)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: it adds the incoming gradient into ``.grad``."""

    __slots__ = ("variable",)
    _next_nodes = _next_nrs = ()  # a leaf: the walk ends here
    has_pre_hooks = True  # (its leaf may have hooks: x.register_hook; pre_hooks looks)

    def __init__(self, variable: Any) -> None:
        self.variable = variable
        # PyTorch gives every AccumulateGrad the highest priority, the same for all: leaves
        # are filled as soon as they are ready.
        self.sequence_nr = 1 << 62

    @property
    def _out_shape(self) -> tuple[int, ...]:
        """The shape of the gradient it takes: its leaf's."""
        return self.variable._data.shape

    def name(self) -> str:
        """``'torch::autograd::AccumulateGrad'``, the C++ name PyTorch reports."""
        return "torch::autograd::AccumulateGrad"

    def pre_hooks(self, grad_outputs: list[Any]) -> list[Any]:
        """A leaf's own hooks (``x.register_hook``) see its gradient first."""
        hooks = self.variable._hooks
        if not hooks or grad_outputs[0] is None:
            return grad_outputs
        grad = grad_outputs[0]
        for hook in hooks:
            grad = call_tensor_hook(hook, grad)
        if isinstance(grad, np.ndarray):  # (a hook saw it and may keep it: .grad gets a copy)
            grad = grad.view()
        return [grad]

    def run(self, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """``leaf.grad += grad``: gradients add up, they are not replaced."""
        grad, leaf = grad_outputs[0], self.variable
        if grad is None:
            return ()
        if leaf.grad_fn is not None:  # an in-place op made it a result since
            raise RuntimeError(INTERIOR_MESSAGE)
        if leaf.requires_grad and _switches.create_graph:  # .grad in the graph, as PyTorch's
            leaf._add_recorded_grad(grad)
        elif leaf.requires_grad:  # (not after a requires_grad_(False) since)
            leaf._add_to_grad(grad)  # (the engine hands on a view of a shared gradient)
        run_post_accumulate_grad_hooks(leaf)  # (after .grad +=; usually there are none)
        return ()


def run_post_accumulate_grad_hooks(leaf: Any) -> None:
    """Call each hook of ``leaf.register_post_accumulate_grad_hook`` with the leaf."""
    for hook in list(leaf.__dict__.get("_post_accumulate_grad_hooks") or ()):
        out = hook(leaf)
        if out is None:
            continue
        if isinstance(out, Tensor):
            if out._data.shape != leaf._data.shape:
                name = getattr(hook, "__name__", type(hook).__name__)
                raise RuntimeError(f"hook '{name}' has changed the size of value")
            raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        raise TypeError(f"expected Variable, but hook returned '{type(out).__name__}'")


def gradient_edges(tensors: list[Any]) -> tuple[tuple[Any, ...], tuple[int, ...], tuple[bool, ...]]:
    """Where each tensor's gradient goes (PyTorch's ``gradient_edge``, for each): the node
    that made it, else, for a leaf that requires grad, its ``AccumulateGrad``, else None (it
    needs no gradient); which output of that node it is; and whether it needs a gradient."""
    if len(tensors) == 2:  # a binary op, the usual case: no lists to build
        a, b = tensors
        node_a, node_b = a._grad_fn, b._grad_fn
        if node_a is None and a._rg:  # a leaf: its AccumulateGrad, if it has one alive
            node_a = a._acc() or accumulate_grad_of(a)
        if node_b is None and b._rg:
            node_b = b._acc() or accumulate_grad_of(b)
        pair = shared[(a._output_nr, b._output_nr)]
        return (node_a, node_b), pair, flags[(node_a is not None, node_b is not None)]
    nodes, nrs, needs = [], [], []
    for t in tensors:
        node = t._grad_fn
        if node is None and t._rg:
            node = t._acc() or accumulate_grad_of(t)
        nodes.append(node)
        nrs.append(t._output_nr)
        needs.append(node is not None)
    return tuple(nodes), shared[tuple(nrs)], flags[tuple(needs)]


def gradient_edge(t: Any) -> Node | None:
    """The node ``t``'s gradient goes to (see ``gradient_edges``), None if it needs none."""
    return gradient_edges([t])[0][0]


class _Patterns(dict[tuple[Any, ...], tuple[Any, ...]]):
    """One tuple object per pattern of output numbers or flags: ``shared[p]`` is an equal
    tuple made before, or ``p`` itself. A graph's nodes nearly all hold (0, 0) and
    (True, False), so they share those instead of holding a copy each."""

    def __missing__(self, pattern: tuple[Any, ...]) -> tuple[Any, ...]:
        if len(self) >= 4096:  # (long patterns of many-input ops: keep the table small)
            self.clear()
        self[pattern] = pattern
        return pattern


shared = _Patterns()
# Flags and output shapes, each in a table of its own: (1, 0) == (True, False) in Python, so
# output numbers, flags and shapes must never stand in for each other.
flags = _Patterns()
shapes = _Patterns()


def accumulate_grad_of(t: Any) -> AccumulateGrad:
    """A leaf's ``AccumulateGrad``: one per leaf, held weakly (the graph keeps it alive, not
    the tensor), so two graphs built from the leaf meet at one node, as in PyTorch."""
    node = t._acc()
    if node is None:
        node = AccumulateGrad(t)
        t._acc = weakref.ref(node)
    return node


INTERIOR_MESSAGE = (
    "leaf variable has been moved into the graph interior (Fix: an in-place op on this leaf, "
    "e.g. after detach_(), gave it a grad_fn after it was used; change a .clone() instead)"
)


def move_retain_grad(t: Any, old: Node | None) -> None:
    """After ``t`` got a new ``grad_fn`` (an in-place change): its ``retain_grad()`` moves from
    ``old`` to it, as in PyTorch, so ``t.grad`` is the gradient of ``t``'s current values."""
    if old is None or not t._retains or old is t._grad_fn:
        return
    for nr, ref in list(old._retain_grad.items()):
        if ref() is t:
            del old._retain_grad[nr]  # type: ignore[attr-defined]  # (a dict once registered)
    t._retains = False
    if t._grad_fn is not None:
        t.retain_grad()


def call_tensor_hook(hook: Callable[..., Any], grad: Any) -> Any:
    """``hook(grad)`` with the gradient as a Tensor (or None); a Tensor it returns replaces it."""
    result = hook(_tensors([grad])[0])
    if result is None:
        return grad
    if not isinstance(result, Tensor) or (grad is not None and result._data.shape != grad.shape):
        raise RuntimeError(
            "hook returned a value that is not a Tensor of the gradient's shape "
            f"{list(getattr(grad, 'shape', ()))}; a tensor hook must return None or a Tensor "
            "like its input"
        )
    return result if _switches.create_graph else result._data


def _tensors(arrays: list[Any]) -> list[Any]:
    # the gradients as hooks see them: Tensors (with create_graph=True they already are)
    return [a if a is None or isinstance(a, Tensor) else plain_tensor(a) for a in arrays]


def _carried(tensors: Any) -> list[Any]:
    # what a hook returned, as the engine carries gradients: arrays, or with create_graph=True
    # the Tensors themselves (their graph is the gradient's)
    if _switches.create_graph:
        return list(tensors)
    return [None if g is None else g._data for g in tensors]


def op_name(node: Node) -> str:
    """The op's name as PyTorch's messages give it: MulBackward0 -> Mul, MaxBackward1 -> Max1."""
    return re.sub(r"Backward(\d+)$", lambda m: "" if m.group(1) == "0" else m.group(1), node.name())
