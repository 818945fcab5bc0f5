"""``microtorch.nn``: modules, layers, losses, ``functional`` and ``init``, as in PyTorch."""

from typing import TYPE_CHECKING

from microtorch import _coverage
from microtorch.nn import functional, init, utils
from microtorch.nn.activation import LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from microtorch.nn.container import ModuleDict, ModuleList, Sequential
from microtorch.nn.dropout import Dropout
from microtorch.nn.embedding import Embedding
from microtorch.nn.flatten import Flatten
from microtorch.nn.linear import Identity, Linear
from microtorch.nn.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
)
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter

__all__ = [
    "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Embedding", "Flatten",
    "Identity", "L1Loss", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module",
    "ModuleDict", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
    "Softmax", "Tanh", "functional", "init", "utils",
]  # fmt: skip


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.nn", __name__)
