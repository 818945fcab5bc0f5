"""``Adam`` and ``AdamW``: per-parameter step sizes from running averages of the gradient."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.optimizer import Optimizer
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2015) with PyTorch's exact update:

    ``m = m + (1 - b1) (g - m)``, ``v = b2 v + (1 - b2) g^2``, and
    ``p = p - lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)``. ``weight_decay`` adds
    ``wd * p`` to ``g`` (AdamW instead shrinks ``p`` by ``1 - lr * wd``); ``amsgrad`` uses the
    largest ``v`` seen so far.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
            maximize=maximize, foreach=foreach, capturable=capturable,
            differentiable=differentiable, fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
        )  # fmt: skip
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, amsgrad: bool) -> dict[str, Any]:
        state = self.state[p]
        if not state:
            data = p._data

            def zeros() -> Tensor:
                return plain_tensor(np.zeros_like(data), p._device)

            state["step"] = plain_tensor(np.zeros((), np.float32))
            state["exp_avg"] = zeros()
            state["exp_avg_sq"] = zeros()
            if amsgrad:
                state["max_exp_avg_sq"] = zeros()
        return state

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay, amsgrad = group["weight_decay"], group["amsgrad"]
            decoupled = group["decoupled_weight_decay"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                g = p._grad._data
                if group["maximize"]:
                    g = -g
                state = self._init_state(p, amsgrad)
                state["step"]._data += 1
                step = float(state["step"]._data)
                if weight_decay != 0:
                    if decoupled:  # (p.mul_ in PyTorch: a change of p's version of its own)
                        p._data *= 1 - lr * weight_decay
                        bump_version(p)
                    else:
                        g = g + weight_decay * p._data
                m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
                work = np.empty_like(m)  # the one scratch array; every update writes in place
                _lerp(m, g, 1 - beta1, work)  # m moves (1 - b1) of the way to g
                v *= beta2
                np.multiply(g, 1 - beta2, out=work)
                work *= g
                v += work  # v = b2 v + (1 - b2) g^2
                if amsgrad:
                    top = state["max_exp_avg_sq"]._data
                    np.maximum(top, v, out=top)
                    v = top
                bias_correction1 = 1 - beta1**step
                bias_correction2_sqrt = (1 - beta2**step) ** 0.5
                denom = np.sqrt(v, out=work)
                denom /= bias_correction2_sqrt
                denom += eps
                # p.addcdiv_(m, denom, value=-step_size) computes (value * m) / denom, in
                # that order: the other order rounds differently in float32
                update = m * (-lr / bias_correction1)  # (a second scratch array)
                update /= denom
                p._data += update
                bump_version(p)
        return loss


def _lerp(start: np.ndarray, end: np.ndarray, weight: float, work: np.ndarray) -> None:
    """``start.lerp_(end, weight)`` with PyTorch's two formulas: ``start + w (end - start)``
    for ``w < 0.5``, else ``end - (1 - w) (end - start)`` (exactly ``end`` at ``w = 1``)."""
    np.subtract(end, start, out=work)
    if abs(weight) < 0.5:
        work *= weight
        start += work
    else:
        work *= start.dtype.type(weight) - 1  # (w - 1 is exact in the array's precision)
        np.add(end, work, out=start)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter): p shrinks by ``1 - lr * wd``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
            capturable=capturable, differentiable=differentiable, fused=fused,
            decoupled_weight_decay=True,
        )  # fmt: skip
