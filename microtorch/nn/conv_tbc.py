"""torch.nn.functional.conv_tbc: PyTorch's argument checks and errors around ``ConvTbc``."""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor, type_name
from microtorch.nn.conv_tbc_ops import ConvTbc

__all__ = ["conv_tbc"]


def conv_tbc(input: Any, weight: Any, bias: Any, pad: int = 0) -> Any:  # noqa: A002
    """A 1-d convolution over time of ``input`` (time, batch, in_channels) with ``weight``
    (kernel_width, in_channels, out_channels) and ``bias`` (out_channels), ``pad`` zeros at
    both ends of time; the result is (time', batch, out_channels)."""
    expect_tensor(input, "conv_tbc")
    expect_tensor(weight, "conv_tbc", "weight", 2)
    if bias is None or not hasattr(bias, "_data"):
        raise TypeError(
            f"conv_tbc(): argument 'bias' (position 3) must be Tensor, not {type_name(bias)}"
        )
    if input._data.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight._data.ndim != 3:
        raise RuntimeError(
            "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels."
        )
    if bias._data.ndim != 1 or bias.shape[0] != weight.shape[2]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    t_out = input.shape[0] + 2 * pad - weight.shape[0] + 1
    if t_out < 0:
        shape = [t_out, input.shape[1], weight.shape[2]]
        raise RuntimeError(f"Trying to create tensor with negative dimension {t_out}: {shape}")
    if not input._dtype is weight._dtype is bias._dtype:
        names = {"float32": "Float", "float64": "Double", "float16": "Half"}
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {names.get(input._dtype.name)} "
            f"and {names.get(weight._dtype.name)}"
        )
    return ConvTbc.apply(input, weight, bias, int(pad))
