"""``conv_transpose1d``, ``conv_transpose2d`` and ``conv_transpose3d``: PyTorch 2.13's argument
handling and errors, in PyTorch's order, in front of ``ConvolutionTranspose``.

An input without its batch dim is one sample: as for ``conv2d``, PyTorch records
``UnsqueezeBackward0``, the convolution, then ``SqueezeBackward1``, and so does this.
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import type_name
from microtorch.api.arguments import parsed
from microtorch.nn.conv_functions import _expand, _ints
from microtorch.nn.conv_transpose_ops import ConvolutionTranspose
from microtorch.tensor import Tensor

__all__ = ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]

_DIMS = {1: ("width",), 2: ("height", "width"), 3: ("depth", "height", "width")}
_SAMPLES = {1: "L", 2: "H, W", 3: "D, H, W"}


@parsed(
    "conv_transpose1d",
    (
        "Tensor input, Tensor weight, Tensor bias=None, tuple of ints stride=[1], "
        "tuple of ints padding=[0], tuple of ints output_padding=[0], int groups=1, "
        "tuple of ints dilation=[1]"
    ),
)
def conv_transpose1d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """1-D transposed convolution of ``(N, C_in, L)`` or ``(C_in, L)`` input with ``weight``
    of shape ``(C_in, C_out / groups, K)``: the gradient of ``conv1d`` with respect to its
    input (``ConvolutionBackward0``)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)  # fmt: skip


@parsed(
    "conv_transpose2d",
    (
        "Tensor input, Tensor weight, Tensor bias=None, tuple of ints stride=[1, 1], "
        "tuple of ints padding=[0, 0], tuple of ints output_padding=[0, 0], int groups=1, "
        "tuple of ints dilation=[1, 1]"
    ),
)
def conv_transpose2d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """2-D transposed convolution of ``(N, C_in, H, W)`` or ``(C_in, H, W)`` input with
    ``weight`` of shape ``(C_in, C_out / groups, kH, kW)``; the output is
    ``(H - 1) stride - 2 padding + dilation (kH - 1) + output_padding + 1`` high (and so wide).

    >>> import microtorch as torch
    >>> x = torch.ones(1, 1, 2, 2)
    >>> torch.nn.functional.conv_transpose2d(x, torch.ones(1, 1, 2, 2), stride=2).shape
    microtorch.Size([1, 1, 4, 4])
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)  # fmt: skip


@parsed(
    "conv_transpose3d",
    (
        "Tensor input, Tensor weight, Tensor bias=None, tuple of ints stride=[1, 1, 1], "
        "tuple of ints padding=[0, 0, 0], tuple of ints output_padding=[0, 0, 0], int groups=1, "
        "tuple of ints dilation=[1, 1, 1]"
    ),
)
def conv_transpose3d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """``conv_transpose2d`` over three spatial dims: ``(N, C_in, D, H, W)`` input and weight
    ``(C_in, C_out / groups, kD, kH, kW)``."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 3)  # fmt: skip


def _conv_transpose(
    input: Any, weight: Any, bias: Any, stride: Any, padding: Any,  # noqa: A002
    output_padding: Any, groups: int, dilation: Any, nd: int,
) -> Tensor:  # fmt: skip
    op = f"conv_transpose{nd}d"
    for i, (t, name) in enumerate(((input, "input"), (weight, "weight"), (bias, "bias"))):
        if not isinstance(t, Tensor) and not (name == "bias" and t is None):
            raise TypeError(
                f"{op}(): argument '{name}' (position {i + 1}) must be Tensor, not {type_name(t)}"
            )
    for v, name in ((stride, "stride"), (padding, "padding"), (dilation, "dilation")):
        if isinstance(v, str):  # (no 'same' or 'valid' here: PyTorch's overload takes ints)
            raise TypeError(f"{op}(): argument '{name}' must be tuple of ints, not str")
    s, p = _ints(stride, nd, op, "stride"), _ints(padding, nd, op, "padding")
    o, d = _ints(output_padding, nd, op, "output_padding"), _ints(dilation, nd, op, "dilation")
    shape = input._data.shape
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {op}, but got input "
            f"of size: {list(shape)} (Fix: {op} takes (N, C, {_SAMPLES[nd]}) or "
            f"(C, {_SAMPLES[nd]}))"
        )
    batched = len(shape) == nd + 2
    x = input if batched else input.unsqueeze(0)
    out = _transposed(x, weight, bias, s, p, o, d, groups)
    return out if batched else out.squeeze(0)


