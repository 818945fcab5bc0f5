"""Issue #13: beginner code that gives PyTorch 2.13's results, dtypes and errors, not numpy's.

Each case is written once for both libraries (``L`` is microtorch or torch). Errors: the same
type, and microtorch's message starts with PyTorch's (it may add a fix in parentheses).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch

Case = Callable[[ModuleType], Any]


def _outcome(case: Case, lib: ModuleType) -> Any:
    """What ``case`` gives on ``lib``: the result, or the exception it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (deprecation warnings are checked apart)
        try:
            return case(lib)
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return e


def _assert_same_error(case: Case, torch: ModuleType) -> None:
    t_err, m_err = _outcome(case, torch), _outcome(case, microtorch)
    assert isinstance(t_err, Exception), f"torch raised nothing: {t_err!r}"
    assert type(m_err) is type(t_err), f"{type(m_err).__name__}: {m_err}\n  torch: {t_err}"
    ours = str(m_err).replace("microtorch.", "torch.")
    assert ours.startswith(str(t_err).split("\n")[0]), f"\nmicrotorch: {m_err}\n     torch: {t_err}"


def _assert_same_tensors(case: Case, torch: ModuleType) -> None:
    t_out, m_out = _outcome(case, torch), _outcome(case, microtorch)
    t_outs = t_out if isinstance(t_out, tuple) else (t_out,)
    m_outs = m_out if isinstance(m_out, tuple) else (m_out,)
    assert len(m_outs) == len(t_outs), f"microtorch: {m_out!r}\n     torch: {t_out!r}"
    for m, t in zip(m_outs, t_outs):
        assert not isinstance(m, Exception), f"microtorch raised {type(m).__name__}: {m}"
        assert str(m.dtype).replace("microtorch", "torch") == str(t.dtype)
        assert tuple(m.shape) == tuple(t.shape)
        np.testing.assert_array_equal(m.detach().numpy(), t.detach().numpy())


# --- 2. no numpy exception text: PyTorch's --------------------------------------------------
NUMPY_ERRORS: dict[str, Case] = {
    "setitem, too many indices": lambda L: L.zeros(3).__setitem__((0, 1), 5),
    "setitem, too many indices in 2-d": lambda L: L.zeros(3, 2).__setitem__((0, 1, 0), 5.0),
    "setitem, an index of a 0-d tensor": lambda L: L.zeros(()).__setitem__(0, 1.0),
    "sum over a dim twice": lambda L: L.zeros(2, 3).sum(dim=(1, -1)),
    "mean over a dim twice": lambda L: L.zeros(2, 3).mean(dim=(0, 0)),
    "amax over a dim twice": lambda L: L.zeros(2, 3).amax(dim=(1, 1)),
    "amin over a dim twice": lambda L: L.zeros(2, 3).amin(dim=(-1, 1)),
    "var over a dim twice": lambda L: L.zeros(2, 3).var(dim=(1, 1)),
    "std over a dim twice": lambda L: L.zeros(2, 3).std(dim=(1, 1)),
    "logsumexp over a dim twice": lambda L: L.zeros(2, 3).logsumexp(dim=(1, 1)),
    "squeeze a dim twice": lambda L: L.zeros(1, 3).squeeze((0, 0)),
    "setitem, a mask of the wrong size": lambda L: L.zeros(3).__setitem__(
        L.tensor([True, False]), 1.0
    ),
    "setitem, a 2-d mask of the wrong size": lambda L: L.zeros(2, 3).__setitem__(
        L.tensor([[True, False]]), 1.0
    ),
    "getitem, a mask of the wrong size": lambda L: L.zeros(3)[L.tensor([True, False])],
    "getitem, a mask on dim 1 of the wrong size": lambda L: L.zeros(2, 3)[
        :, L.tensor([True, False])
    ],
    "getitem, index tensors that do not broadcast": lambda L: L.zeros(2, 3)[
        L.tensor([0, 1]), L.tensor([0, 1, 2])
    ],
    "getitem, a mask and too many indices": lambda L: L.zeros(2, 3)[
        L.tensor([[True, False, True], [True, True, False]]), L.tensor([0, 1])
    ],
    "setitem, index tensors that do not broadcast": lambda L: L.zeros(2, 3).__setitem__(
        (L.tensor([0, 1]), L.tensor([0, 1, 2])), 1.0
    ),
    "setitem, a value that does not fit the indexed rows": lambda L: L.zeros(2, 3).__setitem__(
        L.tensor([0, 1]), L.ones(4)
    ),
    "setitem, a value that does not fit the mask": lambda L: L.zeros(3).__setitem__(
        L.tensor([True, False, True]), L.ones(3)
    ),
    "int tensor to a negative Python int": lambda L: L.tensor([2]) ** -1,
    "bool tensor to a bool tensor": lambda L: L.tensor([True]) ** L.tensor([True]),
    "split(0)": lambda L: L.zeros(4).split(0),
    "split(-1)": lambda L: L.zeros(0).split(-1),
    ".mT of a 1-d tensor": lambda L: L.zeros(3).mT,
}


