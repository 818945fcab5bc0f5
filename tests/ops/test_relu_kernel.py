"""relu's forward is numpy's maximum(0, a) (issue 22: three times faster than a select on
random signs): it must keep PyTorch's values exactly, signed zeros and nan included, in every
dtype relu takes, and its backward must still give 0, not nan, where an inf or nan gradient
meets a <= 0."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch

SPECIAL = [-0.0, 0.0, np.nan, -np.nan, -1.0, 2.5, np.inf, -np.inf, 1e-45, -1e-45]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_relu_values_and_signs_are_torchs(dtype: str, torch_module: ModuleType) -> None:
    values = np.array(SPECIAL if dtype.startswith("float") else [-3, 0, 4, -1], dtype)
    ours = microtorch.relu(microtorch.tensor(values)).numpy()
    theirs = torch_module.relu(torch_module.tensor(values)).numpy()
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))


def test_relu_backward_selects_the_gradient(torch_module: ModuleType) -> None:
    values = np.array(SPECIAL, np.float32)
    upstream = np.array([np.inf, np.nan, 1.0, -np.inf, np.nan, 3.0, 2.0, np.inf, -1.0, 5.0])
    grads = []
    for lib in (torch_module, microtorch):
        x = lib.tensor(values, requires_grad=True)
        lib.relu(x).backward(lib.tensor(upstream.astype(np.float32)))
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_relu_backward_keeps_gradients_bit_for_bit(dtype: str, torch_module: ModuleType) -> None:
    # the select is made on the bits: a -0.0, inf or nan gradient where a > 0 (or a is nan)
    # passes as it is, and every gradient where a <= 0 becomes +0.0, in each float dtype
    values = np.array([*SPECIAL, 3.0, 4.0], dtype)
    upstream = np.array(
        [np.inf, np.nan, -0.0, -np.inf, np.nan, -0.0, 2.0, np.inf, -1.0, 5.0, -3.0, -0.0], dtype
    )
    grads = []
    for lib in (torch_module, microtorch):
        x = lib.tensor(values, requires_grad=True)
        lib.relu(x).backward(lib.tensor(upstream))
        grads.append(x.grad.numpy())
    assert grads[1].dtype == grads[0].dtype
    np.testing.assert_array_equal(grads[1], grads[0])
    np.testing.assert_array_equal(np.signbit(grads[1]), np.signbit(grads[0]))
