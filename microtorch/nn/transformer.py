"""The Transformer (Vaswani et al. 2017) as PyTorch builds it: encoder and decoder layers,
their stacks, and ``Transformer``, which joins the two.

Each layer is attention and a feed-forward block, each wrapped in dropout, a residual
connection and a ``LayerNorm`` (after it, or before it with ``norm_first=True``). In eval
mode without a graph, PyTorch runs the encoder through fused kernels ("fast path") whose
results differ from these in the last bits only; where it packs a padded batch into a nested
tensor there, the padded positions come out as zeros (before the final norm), as here.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.autograd.grad_mode import is_grad_enabled
from microtorch.dtypes import dtype as dtype_
from microtorch.nn import functional as F
from microtorch.nn import init
from microtorch.nn.attention_functions import canonical_mask
from microtorch.nn.container import ModuleList
from microtorch.nn.module import Module
from microtorch.nn.normalization import LayerNorm
from microtorch.nn.transformer_layers import (
    Activation,
    TransformerDecoderLayer,
    TransformerEncoderLayer,
    is_causal_hint,
    seq_len,
    square_subsequent_mask,
)
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder"]


def _why_no_nested(layer: Module) -> str:
    # PyTorch's reasons (its words) for not packing padded batches into nested tensors
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    checks = [
        (layer.norm_first, f"{name}.norm_first was True"),
        (not attn.batch_first, f"{name}.self_attn.batch_first was not True"
         "(use batch_first for better inference performance)"),
        (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
        (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
        (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
        (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"),
    ]  # fmt: skip
    return next((why for failed, why in checks if failed), "")


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer``, then ``norm`` if given."""

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_no_nested(encoder_layer)
        if enable_nested_tensor and why:
            warn(
                f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why}",
            )
            self.use_nested_tensor = False

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        padding = canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", src._dtype, mask, "mask"
        )
        mask = canonical_mask(mask, "mask", src._dtype)
        first = self.layers[0]
        is_causal = is_causal_hint(mask, is_causal, seq_len(src, first.self_attn.batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=padding)
        if padding is not None and mask is None and self._packs_nested(src, first, padding):
            # PyTorch's fast path packs the batch without its padding and unpacks it with zeros
            keep = (padding._data == 0)[..., None].astype(output._data.dtype)
            output = output * plain_tensor(keep, output._device)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _packs_nested(self, src: Tensor, first: Module, padding: Tensor) -> bool:
        # PyTorch's conditions for its nested-tensor fast path (eval mode, no graph, ...)
        if not self.use_nested_tensor or first.training or src.dim() != 3:
            return False
        keep = padding._data == 0
        if self.mask_check and (np.diff(keep.astype(np.int8), axis=-1) > 0).any():
            return False  # (the padding must come last in each sequence)
        needs_grad = src.requires_grad or any(p.requires_grad for p in first.parameters())
        return not (is_grad_enabled() and needs_grad)


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer``, then ``norm`` if given."""

    def __init__(
        self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None
    ) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        first = self.layers[0]
        causal = is_causal_hint(tgt_mask, tgt_is_causal, seq_len(tgt, first.self_attn.batch_first))
        output = tgt
        for layer in self.layers:
            output = layer(
                output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=causal,
                memory_is_causal=memory_is_causal,
            )  # fmt: skip
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder (``num_encoder_layers`` layers and a LayerNorm) and a decoder
    (``num_decoder_layers`` layers and a LayerNorm); ``forward(src, tgt)`` gives the decoder's
    output. Every weight matrix is initialised Xavier-uniform, as in PyTorch."""

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Activation = F.relu,
        custom_encoder: Any | None = None,
        custom_decoder: Any | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)  # fmt: skip
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
            layer = TransformerEncoderLayer(*layer_args, **kw)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
            dec_layer = TransformerDecoderLayer(*layer_args, **kw)
            self.decoder = TransformerDecoder(dec_layer, num_decoder_layers, norm)
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        batch = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch] != tgt.shape[batch]:
            raise RuntimeError(
                f"the batch number of src and tgt must be equal (src has {src.shape[batch]}, "
                f"tgt {tgt.shape[batch]}; batch_first={self.batch_first})"
            )
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError(
                f"the feature number of src and tgt must be equal to d_model (d_model is "
                f"{self.d_model}, src has {src.shape[-1]}, tgt {tgt.shape[-1]})"
            )
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self.decoder(
            tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )  # fmt: skip

    @staticmethod
    def generate_square_subsequent_mask(
        sz: int, device: Any = None, dtype: dtype_ | None = None
    ) -> Tensor:
        """A (sz, sz) float mask: 0 on and below the diagonal, -inf above (no peeking ahead)."""
        return square_subsequent_mask(sz, device=device, dtype=dtype)
