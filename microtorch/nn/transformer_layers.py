"""The Transformer's two layers (Vaswani et al. 2017), as PyTorch builds them: attention and
a feed-forward block, each wrapped in dropout, a residual connection and a ``LayerNorm`` (after
it, or before it with ``norm_first=True``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch.creation import full
from microtorch.dtypes import dtype as dtype_
from microtorch.nn import functional as F
from microtorch.nn.activation import GELU, ReLU
from microtorch.nn.attention import MultiheadAttention
from microtorch.nn.attention_functions import canonical_mask
from microtorch.nn.dropout import Dropout
from microtorch.nn.linear import Linear
from microtorch.nn.module import Module
from microtorch.nn.normalization import LayerNorm
from microtorch.tensor import Tensor

__all__ = ["TransformerEncoderLayer", "TransformerDecoderLayer", "square_subsequent_mask",
           "is_causal_hint", "seq_len"]  # fmt: skip

Activation = str | Callable[[Tensor], Tensor]


def square_subsequent_mask(sz: int, device: Any = None, dtype: dtype_ | None = None) -> Tensor:
    # 0 on and below the diagonal, -inf above: position i may attend to positions <= i
    return full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(diagonal=1)


def _activation(activation: Activation) -> Callable[[Tensor], Tensor]:
    if not isinstance(activation, str):
        return activation
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def is_causal_hint(mask: Tensor | None, is_causal: bool | None, size: int) -> bool:
    # PyTorch's hint: a mask equal to the causal one counts as causal
    if is_causal is None and mask is not None:
        causal = square_subsequent_mask(size, dtype=mask._dtype)
        return tuple(mask.shape) == tuple(causal.shape) and bool((mask == causal).all())
    return bool(is_causal)


def seq_len(x: Tensor, batch_first: bool) -> int:
    return int(x.shape[0] if x.dim() == 2 else x.shape[1 if batch_first else 0])


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block (linear, activation, dropout, linear), each
    with dropout, a residual connection and a LayerNorm."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Activation = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **kw
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        activation = _activation(activation)
        relu = activation is F.relu or isinstance(activation, ReLU)
        gelu = activation is F.gelu or isinstance(activation, GELU)
        self.activation_relu_or_gelu = 1 if relu else 2 if gelu else 0
        self.activation = activation

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        src_key_padding_mask = canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", src._dtype, src_mask, "src_mask"
        )
        src_mask = canonical_mask(src_mask, "src_mask", src._dtype)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(
        self, x: Tensor, mask: Tensor | None, padding: Tensor | None, is_causal: bool
    ) -> Tensor:
        x = self.self_attn(
            x, x, x, attn_mask=mask, key_padding_mask=padding, need_weights=False,
            is_causal=is_causal,
        )[0]  # fmt: skip
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's output (``memory``), then a feed-forward
    block, each with dropout, a residual connection and a LayerNorm."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Activation = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **kw
        )
        self.multihead_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **kw
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(
                self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal
            )
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(
            x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal)
        )
        return self.norm3(x + self._ff_block(x))

    def _sa_block(
        self, x: Tensor, mask: Tensor | None, padding: Tensor | None, is_causal: bool
    ) -> Tensor:
        x = self.self_attn(
            x, x, x, attn_mask=mask, key_padding_mask=padding, is_causal=is_causal,
            need_weights=False,
        )[0]  # fmt: skip
        return self.dropout1(x)

    def _mha_block(
        self,
        x: Tensor,
        mem: Tensor,
        mask: Tensor | None,
        padding: Tensor | None,
        is_causal: bool,
    ) -> Tensor:
        x = self.multihead_attn(
            x, mem, mem, attn_mask=mask, key_padding_mask=padding, is_causal=is_causal,
            need_weights=False,
        )[0]  # fmt: skip
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)