@pytest.mark.parametrize("name", list(NUMPY_ERRORS))
def test_pytorchs_error_not_numpys(name: str, torch_module: ModuleType) -> None:
    _assert_same_error(NUMPY_ERRORS[name], torch_module)


NUMPY_REFUSED: dict[str, Case] = {
    "logsumexp of an empty dim": lambda L: L.zeros(2, 0).logsumexp(1),
    "logsumexp of an empty tensor": lambda L: L.zeros(0).logsumexp(0),
    "int ** negative int tensor": lambda L: 2 ** L.tensor([-1, 2, 0, -2]),
    "(-1) ** negative int tensor": lambda L: (-1) ** L.tensor([-1, -2, -3]),
    "int tensor ** negative int tensor": lambda L: (
        L.tensor([2, 1, -1, 0, 3, -1]) ** L.tensor([-1, -1, -1, 2, -2, -2])
    ),
    "uint8 tensor ** int tensor": lambda L: L.tensor([2, 3], dtype=L.uint8) ** L.tensor([-1, 1]),
    "split(0) of an empty tensor": lambda L: L.zeros(0).split(0),
}


@pytest.mark.parametrize("name", list(NUMPY_REFUSED))
def test_what_numpy_refuses_gives_pytorchs_result(name: str, torch_module: ModuleType) -> None:
    _assert_same_tensors(NUMPY_REFUSED[name], torch_module)


def test_logsumexp_of_an_empty_dim_has_a_gradient(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        x = lib.zeros(2, 0, requires_grad=True)
        y = x.logsumexp(1)
        assert y.grad_fn.name() == "LogsumexpBackward0"
        y.sum().backward()
        assert tuple(x.grad.shape) == (2, 0)


def test_mT_of_a_0d_tensor_is_itself_with_pytorchs_deprecation(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        x = lib.tensor(2.0, requires_grad=True)
        with pytest.warns(UserWarning, match=r"Tensor.mT is deprecated on 0-D tensors"):
            assert x.mT is x


# --- 3. type promotion as PyTorch -----------------------------------------------------------
PROMOTIONS: dict[str, Case] = {
    "int tensor clamp(min=0.5)": lambda L: L.tensor([0, 1, 2]).clamp(min=0.5),
    "int tensor clamp(max=1.5)": lambda L: L.tensor([0, 1, 2]).clamp(max=1.5),
    "int32 tensor clamp(0.5, 1)": lambda L: L.tensor([0, 1, 2], dtype=L.int32).clamp(0.5, 1),
    "int tensor clamp(min=1)": lambda L: L.tensor([0, 1, 2]).clamp(min=1),
    "cat of int and float32": lambda L: L.cat([L.tensor([1]), L.tensor([1.5])]),
    "cat of bool and int": lambda L: L.cat([L.tensor([True]), L.tensor([2])]),
    "cat of uint8 and int8": lambda L: L.cat(
        [L.tensor([1], dtype=L.uint8), L.tensor([-1], dtype=L.int8)]
    ),
    "cat of float32 and float64": lambda L: L.cat(
        [L.tensor([1.0]), L.tensor([1.5], dtype=L.float64)]
    ),
    "stack of int and float32": lambda L: L.stack([L.tensor([1]), L.tensor([1.5])]),
    "int tensor ** int tensor": lambda L: L.tensor([2, 3]) ** L.tensor([3, 2]),
}


@pytest.mark.parametrize("name", list(PROMOTIONS))
def test_result_dtype_as_pytorch(name: str, torch_module: ModuleType) -> None:
    _assert_same_tensors(PROMOTIONS[name], torch_module)


def _f32(L: ModuleType) -> Any:
    return L.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], requires_grad=True)


def _f64(L: ModuleType, rg: bool = False) -> Any:
    return L.tensor([2.0, -0.5, 1.25], dtype=L.float64, requires_grad=rg)


