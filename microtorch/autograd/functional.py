"""``torch.autograd.functional``: Jacobians, Hessians and their products with a vector.

Each is a few calls of ``autograd.grad``, as in PyTorch, with PyTorch's arguments, results and
errors. Row ``j`` of a Jacobian is the gradient of output element ``j``; a Hessian is the
Jacobian of the gradient; ``jvp`` and ``hvp`` use the double-backward trick (the gradient is
linear in ``grad_outputs``, so differentiating it with respect to ``grad_outputs`` gives ``J v``).

Where microtorch differs: it has no forward-mode AD, so ``strategy="forward-mode"`` (and
``outer_jacobian_strategy="forward-mode"``) raise ``NotImplementedError`` once PyTorch's own
checks have passed; and ``vectorize=True`` computes the same values one row at a time instead
of with ``vmap``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch import autograd  # (the package, for autograd.grad: it imports this module)
from microtorch.autograd import node as _node
from microtorch.autograd.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_STRATEGIES = ("forward-mode", "reverse-mode")
_NO_FORWARD_AD = (
    "microtorch has no forward-mode AD: use strategy='reverse-mode' (the default), which "
    "gives the same Jacobian, or PyTorch"
)


# --- arguments in, results out ---------------------------------------------------------------
def _as_tuple(value: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Any, ...]]:
    """(was it a tuple?, the tensors as a tuple); PyTorch's TypeError for anything else."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for i, v in enumerate(values):
        if not isinstance(v, _node.Tensor):
            which = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                f"Tensors but the {which} has type {type(v)}."
            )
    return is_tuple, values


def _unpack(result: Any, was_tuple: bool | tuple[bool, bool]) -> Any:
    """Undo ``_as_tuple``: a single tensor where the caller gave (or got) a single tensor."""
    if isinstance(was_tuple, tuple):  # a Jacobian: outer tuple per output, inner per input
        outputs_were_tuple, inputs_were_tuple = was_tuple
        if not inputs_were_tuple:
            result = tuple(row[0] for row in result)
        return result if outputs_were_tuple else result[0]
    return result if was_tuple else result[0]


def _fresh(tensors: tuple[Any, ...], create_graph: bool, need_graph: bool) -> tuple[Any, ...]:
    # New tensor objects, so that the gradient is taken with respect to the arguments and not
    # to the same tensors captured by ``func`` (PyTorch issue 32576). With create_graph, a
    # view keeps the result connected to the caller's graph; else a detached leaf.
    return tuple(
        t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
        for t in tensors
    )


def _detached(results: tuple[Any, ...], create_graph: bool) -> tuple[Any, ...]:
    """Without create_graph, nothing handed back carries a graph."""
    if create_graph:
        return results
    return tuple(
        r.detach() if isinstance(r, _node.Tensor) else _detached(r, False) for r in results
    )


def _check_v(v: tuple[Any, ...], other: tuple[Any, ...], other_is_tuple: bool) -> None:
    """``v`` must have one tensor of the same size per tensor of ``other``."""
    if len(v) != len(other):
        if other_is_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (v_i, other_i) in enumerate(zip(v, other)):
        if v_i.size() != other_i.size():
            where = f"Entry {i} in " if other_is_tuple else ""
            raise RuntimeError(
                f"{where}v has invalid size: should be {other_i.size()} but got {v_i.size()}."
            )


def _v_or_default(
    v: Any, other: tuple[Any, ...], other_is_tuple: bool, fn_name: str, create_graph: bool
) -> tuple[Any, ...] | None:
    if v is None:
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _fresh(v, create_graph, need_graph=False)
    _check_v(v, other, other_is_tuple)
    return v


def _single_element(tensors: tuple[Any, ...], what: str) -> None:
    # v may be left out only where it can only be the single number 1
    if len(tensors) != 1 or tensors[0].nelement() != 1:
        raise RuntimeError(
            f"The vector v can only be None if {what} a single Tensor with a single element."
        )


# --- strict mode -----------------------------------------------------------------------------
_INDEPENDENT = {
    "outputs": (
        "Output {i} of the user-provided function does not require gradients. The outputs "
        "must be computed in a differentiable manner from the input when running in strict "
        "mode."
    ),
    "grad_inputs": (
        "The gradient with respect to input {i} is independent of the inputs of the "
        "user-provided function. This is not allowed in strict mode."
    ),
    "jacobian": (
        "While computing the hessian, found that the jacobian of the user-provided function "
        "with respect to input {i} is independent of the input. This is not allowed in strict "
        "mode. You should ensure that your function is twice differentiable and that the "
        "jacobian depends on the inputs (this would be violated by a linear function for "
        "example)."
    ),
    "hessian": (
        "The hessian of the user-provided function with respect to input {i} is independent "
        "of the input. This is not allowed in strict mode. You should ensure that your "
        "function is thrice differentiable and that the hessian depends on the inputs."
    ),
}


