"""The order of masked_scatter's checks, as PyTorch 2.13's: with several things wrong at once
the student sees the error PyTorch shows. Out of place: self's and source's dtypes, then the
mask's dtype; in place: the dtypes, then a mask with more dimensions than self, then its dtype."""

from __future__ import annotations

import itertools
from types import ModuleType
from typing import Any

import pytest

import microtorch

pytestmark = pytest.mark.torch

CASES = list(
    itertools.product(
        ["Tensor.masked_scatter", "Tensor.masked_scatter_", "torch.masked_scatter"],
        ["bool", "long"],
        ["float", "double"],
        [(3,), (2, 3)],
        [3, 1],
    )
)


def _outcome(
    lib: Any, form: str, mask_dtype: str, source_dtype: str, mask_shape: Any, n: int
) -> Any:
    x = lib.zeros(3)
    mask = lib.ones(mask_shape, dtype=getattr(lib, mask_dtype))
    source = lib.arange(n, dtype=getattr(lib, source_dtype))
    try:
        if form == "torch.masked_scatter":
            y = lib.masked_scatter(x, mask, source)
        else:
            y = getattr(x, form.split(".")[1])(mask, source)
    except Exception as error:  # noqa: BLE001 - the class and text are what is compared
        return type(error).__name__, str(error).replace("microtorch.", "torch.")
    return "ok", y.tolist(), x.tolist()


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_masked_scatter_checks_in_torchs_order(case: Any, torch_module: ModuleType) -> None:
    assert _outcome(microtorch, *case) == _outcome(torch_module, *case)
