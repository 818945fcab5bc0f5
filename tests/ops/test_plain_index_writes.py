"""Index reads and writes of tensors that record nothing (issue 22): ``N[i, j] += 1`` in a
counting loop, ``x[i] = 0.5``, ``p -= lr * g`` under no_grad. They go straight to numpy
(``api/indexing.getitem``, ``api/inplace.put_in_place``, ``_arith_in_place``); every case here
must give PyTorch 2.13's values, dtypes, versions, view relations and errors, so the short path
is never a different path.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from tests.autograd.test_torch_model import same

pytestmark = pytest.mark.torch


def counting_loop(L: ModuleType) -> Any:
    N = L.zeros((4, 5), dtype=L.int32)
    for i, j in [(0, 1), (0, 1), (3, 4), (2, 0), (0, 1), (3, 4)]:
        N[i, j] += 1
    return N, N._version


def counting_into_float(L: ModuleType) -> Any:
    N = L.zeros((3, 3))
    for i, j in [(0, 1), (2, 2), (0, 1)]:
        N[i, j] += 0.5
    return N, N._version


def row_then_element(L: ModuleType) -> Any:
    N = L.zeros((3, 4), dtype=L.int64)
    row = N[1]
    row[2] = 7
    row[-1] += 3
    return N, row, N._version, row._version, row._base is N, row.is_leaf


def read_is_a_view(L: ModuleType) -> Any:
    x = L.arange(12.0).reshape(3, 4)
    v = x[1, 2]
    x.add_(1)
    return v, v._version, v._base is x, v.requires_grad, v.is_leaf, v.shape


def read_out_of_range(L: ModuleType) -> Any:
    return L.zeros(3, 4)[1, 4]


def read_out_of_range_names_the_position(L: ModuleType) -> Any:
    x, errors = L.zeros(2, 3, 4), []
    for key in [(0, 0, 9), (None, 1, 5), (..., 7), (slice(None), 9), 5, (1, None, 4)]:
        try:
            x[key]
        except IndexError as error:
            errors.append(str(error))
    return errors


def read_too_many(L: ModuleType) -> Any:
    return L.zeros(3)[1, 0]


def write_out_of_range(L: ModuleType) -> Any:
    x = L.zeros(3, 4)
    x[3, 0] = 1.0
    return x


def write_a_float_into_ints(L: ModuleType) -> Any:
    x = L.zeros(3, dtype=L.int32)
    x[0], x[1] = 2.7, -2.7
    return x, x._version


def write_an_int_too_big(L: ModuleType) -> Any:
    x = L.zeros(3, dtype=L.int32)
    x[0] = 2**40
    return x


def write_numbers_at_the_edges(L: ModuleType) -> Any:
    u, h, b = L.zeros(3, dtype=L.uint8), L.zeros(3, dtype=L.float16), L.zeros(2, dtype=L.bool)
    u[0], u[1], u[2] = -1, 255, -255  # (PyTorch wraps negatives down to -255 into uint8)
    h[0], h[1], h[2] = 1e6, 70000, -2.5  # (float16 overflows to inf without a word)
    b[0], b[1] = 5, 0.0
    return u, h, b


def write_a_float_too_big(L: ModuleType) -> Any:
    x = L.zeros(3)
    x[0] = 1e300
    return x


def write_a_tensor_of_another_dtype(L: ModuleType) -> Any:
    x = L.zeros(3, dtype=L.int64)
    x[1] = L.tensor(2.9)
    return x, x._version


def write_a_row(L: ModuleType) -> Any:
    x = L.zeros(2, 3)
    x[1] = L.tensor([1.0, 2.0, 3.0])
    x[0] = 5
    return x, x._version


def write_a_row_that_overlaps(L: ModuleType) -> Any:
    x = L.arange(6.0)
    y = x.view(2, 3)
    y[0] = x[1:4]  # (partly the row itself: PyTorch refuses)
    return x


def write_itself(L: ModuleType) -> Any:
    x = L.arange(6.0).view(2, 3)
    x[1] = x[1]
    return x, x._version


def write_a_bool(L: ModuleType) -> Any:
    m = L.zeros(3, dtype=L.bool)
    m[1] = True
    m[2] = 1
    return m


def write_into_a_leaf_that_requires_grad(L: ModuleType) -> Any:
    w = L.zeros(3, requires_grad=True)
    w[0] = 1.0
    return w


def write_into_a_leaf_under_no_grad(L: ModuleType) -> Any:
    w = L.zeros(3, requires_grad=True)
    with L.no_grad():
        w[0] = 1.0
        w[1] += 2.0
        w -= 0.5
    return w, w._version, w.requires_grad, w.is_leaf


def write_a_tensor_that_requires_grad(L: ModuleType) -> Any:
    x = L.zeros(3)
    v = L.tensor(2.0, requires_grad=True)
    x[0] = v * 3
    (x * x).sum().backward()
    return x, v.grad, x.grad_fn.name()


def write_into_an_expanded_tensor(L: ModuleType) -> Any:
    x = L.zeros(1, 3).expand(2, 3)
    x[0, 1] = 1.0
    return x


def a_no_grad_view_written_with_grad_on(L: ModuleType) -> Any:
    w = L.ones(3, requires_grad=True)
    with L.no_grad():
        v = w[1]
    v += 1  # PyTorch: a view made in no_grad mode, changed in place with grad mode on
    return v


def inference_tensor_written_outside(L: ModuleType) -> Any:
    with L.inference_mode():
        x = L.zeros(3)
    x[0] = 1.0
    return x


def optimizer_update(L: ModuleType) -> Any:
    L.manual_seed(0)
    p = L.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (p * p).sum().backward()
    with L.no_grad():
        p -= 0.1 * p.grad
        p.add_(p.grad, alpha=-0.1)
        p.mul_(0.5)
    return p, p._version, p.grad


def in_place_with_an_overlapping_operand(L: ModuleType) -> Any:
    x = L.arange(5.0)
    x[1:] += x[:-1]
    return x


def zero_d_int_tensor_index_written_with_plus_equals(L: ModuleType) -> Any:
    # makemore's backprop by hand: dC[ix] += demb[k, j] with ix = Xb[k, j], a 0-d tensor
    dC, demb = L.zeros(4, 2), L.ones(3, 2, 2)
    X = L.tensor([[2, 0], [2, 3]])
    for k in range(2):
        for j in range(2):
            ix = X[k, j]
            dC[ix] += demb[k, j]
    dC[X[0, 0], X[0, 1]] += 5
    return dC, dC._version


def zero_d_int_tensor_index_records_copy_slices(L: ModuleType) -> Any:
    w = L.ones(3, 2, requires_grad=True)
    x = w * 1
    x[L.tensor(1)] = L.tensor([5.0, 6.0])
    x.sum().backward()
    return x.grad_fn.name(), w.grad, x[L.tensor(2)].grad_fn.name()


def zero_d_bool_tensor_index_is_a_mask(L: ModuleType) -> Any:
    m = L.zeros(3)
    m[L.tensor(True)] = 2.0
    return m, m[L.tensor(False)].shape


def row_plus_equals_a_row(L: ModuleType) -> Any:
    # makemore's dC[ix] += demb[k, j]: the row written back into itself is the same elements
    dC, demb = L.zeros(4, 3), L.arange(6.0).reshape(2, 3)
    for k, ix in [(0, 2), (1, 2), (1, 0)]:
        dC[L.tensor(ix)] += demb[k]
    return dC, dC._version


def row_from_a_shifted_view_of_itself(L: ModuleType) -> Any:
    # same shape and strides, memory shifted by one element: not the same data
    x = L.arange(10.0).reshape(2, 5)
    x[0] = x.view(10)[1:6].clone()
    y = L.arange(10.0).reshape(2, 5)
    try:
        y[0] = y.view(10)[1:6]
    except RuntimeError as error:
        return x, str(error).splitlines()[0]
    return x, y


def row_from_another_row(L: ModuleType) -> Any:
    x = L.arange(6.0).reshape(2, 3)
    x[0] = x[1]
    x[1] += x[0]
    return x, x._version


def slices_with_tensor_bounds(L: ModuleType) -> Any:
    # nanoGPT's batches: data[i : i + 8] for each 0-d tensor i of a tensor of offsets
    data, out = L.arange(40).reshape(20, 2), []
    for i in L.tensor([0, 3, 15]):
        out.append((data[i : i + 4], data[i:], data[: i + 1, 1], data[1 : i + 3 : 2]))
    view = data[2:5]
    data[3, 0] += 100
    view[0, 1] = -1
    return out, view, view._version, view._base is data, (i + 8).dtype == L.int64, data._version


def slices_that_take_the_long_way(L: ModuleType) -> Any:
    x, errors = L.arange(12.0).reshape(3, 4), []
    for key in [slice(None, None, -1), slice(None, None, 0), (1, slice(0, 9, L.tensor(0))),
                slice(L.tensor(1.0), 2), slice(L.tensor([1]), 2), slice(True, 2)]:  # fmt: skip
        try:
            errors.append(x[key])
        except (ValueError, TypeError) as error:
            errors.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
    w = L.arange(6.0, requires_grad=True)
    return errors, w[1:4].grad_fn.name(), w[L.tensor(2) :].shape, L.zeros(3)[5:], x[:, 1:2]


def long_tensor_plus_int(L: ModuleType) -> Any:
    i = L.tensor(7)
    j = L.tensor([1, 2], dtype=L.int32)
    dtypes = (j + 5).dtype == L.int32, (i + 1.5).dtype == L.float32
    return i + 8, i - 3, 2 * i, i + 2**40, dtypes, i + True


CASES = [
    counting_loop,
    counting_into_float,
    row_then_element,
    read_is_a_view,
    read_out_of_range,
    read_out_of_range_names_the_position,
    read_too_many,
    write_out_of_range,
    write_a_float_into_ints,
    write_an_int_too_big,
    write_a_float_too_big,
    write_numbers_at_the_edges,
    write_a_tensor_of_another_dtype,
    write_a_row,
    write_a_row_that_overlaps,
    write_itself,
    write_a_bool,
    write_into_a_leaf_that_requires_grad,
    write_into_a_leaf_under_no_grad,
    write_a_tensor_that_requires_grad,
    write_into_an_expanded_tensor,
    a_no_grad_view_written_with_grad_on,
    inference_tensor_written_outside,
    optimizer_update,
    in_place_with_an_overlapping_operand,
    zero_d_int_tensor_index_written_with_plus_equals,
    zero_d_int_tensor_index_records_copy_slices,
    zero_d_bool_tensor_index_is_a_mask,
    row_plus_equals_a_row,
    row_from_a_shifted_view_of_itself,
    row_from_another_row,
    slices_with_tensor_bounds,
    slices_that_take_the_long_way,
    long_tensor_plus_int,
]


@pytest.mark.parametrize("case", CASES, ids=lambda f: f.__name__)
def test_plain_index_reads_and_writes_match_torch(case: Any, torch_module: ModuleType) -> None:
    same(case, torch_module)


def test_the_short_paths_are_taken() -> None:
    # (so the cases above test them): a counting update calls no Function and no index_put
    import cProfile
    import pstats

    import microtorch

    N = microtorch.zeros((4, 4), dtype=microtorch.int32)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(10):
        N[1, 2] += 1
    profile.disable()
    called = {f[2] for f in pstats.Stats(profile).stats}  # type: ignore[attr-defined]
    assert "apply" not in called and "index_put" not in called, sorted(called)
    assert int(N[1, 2]) == 10


def test_the_same_start_test_holds_for_every_dtype() -> None:
    # api/inplace._same_start takes first elements that overlap for one element: true when
    # every dtype's alignment is its size (then two aligned elements overlap only if equal)
    import numpy as np

    import microtorch
    from microtorch.api.inplace import _same_start

    for dtype in (microtorch.bool, microtorch.uint8, microtorch.int8, microtorch.int16,
                  microtorch.int32, microtorch.int64, microtorch.float16, microtorch.float32,
                  microtorch.float64):  # fmt: skip
        a = microtorch.zeros(3, 4, dtype=dtype)._data
        assert a.dtype.alignment == a.dtype.itemsize, a.dtype
        assert _same_start(a[1], a[1]) and not _same_start(a[1], a[2])
        assert not _same_start(a.reshape(-1)[1:5], a[0])
    raw = np.zeros(9, np.uint8)[1:].view(np.float32)  # misaligned: addresses decide
    assert not raw.flags.aligned and _same_start(raw[:1], raw[:1])
    assert not _same_start(raw[:1], raw[1:])
