"""Issue 24, the rest of torch.* and Tensor: frac, isposinf/isneginf/signbit, nansum/nanmean,
var_mean/std_mean, logspace, nbytes/get_device/char/pin_memory, and the process settings
(threads, deterministic algorithms). Against PyTorch: values, dtypes, grad_fn names, errors.
(Random-input gradients and second derivatives: tests/ops/optable.py.)
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

NAN, INF = float("nan"), float("inf")
SPECIALS = [-1.5, -0.0, 0.0, 2.5, INF, -INF, NAN, -7.25, 1e-30]


def compare_all(fn: Callable[[ModuleType], Any], torch: ModuleType) -> None:
    """``fn`` on both libraries: the same values, dtypes and grad_fn names (also of each
    result of a tuple), or the same exception class and first line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mt, t = outcome(fn, microtorch), outcome(fn, torch)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2].split("\n")[0]), (mt, t)
        return
    if isinstance(t[1], tuple):
        assert type(mt[1]).__name__ == type(t[1]).__name__ and len(mt[1]) == len(t[1])
        for m, r in zip(mt[1], t[1]):
            same(m, r)
        return
    same(mt[1], t[1])


def xs(L: ModuleType, **kw: Any) -> Any:
    return L.tensor(SPECIALS, **kw)


def x34(L: ModuleType, **kw: Any) -> Any:
    return ((L.arange(12.0, **kw).reshape(3, 4) - 5) / 4).requires_grad_()


