"""In-place ops (``x.add_(1)``, ``x[0] = 5``): version counters, leaf checks, graph rebasing.

The public functions: argument checks, dtypes and PyTorch's errors around the formulas
in ``microtorch/ops/inplace.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api._checks import views_first, written_number
from microtorch.autograd import grad_mode, views
from microtorch.autograd import node as _node
from microtorch.autograd.node import move_retain_grad
from microtorch.autograd.quiet import hush, unhush
from microtorch.autograd.saved import saved_in_place
from microtorch.autograd.versions import bump_version
from microtorch.autograd.views import OVERLAP_MESSAGE
from microtorch.dtypes import from_numpy_dtype
from microtorch.ops.inplace import Copy, Fill, FillTensor, Zero

__all__ = [
    "arith_inplace",
    "apply_inplace",
    "put_in_place",
    "int_key",
    "index_items",
    "zero",
    "fill",
    "copy",
]


def zero(a: Any) -> Any:
    """Zeros shaped like ``a`` (what ``a.zero_()`` writes)."""
    return Zero.apply(a)


def fill(a: Any, value: Any) -> Any:
    """``value`` everywhere, shaped like ``a`` (what ``a.fill_(value)`` writes)."""
    if isinstance(value, _node.Tensor):
        if value._data.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value._data.ndim} dimensions."
            )
        return FillTensor.apply(a, value)
    return Fill.apply(a, _filled_number(value, a._data))


def _filled_number(value: Any, target: np.ndarray) -> Any:
    # ``value`` as ``x.fill_(value)`` writes it into ``target`` (x's array): written_number's
    # rules, and PyTorch's error for a finite number beyond float16's range, but for a single
    # element (x of one element or 0-d: PyTorch then writes inf)
    if (
        target.dtype == np.float16
        and target.size != 1
        and isinstance(value, (int, float))
        and 65504 < abs(value) < float("inf")
    ):
        raise RuntimeError(
            "value cannot be converted to type c10::Half without overflow (Fix: float16 holds "
            "at most 65504; fill a float32 tensor, e.g. x = x.float())"
        )
    return written_number(value, target.dtype)


def copy(a: Any, src: Any) -> Any:
    """``src`` broadcast to ``a``'s shape and dtype (what ``a.copy_(src)`` writes)."""
    try:
        np.broadcast_to(np.empty(src._data.shape, bool), a._data.shape)
    except ValueError:
        raise RuntimeError(
            f"The size of tensor a ({a._data.shape[-1] if a._data.ndim else 1}) must match the "
            f"size of tensor b ({src._data.shape[-1] if src._data.ndim else 1}) at "
            f"non-singleton dimension {max(a._data.ndim - 1, 0)} (copy_ broadcasts the source "
            f"{list(src._data.shape)} to the destination {list(a._data.shape)})"
        ) from None
    return Copy.apply(a, src)


def arith_inplace(t: Any, name: str, op: Callable[..., Any], other: Any, alpha: Any = None) -> Any:
    """``t.add_(other, alpha=alpha)``, ``t.sub_``, ``t.mul_``, ``t.div_`` (``alpha`` None: the op
    takes none), as ``apply_inplace``. Short when nothing is recorded (``p -= lr * p.grad``
    under no_grad): the leaf rule checked once, one numpy ufunc into t's memory, the version."""
    if (
        not _recording(t, (other,))
        and _plain(t)
        and _ufunc_into(t, _UFUNCS[name], other, 1 if alpha is None else alpha, name == "sub_")
    ):
        return t
    if alpha is None:
        return apply_inplace(t, name, op, other)
    return apply_inplace(t, name, op, other, alpha=alpha)


