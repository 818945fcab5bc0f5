"""Helpers the distributions share: parameters as tensors of one shape, and the conversions
between probabilities and logits (PyTorch's ``torch.distributions.utils``)."""

from __future__ import annotations

from numbers import Number
from typing import Any

import numpy as np

from microtorch.api.unary import clamp
from microtorch.creation import default_generator, tensor
from microtorch.dtypes import get_default_dtype
from microtorch.ops.gamma_functions import Digamma, Lgamma
from microtorch.tensor import Tensor

__all__ = [
    "broadcast_all", "clamp_probs", "digamma", "lgamma", "logits_to_probs", "numpy_draw",
    "probs_to_logits",
]  # fmt: skip


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """The values as tensors of one broadcast shape; numbers take the first tensor's dtype
    (else the default dtype). Tensors are expanded (``ExpandBackward0``), not copied."""
    for v in values:
        if not isinstance(v, (Tensor, Number)):
            raise ValueError(
                "Input arguments must all be instances of numbers.Number, torch.Tensor or "
                "objects implementing __torch_function__."
            )
    like = next((v._dtype for v in values if isinstance(v, Tensor)), get_default_dtype())
    tensors = [v if isinstance(v, Tensor) else tensor(v, dtype=like) for v in values]
    try:
        shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    except ValueError:
        a, b = tensors[0]._data.shape, tensors[1]._data.shape
        raise RuntimeError(
            f"The size of tensor a ({a[-1]}) must match the size of tensor b ({b[-1]}) at "
            "non-singleton dimension 0"
        ) from None
    return tuple(t if t._data.shape == shape else t.expand(*shape) for t in tensors)


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities kept eps away from 0 and 1 (eps of their dtype), so logs stay finite."""
    eps = float(np.finfo(probs._data.dtype).eps)
    return clamp(probs, min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """log p (or, for one binary probability, log p - log(1 - p))."""
    clamped = clamp_probs(probs)
    if is_binary:
        return clamped.log() - (-clamped).log1p()
    return clamped.log()


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """softmax over the last dimension (or, for a binary logit, sigmoid)."""
    if is_binary:
        return logits.sigmoid()
    return logits.softmax(-1)


def numpy_draw(draw: Any, shape: tuple[int, ...], dtype: Any) -> Tensor:
    """``draw(rng, shape)`` from microtorch's seeded generator, as a tensor of ``dtype``."""
    values = np.asarray(draw(default_generator._rng, tuple(shape)), dtype=np.float64)
    return tensor(values, dtype=dtype)


def lgamma(x: Tensor) -> Tensor:
    """log|Gamma(x)| with its gradient digamma(x) (``LgammaBackward0``)."""
    return Lgamma.apply(x)


def digamma(x: Tensor) -> Tensor:
    """d/dx log Gamma(x) with its gradient trigamma(x) (``DigammaBackward0``)."""
    return Digamma.apply(x)
