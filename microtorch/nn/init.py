"""``nn.init``: fill a tensor in place with starting values (PyTorch's schemes and formulas).

Every random draw comes from microtorch's seeded generator (or the ``generator`` passed), so
``microtorch.manual_seed(0)`` makes a model's initial weights repeatable. The values are not
the ones PyTorch draws for the same seed; the distributions are the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from microtorch import _coverage
from microtorch._warn import warn
from microtorch.autograd.versions import bump_version
from microtorch.creation import Generator, default_generator
from microtorch.tensor import Tensor

__all__ = [
    "calculate_gain", "zeros_", "ones_", "constant_", "normal_", "uniform_", "eye_",
    "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "trunc_normal_",
    "orthogonal_",
    # --- walkc
    "dirac_", "uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal",
    "kaiming_uniform", "kaiming_normal", "orthogonal",
]  # fmt: skip


def _fill(tensor: Tensor, make: Callable[[tuple[int, ...]], np.ndarray]) -> Tensor:
    # Writes in place outside the graph (as under no_grad) and bumps the version counter.
    np.copyto(tensor._data, make(tensor._data.shape), casting="unsafe")
    bump_version(tensor)
    return tensor


def _floats_only(tensor: Tensor, kernel: str) -> None:
    # Random draws into an integer tensor: PyTorch has no such kernel.
    if not tensor._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{tensor._dtype._legacy[:-6]}' (Fix: initialise "
            "a float tensor, e.g. torch.zeros(3, dtype=torch.float32))"
        )


def _rng(generator: Generator | None) -> np.random.Generator:
    return (generator or default_generator)._rng


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor that keeps activations' variance steady through ``nonlinearity``."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "sigmoid")
    if nonlinearity in linear or nonlinearity == "conv_transpose2d":
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans(tensor: Tensor) -> tuple[int, int]:
    shape = tensor._data.shape
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with 0."""
    return _fill(tensor, lambda s: np.zeros(s))


def ones_(tensor: Tensor) -> Tensor:
    """Fill with 1."""
    return _fill(tensor, lambda s: np.ones(s))


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    return _fill(tensor, lambda s: np.full(s, val))


def eye_(tensor: Tensor) -> Tensor:
    """Fill a matrix with the identity."""
    if tensor._data.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, lambda s: np.eye(s[0], s[1]))


def normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Fill with draws from N(mean, std**2)."""
    _floats_only(tensor, "normal_kernel_cpu")
    return _fill(tensor, lambda s: _rng(generator).normal(mean, std, s))


def uniform_(
    tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Fill with draws from U(a, b)."""
    _floats_only(tensor, "check_uniform_bounds")
    return _fill(tensor, lambda s: _rng(generator).uniform(a, b, s))


def xavier_uniform_(
    tensor: Tensor, gain: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Generator | None = None,
) -> Tensor:
    """U(-b, b) with b = gain * sqrt(3 / fan) (He et al., 2015); ``Linear`` uses a = sqrt(5)."""
    if 0 in tensor._data.shape:
        _warn_empty()
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Generator | None = None,
) -> Tensor:
    """N(0, std**2) with std = gain / sqrt(fan) (He et al., 2015)."""
    if 0 in tensor._data.shape:
        _warn_empty()
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: Generator | None = None,
) -> Tensor:
    """Fill with draws from N(mean, std**2) kept to [a, b] (draws outside are redrawn; the
    same distribution as PyTorch's inverse-CDF method, other numbers)."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect.",
        )
    _floats_only(tensor, "normal_kernel_cpu")

    def draw(shape: tuple[int, ...]) -> np.ndarray:
        rng = _rng(generator)
        values = rng.normal(mean, std, shape)
        outside = (values < a) | (values > b)
        while outside.any():  # redraw the ones outside [a, b]
            values[outside] = rng.normal(mean, std, int(outside.sum()))
            outside = (values < a) | (values > b)
        return values

    return _fill(tensor, draw)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """A (semi-)orthogonal matrix times ``gain`` (Saxe et al., 2013): the Q of the QR
    decomposition of a Gaussian matrix, with signs fixed so it is uniformly distributed;
    dims after the first are flattened."""
    if tensor._data.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor._data.size == 0:
        return tensor  # (PyTorch: "no-op")
    _floats_only(tensor, "normal_kernel_cpu")
    rows = tensor._data.shape[0]
    cols = tensor._data.size // rows

    def draw(shape: tuple[int, ...]) -> np.ndarray:
        flat = _rng(generator).normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            flat = flat.T
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))  # makes the distribution uniform
        if rows < cols:
            q = q.T
        return (q * gain).reshape(shape)

    return _fill(tensor, draw)


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-d convolution weight with the Dirac delta: output channel d of
    each group passes input channel d through (a 1 at the kernel's centre), so the layer
    starts as the identity on as many channels as it can."""
    ndim = tensor._data.ndim
    if ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    shape = tensor._data.shape
    if shape[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = shape[0] // groups
    centre = tuple(n // 2 for n in shape[2:])

    def delta(s: tuple[int, ...]) -> np.ndarray:
        out = np.zeros(s)
        for g in range(groups):
            for d in range(min(per_group, s[1])):
                out[(g * per_group + d, d) + centre] = 1
        return out

    return _fill(tensor, delta)


def _deprecated(new: Callable[..., Tensor]) -> Callable[..., Tensor]:
    # PyTorch's old names without the trailing underscore: the same fill, with its warning.
    old = new.__name__[:-1]

    def deprecated_init(*args: object, **kwargs: object) -> Tensor:
        warn(
            f"`nn.init.{old}` is now deprecated in favor of `nn.init.{new.__name__}`.",
            FutureWarning,
        )
        return new(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old
    deprecated_init.__doc__ = f"Deprecated: ``{new.__name__}``, with PyTorch's FutureWarning."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)


def _warn_empty() -> None:
    warn("Initializing zero-element tensors is a no-op")


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.nn.init", __name__)
