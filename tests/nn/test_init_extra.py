"""nn.init.trunc_normal_ and orthogonal_: what their draws must satisfy, statistics against
PyTorch 2.13's own draws (the numbers differ: microtorch's generator), errors and warnings."""

from __future__ import annotations

import warnings
from types import ModuleType

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message


@pytest.mark.parametrize(("mean", "std", "a", "b"), [(0.0, 1.0, -2.0, 2.0), (0.5, 0.02, 0.48, 0.6)])
def test_trunc_normal_has_torchs_statistics(
    torch_module: ModuleType, mean: float, std: float, a: float, b: float
) -> None:
    microtorch.manual_seed(0)
    torch_module.manual_seed(0)
    mine = microtorch.nn.init.trunc_normal_(microtorch.empty(200, 300), mean, std, a, b).numpy()
    theirs = torch_module.nn.init.trunc_normal_(torch_module.empty(200, 300), mean, std, a, b)
    theirs = theirs.numpy()
    assert mine.min() >= a and mine.max() <= b and mine.dtype == theirs.dtype
    np.testing.assert_allclose(mine.mean(), theirs.mean(), atol=0.01 * std)
    np.testing.assert_allclose(mine.std(), theirs.std(), rtol=0.01)


@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (3, 2, 5), (5, 5)])
def test_orthogonal_is_orthogonal(shape: tuple[int, ...]) -> None:
    w = microtorch.empty(*shape, dtype=microtorch.float64)
    microtorch.nn.init.orthogonal_(w, gain=2.0)
    m = w.numpy().reshape(shape[0], -1)
    small = min(m.shape)
    gram = m.T @ m if m.shape[0] >= m.shape[1] else m @ m.T
    np.testing.assert_allclose(gram, 4.0 * np.eye(small), atol=1e-12)


def test_errors_and_warnings_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        init = lib.nn.init
        return [
            lambda: init.orthogonal_(lib.empty(3)),
            lambda: init.orthogonal_(lib.zeros(2, 2, dtype=lib.int64)),
            lambda: init.trunc_normal_(lib.zeros(2, dtype=lib.int64)),
        ]

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]
    for lib in (microtorch, torch_module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.init.trunc_normal_(lib.empty(3), mean=5.0, std=1.0)
        assert [str(w.message)[:40] for w in caught] == ["mean is more than 2 std from [a, b] in n"]
        assert lib.nn.init.orthogonal_(lib.empty(0, 3)).shape == (0, 3)
