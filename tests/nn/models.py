"""Model definitions shared by the nn tests, written once for both libraries.

``build(lib)`` takes ``microtorch`` or ``torch`` (students write ``import microtorch as
torch``, so the same source serves both) and returns the model.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np


def two_layer_net(lib: ModuleType, n_in: int = 5, n_hidden: int = 8, n_out: int = 1) -> Any:
    """The seed chapter's TwoLayerNet."""
    nn = lib.nn

    class TwoLayerNet(nn.Module):
        def __init__(self, n_in: int, n_hidden: int, n_out: int) -> None:
            super().__init__()
            self.fc1 = nn.Linear(n_in, n_hidden)
            self.fc2 = nn.Linear(n_hidden, n_out)

        def forward(self, x: Any) -> Any:
            h = lib.sigmoid(self.fc1(x))
            return lib.sigmoid(self.fc2(h))

    return TwoLayerNet(n_in, n_hidden, n_out)


def nested_net(lib: ModuleType) -> Any:
    """Sequential inside a module, a ModuleList, a ModuleDict, a buffer and a bare Parameter."""
    nn = lib.nn

    class Nested(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = nn.Sequential(
                nn.Linear(4, 6), nn.ReLU(), nn.Sequential(nn.Tanh(), nn.Linear(6, 6, bias=False))
            )
            self.heads = nn.ModuleList([nn.Linear(6, 2) for _ in range(3)] + [nn.Dropout(0.1)])
            embedding = nn.Embedding(5, 2, padding_idx=1)
            self.extra = nn.ModuleDict({"b": nn.Linear(2, 2), "a": embedding})
            self.scale = nn.Parameter(lib.ones(1))
            self.register_buffer("running", lib.zeros(2))
            self.register_buffer("scratch", lib.zeros(1), persistent=False)

        def forward(self, x: Any) -> Any:
            h = self.encoder(x)
            out = sum(head(h) for head in self.heads[:3])
            return self.extra["b"](out) * self.scale

    return Nested()


def copy_weights(source: Any, target: Any) -> None:
    """Copy every parameter and buffer of a torch model into the same microtorch model."""
    values = {k: v.detach().numpy() for k, v in source.state_dict().items()}
    for name, tensor in target.state_dict(keep_vars=True).items():
        np.copyto(tensor._data, values[name])
