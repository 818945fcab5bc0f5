# ruff: noqa: E501 - a table: one case per line
"""One table of wrong input for every public function and layer, written once for both libraries.

Each case is ``call(L)`` where ``L`` is ``microtorch`` or ``torch``. Objects the call must not
change are wrapped in ``W(...)`` as they are built, which snapshots them; the test compares them
after the call fails. ``error``/``message`` are PyTorch 2.13's exception type and text (the
first line, or the part that does not depend on C++ internals); microtorch's message must
contain it and, for the common beginner errors, also the fix named in ``hint``.
``Same`` cases are where PyTorch does not raise (NaN and inf propagate): both must return
``expected``.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

nan, inf = math.nan, math.inf
WATCHED: list[tuple[Any, Any]] = []  # (object, its snapshot when it was wrapped in W)
SNAPSHOT: list[Callable[[Any], Any]] = []  # set by the test while microtorch runs the table


def W(obj: Any) -> Any:  # noqa: N802 - short on purpose: it wraps most arguments below
    """Register ``obj`` as something the failing call must leave unchanged."""
    WATCHED.append((obj, SNAPSHOT[0](obj) if SNAPSHOT else None))
    return obj


@dataclass(frozen=True)
class Bad:
    """A call that must raise ``error`` with ``message`` (PyTorch's) and ``hint`` (our fix)."""

    name: str
    error: type[BaseException]
    message: str | None  # None: PyTorch's text is internal (C++ or pickle); types still match
    call: Callable[[ModuleType], Any]
    hint: str = ""
    torch: bool = True  # False: microtorch deliberately differs (documented in the message)


@dataclass(frozen=True)
class Same:
    """A call PyTorch lets through: both libraries must return ``expected`` (NaN == NaN)."""

    name: str
    expected: Any
    call: Callable[[ModuleType], Any]


def _x(L: ModuleType, *shape: int, rg: bool = False) -> Any:
    return L.ones(*shape, requires_grad=rg)


def _leaf(L: ModuleType) -> Any:
    """A leaf [1, 2, 3] that requires grad and already holds a ``.grad``."""
    x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    return x


def _t(L: ModuleType, *values: Any, **kwargs: Any) -> Any:
    return L.tensor(list(values), **kwargs)


def _meta(L: ModuleType, *shape: int) -> Any:
    return L.ones(*shape, device="meta")


def _lin(L: ModuleType, n_in: int = 3, n_out: int = 2) -> Any:
    """A Linear layer whose parameters hold gradients."""
    layer = L.nn.Linear(n_in, n_out)
    layer(L.ones(1, n_in)).sum().backward()
    return layer


def _trained(L: ModuleType, kind: str = "SGD", **kwargs: Any) -> tuple[Any, Any]:
    """A Linear layer with gradients and an optimizer that has taken one step (has state)."""
    model = _lin(L)
    opt = getattr(L.optim, kind)(model.parameters(), lr=0.1, **kwargs)
    opt.step()
    return W(model), W(opt)


def _F(L: ModuleType) -> Any:  # noqa: N802
    return L.nn.functional


def _data(L: ModuleType) -> Any:
    return L.utils.data


def _ds(L: ModuleType, n: int = 3) -> Any:
    return L.utils.data.TensorDataset(L.arange(float(n)), L.arange(n))


def _sd(L: ModuleType, n_in: int = 3, n_out: int = 2) -> Any:
    return L.nn.Linear(n_in, n_out).state_dict()


def _nan_grad(L: ModuleType) -> Any:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    (x * L.tensor([nan, 1.0])).sum().backward()
    return x


def _add_again(model: Any, opt: Any) -> Any:
    return opt.add_param_group({"params": [model.weight]})


def _two_groups(L: ModuleType) -> Any:
    a, b = L.ones(1, requires_grad=True), L.ones(1, requires_grad=True)
    return L.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1).state_dict()


def _bigger_group(L: ModuleType) -> Any:
    params = [L.ones(1, requires_grad=True) for _ in range(3)]
    return L.optim.SGD(params, lr=0.1).state_dict()


def _grad_of(L: ModuleType, fn: Callable[[Any], Any], value: float) -> Any:
    x = L.tensor([value], requires_grad=True)
    fn(x).sum().backward()
    return x.grad


def _sgd_nan_step(L: ModuleType) -> Any:
    w = L.ones(1, 2, requires_grad=True)
    opt = L.optim.SGD([w], lr=1.0)
    (w * L.tensor([nan, 1.0])).sum().backward()
    (w * 0).sum().backward()
    opt.step()
    return w.detach()


