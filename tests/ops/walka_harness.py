"""The harness of the test_walka_* files: run a small program on microtorch and on PyTorch and
compare values, dtypes, grad_fn names, float64 gradients, and errors (class and first line)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import microtorch


def outcome(fn: Callable[[ModuleType], Any], lib: ModuleType) -> Any:
    """("ok", result) or ("error", class name, first line of the message)."""
    try:
        return ("ok", fn(lib))
    except Exception as error:  # noqa: BLE001 - the exception is what is compared
        return ("error", type(error).__name__, (str(error).splitlines() or [""])[0])


def same(mt: Any, t: Any) -> None:
    """Equal results: numbers, tuples (namedtuples by field), or tensors with the same shape,
    dtype, values and grad_fn name."""
    if isinstance(t, (bool, int, float, str)) or t is None:
        assert type(mt) is type(t) and mt == t, (mt, t)
        return
    if isinstance(t, (tuple, list)) and not hasattr(t, "shape"):
        assert len(mt) == len(t), (mt, t)
        if type(t) is not tuple:  # (torch.return_types.cummax ...: the same name)
            assert type(mt).__name__ == type(t).__name__.split(".")[-1], (type(mt), type(t))
        for m, u in zip(mt, t):
            same(m, u)
        return
    assert tuple(mt.shape) == tuple(t.shape), (mt.shape, t.shape)
    assert str(mt.dtype) == str(t.dtype).replace("torch.", "microtorch."), (mt.dtype, t.dtype)
    np.testing.assert_allclose(mt.detach().numpy(), t.detach().numpy(), rtol=1e-6, atol=1e-7)
    t_name = None if t.grad_fn is None else t.grad_fn.name()
    assert (None if mt.grad_fn is None else mt.grad_fn.name()) == t_name
    if t.grad_fn is not None:
        names = [
            [
                n.name().split("::")[-1] if n is not None else None
                for n, _ in x.grad_fn.next_functions
            ]
            for x in (mt, t)
        ]
        assert names[0] == names[1], names


def compare(fn: Callable[[ModuleType], Any], torch: ModuleType) -> None:
    """``fn`` gives the same result, or raises the same error, in both libraries."""
    mt, t = outcome(fn, microtorch), outcome(fn, torch)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
        return
    same(mt[1], t[1])


def compare_gradients(
    fn: Callable[[ModuleType, Any], Any], torch: ModuleType, shape: tuple[int, ...] = (3, 4)
) -> None:
    """float64 gradients of ``fn(L, x)`` under a non-uniform upstream gradient agree, as do the
    output's values and grad_fn; microtorch's also passes gradcheck."""

    def run(L: ModuleType) -> Any:
        n = int(np.prod(shape))
        x = L.tensor((np.linspace(-1.5, 2.0, n) + np.sin(np.arange(n)) * 0.3).reshape(shape))
        x = x.double().requires_grad_()
        out = fn(L, x)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        total = 0
        for o in outs:
            if o.dtype.is_floating_point and o.requires_grad:
                w = L.arange(o.numel(), dtype=L.float64).reshape(o.shape) - 1.5
                total = total + (o * w).sum()
        total.backward()
        return outs, x.grad.numpy()

    (m_outs, m_grad), (t_outs, t_grad) = run(microtorch), run(torch)
    for m, t in zip(m_outs, t_outs):
        same(m, t)
    np.testing.assert_allclose(m_grad, t_grad, rtol=1e-10, atol=1e-12)

    def first(x: Any) -> Any:
        out = fn(microtorch, x)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return tuple(o for o in outs if o.dtype.is_floating_point)

    x = microtorch.tensor(np.random.default_rng(0).normal(size=shape), dtype=microtorch.float64)
    assert microtorch.autograd.gradcheck(first, (x.requires_grad_(),))
