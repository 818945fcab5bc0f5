"""Issue 24: ``Tensor.view(dtype)``, the same bytes read as another dtype, against PyTorch
2.13: the bits, shapes, strides and storage offsets (another element size changes the last
dimension's size), PyTorch's errors (0-d, a last dimension not contiguous, sizes, offsets or
strides not divisible), the memory and the version count shared with the original in both
directions (through views of either too), and autograd: no derivative, so the result never
requires grad and is no view for autograd (``_base`` None), as in PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch


def x22(L: ModuleType) -> Any:
    return L.tensor([[1.0, 2.0], [3.0, -4.0]])


DTYPES = ["float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool"]
SOURCES: dict[str, Callable[[ModuleType], Any]] = {
    "float32 2x2": x22,
    "float32 transposed": lambda L: x22(L).t(),
    "float32 a column": lambda L: x22(L)[:, :1],
    "float32 every other row": lambda L: L.arange(12.0).reshape(6, 2)[::2],
    "float32 a row at an odd offset": lambda L: L.arange(12.0).reshape(4, 3)[1],
    "float32 an even offset": lambda L: L.arange(6.0)[2:],
    "float32 odd sizes": lambda L: L.arange(6.0).reshape(2, 3),
    "float32 0-d": lambda L: L.tensor(1.5),
    "float32 empty": lambda L: L.ones(0),
    "float32 2x0": lambda L: L.ones(2, 0),
    "float32 expanded": lambda L: L.arange(8.0).reshape(4, 2).expand(2, 4, 2),
    "float32 expanded last dim": lambda L: L.ones(4, 1).expand(4, 2),
    "float32 permuted": lambda L: L.arange(8.0).reshape(2, 2, 2).permute(1, 0, 2),
    "float64": lambda L: L.tensor([[1.5, -2.0], [1e300, -0.0]], dtype=L.float64),
    "float16": lambda L: L.tensor([1.5, -2.0, 0.0, 65504.0], dtype=L.float16),
    "int64": lambda L: L.tensor([1, -2, 3, 2**62], dtype=L.int64),
    "int32 strided": lambda L: L.arange(8, dtype=L.int32).reshape(2, 4)[:, ::2],
    "uint8 odd": lambda L: L.tensor([1, 2, 3], dtype=L.uint8),
    "uint8 as bools": lambda L: L.tensor([0, 1, 2, 255], dtype=L.uint8),
    "bool": lambda L: L.tensor([True, False, True, True]),
}


def _outcome(L: ModuleType, source: str, dtype: str) -> Any:
    x = SOURCES[source](L)
    try:
        v = x.view(getattr(L, dtype))
    except Exception as error:  # noqa: BLE001 - compared
        return ("error", type(error).__name__, str(error))
    bits = np.ascontiguousarray(v.numpy()).view(np.uint8)  # (the bytes, in order)
    # (an empty tensor's strides: microtorch's are row-major, where PyTorch's keep the scaled
    # ones; no element is read through them)
    strides = v.stride() if v.numel() else None
    return (
        str(v.dtype).split(".")[1], tuple(v.shape), strides, v.storage_offset(),
        v.is_contiguous(), v.requires_grad, v._is_view(), bits.tolist(),
    )  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("source", list(SOURCES))
def test_matches_pytorch(source: str, dtype: str, torch_module: ModuleType) -> None:
    mt, t = _outcome(microtorch, source, dtype), _outcome(torch_module, source, dtype)
    if t[0] == "error":
        assert mt[:2] == t[:2] and mt[2].startswith(t[2]), (mt, t)
    else:
        assert mt == t  # (the bytes themselves: nan payloads, -0.0, every bit)


def test_the_values_read_as_pytorch_reads_them(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        x = x22(L)
        got = [x.view(L.int32).tolist(), x.view(L.float16).tolist(), x.view(L.float64).tolist()]
        got += [L.tensor([0, 1, 2, 255], dtype=L.uint8).view(L.bool).tolist()]
        got += [L.tensor([1, 2], dtype=L.int64).view(L.float32).tolist()]
        if L is microtorch:
            ours = got
    assert ours == got


def test_keyword_and_view_of_the_view(torch_module: ModuleType) -> None:
    got = []
    for L in (microtorch, torch_module):
        x = x22(L)
        v = x.view(dtype=L.int32)
        q, row = v.view(4), v[0]
        got.append((v.tolist(), q._base is v, row._base is v, v._base is None,
                    v.view(L.float32).tolist(), v.view(L.float16).shape))  # fmt: skip
    assert got[0] == got[1]


def _writes(L: ModuleType) -> list[Any]:
    # writes both ways, through views of either: each seen by the other, one version count
    seen = []
    x = x22(L)
    v = x.view(L.int32)
    seen.append((x._version, v._version))
    v[0, 0] = 0
    seen.append((x.tolist(), x._version, v._version))
    x.add_(1)
    seen.append((v.tolist(), x._version, v._version))
    w = x.view(L.float16)
    w.zero_()
    seen.append((x.tolist(), x._version, w._version))
    h = x.t().view(L.int32)
    h[0, 1] = 1065353216  # (the bits of 1.0)
    seen.append((x.tolist(), x._version, h._version))
    q = v.view(4)
    q[1] = 1065353216
    seen.append((x.tolist(), x._version, q._version))
    row = x[1]
    row.view(L.int16)[1] = 16256  # (the upper half of 1.0's bits)
    seen.append((x.tolist(), x._version, v.tolist()))
    d = L.arange(4.0).view(L.float64)
    d.mul_(2)
    seen.append((d.view(L.float32).tolist(),))
    return seen


def test_writes_through_either_are_seen_by_the_other(torch_module: ModuleType) -> None:
    assert _writes(microtorch) == _writes(torch_module)


def _autograd(L: ModuleType) -> list[Any]:
    seen = []
    g = L.tensor([1.0, 2.0], requires_grad=True)
    for dtype in (L.int32, L.float32, L.float16):
        v = g.view(dtype)
        seen.append((v.requires_grad, v.grad_fn, v.is_leaf, v._base is None))
    h = (g * 2).view(L.float64)
    seen.append((h.requires_grad, h.grad_fn))
    # a write through the dtype view bumps the shared version: the saved value is noticed
    b = g * 1
    c = b * b
    b.view(L.int32).zero_()
    try:
        c.sum().backward()
        seen.append("no error")
    except RuntimeError as error:
        seen.append(str(error).split(", which")[0].replace("microtorch.", "torch."))
    # a leaf's dtype view may be written (autograd does not see it, as in PyTorch)
    leaf = L.tensor([1.0, 2.0], requires_grad=True)
    leaf.view(L.int32).zero_()
    seen.append(leaf.tolist())
    # an op on the view that requires grad records on the view alone
    b = g * 1
    bv = b.view(L.float32)
    bv.mul_(L.tensor([1.0, 2.0], requires_grad=True))
    seen.append((bv.requires_grad, bv.grad_fn.name(), b.grad_fn.name(), b.tolist()))
    with L.no_grad():
        seen.append(g.view(L.int32).requires_grad)
    return seen


def test_no_derivative_and_no_autograd_view(torch_module: ModuleType) -> None:
    assert _autograd(microtorch) == _autograd(torch_module)


def test_a_view_of_the_dtype_view_written_with_a_gradient(torch_module: ModuleType) -> None:
    got = []
    for L in (microtorch, torch_module):
        x = L.arange(4.0)
        half = x.view(L.float16)[:2]  # (an autograd view of the dtype view)
        s = L.tensor([2.0, 3.0], dtype=L.float16, requires_grad=True)
        half.mul_(s)
        base = half._base
        base.sum().backward()
        got.append((x.tolist(), half.grad_fn.name(), base.grad_fn.name().split("::")[-1],
                    s.grad.tolist()))  # fmt: skip
    assert got[0] == got[1]
