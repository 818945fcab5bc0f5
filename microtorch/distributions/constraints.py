"""The constraints a distribution checks its parameters and values against (PyTorch's names
and reprs: ``GreaterThan(lower_bound=0.0)``, ``Simplex()`` ...). ``check(value)`` is a bool
tensor: True where ``value`` satisfies the constraint."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "Constraint", "boolean", "greater_than", "independent", "integer_interval", "interval",
    "less_than", "positive", "real", "simplex", "unit_interval",
]  # fmt: skip


def _values(x: Any) -> np.ndarray:
    return x._data if isinstance(x, Tensor) else np.asarray(x)


class Constraint:
    """A region of values; ``check(value)`` says, element by element, who is inside."""

    def check(self, value: Tensor) -> Tensor:
        return plain_tensor(self._inside(_values(value)))

    def _inside(self, v: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Real(Constraint):
    """Any number but nan (infinities pass, as in PyTorch)."""

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return v == v  # noqa: PLR0124 - false for nan only


class GreaterThan(Constraint):
    """Strictly greater than ``lower_bound``."""

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(v > _values(self.lower_bound))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(lower_bound={self.lower_bound})"


class LessThan(Constraint):
    """Strictly less than ``upper_bound``."""

    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(v < _values(self.upper_bound))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(upper_bound={self.upper_bound})"


class Interval(Constraint):
    """Between ``lower_bound`` and ``upper_bound``, both included."""

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray((_values(self.lower_bound) <= v) & (v <= _values(self.upper_bound)))

    def __repr__(self) -> str:
        bounds = f"lower_bound={self.lower_bound}, upper_bound={self.upper_bound}"
        return f"{type(self).__name__}({bounds})"


class IntegerInterval(Interval):
    """Whole numbers between ``lower_bound`` and ``upper_bound``, both included."""

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray((v % 1 == 0) & super()._inside(v))


class Boolean(Constraint):
    """0 or 1."""

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray((v == 0) | (v == 1))


class Simplex(Constraint):
    """Vectors (the last dimension) of non-negative numbers that sum to 1."""

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(np.all(v >= 0, axis=-1) & (np.abs(v.sum(-1) - 1) < 1e-6))


class IndependentConstraint(Constraint):
    """``base_constraint`` for every element of the last ``reinterpreted_batch_ndims`` dims."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def _inside(self, v: np.ndarray) -> np.ndarray:
        inside = self.base_constraint._inside(v)
        n = self.reinterpreted_batch_ndims
        return np.asarray(inside.reshape(inside.shape[: inside.ndim - n] + (-1,)).all(-1))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


real = Real()
positive = GreaterThan(0.0)
unit_interval = Interval(0.0, 1.0)
boolean = Boolean()
simplex = Simplex()
greater_than = GreaterThan
less_than = LessThan
interval = Interval
integer_interval = IntegerInterval
independent = IndependentConstraint
