"""``x ** n`` for a number n, as PyTorch's CPU kernel computes it (issue 22): products for
n = 2, 3 and -2 and 1 / sqrt(x) for n = -0.5, so values and gradients are PyTorch's to the last
bit, and the common cubic of a polynomial fit is one multiply, not numpy's general power."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("n", [2, 3, -2, -0.5, -1, 2.0, 3.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_integer_powers_are_torchs_to_the_last_bit(
    n: float, dtype: str, torch_module: ModuleType
) -> None:
    rng = np.random.default_rng(3)
    values = (rng.standard_normal(2000) * 3).astype(dtype)
    if n == -0.5:
        values = np.abs(values) + 0.1
    upstream = rng.standard_normal(2000).astype(dtype)
    results = []
    for lib in (torch_module, microtorch):
        x = lib.tensor(values, requires_grad=True)
        y = x**n
        y.backward(lib.tensor(upstream))
        results.append((y.detach().numpy().copy(), x.grad.numpy().copy(), y.grad_fn.name()))
    (t_y, t_g, t_name), (m_y, m_g, m_name) = results
    assert m_name == t_name == "PowBackward0"
    np.testing.assert_array_equal(m_y, t_y)
    if n - 1 in (1, 2, -2):  # the gradient's own power, n * x ** (n - 1), by the same rule
        np.testing.assert_array_equal(m_g, t_g)
    else:  # (x ** -3 and x ** -1.5: C's pow there, numpy's here, equal but for rounding)
        np.testing.assert_allclose(m_g, t_g, rtol=2e-6 if dtype == "float32" else 1e-14)


def test_a_cube_is_a_product() -> None:
    # (numpy's power would be about 60x slower on 2000 floats): the formula multiplies
    from microtorch.ops.elementwise import power

    a = np.arange(5.0)
    with np.errstate(divide="ignore"):  # (1 / 0: microtorch's ops run their formulas hushed)
        inverse_square = power(a, -2)
    assert np.array_equal(power(a, 3), a * a * a) and np.array_equal(
        inverse_square, np.r_[np.inf, 1 / a[1:] ** 2]
    )
