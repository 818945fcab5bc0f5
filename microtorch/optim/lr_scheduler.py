"""Learning-rate schedules: ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``LambdaLR``;
the annealing ones (``CosineAnnealingLR``, ``OneCycleLR`` ...) and ``ReduceLROnPlateau`` are
in ``annealing.py``, their base class ``LRScheduler`` in ``scheduler.py``; all re-exported here.

Call ``scheduler.step()`` once per epoch, after ``optimizer.step()``; it writes the new rate
into each parameter group's ``'lr'``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from microtorch import _coverage
from microtorch.optim.annealing import (
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    LinearLR,
    OneCycleLR,
    ReduceLROnPlateau,
)
from microtorch.optim.optimizer import Optimizer
from microtorch.optim.scheduler import LRScheduler

__all__ = [
    "LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LambdaLR", "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts", "LinearLR", "OneCycleLR", "ReduceLROnPlateau",
]  # fmt: skip


class StepLR(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]


class MultiStepLR(LRScheduler):
    """Multiply the rate by ``gamma`` at each epoch listed in ``milestones``."""

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ) -> None:
        self.milestones = sorted(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        times = self.milestones.count(self.last_epoch)
        return [lr * self.gamma**times for lr in self._current()]


class ExponentialLR(LRScheduler):
    """Multiply the rate by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]


class LambdaLR(LRScheduler):
    """The rate is ``initial_lr * lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * f(self.last_epoch) for base, f in zip(self.base_lrs, self.lr_lambdas)]


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.optim.lr_scheduler", __name__)
