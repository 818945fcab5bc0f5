"""Issue 22 (speedw): the short paths of W2 and W5 give PyTorch's values and errors.

``a @ b`` of two float matrices goes straight to ``Mm`` (api/operators.mm_operator); a whole
sum's or mean's gradient is a stride-0 view built in one call (ops/_broadcast.expand);
``EmbeddingBackward0`` adds into the flat gradient; ``NllLossBackward0`` reuses the classes
forward picked. Each is checked against torch 2.13 here, bit for bit where float32 allows."""

from __future__ import annotations

import numpy as np
import pytest

import microtorch
from microtorch.autograd import versions
from tests.autograd.test_issue22_call_counts import python_calls

torch = pytest.importorskip("torch")


def test_a_matrix_product_runs_at_most_twelve_python_functions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # as in a fresh process: earlier tests' in-place changes of arrays still alive are counted
    # (each saved input then also reads its version: one call more, see autograd/versions.py)
    monkeypatch.setattr(versions, "counters", {})
    a = microtorch.randn(4, 3, requires_grad=True)
    b = microtorch.randn(3, 2, requires_grad=True)
    calls = python_calls(lambda: a @ b)
    assert len(calls) <= 12, calls
    assert not any("linalg.py" in c and "api" in c for c in calls), calls  # (not via matmul)
    assert (a @ b).grad_fn.name() == "MmBackward0"


@pytest.mark.parametrize(
    ("sa", "sb"), [((4, 3), (3, 2)), ((3,), (3, 2)), ((4, 3), (3,)), ((2, 4, 3), (3, 2))]
)
def test_matmul_operator_matches_torch(sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    a0, b0 = rng.standard_normal(sa).astype(np.float32), rng.standard_normal(sb).astype(np.float32)
    out = {}
    for lib in (microtorch, torch):
        a, b = lib.tensor(a0, requires_grad=True), lib.tensor(b0, requires_grad=True)
        z = a @ b
        (z * z).sum().backward()
        out[lib] = (z.detach().numpy(), a.grad.numpy(), b.grad.numpy(), z.grad_fn.name())
    for mine, theirs in zip(out[microtorch], out[torch]):
        if isinstance(mine, str):
            assert mine == theirs
        else:
            np.testing.assert_allclose(mine, theirs, rtol=1e-6, atol=1e-6)


def test_matmul_operator_errors_as_torch() -> None:
    a = microtorch.randn(4, 3)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        a @ microtorch.randn(4, 2)
    with pytest.raises(RuntimeError, match="same dtype"):
        a @ microtorch.randn(3, 2, dtype=microtorch.float64)
    with pytest.raises(TypeError):
        a @ 2.0  # type: ignore[operator]
    ints = microtorch.ones(2, 2, dtype=microtorch.int64)
    assert (ints @ ints).tolist() == (
        torch.ones(2, 2, dtype=torch.int64) @ torch.ones(2, 2, dtype=torch.int64)
    ).tolist()  # noqa: E501


@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_a_whole_reductions_gradient_is_the_leafs_own(reduce: str) -> None:
    grads = []
    for lib in (microtorch, torch):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        getattr(x, reduce)().backward()
        g = x.grad
        g.add_(1)  # .grad owns its memory: one element changed, the others not
        g[0, 0] = 7.0
        grads.append(g.numpy().copy())
    np.testing.assert_array_equal(grads[0], grads[1])


@pytest.mark.parametrize("padding_idx", [None, 2])
def test_embedding_gradient_with_repeated_rows_matches_torch_bit_for_bit(
    padding_idx: int | None,
) -> None:
    rng = np.random.default_rng(3)
    w0 = rng.standard_normal((7, 5)).astype(np.float32)
    idx = rng.integers(0, 7, (6, 4))
    g0 = rng.standard_normal((6, 4, 5)).astype(np.float32)
    grads = []
    for lib in (microtorch, torch):
        w = lib.tensor(w0, requires_grad=True)
        out = lib.nn.functional.embedding(lib.tensor(idx), w, padding_idx=padding_idx)
        out.backward(lib.tensor(g0))
        grads.append(w.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_cross_entropy_gradient_matches_torch_and_checks_its_target() -> None:
    rng = np.random.default_rng(4)
    x0 = rng.standard_normal((8, 5)).astype(np.float32)
    t0 = np.array([0, 4, 1, 1, -100, 3, 2, 0])
    w0 = rng.uniform(0.5, 2.0, 5).astype(np.float32)
    grads, errors = [], []
    for lib in (microtorch, torch):
        x = lib.tensor(x0, requires_grad=True)
        lib.nn.functional.cross_entropy(x, lib.tensor(t0), weight=lib.tensor(w0)).backward()
        grads.append(x.grad.numpy())
        t = lib.tensor(t0)
        loss = lib.nn.functional.nll_loss(x.log_softmax(1), t)
        t[0] = 1  # the target changed after forward saved it: backward refuses, as PyTorch's
        with pytest.raises(RuntimeError) as info:
            loss.backward()
        errors.append(str(info.value).split(":")[0])
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6, atol=1e-7)
    assert errors[0] == errors[1]
