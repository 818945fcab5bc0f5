"""The element-wise transforms: ``ExpTransform``, ``SigmoidTransform``, ``AbsTransform`` and
``AffineTransform``, each ``y = f(x)`` with ``log |dy/dx|`` beside it (the base class and
``ComposeTransform`` are in ``transforms.py``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.api.unary import clamp
from microtorch.creation import full_like
from microtorch.distributions import constraints
from microtorch.distributions.transforms import Transform, sum_rightmost
from microtorch.nn.functional import softplus
from microtorch.tensor import Tensor

__all__ = ["AbsTransform", "AffineTransform", "ExpTransform", "SigmoidTransform"]


class _SameKind(Transform):
    """A transform without parameters: equal to any other of its class (as in PyTorch)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self))

    __hash__ = Transform.__hash__


class ExpTransform(_SameKind):
    """y = exp(x), so log |dy/dx| = x."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = 1

    def _call(self, x: Tensor) -> Tensor:
        return x.exp()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return x


class SigmoidTransform(_SameKind):
    """y = sigmoid(x) (kept between the dtype's tiny and 1 - eps), so
    log |dy/dx| = -softplus(-x) - softplus(x)."""

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = 1

    def _call(self, x: Tensor) -> Tensor:
        info = np.finfo(x._data.dtype)
        return clamp(x.sigmoid(), min=float(info.tiny), max=1 - float(info.eps))

    def _inverse(self, y: Tensor) -> Tensor:
        info = np.finfo(y._data.dtype)
        y = clamp(y, min=float(info.tiny), max=1 - float(info.eps))
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -softplus(-x) - softplus(x)


class AbsTransform(_SameKind):
    """y = |x| (not invertible: ``inv`` gives the positive root)."""

    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x: Tensor) -> Tensor:
        return x.abs()

    def _inverse(self, y: Tensor) -> Tensor:
        return y


class AffineTransform(Transform):
    """y = loc + scale * x, so log |dy/dx| = log |scale| (summed over ``event_dim`` dims)."""

    bijective = True

    def __init__(self, loc: Any, scale: Any, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffineTransform):
            return False
        for a, b in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(a, Tensor) or isinstance(b, Tensor):
                if not (a == b).all().item():
                    return False
            elif a != b:
                return False
        return True

    __hash__ = Transform.__hash__

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        if self._event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self._event_dim)

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        return self.domain

    @property
    def sign(self) -> Any:
        if isinstance(self.scale, (int, float)):
            return 1 if self.scale > 0 else -1 if self.scale < 0 else 0
        return self.scale.sign()

    def _call(self, x: Tensor) -> Tensor:
        return self.loc + self.scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        shape = tuple(x.shape)
        if isinstance(self.scale, (int, float)):
            result = full_like(x, math.log(abs(self.scale)))
        else:
            result = self.scale.abs().log()
        if self._event_dim:
            result = sum_rightmost(result, self._event_dim)
            shape = shape[: len(shape) - self._event_dim]
        return result.expand(shape)

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(np.broadcast_shapes(shape, _shape(self.loc), _shape(self.scale)))

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return self.forward_shape(shape)


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape) if isinstance(x, Tensor) else ()
