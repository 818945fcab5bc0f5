"""PyTorch's legacy tensor types: ``torch.FloatTensor([1, 2])``, ``x.type(torch.LongTensor)``.

Old course code names a dtype by a class: ``torch.LongTensor(data)`` makes an int64 tensor,
``isinstance(x, torch.FloatTensor)`` asks whether ``x`` is a float32 tensor on the CPU and
``x.type(torch.LongTensor)`` (or ``x.type('torch.LongTensor')``) converts. Each class here
stands for its dtype; none is a subclass of ``Tensor`` (nor is PyTorch's).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch import dtypes
from microtorch._warn import warn
from microtorch.autograd import node as _node

__all__ = [
    "tensortype", "FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor",
    "ShortTensor", "IntTensor", "LongTensor", "BoolTensor", "dtype_of_type",
    "set_default_tensor_type",
]  # fmt: skip

# C++'s names for the dtypes, which PyTorch's TensorOptions message uses
_C_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "uint8": "unsigned char",
    "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
    "bool": "bool",
}  # fmt: skip


class tensortype(type):  # noqa: N801 - PyTorch's name (torch.tensortype)
    """The class of ``FloatTensor`` and the others: calling one makes a tensor of its dtype."""

    dtype: dtypes.dtype

    def __call__(cls, *args: Any, device: Any = None) -> Any:
        if args and all(isinstance(a, int) for a in args):  # FloatTensor(2, 3): a shape
            return _node.plain_tensor(np.zeros(args, cls.dtype.numpy))  # (uninitialised in PyTorch)
        if len(args) == 1 and isinstance(args[0], _node.Tensor):  # FloatTensor(x): x itself
            if args[0].dtype is not cls.dtype:
                raise TypeError(f"expected {_options(cls.dtype)} (got {_options(args[0].dtype)})")
            return args[0]
        data = np.array(args[0] if args else [])
        with np.errstate(invalid="ignore", over="ignore"):  # (LongTensor([1.5]) is [1])
            return _node.plain_tensor(data.astype(cls.dtype.numpy))

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _node.Tensor) and obj.dtype is cls.dtype and obj.device.type == "cpu"

    def __repr__(cls) -> str:
        return f"<class 'microtorch.{cls.__name__}'>"


def _options(d: dtypes.dtype) -> str:
    return (
        f"TensorOptions(dtype={_C_NAMES[d.name]}, device=cpu, layout=Strided, requires_grad="
        "false (default), pinned_memory=false (default), memory_format=(nullopt))"
    )


class FloatTensor(metaclass=tensortype):
    dtype = dtypes.float32


class DoubleTensor(metaclass=tensortype):
    dtype = dtypes.float64


class HalfTensor(metaclass=tensortype):
    dtype = dtypes.float16


class ByteTensor(metaclass=tensortype):
    dtype = dtypes.uint8


class CharTensor(metaclass=tensortype):
    dtype = dtypes.int8


class ShortTensor(metaclass=tensortype):
    dtype = dtypes.int16


class IntTensor(metaclass=tensortype):
    dtype = dtypes.int32


class LongTensor(metaclass=tensortype):
    dtype = dtypes.int64


class BoolTensor(metaclass=tensortype):
    dtype = dtypes.bool


_BY_NAME = {
    f"torch.{t.__name__}": t
    for t in (FloatTensor, DoubleTensor, HalfTensor, ByteTensor, CharTensor, ShortTensor)
    + (IntTensor, LongTensor, BoolTensor)
}


def dtype_of_type(kind: Any) -> dtypes.dtype:
    """The dtype ``x.type(kind)`` converts to: a dtype, a legacy type or its name."""
    if isinstance(kind, dtypes.dtype):
        return kind
    if isinstance(kind, tensortype):
        return kind.dtype
    if isinstance(kind, str):
        name = kind.replace("microtorch.", "torch.", 1)
        if name in _BY_NAME:
            return _BY_NAME[name].dtype
        if name.startswith("torch.cuda."):
            raise RuntimeError(_NO_CUDA)
        raise ValueError(f"invalid type: '{kind}'")
    raise TypeError(
        "dtype must be a type, str, or dtype object (Fix: e.g. x.type(torch.float32) or "
        "x.type('torch.FloatTensor'))"
    )


_NO_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.\n(Fix: microtorch runs on the CPU only: use the CPU type, e.g. "
    "'torch.FloatTensor')"
)


_warned_default_type = [False]  # (PyTorch warns once per process)


def set_default_tensor_type(t: Any) -> None:
    """Deprecated (PyTorch 2.1): ``set_default_tensor_type(torch.DoubleTensor)`` is
    ``set_default_dtype(torch.float64)``; a floating type only."""
    if not _warned_default_type[0]:
        _warned_default_type[0] = True
        warn(
            "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
            "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
        )
    if not isinstance(t, (tensortype, str)):
        raise TypeError(
            "invalid type object: only floating-point types are supported as the default type"
        )
    d = dtype_of_type(t)
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(d)
