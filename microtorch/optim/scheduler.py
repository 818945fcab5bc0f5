"""``LRScheduler``: the base class of the learning-rate schedules in ``lr_scheduler``."""

from __future__ import annotations

from typing import Any

from microtorch.optim.optimizer import Optimizer

__all__ = ["LRScheduler"]


class LRScheduler:
    """Base class: remembers each group's starting ``lr`` and counts epochs in ``last_epoch``."""

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise KeyError(
                    f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                    "scheduler with last_epoch >= 0."
                )
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self.step()

    def get_lr(self) -> list[float]:
        """The rates for the current ``last_epoch``; subclasses define the schedule."""
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The rates the last ``step()`` set, one per parameter group."""
        return self._last_lr

    def step(self) -> None:
        """Advance one epoch and set the new rates."""
        self._step_count += 1
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's counters (not the optimizer, not lambdas)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what ``state_dict()`` returned."""
        self.__dict__.update(state_dict)

    def _current(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]