def apply_inplace(t: Any, name: str, op: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``op(t, *args)`` and write the result into ``t``'s own memory; returns ``t``."""
    recording = _recording(t, args)
    if not recording and _plain(t):  # a counting loop, an optimizer step: straight into memory
        if name in _UFUNCS and _arith_in_place(t, name, args, kwargs):
            return t
        if name in _FILLS and _fill_in_place(t, args):
            return t
        if name == "index_put_" and put_in_place(t, *args):
            return t
    if name == "index_put_":
        if uint8_mask_with_a_number(*args):
            raise RuntimeError(
                "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
                "\n(Fix: index with a bool mask, mask.bool())"
            )
        args = (index_items(args[0]), args[1])  # (x[i] for a 0-d integer tensor i: x[int(i)])
        _value_viewed_first(t, *args)
    _check_allowed(t, name, recording, args if name == "index_put_" else None)
    places = written_places(t._data, name, args) if overlaps_itself(t._data) else None
    if name == "index_put_":
        _check_index_put_dtype(t, *args)
        _check_index_put_overlap(t, *args)
    else:
        _check_overlap(t._data, args)
    if not recording:
        if places is None and name in _UFUNCS and _arith_in_place(t, name, args, kwargs):
            return t
        with grad_mode.no_grad():
            out = op(t.detach(), *args, **kwargs)
        _write(t, out._data, name, places)
        return t
    # The op's backward may need the old values, which the write below overwrites: the op
    # runs on a copy that stands for them in the graph (same grad_fn as t).
    old = _node.op_result(t._data.copy(), t.grad_fn, t._output_nr, t._device)
    old._rg = t.requires_grad
    out = op(old, *args, **kwargs)
    _write(t, out._data, name, places)
    if t._base is None:
        before = t._grad_fn
        t._grad_fn, t._output_nr, t._rg = out._grad_fn, out._output_nr, True
        t._hooks = None  # hooks from now on go to the new grad_fn (the old ones stay with the
        move_retain_grad(t, before)  # old values), as PyTorch's
    else:  # written through a view: the base's graph is rewritten, as PyTorch does
        # (an expanded view written at an index of ints and slices: the places written)
        basic = name == "index_put_" and not _advanced_index(args[0])
        views.rebase(t, out._grad_fn, places if basic else None)
    saved_in_place(out._grad_fn, t)  # (after the rebase: a view's new grad_fn is known)
    return t


def _check_overlap(
    target: np.ndarray, operands: tuple[Any, ...], refused: tuple[str, ...] = ("partial",)
) -> None:
    # An operand that is another view of the memory being written (x[1:] += x[:-1]) would be
    # read where it was already overwritten. PyTorch refuses it when both are dense; when one
    # is not, its result depends on the order it writes the elements: microtorch refuses that.
    # (An operand is a tensor, or a tensor and the array of it the op reads.)
    for a in operands:
        a, data = a if isinstance(a, tuple) else (a, getattr(a, "_data", None))
        if isinstance(a, _node.Tensor) and _may_overlap(data, target):
            status = _overlap(data, target)
            if status == "too hard" and not _shares_memory(data, target):
                continue  # (x[:, 0].add_(x[:, 1]): apart, though neither is dense)
            if status in (*refused, "too hard"):  # (PyTorch's kernel refuses it, after its
                views_first(a)  # autograd layer looked at the operands)
            if status in refused:
                raise RuntimeError(
                    "unsupported operation: some elements of the input tensor and the written-to "
                    "tensor refer to a single memory location. Please clone() the tensor before "
                    "performing the operation."
                )
            if status == "too hard":
                raise RuntimeError(OVERLAP_ORDER_MESSAGE)


def _value_viewed_first(t: Any, index: Any, value: Any) -> None:
    # x[k] = v, v of another shape than the view x[k] (and not 0-d): PyTorch first views v
    # without its leading size-1 dimensions, which renews a stale view v or raises its error,
    # before its in-place checks of x[k]
    if not isinstance(value, _node.Tensor) or value._data.ndim == 0:
        return
    key = _numpy_key(index)
    if any(_advanced_item(i) for i in key):
        return
    try:
        shape = t._data[key].shape
    except (IndexError, TypeError, ValueError):  # (PyTorch's error for the index comes later)
        return
    if shape != value._data.shape:
        views_first(value)


def _check_index_put_dtype(t: Any, index: Any, value: Any) -> None:
    # x[idx] = v with an index of integers (PyTorch's index_put_) takes a v of x's dtype
    # only; under one bool mask (masked_fill_ or masked_scatter_), v is converted
    if not isinstance(value, _node.Tensor) or value._dtype is t._dtype:
        return
    advanced = [np.asarray(i) for i in _numpy_key(index) if _advanced_item(i)]
    if not advanced or all(i.dtype == np.bool_ for i in advanced) and len(advanced) == 1:
        return
    raise RuntimeError(
        f"Index put requires the source and destination dtypes match, got "
        f"{t._dtype._legacy[:-6]} for the destination and {value._dtype._legacy[:-6]} for the "
        f"source. (Fix: convert the value, e.g. v.to(x.dtype))"
    )


def _check_index_put_overlap(t: Any, index: Any, value: Any) -> None:
    # PyTorch's x[k] = v: the ints, slices, None and ... in k pick a view of x; a 0-d v fills
    # it (its value read first); else v, broadcast to the view's shape, is copied into it
    # (copy_, which refuses a v that partly overlaps the view: x[k] += 1 writes x[k] into
    # itself, which is fine) or, with an index tensor in k, put at the indexed places
    # (index_put_, which refuses a v sharing memory with the view, but for one number put
    # under one mask, which is masked_fill_ with that number).
    if not isinstance(value, _node.Tensor) or value._data.ndim == 0:
        return
    key = _numpy_key(index)
    if not any(_advanced_item(i) for i in key):
        written, data = t._data[key], value._data
        if data.shape != written.shape:  # (as PyTorch: v's leading size-1 dimensions dropped,
            data = _expanded(_drop_leading_ones(data), written.shape)  # then v expanded)
            if data is None:
                return  # (the write raises PyTorch's error for shapes that do not fit)
        if not _same_data(data, written):
            _check_overlap(written, ((value, data),))
        return
    masks = [i for i in key if _advanced_item(i)]
    if len(masks) == 1 and getattr(masks[0], "dtype", None) == np.bool_ and value._data.size == 1:
        return
    if any(type(i) is bool for i in key):
        written = t._data  # (x[True] = v: rare, the whole tensor stands for the view)
    else:  # each index array keeps the dimensions it indexes: the view has them whole
        full = (slice(None),)
        written = t._data[sum((full * np.ndim(i) if _advanced_item(i) else (i,) for i in key), ())]
    _check_overlap(written, (value,), refused=("partial", "full"))


def _expanded(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    # PyTorch's expand, strides and all: a dimension that grows gets stride 0, a new one of
    # size 1 the stride it would have in a row-major layout (numpy's broadcast_to gives 0)
    extra = len(shape) - a.ndim
    if extra < 0:
        return None
    strides: list[int] = []
    for i in reversed(range(len(shape))):
        d = i - extra
        if d >= 0:
            size, stride = a.shape[d], a.strides[d]
        else:  # (a new dimension)
            size, stride = 1, shape[i + 1] * strides[0] if strides else a.itemsize
        if size != shape[i]:
            if size != 1:
                return None
            stride = 0
        strides.insert(0, stride)
    return np.lib.stride_tricks.as_strided(a, shape, tuple(strides), writeable=False)


def _drop_leading_ones(a: np.ndarray) -> np.ndarray:
    size_one = next((d for d, n in enumerate(a.shape) if n != 1), a.ndim)
    return a.reshape(a.shape[size_one:])


def _may_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    # Two arrays that own their memory (neither is a view) are apart, unless they are one.
    if a.base is None and b.base is None:
        return a is b
    return bool(np.may_share_memory(a, b))


def _shares_memory(a: np.ndarray, b: np.ndarray) -> bool:
    # exactly, where numpy can tell without much work; else as if they did (numpy's stubs
    # know only max_work=-1 and 0, but any bound works)
    try:
        return bool(np.shares_memory(a, b, max_work=10_000))  # type: ignore[arg-type]
    except np.exceptions.TooHardError:
        return True


OVERLAP_ORDER_MESSAGE = (
    "microtorch does not run this in-place op: an operand shares memory with the written-to "
    "tensor, and one of them is not dense, so the result would depend on the order in which "
    "the elements are written (PyTorch runs it and gives that order's result). Please clone() "
    "the operand before performing the operation."
)


def _overlap(a: np.ndarray, b: np.ndarray) -> str:
    # PyTorch's get_overlap_status: "full" (the same elements), "partial", "no", or "too hard"
    # when one of them is not dense (then PyTorch does not check)
    if a.size == 0 or b.size == 0:
        return "no"
    if not (_dense(a) and _dense(b)):
        return "too hard"
    a_begin, b_begin = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    a_end, b_end = a_begin + a.nbytes, b_begin + b.nbytes
    if (a_begin, a_end) == (b_begin, b_end):
        return "full" if a.strides == b.strides else "partial"
    return "partial" if a_begin < b_end and b_begin < a_end else "no"


def _dense(a: np.ndarray) -> bool:
    # PyTorch's is_non_overlapping_and_dense: its elements fill one block of memory, each once
    expected = a.itemsize
    for size, stride in sorted(zip(a.shape, a.strides), key=lambda d: d[1]):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def _written_view(t: Any, name: str, index: Any) -> Any:
    # What PyTorch writes into for ``t[index] = v``: with ints and slices, the view t[index]
    # (its Select or Slice node is the one its error names); t itself for an index that picks
    # all of it (x[...], x[:]) and for an advanced one (index_put_); x[True]: x.unsqueeze(0).
    if name == "index_put_" and index is True:
        with grad_mode.enable_grad():
            return t.unsqueeze(0)
    if name != "index_put_" or _advanced_index(index) or _whole(t._data.shape, index):
        return t
    with grad_mode.enable_grad():
        return t[index]


def _check_allowed(t: Any, name: str, recording: bool, put: Any = None) -> None:
    # PyTorch's errors for in-place changes autograd could not follow (``put``: the index
    # and value of ``x[index] = value``).
    base = t._base
    index = None if put is None else put[0]
    if recording and base is not None and t._creation != "default":
        written = _written_view(t, name, index)  # x[1] = v writes into the view x[1]
        raise RuntimeError(views.rebase_message(written, indirect=False))
    if grad_mode.state.grad_enabled and t._rg and t.grad_fn is None and base is None:
        basic = put is not None and not _advanced_index(index)
        if basic:
            _view_and_value_checked(t, *put)
        view = basic and not _whole(t._data.shape, index) or put is not None and _bool_0d(index)
        raise RuntimeError(  # x[0] = v writes through a view (x[:] = v: into x itself)
            ("a view of " if view else "")
            + "a leaf Variable that requires grad is being used in an in-place operation. (Fix: "
            "to update weights, wrap the update in `with torch.no_grad():`; otherwise use an "
            f"out-of-place op, e.g. `x = x + 1` instead of `x.{name}(...)`.)"
        )
    if recording and base is not None and base.grad_fn is None and t.requires_grad:
        if put is not None and not _advanced_index(index):
            _view_and_value_checked(t, *put)  # (PyTorch's IndexError first, as above)
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place "
            "operation. (Fix: wrap it in `with torch.no_grad():`, or work on a .clone().)"
        )
    if t._inference and not grad_mode.state.inference:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details."
        )