# Each returns (result, leaves): a float32 leaf meets a float64 operand.
MIXED: dict[str, Callable[[ModuleType], tuple[Any, list[Any]]]] = {
    "float32 leaf * float64 tensor": lambda L: (lambda a: (a * _f64(L), [a]))(_f32(L)),
    "float64 tensor * float32 leaf": lambda L: (lambda a: (_f64(L) * a, [a]))(_f32(L)),
    "float32 leaf * float64 leaf": lambda L: (lambda a, b: (a * b, [a, b]))(_f32(L), _f64(L, True)),
    "float32 leaf + float64 leaf": lambda L: (lambda a, b: (a + b, [a, b]))(_f32(L), _f64(L, True)),
    "float32 leaf - float64 leaf": lambda L: (lambda a, b: (a - b, [a, b]))(_f32(L), _f64(L, True)),
    "add(alpha=2) of two dtypes": lambda L: (lambda a, b: (L.add(a, b, alpha=2), [a, b]))(
        _f32(L), _f64(L, True)
    ),
    "float32 leaf / float64 leaf": lambda L: (lambda a, b: (a / b, [a, b]))(_f32(L), _f64(L, True)),
    "float32 leaf ** float64 tensor": lambda L: (lambda a: (a.abs() ** _f64(L), [a]))(_f32(L)),
    "maximum of two dtypes": lambda L: (lambda a, b: (L.maximum(a, b), [a, b]))(
        _f32(L), _f64(L, True)
    ),
    "minimum of two dtypes": lambda L: (lambda a, b: (L.minimum(a, b), [a, b]))(
        _f32(L), _f64(L, True)
    ),
    "where of two dtypes": lambda L: (lambda a, b: (L.where(a > 0, a, b), [a, b]))(
        _f32(L), _f64(L, True)
    ),
    "cat of two dtypes": lambda L: (lambda a, b: (L.cat([a, b.reshape(1, 3)]), [a, b]))(
        _f32(L), _f64(L, True)
    ),
    "mse_loss with a float64 target": lambda L: (
        lambda a: (L.nn.functional.mse_loss(a, _f64(L).expand(2, 3), reduction="none"), [a])
    )(_f32(L)),
    "a float32 intermediate * float64": lambda L: (lambda a: ((a * 2) * _f64(L), [a]))(_f32(L)),
    "float32 leaf * np.float64(2.0)": lambda L: (lambda a: (a * np.float64(2.0), [a]))(_f32(L)),
    "np.float64(2.0) * float32 leaf": lambda L: (lambda a: (np.float64(2.0) * a, [a]))(_f32(L)),
    "float32 leaf * float64 0-d tensor": lambda L: (
        lambda a: (a * L.tensor(2.0, dtype=L.float64), [a])
    )(_f32(L)),
    "int tensor * float32 leaf": lambda L: (lambda a: (L.tensor([[1, 2, 3]]) * a, [a]))(_f32(L)),
}


def _names(node: Any) -> list[str | None]:
    return [None if n is None else n.name() for n, _ in node.next_functions]


@pytest.mark.parametrize("name", list(MIXED))
def test_two_dtypes_compute_in_the_promoted_one_with_no_copy_node(
    name: str, torch_module: ModuleType
) -> None:
    seen = {}
    for lib in (microtorch, torch_module):
        out, leaves = MIXED[name](lib)
        upstream = np.arange(1.0, 1.0 + out.numel()).reshape(tuple(out.shape)) / 4 - 1
        out.backward(lib.tensor(upstream, dtype=out.dtype))
        seen[lib] = (
            str(out.dtype).split(".")[-1],
            out.grad_fn.name(),
            _names(out.grad_fn),
            [(str(x.grad.dtype).split(".")[-1], x.grad.tolist()) for x in leaves],
            out.detach().numpy().tolist(),
        )
    assert seen[microtorch][:3] == seen[torch_module][:3]
    for (m_dt, m_grad), (t_dt, t_grad) in zip(seen[microtorch][3], seen[torch_module][3]):
        assert m_dt == t_dt
        np.testing.assert_allclose(m_grad, t_grad, rtol=1e-6)
    np.testing.assert_allclose(seen[microtorch][4], seen[torch_module][4], rtol=1e-6)


def _changed_after_use(L: ModuleType) -> None:
    h = _f32(L) * 1
    y = h * _f64(L, rg=True)  # saves h itself (for b's gradient), not a float64 copy of it
    h.add_(1)
    y.sum().backward()


