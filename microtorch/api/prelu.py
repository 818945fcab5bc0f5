"""prelu (``torch.prelu``, ``F.prelu``, ``x.prelu``): PyTorch's checks of the weight around
the formula in ``microtorch/ops/prelu.py``."""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.ops.prelu import PreluKernel

__all__ = ["prelu"]


def prelu(input: Any, weight: Any) -> Any:  # noqa: A002
    """x where x > 0, else weight * x, with one learned slope per channel (dim 1) or one
    for all (``PreluKernelBackward0``)."""
    expect_tensor(input, "prelu")
    expect_tensor(weight, "prelu", "weight", 2)
    if weight._data.ndim > 1:
        raise RuntimeError(
            "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = "
            f"{weight._data.ndim}"
        )
    if input._dtype is not weight._dtype and not (
        input._dtype.is_floating_point and weight._dtype.is_floating_point
    ):
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {input._dtype._legacy[:-6]} and "
            f"{weight._dtype._legacy[:-6]}"
        )
    ndim = input._data.ndim
    channels = input._data.shape[1] if ndim >= 2 else 1
    n = weight._data.size
    if n != 1 and n != channels:
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{n} and channel size = {channels}."
        )
    if ndim >= 2:  # one slope per channel, broadcast over the positions after it
        weight = weight.view(n, *([1] * (ndim - 2)))
    return PreluKernel.apply(input, weight)
