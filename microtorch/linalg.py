"""``microtorch.linalg``: the parts of ``torch.linalg`` course code uses most.

Determinants, inverses, solves, factorizations (``cholesky``, ``qr``, ``eigh``, ``svd``),
norms and products; ``eig``/``eigvals`` are not covered
(their results are complex); every other
name of ``torch.linalg`` raises an error saying what to use instead (see ``docs/api_coverage.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from microtorch import _coverage, _lazy
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

# --- walkd (issue 24): rarer names, imported on first use (``import microtorch.linalg`` does
# not pay for them; microtorch/_lazy.py); any other name raises an error saying what to use
ON_FIRST_USE = {
    **_lazy.names(
        "microtorch.api.linalg_triangular", "solve_triangular cholesky_ex inv_ex solve_ex"
    ),
    **_lazy.names("microtorch.api.linalg_more", "vander cond tensorinv tensorsolve"),
    "diagonal": "microtorch.api.linalg_more:linalg_diagonal",
    **_lazy.names("microtorch.api.linalg_lu", "lu_factor lu_factor_ex lu lu_solve"),
    **_lazy.names("microtorch.api.householder", "householder_product"),
    **_lazy.names("microtorch.api.linalg_ldl", "ldl_factor ldl_factor_ex ldl_solve"),  # (walkh)
}
__all__ += list(ON_FIRST_USE)

if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _lazy.module_getattr(
        globals(), ON_FIRST_USE, _coverage.module_getattr("torch.linalg", __name__)
    )
    __dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)