def test_the_saved_operand_of_another_dtype_is_the_original_version_checked(
    torch_module: ModuleType,
) -> None:
    _assert_same_error(_changed_after_use, torch_module)


def test_a_hook_sees_the_gradient_in_its_tensors_dtype(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        a = _f32(lib)
        h = a * 2
        seen = []
        h.register_hook(lambda g, seen=seen: seen.append(str(g.dtype).split(".")[-1]))
        (h * _f64(lib)).sum().backward()
        assert seen == ["float32"]


def test_bce_with_logits_keeps_a_float64_targets_dtype(torch_module: ModuleType) -> None:
    seen = {}
    for lib in (microtorch, torch_module):
        x = lib.tensor([1.0, 2.0, -3.0], requires_grad=True)
        target = lib.tensor([0.0, 1.0, 0.25], dtype=lib.float64)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, target)
        loss.backward()
        seen[lib] = (str(loss.dtype).split(".")[-1], _names(loss.grad_fn), loss.item())
        seen[lib] += (str(x.grad.dtype).split(".")[-1], x.grad.tolist())
    m, t = seen[microtorch], seen[torch_module]
    assert (m[0], m[1], m[3]) == (t[0], t[1], t[3]) == ("float64", [t[1][0], None], "float32")
    np.testing.assert_allclose(m[2], t[2], rtol=1e-6)  # (PyTorch's softplus is float32 here)
    np.testing.assert_allclose(m[4], t[4], rtol=1e-6)


@pytest.mark.parametrize("gradient", ["int64", "float64", "bool"])
def test_a_gradient_of_another_dtype_is_cast_to_the_outputs(
    gradient: str, torch_module: ModuleType
) -> None:
    seen = {}
    for lib in (microtorch, torch_module):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        hooked = []
        y.register_hook(lambda g, hooked=hooked: hooked.append(str(g.dtype).split(".")[-1]))
        y.backward(gradient=lib.tensor([1, 0], dtype=getattr(lib, gradient)))
        (g,) = lib.autograd.grad(x * 2, x, grad_outputs=lib.tensor([3, 1]))
        seen[lib] = (hooked, str(x.grad.dtype), x.grad.tolist(), str(g.dtype), g.tolist())
    assert seen[microtorch] == tuple(
        v.replace("torch", "microtorch") if isinstance(v, str) else v for v in seen[torch_module]
    )


