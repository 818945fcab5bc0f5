"""Value summaries in drawings and static tables stay the same on every machine."""

from __future__ import annotations

import numpy as np

from microtorch.viz.describe import values_text


def test_small_tensors_print_every_value() -> None:
    assert values_text(np.array([[1.0, 2.0], [3.0, 4.5]]), 6) == "[[1, 2], [3, 4.5]]"


def test_large_tensors_print_min_max_mean() -> None:
    text = values_text(np.arange(20, dtype=np.float32), 6)
    assert text.startswith("min 0 max 19 mean 9.5")


def test_a_mean_that_is_rounding_noise_prints_as_zero() -> None:
    # A softmax gradient sums to zero; its mean comes out as ~1e-9, differently per machine.
    g = np.array([0.25, -0.75, 0.5 + 3e-9] * 5)
    assert values_text(g, 6).endswith("mean 0")
    assert not values_text(np.array([1.0, 2.0] * 10), 6).endswith("mean 0")
