"""Issue 24: torch.cross and linalg.cross, meshgrid, unique and svd (torch.svd,
linalg.svd, linalg.svdvals), plus the torch.functional and torch.linalg modules, against
PyTorch: values, dtypes, grad_fn names, float64 gradients, warnings and errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import outcome, same

pytestmark = pytest.mark.torch


def agree(mt: Any, t: Any) -> None:
    if isinstance(t, tuple):
        assert isinstance(mt, tuple) and len(mt) == len(t)
        for m_item, t_item in zip(mt, t):
            agree(m_item, t_item)
    else:
        same(mt, t)


def compare(fn: Callable[[ModuleType], Any], torch: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the deprecation warnings: tested below)
        mt, t = outcome(fn, microtorch), outcome(fn, torch)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
    else:
        agree(mt[1], t[1])


A23 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
B23 = [[0.0, 1.0, 0.0], [1.0, 0.0, -2.0]]
CASES: dict[str, Callable[[ModuleType], Any]] = {
    "cross": lambda L: L.cross(L.tensor(A23), L.tensor(B23), dim=1),
    "cross no dim": lambda L: L.cross(L.tensor(A23).T, L.tensor(B23).T),
    "cross first size 3": lambda L: L.cross(L.ones(3, 3), L.arange(9.0).reshape(3, 3)),
    "cross method": lambda L: L.tensor(A23).cross(L.tensor(B23), dim=-1),
    "cross int": lambda L: L.cross(L.tensor([1, 2, 3]), L.tensor([3, 2, 1]), dim=0),
    "cross broadcast": lambda L: L.cross(L.tensor(A23), L.tensor([[0.0, 0.0, 1.0]]), dim=1),
    "cross grad": lambda L: L.cross(L.tensor(A23, requires_grad=True), L.tensor(B23), dim=1),
    "linalg.cross": lambda L: L.linalg.cross(L.tensor(A23), L.tensor(B23)),
    "linalg.cross dim": lambda L: L.linalg.cross(L.tensor(A23).T, L.tensor(B23).T, dim=0),
    "cross no size 3": lambda L: L.cross(L.ones(2, 2), L.ones(2, 2)),
    "cross length": lambda L: L.cross(L.ones(3, 1), L.ones(1, 3), dim=0),
    "linalg.cross length": lambda L: L.linalg.cross(L.ones(2, 4), L.ones(2, 4)),
    "cross bool": lambda L: L.linalg.cross(L.tensor([True, False, True]), L.tensor([True] * 3)),
    "cross dtypes": lambda L: L.cross(L.ones(3), L.ones(3).double(), dim=0),
    "cross shapes": lambda L: L.cross(L.ones(2, 3), L.ones(3, 3), dim=1),
    "cross out=": lambda L: L.cross(L.tensor(A23), L.tensor(B23), dim=1, out=L.empty(2, 3)),
    "meshgrid ij": lambda L: L.meshgrid(L.arange(3), L.arange(2), indexing="ij"),
    "meshgrid xy": lambda L: L.meshgrid(L.arange(3), L.arange(2), indexing="xy"),
    "meshgrid list": lambda L: L.meshgrid([L.arange(2.0), L.arange(3.0)], indexing="ij"),
    "meshgrid three xy": lambda L: L.meshgrid(L.arange(2), L.arange(3), L.arange(4), indexing="xy"),
    "meshgrid default": lambda L: L.meshgrid(L.arange(3), L.arange(2)),
    "meshgrid 0-d": lambda L: L.meshgrid(L.tensor(1.0), L.ones(2), indexing="ij"),
    "meshgrid one": lambda L: L.meshgrid(L.arange(3), indexing="xy"),
    "meshgrid grad": lambda L: L.meshgrid(
        L.arange(3.0, requires_grad=True), L.arange(2.0), indexing="ij"
    ),
    "meshgrid dtypes": lambda L: L.meshgrid(L.ones(2), L.ones(2).long(), indexing="ij"),
    "meshgrid indexing": lambda L: L.meshgrid(L.ones(2), indexing="foo"),
    "meshgrid empty": lambda L: L.meshgrid(indexing="ij"),
    "meshgrid list of ints": lambda L: L.meshgrid([1, 2], indexing="ij"),
    "unique": lambda L: L.unique(L.tensor([3, 1, 2, 3, 1, 5])),
    "unique inverse counts": lambda L: L.unique(
        L.tensor([[3, 1], [2, 3]]), return_inverse=True, return_counts=True
    ),
    "unique counts method": lambda L: L.tensor([2.5, 0.5, 2.5]).unique(return_counts=True),
    "unique sorted=False": lambda L: L.unique(L.tensor([3, 1, 2, 3]), sorted=False),
    "unique dim 0": lambda L: L.unique(
        L.tensor([[1, 2], [1, 2], [0, 3]]), dim=0, return_inverse=True, return_counts=True
    ),
    "unique dim 1": lambda L: L.unique(L.tensor([[1, 1, 0], [2, 2, 3]]), dim=1),
    "unique bool": lambda L: L.unique(L.tensor([True, False, True])),
    "unique empty": lambda L: L.unique(L.tensor([]), return_inverse=True, return_counts=True),
    "unique 0-d": lambda L: L.unique(L.tensor(3.0), return_inverse=True),
    "unique 0-d dim": lambda L: L.unique(L.tensor(3.0), dim=0),
    "unique nan": lambda L: L.unique(L.tensor([float("nan"), 1.0, float("nan")])),
    "unique grad": lambda L: L.unique(L.tensor([1.5, 0.5, 1.5], requires_grad=True)),
    "unique bad dim": lambda L: L.unique(L.ones(2, 2), dim=3),
    "unique list": lambda L: L.unique([1]),
    "svd compute_uv=False": lambda L: L.svd(L.tensor(A23), compute_uv=False),
    "svd empty": lambda L: L.svd(L.zeros(0, 2)),
    "svdvals": lambda L: L.linalg.svdvals(L.tensor(A23, dtype=L.float64)),
    "svd 1-d": lambda L: L.svd(L.ones(3)),
    "svd long": lambda L: L.svd(L.ones(2, 2, dtype=L.long)),
    "linalg.svd 1-d": lambda L: L.linalg.svd(L.ones(3)),
    "svdvals long": lambda L: L.linalg.svdvals(L.ones(2, 2, dtype=L.long)),
    "svd nan": lambda L: L.linalg.svd(L.tensor([[float("nan"), 1.0], [2.0, 3.0]])),
    "svdvals inf": lambda L: L.linalg.svdvals(L.tensor([[float("inf"), 1.0], [2.0, 3.0]])),
    "svd inf": lambda L: L.svd(L.tensor([[float("inf"), 1.0, 0.0], [2.0, 3.0, 1.0]])).S,
    "functional.meshgrid": lambda L: L.functional.meshgrid(L.arange(2), indexing="ij"),
    "functional.unique": lambda L: L.functional.unique(L.tensor([2, 2, 1])),
    "functional.split": lambda L: L.functional.split(L.arange(5), 2),
    "functional.norm": lambda L: L.functional.norm(L.tensor([3.0, 4.0])),
    "linalg.matmul": lambda L: L.linalg.matmul(L.ones(2, 3), L.ones(3, 1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


def test_meshgrid_views_share_memory_as_pytorchs(torch_module: ModuleType) -> None:
    for indexing in ("ij", "xy"):
        mt = microtorch.meshgrid(microtorch.arange(3), microtorch.arange(2), indexing=indexing)
        t = torch_module.meshgrid(torch_module.arange(3), torch_module.arange(2), indexing=indexing)
        assert [g.stride() for g in mt] == [g.stride() for g in t]


def test_meshgrid_error_for_a_matrix_starts_as_pytorchs(torch_module: ModuleType) -> None:
    # (PyTorch's message goes on with the matrix printed; microtorch names its shape)
    mt = outcome(lambda L: L.meshgrid(L.ones(2, 2), L.ones(2), indexing="ij"), microtorch)
    t = outcome(lambda L: L.meshgrid(L.ones(2, 2), L.ones(2), indexing="ij"), torch_module)
    start = "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got"
    assert mt[1] == t[1] and mt[2].startswith(start) and t[2].startswith(start)


@pytest.mark.parametrize(
    "call",
    [
        lambda L: L.cross(L.ones(2, 3), L.ones(2, 3)),
        lambda L: L.meshgrid(L.ones(2), L.ones(3)),
    ],
    ids=["cross", "meshgrid"],
)
def test_deprecation_warnings_match_pytorch(call: Callable, torch_module: ModuleType) -> None:
    texts = []
    for L in (microtorch, torch_module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(L)
        texts.append([str(w.message).split(" (Triggered internally")[0] for w in caught])
    assert texts[0] == texts[1] or texts[1] == []  # (PyTorch warns once per process)
    assert all(w.startswith(("Using torch.cross", "torch.meshgrid")) for w in texts[0])


def test_unique_has_no_derivative_as_in_pytorch(torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        L.unique(L.tensor([1.0, 2.0, 1.0], requires_grad=True)).sum().backward()

    mt, t = outcome(run, microtorch), outcome(run, torch_module)
    assert mt == t


def _svd_run(L: ModuleType, shape: tuple[int, ...], which: str, how: str) -> tuple[Any, ...]:
    values = np.random.default_rng(sum(shape)).standard_normal(shape)
    a = L.tensor(values, dtype=L.float64, requires_grad=True)
    if how == "svd":
        u, s, v = L.svd(a)
    else:
        u, s, v = L.linalg.svd(a, full_matrices=False)
    outputs = {"U": u, "S": s, "V": v}
    total = 0
    for name in which:
        out = outputs[name]
        weights = L.tensor(np.linspace(-1, 2, out.numel()).reshape(out.shape), dtype=L.float64)
        # (U and V are defined up to the signs of their columns: a loss that does not change
        # when a column flips sign, as U * U, has a well defined gradient)
        total = (
            total + (out * out * weights).sum() if name != "S" else total + (out * weights).sum()
        )
    total.backward()
    return s.detach().numpy(), a.grad.numpy(), u.grad_fn.name(), v.grad_fn.name()


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 4, 3)])
@pytest.mark.parametrize("which", ["S", "U", "V", "USV"])
@pytest.mark.parametrize("how", ["svd", "linalg.svd"])
def test_svd_gradients_match_pytorch(shape, which, how, torch_module: ModuleType) -> None:
    mt, t = _svd_run(microtorch, shape, which, how), _svd_run(torch_module, shape, which, how)
    np.testing.assert_allclose(mt[0], t[0], rtol=1e-12)
    np.testing.assert_allclose(mt[1], t[1], rtol=1e-8, atol=1e-10)
    assert mt[2:] == t[2:]


SVD_CASES: dict[str, Callable[[ModuleType], Any]] = {
    "svd": lambda L: L.svd(L.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)),
    "svd wide": lambda L: L.svd(L.tensor(A23)),
    "svd some=False": lambda L: L.svd(L.tensor(A23), some=False),
    "svd batched": lambda L: L.svd(L.arange(12.0).reshape(2, 3, 2) ** 1.5),
    "linalg.svd": lambda L: L.linalg.svd(L.tensor(A23, requires_grad=True)),
    "linalg.svd reduced": lambda L: L.linalg.svd(L.tensor(A23), full_matrices=False),
    "linalg.svd tall float64": lambda L: L.linalg.svd(L.tensor(A23, dtype=L.float64).T),
}


@pytest.mark.parametrize("case", list(SVD_CASES))
def test_svd_matches_pytorch_up_to_the_signs_of_wide_matrices(case, torch_module) -> None:
    mt, t = SVD_CASES[case](microtorch), SVD_CASES[case](torch_module)
    assert type(mt).__name__ == type(t).__name__
    assert mt._fields == tuple(t._fields) if hasattr(t, "_fields") else len(mt) == len(t)
    m_u, m_s, m_v = (x.detach().numpy() for x in mt)
    t_u, t_s, t_v = (x.detach().numpy() for x in t)
    for m_x, t_x in zip(mt, t):
        assert str(m_x.dtype).split(".")[1] == str(t_x.dtype).split(".")[1]
        assert tuple(m_x.shape) == tuple(t_x.shape)
        assert (m_x.grad_fn is None) == (t_x.grad_fn is None)
        if t_x.grad_fn is not None:
            assert m_x.grad_fn.name() == t_x.grad_fn.name()
    np.testing.assert_allclose(m_s, t_s, rtol=1e-5)
    k = t_s.shape[-1]
    # a singular vector's sign is arbitrary: LAPACK's (numpy's OpenBLAS, PyTorch's MKL) agree
    # for tall and square matrices; for wide ones (m < n) they may flip a pair (U[:, i], V[:, i])
    flips = np.sign((m_u[..., :k] * t_u[..., :k]).sum(-2, keepdims=True))
    wide = t_u.shape[-2] < (t_v.shape[-1] if "linalg" in case else t_v.shape[-2])
    if not wide:
        assert (flips == 1).all()
    np.testing.assert_allclose(m_u[..., :k] * flips, t_u[..., :k], rtol=1e-4, atol=1e-5)
    v_flips = flips if "linalg" not in case else np.swapaxes(flips, -1, -2)
    m_v_k = m_v[..., :k] if "linalg" not in case else m_v[..., :k, :]
    t_v_k = t_v[..., :k] if "linalg" not in case else t_v[..., :k, :]
    np.testing.assert_allclose(m_v_k * v_flips, t_v_k, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
def test_full_matrices_gradients_match_pytorch(shape, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        values = np.random.default_rng(1).standard_normal(shape)
        a = L.tensor(values, dtype=L.float64, requires_grad=True)
        u, s, vh = L.linalg.svd(a)
        ((u * u).sum() + (vh**2 * L.arange(vh.numel(), dtype=L.float64).view(vh.shape)).sum()
         + s.sum()).backward()  # fmt: skip
        return a.grad.numpy()

    np.testing.assert_allclose(run(microtorch), run(torch_module), rtol=1e-8, atol=1e-10)


def test_linalg_and_functional_name_what_they_do_not_cover() -> None:
    with pytest.raises(NotImplementedError, match="torch.linalg.eig"):
        _ = microtorch.linalg.eig
    with pytest.raises(NotImplementedError, match="torch.functional.stft"):
        _ = microtorch.functional.stft
