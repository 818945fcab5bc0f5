"""``RMSprop``, ``Adagrad`` and ``Adadelta``: step sizes scaled by a running size of the
gradient."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.adam import _lerp
from microtorch.optim.optimizer import Optimizer
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["RMSprop", "Adagrad", "Adadelta"]


def _check(**values: float) -> None:
    # PyTorch's "Invalid <name> value" errors, in its order of checks
    for name, value in values.items():
        if value < 0.0:
            text = "learning rate" if name == "lr" else f"{name} value"
            raise ValueError(f"Invalid {text}: {value}")


def _gradient(p: Tensor, group: dict[str, Any]) -> np.ndarray:
    # The gradient, negated for maximize, plus weight_decay * p (a new array when changed).
    g = p._grad._data  # type: ignore[union-attr]
    if group["maximize"]:
        g = -g
    if group["weight_decay"] != 0:
        g = g + group["weight_decay"] * p._data
    return g


class RMSprop(Optimizer):
    """RMSprop (Hinton) with PyTorch's exact update: ``v = alpha v + (1 - alpha) g^2`` and
    ``p = p - lr g / (sqrt(v) + eps)``. ``centered`` divides by the gradient's running
    standard deviation instead (``v - mean(g)^2``); ``momentum`` keeps a buffer
    ``buf = momentum buf + g / (sqrt(v) + eps)`` and steps ``p = p - lr buf``.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr=lr, epsilon=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(
            lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
            weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
            differentiable=differentiable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = plain_tensor(np.zeros((), np.float32))
                    state["square_avg"] = plain_tensor(np.zeros_like(p._data), p._device)
                    if momentum > 0:
                        state["momentum_buffer"] = plain_tensor(np.zeros_like(p._data))
                    if group["centered"]:
                        state["grad_avg"] = plain_tensor(np.zeros_like(p._data), p._device)
                state["step"]._data += 1
                g = _gradient(p, group)
                v = state["square_avg"]._data
                v *= alpha
                v += (1 - alpha) * g * g  # v.addcmul_(g, g, value=1 - alpha)
                if group["centered"]:
                    mean = state["grad_avg"]._data
                    _lerp(mean, g, 1 - alpha, np.empty_like(mean))  # mean.lerp_(g, 1 - alpha)
                    avg = np.sqrt(v + -1 * mean * mean)
                else:
                    avg = np.sqrt(v)
                avg += eps
                if momentum > 0:
                    buf = state["momentum_buffer"]._data
                    buf *= momentum
                    buf += g / avg
                    p._data += -lr * buf  # p.add_(buf, alpha=-lr)
                else:
                    p._data += (-lr * g) / avg  # p.addcdiv_(g, avg, value=-lr)
                bump_version(p)
        return loss


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.) with PyTorch's exact update: ``sum = sum + g^2`` and
    ``p = p - clr g / (sqrt(sum) + eps)``, where ``clr = lr / (1 + (step - 1) lr_decay)``.
    Its state exists from the start (``sum = initial_accumulator_value``), as in PyTorch.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check(
            lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value, epsilon=eps,
        )  # fmt: skip
        defaults = dict(
            lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value, foreach=foreach,
            maximize=maximize, differentiable=differentiable, fused=fused,
        )  # fmt: skip
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = plain_tensor(np.zeros((), np.float32))
                start = np.full_like(p._data, group["initial_accumulator_value"])
                state["sum"] = plain_tensor(start, p._device)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                state["step"]._data += 1
                step = float(state["step"]._data)
                g = _gradient(p, group)
                clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
                total = state["sum"]._data
                total += g * g  # sum.addcmul_(g, g, value=1)
                std = np.sqrt(total)
                std += group["eps"]
                p._data += (-clr * g) / std  # p.addcdiv_(g, std, value=-clr)
                bump_version(p)
        return loss


class Adadelta(Optimizer):
    """Adadelta (Zeiler) with PyTorch's exact update: ``v = rho v + (1 - rho) g^2``, the step
    ``delta = sqrt(u + eps) / sqrt(v + eps) * g`` (units of ``p``, whatever the gradient's
    scale), ``u = rho u + (1 - rho) delta^2`` and ``p = p - lr delta``.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
            capturable=capturable, foreach=foreach, differentiable=differentiable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, rho, eps = group["lr"], group["rho"], group["eps"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = plain_tensor(np.zeros((), np.float32))
                    state["square_avg"] = plain_tensor(np.zeros_like(p._data), p._device)
                    state["acc_delta"] = plain_tensor(np.zeros_like(p._data), p._device)
                state["step"]._data += 1
                g = _gradient(p, group)
                v, u = state["square_avg"]._data, state["acc_delta"]._data
                v *= rho
                v += (1 - rho) * g * g  # v.addcmul_(g, g, value=1 - rho)
                delta = np.sqrt(u + eps)
                delta /= np.sqrt(v + eps)
                delta *= g
                u *= rho
                u += (1 - rho) * delta * delta
                p._data += -lr * delta  # p.add_(delta, alpha=-lr)
                bump_version(p)
        return loss
