"""``Tensor``: values (a numpy array) plus what autograd needs: requires_grad, grad, grad_fn.

A Tensor holds its values in ``_data``, a numpy array; ``.numpy()`` shares that memory. The
fields the seed chapter lists are all here: values, shape, dtype, device, requires_grad, grad,
grad_fn, and layout (``stride()``, ``is_contiguous()``, ``storage_offset()``, views).

Where microtorch deliberately differs from PyTorch: dtypes and sizes print with the module
name ``microtorch`` (``microtorch.float32``, ``microtorch.Size([2, 2])``); in-place changes to a
*view* of a tensor that is part of a graph raise an error instead of being rewritten onto the
base.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from microtorch import _coverage, _lazy, _tensor_str
from microtorch._warn import warn
from microtorch.api import (
    bitwise,
    division,
    indexing,
    linalg,
    reduction,
    unary,
)
from microtorch.api import elementwise as ew
from microtorch.api import inplace as inplace_ops
from microtorch.api import memory_format as memory_format_api
from microtorch.api.operators import (
    arithmetic_operator,
    matrix_operator,
    mm_operator,
    op_operator,
    operator,
    pow_operator,
)
from microtorch.api.tensor_methods import TensorMethods
from microtorch.api.window_methods import WindowMethods
from microtorch.autograd import backward, views
from microtorch.autograd import node as _node
from microtorch.autograd.grad_mode import state as _grad_state
from microtorch.autograd.node import NO_REF, AccumulateGrad, RemovableHandle
from microtorch.autograd.versions import bump_version, version_of
from microtorch.device import CPU, device
from microtorch.dtypes import (
    _FROM_NUMPY,
    dtype,
    from_numpy_dtype,
    get_default_dtype,
)
from microtorch.ops.elementwise import Add, Div, Mul, PowScalar, Sub
from microtorch.ops.inplace import Copy
from microtorch.ops.linalg import Mm

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


class Tensor(TensorMethods, WindowMethods):
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
    _acc: weakref.ref[AccumulateGrad] = NO_REF  # its AccumulateGrad, held weakly (node.py)
    _saved_as: weakref.ref[Any] = NO_REF  # its SavedTensor at its version (saved.py)
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
            warn(_NON_LEAF_GRAD_WARNING)
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
    ndimension = dim

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

    @property
    def nbytes(self) -> int:
        """Bytes of all elements: numel() * element_size() (also of a view or an expand)."""
        return self._data.size * self._data.itemsize

    def get_device(self) -> int:
        """The GPU's index; -1 for a tensor on the CPU (all of microtorch's)."""
        return -1

    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        """Elements to skip in memory to move one step along each dimension."""
        s = [b // self._data.itemsize for b in self._data.strides]
        shape = self._data.shape
        empty = self._data.size == 0  # (numpy may give it strides of 0; PyTorch's row-major)
        for d in reversed(range(len(s))):  # (numpy's new size-1 dimensions of an expand have
            if empty or shape[d] == 1 and s[d] == 0:  # stride 0; PyTorch's the row-major one)
                s[d] = max(shape[d + 1], 1) * s[d + 1] if d + 1 < len(s) else 1
        return tuple(s) if dim is None else s[reduction.normalize_dims(dim, len(s))[0]]

    def is_contiguous(self, *, memory_format: Any = None) -> bool:
        """True if the elements sit in memory in row-major order, without gaps (or in the
        order ``memory_format`` names: api/memory_format.py)."""
        if memory_format is None:
            return bool(self._data.flags.c_contiguous)
        return memory_format_api.is_contiguous(self, memory_format)

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
        if spec:  # (PyTorch formats only one number: f"{x.item():.3f}")
            raise TypeError(
                "unsupported format string passed to Tensor.__format__ (Fix: format a number, "
                "e.g. f'{x.item():.3f}', or round the tensor, e.g. x.round(decimals=3))"
            )
        return repr(self)

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
            node._retain_grad, node.has_pre_hooks = {}, True
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
                    node._tensor_hooks, node.has_pre_hooks = {}, True
                node._tensor_hooks[self._output_nr] = self._hooks
        self._hooks.append(hook)  # (after an in-place change too: hooks stay with the values
        return RemovableHandle(self._hooks, hook)  # they were registered on, as PyTorch's)

    def _add_to_grad(self, grad: np.ndarray, out_of_place: bool = False) -> None:
        """``.grad += grad``: gradients accumulate. In place, as PyTorch does for leaves;
        a retained non-leaf gets a new ``.grad`` each time (``out_of_place``)."""
        grad = grad.astype(self._data.dtype, copy=False)
        if self._grad is None:  # the first: .grad is grad itself if nothing else holds it
            owned = grad.base is None and grad.flags.writeable  # (a view: shared, so copied)
            self._grad = plain_tensor(grad if owned else grad.copy(), self._device)
        elif out_of_place:
            self._grad = plain_tensor(self._grad._data + grad, self._device)
        else:
            if inplace_ops.overlaps_itself(self._grad._data):  # an expanded .grad you assigned
                raise RuntimeError(inplace_ops.OVERLAP_MESSAGE)
            self._grad._data += grad
            bump_version(self._grad)

    def _add_recorded_grad(self, grad: Tensor, retained: bool = False) -> None:
        """``.grad += grad`` with create_graph=True, as PyTorch: ``.grad`` joins the graph, a
        copy of ``grad`` the first time (CopyBackwards; CloneBackward0 for a retained
        non-leaf), later ``.grad + grad``, out of place (the old ``.grad`` is unchanged)."""
        if grad._dtype is not self._dtype:
            grad = grad.to(self._dtype)
        if self._grad is None:
            self._grad = grad.clone() if retained else Copy.apply(plain_tensor(grad._data), grad)
        else:
            self._grad = self._grad + grad

    # --- arithmetic ---------------------------------------------------------------------
    # Each operator is the op function behind one check: an operand it does not take (a str,
    # None, a list) gives NotImplemented, so Python raises its own TypeError, as PyTorch's
    # operators do (api/operators.py); + - * / run the op itself for operands of the tensor's
    # dtype (op_operator). ``2 + x`` records add(x, 2) and ``2 * x`` mul(x, 2), as
    # PyTorch does. The in-place operators (``x += 1``) and the named methods (``x.sum()``)
    # are in api/tensor_methods.py.
    __add__ = __radd__ = op_operator(Add, ew.add)
    __mul__ = __rmul__ = op_operator(Mul, ew.mul)
    __sub__, __truediv__ = op_operator(Sub, ew.sub, floats=True), op_operator(Div, ew.div, True)
    __pow__ = pow_operator(PowScalar, ew.pow)  # (x ** 2: straight to PowScalar)

    __matmul__ = mm_operator(Mm, linalg.matmul)  # (two matrices: straight to Mm)

    __neg__, __abs__ = unary.neg, unary.abs
    __lt__, __le__, __gt__, __ge__, __eq__, __ne__ = (
        arithmetic_operator(f) for f in (ew.lt, ew.le, ew.gt, ew.ge, ew.eq, ew.ne)
    )
    __rsub__, __rtruediv__, __rpow__ = (arithmetic_operator(f) for f in (ew.rsub, ew.rdiv, ew.rpow))
    __getitem__ = indexing.getitem

    @matrix_operator
    def __rmatmul__(self, other: Tensor) -> Tensor:
        return linalg.matmul(other, self)

    # // and % round as Python does; & | ^ ~ are bitwise (logical on bools): api/division.py,
    # api/bitwise.py
    __floordiv__, __rfloordiv__ = operator(division.floor_divide), operator(division.rfloordiv)
    __mod__, __rmod__ = operator(division.remainder), operator(division.rremainder)
    __and__ = __rand__ = operator(bitwise.bitwise_and)
    __or__ = __ror__ = operator(bitwise.bitwise_or)
    __xor__ = __rxor__ = operator(bitwise.bitwise_xor)
    __invert__, __pos__, __contains__ = bitwise.invert, bitwise.positive, bitwise.contains


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


# Lets autograd wrap results without importing this module (see autograd/node.py).
_node.use_tensor_type(Tensor, plain_tensor, op_result)


# The wrapper formulas compute on with create_graph=True (api/recorded.py) is rarely needed:
# its module is imported on the first gradient of a gradient, which hands autograd its functions.
def _use_recorded_arrays() -> None:
    recorded = _lazy.load("microtorch.api.recorded")
    _node.use_recorded_arrays(recorded.record, recorded.tensor_of)


def _first_record(value: Any) -> Any:
    _use_recorded_arrays()
    return _node.record(value)


def _first_tensor_of(value: Any) -> Any:
    _use_recorded_arrays()
    return _node.tensor_of(value)


_node.use_recorded_arrays(_first_record, _first_tensor_of)


# PyTorch's Tensor methods microtorch does not cover: reading one (x.to_sparse) raises
# NotCoveredError, saying what to use instead (see _coverage.py). Class attributes rather than a
# __getattr__, which would slow every attribute lookup of every tensor.
for _name in _coverage.NOT_COVERED["torch.Tensor"]:
    if not hasattr(Tensor, _name):  # (a name listed and implemented: the coverage test fails)
        setattr(Tensor, _name, _coverage.NotCovered("torch.Tensor", _name))
del _name
