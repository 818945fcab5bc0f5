"""``Muon``: momentum, then the update orthogonalized by a Newton-Schulz iteration (Keller
Jordan's optimizer for the 2-D weights of hidden layers), with PyTorch 2.13's exact update.

PyTorch runs the Newton-Schulz iteration in bfloat16. numpy has no bfloat16, so each bfloat16
result is computed in float32 and rounded to bfloat16's 8 significant bits (what PyTorch's CPU
kernels do: they accumulate in float32 and round once).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.optimizer import Optimizer

__all__ = ["Muon"]

# Keller Jordan's constants, as PyTorch keeps them
EPS = 1e-7
NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)
NS_STEPS = 5


def _bfloat16(x: np.ndarray) -> np.ndarray:
    """Round to the nearest bfloat16 (8 significant bits, ties to even), kept as float32."""
    # x = mantissa * 2**exponent with 0.5 <= |mantissa| < 1; float64 goes through float32
    # first, as PyTorch's BFloat16 is built from a float
    mantissa, exponent = np.frexp(np.asarray(x, np.float32))
    return np.ldexp(np.round(mantissa * 256), exponent - 8).astype(np.float32)


def _fused_multiply_add(a: Any, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` rounded once, as PyTorch's vectorized CPU kernels (fmadd) compute it."""
    a = b.dtype.type(a)
    if b.dtype != np.float64:  # float32: the float64 product and sum are exact, rounded once
        return (np.float64(a) * b.astype(np.float64) + c).astype(b.dtype)
    product = np.longdouble(a) * b.astype(np.longdouble)  # (80-bit on x86; float64 elsewhere)
    wide = product + c
    slack = 4 * np.spacing(np.maximum(np.abs(product), np.abs(c)))  # the wide sum's error bound
    result = wide.astype(np.float64)
    # Rounding the wide value again can only go wrong next to a midpoint between two float64s:
    # those few elements are redone exactly with fractions.
    neighbour = np.nextafter(result, np.where(wide > result, np.inf, -np.inf))
    midpoint = (result.astype(np.longdouble) + neighbour) / 2
    for i in zip(*np.nonzero(np.abs(wide - midpoint) <= slack)):
        exact = Fraction(float(a)) * Fraction(float(b[i])) + Fraction(float(c[i]))
        result[i] = float(exact)
    return result


def _lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """``start.lerp(end, weight)``: ``start + w (end - start)`` for ``w < 0.5``, else
    ``end + (w - 1) (end - start)``, each one fused multiply-add (PyTorch's lerp kernel)."""
    w = start.dtype.type(weight)
    if abs(w) < 0.5:
        return _fused_multiply_add(w, end - start, start)
    return _fused_multiply_add(w - 1, end - start, end)


def zeropower_via_newtonschulz(
    grad: np.ndarray, ns_coefficients: tuple[float, float, float], ns_steps: int, eps: float
) -> np.ndarray:
    """``X = G / |G|``, then ``ns_steps`` times ``X = a X + (b A + c A A) X`` with ``A = X X^T``
    (on the wide orientation of G): singular values pushed towards 1, singular vectors kept."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = (np.float32(k) for k in ns_coefficients)
    tall = grad.shape[0] > grad.shape[1]
    x = _bfloat16(grad)  # (m, n), m <= n after the transpose
    if tall:
        x = x.T
    norm = _bfloat16(np.sqrt(np.sum(x * x, dtype=np.float32)))
    x = _bfloat16(x / np.maximum(norm, _bfloat16(np.float32(eps))))  # spectral norm <= 1
    for _ in range(ns_steps):
        gram = _bfloat16(x @ x.T)  # (m, m)
        gram_update = _bfloat16(b * gram + c * (gram @ gram))
        x = _bfloat16(a * x + gram_update @ x)
    return x.T if tall else x


def adjust_lr(lr: float, adjust_lr_fn: str | None, shape: tuple[int, ...]) -> float:
    """Keller's ``sqrt(max(1, A/B))`` ("original") or Moonshot's ``0.2 sqrt(max(A, B))``."""
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return lr * math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return lr * (0.2 * math.sqrt(max(rows, cols)))
    return lr


class Muon(Optimizer):
    """Muon: ``B = mu B + (1 - mu) g`` (a lerp), the update ``g + mu (B - g)`` (nesterov) or
    ``B``, orthogonalized by ``ns_steps`` Newton-Schulz steps; then ``p = p (1 - lr wd)`` and
    ``p = p - adjusted_lr * O``. Only 2-D parameters: give biases and embeddings to AdamW."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        weight_decay: float = 0.1,
        momentum: float = 0.95,
        nesterov: bool = True,
        ns_coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
        eps: float = EPS,
        ns_steps: int = NS_STEPS,
        adjust_lr_fn: str | None = None,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not momentum >= 0.0:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = dict(
            lr=lr, weight_decay=weight_decay, momentum=momentum, nesterov=nesterov,
            ns_coefficients=ns_coefficients, eps=eps, ns_steps=ns_steps,
            adjust_lr_fn=adjust_lr_fn,
        )  # fmt: skip
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(
                        "Muon only supports 2D parameters whereas we found a parameter with "
                        f"size: {p.size()} (Fix: give the other parameters to torch.optim.AdamW)"
                    )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a ``.grad`` (the others are skipped)."""
        loss = self._closure(closure)
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            for p in group["params"]:
                if p._grad is None:
                    continue
                g = p._grad._data
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = p._grad.detach().clone().zero_()
                buf = state["momentum_buffer"]._data
                buf[...] = _lerp(buf, g, 1 - momentum)  # buf.lerp_(grad, 1 - momentum)
                update = _lerp(g, buf, momentum) if group["nesterov"] else buf
                ortho = zeropower_via_newtonschulz(
                    update, group["ns_coefficients"], group["ns_steps"], group["eps"]
                )
                p._data *= 1 - lr * group["weight_decay"]
                alpha = -adjust_lr(lr, group["adjust_lr_fn"], p.shape)
                p._data[...] = _fused_multiply_add(alpha, ortho.astype(p._data.dtype), p._data)
                bump_version(p)
                bump_version(state["momentum_buffer"])
        return loss
