"""``Distribution``: what every distribution shares, as in ``torch.distributions``.

Shapes: ``sample(sample_shape)`` has shape ``sample_shape + batch_shape + event_shape``.
Parameters and, in ``log_prob``, values are checked against their constraints unless
``validate_args=False`` (the default is on, as in PyTorch).

Random draws come from microtorch's seeded generator, not PyTorch's: the same seed gives
other samples than PyTorch's, with the same distribution.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from microtorch.autograd.grad_mode import no_grad
from microtorch.distributions import constraints
from microtorch.tensor import Size, Tensor

__all__ = ["Distribution"]


class Distribution:
    """The base class: shapes, argument validation, ``sample`` from ``rsample``."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__
    arg_constraints: dict[str, constraints.Constraint] = {}

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn argument validation on or off for every distribution made afterwards."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(
        self,
        batch_shape: tuple[int, ...] = Size(),
        event_shape: tuple[int, ...] = Size(),
        validate_args: bool | None = None,
    ) -> None:
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if param not in self.__dict__ and isinstance(
                    getattr(type(self), param, None), cached_property
                ):
                    continue  # (probs given: logits is computed later, and is then valid)
                value = getattr(self, param)
                if not constraint.check(value)._data.all():
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}"
                    )

    @property
    def batch_shape(self) -> Size:
        """The shape of the batch of independent distributions this object holds."""
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        """The shape of one draw from one of them (``()`` for a number)."""
        return self._event_shape

    @property
    def support(self) -> Any:
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        """The standard deviation, ``variance.sqrt()``."""
        return self.variance.sqrt()

    def sample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        """Draws of shape ``sample_shape + batch_shape``, outside the graph."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: tuple[int, ...] = Size()) -> Tensor:
        """Draws through which gradients flow to the parameters (reparameterised)."""
        raise NotImplementedError

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def expand(self, batch_shape: tuple[int, ...], _instance: Any = None) -> Any:
        """The same distribution for a larger batch: each parameter ``expand``-ed (no copy),
        no argument checks run again."""
        new = type(self).__new__(type(self)) if _instance is None else _instance
        batch_shape = Size(batch_shape)
        new.__dict__.update(self.__dict__)
        for name in (*self.arg_constraints, *self._expand_also):
            value = self.__dict__.get(name)
            if isinstance(value, Tensor):
                trailing = tuple(value.shape[len(self._batch_shape) :])
                new.__dict__[name] = value.expand(tuple(batch_shape) + trailing)
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    _expand_also: tuple[str, ...] = ("_param",)  # tensors expanded besides the parameters

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        """``exp(entropy())``."""
        return self.entropy().exp()

    def _extended_shape(self, sample_shape: tuple[int, ...] = Size()) -> Size:
        return Size(tuple(Size(sample_shape)) + self._batch_shape + self._event_shape)

    def _validate_sample(self, value: Any) -> None:
        # PyTorch's checks of a value scored by log_prob: a tensor, of a fitting shape, inside
        # the support.
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        shape = value.shape
        start = len(shape) - len(self._event_shape)
        if shape[start:] != self._event_shape:
            raise ValueError(
                f"The right-most size of value must match event_shape: {shape} vs "
                f"{self._event_shape}."
            )
        expected = self._batch_shape + self._event_shape
        for i, j in zip(reversed(shape), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{shape} vs {Size(expected)}."
                )
        support = self.support
        if not support.check(value)._data.all():
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape {tuple(shape)}) to "
                f"be within the support ({support!r}) of the distribution {self!r}, but found "
                f"invalid values:\n{value}"
            )

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in names
        )
        return f"{type(self).__name__}({args})"
