"""microtorch.testing: assert_close's tolerances and messages, check_function's verdicts."""

from __future__ import annotations

import doctest
from types import ModuleType

import numpy as np
import pytest

import microtorch
import microtorch.testing
from microtorch.testing import assert_close, check_function


def test_doctests_run() -> None:
    result = doctest.testmod(microtorch.testing, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 6 and result.failed == 0


def test_default_tolerances_depend_on_the_dtype() -> None:
    f32 = microtorch.tensor([1.0])
    assert_close(f32, microtorch.tensor([1.0 + 5e-6]))  # within float32's 1e-5
    with pytest.raises(AssertionError):
        assert_close(f32.double(), microtorch.tensor([1.0 + 5e-6], dtype=microtorch.float64))
    with pytest.raises(AssertionError, match="Tensor-likes are not equal!"):
        assert_close(microtorch.tensor([1, 2]), microtorch.tensor([1, 3]))
    assert_close(np.array([1.0, 2.0]), [1.0, 2.0 + 1e-8])
    assert_close(np.array([1.0]), [1.1], rtol=0.2, atol=0)


def test_mismatch_message_names_the_worst_element() -> None:
    with pytest.raises(AssertionError) as info:
        assert_close(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 2.0], [3.5, 4.0]]))
    text = str(info.value)
    assert "Mismatched elements: 1 / 4 (25.0%)" in text
    assert "Greatest absolute difference: 0.5 at index (1, 0) (up to 1e-07 allowed)" in text
    with pytest.raises(AssertionError, match=r"Expected 2\.0 but got 1\.0\."):
        assert_close(1.0, 2.0)


def test_shape_dtype_nan_and_msg() -> None:
    with pytest.raises(AssertionError, match=r"'shape' do not match: microtorch\.Size\(\[2\]\)"):
        assert_close(microtorch.zeros(2), microtorch.zeros(3))
    with pytest.raises(AssertionError, match="'dtype' do not match: microtorch.float32 != "):
        assert_close(microtorch.zeros(2), microtorch.zeros(2, dtype=microtorch.float64))
    with pytest.raises(AssertionError, match="Greatest absolute difference: nan"):
        assert_close(np.array([np.nan]), np.array([np.nan]))
    assert_close(np.array([np.nan, np.inf]), np.array([np.nan, np.inf]), equal_nan=True)
    with pytest.raises(AssertionError, match="^custom$"):
        assert_close(1.0, 2.0, msg="custom")
    with pytest.raises(AssertionError, match="^checking x: Scalars"):
        assert_close(1.0, 2.0, msg=lambda m: "checking x: " + m)
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol' must be either specified"):
        assert_close(1.0, 1.0, rtol=1e-3)


@pytest.mark.torch
@pytest.mark.parametrize(
    ("actual", "expected"),
    [([1.0, 2.0, 3.0], [1.0, 2.5, 3.0]), ([[0.0, 1.0]], [[1e-3, 1.0]]), ([1.0, 2.0], [1.0, 2.0])],
)
def test_first_lines_match_torch_testing(
    actual: list, expected: list, torch_module: ModuleType
) -> None:
    messages = []
    for lib, check in (
        (microtorch, assert_close),
        (torch_module, torch_module.testing.assert_close),
    ):
        try:
            check(lib.tensor(actual, dtype=lib.float64), lib.tensor(expected, dtype=lib.float64))
            messages.append(None)
        except AssertionError as e:
            messages.append(str(e).splitlines()[:3])
    assert messages[0] == messages[1]


class _WrongTranspose(microtorch.autograd.Function):
    """z = a @ b with dL/dB deliberately wrong: G @ A instead of A.T @ G (square only)."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return grad_output @ b.t(), grad_output @ a


def test_check_function_passes_correct_gradients_and_catches_a_wrong_one() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    check_function(lambda a, b: a @ b, a, b)
    with pytest.raises(AssertionError) as info:
        check_function(_WrongTranspose.apply, a, b)
    text = str(info.value)
    assert text.startswith("check_function: the gradient of input 1 (shape [3, 3]) is wrong")
    assert "autograd computed" in text and "finite differences give" in text


def test_check_function_names_an_input_that_got_no_gradient() -> None:
    with pytest.raises(AssertionError, match=r"input 1 \(shape \[2\]\) received no gradient"):
        check_function(lambda a, b: a * b.detach(), [1.0, 2.0], [3.0, 4.0])


def test_an_all_ones_upstream_gradient_would_hide_a_wrong_sum() -> None:
    # backward returns the sum of the upstream gradient to every element: right only when
    # all upstream entries are equal, which is why check_function draws random ones
    class BadRowSum(microtorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.n = x.shape[1]
            return x.sum(1)

        @staticmethod
        def backward(ctx, g):
            return g.mean().expand(g.shape[0], ctx.n)

    x = [[1.0, 2.0], [3.0, 4.0]]
    check_function(BadRowSum.apply, x, grad_output=[1.0, 1.0])  # fooled
    with pytest.raises(AssertionError, match="input 0"):
        check_function(BadRowSum.apply, x)


def test_check_function_handles_several_outputs_and_float32_inputs() -> None:
    check_function(lambda x: x.split(1), microtorch.tensor([1.0, 2.0, 3.0]))
    check_function(lambda x: x.max(0), [[1.0, 5.0], [3.0, 2.0]])  # (values, indices)
