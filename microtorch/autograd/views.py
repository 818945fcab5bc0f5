"""Views in the graph: one memory with their base, and PyTorch's rewrite after an in-place change.

A view (``x[0]``, ``x.t()``, ``x.view(4)``, ``x.unbind()``...) shares its base's memory, so it
shares its version count too. Writing through a view changes the base, so the base's graph
must change with it, and PyTorch rewrites it:

- the base's ``grad_fn`` becomes ``CopySlices``: outside the view, the base's gradient goes to
  what made the base before; inside it, through the in-place op's own node;
- a view whose memory changed since it got its ``grad_fn`` gets a new one,
  ``AsStridedBackward0``: its gradient is the base's, read at the view's places in memory.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node
from microtorch.autograd.function import FREED_MESSAGE, BackwardNode, NumpyFunction
from microtorch.autograd.grad_mode import enable_grad
from microtorch.autograd.node import (
    Node,
    accumulate_grad_of,
    move_retain_grad,
    next_sequence_nr,
    op_name,
)
from microtorch.autograd.versions import version_of

__all__ = [
    "as_view", "rebase_message", "refresh", "rebase", "AsStrided", "CopySlices",
    "storage_positions", "OVERLAP_MESSAGE",
]  # fmt: skip

OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def as_view(out: Any, base: Any, multi_output: bool = False) -> Any:
    """Mark ``out`` as a view of ``base`` (of its base, for a view of a view), and how it was
    made: in no_grad mode, or as one of several outputs (``unbind``). PyTorch refuses some
    in-place changes of such views (see ``rebase_message``); a view of one inherits that."""
    out._base = base._base if base._base is not None else base
    out._view_version = version_of(out._data)
    made = "multi_output" if multi_output else "default"
    if not grad_mode.state.grad_enabled:
        made = "no_grad"
    out._creation = base._creation if made == "default" else made
    return out


def rebase_message(view: Any, indirect: bool) -> str:
    """PyTorch's error when ``view`` (made in no_grad mode, or by ``unbind``...) is changed in
    place, or (``indirect``) its base or another view of it was, with grad mode on."""
    node = view._grad_fn
    changed = "its base or another view of its base has been" if indirect else "is being"
    if view._creation == "no_grad" or node is None:
        made = (
            "A view was created"
            if node is None
            else (
                f"Output {view._output_nr} of {op_name(node)} is a view of a view which was created"
            )
        )
        text = f"{made} in no_grad mode and {changed} modified inplace with grad mode enabled."
    else:
        text = f"Output {view._output_nr} of {op_name(node)} is a view and {changed} modified"
        text += " inplace."
    if view._creation == "multi_output":
        return text + (
            " This view is the output of a function that returns multiple views. Such functions "
            "do not allow the output views to be modified inplace. You should replace the "
            "inplace operation by an out-of-place one."
        )
    return text + (
        " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
        "clarify your code by moving both the view and the inplace either both inside the "
        "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
        "want the inplace to be tracked)."
    )


def storage_positions(a: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """Where each element of ``a`` sits in memory, in elements from ``origin``'s first one."""
    start = a.__array_interface__["data"][0] - origin.__array_interface__["data"][0]
    positions = np.full(a.shape, start // a.itemsize, np.int64)
    for dim, (size, stride) in enumerate(zip(a.shape, a.strides)):
        steps = np.arange(size) * (stride // a.itemsize)
        positions += steps.reshape((-1,) + (1,) * (a.ndim - dim - 1))
    return positions


class AsStrided(NumpyFunction):
    """z = a window of a's memory with its own shape and strides (a view): the gradient of each
    element of z goes to the element of a stored at the same place, summed where places repeat."""

    node_name = "AsStridedBackward0"
    ctx_fields = ("a_places", "z_places", "a_strides")

    @staticmethod
    def forward(ctx, a, window):
        ctx.a_places, ctx.z_places = storage_positions(a, a), storage_positions(window, a)
        ctx.a_strides = tuple(s // a.itemsize for s in a.strides)  # in elements
        return window  # the view's values: the same memory, now read through the base

    @staticmethod
    def backward(ctx, grad_output):
        memory = np.zeros_like(grad_output, shape=ctx.a_places.max() + 1)
        np.add.at(memory, ctx.z_places, grad_output)
        if min(ctx.a_strides, default=0) < 0 or not isinstance(memory, np.ndarray):
            return memory[ctx.a_places]  # (a copy; create_graph=True records this read)
        # as PyTorch's: the gradient is a view of that memory, laid out as the base
        strides = tuple(s * memory.itemsize for s in ctx.a_strides)
        return np.ndarray(ctx.a_places.shape, memory.dtype, memory, strides=strides)


def refresh(view: Any) -> None:
    """Give ``view`` a new ``grad_fn`` if its memory was changed in place since it got one."""
    base, node = view._base, view._grad_fn
    if node is None and not base._rg:  # nothing to renew: the change waits (as in PyTorch)
        return
    version = version_of(view._data)
    if view._view_version == version:
        return
    if view._creation != "default" and (node is not None or base.requires_grad):
        raise RuntimeError(rebase_message(view, indirect=True))  # PyTorch refuses these views
    view._view_version = version
    if base.requires_grad and view._dtype.is_floating_point:
        with enable_grad():
            out = AsStrided.apply(base, view._data)
        view._grad_fn, view._output_nr, view._rg = out._grad_fn, 0, True
        view._hooks = None  # (hooks from now on go to the new grad_fn, as PyTorch's)
        move_retain_grad(view, node)
    elif node is not None:  # its base no longer requires grad: PyTorch renews it all the same,
        view._grad_fn, view._output_nr = _as_strided_node(base, view), 0  # leading nowhere
        view._hooks = None
        move_retain_grad(view, node)


def _as_strided_node(base: Any, view: Any) -> BackwardNode:
    # AsStridedBackward0 for a view of a base that needs no gradient (apply records none)
    node = AsStrided._backward_cls()
    node.sequence_nr, node._saved = next_sequence_nr(), ()
    AsStrided.connect(node, (base, view._data), [base])  # (an edge to nothing)
    AsStrided.forward(node, base._data, view._data)
    node._out_shape, node._out_dtype = view._data.shape, view._dtype
    return node


class CopySlices(Node):
    """The base's ``grad_fn`` after an in-place op ``fn`` wrote through a view of it: the
    gradient inside the view goes through ``fn``, the rest to what made the base before."""

    def __init__(self, base: Any, view: Any, fn: BackwardNode, written: Any = None) -> None:
        self.fn = fn
        self.base_places = storage_positions(base._data, base._data)
        self.view_places = storage_positions(view._data, base._data)
        # An expanded view (several of its elements at one place): fn wrote the places
        # ``written`` (x[i] = v), whose old values are gone, whichever element aliases them.
        # Written as a whole (fill_), its gradient has no one place to go: PyTorch's backward
        # raises, and so does run.
        self.written_places = None if written is None else self.view_places[written]
        # Its elements that alias one place get the same gradient (fn's, which is zero only
        # at the places written): the first of each is the one put back (``once``), so that
        # with create_graph=True no place is written twice and counted twice after.
        self.overlapping = np.unique(self.view_places).size < self.view_places.size
        if self.overlapping:
            self.once = np.unique(self.view_places, return_index=True)[1]
        before = base.grad_fn or (accumulate_grad_of(base) if base.requires_grad else None)
        self._next_nodes = (before,) + fn._next_nodes[1:]  # fn's first input was the view
        self._next_nrs = (base._output_nr,) + fn._next_nrs[1:]
        self.sequence_nr = next_sequence_nr()
        self._out_shape = base._data.shape  # (the base's gradient it takes)

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def run(self, grad_outputs: list[Any]) -> tuple[Any, ...]:
        """The base's gradient with the view's part replaced by ``fn``'s gradient."""
        grad = grad_outputs[0]
        if self.fn is None:  # freed by an earlier backward, as PyTorch frees it
            raise RuntimeError(FREED_MESSAGE)
        if grad is None:
            return (None,) * len(self._next_nodes)
        if self.overlapping and self.written_places is None:
            raise RuntimeError(OVERLAP_MESSAGE)
        grad = _node.record(grad)  # (with create_graph=True: a RecordedArray, recorded)
        memory = np.zeros_like(grad, shape=self.base_places.size)  # the base's memory, flat
        np.put_along_axis(memory, self.base_places.ravel(), grad.ravel(), axis=0)
        through_fn = self.fn.run([_engine_value(memory[self.view_places])])
        inside = 0 if through_fn[0] is None else _node.record(through_fn[0]).ravel()
        places = self.view_places.ravel()
        if self.overlapping:  # (one element per place)
            places = places[self.once]
            inside = inside if isinstance(inside, int) else inside[self.once]
        np.put_along_axis(memory, places, inside, axis=0)
        if self.written_places is not None:  # (overwritten, through any element aliasing it)
            np.put_along_axis(memory, self.written_places.ravel(), 0, axis=0)
        return (_engine_value(memory[self.base_places]),) + tuple(through_fn[1:])

    def release_saved(self) -> None:
        if self.fn is not None:
            self.fn.release_saved()
            self.fn = None  # type: ignore[assignment]  # (PyTorch lets go of fn too)


def _engine_value(x: Any) -> Any:
    # what the engine carries: an array, or with create_graph=True the RecordedArray's Tensor
    return x if isinstance(x, (np.ndarray, np.generic)) else _node.tensor_of(x)


def rebase(view: Any, fn: BackwardNode, written: Any = None) -> None:
    """After the in-place op ``fn`` wrote through ``view`` (at the places ``written``, for an
    expanded view): rewrite the base's graph."""
    base = view._base
    old = base._grad_fn
    base._grad_fn, base._output_nr, base._rg = CopySlices(base, view, fn, written), 0, True
    base._hooks = None  # (later hooks go to CopySlices, as PyTorch's: see ops/inplace.py)
    move_retain_grad(base, old)
    view._view_version = -1  # out of date: refresh gives it its new grad_fn
    refresh(view)  # the view itself now reads its values out of the base: AsStridedBackward0
