"""The activations of ``nn.functional`` beyond relu, sigmoid, tanh, gelu and leaky_relu:
``silu``, ``elu``, ``selu``, ``celu``, ``softplus``, ``hardtanh``, ``relu6``, ``logsigmoid``,
``mish``, ``hardswish``, ``hardsigmoid``, ``softmin``, ``softsign`` and ``tanhshrink``.

Each records what PyTorch 2.13 records (``selu`` is ``EluBackward0``, ``relu6`` is
``HardtanhBackward0``, ``softsign`` a division) and refuses integer tensors as PyTorch does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import reduction as red
from microtorch.api._checks import expect_tensor
from microtorch.api.inplace import apply_inplace
from microtorch.api.prelu import prelu
from microtorch.nn import activation_ops as ops
from microtorch.tensor import Tensor

__all__ = [
    "silu", "elu", "selu", "celu", "softplus", "hardtanh", "relu6", "logsigmoid", "mish",
    "hardswish", "hardsigmoid", "softmin", "softsign", "tanhshrink", "prelu",
]  # fmt: skip

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _floats_only(input: Any, name: str, kernel: str) -> None:  # noqa: A002
    expect_tensor(input, name)
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )


def _run(input: Tensor, inplace: bool, name: str, op: Any, *args: Any) -> Tensor:  # noqa: A002
    if inplace:
        return apply_inplace(input, name + "_", op.apply, *args)
    return op.apply(input, *args)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * sigmoid(x) (also called swish)."""
    _floats_only(input, "silu", "silu_cpu")
    return _run(input, inplace, "silu", ops.Silu)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else alpha * (exp(x) - 1)."""
    _floats_only(input, "elu", "elu_cpu")
    return _run(input, inplace, "elu", ops.Elu_ if inplace else ops.Elu, alpha, 1.0, 1.0)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """scale * elu(x, alpha) with PyTorch's fixed alpha (1.6733) and scale (1.0507)."""
    _floats_only(input, "selu", "elu_cpu")
    op = ops.Elu_ if inplace else ops.Elu
    return _run(input, inplace, "selu", op, _SELU_ALPHA, _SELU_SCALE, 1.0)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    _floats_only(input, "celu", "elu_cpu")
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    op = ops.Celu_ if inplace else ops.Celu
    return _run(input, inplace, "celu", op, alpha, 1.0, 1.0 / alpha)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold."""
    _floats_only(input, "softplus", "softplus_cpu")
    return ops.Softplus.apply(input, beta, threshold)


def hardtanh(
    input: Tensor,  # noqa: A002
    min_val: float = -1.0,
    max_val: float = 1.0,
    inplace: bool = False,
) -> Tensor:
    """x clipped to [min_val, max_val] (integer tensors too, as in PyTorch)."""
    expect_tensor(input, "hardtanh")
    if input._data.dtype == np.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return _run(input, inplace, "hardtanh", ops.Hardtanh, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """min(max(x, 0), 6): ``hardtanh(x, 0, 6)``."""
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """log(sigmoid(x)), computed without overflow."""
    _floats_only(input, "log_sigmoid", "log_sigmoid_cpu")
    return ops.LogSigmoid.apply(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * tanh(softplus(x))."""
    _floats_only(input, "mish", "mish_cpu")
    return _run(input, inplace, "mish", ops.Mish)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * relu6(x + 3) / 6 (MobileNet's activation)."""
    _floats_only(input, "hardswish", "hardswish_cpu")
    return _run(input, inplace, "hardswish", ops.Hardswish)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """relu6(x + 3) / 6."""
    _floats_only(input, "hardsigmoid", "hardsigmoid_cpu")
    return _run(input, inplace, "hardsigmoid", ops.Hardsigmoid)


def softmin(
    input: Tensor,  # noqa: A002
    dim: int | None = None,
    _stacklevel: int = 3,
    dtype: Any = None,
) -> Tensor:
    """softmax(-x) along ``dim``."""
    if dim is None:
        warn(
            "Implicit dimension choice for softmin has been deprecated. Change the call to "
            "include dim=X as an argument.",
        )
        dim = 0 if input._data.ndim in (0, 1, 3) else 1
    return red.softmax(-input, dim, dtype)


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """x - tanh(x)."""
    return input - input.tanh()
