"""Saved tensors: what a node keeps for its backward formula, and the checks on reading it.

``ctx.save_for_backward(a, b)`` keeps each value as a ``SavedTensor`` (PyTorch's
``SavedVariable``): the value, and the version of its memory at that moment. ``saved_tensors``
hands the values back, and raises PyTorch's errors instead when backward already freed them
("backward through the graph a second time") or when one was changed in place since ("modified
by an inplace operation"), because the formula would then compute a wrong gradient.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd import versions
from microtorch.autograd.grad_mode import switches
from microtorch.autograd.node import op_name, shared
from microtorch.autograd.versions import version_of
from microtorch.dtypes import from_numpy_dtype

__all__ = [
    "SavedTensor",
    "FREED_MESSAGE",
    "INFERENCE_SAVED_MESSAGE",
    "keep_saved",
    "saved_in_place",
]

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)

DETACHED_MESSAGE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is "
    "not supported, please use out-of-place `.detach()` instead"
)

INFERENCE_SAVED_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)


class SavedTensor:
    """One value saved for backward, with the version of its memory when it was saved.

    ``tensor`` is the input tensor it is, if it is one (for the error message), ``output_nr``
    which output of the node it is, if it is one (only its values are kept then: the result
    tensor holds its node, which would hold the result). ``keep_saved`` finds out which.
    """

    # (view_fn: set only for an in-place op's result on a view, see saved_in_place)
    __slots__ = (
        "value", "data", "version", "tensor", "output_nr", "had_grad_fn", "view_fn", "__weakref__",
    )  # fmt: skip

    def __init__(self, value: Any, data: Any, tensor: Any = None, output_nr: int | None = None):
        self.value = value  # what backward reads: a numpy array (a Tensor, in your own Function)
        self.data = data  # its memory, whose version is checked
        self.version = version_of(data) if versions.counters else 0  # (see versions.py)
        self.tensor, self.output_nr = tensor, output_nr
        self.had_grad_fn = tensor is not None and tensor._grad_fn is not None  # (see unpack)

    def unpack(self, node: Any) -> Any:
        """The saved value, checked: it must not have changed since it was saved."""
        if self.had_grad_fn and self.tensor._grad_fn is None:
            raise RuntimeError(DETACHED_MESSAGE)  # detach_() cut it out of the graph since
        now = version_of(self.data)
        if now != self.version:
            raise RuntimeError(_modified_message(self, node, self.data, now))
        if switches.create_graph:  # gradients of gradients: the tensor, with its graph
            return self.in_graph(node)
        return self.value

    def in_graph(self, node: Any) -> Any:
        """The saved value as a tensor in the graph: an input the tensor itself, an output
        a tensor whose grad_fn is ``node`` (as PyTorch unpacks one), else a constant."""
        if self.tensor is not None:
            return self.tensor
        if self.output_nr is not None and self.data.dtype.kind == "f":
            return _node.op_result(self.data, node, self.output_nr, None)
        return self.value if isinstance(self.value, _node.Tensor) else _node.plain_tensor(self.data)


def keep_saved(values: Any, inputs: list[Any], outputs: Any, results: Any) -> tuple[Any, ...]:
    """What ``forward`` passed to ``save_for_backward``, as SavedTensors, now that its outputs
    exist: each value is an output of the op, one of its input tensors, or its own value."""
    kept: list[SavedTensor | None] = []
    constants = True  # only records of shared constants (and None) so far? See below.
    for value in values:
        if value is None:
            kept.append(None)
            continue
        is_tensor = isinstance(value, _node.Tensor)  # (your own Function saves tensors)
        data = value._data if is_tensor else value
        nr = 0 if data is outputs[0] else _output_nr(data, outputs) if len(outputs) > 1 else None
        if nr is not None:  # an output: the result's own array (numpy may have returned a
            data = results[nr]._data  # scalar), as a tensor without grad_fn if it was a tensor
            kept.append(
                SavedTensor(_node.plain_tensor(data) if is_tensor else data, data, None, nr)
            )
            constants = False
            continue  # (the result holds its node: the node must not hold the result)
        for t in inputs:
            if t._data is data:
                if t._inference:
                    raise RuntimeError(INFERENCE_SAVED_MESSAGE)
                # Nodes that save t unchanged share one record (a weight many ops use, the
                # 1.01 of a 100,000-op chain), which t holds weakly: the last one, if it fits.
                saved = t._saved_as()
                if (
                    saved is None
                    or saved.value is not value
                    or saved.data is not data
                    or saved.had_grad_fn is not (t._grad_fn is not None)
                    or versions.counters
                    and saved.version != version_of(data)  # (none changed in place yet?)
                ):
                    saved = _record_input(t, value)
                kept.append(saved)
                constants = constants and t._data.ndim == 0 and not t._data.flags.writeable
                break
        else:  # a value of forward's own (or a numpy scalar)
            data = np.asarray(data)
            kept.append(SavedTensor(value if is_tensor else data, data))
            constants = False
    # Nodes that save only shared constants (the 1.000001 of each ``y * 1.000001``) share one
    # tuple of them too, as they share the records: one object less per node for Python's
    # garbage collector to track. (Read-only 0-d constants only: the table keeps them alive.)
    return shared[tuple(kept)] if constants else tuple(kept)


def _record_input(t: Any, value: Any) -> SavedTensor:
    # A new record of input tensor t as it is now, held weakly by t (see keep_saved).
    saved = SavedTensor(value, t._data, t)
    t._saved_as = weakref.ref(saved)
    return saved


def _output_nr(data: Any, outputs: tuple[Any, ...]) -> int | None:
    for nr in range(1, len(outputs)):  # (output 0 was looked at first)
        if outputs[nr] is data:
            return nr
    return None


def saved_in_place(node: Any, t: Any) -> None:
    """After an in-place op wrote its result into ``t``: the result it saved (relu_ saves it)
    is ``t``'s own memory from now on, as in PyTorch, so a later change of ``t`` is noticed."""
    for saved in getattr(node, "_saved", None) or ():
        # (an output of the same shape: its values are t's now)
        if saved is not None and saved.output_nr is not None and saved.data.shape == t.shape:
            was_tensor = saved.value is not saved.data
            saved.value = _node.plain_tensor(t._data) if was_tensor else t._data
            saved.data, saved.version = t._data, version_of(t._data)
            if t._base is not None:  # a view: its error names the view's grad_fn of now
                saved.view_fn = weakref.ref(t._grad_fn)  # (AsStrided) while that node lives,
                saved.output_nr = t._output_nr  # else the node that saved it, as PyTorch's


