"""``torch.linalg.householder_product`` (and its older name ``torch.orgqr``) and
``torch.geqrf``, and ``torch.ormqr`` (walkh), with their Tensor methods.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/householder.py``. Imported on first use (see ``microtorch/linalg.py``).
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.linalg_triangular import _kernel_dtype
from microtorch.api.return_types import return_type
from microtorch.ops.householder import Geqrf, LinalgHouseholderProduct, Ormqr

__all__ = ["householder_product", "orgqr", "geqrf", "ormqr"]

geqrf_result = return_type("geqrf", ("a", "tau"))


@torch_keywords(out=True)
def householder_product(A: Any, tau: Any) -> Any:  # noqa: N803 - PyTorch's name
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T, v_i column i of A below
    the diagonal with a 1 on it (the Q of ``geqrf``'s result)."""
    op = "torch.linalg.householder_product"
    expect_tensor(A, "linalg_householder_product", "input")
    expect_tensor(tau, "linalg_householder_product", "tau", 2)
    if A._data.ndim < 2:
        raise RuntimeError(f"{op}: input must have at least 2 dimensions.")
    if A._data.shape[-2] < A._data.shape[-1]:
        raise RuntimeError(
            f"{op}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if A._data.shape[-1] < tau._data.shape[-1]:
        raise RuntimeError(f"{op}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if tau._data.ndim != A._data.ndim - 1:
        raise RuntimeError(
            f"{op}: Expected tau to have one dimension less than input, but got tau.ndim equal "
            f"to {tau._data.ndim} and input.ndim is equal to {A._data.ndim}"
        )
    for x in (A, tau):
        _kernel_dtype(x, "orgqr_cpu")
    if tau._dtype is not A._dtype:
        raise RuntimeError(
            f"{op}: tau dtype {tau._dtype._legacy[:-6]} does not match input dtype "
            f"{A._dtype._legacy[:-6]}"
        )
    if tau._data.shape[:-1] != A._data.shape[:-2]:
        raise RuntimeError(
            f"{op}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
            f"{list(tau._data.shape[:-1])}"
        )
    return LinalgHouseholderProduct.apply(A, tau)


@torch_keywords("input", "input2", out=True)
def orgqr(input: Any, input2: Any) -> Any:  # noqa: A002
    """``torch.linalg.householder_product(input, input2)``."""
    return householder_product(input, input2)


@torch_keywords("input", out=True)
def geqrf(input: Any) -> Any:  # noqa: A002
    """(a, tau): A = QR as LAPACK's geqrf stores it (R on and above the diagonal, Householder
    reflectors below, their factors in tau); Q is ``householder_product(a, tau)``."""
    expect_tensor(input, "geqrf", "input")
    _kernel_dtype(input, "geqrf_cpu")
    if input._data.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    return geqrf_result(*Geqrf.apply(input))


@torch_keywords("input", "input2", "input3", out=True)
def ormqr(input: Any, input2: Any, input3: Any, left: bool = True, transpose: bool = False) -> Any:  # noqa: A002
    """op(Q) @ input3 (``left``) or input3 @ op(Q), Q = H_1 ... H_k (m x m) from geqrf's
    (input, input2 = tau), op(Q) = Q^T if ``transpose``: Q is never formed by the caller."""
    op = "torch.ormqr"
    expect_tensor(input, "ormqr", "input")
    expect_tensor(input2, "ormqr", "input2", 2)
    expect_tensor(input3, "ormqr", "input3", 3)
    a, tau, other = input._data, input2._data, input3._data
    if a.ndim < 2:
        raise RuntimeError(f"{op}: input must have at least 2 dimensions.")
    if other.ndim < 2:
        raise RuntimeError(f"{op}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if other.shape[side] != a.shape[-2]:
        raise RuntimeError(
            f"{op}: other.shape[{side}] must be equal to input.shape[-2] (Fix: Q is "
            f"{a.shape[-2]} x {a.shape[-2]}; left={bool(left)} multiplies other's "
            f"{'rows' if left else 'columns'} by it)"
        )
    if tau.shape[-1:] != (min(other.shape[side], a.shape[-1]),):
        raise RuntimeError(
            f"{op}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1]) "
            "(Fix: pass the tau geqrf returned with input)"
        )
    if tau.ndim != a.ndim - 1:
        raise RuntimeError(
            f"{op}: Expected tau to have one dimension less than input, but got tau.ndim equal "
            f"to {tau.ndim} and input.ndim is equal to {a.ndim}"
        )
    if other.ndim != a.ndim:
        raise RuntimeError(
            f"{op}: Expected other to have the same number of dimensions as input, but got "
            f"other.ndim equal to {other.ndim} and input.ndim is equal to {a.ndim}"
        )
    for name, x in (("tau", tau), ("other", other)):
        if x.shape[: a.ndim - 2] != a.shape[:-2]:
            raise RuntimeError(
                f"{op}: Expected batch dimensions of {name} to be equal to input.shape[:-2], but "
                f"got {list(x.shape[: a.ndim - 2])}"
            )
    for name, x in (("tau", input2), ("other", input3)):
        if x._dtype is not input._dtype:
            raise RuntimeError(
                f"{op}: Expected input and {name} to have the same dtype, but input has dtype"
                f"{input._dtype._legacy[:-6]} and {name} has dtype {x._dtype._legacy[:-6]}"
            )
    _kernel_dtype(input, "ormqr_cpu")
    return Ormqr.apply(input, input2, input3, bool(left), bool(transpose))
