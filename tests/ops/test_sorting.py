"""sort, argsort, topk, nonzero: values, indices, gradients and node names as in PyTorch."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch

DATA = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 4.0, 5.0]])  # with ties
DISTINCT = np.array([[3.0, 1.0, 2.0, -1.0], [0.0, 5.0, 4.0, 6.0]])


@pytest.mark.parametrize(
    ("call", "dim"),
    [
        (lambda x: x.sort(), -1),
        (lambda x: x.sort(dim=0), 0),
        (lambda x: x.sort(dim=1, descending=True, stable=True), 1),
        (lambda x: x.topk(2), -1),
        (lambda x: x.topk(1, dim=0), 0),
        (lambda x: x.topk(3, largest=False), -1),
    ],
    ids=["sort", "sort_dim0", "sort_desc_stable", "topk2", "topk_dim0", "topk_smallest"],
)
def test_values_indices_and_grads_match_torch(call, dim: int, torch_module: ModuleType) -> None:
    results = {}
    for lib in (microtorch, torch_module):
        x = lib.tensor(DISTINCT, requires_grad=True)
        values, indices = call(x)
        weights = lib.tensor(np.arange(values.numel(), dtype=np.float64).reshape(values.shape))
        (values * weights).sum().backward()
        results[lib.__name__] = (values, indices, x.grad, values.grad_fn.name())
    (mv, mi, mg, mn), (tv, ti, tg, tn) = results["microtorch"], results["torch"]
    assert mn == tn
    np.testing.assert_array_equal(mv.detach().numpy(), tv.detach().numpy())
    np.testing.assert_array_equal(mg.numpy(), tg.numpy())
    np.testing.assert_array_equal(mi.numpy(), ti.numpy())
    np.testing.assert_array_equal(
        np.take_along_axis(DISTINCT, mi.numpy(), axis=dim), mv.detach().numpy()
    )
    assert mi.dtype is microtorch.int64 and ti.dtype == torch_module.int64


def test_stable_descending_keeps_tied_elements_in_order(torch_module: ModuleType) -> None:
    ours = microtorch.tensor(DATA).sort(dim=1, descending=True, stable=True).indices
    theirs = torch_module.tensor(DATA).sort(dim=1, descending=True, stable=True).indices
    assert ours.tolist() == theirs.tolist()


def test_argsort_and_nonzero_match_torch(torch_module: ModuleType) -> None:
    for lib_call in (
        lambda L: L.tensor(DATA).argsort(dim=1, stable=True),
        lambda L: L.tensor([0, 1, 2, 0]).nonzero(),
        lambda L: L.tensor([[0, 1], [2, 0]]).nonzero(),
        lambda L: L.nonzero(L.tensor([[0, 1], [2, 0]])),
    ):
        assert lib_call(microtorch).tolist() == lib_call(torch_module).tolist()


def test_topk_k_out_of_range_is_pytorchs_error() -> None:
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        microtorch.tensor([1.0, 2.0]).topk(3)


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("sort", lambda x: x.sort()),
        ("topk", lambda x: x.topk(2)),
        ("max", lambda x: x.max(0)),
        ("min", lambda x: x.min(0)),
        ("median", lambda x: x.median(0)),
    ],
)
def test_results_are_instances_of_return_types_as_in_torch(
    name: str, call: object, torch_module: ModuleType
) -> None:
    for lib in (microtorch, torch_module):
        result = call(lib.tensor([3.0, 1.0, 2.0]))  # type: ignore[operator]
        kind = getattr(lib.return_types, name)
        assert isinstance(result, kind) and isinstance(result, tuple)
        assert type(result).__name__ == name and len(result) == 2
