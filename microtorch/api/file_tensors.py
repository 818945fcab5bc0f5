"""torch.from_file: a 1-d tensor of ``size`` values of ``dtype`` read from the start of a file
of raw values (as ``x.numpy().tofile(path)`` writes them).

microtorch reads a copy (``shared=False``, PyTorch's default); ``shared=True``, where the
tensor's memory is the file's, is not supported.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from microtorch import dtypes
from microtorch.api._checks import type_name
from microtorch.autograd import node as _node

__all__ = ["from_file"]


def from_file(
    filename: str,
    shared: bool | None = None,
    size: int = 0,
    *,
    dtype: dtypes.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Any:
    """The first ``size`` values of ``dtype`` (the default dtype if None) in the file
    ``filename``, as a 1-d tensor (a copy: ``shared=False``)."""
    if not isinstance(filename, str):
        raise TypeError(
            f"from_file(): argument 'filename' (position 1) must be str, not {type_name(filename)}"
        )
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"from_file(): argument 'size' must be int, not {type_name(size)}")
    if shared:
        raise NotImplementedError(
            "microtorch's from_file reads a copy of the file only (Fix: pass shared=False, and "
            "write changes back with x.numpy().tofile(filename))"
        )
    kind = dtypes.get_default_dtype() if dtype is None else dtype
    nbytes = size * np.dtype(kind.numpy).itemsize
    if nbytes < 0:
        raise RuntimeError(
            f"unable to mmap {nbytes} bytes from file <{filename}>: Cannot allocate memory (12)"
        )
    try:
        with open(filename, "rb") as file:
            raw = file.read(nbytes)
            length = os.fstat(file.fileno()).st_size
    except OSError as error:
        raise RuntimeError(
            f"unable to open file <{filename}> in read-only mode: {error.strerror} ({error.errno})"
        ) from None
    if length < nbytes:
        raise RuntimeError(
            f"file <{filename}> size <{length}> is smaller than the required mapping size "
            f"<{nbytes}>"
        )
    values = np.frombuffer(raw, dtype=kind.numpy, count=size).copy()
    t = _node.plain_tensor(values)
    if requires_grad:
        t.requires_grad_(True)
    return t
