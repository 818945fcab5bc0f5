"""``microtorch.functional``: the module of that name in PyTorch (``import torch.functional``),
which holds some of ``torch``'s functions. It is not ``torch.nn.functional``."""

from __future__ import annotations

from microtorch import _coverage
from microtorch.api.einsum import einsum
from microtorch.api.grids import meshgrid
from microtorch.api.join import split
from microtorch.api.linalg import norm
from microtorch.api.linalg_compose import broadcast_tensors, cartesian_prod, tensordot
from microtorch.api.linalg_factor import cdist
from microtorch.api.unique import unique
from microtorch.tensor import Tensor

__all__ = [
    "Tensor", "broadcast_tensors", "cartesian_prod", "cdist", "einsum", "meshgrid", "norm",
    "split", "tensordot", "unique",
]  # fmt: skip

__getattr__ = _coverage.module_getattr("torch.functional", __name__)
