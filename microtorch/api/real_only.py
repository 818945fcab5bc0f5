"""What PyTorch's complex-number API answers for real tensors, which are all microtorch has:
``x.is_complex()`` is False, ``x.conj()`` and ``x.real`` are ``x`` itself, ``x.imag`` raises
PyTorch's error; likewise ``x.is_sparse`` and ``x.is_quantized`` are False.

Generic course code (``(z * z.conj()).real``) thus runs on real tensors; complex, sparse and
quantized tensors themselves are categories microtorch does not cover (docs/api_coverage.md).
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor

__all__ = ["is_complex", "conj", "resolve_conj", "is_conj", "real", "imag"]


def is_complex(input: Any) -> bool:  # noqa: A002 - PyTorch's name
    """False: microtorch's dtypes are real."""
    expect_tensor(input, "is_complex")
    return False


def conj(input: Any) -> Any:  # noqa: A002
    """The complex conjugate: for a real tensor, the tensor itself."""
    expect_tensor(input, "conj")
    return input


def resolve_conj(input: Any) -> Any:  # noqa: A002
    """The tensor itself (a real tensor has no pending conjugation)."""
    expect_tensor(input, "resolve_conj")
    return input


def is_conj(input: Any) -> bool:  # noqa: A002
    """False: a real tensor is never a conjugated view."""
    expect_tensor(input, "is_conj")
    return False


def real(input: Any) -> Any:  # noqa: A002
    """The real part: for a real tensor, the tensor itself."""
    expect_tensor(input, "real")
    return input


def imag(input: Any) -> Any:  # noqa: A002
    """The imaginary part, which a real tensor does not have: PyTorch's error."""
    expect_tensor(input, "imag")
    raise RuntimeError(
        "imag is not implemented for tensors with non-complex dtypes. (Fix: microtorch has "
        "real dtypes only; keep real and imaginary parts as two real tensors)"
    )