def _check_requires_grad(tensors: tuple[Any, ...], kind: str, strict: bool) -> None:
    """In strict mode, each of ``tensors`` must depend on the inputs."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:  # (only a gradient can be None)
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode."
            )
        if not t.requires_grad:
            raise RuntimeError(_INDEPENDENT[kind].format(i=i))


_NONE_IN_STRICT = {
    "back": (
        "The output of the user-provided function is independent of input {i}. This is not "
        "allowed in strict mode."
    ),
    "back_trick": (
        "The gradient with respect to the input is independent of entry {i} in the "
        "grad_outputs when using the double backward trick to compute forward mode "
        "gradients. This is not allowed in strict mode."
    ),
    "double_back": (
        "The jacobian of the user-provided function is independent of input {i}. This is not "
        "allowed in strict mode."
    ),
    "double_back_trick": (
        "The hessian of the user-provided function is independent of entry {i} in the "
        "grad_jacobian. This is not allowed in strict mode as it prevents from using the "
        "double backward trick to replace forward mode AD."
    ),
}


def _zeros_for_none(
    grads: tuple[Any, ...], like: tuple[Any, ...], strict: bool, create_graph: bool, stage: str
) -> tuple[Any, ...]:
    """A gradient that never arrived is zero (an error in strict mode)."""
    filled = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_NONE_IN_STRICT[stage].format(i=i))
            g = like[i].new_zeros(like[i].shape)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode when create_graph=True."
            )
        filled.append(g)
    return tuple(filled)


def _grad(
    outputs: tuple[Any, ...],
    inputs: tuple[Any, ...],
    grad_outputs: tuple[Any, ...] | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Any, ...]:
    """``autograd.grad`` over the outputs that require grad (None for every input if none do)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    used = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not used:
        return (None,) * len(inputs)
    return autograd.grad(
        [o for o, _ in used],
        inputs,
        [g for _, g in used],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


def _call(
    func: Callable[..., Any], inputs: tuple[Any, ...], fn_name: str, strict: bool
) -> tuple[bool, tuple[Any, ...]]:
    outputs_are_tuple, outputs = _as_tuple(
        func(*inputs), "outputs of the user-provided function", fn_name
    )
    _check_requires_grad(outputs, "outputs", strict)
    return outputs_are_tuple, outputs


def _scalar_output(outputs: tuple[Any, ...], outputs_are_tuple: bool, fn_name: str) -> None:
    if outputs_are_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single "
            "element"
        )


# --- the public functions --------------------------------------------------------------------
def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), v^T J)``: the vector-Jacobian product, one backward pass."""
    with enable_grad():
        inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_are_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _v_or_default(v, outputs, outputs_are_tuple, "vjp", create_graph)
        if v is None:
            _single_element(outputs, "the user-provided function returns")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "back")
    outputs, result = _detached(outputs, create_graph), _detached(result, create_graph)
    return _unpack(outputs, outputs_are_tuple), _unpack(result, inputs_are_tuple)


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick."""
    with enable_grad():
        inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _v_or_default(v, inputs, inputs_are_tuple, "jvp", create_graph)
        if v is None:
            _single_element(inputs, "the input to the user-provided function is")
        outputs_are_tuple, outputs = _call(func, inputs, "jvp", strict)
        # u^T J is linear in u, so its value at u = 0 does not matter: only its graph
        u = tuple(out.new_zeros(out.shape).requires_grad_() for out in outputs)
        u_J = _grad(outputs, inputs, u, create_graph=True)
        _check_requires_grad(u_J, "grad_inputs", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(u_J, u, v, create_graph=create_graph)
        result = _zeros_for_none(grads, outputs, strict, create_graph, "back_trick")
    outputs, result = _detached(outputs, create_graph), _detached(result, create_graph)
    return _unpack(outputs, outputs_are_tuple), _unpack(result, outputs_are_tuple)


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """d func(inputs) / d inputs: ``jacobian[i][j]`` has output i's shape, then input j's.

    One backward pass per output element (``vectorize=True`` gives the same values the same
    way: microtorch has no ``vmap``). ``strategy="forward-mode"`` raises NotImplementedError.
    With ``create_graph=True`` the result's ``grad_fn`` is ``ViewBackward0`` as in PyTorch; below
    it, the rows were written into place (``CopySlices``) where PyTorch stacks them
    (``StackBackward0``): autograd sits below ``torch.stack``. The derivatives are the same.
    """
    if strategy not in _STRATEGIES:
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        _forward_mode_checks(inputs, create_graph, strict, vectorize)
    with enable_grad():
        inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_are_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or `vectorize=False`."
            )
        if vectorize and sum(out.nelement() for out in outputs) == 0:  # (PyTorch's, from vmap)
            raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        for out in outputs:
            if out.nelement() == 0 and not vectorize:  # (PyTorch stacks no rows)
                raise RuntimeError("stack expects a non-empty TensorList")
        jac = tuple(
            _jacobian_of(i, out, inputs, create_graph, strict) for i, out in enumerate(outputs)
        )
    return _unpack(_detached(jac, create_graph), (outputs_are_tuple, inputs_are_tuple))