def _view_and_value_checked(t: Any, index: Any, value: Any) -> None:
    # x[i] = v into a leaf that requires grad: PyTorch takes the view x[i] (its IndexError
    # for an impossible index) and expands v to it (its error for a v that does not fit)
    # before its rule for leaves
    with grad_mode.no_grad():
        view = t[index]
        if isinstance(value, _node.Tensor) and value._data.shape != view._data.shape:
            value.reshape(_drop_leading_ones(value._data).shape).expand(view._data.shape)


def _bool_0d(index: Any) -> bool:
    # x[True] = v, x[m] = v for a 0-d mask m: PyTorch writes through a view (x[None] or an
    # empty one)
    items = index if type(index) is tuple else (index,)
    return any(
        type(i) is bool
        or getattr(getattr(i, "_data", None), "shape", None) == ()
        and i._data.dtype == np.bool_
        for i in items
    )


def _whole(shape: tuple[int, ...], index: Any) -> bool:
    # Does the index (of ints, slices, None, ...) pick all of x, as x[:] and x[...]? PyTorch
    # then writes into x itself, not into a view of it.
    items = index if type(index) is tuple else (index,)
    others = [i for i in items if i is not Ellipsis]
    if len(others) > len(shape) or len(items) - len(others) > 1:
        return False
    before = next((k for k, i in enumerate(items) if i is Ellipsis), len(items))
    dims = [*range(before), *range(len(shape) - (len(others) - before), len(shape))]
    return all(
        type(i) is slice and i.indices(shape[d]) == (0, shape[d], 1) for i, d in zip(others, dims)
    )


