"""gradcheck's arguments as PyTorch 2.13 has them: each output's Jacobian against each input's
(the error names both), the checks on the inputs, the second backward run (reentrancy), the
zero grad_output, and the options microtorch refuses (forward mode, vmap, fast mode)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

Program = Callable[[ModuleType], Any]


def _x(t: ModuleType, values: list[float], requires_grad: bool = True) -> Any:
    return t.tensor(values, dtype=t.float64, requires_grad=requires_grad)


def _outcome(program: Program) -> tuple[str, str]:
    """("True"/"False", "") or (the error's class, its message)."""
    try:
        return str(program()), ""
    except Exception as error:  # noqa: BLE001 (the class is what is compared)
        return type(error).__name__, str(error).replace("microtorch.", "torch.")


def _same(program: Callable[[ModuleType], Any], torch_module: ModuleType) -> tuple[str, str]:
    theirs = _outcome(lambda: program(torch_module))
    ours = _outcome(lambda: program(microtorch))
    assert ours == theirs
    return ours


def _wrong_backward(t: ModuleType, backward: Callable[[Any, Any], Any]) -> Any:
    """x * x with the given backward(x, grad_output), as a custom Function."""

    class Square(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return backward(x, grad_output)

    return Square.apply


CASES: dict[str, Program] = {
    "right": lambda t: t.autograd.gradcheck(lambda a, b: (a * b, a.exp()), (_x(t, [1, 2]),) * 2),
    # which output and which input the mismatch is in: output 1, input 1 (of those that
    # require grad: the middle argument does not)
    "second_output_second_input": lambda t: t.autograd.gradcheck(
        lambda a, c, b: (a * b, a + b * b.detach()),
        (_x(t, [1, 2]), _x(t, [5.0], False), _x(t, [3, -4])),
    ),
    "raise_exception_false": lambda t: t.autograd.gradcheck(
        lambda a: a * a.detach(), (_x(t, [1, 2]),), raise_exception=False
    ),
    "constant_output": lambda t: t.autograd.gradcheck(lambda a: (a * 0).detach(), _x(t, [1, 2])),
    "detached_output": lambda t: t.autograd.gradcheck(lambda a: a.detach() * 2, _x(t, [1, 2])),
    "some_outputs_detached": lambda t: t.autograd.gradcheck(
        lambda a: (a * 2, (a * 3).detach()), (_x(t, [1, 2]),)
    ),
    "no_input_requires_grad": lambda t: t.autograd.gradcheck(
        lambda a: a * 2, (_x(t, [1, 2], False),)
    ),
    "stride_0_input": lambda t: t.autograd.gradcheck(lambda a: a * 2, _x(t, [1, 2]).expand(2, 2)),
    "list_of_inputs": lambda t: t.autograd.gradcheck(lambda a, b: a * b, [_x(t, [1, 2])] * 2),
    "negative_atol": lambda t: t.autograd.gradcheck(lambda a: a * 2, _x(t, [1, 2]), atol=-1.0),
    "negative_rtol": lambda t: t.autograd.gradcheck(lambda a: a * 2, _x(t, [1, 2]), rtol=-1.0),
    "wrong_backward": lambda t: t.autograd.gradcheck(
        _wrong_backward(t, lambda x, g: g * 0 + 1.0), _x(t, [1, 2])
    ),
    "not_multiplied_by_grad_output": lambda t: t.autograd.gradcheck(
        _wrong_backward(t, lambda x, g: 2 * x * g + (g == 0).all() * 1.0), _x(t, [1, 2])
    ),
    "grad_dtypes_right": lambda t: t.autograd.gradcheck(
        lambda a: a.sin(), _x(t, [1, 2]), check_grad_dtypes=True, nondet_tol=1e-12
    ),
    "no_backward_ad": lambda t: t.autograd.gradcheck(
        lambda a: a, _x(t, [1.0]), check_backward_ad=False
    ),
    "batched_without_backward_ad": lambda t: t.autograd.gradcheck(
        lambda a: a, _x(t, [1.0]), check_backward_ad=False, check_batched_grad=True
    ),
    "batched_forward_without_forward_ad": lambda t: t.autograd.gradcheck(
        lambda a: a, _x(t, [1.0]), check_batched_forward_grad=True
    ),
    "masked": lambda t: t.autograd.gradcheck(lambda a: a.tanh(), _x(t, [1, 2]), masked=True),
    "gradgradcheck_no_rev_over_rev": lambda t: t.autograd.gradgradcheck(
        lambda a: a * a, _x(t, [1.0]), check_rev_over_rev=False
    ),
    "gradgradcheck_undefined_without_rev_over_rev": lambda t: t.autograd.gradgradcheck(
        lambda a: a * a, _x(t, [1.0]), check_rev_over_rev=False, check_fwd_over_rev=True
    ),
    "gradgradcheck_batched_without_rev_over_rev": lambda t: t.autograd.gradgradcheck(
        lambda a: a * a,
        _x(t, [1.0]),
        check_rev_over_rev=False,
        check_fwd_over_rev=True,
        check_undefined_grad=False,
        check_batched_grad=True,
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_results_and_errors_are_pytorchs(name: str, torch_module) -> None:
    _same(CASES[name], torch_module)


def _wobbly(t: ModuleType) -> Any:
    """A backward that adds 1e-9 on every second run (and so to a zero grad_output too)."""
    runs = itertools.count()
    return _wrong_backward(t, lambda x, g: 2 * x * g + next(runs) % 2 * 1e-9)


def test_a_nondeterministic_backward_is_not_reentrant(torch_module) -> None:
    for t in (torch_module, microtorch):
        with pytest.raises(RuntimeError) as info:
            t.autograd.gradcheck(_wobbly(t), _x(t, [1.0]))
        first = str(info.value).splitlines()[0]
        assert type(info.value).__name__ == "GradcheckError"
        assert first.startswith("Backward is not reentrant, i.e., running backward with same")
        assert first.endswith("The tolerance for nondeterminism was 0.0.")


@pytest.mark.parametrize("check_undefined_grad", [True, False])
def test_within_nondet_tol_the_zero_grad_output_runs_still_count(
    check_undefined_grad: bool, torch_module
) -> None:
    # runs 0 and 1 differ by less than nondet_tol; run 2 (a zero grad_output) gives zero; run 3
    # (the undefined-gradient check) does not
    _same(
        lambda t: t.autograd.gradcheck(
            _wobbly(t), _x(t, [1.0]), nondet_tol=1e-6, check_undefined_grad=check_undefined_grad
        ),
        torch_module,
    )


@pytest.mark.parametrize(
    "option", ["check_forward_ad", "check_batched_grad", "check_batched_forward_grad", "fast_mode"]
)
def test_options_microtorch_has_not_say_so(option: str, torch_module) -> None:
    both = {"check_forward_ad": True} if option == "check_batched_forward_grad" else {}
    assert torch_module.autograd.gradcheck(
        lambda a: a.exp(), _x(torch_module, [1, 2]), **{option: True, **both}
    )
    with pytest.raises(NotImplementedError, match="microtorch's gradcheck has no check_|fast_"):
        microtorch.autograd.gradcheck(
            lambda a: a.exp(), _x(microtorch, [1, 2]), **{option: True, **both}
        )


def test_gradgradcheck_refuses_forward_over_reverse(torch_module) -> None:
    assert torch_module.autograd.gradgradcheck(
        lambda a: a.exp(), _x(torch_module, [1, 2]), check_fwd_over_rev=True
    )
    with pytest.raises(NotImplementedError, match="microtorch's gradcheck has no check_fwd_over"):
        microtorch.autograd.gradgradcheck(
            lambda a: a.exp(), _x(microtorch, [1, 2]), check_fwd_over_rev=True
        )


def test_a_non_contiguous_input_is_perturbed_in_place() -> None:
    # numerical_jacobian writes each element of the input itself: through reshape(-1), a
    # transposed input's copy would be perturbed, and its numerical Jacobian would be all 0
    import microtorch as mt
    from microtorch.autograd.gradcheck import numerical_jacobian

    x = mt.arange(12.0, dtype=mt.float64).reshape(3, 4).t().requires_grad_()
    assert not x.is_contiguous()
    (jac,) = numerical_jacobian(lambda t: t * t, [x])
    (expected,) = numerical_jacobian(lambda t: t * t, [x.detach().contiguous().requires_grad_()])
    assert np.allclose(jac, expected) and np.allclose(np.diag(jac), 2 * x.detach().numpy().ravel())
    assert mt.autograd.gradcheck(lambda t: (t * t.exp()).sum(0), (x,))
