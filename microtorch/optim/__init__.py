"""``microtorch.optim``: optimizers (``SGD``, ``Adam``, ``AdamW``) and ``lr_scheduler``."""

from microtorch.optim import lr_scheduler
from microtorch.optim.adam import Adam, AdamW
from microtorch.optim.optimizer import Optimizer
from microtorch.optim.sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "lr_scheduler"]