def _modified_message(saved: SavedTensor, node: Any, data: np.ndarray, now: int) -> str:
    # PyTorch's text: "[torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; ...".
    # An input is described by the node that makes it now; an output by this node.

    made_by, output_nr = (node, saved.output_nr) if saved.output_nr is not None else (None, 0)
    view_fn = getattr(saved, "view_fn", None)  # (an in-place op's result on a view)
    if view_fn is not None:
        made_by = view_fn() or node
    if saved.tensor is not None:
        made_by, output_nr = saved.tensor.grad_fn, saved.tensor._output_nr
    original = versions.original_of(data)
    if original is not None:  # a copy cast to the op's dtype: name the tensor it stands for
        data, made_by, output_nr = original._data, original.grad_fn, original._output_nr
    kind = f"microtorch.{from_numpy_dtype(data.dtype)._legacy}"
    kind = "CPUBoolType" if data.dtype == np.bool_ else kind  # (PyTorch's names, bool's too)
    desc = f"[{kind} [{', '.join(map(str, data.shape))}]]"
    if made_by is not None and not made_by.name().endswith("AccumulateGrad"):
        op = op_name(made_by)
        desc += f", which is output {output_nr} of {op},"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {desc} is at version {now}; expected version {saved.version} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False). "
        "(Fix: replace the in-place operation, e.g. x.add_(1) or x += 1, with an out-of-place "
        "one, x = x + 1, or apply it to a .clone().)"
    )