def _jacobian_of(
    i: int, out: Any, inputs: tuple[Any, ...], create_graph: bool, strict: bool
) -> tuple[Any, ...]:
    """Output ``i``'s Jacobian with respect to each input: row j is d out[j] / d input."""
    rows = [x.new_zeros((out.nelement(), *x.shape)) for x in inputs]
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, g in enumerate(grads):
            if g is None:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input "
                        f"{k}. This is not allowed in strict mode."
                    )
                continue  # (the row stays zero)
            if strict and create_graph and not g.requires_grad:
                raise RuntimeError(  # (PyTorch names the output's index here)
                    f"The jacobian of the user-provided function is independent of input {i}. "
                    "This is not allowed in strict mode when create_graph=True."
                )
            rows[k][j] = g
    return tuple(r.view(out.shape + x.shape) for r, x in zip(rows, inputs))


def _forward_mode_checks(inputs: Any, create_graph: bool, strict: bool, vectorize: bool) -> None:
    # PyTorch's refusals first, in its order; then microtorch's own: no forward-mode AD
    if create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`strict=False` or `strategy="reverse-mode"`.'
        )
    _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(  # (PyTorch's text, its missing space included)
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`."
        )
    raise NotImplementedError(_NO_FORWARD_AD)


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar function: the Jacobian of its gradient.

    ``hessian[i][j]`` has input i's shape, then input j's. ``outer_jacobian_strategy=
    "forward-mode"`` raises NotImplementedError (microtorch has no forward-mode AD).
    """
    inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in _STRATEGIES:
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*xs: Any) -> Any:
        outputs_are_tuple, outputs = _call(func, xs, "hessian", strict)
        _scalar_output(outputs, outputs_are_tuple, "hessian")
        return outputs[0].squeeze()

    def gradient(*xs: Any) -> Any:
        grad = jacobian(scalar_func, xs, create_graph=True)
        _check_requires_grad(grad, "jacobian", strict)
        return grad

    hess = jacobian(
        gradient,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _unpack(hess, (inputs_are_tuple, inputs_are_tuple))


def _hessian_setup(
    func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, strict: bool, fn_name: str
) -> tuple[bool, tuple[Any, ...], tuple[Any, ...] | None, tuple[Any, ...], tuple[Any, ...]]:
    # (inputs were a tuple?, inputs, v, outputs, the gradient with its graph); in grad mode
    inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _fresh(inputs, create_graph, need_graph=True)
    v = _v_or_default(v, inputs, inputs_are_tuple, fn_name, create_graph)
    if v is None:
        _single_element(inputs, "the input to the user-provided function is")
    outputs_are_tuple, outputs = _call(func, inputs, fn_name, strict)
    _scalar_output(outputs, outputs_are_tuple, fn_name)
    grad = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(grad, "jacobian", strict)
    return inputs_are_tuple, inputs, v, outputs, grad


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), v^T H)``: the gradient's own vector-Jacobian product."""
    with enable_grad():
        inputs_are_tuple, inputs, v, outputs, grad = _hessian_setup(
            func, inputs, v, create_graph, strict, "vhp"
        )
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(grad, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back")
    outputs, result = _detached(outputs, create_graph), _detached(result, create_graph)
    return outputs[0], _unpack(result, inputs_are_tuple)


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), H v)``, by the double-backward trick (for a twice continuously
    differentiable function H is symmetric, and ``vhp`` gives the same, faster)."""
    with enable_grad():
        inputs_are_tuple, inputs, v, outputs, grad = _hessian_setup(
            func, inputs, v, create_graph, strict, "hvp"
        )
        u = tuple(x.new_zeros(x.shape).requires_grad_() for x in inputs)
        u_H = _grad(grad, inputs, u, create_graph=True)
        _check_requires_grad(grad, "hessian", strict)  # (PyTorch checks grad, not u_H)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(u_H, u, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back_trick")
    outputs, result = _detached(outputs, create_graph), _detached(result, create_graph)
    return outputs[0], _unpack(result, inputs_are_tuple)
