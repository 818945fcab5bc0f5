"""``microtorch.linalg``: the parts of ``torch.linalg`` course code uses most.

``cross``, ``matmul``, ``svd`` and ``svdvals``; every other name of ``torch.linalg`` raises an error
saying what to use instead (see ``docs/api_coverage.md``).
"""

from __future__ import annotations

from microtorch import _coverage
from microtorch.api.cross import linalg_cross as cross
from microtorch.api.decomposition import LinAlgError, svdvals
from microtorch.api.decomposition import linalg_svd as svd
from microtorch.api.linalg import matmul

__all__ = ["LinAlgError", "cross", "matmul", "svd", "svdvals"]

__getattr__ = _coverage.module_getattr("torch.linalg", __name__)
