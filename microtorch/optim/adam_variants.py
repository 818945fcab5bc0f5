"""``Adamax``, ``NAdam`` and ``RAdam``: Adam with another norm, Nesterov momentum, or a
rectified step size.

Each keeps Adam's running average of the gradient ``m`` (``m.lerp_(g, 1 - b1)``) and writes
the parameter in place, with PyTorch's order of operations so float32 rounds as it does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.adam import _lerp
from microtorch.optim.optimizer import Optimizer
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Adamax", "NAdam", "RAdam"]


def _check(lr: float, eps: float, betas: tuple[float, float], weight_decay: float) -> None:
    # PyTorch's checks, in its order ("not x >= 0" also refuses a nan)
    if not lr >= 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not eps >= 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
    if not weight_decay >= 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _decayed_gradient(p: Tensor, group: dict[str, Any]) -> np.ndarray:
    """The gradient (negated for ``maximize``) with weight decay: added as ``wd * p``, or with
    ``decoupled_weight_decay`` applied to ``p`` itself (``p *= 1 - lr * wd``, as AdamW)."""
    g = p._grad._data  # type: ignore[union-attr]
    if group["maximize"]:
        g = -g
    wd = group["weight_decay"]
    if wd != 0:
        if group.get("decoupled_weight_decay", False):
            p._data *= 1 - group["lr"] * wd
        else:
            g = g + wd * p._data
    return g


def _zeros(p: Tensor) -> Tensor:
    return plain_tensor(np.zeros_like(p._data), p._device)


def _scalar(value: float) -> Tensor:
    return plain_tensor(np.array(value, np.float32))  # PyTorch keeps step counts in float32


def _average(state: dict[str, Any], g: np.ndarray, beta1: float, beta2: float) -> None:
    """Adam's two running averages: ``m.lerp_(g, 1 - b1)``, ``v = b2 v + (1 - b2) g^2``."""
    m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
    _lerp(m, g, 1 - beta1, np.empty_like(m))
    v *= beta2
    v += (1 - beta2) * g * g  # v.addcmul_(g, g, value=1 - b2)


class Adamax(Optimizer):
    """Adamax (Kingma & Ba): Adam with the infinity norm. ``u = max(b2 u, |g| + eps)`` and
    ``p = p - lr / (1 - b1^t) * m / u``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
            maximize=maximize, differentiable=differentiable, capturable=capturable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state.update(step=_scalar(0), exp_avg=_zeros(p), exp_inf=_zeros(p))
                state["step"]._data += 1
                g = _decayed_gradient(p, group)
                m, u = state["exp_avg"]._data, state["exp_inf"]._data
                _lerp(m, g, 1 - beta1, np.empty_like(m))
                u *= beta2
                np.maximum(u, np.abs(g) + eps, out=u)
                clr = lr / (1 - beta1 ** float(state["step"]._data))
                p._data += (m * -clr) / u  # p.addcdiv_(m, u, value=-clr)
                bump_version(p)
        return loss


class NAdam(Optimizer):
    """NAdam (Dozat): Adam with Nesterov momentum. The momentum coefficient warms up,
    ``mu_t = b1 (1 - 0.5 * 0.96^(t * momentum_decay))``, and the step mixes the gradient and
    the next ``m``: ``p -= lr (1 - mu_t) / (1 - prod mu) g / d + lr mu_(t+1) /
    (1 - prod mu * mu_(t+1)) m / d``, with ``d = sqrt(v / (1 - b2^t)) + eps``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr, eps, betas, weight_decay)
        if not momentum_decay >= 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
            momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize, foreach=foreach, capturable=capturable,
            differentiable=differentiable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            decay = group["momentum_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state.update(step=_scalar(0), mu_product=_scalar(1))
                    state.update(exp_avg=_zeros(p), exp_avg_sq=_zeros(p))
                state["step"]._data += 1
                step = float(state["step"]._data)
                g = _decayed_gradient(p, group)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
                product = state["mu_product"]._data
                product *= mu  # (a float32 running product, rounded as PyTorch's)
                _average(state, g, beta1, beta2)
                denom = np.sqrt(state["exp_avg_sq"]._data / (1 - beta2**step))
                denom += eps
                mu_product = float(product)
                m = state["exp_avg"]._data
                # p.addcdiv_(g, denom, value=...) then p.addcdiv_(m, denom, value=...)
                p._data += (g * (-lr * (1.0 - mu) / (1.0 - mu_product))) / denom
                p._data += (m * (-lr * mu_next / (1.0 - mu_product * mu_next))) / denom
                bump_version(p)
        return loss


class RAdam(Optimizer):
    """RAdam (Liu et al.): Adam whose adaptive step is switched on only once the variance of
    ``v`` can be trusted. With ``rho_inf = 2 / (1 - b2) - 1`` and ``rho_t = rho_inf - 2 t
    b2^t / (1 - b2^t)``: if ``rho_t > 5``, ``p -= lr m_hat r sqrt(1 - b2^t) / (sqrt(v) + eps)``
    (``r`` the rectification term), else ``p -= lr m_hat`` (momentum SGD), where
    ``m_hat = m / (1 - b1^t)``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize,
            foreach=foreach, capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state.update(step=_scalar(0), exp_avg=_zeros(p), exp_avg_sq=_zeros(p))
                state["step"]._data += 1
                step = float(state["step"]._data)
                g = _decayed_gradient(p, group)
                _average(state, g, beta1, beta2)
                bias_correction2 = 1 - beta2**step
                m_hat = state["exp_avg"]._data / (1 - beta1**step)
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
                if rho_t > 5.0:
                    top, bottom = (rho_t - 4) * (rho_t - 2) * rho_inf, (rho_inf - 4) * (rho_inf - 2)
                    rect = (top / (bottom * rho_t)) ** 0.5
                    root = np.sqrt(state["exp_avg_sq"]._data)
                    root += eps
                    # PyTorch's scalar / tensor is reciprocal(tensor) * scalar (rounds so)
                    adaptive = np.reciprocal(root) * bias_correction2**0.5
                    p._data -= m_hat * lr * adaptive * rect
                else:
                    p._data -= m_hat * lr  # the first steps: plain momentum SGD
                bump_version(p)
        return loss
