"""``torch.lobpcg``: the k largest (or smallest) eigenpairs of a symmetric (generalized)
eigenproblem by LOBPCG, with PyTorch 2.13's defaults, checks and errors around the iteration in
``microtorch/ops/lobpcg.py``. Imported on first use.

Where microtorch differs: the iterates are its own (not PyTorch's), so ``tracker`` and the
``ortho_*params`` that steer PyTorch's inner loops are refused; without ``X`` the start is
``microtorch.randn``'s, not PyTorch's. The converged pairs agree with PyTorch's to within the
tolerance, as PyTorch's own runs from two starts agree with each other.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch import dtypes as _dtypes
from microtorch.api.arguments import parser_error
from microtorch.api.decomposition import LinAlgError
from microtorch.api.linalg import c_name
from microtorch.api.random_fill import generator_rng
from microtorch.ops.lobpcg import Lobpcg

__all__ = ["lobpcg"]


def lobpcg(
    A: Any, k: int | None = None, B: Any = None, X: Any = None, n: int | None = None,  # noqa: N803
    iK: Any = None, niter: int | None = None, tol: float | None = None,  # noqa: N803
    largest: bool | None = None, method: str | None = None, tracker: Any = None,
    ortho_iparams: Any = None, ortho_fparams: Any = None, ortho_bparams: Any = None,
) -> tuple[Any, Any]:  # fmt: skip
    """The ``k`` largest (``largest=False``: smallest) eigenvalues of symmetric ``A`` (with
    ``B``: of A x = lambda B x) and their eigenvectors, ``(E, X)`` of shapes (*, k), (*, m, k)."""
    if tracker is not None or any(p is not None for p in (ortho_iparams, ortho_fparams,
                                                          ortho_bparams)):  # fmt: skip
        raise NotImplementedError(
            "microtorch's lobpcg takes no tracker or ortho_iparams/fparams/bparams: its "
            "iterates are its own, not PyTorch's (Fix: leave them out; the converged "
            "eigenpairs agree with PyTorch's)"
        )
    if A.requires_grad or (B is not None and B.requires_grad):  # (as PyTorch: A.grad symmetric)
        A = (A + A.mT) / 2
        B = (B + B.mT) / 2 if B is not None else None
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = A.dtype if A.dtype.is_floating_point else _dtypes.float32
    feps = {_dtypes.float32: 1.2e-07, _dtypes.float64: 2.23e-16}[dtype]  # (KeyError: float16)
    tol = feps**0.5 if tol is None else tol
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(
            f"LOBPCG algorithm is not applicable when the number of A rows (={m}) is smaller "
            f"than 3 x the number of requested eigenpairs (={n})"
        )
    batch = math.prod(A.shape[:-2])
    starts = []
    for i in range(batch):
        if X is None:  # (as torch.randn((m, n)) draws it, from the default generator)
            message = parser_error("randn", ["tuple of ints size"], ((m, n),), {})
            if message is not None:  # (k=1.5)
                raise TypeError(f"{message} (Fix: k and n are whole numbers of eigenpairs)")
            starts.append(generator_rng(None).standard_normal((m, n)).astype(dtype.numpy))
            continue
        start = X if A.dim() == 2 else X.reshape(-1, *X.shape[-2:])[i]
        if not (start.dim() == 2 and tuple(start.shape) == (m, n)):
            raise AssertionError(f"X shape mismatch: got {start.shape}, expected {(m, n)}")
        if not start.dtype.is_floating_point:  # (PyTorch's first use of X: its norm)
            raise RuntimeError(
                "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                f"{start.dtype._legacy[:-6]} (Fix: a float X, e.g. X.to(A.dtype))"
            )
        starts.append(start._data)
    other = dtype if X is None else X.dtype  # (an integer A times PyTorch's float32 start)
    if A.dtype is not other:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {c_name(A.dtype)} != "
            f"{c_name(other)} (Fix: X.to(A.dtype))"
        )
    if n == 0:  # (PyTorch's accident, in its first step)
        raise ZeroDivisionError(
            "0.0 cannot be raised to a negative power (Fix: ask for at least one eigenpair: "
            "k >= 1, or an X with a column)"
        )
    ortho = (method or "ortho") == "ortho"  # (PyTorch runs "basic" for any other name)
    niter = 1000 if niter is None else niter
    i_k = None if iK is None else iK._data
    try:
        E, U = Lobpcg.apply(A, B, np.stack(starts), i_k, k, niter, tol,
                            True if largest is None else largest, ortho)  # fmt: skip
    except np.linalg.LinAlgError:
        raise LinAlgError(
            "linalg.cholesky: The factorization could not be completed because the input is "
            'not positive-definite (Fix: method="ortho" drops the dependent directions that '
            '"basic" cannot factor)'
        ) from None
    return E, U
