"""Issue 24 (walkd): torch.linalg.cholesky_ex/inv_ex/solve_ex, diagonal, vander, cond,
solve_triangular, tensorinv, tensorsolve and torch.cholesky, cholesky_inverse, cholesky_solve,
logdet, matrix_exp, matrix_power, pinverse, qr, triangular_solve (and their Tensor methods),
against PyTorch 2.13: values, dtypes, grad_fn names, named results, float64 gradients (against
PyTorch and by finite differences) and errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue24_linalg_more import _grads, _sym, compare, d, f, g

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(2413)
A = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
AB = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
B = RNG.standard_normal((3, 2))
BB = RNG.standard_normal((2, 3, 2))
TALL = RNG.standard_normal((4, 2))
SPD = A @ A.T + 3 * np.eye(3)
LOW = np.linalg.cholesky(SPD)
SPDB = AB @ AB.transpose(0, 2, 1) + np.eye(3)
LOWB = np.linalg.cholesky(SPDB)
SING = [[1.0, 2.0], [2.0, 4.0]]
NOT_PD = [[4.0, 2.0, 1.0], [2.0, -3.0, 0.0], [1.0, 0.0, 5.0]]
T4 = RNG.standard_normal((4, 6, 8, 3))
T5 = RNG.standard_normal((6, 4, 2, 3, 4))
B6 = RNG.standard_normal((6, 4))
INF = float("inf")

CASES: dict[str, Callable[[ModuleType], Any]] = {
    "cholesky_ex": lambda L: L.linalg.cholesky_ex(g(L, SPD)),
    "cholesky_ex upper batch": lambda L: L.linalg.cholesky_ex(g(L, SPDB), upper=True),
    "cholesky_ex info": lambda L: L.linalg.cholesky_ex(d(L, NOT_PD)).info,
    "cholesky_ex info batch": lambda L: L.linalg.cholesky_ex(d(L, np.stack([SPD, -SPD]))).info,
    "cholesky_ex check": lambda L: L.linalg.cholesky_ex(d(L, NOT_PD), check_errors=True),
    "cholesky_ex not square": lambda L: L.linalg.cholesky_ex(d(L, B)),
    "cholesky_ex int": lambda L: L.linalg.cholesky_ex(L.eye(2, dtype=L.int64)),
    "inv_ex": lambda L: L.linalg.inv_ex(g(L, AB)),
    "inv_ex info": lambda L: L.linalg.inv_ex(d(L, SING)).info,
    "inv_ex check": lambda L: L.linalg.inv_ex(d(L, SING), check_errors=True),
    "inv_ex not square": lambda L: L.linalg.inv_ex(d(L, B)),
    "solve_ex": lambda L: L.linalg.solve_ex(g(L, A), g(L, B)),
    "solve_ex left=False": lambda L: L.linalg.solve_ex(g(L, A), g(L, B.T), left=False),
    "solve_ex info": lambda L: L.linalg.solve_ex(d(L, SING), d(L, [1.0, 2.0])).info,
    "solve_ex check": lambda L: L.linalg.solve_ex(d(L, SING), d(L, [1.0, 2.0]), check_errors=True),
    "diagonal": lambda L: L.linalg.diagonal(g(L, AB)),
    "diagonal offset": lambda L: L.linalg.diagonal(g(L, T4), offset=1, dim1=0, dim2=2),
    "diagonal list": lambda L: L.linalg.diagonal([[1.0]]),
    "vander": lambda L: L.linalg.vander(g(L, B[:, 0])),
    "vander N": lambda L: L.linalg.vander(g(L, B.T), N=5),
    "vander int": lambda L: L.linalg.vander(L.tensor([1, 2, 3])),
    "vander N=1": lambda L: L.linalg.vander(d(L, [1.0, 2.0]), N=1),
    "vander bool": lambda L: L.linalg.vander(L.tensor([True])),
    "cond": lambda L: L.linalg.cond(g(L, A)),
    "cond -2": lambda L: L.linalg.cond(g(L, AB), -2),
    "cond tall": lambda L: L.linalg.cond(g(L, TALL)),
    "cond fro": lambda L: L.linalg.cond(g(L, A), "fro"),
    "cond nuc": lambda L: L.linalg.cond(g(L, AB), "nuc"),
    "cond 1": lambda L: L.linalg.cond(g(L, A), 1),
    "cond -inf": lambda L: L.linalg.cond(g(L, A), -INF),
    "cond singular 1": lambda L: L.linalg.cond(d(L, SING), 1),
    "cond empty": lambda L: L.linalg.cond(L.zeros(2, 0, 0)),
    "cond tall fro": lambda L: L.linalg.cond(d(L, TALL), "fro"),
    "cond tall 1": lambda L: L.linalg.cond(d(L, TALL), 1),
    "cond tall 1.0": lambda L: L.linalg.cond(d(L, TALL), 1.0),
    "cond tall inf": lambda L: L.linalg.cond(d(L, TALL), INF),
    "cond 3": lambda L: L.linalg.cond(d(L, A), 3),
    "cond 1-d": lambda L: L.linalg.cond(d(L, [1.0])),
    "solve_triangular": lambda L: L.linalg.solve_triangular(g(L, A), g(L, B), upper=True),
    "solve_triangular lower": lambda L: L.linalg.solve_triangular(g(L, A), g(L, B), upper=False),
    "solve_triangular right unit": lambda L: L.linalg.solve_triangular(
        g(L, A), g(L, B.T), upper=False, left=False, unitriangular=True
    ),
    "solve_triangular broadcast": lambda L: L.linalg.solve_triangular(g(L, AB), g(L, B), upper=True),
    "solve_triangular float32": lambda L: L.linalg.solve_triangular(f(L, A), f(L, B), upper=True),
    "solve_triangular singular": lambda L: L.linalg.solve_triangular(
        d(L, [[0.0, 1.0], [0.0, 1.0]]), L.ones(2, 1, dtype=L.float64), upper=True
    ),
    "solve_triangular vector": lambda L: L.linalg.solve_triangular(d(L, A), d(L, B[:, 0]), upper=True),
    "solve_triangular 1-d A": lambda L: L.linalg.solve_triangular(d(L, A[0]), d(L, B), upper=True),
    "solve_triangular int": lambda L: L.linalg.solve_triangular(L.eye(2, dtype=L.int64), L.eye(2, dtype=L.int64), upper=True),
    "solve_triangular shapes": lambda L: L.linalg.solve_triangular(d(L, A), d(L, B.T), upper=True),
    "solve_triangular shapes right": lambda L: L.linalg.solve_triangular(d(L, A), d(L, B), upper=True, left=False),
    "solve_triangular not square": lambda L: L.linalg.solve_triangular(d(L, B), d(L, B), upper=True),
    "solve_triangular no upper": lambda L: L.linalg.solve_triangular(d(L, A), d(L, B)),
    "solve_triangular list": lambda L: L.linalg.solve_triangular([[1.0]], d(L, B), upper=True),
    "triangular_solve": lambda L: L.triangular_solve(g(L, B), g(L, A)),
    "triangular_solve lower transpose": lambda L: L.triangular_solve(g(L, BB), g(L, A), upper=False, transpose=True),
    "triangular_solve unit": lambda L: L.triangular_solve(g(L, B), g(L, AB), unitriangular=True),
    "triangular_solve method": lambda L: g(L, B).triangular_solve(g(L, A), False),
    "triangular_solve 1-d": lambda L: L.triangular_solve(d(L, B[:, 0]), d(L, A)),
    "triangular_solve shapes": lambda L: L.triangular_solve(d(L, B.T), d(L, A)),
    "triangular_solve int": lambda L: L.triangular_solve(L.eye(2, dtype=L.int64), L.eye(2, dtype=L.int64)),
    "cholesky_solve": lambda L: L.cholesky_solve(g(L, B), g(L, LOW)),
    "cholesky_solve upper batch": lambda L: L.cholesky_solve(g(L, B), g(L, LOWB.transpose(0, 2, 1)), upper=True),
    "cholesky_solve method": lambda L: g(L, BB).cholesky_solve(g(L, LOW)),
    "cholesky_solve vector": lambda L: L.cholesky_solve(d(L, B[:, 0]), d(L, LOW)),
    "cholesky_solve shapes": lambda L: L.cholesky_solve(d(L, B.T), d(L, LOW)),
    "cholesky_solve dtypes": lambda L: L.cholesky_solve(f(L, B), d(L, LOW)),
    "cholesky_solve int": lambda L: L.cholesky_solve(L.eye(2, dtype=L.int64), L.eye(2, dtype=L.int64)),
    "cholesky_solve not square": lambda L: L.cholesky_solve(d(L, B), d(L, B)),
    "cholesky_inverse": lambda L: L.cholesky_inverse(g(L, LOW)),
    "cholesky_inverse upper batch": lambda L: L.cholesky_inverse(g(L, LOWB.transpose(0, 2, 1)), upper=True),
    "cholesky_inverse method float32": lambda L: f(L, LOW).cholesky_inverse(),
    "cholesky_inverse 1-d": lambda L: L.cholesky_inverse(d(L, B[:, 0])),
    "cholesky_inverse not square": lambda L: L.cholesky_inverse(d(L, B)),
    "cholesky_inverse int": lambda L: L.cholesky_inverse(L.eye(2, dtype=L.int64)),
    "cholesky": lambda L: L.cholesky(g(L, SPD)),
    "cholesky upper batch": lambda L: L.cholesky(g(L, SPDB), upper=True),
    "cholesky method": lambda L: g(L, SPD).cholesky(True),
    "cholesky not pd": lambda L: L.cholesky(d(L, NOT_PD)),
    "cholesky int": lambda L: L.cholesky(L.eye(2, dtype=L.int64)),
    "logdet": lambda L: L.logdet(g(L, SPD)),
    "logdet negative": lambda L: L.logdet(-g(L, np.eye(3))),
    "logdet singular": lambda L: L.logdet(d(L, SING)),
    "logdet method batch": lambda L: g(L, AB).logdet(),
    "logdet int": lambda L: L.logdet(L.eye(2, dtype=L.int64)),
    "logdet not square": lambda L: L.logdet(d(L, B)),
    "matrix_exp": lambda L: L.matrix_exp(g(L, A)),
    "matrix_exp method": lambda L: g(L, AB).matrix_exp(),
    "matrix_exp not square": lambda L: L.matrix_exp(d(L, B)),
    "matrix_power": lambda L: L.matrix_power(g(L, A), 3),
    "matrix_power method -2": lambda L: g(L, A).matrix_power(-2),
    "matrix_power float": lambda L: L.matrix_power(d(L, A), 2.0),
    "matrix_power method float": lambda L: d(L, A).matrix_power(2.0),
    "pinverse": lambda L: L.pinverse(g(L, TALL)),
    "pinverse rcond": lambda L: L.pinverse(g(L, A), rcond=0.2),
    "pinverse method": lambda L: g(L, TALL).pinverse(),
    "qr": lambda L: L.qr(g(L, TALL)),
    "qr some=False": lambda L: L.qr(g(L, TALL), some=False),
    "qr method": lambda L: g(L, A).qr(),
    "qr int": lambda L: L.qr(L.eye(2, dtype=L.int64)),
    "tensorinv": lambda L: L.linalg.tensorinv(g(L, T4), ind=2),
    "tensorinv ind 0": lambda L: L.linalg.tensorinv(d(L, T4), ind=0),
    "tensorinv ind 1": lambda L: L.linalg.tensorinv(d(L, T4), ind=1),
    "tensorinv ind float": lambda L: L.linalg.tensorinv(d(L, T4), ind=2.0),
    "tensorsolve": lambda L: L.linalg.tensorsolve(g(L, T5), g(L, B6)),
    "tensorsolve dims": lambda L: L.linalg.tensorsolve(g(L, T5.transpose(2, 0, 1, 3, 4)), d(L, B6), dims=(0,)),
    "tensorsolve shapes": lambda L: L.linalg.tensorsolve(d(L, T5), d(L, T5[:, 0, 0, 0, :2])),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(CASES[case], torch_module)


def test_failed_matrices_report_info_and_nan() -> None:
    # (a failed matrix's values are unspecified in PyTorch: LAPACK's partial work)
    out = microtorch.linalg.cholesky_ex(microtorch.tensor(np.stack([SPD, -SPD])))
    assert out.info.tolist() == [0, 1]
    assert np.allclose(out.L[0].numpy(), LOW) and np.isnan(out.L[1].numpy()).all()
    inv = microtorch.linalg.inv_ex(microtorch.tensor(np.stack([SING, np.eye(2)])))
    assert inv.info.tolist() == [2, 0] and np.isnan(inv.inverse[0].numpy()).all()
    assert np.allclose(inv.inverse[1].numpy(), np.eye(2))
    sol = microtorch.linalg.solve_ex(
        microtorch.tensor(SING).double(), microtorch.ones(2, 3).double()
    )
    assert sol.info.item() == 2 and np.isnan(sol.result.numpy()).all()


GRADS: dict[str, tuple[Callable[..., Any], tuple[np.ndarray, ...]]] = {
    "cholesky_ex": (lambda L, a: L.linalg.cholesky_ex(_sym(a)).L, (SPDB,)),
    "inv_ex": (lambda L, a: L.linalg.inv_ex(a).inverse, (AB,)),
    "solve_ex": (lambda L, a, b: L.linalg.solve_ex(a, b).result, (AB, B)),
    "diagonal": (lambda L, a: L.linalg.diagonal(a, offset=-1), (AB,)),
    "vander": (lambda L, x: L.linalg.vander(x, N=4), (B.T,)),
    "cond": (lambda L, a: L.linalg.cond(a), (AB,)),
    "cond tall -2": (lambda L, a: L.linalg.cond(a, -2), (TALL,)),
    "cond nuc": (lambda L, a: L.linalg.cond(a, "nuc"), (AB,)),
    "solve_triangular": (lambda L, a, b: L.linalg.solve_triangular(a, b, upper=True), (AB, B)),
    "solve_triangular lower right": (
        lambda L, a, b: L.linalg.solve_triangular(a, b, upper=False, left=False), (A, BB.transpose(0, 2, 1)),
    ),
    "solve_triangular unit": (
        lambda L, a, b: L.linalg.solve_triangular(a, b, upper=False, unitriangular=True), (A, B),
    ),
    "triangular_solve": (lambda L, b, a: L.triangular_solve(b, a), (B, A)),
    "triangular_solve lower transpose": (
        lambda L, b, a: L.triangular_solve(b, a, upper=False, transpose=True), (BB, A),
    ),
    "triangular_solve unit transpose": (
        lambda L, b, a: L.triangular_solve(b, a, transpose=True, unitriangular=True), (B, AB),
    ),
    "cholesky_solve": (lambda L, b, low: L.cholesky_solve(b, low), (BB, LOW)),
    "cholesky_solve upper": (lambda L, b, u: L.cholesky_solve(b, u, upper=True), (B, LOWB.transpose(0, 2, 1))),
    "cholesky_inverse": (lambda L, low: L.cholesky_inverse(low), (LOWB,)),
    "cholesky_inverse upper": (lambda L, u: L.cholesky_inverse(u, upper=True), (LOW.T,)),
    "cholesky": (lambda L, a: L.cholesky(_sym(a)), (SPD,)),
    "cholesky upper": (lambda L, a: L.cholesky(_sym(a), upper=True), (SPDB,)),
    "logdet": (lambda L, a: L.logdet(a), (SPDB,)),
    "matrix_exp": (lambda L, a: L.matrix_exp(a), (A,)),
    "matrix_power": (lambda L, a: L.matrix_power(a, 5), (A,)),
    "pinverse": (lambda L, a: L.pinverse(a), (TALL,)),
    "qr": (lambda L, a: L.qr(a), (TALL,)),
    "tensorinv": (lambda L, a: L.linalg.tensorinv(a.reshape(2, 3, 6), ind=2), (T4[0, :, :6, 0],)),
    "tensorsolve": (lambda L, a, b: L.linalg.tensorsolve(a, b), (T5[:2, :3, 0, :2, :3], T5[:2, :3, 1, 1, 1])),
}  # fmt: skip


def _quiet_grads(lib: ModuleType, fn: Callable[..., Any], arrays: tuple[np.ndarray, ...]) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _grads(lib, fn, arrays)


@pytest.mark.parametrize("case", list(GRADS))
def test_gradients_match_pytorch(case: str, torch_module: ModuleType) -> None:
    fn, arrays = GRADS[case]
    mine, theirs = _quiet_grads(microtorch, fn, arrays), _quiet_grads(torch_module, fn, arrays)
    for m, t in zip(mine, theirs):
        assert (m is None) == (t is None)
        if m is not None:
            np.testing.assert_allclose(m, t, rtol=1e-8, atol=1e-10)


# (the Cholesky solves read one triangle of the factor, PyTorch's gradient is not a triangle:
# by finite differences, the factor is made triangular first)
FACTOR_TRIANGLE = {
    "cholesky_solve": lambda L, b, low: L.cholesky_solve(b, low.tril()),
    "cholesky_solve upper": lambda L, b, u: L.cholesky_solve(b, u.triu(), upper=True),
    "cholesky_inverse": lambda L, low: L.cholesky_inverse(low.tril()),
    "cholesky_inverse upper": lambda L, u: L.cholesky_inverse(u.triu(), upper=True),
}


@pytest.mark.parametrize("case", [c for c in GRADS if not c.startswith("cholesky ")])
def test_gradients_by_finite_differences(case: str) -> None:
    fn, arrays = GRADS[case]
    fn = FACTOR_TRIANGLE.get(case, fn)
    xs = tuple(microtorch.tensor(a, dtype=microtorch.float64, requires_grad=True) for a in arrays)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert microtorch.autograd.gradcheck(lambda *t: fn(microtorch, *t), xs)


@pytest.mark.parametrize("p", ["fro", 1, -INF])
def test_cond_by_the_inverse_has_no_gradient_as_in_pytorch(
    p: Any, torch_module: ModuleType
) -> None:
    # PyTorch's linalg.cond writes into inv_ex's saved result in place: its backward fails
    for L in (microtorch, torch_module):
        out = L.linalg.cond(g(L, A), p)
        with pytest.raises(RuntimeError, match="^one of the variables needed for gradient"):
            out.backward()


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("torch.cholesky is deprecated", lambda L: L.cholesky(d(L, SPD))),
        ("torch.qr is deprecated", lambda L: L.qr(d(L, A))),
        ("torch.triangular_solve is deprecated", lambda L: L.triangular_solve(d(L, B), d(L, A))),
    ],
)
def test_deprecated_functions_warn_once_as_pytorch(name: str, call: Any) -> None:
    from microtorch.api import linalg_triangular

    linalg_triangular._warned.clear()
    with pytest.warns(UserWarning, match=f"^{name}"):
        call(microtorch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call(microtorch)


def test_new_names_cost_nothing_at_import() -> None:
    import subprocess
    import sys

    code = "import microtorch, sys; print('microtorch.api.linalg_triangular' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ruff: noqa: E501 - the case tables: one case per line
