"""torch.autograd.functional against PyTorch 2.13, in float64: jacobian, hessian, vjp, jvp, hvp,
vhp on functions of one and several inputs, tensor and tuple forms, create_graph on and off,
strict mode's errors, and the arguments microtorch refuses (forward mode)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.autograd.functional

Program = Callable[[ModuleType], Any]


def _summary(result: Any) -> Any:
    """What a caller sees of a result: nesting, and per tensor its values, shape, dtype,
    requires_grad and grad_fn name."""
    if isinstance(result, (tuple, list)):
        return (type(result).__name__, [_summary(r) for r in result])
    if result is None:
        return None
    grad_fn = None if result.grad_fn is None else type(result.grad_fn).__name__
    return (
        np.asarray(result.detach().tolist(), dtype=float),
        tuple(result.shape),
        str(result.dtype).split(".")[-1],
        result.requires_grad,
        grad_fn,
    )


def _assert_same(ours: Any, theirs: Any, where: str = "result") -> None:
    if isinstance(theirs, tuple) and isinstance(theirs[0], str):  # a tuple or list
        assert isinstance(ours, tuple) and ours[0] == theirs[0], (where, ours, theirs)
        assert len(ours[1]) == len(theirs[1]), where
        for k, (o, t) in enumerate(zip(ours[1], theirs[1])):
            _assert_same(o, t, f"{where}[{k}]")
        return
    if theirs is None:
        assert ours is None, where
        return
    assert ours[1:] == theirs[1:], (where, ours[1:], theirs[1:])
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12, atol=1e-14, err_msg=where)


def _compare(program: Program, torch_module: ModuleType) -> None:
    theirs = _summary(program(torch_module))
    ours = _summary(program(microtorch))
    _assert_same(ours, theirs)


def _error(program: Program, torch_module: ModuleType) -> tuple[type, str]:
    """The error class and first line both raise, checked to be the same."""
    seen = []
    for lib in (torch_module, microtorch):
        with pytest.raises(Exception) as info:
            program(lib)
        first = str(info.value).splitlines()[0] if str(info.value) else ""
        seen.append((type(info.value).__name__, first.replace("microtorch.", "torch.")))
    assert seen[0] == seen[1]
    return seen[0]


def _x(t: ModuleType, *shape: int, start: float = 0.3) -> Any:
    n = int(np.prod(shape)) if shape else 1
    values = np.linspace(start, start + 1.7, n).reshape(shape)  # distinct, away from 0
    return t.tensor(values.tolist(), dtype=t.float64)


# --- functions of one and several inputs, tensor and tuple outputs ---------------------------
def _one_in_one_out(t: ModuleType) -> tuple[Callable[..., Any], Any]:
    return (lambda x: (x.exp() * x).sum(dim=-1)), _x(t, 2, 3)


def _one_in_tuple_out(t: ModuleType) -> tuple[Callable[..., Any], Any]:
    return (lambda x: (x.tanh(), (x * x).sum())), _x(t, 3)


def _tuple_in_one_out(t: ModuleType) -> tuple[Callable[..., Any], Any]:
    return (lambda x, y: x.matmul(y).sin()), (_x(t, 2, 3), _x(t, 3, start=-0.4))


def _tuple_in_tuple_out(t: ModuleType) -> tuple[Callable[..., Any], Any]:
    def f(x: Any, y: Any) -> Any:
        return x * y, (x.exp() + y).sum(), x.sigmoid()

    return f, (_x(t, 2), _x(t, 2, start=-1.0))


def _scalar_in_matrix_out(t: ModuleType) -> tuple[Callable[..., Any], Any]:
    return (lambda s: s * _x(t, 2, 2) + s * s), _x(t)


def _unused_input(t: ModuleType) -> tuple[Callable[..., Any], Any]:
    return (lambda x, y: (x * x).sum(dim=0)), (_x(t, 2, 2), _x(t, 3))


FUNCTIONS = {
    "one_in_one_out": _one_in_one_out,
    "one_in_tuple_out": _one_in_tuple_out,
    "tuple_in_one_out": _tuple_in_one_out,
    "tuple_in_tuple_out": _tuple_in_tuple_out,
    "scalar_in_matrix_out": _scalar_in_matrix_out,
    "unused_input": _unused_input,
}


def _requiring(t: ModuleType, inputs: Any) -> Any:
    if isinstance(inputs, tuple):
        return tuple(x.requires_grad_() for x in inputs)
    return inputs.requires_grad_()


@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_jacobian_values_shapes_and_nesting(name: str, vectorize: bool, torch_module) -> None:
    def program(t: ModuleType) -> Any:
        func, inputs = FUNCTIONS[name](t)
        return t.autograd.functional.jacobian(func, inputs, vectorize=vectorize)

    _compare(program, torch_module)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_jacobian_of_inputs_that_require_grad_is_detached(name: str, torch_module) -> None:
    def program(t: ModuleType) -> Any:
        func, inputs = FUNCTIONS[name](t)
        inputs = _requiring(t, inputs)
        jac = t.autograd.functional.jacobian(func, inputs)
        return jac, inputs  # the inputs keep their requires_grad and get no .grad

    _compare(program, torch_module)


def test_jacobian_shapes_for_several_output_and_input_shapes(torch_module) -> None:
    shapes = [(), (3,), (2, 3), (2, 1, 2)]
    for out_shape in shapes:
        for in_shape in shapes:

            def program(t: ModuleType, out_shape=out_shape, in_shape=in_shape) -> Any:
                w = _x(t, *out_shape, start=-0.5)
                x = _x(t, *in_shape)
                return t.autograd.functional.jacobian(lambda x: w * (x * x).sum(), x)

            _compare(program, torch_module)


def test_jacobians_with_no_rows(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x = _x(t, 2)
        return (
            t.autograd.functional.jacobian(lambda x: (x[:0], x * 2), x, vectorize=True),
            t.autograd.functional.jacobian(lambda x: x.sum(), x[:0]),
        )

    _compare(program, torch_module)


def test_jacobian_checks_match_finite_differences() -> None:
    x = microtorch.tensor([[0.3, -1.2], [0.8, 2.0]], dtype=microtorch.float64)
    f = lambda x: (x.sin() * x.sum()).exp()  # noqa: E731
    jac = microtorch.autograd.functional.jacobian(f, x).numpy().reshape(4, 4)
    eps, base, numerical = 1e-6, x.numpy().ravel(), np.zeros((4, 4))
    for k in range(4):
        plus, minus = base.copy(), base.copy()
        plus[k] += eps
        minus[k] -= eps
        as_t = lambda a: microtorch.tensor(a.reshape(2, 2).tolist(), dtype=microtorch.float64)  # noqa: E731
        numerical[:, k] = (f(as_t(plus)).numpy() - f(as_t(minus)).numpy()).ravel() / (2 * eps)
    np.testing.assert_allclose(jac, numerical, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_vjp_with_a_vector_of_the_outputs_shape(name: str, torch_module) -> None:
    def program(t: ModuleType) -> Any:
        func, inputs = FUNCTIONS[name](t)
        outputs = func(*inputs) if isinstance(inputs, tuple) else func(inputs)
        if isinstance(outputs, tuple):
            v = tuple(_x(t, *o.shape, start=-0.7) for o in outputs)
        else:
            v = _x(t, *outputs.shape, start=-0.7)
        return t.autograd.functional.vjp(func, _requiring(t, inputs), v)

    _compare(program, torch_module)


def test_vjp_of_a_scalar_function_needs_no_v(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x, y = _x(t, 3), _x(t, 2, 3)
        return (
            t.autograd.functional.vjp(lambda x: (x * x).sum(), x),
            t.autograd.functional.vjp(lambda x, y: (x * y).mean(), (x, y)),
        )

    _compare(program, torch_module)


# --- argument errors -------------------------------------------------------------------------
def _vjp(t: ModuleType, func: Callable[..., Any], inputs: Any, v: Any = None, **kw: Any) -> Any:
    return t.autograd.functional.vjp(func, inputs, v, **kw)


ARGUMENT_ERRORS: dict[str, Program] = {
    "inputs_list": lambda t: t.autograd.functional.jacobian(lambda x: x, [_x(t, 2)]),
    "inputs_number": lambda t: t.autograd.functional.vjp(lambda x, y: x, (_x(t, 2), 3.0)),
    "output_number": lambda t: t.autograd.functional.jacobian(lambda x: 3.0, _x(t, 2)),
    "v_missing": lambda t: _vjp(t, lambda x: x * 2, _x(t, 2)),
    "v_length": lambda t: _vjp(t, lambda x: (x, x), _x(t, 2), (_x(t, 2),)),
    "v_single": lambda t: _vjp(t, lambda x: x, _x(t, 2), (_x(t, 2), _x(t, 2))),
    "v_size": lambda t: _vjp(t, lambda x: x, _x(t, 2), _x(t, 3)),
    "v_entry_size": lambda t: _vjp(t, lambda x: (x, x), _x(t, 2), (_x(t, 2), _x(t, 3))),
    "empty_output": lambda t: t.autograd.functional.jacobian(lambda x: x[:0], _x(t, 2)),
    "empty_output_vectorized": lambda t: t.autograd.functional.jacobian(
        lambda x: x[:0], _x(t, 2), vectorize=True
    ),
    "empty_input_vectorized": lambda t: t.autograd.functional.jacobian(
        lambda x: x * 2, _x(t, 2)[:0], vectorize=True
    ),
    "strategy": lambda t: t.autograd.functional.jacobian(lambda x: x, _x(t, 2), strategy="x"),
    "strict_vectorize": lambda t: t.autograd.functional.jacobian(
        lambda x: x * 2, _x(t, 2), strict=True, vectorize=True
    ),
    "forward_mode_create_graph": lambda t: t.autograd.functional.jacobian(
        lambda x: x, _x(t, 2), create_graph=True, strategy="forward-mode"
    ),
    "forward_mode_strict": lambda t: t.autograd.functional.jacobian(
        lambda x: x, _x(t, 2), strict=True, strategy="forward-mode"
    ),
    "forward_mode_not_vectorized": lambda t: t.autograd.functional.jacobian(
        lambda x: x, _x(t, 2), strategy="forward-mode"
    ),
    "hessian_strategy": lambda t: t.autograd.functional.hessian(
        lambda x: x.sum(), _x(t, 2), outer_jacobian_strategy="x"
    ),
    "hessian_forward_mode": lambda t: t.autograd.functional.hessian(
        lambda x: x.sum(), _x(t, 2), outer_jacobian_strategy="forward-mode"
    ),
}


@pytest.mark.parametrize("name", ARGUMENT_ERRORS)
def test_argument_errors_are_pytorchs(name: str, torch_module) -> None:
    _error(ARGUMENT_ERRORS[name], torch_module)


def test_forward_mode_says_microtorch_has_none(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        return t.autograd.functional.jacobian(
            lambda x: x.exp(), _x(t, 2), vectorize=True, strategy="forward-mode"
        )

    assert program(torch_module).shape == (2, 2)  # PyTorch computes it; microtorch refuses
    with pytest.raises(NotImplementedError, match="microtorch has no forward-mode AD"):
        program(microtorch)


# --- strict mode -----------------------------------------------------------------------------
STRICT_ERRORS: dict[str, Program] = {
    "jacobian_output_constant": lambda t: t.autograd.functional.jacobian(
        lambda x: x.detach() * 2, _x(t, 2), strict=True
    ),
    "jacobian_input_unused": lambda t: t.autograd.functional.jacobian(
        lambda x, y: x * 2, (_x(t, 2), _x(t, 2)), strict=True
    ),
    "vjp_output_constant": lambda t: _vjp(t, lambda x: x.detach().sum(), _x(t, 2), strict=True),
    "vjp_input_unused": lambda t: _vjp(t, lambda x, y: x.sum(), (_x(t, 2), _x(t, 2)), strict=True),
}


@pytest.mark.parametrize("name", STRICT_ERRORS)
def test_strict_errors_are_pytorchs(name: str, torch_module) -> None:
    _error(STRICT_ERRORS[name], torch_module)


def test_without_strict_an_unused_input_gets_zeros(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        inputs = (_x(t, 2), _x(t, 3))
        return (
            t.autograd.functional.jacobian(lambda x, y: x.detach() * 2, inputs),
            _vjp(t, lambda x, y: x.sum(), inputs),
        )

    _compare(program, torch_module)


# --- second order: create_graph, hessian, jvp, hvp, vhp -------------------------------------
def _f2(x: Any, y: Any) -> Any:
    """A scalar function of two inputs with every second derivative non-zero."""
    return (x.exp() * y.sum() + (x * x).sum() * y.sin().sum()).sum()


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_jacobian_with_create_graph(
    name: str, create_graph: bool, requires_grad: bool, torch_module
) -> None:
    def program(t: ModuleType) -> Any:
        func, inputs = FUNCTIONS[name](t)
        if requires_grad:
            inputs = _requiring(t, inputs)
        jac = t.autograd.functional.jacobian(func, inputs, create_graph=create_graph)
        return jac, inputs

    _compare(program, torch_module)


def test_a_jacobian_made_with_create_graph_can_be_differentiated(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x = _x(t, 3).requires_grad_()
        jac = t.autograd.functional.jacobian(lambda x: x.tanh() * x.sum(), x, create_graph=True)
        (d_trace,) = t.autograd.grad((jac * t.eye(3, dtype=t.float64)).sum(), x)
        return jac, d_trace

    _compare(program, torch_module)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("tuple_inputs", [False, True])
def test_hessian_of_a_scalar_function(tuple_inputs: bool, create_graph: bool, torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x, y = _x(t, 2).requires_grad_(), _x(t, 3, start=-0.6).requires_grad_()
        if tuple_inputs:
            return t.autograd.functional.hessian(_f2, (x, y), create_graph=create_graph)
        return t.autograd.functional.hessian(lambda x: _f2(x, y), x, create_graph=create_graph)

    _compare(program, torch_module)


def test_a_hessian_made_with_create_graph_gives_third_derivatives(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x, y = _x(t, 2).requires_grad_(), _x(t, 3, start=-0.6).requires_grad_()
        (h_xx, h_xy), (h_yx, h_yy) = t.autograd.functional.hessian(_f2, (x, y), create_graph=True)
        weights = _x(t, 2, 3, start=-1.3)
        return h_xy, t.autograd.grad((h_xy * weights).sum(), (x, y))

    _compare(program, torch_module)


def test_hessian_of_a_matrix_input_and_vectorize(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x = _x(t, 2, 2)
        f = lambda x: (x.sin() * x.sum()).sum()  # noqa: E731
        return (
            t.autograd.functional.hessian(f, x),
            t.autograd.functional.hessian(f, x, vectorize=True),
        )

    _compare(program, torch_module)


def test_hessian_matches_finite_differences_of_the_gradient() -> None:
    x = microtorch.tensor([0.4, -0.9], dtype=microtorch.float64)
    f = lambda x: (x.exp() * x.prod()).sum()  # noqa: E731
    hess = microtorch.autograd.functional.hessian(f, x).numpy()

    def gradient(values: list[float]) -> np.ndarray:
        point = microtorch.tensor(values, dtype=microtorch.float64, requires_grad=True)
        return microtorch.autograd.grad(f(point), point)[0].numpy()

    eps = 1e-6
    numerical = np.stack(
        [
            (
                gradient([0.4 + eps * (k == 0), -0.9 + eps * (k == 1)])
                - gradient([0.4 - eps * (k == 0), -0.9 - eps * (k == 1)])
            )
            / (2 * eps)
            for k in range(2)
        ],
        axis=1,
    )
    np.testing.assert_allclose(hess, numerical, rtol=1e-6, atol=1e-8)


PRODUCTS = ["vjp", "jvp", "vhp", "hvp"]


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("tuple_inputs", [False, True])
@pytest.mark.parametrize("product", PRODUCTS)
def test_products_with_a_vector(
    product: str, tuple_inputs: bool, create_graph: bool, torch_module
) -> None:
    def program(t: ModuleType) -> Any:
        x, y = _x(t, 2).requires_grad_(), _x(t, 3, start=-0.6).requires_grad_()
        inputs = (x, y) if tuple_inputs else x
        func = _f2 if tuple_inputs else (lambda x: _f2(x, y))
        if product in ("jvp", "vhp", "hvp"):
            v = (
                (_x(t, 2, start=-1.1), _x(t, 3, start=0.2))
                if tuple_inputs
                else _x(t, 2, start=-1.1)
            )
        else:
            v = _x(t, start=0.7)  # the output is a scalar
        if product == "jvp":  # a function with a vector output, to see J v's shape
            func = (lambda x, y: x * y[:2]) if tuple_inputs else (lambda x: x.exp() * y.sum())
        fn = getattr(t.autograd.functional, product)
        return fn(func, inputs, v, create_graph=create_graph), x, y

    _compare(program, torch_module)


@pytest.mark.parametrize("product", ["jvp", "vhp", "hvp"])
def test_products_need_no_v_for_a_single_element_input(product: str, torch_module) -> None:
    def program(t: ModuleType) -> Any:
        fn = getattr(t.autograd.functional, product)
        return fn(lambda s: (s.exp() * s).sum(), _x(t, 1))

    _compare(program, torch_module)


SECOND_ORDER_ERRORS: dict[str, Program] = {
    "jvp_v_missing": lambda t: t.autograd.functional.jvp(lambda x: x * 2, _x(t, 2)),
    "hvp_v_missing": lambda t: t.autograd.functional.hvp(lambda x: x.sum(), _x(t, 2)),
    "vhp_v_size": lambda t: t.autograd.functional.vhp(lambda x: x.sum(), _x(t, 2), _x(t, 3)),
    "hvp_tuple_output": lambda t: t.autograd.functional.hvp(
        lambda x: (x.sum(), x.sum()), _x(t, 2), _x(t, 2)
    ),
    "vhp_vector_output": lambda t: t.autograd.functional.vhp(lambda x: x * x, _x(t, 2), _x(t, 2)),
    "hessian_tuple_output": lambda t: t.autograd.functional.hessian(
        lambda x: (x.sum(), x.sum()), _x(t, 2)
    ),
    "hessian_vector_output": lambda t: t.autograd.functional.hessian(lambda x: x * x, _x(t, 2)),
    "jacobian_strict_create_graph_linear": lambda t: t.autograd.functional.jacobian(
        lambda x: x * 2, _x(t, 2), create_graph=True, strict=True
    ),
    "vjp_strict_create_graph_linear": lambda t: t.autograd.functional.vjp(
        lambda x: (x * 2).sum(), _x(t, 2), create_graph=True, strict=True
    ),
    "jvp_strict_output_constant": lambda t: t.autograd.functional.jvp(
        lambda x: x.detach() * 2, _x(t, 2), _x(t, 2), strict=True
    ),
    "jvp_strict_input_unused": lambda t: t.autograd.functional.jvp(
        lambda x, y: x * 2, (_x(t, 2), _x(t, 2)), (_x(t, 2), _x(t, 2)), strict=True
    ),
    "hessian_strict_linear": lambda t: t.autograd.functional.hessian(
        lambda x: (x * 2).sum(), _x(t, 2), strict=True
    ),
    "hessian_strict_input_unused": lambda t: t.autograd.functional.hessian(
        lambda x, y: (x * x).sum(), (_x(t, 2), _x(t, 2)), strict=True
    ),
    "vhp_strict_linear": lambda t: t.autograd.functional.vhp(
        lambda x: (x * 2).sum(), _x(t, 2), _x(t, 2), strict=True
    ),
    "hvp_strict_linear": lambda t: t.autograd.functional.hvp(
        lambda x: (x * 2).sum(), _x(t, 2), _x(t, 2), strict=True
    ),
    "vhp_strict_quadratic_create_graph": lambda t: t.autograd.functional.vhp(
        lambda x: (x * x).sum(), _x(t, 2), _x(t, 2), strict=True, create_graph=True
    ),
    "hvp_strict_quadratic_create_graph": lambda t: t.autograd.functional.hvp(
        lambda x: (x * x).sum(), _x(t, 2), _x(t, 2), strict=True, create_graph=True
    ),
}


@pytest.mark.parametrize("name", SECOND_ORDER_ERRORS)
def test_second_order_errors_are_pytorchs(name: str, torch_module) -> None:
    _error(SECOND_ORDER_ERRORS[name], torch_module)


def test_strict_passes_where_every_derivative_depends_on_the_inputs(torch_module) -> None:
    def program(t: ModuleType) -> Any:
        x, y = _x(t, 2), _x(t, 3, start=-0.6)
        F = t.autograd.functional
        return (
            F.jacobian(lambda x: x.exp(), x, strict=True, create_graph=True),
            F.hessian(_f2, (x, y), strict=True),
            F.vhp(lambda x: (x.exp() * x).sum(), x, x, strict=True, create_graph=True),
            F.hvp(lambda x: (x**3).sum(), x, x, strict=True),
            F.jvp(lambda x: x.exp(), x, x, strict=True, create_graph=True),
        )

    _compare(program, torch_module)


# --- gradgradcheck ---------------------------------------------------------------------------
GRADGRAD_RIGHT: dict[str, Program] = {
    "product": lambda t: t.autograd.gradgradcheck(lambda x, y: x * x * y, (_x(t, 3), _x(t, 3))),
    "exp_tanh_sigmoid": lambda t: t.autograd.gradgradcheck(
        lambda x: (x.exp(), x.tanh(), x.sigmoid()), _x(t, 2, 2)
    ),
    "matmul_sum": lambda t: t.autograd.gradgradcheck(
        lambda a, b: a.matmul(b).sum(dim=0), (_x(t, 2, 3), _x(t, 3, 2))
    ),
    "given_grad_outputs": lambda t: t.autograd.gradgradcheck(
        lambda x: x.sin() * x, _x(t, 3), _x(t, 3, start=-0.5).requires_grad_()
    ),
    "a_constant_grad_output": lambda t: t.autograd.gradgradcheck(
        lambda x: x.exp() * x, _x(t, 3), _x(t, 3, start=-0.5).detach()
    ),
    "some_inputs_without_grad": lambda t: t.autograd.gradgradcheck(
        lambda x, w: (x * w).pow(2), (_x(t, 3), _x(t, 3, start=1.0).detach())
    ),
}


@pytest.mark.parametrize("name", GRADGRAD_RIGHT)
def test_gradgradcheck_passes_on_correct_ops(name: str, torch_module) -> None:
    def program(t: ModuleType) -> Any:
        return GRADGRAD_RIGHT[name](_ReqGrad(t))

    for t in (torch_module, microtorch):
        assert program(t) is True


class _ReqGrad:
    """The library, but ``_x`` tensors made through it require grad (inputs of a check)."""

    def __init__(self, t: ModuleType) -> None:
        self._t = t

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)

    def tensor(self, *args: Any, **kwargs: Any) -> Any:
        return self._t.tensor(*args, **kwargs).requires_grad_()


def _square_with_backward(t: ModuleType, detach: bool) -> Any:
    class Cube(t.autograd.Function):
        """x ** 3, whose backward is right to first order; with detach its own graph is cut."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * 3 * (x.detach() if detach else x) ** 2

    return Cube.apply


@pytest.mark.parametrize("detach", [False, True])
def test_gradgradcheck_rejects_a_backward_whose_own_derivative_is_wrong(
    detach: bool, torch_module
) -> None:
    seen = []
    for t in (torch_module, microtorch):
        x = _x(t, 3).requires_grad_()
        cube = _square_with_backward(t, detach)
        assert t.autograd.gradcheck(cube, (x,))  # its first derivative is right
        grad_output = _x(t, 3, start=-0.8).requires_grad_()
        try:
            result = t.autograd.gradgradcheck(cube, (x,), (grad_output,))
            seen.append((result, "", ""))
        except RuntimeError as error:
            first = str(error).splitlines()[0]
            seen.append((None, type(error).__name__, first))
        seen[-1] += (t.autograd.gradgradcheck(cube, (x,), raise_exception=False),)
    assert seen[0] == seen[1]
    assert seen[0][0] is (None if detach else True)
