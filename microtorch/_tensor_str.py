"""Turn a tensor's numpy data into the text PyTorch prints for it.

PyTorch's repr follows a few rules worth knowing when you read printed tensors:

* every element of one tensor gets the same width, so the columns line up;
* a float tensor whose values are all whole numbers prints them as ``1.`` ("int mode"),
  so you can still tell it is a float tensor;
* scientific notation is chosen for the whole tensor at once, when fixed-point with
  ``precision`` digits would hide small values or waste space on huge ones;
* tensors with more than ``threshold`` elements are summarized with ``...``;
* ``dtype=...`` is only shown when the dtype could not be guessed from the text.

This module is pure: it imports only numpy and the standard library, and the Tensor
class passes its data, dtype name and extra suffixes (``grad_fn=<MulBackward0>``...) in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch.autograd.quiet import quiet_numpy

__all__ = ["PrintOptions", "format_tensor", "get_printoptions", "set_printoptions"]


class PrintOptions:
    """The knobs of tensor printing; the defaults are PyTorch's.

    (A plain class, not a dataclass: importing dataclasses would add ~6 ms to
    ``import microtorch``.)
    """

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(
        self,
        precision: int = 4,  # digits after the decimal point
        threshold: float = 1000,  # more elements than this are summarized with "..."
        edgeitems: int = 3,  # items kept at each end of a summarized dimension
        linewidth: int = 80,  # characters per line before wrapping
        sci_mode: bool | None = None,  # None: chosen per tensor from its values
    ) -> None:
        self.precision, self.threshold, self.edgeitems = precision, threshold, edgeitems
        self.linewidth, self.sci_mode = linewidth, sci_mode

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"PrintOptions({fields})"


_OPTIONS = PrintOptions()

# The profiles of torch.set_printoptions: (precision, threshold, edgeitems, linewidth).
_PROFILES: dict[str, tuple[int, float, int, int]] = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set how tensors print, like ``torch.set_printoptions``.

    A ``profile`` ("default", "short" or "full") is applied first, then any option given.
    As in PyTorch, ``sci_mode`` is always set, so leaving it out resets it to automatic.
    """
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(
                f"unknown print profile {profile!r}; use one of {', '.join(_PROFILES)}"
            )
        (
            _OPTIONS.precision,
            _OPTIONS.threshold,
            _OPTIONS.edgeitems,
            _OPTIONS.linewidth,
        ) = _PROFILES[profile]
    if precision is not None:
        _OPTIONS.precision = precision
    if threshold is not None:
        _OPTIONS.threshold = threshold
    if edgeitems is not None:
        _OPTIONS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTIONS.linewidth = linewidth
    _OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current options as a dict that ``set_printoptions(**opts)`` accepts."""
    return {name: getattr(_OPTIONS, name) for name in PrintOptions.__slots__}


class _ElementFormatter:
    """Formats single elements so that all elements of one tensor share a width."""

    def __init__(self, shown: np.ndarray, options: PrintOptions) -> None:
        # `shown` holds only the elements that will be printed, so that huge values
        # hidden in the middle of a summarized tensor do not widen the columns.
        self.precision = options.precision
        self.is_float = shown.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = shown.reshape(-1)
        if not self.is_float:
            self.width = max([1] + [len(str(v)) for v in flat.tolist()])
            return
        # Zeros, nan and inf print the same in every mode, so only the other values
        # decide the mode and the width.
        values = flat[np.isfinite(flat) & (flat != 0)]
        if values.size == 0:
            return
        magnitudes = np.abs(values.astype(np.float64))  # float16 would overflow in the ratio
        smallest, largest = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(values == np.ceil(values)))
        if options.sci_mode is None:
            # Fixed point with 4 decimals turns 1e-5 into 0.0000 and needs very wide
            # columns for 1e9; and when values span more than three orders of magnitude
            # the small ones would lose all their significant digits next to the big ones.
            self.sci_mode = bool(
                largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
            )
        else:
            self.sci_mode = options.sci_mode
        # In int mode each number gets a trailing "." (hence the +1).
        extra = 1 if self.int_mode and not self.sci_mode else 0
        self.width = max(len(self._bare(v)) + extra for v in values.tolist())

    def _bare(self, value: float) -> str:
        if self.sci_mode:
            return f"{value:.{self.precision}e}"
        if self.int_mode:
            return f"{value:.0f}"
        return f"{value:.{self.precision}f}"

    def format(self, value: float | int | bool) -> str:
        """Format one Python scalar, right-aligned to the common width."""
        if not self.is_float:
            text = str(value)
        else:
            text = self._bare(value)
            if self.int_mode and not self.sci_mode and math.isfinite(value):
                text += "."  # "2." marks a float tensor holding whole numbers
        return text.rjust(self.width)


def _shown_elements(data: np.ndarray, edgeitems: int) -> np.ndarray:
    """Keep the first and last `edgeitems` entries of every dimension longer than twice that."""
    for axis, size in enumerate(data.shape):
        if size > 2 * edgeitems:
            keep = list(range(edgeitems)) + list(range(size - edgeitems, size))
            data = data.take(keep, axis=axis)
    return data


def _render(
    data: np.ndarray,
    indent: int,
    summarize: bool,
    formatter: _ElementFormatter,
    options: PrintOptions,
) -> str:
    """Nested-bracket text of `data`; `indent` is the column of its opening bracket."""
    if data.ndim == 0:
        return formatter.format(data.item())
    if summarize and options.edgeitems == 0:
        return "[...]"  # nothing is kept at the edges, so only the ellipsis is left
    size, edge = data.shape[0], options.edgeitems
    rows: list[int | None] = list(range(size))
    if summarize and size > 2 * edge:
        rows = rows[:edge] + [None] + rows[-edge:]  # None marks the elided middle
    if data.ndim == 1:
        values = data.tolist()
        cells = [" ..." if i is None else formatter.format(values[i]) for i in rows]
        # Each cell costs its width plus ", "; wrapped lines start under the "[".
        per_line = max(1, math.floor((options.linewidth - indent) / (formatter.width + 2)))
        lines = [", ".join(cells[k : k + per_line]) for k in range(0, len(cells), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = [
        "..." if i is None else _render(data[i], indent + 1, summarize, formatter, options)
        for i in rows
    ]
    # Sub-tensors of a k-D tensor are separated by k-2 blank lines: none between the rows
    # of a matrix, one between the matrices of a 3-D tensor, and so on.
    separator = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _add_suffixes(text: str, suffixes: Sequence[str], indent: int, linewidth: int) -> str:
    """Append ", suffix" items and the closing ")", wrapping a suffix that would not fit."""
    pieces = [text]
    # PyTorch counts the current line as two characters longer than it is (room for ", "),
    # but after a wrap it counts only the indent and the suffix; we do the same.
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            line_length += len(suffix) + 2
    return "".join(pieces) + ")"


@quiet_numpy  # the ratio of 1e300 to 1e-3 overflows: a number too wide is all it means
def format_tensor(
    data: np.ndarray,
    *,
    dtype_name: str,
    default_dtype_name: str = "float32",
    suffixes: Sequence[str] = (),
    module: str = "microtorch",
    prefix: str = "tensor(",
) -> str:
    """Return the repr PyTorch would print for a tensor holding `data`.

    `suffixes` come from the caller (``device='meta'``, ``grad_fn=<MulBackward0>``,
    ``requires_grad=True``); ``size=`` and ``dtype=`` are added here when PyTorch would.

    >>> format_tensor(np.array([1e-5, 1e5]), dtype_name="float32")
    'tensor([1.0000e-05, 1.0000e+05])'
    >>> format_tensor(np.array([2.0]), dtype_name="float64", suffixes=["requires_grad=True"])
    'tensor([2.], dtype=microtorch.float64, requires_grad=True)'
    """
    data = np.asarray(data)
    if data.dtype.kind == "c":
        raise TypeError("complex tensors are not supported by microtorch; print .real and .imag")
    options = _OPTIONS
    indent = len(prefix)
    size_text = f"size={tuple(data.shape)}"
    dtype_text = f"dtype={module}.{dtype_name}"
    # PyTorch lists the device first, then size and dtype, then autograd information.
    device = [s for s in suffixes if s.startswith("device=")]
    others = [s for s in suffixes if not s.startswith("device=")]
    added = []
    if "device='meta'" in device:
        # A meta tensor has a shape and a dtype but no values to show.
        body = "..."
        added.append(size_text)
        if dtype_name != default_dtype_name:
            added.append(dtype_text)
    elif data.size == 0:
        # "[]" cannot show a shape such as (0, 3), nor hint at an integer dtype.
        body = "[]"
        if data.ndim != 1:
            added.append(size_text)
        if dtype_name != default_dtype_name:
            added.append(dtype_text)
    else:
        if options.edgeitems == 0:
            added.append(size_text)  # summarized output shows no elements, so give the shape
        # The text already tells these apart: "1." is the default float, "1" is int64,
        # "True" is bool; any other dtype must be spelled out.
        if dtype_name not in (default_dtype_name, "int64", "bool"):
            added.append(dtype_text)
        summarize = data.size > options.threshold
        shown = _shown_elements(data, options.edgeitems) if summarize else data
        formatter = _ElementFormatter(shown, options)
        body = _render(data, indent, summarize, formatter, options)
    return _add_suffixes(prefix + body, device + added + others, indent, options.linewidth)
