"""Invertible maps ``y = t(x)`` with ``log |dy/dx|``, as ``torch.distributions.transforms``:
what ``TransformedDistribution`` pushes a base distribution's draws through.

``t(x)`` maps forward, ``t.inv(y)`` back, ``t.log_abs_det_jacobian(x, y)`` is the log of the
absolute derivative (summed over ``event_dim`` rightmost dimensions), ``t.sign`` says whether
the map increases (+1) or decreases (-1).
"""

from __future__ import annotations

from typing import Any

from microtorch.creation import full_like
from microtorch.distributions import constraints
from microtorch.tensor import Tensor

__all__ = ["ComposeTransform", "Transform", "sum_rightmost"]


def sum_rightmost(value: Any, dim: int) -> Any:
    """``value`` summed over its ``dim`` rightmost dimensions (as is, for ``dim = 0``)."""
    if dim == 0 or not isinstance(value, Tensor):
        return value
    return value.reshape(tuple(value.shape[: value.dim() - dim]) + (-1,)).sum(-1)


class Transform:
    """The base class: ``__call__`` runs ``_call`` (``cache_size=1`` remembers the last pair,
    so ``t.inv(t(x))`` gives ``x`` back itself)."""

    bijective = False
    domain: constraints.Constraint = constraints.real
    codomain: constraints.Constraint = constraints.real

    def __init__(self, cache_size: int = 0) -> None:
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        self._cache_size = cache_size
        self._cached_x_y: tuple[Any, Any] = (None, None)
        self._inv: Transform | None = None

    @property
    def event_dim(self) -> int:
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self) -> Transform:
        """The inverse map (``t.inv.inv is t``)."""
        if self._inv is None:
            self._inv = _InverseTransform(self)
        return self._inv

    @property
    def sign(self) -> Any:
        raise NotImplementedError

    def __call__(self, x: Any) -> Any:
        if self._cache_size == 0:
            return self._call(x)
        x_old, y_old = self._cached_x_y
        if x is x_old:
            return y_old
        y = self._call(x)
        self._cached_x_y = x, y
        return y

    def _inv_call(self, y: Any) -> Any:
        if self._cache_size == 0:
            return self._inverse(y)
        x_old, y_old = self._cached_x_y
        if y is y_old:
            return x_old
        x = self._inverse(y)
        self._cached_x_y = x, y
        return x

    def _call(self, x: Any) -> Any:
        raise NotImplementedError

    def _inverse(self, y: Any) -> Any:
        raise NotImplementedError

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        raise NotImplementedError

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    """``t.inv``: ``t``'s map run backwards."""

    def __init__(self, transform: Transform) -> None:
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        assert self._inv is not None
        return self._inv.codomain

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        assert self._inv is not None
        return self._inv.domain

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        assert self._inv is not None
        return self._inv.bijective

    @property
    def sign(self) -> Any:
        assert self._inv is not None
        return self._inv.sign

    @property
    def inv(self) -> Transform:
        assert self._inv is not None
        return self._inv

    def __call__(self, x: Any) -> Any:
        assert self._inv is not None
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        assert self._inv is not None
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        assert self._inv is not None
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        assert self._inv is not None
        return self._inv.forward_shape(shape)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._inv!r})"


class ComposeTransform(Transform):
    """``parts`` applied one after another (the first first)."""

    def __init__(self, parts: list[Transform], cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.parts = list(parts)

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        if not self.parts:
            return constraints.real
        domain = self.parts[0].domain
        event_dim = self.parts[-1].codomain.event_dim  # (an event may grow along the way)
        for part in reversed(self.parts):
            event_dim += part.domain.event_dim - part.codomain.event_dim
            event_dim = max(event_dim, part.domain.event_dim)
        if event_dim > domain.event_dim:
            domain = constraints.independent(domain, event_dim - domain.event_dim)
        return domain

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        if not self.parts:
            return constraints.real
        codomain = self.parts[-1].codomain
        event_dim = self.parts[0].domain.event_dim
        for part in self.parts:
            event_dim += part.codomain.event_dim - part.domain.event_dim
            event_dim = max(event_dim, part.codomain.event_dim)
        if event_dim > codomain.event_dim:
            codomain = constraints.independent(codomain, event_dim - codomain.event_dim)
        return codomain

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(p.bijective for p in self.parts)

    @property
    def sign(self) -> Any:
        sign: Any = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    def _call(self, x: Any) -> Any:
        for part in self.parts:
            x = part(x)
        return x

    def _inverse(self, y: Any) -> Any:
        for part in reversed(self.parts):
            y = part.inv(y)
        return y

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        if not self.parts:
            return full_like(x, 0.0)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        terms: Any = 0.0
        event_dim = self.domain.event_dim
        for part, a, b in zip(self.parts, xs[:-1], xs[1:]):
            terms = terms + sum_rightmost(
                part.log_abs_det_jacobian(a, b), event_dim - part.domain.event_dim
            )
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return terms

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        inner = ",\n    ".join(repr(p) for p in self.parts)
        return f"{type(self).__name__}(\n    {inner}\n)"
