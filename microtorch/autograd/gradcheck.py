"""``gradcheck``: compare autograd's gradients with finite differences, in float64."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from microtorch.autograd import node as _node
from microtorch.autograd.grad_mode import no_grad

__all__ = ["GradcheckError", "gradcheck", "numerical_jacobian", "analytical_jacobian"]


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
        flat = x._data.reshape(-1)  # a view: writing it changes x
        cols = []
        for i in range(flat.size):
            old = flat[i]
            with no_grad():
                flat[i] = old + eps
                plus = np.concatenate([o._data.ravel() for o in _outputs(fn, inputs)])
                flat[i] = old - eps
                minus = np.concatenate([o._data.ravel() for o in _outputs(fn, inputs)])
            flat[i] = old
            cols.append((plus - minus) / (2 * eps))
        jac.append(np.array(cols))
    return jac


def analytical_jacobian(fn: Callable[..., Any], inputs: Sequence[Any]) -> list[np.ndarray]:
    """d(output)/d(input) by running backward once per output element."""
    from microtorch.autograd import grad  # (the package imports this module)

    diff = [x for x in inputs if isinstance(x, _node.Tensor) and x.requires_grad]
    rows: list[list[np.ndarray]] = [[] for _ in diff]
    outs = _outputs(fn, inputs)
    for k, out in enumerate(outs):
        for j in range(out._data.size):
            seed = np.zeros(out._data.shape, out._data.dtype)
            seed.reshape(-1)[j] = 1
            grads = grad(out, diff, [seed], retain_graph=True, allow_unused=True)
            for i, x in enumerate(diff):
                g = grads[i]
                rows[i].append(
                    np.zeros(x._data.size) if g is None else np.ravel(g._data).astype(float)
                )
        del k
    return [np.array(r).T for r in rows]


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
) -> bool:
    """True if autograd's gradients match finite differences for every input that requires
    grad. Use float64 inputs: in float32 the differences are too coarse to compare."""
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    for k, x in enumerate(inputs):
        if isinstance(x, _node.Tensor) and x.requires_grad and x._data.dtype != np.float64:
            warnings.warn(
                f"Input #{k} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. (Fix: use dtype=torch.float64.)",
                UserWarning,
                stacklevel=2,
            )
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    for i, (n, a) in enumerate(zip(numerical, analytical)):
        if not np.allclose(a, n, atol=atol, rtol=rtol):
            if not raise_exception:
                return False
            as_tensor = _node.plain_tensor  # printed as PyTorch prints them
            raise GradcheckError(
                f"Jacobian mismatch for output 0 with respect to input {i},\n"
                f"numerical:{as_tensor(n)}\nanalytical:{as_tensor(a)}\n"
            )
    return True
