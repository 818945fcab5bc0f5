"""``Tensor``: values (a numpy array) plus what autograd needs: requires_grad, grad, grad_fn.

A Tensor holds its values in ``_data``, a numpy array; ``.numpy()`` shares that memory. The
fields the seed chapter lists are all here: values, shape, dtype, device, requires_grad, grad,
grad_fn, and layout (``stride()``, ``is_contiguous()``, ``storage_offset()``, views).

Where microtorch deliberately differs from PyTorch: dtypes and sizes print with the module
name ``microtorch`` (``microtorch.float32``, ``microtorch.Size([2, 2])``); ``create_graph=True``
(gradients of gradients) is not supported; in-place changes to a *view* of a tensor that is
part of a graph raise an error instead of being rewritten onto the base.
"""

from __future__ import annotations

import builtins
import contextlib
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from microtorch import _coverage, _tensor_str
from microtorch.autograd import node as _node
from microtorch.autograd import views
from microtorch.autograd.grad_mode import state as _grad_state
from microtorch.autograd.node import AccumulateGrad, RemovableHandle
from microtorch.autograd.versions import bump_version, version_of
from microtorch.device import CPU, as_device, device
from microtorch.dtypes import (
    _FROM_NUMPY,
    dtype,
    float16,
    float32,
    float64,
    from_numpy_dtype,
    get_default_dtype,
    int32,
    int64,
)
from microtorch.dtypes import bool as bool_
from microtorch.ops import (
    bitwise,
    cumulative,
    division,
    indexing,
    join,
    linalg,
    logarithms,
    reduction,
    rounding,
    sorting,
    truth,
    unary,
)
from microtorch.ops import elementwise as ew
from microtorch.ops import histogram as histogram_ops
from microtorch.ops import inplace as inplace_ops
from microtorch.ops import shape as shape_ops
from microtorch.ops.inplace import apply_inplace
from microtorch.ops.keywords import torch_keywords, without_torch_keywords
from microtorch.ops.operators import operator

__all__ = ["Tensor", "Size", "plain_tensor", "op_result"]

# Inside Tensor, "float" and "dtype" name methods and properties; annotations use these.
Number = float
DType = dtype

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If "
    "you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. "
    "See github.com/pytorch/pytorch/pull/30531 for more information."
)


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``microtorch.Size([2, 2])``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"microtorch.Size({list(self)})"

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        return int(np.prod(self, dtype=np.int64))


def _matrices_only(t: Any, name: str) -> None:
    # PyTorch's error for x.mT of a 1-d tensor; a 0-d one is its own transpose (deprecated).
    if t._data.ndim == 1:
        raise RuntimeError(
            f"tensor.{name} is only supported on matrices or batches of matrices. Got 1-D "
            "tensor. (Fix: a 1-d tensor has nothing to transpose; x.unsqueeze(0) is a row)"
        )
    warnings.warn(
        f"Tensor.{name} is deprecated on 0-D tensors. This function is the identity in these "
        "cases.",
        UserWarning,
        stacklevel=3,
    )


