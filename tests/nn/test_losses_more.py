"""The margin and embedding losses (``MarginRankingLoss``, ``HingeEmbeddingLoss``,
``CosineEmbeddingLoss``, ``TripletMarginLoss``, ``SoftMarginLoss``, ``MultiMarginLoss``,
``MultiLabelMarginLoss`` and their F forms) against PyTorch 2.13: values, graphs, float64
gradients, reprs and errors."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import error_of

RNG = np.random.default_rng(3)
A, B, C = (RNG.standard_normal((4, 5)) for _ in range(3))
V1, V2 = RNG.standard_normal(6), RNG.standard_normal(6)
SIGNS = np.array([1.0, -1.0, 1.0, -1.0, -1.0, 1.0])
SIGNS4 = SIGNS[:4]
CLASSES = np.array([0, 3, 4, 1])
LABELS = np.array([[0, 2, -1, 1, 1], [4, -1, 0, 0, 0], [-1, 1, 2, 3, 4], [1, 2, 3, 4, 0]])

# name -> call(lib, tensors) and the arrays that become float64 leaves (others are data)
CASES: dict[str, tuple[Any, list[np.ndarray]]] = {
    "margin_ranking": (
        lambda L, x, y, kw: L.nn.functional.margin_ranking_loss(x, y, L.tensor(SIGNS), 0.3, **kw),
        [V1, V2],
    ),
    "hinge_embedding": (
        lambda L, x, kw: L.nn.functional.hinge_embedding_loss(x, L.tensor(SIGNS), 0.5, **kw),
        [V1],
    ),
    "hinge_embedding_2d": (
        lambda L, x, kw: L.nn.functional.hinge_embedding_loss(
            x, L.tensor(np.sign(B) + (B == 0)), **kw
        ),
        [A],
    ),
    "cosine_embedding": (
        lambda L, x, y, kw: L.nn.functional.cosine_embedding_loss(
            x, y, L.tensor(SIGNS4), 0.1, **kw
        ),
        [A, B],
    ),
    "cosine_embedding_1d": (
        lambda L, x, y, kw: L.nn.functional.cosine_embedding_loss(x, y, L.tensor(-1.0), **kw),
        [V1, V2],
    ),
    "triplet_margin": (
        lambda L, a, p, n, kw: L.nn.functional.triplet_margin_loss(a, p, n, **kw),
        [A, B, C],
    ),
    "triplet_margin_swap_p1": (
        lambda L, a, p, n, kw: L.nn.functional.triplet_margin_loss(
            a, p, n, margin=2.0, p=1, swap=True, **kw
        ),
        [A, B, C],
    ),
    "soft_margin": (
        lambda L, x, kw: L.nn.functional.soft_margin_loss(x, L.tensor(np.sign(B)), **kw),
        [A],
    ),
    "multi_margin": (
        lambda L, x, kw: L.nn.functional.multi_margin_loss(x, L.tensor(CLASSES), **kw),
        [A],
    ),
    "multi_margin_p2_weight": (
        lambda L, x, kw: L.nn.functional.multi_margin_loss(
            x, L.tensor(CLASSES), p=2, margin=0.7, weight=L.tensor(np.arange(1.0, 6.0)), **kw
        ),
        [A],
    ),
    "multi_margin_1d": (
        lambda L, x, kw: L.nn.functional.multi_margin_loss(x, L.tensor(2), **kw),
        [V1],
    ),
    "multilabel_margin": (
        lambda L, x, kw: L.nn.functional.multilabel_margin_loss(x, L.tensor(LABELS), **kw),
        [A],
    ),
    "multilabel_margin_1d": (
        lambda L, x, kw: L.nn.functional.multilabel_margin_loss(
            x, L.tensor([3, 0, -1, 2, 2, 2]), **kw
        ),
        [V1],
    ),
}


def _run(lib: ModuleType, name: str, reduction: str) -> list[Any]:
    call, arrays = CASES[name]
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = call(lib, *leaves, {"reduction": reduction})
    g = np.random.default_rng(1).uniform(-1, 2, tuple(out.shape))
    out.backward(lib.tensor(g))
    names = [n.replace("NormBackward1", "LinalgVectorNormBackward0") for n in graph(out)]
    names = [n.replace("LinalgVectorLinalgVector", "LinalgVector") for n in names]
    return [names, tuple(out.shape), str(out.dtype).split(".")[-1], out.detach().numpy()] + [
        t.grad.numpy() for t in leaves
    ]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", list(CASES))
def test_losses_match_torch(torch_module: ModuleType, name: str, reduction: str) -> None:
    # (microtorch's p-norm records LinalgVectorNormBackward0 where x.norm(p, dim) records
    # NormBackward1 in PyTorch: the graphs are compared with that one name mapped)
    mine, theirs = _run(microtorch, name, reduction), _run(torch_module, name, reduction)
    assert mine[:3] == theirs[:3]
    for m, t in zip(mine[3:], theirs[3:]):
        np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_loss_gradients_by_finite_differences(name: str) -> None:
    call, arrays = CASES[name]
    leaves = tuple(microtorch.tensor(a, requires_grad=True) for a in arrays)
    assert gradcheck(lambda *ts: call(microtorch, *ts, {"reduction": "sum"}), leaves)


def test_float32_and_modules_match_torch(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[Any]:
        nn = lib.nn
        a, b, c = (lib.tensor(v, dtype=lib.float32) for v in (A, B, C))
        modules = [
            (nn.MarginRankingLoss(0.2), (a[0], b[0], lib.tensor(SIGNS[:5]).float())),
            (nn.HingeEmbeddingLoss(2.0, reduction="sum"), (a, lib.ones(4, 5))),
            (nn.CosineEmbeddingLoss(0.5), (a, b, lib.tensor(SIGNS4).float())),
            (nn.TripletMarginLoss(margin=0.5, p=3.0, swap=True), (a, b, c)),
            (nn.SoftMarginLoss(reduction="none"), (a, -lib.ones(4, 5))),
            (nn.MultiMarginLoss(weight=lib.ones(5) * 2), (a, lib.tensor(CLASSES))),
            (nn.MultiLabelMarginLoss(), (a, lib.tensor(LABELS))),
        ]
        found = []
        for module, args in modules:
            out = module(*args)
            found.append((repr(module), str(out.dtype)[-7:], np.round(out.numpy(), 5).tolist()))
        found.append(list(modules[5][0].state_dict()))
        return found

    assert run(microtorch) == run(torch_module)


def _errors(lib: ModuleType) -> list[Any]:
    f, nn = lib.nn.functional, lib.nn
    a = lib.randn(4, 3)
    return [
        lambda: f.cosine_embedding_loss(a, a, lib.ones(3)),
        lambda: f.cosine_embedding_loss(a, a, lib.ones(4, 1)),
        lambda: f.cosine_embedding_loss(a, a[:3], lib.ones(4)),
        lambda: f.margin_ranking_loss(a, a, lib.ones(4)),
        lambda: f.margin_ranking_loss(a[0], a[0, :2], lib.ones(3)),
        lambda: f.hinge_embedding_loss(a, lib.ones(3, 4)),
        lambda: f.hinge_embedding_loss(a, lib.ones(4, 3), reduction="foo"),
        lambda: f.triplet_margin_loss(a, a, a[0]),
        lambda: f.triplet_margin_loss(a, a, a[:, :2]),
        lambda: f.triplet_margin_loss(a, a, a, margin=0.0),
        lambda: f.soft_margin_loss(a, lib.ones(3, 4)),
        lambda: f.multi_margin_loss(a, lib.tensor([0, 1, 2])),
        lambda: f.multi_margin_loss(a, lib.tensor([0, 1, 2, 3])),
        lambda: f.multi_margin_loss(a, lib.tensor([0, 1, 2, 1]), p=3),
        lambda: f.multi_margin_loss(a, lib.tensor([0.0, 1, 2, 1])),
        lambda: f.multilabel_margin_loss(a, lib.tensor([0, 1, 2, 1])),
        lambda: f.multilabel_margin_loss(a, lib.tensor([[0, 1, 5]] * 4)),
        lambda: f.margin_ranking_loss([1.0], a, a),
        lambda: nn.TripletMarginLoss(margin=-1.0),
        lambda: nn.MultiMarginLoss(p=3),
        lambda: nn.MultiMarginLoss(weight=lib.ones(2, 2)),
    ]


def test_errors_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m[0] == t[0] and m[1].startswith(t[1]), f"case {i}: {m} {t}"
