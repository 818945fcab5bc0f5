"""``EmbeddingBag`` and ``F.embedding_bag``: the sum, mean or maximum of each bag of
embedding rows without building the (bags, length, dim) lookup first, as PyTorch 2.13 does
(one ``EmbeddingBagBackward0`` node)."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.autograd.versions import bump_version
from microtorch.dtypes import dtype as dtype_
from microtorch.dtypes import get_default_dtype
from microtorch.nn import init
from microtorch.nn.embedding_bag_ops import MAX, MEAN, SUM
from microtorch.nn.embedding_bag_ops import EmbeddingBag as _Bag
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["EmbeddingBag", "embedding_bag"]

_MODES = {"sum": SUM, "mean": MEAN, "max": MAX}


def _index_dtype(t: Tensor) -> None:
    if t._data.dtype not in (np.int64, np.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got microtorch.{t._dtype._legacy} instead (while checking "
            "arguments for embedding_bag) (Fix: pass integer indices, e.g. x.long())"
        )


def embedding_bag(
    input: Tensor,  # noqa: A002 - PyTorch's name
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """out[b] = the sum, mean or max of the rows of ``weight`` named in bag b: the rows of a
    2-D ``input``, or the runs of a 1-D ``input`` that start at ``offsets``."""
    expect_tensor(input, "embedding_bag", "input", 1)
    expect_tensor(weight, "embedding_bag", "weight", 2)
    psw = per_sample_weights
    if psw is not None and input.shape != psw.shape:
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({psw.shape}) is not None, then it must have "
            f"the same shape as the input ({input.shape})"
        )
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch "
                "of fixed length sequences. However, found offsets of type "
                f"{type(offsets)}"
            )
        if input.shape[1] == 0:
            raise RuntimeError("step must be nonzero")
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if psw is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        )
    if scale_grad_by_freq or sparse:
        name = "scale_grad_by_freq" if scale_grad_by_freq else "sparse"
        raise NotImplementedError(
            f"embedding_bag: {name}=True is not supported by microtorch (dense gradients without "
            "frequency scaling only); leave it False"
        )
    n_rows = weight.shape[0]
    if padding_idx is not None:
        if not -n_rows <= padding_idx < n_rows:
            raise RuntimeError(
                f"padding_idx must be within the number of embeddings, -{n_rows} through "
                f"{n_rows - 1}, but got {padding_idx}"
            )
        padding_idx %= n_rows
    _index_dtype(input)
    if offsets is not None:
        _index_dtype(offsets)
    if not weight._dtype.is_floating_point:
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have one of the following scalar types: "
            f"Half, BFloat16, Float, Double; but got microtorch.{weight._dtype._legacy} instead "
            "(while checking arguments for embedding_bag) (Fix: weight.float())"
        )
    if psw is not None and psw._dtype is not weight._dtype:
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have the same type as tensor for "
            "argument #1 'per_sample_weights'; but type "
            f"microtorch.{weight._dtype._legacy} does not equal microtorch.{psw._dtype._legacy} "
            "(while checking arguments for embedding_bag)"
        )
    idx = input._data.reshape(-1).astype(np.int64)
    n = len(idx)
    if input.dim() == 2:
        nbags = input.shape[0]
        bag = np.repeat(np.arange(nbags), input.shape[1])
        keep = np.ones(n, bool)
    else:
        assert offsets is not None
        bag, keep, nbags = _bags(offsets._data.astype(np.int64), n, include_last_offset)
    if n and (idx.min() < 0 or idx.max() >= n_rows):
        _out_of_range(idx, n_rows, weight._data.dtype == np.float32 and mode != "max", padding_idx)
    if padding_idx is not None:
        keep &= idx != padding_idx
    if max_norm is not None:
        _renorm(weight, idx, max_norm, norm_type)
    return _Bag.apply(weight, psw, idx, bag, keep, nbags, _MODES[mode])


def _out_of_range(idx: np.ndarray, n_rows: int, fast: bool, padding_idx: int | None) -> None:
    wrong = np.flatnonzero((idx < 0) | (idx >= n_rows))
    if fast and padding_idx is None:  # (PyTorch's float32 sum/mean kernel has its own text)
        j = int(wrong[0])
        raise RuntimeError(
            f"Index {j} of input takes value {int(idx[j])} which is not in the valid range "
            f"[0, {n_rows})"
        )
    bad = int(idx.min()) if idx.min() < 0 else int(idx.max())
    raise RuntimeError(
        "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
        f"{bad} (indices must be in [0, {n_rows - 1}])"
    )


def _bags(offsets: np.ndarray, n: int, include_last: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """The bag of each position, which positions belong to a bag, and the number of bags."""
    if len(offsets) and offsets[0] != 0:
        raise RuntimeError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
            f"from position 0. However, got {int(offsets[0])}"
        )
    if len(offsets) and offsets[-1] > n:
        raise RuntimeError(
            f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
            f"{int(offsets[-1])}"
        )
    if np.any(np.diff(offsets) < 0):
        raise NotImplementedError(
            "embedding_bag: microtorch needs non-decreasing offsets (each bag starts where the "
            "previous one ends or later)"
        )
    if include_last and len(offsets) < 1:
        raise NotImplementedError("embedding_bag: include_last_offset=True needs offsets[-1]")
    starts = offsets[:-1] if include_last else offsets
    bag = np.searchsorted(starts, np.arange(n), side="right") - 1
    keep = bag >= 0
    if include_last:  # (as PyTorch's float32 kernel; its float64 one reads on to the end)
        keep &= np.arange(n) < offsets[-1]
    return np.where(keep, bag, 0), keep, len(starts)


def _renorm(weight: Tensor, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    # PyTorch rescales, in place and outside the graph, the looked-up rows longer than max_norm.
    rows = np.unique(indices)
    norms = np.linalg.norm(weight._data[rows], ord=norm_type, axis=1, keepdims=True)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(weight._data.dtype)
    weight._data[rows] *= scale
    bump_version(weight)


class EmbeddingBag(Module):
    """Bags of rows of ``weight`` (num_embeddings, embedding_dim) reduced by ``mode``.

    Initialised from N(0, 1), as in PyTorch; the ``padding_idx`` row starts at zero, is left
    out of every bag and never receives a gradient.
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Tensor | None = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            data = np.zeros((num_embeddings, embedding_dim), (dtype or get_default_dtype()).numpy)
            self.weight = Parameter(plain_tensor(data))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self) -> None:
        """Draw fresh N(0, 1) values; zero the padding row."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            self.weight._data[self.padding_idx] = 0

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
    ) -> EmbeddingBag:
        """An ``EmbeddingBag`` holding the given 2-D ``embeddings`` (frozen by default)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(
            rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
            include_last_offset, padding_idx,
        )  # fmt: skip
        bag.weight.requires_grad = not freeze
        return bag

    def forward(
        self,
        input: Tensor,  # noqa: A002 - PyTorch's name
        offsets: Tensor | None = None,
        per_sample_weights: Tensor | None = None,
    ) -> Tensor:
        return embedding_bag(
            input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
            self.mode, self.sparse, per_sample_weights, self.include_last_offset,
            self.padding_idx,
        )  # fmt: skip

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}".format(**self.__dict__)
        s += f", mode='{self.mode}'"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s
