"""Data types: PyTorch's names (``float32``, ``int64`` ...) over numpy's dtypes, and promotion.

``microtorch.float32`` prints as ``microtorch.float32`` where PyTorch prints ``torch.float32``:
the names are PyTorch's, the module is ours.
"""

from __future__ import annotations

import builtins

import numpy as np

__all__ = [
    "dtype",
    "float16",
    "float32",
    "float64",
    "half",
    "float",
    "double",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "short",
    "int",
    "long",
    "bool",
    "get_default_dtype",
    "set_default_dtype",
    "promote_types",
    "result_type",
    "layout",
    "strided",
]

_BOOL, _INT, _FLOAT = 0, 1, 2  # promotion categories, lowest first


class dtype:  # noqa: N801 - PyTorch's name
    """A tensor element type, e.g. ``microtorch.float32``."""

    __slots__ = (
        "name",
        "numpy",
        "itemsize",
        "is_floating_point",
        "is_signed",
        "_category",
        "_legacy",
    )

    def __init__(self, name: str, numpy_dtype: type, legacy: str) -> None:
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.itemsize = self.numpy.itemsize
        kind = self.numpy.kind
        self._category = _FLOAT if kind == "f" else _BOOL if kind == "b" else _INT
        self.is_floating_point = self._category == _FLOAT
        self.is_signed = kind in "if"
        self._legacy = legacy  # the legacy type name PyTorch uses in some messages

    def __repr__(self) -> str:
        return f"microtorch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


float16 = half = dtype("float16", np.float16, "HalfTensor")
float32 = float = dtype("float32", np.float32, "FloatTensor")  # noqa: A001 - PyTorch's alias
float64 = double = dtype("float64", np.float64, "DoubleTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
int8 = dtype("int8", np.int8, "CharTensor")
int16 = short = dtype("int16", np.int16, "ShortTensor")
int32 = int = dtype("int32", np.int32, "IntTensor")  # noqa: A001
int64 = long = dtype("int64", np.int64, "LongTensor")
bool = dtype("bool", np.bool_, "BoolTensor")  # noqa: A001


class layout:  # noqa: N801 - PyTorch's name
    """How a tensor's elements are stored: ``microtorch.strided`` (dense, laid out by strides)
    is the only layout microtorch has (PyTorch also has sparse ones)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"microtorch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


strided = layout("strided")

_ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
_FROM_NUMPY: dict[np.dtype, dtype] = {d.numpy: d for d in _ALL}
_default_float = [float32]


def get_default_dtype() -> dtype:
    """The dtype of ``tensor([1.5])``: ``float32`` unless changed."""
    return _default_float[0]


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype (``float32`` or ``float64``), as PyTorch does."""
    if not isinstance(d, dtype):
        raise TypeError(
            "invalid dtype object: only floating-point types are supported as the default type "
            f"(got {type(d).__name__}; Fix: pass torch.float32 or torch.float64)"
        )
    if not d.is_floating_point:
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _default_float[0] = d


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The microtorch dtype for a numpy dtype; raises TypeError for unsupported ones."""
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np_dtype.type.__name__}. The only supported "
            "types are: "
            "float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
        ) from None


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype both ``type1`` and ``type2`` convert to (``torch.promote_types``)."""
    if type1 is type2:
        return type1
    for position, value in enumerate((type1, type2), 1):
        if not isinstance(value, dtype):
            raise TypeError(
                f"promote_types(): argument 'type{position}' (position {position}) must be "
                f"torch.dtype, not {type(value).__name__}"
            )
    if type1._category != type2._category:  # int + float -> the float, whatever the sizes
        return type1 if type1._category > type2._category else type2
    return _FROM_NUMPY[np.promote_types(type1.numpy, type2.numpy)]


def _scalar_dtype(value: object) -> dtype:
    # Python numbers are "wrapped numbers" in PyTorch: they only decide the category.
    if isinstance(value, (builtins.bool, np.bool_)):
        return bool
    if isinstance(value, (builtins.int, np.integer)):
        return int64
    if isinstance(value, (builtins.float, np.floating)):
        return _default_float[0]
    fix = (
        " (Fix: make it a tensor first, torch.from_numpy(a))"
        if isinstance(value, np.ndarray)
        else ""
    )
    raise TypeError(f"expected a Tensor or a Python number, but got {type(value).__name__}{fix}")


def result_type(*operands: object) -> dtype:
    """The dtype of an op's result, by PyTorch's three tiers.

    Tensors with dimensions decide first; 0-d tensors and then Python numbers only win when
    they belong to a higher category (bool < int < float). So ``int_tensor * 2.5`` is float32
    and ``float32_tensor * float64_scalar_tensor`` stays float32.
    """
    dim = zero = scalar = None
    for op in operands:
        d = getattr(op, "_dtype", None)
        if d is None:
            s = _scalar_dtype(op)
            scalar = s if scalar is None else promote_types(scalar, s)
        elif op._data.ndim:  # type: ignore[attr-defined]
            dim = d if dim is None else promote_types(dim, d)
        else:
            zero = d if zero is None else promote_types(zero, d)
    result = dim
    for tier in (zero, scalar):
        if tier is not None and (result is None or tier._category > result._category):
            result = tier
    assert result is not None, "result_type needs at least one operand"
    return result
