"""The hand-written parameter update (issue 22): ``with torch.no_grad(): p -= lr * p.grad`` and
its kin (``p.data -= ...``, ``p.sub_``, ``p.add_(g, alpha=-lr)``, ``p.grad.zero_()``,
``p.grad = None``), with the short paths that run when nothing is recorded: the product
``lr * p.grad`` goes to Mul's forward (api/operators.unrecorded), ``add_``, ``sub_``,
``mul_`` and ``div_`` to one numpy ufunc into the tensor's memory and ``zero_``/``fill_``
to one ``ndarray.fill`` (api/inplace.py). Each case runs in microtorch and in PyTorch 2.13
and must agree exactly: values bit for bit, dtypes, shapes, strides, versions, and errors
(type, first line).

An ``alpha`` here is a power of two: PyTorch computes ``a + alpha * b`` as one fused
multiply-add, microtorch (everywhere, not only on these paths) rounds ``alpha * b`` first;
with a power of two both are exact.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.autograd.test_torch_model import _run, _run_quietly

pytestmark = pytest.mark.torch


def _observed(value: Any) -> Any:
    # tensors as (dtype, shape, strides, exact bits); everything else as it is
    if hasattr(type(value), "detach") and hasattr(type(value), "stride"):  # (no grad_fn: it
        # raises for a view made in no_grad mode whose base then changed, in both libraries)
        array = np.asarray(value.detach().numpy())
        bits = array.view(f"u{array.itemsize}") if array.dtype.kind == "f" else array
        strides = tuple(value.stride())
        return ("tensor", str(value.dtype).split(".")[-1], array.shape, strides, bits.tolist())
    if isinstance(value, (list, tuple)):
        return [_observed(v) for v in value]
    return value


def exactly_as_torch(case: Any, torch: ModuleType) -> None:
    t_kind, t_out = _run(case, torch)
    m_kind, m_out = _run_quietly(case)
    if t_kind == "raised":
        assert m_kind == "raised", f"torch raised {t_out}; microtorch returned {m_out}"
        assert m_out[0] == t_out[0], f"torch {t_out}; microtorch {m_out}"
        ours, expected = m_out[1].replace("microtorch.", "torch."), t_out[1].split("\n")[0]
        assert ours.startswith(expected), f"\n     torch: {t_out[1]}\nmicrotorch: {m_out[1]}"
    else:
        assert m_kind == "ok", f"torch returned {t_out}; microtorch raised {m_out}"
        assert _observed(m_out) == _observed(t_out)


def _values(L: ModuleType, shape: Any, dtype: Any, seed: int = 0) -> Any:
    data = np.random.default_rng(seed).standard_normal(shape) * 3
    return L.tensor(data, dtype=dtype)


def _param(L: ModuleType, shape: Any = (5, 4), dtype: Any = None) -> Any:
    p = _values(L, shape, dtype or L.float32).requires_grad_()
    (p * p).sum().backward()  # p.grad = 2p
    return p


# --- the update itself, written each way ------------------------------------------------------
def update_minus_equals(L: ModuleType) -> Any:
    p = _param(L)
    with L.no_grad():
        p -= 0.1 * p.grad
        p -= 0.1 * p.grad
    return p, p._version, p.requires_grad, p.is_leaf, p.grad_fn


def update_through_data(L: ModuleType) -> Any:
    p = _param(L)
    p.data -= 0.01 * p.grad  # (outside no_grad: .data records nothing)
    with L.no_grad():
        p.data -= 0.01 * p.grad
    # (not p._version: microtorch counts a change through .data as one of p, on purpose,
    # where PyTorch's .data has a count of its own; see Tensor.data)
    return p, p.requires_grad, p.is_leaf


def update_sub_and_add_with_alpha(L: ModuleType) -> Any:
    p = _param(L)
    with L.no_grad():
        p.sub_(0.1 * p.grad)
        p.add_(p.grad, alpha=-0.25)
        p.sub_(p.grad, alpha=2)
        p.mul_(0.9)
        p.div_(3.0)
    return p, p._version


def zero_grad_by_hand(L: ModuleType) -> Any:
    p = _param(L)
    g, before = p.grad, p.grad._version
    p.grad.zero_()
    zeroed = g._version - before
    (p * 3).sum().backward()  # accumulates into the zeroed .grad, in place
    p.grad = None
    return g, zeroed, p.grad is None, g is not None


def update_loop_of_a_training_step(L: ModuleType) -> Any:
    # (gradients given, not computed: a backward's sums need not round as PyTorch's do)
    w = _values(L, (3, 2), L.float32).requires_grad_()
    b = _values(L, (2,), L.float32, seed=1).requires_grad_()
    for step in range(3):
        w.grad = _values(L, (3, 2), L.float32, seed=10 + step)
        b.grad = _values(L, (2,), L.float32, seed=20 + step)
        with L.no_grad():
            for p in (w, b):
                p -= 0.05 * p.grad
                p.grad.zero_()
    return w, b, w._version, b._version, w.grad, w.requires_grad, w.is_leaf


# --- dtypes: float32 with float64, 0-d operands, integers -----------------------------------
def float32_minus_float64_tensor(L: ModuleType) -> Any:
    p = _values(L, (6,), L.float32)
    g = _values(L, (6,), L.float64, seed=1)
    with L.no_grad():
        p -= 0.1 * g  # (PyTorch computes in float64, then writes float32)
        p.add_(g, alpha=0.5)
    return p, str((0.1 * g).dtype).split(".")[-1]


def float32_minus_float64_0d(L: ModuleType) -> Any:
    # a 0-d operand does not promote: PyTorch rounds it to float32 first
    p = _values(L, (200,), L.float32)
    with L.no_grad():
        p -= L.tensor(1 / 3, dtype=L.float64)
        p.mul_(L.tensor(0.7, dtype=L.float64))
    return p


def float64_minus_float32(L: ModuleType) -> Any:
    p = _values(L, (6,), L.float64)
    with L.no_grad():
        p -= _values(L, (6,), L.float32, seed=1)
        p -= _values(L, (), L.float32, seed=2)
    return p


def float16_with_others(L: ModuleType) -> Any:
    p = _values(L, (6,), L.float16)
    with L.no_grad():
        p += _values(L, (6,), L.float32, seed=1)
        p -= 0.1
        p *= 3
        p += L.tensor([2049] * 6, dtype=L.int16)  # (2049 is 2048 in float16)
    return p


def float_plus_integer_tensor(L: ModuleType) -> Any:
    p = L.full((3,), 0.1)
    p += L.tensor([16777217] * 3)  # (PyTorch converts to float32 first: 16777216)
    q = L.full((3,), 0.5, dtype=L.float64)
    q *= L.tensor([3, 4, 5], dtype=L.int32)
    return p, q


def float_plus_numpy_scalar(L: ModuleType) -> Any:
    p = _values(L, (50,), L.float32)
    p += np.float64(1 / 3)  # (a number, as PyTorch reads it: in float32)
    p *= np.float32(0.3)
    return p


def integer_updates(L: ModuleType) -> Any:
    i = L.arange(6, dtype=L.int32)
    i += L.arange(6, dtype=L.int32)
    i *= 3
    i -= 1
    i8 = L.full((3,), 100, dtype=L.int8)
    i8 *= 3  # wraps, as in PyTorch
    u8 = L.zeros(3, dtype=L.uint8)
    u8 -= 1
    n = L.tensor([5, 6])
    n += L.tensor(2**33 + 1)  # (a 0-d int64)
    i32 = L.full((2,), 7, dtype=L.int32)
    i32 *= L.tensor(3)  # (a 0-d int64 into int32)
    return i, i8, u8, n, i32, i._version


def integer_divided_in_place(L: ModuleType) -> Any:
    i = L.arange(4)
    i /= 2


def integer_plus_a_float(L: ModuleType) -> Any:
    i = L.arange(4)
    i += 0.5


def integer_plus_float_tensor(L: ModuleType) -> Any:
    i = L.arange(4)
    i += L.ones(4)


def integer_alpha_float(L: ModuleType) -> Any:
    i = L.arange(4)
    i.add_(L.arange(4), alpha=0.5)


def integer_plus_tensor_with_alpha(L: ModuleType) -> Any:
    i = L.arange(4)
    i.add_(L.arange(4), alpha=3)
    return i


def bool_updates(L: ModuleType) -> Any:
    m = L.tensor([True, False, False])
    m += L.tensor([False, False, True])
    m *= L.tensor([True, True, False])
    f = L.ones(3)
    f *= L.tensor([True, False, True])
    return m, f


def bool_minus_bool(L: ModuleType) -> Any:
    m = L.tensor([True, False])
    m -= L.tensor([True, True])


def float_minus_bool(L: ModuleType) -> Any:
    f = L.ones(2)
    f -= L.tensor([True, True])


def bool_times_two(L: ModuleType) -> Any:
    m = L.tensor([True, False])
    m *= 2


def float_by_zero(L: ModuleType) -> Any:
    f = L.tensor([1.0, -1.0, 0.0])
    f /= 0
    g = L.tensor([float("inf")])
    g -= float("inf")
    return f, g


# --- broadcasting the right-hand side ---------------------------------------------------------
def right_hand_side_broadcast(L: ModuleType) -> Any:
    p = _values(L, (2, 3), L.float32)
    with L.no_grad():
        p -= _values(L, (3,), L.float32, seed=1)
        p += _values(L, (2, 1), L.float32, seed=2)
        p *= _values(L, (1, 3), L.float32, seed=3)
        p -= _values(L, (), L.float32, seed=4)
        p.add_(_values(L, (1, 1, 3), L.float32, seed=5).squeeze(0), alpha=2)
    return p, p._version


def right_hand_side_too_big(L: ModuleType) -> Any:
    p = L.zeros(3)
    p += L.ones(1, 3)


def right_hand_side_does_not_fit(L: ModuleType) -> Any:
    p = L.zeros(2, 3)
    p -= L.ones(3, 1)


def right_hand_side_of_another_size(L: ModuleType) -> Any:
    p = L.zeros(2, 3)
    p *= L.ones(2)


# --- non-contiguous views ------------------------------------------------------------------
def write_through_transposed_view(L: ModuleType) -> Any:
    p = _param(L, (3, 4))
    with L.no_grad():
        v = p.T
        v -= 0.5 * p.grad.T
        w = p[:, ::2]
        w += L.ones(3, 2)
        p[1] *= 2.0
    return p, v, w, p._version, v._version, w._version, v._base is p


def non_contiguous_right_hand_side(L: ModuleType) -> Any:
    p = _values(L, (3, 4), L.float32)
    q = _values(L, (4, 3), L.float32, seed=1)
    p -= q.T
    p += q.T[:, ::1] * 2.0
    s = _values(L, (3, 8), L.float32, seed=2)[:, ::2]
    p *= s
    return p, p._version


def product_of_a_transposed_tensor(L: ModuleType) -> Any:
    # the unrecorded product lays out its result as PyTorch (strides compared)
    q = _values(L, (4, 3), L.float32, seed=1)
    with L.no_grad():
        a, b = 0.5 * q.T, q.T * q.T
    return a, b, q.T - 1.0, q[:, ::2] * 3.0


# --- 0-d ---------------------------------------------------------------------------------------
def zero_d_parameter(L: ModuleType) -> Any:
    a = L.tensor(1.5, requires_grad=True)
    (a * a * 3).backward()
    with L.no_grad():
        a -= 0.1 * a.grad
        a += 1
        a *= L.tensor(2.0)
    return a, a._version, a.grad


def zero_d_written_by_one_element(L: ModuleType) -> Any:
    a = L.tensor(1.5)
    a += L.ones(1)


def poly_fit_steps(L: ModuleType) -> Any:
    # benchmarks/realcode.py's poly_tensors: 0-d coefficients, gradients by hand, grad mode on
    x = L.linspace(-3.0, 3.0, 50)
    y = L.sin(x)
    a, b = L.tensor(0.3), L.tensor(-0.2)
    for _ in range(3):
        y_pred = a + b * x
        grad_y_pred = 2.0 * (y_pred - y)
        a -= 1e-3 * grad_y_pred.max()  # (not sum(): PyTorch's sums round otherwise)
        b -= 1e-3 * (grad_y_pred * x).max()
    return a, b, a._version


# --- zero_ and fill_ ---------------------------------------------------------------------------
def fill_numbers(L: ModuleType) -> Any:
    i = L.zeros(3, dtype=L.int32)
    i.fill_(2.7)
    u = L.zeros(3, dtype=L.uint8)
    u.fill_(-1)
    u[1:].fill_(-0.0)
    u[2:].fill_(200.9)
    h = L.zeros(1, dtype=L.float16)
    h.fill_(1e6)  # (inf: one element takes another path in PyTorch; two refuse, see below)
    f = L.zeros(2)
    f.fill_(True)
    b = L.zeros(2, dtype=L.bool)
    b.fill_(3)
    v = L.arange(6.0).view(2, 3)[:, 1]
    v.zero_()
    return i, u, h, f, b, v, i._version, v._version, v._base._version


def fill_too_big(L: ModuleType) -> Any:
    L.zeros(2, dtype=L.uint8).fill_(300)


def fill_float_too_big(L: ModuleType) -> Any:
    L.zeros(2).fill_(1e300)


def fill_uint8_negative_float(L: ModuleType) -> Any:
    L.zeros(2, dtype=L.uint8).fill_(-2.7)  # (a negative int wraps; a float is refused)


def fill_float16_too_big(L: ModuleType) -> Any:
    L.zeros(2, dtype=L.float16).fill_(65505.0)


def fill_float16_view_too_big(L: ModuleType) -> Any:
    L.zeros(2, 2, dtype=L.float16)[0].fill_(-1e6)


def fill_float16_at_the_edges(L: ModuleType) -> Any:
    x = L.zeros(3, dtype=L.float16)
    x.fill_(65504.0)
    y = L.zeros(2, dtype=L.float16)
    y.fill_(float("-inf"))
    z = L.zeros((), dtype=L.float16)
    z.fill_(70000)
    return x, y, z


def zero_an_expanded_tensor(L: ModuleType) -> Any:
    x = L.ones(1, 3).expand(2, 3)
    x.zero_()
    return x, x._version


def fill_with_a_0d_tensor(L: ModuleType) -> Any:
    x = L.ones(3)
    x.fill_(L.tensor(2.5, dtype=L.float64))
    return x


def zero_under_grad_mode_records(L: ModuleType) -> Any:
    w = L.ones(3, requires_grad=True)
    y = w * 2
    y.zero_()
    y.sum().backward()
    return y, y.grad_fn.name(), w.grad


# --- PyTorch's rules, kept ---------------------------------------------------------------------
def leaf_written_with_grad_on(L: ModuleType) -> Any:
    p = _param(L)
    p -= 0.1 * p.grad


def leaf_zeroed_with_grad_on(L: ModuleType) -> Any:
    _param(L).zero_()


def view_of_a_leaf_written_with_grad_on(L: ModuleType) -> Any:
    p = _param(L)
    p[0] -= 1.0


def saved_tensor_changed_under_no_grad(L: ModuleType) -> Any:
    w = _param(L, (3,))
    x = _values(L, (3,), L.float32, seed=1)
    y = (w * x).sum()  # saves x (for w's gradient)
    with L.no_grad():
        x -= 0.1 * x
    y.backward()


def saved_parameter_changed_by_the_update(L: ModuleType) -> Any:
    w = _param(L, (3,))
    y = (w * w).sum()  # saves w
    with L.no_grad():
        w -= 0.1 * w.grad
    y.backward()


def saved_tensor_zeroed(L: ModuleType) -> Any:
    w = _param(L, (3,))
    x = _values(L, (3,), L.float32, seed=1)
    y = (w * x).sum()
    x.zero_()
    y.backward()


def overlapping_update(L: ModuleType) -> Any:
    x = L.arange(5.0)
    with L.no_grad():
        x[1:] -= x[:-1]


def update_by_itself(L: ModuleType) -> Any:
    x = L.arange(5.0)
    with L.no_grad():
        x -= x
        x += x[0]
    return x, x._version


def no_grad_product_of_tensors_that_require_grad(L: ModuleType) -> Any:
    a = _param(L, (3,))
    b = _values(L, (3,), L.float32, seed=1).requires_grad_()
    with L.no_grad():
        c, d = a * b, a * 2.0
        e = a - b
    return c, d, e, c.requires_grad, c.grad_fn, d.is_leaf, e.requires_grad


def no_grad_product_that_does_not_broadcast(L: ModuleType) -> Any:
    with L.no_grad():
        return L.ones(2, 3) * L.ones(4)


def product_of_a_view_with_grad_on(L: ModuleType) -> Any:
    w = _param(L, (2, 3))
    with L.no_grad():
        v = w[0]
    z = v * 2.0  # a view made in no_grad mode, of a leaf that requires grad
    return z, z.requires_grad, z.grad_fn.name()


def inference_tensor_updated_outside(L: ModuleType) -> Any:
    with L.inference_mode():
        x = L.zeros(3)
        y = x * 2.0
    assert y.is_inference()
    x -= 1.0


def inference_tensor_zeroed_outside(L: ModuleType) -> Any:
    with L.inference_mode():
        x = L.zeros(3)
    x.zero_()


def update_with_no_gradient(L: ModuleType) -> Any:
    p = L.ones(3, requires_grad=True)
    with L.no_grad():
        p -= 0.1 * p.grad


def alpha_that_is_a_bool(L: ModuleType) -> Any:
    p = L.ones(2, dtype=L.bool)
    p.add_(L.ones(2, dtype=L.bool), alpha=True)
    return p


CASES = [
    update_minus_equals,
    update_through_data,
    update_sub_and_add_with_alpha,
    zero_grad_by_hand,
    update_loop_of_a_training_step,
    float32_minus_float64_tensor,
    float32_minus_float64_0d,
    float64_minus_float32,
    float16_with_others,
    float_plus_integer_tensor,
    float_plus_numpy_scalar,
    integer_updates,
    integer_divided_in_place,
    integer_plus_a_float,
    integer_plus_float_tensor,
    integer_alpha_float,
    integer_plus_tensor_with_alpha,
    bool_updates,
    bool_minus_bool,
    float_minus_bool,
    bool_times_two,
    float_by_zero,
    right_hand_side_broadcast,
    right_hand_side_too_big,
    right_hand_side_does_not_fit,
    right_hand_side_of_another_size,
    write_through_transposed_view,
    non_contiguous_right_hand_side,
    product_of_a_transposed_tensor,
    zero_d_parameter,
    zero_d_written_by_one_element,
    poly_fit_steps,
    fill_numbers,
    fill_too_big,
    fill_float_too_big,
    fill_uint8_negative_float,
    fill_float16_too_big,
    fill_float16_view_too_big,
    fill_float16_at_the_edges,
    zero_an_expanded_tensor,
    fill_with_a_0d_tensor,
    zero_under_grad_mode_records,
    leaf_written_with_grad_on,
    leaf_zeroed_with_grad_on,
    view_of_a_leaf_written_with_grad_on,
    saved_tensor_changed_under_no_grad,
    saved_parameter_changed_by_the_update,
    saved_tensor_zeroed,
    overlapping_update,
    update_by_itself,
    no_grad_product_of_tensors_that_require_grad,
    no_grad_product_that_does_not_broadcast,
    product_of_a_view_with_grad_on,
    inference_tensor_updated_outside,
    inference_tensor_zeroed_outside,
    update_with_no_gradient,
    alpha_that_is_a_bool,
]


@pytest.mark.parametrize("case", CASES, ids=lambda f: f.__name__)
def test_update_paths_match_torch_exactly(case: Any, torch_module: ModuleType) -> None:
    exactly_as_torch(case, torch_module)


# --- the short paths are the ones taken ----------------------------------------------------
def _python_calls(op: Any) -> list[str]:
    """The Python functions one call of ``op`` runs, besides ``op`` itself."""
    op()  # warm-up
    calls: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        op()
    finally:
        sys.setprofile(None)
    return calls[1:]


def test_the_update_runs_the_short_paths() -> None:
    p = microtorch.ones(4, 3, requires_grad=True)
    p.grad = g = microtorch.full((4, 3), 0.5)
    with microtorch.no_grad():
        product = _python_calls(lambda: 0.1 * g)
        update = _python_calls(lambda: p.sub_(g))
    zero = _python_calls(lambda: g.zero_())
    # the operator, then Mul's forward as Function.apply runs it (operators.unrecorded), wrapped
    assert product == ["binary_operator", "unrecorded", "forward", "plain_tensor"], product
    assert "apply" not in update and "forward" not in update, update
    assert len(update) <= 6, update  # sub_, arith_inplace, its two checks, the ufunc, version
    assert "apply" not in zero and "forward" not in zero, zero
    assert len(zero) <= 7, zero  # zero_, apply_inplace, three checks (grad mode is on), version
    assert p._version == 2 and p.grad._version == 2  # (p.grad: the warm-up zeroed it too)
