"""Issue 24 (walkh): why torch.stft, torch.istft and their Tensor methods are not covered:
PyTorch 2.13 gives real input a real result only through the deprecated return_complex=False,
and istft refuses real input; microtorch, without complex dtypes, raises NotCoveredError with
that reason and what to use instead.
"""

from __future__ import annotations

import warnings
from types import ModuleType

import pytest

import microtorch
from microtorch._coverage import NotCoveredError

pytestmark = pytest.mark.torch


def test_pytorch_needs_complex_results(torch_module: ModuleType) -> None:
    x = torch_module.randn(64)
    window = torch_module.ones(16)  # (PyTorch warns when none is given)
    with pytest.raises(RuntimeError, match="^stft requires the return_complex parameter be given"):
        torch_module.stft(x, 16, window=window)
    result = torch_module.stft(x, 16, window=window, return_complex=True)
    assert result.dtype == torch_module.complex64
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        torch_module.stft(x, 16, window=window, return_complex=False)
    assert any("return_complex=False is deprecated" in str(w.message) for w in seen)
    with pytest.raises(RuntimeError, match="^istft requires a complex-valued input tensor"):
        torch_module.istft(torch_module.randn(9, 5, 2), 16, window=window)


WHERE = [(microtorch, "stft"), (microtorch, "istft"), (microtorch.Tensor, "stft")]
WHERE.append((microtorch.Tensor, "istft"))


@pytest.mark.parametrize("where,name", WHERE)
def test_microtorch_says_why(where: object, name: str) -> None:
    with pytest.raises(NotCoveredError, match="no complex dtypes.*np.fft.rfft"):
        getattr(where, name)
    assert isinstance(NotCoveredError("x"), NotImplementedError)
