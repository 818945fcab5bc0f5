"""``torch.conv1d``, ``torch.max_pool1d``, ``torch.batch_norm``, ``torch.embedding`` ...: the
layers as PyTorch's ``torch`` namespace has them, with its own (aten) signatures.

They differ from ``nn.functional``'s in their arguments only: ``torch.batch_norm`` takes
``weight, bias`` before the running statistics and needs every argument; ``torch.embedding``
takes the weight first and ``padding_idx=-1`` for none; a pool's ``stride=[]`` means the
kernel size; ``torch.adaptive_max_pool1d`` always returns the indices. Each one calls
``nn.functional``'s function, so the values, gradients and ``grad_fn`` names are its.
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, parsed
from microtorch.nn import conv_transpose_functions, norm_more_functions, pool3d_functions
from microtorch.nn import functional as F
from microtorch.tensor import Tensor

__all__ = [
    "adaptive_max_pool1d", "avg_pool1d", "batch_norm", "convolution", "embedding", "group_norm",
    "instance_norm", "layer_norm", "max_pool1d", "max_pool1d_with_indices", "max_pool2d",
    "max_pool3d",
]  # fmt: skip


def _stride(stride: Any) -> Any:
    # aten's stride=[] (its default) means "the kernel size", which F spells None
    return None if isinstance(stride, (list, tuple)) and len(stride) == 0 else stride


@parsed(
    "max_pool1d",
    (
        "Tensor input, tuple of ints kernel_size, tuple of ints stride=[], "
        "tuple of ints padding=[0], tuple of ints dilation=[1], bool ceil_mode=False"
    ),
)
def max_pool1d(
    input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """``F.max_pool1d`` (no ``return_indices``: see ``max_pool1d_with_indices``)."""
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


@parsed(
    "max_pool1d_with_indices",
    (
        "Tensor input, tuple of ints kernel_size, tuple of ints stride=[], "
        "tuple of ints padding=[0], tuple of ints dilation=[1], bool ceil_mode=False"
    ),
)
def max_pool1d_with_indices(
    input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:  # fmt: skip
    """``F.max_pool1d(..., return_indices=True)``: the maxima and where they were."""
    return pool3d_functions.max_pool1d_with_indices(
        input, kernel_size, _stride(stride), padding, dilation, ceil_mode
    )


@parsed(
    "max_pool2d",
    (
        "Tensor input, tuple of ints kernel_size, tuple of ints stride=[], "
        "tuple of ints padding=0, "
        "tuple of ints dilation=1, bool ceil_mode=False"
    ),
)
def max_pool2d(
    input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """``F.max_pool2d`` (no ``return_indices``)."""
    return F.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


@parsed(
    "max_pool3d",
    (
        "Tensor input, tuple of ints kernel_size, tuple of ints stride=[], "
        "tuple of ints padding=0, "
        "tuple of ints dilation=1, bool ceil_mode=False"
    ),
)
def max_pool3d(
    input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,  # noqa: A002
    dilation: Any = 1, ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """``F.max_pool3d`` (no ``return_indices``)."""
    return pool3d_functions.max_pool3d(
        input, kernel_size, _stride(stride), padding, dilation, ceil_mode
    )


@parsed(
    "avg_pool1d",
    (
        "Tensor input, tuple of ints kernel_size, tuple of ints stride=[], "
        "tuple of ints padding=[0], bool ceil_mode=False, bool count_include_pad=True, *, "
        "Tensor out=None"
    ),
)
def avg_pool1d(
    input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,  # noqa: A002
    ceil_mode: bool = False, count_include_pad: bool = True,
) -> Tensor:  # fmt: skip
    """``F.avg_pool1d``."""
    return F.avg_pool1d(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad)


@parsed(
    "adaptive_max_pool1d",
    "Tensor input, tuple of ints output_size",
)
def adaptive_max_pool1d(input: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:  # noqa: A002
    """``F.adaptive_max_pool1d(..., return_indices=True)``: always the maxima and indices."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def convolution(
    input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,  # noqa: A002
    dilation: Any, transposed: bool, output_padding: Any, groups: int,
) -> Tensor:  # fmt: skip
    """``conv{1,2,3}d`` or, with ``transposed``, ``conv_transpose{1,2,3}d``: the dimension
    from ``input`` (batched, N + 2 dims)."""
    expect_tensor(input, "convolution")
    expect_tensor(weight, "convolution", "weight", 2)
    n = max(input._data.ndim - 2, 1)
    for name, value in (("stride", stride), ("padding", padding), ("dilation", dilation)):
        if len(value) not in (1, n):
            raise RuntimeError(
                f"expected {name} to be a single integer value or a list of {n} values to "
                f"match the convolution dimensions, but got {name}={list(value)}"
            )
    if transposed:
        transpose = (
            conv_transpose_functions.conv_transpose1d,
            conv_transpose_functions.conv_transpose2d,
            conv_transpose_functions.conv_transpose3d,
        )[n - 1]
        return transpose(input, weight, bias, stride, padding, output_padding, groups, dilation)
    conv = (F.conv1d, F.conv2d, F.conv3d)[n - 1]
    return conv(input, weight, bias, stride, padding, dilation, groups)