def _transposed(
    x: Tensor, weight: Tensor, bias: Any, stride: list[int], padding: list[int],
    output_padding: list[int], dilation: list[int], groups: int,
) -> Tensor:  # fmt: skip
    # PyTorch's at::_convolution (transposed=1) and slow_conv_transpose's shape check.
    k = weight._data.ndim
    if k <= 2:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = k - 2
    s = _expand(stride, "stride", dim)
    p = _expand(padding, "padding", dim)
    op = _expand(output_padding, "output_padding", dim)
    d = _expand(dilation, "dilation", dim)
    if any(v < 0 for v in p):
        raise RuntimeError("negative padding is not supported")
    if any(v < 0 for v in op):
        raise RuntimeError("negative output_padding is not supported")
    if any(v <= 0 for v in s):
        raise RuntimeError("non-positive stride is not supported")
    xs, ws = list(x._data.shape), list(weight._data.shape)
    if len(xs) != k:
        raise RuntimeError(
            f"Expected {k}-dimensional input for {k}-dimensional weight {ws}, but got "
            f"{len(xs)}-dimensional input of size {xs} instead"
        )
    if ws[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{ws}] instead"
        )
    if xs[1] != ws[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {ws}, expected input{xs} to have {ws[0]} "
            f"channels, but got {xs[1]} channels instead (Fix: a transposed convolution's "
            "weight is (C_in, C_out / groups, *kernel))"
        )
    co = ws[1] * groups
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != co):
        raise RuntimeError(
            f"Given transposed=1, weight of size {ws}, expected bias to be 1-dimensional with "
            f"{co} elements, but got bias of size {list(bias._data.shape)} instead"
        )
    # PyTorch's slow_conv_transpose2d/3d shape check: a 1-d one runs as 2-d with height 1
    names = _DIMS[max(dim, 2)]
    pad1 = (0,) if dim == 1 else ()
    one = (1,) if dim == 1 else ()
    if any(v <= 0 for v in d):
        got = ", ".join(f"dilation_{n}: {v}" for n, v in zip(names, one + d))
        raise RuntimeError(f"dilation should be greater than zero, but got {got}")
    if any(o >= ss and o >= dd for o, ss, dd in zip(op, s, d)):
        got = " ".join(
            [f"output_padding_{n}: {v}" for n, v in zip(names, pad1 + op)]
            + [f"stride_{n}: {v}" for n, v in zip(names, one + s)]
            + [f"dilation_{n}: {v}" for n, v in zip(names, one + d)]
        )
        raise RuntimeError(
            f"output padding must be smaller than either stride or dilation, but got {got}"
        )
    size = [
        (i - 1) * ss - 2 * pp + dd * (kk - 1) + 1 + o
        for i, ss, pp, dd, kk, o in zip(xs[2:], s, p, d, ws[2:], op)
    ]
    if any(v < 1 for v in size):
        sizes = one + tuple(xs[2:])
        outs = one + tuple(size)
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, sizes))}). Calculated output "
            f"size per channel: ({' x '.join(map(str, outs))}). Output size is too small"
        )
    if weight._dtype is not x._dtype:
        raise RuntimeError(
            f"expected scalar type {x._dtype._legacy[:-6]} but found "
            f"{weight._dtype._legacy[:-6]} (Fix: convert the input, e.g. x.float(), or the "
            f"layer, e.g. model.to(torch.{x._dtype.name}))"
        )
    if not x._dtype.is_floating_point:
        raise NotImplementedError(
            f'"slow_conv_transpose{max(dim, 2)}d_out_cpu" not implemented for '
            f"'{x._dtype._legacy[:-6]}'"
        )
    if bias is not None and bias._dtype is not x._dtype:
        raise NotImplementedError(
            f"microtorch does not cover a bias of dtype {bias._dtype} for an input of dtype "
            f"{x._dtype} in a transposed convolution (PyTorch converts it; convert it yourself, "
            f"e.g. bias.to({x._dtype}))"
        )
    return ConvolutionTranspose.apply(x, weight, bias, s, p, op, d, groups)
