"""``multi_head_attention_forward``: the function behind ``nn.MultiheadAttention``.

Written as PyTorch's own (``torch/nn/functional.py``) computes it: project q, k and v, split
the heads, then either the explicit path (``need_weights=True``: ``bmm``, softmax, ``bmm``,
so the weights can be returned) or ``scaled_dot_product_attention``.
"""

from __future__ import annotations

import math
from typing import Any

from microtorch.api import join, linalg
from microtorch.api.reduction import softmax
from microtorch.creation import zeros
from microtorch.nn.attention_functions import canonical_mask, scaled_dot_product_attention
from microtorch.nn.attention_ops import Baddbmm
from microtorch.nn.dropout_functions import dropout
from microtorch.nn.linear_functions import linear
from microtorch.nn.vector_functions import pad
from microtorch.tensor import Tensor

__all__ = ["multi_head_attention_forward"]


def _in_projection(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    weights: tuple[Tensor, Tensor, Tensor] | Tensor,
    bias: Tensor | None,
) -> tuple[Tensor, Tensor, Tensor]:
    # One packed (3E, E) weight: self-attention projects once and splits the result, as
    # PyTorch does; separate weights (kdim, vdim) project each input with its own.
    biases = (None, None, None) if bias is None else bias.chunk(3)
    if isinstance(weights, Tensor):
        e = query.shape[-1]
        if query is key and key is value:
            proj = linear(query, weights, bias)  # (L, N, 3E)
            proj = proj.view(*proj.shape[:-1], 3, e).unsqueeze(0).transpose(0, -2)
            proj = proj.squeeze(-2).contiguous()  # (3, L, N, E)
            return proj[0], proj[1], proj[2]
        if key is value:
            w_q, w_kv = weights.split([e, 2 * e])
            b_q, b_kv = (None, None) if bias is None else bias.split([e, 2 * e])
            kv = linear(key, w_kv, b_kv)
            kv = kv.view(*kv.shape[:-1], 2, e).unsqueeze(0).transpose(0, -2)
            kv = kv.squeeze(-2).contiguous()  # (2, S, N, E)
            return linear(query, w_q, b_q), kv[0], kv[1]
        weights = weights.chunk(3)
    return (
        linear(query, weights[0], biases[0]),
        linear(key, weights[1], biases[1]),
        linear(value, weights[2], biases[2]),
    )


def _check_mha_shapes(
    query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Any, attn_mask: Any, heads: int
) -> bool:
    # PyTorch's checks (AssertionErrors); True for a batch (3-D query), False for one sequence
    batched = query.dim() == 3
    if query.dim() not in (2, 3):
        raise AssertionError(
            "query should be unbatched 2D or batched 3D tensor but received "
            f"{query.dim()}-D query tensor"
        )
    kind, n = ("batched (3-D)", 3) if batched else ("unbatched (2-D)", 2)
    if key.dim() != n or value.dim() != n:
        raise AssertionError(
            f"For {kind} `query`, expected `key` and `value` to be {n}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively"
        )
    if key_padding_mask is not None and key_padding_mask.dim() != n - 1:
        raise AssertionError(
            f"For {kind} `query`, expected `key_padding_mask` to be `None` or {n - 1}-D but "
            f"found {key_padding_mask.dim()}-D tensor instead"
        )
    if attn_mask is not None and attn_mask.dim() not in (2, 3):
        raise AssertionError(
            f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
            f"{attn_mask.dim()}-D tensor instead"
        )
    if not batched and attn_mask is not None and attn_mask.dim() == 3:
        expected = (heads, query.shape[0], key.shape[0])
        if tuple(attn_mask.shape) != expected:
            raise AssertionError(
                f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}"
            )
    return batched


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Tensor | None,
    in_proj_bias: Tensor | None,
    bias_k: Tensor | None,
    bias_v: Tensor | None,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias: Tensor | None,
    training: bool = True,
    key_padding_mask: Tensor | None = None,
    need_weights: bool = True,
    attn_mask: Tensor | None = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Tensor | None = None,
    k_proj_weight: Tensor | None = None,
    v_proj_weight: Tensor | None = None,
    static_k: Tensor | None = None,
    static_v: Tensor | None = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention over (L, N, E) inputs (or unbatched (L, E)); returns the output
    and, with ``need_weights``, the attention weights (averaged over the heads by default).
    Bool masks are True where attending is *not* allowed (the opposite of sdpa's)."""
    batched = _check_mha_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:  # one sequence: a batch of one
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask = canonical_mask(
        key_padding_mask, "key_padding_mask", query._dtype, attn_mask, "attn_mask"
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # sdpa builds the causal mask itself
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", query._dtype)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                f"{value.shape[:2]}"
            )
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(
                    f"use_separate_proj_weight is True but {name}_proj_weight is None"
                )
        weights: Any = (q_proj_weight, k_proj_weight, v_proj_weight)
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        weights = in_proj_weight
    q, k, v = _in_projection(query, key, value, weights, in_proj_bias)
    src_len = key.shape[0]
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                    f"{(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(
                f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                f"{(bsz * num_heads, tgt_len, src_len)}."
            )
    if (bias_k is None) != (bias_v is None):
        which = (
            "bias_k is set but bias_v is None"
            if bias_v is None
            else "bias_v is set but bias_k is None"
        )
        raise AssertionError(which)
    if bias_k is not None and bias_v is not None:  # one more key and value, learnt
        k = join.cat([k, bias_k.repeat(1, bsz, 1)])
        v = join.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    # heads: (L, N, E) -> (N * heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
         if static_k is None else static_k)  # fmt: skip
    v = (v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
         if static_v is None else static_v)  # fmt: skip
    if add_zero_attn:  # one more key and value, all zeros
        zero = zeros((bsz * num_heads, 1, head_dim), dtype=k._dtype)
        k, v = join.cat([k, zero], 1), join.cat([v, zero], 1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(
                f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                f"{key_padding_mask.shape[0]}"
                if key_padding_mask.shape[0] != bsz
                else f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                f"{key_padding_mask.shape[1]}"
            )
        pad_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
        pad_mask = pad_mask.reshape(bsz * num_heads, 1, src_len)
        attn_mask = pad_mask if attn_mask is None else attn_mask + pad_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        scores = q * math.sqrt(1.0 / float(q.shape[-1]))
        if attn_mask is None:
            scores = linalg.bmm(scores, k.transpose(-2, -1))  # (N * heads, L, S)
        else:
            scores = Baddbmm.apply(attn_mask, scores, k.transpose(-2, -1))
        weights_ = softmax(scores, -1)
        if dropout_p > 0.0:
            weights_ = dropout(weights_, p=dropout_p)
        out = linalg.bmm(weights_, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.shape[1])
        weights_ = weights_.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights_ = weights_.mean(dim=1)
        if not batched:
            out, weights_ = out.squeeze(1), weights_.squeeze(0)
        return out, weights_
    if attn_mask is not None:
        attn_mask = (
            attn_mask.unsqueeze(0)
            if attn_mask.shape[0] == 1 and attn_mask.dim() == 3
            else attn_mask.view(bsz, num_heads, -1, src_len)
        )
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.shape[1])
    return (out if batched else out.squeeze(1)), None
