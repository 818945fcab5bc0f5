"""The options PyTorch's factories take that have one value in microtorch: ``layout``
(``torch.strided``), ``pin_memory`` (False: there is no accelerator) and ``memory_format``
(row-major: ``torch.contiguous_format``, or ``torch.preserve_format`` of a row-major tensor).

``tensor_options`` lets a factory take them by keyword, checked as PyTorch checks them, so
``torch.zeros(2, 3, layout=torch.strided, pin_memory=False)`` runs while the factory's own
signature stays about what it makes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from microtorch.api import memory_format as formats
from microtorch.dtypes import layout, strided

__all__ = ["check_memory_format", "check_options", "tensor_options"]

F = TypeVar("F", bound=Callable[..., Any])

_PINNED = (
    "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator "
    "is available on this system."
)


def tensor_options(*, memory_format: bool = False) -> Callable[[F], F]:
    """Let the factory take ``layout=`` and ``pin_memory=`` (and, with ``memory_format``,
    ``memory_format=``), as PyTorch's does."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def with_options(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                check_options(fn.__name__, kwargs, memory_format)
            return fn(*args, **kwargs)

        return with_options  # type: ignore[return-value]

    return decorate


def check_options(op: str, kwargs: dict[str, Any], memory_format: bool = False) -> None:
    """Take ``layout``, ``pin_memory`` (and ``memory_format``) out of ``kwargs``, raising
    PyTorch's errors for values microtorch's tensors cannot have."""
    given = kwargs.pop("layout", None)
    if given is not None and not isinstance(given, layout):
        raise TypeError(f"{op}(): argument 'layout' must be torch.layout, not {_name(given)}")
    if given is not None and given is not strided:
        raise RuntimeError("microtorch's tensors are strided only (Fix: leave layout= out)")
    if op == "range" and "pin_memory" in kwargs:  # (the one factory PyTorch gives none)
        raise TypeError("range() got an unexpected keyword argument 'pin_memory'")
    pinned = kwargs.pop("pin_memory", None)
    if pinned is not None and not isinstance(pinned, bool):
        raise TypeError(f"{op}(): argument 'pin_memory' must be bool, not {_name(pinned)}")
    if pinned:
        raise RuntimeError(_PINNED)
    if memory_format and "memory_format" in kwargs:
        check_memory_format(op, kwargs.pop("memory_format"))


def check_memory_format(op: str, given: Any) -> None:
    """None, ``torch.contiguous_format`` or ``torch.preserve_format``: the row-major ones."""
    if given is not None and not isinstance(given, formats.memory_format):
        raise TypeError(
            f"{op}(): argument 'memory_format' must be torch.memory_format, not {_name(given)}"
        )
    if given in (formats.channels_last, formats.channels_last_3d):
        raise RuntimeError(
            f"{op}(memory_format={given}): microtorch lays every tensor out row-major "
            "(Fix: leave memory_format out, or torch.contiguous_format)"
        )


def _name(value: Any) -> str:
    return type(value).__name__
