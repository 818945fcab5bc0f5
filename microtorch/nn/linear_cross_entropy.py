"""``F.linear_cross_entropy`` and ``nn.LinearCrossEntropyLoss``: the cross entropy of a
linear layer's logits, ``cross_entropy(linear(input, W, b), target)`` (issue 24).

Without ``options`` it is exactly that composition, so its graph is ``linear``'s and
``cross_entropy``'s. With ``options`` (``nn.LinearCrossEntropyOptions``) PyTorch runs a
chunked path, one node whose gradients are computed in forward (``linear_cross_entropy_ops``);
for what that path does not take (class probabilities, label smoothing, a K-dimensional
loss) it warns and falls back to the composition, and so does microtorch.
"""

from __future__ import annotations

import math
from typing import Any

from microtorch import dtypes
from microtorch._warn import warn
from microtorch.nn.linear import Linear
from microtorch.nn.linear_cross_entropy_ops import (
    LinearCrossEntropyChunked,
    LinearCrossEntropyChunkedNoReduction,
)
from microtorch.nn.linear_cross_entropy_options import LinearCrossEntropyOptions
from microtorch.nn.linear_functions import linear
from microtorch.nn.loss import _WeightedLoss
from microtorch.nn.loss_functions import cross_entropy
from microtorch.tensor import Tensor

__all__ = ["LinearCrossEntropyLoss", "linear_cross_entropy"]

# the C++ names PyTorch's matrix product gives dtypes in its error
_C_NAMES = {
    "microtorch.float32": "float", "microtorch.float64": "double",
    "microtorch.float16": "c10::Half", "microtorch.int64": "long int", "microtorch.int32": "int",
}  # fmt: skip


def linear_cross_entropy(
    input: Tensor, linear_weight: Tensor, target: Tensor, *,  # noqa: A002
    linear_bias: Tensor | None = None, weight: Tensor | None = None, reduction: str = "mean",
    ignore_index: int | None = None, label_smoothing: float = 0.0,
    options: LinearCrossEntropyOptions | None = None,
) -> Tensor:  # fmt: skip
    """``cross_entropy(linear(input, linear_weight, linear_bias), target)``; ``linear_weight``
    (C, d_1, ..., d_K, in_features) gives a K-dimensional loss. ``ignore_index`` None is -100
    for class indices."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(
            f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}"
        )
    batch, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), got "
            f"{in_features} and {linear_weight.shape[-1]}, respectively"
        )
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(
            f"expected linear_bias shape {(classes, *out_features)}, got {tuple(linear_bias.shape)}"
        )
    if out_features and not batch:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(input.shape)}"
        )
    logits_shape = (*batch, classes, *out_features)
    probabilities = tuple(target.shape) == logits_shape  # (as cross_entropy tells them)
    if probabilities and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore = -100 if ignore_index is None else ignore_index
    if options is not None:
        chunked = (
            not out_features
            and reduction in ("mean", "sum", "none")
            and label_smoothing == 0.0
            and target._dtype is dtypes.int64
        )
        if chunked:
            return _chunked(
                input, linear_weight, target, linear_bias, weight, reduction, ignore, options
            )
        warn(
            "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
            "{'mean','sum','none'}, label_smoothing == 0, target.dtype == int64, "
            f"out_features == (). Got reduction={reduction!r}, label_smoothing="
            f"{label_smoothing}, target.dtype={target.dtype}, out_features={out_features}, "
            "tracing=False, linear_bias.shape="
            f"{None if linear_bias is None else tuple(linear_bias.shape)}."
        )
    if out_features:  # one Linear of C * d_1 * ... * d_K outputs, its logits reshaped
        flat = math.prod(out_features, start=classes)
        linear_weight = linear_weight.reshape(flat, in_features)
        linear_bias = None if linear_bias is None else linear_bias.reshape(flat)
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=ignore, label_smoothing=label_smoothing)  # fmt: skip


def _chunked(
    input: Tensor, linear_weight: Tensor, target: Tensor, linear_bias: Tensor | None,  # noqa: A002
    weight: Tensor | None, reduction: str, ignore_index: int, options: LinearCrossEntropyOptions,
) -> Tensor:  # fmt: skip
    # PyTorch's chunked path: (N, in_features) rows, one node (see linear_cross_entropy_ops)
    batched = input.dim() == 2
    x = input if batched else input.unsqueeze(0)
    labels = (target if batched else target.unsqueeze(0))._data
    resolved = options._adjust(x.shape[0], x.shape[1], linear_weight.shape[0], input._dtype)
    if resolved.acc_dtype is not input._dtype:
        raise RuntimeError(
            "linear_cross_entropy supports float32 acc_dtype with float16/bfloat16 inputs, but "
            f"got {resolved.acc_dtype} acc_dtype and {input.dtype} inputs."
        )
    if input._dtype is not linear_weight._dtype:  # (PyTorch's mm speaks here)
        names = (_C_NAMES.get(str(t.dtype), str(t.dtype)) for t in (input, linear_weight))
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: {} != {}".format(*names)
        )
    if labels.ndim != 1:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    if labels.shape[0] != x.shape[0]:
        raise RuntimeError(
            f"linear_cross_entropy: expected target of {x.shape[0]} class indices, got "
            f"{labels.shape[0]}"
        )
    w = None if weight is None else weight._data  # (a class weight is data: no edge)
    if reduction == "none":
        result = LinearCrossEntropyChunkedNoReduction.apply(
            x, linear_weight, labels, linear_bias, w, ignore_index
        )
    else:
        result = LinearCrossEntropyChunked.apply(
            x, linear_weight, labels, linear_bias, w, reduction, ignore_index,
            resolved.allow_retain_graph,
        )  # fmt: skip
    return result if batched else result.squeeze(0)


class LinearCrossEntropyLoss(_WeightedLoss):
    """A Linear layer of ``num_classes * prod(out_features)`` outputs followed by the cross
    entropy: ``F.linear_cross_entropy`` with the layer's weight reshaped to
    (num_classes, *out_features, in_features)."""

    def __init__(
        self, in_features: int, num_classes: int, *, out_features: tuple[int, ...] = (),
        bias: bool = False, device: Any = None, dtype: Any = None, reduction: str = "mean",
        weight: Tensor | None = None, ignore_index: int | None = None,
        label_smoothing: float = 0.0, options: LinearCrossEntropyOptions | None = None,
    ) -> None:  # fmt: skip
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(
                f"expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}"
            )
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(
                f"expected label_smoothing to be in range [0, 1], got {label_smoothing}"
            )
        super().__init__(weight=weight, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        # Linear's weight is 2-d: (C * d_1 * ... * d_K, in_features), reshaped in forward
        outputs = math.prod(out_features, start=num_classes)
        self.linear = Linear(in_features, outputs, bias=bias, device=device, dtype=dtype)
        self.options = options

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        shape = (self.num_classes, *self.out_features)
        bias = self.linear.bias
        return linear_cross_entropy(
            input, self.linear.weight.reshape(*shape, self.linear.in_features), target,
            linear_bias=None if bias is None else bias.reshape(shape), weight=self.weight,
            reduction=self.reduction, ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing, options=self.options,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return (
            f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
            f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
            f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
            f"label_smoothing={self.label_smoothing}, options={self.options}"
        )