class Tensor:
    """A multi-dimensional array that can record the operations applied to it."""

    __slots__ = (
        "_data", "_dtype", "_device", "_rg", "_grad_fn", "_output_nr", "__weakref__", "__dict__",
    )  # fmt: skip
    _data: np.ndarray  # the values
    _dtype: DType
    _device: device
    _rg: bool  # requires_grad
    _grad_fn: Any  # the Node that made this tensor, None for leaves (see the grad_fn property)
    _output_nr: int  # which output of grad_fn this tensor is
    # Fields most tensors never set: class-level defaults, overridden per tensor when used (a
    # leaf's .grad and AccumulateGrad, views, hooks), so making a tensor sets only the above.
    _grad: Tensor | None = None
    _base: Tensor | None = None  # the tensor this one is a view of (its memory, its version count)
    _view_version: int = 0  # a view's version when its grad_fn was last set (see grad_fn)
    # how a view was made (PyTorch's CreationMeta; see autograd/views.py): "default", or
    # "multi_output" (by unbind, split, chunk) or "no_grad" (in no_grad mode), or of such a view
    _creation: str = "default"
    _hooks: list[Callable[[Tensor], Tensor | None]] | None = None
    _acc: weakref.ref[AccumulateGrad] | None = None
    _retains: bool = False
    _inference: bool = False
    __hash__ = object.__hash__  # tensors are dict keys by identity, as in PyTorch
    __array_priority__ = 1000  # numpy_array * tensor calls Tensor.__rmul__

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        # ``microtorch.Tensor([1, 2])`` makes a float32 tensor, as ``torch.Tensor`` does;
        # ``microtorch.Tensor(2, 3)`` one of that shape (zeros here; uninitialised in PyTorch).
        if args and all(isinstance(a, int) for a in args):
            data = np.zeros(args, get_default_dtype().numpy)
        else:
            data = np.array(args[0] if args else [], dtype=get_default_dtype().numpy)
        return plain_tensor(data, kind=cls)

    def __dir__(self) -> list[str]:
        # the PyTorch names microtorch does not cover are attributes that raise (see below)
        return [n for n in super().__dir__() if n not in _coverage.NOT_COVERED["torch.Tensor"]]

    # --- the fields ---------------------------------------------------------------------
    @property
    def data(self) -> Tensor:
        """The same values as a tensor outside the graph (no gradient flows through it).

        Unlike PyTorch, an in-place change through ``x.data`` counts as a change of ``x``, so
        a backward that saved ``x`` refuses to run (PyTorch silently uses the new values).
        Prefer ``x.detach()``, which behaves the same in both.
        """
        return plain_tensor(self._data, self._device)

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data
        self._dtype = value._dtype

    @property
    def shape(self) -> Size:
        """The size of each dimension, e.g. ``microtorch.Size([2, 2])``."""
        return Size(self._data.shape)

    @property
    def dtype(self) -> DType:
        """The element type, e.g. ``microtorch.float32``."""
        return self._dtype

    @property
    def device(self) -> device:
        """Where the tensor lives: ``cpu`` (or ``meta``, shape only)."""
        return self._device

    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded so gradients can flow to it."""
        if self._base is not None:
            # an in-place change of its base may make it require grad (a multi-output view
            # PyTorch no longer lets you use keeps its flag: see views.refresh)
            with contextlib.suppress(RuntimeError):
                views.refresh(self)
            # as in PyTorch, a view requires grad when its base does (made before the base's
            # requires_grad_(), it has no grad_fn: ops on it record, no gradient reaches it)
            return self._rg or self._base._rg
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._set_requires_grad(value, "only Tensors of floating point and complex dtype")

    def _refresh_view(self) -> None:
        """Renew a view's grad_fn after an in-place change (see autograd/views.py)."""
        views.refresh(self)

    @property
    def grad_fn(self) -> Any:
        """The node that made this tensor (``None`` for a leaf): where backward goes next.

        A view whose memory was changed in place since it was made gets a new one, as in
        PyTorch: ``AsStridedBackward0``, which reads the view out of its base's gradient.
        """
        if self._base is not None:
            views.refresh(self)
        return self._grad_fn

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place (leaves only) and return ``self``."""
        return self._set_requires_grad(requires_grad, "only Tensors of floating point dtype")

    def _set_requires_grad(self, requires_grad: bool, who: str) -> Tensor:
        # PyTorch words this error three ways (method, attribute, factory); `who` keeps each.
        if self._grad_fn is not None and not requires_grad:  # (as PyTorch, the grad_fn it has)
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if requires_grad and self._inference and not _grad_state.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed. (Fix: make a normal tensor with .clone(), or compute it under "
                "torch.no_grad() instead of torch.inference_mode().)"
            )
        if requires_grad and not self._dtype.is_floating_point:
            raise RuntimeError(
                f"{who} can require gradients (this one is {self._dtype}; create it with "
                "floats, e.g. torch.tensor([1.0, 2.0]), or convert it with .float())"
            )
        self._rg = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors the user created (and anything not requiring grad)."""
        return self.grad_fn is None

    def _is_view(self) -> bool:
        """True for a view of another tensor's memory (PyTorch's ``x._is_view()``)."""
        return self._base is not None

    @property
    def grad(self) -> Tensor | None:
        """The gradient accumulated by ``backward()``; None until then."""
        if self._grad_fn is not None and not self._retains:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    "assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a "
                    f"tensor of size '{list(self._data.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size"
                )
            if value._dtype is not self._dtype:
                raise RuntimeError(
                    "attempting to assign a gradient with dtype "
                    f"'{value._dtype._legacy[:-6].lower()}"
                    f"' to a tensor with grad_dtype '{self._dtype._legacy[:-6]}'. The gradient "
                    "must match the tensor's grad_dtype (Fix: convert it, e.g. g.to(x.dtype))"
                )
        self._grad = value

    @property
    def _version(self) -> int:
        """How many times the memory was changed in place (shared with views)."""
        return version_of(self._data)

    @property
    def retains_grad(self) -> bool:
        """True for a non-leaf after ``retain_grad()``."""
        return self._retains

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        """All dimensions reversed (``PermuteBackward0``)."""
        return shape_ops.permute(self, tuple(range(self._data.ndim))[::-1])

    @property
    def mT(self) -> Tensor:  # noqa: N802
        """The last two dimensions swapped."""
        if self._data.ndim < 2:
            _matrices_only(self, "mT")
            return self
        return shape_ops.transpose(self, -2, -1)

    def size(self, dim: int | None = None) -> Size | int:
        """The shape, or the size of one dimension."""
        if dim is None:
            return Size(self._data.shape)
        (d,) = reduction.normalize_dims(dim, self._data.ndim)
        return self._data.shape[d]

    def dim(self) -> int:
        """The number of dimensions."""
        return self._data.ndim

    def numel(self) -> int:
        """The number of elements."""
        return self._data.size

    nelement = numel

    @property
    def is_cuda(self) -> bool:
        """False: microtorch tensors are on the CPU (or meta), never on a GPU."""
        return False

    @property
    def is_cpu(self) -> bool:
        return self._device.type == "cpu"

    def element_size(self) -> int:
        """Bytes per element."""
        return self._data.itemsize

    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        """Elements to skip in memory to move one step along each dimension."""
        s = tuple(b // self._data.itemsize for b in self._data.strides)
        return s if dim is None else s[reduction.normalize_dims(dim, self._data.ndim)[0]]

    def is_contiguous(self) -> bool:
        """True if the elements sit in memory in row-major order, without gaps."""
        return bool(self._data.flags.c_contiguous)

    def storage_offset(self) -> int:
        """Where this tensor starts inside the memory it shares with its base, in elements."""
        root = self._data
        while isinstance(root.base, np.ndarray):
            root = root.base
        start = self._data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        return start // self._data.itemsize

    def data_ptr(self) -> int:
        """The memory address of the first element (equal for tensors sharing memory)."""
        return self._data.__array_interface__["data"][0]

    def is_floating_point(self) -> bool:
        return self._dtype.is_floating_point

    def is_inference(self) -> bool:
        """True for tensors created inside ``inference_mode()``."""
        return self._inference

    # --- printing and conversion --------------------------------------------------------
    def __repr__(self) -> str:
        suffixes = []
        if self._device is not CPU:
            suffixes.append(f"device='{self._device}'")
        try:
            name = None if self.grad_fn is None else self.grad_fn.name()
        except RuntimeError:  # a view PyTorch no longer lets you use (see autograd/views.py)
            name = "Invalid"
        if name is not None:
            suffixes.append(f"grad_fn=<{name}>")
        elif self._rg:
            suffixes.append("requires_grad=True")
        return _tensor_str.format_tensor(
            self._data,
            dtype_name=self._dtype.name,
            default_dtype_name=get_default_dtype().name,
            suffixes=suffixes,
        )

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return format(self._data.item(), spec)
        return repr(self) if not spec else format(repr(self), spec)

    def item(self) -> Number | int | bool:
        """The value of a one-element tensor as a Python number."""
        if self._device.type == "meta":
            raise RuntimeError(
                "Tensor.item() cannot be called on meta tensors (a meta tensor has a shape but "
                "no values)"
            )
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar "
                "(Fix: pick one element first, e.g. x[0].item(), or reduce, e.g. x.sum().item())"
            )
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        """The values as (nested) Python lists of numbers."""
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The values as a numpy array sharing this tensor's memory."""
        if self._rg and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._data if dtype is None else self._data.astype(dtype)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            values = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(
                f"Boolean value of Tensor with {values} is ambiguous (Fix: use .any() or .all(), "
                "or compare one element)"
            )
        return bool(self._data.reshape(()))

    def __float__(self) -> Number:
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def _scalar(self) -> Number | int | bool:
        # float(x) and int(x) raise PyTorch's ValueError, where x.item() raises RuntimeError.
        if self._data.size != 1:
            raise ValueError(
                "only one element tensors can be converted to Python scalars (this one has "
                f"{self._data.size}; Fix: pick one element, e.g. x[0], or reduce, e.g. x.sum())"
            )
        return self.item()

    def __index__(self) -> int:
        if self._dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    # --- autograd -----------------------------------------------------------------------
    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """Compute the gradient of this tensor w.r.t. every leaf, adding it into ``.grad``."""
        from microtorch.autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        """The same values, cut out of the graph: no gradient flows back through it."""
        # (one memory, so one version count; a numpy view of its own, so that a value saved
        # from it is told apart from the tensor it was detached from)
        return plain_tensor(self._data.view(), self._device)

    def detach_(self) -> Tensor:
        """Cut this tensor out of the graph in place."""
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn, self._rg = None, False
        return self

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor during backward (leaves keep it anyway)."""
        # (PyTorch's requires_grad and is_leaf, which do not renew a view's grad_fn: a view
        # made without one counts as a leaf here, even after its base changed in place)
        if not (self._rg or self._base is not None and self._base._rg):
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._retains or self._grad_fn is None:  # (already retained, or a leaf)
            return
        node = self.grad_fn
        if not node._retain_grad:
            node._retain_grad = {}
        node._retain_grad[self._output_nr] = weakref.ref(self)
        self._retains = True

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        # (PyTorch's requires_grad, which does not renew a view's grad_fn: a view's second hook
        # joins its first, on the old grad_fn, even after its base changed in place)
        if not (self._rg or self._base is not None and self._base._rg):
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._hooks is None:  # the first hook: as PyTorch, a list of the tensor's own, then
            self._hooks = []  # handed to its grad_fn (a leaf's AccumulateGrad reads it there)
            node = self.grad_fn  # (raises for a view PyTorch no longer lets you use: a second
            if node is not None:  # call then succeeds, its hook never called, as PyTorch's)
                if not node._tensor_hooks:
                    node._tensor_hooks = {}
                node._tensor_hooks[self._output_nr] = self._hooks
        self._hooks.append(hook)  # (after an in-place change too: hooks stay with the values
        return RemovableHandle(self._hooks, hook)  # they were registered on, as PyTorch's)

    def _accumulate_grad(self) -> AccumulateGrad:
        # One AccumulateGrad per leaf, held weakly: the graph keeps it alive, not the tensor.
        node = self._acc() if self._acc is not None else None
        if node is None:
            node = AccumulateGrad(self)
            self._acc = weakref.ref(node)
        return node

    def _add_to_grad(
        self, grad: np.ndarray, out_of_place: bool = False, owned: bool = False
    ) -> None:
        """``.grad += grad``: gradients accumulate. In place, as PyTorch does for leaves;
        a retained non-leaf gets a new ``.grad`` each time (``out_of_place``)."""
        grad = grad.astype(self._data.dtype, copy=False)
        if self._grad is None:  # .grad owns its memory (a copy, unless nothing else holds
            self._grad = plain_tensor(grad if owned else grad.copy(), self._device)  # grad)
        elif out_of_place:
            self._grad = plain_tensor(self._grad._data + grad, self._device)
        else:
            if inplace_ops.overlaps_itself(self._grad._data):  # an expanded .grad you assigned
                raise RuntimeError(inplace_ops.OVERLAP_MESSAGE)
            self._grad._data += grad
            bump_version(self._grad)

    # --- conversion ---------------------------------------------------------------------
    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """Convert dtype and/or device: ``x.to(torch.float64)``, ``x.to('cpu')``, ``x.to(y)``."""
        target_dtype, target_device = kwargs.get("dtype"), kwargs.get("device")
        for a in args:
            if isinstance(a, dtype):
                target_dtype = a
            elif isinstance(a, Tensor):
                target_dtype, target_device = a._dtype, a._device
            else:
                target_device = a
        out = self if target_dtype is None else shape_ops.to_dtype(self, target_dtype)
        if target_device is not None and as_device(target_device) is not self._device:
            if self._device.type == "meta":  # a meta tensor has a shape but no values to copy
                raise NotImplementedError(
                    "Cannot copy out of meta tensor; no data! (Fix: create the tensor on the "
                    "device you need, e.g. torch.zeros(2, 2, device='cpu').)"
                )
            moved = plain_tensor(out._data.copy(), as_device(target_device))
            moved._rg, moved._grad_fn, moved._output_nr = out._rg, out._grad_fn, out._output_nr
            out = moved
        return out

    def float(self) -> Tensor:
        return shape_ops.to_dtype(self, float32)

    def double(self) -> Tensor:
        return shape_ops.to_dtype(self, float64)

    def half(self) -> Tensor:
        return shape_ops.to_dtype(self, float16)

    def long(self) -> Tensor:
        return shape_ops.to_dtype(self, int64)

    def int(self) -> Tensor:
        return shape_ops.to_dtype(self, int32)

    def bool(self) -> Tensor:
        return shape_ops.to_dtype(self, bool_)

    def type(self, dtype_: DType | None = None) -> Any:
        if dtype_ is None:
            return f"microtorch.{self._dtype._legacy}"
        return shape_ops.to_dtype(self, dtype_)

    def cpu(self) -> Tensor:
        return self.to("cpu")

    def cuda(self, device: Any = None) -> Tensor:
        """``self.to("cuda")``: raises PyTorch's error, as there is no GPU here."""
        return self.to("cuda" if device is None else device)

    def clone(self) -> Tensor:
        return shape_ops.clone(self)

    def contiguous(self) -> Tensor:
        return shape_ops.contiguous(self)

    # --- in-place ops: version counters, leaf checks, graph rebasing in ops/inplace.py ---
    def add_(self, other: Any, *, alpha: Number = 1) -> Tensor:
        return apply_inplace(self, "add_", ew.add, other, alpha=alpha)

    def sub_(self, other: Any, *, alpha: Number = 1) -> Tensor:
        return apply_inplace(self, "sub_", ew.sub, other, alpha=alpha)

    def mul_(self, other: Any) -> Tensor:
        return apply_inplace(self, "mul_", ew.mul, other)

    def div_(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        if rounding_mode is None:
            return apply_inplace(self, "div_", ew.div, other)
        return apply_inplace(self, "div_", ew.div, other, rounding_mode=rounding_mode)

    def pow_(self, exponent: Any) -> Tensor:
        return apply_inplace(self, "pow_", ew.pow, exponent)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        return apply_inplace(self, "clamp_", unary.clamp, min, max)

    def zero_(self) -> Tensor:
        return apply_inplace(self, "zero_", inplace_ops.zero)

    def fill_(self, value: Any) -> Tensor:
        if not isinstance(value, (Tensor, int, Number, np.generic)):
            kind = type(value).__name__
            raise TypeError(f"fill_(): value must be a number or a Tensor, not {kind}")
        return apply_inplace(self, "fill_", inplace_ops.fill, value)

    def copy_(self, src: Any) -> Tensor:
        if isinstance(src, (int, float)):  # a number fills, as in PyTorch (CopyBackwards)
            src = ew.as_operand(src, self._dtype, self._device)
        if not isinstance(src, Tensor):
            raise TypeError(
                f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}"
            )
        return apply_inplace(self, "copy_", inplace_ops.copy, src)

    def masked_fill_(self, mask: Any, value: Any) -> Tensor:
        return apply_inplace(self, "masked_fill_", ew.masked_fill, mask, value)

    def relu_(self) -> Tensor:
        return apply_inplace(self, "relu_", unary.relu)

    def __setitem__(self, index: Any, value: Any) -> None:
        apply_inplace(self, "index_put_", _index_put, index, value)

    def __iadd__(self, other: Any) -> Tensor:  # type: ignore[misc]  # (see below)
        return self.add_(other)

    def __isub__(self, other: Any) -> Tensor:  # type: ignore[misc]  # (see below)
        return self.sub_(other)

    def __imul__(self, other: Any) -> Tensor:  # type: ignore[misc]  # (see below)
        return self.mul_(other)

    def __itruediv__(self, other: Any) -> Tensor:  # type: ignore[misc]  # (see below)
        return self.div_(other)

    def __ipow__(self, other: Any) -> Tensor:  # type: ignore[misc]  # (see below)
        return self.pow_(other)

    def remainder_(self, other: Any) -> Tensor:
        return apply_inplace(self, "remainder_", division.remainder, other)

    def floor_divide_(self, other: Any) -> Tensor:
        return apply_inplace(self, "floor_divide_", division.floor_divide, other)

    def bitwise_and_(self, other: Any) -> Tensor:
        return apply_inplace(self, "bitwise_and_", bitwise.bitwise_and, other)

    def bitwise_or_(self, other: Any) -> Tensor:
        return apply_inplace(self, "bitwise_or_", bitwise.bitwise_or, other)

    def bitwise_xor_(self, other: Any) -> Tensor:
        return apply_inplace(self, "bitwise_xor_", bitwise.bitwise_xor, other)

    __imod__, __ifloordiv__ = remainder_, floor_divide_
    __iand__, __ior__, __ixor__ = bitwise_and_, bitwise_or_, bitwise_xor_

    # --- arithmetic ---------------------------------------------------------------------
    # The operators are the op functions themselves (one Python call less per operation);
    # ``2 + x`` records add(x, 2) and ``2 * x`` mul(x, 2), as PyTorch does. (mypy cannot
    # match these with the typed in-place operators above, hence their ignore comments.)
    __add__ = __radd__ = ew.add
    __sub__, __truediv__, __pow__ = ew.sub, ew.div, ew.pow
    __mul__ = __rmul__ = ew.mul

    __matmul__ = linalg.matmul

    def __neg__(self) -> Tensor:
        return unary.neg(self)

    def __lt__(self, other: Any) -> Tensor:
        return ew.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        return ew.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return ew.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return ew.ge(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return ew.rsub(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return ew.rdiv(self, other)

    def __rpow__(self, base: Any) -> Tensor:
        return ew.rpow(self, base)

    def __rmatmul__(self, other: Tensor) -> Tensor:
        return linalg.matmul(other, self)

    def __abs__(self) -> Tensor:
        return unary.abs(self)

    # // and % round as Python does; & | ^ ~ are bitwise (logical on bools): ops/division.py,
    # ops/bitwise.py
    __floordiv__, __rfloordiv__ = operator(division.floor_divide), operator(division.rfloordiv)
    __mod__, __rmod__ = operator(division.remainder), operator(division.rremainder)
    __and__ = __rand__ = operator(bitwise.bitwise_and)
    __or__ = __ror__ = operator(bitwise.bitwise_or)
    __xor__ = __rxor__ = operator(bitwise.bitwise_xor)
    __invert__, __pos__, __contains__ = bitwise.invert, bitwise.positive, bitwise.contains

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return ew.eq(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return ew.ne(self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return indexing.getitem(self, index)

    # --- methods that mirror the functions in microtorch.ops ----------------------------
    # (with PyTorch's keyword names, x.add(other=y), and out= for torch.add(a, b, out=c);
    # the operators above skip both)
    add, sub, mul, div, maximum, minimum, eq, ne, lt, le, gt, ge = (
        torch_keywords("input", "other", out=True)(f)
        for f in (ew.add, ew.sub, ew.mul, ew.div, ew.maximum, ew.minimum)
        + (ew.eq, ew.ne, ew.lt, ew.le, ew.gt, ew.ge)
    )
    pow, masked_fill = torch_keywords("input", "exponent", out=True)(ew.pow), ew.masked_fill
    logical_not, isclose, allclose, equal = ew.logical_not, ew.isclose, ew.allclose, ew.equal
    # x.exp() takes no input= and no out= (torch.exp does): the methods skip that wrapper
    neg, exp, log, log1p, sqrt, abs, sin, cos, sigmoid, tanh, relu, clamp, reciprocal = (
        without_torch_keywords(f)
        for f in (unary.neg, unary.exp, unary.log, unary.log1p, unary.sqrt, unary.abs)
        + (unary.sin, unary.cos, unary.sigmoid, unary.tanh, unary.relu, unary.clamp)
        + (unary.reciprocal,)
    )
    clip = clamp
    sum, mean, max, min, amax, amin = (
        reduction.sum,
        reduction.mean,
        reduction.max,
        reduction.min,
        reduction.amax,
        reduction.amin,
    )
    argmax, argmin, var, std = reduction.argmax, reduction.argmin, reduction.var, reduction.std
    softmax, log_softmax, logsumexp = reduction.softmax, reduction.log_softmax, reduction.logsumexp
    view, reshape, flatten, squeeze, unsqueeze = (
        shape_ops.view,
        shape_ops.reshape,
        shape_ops.flatten,
        shape_ops.squeeze,
        shape_ops.unsqueeze,
    )
    expand, transpose, t, permute = (
        shape_ops.expand,
        shape_ops.transpose,
        shape_ops.t,
        shape_ops.permute,
    )
    split, chunk, unbind = join.split, join.chunk, join.unbind
    matmul, mm, mv, dot, bmm = linalg.matmul, linalg.mm, linalg.mv, linalg.dot, linalg.bmm
    sort, argsort, topk, nonzero = sorting.sort, sorting.argsort, sorting.topk, sorting.nonzero
    # PyTorch's other names for the same methods:
    absolute, negative, multiply, divide, subtract = abs, neg, mul, div, sub
    swapaxes = swapdims = transpose
    logical_and, logical_or, ndimension = ew.logical_and, ew.logical_or, dim
    floor_divide, remainder, fmod = division.floor_divide, division.remainder, division.fmod
    bitwise_and, bitwise_or, bitwise_xor = (
        bitwise.bitwise_and,
        bitwise.bitwise_or,
        bitwise.bitwise_xor,
    )
    bitwise_not, positive = bitwise.bitwise_not, bitwise.positive
    round, floor, ceil, trunc, sign = (
        rounding.round,
        rounding.floor,
        rounding.ceil,
        rounding.trunc,
        rounding.sign,
    )
    isnan, isinf, isfinite, any, all = (
        truth.isnan,
        truth.isinf,
        truth.isfinite,
        truth.any,
        truth.all,
    )
    log10, log2, norm = logarithms.log10, logarithms.log2, linalg.norm
    prod, cumsum, cumprod = cumulative.prod, cumulative.cumsum, cumulative.cumprod
    histc, histogram = histogram_ops.histc, histogram_ops.histogram

    def select(self, dim: builtins.int, index: builtins.int) -> Tensor:
        """The slice at ``index`` along ``dim``, one dimension fewer (a view: ``x[:, i]``)."""
        (d,) = reduction.normalize_dims(dim, self._data.ndim)
        return indexing.getitem(self, (slice(None),) * d + (index,))

    def square(self) -> Tensor:
        return ew.pow(self, 2)

    def view_as(self, other: Tensor) -> Tensor:
        return shape_ops.view(self, other._data.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return shape_ops.reshape(self, other._data.shape)

    def expand_as(self, other: Tensor) -> Tensor:
        return shape_ops.expand(self, other._data.shape)

    def type_as(self, other: Tensor) -> Tensor:
        return shape_ops.to_dtype(self, other._dtype)

    # --- new tensors like this one: its dtype and device unless told otherwise -----------
    def new_tensor(
        self,
        data: Any,
        dtype: DType | None = None,
        device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:
        """``data`` (copied) as a new leaf tensor."""
        if isinstance(data, Tensor):
            warnings.warn(_NEW_TENSOR_WARNING, UserWarning, stacklevel=2)
            data = data._data
        return self._new(np.array(data, (dtype or self._dtype).numpy), device, requires_grad)

    def new_zeros(
        self, *sizes: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """Zeros of the given size."""
        data = np.zeros(_dims(sizes, size), (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    def new_ones(
        self, *sizes: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """Ones of the given size."""
        data = np.ones(_dims(sizes, size), (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    def new_empty(
        self, *sizes: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """A tensor of the given size (zeros here; PyTorch leaves the memory uninitialised)."""
        return self.new_zeros(
            *sizes, size=size, dtype=dtype, device=device, requires_grad=requires_grad
        )

    def new_full(
        self, size: Any, fill_value: Any, *, dtype: DType | None = None, device: Any = None,
        requires_grad: builtins.bool = False,
    ) -> Tensor:  # fmt: skip
        """``fill_value`` everywhere (in this tensor's dtype unless ``dtype`` is given)."""
        data = np.full(_dims((size,), None), fill_value, (dtype or self._dtype).numpy)
        return self._new(data, device, requires_grad)

    def _new(self, data: np.ndarray, device: Any, requires_grad: builtins.bool) -> Tensor:
        t = plain_tensor(data, self._device if device is None else as_device(device))
        if requires_grad:
            t._set_requires_grad(True, "Only Tensors of floating point and complex dtype")
        return t


_NEW_TENSOR_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "tensor.new_tensor(sourceTensor)."
)


def _dims(sizes: tuple[Any, ...], size: Any) -> tuple[int, ...]:
    # new_zeros(2, 3), new_zeros((2, 3)) and new_zeros(size=(2, 3)) are one shape
    if size is not None:
        sizes = (size,)
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, Size)):
        sizes = tuple(sizes[0])
    return tuple(int(s) for s in sizes)


def _index_put(a: Tensor, index: Any, value: Any) -> Tensor:
    return indexing.index_put(a, index, value)


def plain_tensor(
    data: Any, device: device | None = None, inference: bool = False, *, kind: type = Tensor
) -> Tensor:
    """A tensor holding ``data`` (a numpy array), outside any graph."""
    t: Tensor = object.__new__(kind)
    t._data = data if type(data) is np.ndarray else np.asarray(data)
    found = _FROM_NUMPY.get(t._data.dtype)
    t._dtype = found if found is not None else from_numpy_dtype(t._data.dtype)
    t._device = device or CPU
    t._rg, t._grad_fn, t._output_nr = False, None, 0
    if inference:  # (made inside inference_mode)
        t._inference = True
    return t


def op_result(data: np.ndarray, node: Any, output_nr: int, device: device | None) -> Tensor:
    """Output ``output_nr`` of an operation: its values, and ``node`` as its ``grad_fn``."""
    t: Tensor = object.__new__(Tensor)  # (plain_tensor's fields, set here: this runs per op)
    t._data = data if type(data) is np.ndarray else np.asarray(data)
    found = _FROM_NUMPY.get(t._data.dtype)
    t._dtype = found if found is not None else from_numpy_dtype(t._data.dtype)
    t._device = device or CPU
    t._rg, t._grad_fn, t._output_nr = True, node, output_nr
    return t


# Lets autograd wrap results without importing this module (see autograd/function.py).
_node.Tensor, _node.plain_tensor, _node.op_result = Tensor, plain_tensor, op_result


# PyTorch's Tensor methods microtorch does not cover: reading one (x.to_sparse) raises
# NotCoveredError, saying what to use instead (see _coverage.py). Class attributes rather than a
# __getattr__, which would slow every attribute lookup of every tensor.
for _name in _coverage.NOT_COVERED["torch.Tensor"]:
    if not hasattr(Tensor, _name):  # (a name listed and implemented: the coverage test fails)
        setattr(Tensor, _name, _coverage.NotCovered("torch.Tensor", _name))
del _name