_UFUNCS = {"add_": np.add, "sub_": np.subtract, "mul_": np.multiply, "div_": np.true_divide}
_FILLS = ("zero_", "fill_")
_NUMBERS = (int, float)  # exactly these types: bools and numpy scalars take the general path


def _needs_grad(t: Any) -> bool:
    # t.requires_grad, without renewing a view when neither it nor its base needs a gradient
    # (views.refresh then changes nothing)
    return (t._rg or t._base is not None and t._base._rg) and t.requires_grad


def _recording(t: Any, args: tuple[Any, ...]) -> bool:
    # Is the write recorded: grad mode is on and t needs a gradient (a leaf that requires grad
    # is refused), or t is a float tensor and a tensor operand needs one (an integer or bool
    # tensor never requires grad: a write into it records nothing)
    if not grad_mode.state.grad_enabled:
        return False
    if _needs_grad(t):
        return True
    if t._dtype.is_floating_point:
        for a in args:
            if isinstance(a, _node.Tensor) and _needs_grad(a):
                return True
    return False


def _plain(t: Any) -> bool:
    # No check of the general path can refuse a write into t, nothing being recorded (a leaf
    # that requires grad, with grad mode on, is recorded: see _recording): not an inference
    # tensor outside inference mode, not an expanded tensor (elements sharing one place)
    return not (t._inference and not grad_mode.state.inference) and not (
        0 in t._data.strides and overlaps_itself(t._data)  # (no stride 0: none)
    )


