"""``linear``: y = x W^T + b, recorded as PyTorch records it (re-exported by ``functional``)."""

from __future__ import annotations

import numpy as np

from microtorch.api import linalg
from microtorch.api._checks import expect_tensor, views_first
from microtorch.autograd.views import as_view
from microtorch.nn import layer_ops
from microtorch.ops.shape import UnsafeView
from microtorch.tensor import Tensor

__all__ = ["linear"]


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """y = x @ W.T + b, recorded as PyTorch records it (``AddmmBackward0`` for a batch)."""
    expect_tensor(input, "linear")
    expect_tensor(weight, "linear", "weight", 2)
    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError(
            "both arguments to linear need to be at least 1D, but they are 0D and 2D"
        )
    k = input._data.shape[-1]
    if weight._data.shape[-1] != k:
        rows = int(np.prod(input._data.shape[:-1], dtype=np.int64))
        o, i = weight._data.shape
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {i}x{o}) (the last "
            f"dimension of the input, {k}, must equal in_features, {i})"
        )
    if bias is not None and bias._dtype is not weight._dtype:  # (addmm's check, the first)
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {bias._dtype._legacy[:-6]} and "
            f"{weight._dtype._legacy[:-6]} (Fix: convert one, e.g. bias.to(weight.dtype))"
        )
    if input._dtype is not weight._dtype:
        views_first(input, weight)
        got = (  # (PyTorch's words: addmm's with a bias, mm's without)
            f"mat1 and mat2 must have the same dtype, but got {input._dtype._legacy[:-6]} and "
            f"{weight._dtype._legacy[:-6]}"
            if bias is not None
            else "expected m1 and m2 to have the same dtype, but got: "
            f"{linalg.c_name(input._dtype)} != {linalg.c_name(weight._dtype)}"
        )
        raise RuntimeError(
            f"{got} (Fix: convert the input, e.g. x.float(), or the layer, e.g. "
            f"model.to(torch.{input._dtype.name}))"
        )
    wt = weight.t()  # TBackward0
    if bias is not None:
        if ndim == 2:
            return linalg.addmm(bias, input, wt)
        if not input.is_contiguous():  # PyTorch folds only a contiguous input into addmm
            return linalg.matmul(input, wt) + bias
        out = linalg.addmm(bias, input.reshape(-1, k), wt)  # inputs are flattened to 2-D
        return out.view(*input._data.shape[:-1], out._data.shape[-1])
    if ndim == 2:
        return linalg.mm(input, wt)
    if ndim == 1:
        out = linalg.mm(input.unsqueeze(0), wt)
        return as_view(layer_ops.SqueezeDims.apply(out, (0,)), out)
    out = linalg.mm(input.reshape(-1, k), wt)
    return UnsafeView.apply(out, (*input._data.shape[:-1], out._data.shape[-1]))
