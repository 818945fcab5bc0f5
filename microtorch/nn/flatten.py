"""``Flatten``: merge dimensions, e.g. images (N, 1, 28, 28) into rows (N, 784)."""

from __future__ import annotations

from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["Flatten"]


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
