"""Issue 24: tril/triu (nanoGPT's causal mask), flip, roll, repeat, tile, index_select,
masked_select, rsqrt, expm1 (with their in-place twins), finfo, iinfo and
is_floating_point, against PyTorch: values, dtypes, grad_fn names, float64 gradients, errors.
(Random-input gradients: tests/ops/optable.py.)
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import compare, outcome

pytestmark = pytest.mark.torch


def x34(L: ModuleType, **kw: Any) -> Any:
    return (L.arange(12.0, **kw).reshape(3, 4) - 5).requires_grad_()


def _index_select_0d_grad(L: ModuleType) -> Any:
    x = L.tensor(3.0, requires_grad=True)
    y = x.index_select(-1, L.tensor([0]))
    return L.autograd.grad(y * 2, [x])[0]


CASES: dict[str, Callable[[ModuleType], Any]] = {
    # 0-d inputs: dim 0 and -1 name the tensor itself
    "flip 0-d": lambda L: L.tensor(3.0).flip(0),
    "flip 0-d -1": lambda L: L.flip(L.tensor(3.0, requires_grad=True), [-1]),
    "roll 0-d along a dim": lambda L: L.tensor(3.0).roll(1, -1),
    "index_select 0-d": lambda L: L.tensor(3.0).index_select(0, L.tensor([0])),
    "index_select 0-d, 0-d index": lambda L: L.tensor(3.0).index_select(0, L.tensor(0)),
    "index_select 0-d gradient": _index_select_0d_grad,
    "index_select 0-d two places": lambda L: L.tensor(3.0).index_select(0, L.tensor([0, 0])),
    "tril ones": lambda L: L.tril(L.ones(4, 4)),
    "tril diagonal": lambda L: x34(L).tril(1),
    "tril -1": lambda L: L.tril(x34(L), diagonal=-1),
    "triu": lambda L: L.triu(x34(L)),
    "triu batched": lambda L: L.triu(L.ones(2, 3, 3), 1),
    "tril int": lambda L: L.tril(L.ones(3, 3, dtype=L.long)),
    "tril bool": lambda L: L.ones(3, 3, dtype=L.bool).tril(),
    "tril 1-d": lambda L: L.tril(L.ones(3)),
    "tril_": lambda L: (x34(L) * 1).tril_(),
    "triu_": lambda L: L.ones(3, 3).triu_(1),
    "causal mask": lambda L: L.zeros(4, 4).masked_fill(L.tril(L.ones(4, 4)) == 0, float("-inf")),
    "flip": lambda L: L.flip(x34(L), [0]),
    "flip both": lambda L: x34(L).flip(0, 1),
    "flip tuple": lambda L: x34(L).flip((-1,)),
    "flip int": lambda L: L.flip(L.arange(5), [0]),
    "flip repeated dim": lambda L: x34(L).flip(0, 0),
    "flip bad dim": lambda L: x34(L).flip(2),
    "roll": lambda L: L.roll(x34(L), 1, 0),
    "roll flat": lambda L: x34(L).roll(5),
    "roll two dims": lambda L: L.roll(x34(L), (1, -2), (0, 1)),
    "roll negative": lambda L: x34(L).roll(-1, dims=1),
    "roll mismatch": lambda L: L.roll(x34(L), (1, 2), 0),
    "repeat": lambda L: x34(L).repeat(2, 1),
    "repeat more dims": lambda L: L.tensor([1.0, 2.0], requires_grad=True).repeat(3, 2),
    "repeat tuple": lambda L: L.arange(3).repeat((2,)),
    "repeat zero": lambda L: x34(L).repeat(0, 1),
    "repeat too few": lambda L: x34(L).repeat(2),
    "tile": lambda L: L.tile(x34(L), (2,)),
    "tile more": lambda L: L.tile(L.arange(3), (2, 2)),
    "index_select": lambda L: L.index_select(x34(L), 0, L.tensor([2, 0, 2])),
    "index_select dim 1": lambda L: x34(L).index_select(1, L.tensor([3])),
    "index_select int32": lambda L: x34(L).index_select(1, L.tensor([1, 0], dtype=L.int32)),
    "index_select 0-d index": lambda L: x34(L).index_select(0, L.tensor(1)),
    "index_select empty": lambda L: x34(L).index_select(0, L.tensor([], dtype=L.long)),
    "index_select out of range": lambda L: x34(L).index_select(0, L.tensor([3])),
    "index_select float index": lambda L: x34(L).index_select(0, L.tensor([1.0])),
    "index_select 2-d index": lambda L: x34(L).index_select(0, L.tensor([[1]])),
    "masked_select": lambda L: L.masked_select(x34(L), x34(L) > 0),
    "masked_select broadcast": lambda L: x34(L).masked_select(L.tensor([True, False, True, False])),
    "masked_select int": lambda L: L.arange(5).masked_select(L.arange(5) % 2 == 0),
    "masked_select float mask": lambda L: x34(L).masked_select(L.ones(3, 4)),
    "masked_select shapes": lambda L: x34(L).masked_select(L.ones(2, dtype=L.bool)),
    "rsqrt": lambda L: L.rsqrt(L.tensor([4.0, 0.25, 0.0, -1.0], requires_grad=True)),
    "rsqrt int": lambda L: L.rsqrt(L.tensor([4, 1])),
    "rsqrt_": lambda L: L.tensor([4.0, 16.0]).rsqrt_(),
    "torch.rsqrt_": lambda L: L.rsqrt_(L.tensor([4.0, 16.0])),
    "expm1": lambda L: L.expm1(L.tensor([1e-8, 0.5, -2.0], requires_grad=True)),
    "expm1 method": lambda L: L.tensor([0.0, 1.0]).expm1(),
    "expm1_": lambda L: L.expm1_(L.tensor([0.0, 1.0])),
    "finfo eps": lambda L: [L.finfo(L.float32).eps, L.finfo().eps, L.finfo(L.float64).eps],
    "finfo fields": lambda L: [
        (f.bits, f.max, f.min, f.tiny, f.smallest_normal, f.resolution)
        for f in (L.finfo(d) for d in (L.float16, L.float32, L.float64))
    ],
    "finfo repr": lambda L: repr(L.finfo(L.float32)),
    "iinfo": lambda L: [(L.iinfo(d).max, L.iinfo(d).min, L.iinfo(d).bits) for d in
                        (L.uint8, L.int8, L.int16, L.int32, L.int64)],  # fmt: skip
    "iinfo repr": lambda L: repr(L.iinfo(L.int64)),
    "finfo of int": lambda L: L.finfo(L.int64),
    "iinfo of float": lambda L: L.iinfo(L.float32),
    "is_floating_point": lambda L: [L.is_floating_point(L.ones(1)),
                                    L.is_floating_point(L.ones(1).long())],
}  # fmt: skip


def _agree(mt: Any, t: Any) -> None:
    if isinstance(t, list):
        assert len(mt) == len(t)
        for m_item, t_item in zip(mt, t):
            _agree(m_item, t_item)
    elif isinstance(t, tuple):
        assert tuple(mt) == t
    elif isinstance(t, str):
        assert mt == t
    elif isinstance(t, (bool, int, float)):
        assert type(mt) is type(t) and mt == t
    else:
        raise AssertionError(f"a result this test does not compare: {t!r}")


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    mt, t = outcome(CASES[case], microtorch), outcome(CASES[case], torch_module)
    if isinstance(t[-1], (list, str)) and t[0] == "ok":
        assert mt[0] == "ok", mt
        _agree(mt[1], t[1])
        return
    compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "tril": lambda L, x: x.tril(),
    "triu 1": lambda L, x: L.triu(x, 1),
    "flip": lambda L, x: x.flip(0, 1),
    "roll": lambda L, x: x.roll((1, 2), (0, 1)),
    "roll flat": lambda L, x: x.roll(-5),
    "repeat": lambda L, x: x.repeat(2, 1, 3),
    "tile": lambda L, x: x.tile((2,)),
    "index_select": lambda L, x: x.index_select(1, L.tensor([3, 0, 3, 3])),
    "masked_select": lambda L, x: x.masked_select(L.tensor([[True], [False], [True]])),
    "rsqrt": lambda L, x: (x.abs() + 0.5).rsqrt(),
    "expm1": lambda L, x: x.expm1(),
    "tril_ on a graph tensor": lambda L, x: (x * 1).tril_(-1),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> tuple[Any, ...]:
        x = L.tensor(np.linspace(-1.5, 2.0, 12).reshape(3, 4), dtype=L.float64)
        x.requires_grad_()
        out = GRAD_CASES[case](L, x)
        weights = L.arange(out.numel(), dtype=L.float64).reshape(out.shape) - 2.5
        (out * weights).sum().backward()
        return out.detach().numpy(), out.grad_fn.name(), x.grad.numpy()

    mt, t = run(microtorch), run(torch_module)
    np.testing.assert_allclose(mt[0], t[0], rtol=1e-12)
    assert mt[1] == t[1]
    np.testing.assert_allclose(mt[2], t[2], rtol=1e-12)


def test_rsqrt_and_expm1_are_correctly_rounded_in_float32(torch_module: ModuleType) -> None:
    values = [4.0, 16.0, 100.0, 0.25, 1e-7, 0.5, 3.0]
    for name in ("rsqrt", "expm1"):
        mt = getattr(microtorch, name)(microtorch.tensor(values)).numpy()
        t = getattr(torch_module, name)(torch_module.tensor(values)).numpy()
        np.testing.assert_allclose(mt, t, rtol=2e-7)
