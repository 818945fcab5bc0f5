"""``microtorch.linalg``: the parts of ``torch.linalg`` course code uses most.

Determinants, inverses, solves, factorizations (``cholesky``, ``qr``, ``eigh``, ``svd``),
norms and products; ``eig``/``eigvals`` are not covered
(their results are complex); every other
name of ``torch.linalg`` raises an error saying what to use instead (see ``docs/api_coverage.md``).
"""

from __future__ import annotations

import importlib
from typing import Any

from microtorch import _coverage
from microtorch.api.cross import linalg_cross as cross
from microtorch.api.decomposition import LinAlgError, svdvals
from microtorch.api.decomposition import linalg_svd as svd
from microtorch.api.linalg import matmul
from microtorch.api.linalg_compose import linalg_norm as norm
from microtorch.api.linalg_compose import matrix_norm, multi_dot, vecdot, vector_norm
from microtorch.api.linalg_factor import eigh, eigvalsh, lstsq, matrix_rank, pinv, qr
from microtorch.api.linalg_square import cholesky, det, inv, matrix_exp, matrix_power, solve
from microtorch.api.linalg_square import linalg_slogdet as slogdet

__all__ = [
    "LinAlgError", "cholesky", "cross", "det", "eigh", "eigvalsh", "inv",
    "lstsq", "matmul", "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot",
    "norm", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "vecdot", "vector_norm",
]  # fmt: skip

# --- walkd (issue 24): rarer names, imported on first use (``import microtorch`` does not pay
# for them): the name -> its module under microtorch/api/ (PEP 562's module __getattr__)
_ON_FIRST_USE = {
    "solve_triangular": "linalg_triangular", "cholesky_ex": "linalg_triangular",
    "inv_ex": "linalg_triangular", "solve_ex": "linalg_triangular",
    "diagonal": "linalg_more", "vander": "linalg_more", "cond": "linalg_more",
    "tensorinv": "linalg_more", "tensorsolve": "linalg_more",
    "lu_factor": "linalg_lu", "lu_factor_ex": "linalg_lu", "lu": "linalg_lu",
    "lu_solve": "linalg_lu", "householder_product": "householder",
    # --- walkh
    "ldl_factor": "linalg_ldl", "ldl_factor_ex": "linalg_ldl", "ldl_solve": "linalg_ldl",
}  # fmt: skip
__all__ += list(_ON_FIRST_USE)
_not_found = _coverage.module_getattr("torch.linalg", __name__)


def __getattr__(name: str) -> Any:
    if name in _ON_FIRST_USE:
        module = importlib.import_module(f"microtorch.api.{_ON_FIRST_USE[name]}")
        value = getattr(module, "linalg_" + name if name == "diagonal" else name)
        globals()[name] = value  # (the next use finds it without this function)
        return value
    return _not_found(name)
