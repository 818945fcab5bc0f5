"""``Flatten``: merge dimensions, e.g. images (N, 1, 28, 28) into rows (N, 784); and
``Unflatten``, which splits one back."""

from __future__ import annotations

import math
from typing import Any

from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Merge dims ``start_dim`` .. ``end_dim`` into one (by default all but the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's name
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension ``dim`` into ``unflattened_size``, e.g. rows (N, 784) into images
    (N, 1, 28, 28) with ``Unflatten(1, (1, 28, 28))`` (a view: ``ViewBackward0``)."""

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        if not isinstance(dim, int):
            raise TypeError("invalid argument type for dim parameter")
        if not isinstance(unflattened_size, (tuple, list)):
            kind = type(unflattened_size).__name__
            raise TypeError(f"unflattened_size must be tuple of ints, but found type {kind}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        shape = tuple(input.shape)
        dim = self.dim + len(shape) if self.dim < 0 else self.dim
        sizes = list(self.unflattened_size)
        if -1 not in sizes and math.prod(sizes) != shape[dim]:
            raise RuntimeError(
                f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} "
                f"({shape[dim]}) in the input tensor"
            )
        return input.view(*shape[:dim], *sizes, *shape[dim + 1 :])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
