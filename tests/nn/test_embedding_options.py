"""``F.embedding`` and ``nn.Embedding`` with PyTorch's other options: ``scale_grad_by_freq``
(each looked-up row's gradient divided by how often the batch holds it), ``norm_type`` for
``max_norm``'s renormalisation, the module's repr and ``from_pretrained``, and the errors;
each against torch 2.13, first and second derivatives."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch

WEIGHT = np.random.default_rng(7).standard_normal((5, 3))
INDICES = [[0, 1, 1, 4], [3, 1, 0, 1]]


def _lookup(lib: Any, dtype: str, options: dict[str, Any], shape: tuple[int, ...]) -> Any:
    w = lib.tensor(WEIGHT, dtype=getattr(lib, dtype), requires_grad=True)
    idx = lib.tensor(INDICES).reshape(shape)
    y = lib.nn.functional.embedding(idx, w, **options)
    g = lib.arange(y.numel(), dtype=y.dtype).reshape(y.shape) - 7
    (y * g).sum().backward()
    return y.detach().numpy(), w.grad.numpy(), w.detach().numpy()


OPTIONS = [
    {"scale_grad_by_freq": True},
    {"scale_grad_by_freq": True, "padding_idx": 1},
    {"scale_grad_by_freq": True, "padding_idx": -1},
    {"max_norm": 1.0, "norm_type": 1.0},
    {"max_norm": 0.5, "norm_type": 3.0, "scale_grad_by_freq": True},
    {"max_norm": 1.2, "norm_type": float("inf")},
]


@pytest.mark.parametrize("shape", [(2, 4), (8,)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_embedding_options_as_torch(
    options: dict[str, Any], dtype: str, shape: tuple[int, ...], torch_module: ModuleType
) -> None:
    ours, theirs = (
        _lookup(microtorch, dtype, options, shape),
        _lookup(torch_module, dtype, options, shape),
    )
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-6 if dtype == "float32" else 1e-12, atol=0)


def _second(lib: Any) -> Any:
    w = lib.tensor(WEIGHT, dtype=lib.float64, requires_grad=True)
    y = lib.nn.functional.embedding(lib.tensor(INDICES), w, scale_grad_by_freq=True)
    g = lib.ones_like(y, requires_grad=True)
    (gw,) = lib.autograd.grad((y * y).sum() * 0.5 + (y * g).sum(), w, create_graph=True)
    return gw, g


def test_scaled_embedding_second_derivative_raises(torch_module: ModuleType) -> None:
    # gw = the sum, over the positions of each row, of (y + g) / count, so d(sum gw^2)/dg at a
    # position is 2 gw[row] / count. PyTorch 2.13's double backward leaves the 1 / count out
    # (a row looked up twice gets twice the value): microtorch raises instead of disagreeing.
    (gw, g), (tgw, tg) = _second(microtorch), _second(torch_module)
    np.testing.assert_allclose(gw.detach().numpy(), tgw.detach().numpy(), rtol=1e-12)
    assert gw.grad_fn.name() == tgw.grad_fn.name() == "EmbeddingDenseBackwardBackward0"
    (theirs,) = torch_module.autograd.grad((tgw * tgw).sum(), tg)
    counts = np.bincount(np.ravel(INDICES), minlength=5)[np.array(INDICES)][..., None]
    right = 2 * tgw.detach().numpy()[np.array(INDICES)] / counts
    assert not np.allclose(theirs.numpy(), right)  # (torch's is off by the count)
    np.testing.assert_allclose(theirs.numpy(), right * counts, rtol=1e-12)
    with pytest.raises(NotImplementedError, match="leaves the 1 / count scaling out"):
        microtorch.autograd.grad((gw * gw).sum(), g)


def test_unscaled_embedding_second_derivative_as_torch(torch_module: ModuleType) -> None:
    results = []
    for lib in (microtorch, torch_module):
        w = lib.tensor(WEIGHT, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.embedding(lib.tensor(INDICES), w, padding_idx=3)
        g = lib.ones_like(y, requires_grad=True)
        (gw,) = lib.autograd.grad((y * y).sum() * 0.5 + (y * g).sum(), w, create_graph=True)
        results.append(lib.autograd.grad((gw * gw).sum(), g)[0].numpy())
    np.testing.assert_allclose(*results, rtol=1e-12)


def test_module_options_repr_and_from_pretrained_as_torch(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        lib.manual_seed(0)
    args = dict(padding_idx=2, max_norm=1.0, norm_type=1, scale_grad_by_freq=True)
    ours, theirs = microtorch.nn.Embedding(4, 3, **args), torch_module.nn.Embedding(4, 3, **args)
    assert (
        repr(ours)
        == repr(theirs)
        == ("Embedding(4, 3, padding_idx=2, max_norm=1.0, norm_type=1, scale_grad_by_freq=True)")
    )
    assert repr(microtorch.nn.Embedding(4, 3, sparse=True)) == repr(
        torch_module.nn.Embedding(4, 3, sparse=True)
    )
    e = microtorch.nn.Embedding.from_pretrained(microtorch.ones(4, 3), scale_grad_by_freq=True)
    t = torch_module.nn.Embedding.from_pretrained(torch_module.ones(4, 3), scale_grad_by_freq=True)
    assert repr(e) == repr(t) and e.scale_grad_by_freq and not e.weight.requires_grad


def _error(lib: Any, case: str) -> Any:
    F = lib.nn.functional
    w, idx = lib.ones(4, 3), lib.tensor([0, 1, 1])
    calls = {
        "padding_high": lambda: F.embedding(idx, w, padding_idx=4),
        "padding_low": lambda: F.embedding(idx, w, padding_idx=-5),
        "weight_3d": lambda: F.embedding(idx, lib.ones(4, 3, 2)),
        "weight_1d": lambda: F.embedding(idx, lib.ones(4)),
        "aten_weight_1d": lambda: lib.embedding(lib.ones(4), idx),
        "float_indices": lambda: F.embedding(idx.float(), w),
    }
    try:
        calls[case]()
    except Exception as error:  # noqa: BLE001 - the class and first line are compared
        return type(error).__name__, str(error).split(" (Fix:")[0].replace("microtorch.", "torch.")
    return "no error"


@pytest.mark.parametrize(
    "case",
    ["padding_high", "padding_low", "weight_3d", "weight_1d", "aten_weight_1d", "float_indices"],
)
def test_embedding_errors_as_torch(case: str, torch_module: ModuleType) -> None:
    assert _error(microtorch, case) == _error(torch_module, case)


def test_sparse_gradients_raise_a_clear_error() -> None:
    # microtorch has no sparse tensors: raising beats handing back a dense grad as if sparse
    with pytest.raises(NotImplementedError, match=r"embedding\(sparse=True\).*Fix: sparse=False"):
        microtorch.nn.Embedding(4, 3, sparse=True)(microtorch.tensor([1]))