def _arith_in_place(t: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    # _ufunc_into for apply_inplace's callers: one operand, no keyword but alpha (div_(y,
    # rounding_mode="floor") is not a plain ufunc)
    if len(args) != 1 or len(kwargs) > 1 or kwargs and "alpha" not in kwargs:
        return False
    return _ufunc_into(t, _UFUNCS[name], args[0], kwargs.get("alpha", 1), name == "sub_")


def _ufunc_into(t: Any, ufunc: np.ufunc, other: Any, alpha: Any, sub: bool) -> bool:
    # The optimizer's fast path: ``ufunc(t, alpha * other)`` written straight into t's memory,
    # where numpy computes in the dtype PyTorch computes in: other is a tensor of t's dtype, a
    # float tensor of 1-d or more when t is float (float32 and float64 give float64 in both),
    # or a Python int or float (numpy converts it to t's dtype, as PyTorch). False for all else:
    # the general path then casts as PyTorch and raises its errors. It takes a 0-d or integer
    # operand of another dtype (PyTorch converts it to t's dtype first, numpy would promote:
    # float32 -= float64 0-d would round differently), a number with an alpha, bools and numpy
    # scalars, an operand that may share t's memory, and what numpy refuses here (a cast that
    # PyTorch refuses too, shapes that do not fit, a read-only array, an int out of range).
    if type(alpha) not in _NUMBERS:
        return False
    target = t._data
    if isinstance(other, _node.Tensor):
        data = other._data
        if other._dtype is not t._dtype and not (
            data.ndim and t._dtype.is_floating_point and other._dtype.is_floating_point
        ):
            return False
        if other._device is not t._device or sub and data.dtype.kind == "b":
            return False  # (PyTorch's errors: another device, - with a mask)
        apart = data.base is None and target.base is None and data is not target
        if not apart and _may_overlap(data, target):  # (the general path checks how they
            return False  # overlap; two arrays owning their memory are apart, see there)
        if alpha != 1:
            data = np.multiply(data, alpha)  # (in other's dtype, as Add's forward)
    elif type(other) in _NUMBERS and alpha == 1:
        data = other
    else:
        return False
    token = hush()  # inf - inf is nan, silently as in PyTorch
    try:
        ufunc(target, data, target)  # (into target; ufuncs cast "same_kind")
    except (TypeError, ValueError, OverflowError):  # (see above: nothing was written)
        return False
    finally:
        unhush(token)
    bump_version(t)
    return True


def _fill_in_place(t: Any, args: tuple[Any, ...]) -> bool:
    # x.zero_() and x.fill_(v) for a Python number v (``p.grad.zero_()``): written straight
    # into t's memory, v converted as fill() and Fill's forward do; a 0-d tensor v
    # (FillTensor) takes the general path
    if not args:  # zero_()
        value = 0
    elif type(args[0]) in (int, float, bool):
        value = _filled_number(args[0], t._data)
    else:
        return False
    token = hush()  # (1e6 into one float16 is inf, silently as in PyTorch)
    try:  # (fill reads each number _filled_number lets through as Fill's np.full_like does)
        t._data.fill(value)
    except ValueError:  # a read-only array: the general path says why
        return False
    finally:
        unhush(token)
    bump_version(t)
    return True


def put_in_place(t: Any, index: Any, value: Any) -> bool:
    """``t[i, j] = value`` for ints ``i, j`` and a number or a tensor of ``t``'s dtype and of the
    indexed part's shape, written straight into ``t``'s memory; False where the general path
    must run (any other index or value, and everything PyTorch refuses)."""
    key = int_key(index, t)
    if key is None:
        return False
    try:
        written = t._data[key]  # (a view, also of one element)
    except IndexError:  # (out of range: the general path raises PyTorch's error)
        return False
    if not written.flags.writeable:
        return False
    if isinstance(value, _node.Tensor):
        data = value._data
        if value._dtype is not t._dtype or value._device is not t._device:
            return False
        if data.shape != written.shape or value._rg:
            return False
        if data.base is written.base and _same_data(data, written):  # x[i] += v: x[i] written
            bump_version(t)  # into itself changes nothing (two views of one memory: one base)
            return True
        if np.may_share_memory(data, t._data):  # (the general path checks how they overlap)
            return False
    elif type(value) in (int, float):
        value = written_number(value, written.dtype)  # (PyTorch's error where it overflows)
    else:
        return False
    token = hush()  # (a float into float16 beyond its range is inf, silently as in PyTorch)
    try:
        written[...] = value
    finally:
        unhush(token)
    bump_version(t)
    return True


def index_items(index: Any) -> Any:
    """``index`` with each 0-d integer tensor read as the int it holds: it indexes as an int
    does, in PyTorch (a view, ``SelectBackward0``; written into, ``CopySlices``). A uint8
    tensor is a mask, as in PyTorch (deprecated there: it warns, from 1-d on)."""
    if isinstance(index, _node.Tensor):
        return _as_int(index)
    if isinstance(index, tuple) and any(isinstance(i, _node.Tensor) for i in index):
        return tuple(_as_int(i) if isinstance(i, _node.Tensor) else i for i in index)
    return index


_UINT8_MASK = (
    "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead."
)


def _as_int(t: Any) -> Any:
    if t._data.dtype == np.uint8:  # a mask: PyTorch's (deprecated) reading of uint8
        if t._data.ndim:
            warn(_UINT8_MASK)
        return _node.plain_tensor(t._data != 0, t._device, False)
    return int(t._data) if t._data.ndim == 0 and t._data.dtype.kind in "iu" else t


def uint8_mask_with_a_number(index: Any, value: Any) -> bool:
    """``x[mask] = 3.0`` (or a 0-d tensor) with a uint8 mask of 1-d or more: PyTorch refuses
    it (its masked_fill_ wants a bool mask)."""
    items = index if isinstance(index, tuple) else (index,)
    masks = [i for i in items if isinstance(i, _node.Tensor) and i._data.dtype == np.uint8]
    one_value = not isinstance(value, _node.Tensor) or value._data.ndim == 0
    return one_value and any(m._data.ndim for m in masks)


def int_key(index: Any, t: Any, slices: bool = False) -> tuple[Any, ...] | None:
    """numpy's key for the view ``t[index]`` when ``index`` is ints alone (with ``slices``,
    also slices of a positive step), no more than ``t`` has dimensions; a 0-d integer tensor
    is read as the int it holds, as PyTorch does. ``(i, j, ...)``: the ``...`` keeps a 0-d
    result a view. None for any other index."""
    items = index if type(index) is tuple else (index,)
    if len(items) > t._data.ndim:
        return None
    key = []
    for i in items:
        if type(i) is slice and slices:
            i = _int_slice(i)
        elif type(i) is not int:
            i = _int_of(i)
        if i is None:
            return None
        key.append(i)
    key.append(...)
    return tuple(key)


def _int_of(i: Any) -> int | None:
    # the int a 0-d integer tensor holds; None for anything else
    if not isinstance(i, _node.Tensor) or i._data.ndim or i._data.dtype.kind not in "iu":
        return None
    if i._data.dtype == np.uint8:  # (a mask, not an int: see _as_int)
        return None
    return int(i._data)


def _int_slice(s: slice) -> slice | None:
    # s with int bounds (0-d integer tensors read as ints), if its step is positive; else None
    bounds = []
    for b in (s.start, s.stop, s.step):
        if b is not None and type(b) is not int:
            b = _int_of(b)
            if b is None:
                return None
        bounds.append(b)
    start, stop, step = bounds
    if step is not None and step <= 0:
        return None
    return slice(start, stop, step)


def overlaps_itself(a: np.ndarray) -> bool:
    """Do several elements of ``a`` sit at one place in memory (an expanded tensor)?"""
    strides = a.strides
    if 0 not in strides or a.size == 0:  # (the usual case: every element has a place of its
        return False  # own; an empty tensor has none: numpy may give it strides of 0)
    return any(stride == 0 and size > 1 for size, stride in zip(a.shape, strides))


_DEPRECATED_ON_EXPANDED = (
    "Use of {} on expanded tensors is deprecated. Please clone() the tensor before performing "
    "this operation. This also applies to advanced indexing e.g. tensor[{}] = {}"
)


def written_places(target: np.ndarray, name: str, args: tuple[Any, ...]) -> np.ndarray:
    """Which elements of an expanded ``target`` the op writes, where PyTorch lets it: every
    one for ``fill_`` and ``zero_`` (one value), the indexed ones for ``x[i] = v`` when they
    are at distinct places, the masked ones for ``masked_fill_`` (deprecated, with PyTorch's
    warning); anything else raises PyTorch's error."""
    places = np.zeros(target.shape, bool)
    one_value = name == "zero_" or (name == "fill_" and not isinstance(args[0], _node.Tensor))
    if one_value or (name == "copy_" and _same_data(args[0], target)):  # x.copy_(x)
        places[...] = True
    elif name == "index_put_":
        key = _numpy_key(args[0])
        if not any(_advanced_item(i) for i in key):
            view = target[key]  # x[:] = v writes one place many times, unless v is the
            if overlaps_itself(view) and not _same_data(args[1], view):  # very same elements
                raise RuntimeError(OVERLAP_MESSAGE)  # (PyTorch's copy_ then changes nothing)
        else:
            _deprecated("index_put_", "indices", "tensor")
            mask = len(key) == 1 and getattr(key[0], "dtype", None) == np.bool_
            if mask and np.ndim(getattr(args[1], "_data", args[1])) == 0:  # PyTorch's x[m] = 1
                _deprecated("masked_fill_", "mask", "scalar")
        places[key] = True
    elif name == "masked_fill_":
        _deprecated("masked_fill_", "mask", "scalar")
        places[np.broadcast_to(args[0]._data, target.shape)] = True
    else:
        views_first(*[a for a in args if isinstance(a, _node.Tensor)])  # (PyTorch's order)
        raise RuntimeError(OVERLAP_MESSAGE)
    return places


def _same_data(src: Any, target: np.ndarray) -> bool:
    # the very elements of target, in the same places and strides (PyTorch's copy_ then
    # changes nothing); a stride 0 of a size-1 dimension stands for any: numpy's broadcast_to
    # (expand) sets it to 0 where PyTorch's expand keeps the stride the input had
    data = getattr(src, "_data", src)
    return isinstance(data, np.ndarray) and (
        (data.shape, data.dtype) == (target.shape, target.dtype)
        and (
            data.strides == target.strides
            or all(
                a == b or n == 1 and 0 in (a, b)
                for a, b, n in zip(data.strides, target.strides, data.shape)
            )
        )
        and _same_start(data, target)
    )


def _same_start(a: np.ndarray, b: np.ndarray) -> bool:
    """Do ``a`` and ``b``, of one dtype, start at the same element in memory?"""
    if a.size and a.flags.aligned and b.flags.aligned:  # (each dtype's alignment is its
        first = (0,) * a.ndim + (...,)  # size, so aligned first elements that overlap at all
        return np.may_share_memory(a[first], b[first])  # are one; cheaper than addresses)
    return bool(a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _deprecated(op: str, index: str, value: str) -> None:
    text = _DEPRECATED_ON_EXPANDED.format(op, index, value)
    warn(text)  # (at the line of yours that wrote)


def _numpy_key(index: Any) -> tuple[Any, ...]:
    # x[k]'s index as numpy reads it: a tuple, with each index tensor's array
    items = index if isinstance(index, tuple) else (index,)
    return tuple(i._data if isinstance(i, _node.Tensor) else i for i in items)


def _advanced_index(index: Any) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(_advanced_item(getattr(i, "_data", i)) for i in items)


def _advanced_item(item: Any) -> bool:
    # an index array (or a list of them) rather than an int, a slice, None or ...
    return isinstance(item, (list, np.ndarray)) or type(item) is bool


def _write(t: Any, data: np.ndarray, name: str, places: np.ndarray | None = None) -> None:
    target = t._data
    if data.shape != target.shape:
        raise RuntimeError(
            f"output with shape {list(target.shape)} doesn't match the broadcast shape "
            f"{list(data.shape)} (in {name}: an in-place op cannot change the tensor's shape)"
        )
    if not np.can_cast(data.dtype, target.dtype, casting="same_kind"):
        # (clamp_'s message names the C++ type: "desired output type long int")
        written = _CPP_NAMES[target.dtype.name] if name == "clamp_" else _legacy(target.dtype)
        raise RuntimeError(
            f"result type {_legacy(data.dtype)} can't be cast to the desired output type "
            f"{written} (in {name}: convert first, e.g. x = x.float())"
        )
    if not target.flags.writeable:
        raise RuntimeError(OVERLAP_MESSAGE)
    # (an expanded target: only the places the op writes, each written once; see above)
    np.copyto(target, data, casting="unsafe", where=True if places is None else places)
    bump_version(t)


_CPP_NAMES = {
    "bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
    "int32": "int", "int64": "long int", "float16": "c10::Half", "float32": "float",
    "float64": "double",
}  # fmt: skip


def _legacy(np_dtype: np.dtype) -> str:

    return from_numpy_dtype(np_dtype)._legacy[: -len("Tensor")]
