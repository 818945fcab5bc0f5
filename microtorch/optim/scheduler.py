"""``LRScheduler``: the base class of the learning-rate schedules in ``lr_scheduler``."""

from __future__ import annotations

import types
from typing import Any

from microtorch.optim.optimizer import Optimizer

__all__ = ["LRScheduler"]


class LRScheduler:
    """Base class: remembers each group's starting ``lr`` and counts epochs in ``last_epoch``."""

    _is_initial = False

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
        self._initial_step()

    def _initial_step(self) -> None:
        """The step the constructor takes (``SequentialLR`` takes it again when its turn
        comes); ``_is_initial`` tells ``get_lr`` which step it is."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list[float]:
        """The rates for the current ``last_epoch``; subclasses define the schedule."""
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The rates the last ``step()`` set, one per parameter group."""
        return self._last_lr

    def step(self) -> None:
        """Advance one epoch and set the new rates."""
        self._step_count += 1
        self._update_lr()

    def _update_lr(self, epoch: int | None = None) -> None:
        """Set the rates of the next epoch, or (``SequentialLR`` restarting a schedule) of
        ``epoch``, from the closed form where the schedule has one."""
        if epoch is None:
            self.last_epoch += 1
            rates = self.get_lr()
        else:
            self.last_epoch = epoch
            closed_form = getattr(self, "_get_closed_form_lr", None)
            rates = closed_form() if closed_form is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, rates):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's counters (not the optimizer; of ``lr_lambdas``, only the state of
        callable objects, None for plain functions)."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        if "lr_lambdas" in self.__dict__:
            state["lr_lambdas"] = [
                None if isinstance(f, types.FunctionType) else f.__dict__.copy()
                for f in self.__dict__["lr_lambdas"]
            ]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what ``state_dict()`` returned."""
        state = dict(state_dict)
        lambdas = state.pop("lr_lambdas", None)
        self.__dict__.update(state)
        for f, saved in zip(getattr(self, "lr_lambdas", []), lambdas or []):
            if saved is not None:
                f.__dict__.update(saved)

    def _current(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]
