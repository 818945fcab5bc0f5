"""Fractional max pooling (issue 24): ``fractional_max_pool2d``, ``fractional_max_pool3d`` and
their ``*_with_indices`` forms, with PyTorch 2.13's argument handling, checks and errors.

Windows of ``kernel_size`` start at steps of floor(alpha) or ceil(alpha), alpha = (in - k) /
(out - 1), in an order one sample u in [0, 1) per plane and dim decides (see
``fractional_pool_ops.py``). Given ``_random_samples`` (shape ``(N, C, 2)`` holding (u_W, u_H)
per plane, or ``(N, C, 3)`` holding (u_T, u_H, u_W)), outputs and indices are PyTorch's.
Without it the samples come from ``microtorch.rand``, as PyTorch draws them with
``torch.rand``: the same distribution, not PyTorch's numbers (microtorch's generator is not
PyTorch's), so the windows differ from PyTorch's after the same ``manual_seed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch import creation
from microtorch.api._checks import expect_tensor, type_name
from microtorch.autograd.grad_mode import is_grad_enabled
from microtorch.nn import fractional_pool_ops as ops
from microtorch.nn.conv import _ntuple
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "fractional_max_pool2d", "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
]  # fmt: skip


def _sizes(value: Any, n: int, op: str, what: str, position: int) -> list[int]:
    # PyTorch's int[n] argument: an int is repeated n times, a sequence of ints kept as is
    # (a bool counts as an int there, as in Python)
    if isinstance(value, (int, np.integer)):
        return [int(value)] * n
    start = f"{op}(): argument '{what}' (position {position}) must be tuple of ints"
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise TypeError(f"{start}, not {type_name(value)}")
    for i, v in enumerate(value):
        if not isinstance(v, (int, np.integer)):
            raise TypeError(f"{start}, but found element of type {type_name(v)} at pos {i}")
    return [int(v) for v in value]


def _output_size(dims: int, input: Any, output_size: Any, output_ratio: Any) -> Any:  # noqa: A002
    op = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{op} requires specifying either an output_size or an output_ratio")
    if output_size is not None:
        return output_size
    if dims == 2 and len(output_ratio) > 2:  # (a float has no len(): PyTorch's TypeError)
        raise ValueError(f"{op} requires output_ratio to either be a single Int or tuple of Ints.")
    ratio = _ntuple(output_ratio, dims)
    return [int(input.size(d - dims) * ratio[d]) for d in range(dims)]


def _check_shapes(dims: int, input: Tensor, k: list[int], out: list[int]) -> None:  # noqa: A002
    op = f"fractional_max_pool{dims}d"
    name = op if dims == 2 else "fractional_max_pool3d_out"
    ints = "Ints" if dims == 2 else "three Ints"
    for what, v in (("kernel_size", k), ("output_size", out)):
        if len(v) != dims:
            raise RuntimeError(f"{op}: {what} must either be a single Int or tuple of {ints}")
    shape = list(input._data.shape)
    if len(shape) not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: {shape}"
        )
    for i in range(1, len(shape)):
        if shape[i] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"got{shape} with dimension {i} being empty."
            )
    size = shape[-dims:]
    # PyTorch's checks: out + k - 1 <= in in 2-d; in 3-d strictly less, and width before height
    names: tuple[str, ...] = ("height", "width")
    order: tuple[int, ...] = (0, 1)
    if dims == 3:
        names, order = ("time", "height", "width"), (0, 2, 1)
    for d in order:
        end = out[d] + k[d] - 1
        if end > size[d] or (dims == 3 and end == size[d]):
            raise RuntimeError(
                f"{name}(): pool {names[d]} {k[d]} too large relative to input {names[d]} {size[d]}"
            )
    result = shape[:-dims] + out
    if min(out) < 0:
        bad = next(v for v in out if v < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {result}")


def _check_samples(dims: int, input: Tensor, samples: Tensor) -> None:  # noqa: A002
    if samples._dtype is not input._dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    shape = input._data.shape
    batch, channels = (1, shape[0]) if len(shape) == dims + 1 else shape[:2]
    n, c, d = samples._data.shape
    if n < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if c != channels:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if d != dims:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {dims}; got {d}.")


def _fractional(
    dims: int, input: Any, kernel_size: Any, output_size: Any, output_ratio: Any,  # noqa: A002
    samples: Any,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    op = f"fractional_max_pool{dims}d"
    output_size = _output_size(dims, input, output_size, output_ratio)
    if samples is None:  # (PyTorch draws them with torch.rand: see the module's docstring)
        n_batch = 1 if input.dim() == dims + 1 else input.size(0)
        samples = creation.rand(n_batch, input.size(-dims - 1), dims, dtype=input.dtype)
    expect_tensor(input, op)
    k = _sizes(kernel_size, dims, op, "kernel_size", 2)
    out = _sizes(output_size, dims, op, "output_size", 3)
    expect_tensor(samples, op, "random_samples", 4)
    if samples.requires_grad and is_grad_enabled():
        raise RuntimeError(
            f"The function '{op}' is not differentiable with respect to argument "
            "'random_samples'. This input cannot have requires_grad True."
        )
    _check_shapes(dims, input, k, out)
    _check_samples(dims, input, samples)
    shape = input._data.shape
    if 0 not in shape[:-dims] and 0 not in out and not input._dtype.is_floating_point:
        kind = input._dtype._legacy[:-6]
        raise NotImplementedError(f"\"{op}_out_frame\" not implemented for '{kind}'")
    batch = 1 if len(shape) == dims + 1 else shape[0]
    u = samples._data[:batch].reshape(-1, dims)  # (B, dims): one row per plane
    if dims == 2:
        u = u[:, ::-1]  # PyTorch's 2-d samples are (u_W, u_H); the windows want (H, W)
    kernel, size = tuple(k), tuple(out)
    index = ops.fractional_max_indices(input._data, kernel, size, u)
    fn = ops.FractionalMaxPool2D if dims == 2 else ops.FractionalMaxPool3D
    result = fn.apply(input, index, 0 in kernel)
    return result, plain_tensor(index, input._device)


def fractional_max_pool2d_with_indices(
    input: Tensor, kernel_size: Any, output_size: Any = None,  # noqa: A002
    output_ratio: Any = None, return_indices: bool = False, _random_samples: Tensor | None = None,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    """``fractional_max_pool2d(..., return_indices=True)``: the outputs and where each came
    from, ``h * W + w`` in its plane (``FractionalMaxPool2DBackward0``)."""
    return _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(
    input: Tensor, kernel_size: Any, output_size: Any = None,  # noqa: A002
    output_ratio: Any = None, return_indices: bool = False, _random_samples: Tensor | None = None,
) -> Any:  # fmt: skip
    """The largest value of ``kernel_size`` windows placed at random fractional steps, to
    ``output_size`` (or ``output_ratio`` times the input's size) over (H, W)."""
    out, index = _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return (out, index) if return_indices else out


def fractional_max_pool3d_with_indices(
    input: Tensor, kernel_size: Any, output_size: Any = None,  # noqa: A002
    output_ratio: Any = None, return_indices: bool = False, _random_samples: Tensor | None = None,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    """``fractional_max_pool3d(..., return_indices=True)``: the outputs and where each came
    from, ``(t * H + h) * W + w`` in its volume (``FractionalMaxPool3DBackward0``)."""
    return _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d(
    input: Tensor, kernel_size: Any, output_size: Any = None,  # noqa: A002
    output_ratio: Any = None, return_indices: bool = False, _random_samples: Tensor | None = None,
) -> Any:  # fmt: skip
    """``fractional_max_pool2d`` over (T, H, W)."""
    out, index = _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return (out, index) if return_indices else out
