"""``microtorch.optim``: optimizers (``SGD``, ``Adam``, ``AdamW``, ``Adamax``, ``NAdam``,
``RAdam``, ``RMSprop``, ``Adagrad``, ``Adadelta``, ``LBFGS``, ``Muon``) and ``lr_scheduler``."""

from typing import TYPE_CHECKING

from microtorch import _coverage, _lazy
from microtorch.optim.adam import Adam, AdamW
from microtorch.optim.optimizer import Optimizer
from microtorch.optim.sgd import SGD

__all__ = [
    "SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Adadelta", "Adagrad", "LBFGS",
    "Optimizer", "RMSprop", "lr_scheduler", "ASGD", "Adafactor", "Rprop", "SparseAdam",
    "Muon",
]  # fmt: skip


# The other optimizers and lr_scheduler, imported on first use (microtorch/_lazy.py); a name
# not in the table raises an error that says what to use instead.
ON_FIRST_USE = {
    **_lazy.modules("microtorch.optim", "lr_scheduler"),
    **_lazy.names("microtorch.optim.adam_variants", "Adamax NAdam RAdam"),
    **_lazy.names("microtorch.optim.averaged", "ASGD Adafactor Rprop SparseAdam"),  # (walkd)
    **_lazy.names("microtorch.optim.lbfgs", "LBFGS"),
    **_lazy.names("microtorch.optim.muon", "Muon"),  # (walkh)
    **_lazy.names("microtorch.optim.rmsprop", "Adadelta Adagrad RMSprop"),
}
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _lazy.module_getattr(
        globals(), ON_FIRST_USE, _coverage.module_getattr("torch.optim", __name__)
    )
    __dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)
