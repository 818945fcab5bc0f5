"""``SGD``: stochastic gradient descent, with momentum, dampening, weight decay and Nesterov."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.optimizer import Optimizer
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["SGD"]


class SGD(Optimizer):
    """p <- p - lr * g, where g is the gradient (plus weight decay, through momentum).

    PyTorch's formulas: ``g = grad + weight_decay * p``; with momentum,
    ``buf = momentum * buf + (1 - dampening) * g`` (``buf = g`` on the first step) and
    ``g = buf``, or ``g = g + momentum * buf`` with ``nesterov=True``.
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
            nesterov=nesterov, maximize=maximize, foreach=foreach,
            differentiable=differentiable, fused=fused,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue  # no gradient reached p: nothing to do
                g = self._direction(p, p.grad._data, group)  # p.grad's numbers, by default
                p._data -= group["lr"] * g  # p -= lr * g, in place and outside the graph
                bump_version(p)  # an in-place change, as p.sub_(...) would count it
        return loss

    def _direction(self, p: Tensor, g: np.ndarray, group: dict[str, Any]) -> np.ndarray:
        """The numbers to step against: the gradient ``g``, with PyTorch's maximize, weight
        decay, momentum and Nesterov applied when they are on (all are off by default)."""
        if group["maximize"]:
            g = -g
        if group["weight_decay"] != 0:
            decayed = p._data * group["weight_decay"]  # g + weight_decay * p, in one new array
            decayed += g
            g = decayed
        momentum = group["momentum"]
        if momentum == 0:
            return g
        state = self.state[p]
        buf = state.get("momentum_buffer")
        if buf is None:  # the first step: the buffer starts as the gradient itself
            buf = plain_tensor(g.copy(), p._device)
            state["momentum_buffer"] = buf
        else:
            b = buf._data
            b *= momentum
            if group["dampening"] == 0:
                b += g
            else:
                b += (1 - group["dampening"]) * g
        if not group["nesterov"]:
            return buf._data
        ahead = buf._data * momentum  # g + momentum * buf, in one new array
        ahead += g
        return ahead
