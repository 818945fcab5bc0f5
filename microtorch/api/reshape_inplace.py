"""In-place changes of a tensor's shape: ``x.unsqueeze_(0)``, ``x.t_()``, ``x.resize_(2, 3)``.

The values stay where they are in memory; the tensor is given a new shape (and, for
``resize_``, possibly new memory). microtorch does this for tensors outside a graph that are
not views, which is how course code uses them (``x.unsqueeze_(0)`` on data before a model
sees it). A tensor whose changes autograd records gets PyTorch's leaf error or, for a tensor
made by an op, an error saying microtorch does not record it, rather than a wrong graph.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch.api import memory_format as layouts
from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import alias, expect_ints, parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.tensor_options import check_memory_format
from microtorch.autograd import grad_mode
from microtorch.autograd.versions import bump_version
from microtorch.storage import memory_of

__all__ = ["reshape_twin", "resize_", "resize_as_"]


def reshape_twin(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``x.name(...)`` (e.g. ``unsqueeze_``): ``x`` takes the shape of ``function(x, ...)``."""

    method = getattr(function, "method", function)  # (a parsed op: PyTorch's positions)

    def in_place(self: Any, *args: Any, **kwargs: Any) -> Any:
        _check_plain(self, name, f"x = x.{name[:-1]}(...)")
        try:
            self._data = method(self.detach(), *args, **kwargs)._data  # (a view: no copy)
        except TypeError as error:  # the parser's text names the method: squeeze_()
            text = str(error)
            if not text.startswith(f"{name[:-1]}()") and not text.startswith(f"{name[:-1]}(): "):
                raise
            raise TypeError(name + text[len(name) - 1 :]) from None
        bump_version(self)
        return self

    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"``{name[:-1]}``, given to this tensor itself; returns it."
    return in_place


@parsed("resize_", "Tensor input, tuple of ints size, *, torch.memory_format memory_format=None")
@torch_keywords("input", "size")
def resize_(self: Any, *sizes: Any, memory_format: Any = None) -> Any:
    """Give ``self`` the shape ``sizes``: its first values in memory, kept in order; new
    places (when it grows) are zeros here (PyTorch leaves them uninitialised)."""
    check_memory_format("resize_", memory_format)
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    expect_ints(sizes, "size")  # (the parser's cue)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    _check_plain(self, "resize_", "x = x.reshape(...), or x = torch.zeros(...)")
    shape = tuple(int(s) for s in sizes)
    if any(s < 0 for s in shape):  # (PyTorch's text)
        raise RuntimeError("numel: integer multiplication overflow (Fix: sizes are >= 0)")
    memory = memory_of(self._data)[self.storage_offset() :]
    n = math.prod(shape)
    if memory.size >= n:
        self._data = memory[:n].reshape(shape)
    else:
        grown = np.zeros(n, self._data.dtype)
        grown[: memory.size] = memory
        self._data = grown.reshape(shape)
    bump_version(self)
    return self


def _check_plain(t: Any, name: str, instead: str) -> None:
    if grad_mode.state.grad_enabled and t.requires_grad:
        if t.grad_fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation. "
                f"(Fix: use an out-of-place op, e.g. {instead})"
            )
        raise NotImplementedError(
            f"microtorch does not record {name} in the graph (Fix: {instead})"
        )
    if t._base is not None:
        raise NotImplementedError(
            f"microtorch does not change the shape of a view in place with {name} (Fix: {instead})"
        )


unsqueeze_ = reshape_twin("unsqueeze_", shape_ops.unsqueeze)
squeeze_ = reshape_twin("squeeze_", shape_ops.squeeze)


def _t(a: Any) -> Any:
    if a._data.ndim > 2:  # (the error names t_, not t)
        raise RuntimeError(
            f"t_() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D"
        )
    return shape_ops.t(a)


t_ = reshape_twin("t_", _t)
transpose_ = reshape_twin("transpose_", shape_ops.transpose)
# x.swapaxes_(axis0=0, axis1=1): transpose_ by numpy's names, as PyTorch declares it
swapaxes_ = reshape_twin(
    "swapaxes_", alias(shape_ops.transpose, "swapaxes", "Tensor input, int axis0, int axis1")
)
swapdims_ = reshape_twin("swapdims_", alias(shape_ops.transpose, "swapdims"))
__all__ += ["unsqueeze_", "squeeze_", "t_", "transpose_", "swapaxes_", "swapdims_"]


@torch_keywords("input", "the_template")
def resize_as_(self: Any, the_template: Any, *, memory_format: Any = None) -> Any:
    """``self.resize_(the_template.shape)`` (``torch.resize_as_``, ``x.resize_as_``), laid
    out row-major: ``memory_format`` None, ``contiguous_format`` or ``preserve_format``."""
    expect_tensor(self, "resize_as_")
    expect_tensor(the_template, "resize_as_", "the_template", 2)
    if memory_format is not None and not isinstance(memory_format, layouts.memory_format):
        raise TypeError(
            "resize_as_(): argument 'memory_format' must be torch.memory_format, not "
            f"{type(memory_format).__name__}"
        )
    if memory_format in (layouts.channels_last, layouts.channels_last_3d):
        raise NotImplementedError(
            f"resize_as_(memory_format={memory_format}): microtorch lays every tensor out "
            "row-major (Fix: leave memory_format out, or torch.contiguous_format)"
        )
    return resize_(self, tuple(the_template._data.shape))
