"""``Bilinear`` and ``F.bilinear``: y = x1^T W x2 + b for each output feature, as PyTorch 2.13
records it (``ViewBackward0`` over ``TrilinearBackward0``, then ``AddBackward0`` for the
bias)."""

from __future__ import annotations

import math
from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.linalg import no_bool
from microtorch.dtypes import dtype as dtype_
from microtorch.nn import init
from microtorch.nn.bilinear_ops import Trilinear
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor

__all__ = ["Bilinear", "bilinear"]


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y[..., o] = sum over i, j of x1[..., i] weight[o, i, j] x2[..., j] + bias[o]."""
    expect_tensor(input1, "bilinear", "input1")
    expect_tensor(input2, "bilinear", "input2", 2)
    expect_tensor(weight, "bilinear", "weight", 3)
    s1, s2, sw = input1.shape, input2.shape, weight.shape
    if len(s1) != len(s2):
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {len(s1)} and {len(s2)}"
        )
    for i, (a, b) in enumerate(zip(s1[:-1], s2[:-1])):
        if a != b:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {i}: got {a} and {b}"
            )
    if s1[-1] != sw[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {s1[-1]} but expected {sw[1]}"
        )
    if s2[-1] != sw[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {s2[-1]} but expected {sw[2]}"
        )
    if bias is not None and bias.shape[0] != sw[0]:
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but "
            f"expected {sw[0]}"
        )
    if len({t._dtype for t in (input1, input2, weight)}) > 1:
        raise RuntimeError(
            f"expected scalar type {input1._dtype._legacy[:-6]} but found "
            f"{weight._dtype._legacy[:-6]} (Fix: convert the inputs or the layer to one dtype)"
        )
    if input1.numel() and weight.numel():  # (PyTorch's is made of bmm: no bool kernel)
        no_bool(input1, "bmm")
    flat1 = input1.reshape(-1, s1[-1])  # (N, I): every leading dim is a batch dim
    flat2 = input2.reshape(-1, s2[-1])
    out = Trilinear.apply(flat1, weight, flat2).reshape(*s1[:-1], sw[0])
    return out if bias is None else out + bias


class Bilinear(Module):
    """y = x1^T W_o x2 + b_o for each output feature o: ``(*, in1)`` and ``(*, in2)`` to
    ``(*, out)``. Weight and bias start uniform in +-1/sqrt(in1_features)."""

    def __init__(
        self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
        device: Any = None, dtype: dtype_ | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        shape = (out_features, in1_features, in2_features)
        self.weight = Parameter(_empty(shape, dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_features,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's: weight and bias from U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )
