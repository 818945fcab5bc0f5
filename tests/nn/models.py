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


def lenet(lib: ModuleType) -> Any:
    """The "Deep Learning with PyTorch: A 60 Minute Blitz" network, as the tutorial writes it:
    two convolutions with max pooling, then three linear layers, on 1 x 32 x 32 images."""
    nn = lib.nn
    F = lib.nn.functional  # noqa: N806 - the tutorial's name

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # 1 input image channel, 6 output channels, 5x5 square convolution kernel
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            # an affine operation: y = Wx + b
            self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, input: Any) -> Any:  # noqa: A002 - the tutorial's name
            c1 = F.relu(self.conv1(input))
            s2 = F.max_pool2d(c1, (2, 2))
            c3 = F.relu(self.conv2(s2))
            s4 = F.max_pool2d(c3, 2)
            s4 = lib.flatten(s4, 1)
            f5 = F.relu(self.fc1(s4))
            f6 = F.relu(self.fc2(f5))
            return self.fc3(f6)

    return Net()


def small_cnn(lib: ModuleType) -> Any:
    """A course-style CNN that uses every new layer: batch norm, dropout2d, GELU, average
    pooling, a strided and a grouped convolution, adaptive pooling and layer norm."""
    nn = lib.nn

    class SmallCNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(3, 8, 3, padding=1),
                nn.BatchNorm2d(8),
                nn.ReLU(),
                nn.MaxPool2d(2),
                nn.Dropout2d(0.25),
                nn.Conv2d(8, 16, 3, stride=2, padding="valid", groups=2, bias=False),
                nn.BatchNorm2d(16, momentum=0.2),
                nn.GELU(),
                nn.AvgPool2d(2, stride=1, padding=1),
                nn.Conv2d(16, 16, 2, padding="same"),
                nn.AdaptiveAvgPool2d((2, 2)),
            )
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.LayerNorm(64),
                nn.Linear(64, 32),
                nn.BatchNorm1d(32),
                nn.GELU(approximate="tanh"),
                nn.Linear(32, 5),
            )

        def forward(self, x: Any) -> Any:
            return self.head(self.features(x))

    return SmallCNN()


def copy_weights(source: Any, target: Any) -> None:
    """Copy every parameter and buffer of a torch model into the same microtorch model."""
    values = {k: v.detach().numpy() for k, v in source.state_dict().items()}
    for name, tensor in target.state_dict(keep_vars=True).items():
        np.copyto(tensor._data, values[name])
