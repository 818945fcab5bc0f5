"""walki: the CTC loss (``F.ctc_loss``, ``torch.ctc_loss``, ``nn.CTCLoss``) against PyTorch
2.13: values, dtypes, grad_fn names and gradients on random cases (impossible alignments
included, with and without zero_infinity), finite differences through log_softmax, the
missing second derivative, and PyTorch's errors for bad lengths."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck

pytestmark = pytest.mark.torch


def _case(seed: int) -> dict[str, Any]:
    """Random sizes, lengths (an input length may be too short: loss inf), labels, blank."""
    rng = np.random.default_rng(seed)
    frames, batch, classes = (int(n) for n in rng.integers((1, 1, 2), (8, 4, 6)))
    longest = int(rng.integers(0, 5))
    return {
        "x": rng.standard_normal((frames, batch, classes)),
        "targets": rng.integers(0, classes, (batch, max(longest, 1))),
        "il": tuple(int(n) for n in rng.integers(0, frames + 1, batch)),
        "tl": tuple(int(n) for n in rng.integers(0, longest + 1, batch)),
        "blank": int(rng.integers(0, classes)),
        "w": rng.standard_normal(batch),
    }


def _run(L: ModuleType, case: dict[str, Any], dtype: str, reduction: str, zero_inf: bool):
    lp = L.tensor(case["x"], dtype=getattr(L, dtype)).log_softmax(2).detach().requires_grad_()
    loss = L.nn.functional.ctc_loss(
        lp, L.tensor(case["targets"]), case["il"], case["tl"], case["blank"], reduction, zero_inf
    )
    upstream = L.tensor(case["w"] if reduction == "none" else 0.7, dtype=lp.dtype)
    (grad,) = L.autograd.grad(loss, lp, upstream)
    return loss, grad


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_inf", [False, True])
def test_random_cases_match_torch(torch_module, seed, reduction, zero_inf) -> None:
    case = _case(seed)
    for dtype, tol in (("float64", 1e-10), ("float32", 2e-5)):
        loss, grad = _run(microtorch, case, dtype, reduction, zero_inf)
        want, want_grad = _run(torch_module, case, dtype, reduction, zero_inf)
        assert str(loss.dtype).split(".")[1] == str(want.dtype).split(".")[1]
        assert loss.grad_fn.name() == want.grad_fn.name()
        np.testing.assert_allclose(loss.detach().numpy(), want.detach().numpy(), rtol=tol, atol=tol)
        np.testing.assert_allclose(
            grad.numpy(), want_grad.numpy(), rtol=tol * 10, atol=tol * 10, equal_nan=True
        )


def test_the_random_cases_include_impossible_alignments(torch_module) -> None:
    losses = [_run(torch_module, _case(s), "float64", "none", False)[0] for s in range(24)]
    assert sum(bool(torch_module.isinf(x).any()) for x in losses) >= 5


def _targets_forms(L: ModuleType) -> list[tuple[Any, Any, Any]]:
    padded = L.tensor([[1, 2, 2], [3, 1, 0]])
    return [
        (padded, (6, 5), (3, 2)),
        (L.tensor([1, 2, 2, 3, 1]), (6, 5), (3, 2)),  # concatenated
        (padded, L.tensor([6, 5]), L.tensor([3, 2])),  # lengths as tensors
        (padded.to(L.int32), L.tensor([6, 5], dtype=L.int32), [3, 2]),
    ]


@pytest.mark.parametrize("form", range(4))
def test_targets_and_lengths_forms(torch_module, form) -> None:
    x = np.random.default_rng(form).standard_normal((6, 2, 4))
    out = []
    for L in (microtorch, torch_module):
        targets, il, tl = _targets_forms(L)[form]
        if form == 3:
            tl = L.tensor(tl, dtype=L.int32)
        lp = L.tensor(x).log_softmax(2).detach().requires_grad_()
        loss = L.nn.CTCLoss(blank=0)(lp, targets, il, tl)
        loss.backward()
        out.append((loss.item(), lp.grad.numpy()))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-12)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_unbatched_log_probs(torch_module, reduction) -> None:
    x = np.random.default_rng(3).standard_normal((5, 3))
    out = []
    for L in (microtorch, torch_module):
        lp = L.tensor(x).log_softmax(1).detach().requires_grad_()
        loss = L.nn.functional.ctc_loss(
            lp, L.tensor([1, 2]), L.tensor(5), L.tensor(2), reduction=reduction
        )
        loss.backward()
        out.append((loss.grad_fn.name(), tuple(loss.shape), loss.item(), lp.grad.numpy()))
    assert out[0][:2] == out[1][:2]
    np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-12)
    np.testing.assert_allclose(out[0][3], out[1][3], rtol=1e-10, atol=1e-12)


def test_aten_form_int_reduction_and_omitted(torch_module) -> None:
    x = np.random.default_rng(4).standard_normal((6, 2, 4))
    for args in [(), (0, 1), (1, 2, True), (0, 0), (0, 7)]:
        got = []
        for L in (microtorch, torch_module):
            lp = L.tensor(x).log_softmax(2)
            loss = L.ctc_loss(lp, L.tensor([[1, 2, 2], [3, 1, 0]]), (6, 5), (3, 2), *args)
            got.append((tuple(loss.shape), loss.numpy()))
        assert got[0][0] == got[1][0], args
        np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-12)
    lp = microtorch.zeros(3, 1, 2)
    loss = microtorch.ctc_loss(
        lp, microtorch.tensor([[1]]), input_lengths=(3,), target_lengths=(1,), blank=0,
        reduction=2, zero_infinity=True,
    )  # fmt: skip
    assert loss.shape == ()


def test_zero_infinity_graph_and_empty_targets(torch_module) -> None:
    x = np.random.default_rng(5).standard_normal((3, 2, 4))
    rows = []
    for L in (microtorch, torch_module):
        lp = L.tensor(x).log_softmax(2).detach().requires_grad_()
        t = L.tensor([[1, 1], [3, 3]])
        none = L.nn.functional.ctc_loss(lp, t, (2, 3), (2, 0), reduction="none")
        zeroed = L.nn.functional.ctc_loss(
            lp, t, (2, 3), (2, 0), reduction="none", zero_infinity=True
        )
        mean = L.nn.functional.ctc_loss(lp, t, (0, 3), (0, 0), zero_infinity=True)
        names = [
            [n.name() if n else None for n, _ in node.next_functions]
            for node in (zeroed.grad_fn, mean.grad_fn.next_functions[0][0])
        ]
        rows.append((none.tolist(), zeroed.tolist(), mean.item(), names))
    assert rows[0][0][0] == rows[1][0][0] == float("inf")
    assert rows[0][3] == rows[1][3]
    np.testing.assert_allclose(rows[0][1], rows[1][1], rtol=1e-12)
    np.testing.assert_allclose(rows[0][2], rows[1][2], rtol=1e-12)


def test_finite_differences_through_log_softmax() -> None:
    # PyTorch's gradient for log_probs holds the softmax term exp(lp): the gradient for the
    # logits under log_softmax, which finite differences check
    x = microtorch.tensor(np.random.default_rng(6).standard_normal((6, 2, 4)), requires_grad=True)
    t = microtorch.tensor([[1, 2, 2], [3, 1, 0]])

    def f(x: Any) -> Any:
        return microtorch.nn.functional.ctc_loss(x.log_softmax(2), t, (6, 5), (3, 2))

    assert gradcheck(f, (x,))


def test_no_second_derivative(torch_module) -> None:
    for L in (microtorch, torch_module):
        lp = L.tensor(np.zeros((4, 1, 3)), requires_grad=True)
        loss = L.nn.functional.ctc_loss(lp, L.tensor([[1, 2]]), (4,), (2,))
        (grad,) = L.autograd.grad(loss, lp, create_graph=True)
        assert grad.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(
            RuntimeError, match="derivative for aten::_ctc_loss_backward is not implemented"
        ):
            grad.sum().backward()


def test_module_repr_and_attributes(torch_module) -> None:
    for L in (microtorch, torch_module):
        loss = L.nn.CTCLoss(blank=2, reduction="sum", zero_infinity=True)
        assert repr(loss) == "CTCLoss()"
        assert (loss.blank, loss.reduction, loss.zero_infinity) == (2, "sum", True)


LP = np.random.default_rng(7).standard_normal((5, 2, 4))
T2 = [[1, 2], [3, 3]]

ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "input_lengths size": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5,), (2, 2)),
    "target_lengths size": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (2,)),
    "blank": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (2, 2), 4),
    "blank negative": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (2, 2), -1),
    "input too long": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (6, 4), (2, 2)),
    "input negative": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (-1, 4), (2, 2)),
    "target too long": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (3, 2)),
    "target negative": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (-1, 2)),
    "concatenated short": lambda L: L.nn.functional.ctc_loss(
        _lp(L), L.tensor([1, 2, 3]), (5, 4), (2, 2)
    ),
    "concatenated long": lambda L: L.nn.functional.ctc_loss(
        _lp(L), L.tensor([1, 2, 3, 3, 1]), (5, 4), (2, 2)
    ),
    "padded batch": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor([[1, 2]]), (5, 4), (2, 2)),
    "targets 3-d": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor([T2]), (5, 4), (2, 2)),
    "targets 0-d": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(1), (5, 4), (2, 2)),
    "log_probs 4-d": lambda L: L.nn.functional.ctc_loss(_lp(L)[None], L.tensor(T2), (5, 4), (2, 2)),
    "log_probs empty": lambda L: L.nn.functional.ctc_loss(
        L.zeros(0, 2, 4), L.tensor(T2), (0, 0), (0, 0)
    ),
    "log_probs long": lambda L: L.nn.functional.ctc_loss(
        L.ones(5, 2, 4, dtype=L.long), L.tensor(T2), (5, 4), (2, 2)
    ),
    "float lengths tensor": lambda L: L.nn.functional.ctc_loss(
        _lp(L), L.tensor(T2), L.tensor([5.0, 4.0]), L.tensor([2, 2])
    ),
    "bool target_lengths": lambda L: L.nn.functional.ctc_loss(
        _lp(L), L.tensor(T2), L.tensor([5, 4]), L.tensor([True, True])
    ),
    "tensor and tuple": lambda L: L.nn.functional.ctc_loss(
        _lp(L), L.tensor(T2), L.tensor([5, 4]), (2, 2)
    ),
    "float in tuple": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5.0, 4), (2, 2)),
    "int lengths": lambda L: L.nn.functional.ctc_loss(_lp(L)[:, 0], L.tensor([1]), 5, 1),
    "blank float": lambda L: L.nn.functional.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (2, 2), 0.0),
    "reduction": lambda L: L.nn.functional.ctc_loss(
        _lp(L), L.tensor(T2), (5, 4), (2, 2), reduction="avg"
    ),
    "aten reduction str": lambda L: L.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (2, 2), 0, "mean"),
    "aten missing": lambda L: L.ctc_loss(_lp(L), L.tensor(T2), (5, 4)),
    "aten zero_infinity int": lambda L: L.ctc_loss(_lp(L), L.tensor(T2), (5, 4), (2, 2), 0, 1, 1),
}


def _lp(L: ModuleType) -> Any:
    return L.tensor(LP).log_softmax(2)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(torch_module, name) -> None:
    with pytest.raises(Exception) as want:
        ERRORS[name](torch_module)
    with pytest.raises(want.type) as got:
        ERRORS[name](microtorch)
    assert str(got.value).startswith(str(want.value).split("\n")[0])


def test_a_label_out_of_range_is_an_error_not_a_read_past_the_end(torch_module) -> None:
    # PyTorch reads memory past the class dimension (its result is arbitrary); microtorch says
    lp = microtorch.zeros(3, 1, 2)
    for labels in ([[2]], [[-1]]):
        with pytest.raises(IndexError, match=r"out of range \[0, 2\)"):
            microtorch.nn.functional.ctc_loss(lp, microtorch.tensor(labels), (3,), (1,))
