"""``gradcheck`` and ``gradgradcheck``: compare autograd's gradients (and the gradients of
those gradients) with finite differences, in float64.

Where microtorch differs from PyTorch: it has no forward-mode AD, no ``vmap`` and no sparse
tensors, so ``check_forward_ad=True``, ``check_batched_grad=True``,
``check_batched_forward_grad=True``, ``check_fwd_over_rev=True`` and ``fast_mode=True`` raise
``NotImplementedError`` (after PyTorch's own argument checks), and ``masked`` changes nothing.
A gradient that never arrives is zeros in microtorch (there are no undefined gradients), so
``check_undefined_grad`` checks that zero ``grad_outputs`` give zero gradients.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from microtorch import autograd  # (the package, for autograd.grad: it imports this module)
from microtorch._warn import warn
from microtorch.autograd import node as _node
from microtorch.autograd.grad_mode import enable_grad, no_grad

__all__ = [
    "GradcheckError", "gradcheck", "gradgradcheck", "numerical_jacobian", "analytical_jacobian",
]  # fmt: skip


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when autograd's gradients differ from finite differences."""


def _outputs(fn: Callable[..., Any], inputs: Sequence[Any]) -> list[Any]:
    out = fn(*inputs)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def numerical_jacobian(
    fn: Callable[..., Any], inputs: Sequence[Any], eps: float = 1e-6
) -> list[np.ndarray]:
    """d(output)/d(input) by central differences, one input element at a time.

    Returns, for each input, an array of shape (input.numel(), output.numel()).
    """

    jac = []
    for x in inputs:
        if not (isinstance(x, _node.Tensor) and x.requires_grad):
            continue
        cols = []
        for i in np.ndindex(x.shape):  # each element in turn, in row-major order
            old = x._data[i]
            with no_grad():
                x._data[i] = old + eps
                plus = np.concatenate([o._data.ravel() for o in _outputs(fn, inputs)])
                x._data[i] = old - eps
                minus = np.concatenate([o._data.ravel() for o in _outputs(fn, inputs)])
            x._data[i] = old
            cols.append((plus - minus) / (2 * eps))
        jac.append(np.array(cols))
    return jac


def analytical_jacobian(inputs: Sequence[Any], output: Any) -> list[np.ndarray]:
    """d(output)/d(input) for each input, by one backward pass per output element.

    Returns, as ``numerical_jacobian``, arrays of shape (input.numel(), output.numel()).
    """
    return _analytical(inputs, output)[0]


def _analytical(inputs: Sequence[Any], output: Any) -> tuple[list[np.ndarray], bool, bool]:
    # (the Jacobians, do the gradients have the inputs' dtypes?, ... and sizes?)
    jac = [np.zeros((x._data.size, output._data.size), x._data.dtype) for x in inputs]
    types_ok = sizes_ok = True
    for j in range(output._data.size):
        seed = np.zeros(output._data.shape, output._data.dtype)
        seed.reshape(-1)[j] = 1  # column j: the gradient of output element j
        grads = autograd.grad(output, inputs, [seed], retain_graph=True, allow_unused=True)
        for x, g, jac_x in zip(inputs, grads, jac):
            if g is None:
                continue  # (the column stays zero)
            types_ok &= g._data.dtype == x._data.dtype
            sizes_ok &= g._data.size == x._data.size
            if g._data.size == x._data.size:
                jac_x[:, j] = np.ravel(g._data)
    return jac, types_ok, sizes_ok


def _checked_analytical(
    inputs: Sequence[Any], output: Any, nondet_tol: float, check_grad_dtypes: bool
) -> list[np.ndarray]:
    # Twice, as PyTorch: a backward that gives different values on a second run is an error.
    first, types_ok, sizes_ok = _analytical(inputs, output)
    second = _analytical(inputs, output)[0]
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if any(np.abs(a - b).max(initial=0.0) > nondet_tol for a, b in zip(first, second)):
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and "
            "grad_output multiple times gives different values, although analytical gradient "
            f"matches numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
        )
    return first


def _allclose(a: np.ndarray, n: np.ndarray, rtol: float, atol: float) -> bool:
    for name, tol in (("rtol", rtol), ("atol", atol)):
        if tol < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {tol:g}")
    return bool(np.allclose(a, n, rtol=rtol, atol=atol))


def _check_inputs(inputs: tuple[Any, ...]) -> list[Any]:
    """The inputs that require grad; PyTorch's warning and errors about the rest."""
    diff = []
    for k, x in enumerate(inputs):
        if not (isinstance(x, _node.Tensor) and x.requires_grad):
            continue
        if x._data.dtype != np.float64:
            warn(
                f"Input #{k} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. (Fix: use dtype=torch.float64.)",
            )
        if any(stride == 0 and size > 1 for stride, size in zip(x.stride(), x.shape)):
            raise RuntimeError(
                f"The {k}th input has a dimension with stride 0. gradcheck only supports "
                "inputs that are non-overlapping to be able to compute the numerical gradients "
                "correctly. You should call .contiguous on the input before passing it to "
                "gradcheck."
            )
        diff.append(x)
    if not diff:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )
    return diff


