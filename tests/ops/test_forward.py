"""Forward values of every op in the table against numpy, in float64 and float32."""

from __future__ import annotations

import numpy as np
import pytest

import microtorch
from microtorch.testing import assert_close

from .optable import OPS, OpSpec, inputs_for


def _as_tuple(out: object) -> tuple:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_forward_matches_numpy_in_float64(spec: OpSpec) -> None:
    xs = inputs_for(spec)
    outs = _as_tuple(spec.microtorch(*(microtorch.tensor(x, dtype=microtorch.float64) for x in xs)))
    refs = _as_tuple(spec.ref(*xs))
    assert len(outs) == len(refs)
    for out, ref in zip(outs, refs):
        assert out.dtype is microtorch.float64
        assert out.shape == np.shape(ref)
        assert_close(
            out.detach().numpy(), np.asarray(ref, dtype=np.float64), rtol=1e-12, atol=1e-12
        )


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_float32_in_float32_out_with_the_grad_fn_pytorch_records(spec: OpSpec) -> None:
    xs = [
        microtorch.tensor(x, dtype=microtorch.float32, requires_grad=True) for x in inputs_for(spec)
    ]
    outs = _as_tuple(spec.microtorch(*xs))
    for out, ref in zip(
        outs, _as_tuple(spec.ref(*(x.detach().numpy().astype(np.float64) for x in xs)))
    ):
        assert out.dtype is microtorch.float32
        assert out.requires_grad and not out.is_leaf
        assert out.grad_fn.name() == spec.grad_fn
        assert_close(out.detach().numpy(), np.asarray(ref, dtype=np.float32), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("spec", OPS, ids=str)
def test_inputs_are_unchanged_and_no_graph_without_requires_grad(spec: OpSpec) -> None:
    arrays = inputs_for(spec)
    xs = [microtorch.tensor(x, dtype=microtorch.float64) for x in arrays]
    for out in _as_tuple(spec.microtorch(*xs)):
        assert out.grad_fn is None and not out.requires_grad
    for x, a in zip(xs, arrays):
        assert_close(x.numpy(), a, rtol=0, atol=0)
        assert x._version == 0
