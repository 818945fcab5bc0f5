"""``Unfold``/``F.unfold`` (im2col) and ``Fold``/``F.fold`` (col2im) against PyTorch 2.13:
values, graphs, float64 gradients, second derivatives, reprs and errors."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import compare_layer, error_of

RNG = np.random.default_rng(6)
IMG = RNG.standard_normal((2, 3, 5, 6))
COLS = RNG.standard_normal((2, 12, 12))

LAYERS: dict[str, tuple[Any, np.ndarray]] = {
    "unfold": (lambda L: L.nn.Unfold(2), IMG),
    "unfold_all": (lambda L: L.nn.Unfold((2, 3), dilation=(2, 1), padding=1, stride=(1, 2)), IMG),
    "unfold_unbatched": (lambda L: L.nn.Unfold(3, stride=2), IMG[0]),
    "unfold_float32": (lambda L: L.nn.Unfold(2, padding=(0, 1)), IMG.astype(np.float32)),
    "fold": (lambda L: L.nn.Fold((4, 5), 2), COLS),
    "fold_all": (
        lambda L: L.nn.Fold((5, 6), (2, 2), dilation=2, padding=1, stride=(2, 1)),
        RNG.standard_normal((2, 8, 18)),
    ),  # fmt: skip
    "fold_unbatched": (lambda L: L.nn.Fold((4, 5), 2), COLS[0]),
    "fold_float32": (lambda L: L.nn.Fold((4, 5), 2), COLS.astype(np.float32)),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layers_match_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]
    compare_layer(torch_module, make, x, rtol=1e-12, atol=1e-12)


def test_fold_of_unfold_counts_each_pixels_windows(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> list[Any]:
        ones = lib.ones(1, 2, 4, 5)
        cols = lib.nn.functional.unfold(ones, 3, padding=1)
        return lib.nn.functional.fold(cols, (4, 5), 3, padding=1).numpy().tolist()

    assert run(microtorch) == run(torch_module)


def test_gradcheck_and_gradgradcheck() -> None:
    rng = np.random.default_rng(0)
    x = microtorch.tensor(rng.standard_normal((1, 2, 4, 5)), requires_grad=True)
    c = microtorch.tensor(rng.standard_normal((1, 8, 6)), requires_grad=True)
    f = microtorch.nn.functional

    def unfold(x: Any) -> Any:
        return f.unfold(x, 2, padding=1, stride=2) ** 2

    def fold(c: Any) -> Any:
        return f.fold(c, (3, 4), 2) ** 2

    assert gradcheck(unfold, (x,)) and gradgradcheck(unfold, (x,))
    assert gradcheck(fold, (c,)) and gradgradcheck(fold, (c,))


def _second(lib: Any) -> tuple[Any, list[np.ndarray]]:
    rng = np.random.default_rng(2)
    x = lib.tensor(rng.standard_normal((1, 2, 4, 4)), requires_grad=True)
    cols = lib.nn.functional.unfold(x, 2, stride=1) ** 2
    back = lib.nn.functional.fold(cols, (4, 4), 2) ** 2
    v = lib.tensor(rng.standard_normal(tuple(back.shape)), requires_grad=True)
    (gx,) = lib.autograd.grad(back, [x], v, create_graph=True)
    u = lib.tensor(rng.standard_normal(tuple(gx.shape)))
    second = lib.autograd.grad((gx * u).sum(), [x, v])
    return [gx.grad_fn.name()], [t.detach().numpy() for t in (gx, *second)]


def test_second_derivatives_match_torch(torch_module: ModuleType) -> None:
    (mine_names, mine), (theirs_names, theirs) = _second(microtorch), _second(torch_module)
    assert mine_names == theirs_names
    for m, t in zip(mine, theirs):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-10)


def _errors(lib: ModuleType) -> list[Any]:
    f = lib.nn.functional
    x = lib.randn(2, 3, 5, 5)
    return [
        lambda: f.unfold(x[0, 0], 2),
        lambda: f.unfold(x, 6),
        lambda: f.unfold(x, 0),
        lambda: f.unfold(x, 2, stride=0),
        lambda: f.unfold(x, 2, padding=-1),
        lambda: f.unfold(x, 2, dilation=0),
        lambda: f.unfold(x, (2, 2, 2)),
        lambda: f.unfold(x.int(), 2),
        lambda: f.fold(lib.randn(2, 12, 15), (5, 5), 2),
        lambda: f.fold(lib.randn(2, 11, 16), (5, 5), 2),
        lambda: f.fold(lib.randn(2, 3, 12, 16), (5, 5), 2),
        lambda: f.fold(lib.randn(2, 12, 16), (1, 1), 2),
        lambda: f.fold(lib.randn(2, 12, 16), (5, 5), 2, stride=0),
        lambda: lib.nn.Unfold(2)(lib.randn(5)),
    ]


def test_errors_match_torch(torch_module: ModuleType) -> None:
    mine = [error_of(c) for c in _errors(microtorch)]
    theirs = [error_of(c) for c in _errors(torch_module)]
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert m == t, f"case {i}"


def test_reprs_match_torch(torch_module: ModuleType) -> None:
    for make in (
        lambda L: L.nn.Unfold(2, padding=1),
        lambda L: L.nn.Unfold((2, 3), (1, 2), 0, (2, 2)),
        lambda L: L.nn.Fold((4, 5), 2, stride=2),
    ):
        assert repr(make(microtorch)) == repr(make(torch_module))
