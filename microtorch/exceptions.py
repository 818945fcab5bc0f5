"""PyTorch's exception classes of the ``torch`` namespace (``torch.OutOfMemoryError`` ...).

microtorch raises none of them (it runs on the CPU, in numpy); they exist so that code that
catches them (``except torch.OutOfMemoryError:``) runs unchanged.
"""

from __future__ import annotations

__all__ = ["AcceleratorError", "FatalError", "OutOfMemoryError"]


class AcceleratorError(RuntimeError):
    """Exception raised while executing on device"""


class FatalError(Exception):
    """An error PyTorch's C++ core cannot recover from."""


class OutOfMemoryError(RuntimeError):
    """Exception raised when device is out of memory"""


for _cls in (AcceleratorError, FatalError, OutOfMemoryError):
    _cls.__module__ = "microtorch"
