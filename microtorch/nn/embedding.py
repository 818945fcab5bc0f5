"""``Embedding``: a lookup table of learnable vectors, one row per token id."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api.indexing import bad_index
from microtorch.dtypes import dtype as dtype_
from microtorch.dtypes import get_default_dtype
from microtorch.nn import functional as F
from microtorch.nn import init
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Embedding"]


class Embedding(Module):
    """Row ``i`` of ``weight`` (shape (num_embeddings, embedding_dim)) for each index ``i``.

    Initialised from N(0, 1), as in PyTorch; the ``padding_idx`` row starts at zero and
    never receives a gradient.
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            data = np.zeros((num_embeddings, embedding_dim), (dtype or get_default_dtype()).numpy)
            self.weight = Parameter(plain_tensor(data), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        """Draw fresh N(0, 1) values; zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            if not isinstance(
                self.padding_idx, (int, np.integer)
            ):  # (1.5: PyTorch indexes with it)
                bad_index(self.padding_idx)
            self.weight._data[self.padding_idx] = 0

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An ``Embedding`` holding the given 2-D ``embeddings`` (frozen by default)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        options = (padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)
        return cls(rows, cols, *options, _weight=embeddings, _freeze=freeze)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        options = (self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse)
        return F.embedding(input, self.weight, self.padding_idx, *options)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s
