"""The constraints a distribution checks its parameters and values against (PyTorch's names
and reprs: ``GreaterThan(lower_bound=0.0)``, ``Simplex()`` ...). ``check(value)`` is a bool
tensor: True where ``value`` satisfies the constraint."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "Constraint", "boolean", "greater_than", "greater_than_eq", "independent",
    "integer_interval", "interval", "less_than", "lower_cholesky", "multinomial",
    "nonnegative", "nonnegative_integer", "one_hot", "positive", "positive_definite",
    "positive_integer", "real", "real_vector", "simplex", "unit_interval",
]  # fmt: skip


def _values(x: Any) -> np.ndarray:
    return x._data if isinstance(x, Tensor) else np.asarray(x)


class Constraint:
    """A region of values; ``check(value)`` says, element by element, who is inside.
    ``event_dim``: how many rightmost dimensions make one value (0 for numbers)."""

    event_dim = 0

    def check(self, value: Tensor) -> Tensor:
        with np.errstate(all="ignore"):  # (inf - inf in a sum is nan: outside, no warning)
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


class GreaterThanEq(GreaterThan):
    """Greater than or equal to ``lower_bound``."""

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(v >= _values(self.lower_bound))


class IntegerGreaterThan(GreaterThan):
    """Whole numbers greater than or equal to ``lower_bound``."""

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray((v % 1 == 0) & (v >= _values(self.lower_bound)))


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

    event_dim = 1

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(np.all(v >= 0, axis=-1) & (np.abs(v.sum(-1) - 1) < 1e-6))


class OneHot(Constraint):
    """Vectors (the last dimension) of 0s and 1s with a single 1."""

    event_dim = 1

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(np.all((v == 0) | (v == 1), axis=-1) & (v.sum(-1) == 1))


class Multinomial(Constraint):
    """Vectors of non-negative whole counts that add up to at most ``upper_bound``."""

    event_dim = 1

    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def _inside(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(np.all(v >= 0, axis=-1) & (v.sum(-1) <= self.upper_bound))


class LowerCholesky(Constraint):
    """Lower-triangular square matrices with a positive diagonal."""

    event_dim = 2

    def _inside(self, v: np.ndarray) -> np.ndarray:
        lower = np.all(np.triu(v, 1) == 0, axis=(-2, -1))
        return np.asarray(lower & np.all(np.diagonal(v, 0, -2, -1) > 0, axis=-1))


class PositiveDefinite(Constraint):
    """Symmetric matrices whose eigenvalues are all positive."""

    event_dim = 2

    def _inside(self, v: np.ndarray) -> np.ndarray:
        symmetric = np.all(np.isclose(v, np.swapaxes(v, -1, -2), atol=1e-6), axis=(-2, -1))
        ok = symmetric & np.all(np.isfinite(v), axis=(-2, -1))
        eig = np.linalg.eigvalsh(np.where(ok[..., None, None], v, np.eye(v.shape[-1])))
        return np.asarray(ok & np.all(eig > 0, axis=-1))


class IndependentConstraint(Constraint):
    """``base_constraint`` for every element of the last ``reinterpreted_batch_ndims`` dims."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims

    def _inside(self, v: np.ndarray) -> np.ndarray:
        inside = self.base_constraint._inside(v)
        n = self.reinterpreted_batch_ndims
        return np.asarray(inside.reshape(inside.shape[: inside.ndim - n] + (-1,)).all(-1))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


real = Real()
real_vector = IndependentConstraint(real, 1)
positive = GreaterThan(0.0)
nonnegative = GreaterThanEq(0.0)
nonnegative_integer = IntegerGreaterThan(0)
positive_integer = IntegerGreaterThan(1)
one_hot = OneHot()
lower_cholesky = LowerCholesky()
positive_definite = PositiveDefinite()
multinomial = Multinomial
greater_than_eq = GreaterThanEq
unit_interval = Interval(0.0, 1.0)
boolean = Boolean()
simplex = Simplex()
greater_than = GreaterThan
less_than = LessThan
interval = Interval
integer_interval = IntegerInterval
independent = IndependentConstraint
