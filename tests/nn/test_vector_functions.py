"""F.pad, normalize, cosine_similarity, pairwise_distance, kl_div and their modules (and
Unflatten) against PyTorch 2.13: values, float64 gradients (also by finite differences),
grad_fn names where microtorch records PyTorch's graph, errors and reprs."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message

A = np.random.default_rng(0).standard_normal((3, 4))
B = np.random.default_rng(1).standard_normal((3, 4))

# name -> (call on two float64 leaves a and b, whether PyTorch's graph is recorded too)
CALLS: dict[str, tuple[Any, bool]] = {
    "pad": (lambda F, a, b: F.pad(a, (1, 2)), True),
    "pad_2d_value": (lambda F, a, b: F.pad(a, (1, 0, 2, 1), value=-1.5), True),
    "pad_crop": (lambda F, a, b: F.pad(a, (-1, 1, 0, -2)), True),
    "pad_3d": (lambda F, a, b: F.pad(a.reshape(1, 3, 4), (0, 0, 0, 0, 1, 1)), True),
    "normalize": (lambda F, a, b: F.normalize(a), True),
    "normalize_p1_dim0": (lambda F, a, b: F.normalize(a, p=1, dim=0), True),
    "cosine_similarity": (lambda F, a, b: F.cosine_similarity(a, b), False),
    "cosine_similarity_dim0": (lambda F, a, b: F.cosine_similarity(a, b, dim=0), False),
    "pairwise_distance": (lambda F, a, b: F.pairwise_distance(a, b), True),
    "pairwise_distance_p1": (lambda F, a, b: F.pairwise_distance(a, b, p=1, keepdim=True), True),
    "kl_div_batchmean": (
        lambda F, a, b: F.kl_div(a.log_softmax(1), b.softmax(1), reduction="batchmean"),
        True,
    ),
    "kl_div_sum_log_target": (
        lambda F, a, b: F.kl_div(
            a.log_softmax(1), b.log_softmax(1), reduction="sum", log_target=True
        ),
        True,
    ),  # fmt: skip
    "kl_div_none": (lambda F, a, b: F.kl_div(a, b.softmax(1), reduction="none"), True),
    "kl_div_mean": (lambda F, a, b: F.kl_div(a, b.softmax(1)), True),
}


def _graph(t: Any) -> list[str]:
    names, todo = [], [t.grad_fn]
    while todo:
        node = todo.pop(0)
        if node is not None:
            names.append(type(node).__name__)
            todo += [n for n, _ in node.next_functions]
    return names


def _run(lib: ModuleType, name: str) -> dict[str, Any]:
    a = lib.tensor(A, requires_grad=True)
    b = lib.tensor(B, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = CALLS[name][0](lib.nn.functional, a, b)
    y.backward(lib.tensor(np.random.default_rng(3).uniform(-1, 2, tuple(y.shape))))
    return {
        "out": y.detach().numpy(), "a": a.grad.numpy(),
        "b": None if b.grad is None else b.grad.numpy(), "graph": _graph(y),
        "warnings": [str(w.message) for w in caught],
    }  # fmt: skip


@pytest.mark.parametrize("name", list(CALLS))
def test_functions_match_torch(torch_module: ModuleType, name: str) -> None:
    mine, theirs = _run(microtorch, name), _run(torch_module, name)
    for key in ("out", "a", "b"):
        if theirs[key] is None:
            assert mine[key] is None
            continue
        assert mine[key].shape == theirs[key].shape and mine[key].dtype == theirs[key].dtype
        np.testing.assert_allclose(mine[key], theirs[key], rtol=1e-12, atol=1e-12, err_msg=key)
    assert mine["warnings"] == theirs["warnings"]
    if CALLS[name][1]:
        assert mine["graph"] == [n.replace("torch::autograd::", "") for n in theirs["graph"]]


@pytest.mark.parametrize("name", list(CALLS))
def test_gradients_by_finite_differences(name: str) -> None:
    a = microtorch.tensor(A, requires_grad=True)
    b = microtorch.tensor(B, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert microtorch.autograd.gradcheck(
            lambda x, y: CALLS[name][0](microtorch.nn.functional, x, y), (a, b)
        )


def test_pad_of_integers_and_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        F, x = lib.nn.functional, lib.ones(2, 3)
        return [
            lambda: F.pad(lib.tensor([1, 2]), (1, 1), value=2.5).tolist(),
            lambda: F.pad(x, [1, 1]).shape,
            lambda: F.pad(x, (1,)),
            lambda: F.pad(x, (1, 2, 3, 4, 5, 6)),
            lambda: F.pad(x, (1, 1), mode="foo"),
            lambda: F.pad(x, (-2, -2)),
            lambda: F.normalize(lib.tensor([1, 2])),
            lambda: F.kl_div(x, x, reduction="x"),
        ]

    def outcome(call: Any) -> Any:
        try:
            return str(call()).replace("microtorch.", "torch.")
        except Exception:
            return _message(call)

    assert [outcome(c) for c in calls(microtorch)] == [outcome(c) for c in calls(torch_module)]


def _modules(lib: ModuleType) -> list[Any]:
    nn = lib.nn
    x, y = lib.tensor(A), lib.tensor(B)
    out = []
    layers = [nn.ZeroPad2d(2), nn.ZeroPad2d((1, 0, 2, 3)), nn.ZeroPad1d(1),
              nn.ConstantPad1d((2, 1), 0.5), nn.ConstantPad2d(1, -1.0), nn.Unflatten(1, (2, 2)),
              nn.Unflatten(-1, (2, -1))]  # fmt: skip
    for layer in layers:
        out.append((repr(layer), layer(x).tolist()))
    for layer in (nn.CosineSimilarity(), nn.CosineSimilarity(0, 1e-6), nn.PairwiseDistance(),
                  nn.PairwiseDistance(1.0, keepdim=True)):  # fmt: skip
        out.append((repr(layer), np.round(layer(x, y).numpy(), 10).tolist()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for layer in (nn.KLDivLoss(reduction="batchmean"), nn.KLDivLoss(log_target=True)):
            out.append((repr(layer), round(layer(x.log_softmax(1), y.softmax(1)).item(), 10)))
    return out


def test_modules_match_torch(torch_module: ModuleType) -> None:
    assert _modules(microtorch) == _modules(torch_module)