def batch_norm(
    input: Tensor, weight: Tensor | None, bias: Tensor | None,  # noqa: A002
    running_mean: Tensor | None, running_var: Tensor | None, training: bool, momentum: float,
    eps: float, cudnn_enabled: bool,
) -> Tensor:  # fmt: skip
    """``F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
    eps)`` (``cudnn_enabled`` is for GPUs)."""
    if not training and (running_mean is None or running_var is None):
        which = "running_mean" if running_mean is None else "running_var"
        raise RuntimeError(f"{which} must be defined in evaluation mode")
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(
    input: Tensor, weight: Tensor | None, bias: Tensor | None,  # noqa: A002
    running_mean: Tensor | None, running_var: Tensor | None, use_input_stats: bool,
    momentum: float, eps: float, cudnn_enabled: bool,
) -> Tensor:  # fmt: skip
    """``F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
    momentum, eps)``."""
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    return norm_more_functions.instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


@parsed(
    "group_norm",
    (
        "Tensor input, int num_groups, Tensor weight=None, Tensor bias=None, "
        "float eps=1.0000000000000001e-05, bool cudnn_enabled=True"
    ),
)
def group_norm(
    input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
    bias: Tensor | None = None, eps: float = 1e-05, cudnn_enabled: bool = True,
) -> Tensor:  # fmt: skip
    """``F.group_norm``."""
    return F.group_norm(input, num_groups, weight, bias, eps)


@parsed(
    "layer_norm",
    (
        "Tensor input, tuple of ints normalized_shape, Tensor weight=None, Tensor bias=None, "
        "float eps=1.0000000000000001e-05, bool cudnn_enable=True"
    ),
)
def layer_norm(
    input: Tensor, normalized_shape: Any, weight: Tensor | None = None,  # noqa: A002
    bias: Tensor | None = None, eps: float = 1e-05, cudnn_enable: bool = True,
) -> Tensor:  # fmt: skip
    """``F.layer_norm``; ``normalized_shape`` a tuple or list of ints."""
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(
            "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
            f"{type(normalized_shape).__name__}"
        )
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


@parsed(
    "embedding",
    "Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, "
    "bool sparse=False",
)
def embedding(
    weight: Tensor, indices: Tensor, padding_idx: int = -1,
    scale_grad_by_freq: bool = False, sparse: bool = False,
) -> Tensor:  # fmt: skip
    """``F.embedding(indices, weight, ...)``: rows of ``weight``; a negative ``padding_idx``
    (the default -1) means none (F counts it from the end instead)."""
    expect_tensor(weight, "embedding", "weight", 1)
    expect_tensor(indices, "embedding", "indices", 2)
    expect_int(padding_idx, "padding_idx")
    if indices._dtype.name not in ("int64", "int32"):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{indices._dtype._legacy} instead (while checking "
            "arguments for embedding) (Fix: integer indices, e.g. x.long())"
        )
    if weight._data.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    padding = padding_idx if 0 <= padding_idx < weight._data.shape[0] else None
    return F.embedding(indices, weight, padding, None, 2.0, scale_grad_by_freq, sparse)