def with_nans(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([[1.0, NAN, 2.5], [NAN, NAN, -1.0]], **kw)


def _out(L: ModuleType, fn: Callable[..., Any], *args: Any, dtype: Any = None, **kw: Any) -> Any:
    out = L.empty(0, dtype=dtype)
    fn(*args, out=out, **kw)
    return out


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "frac": lambda L: L.frac(xs(L, requires_grad=True)),
    "frac method": lambda L: x34(L).frac(),
    "frac float64": lambda L: xs(L, dtype=L.float64).frac(),
    "frac float16": lambda L: xs(L, dtype=L.float16).frac(),
    "frac int": lambda L: L.frac(L.arange(3)),
    "frac bool": lambda L: L.tensor([True]).frac(),
    "frac_": lambda L: L.frac_(xs(L)),
    "frac_ method": lambda L: (x34(L) * 1).frac_(),
    "frac out": lambda L: _out(L, L.frac, xs(L)),
    "frac empty": lambda L: L.frac(L.ones(0, 3)),
    "frac list": lambda L: L.frac([1.5]),
    "isposinf": lambda L: L.isposinf(xs(L)),
    "isneginf": lambda L: xs(L).isneginf(),
    "isposinf int": lambda L: L.isposinf(L.arange(3)),
    "isneginf bool": lambda L: L.tensor([True, False]).isneginf(),
    "isposinf float16": lambda L: xs(L, dtype=L.float16).isposinf(),
    "isposinf out": lambda L: _out(L, L.isposinf, xs(L), dtype=L.bool),
    "isneginf out float": lambda L: _out(L, L.isneginf, xs(L)),
    "isposinf list": lambda L: L.isposinf([1.0]),
    "isposinf grad": lambda L: L.isposinf(x34(L)),
    "signbit": lambda L: L.signbit(xs(L)),
    "signbit method": lambda L: x34(L).signbit(),
    "signbit int": lambda L: L.signbit(L.arange(-2, 2)),
    "signbit uint8": lambda L: L.signbit(L.arange(3, dtype=L.uint8)),
    "signbit bool": lambda L: L.tensor([True]).signbit(),
    "signbit out": lambda L: _out(L, L.signbit, xs(L), dtype=L.bool),
    "signbit out float": lambda L: _out(L, L.signbit, xs(L)),
    "signbit empty": lambda L: L.signbit(L.ones(2, 0)),
    "nansum": lambda L: L.nansum(with_nans(L, requires_grad=True)),
    "nansum dim": lambda L: with_nans(L, requires_grad=True).nansum(1),
    "nansum dims keepdim": lambda L: L.nansum(with_nans(L), (0, -1), keepdim=True),
    "nansum dim ()": lambda L: L.nansum(with_nans(L), ()),
    "nansum keyword": lambda L: L.nansum(input=with_nans(L), dim=0, keepdim=True),
    "nansum axis": lambda L: with_nans(L).nansum(axis=0),
    "nansum dtype": lambda L: L.nansum(with_nans(L), dtype=L.float64),
    "nansum int dtype": lambda L: L.nansum(with_nans(L), dtype=L.int64),
    "nansum int": lambda L: L.nansum(L.arange(5)),
    "nansum int8": lambda L: L.nansum(L.arange(5, dtype=L.int8), 0),
    "nansum bool": lambda L: L.tensor([True, True]).nansum(),
    "nansum 0-d": lambda L: L.nansum(L.tensor(NAN)),
    "nansum empty": lambda L: L.nansum(L.ones(0, 2), 0),
    "nansum bad dim": lambda L: L.nansum(with_nans(L), 2),
    "nansum repeated dim": lambda L: L.nansum(with_nans(L), (1, -1)),
    "nansum out": lambda L: _out(L, L.nansum, with_nans(L), 1),
    "nansum not a tensor": lambda L: L.nansum([1.0]),
    "nanmean": lambda L: L.nanmean(with_nans(L, requires_grad=True)),
    "nanmean dim": lambda L: with_nans(L, requires_grad=True).nanmean(0),
    "nanmean all nan": lambda L: L.nanmean(with_nans(L), 1, keepdim=True),
    "nanmean dim ()": lambda L: L.nanmean(with_nans(L), dim=()),
    "nanmean dtype": lambda L: L.nanmean(with_nans(L), dtype=L.float64),
    "nanmean float64": lambda L: L.nanmean(with_nans(L, dtype=L.float64), (0, 1)),
    "nanmean int": lambda L: L.nanmean(L.arange(3)),
    "nanmean empty": lambda L: L.nanmean(L.ones(0)),
    "nanmean out": lambda L: _out(L, L.nanmean, with_nans(L), 0),
    "var_mean": lambda L: L.var_mean(x34(L)),
    "var_mean dim": lambda L: L.var_mean(x34(L), 1),
    "var_mean dims keepdim": lambda L: L.var_mean(x34(L), (0, 1), keepdim=True),
    "var_mean unbiased": lambda L: L.var_mean(x34(L), 0, False),
    "var_mean unbiased only": lambda L: L.var_mean(x34(L), False),
    "var_mean correction": lambda L: L.var_mean(x34(L), dim=1, correction=2),
    "var_mean correction 0": lambda L: L.var_mean(x34(L), correction=0),
    "var_mean too few": lambda L: L.var_mean(L.tensor([1.0]), 0),
    "var_mean empty": lambda L: L.var_mean(L.ones(0)),
    "var_mean float64": lambda L: L.var_mean(x34(L, dtype=L.float64), -1),
    "var_mean int": lambda L: L.var_mean(L.arange(3)),
    "var_mean bad dim": lambda L: L.var_mean(x34(L), 2),
    "var_mean keyword": lambda L: L.var_mean(input=x34(L), dim=0),
    "std_mean": lambda L: L.std_mean(x34(L)),
    "std_mean dim": lambda L: L.std_mean(x34(L), 0, keepdim=True),
    "std_mean unbiased": lambda L: L.std_mean(x34(L), unbiased=False),
    "std_mean correction": lambda L: L.std_mean(x34(L), 1, correction=0),
    "std_mean constant": lambda L: L.std_mean(L.ones(2, 3, requires_grad=True), 1),
    "std_mean empty": lambda L: L.std_mean(L.ones(0)),
    "std_mean int": lambda L: L.std_mean(L.arange(3)),
    "std_mean bool": lambda L: L.std_mean(L.tensor([True])),
    "logspace": lambda L: L.logspace(0, 2, 3),
    "logspace base": lambda L: L.logspace(-1, 3, 9, base=2),
    "logspace base position": lambda L: L.logspace(1.5, -2.25, 11, 3.7),
    "logspace float64": lambda L: L.logspace(-3.0, 5.0, 33, dtype=L.float64),
    "logspace float16": lambda L: L.logspace(0, 2, 5, dtype=L.float16),
    "logspace int": lambda L: L.logspace(-1, 2, 4, dtype=L.int64),
    "logspace int32": lambda L: L.logspace(0, 3, 4, dtype=L.int32),
    "logspace negative base": lambda L: L.logspace(0, 1, 3, base=-2),
    "logspace one": lambda L: L.logspace(1, 5, 1),
    "logspace none": lambda L: L.logspace(0, 2, 0),
    "logspace negative steps": lambda L: L.logspace(0, 2, -1),
    "logspace bool": lambda L: L.logspace(0, 2, 3, dtype=L.bool),
    "logspace requires_grad": lambda L: L.logspace(0, 2, steps=3, requires_grad=True),
    "logspace 0-d tensors": lambda L: L.logspace(L.tensor(0.0), L.tensor(2.0), 3),
    "logspace out": lambda L: _out(L, L.logspace, 0, 2, 3),
    "logspace out float64": lambda L: _out(L, L.logspace, 0, 1, 7, dtype=L.float64),
    "char": lambda L: L.tensor([1.7, -2.5, 127.0]).char(),
    "char of bool": lambda L: L.tensor([True, False]).char(),
    "pin_memory": lambda L: L.ones(2).pin_memory(),
    "is_pinned": lambda L: L.ones(2).is_pinned(),
    "nbytes": lambda L: L.ones(3, 4).nbytes,
    "nbytes of a view": lambda L: L.ones(3, 4)[:, :2].nbytes,
    "nbytes of an expand": lambda L: L.ones(3, 4, dtype=L.float64).expand(5, 3, 4).nbytes,
    "nbytes of bool": lambda L: L.ones(3, dtype=L.bool).nbytes,
    "get_device": lambda L: L.ones(2).get_device(),
    "set_num_threads 0": lambda L: L.set_num_threads(0),
    "set_num_threads float": lambda L: L.set_num_threads(2.0),
    "set_num_threads bool": lambda L: L.set_num_threads(True),
    "use_deterministic_algorithms int": lambda L: L.use_deterministic_algorithms(1),
    "use_deterministic_algorithms warn_only int": lambda L: L.use_deterministic_algorithms(
        True, warn_only=1
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare_all(CASES[case], torch_module)


def test_float32_logspace_has_pytorch_digits(torch_module: ModuleType) -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        start, end = rng.uniform(-8, 8, 2).round(2)
        steps, base = int(rng.integers(2, 40)), float(rng.choice([10.0, 2.0, 0.5, 3.7]))
        for dtype in ("float32", "float64", "int64"):
            mine = microtorch.logspace(start, end, steps, base, dtype=getattr(microtorch, dtype))
            theirs = torch_module.logspace(
                start, end, steps, base, dtype=getattr(torch_module, dtype)
            )
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_nansum_and_nanmean_gradients(torch_module: ModuleType) -> None:
    def run(L: ModuleType, dim: Any) -> Any:
        x = with_nans(L, dtype=L.float64).requires_grad_()
        w = L.tensor([[1.0, 2.0, -3.0], [0.5, 4.0, 7.0]], dtype=L.float64)
        y = (L.nansum(x * w, dim) + L.nanmean(x, dim) * 3).sum()
        y.backward()
        return x.grad.numpy().copy()

    for dim in (None, 0, 1, (0, 1)):
        args = () if dim is None else (dim,)
        np.testing.assert_allclose(
            run(microtorch, *args or ((),)), run(torch_module, *args or ((),))
        )


def test_var_mean_and_std_mean_gradients_of_both_results(torch_module: ModuleType) -> None:
    def run(L: ModuleType, name: str, **kw: Any) -> Any:
        x = L.tensor(np.arange(12.0).reshape(3, 4) ** 1.5, dtype=L.float64, requires_grad=True)
        first, mean = getattr(L, name)(x, **kw)
        assert first.grad_fn is mean.grad_fn
        (first * L.arange(first.numel(), dtype=L.float64).reshape(first.shape)).sum().backward(
            retain_graph=True
        )
        g1 = x.grad.numpy().copy()
        x.grad = None
        (mean * 3).sum().backward()  # the mean alone: the other output's gradient is zeros
        return g1, x.grad.numpy().copy()

    for name in ("var_mean", "std_mean"):
        for kw in ({}, {"dim": 1}, {"dim": 0, "keepdim": True, "correction": 0}):
            for m, t in zip(run(microtorch, name, **kw), run(torch_module, name, **kw)):
                np.testing.assert_allclose(m, t, rtol=1e-12)


def test_degrees_of_freedom_warning_names_the_function(torch_module: ModuleType) -> None:
    for name in ("var_mean", "std_mean"):
        for L in (microtorch, torch_module):
            with pytest.warns(UserWarning, match=f"^{name}\\(\\): degrees of freedom is <= 0"):
                getattr(L, name)(L.tensor([1.0]), 0)


def test_process_settings_as_pytorch(torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        before = (
            L.are_deterministic_algorithms_enabled(),
            L.is_deterministic_algorithms_warn_only_enabled(),
        )
        threads = L.get_num_threads()
        L.set_num_threads(1)
        one = L.get_num_threads()
        L.set_num_threads(threads)
        L.use_deterministic_algorithms(True, warn_only=True)
        during = (
            L.are_deterministic_algorithms_enabled(),
            L.is_deterministic_algorithms_warn_only_enabled(),
        )
        L.use_deterministic_algorithms(False)
        after = L.are_deterministic_algorithms_enabled()
        return before, one, L.get_num_threads() == threads, during, after, threads > 0

    assert run(microtorch) == run(torch_module)


# --- in-place random fills: numpy's numbers, PyTorch's checks, nodes and ranges -------------
FILL_ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "uniform_ reversed": lambda L: L.ones(3).uniform_(2, 1),
    "uniform_ int": lambda L: L.ones(3, dtype=L.long).uniform_(),
    "uniform_ bool": lambda L: L.ones(3, dtype=L.bool).uniform_(),
    "uniform_ inf": lambda L: L.ones(3).uniform_(INF, 1),
    "uniform_ past float": lambda L: L.ones(3).uniform_(-1e39, 1e39),
    "uniform_ past double": lambda L: L.ones(3, dtype=L.float64).uniform_(0, INF),
    "uniform_ keyword a": lambda L: L.ones(3).uniform_(a=1),
    "uniform_ keyword from_": lambda L: L.ones(3).uniform_(from_=1),
    "uniform_ string": lambda L: L.ones(3).uniform_("a"),
    "uniform_ leaf": lambda L: L.ones(3, requires_grad=True).uniform_(),
    "exponential_ 0": lambda L: L.ones(3).exponential_(0),
    "exponential_ negative": lambda L: L.ones(3).exponential_(-1),
    "exponential_ int": lambda L: L.ones(3, dtype=L.long).exponential_(),
    "exponential_ uint8": lambda L: L.ones(3, dtype=L.uint8).exponential_(),
    "geometric_ 0": lambda L: L.ones(3).geometric_(0),
    "geometric_ 1": lambda L: L.ones(3).geometric_(1),
    "geometric_ 1.5": lambda L: L.ones(3).geometric_(1.5),
    "geometric_ bool": lambda L: L.ones(3, dtype=L.bool).geometric_(0.5),
    "geometric_ no p": lambda L: L.ones(3).geometric_(),
    "cauchy_ sigma 0": lambda L: L.ones(3).cauchy_(sigma=0),
    "cauchy_ sigma negative": lambda L: L.ones(3).cauchy_(0, -1),
    "cauchy_ int": lambda L: L.ones(3, dtype=L.long).cauchy_(),
    "cauchy_ int32": lambda L: L.ones(3, dtype=L.int32).cauchy_(),
    "log_normal_ std 0": lambda L: L.ones(3).log_normal_(std=0),
    "log_normal_ std negative": lambda L: L.ones(3).log_normal_(0, -1),
    "log_normal_ int": lambda L: L.ones(3, dtype=L.long).log_normal_(),
    "empty uniform_": lambda L: L.ones(0).uniform_(),
}


@pytest.mark.parametrize("case", list(FILL_ERRORS))
def test_fill_errors_match_pytorch(case: str, torch_module: ModuleType) -> None:
    compare_all(FILL_ERRORS[case], torch_module)


FILLS: dict[str, Callable[[Any], Any]] = {
    "uniform_": lambda z: z.uniform_(),
    "uniform_ bounds": lambda z: z.uniform_(-2, 3),
    "uniform_ keywords": lambda z: z.uniform_(**{"from": 1, "to": 2}),
    "exponential_": lambda z: z.exponential_(),
    "exponential_ lambd": lambda z: z.exponential_(lambd=4.0),
    "geometric_": lambda z: z.geometric_(0.25),
    "cauchy_": lambda z: z.cauchy_(1.0, 0.5),
    "log_normal_": lambda z: z.log_normal_(),
    "log_normal_ keywords": lambda z: z.log_normal_(mean=0, std=0.5),
    "normal_": lambda z: z.normal_(1, 2),
    "bernoulli_": lambda z: z.bernoulli_(0.3),
    "bernoulli_ tensor": lambda z: z.bernoulli_(z.detach() * 0 + 0.5),
    "random_": lambda z: z.random_(),
    "random_ to": lambda z: z.random_(5),
    "random_ from to": lambda z: z.random_(1, 5),
}


@pytest.mark.parametrize("case", list(FILLS))
def test_fill_of_a_graph_tensor_records_pytorch_node(case: str, torch_module: ModuleType) -> None:
    # PyTorch's node, with a zero gradient for what the tensor held (and for bernoulli_'s p)
    def run(L: ModuleType) -> Any:
        w = L.ones(3, 2, dtype=L.float64, requires_grad=True)
        z = w * 2
        result = FILLS[case](z)
        node = z.grad_fn
        (z * L.arange(6.0, dtype=L.float64).reshape(3, 2)).sum().backward()
        names = [None if n is None else n.name() for n, _ in node.next_functions]
        return result is z, node.name(), names, str(z.dtype)[-7:], w.grad.tolist()

    assert run(microtorch) == run(torch_module)


def test_fill_without_a_graph_in_range(torch_module: ModuleType) -> None:
    # numpy's numbers, not PyTorch's: ranges, means, dtypes and integrality compared
    microtorch.manual_seed(0)
    n = 20000
    for dtype in ("float32", "float64", "float16"):
        for fill, low, high, mean in (
            (lambda z: z.uniform_(-2, 3), -2, 3, 0.5),
            (lambda z: z.exponential_(4.0), 0, INF, 0.25),
            (lambda z: z.log_normal_(0, 0.5), 0, INF, float(np.exp(0.125))),
            (lambda z: z.geometric_(0.25), 1, INF, 4.0),
        ):
            m = fill(microtorch.empty(n, dtype=getattr(microtorch, dtype)))
            t = fill(torch_module.empty(n, dtype=getattr(torch_module, dtype)))
            assert str(m.dtype)[11:] == str(t.dtype)[6:]
            for values in (m.double().numpy(), t.double().numpy()):
                assert low <= values.min() and values.max() <= high
                assert abs(values.mean() - mean) < 0.05 * mean
    g = microtorch.zeros(100, dtype=microtorch.int64).geometric_(0.5).numpy()
    assert g.min() >= 1 and g.dtype == np.int64
    c = microtorch.empty(n, dtype=microtorch.float64).cauchy_(1.0, 0.5).numpy()
    assert abs(np.median(c) - 1.0) < 0.05


# --- kthvalue and mode: named results, PyTorch's index among ties ---------------------------
def ties(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([[3.0, 1, 2, 1, 3, 3], [5, 5, 2, 2, 7, 1]], **kw)


SELECT_CASES: dict[str, Callable[[ModuleType], Any]] = {
    "kthvalue": lambda L: ties(L, requires_grad=True).kthvalue(2),
    "kthvalue dim 0": lambda L: ties(L).kthvalue(1, 0),
    "kthvalue keywords": lambda L: L.kthvalue(ties(L), k=4, dim=1, keepdim=True),
    "kthvalue k too big": lambda L: L.kthvalue(ties(L), 7),
    "kthvalue k 0": lambda L: L.kthvalue(ties(L), 0),
    "kthvalue nan last": lambda L: L.kthvalue(L.tensor([1.0, NAN, 0.0]), 3),
    "kthvalue before nan": lambda L: L.kthvalue(L.tensor([1.0, NAN, 0.0]), 2),
    "kthvalue 0-d": lambda L: L.kthvalue(L.tensor(3.0), 1),
    "kthvalue 0-d k 2": lambda L: L.kthvalue(L.tensor(3.0), 2),
    "kthvalue bool": lambda L: L.kthvalue(L.tensor([True, False]), 1),
    "kthvalue int": lambda L: L.kthvalue(L.tensor([3, 1, 2]), 2),
    "kthvalue empty": lambda L: L.kthvalue(L.ones(0), 1),
    "kthvalue empty rows": lambda L: L.kthvalue(L.ones(2, 0), 1, 0),
    "kthvalue no k": lambda L: L.kthvalue(ties(L)),
    "kthvalue bad dim": lambda L: ties(L).kthvalue(1, 2),
    "mode": lambda L: ties(L, requires_grad=True).mode(),
    "mode dim 0": lambda L: ties(L).mode(0),
    "mode keepdim": lambda L: L.mode(ties(L), 1, True),
    "mode nan": lambda L: L.mode(L.tensor([1.0, NAN, NAN, 0.0])),
    "mode int": lambda L: L.mode(L.tensor([2, 1, 2, 1])),
    "mode bool": lambda L: L.mode(L.tensor([True, False, True])),
    "mode 0-d": lambda L: L.mode(L.tensor(3.0)),
    "mode empty": lambda L: L.mode(L.ones(0)),
    "mode empty dim": lambda L: L.mode(L.ones(0, 2), 0),
    "mode empty rows": lambda L: L.mode(L.ones(0, 2), 1),
    "mode keyword": lambda L: L.mode(input=ties(L), dim=0),
}


@pytest.mark.parametrize("case", list(SELECT_CASES))
def test_kthvalue_and_mode_match_pytorch(case: str, torch_module: ModuleType) -> None:
    compare_all(SELECT_CASES[case], torch_module)
    mine, theirs = (
        outcome(SELECT_CASES[case], microtorch),
        outcome(SELECT_CASES[case], torch_module),
    )
    if theirs[0] == "ok":  # the named result prints as PyTorch's
        assert repr(mine[1]) == repr(theirs[1]).replace("torch.", "microtorch.")


@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_tie_indices_match_pytorch_on_many_rows(dtype: str, torch_module: ModuleType) -> None:
    rng = np.random.default_rng(5)
    for width in (1, 2, 3, 7, 16, 33):
        data = rng.integers(0, 4, (300, width))
        if dtype == "float64":  # with nans in a third of the rows
            data = np.where(rng.random((300, width)) < 0.1, np.nan, data)
        m_x = microtorch.tensor(data, dtype=getattr(microtorch, dtype))
        t_x = torch_module.tensor(data, dtype=getattr(torch_module, dtype))
        m_mode, t_mode = m_x.mode(1), t_x.mode(1)
        np.testing.assert_array_equal(m_mode.indices.numpy(), t_mode.indices.numpy())
        np.testing.assert_array_equal(m_mode.values.numpy(), t_mode.values.numpy())
        for k in sorted({1, (width + 1) // 2, width}):
            m_k, t_k = m_x.kthvalue(k, 1), t_x.kthvalue(k, 1)
            np.testing.assert_array_equal(m_k.indices.numpy(), t_k.indices.numpy())
            np.testing.assert_array_equal(m_k.values.numpy(), t_k.values.numpy())