# --- 4. what PyTorch refuses, refused with its error ----------------------------------------
REFUSED: dict[str, Case] = {
    "1 - mask": lambda L: 1 - L.tensor([True, False]),
    "mask - 1": lambda L: L.tensor([True]) - 1,
    "mask - 1.5": lambda L: L.tensor([True]) - 1.5,
    "1.5 - mask": lambda L: 1.5 - L.tensor([True]),
    "float tensor - mask": lambda L: L.tensor([1.0]) - L.tensor([True]),
    "mask - float tensor": lambda L: L.tensor([True]) - L.tensor([1.0]),
    "mask - mask": lambda L: L.tensor([True]) - L.tensor([False]),
    "sub(mask, 1)": lambda L: L.sub(L.tensor([True]), 1),
    "sub_(mask)": lambda L: L.tensor([1.0]).sub_(L.tensor([True])),
    "x[::-1]": lambda L: L.arange(5)[::-1],
    "x[:, ::-2]": lambda L: L.zeros(3, 4)[:, ::-2],
    "x[::0]": lambda L: L.arange(5)[::0],
    "x[::-1] = 0": lambda L: L.arange(5).__setitem__(slice(None, None, -1), 0),
    "x[idx, ::-1] = 0": lambda L: L.zeros(2, 3).__setitem__(
        (L.tensor([0]), slice(None, None, -1)), 0.0
    ),
    "tensor(300, dtype=uint8)": lambda L: L.tensor(300, dtype=L.uint8),
    "tensor([1, 300], dtype=uint8)": lambda L: L.tensor([1, 300], dtype=L.uint8),
    "tensor(-256, dtype=uint8)": lambda L: L.tensor(-256, dtype=L.uint8),
    "tensor(255.5, dtype=uint8)": lambda L: L.tensor(255.5, dtype=L.uint8),
    "tensor([200], dtype=int8)": lambda L: L.tensor([200], dtype=L.int8),
    "tensor(127.9, dtype=int8)": lambda L: L.tensor(127.9, dtype=L.int8),
    "tensor(2**31, dtype=int32)": lambda L: L.tensor(2**31, dtype=L.int32),
    "tensor(nan, dtype=int64)": lambda L: L.tensor(float("nan"), dtype=L.int64),
    "tensor(2**63)": lambda L: L.tensor(2**63),
    "tensor([1, 2**63])": lambda L: L.tensor([1, 2**63]),
    "tensor(-2**63 - 1)": lambda L: L.tensor(-(2**63) - 1),
    "tensor([2**64])": lambda L: L.tensor([2**64]),
    "full(300, dtype=uint8)": lambda L: L.full((2,), 300, dtype=L.uint8),
    "full(2**40, dtype=int32)": lambda L: L.full((2,), 2**40, dtype=L.int32),
    "full(nan, dtype=int64)": lambda L: L.full((2,), float("nan"), dtype=L.int64),
    "tensor of a list of 2-element tensors": lambda L: L.tensor([L.tensor([1.0, 2.0])] * 2),
    "maximum(x, 0.)": lambda L: L.maximum(L.tensor([1.0]), 0.0),
    "maximum(x, 0)": lambda L: L.maximum(L.tensor([1.0]), 0),
    "maximum(0., x)": lambda L: L.maximum(0.0, L.tensor([1.0])),
    "minimum(x, 0.)": lambda L: L.minimum(L.tensor([1.0]), 0.0),
    "maximum(x, np.float64(0))": lambda L: L.maximum(L.tensor([1.0]), np.float64(0.0)),
    "relu of bool": lambda L: L.relu(L.tensor([True])),
    "F.relu of bool": lambda L: L.nn.functional.relu(L.tensor([True])),
    "abs of bool": lambda L: L.tensor([True]).abs(),
    "argmax of bool": lambda L: L.tensor([True, False]).argmax(),
    "argmax(0) of bool": lambda L: L.tensor([True, False]).argmax(0),
    "argmin of bool": lambda L: L.tensor([True, False]).argmin(),
    "int add(alpha=0.5)": lambda L: L.add(L.tensor([1]), L.tensor([2]), alpha=0.5),
    "int add(alpha=2.0)": lambda L: L.add(L.tensor([1]), L.tensor([2]), alpha=2.0),
    "int sub(alpha=0.5)": lambda L: L.sub(L.tensor([1]), L.tensor([2]), alpha=0.5),
    "int x.add(y, alpha=0.5)": lambda L: L.tensor([1]).add(L.tensor([2]), alpha=0.5),
    "int add(2, alpha=0.5)": lambda L: L.add(L.tensor([1]), 2, alpha=0.5),
    "bool add(alpha=0.5)": lambda L: L.add(L.tensor([True]), L.tensor([True]), alpha=0.5),
    "int add_(alpha=0.5)": lambda L: L.tensor([1]).add_(L.tensor([2]), alpha=0.5),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_what_pytorch_refuses_is_refused_with_its_error(
    name: str, torch_module: ModuleType
) -> None:
    _assert_same_error(REFUSED[name], torch_module)


ACCEPTED: dict[str, Case] = {
    "tensor(-1, dtype=uint8) wraps": lambda L: L.tensor([-1, -255, 255], dtype=L.uint8),
    "tensor(300.5, dtype=int16) rounds": lambda L: L.tensor([300.5, -1.5], dtype=L.int16),
    "tensor(2**63, dtype=float32)": lambda L: L.tensor([2**63], dtype=L.float32),
    "tensor of a list of 0-d tensors": lambda L: L.tensor([L.tensor(1.0), L.tensor(2.0)]),
    "tensor of a list of 1-element tensors": lambda L: L.tensor([L.tensor([1.0]), L.tensor([[2]])]),
    "tensor of 0-d int and float tensors": lambda L: L.tensor([L.tensor(1), L.tensor(2.5)]),
    "tensor of a float64 0-d tensor": lambda L: L.tensor([L.tensor(1.0, dtype=L.float64)]),
    "tensor of nested 0-d tensors": lambda L: L.tensor([[L.tensor(1.0), 2.0]]),
    "int add(alpha=2)": lambda L: L.add(L.tensor([1]), L.tensor([2]), alpha=2),
    "int + float tensor, alpha=0.5": lambda L: L.add(L.tensor([1]), L.tensor([2.0]), alpha=0.5),
    "x[::2]": lambda L: L.arange(5)[::2],
    "max of bool": lambda L: L.tensor([True, False]).max(),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_what_pytorch_accepts_gives_its_result(name: str, torch_module: ModuleType) -> None:
    _assert_same_tensors(ACCEPTED[name], torch_module)


def test_a_tensor_of_another_tensor_copies_it_with_pytorchs_warning(
    torch_module: ModuleType,
) -> None:
    for lib in (microtorch, torch_module):
        with pytest.warns(UserWarning, match="To copy construct from a tensor"):
            assert lib.tensor(lib.tensor([1.0, 2.0])).tolist() == [1.0, 2.0]


# --- 5. reductions over dim=(), ignored rows, NaN gradients, node names ---------------------
def _run_graph(case: Callable[[ModuleType], tuple[Any, list[Any]]], lib: ModuleType) -> tuple:
    """(result, grad_fn name, next_functions' names, each leaf's grad) under a varied gradient."""
    out, leaves = case(lib)
    upstream = np.arange(1.0, 1.0 + out.numel()).reshape(tuple(out.shape)) / 4 - 1
    out.backward(lib.tensor(upstream, dtype=out.dtype))
    grads = [None if x.grad is None else x.grad.tolist() for x in leaves]
    return out.tolist(), out.grad_fn.name(), _names(out.grad_fn), grads


def _x22(L: ModuleType, values: Any = ((1.0, 2.0), (3.0, 4.0))) -> Any:
    return L.tensor(values, requires_grad=True)


def _ce(logits: Any, target: list[int], **kwargs: Any) -> Callable[..., Any]:
    def case(L: ModuleType) -> tuple[Any, list[Any]]:
        z = L.tensor(logits, requires_grad=True)
        options = {k: L.tensor(v) if k == "weight" else v for k, v in kwargs.items()}
        return L.nn.functional.cross_entropy(z, L.tensor(target), **options), [z]

    return case


INF, NAN = float("inf"), float("nan")
GRAPHS: dict[str, Callable[[ModuleType], tuple[Any, list[Any]]]] = {
    "sum(dim=())": lambda L: (lambda x: (x.sum(dim=()), [x]))(_x22(L)),
    "sum(dim=[])": lambda L: (lambda x: (x.sum(dim=[]), [x]))(_x22(L)),
    "sum(dim=(), keepdim=True)": lambda L: (lambda x: (x.sum(dim=(), keepdim=True), [x]))(_x22(L)),
    "mean(dim=())": lambda L: (lambda x: (x.mean(dim=()), [x]))(_x22(L)),
    "mean(dim=[])": lambda L: (lambda x: (x.mean(dim=[]), [x]))(_x22(L)),
    "torch.sum(x, ())": lambda L: (lambda x: (L.sum(x, ()), [x]))(_x22(L)),
    "cross_entropy, an ignored row of inf": _ce([[INF, 0.0], [1.0, 2.0]], [-100, 1]),
    "cross_entropy, an ignored row of -inf": _ce([[-INF, 0.0], [1.0, 2.0]], [-100, 1]),
    "cross_entropy, an ignored row of nan": _ce([[NAN, 0.0], [1.0, 2.0]], [-100, 1]),
    "cross_entropy, sum, an ignored inf row": _ce(
        [[INF, 0.0], [1.0, 2.0]], [-100, 1], reduction="sum"
    ),
    "cross_entropy, ignore_index=0": _ce([[INF, 0.0], [1.0, 2.0]], [0, 1], ignore_index=0),
    "cross_entropy, weights, ignored inf": _ce(
        [[INF, 0.0], [1.0, 2.0]], [-100, 1], weight=[1.0, 2.0]
    ),
    "cross_entropy, every row ignored": _ce([[1.0, 0.0], [1.0, 2.0]], [-100, -100]),
    "cross_entropy, every row ignored, inf": _ce([[INF, 0.0], [1.0, 2.0]], [-100, -100]),
    "abs at nan": lambda L: (lambda x: (x.abs(), [x]))(_x22(L, [NAN, 0.0, -1.0])),
    "relu at nan": lambda L: (lambda x: (x.relu(), [x]))(_x22(L, [NAN, 0.0, -1.0])),
    "max() with a nan": lambda L: (lambda x: (x.max(), [x]))(_x22(L, [NAN, 1.0, 2.0])),
    "max() with two nans": lambda L: (lambda x: (x.max(), [x]))(_x22(L, [NAN, 1.0, NAN])),
    "min() with a nan": lambda L: (lambda x: (x.min(), [x]))(_x22(L, [1.0, NAN, 2.0])),
    "amax() with a nan": lambda L: (lambda x: (x.amax(), [x]))(_x22(L, [NAN, 1.0, 2.0])),
    "x ** 0 at 0": lambda L: (lambda x: (x**0, [x]))(_x22(L, [0.0, 1.0])),
    "x ** tensor(0) at 0": lambda L: (lambda x, y: (x**y, [x, y]))(
        _x22(L, [0.0, 0.0, 2.0]), _x22(L, [0.0, 1.0, 0.0])
    ),
    "squeeze((0, 2))": lambda L: (lambda x: (x.squeeze((0, 2)), [x]))(_x22(L, [[[1.0], [2.0]]])),
    "squeeze([0])": lambda L: (lambda x: (x.squeeze([0]), [x]))(_x22(L, [[[1.0], [2.0]]])),
    "squeeze(0)": lambda L: (lambda x: (x.squeeze(0), [x]))(_x22(L, [[[1.0], [2.0]]])),
    "0 ** x": lambda L: (lambda x: (0**x, [x]))(_x22(L, [-1.0, 0.0, 2.0, 0.5])),
    "0.0 ** x": lambda L: (lambda x: (0.0**x, [x]))(_x22(L, [-1.0, 0.0, 2.0, 0.5])),
    "(-2.0) ** x": lambda L: (lambda x: ((-2.0) ** x, [x]))(_x22(L, [-1.0, 0.0, 2.0, 0.5])),
    "x ** e at 0 and below": lambda L: (lambda x, e: (x**e, [x, e]))(
        _x22(L, [0.0, 0.0, -1.0, 0.0]), _x22(L, [2.0, -1.0, 0.5, 0.0])
    ),
}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_values_gradients_and_nodes_as_pytorch(name: str, torch_module: ModuleType) -> None:
    case = GRAPHS[name]
    m, t = _run_graph(case, microtorch), _run_graph(case, torch_module)
    assert m[1:3] == t[1:3]
    np.testing.assert_allclose(m[0], t[0], rtol=1e-6)
    for m_grad, t_grad in zip(m[3], t[3]):
        np.testing.assert_allclose(m_grad, t_grad, rtol=1e-6)


def test_copy_from_a_number_fills_as_pytorch(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        y = _x22(lib) * 1
        y.copy_(1.5)
        assert (y.grad_fn.name(), _names(y.grad_fn)) == (
            "torch::autograd::CopyBackwards",
            ["MulBackward0", None],
        )
        assert y.tolist() == [[1.5, 1.5], [1.5, 1.5]]
        z = lib.zeros(2, dtype=lib.int64)
        assert z.copy_(1.7).tolist() == [1, 1]


WHOLE_WRITES: dict[str, tuple[Any, str]] = {
    "y[...] = 2.": (Ellipsis, "number"),
    "y[:] = 2.": (slice(None), "number"),
    "y[0:5] = 2.": (slice(0, 5), "number"),
    "y[:, 0:2] = 2.": ((slice(None), slice(0, 2)), "number"),
    "y[()] = 2.": ((), "number"),
    "y[...] = 0-d tensor": (Ellipsis, "0-d"),
    "y[...] = a row": (Ellipsis, "row"),
    "y[None] = 2.": (None, "number"),
    "y[0] = 2.": (0, "number"),
}


@pytest.mark.parametrize("name", list(WHOLE_WRITES))
def test_writing_every_element_records_pytorchs_node(name: str, torch_module: ModuleType) -> None:
    key, kind = WHOLE_WRITES[name]
    seen = {}
    for lib in (microtorch, torch_module):
        x = _x22(lib)
        v = {"number": 2.0, "0-d": lib.tensor(3.0, requires_grad=True)}.get(kind)
        v = lib.tensor([5.0, 6.0], requires_grad=True) if v is None else v
        y = x * 1
        y[key] = v
        y.backward(lib.tensor([[1.0, 2.0], [3.0, 4.0]]))
        v_grad = None if isinstance(v, float) else v.grad.tolist()
        seen[lib] = (y.grad_fn.name(), _names(y.grad_fn), y.tolist(), x.grad.tolist(), v_grad)
    assert seen[microtorch] == seen[torch_module]


def test_writing_a_whole_0d_tensor_is_a_copy(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        s = lib.tensor(1.0, requires_grad=True) * 1
        s[...] = 5.0
        assert s.grad_fn.name() == "torch::autograd::CopyBackwards"


@pytest.mark.parametrize("values", [[], [1.0, 2.0]], ids=["empty", "two"])
def test_bool_of_a_tensor_without_one_value(values: list[float], torch_module: ModuleType) -> None:
    _assert_same_error(lambda L: bool(L.tensor(values)), torch_module)


# --- 6. deep inputs -------------------------------------------------------------------------
def _nested(depth: int) -> Any:
    x: Any = 1.5
    for _ in range(depth):
        x = [x]
    return x


@pytest.mark.parametrize("depth", [33, 64])
def test_a_deeply_nested_list_builds_a_tensor(depth: int, torch_module: ModuleType) -> None:
    _assert_same_tensors(lambda L: L.tensor(_nested(depth)), torch_module)


@pytest.mark.parametrize("depth", [129, 1000, 5000])
def test_past_pytorchs_limit_its_too_many_dimensions_error(
    depth: int, torch_module: ModuleType
) -> None:
    _assert_same_error(lambda L: L.tensor(_nested(depth)), torch_module)  # not RecursionError


@pytest.mark.parametrize("depth", [65, 128])
def test_past_numpys_limit_a_clear_error(depth: int, torch_module: ModuleType) -> None:
    assert torch_module.tensor(_nested(depth)).dim() == depth  # (a deliberate difference)
    with pytest.raises(ValueError, match=f"at most 64 dimensions .* nested {depth} deep"):
        microtorch.tensor(_nested(depth))


def test_the_repr_of_300_nested_modules(torch_module: ModuleType) -> None:
    reprs = []
    for lib in (microtorch, torch_module):
        model = lib.nn.Linear(1, 1)
        for _ in range(300):
            model = lib.nn.Sequential(model)
        reprs.append(repr(model))
    assert reprs[0] == reprs[1]


def test_std_and_var_warn_as_pytorch_when_no_degree_of_freedom_is_left(
    torch_module: ModuleType,
) -> None:
    for lib in (microtorch, torch_module):
        for op in ("var", "std"):
            x = lib.zeros(1, requires_grad=True)
            with pytest.warns(UserWarning, match=rf"^{op}\(\): degrees of freedom is <= 0"):
                y = getattr(x, op)()
            assert np.isnan(y.item())


@pytest.mark.parametrize("values", [[0.0, 0.0, 0.0], []], ids=["constant", "empty"])
def test_std_of_a_constant_has_a_zero_gradient(values: list, torch_module: ModuleType) -> None:
    seen = {}
    for lib in (microtorch, torch_module):
        x = lib.tensor(values, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the empty one warns, as above)
            y = x.std()
        (-1.5 / y).backward()  # dL/dy = inf
        seen[lib] = x.grad.tolist()
    assert seen[microtorch] == seen[torch_module]


def test_relu_keeps_the_sign_of_zero(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        assert (1 / lib.relu(lib.tensor([-0.0, 0.0, -1.0]))).tolist() == [-INF, INF, INF]


PRODUCTS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "dot": ((3,), (3,)),
    "mv": ((2, 3), (3,)),
    "mm": ((2, 3), (3, 4)),
    "bmm": ((2, 2, 3), (2, 3, 4)),
    "matmul with a batch": ((2, 2, 3), (3, 4)),
}


@pytest.mark.parametrize("constant", ["first", "second"])
@pytest.mark.parametrize("name", list(PRODUCTS))
def test_a_product_saves_only_what_the_needed_gradient_uses(
    name: str, constant: str, torch_module: ModuleType
) -> None:
    seen = {}
    for lib in (microtorch, torch_module):
        a, b = (lib.ones(*s, dtype=lib.float64) * (i + 2) for i, s in enumerate(PRODUCTS[name]))
        leaf = (b if constant == "first" else a).requires_grad_()
        varying = leaf * 1  # the input with a gradient: only the constant one is saved
        y = lib.matmul(a, varying) if constant == "first" else lib.matmul(varying, b)
        varying.add_(1)  # changed after use: not saved, so no error (as in PyTorch)
        y.sum().backward()
        seen[lib] = (y.grad_fn.name(), leaf.grad.tolist())
    assert seen[microtorch] == seen[torch_module]


@pytest.mark.parametrize("requires_grad", [False, True])
def test_an_ndarray_operand_is_refused_with_a_fix(requires_grad: bool) -> None:
    # A deliberate difference: PyTorch computes x * array through numpy (numpy's dtype, no
    # graph) or refuses it when x requires grad; microtorch always asks for a tensor.
    x = microtorch.ones(2, requires_grad=requires_grad)
    with pytest.raises(TypeError, match=r"got ndarray \(Fix: .*torch.from_numpy"):
        x * np.array([2.0, 3.0])
