"""``microtorch.nn``: modules, layers, losses, ``functional`` and ``init``, as in PyTorch."""

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
