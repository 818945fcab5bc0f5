"""0-d and empty tensors through the ops: the same results, graphs and errors as PyTorch."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

from .test_parity import graph

pytestmark = pytest.mark.torch

# s is a 0-d float64 leaf (1.5), e an empty float64 leaf of shape (0,); both require grad
EDGES: dict[str, Callable[[ModuleType, Any, Any], Any]] = {
    "0d_sum": lambda L, s, e: s.sum(),
    "0d_sum_dim0": lambda L, s, e: s.sum(0),
    "0d_mean_dim_last": lambda L, s, e: s.mean(-1),
    "0d_max": lambda L, s, e: s.max(),
    "0d_max_dim": lambda L, s, e: s.max(0).values,
    "0d_amax": lambda L, s, e: s.amax(),
    "0d_softmax": lambda L, s, e: s.softmax(0),
    "0d_log_softmax": lambda L, s, e: s.log_softmax(-1),
    "0d_logsumexp": lambda L, s, e: s.logsumexp(0),
    "0d_var_dim": lambda L, s, e: s.var(0, correction=0),
    "0d_unsqueeze": lambda L, s, e: s.unsqueeze(0),
    "0d_view": lambda L, s, e: s.view(1, 1),
    "0d_reshape": lambda L, s, e: s.reshape(-1),
    "0d_flatten": lambda L, s, e: s.flatten(),
    "0d_squeeze": lambda L, s, e: s.squeeze(),
    "0d_t": lambda L, s, e: s.t(),
    "0d_transpose": lambda L, s, e: s.transpose(0, 0),
    "0d_expand": lambda L, s, e: s.expand(2, 3),
    "0d_index_none": lambda L, s, e: s[None],
    "0d_index_ellipsis": lambda L, s, e: s[...],
    "0d_times_vector": lambda L, s, e: s * L.tensor([1.0, 2.0], dtype=L.float64),
    "0d_stack": lambda L, s, e: L.stack([s, s]),
    "0d_cat": lambda L, s, e: L.cat([s, s]),
    "0d_unbind": lambda L, s, e: s.unbind(),
    "0d_split": lambda L, s, e: s.split(1),
    "0d_index_int": lambda L, s, e: s[0],
    "0d_index_slice": lambda L, s, e: s[0:1],
    "empty_sum": lambda L, s, e: e.sum(),
    "empty_mean": lambda L, s, e: e.mean(),
    "empty_max": lambda L, s, e: e.max(),
    "empty_max_dim": lambda L, s, e: e.max(0),
    "empty_amax": lambda L, s, e: e.amax(),
    "empty_amin_dim": lambda L, s, e: e.amin(0),
    "empty_softmax": lambda L, s, e: e.softmax(0),
    "empty_reshape": lambda L, s, e: e.reshape(0, 3),
    "empty_exp": lambda L, s, e: e.exp(),
    "empty_dot": lambda L, s, e: e @ e,
    "empty_cat": lambda L, s, e: L.cat([e, e]),
    "alias_of_matrix": lambda L, s, e: s.expand(2, 3)[:, :],
    "slice_of_vector": lambda L, s, e: s.expand(3)[:],
    "alias_ellipsis_slice": lambda L, s, e: s.expand(3)[..., :],
}


def _run(fn: Callable[..., Any], lib: ModuleType) -> Any:
    s = lib.tensor(1.5, dtype=lib.float64, requires_grad=True)
    e = lib.zeros(0, dtype=lib.float64, requires_grad=True)
    try:
        out = fn(lib, s, e)
    except Exception as error:
        return type(error).__name__, str(error).split(" (Fix")[0]
    result = [tuple(out.shape), str(out.dtype).split(".")[1], graph(out.grad_fn)]
    result.append(np.nan_to_num(out.detach().numpy(), nan=-1.0).tolist())
    out.sum().backward()
    result.append([None if t.grad is None else t.grad.numpy().tolist() for t in (s, e)])
    return result


@pytest.mark.parametrize("name", list(EDGES))
def test_edge_case_matches_torch(name: str, torch_module: ModuleType) -> None:
    assert _run(EDGES[name], microtorch) == _run(EDGES[name], torch_module)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sigmoid_at_extreme_inputs_matches_torch(dtype: str, torch_module: ModuleType) -> None:
    # Where exp(-x) overflows, sigmoid is exactly 0, as in PyTorch, and no warning is raised.
    values = [-1000.0, -100.0, -90.0, -88.0, -50.0, -17.0, -1.0, 0.0, 3.0, 17.0, 100.0]

    def run(lib: ModuleType) -> tuple[list[float], list[float]]:
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        y = x.sigmoid()
        y.sum().backward()
        return y.tolist(), x.grad.tolist()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mine = run(microtorch)
    theirs = run(torch_module)
    assert [v == 0 for v in mine[0]] == [v == 0 for v in theirs[0]]  # 0 exactly, no denormal
    np.testing.assert_allclose(mine[0], theirs[0], rtol=2e-7, atol=0)  # (libm: an ulp apart)
    np.testing.assert_allclose(mine[1], theirs[1], rtol=2e-7, atol=0)


@pytest.mark.parametrize("divisor", [64, 2.5, -3, 0, 0.0, float("nan"), float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_division_by_a_number_matches_torch(dtype: str, divisor: float, torch_module) -> None:
    # x / number has a short path; values, dtype and grad_fn must be PyTorch's, silently.
    def run(lib: ModuleType) -> tuple[Any, ...]:
        x = lib.tensor([1.0, -2.0, 0.0, 3.0]).to(getattr(lib, dtype))
        if dtype.startswith("float"):
            x.requires_grad_()
        y = x / divisor
        name = type(y.grad_fn).__name__ if y.grad_fn is not None else None
        return str(y.dtype).split(".")[1], np.nan_to_num(y.detach().numpy(), nan=7.0).tolist(), name

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mine = run(microtorch)
    assert mine == run(torch_module)


@pytest.mark.parametrize("dim", [None, 0, 1])
def test_std_and_var_of_large_float32_values_match_torch(
    dim: Any, torch_module: ModuleType
) -> None:
    # (a 5000-program sweep, seed 25: the squares of values near 1e21 overflow float32; PyTorch
    # adds them up in float64, so its std stays finite where float32 squares gave inf)
    values = [[2.0e21, 1.0e10], [5.0e21, 3.0]]

    def run(lib: ModuleType) -> list[Any]:
        x = lib.tensor(values, dtype=lib.float32)
        std, var = (x.std(), x.var()) if dim is None else (x.std(dim), x.var(dim))
        return [np.asarray(std.numpy()).tolist(), np.asarray(var.numpy()).tolist()]

    ours, theirs = run(microtorch), run(torch_module)
    assert np.allclose(ours, theirs, rtol=1e-6, equal_nan=True), (ours, theirs)
    assert np.array_equal(np.isinf(ours), np.isinf(theirs))
