"""Issue 24 (walkh): torch.linalg.ldl_factor, ldl_factor_ex and ldl_solve against PyTorch
2.13: LAPACK sytrf's pivots and info exactly, LD and the solve to a few ulps, on 800 random
symmetric matrices (definite, indefinite, with ties and zeros, float64 and float32), batches,
the nodes (``NotImplemented``) and their backward errors, and the argument errors.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

pytestmark = pytest.mark.torch


def _matrices() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    out = []
    for t in range(400):
        n = int(rng.integers(1, 12))
        a = rng.standard_normal((n, n))
        kind = t % 4
        if kind == 0:
            a = a + a.T  # indefinite
        elif kind == 1:
            a = a @ a.T  # positive (semi)definite
        elif kind == 2:
            a = np.round(a + a.T)  # small integers: ties between candidate pivots, zeros
        else:
            a = a * (rng.random((n, n)) < 0.5)
            a = a + a.T  # sparse: zero diagonals force 2x2 blocks
        out.append(a)
    return out


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_factor_and_solve_match_pytorch(dtype: str, torch_module: ModuleType) -> None:
    rng = np.random.default_rng(1)
    eps = np.finfo(dtype).eps
    two_by_two = 0
    for a in _matrices():
        a = a.astype(dtype)
        theirs = torch_module.linalg.ldl_factor_ex(torch_module.tensor(a))
        mine = microtorch.linalg.ldl_factor_ex(microtorch.tensor(a))
        assert mine.pivots.dtype == microtorch.int32 and mine.LD.dtype == getattr(microtorch, dtype)
        np.testing.assert_array_equal(mine.pivots.numpy(), theirs.pivots.numpy())
        assert mine.info.item() == theirs.info.item() and mine.info.shape == ()
        two_by_two += int((theirs.pivots < 0).any())
        scale = max(1.0, float(np.abs(theirs.LD.numpy()).max()))
        np.testing.assert_allclose(
            mine.LD.numpy(), theirs.LD.numpy(), rtol=0, atol=64 * eps * scale
        )
        if theirs.info.item() == 0:
            b = rng.standard_normal((a.shape[0], 2)).astype(dtype)
            x_theirs = torch_module.linalg.ldl_solve(
                theirs.LD, theirs.pivots, torch_module.tensor(b)
            )
            x_mine = microtorch.linalg.ldl_solve(mine.LD, mine.pivots, microtorch.tensor(b))
            # (two rounding-level differences in LD grow by A's condition number in the solve)
            scale = max(1.0, float(np.abs(x_theirs.numpy()).max())) * np.linalg.cond(
                a.astype(float)
            )
            np.testing.assert_allclose(
                x_mine.numpy(), x_theirs.numpy(), rtol=0, atol=64 * eps * scale
            )
    assert two_by_two > 100  # (the cases do reach the 2x2 blocks)


def test_large_and_batched_and_layout(torch_module: ModuleType) -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 3, 70, 70))
    a = a + np.swapaxes(a, -1, -2)  # 70 > LAPACK's block size: sytrf's blocked path
    b = rng.standard_normal((2, 3, 70, 4))
    results = []
    for lib in (microtorch, torch_module):
        ld, pivots = lib.linalg.ldl_factor(lib.tensor(a))
        x = lib.linalg.ldl_solve(ld, pivots, lib.tensor(b))
        results.append((ld.numpy(), pivots.numpy(), x.numpy(), ld.stride(), x.stride()))
    mine, theirs = results
    np.testing.assert_allclose(mine[0], theirs[0], rtol=0, atol=1e-11)
    np.testing.assert_array_equal(mine[1], theirs[1])
    np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-9, atol=1e-11)
    assert mine[3:] == theirs[3:]


def test_only_the_lower_triangle_is_read_and_nan(torch_module: ModuleType) -> None:
    a = np.array([[2.0, 9.0, -7.0], [1.0, -3.0, 5.0], [0.5, 4.0, 0.0]])
    for case in (a, np.array([[1.0, np.nan], [np.nan, 1.0]]), np.zeros((0, 0))):
        theirs = torch_module.linalg.ldl_factor(torch_module.tensor(case), hermitian=True)
        mine = microtorch.linalg.ldl_factor(microtorch.tensor(case), hermitian=True)
        np.testing.assert_allclose(mine.LD.numpy(), theirs.LD.numpy(), rtol=1e-15)
        np.testing.assert_array_equal(mine.pivots.numpy(), theirs.pivots.numpy())


def test_no_derivative_as_pytorch(torch_module: ModuleType) -> None:
    a = np.array([[1.0, 2.0], [2.0, -1.0]])
    seen = []
    for lib in (microtorch, torch_module):
        A = lib.tensor(a, requires_grad=True)
        ld, pivots = lib.linalg.ldl_factor(A)
        B = lib.ones(2, 1, dtype=lib.float64, requires_grad=True)
        x = lib.linalg.ldl_solve(ld.detach(), pivots, B)
        seen.append([type(ld.grad_fn).__name__, type(x.grad_fn).__name__, pivots.requires_grad,
                     _message(ld.sum().backward), _message(x.sum().backward)])  # fmt: skip
    assert seen[0] == seen[1]


def test_errors_match_pytorch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        la, i32 = lib.linalg, lib.int32
        return [
            lambda: la.ldl_factor(lib.ones(3, 2)), lambda: la.ldl_factor_ex(lib.ones(3, 2)),
            lambda: la.ldl_factor(lib.ones(3, 3, dtype=lib.int64)), lambda: la.ldl_factor(lib.ones(3)),
            lambda: la.ldl_factor([[1.0]]),
            lambda: la.ldl_solve(lib.eye(3), lib.ones(3, dtype=i32), lib.ones(2, 1)),
            lambda: la.ldl_solve(lib.eye(3), lib.ones(3), lib.ones(3, 1)),
            lambda: la.ldl_solve(lib.eye(3), lib.ones(3, dtype=i32), lib.ones(3)),
            lambda: la.ldl_solve(lib.eye(3), lib.ones(3, dtype=i32), lib.ones(3, 1, dtype=lib.float64)),
        ]  # fmt: skip

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]


def test_singular_d(torch_module: ModuleType) -> None:
    # ldl_factor_ex reports info; ldl_factor raises (PyTorch 2.13 reaches an internal assert,
    # "... torch.linalg.ldl_factor: Unknown error code: 1."; microtorch ends its line the same)
    a = [[0.0, 0.0], [0.0, 1.0]]
    for lib in (microtorch, torch_module):
        assert lib.linalg.ldl_factor_ex(lib.tensor(a)).info.item() == 1
        with pytest.raises(RuntimeError, match="ldl_factor: Unknown error code: 1"):
            lib.linalg.ldl_factor(lib.tensor(a))
        with pytest.raises(RuntimeError, match="ldl_factor_ex: Unknown error code: 1"):
            lib.linalg.ldl_factor_ex(lib.tensor(a), check_errors=True)


# ruff: noqa: E501 - the case tables: one case per line
