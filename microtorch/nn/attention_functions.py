"""``scaled_dot_product_attention``, recorded as PyTorch records it on the CPU: one fused
node where PyTorch runs its fused kernel, else the ops of its "math" path (matmul,
``_safe_softmax``, dropout), so the graph ends in PyTorch's nodes either way.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import linalg
from microtorch.api._checks import expect_tensor
from microtorch.api.sequences import repeat_interleave
from microtorch.nn.attention_ops import SafeSoftmax, ScaledDotProductFlashAttentionForCpu
from microtorch.nn.dropout_functions import dropout
from microtorch.ops.scalar import MulScalar
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["scaled_dot_product_attention", "canonical_mask"]

# C++'s names for the dtypes, as PyTorch's attention checks print them
_CNAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
    "uint8": "unsigned char", "bool": "bool",
}  # fmt: skip


def _cname(t: Tensor) -> str:
    return _CNAMES.get(t._dtype.name, t._dtype.name)


def _check_sdpa(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None) -> None:
    for position, (name, t) in enumerate((("query", query), ("key", key), ("value", value)), 1):
        expect_tensor(t, "scaled_dot_product_attention", name, position)
    if not query._dtype is key._dtype is value._dtype:
        raise RuntimeError(
            f"Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_cname(query)} key.dtype: {_cname(key)} and value.dtype: {_cname(value)} "
            "instead. (Fix: convert all three, e.g. .float())"
        )
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
            "instead. (Fix: shape them (..., L, E), (..., S, E) and (..., S, Ev))"
        )
    if attn_mask is not None and not (
        attn_mask._dtype.name == "bool" or attn_mask._dtype is query._dtype
    ):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {_cname(attn_mask)} and  query.dtype: {_cname(query)} instead. "
            "(Fix: pass a bool mask, True where attending is allowed, or one of query's dtype)"
        )
    if not query._dtype.is_floating_point:
        raise RuntimeError(
            f"expected scalar type Float but found {query._dtype._legacy[:-6]} "
            "(Fix: attention needs floats, e.g. q.float())"
        )


def _fused(
    query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None, dropout_p: float, gqa: bool
) -> bool:
    # PyTorch 2.13's choice of its fused CPU kernel over the math path (what decides the node)
    if not query.dim() == key.dim() == value.dim() == 4 or dropout_p > 0:
        return False
    if not query.shape[-1] == key.shape[-1] == value.shape[-1]:
        return False
    if not query.shape[0] == key.shape[0] == value.shape[0] or key.shape[1] != value.shape[1]:
        return False
    heads, kv_heads = query.shape[1], key.shape[1]
    if heads != kv_heads and not (gqa and kv_heads and heads % kv_heads == 0):
        return False
    if 0 in (query.shape[-2], key.shape[-2], query.shape[-1]):
        return False
    if any(t._data.strides[-1] != t._data.itemsize for t in (query, key, value)):
        return False  # (the last dimension must be dense)
    return mask is None or mask.dim() in (2, 4) and not mask.requires_grad  # (no mask grad)


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """softmax(q @ k^T * scale + mask) @ v, recorded as PyTorch's CPU build records it.

    4-d inputs with one head size and no dropout: one node for the whole of attention,
    ``ScaledDotProductFlashAttentionForCpuBackward0`` (PyTorch's fused kernel, whose
    results differ from these by rounding only); otherwise PyTorch's math path, two batched
    matmuls around ``SafeSoftmaxBackward0``. A bool ``attn_mask`` is True where a query may
    attend; a float one is added to the scores. ``is_causal`` masks the future (a
    lower-triangular mask). Rows that may attend to nothing give 0s, not NaNs.

    >>> import microtorch as torch
    >>> q = torch.ones(1, 2, 3)
    >>> torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True).shape
    microtorch.Size([1, 2, 3])
    """
    _check_sdpa(query, key, value, attn_mask)
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True (Fix: pass one of the two)"
        )
    if not 0 <= dropout_p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    size = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    if attn_mask is not None and attn_mask._dtype.name == "bool":  # True: may attend
        added = np.where(attn_mask._data, 0, -np.inf).astype(query._data.dtype)
        attn_mask = plain_tensor(added, query._device)
    if _fused(query, key, value, attn_mask, dropout_p, enable_gqa):
        mask = None if attn_mask is None else attn_mask._data
        return ScaledDotProductFlashAttentionForCpu.apply(query, key, value, size, mask, is_causal)
    if enable_gqa and key.dim() >= 3 and query.shape[-3] != key.shape[-3]:
        # grouped-query attention: each key/value head serves several query heads
        key = repeat_interleave(key, query.shape[-3] // key.shape[-3], -3)
        value = repeat_interleave(value, query.shape[-3] // value.shape[-3], -3)
    root = math.sqrt(abs(size))  # q and k are each scaled by sqrt(scale), as in PyTorch
    q = MulScalar.apply(query, -root if size < 0 else root)  # (L, E) per batch and head
    k = MulScalar.apply(key.transpose(-2, -1), root)  # (E, S)
    scores = linalg.matmul(q, k)  # (..., L, S)
    if is_causal:
        allowed = np.tril(np.ones((query.shape[-2], key.shape[-2]), bool))
        causal = np.where(allowed, 0, -np.inf).astype(query._data.dtype)
        attn_mask = plain_tensor(causal, query._device)
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = SafeSoftmax.apply(scores, -1)
    if dropout_p > 0:
        weights = dropout(weights, dropout_p)
    return linalg.matmul(weights, value)  # (..., L, Ev)


def canonical_mask(
    mask: Tensor | None, name: str, dtype: Any, other: Tensor | None = None, other_name: str = ""
) -> Tensor | None:
    """A bool mask (True: masked) as a float one (-inf: masked, else 0); float masks as is.
    PyTorch warns when ``mask`` and the ``other`` mask given with it differ in dtype."""
    if mask is None:
        return None
    if mask._dtype.name != "bool" and not mask._dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if other is not None and other._dtype is not mask._dtype:
        warn(
            f"Support for mismatched {name} and {other_name} is deprecated. Use same type for "
            "both instead.",
        )
    if mask._dtype.is_floating_point:
        return mask
    return plain_tensor(np.where(mask._data, -np.inf, 0).astype(dtype.numpy), mask._device)
