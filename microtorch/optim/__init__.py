"""``microtorch.optim``: optimizers (``SGD``, ``Adam``, ``AdamW``, ``Adamax``, ``NAdam``,
``RAdam``, ``RMSprop``, ``Adagrad``, ``Adadelta``, ``LBFGS``, ``Muon``) and ``lr_scheduler``."""

from typing import TYPE_CHECKING

from microtorch import _coverage
from microtorch.optim import lr_scheduler
from microtorch.optim.adam import Adam, AdamW
from microtorch.optim.adam_variants import Adamax, NAdam, RAdam

# --- walkd (issue 24)
from microtorch.optim.averaged import ASGD, Adafactor, Rprop, SparseAdam
from microtorch.optim.lbfgs import LBFGS

# --- walkh (issue 24)
from microtorch.optim.muon import Muon
from microtorch.optim.optimizer import Optimizer
from microtorch.optim.rmsprop import Adadelta, Adagrad, RMSprop
from microtorch.optim.sgd import SGD

__all__ = [
    "SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Adadelta", "Adagrad", "LBFGS",
    "Optimizer", "RMSprop", "lr_scheduler", "ASGD", "Adafactor", "Rprop", "SparseAdam",
    "Muon",
]  # fmt: skip


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.optim", __name__)
