"""Memory layout of results as in PyTorch: strides, contiguity, and so what .view and .reshape do.

Each op class has its rule (see ``microtorch/ops/_layout.py``): element-wise results follow
their inputs (the first input that orders two dimensions decides), clone and ``.to`` keep the
input's order, softmax, masked_fill, cumsum and reductions are row-major. Each case runs over
inputs of many layouts: transposed, sliced, expanded, permuted 3-d, size-1 dimensions, 0-d.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.nn.functional as mF

pytestmark = pytest.mark.torch

SQUARE = (np.arange(9.0).reshape(3, 3) - 4.5) / 2
WIDE = np.arange(12.0).reshape(3, 4) / 4 - 1

# name -> a tensor of that layout, made the same way in either library
INPUTS: dict[str, Callable[[Any], Any]] = {
    "row_major": lambda L: L.tensor(SQUARE, requires_grad=True) * 1,
    "transposed": lambda L: (L.tensor(SQUARE, requires_grad=True) * 1).t(),
    "sliced": lambda L: (L.tensor(WIDE, requires_grad=True) * 1)[:, 1:],
    "transposed_slice": lambda L: (L.tensor(WIDE, requires_grad=True) * 1).t()[1:],
    "expanded_row": lambda L: (L.tensor(SQUARE[0], requires_grad=True) * 1).expand(3, 3),
    "expanded_col": lambda L: (L.tensor(SQUARE[:, :1], requires_grad=True) * 1).expand(3, 3),
    "permuted_3d": lambda L: (
        L.tensor(np.arange(24.0).reshape(2, 3, 4) / 8 - 1, requires_grad=True) * 1
    ).permute(2, 0, 1),
    "transposed_3d": lambda L: (
        L.tensor(np.arange(24.0).reshape(2, 3, 4) / 8 - 1, requires_grad=True) * 1
    ).transpose(0, 1),
    "column_of_transposed": lambda L: (L.tensor(SQUARE, requires_grad=True) * 1).t()[:, :1],
    "one_element": lambda L: L.tensor([[0.5]], requires_grad=True) * 1,
    "zero_d": lambda L: L.tensor(0.5, requires_grad=True) * 1,
}

# name -> op; each takes (library, functional, x); x's shape is (3, 3), (4, 2, 3), (3, 2, 4) ...
OPS: dict[str, Callable[[Any, Any, Any], Any]] = {
    # element-wise, one input: numpy's order='K' is PyTorch's rule
    "exp": lambda L, F, x: x.exp(),
    "relu": lambda L, F, x: x.relu(),
    "gelu": lambda L, F, x: F.gelu(x),
    "pow_number": lambda L, F, x: x**2,
    "times_number": lambda L, F, x: x * 2,
    "number_minus": lambda L, F, x: 2 - x,
    "compare_number": lambda L, F, x: x > 0,
    "to_float64": lambda L, F, x: x.double(),
    "bce_none": lambda L, F, x: F.binary_cross_entropy(
        x.sigmoid(), L.ones(x.shape, dtype=x.dtype), reduction="none"
    ),
    # element-wise, two or three inputs: the first input that orders the dimensions decides
    "times_row_major": lambda L, F, x: x * L.ones(x.shape),
    "row_major_plus": lambda L, F, x: L.ones(x.shape) + x,
    "times_transposed": lambda L, F, x: x * x.transpose(0, -1).contiguous().transpose(0, -1),
    "div_broadcast_row": lambda L, F, x: x / L.ones(x.shape[-1:]),
    "sub_broadcast_col": lambda L, F, x: L.ones(x.shape[:-1] + (1,)) - x,
    "times_zero_d": lambda L, F, x: x * L.tensor(2.0),
    "maximum_row_major": lambda L, F, x: L.maximum(x, L.zeros(x.shape)),
    "pow_tensor": lambda L, F, x: x ** L.ones(x.shape),
    "remainder_row_major": lambda L, F, x: L.remainder(x, L.ones(x.shape) * 0.75),
    "floor_divide_row_major": lambda L, F, x: x // (L.ones(x.shape) * 0.75),
    "compare_row_major": lambda L, F, x: x > L.zeros(x.shape),
    "where_cond_first": lambda L, F, x: L.where(L.ones(x.shape) > 0, x, 0.0),
    "where_x_cond": lambda L, F, x: L.where(x > 0, L.zeros(x.shape), x),
    # clone and *_like keep the input's order; an expanded input's is row-major
    "clone": lambda L, F, x: x.clone(),
    "zeros_like": lambda L, F, x: L.zeros_like(x),
    "full_like": lambda L, F, x: L.full_like(x, 2.0),
    "contiguous": lambda L, F, x: x.contiguous(),
    # row-major whatever the input
    "softmax": lambda L, F, x: x.softmax(0),
    "log_softmax": lambda L, F, x: F.log_softmax(x, -1),
    "masked_fill": lambda L, F, x: x.masked_fill(x > 0, 0.0),
    "cumsum": lambda L, F, x: x.cumsum(0),
    "cumprod": lambda L, F, x: x.cumprod(-1),
    "number_pow": lambda L, F, x: 2**x,
    "sum_dim": lambda L, F, x: x.sum(0),
    "mean_keepdim": lambda L, F, x: x.mean(-1, keepdim=True),
    "var_dim": lambda L, F, x: x.var(0, correction=0),
    "amax_dim": lambda L, F, x: x.amax(-1),
    "logsumexp_dim": lambda L, F, x: x.logsumexp(0),
    "norm_dim": lambda L, F, x: x.norm(dim=0),
    "cat": lambda L, F, x: L.cat([x, x]),
    "stack": lambda L, F, x: L.stack([x, x], 1),
    "layer_norm": lambda L, F, x: F.layer_norm(
        x, x.shape[-1:], L.ones(x.shape[-1:], dtype=x.dtype)
    ),
    # sort keeps the input's order; topk is row-major
    "sort": lambda L, F, x: x.sort(-1)[0],
    "argsort": lambda L, F, x: x.argsort(0),
    "topk": lambda L, F, x: x.topk(1, 0)[0],
}


def _layout(t: Any) -> tuple[Any, ...]:
    # Strides where the size is not 1 (a size-1 dimension's stride is never used; numpy and
    # PyTorch give it different values), contiguity, and whether .view(-1) works.
    strides = tuple(s for s, n in zip(t.stride(), t.shape) if n != 1)
    try:
        t.view(-1)
        viewable = True
    except RuntimeError:
        viewable = False
    return tuple(t.shape), strides, t.is_contiguous(), viewable


def _run(lib: ModuleType, functional: Any, layout: str, op: str) -> Any:
    return OPS[op](lib, functional, INPUTS[layout](lib))


# ops that work along a dimension, for the inputs that have one to spare
NEEDS_A_DIM = ("layer_norm", "topk", "argsort", "sort", "cumprod", "cat", "stack")
CASES = [
    (layout, op)
    for layout in INPUTS
    for op in OPS
    if op not in NEEDS_A_DIM or INPUTS[layout](microtorch).dim() >= 2
]


@pytest.mark.parametrize(("layout", "op"), CASES)
def test_results_are_laid_out_as_in_torch(layout: str, op: str, torch_module: ModuleType) -> None:
    import torch.nn.functional as tF

    ours = _run(microtorch, mF, layout, op)
    theirs = _run(torch_module, tF, layout, op)
    assert _layout(ours) == _layout(theirs)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)
    if theirs.requires_grad:  # .reshape views or copies: the node it records says which
        assert ours.reshape(-1).grad_fn.name() == theirs.reshape(-1).grad_fn.name()


def test_the_first_input_that_orders_the_dimensions_decides(torch_module: ModuleType) -> None:
    # a transposed and a row-major operand disagree: PyTorch follows the first (numpy, left
    # alone, would let row-major win); a broadcast operand orders nothing along its stride 0
    for lib in (microtorch, torch_module):
        t, c, row = lib.ones(3, 3).t(), lib.ones(3, 3), lib.ones(3)
        assert not (t + c).is_contiguous() and (c + t).is_contiguous()
        assert not (row + t).is_contiguous() and not (t * row).is_contiguous()
        assert not lib.where(t > 0, c, t).is_contiguous()  # (the condition comes first)
        assert lib.where(c > 0, t, c).is_contiguous()


def test_reshape_of_a_transposed_clone_views_it_and_its_view_refuses(
    torch_module: ModuleType,
) -> None:
    for lib in (microtorch, torch_module):
        y = lib.tensor(SQUARE, requires_grad=True).t().clone()  # transposed, as its input
        assert y.stride() == (1, 3)
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            y.view(-1)
        assert y.reshape(-1).grad_fn.name() == "UnsafeViewBackward0"  # a row-major copy
        assert y.t().reshape(-1).grad_fn.name() == "ViewBackward0"