# fmt: off
CASES: list[Bad | Same] = [
    # --- creation: wrong sizes, values and types ---------------------------------------------
    Bad("tensor_ragged", ValueError, "expected sequence of length 2 at dim 1 (got 1)", lambda L: L.tensor([[1.0, 2.0], [3.0]]), hint="same length"),
    Bad("tensor_str", TypeError, "new(): invalid data type 'str'", lambda L: L.tensor("abc")),
    Bad("tensor_mixed_str", TypeError, "new(): invalid data type 'str'", lambda L: L.tensor([1.0, "a"])),
    Bad("tensor_none", RuntimeError, "Could not infer dtype of NoneType", lambda L: L.tensor(None)),
    Bad("tensor_dict", RuntimeError, "Could not infer dtype of dict", lambda L: L.tensor({"a": 1.0}) ),
    Bad("tensor_int_requires_grad", RuntimeError, "Only Tensors of floating point and complex dtype can require", lambda L: L.tensor([1, 2], requires_grad=True), hint="create it with floats"),
    Bad("tensor_bad_dtype", TypeError, "argument 'dtype' must be torch.dtype, not str", lambda L: L.tensor([1.0], dtype="float32"), torch=False),
    Bad("as_tensor_ragged", ValueError, "expected sequence of length 2 at dim 1 (got 1)", lambda L: L.as_tensor([[1, 2], [3]])),
    Bad("zeros_negative", RuntimeError, "zeros: Dimension size must be non-negative.", lambda L: L.zeros(2, -3)),
    Bad("ones_float_size", TypeError, "ones(): argument 'size' (position 1) must be tuple of ints, not", lambda L: L.ones(2.5), hint="n // 2"),
    Bad("empty_negative", RuntimeError, "Trying to create tensor with negative dimension -1: [-1]", lambda L: L.empty(-1)),
    Bad("full_str_value", TypeError, "full(): argument 'fill_value' (position 2) must be Number, not", lambda L: L.full((2,), "a")),
    Bad("randn_str_size", TypeError, "randn(): argument 'size' (position 1) must be tuple of ints,", lambda L: L.randn("3")),
    Bad("rand_negative", RuntimeError, "Trying to create tensor with negative dimension -1: [-1]", lambda L: L.rand(-1)),
    Bad("randint_low_high", RuntimeError, "random_ expects 'from' to be less than 'to', but got from=5 >=", lambda L: L.randint(5, 2, (3,))),
    Bad("randint_no_size", TypeError, "randint() received an invalid combination of arguments: it", lambda L: L.randint(5), torch=False),
    Bad("randperm_negative", RuntimeError, "Trying to create tensor with negative dimension -1: [-1]", lambda L: L.randperm(-1)),
    Bad("arange_step_zero", RuntimeError, "step must be nonzero", lambda L: L.arange(0, 5, 0)),
    Bad("arange_wrong_direction", RuntimeError, "upper bound and lower bound inconsistent with step sign", lambda L: L.arange(5, 0, 1)),
    Bad("arange_str", TypeError, "arange(): argument 'end' (position 1) must be Number, not str", lambda L: L.arange("5")),
    Bad("linspace_negative_steps", RuntimeError, "number of steps must be non-negative", lambda L: L.linspace(0, 1, -1)),
    Bad("eye_negative", RuntimeError, "n must be greater or equal to 0, got -1", lambda L: L.eye(-1) ),
    Bad("from_numpy_list", TypeError, "expected np.ndarray (got list)", lambda L: L.from_numpy([1.0, 2.0])),
    Bad("from_numpy_strings", TypeError, "can't convert np.ndarray of type numpy.str_. The only supported", lambda L: L.from_numpy(np.array(["a", "b"])), torch=False),
    Bad("zeros_like_list", TypeError, "zeros_like(): argument 'input' (position 1) must be Tensor, not", lambda L: L.zeros_like([1.0, 2.0])),
    Bad("ones_like_none", TypeError, "ones_like(): argument 'input' (position 1) must be Tensor, not", lambda L: L.ones_like(None)),
    Bad("empty_like_list", TypeError, "empty_like(): argument 'input' (position 1) must be Tensor, not", lambda L: L.empty_like([1.0])),
    Bad("full_like_list", TypeError, "full_like(): argument 'input' (position 1) must be Tensor, not", lambda L: L.full_like([1.0], 2.0)),
    Bad("rand_like_int", NotImplementedError, "\"check_uniform_bounds\" not implemented for 'Long'", lambda L: L.rand_like(W(_t(L, 1, 2)))),
    Bad("randn_like_int", NotImplementedError, "\"normal_kernel_cpu\" not implemented for 'Long'", lambda L: L.randn_like(W(_t(L, 1, 2)))),
    Bad("manual_seed_str", ValueError, "invalid literal for int() with base 10: 'seed'", lambda L: L.manual_seed("seed")),
    Bad("set_default_dtype_int", TypeError, "only floating-point types are supported as the default type", lambda L: L.set_default_dtype(L.int64)),
    Bad("set_default_dtype_str", TypeError, "invalid dtype object: only floating-point types are supported", lambda L: L.set_default_dtype("float64")),
    Bad("promote_types_str", TypeError, "promote_types(): argument 'type1' (position 1) must be", lambda L: L.promote_types("float", L.int64)),
    Bad("result_type_list", TypeError, "expected a Tensor or a Python number, but got list", lambda L: L.result_type([1.0], W(_x(L, 2))), torch=False),
    Bad("device_gpu", RuntimeError, "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl,", lambda L: L.device("gpu")),
    Bad("ones_on_gpu", RuntimeError, "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl,", lambda L: L.ones(2, device="gpu")),
    # --- element-wise: shapes, types, devices, dtypes --------------------------------------
    Bad("add_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at", lambda L: L.add(W(_x(L, 2, 3)), W(_x(L, 3, 2))), hint="line the shapes up"),
    Bad("add_str", TypeError, "add(): argument 'other' (position 2) must be Tensor, not str", lambda L: L.add(W(_x(L, 2)), "1")),
    Bad("add_none", TypeError, "add(): argument 'other' (position 2) must be Tensor, not", lambda L: W(_x(L, 2)) + None, torch=False),
    Bad("add_list_first", TypeError, "add(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.add([1.0, 2.0], W(_x(L, 2)))),
    Bad("add_meta_cpu", RuntimeError, "Expected all tensors to be on the same device, but found at", lambda L: W(_x(L, 2)) + W(_meta(L, 2)), hint="Move them to one device", torch=False),
    Bad("sub_bools", RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not", lambda L: W(_t(L, True)) - W(_t(L, False))),
    Bad("sub_str", TypeError, "sub(): argument 'other' (position 2) must be Tensor, not str", lambda L: W(_x(L, 2)) - "a", torch=False),
    Bad("mul_str", TypeError, "mul(): argument 'other' (position 2) must be Tensor, not str", lambda L: W(_x(L, 2)) * "a", torch=False),
    Bad("mul_list", TypeError, "mul(): argument 'other' (position 2) must be Tensor, not list", lambda L: W(_x(L, 2)) * [1.0, 2.0, 3.0], torch=False),
    Bad("mul_shapes_grad", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at", lambda L: W(_leaf(L)) * W(_x(L, 2))),
    Bad("div_shapes", RuntimeError, "The size of tensor a (4) must match the size of tensor b (3) at", lambda L: L.div(W(_x(L, 4)), W(_x(L, 3)))),
    Bad("div_str", TypeError, "div(): argument 'other' (position 2) must be Tensor, not str", lambda L: W(_x(L, 2)) / "2", torch=False),
    Bad("pow_str", TypeError, "pow(): argument 'exponent' (position 2) must be Tensor, not str", lambda L: W(_x(L, 2)) ** "2", torch=False),
    Bad("pow_int_negative", RuntimeError, "Integers to negative integer powers are not allowed.", lambda L: W(_t(L, 2, 3)) ** -1),
    Bad("pow_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.pow(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("maximum_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.maximum(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("minimum_list", TypeError, "minimum(): argument 'other' (position 2) must be Tensor, not", lambda L: L.minimum(W(_x(L, 2)), [1.0, 2.0])),
    Bad("eq_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.eq(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("ne_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: W(_x(L, 2)) != W(_x(L, 3))),
    Bad("lt_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.lt(W(_x(L, 2, 2)), W(_x(L, 3)))),
    Bad("le_str", TypeError, "le(): argument 'other' (position 2) must be Tensor, not str", lambda L: W(_x(L, 2)) <= "a", torch=False),
    Bad("gt_meta_cpu", RuntimeError, "Expected all tensors to be on the same device, but found at", lambda L: W(_x(L, 2)) > W(_meta(L, 2)), torch=False),
    Bad("ge_shapes", RuntimeError, "The size of tensor a (4) must match the size of tensor b (2) at", lambda L: L.ge(W(_x(L, 4)), W(_x(L, 2)))),
    Bad("logical_and_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.logical_and(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("logical_or_list", TypeError, "logical_or(): argument 'input' (position 1) must be Tensor, not", lambda L: L.logical_or([True], W(_t(L, True)))),
    Bad("logical_not_list", TypeError, "logical_not(): argument 'input' (position 1) must be Tensor,", lambda L: L.logical_not([True, False])),
    Bad("where_cond_float", RuntimeError, "where expected condition to be a boolean tensor, but got a", lambda L: L.where(W(_t(L, 1.0, 0.0)), W(_x(L, 2)), W(_x(L, 2)))),
    Bad("where_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.where(W(_t(L, True, False)), W(_x(L, 2)), W(_x(L, 3)))),
    Bad("where_cond_list", TypeError, "where(): argument 'condition' (position 1) must be Tensor, not", lambda L: L.where([True, False], W(_x(L, 2)), W(_x(L, 2))), torch=False),
    Bad("masked_fill_float_mask", RuntimeError, "masked_fill_ only supports boolean masks, but got mask with", lambda L: L.masked_fill(W(_x(L, 2)), W(_t(L, 1.0, 0.0)), 0.0)),
    Bad("masked_fill_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at", lambda L: L.masked_fill(W(_x(L, 2)), W(_t(L, True, False, True)), 0.0)),
    Bad("allclose_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.allclose(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("allclose_dtypes", RuntimeError, "Float did not match Double", lambda L: L.allclose(W(_x(L, 2)), W(L.ones(2, dtype=L.float64)))),
    Bad("isclose_dtypes", RuntimeError, "Float did not match Double", lambda L: L.isclose(W(_x(L, 2)), W(L.ones(2, dtype=L.float64)))),
    Bad("equal_list", TypeError, "equal(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.equal([1.0], W(_x(L, 1)))),
    # --- one-input functions: wrong argument types -----------------------------------------
    Bad("abs_list", TypeError, "abs(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.abs([1.0, -2.0])),
    Bad("neg_str", TypeError, "neg(): argument 'input' (position 1) must be Tensor, not str", lambda L: L.neg("a")),
    Bad("neg_bool", RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported.", lambda L: -W(_t(L, True))),
    Bad("exp_list", TypeError, "exp(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.exp([1.0, 2.0]), hint="torch.tensor("),
    Bad("exp_none", TypeError, "exp(): argument 'input' (position 1) must be Tensor, not", lambda L: L.exp(None)),
    Bad("log_list", TypeError, "log(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log([1.0])),
    Bad("log1p_str", TypeError, "log1p(): argument 'input' (position 1) must be Tensor, not str", lambda L: L.log1p("1")),
    Bad("sqrt_number", TypeError, "sqrt(): argument 'input' (position 1) must be Tensor, not float", lambda L: L.sqrt(4.0)),
    Bad("sin_list", TypeError, "sin(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sin([0.0])),
    Bad("cos_none", TypeError, "cos(): argument 'input' (position 1) must be Tensor, not", lambda L: L.cos(None)),
    Bad("sigmoid_list", TypeError, "sigmoid(): argument 'input' (position 1) must be Tensor, not", lambda L: L.sigmoid([0.0])),
    Bad("tanh_numpy", TypeError, "tanh(): argument 'input' (position 1) must be Tensor, not", lambda L: L.tanh(np.zeros(2))),
    Bad("relu_list", TypeError, "relu(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.relu([1.0, -1.0])),
    Bad("reciprocal_list", TypeError, "reciprocal(): argument 'input' (position 1) must be Tensor, not", lambda L: L.reciprocal([2.0])),
    Bad("clamp_no_bounds", RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None", lambda L: L.clamp(W(_x(L, 2)))),
    Bad("clamp_str_bound", TypeError, "clamp() received an invalid combination of arguments - got (Tensor, min=str), but expected one of:", lambda L: L.clamp(W(_x(L, 2)), min="a")),
    Bad("clip_list", TypeError, "clip() received an invalid combination of arguments - got (list, float, float), but expected one of:", lambda L: L.clip([1.0], 0.0, 1.0)),
    Bad("select_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)", lambda L: L.select(W(_x(L, 2, 3)), 2, 0)),
    Bad("select_str_dim", TypeError, "select(): argument 'dim' (position 2) must be int, not str", lambda L: L.select(W(_x(L, 2, 3)), "a", 0)),
    Bad("clone_list", TypeError, "clone(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.clone([1.0])),
    # --- reductions -------------------------------------------------------------------------
    Bad("sum_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: W(_x(L, 2, 3)).sum(dim=2)),
    Bad("sum_str_dim", TypeError, "sum() received an invalid combination of arguments - got (str), but expected one of:", lambda L: W(_x(L, 2)).sum("a")),
    Bad("sum_list", TypeError, "sum(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sum([1.0, 2.0]), hint="torch.tensor("),
    Bad("mean_int", RuntimeError, "mean(): could not infer output dtype. Input dtype must be", lambda L: W(_t(L, 1, 2)).mean(), hint="Fix"),
    Bad("mean_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.mean(W(_x(L, 2)), dim=1)),
    Bad("max_empty", RuntimeError, "max(): Expected reduction dim to be specified for input.numel()", lambda L: L.max(W(L.ones(0)))),
    Bad("max_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.max(W(_x(L, 2)), dim=1)),
    Bad("min_str_dim", TypeError, "min() received an invalid combination of arguments - got (Tensor, dim=str), but expected one of:", lambda L: L.min(W(_x(L, 2)), dim="a")),
    Bad("amax_empty", RuntimeError, "amax(): Expected reduction dim to be specified for", lambda L: L.amax(W(L.ones(0)))),
    Bad("amin_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.amin(W(_x(L, 2)), dim=3)),
    Bad("argmax_empty", IndexError, "argmax(): Expected reduction dim to be specified for", lambda L: L.argmax(W(L.ones(0)))),
    Bad("argmax_empty_dim", IndexError, "argmax(): Expected reduction dim 0 to have non-zero size.", lambda L: W(L.ones(0, 3)).argmax(0)),
    Bad("argmin_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.argmin(W(_x(L, 2, 3)), dim=2)),
    Bad("var_int", RuntimeError, "std and var only support floating point and complex dtypes", lambda L: L.var(W(_t(L, 1, 2)))),
    Bad("std_int", RuntimeError, "std and var only support floating point and complex dtypes", lambda L: L.std(W(_t(L, 1, 2)))),
    Bad("std_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.std(W(_x(L, 2)), dim=1)),
    Bad("softmax_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.softmax(W(_x(L, 2, 3)), dim=2)),
    Bad("softmax_int", NotImplementedError, "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'", lambda L: L.softmax(W(_t(L, 1, 2)), dim=0)),
    Bad("log_softmax_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.log_softmax(W(_x(L, 2, 3)), dim=-3)),
    Bad("log_softmax_int", NotImplementedError, "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'", lambda L: L.log_softmax(W(_t(L, 1, 2)), dim=0)),
    Bad("logsumexp_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.logsumexp(W(_x(L, 2)), dim=1)),
    Bad("logsumexp_list", TypeError, "logsumexp(): argument 'input' (position 1) must be Tensor, not", lambda L: L.logsumexp([1.0, 2.0], dim=0)),
    # --- matrix products --------------------------------------------------------------------
    Bad("mm_shapes", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", lambda L: L.mm(W(_x(L, 2, 3)), W(_x(L, 4, 5))), hint="inner sizes must match"),
    Bad("matmul_operator_shapes", RuntimeError, "inconsistent tensor size, expected tensor [3] and src [4] to", lambda L: W(_leaf(L)) @ W(_x(L, 4)), hint="same length"),
    Bad("mm_int_float", RuntimeError, "expected m1 and m2 to have the same dtype, but got: long int !=", lambda L: L.mm(W(_t(L, [1, 2])), W(_x(L, 2, 2))), hint="Fix"),
    Bad("mm_list", TypeError, "mm(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.mm([[1.0]], W(_x(L, 1, 1)))),
    Bad("matmul_list", TypeError, "matmul(): argument 'other' (position 2) must be Tensor, not list", lambda L: L.matmul(W(_x(L, 2, 2)), [[1.0], [2.0]])),
    Bad("matmul_0d", RuntimeError, "both arguments to matmul need to be at least 1D, but they are", lambda L: L.matmul(W(L.tensor(2.0)), W(_x(L, 3)))),
    Bad("mv_matrix", RuntimeError, "vector + matrix @ vector expected, got 1, 2, 2", lambda L: L.mv(W(_x(L, 2, 3)), W(_x(L, 3, 1)))),
    Bad("dot_2d", RuntimeError, "1D tensors expected, but got 2D and 2D tensors", lambda L: L.dot(W(_x(L, 2, 2)), W(_x(L, 2, 2)))),
    Bad("dot_dtypes", RuntimeError, "dot : expected both vectors to have same dtype, but found Long", lambda L: L.dot(W(_t(L, 1, 2)), W(_t(L, 1.0, 2.0)))),
    Bad("bmm_dtypes", RuntimeError, "expected scalar type Float but found Double", lambda L: L.bmm(W(_x(L, 1, 2, 2)), W(L.ones(1, 2, 2, dtype=L.float64)))),
    Bad("addmm_shapes", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)", lambda L: L.addmm(W(_x(L, 2)), W(_x(L, 2, 3)), W(_x(L, 4, 2)))),
    # --- shapes, views, joining -------------------------------------------------------------
    Bad("view_numel", RuntimeError, "shape '[4, 2]' is invalid for input of size 6", lambda L: W(_x(L, 2, 3)).view(4, 2), hint="must multiply"),
    Bad("view_float_dim", TypeError, "view() received an invalid combination of arguments - got (float, int), but expected one of:", lambda L: W(_x(L, 4)).view(2.0, 2), hint="n // 2"),
    Bad("view_non_contiguous", RuntimeError, "view size is not compatible with input tensor's size and stride", lambda L: W(_x(L, 2, 3)).t().view(6)),
    Bad("reshape_two_inferred", RuntimeError, "only one dimension can be inferred", lambda L: L.reshape(W(_x(L, 4)), (-1, -1))),
    Bad("reshape_str", TypeError, "reshape() takes 1 positional argument but 2 were given", lambda L: W(_x(L, 4)).reshape("2", 2)),
    Bad("flatten_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.flatten(W(_x(L, 2, 3)), 2)),
    Bad("flatten_start_after_end", RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim", lambda L: L.flatten(W(_x(L, 2, 3, 4)), 2, 1)),
    Bad("squeeze_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: W(_x(L, 2, 1)).squeeze(3)),
    Bad("unsqueeze_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.unsqueeze(W(_x(L, 2)), 3)),
    Bad("unsqueeze_float", TypeError, "unsqueeze(): argument 'dim' (position 1) must be int, not float", lambda L: W(_x(L, 2)).unsqueeze(0.5)),
    Bad("permute_wrong_length", RuntimeError, "permute(sparse_coo): number of dimensions in the tensor input", lambda L: L.permute(W(_x(L, 2, 3)), (0,))),
    Bad("permute_repeated", RuntimeError, "permute(): duplicate dims are not allowed.", lambda L: W(_x(L, 2, 3)).permute(0, 0)),
    Bad("transpose_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.transpose(W(_x(L, 2, 3)), 0, 2)),
    Bad("t_3d", RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D", lambda L: L.t(W(_x(L, 2, 3, 4)))),
    Bad("expand_fewer_sizes", RuntimeError, "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of", lambda L: W(_x(L, 2, 3)).expand(3)),
    Bad("expand_size", RuntimeError, "The expanded size of the tensor (4) must match the existing", lambda L: W(_x(L, 3, 2)).expand(3, 4)),
    Bad("cat_sizes", RuntimeError, "Sizes of tensors must match except in dimension 0. Expected", lambda L: L.cat([W(_x(L, 2, 3)), W(_x(L, 2, 4))])),
    Bad("cat_empty_list", ValueError, "torch.cat(): expected a non-empty list of Tensors", lambda L: L.cat([])),
    Bad("cat_lists", TypeError, "expected Tensor as element 0 in argument 0, but got list", lambda L: L.cat([[1.0], [2.0]])),
    Bad("cat_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.cat([W(_x(L, 2)), W(_x(L, 2))], dim=1)),
    Bad("cat_meta_cpu", RuntimeError, "Expected all tensors to be on the same device, but found at", lambda L: L.cat([W(_x(L, 2)), W(_meta(L, 2))]), torch=False),
    Bad("cat_tensor_not_list", TypeError, "cat(): argument 'tensors' (position 1) must be tuple of", lambda L: L.cat(W(_x(L, 2, 2)), W(_x(L, 2, 2))), hint="put the tensors in a list"),
    Bad("stack_sizes", RuntimeError, "stack expects each tensor to be equal size, but got [2] at", lambda L: L.stack([W(_x(L, 2)), W(_x(L, 3))])),
    Bad("stack_empty_list", RuntimeError, "stack expects a non-empty TensorList", lambda L: L.stack([])),
    Bad("split_zero", RuntimeError, "split_size can only be 0 if dimension size is 0, but got", lambda L: L.split(W(_x(L, 4)), 0)),
    Bad("split_sections", RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 5 (input", lambda L: W(_x(L, 5)).split([2, 2])),
    Bad("split_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.split(W(_x(L, 4)), 2, dim=1)),
    Bad("chunk_zero", RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0", lambda L: L.chunk(W(_x(L, 4)), 0)),
    Bad("unbind_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.unbind(W(_x(L, 2)), 1)),
    # --- indexing ---------------------------------------------------------------------------
    Bad("index_out_of_range", IndexError, "index 2 is out of bounds for dimension 0 with size 2", lambda L: W(_x(L, 2, 3))[2]),
    Bad("index_column_out_of_range", IndexError, "index 3 is out of bounds for dimension 1 with size 3", lambda L: W(_x(L, 2, 3))[:, 3]),
    Bad("index_too_many", IndexError, "too many indices for tensor of dimension 2", lambda L: W(_x(L, 2, 3))[0, 0, 0]),
    Bad("index_0d", IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python", lambda L: W(L.tensor(1.0))[0]),
    Bad("index_float", IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or", lambda L: W(_x(L, 3))[1.0]),
    Bad("index_str", TypeError, "only integers, slices (`:`), ellipsis (`...`), None and long or", lambda L: W(_x(L, 3))["a"], torch=False),
    Bad("index_float_tensor", IndexError, "tensors used as indices must be long, int, byte or bool tensors", lambda L: W(_x(L, 3))[W(_t(L, 0.0))]),
    Bad("index_tensor_out_of_range", IndexError, "index 5 is out of bounds for dimension 0 with size 3", lambda L: W(_x(L, 3))[W(_t(L, 5))]),
    Bad("index_mask_shape", IndexError, "The shape of the mask [2] at index 0 does not match the shape", lambda L: W(_x(L, 3))[W(_t(L, True, False))]),
    Bad("setitem_out_of_range", IndexError, "index 5 is out of bounds for dimension 0 with size 3", lambda L: W(L.zeros(3)).__setitem__(5, 1.0)),
    Bad("setitem_shape", RuntimeError, "The expanded size of the tensor (2) must match the existing", lambda L: W(L.zeros(3)).__setitem__(slice(0, 2), L.ones(3)), hint="shape of the part"),
    Bad("setitem_leaf", RuntimeError, "a view of a leaf Variable that requires grad is being used in", lambda L: W(_leaf(L)).__setitem__(0, 1.0), hint="Fix"),
    Bad("setitem_str", TypeError, "can't assign a str to a torch.FloatTensor", lambda L: W(L.zeros(3)).__setitem__(0, "a")),
    # --- Tensor methods: in place, conversion, autograd -------------------------------------
    Bad("add__shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: W(L.zeros(2)).add_(W(_x(L, 3)))),
    Bad("add__broadcast_into_smaller", RuntimeError, "output with shape [1] doesn't match the broadcast shape [3]", lambda L: W(L.zeros(1)).add_(W(_x(L, 3)))),
    Bad("mul__float_into_int", RuntimeError, "result type Float can't be cast to the desired output type Long", lambda L: W(_t(L, 1, 2)).mul_(1.5)),
    Bad("div__int", RuntimeError, "result type Float can't be cast to the desired output type Long", lambda L: W(_t(L, 1, 2)).div_(2)),
    Bad("add__leaf", RuntimeError, "a leaf Variable that requires grad is being used in an in-place", lambda L: W(_leaf(L)).add_(1.0), hint="Fix"),
    Bad("iadd_leaf", RuntimeError, "a leaf Variable that requires grad is being used in an in-place", lambda L: W(_leaf(L)).__iadd__(1.0), hint="Fix"),
    Bad("zero__leaf", RuntimeError, "a leaf Variable that requires grad is being used in an in-place", lambda L: W(_leaf(L)).zero_()),
    Bad("relu__leaf", RuntimeError, "a leaf Variable that requires grad is being used in an in-place", lambda L: W(_leaf(L)).relu_()),
    Bad("pow__leaf", RuntimeError, "a leaf Variable that requires grad is being used in an in-place", lambda L: W(_leaf(L)).pow_(2)),
    Bad("fill__str", TypeError, "fill_(): value must be a number or a Tensor, not str", lambda L: W(L.zeros(2)).fill_("a"), torch=False),
    Bad("copy__shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: W(L.zeros(2)).copy_(W(_x(L, 3)))),
    Bad("copy__list", TypeError, "copy_(): argument 'other' (position 1) must be Tensor, not list", lambda L: W(L.zeros(2)).copy_([1.0, 2.0])),
    Bad("masked_fill__float_mask", RuntimeError, "masked_fill_ only supports boolean masks, but got mask with", lambda L: W(L.zeros(2)).masked_fill_(W(_t(L, 1.0, 0.0)), 1.0)),
    Bad("clamp__no_bounds", RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None", lambda L: W(L.zeros(2)).clamp_()),
    Bad("item_many", RuntimeError, "a Tensor with 2 elements cannot be converted to Scalar", lambda L: W(_x(L, 2)).item(), hint="reduce"),
    Bad("item_empty", RuntimeError, "a Tensor with 0 elements cannot be converted to Scalar", lambda L: W(L.ones(0)).item()),
    Bad("item_meta", RuntimeError, "Tensor.item() cannot be called on meta tensors", lambda L: W(_meta(L, 1)).item()),
    Bad("bool_many", RuntimeError, "Boolean value of Tensor with more than one value is ambiguous", lambda L: bool(W(_x(L, 2))), hint=".any()"),
    Bad("float_many", ValueError, "only one element tensors can be converted to Python scalars", lambda L: float(W(_x(L, 2)))),
    Bad("int_many", ValueError, "only one element tensors can be converted to Python scalars", lambda L: int(W(_x(L, 2)))),
    Bad("index_with_float_tensor", TypeError, "only integer tensors of a single element can be converted to an", lambda L: [1, 2][W(L.tensor(1.0))]),
    Bad("len_0d", TypeError, "len() of a 0-d tensor", lambda L: len(W(L.tensor(1.0)))),
    Bad("iter_0d", TypeError, "iteration over a 0-d tensor", lambda L: iter(W(L.tensor(1.0)))),
    Bad("size_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: W(_x(L, 2)).size(1)),
    Bad("numpy_requires_grad", RuntimeError, "Can't call numpy() on Tensor that requires grad. Use", lambda L: W(_leaf(L)).numpy(), hint="detach()"),
    Bad("to_gpu_string", RuntimeError, "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl,", lambda L: W(_x(L, 2)).to("gpu")),
    Bad("to_cpu_from_meta", NotImplementedError, "Cannot copy out of meta tensor; no data!", lambda L: W(_meta(L, 2)).to("cpu")),
    Bad("cuda", AssertionError, "Torch not compiled with CUDA enabled", lambda L: W(_x(L, 2)).cuda() ),
    Bad("requires_grad_int_attribute", RuntimeError, "only Tensors of floating point and complex dtype can require", lambda L: setattr(W(_t(L, 1, 2)), "requires_grad", True)),
    Bad("requires_grad_int_method", RuntimeError, "only Tensors of floating point dtype can require gradients", lambda L: W(_t(L, 1, 2)).requires_grad_(), hint="create it with floats"),
    Bad("requires_grad_false_non_leaf", RuntimeError, "you can only change requires_grad flags of leaf variables. If", lambda L: (W(_leaf(L)) * 2).requires_grad_(False)),
    Bad("retain_grad_no_grad", RuntimeError, "can't retain_grad on Tensor that has requires_grad=False", lambda L: W(_x(L, 2)).retain_grad()),
    Bad("register_hook_no_grad", RuntimeError, "cannot register a hook on a tensor that doesn't require gradient", lambda L: W(_x(L, 2)).register_hook(print)),
    Bad("grad_assign_shape", RuntimeError, "attempting to assign a gradient of size '[2]' to a tensor of", lambda L: setattr(W(_leaf(L)), "grad", L.ones(2))),
    Bad("grad_assign_list", TypeError, "assigned grad expected to be a Tensor or None but got grad of", lambda L: setattr(W(_leaf(L)), "grad", [1.0, 2.0, 3.0])),
    Bad("grad_assign_dtype", RuntimeError, "attempting to assign a gradient with dtype 'double' to a tensor", lambda L: setattr(W(_leaf(L)), "grad", L.ones(3, dtype=L.float64)), torch=False),
    Bad("grad_none_zero_", AttributeError, "'NoneType' object has no attribute 'zero_'", lambda L: W(_x(L, 2, rg=True)).grad.zero_()),
    Bad("backward_non_scalar", RuntimeError, "grad can be implicitly created only for scalar outputs", lambda L: (W(_leaf(L)) * 2).backward(), hint="reduce it first"),
    Bad("backward_no_grad", RuntimeError, "element 0 of tensors does not require grad and does not have a", lambda L: W(_x(L, 2)).sum().backward(), hint="Fix"),
    Bad("backward_int_output", RuntimeError, "element 0 of tensors does not require grad and does not have a", lambda L: W(_leaf(L)).argmax().backward()),
    Bad("backward_gradient_shape", RuntimeError, "Mismatch in shape: grad_output[0] has a shape of", lambda L: (W(_leaf(L)) * 2).backward(L.ones(2))),
    Bad("backward_gradient_list", TypeError, "gradients can be either Tensors or None, but got float", lambda L: (W(_leaf(L)) * 2).backward([1.0, 1.0, 1.0])),
    Bad("grad_of_constant", RuntimeError, "One of the differentiated Tensors does not require grad", lambda L: L.autograd.grad(W(_leaf(L)).sum(), W(_x(L, 2)))),
    Bad("grad_unused_input", RuntimeError, "The differentiated Tensor at index 0 appears to not have been", lambda L: L.autograd.grad(W(_leaf(L)).sum(), W(_x(L, 2, rg=True)))),
    # --- nn layers --------------------------------------------------------------------------
    Bad("linear_in_features", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (4x5 and 3x2)", lambda L: W(_lin(L))(W(_x(L, 4, 5))), hint="in_features"),
    Bad("linear_int_input", RuntimeError, "mat1 and mat2 must have the same dtype, but got Long and Float", lambda L: W(_lin(L))(W(_t(L, [1, 2, 3]))), hint="Fix"),
    Bad("linear_double_input", RuntimeError, "mat1 and mat2 must have the same dtype, but got Double and Float", lambda L: W(_lin(L))(W(L.ones(1, 3, dtype=L.float64))), hint="Fix"),
    Bad("linear_meta_input", RuntimeError, "Expected all tensors to be on the same device, but found at", lambda L: W(_lin(L))(W(_meta(L, 1, 3))), torch=False),
    Bad("linear_list_input", TypeError, "linear(): argument 'input' (position 1) must be Tensor, not list", lambda L: W(_lin(L))([1.0, 2.0, 3.0]), hint="torch.tensor("),
    Bad("linear_0d_input", RuntimeError, "both arguments to linear need to be at least 1D, but they are", lambda L: W(_lin(L))(W(L.tensor(1.0)))),
    Bad("linear_negative_features", RuntimeError, "Trying to create tensor with negative dimension -1: [2, -1]", lambda L: L.nn.Linear(-1, 2)),
    Bad("linear_float_features", TypeError, "empty(): argument 'size' failed to unpack the object at pos 2", lambda L: L.nn.Linear(2.5, 2)),
    Bad("linear_two_inputs", TypeError, "Linear.forward() takes 2 positional arguments but 3 were given", lambda L: W(_lin(L))(W(_x(L, 1, 3)), W(_x(L, 1, 3)))),
    Bad("functional_linear_bias", RuntimeError, "The expanded size of the tensor (4) must match the existing", lambda L: _F(L).linear(W(_x(L, 2, 3)), W(_x(L, 4, 3)), W(_x(L, 5))), hint="one value per output feature"),
    Bad("embedding_index_range", IndexError, "index out of range in self", lambda L: W(L.nn.Embedding(5, 2))(W(_t(L, 1, 5))), hint="5 rows"),
    Bad("embedding_negative_index", IndexError, "index out of range in self", lambda L: W(L.nn.Embedding(5, 2))(W(_t(L, -1)))),
    Bad("embedding_float_index", RuntimeError, "Expected tensor for argument #1 'indices' to have one of the", lambda L: W(L.nn.Embedding(5, 2))(W(_t(L, 1.0)))),
    Bad("embedding_list", TypeError, "embedding(): argument 'indices' (position 2) must be Tensor,", lambda L: W(L.nn.Embedding(5, 2))([1, 2])),
    Bad("embedding_padding_idx", AssertionError, "Padding_idx must be within num_embeddings", lambda L: L.nn.Embedding(5, 2, padding_idx=5)),
    Bad("functional_embedding_range", IndexError, "index out of range in self", lambda L: _F(L).embedding(W(_t(L, 3)), W(_x(L, 3, 2)))),
    Bad("dropout_p", ValueError, "dropout probability has to be between 0 and 1, but got 1.5", lambda L: L.nn.Dropout(1.5)),
    Bad("functional_dropout_p", ValueError, "dropout probability has to be between 0 and 1, but got -0.1", lambda L: _F(L).dropout(W(_x(L, 2)), p=-0.1)),
    Bad("conv2d_channels_last_image", RuntimeError, "Given groups=1, weight of size [8, 3, 3, 3], expected input[1, 32, 32, 3] to have 3 channels, but got 32 channels instead", lambda L: W(L.nn.Conv2d(3, 8, 3))(W(_x(L, 1, 32, 32, 3))), hint="permute it to (C, H, W)"),
    Bad("conv2d_2d_image", RuntimeError, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [28, 28]", lambda L: W(L.nn.Conv2d(1, 6, 5))(W(_x(L, 28, 28))), hint="x.view(1, 1, H, W)"),
    Bad("conv2d_kernel_too_big", RuntimeError, "Calculated padded input size per channel: (3 x 3). Kernel size: (5 x 5). Kernel size can't be greater than actual input size", lambda L: W(L.nn.Conv2d(1, 1, 5))(W(_x(L, 1, 1, 3, 3)))),
    Bad("conv2d_double_input", RuntimeError, "Input type (double) and bias type (float) should be the same", lambda L: W(L.nn.Conv2d(1, 1, 3))(W(L.ones(1, 1, 5, 5, dtype=L.float64))), hint="x.float()"),
    Bad("conv2d_groups", ValueError, "in_channels must be divisible by groups", lambda L: L.nn.Conv2d(3, 4, 3, groups=2)),
    Bad("conv2d_padding_string", ValueError, "Invalid padding string 'full', should be one of", lambda L: L.nn.Conv2d(1, 1, 3, padding="full")),
    Bad("conv2d_same_strided", ValueError, "padding='same' is not supported for strided convolutions", lambda L: L.nn.Conv2d(1, 1, 3, stride=2, padding="same")),
    Bad("conv1d_4d_input", RuntimeError, "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [1, 2, 5, 5]", lambda L: W(L.nn.Conv1d(2, 4, 3))(W(_x(L, 1, 2, 5, 5)))),
    Bad("functional_conv2d_stride", RuntimeError, "non-positive stride is not supported", lambda L: _F(L).conv2d(W(_x(L, 1, 4, 5, 5)), W(_x(L, 2, 4, 3, 3)), stride=0)),
    Bad("functional_conv2d_bias", RuntimeError, "Given weight of size [2, 4, 3, 3], expected bias to be 1-dimensional with 2 elements, but got bias of size [3] instead", lambda L: _F(L).conv2d(W(_x(L, 1, 4, 5, 5)), W(_x(L, 2, 4, 3, 3)), W(_x(L, 3)))),
    Bad("functional_conv1d_same_strided", RuntimeError, "padding='same' is not supported for strided convolutions", lambda L: _F(L).conv1d(W(_x(L, 1, 4, 5)), W(_x(L, 2, 4, 3)), stride=2, padding="same")),
    Bad("max_pool2d_2d_input", RuntimeError, "non-empty 3D or 4D (batch mode) tensor expected for input", lambda L: W(L.nn.MaxPool2d(2))(W(_x(L, 4, 4)))),
    Bad("max_pool2d_too_small", RuntimeError, "Given input size: (1x1x1). Calculated output size: (1x0x0). Output size is too small", lambda L: W(L.nn.MaxPool2d(2))(W(_x(L, 1, 1, 1)))),
    Bad("functional_max_pool2d_padding", RuntimeError, "pad must be non-negative, but got pad: -1", lambda L: _F(L).max_pool2d(W(_x(L, 1, 1, 5, 5)), 2, padding=-1)),
    Bad("avg_pool2d_padding", RuntimeError, "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1", lambda L: W(L.nn.AvgPool2d(2, padding=2))(W(_x(L, 1, 4, 4)))),
    Bad("functional_avg_pool2d_divisor", RuntimeError, "divisor must be not zero", lambda L: _F(L).avg_pool2d(W(_x(L, 1, 1, 4, 4)), 2, divisor_override=0)),
    Bad("adaptive_avg_pool2d_2d_input", RuntimeError, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [4, 4]", lambda L: W(L.nn.AdaptiveAvgPool2d(2))(W(_x(L, 4, 4)))),
    Bad("functional_adaptive_avg_pool2d_size", RuntimeError, "adaptive_avg_pool2d: output_size must be 2", lambda L: _F(L).adaptive_avg_pool2d(W(_x(L, 1, 1, 5, 5)), (1, 2, 3))),
    Bad("batch_norm2d_3d_input", ValueError, "expected 4D input (got 3D input)", lambda L: W(L.nn.BatchNorm2d(3))(W(_x(L, 2, 3, 4)))),
    Bad("batch_norm1d_one_sample", ValueError, "Expected more than 1 value per channel when training, got input size torch.Size([1, 3])", lambda L: W(L.nn.BatchNorm1d(3))(W(_x(L, 1, 3))), hint="model.eval()"),
    Bad("batch_norm1d_features", RuntimeError, "running_mean should contain 4 elements not 3", lambda L: W(L.nn.BatchNorm1d(3))(W(_x(L, 2, 4))), hint="made for 3 features"),
    Bad("functional_batch_norm_eval", RuntimeError, "running_mean must be defined in evaluation mode", lambda L: _F(L).batch_norm(W(_x(L, 2, 3)), None, None)),
    Bad("functional_batch_norm_weight", RuntimeError, "weight should contain 3 elements not 4", lambda L: _F(L).batch_norm(W(_x(L, 4, 3)), W(L.zeros(3)), W(L.ones(3)), W(_x(L, 4)), training=True)),
    Bad("layer_norm_shape", RuntimeError, "Given normalized_shape=[8], expected input with shape [*, 8], but got input of size[2, 7]", lambda L: W(L.nn.LayerNorm(8))(W(_x(L, 2, 7)))),
    Bad("functional_layer_norm_weight", RuntimeError, "Expected weight to be of same shape as normalized_shape, but got weight of shape [7]", lambda L: _F(L).layer_norm(W(_x(L, 2, 8)), (8,), W(_x(L, 7)))),
    Bad("gelu_approximate", RuntimeError, "approximate argument must be either none or tanh.", lambda L: W(L.nn.GELU("exact"))(W(_x(L, 3)))),
    Bad("functional_gelu_int", NotImplementedError, "\"GeluKernelImpl\" not implemented for 'Long'", lambda L: _F(L).gelu(W(_t(L, 1, 2)))),
    Bad("dropout2d_p", ValueError, "dropout probability has to be between 0 and 1, but got 1.5", lambda L: L.nn.Dropout2d(1.5)),
    Bad("functional_dropout2d_1d", RuntimeError, "Feature dropout requires at least 2 dimensions in the input", lambda L: _F(L).dropout2d(W(_x(L, 3)))),
    Bad("relu_module_list", TypeError, "relu(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.nn.ReLU()([1.0, -1.0])),
    Bad("sigmoid_module_str", TypeError, "sigmoid(): argument 'input' (position 1) must be Tensor, not str", lambda L: L.nn.Sigmoid()("x")),
    Bad("tanh_module_none", TypeError, "tanh(): argument 'input' (position 1) must be Tensor, not", lambda L: L.nn.Tanh()(None)),
    Bad("leaky_relu_list", TypeError, "leaky_relu(): argument 'input' (position 1) must be Tensor, not", lambda L: _F(L).leaky_relu([1.0])),
    Bad("softmax_module_dim", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.nn.Softmax(dim=2)(W(_x(L, 2, 3)))),
    Bad("log_softmax_module_int", NotImplementedError, "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'", lambda L: L.nn.LogSoftmax(dim=0)(W(_t(L, 1, 2)))),
    Bad("flatten_module_0d", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.nn.Flatten()(W(L.tensor(1.0)))),
    Bad("sequential_not_module", TypeError, "str is not a Module subclass", lambda L: L.nn.Sequential(L.nn.Linear(2, 2), "relu")),
    Bad("sequential_index", IndexError, "index 3 is out of range", lambda L: L.nn.Sequential(L.nn.Linear(2, 2))[3]),
    Bad("sequential_shapes", RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x4 and 5x2)", lambda L: W(L.nn.Sequential(_lin(L, 3, 4), _lin(L, 5, 2)))(W(_x(L, 2, 3))), hint="in_features"),
    Bad("module_list_append_int", TypeError, "int is not a Module subclass", lambda L: L.nn.ModuleList().append(3)),
    Bad("module_dict_missing_key", KeyError, "'b'", lambda L: L.nn.ModuleDict({"a": L.nn.ReLU()})["b"]),
    Bad("module_assign_int_parameter", TypeError, "cannot assign 'int' as parameter 'weight' (torch.nn.Parameter", lambda L: setattr(W(_lin(L)), "weight", 3)),
    Bad("module_without_forward", NotImplementedError, 'Module [Module] is missing the required "forward" function', lambda L: L.nn.Module()(W(_x(L, 2))), hint="forward"),
    Bad("parameter_int", RuntimeError, "Only Tensors of floating point and complex dtype can require", lambda L: L.nn.Parameter(W(_t(L, 1, 2)))),
    Bad("init_xavier_1d", ValueError, "Fan in and fan out can not be computed for tensor with fewer", lambda L: L.nn.init.xavier_uniform_(W(L.zeros(3)))),
    Bad("init_kaiming_0d", ValueError, "Fan in and fan out can not be computed for tensor with fewer", lambda L: L.nn.init.kaiming_normal_(W(L.tensor(0.0)))),
    Bad("init_gain_name", ValueError, "Unsupported nonlinearity swish", lambda L: L.nn.init.calculate_gain("swish")),
    Bad("init_normal_int", NotImplementedError, "\"normal_kernel_cpu\" not implemented for 'Long'", lambda L: L.nn.init.normal_(W(_t(L, 1, 2)))),
    Bad("clip_grad_norm_nonfinite", RuntimeError, "The total norm of order 2.0 for gradients from `parameters` is", lambda L: L.nn.utils.clip_grad_norm_([W(_nan_grad(L))], 1.0, error_if_nonfinite=True)),
    # --- state dicts ------------------------------------------------------------------------
    Bad("load_state_dict_missing", RuntimeError, "Error(s) in loading state_dict for Linear:", lambda L: W(_lin(L)).load_state_dict({"weight": L.zeros(2, 3)})),
    Bad("load_state_dict_unexpected", RuntimeError, "Error(s) in loading state_dict for Linear:", lambda L: W(_lin(L)).load_state_dict({**_sd(L), "extra": L.zeros(1)})),
    Bad("load_state_dict_shapes", RuntimeError, "Error(s) in loading state_dict for Linear:", lambda L: W(_lin(L)).load_state_dict(_sd(L, 4, 2))),
    Bad("load_state_dict_not_tensor", RuntimeError, "Error(s) in loading state_dict for Linear:", lambda L: W(_lin(L)).load_state_dict({"weight": [[0.0] * 3] * 2, "bias": L.zeros(2)})),
    Bad("load_state_dict_list", TypeError, "Expected state_dict to be dict-like, got <class 'list'>.", lambda L: W(_lin(L)).load_state_dict([L.zeros(2, 3), L.zeros(2)])),
    Bad("load_state_dict_optimizer", RuntimeError, "Error(s) in loading state_dict for Linear:", lambda L: W(_lin(L)).load_state_dict(_trained(L)[1].state_dict())),
    # --- losses -----------------------------------------------------------------------------
    Bad("cross_entropy_label_range", IndexError, "Target 3 is out of bounds.", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3, rg=True)), W(_t(L, 0, 3))), hint="class labels must be 0..2"),
    Bad("cross_entropy_negative_label", IndexError, "Target -2 is out of bounds.", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3)), W(_t(L, 0, -2)))),
    Bad("cross_entropy_module_label_range", IndexError, "Target 7 is out of bounds.", lambda L: L.nn.CrossEntropyLoss()(W(_x(L, 2, 3)), W(_t(L, 7, 0)))),
    Bad("cross_entropy_float_labels", RuntimeError, "expected target dtype to be Long or Byte, but got Float", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3)), W(_t(L, 0.0, 1.0))), hint="Fix"),
    Bad("cross_entropy_int32_labels", RuntimeError, "expected target dtype to be Long or Byte, but got Int", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3)), W(_t(L, 0, 1, dtype=L.int32)))),
    Bad("cross_entropy_batch_sizes", ValueError, "Expected input batch_size (2) to match target batch_size (3).", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3)), W(_t(L, 0, 1, 2)))),
    Bad("cross_entropy_2d_labels", RuntimeError, "0D or 1D target tensor expected, multi-target not supported", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3)), W(_t(L, [0], [1]))), hint="one class index per row"),
    Bad("cross_entropy_int_logits", NotImplementedError, "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'", lambda L: _F(L).cross_entropy(W(_t(L, [1, 2, 3])), W(_t(L, 0)))),
    Bad("cross_entropy_list_labels", TypeError, "cross_entropy_loss(): argument 'target' (position 2) must be", lambda L: _F(L).cross_entropy(W(_x(L, 2, 3)), [0, 1])),
    Bad("cross_entropy_reduction", ValueError, "avg is not a valid value for reduction", lambda L: L.nn.CrossEntropyLoss(reduction="avg")(W(_x(L, 2, 3)), W(_t(L, 0, 1)))),
    Bad("nll_loss_label_range", IndexError, "Target 5 is out of bounds.", lambda L: _F(L).nll_loss(W(_x(L, 2, 3)), W(_t(L, 0, 5)))),
    Bad("nll_loss_module_float_labels", RuntimeError, "expected target dtype to be Long or Byte, but got Float", lambda L: L.nn.NLLLoss()(W(_x(L, 2, 3)), W(_t(L, 0.0, 1.0)))),
    Bad("mse_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at", lambda L: _F(L).mse_loss(W(_x(L, 2, 3)), W(_x(L, 3, 2)))),
    Bad("mse_int", NotImplementedError, "\"mse_cpu\" not implemented for 'Long'", lambda L: _F(L).mse_loss(W(_t(L, 1, 2)), W(_t(L, 1, 2))), hint="floats"),
    Bad("mse_module_list_target", AttributeError, "'list' object has no attribute 'size'", lambda L: L.nn.MSELoss()(W(_x(L, 2)), [1.0, 2.0])),
    Bad("l1_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.nn.L1Loss()(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("bce_out_of_range", RuntimeError, "all elements of input should be between 0 and 1", lambda L: _F(L).binary_cross_entropy(W(_t(L, 1.5)), W(_t(L, 1.0))), hint="sigmoid"),
    Bad("bce_shapes", ValueError, "Using a target size (torch.Size([3])) that is different to the", lambda L: L.nn.BCELoss()(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("bce_with_logits_shapes", ValueError, "Target size (torch.Size([3])) must be the same as input size", lambda L: L.nn.BCEWithLogitsLoss()(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("bce_with_logits_long_target", RuntimeError, "result type Float can't be cast to the desired output type Long", lambda L: _F(L).binary_cross_entropy_with_logits(W(_x(L, 2)), W(_t(L, 1, 0)))),
    Bad("one_hot_float", RuntimeError, "one_hot is only applicable to index tensor of type LongTensor.", lambda L: _F(L).one_hot(W(_t(L, 1.0)))),
    Bad("one_hot_range", RuntimeError, "Class values must be smaller than num_classes.", lambda L: _F(L).one_hot(W(_t(L, 3)), 3), hint="num_classes is 3"),
    Bad("one_hot_negative", RuntimeError, "Class values must be non-negative.", lambda L: _F(L).one_hot(W(_t(L, -1)), 3)),
    # --- optimizers -------------------------------------------------------------------------
    Bad("sgd_negative_lr", ValueError, "Invalid learning rate: -0.1", lambda L: L.optim.SGD(W(_lin(L)).parameters(), lr=-0.1)),
    Bad("sgd_negative_momentum", ValueError, "Invalid momentum value: -1", lambda L: L.optim.SGD(W(_lin(L)).parameters(), lr=0.1, momentum=-1)),
    Bad("sgd_nesterov", ValueError, "Nesterov momentum requires a momentum and zero dampening", lambda L: L.optim.SGD(W(_lin(L)).parameters(), lr=0.1, nesterov=True)),
    Bad("adam_betas", ValueError, "Invalid beta parameter at index 0: 1.5", lambda L: L.optim.Adam(W(_lin(L)).parameters(), betas=(1.5, 0.9))),
    Bad("adam_eps", ValueError, "Invalid epsilon value: -1.0", lambda L: L.optim.Adam(W(_lin(L)).parameters(), eps=-1.0)),
    Bad("adam_weight_decay", ValueError, "Invalid weight_decay value: -1.0", lambda L: L.optim.AdamW(W(_lin(L)).parameters(), weight_decay=-1.0)),
    Bad("optimizer_empty", ValueError, "optimizer got an empty parameter list", lambda L: L.optim.SGD([], lr=0.1), hint="Fix"),
    Bad("optimizer_tensor", TypeError, "params argument given to the optimizer should be an iterable of", lambda L: L.optim.SGD(W(_leaf(L)), lr=0.1), hint="Fix"),
    Bad("optimizer_non_leaf", ValueError, "can't optimize a non-leaf Tensor", lambda L: L.optim.SGD([W(_leaf(L)) * 2], lr=0.1)),
    Bad("optimizer_model", TypeError, "'Linear' object is not iterable", lambda L: L.optim.SGD(W(_lin(L)), lr=0.1)),
    Bad("add_param_group_twice", ValueError, "some parameters appear in more than one parameter group", lambda L: _add_again(*_trained(L))),
    Bad("add_param_group_list", TypeError, "param_group must be a dict, but got <class 'list'>", lambda L: _trained(L)[1].add_param_group([W(_leaf(L))])),
    Bad("optimizer_load_groups", ValueError, "loaded state dict has a different number of parameter groups", lambda L: _trained(L)[1].load_state_dict(_two_groups(L))),
    Bad("optimizer_load_sizes", ValueError, "loaded state dict contains a parameter group that doesn't match", lambda L: _trained(L)[1].load_state_dict(_bigger_group(L))),
    Bad("optimizer_load_model_state", KeyError, "'param_groups'", lambda L: _trained(L)[1].load_state_dict(_sd(L))),
    Bad("scheduler_not_optimizer", TypeError, "Linear is not an Optimizer", lambda L: L.optim.lr_scheduler.StepLR(W(_lin(L)), 1)),
    # --- utils.data -------------------------------------------------------------------------
    Bad("tensor_dataset_sizes", AssertionError, "Size mismatch between tensors", lambda L: _data(L).TensorDataset(W(_x(L, 3)), W(_x(L, 4)))),
    Bad("tensor_dataset_index", IndexError, "index 5 is out of bounds for dimension 0 with size 3", lambda L: _ds(L)[5]),
    Bad("subset_index", IndexError, "list index out of range", lambda L: _data(L).Subset(_ds(L), [0, 1])[2]),
    Bad("data_loader_batch_zero", ValueError, "batch_size should be a positive integer value, but got", lambda L: _data(L).DataLoader(_ds(L), batch_size=0)),
    Bad("data_loader_batch_float", ValueError, "batch_size should be a positive integer value, but got", lambda L: _data(L).DataLoader(_ds(L), batch_size=1.5)),
    Bad("data_loader_shuffle_sampler", ValueError, "sampler option is mutually exclusive with shuffle", lambda L: _data(L).DataLoader(_ds(L), shuffle=True, sampler=[0, 1])),
    Bad("random_split_lengths", ValueError, "Sum of input lengths does not equal the length of the input", lambda L: _data(L).random_split(_ds(L), [1, 1])),
    Bad("collate_sizes", RuntimeError, "stack expects each tensor to be equal size, but got [2] at", lambda L: _data(L).default_collate([W(_x(L, 2)), W(_x(L, 3))])),
    Bad("collate_object", TypeError, "default_collate: batch must contain tensors, numpy arrays,", lambda L: _data(L).default_collate([object()])),
    # --- save and load ----------------------------------------------------------------------
    Bad("load_missing_file", FileNotFoundError, "[Errno 2] No such file or directory: '/tmp/mt-missing/x.pt'", lambda L: L.load(os.path.join(tempfile.gettempdir(), "mt-missing", "x.pt"))),
    Bad("load_directory", IsADirectoryError, "[Errno 21] Is a directory: '/tmp'", lambda L: L.load(tempfile.gettempdir())),
    Bad("save_missing_folder", RuntimeError, "Parent directory /nonexistent/folder does not exist.", lambda L: L.save(W(_x(L, 2)), "/nonexistent/folder/x.pt")),
    Bad("save_to_int", AttributeError, "expected 'f' to be string, path, or a file-like object with a", lambda L: L.save(W(_x(L, 2)), 123)),
    # --- more wrong types, dtypes and sizes across the API ----------------------------------
    Bad("bce_long_target", RuntimeError, "Found dtype Long but expected Float", lambda L: _F(L).binary_cross_entropy(W(_t(L, 0.5)), W(_t(L, 1)))),
    Bad("l1_int", RuntimeError, "mean(): could not infer output dtype. Input dtype must be", lambda L: _F(L).l1_loss(W(_t(L, 1, 2)), W(_t(L, 1, 2)))),
    Bad("zeros_str_size", TypeError, "zeros(): argument 'size' (position 1) must be tuple of ints,", lambda L: L.zeros("3")),
    Bad("eye_negative_columns", RuntimeError, "m must be greater or equal to 0, got -1", lambda L: L.eye(2, -1)),
    Bad("arange_nan", RuntimeError, "unsupported range: 0 -> nan", lambda L: L.arange(0, nan)),
    Bad("randint_float_high", TypeError, "randint(): low and high must be ints, not float", lambda L: L.randint(0, 2.5, (2,)), torch=False),
    Bad("full_none_value", TypeError, "full(): argument 'fill_value' (position 2) must be Number, not", lambda L: L.full((2,), None)),
    Bad("save_into_directory", RuntimeError, "torch.save: '/tmp' is a directory", lambda L: L.save(W(_x(L, 2)), tempfile.gettempdir()), torch=False),
    Bad("stack_tensor_not_list", TypeError, "stack(): argument 'tensors' (position 1) must be tuple of", lambda L: L.stack(W(_x(L, 2, 2)))),
    Bad("max_empty_dim", IndexError, "max(): Expected reduction dim 1 to have non-zero size.", lambda L: W(L.ones(2, 0)).max(dim=1)),
    Bad("one_hot_list", TypeError, "one_hot(): argument 'input' (position 1) must be Tensor, not", lambda L: _F(L).one_hot([1, 2])),
    Bad("module_assign_tensor_parameter", TypeError, "cannot assign 'torch.FloatTensor' as parameter 'weight'", lambda L: setattr(W(_lin(L)), "weight", L.ones(2, 3))),
    Bad("mse_list_input", AttributeError, "'list' object has no attribute 'size'", lambda L: _F(L).mse_loss([1.0, 2.0], W(_x(L, 2)))),
    Bad("cross_entropy_list_logits", TypeError, "cross_entropy_loss(): argument 'input' (position 1) must be", lambda L: _F(L).cross_entropy([[1.0, 2.0]], W(_t(L, 0)))),
    Bad("embedding_weight_list", TypeError, "embedding(): argument 'weight' (position 1) must be Tensor, not", lambda L: _F(L).embedding(W(_t(L, 0)), [[1.0, 2.0]])),
    Bad("linear_weight_list", TypeError, "linear(): argument 'weight' (position 2) must be Tensor, not", lambda L: _F(L).linear(W(_x(L, 1, 2)), [[1.0, 2.0]])),
    Bad("gt_list", TypeError, "gt(): argument 'other' (position 2) must be Tensor, not list", lambda L: L.gt(W(_x(L, 2)), [1.0, 2.0]), torch=False),
    Bad("le_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.le(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("ne_meta_cpu", RuntimeError, "Expected all tensors to be on the same device, but found at", lambda L: L.ne(W(_x(L, 2)), W(_meta(L, 2))), torch=False),
    Bad("mul_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at", lambda L: L.mul(W(_x(L, 2, 3)), W(_x(L, 2)))),
    Bad("sub_list_first", TypeError, "sub(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sub([1.0], W(_x(L, 1)))),
    Bad("squeeze_dim_list", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.squeeze(W(_x(L, 2, 1)), 2)),
    Bad("multinomial_int", RuntimeError, "multinomial only supports floating-point dtypes for input, got:", lambda L: L.multinomial(W(_t(L, 1, 2)), 1)),
    Bad("multinomial_negative", RuntimeError, "probability tensor contains either `inf`, `nan` or element < 0", lambda L: L.multinomial(W(_t(L, -1.0, 2.0)), 1)),
    Bad("leaky_relu_module_list", TypeError, "leaky_relu(): argument 'input' (position 1) must be Tensor, not", lambda L: L.nn.LeakyReLU(0.1)([1.0])),
    Bad("functional_relu_list", TypeError, "relu(): argument 'input' (position 1) must be Tensor, not list", lambda L: _F(L).relu([1.0])),
    Bad("functional_sigmoid_none", AttributeError, "'NoneType' object has no attribute 'sigmoid'", lambda L: _F(L).sigmoid(None)),
    Bad("functional_tanh_list", AttributeError, "'list' object has no attribute 'tanh'", lambda L: _F(L).tanh([0.0])),
    Bad("functional_softmax_dim", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: _F(L).softmax(W(_x(L, 2, 3)), dim=3)),
    Bad("functional_log_softmax_int", NotImplementedError, "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'", lambda L: _F(L).log_softmax(W(_t(L, 1, 2)), dim=0)),
    # --- sorting -------------------------------------------------------------------------------
    Bad("sort_dim_range", IndexError, "Dimension out of range (expected to be in range of [-2, 1], but", lambda L: L.sort(W(_x(L, 2, 3)), dim=2)),
    Bad("sort_list", TypeError, "sort(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sort([3.0, 1.0])),
    Bad("argsort_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but", lambda L: L.argsort(W(_x(L, 3)), dim=1)),
    Bad("topk_too_many", RuntimeError, "selected index k out of range", lambda L: L.topk(W(_x(L, 3)), 4)),
    Bad("topk_negative", RuntimeError, "selected index k out of range", lambda L: L.topk(W(_x(L, 3)), -1)),
    Bad("topk_float_k", TypeError, "topk(): argument 'k' (position 2) must be int, not float", lambda L: L.topk(W(_x(L, 3)), 1.5)),
    Bad("nonzero_list", TypeError, "nonzero(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.nonzero([1, 0])),
    # --- issue 13: operators, rounding, products, histograms ---------------------------------
    Bad("bitwise_and_float", NotImplementedError, "\"bitwise_and_cpu\" not implemented for 'Float'", lambda L: L.bitwise_and(W(_x(L, 2)), W(_x(L, 2)))),
    Bad("bitwise_or_float", NotImplementedError, "\"bitwise_or_cpu\" not implemented for 'Float'", lambda L: L.bitwise_or(W(_t(L, 1, 2)), 1.5)),
    Bad("bitwise_xor_shapes", RuntimeError, "The size of tensor a (2) must match the size of tensor b (3) at", lambda L: L.bitwise_xor(W(_t(L, 1, 2)), W(_t(L, 1, 2, 3)))),
    Bad("bitwise_not_float", NotImplementedError, "\"bitwise_not_cpu\" not implemented for 'Float'", lambda L: L.bitwise_not(W(_x(L, 2)))),
    Bad("invert_float", TypeError, "~ (operator.invert) is only implemented on integer and Boolean-type tensors", lambda L: ~W(_x(L, 2))),
    Bad("positive_bool", RuntimeError, "The `+` operator, on a bool tensor is not supported.", lambda L: L.positive(W(_t(L, True, False)))),
    Bad("floor_divide_int_zero", RuntimeError, "ZeroDivisionError", lambda L: L.floor_divide(W(_t(L, 1, 2)), 0)),
    Bad("floor_divide_backward", RuntimeError, "derivative for aten::floor_divide is not implemented", lambda L: L.floor_divide(_x(L, 2, rg=True), 2).sum().backward()),
    Bad("remainder_int_zero", RuntimeError, "ZeroDivisionError", lambda L: W(_t(L, 1, 2)) % W(_t(L, 0, 1))),
    Bad("remainder_bool", NotImplementedError, "\"remainder_cpu\" not implemented for 'Bool'", lambda L: L.remainder(W(_t(L, True)), W(_t(L, True)))),
    Bad("fmod_bool", NotImplementedError, "\"fmod_cpu\" not implemented for 'Bool'", lambda L: L.fmod(W(_t(L, True)), W(_t(L, True)))),
    Bad("div_rounding_mode", RuntimeError, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'", lambda L: L.div(W(_x(L, 2)), 2, rounding_mode="round")),
    Bad("in_str", RuntimeError, "Tensor.__contains__ only supports Tensor or scalar, but you passed in a <class 'str'>.", lambda L: "a" in W(_x(L, 2))),
    Bad("round_int_decimals", NotImplementedError, "\"round_cpu\" not implemented for 'Long'", lambda L: L.round(W(_t(L, 1, 2)), decimals=1)),
    Bad("floor_bool", NotImplementedError, "\"floor_vml_cpu\" not implemented for 'Bool'", lambda L: L.floor(W(_t(L, True)))),
    Bad("ceil_bool", NotImplementedError, "\"ceil_vml_cpu\" not implemented for 'Bool'", lambda L: L.ceil(W(_t(L, True)))),
    Bad("trunc_bool", NotImplementedError, "\"trunc_vml_cpu\" not implemented for 'Bool'", lambda L: L.trunc(W(_t(L, True)))),
    Bad("sign_list", TypeError, "sign(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sign([1.0])),
    Bad("isnan_list", TypeError, "isnan(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.isnan([1.0])),
    Bad("isinf_list", TypeError, "isinf(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.isinf([1.0])),
    Bad("isfinite_list", TypeError, "isfinite(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.isfinite([1.0])),
    Bad("any_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)", lambda L: L.any(W(_x(L, 2)), 1)),
    Bad("all_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 2)", lambda L: L.all(W(_x(L, 2)), dim=2)),
    Bad("log10_list", TypeError, "log10(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log10([1.0])),
    Bad("log2_list", TypeError, "log2(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log2([1.0])),
    Bad("norm_int", RuntimeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long", lambda L: L.norm(W(_t(L, 1, 2)))),
    Bad("prod_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)", lambda L: L.prod(W(_x(L, 2)), 1)),
    Bad("cumsum_no_dim", TypeError, "cumsum() missing 1 required positional arguments: \"dim\"", lambda L: L.cumsum(W(_x(L, 2)))),
    Bad("cumprod_dim_range", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 3)", lambda L: L.cumprod(W(_x(L, 2)), 3)),
    Bad("histc_int", NotImplementedError, "\"histogram_cpu\" not implemented for 'Long'", lambda L: L.histc(W(_t(L, 1, 2)), bins=2)),
    Bad("histc_max_below_min", RuntimeError, "torch.histc: max must be larger than min", lambda L: L.histc(W(_x(L, 2)), bins=2, min=3, max=1)),
    Bad("histogram_int", NotImplementedError, "\"histogramdd\" not implemented for 'Long'", lambda L: L.histogram(W(_t(L, 1, 2)), 2)),
    Bad("numel_list", TypeError, "numel(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.numel([1, 2])),
    Bad("set_default_device_bad", RuntimeError, "Expected one of cpu, cuda", lambda L: L.set_default_device("gpu")),
    Bad("out_requires_grad", RuntimeError, "add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.", lambda L: L.add(W(_x(L, 2)), 1, out=_x(L, 2, rg=True))),
    # --- NaN and inf: PyTorch computes on, and so must we -----------------------------------
    Same("log_negative_and_zero", [nan, -inf], lambda L: L.log(W(_t(L, -1.0, 0.0)))),
    Same("sqrt_negative", [nan, 2.0], lambda L: L.sqrt(W(_t(L, -1.0, 4.0)))),
    Same("divide_by_zero", [inf, nan, -inf], lambda L: W(_t(L, 1.0, 0.0, -1.0)) / 0),
    Same("int_divide_by_zero", [inf, nan], lambda L: W(_t(L, 1, 0)) / 0),
    Same("exp_overflow", [inf, 0.0], lambda L: L.exp(W(_t(L, 1000.0, -1000.0)))),
    Same("sigmoid_nan", [nan, 1.0], lambda L: L.sigmoid(W(_t(L, nan, inf)))),
    Same("relu_nan", [nan, 0.0, inf], lambda L: L.relu(W(_t(L, nan, -inf, inf)))),
    Same("softmax_inf", [nan, nan], lambda L: L.softmax(W(_t(L, inf, inf)), dim=0)),
    Same("softmax_one_inf", [nan, nan], lambda L: L.softmax(W(_t(L, inf, 1.0)), dim=0)),
    Same("max_with_nan", nan, lambda L: L.max(W(_t(L, 1.0, nan, 3.0)))),
    Same("argmax_with_nan", 1, lambda L: L.argmax(W(_t(L, 1.0, nan, 3.0)))),
    Same("sum_with_inf", nan, lambda L: L.sum(W(_t(L, inf, -inf)))),
    Same("mean_empty", nan, lambda L: L.mean(W(L.ones(0)))),
    Same("sum_empty", 0.0, lambda L: L.sum(W(L.ones(0)))),
    Same("clamp_nan", [nan, 1.0], lambda L: L.clamp(W(_t(L, nan, 5.0)), 0.0, 1.0)),
    Same("clamp_min_above_max", [1.0, 1.0], lambda L: L.clamp(W(_t(L, 0.0, 5.0)), min=2.0, max=1.0) ),
    Same("cross_entropy_nan_logits", nan, lambda L: _F(L).cross_entropy(W(_t(L, [nan, 0.0])), W(_t(L, 0)))),
    Same("cross_entropy_inf_logits", nan, lambda L: _F(L).cross_entropy(W(_t(L, [inf, 0.0])), W(_t(L, 0)))),
    Same("cross_entropy_empty_batch", nan, lambda L: _F(L).cross_entropy(W(L.ones(0, 3)), W(L.ones(0, dtype=L.int64)))),
    Same("mse_inf", inf, lambda L: _F(L).mse_loss(W(_t(L, inf)), W(_t(L, 0.0)))),
    Same("bce_with_logits_huge", [0.0], lambda L: _F(L).binary_cross_entropy_with_logits(W(_t(L, 1e30)), W(_t(L, 1.0)), reduction="none" )),
    Same("linear_empty_batch", [], lambda L: W(_lin(L))(W(L.ones(0, 3)))),
    Same("max_pool2d_nan", [[[nan, 4.0]]], lambda L: _F(L).max_pool2d(W(_t(L, [[1.0, nan, 3.0, 4.0]])), (1, 2))),
    Same("avg_pool2d_inf", [[[inf, nan]]], lambda L: _F(L).avg_pool2d(W(_t(L, [[1.0, inf, inf, -inf]])), (1, 2))),
    Same("conv2d_nan", [[[[nan, 2.0]]]], lambda L: _F(L).conv2d(W(_t(L, [[[nan, 1.0, 1.0]]])), W(_x(L, 1, 1, 1, 2)))),
    Same("batch_norm_empty_batch", [], lambda L: L.nn.BatchNorm1d(3)(W(L.ones(0, 3)))),
    Same("sqrt_zero_grad", [inf], lambda L: _grad_of(L, L.sqrt, 0.0)),
    Same("log_zero_grad", [inf], lambda L: _grad_of(L, L.log, 0.0)),
    Same("manual_seed_negative", [True], lambda L: [L.manual_seed(-1) is not None]),
    Same("eq_none", False, lambda L: W(_x(L, 2)) == None),  # noqa: E711 - the point of the case,
    Same("ne_list", True, lambda L: W(_x(L, 2)) != [1.0, 1.0]),
    Same("sgd_step_nan_grad", [[nan, 0.0]], lambda L: _sgd_nan_step(L)),
    # --- issue 24: the torch functions added for course code ---------------------------
    Bad("acos_list", TypeError, "acos(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.acos([0.5])),
    Bad("acosh_list", TypeError, "acosh(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.acosh([0.5])),
    Bad("asin_list", TypeError, "asin(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.asin([0.5])),
    Bad("asinh_list", TypeError, "asinh(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.asinh([0.5])),
    Bad("atan_list", TypeError, "atan(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.atan([0.5])),
    Bad("atanh_list", TypeError, "atanh(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.atanh([0.5])),
    Bad("cosh_list", TypeError, "cosh(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.cosh([0.5])),
    Bad("sinh_list", TypeError, "sinh(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sinh([0.5])),
    Bad("tan_list", TypeError, "tan(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.tan([0.5])),
    Bad("rsqrt_list", TypeError, "rsqrt(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.rsqrt([0.5])),
    Bad("expm1_list", TypeError, "expm1(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.expm1([0.5])),
    Bad("tril_list", TypeError, "tril(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.tril([[1.0]])),
    Bad("triu_list", TypeError, "triu(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.triu([[1.0]])),
    Bad("flip_list", TypeError, "flip(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.flip([1.0], [0])),
    Bad("roll_list", TypeError, "roll(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.roll([1.0], 1)),
    Bad("tile_list", TypeError, "tile(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.tile([1.0], (2,))),
    Bad("svd_list", TypeError, "svd(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.svd([[1.0]])),
    Bad("cross_list", TypeError, "cross(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.cross([1.0], [2.0])),
    Bad("conj_list", TypeError, "conj(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.conj([0.5])),
    Bad("imag_list", TypeError, "imag(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.imag([0.5])),
    # --- issue 24: erf, lerp, addcmul/addcdiv, diagonals, diff, median, einsum, draws ---
    Bad("addcdiv_wrong", TypeError, "addcdiv(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.addcdiv([1.0], _x(L, 1), _x(L, 1))),
    Bad("addcmul_wrong", RuntimeError, 'The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0', lambda L: L.addcmul(_x(L, 2), _x(L, 3), _x(L, 2))),
    Bad("diag_wrong", RuntimeError, 'diag(): Supports 1D or 2D tensors. Got 3D', lambda L: L.diag(_x(L, 2, 2, 2))),
    Bad("diag_embed_wrong", RuntimeError, 'diagonal dimensions cannot be identical 1, -1', lambda L: L.diag_embed(_x(L, 2), 0, 1, -1)),
    Bad("diagonal_wrong", RuntimeError, 'diagonal dimensions cannot be identical 1, 1', lambda L: L.diagonal(_x(L, 2, 3), 0, 1, 1)),
    Bad("erf_wrong", TypeError, "erf(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.erf([0.5])),
    Bad("erfc_wrong", TypeError, "erfc(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.erfc([0.5])),
    Bad("erfinv_wrong", TypeError, "erfinv(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.erfinv([0.5])),
    Bad("erf__wrong", TypeError, "erf_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.erf_([0.5])),
    Bad("erfc__wrong", TypeError, "erfc_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.erfc_([0.5])),
    Bad("lerp_wrong", RuntimeError, 'expected dtype float for `end` but got dtype double', lambda L: L.lerp(_x(L, 2), _x(L, 2).double(), 0.5)),
    Bad("trace_wrong", RuntimeError, 'trace: expected a matrix, but got tensor with dim 1', lambda L: L.trace(_x(L, 3))),
    Bad("bincount_wrong", RuntimeError, 'bincount only supports 1-d non-negative integral inputs.', lambda L: L.bincount(_t(L, -1))),
    Bad("diff_wrong", RuntimeError, 'order must be non-negative but got -1', lambda L: L.diff(_x(L, 3), n=-1)),
    Bad("median_wrong", IndexError, 'median(): Expected reduction dim 0 to have non-zero size.', lambda L: L.median(_x(L, 0, 2), 0)),
    Bad("repeat_interleave_wrong", RuntimeError, 'Repeats must be non-negative', lambda L: L.repeat_interleave(_x(L, 2), -1)),
    Bad("bernoulli_wrong", RuntimeError, 'Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)', lambda L: L.bernoulli(_t(L, 1.5))),
    Bad("einsum_wrong", RuntimeError, 'einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3', lambda L: L.einsum('ij,jk->ik', _x(L, 2, 3), _x(L, 2, 3))),
    Bad("normal_wrong", RuntimeError, 'normal expects std >= 0.0, but found std -1', lambda L: L.normal(_x(L, 2), -1.0)),
    Bad("is_complex_list", TypeError, "is_complex(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.is_complex([0.5])),
    Bad("is_conj_list", TypeError, "is_conj(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.is_conj([0.5])),
    Bad("real_list", TypeError, "real(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.real([0.5])),
    Bad("resolve_conj_list", TypeError, "resolve_conj(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.resolve_conj([0.5])),
    Bad("is_floating_point_list", TypeError, "is_floating_point(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.is_floating_point([0.5])),
    Bad("argwhere_list", TypeError, "argwhere(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.argwhere([0.5])),
    Bad("count_nonzero_list", TypeError, "count_nonzero(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.count_nonzero([0.5])),
    Bad("nan_to_num_list", TypeError, "nan_to_num(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.nan_to_num([0.5])),
    Bad("clamp_min_out_grad", RuntimeError, "clamp_min(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.", lambda L: L.clamp_min(W(_x(L, 2, rg=True)), 0, out=W(L.empty(2)))),
    Bad("clamp_max_out_grad", RuntimeError, "clamp_max(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.", lambda L: L.clamp_max(W(_x(L, 2, rg=True)), 0, out=W(L.empty(2)))),
    Bad("broadcast_to_list", TypeError, "broadcast_to(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.broadcast_to([1.0], (2,))),
    Bad("movedim_bad_dim", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 3)", lambda L: L.movedim(W(_x(L, 2)), 0, 3)),
    Bad("narrow_start", IndexError, "start out of range (expected to be in range of [-3, 3], but got 5)", lambda L: L.narrow(W(_x(L, 3)), 0, 5, 1)),
    Bad("outer_list", TypeError, "outer(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.outer([1.0], [2.0])),
    Bad("masked_select_list", TypeError, "masked_select(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.masked_select([1.0], [True])),
    Bad("atan2_list", TypeError, "atan2(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.atan2([1.0], [2.0])),
    Bad("abs__list", TypeError, "abs_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.abs_([0.5])),
    Bad("acos__list", TypeError, "acos_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.acos_([0.5])),
    Bad("acosh__list", TypeError, "acosh_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.acosh_([0.5])),
    Bad("asin__list", TypeError, "asin_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.asin_([0.5])),
    Bad("asinh__list", TypeError, "asinh_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.asinh_([0.5])),
    Bad("atan__list", TypeError, "atan_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.atan_([0.5])),
    Bad("atanh__list", TypeError, "atanh_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.atanh_([0.5])),
    Bad("ceil__list", TypeError, "ceil_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.ceil_([0.5])),
    Bad("clamp__no_bounds", RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None", lambda L: L.clamp_(W(_x(L, 2)))),
    Bad("cos__list", TypeError, "cos_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.cos_([0.5])),
    Bad("cosh__list", TypeError, "cosh_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.cosh_([0.5])),
    Bad("exp__list", TypeError, "exp_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.exp_([0.5])),
    Bad("floor__list", TypeError, "floor_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.floor_([0.5])),
    Bad("log10__list", TypeError, "log10_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log10_([0.5])),
    Bad("log1p__list", TypeError, "log1p_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log1p_([0.5])),
    Bad("log2__list", TypeError, "log2_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log2_([0.5])),
    Bad("log__list", TypeError, "log_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.log_([0.5])),
    Bad("neg__list", TypeError, "neg_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.neg_([0.5])),
    Bad("reciprocal__list", TypeError, "reciprocal_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.reciprocal_([0.5])),
    Bad("relu__list", TypeError, "relu_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.relu_([0.5])),
    Bad("round__list", TypeError, "round_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.round_([0.5])),
    Bad("sigmoid__list", TypeError, "sigmoid_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sigmoid_([0.5])),
    Bad("sin__list", TypeError, "sin_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sin_([0.5])),
    Bad("sinh__list", TypeError, "sinh_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sinh_([0.5])),
    Bad("sqrt__list", TypeError, "sqrt_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.sqrt_([0.5])),
    Bad("square__list", TypeError, "square_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.square_([0.5])),
    Bad("tan__list", TypeError, "tan_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.tan_([0.5])),
    Bad("tanh__list", TypeError, "tanh_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.tanh_([0.5])),
    Bad("trunc__list", TypeError, "trunc_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.trunc_([0.5])),
    Bad("rsqrt__list", TypeError, "rsqrt_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.rsqrt_([0.5])),
    Bad("expm1__list", TypeError, "expm1_(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.expm1_([0.5])),
    Bad("unique_list", TypeError, "_unique2(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.unique([1])),
    Bad("gather_list", TypeError, "gather(): argument 'input' (position 1) must be Tensor, not list", lambda L: L.gather([1.0], 0, _t(L, 0))),
    Bad("scatter_out_of_bounds", RuntimeError, "index 5 is out of bounds for dimension 0 with size 2", lambda L: L.scatter(W(_x(L, 2)), 0, _t(L, 5), 1.0)),
    Bad("scatter_add_float_index", RuntimeError, "scatter(): Expected dtype int32/int64 for index", lambda L: L.scatter_add(W(_x(L, 3)), 0, _t(L, 0.0), W(_x(L, 1)))),
    Bad("scatter_reduce_bad_reduce", RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got foo", lambda L: L.scatter_reduce(W(_x(L, 3)), 0, _t(L, 0), W(_x(L, 1)), "foo")),
    Bad("index_select_float_index", RuntimeError, "index_select(): Expected dtype int32 or int64 for index", lambda L: L.index_select(W(_x(L, 3)), 0, _t(L, 0.0))),
    Bad("meshgrid_int", TypeError, "expected Tensor as element 0 in argument 0, but got int", lambda L: L.meshgrid(1, indexing="ij")),
    Bad("hstack_empty", RuntimeError, "hstack expects a non-empty TensorList", lambda L: L.hstack([])),
    Bad("vstack_empty", RuntimeError, "vstack expects a non-empty TensorList", lambda L: L.vstack([])),
    Bad("column_stack_empty", RuntimeError, "column_stack expects a non-empty TensorList", lambda L: L.column_stack([])),
    Bad("range_str", TypeError, "range(): argument 'start' (position 1) must be Number, not str", lambda L: L.range("a", 2)),
    Bad("is_tensor_no_argument", TypeError, "is_tensor() missing 1 required positional argument: 'obj'", lambda L: L.is_tensor()),
    Bad("finfo_int", TypeError, "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'", lambda L: L.finfo(L.int64)),
    Bad("iinfo_float", TypeError, "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'", lambda L: L.iinfo(L.float32)),
    Bad("get_rng_state_argument", TypeError, "get_rng_state() takes 0 positional arguments but 1 was given", lambda L: L.get_rng_state(1)),
    Bad("set_rng_state_list", TypeError, "expected a torch.ByteTensor, but got list", lambda L: L.set_rng_state([1])),
    Bad("initial_seed_argument", TypeError, "initial_seed() takes 0 positional arguments but 1 was given", lambda L: L.initial_seed(1)),
    # issue 24 (helper apin): the new losses, activations, lazy layers, padding, vectors,
    # distributions' neighbours in nn, optimizers, schedulers' neighbours and data samplers
    Bad("smooth_l1_beta", RuntimeError, "smooth_l1_loss does not support negative values for beta.", lambda L: _F(L).smooth_l1_loss(W(_x(L, 2)), W(_x(L, 2)), beta=-1.0)),
    Bad("smooth_l1_module_ints", NotImplementedError, "\"smooth_l1_cpu\" not implemented for 'Long'", lambda L: L.nn.SmoothL1Loss()(W(L.arange(2)), W(L.arange(2)))),
    Bad("huber_delta", RuntimeError, "huber_loss does not support non-positive values for delta.", lambda L: _F(L).huber_loss(W(_x(L, 2)), W(_x(L, 2)), delta=0.0)),
    Bad("huber_module_int_input", RuntimeError, "result type Float can't be cast to the desired output type Long", lambda L: L.nn.HuberLoss()(W(L.arange(2)), W(_x(L, 2)))),
    Bad("kl_div_reduction", ValueError, "avg is not a valid value for reduction", lambda L: _F(L).kl_div(W(_x(L, 2)), W(_x(L, 2)), reduction="avg")),
    Bad("kl_div_module_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0", lambda L: L.nn.KLDivLoss(reduction="sum")(W(_x(L, 2)), W(_x(L, 3)))),
    Bad("silu_ints", NotImplementedError, "\"silu_cpu\" not implemented for 'Long'", lambda L: _F(L).silu(W(L.arange(2)))),
    Bad("silu_module_ints", NotImplementedError, "\"silu_cpu\" not implemented for 'Long'", lambda L: L.nn.SiLU()(W(L.arange(2)))),
    Bad("elu_ints", NotImplementedError, "\"elu_cpu\" not implemented for 'Long'", lambda L: _F(L).elu(W(L.arange(2)))),
    Bad("elu_module_ints", NotImplementedError, "\"elu_cpu\" not implemented for 'Long'", lambda L: L.nn.ELU()(W(L.arange(2)))),
    Bad("selu_ints", NotImplementedError, "\"elu_cpu\" not implemented for 'Long'", lambda L: _F(L).selu(W(L.arange(2)))),
    Bad("selu_module_ints", NotImplementedError, "\"elu_cpu\" not implemented for 'Long'", lambda L: L.nn.SELU()(W(L.arange(2)))),
    Bad("celu_alpha", RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU", lambda L: _F(L).celu(W(_x(L, 2)), alpha=0.0)),
    Bad("celu_module_ints", NotImplementedError, "\"elu_cpu\" not implemented for 'Long'", lambda L: L.nn.CELU()(W(L.arange(2)))),
    Bad("softplus_ints", NotImplementedError, "\"softplus_cpu\" not implemented for 'Long'", lambda L: _F(L).softplus(W(L.arange(2)))),
    Bad("softplus_module_ints", NotImplementedError, "\"softplus_cpu\" not implemented for 'Long'", lambda L: L.nn.Softplus()(W(L.arange(2)))),
    Bad("hardtanh_bool", RuntimeError, "Bool inputs not supported for hardtanh", lambda L: _F(L).hardtanh(W(L.tensor([True])))),
    Bad("hardtanh_bounds", AssertionError, "max_val (1.0) must be greater than min_val (2.0)", lambda L: L.nn.Hardtanh(2.0, 1.0)),
    Bad("relu6_bool", RuntimeError, "Bool inputs not supported for hardtanh", lambda L: _F(L).relu6(W(L.tensor([True])))),
    Bad("relu6_module_bool", RuntimeError, "Bool inputs not supported for hardtanh", lambda L: L.nn.ReLU6()(W(L.tensor([True])))),
    Bad("logsigmoid_ints", NotImplementedError, "\"log_sigmoid_cpu\" not implemented for 'Long'", lambda L: _F(L).logsigmoid(W(L.arange(2)))),
    Bad("logsigmoid_module_ints", NotImplementedError, "\"log_sigmoid_cpu\" not implemented for 'Long'", lambda L: L.nn.LogSigmoid()(W(L.arange(2)))),
    Bad("mish_ints", NotImplementedError, "\"mish_cpu\" not implemented for 'Long'", lambda L: _F(L).mish(W(L.arange(2)))),
    Bad("mish_module_ints", NotImplementedError, "\"mish_cpu\" not implemented for 'Long'", lambda L: L.nn.Mish()(W(L.arange(2)))),
    Bad("hardswish_ints", NotImplementedError, "\"hardswish_cpu\" not implemented for 'Long'", lambda L: _F(L).hardswish(W(L.arange(2)))),
    Bad("hardswish_module_ints", NotImplementedError, "\"hardswish_cpu\" not implemented for 'Long'", lambda L: L.nn.Hardswish()(W(L.arange(2)))),
    Bad("hardsigmoid_ints", NotImplementedError, "\"hardsigmoid_cpu\" not implemented for 'Long'", lambda L: _F(L).hardsigmoid(W(L.arange(2)))),
    Bad("hardsigmoid_module_ints", NotImplementedError, "\"hardsigmoid_cpu\" not implemented for 'Long'", lambda L: L.nn.Hardsigmoid()(W(L.arange(2)))),
    Bad("softmin_dim", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 3)", lambda L: _F(L).softmin(W(_x(L, 2)), 3)),
    Bad("softmin_module_dim", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 3)", lambda L: L.nn.Softmin(3)(W(_x(L, 2)))),
    Bad("softsign_list", AttributeError, "'list' object has no attribute 'abs'", lambda L: _F(L).softsign([1.0])),
    Bad("softsign_module_list", AttributeError, "'list' object has no attribute 'abs'", lambda L: L.nn.Softsign()([1.0])),
    Bad("tanhshrink_list", AttributeError, "'list' object has no attribute 'tanh'", lambda L: _F(L).tanhshrink([1.0])),
    Bad("tanhshrink_module_list", AttributeError, "'list' object has no attribute 'tanh'", lambda L: L.nn.Tanhshrink()([1.0])),
    Bad("prelu_channels", RuntimeError, "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and channel size = 3.", lambda L: _F(L).prelu(W(_x(L, 2, 3)), W(_x(L, 2)))),
    Bad("prelu_module_channels", RuntimeError, "Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 2.", lambda L: W(L.nn.PReLU(3))(W(_x(L, 4, 2)))),
    Bad("pad_odd", RuntimeError, "Padding length must be divisible by 2", lambda L: _F(L).pad(W(_x(L, 2, 3)), (1,))),
    Bad("zero_pad1d_crop", RuntimeError, "narrow(): length must be non-negative.", lambda L: L.nn.ZeroPad1d(-2)(W(_x(L, 2, 3)))),
    Bad("zero_pad2d_too_long", RuntimeError, "Padding length should be less than or equal to two times the input dimension but got padding length 4 and input of dimension 1", lambda L: L.nn.ZeroPad2d(1)(W(_x(L, 3)))),
    Bad("constant_pad1d_crop", RuntimeError, "narrow(): length must be non-negative.", lambda L: L.nn.ConstantPad1d(-2, 1.0)(W(_x(L, 2, 3)))),
    Bad("constant_pad2d_too_long", RuntimeError, "Padding length should be less than or equal to two times the input dimension but got padding length 4 and input of dimension 1", lambda L: L.nn.ConstantPad2d(1, 0.5)(W(_x(L, 3)))),
    Bad("normalize_ints", RuntimeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long", lambda L: _F(L).normalize(W(L.arange(3)))),
    Bad("cosine_similarity_dim", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)", lambda L: _F(L).cosine_similarity(W(_x(L, 3)), W(_x(L, 3)))),
    Bad("cosine_similarity_module_dim", IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)", lambda L: L.nn.CosineSimilarity()(W(_x(L, 3)), W(_x(L, 3)))),
    Bad("pairwise_distance_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1", lambda L: _F(L).pairwise_distance(W(_x(L, 2, 3)), W(_x(L, 2, 2)))),
    Bad("pairwise_distance_module_shapes", RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1", lambda L: L.nn.PairwiseDistance()(W(_x(L, 2, 3)), W(_x(L, 2, 2)))),
    Bad("unflatten_size", RuntimeError, "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor", lambda L: L.nn.Unflatten(1, (2, 2))(W(_x(L, 2, 3)))),
    Bad("interpolate_no_size", ValueError, "either size or scale_factor should be defined", lambda L: _F(L).interpolate(W(_x(L, 1, 1, 2, 2)))),
    Bad("upsample_2d_input", NotImplementedError, "Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D)", lambda L: L.nn.Upsample(scale_factor=2)(W(_x(L, 2, 2)))),
    Bad("rnn_input_size", RuntimeError, "input.size(-1) must be equal to input_size. Expected 3, got 5", lambda L: W(L.nn.RNN(3, 2))(W(_x(L, 4, 2, 5)))),
    Bad("rnn_base_mode", ValueError, "Unrecognized RNN mode: CNN", lambda L: L.nn.RNNBase("CNN", 3, 2)),
    Bad("lstm_hidden_size", RuntimeError, "Expected hidden[0] size (1, 2, 2), got [1, 3, 2]", lambda L: W(L.nn.LSTM(3, 2))(W(_x(L, 4, 2, 3)), (W(_x(L, 1, 3, 2)), W(_x(L, 1, 2, 2))))),
    Bad("gru_4d_input", ValueError, "GRU: Expected input to be 2D or 3D, got 4D instead", lambda L: W(L.nn.GRU(3, 2))(W(_x(L, 1, 1, 1, 3)))),
    Bad("rnn_cell_3d_input", ValueError, "RNNCell: Expected input to be 1D or 2D, got 3D instead", lambda L: W(L.nn.RNNCell(3, 2))(W(_x(L, 1, 2, 3)))),
    Bad("rnn_cell_base_forward", NotImplementedError, 'Module [RNNCellBase] is missing the required "forward" function', lambda L: W(L.nn.RNNCellBase(3, 2, True, 1))(W(_x(L, 2, 3)))),
    Bad("lstm_cell_hidden1", RuntimeError, "hidden1 has inconsistent hidden_size: got 3, expected 2", lambda L: W(L.nn.LSTMCell(3, 2))(W(_x(L, 2, 3)), (W(_x(L, 2, 2)), W(_x(L, 2, 3))))),
    Bad("gru_cell_input_size", RuntimeError, "input has inconsistent input_size: got 4 expected 3", lambda L: W(L.nn.GRUCell(3, 2))(W(_x(L, 2, 4)))),
    Bad("group_norm_groups", ValueError, "num_channels (6) must be divisible by num_groups (4)", lambda L: L.nn.GroupNorm(4, 6)),
    Bad("group_norm_channels", RuntimeError, "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 5, 3] and num_groups=2", lambda L: _F(L).group_norm(W(_x(L, 2, 5, 3)), 2)),
    Bad("reflection_pad1d_too_wide", RuntimeError, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (3, 3) at dimension 1 of input [2, 3]", lambda L: L.nn.ReflectionPad1d(3)(W(_x(L, 2, 3)))),
    Bad("reflection_pad2d_1d_input", RuntimeError, "Padding length should be less than or equal to two times the input dimension but got padding length 4 and input of dimension 1", lambda L: L.nn.ReflectionPad2d(1)(W(_x(L, 3)))),
    Bad("reflection_pad3d_too_deep", RuntimeError, "Argument #8: Padding size should be less than the corresponding input dimension, but got: padding (2, 2) at dimension 1 of input [1, 2, 3, 3]", lambda L: L.nn.ReflectionPad3d(2)(W(_x(L, 1, 2, 3, 3)))),
    Bad("replication_pad1d_empty", RuntimeError, "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: [2, 0]", lambda L: L.nn.ReplicationPad1d(1)(W(_x(L, 2, 0)))),
    Bad("replication_pad2d_5d_input", NotImplementedError, "Padding size 4 is not supported for 5D input tensor.", lambda L: L.nn.ReplicationPad2d(1)(W(_x(L, 1, 1, 1, 2, 2)))),
    Bad("replication_pad3d_2d_input", NotImplementedError, "Padding size 6 is not supported for 3D input tensor.", lambda L: L.nn.ReplicationPad3d(1)(W(_x(L, 2, 2, 2)))),
    Bad("circular_pad1d_wraps_twice", RuntimeError, "Padding value causes wrapping around more than once.", lambda L: L.nn.CircularPad1d(4)(W(_x(L, 2, 3)))),
    Bad("circular_pad2d_dims", ValueError, "expected 3D or 4D input (got 2D input)", lambda L: L.nn.CircularPad2d(1)(W(_x(L, 2, 3)))),
    Bad("circular_pad3d_dims", ValueError, "expected 4D or 5D input (got 3D input)", lambda L: L.nn.CircularPad3d(1)(W(_x(L, 2, 3, 3)))),
    Bad("upsampling_nearest_both", ValueError, "only one of size or scale_factor should be defined", lambda L: L.nn.UpsamplingNearest2d(3, 2)(W(_x(L, 1, 1, 2, 2)))),
    Bad("parameter_list_index", IndexError, "index 2 is out of range", lambda L: L.nn.ParameterList([L.nn.Parameter(_x(L, 2))])[2]),
    Bad("parameter_dict_key", AttributeError, "'ParameterDict' object has no attribute 'b'", lambda L: L.nn.ParameterDict({"a": L.nn.Parameter(_x(L, 2))}).pop("b")),
    Bad("lazy_linear_scalar", IndexError, "tuple index out of range", lambda L: L.nn.LazyLinear(3)(W(L.tensor(2.0)))),
    Bad("lazy_conv1d_groups", ValueError, "in_channels must be divisible by groups", lambda L: L.nn.LazyConv1d(4, 3, groups=2)(W(_x(L, 1, 3, 5)))),
    Bad("lazy_conv2d_groups", ValueError, "in_channels must be divisible by groups", lambda L: L.nn.LazyConv2d(4, 3, groups=2)(W(_x(L, 1, 3, 5, 5)))),
    Bad("lazy_batchnorm1d_1d", IndexError, "tuple index out of range", lambda L: L.nn.LazyBatchNorm1d()(W(_x(L, 3)))),
    Bad("lazy_batchnorm2d_1d", IndexError, "tuple index out of range", lambda L: L.nn.LazyBatchNorm2d()(W(_x(L, 3)))),
    Bad("uninitialized_parameter_shape", RuntimeError, "Can't access the shape of an uninitialized parameter or buffer.", lambda L: L.nn.UninitializedParameter().shape),
    Bad("uninitialized_buffer_numel", ValueError, "Attempted to use an uninitialized parameter in <method 'numel' of 'torch._C.TensorBase' objects>.", lambda L: L.nn.UninitializedBuffer().numel()),
    Bad("rmsprop_alpha", ValueError, "Invalid alpha value: -0.1", lambda L: L.optim.RMSprop(W(_lin(L)).parameters(), alpha=-0.1)),
    Bad("adagrad_lr_decay", ValueError, "Invalid lr_decay value: -1", lambda L: L.optim.Adagrad(W(_lin(L)).parameters(), lr_decay=-1)),
    Bad("concat_dataset_empty", AssertionError, "datasets should not be an empty iterable", lambda L: _data(L).ConcatDataset([])),
    Bad("sequential_sampler_no_len", TypeError, "object of type 'int' has no len()", lambda L: list(_data(L).SequentialSampler(3))),
    Bad("random_sampler_num_samples", ValueError, "num_samples should be a positive integer value, but got num_samples=0", lambda L: _data(L).RandomSampler(_ds(L), num_samples=0)),
    Bad("subset_random_sampler_no_len", TypeError, "object of type 'int' has no len()", lambda L: list(_data(L).SubsetRandomSampler(3))),
    Bad("weighted_sampler_2d", ValueError, "weights should be a 1d sequence but given weights have shape (1, 1)", lambda L: _data(L).WeightedRandomSampler([[1.0]], 2)),
    Bad("batch_sampler_size", ValueError, "batch_size should be a positive integer value, but got batch_size=0", lambda L: _data(L).BatchSampler(range(3), 0, False)),
    Bad("sampler_base_iter", NotImplementedError, "", lambda L: iter(_data(L).Sampler())),
]
# fmt: on
