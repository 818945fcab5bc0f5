"""``microtorch.nn.functional``: the layers and losses as plain functions (``import ... as F``).

Each function records the same graph PyTorch 2.13 records for the same call, so a student's
``loss.grad_fn`` reads ``NllLossBackward0`` here as it does in PyTorch. ``linear`` lives in
``linear_functions.py``, dropout in ``dropout_functions.py``, the losses in
``loss_functions.py``, convolution and pooling in ``conv_functions.py``, batch and layer norm
in ``norm_functions.py``, the less common activations in ``activation_functions.py``,
attention in ``attention_functions.py`` and ``mha_functions.py``; all are re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from microtorch import _coverage, _lazy
from microtorch._warn import warn
from microtorch.api import reduction as red
from microtorch.api import unary
from microtorch.api._checks import expect_tensor, type_name
from microtorch.api.inplace import apply_inplace
from microtorch.autograd.versions import bump_version
from microtorch.nn import layer_ops
from microtorch.nn.activation_functions import (
    celu,
    elu,
    hardsigmoid,
    hardswish,
    hardtanh,
    logsigmoid,
    mish,
    prelu,
    relu6,
    selu,
    silu,
    softmin,
    softplus,
    softsign,
    tanhshrink,
)
from microtorch.nn.alpha_dropout import alpha_dropout, feature_alpha_dropout
from microtorch.nn.conv_functions import (
    adaptive_avg_pool2d,
    avg_pool2d,
    conv1d,
    conv2d,
    conv3d,
    max_pool2d,
)
from microtorch.nn.dropout_functions import dropout, dropout1d, dropout2d, dropout3d
from microtorch.nn.linear_functions import linear
from microtorch.nn.loss_functions import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from microtorch.nn.norm_functions import batch_norm, group_norm, layer_norm
from microtorch.nn.pool_functions import (
    adaptive_avg_pool1d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    avg_pool1d,
    max_pool1d,
)
from microtorch.nn.shrink_functions import (
    celu_,
    elu_,
    glu,
    hardshrink,
    hardtanh_,
    leaky_relu_,
    relu_,
    rrelu,
    rrelu_,
    selu_,
    softshrink,
    threshold,
    threshold_,
)
from microtorch.nn.vector_functions import (
    cosine_similarity,
    kl_div,
    normalize,
    pad,
    pairwise_distance,
)
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "linear", "relu", "leaky_relu", "gelu", "sigmoid", "tanh", "softmax", "log_softmax", "dropout",
    "dropout1d", "dropout2d", "dropout3d", "embedding", "one_hot", "cross_entropy", "nll_loss",
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "conv1d", "conv2d", "conv3d", "max_pool2d", "avg_pool2d",
    "adaptive_avg_pool2d", "batch_norm", "max_pool1d", "avg_pool1d", "adaptive_avg_pool1d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "layer_norm", "group_norm", "silu", "elu",
    "selu", "celu", "softplus", "hardtanh", "relu6", "logsigmoid", "mish", "hardswish",
    "hardsigmoid", "softmin", "softsign", "tanhshrink", "pad", "normalize", "cosine_similarity",
    "pairwise_distance", "kl_div", "prelu", "celu_", "elu_", "glu", "hardshrink", "hardtanh_",
    "leaky_relu_", "relu_", "rrelu", "rrelu_", "selu_", "softshrink", "threshold", "threshold_",
    "alpha_dropout", "feature_alpha_dropout",
]  # fmt: skip


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """max(x, 0) element-wise."""
    return input.relu_() if inplace else unary.relu(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > 0, else ``negative_slope * x``."""
    expect_tensor(input, "leaky_relu")
    if not input._dtype.is_floating_point:  # (PyTorch's kernel has no integer version)
        raise NotImplementedError(
            f"\"leaky_relu_cpu\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )
    if inplace:
        return apply_inplace(input, "leaky_relu_", layer_ops.LeakyRelu_.apply, negative_slope)
    return layer_ops.LeakyRelu.apply(input, float(negative_slope))


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    """x * Phi(x), Phi the standard normal CDF (``approximate='tanh'``: PyTorch's tanh
    formula for it); ``GeluBackward0``."""
    expect_tensor(input, "gelu")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"GeluKernelImpl\" not implemented for '{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )
    return layer_ops.Gelu.apply(input, approximate)


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """1 / (1 + exp(-x)) element-wise."""
    _method_of_tensor(input, "sigmoid")
    return unary.sigmoid(input)


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    """tanh(x) element-wise."""
    _method_of_tensor(input, "tanh")
    return unary.tanh(input)


def _method_of_tensor(value: Any, name: str) -> None:
    # PyTorch's F.sigmoid(x) is x.sigmoid(), so a list fails with this AttributeError.
    if not isinstance(value, Tensor):
        raise AttributeError(
            f"'{type(value).__name__}' object has no attribute '{name}' (Fix: pass a tensor, "
            "e.g. torch.tensor([1.0, 2.0]))"
        )


def _softmax_dim(name: str, ndim: int) -> int:
    warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """exp(x) / sum(exp(x)) along ``dim``."""
    if dim is None:
        dim = _softmax_dim("softmax", input._data.ndim)
    return red.softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int | None = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """log(softmax(x)) along ``dim``, computed stably."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input._data.ndim)
    return red.log_softmax(input, dim, dtype)


def embedding(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of ``weight`` picked by the integer ``input`` (``EmbeddingBackward0``)."""
    expect_tensor(weight, "embedding", "weight", 1)
    expect_tensor(input, "embedding", "indices", 2)
    n = weight._data.shape[0] if weight._data.ndim else 0
    if padding_idx is not None:
        if not -n <= padding_idx < n:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if isinstance(padding_idx, (bool, float)):  # (torch.embedding's parser, after F's check)
            raise TypeError(
                "embedding(): argument 'padding_idx' (position 3) must be int, not "
                f"{type_name(padding_idx)}"
            )
        padding_idx %= n
    if weight._data.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    indices = input._data
    if indices.dtype.kind not in "iu":
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got microtorch.{input._dtype._legacy} instead (while "
            "checking arguments for embedding) (Fix: pass integer indices, e.g. x.long())"
        )
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        raise IndexError(
            f"index out of range in self (indices must be in [0, {n - 1}] for an embedding with "
            f"{n} rows; got {int(indices.min())}..{int(indices.max())})"
        )
    if sparse:
        raise NotImplementedError(
            "embedding(sparse=True): microtorch has no sparse tensors, so no sparse gradients "
            "(Fix: sparse=False; weight.grad is then a dense tensor, of the same values)"
        )
    if max_norm is not None:
        _renorm_rows(weight, indices, max_norm, norm_type)
    return layer_ops.Embedding.apply(weight, indices, padding_idx, scale_grad_by_freq)


def _renorm_rows(weight: Tensor, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    # PyTorch rescales, in place and outside the graph, the looked-up rows longer than max_norm.
    rows = np.unique(indices)
    norms = np.linalg.norm(weight._data[rows], ord=norm_type, axis=1, keepdims=True)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(weight._data.dtype)
    weight._data[rows] *= scale
    bump_version(weight)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices as rows of 0s with a 1 at the index (int64)."""
    expect_tensor(tensor, "one_hot")
    data = tensor._data
    if data.dtype != np.int64:
        raise RuntimeError(
            "one_hot is only applicable to index tensor of type LongTensor. (Fix: x.long())"
        )
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    n = int(data.max()) + 1 if num_classes == -1 else num_classes
    if data.size and data.max() >= n:
        raise RuntimeError(
            f"Class values must be smaller than num_classes. (the largest is {int(data.max())}"
            f", num_classes is {n})"
        )
    return plain_tensor((data[..., None] == np.arange(n)).astype(np.int64))


# Rarely used functions, imported on first use (``F.conv_transpose2d``, ``F.interpolate``:
# microtorch/_lazy.py); a name not in the table raises an error that says what to use instead.
ON_FIRST_USE = {
    **_lazy.names("microtorch.nn.affine_grid", "affine_grid"),
    **_lazy.names("microtorch.nn.attention_functions", "scaled_dot_product_attention"),
    **_lazy.names("microtorch.nn.bilinear", "bilinear"),
    **_lazy.names("microtorch.nn.conv_tbc", "conv_tbc"),  # (walkg)
    **_lazy.names("microtorch.nn.ctc_functions", "ctc_loss"),  # (walki)
    **_lazy.names("microtorch.nn.linear_cross_entropy", "linear_cross_entropy"),  # (walki)
    **_lazy.names(
        "microtorch.nn.conv_transpose_functions",
        "conv_transpose1d conv_transpose2d conv_transpose3d",
    ),
    **_lazy.names("microtorch.nn.embedding_bag", "embedding_bag"),
    **_lazy.names("microtorch.nn.fold_functions", "fold unfold"),
    **_lazy.names(
        "microtorch.nn.fractional_pool_functions",
        "fractional_max_pool2d fractional_max_pool2d_with_indices fractional_max_pool3d "
        "fractional_max_pool3d_with_indices",
    ),
    **_lazy.names("microtorch.nn.gumbel", "gumbel_softmax"),
    **_lazy.names(
        "microtorch.nn.loss_more_functions",
        "gaussian_nll_loss multilabel_soft_margin_loss pdist poisson_nll_loss "
        "triplet_margin_with_distance_loss",
    ),
    **_lazy.names(
        "microtorch.nn.margin_loss_functions",
        "cosine_embedding_loss hinge_embedding_loss margin_ranking_loss multi_margin_loss "
        "multilabel_margin_loss soft_margin_loss triplet_margin_loss",
    ),
    **_lazy.names("microtorch.nn.mha_functions", "multi_head_attention_forward"),
    **_lazy.names("microtorch.nn.norm_more_functions", "instance_norm rms_norm"),
    **_lazy.names(
        "microtorch.nn.pool3d_functions",
        "adaptive_avg_pool3d adaptive_max_pool1d_with_indices "
        "adaptive_max_pool2d_with_indices adaptive_max_pool3d "
        "adaptive_max_pool3d_with_indices avg_pool3d local_response_norm lp_pool1d "
        "lp_pool2d lp_pool3d max_pool1d_with_indices max_pool2d_with_indices max_pool3d "
        "max_pool3d_with_indices max_unpool1d max_unpool2d max_unpool3d",
    ),
    **_lazy.names(
        "microtorch.nn.shuffle_functions", "channel_shuffle pixel_shuffle pixel_unshuffle"
    ),
    **_lazy.names(
        "microtorch.nn.upsampling", "interpolate upsample upsample_bilinear upsample_nearest"
    ),
}
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _lazy.module_getattr(
        globals(), ON_FIRST_USE, _coverage.module_getattr("torch.nn.functional", __name__)
    )
    __dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)
__all__ += list(ON_FIRST_USE)
