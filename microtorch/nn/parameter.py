"""``Parameter``: a tensor that a ``Module`` registers as learnable when assigned to it; and
``UninitializedParameter``/``UninitializedBuffer``, the placeholders of the lazy layers."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from microtorch.device import as_device
from microtorch.dtypes import dtype as dtype_
from microtorch.dtypes import get_default_dtype
from microtorch.tensor import Size, Tensor, plain_tensor

__all__ = [
    "Parameter",
    "UninitializedParameter",
    "UninitializedBuffer",
    "Buffer",
]  # (Buffer: walkc)


class Parameter(Tensor):
    """A leaf tensor with ``requires_grad=True`` that ``Module.parameters()`` finds.

    It shares memory (and the in-place version counter) with the tensor it wraps, as in
    PyTorch. Results of operations on it are plain ``Tensor``s.

    >>> import microtorch as torch
    >>> torch.nn.Parameter(torch.ones(2))
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    """

    __slots__ = ()

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = plain_tensor(np.zeros(0, np.float32))
        if not isinstance(data, Tensor):
            raise TypeError(
                f"Parameter expects a Tensor as data, but got {type(data).__name__} "
                "(Fix: wrap it first, e.g. nn.Parameter(torch.tensor(values)))"
            )
        p = cast(Parameter, plain_tensor(data._data, data._device, kind=cls))
        if requires_grad:
            p._set_requires_grad(True, "Only Tensors of floating point and complex dtype")
        return p

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        # copy.deepcopy(model): a new Parameter with its own memory, same requires_grad.
        out = Parameter(plain_tensor(self._data.copy(), self._device), self._rg)
        if self._grad is not None:
            out._grad = plain_tensor(self._grad._data.copy(), self._device)
        memo[id(self)] = out
        return out


_NO_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually "
    "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
    "initialized one. Call `forward` to initialize the parameters before accessing their "
    "attributes."
)


def _refuse(name: str) -> Any:
    # PyTorch's error for any use of a placeholder's (absent) values.
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(
            f"Attempted to use an uninitialized parameter in <method '{name}' of "
            "'torch._C.TensorBase' objects>. This error happens when you are using a "
            f"`LazyModule` or explicitly manipulating `torch.nn.parameter.{type(self).__name__}` "
            "objects. When using LazyModules Call `forward` with a dummy batch to initialize the "
            "parameters before calling torch functions"
        )

    method.__name__ = name
    return method


class UninitializedTensorMixin:
    """A placeholder whose shape is not known yet: ``materialize(shape)`` turns it, in place
    (the same object, so an optimizer holding it sees the values), into ``cls_to_become``.
    Until then every use of its values raises PyTorch's error."""

    cls_to_become: type = Tensor
    _data: np.ndarray

    def materialize(self, shape: tuple[int, ...], device: Any = None, dtype: Any = None) -> None:
        """Give it ``shape`` (zeros: the layer's ``reset_parameters`` draws the values)."""
        np_dtype = self._data.dtype if dtype is None else dtype.numpy
        self._data = np.zeros(tuple(shape), np_dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self) -> Size:
        raise RuntimeError(_NO_SHAPE)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    # the uses a course meets first; each raises instead of computing with no values
    numel = _refuse("numel")
    dim = _refuse("dim")
    __add__ = __radd__ = _refuse("add")
    __sub__ = __rsub__ = _refuse("sub")
    __mul__ = __rmul__ = _refuse("mul")
    __truediv__ = __rtruediv__ = _refuse("div")
    __matmul__ = __rmatmul__ = _refuse("matmul")
    __getitem__ = _refuse("__getitem__")
    sum = _refuse("sum")
    mean = _refuse("mean")
    tolist = _refuse("tolist")
    item = _refuse("item")
    numpy = _refuse("numpy")


def _placeholder(kind: type, dtype: dtype_ | None, device: Any) -> Any:
    return plain_tensor(
        np.zeros(0, (dtype or get_default_dtype()).numpy), as_device(device), kind=kind
    )


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """The weight of a lazy layer before its first call: it becomes a ``Parameter``."""

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(
        cls, requires_grad: bool = True, device: Any = None, dtype: dtype_ | None = None
    ) -> UninitializedParameter:
        p = cast(UninitializedParameter, _placeholder(cls, dtype, device))
        p._rg = requires_grad
        return p

    def __deepcopy__(self, memo: dict[int, Any]) -> UninitializedParameter:
        out = UninitializedParameter(self._rg, self._device, self._dtype)
        memo[id(self)] = out
        return out


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A running statistic of a lazy layer before its first call: it becomes a ``Tensor``."""

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(
        cls, requires_grad: bool = False, device: Any = None, dtype: dtype_ | None = None
    ) -> UninitializedBuffer:
        return cast(UninitializedBuffer, _placeholder(cls, dtype, device))


# --- walkc
class _BufferMeta(type):
    # isinstance(t, nn.Buffer) is True for the tensors nn.Buffer(...) made, as in PyTorch
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and instance.__dict__.get("_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """Marks a tensor as a module's buffer: ``self.running = nn.Buffer(torch.zeros(3))``
    registers it as ``register_buffer`` does (``persistent=False``: not in ``state_dict``).
    What it returns is a plain tensor sharing the data's memory, as in PyTorch."""

    persistent: bool

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Any:
        if data is None:
            data = plain_tensor(np.zeros(0, np.float32))
        t = data.detach().requires_grad_(data.requires_grad)
        t.__dict__["persistent"] = persistent
        t.__dict__["_is_buffer"] = True
        return t
