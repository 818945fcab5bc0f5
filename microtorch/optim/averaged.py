"""``ASGD``, ``Rprop``, ``Adafactor`` and ``SparseAdam``: PyTorch's rarer optimizers, with its
exact updates (single-tensor formulas, in the parameter's dtype; scalars in float32 state
tensors as PyTorch keeps them)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.adam import _lerp
from microtorch.optim.optimizer import Optimizer
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["ASGD", "Rprop", "Adafactor", "SparseAdam"]


def _scalar(value: float) -> Tensor:
    return plain_tensor(np.asarray(value, np.float32))


def _grad(p: Tensor, maximize: bool) -> np.ndarray:
    g = p._grad._data  # type: ignore[union-attr]
    return -g if maximize else g


class ASGD(Optimizer):
    """Averaged SGD (Polyak and Juditsky): ``p = p (1 - lambd eta) - eta g``, the average
    ``ax = ax + mu (p - ax)``, then ``eta = lr / (1 + lambd lr step)^alpha`` and
    ``mu = 1 / max(1, step - t0)`` (averaging starts after ``t0`` steps)."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
            maximize=maximize, differentiable=differentiable, capturable=capturable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"], state["eta"], state["mu"] = _scalar(0), _scalar(lr), _scalar(1)
                    state["ax"] = plain_tensor(np.zeros_like(p._data), p._device)
                state["step"]._data += 1
                g = _grad(p, group["maximize"])
                if group["weight_decay"] != 0:
                    g = g + group["weight_decay"] * p._data
                eta = float(state["eta"]._data)
                p._data *= 1 - lambd * eta  # p.mul_(1 - lambd * eta)
                p._data += -eta * g  # p.add_(g, alpha=-eta)
                ax = state["ax"]._data
                mu = float(state["mu"]._data)
                if mu != 1:
                    ax += (p._data - ax) * mu
                else:
                    ax[...] = p._data
                step = float(state["step"]._data)
                state["eta"]._data[...] = lr / ((1 + lambd * lr * step) ** alpha)
                state["mu"]._data[...] = 1 / max(1, step - t0)
                bump_version(p)
        return loss


class Rprop(Optimizer):
    """Resilient backpropagation (Riedmiller and Braun): only the gradient's sign counts. Each
    element's step size grows by ``etas[1]`` while the sign stays, shrinks by ``etas[0]`` when
    it flips (and that step is skipped), within ``step_sizes``; ``p = p - sign(g) step_size``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(
            lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
            differentiable=differentiable, capturable=capturable,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            (minus, plus), (low, high) = group["etas"], group["step_sizes"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = _scalar(0)
                    state["prev"] = plain_tensor(np.zeros_like(p._data), p._device)
                    size = np.full_like(p._grad._data, group["lr"])
                    state["step_size"] = plain_tensor(size, p._device)
                state["step"]._data += 1
                g = _grad(p, group["maximize"])
                prev, size = state["prev"]._data, state["step_size"]._data
                sign = np.sign(g * prev)
                factor = np.where(sign > 0, plus, np.where(sign < 0, minus, 1)).astype(g.dtype)
                size *= factor
                np.clip(size, low, high, out=size)
                g = np.where(factor == g.dtype.type(minus), 0, g).astype(g.dtype)
                p._data += -(np.sign(g) * size)  # p.addcmul_(g.sign(), step_size, value=-1)
                prev[...] = g
                bump_version(p)
        return loss


class Adafactor(Optimizer):
    """Adafactor (Shazeer and Stern), PyTorch's version: the second moment of a matrix kept
    as a row and a column factor (a vector's in full), averaged with weight
    ``step^beta2_decay``; the step ``rho = min(lr, 1/sqrt(step))`` is relative to the
    parameter's RMS (at least ``eps[1]``), and an update's RMS is clipped at ``d``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        for ok, text, value in (
            (lr >= 0.0, "Learning rate should be >= 0", lr),
            (beta2_decay <= 0.0, "beta2_decay should be <= 0", beta2_decay),
            (eps[0] is None or eps[0] >= 0.0, "epsilon1 should be >= 0", eps[0]),
            (eps[1] >= 0.0, "epsilon2 should be >= 0", eps[1]),
            (d >= 1.0, "Clipping threshold d should be >= 1", d),
            (weight_decay >= 0.0, "weight_decay should be >= 0", weight_decay),
        ):
            if not ok:
                raise ValueError(f"{text} but is: {value}")
        defaults = dict(
            lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
            foreach=foreach, maximize=maximize,
        )  # fmt: skip
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, (eps1, eps2), d = group["lr"], group["eps"], group["d"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                if eps1 is None:  # (as PyTorch's: the first parameter's dtype sets it)
                    eps1 = float(np.finfo(p._data.dtype).eps)
                self._update(p, group, eps1, eps2, lr, d)
        return loss

    def _update(
        self, p: Tensor, group: dict, eps1: float, eps2: float, lr: float, d: float
    ) -> None:
        g = _grad(p, group["maximize"])
        state = self.state[p]
        if not state:
            state["step"] = _scalar(0)
            if g.ndim > 1:
                state["row_var"] = plain_tensor(np.zeros(g.shape[:-1] + (1,), g.dtype))
                state["col_var"] = plain_tensor(np.zeros(g.shape[:-2] + (1, g.shape[-1]), g.dtype))
            else:
                state["variance"] = plain_tensor(np.zeros_like(g))
        state["step"]._data += 1
        step = float(state["step"]._data)
        weight = step ** group["beta2_decay"]
        rho = min(lr, 1 / step**0.5)
        rms = float(np.sqrt(np.sum(p._data.astype(np.float64) ** 2))) / math.sqrt(p._data.size)
        alpha = max(eps2, rms) * rho
        if group["weight_decay"] != 0:
            p._data *= 1 - lr * group["weight_decay"]
        if g.ndim > 1:
            row, col = state["row_var"]._data, state["col_var"]._data
            row_mean = np.sum(g * g, axis=-1, keepdims=True) / g.shape[-1]
            _lerp(row, row_mean.astype(g.dtype), weight, np.empty_like(row))
            col_mean = np.sum(g * g, axis=-2, keepdims=True) / g.shape[-2]
            _lerp(col, col_mean.astype(g.dtype), weight, np.empty_like(col))
            estimate = row @ col
            estimate /= np.maximum(np.mean(row, axis=-2, keepdims=True), eps1)
        else:
            variance = state["variance"]._data
            _lerp(variance, g * g, weight, np.empty_like(variance))
            estimate = variance.copy()
        update = 1 / np.sqrt(np.maximum(estimate, eps1 * eps1))
        update *= g
        norm = float(np.sqrt(np.sum(update.astype(np.float64) ** 2)))
        denom = max(1.0, norm / (math.sqrt(update.size) * d))
        p._data += (-alpha / denom) * update
        bump_version(p)


class SparseAdam(Optimizer):
    """Adam for sparse gradients (``nn.Embedding(sparse=True)``). microtorch's gradients are
    dense, always: its ``step`` raises PyTorch's error for a dense gradient; use
    ``torch.optim.Adam``."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        maximize: bool = False,
    ) -> None:
        if not lr > 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps > 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Raises PyTorch's error at the first parameter with a (dense) gradient."""
        loss = self._closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is not None:
                    raise RuntimeError(
                        "SparseAdam does not support dense gradients, please consider Adam "
                        "instead (Fix: microtorch's gradients are dense: use torch.optim.Adam)"
                    )
        return loss
