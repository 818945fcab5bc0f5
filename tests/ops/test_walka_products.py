"""Issue 24 (walka): x.addmm (beta, alpha), addmv, addr, addbmm, baddbmm and their in-place
twins, chain_matmul, inner, ger, vdot, kron and rsub against PyTorch: values, dtypes, grad_fn
names, float64 gradients and errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare, compare_gradients

pytestmark = pytest.mark.torch


def r(L: ModuleType, *shape: int, grad: bool = True) -> Any:
    n = int(np.prod(shape))
    values = np.cos(np.arange(n) * 1.3).reshape(shape)
    return L.tensor(values, dtype=L.float64, requires_grad=grad)


def ints(L: ModuleType, *shape: int) -> Any:
    return L.arange(int(np.prod(shape))).reshape(shape) % 5 - 2


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "addmm method": lambda L: r(L, 4, 3).addmm(r(L, 4, 6), r(L, 6, 3)),
    "addmm beta alpha": lambda L: r(L, 3).addmm(r(L, 4, 6), r(L, 6, 3), beta=2, alpha=0.5),
    "addmm beta 0 nan": lambda L: (r(L, 4, 3) * float("nan")).addmm(r(L, 4, 6), r(L, 6, 3), beta=0),
    "addmm bad shapes": lambda L: r(L, 4, 3).addmm(r(L, 4, 5), r(L, 6, 3), alpha=2),
    "addmm bad bias": lambda L: r(L, 2).addmm(r(L, 4, 6), r(L, 6, 3), beta=2),
    "addmm dtype": lambda L: r(L, 3).float().addmm(r(L, 4, 6), r(L, 6, 3), beta=2),
    "addmm_": lambda L: r(L, 4, 3, grad=False).addmm_(r(L, 4, 6), r(L, 6, 3), alpha=3),
    "torch.addmm beta alpha": lambda L: L.addmm(r(L, 3), r(L, 4, 6), r(L, 6, 3), beta=2, alpha=0.5),
    "torch.addmm beta 0": lambda L: L.addmm(
        r(L, 4, 3) * float("nan"), r(L, 4, 6), r(L, 6, 3), beta=0
    ),
    "addmm_ broadcast input": lambda L: r(L, 3, grad=False).addmm_(r(L, 4, 6), r(L, 6, 3)),
    "addmv": lambda L: L.addmv(r(L, 4), r(L, 4, 6), r(L, 6), beta=2, alpha=3),
    "addmv broadcast": lambda L: L.addmv(r(L, 1), r(L, 4, 6), r(L, 6)),
    "addmv method": lambda L: r(L, 4).addmv(r(L, 4, 6), r(L, 6)),
    "addmv int": lambda L: L.addmv(ints(L, 4), ints(L, 4, 6), ints(L, 6), alpha=2),
    "addmv bad input": lambda L: L.addmv(r(L, 3), r(L, 4, 6), r(L, 6)),
    "addmv bad vec": lambda L: L.addmv(r(L, 4), r(L, 4, 6), r(L, 5)),
    "addmv 3-d": lambda L: L.addmv(r(L, 4), r(L, 4, 6, 1), r(L, 6)),
    "addmv dtype": lambda L: L.addmv(r(L, 4), r(L, 4, 6), r(L, 6).float()),
    "addmv_": lambda L: r(L, 4, grad=False).addmv_(r(L, 4, 6), r(L, 6)),
    "torch.addmv_": lambda L: L.addmv_(r(L, 4, grad=False), r(L, 4, 6), r(L, 6), beta=0.5),
    "addmv_ broadcast": lambda L: r(L, 1, grad=False).addmv_(r(L, 4, 6), r(L, 6)),
    "addr": lambda L: L.addr(r(L, 4, 6), r(L, 4), r(L, 6), beta=0.5),
    "addr method": lambda L: r(L, 6).addr(r(L, 4), r(L, 6), alpha=-1),
    "addr_": lambda L: r(L, 4, 6, grad=False).addr_(r(L, 4), r(L, 6)),
    "addr bool": lambda L: L.addr(L.ones(2, 2).bool(), L.tensor([True, False]), L.ones(2).bool()),
    "addr bad input": lambda L: L.addr(r(L, 4, 5), r(L, 4), r(L, 6)),
    "addr 2-d vec": lambda L: L.addr(r(L, 4, 6), r(L, 4, 1), r(L, 6)),
    "addbmm": lambda L: L.addbmm(r(L, 4, 3), r(L, 2, 4, 6), r(L, 2, 6, 3)),
    "addbmm scaled": lambda L: r(L, 1, 3).addbmm(r(L, 2, 4, 6), r(L, 2, 6, 3), beta=3, alpha=2),
    "addbmm_": lambda L: r(L, 4, 3, grad=False).addbmm_(r(L, 2, 4, 6), r(L, 2, 6, 3)),
    "addbmm batches": lambda L: L.addbmm(r(L, 4, 3), r(L, 2, 4, 6), r(L, 3, 6, 3)),
    "addbmm sizes": lambda L: L.addbmm(r(L, 4, 3), r(L, 2, 4, 6), r(L, 2, 5, 3)),
    "addbmm input": lambda L: L.addbmm(r(L, 4, 2), r(L, 2, 4, 6), r(L, 2, 6, 3)),
    "addbmm 2-d": lambda L: L.addbmm(r(L, 4, 3), r(L, 4, 6), r(L, 2, 6, 3)),
    "baddbmm": lambda L: L.baddbmm(r(L, 2, 4, 3), r(L, 2, 4, 6), r(L, 2, 6, 3)),
    "baddbmm beta 0": lambda L: L.baddbmm(r(L, 3), r(L, 2, 4, 6), r(L, 2, 6, 3), beta=0),
    "baddbmm method": lambda L: r(L, 4, 1).baddbmm(r(L, 2, 4, 6), r(L, 2, 6, 3), alpha=0.5),
    "baddbmm_": lambda L: r(L, 2, 4, 3, grad=False).baddbmm_(r(L, 2, 4, 6), r(L, 2, 6, 3)),
    "baddbmm input": lambda L: L.baddbmm(r(L, 2, 4, 2), r(L, 2, 4, 6), r(L, 2, 6, 3)),
    "baddbmm sizes": lambda L: L.baddbmm(r(L, 2, 4, 3), r(L, 2, 4, 6), r(L, 2, 5, 3)),
    "baddbmm batches": lambda L: L.baddbmm(r(L, 2, 4, 3), r(L, 2, 4, 6), r(L, 3, 6, 3)),
    "chain_matmul none": lambda L: L.chain_matmul(),
    "chain_matmul 1-d": lambda L: L.chain_matmul(r(L, 3), r(L, 3)),
    "chain_matmul one": lambda L: L.chain_matmul(r(L, 2, 3)),
    "chain_matmul two": lambda L: L.chain_matmul(r(L, 2, 3), r(L, 3, 4)),
    "chain_matmul three": lambda L: L.chain_matmul(r(L, 2, 3), r(L, 3, 4), r(L, 4, 5)),
    "chain_matmul four": lambda L: L.chain_matmul(r(L, 5, 3), r(L, 3, 4), r(L, 4, 1), r(L, 1, 2)),
    "chain_matmul bad": lambda L: L.chain_matmul(r(L, 2, 3), r(L, 4, 5)),
    "inner": lambda L: L.inner(r(L, 2, 3), r(L, 4, 3)),
    "inner 3-d": lambda L: L.inner(r(L, 2, 5, 3), r(L, 4, 3)),
    "inner vectors": lambda L: L.inner(r(L, 3), r(L, 3)),
    "inner 0-d": lambda L: r(L, 3).inner(L.tensor(2.0, dtype=L.float64)),
    "inner int": lambda L: L.inner(L.arange(3), L.arange(3)),
    "inner bad": lambda L: L.inner(r(L, 2, 3), r(L, 4)),
    "inner dtypes": lambda L: L.inner(L.arange(3), L.ones(3)),
    "ger": lambda L: L.ger(r(L, 3), r(L, 2)),
    "ger method": lambda L: r(L, 3).ger(r(L, 4)),
    "ger mixed": lambda L: L.ger(L.arange(3), L.ones(2)),
    "ger 2-d": lambda L: L.ger(r(L, 3, 1), r(L, 2)),
    "ger 2-d second": lambda L: L.ger(r(L, 3), r(L, 2, 1)),
    "vdot": lambda L: L.vdot(r(L, 3), r(L, 3)),
    "vdot method": lambda L: L.arange(3).vdot(L.arange(3)),
    "vdot 2-d": lambda L: L.vdot(r(L, 3, 1), r(L, 3)),
    "vdot lengths": lambda L: L.vdot(r(L, 3), r(L, 4)),
    "vdot dtypes": lambda L: L.vdot(r(L, 3), L.ones(3)),
    "kron": lambda L: L.kron(r(L, 2, 3), r(L, 4, 2)),
    "kron ranks": lambda L: L.kron(r(L, 2), r(L, 3, 2)),
    "kron 0-d": lambda L: r(L, 2, 2).kron(L.tensor(2.0, dtype=L.float64)),
    "kron mixed": lambda L: L.kron(L.arange(2), L.ones(3)),
    "rsub": lambda L: L.rsub(r(L, 3), 2, alpha=3),
    "rsub number": lambda L: L.rsub(r(L, 3), 2),
    "rsub tensors": lambda L: L.rsub(r(L, 3), r(L, 2, 1), alpha=2),
    "rsub bools": lambda L: L.rsub(L.ones(2).bool(), L.ones(2).bool()),
    "rsub int float": lambda L: L.rsub(L.arange(3), 2.5),
    "rsub float alpha": lambda L: L.rsub(L.arange(3), 2, alpha=1.5),
    "rsub mixed": lambda L: L.rsub(L.arange(3), L.ones(3)),
    "rsub broadcast": lambda L: L.rsub(r(L, 3), r(L, 2)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (chain_matmul's deprecation: tested below)
        compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "addmm": lambda L, x: (x[:, :2] * 1).addmm(x, x.T[:, :2] * 2, beta=-2, alpha=0.5),
    "addmm_": lambda L, x: (x[:, :2] * 1).addmm_(x, x.T[:, :2] * 2, alpha=3),
    "addmv": lambda L, x: L.addmv(x[:, 0], x, x[0] * 2, beta=1.5, alpha=-1),
    "addmv broadcast": lambda L, x: L.addmv(x[0, :1], x, x[1]),
    "addmv_": lambda L, x: (x[:, 1] * 1).addmv_(x, x[2], beta=0),
    "addr": lambda L, x: L.addr(x, x[:, 0], x[1] * 3, beta=2, alpha=0.5),
    "addr_": lambda L, x: (x * 1).addr_(x[:, 1], x[0], beta=-1),
    "addbmm": lambda L, x: L.addbmm(x[0, :3], L.stack([x, x * 2]), L.stack([x.T, x.T]), alpha=2),
    "addbmm_": lambda L, x: (x[:, :3] * 1).addbmm_(L.stack([x, x]), L.stack([x.T[:, :3]] * 2)),
    "baddbmm": lambda L, x: L.baddbmm(x[:1, :3], L.stack([x, x]), L.stack([x.T, -x.T]), beta=3),
    "baddbmm_": lambda L, x: (L.stack([x[:, :3]] * 2) + 0).baddbmm_(
        L.stack([x, x]), L.stack([x.T[:, :3]] * 2), alpha=-2
    ),
    "chain_matmul": lambda L, x: L.chain_matmul(x, x.T, x * 2),
    "inner": lambda L, x: L.inner(x, x * 2),
    "inner vectors": lambda L, x: L.inner(x[0], x[1]),
    "ger": lambda L, x: L.ger(x[0], x[:, 1]),
    "vdot": lambda L, x: L.vdot(x[0], x[2]),
    "kron": lambda L, x: L.kron(x, x[:2, :2]),
    "kron ranks": lambda L, x: L.kron(x[0], x),
    "rsub": lambda L, x: L.rsub(x, 2, alpha=3),
    "rsub tensors": lambda L, x: L.rsub(x, x[0] * 2, alpha=-0.5),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare_gradients(GRAD_CASES[case], torch_module)


def test_chain_matmul_warns_it_is_deprecated(monkeypatch: pytest.MonkeyPatch) -> None:
    from microtorch.api import products

    monkeypatch.setattr(products, "_chain_warned", [])
    with pytest.warns(UserWarning, match="torch.chain_matmul is deprecated"):
        microtorch.chain_matmul(microtorch.ones(2, 2))