def _check_backward(
    func: Callable[..., Any],
    inputs: tuple[Any, ...],
    eps: float,
    atol: float,
    rtol: float,
    nondet_tol: float,
    check_grad_dtypes: bool,
    check_undefined_grad: bool,
) -> None:
    diff = _check_inputs(inputs)
    all_outputs = _outputs(func, inputs)
    numerical = numerical_jacobian(func, inputs, eps)  # per input: every output's columns
    ends = np.cumsum([o._data.size for o in all_outputs])[:-1]
    per_output = list(zip(*(np.split(n, ends, axis=1) for n in numerical)))
    outputs = [o for o in all_outputs if o.requires_grad]
    if not outputs:  # then nothing may depend on the inputs
        if any(np.any(n != 0) for n in numerical):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    numerical_of = [n for o, n in zip(all_outputs, per_output) if o.requires_grad]
    for i, (output, n_i) in enumerate(zip(outputs, numerical_of)):
        analytical = _checked_analytical(diff, output, nondet_tol, check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, n_i)):
            n = n.astype(output._data.dtype)
            if not _allclose(a, n, rtol, atol):
                as_tensor = _node.plain_tensor  # printed as PyTorch prints them
                raise GradcheckError(
                    f"Jacobian mismatch for output {i} with respect to input {j},\n"
                    f"numerical:{as_tensor(n)}\nanalytical:{as_tensor(a)}\n"
                )
    _check_zero_grad_output(outputs, diff)
    if check_undefined_grad:
        _check_undefined_grad(func, inputs, diff, len(outputs))


def _check_zero_grad_output(outputs: list[Any], inputs: list[Any]) -> None:
    """A zero ``grad_output`` must give zero gradients, of the inputs' dtypes and sizes."""
    zeros = [np.zeros(o._data.shape, o._data.dtype) for o in outputs]
    for g, x in zip(autograd.grad(outputs, inputs, zeros, allow_unused=True), inputs):
        if g is None:
            continue
        if np.any(g._data != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g._data.dtype != x._data.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


def _check_undefined_grad(
    func: Callable[..., Any], inputs: tuple[Any, ...], diff: list[Any], n_outputs: int
) -> None:
    # PyTorch's check with all output gradients undefined, then (for several outputs) one at a
    # time. An undefined gradient is zeros here, so each run is: fresh outputs, zero gradients.
    for _ in range(1 + n_outputs if n_outputs > 1 else 1):
        outputs = [o for o in _outputs(func, inputs) if o.requires_grad]
        zeros = [np.zeros(o._data.shape, o._data.dtype) for o in outputs]
        grads = autograd.grad(outputs, diff, zeros, allow_unused=True)
        if any(g is not None and np.any(g._data != 0) for g in grads):
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are "
                'undefined or zero. Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"'
            )


def _not_in_microtorch(**options: bool) -> None:
    for name, wanted in options.items():
        if wanted:
            raise NotImplementedError(
                f"microtorch's gradcheck has no {name}=True (microtorch has no forward-mode "
                "AD, vmap or fast mode): leave it at its default, which checks the whole "
                "Jacobian in reverse mode, or use PyTorch"
            )


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """True if autograd's gradients match finite differences for every input that requires
    grad. Use float64 inputs: in float32 the differences are too coarse to compare.

    Each output's Jacobian is compared with each input's, as in PyTorch; the backward pass also
    runs twice (its results must agree within ``nondet_tol``) and once with a zero
    ``grad_output`` (the gradients must be zero). The options that need forward-mode AD,
    vmap or fast mode raise NotImplementedError (see the module's docstring)."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True"
        )
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True"
        )
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True"
        )
    _not_in_microtorch(
        check_forward_ad=check_forward_ad,
        check_batched_grad=check_batched_grad,
        check_batched_forward_grad=check_batched_forward_grad,
        fast_mode=fast_mode,
    )
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    try:
        _check_backward(
            func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, check_undefined_grad
        )
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """``gradcheck`` of the gradients: the function checked is (inputs, grad_outputs) ->
    the gradients that ``autograd.grad(..., create_graph=True)`` gives.

    Without ``grad_outputs``, random ones in [-1, 1) are drawn, as PyTorch does; here from a
    generator of their own with a fixed seed (autograd sits below microtorch's random number
    generator), so the check is the same on every run and leaves ``manual_seed``'s sequence
    alone. They are contiguous even with ``gen_non_contig_grad_outputs=True``: the check is
    the same."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True"
        )
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True"
        )
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True"
        )
    _not_in_microtorch(
        check_fwd_over_rev=check_fwd_over_rev, check_batched_grad=check_batched_grad,
        fast_mode=fast_mode,
    )  # fmt: skip
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    if grad_outputs is None:
        outputs = [o for o in _outputs(func, inputs) if o.requires_grad]
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            _node.plain_tensor(rng.uniform(-1, 1, o.shape).astype(o._data.dtype)).requires_grad_()
            for o in outputs
        )
    grad_outputs = (
        tuple(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else (grad_outputs,)
    )
    n = len(grad_outputs)
    wanted = [isinstance(x, _node.Tensor) and x.requires_grad for x in inputs]

    def first_derivatives(*args: Any) -> tuple[Any, ...]:
        xs, u = args[:-n], args[-n:]
        with enable_grad():  # (gradcheck's finite differences run in no_grad mode)
            outputs = [o for o in _outputs(func, xs) if o.requires_grad]
            diff = [x for x, w in zip(xs, wanted) if w]
            grads = autograd.grad(outputs, diff, u, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivatives,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
    )
