"""``torch.memory_format``, the type of ``torch.contiguous_format``, ``preserve_format``,
``channels_last`` and ``channels_last_3d``, and ``torch.typename``.

microtorch keeps every tensor in numpy's row-major layout, so the four formats are names to
pass and compare (``memory_format=`` of ``resize_as_``, ``randint_like``); none changes a
tensor's strides.
"""

from __future__ import annotations

from typing import Any

from microtorch.autograd import node as _node

__all__ = [
    "channels_last", "channels_last_3d", "contiguous_format", "is_contiguous", "memory_format",
    "preserve_format", "typename",
]  # fmt: skip


class memory_format:  # noqa: N801 - PyTorch's name
    """A memory layout's name; its four values are made here, as PyTorch makes its own."""

    __slots__ = ("_name",)
    _name: str

    def __new__(cls, *args: Any, **kwargs: Any) -> memory_format:
        raise TypeError("cannot create 'torch.memory_format' instances")

    @classmethod
    def _make(cls, name: str) -> memory_format:
        made = object.__new__(cls)
        made._name = name
        return made

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    def __reduce__(self) -> str:
        return self._name  # (pickled by name: the one value of that name)


contiguous_format = memory_format._make("contiguous_format")
preserve_format = memory_format._make("preserve_format")
channels_last = memory_format._make("channels_last")
channels_last_3d = memory_format._make("channels_last_3d")


def is_contiguous(t: Any, format: Any) -> bool:  # noqa: A002
    """``t.is_contiguous(memory_format=format)``: channels last means the strides of the
    order N, H, W, C (N, D, H, W, C), dimensions of size 1 not counted, as PyTorch checks."""
    if not isinstance(format, memory_format):
        raise TypeError(
            "is_contiguous(): argument 'memory_format' must be torch.memory_format, not "
            f"{type(format).__name__}"
        )
    last = {"channels_last": (1, 3, 2, 0), "channels_last_3d": (1, 4, 3, 2, 0)}.get(format._name)
    if last is None:
        return bool(t._data.flags.c_contiguous)
    if t._data.ndim != len(last):
        return False
    shape, strides, expected = t._data.shape, t.stride(), 1
    for d in last:  # innermost first
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def typename(obj: Any) -> str:
    """The name of ``obj``'s type: a tensor's legacy type (``'microtorch.FloatTensor'``),
    else module and qualified name (``'microtorch.nn.linear.Linear'``, ``'int'``)."""
    if isinstance(obj, _node.Tensor):
        return str(obj.type())
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = type(obj).__module__, type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"
