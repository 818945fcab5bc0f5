"""Issue 24 (walkd): torch.asarray, frombuffer, empty_strided, empty_permuted,
Tensor.new_empty_strided and Tensor.register_post_accumulate_grad_hook, against PyTorch 2.13:
shapes, strides, dtypes, shared memory, hook order and errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import outcome

pytestmark = pytest.mark.torch


def _describe(r: Any) -> Any:
    if hasattr(r, "stride"):
        return (tuple(r.shape), r.stride(), str(r.dtype).split(".")[1], r.requires_grad, r.tolist())
    return r


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "empty_strided": lambda L: L.empty_strided((2, 3), (1, 2)),
    "empty_strided dtype": lambda L: L.empty_strided((2, 3, 2), (1, 4, 2), dtype=L.float64),
    "empty_strided grad": lambda L: L.empty_strided((2,), (3,), requires_grad=True),
    "empty_strided zero size": lambda L: L.empty_strided((0, 3), (3, 1)),
    "empty_strided mismatch": lambda L: L.empty_strided((2, 3), (1,)),
    "empty_permuted": lambda L: L.empty_permuted((2, 3, 4), (2, 0, 1)),
    "empty_permuted identity": lambda L: L.empty_permuted((2, 3), (0, 1), dtype=L.int64),
    "empty_permuted duplicate": lambda L: L.empty_permuted((2, 3), (0, 0)),
    "new_empty_strided": lambda L: L.ones(2, dtype=L.float64).new_empty_strided((2, 2), (1, 2)),
    "new_empty_strided dtype": lambda L: L.ones(2).new_empty_strided((3,), (2,), dtype=L.int32),
    "asarray list": lambda L: L.asarray([1, 2]),
    "asarray floats": lambda L: L.asarray([[1.0, 2.0]], requires_grad=True),
    "asarray dtype": lambda L: L.asarray([1, 2], dtype=L.float64),
    "asarray scalar": lambda L: L.asarray(3.0),
    "asarray bool": lambda L: L.asarray(True),
    "asarray numpy": lambda L: L.asarray(np.arange(3.0)),
    "asarray numpy float32 scalar": lambda L: L.asarray(np.float32(2)),
    "asarray tensor dtype": lambda L: L.asarray(L.ones(2), dtype=L.float64),
    "asarray tensor no copy": lambda L: L.asarray(L.ones(2), dtype=L.float64, copy=False),
    "asarray list no copy": lambda L: L.asarray([1, 2], copy=False),
    "frombuffer": lambda L: L.frombuffer(bytearray(b"\x00\x00\x80?\x00\x00\x00@"), dtype=L.float32),
    "frombuffer count offset": lambda L: L.frombuffer(bytearray(8), dtype=L.int16, count=2, offset=2),
    "frombuffer too many": lambda L: L.frombuffer(bytearray(8), dtype=L.float32, count=3),
    "frombuffer offset": lambda L: L.frombuffer(bytearray(8), dtype=L.float32, offset=9),
    "frombuffer no dtype": lambda L: L.frombuffer(bytearray(8)),
    "frombuffer ragged": lambda L: L.frombuffer(bytearray(3), dtype=L.float32),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    mt, t = outcome(CASES[case], microtorch), outcome(CASES[case], torch_module)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2].splitlines()[0]), (mt, t)
    else:
        m, tt = _describe(mt[1]), _describe(t[1])
        if "empty" in case:  # (PyTorch's empty memory holds anything: not the values)
            m, tt = m[:4], tt[:4]
        assert m == tt


def test_shared_memory_as_pytorch(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        a = np.ones(3)
        L.asarray(a)[0] = 5
        L.asarray(a, copy=True)[1] = 7
        assert a.tolist() == [5.0, 1.0, 1.0]
        t = L.ones(2)
        assert L.asarray(t) is t and L.asarray(t, copy=True) is not t
        b = bytearray(b"\x00\x00\x80?\x00\x00\x00@")
        L.frombuffer(b, dtype=L.float32)[0] = 3
        assert bytes(b[:4]) == np.float32(3).tobytes()


def test_frombuffer_of_read_only_bytes_warns(torch_module: ModuleType) -> None:
    from microtorch.api import memory_layout

    memory_layout._warned_readonly[0] = False
    with pytest.warns(UserWarning, match="^The given buffer is not writable"):
        x = microtorch.frombuffer(b"abcd", dtype=microtorch.uint8)
    assert x.tolist() == list(b"abcd")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        microtorch.frombuffer(b"abcd", dtype=microtorch.uint8)


def _halve(t: Any) -> None:
    t.grad.mul_(0.5)


def _hooked(L: ModuleType) -> list[Any]:
    x = L.ones(2, requires_grad=True)
    seen: list[Any] = []
    h = x.register_post_accumulate_grad_hook(lambda t: seen.append(("a", t.grad.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: seen.append(("b", t.grad.tolist())))
    x.register_hook(lambda g: seen.append(("pre", g.tolist())))
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    h.remove()
    (x * 2).sum().backward()
    L.autograd.grad((x * 2).sum(), x)  # (nothing accumulates: no post-accumulate hook runs)
    z = L.ones(2, requires_grad=True)
    z.register_post_accumulate_grad_hook(_halve)  # (an optimizer step in a hook)
    (z * 4).sum().backward()
    seen.append(("z", z.grad.tolist()))
    return seen


def test_post_accumulate_grad_hooks_as_pytorch(torch_module: ModuleType) -> None:
    assert _hooked(microtorch) == _hooked(torch_module)


HOOK_ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "no grad": lambda L: L.ones(2).register_post_accumulate_grad_hook(lambda t: None),
    "non-leaf": lambda L: (L.ones(2, requires_grad=True) * 2).register_post_accumulate_grad_hook(
        lambda t: None
    ),
    "returns int": lambda L: _returning(L, 5),
    "returns tensor": lambda L: _returning(L, L.ones(2)),
    "returns other size": lambda L: _returning(L, L.ones(1)),
}


def _returning(L: ModuleType, value: Any) -> Any:
    x = L.ones(2, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: value)
    (x * 3).sum().backward()


@pytest.mark.parametrize("case", list(HOOK_ERRORS))
def test_post_accumulate_grad_hook_errors(case: str, torch_module: ModuleType) -> None:
    mt, t = outcome(HOOK_ERRORS[case], microtorch), outcome(HOOK_ERRORS[case], torch_module)
    assert mt[:2] == t[:2] and mt[2].startswith(t[2].splitlines()[0]), (mt, t)


# ruff: noqa: E501 - the case table: one case per line
