"""Checks for tests and notebook check cells: ``assert_close`` and ``check_function``.

``assert_close`` compares values as ``torch.testing.assert_close`` does, with tolerances chosen
by dtype. ``check_function`` checks every gradient autograd computes for a function against
finite differences, and says in plain words which input and which element is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from microtorch.autograd import backward
from microtorch.autograd.grad_mode import no_grad
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["assert_close", "check_function"]

# torch.testing.assert_close's defaults: (rtol, atol) by dtype; integers and bools are exact.
_TOLERANCES = {
    np.dtype(np.float16): (1e-3, 1e-5),
    np.dtype(np.float32): (1.3e-6, 1e-5),
    np.dtype(np.float64): (1e-7, 1e-7),
}


def _values(x: Any) -> np.ndarray:
    return x._data if isinstance(x, Tensor) else np.asarray(x)


def _index(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()


def assert_close(
    actual: Any,
    expected: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    msg: str | Callable[[str], str] | None = None,
) -> None:
    """Raise AssertionError unless ``|actual - expected| <= atol + rtol * |expected|`` everywhere.

    Tensors must also agree in shape and, when both are Tensors, in dtype and device. The
    default tolerances depend on the dtype, as in PyTorch (float32: rtol 1.3e-6, atol 1e-5;
    float64: 1e-7 and 1e-7; integers and bools must be equal).

    >>> import microtorch as torch
    >>> from microtorch.testing import assert_close
    >>> assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.000001]))
    >>> assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
    Traceback (most recent call last):
      ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 3 (33.3%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.2 at index (1,) (up to 1.3e-06 allowed)
    """
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}."
        )
    scalars = not isinstance(actual, (Tensor, np.ndarray, list, tuple))
    a, e = _values(actual), _values(expected)
    problem = _metadata_problem(actual, expected, a, e)
    if problem is None:
        if rtol is None or atol is None:
            rtol, atol = _TOLERANCES.get(np.result_type(a, e), (0.0, 0.0))
        problem = _value_problem(a, e, rtol, atol, equal_nan, scalars)
    if problem is None:
        return
    if callable(msg):
        problem = msg(problem)
    elif msg is not None:
        problem = msg
    raise AssertionError(problem)


def _metadata_problem(actual: Any, expected: Any, a: np.ndarray, e: np.ndarray) -> str | None:
    if a.shape != e.shape:
        return (
            f"The values for attribute 'shape' do not match: microtorch.Size({list(a.shape)}) != "
            f"microtorch.Size({list(e.shape)})."
        )
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        if actual.dtype is not expected.dtype:
            return (
                f"The values for attribute 'dtype' do not match: {actual.dtype} != "
                f"{expected.dtype}."
            )
        if actual.device != expected.device:
            return (
                f"The values for attribute 'device' do not match: {actual.device} != "
                f"{expected.device}."
            )
    return None


def _value_problem(
    a: np.ndarray, e: np.ndarray, rtol: float, atol: float, equal_nan: bool, scalars: bool
) -> str | None:
    exact = rtol == 0 and atol == 0 and a.dtype.kind in "biu" and e.dtype.kind in "biu"
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(a64 - e64)
        rel = diff / np.abs(e64)
        ok = diff <= atol + rtol * np.abs(e64)
    ok |= a64 == e64  # equal infinities are close
    if equal_nan:
        ok |= np.isnan(a64) & np.isnan(e64)
    if ok.all():
        return None
    # nan counts as the largest difference, so a nan in the result is always the one named
    diff_key = np.where(ok, -np.inf, np.nan_to_num(diff, nan=np.inf))
    rel_key = np.where(ok, -np.inf, np.nan_to_num(rel, nan=np.inf, posinf=np.finfo(float).max))
    i_abs, i_rel = int(np.argmax(diff_key)), int(np.argmax(rel_key))
    d_abs, d_rel = diff.reshape(-1)[i_abs], rel.reshape(-1)[i_rel]
    abs_text = str(int(d_abs)) if exact else str(d_abs)
    close = "equal" if exact else "close"
    abs_allowed = "" if exact else f" (up to {atol} allowed)"
    rel_allowed = "" if exact else f" (up to {rtol} allowed)"
    if scalars:
        return (
            f"Scalars are not {close}!\n\nExpected {e.item()} but got {a.item()}.\n"
            f"Absolute difference: {abs_text}{abs_allowed}\n"
            f"Relative difference: {d_rel}{rel_allowed}"
        )
    bad = int((~ok).sum())
    return (
        f"Tensor-likes are not {close}!\n\n"
        f"Mismatched elements: {bad} / {a.size} ({100 * bad / a.size:.1f}%)\n"
        f"Greatest absolute difference: {abs_text} at index {_index(i_abs, a.shape)}"
        f"{abs_allowed}\n"
        f"Greatest relative difference: {d_rel} at index {_index(i_rel, a.shape)}{rel_allowed}"
    )


def _outputs(result: Any) -> list[Tensor]:
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError(
                f"check_function: the function must return a Tensor (or a tuple of Tensors), "
                f"but it returned {type(o).__name__}"
            )
    return outs


def _loss(fn: Callable[..., Any], arrays: Sequence[np.ndarray], grads: list[np.ndarray]) -> float:
    # sum(grad_output * output): its derivative is exactly what backward computes.
    with no_grad():
        outs = _outputs(fn(*(plain_tensor(x) for x in arrays)))
    return sum(float((g * o._data).sum()) for g, o in zip(grads, outs))


def check_function(
    fn: Callable[..., Any],
    *inputs: Any,
    grad_output: Any = None,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
) -> None:
    """Check autograd's gradient of ``fn`` for every input against finite differences.

    Each input (a Tensor, array, list or number) becomes a float64 leaf with
    ``requires_grad=True``. The output is backpropagated with ``grad_output`` (default: seeded
    random numbers, so a wrong sum or a wrong transpose cannot hide behind all-ones), and each
    element of each input's ``.grad`` is compared with the central difference
    ``(L(x + eps) - L(x - eps)) / (2 * eps)`` of ``L = sum(grad_output * fn(...))``.

    >>> import microtorch as torch
    >>> from microtorch.testing import check_function
    >>> check_function(lambda a, b: (a * b).sum(dim=0), [[1.0, 2.0], [3.0, 4.0]], [0.5, -1.0])
    >>> check_function(lambda x: x.detach() * x, [1.0, 2.0])  # the x.detach() hides a term
    Traceback (most recent call last):
      ...
    AssertionError: check_function: the gradient of input 0 (shape [2]) is wrong at index (1,):
    autograd computed -0.264, finite differences give -0.528 (difference 0.264; allowed 0.000538).
    2 of 2 elements of this input are wrong.
    """
    leaves = [plain_tensor(np.array(_values(x), dtype=np.float64)).requires_grad_() for x in inputs]
    outs = _outputs(fn(*leaves))
    if grad_output is None:
        rng = np.random.default_rng(0)
        grads = [rng.standard_normal(o._data.shape) for o in outs]
    else:
        given = (
            grad_output
            if isinstance(grad_output, (tuple, list)) and len(outs) > 1
            else [grad_output]
        )
        grads = [np.array(_values(g), dtype=np.float64) for g in given]
    with_graph = [(o, g) for o, g in zip(outs, grads) if o.requires_grad]
    if with_graph:
        backward(
            [o for o, _ in with_graph],
            [plain_tensor(np.asarray(g, o._data.dtype)) for o, g in with_graph],
        )
    arrays = [leaf._data.copy() for leaf in leaves]
    for k, leaf in enumerate(leaves):
        got = np.zeros_like(arrays[k]) if leaf._grad is None else leaf._grad._data
        want = np.empty_like(arrays[k])
        flat = arrays[k].reshape(-1)
        for i in range(flat.size):
            old = flat[i]
            flat[i] = old + eps
            plus = _loss(fn, arrays, grads)
            flat[i] = old - eps
            minus = _loss(fn, arrays, grads)
            flat[i] = old
            want.reshape(-1)[i] = (plus - minus) / (2 * eps)
        _report(k, leaf, got, want, atol, rtol)


def _report(
    k: int, leaf: Tensor, got: np.ndarray, want: np.ndarray, atol: float, rtol: float
) -> None:
    allowed = atol + rtol * np.abs(want)
    with np.errstate(invalid="ignore"):
        wrong = ~(np.abs(got - want) <= allowed)
    if not wrong.any():
        return
    if leaf._grad is None:
        raise AssertionError(
            f"check_function: input {k} (shape {list(leaf.shape)}) received no gradient (its "
            f".grad is None), but finite differences say the output depends on it. Is the "
            "graph cut somewhere, e.g. by .detach(), .data or torch.no_grad()?"
        )
    i = int(np.argmax(np.where(wrong, np.abs(got - want), -1).reshape(-1)))
    g, w, a = got.reshape(-1)[i], want.reshape(-1)[i], allowed.reshape(-1)[i]
    raise AssertionError(
        f"check_function: the gradient of input {k} (shape {list(leaf.shape)}) is wrong at "
        f"index {_index(i, got.shape)}:\nautograd computed {g:.3g}, finite differences give "
        f"{w:.3g} (difference {abs(g - w):.3g}; allowed {a:.3g}).\n"
        f"{int(wrong.sum())} of {wrong.size} elements of this input are wrong."
    )
