"""Errors: the same exception type as PyTorch 2.13 and PyTorch's message, then our hint.

Each case is code written once for both libraries (``lib`` is microtorch or torch).
microtorch may add a fix after PyTorch's text, so the check is that our message starts with
PyTorch's (or, where PyTorch appends details we do not have, contains its first sentence).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch

pytestmark = pytest.mark.torch


def _backward_twice(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _modified_after_save(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    z = y.sum() * y.sum()
    y.add_(1)
    z.backward()


def _modified_saved_input(lib: ModuleType) -> None:
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    h = x * 2
    y = h * h  # saves h, an input: described as it is after += ("output 0 of Add")
    h += 1
    y.sum().backward()


def _inplace_on_leaf(lib: ModuleType) -> None:
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    w.add_(1)


def _x(lib: ModuleType, *shape: int, rg: bool = False) -> Any:
    return lib.ones(*shape, requires_grad=rg)


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    # matrix products: the seed's message and its 1-D and batched variants
    "mm_32x10_20x5": lambda L: _x(L, 32, 10) @ _x(L, 20, 5),
    "mm_function": lambda L: L.mm(_x(L, 2, 3), _x(L, 4, 5)),
    "mm_not_matrix": lambda L: L.mm(_x(L, 3), _x(L, 3, 2)),
    "matmul_vec_mat": lambda L: _x(L, 5) @ _x(L, 3, 4),
    "matmul_mat_vec": lambda L: _x(L, 3, 4) @ _x(L, 5),
    "matmul_vec_vec": lambda L: _x(L, 3) @ _x(L, 4),
    "matmul_batched": lambda L: _x(L, 2, 3, 4) @ _x(L, 2, 5, 2),
    "matmul_batched_fold": lambda L: _x(L, 2, 3, 4) @ _x(L, 5, 2),
    "matmul_batched_vec": lambda L: _x(L, 2, 3, 4) @ _x(L, 5),
    "matmul_batch_broadcast": lambda L: _x(L, 2, 3, 4) @ _x(L, 3, 4, 2),
    "matmul_batched_grad": lambda L: _x(L, 3, 4, rg=True) @ _x(L, 2, 5, 2),
    "matmul_0d": lambda L: L.matmul(L.tensor(2.0), _x(L, 3)),
    "bmm_not_3d": lambda L: L.bmm(_x(L, 3, 4), _x(L, 4, 2)),
    "bmm_sizes": lambda L: L.bmm(_x(L, 2, 3, 4), _x(L, 3, 4, 2)),
    "mv_sizes": lambda L: L.mv(_x(L, 3, 4), _x(L, 5)),
    "dot_sizes": lambda L: L.dot(_x(L, 3), _x(L, 4)),
    "mm_dtypes": lambda L: _x(L, 2, 3) @ L.ones(3, 2, dtype=L.float64),
    # broadcasting
    "broadcast_add": lambda L: _x(L, 3) + _x(L, 4),
    "broadcast_mul_2d": lambda L: _x(L, 2, 3) * _x(L, 3, 2),
    "broadcast_where": lambda L: L.where(_x(L, 3) > 0, _x(L, 3), _x(L, 2)),
    # (PyTorch broadcasts condition, input, other in turn: the first clash is named)
    "broadcast_where_condition": lambda L: L.where(_x(L, 3) > 0, _x(L, 2), _x(L, 3)),
    "broadcast_where_input": lambda L: L.where(_x(L, 2) > 0, _x(L, 2), _x(L, 3)),
    "expand": lambda L: _x(L, 3, 2).expand(3, 4),
    # values and scalars
    "item_many": lambda L: L.tensor([1.0, 2.0]).item(),
    "bool_many": lambda L: bool(L.tensor([1.0, 2.0])),
    "numpy_requires_grad": lambda L: _x(L, 2, rg=True).numpy(),
    "requires_grad_int": lambda L: L.tensor([1, 2], requires_grad=True),
    # autograd
    "backward_non_scalar": lambda L: (_x(L, 3, rg=True) * 2).backward(),
    "backward_no_grad": lambda L: L.tensor([1.0]).sum().backward(),
    "backward_twice": _backward_twice,
    "inplace_leaf": _inplace_on_leaf,
    "modified_after_save": _modified_after_save,
    "modified_saved_input": _modified_saved_input,
    "requires_grad_false_non_leaf": lambda L: (_x(L, 2, rg=True) * 2).requires_grad_(False),
    "backward_grad_shape": lambda L: (_x(L, 3, rg=True) * 2).backward(L.ones(2)),
    # dims, shapes, views, indexing
    "sum_dim_range": lambda L: _x(L, 2, 3).sum(dim=2),
    "softmax_dim_range": lambda L: L.softmax(_x(L, 2, 3), dim=-3),
    "transpose_dim_range": lambda L: _x(L, 2, 3).transpose(0, 5),
    "unsqueeze_dim_range": lambda L: _x(L, 2, 3).unsqueeze(4),
    "view_bad_shape": lambda L: _x(L, 2, 3).view(4, 2),
    "view_bad_infer": lambda L: _x(L, 2, 3).view(-1, 4),
    "view_two_minus_one": lambda L: _x(L, 2, 3).view(-1, -1),
    "view_non_contiguous": lambda L: _x(L, 2, 3).t().view(6),
    "reshape_bad_shape": lambda L: _x(L, 2, 3).reshape(5),
    "index_out_of_range": lambda L: _x(L, 2, 3)[2],
    "index_col_out_of_range": lambda L: _x(L, 2, 3)[:, 3],
    "too_many_indices": lambda L: _x(L, 2, 3)[0, 0, 0],
    "cat_sizes": lambda L: L.cat([_x(L, 2, 3), _x(L, 2, 4)]),
    "cat_empty": lambda L: L.cat([]),
    "cat_ndim": lambda L: L.cat([_x(L, 2, 3), _x(L, 3)]),
    "cat_dim1_sizes": lambda L: L.cat([_x(L, 2, 3), _x(L, 3, 3), _x(L, 2, 4)], dim=1),
    "stack_sizes": lambda L: L.stack([_x(L, 2, 3), _x(L, 3, 2)]),
    "t_3d": lambda L: _x(L, 2, 3, 4).t(),
    "split_sizes": lambda L: _x(L, 5).split([2, 2]),
    # dtypes
    "mean_int": lambda L: L.tensor([1, 2]).mean(),
    "softmax_int": lambda L: L.tensor([1, 2]).softmax(0),
    "log_softmax_int_dim0": lambda L: L.log_softmax(L.tensor([[1, 2]]), dim=0),
    "softmax_no_dim": lambda L: L.softmax(_x(L, 2)),
    "sub_bools": lambda L: L.tensor([True]) - L.tensor([False]),
    "neg_bool": lambda L: -L.tensor([True]),
    "clamp_no_bounds": lambda L: L.clamp(_x(L, 2)),
    "where_non_bool": lambda L: L.where(L.tensor([1, 0]), _x(L, 2), _x(L, 2)),
    "int_negative_power": lambda L: L.tensor([2, 3]) ** -1,
    "set_default_dtype_int": lambda L: L.set_default_dtype(L.int64),
    # devices (cpu/meta mixing: see tests/test_tensor.py; PyTorch's meta errors differ by op)
    "bad_device_string": lambda L: L.ones(2, device="gpu"),
}

# PyTorch says more than microtorch can know (e.g. C++ details); compare the first part only.
PREFIX_ONLY: dict[str, str] = {}


def _raise(fn: Callable[[ModuleType], Any], lib: ModuleType) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(lib)
    return info.value


@pytest.mark.parametrize("name", list(ERRORS))
def test_same_error_type_and_message_as_torch(name: str, torch_module: ModuleType) -> None:
    t_err = _raise(ERRORS[name], torch_module)
    m_err = _raise(ERRORS[name], microtorch)
    assert type(m_err) is type(t_err), f"{type(m_err).__name__}: {m_err}"
    expected = PREFIX_ONLY.get(name, str(t_err).split("\n")[0])
    ours = str(m_err).replace("microtorch.", "torch.")
    assert ours.startswith(expected), f"\nmicrotorch: {m_err}\n     torch: {t_err}"


def test_seed_shape_error_is_pytorchs_text_then_a_hint() -> None:
    with pytest.raises(RuntimeError) as info:
        microtorch.ones(32, 10) @ microtorch.ones(20, 5)
    text = str(info.value)
    assert text.startswith("mat1 and mat2 shapes cannot be multiplied (32x10 and 20x5)")
    assert len(text) > len("mat1 and mat2 shapes cannot be multiplied (32x10 and 20x5)")


FAILING_ON_X: dict[str, Callable[[Any], Any]] = {
    "add_on_leaf": lambda x: x.add_(1),
    "broadcast": lambda x: x + microtorch.ones(3),
    "matmul": lambda x: x @ microtorch.ones(3, 2),
    "view": lambda x: x.view(3),
    "index": lambda x: x[5],
    "inplace_broadcast_on_non_leaf": lambda x: (x * 1).add_(microtorch.ones(2, 2)),
    "inplace_int_into_float": lambda x: microtorch.tensor([1, 2]).add_(x.detach()),
}


@pytest.mark.parametrize("name", list(FAILING_ON_X))
def test_a_failing_op_changes_nothing(name: str) -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises((RuntimeError, IndexError)):
        FAILING_ON_X[name](x)
    assert x.tolist() == [1.0, 2.0]
    assert (x._version, x.grad, x.grad_fn, x.is_leaf) == (0, None, None, True)
    (x * x).sum().backward()  # and the tensor still works
    assert x.grad.tolist() == [2.0, 4.0]
