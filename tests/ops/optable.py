"""The one table of differentiable ops that drives the forward, gradient and parity tests.

Each ``OpSpec`` runs the same code on both libraries: ``spec.call(lib, *inputs)`` with
``lib`` either ``microtorch`` or ``torch`` (students write ``import microtorch as torch``, so
one lambda serves both); ``spec.microtorch`` and ``spec.torch(torch)`` are those two callables.
Constant arguments (masks, conditions, index tensors) are built inside the lambda with
``lib.tensor``; only the differentiable inputs are passed in.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import Any

import numpy as np

import microtorch

Shape = tuple[int, ...]

# Fixed constant arguments: the same on both libraries, never differentiated.
MASK_23 = np.array([[True, False, True], [False, False, True]])
MASK_3 = np.array([True, False, True])
COND_31 = np.array([[True], [False], [True]])
IDX = np.array([2, 0, 2])  # a repeated index: its gradient must add up
GATHER_IDX = np.array([[2, 0, 2, 1], [1, 1, 0, 0]])  # (2, 4): rows of a (2, 3) along dim 1
SCATTER_IDX = np.array([[2, 0], [1, 2]])  # no repeats in a row: scatter writes each place once


def _gather(x: np.ndarray, index: np.ndarray) -> np.ndarray:
    return np.take_along_axis(x, index, 1)


def _scatter(x: np.ndarray, src: np.ndarray, index: np.ndarray, add: bool) -> np.ndarray:
    out = x.copy()
    rows = np.arange(index.shape[0])[:, None]
    if add:
        np.add.at(out, (rows, index), src[:, : index.shape[1]])
    else:
        out[rows, index] = src[:, : index.shape[1]]
    return out


@dataclass(frozen=True)
class OpSpec:
    """One op: how to call it, a numpy reference, its inputs, PyTorch's grad_fn name."""

    name: str
    call: Callable[..., Any]  # call(lib, *inputs) -> Tensor or tuple of Tensors
    ref: Callable[..., Any]  # the same on numpy arrays (float64)
    shapes: tuple[Shape, ...]  # one shape per differentiable input
    grad_fn: str  # PyTorch 2.13's grad_fn.name() for the (first) output
    domain: str = "real"  # real | positive | nonzero | unit | above_one | distinct (no ties,
    # away from kinks)
    broadcasts: bool = False  # True: binary op whose inputs may have any broadcastable shapes
    next_functions: tuple[str | None, ...] | None = field(default=None)  # if not one per input

    @property
    def microtorch(self) -> Callable[..., Any]:
        """The op on microtorch tensors."""
        return partial(self.call, microtorch)

    def torch(self, torch: ModuleType) -> Callable[..., Any]:
        """The op on torch tensors."""
        return partial(self.call, torch)

    def __str__(self) -> str:  # pytest ids
        return self.name


def sample(domain: str, shape: Shape, rng: np.random.Generator, k: int = 0) -> np.ndarray:
    """Float64 input values for ``domain``; input ``k`` of an op gets its own offset (no ties)."""
    n = int(np.prod(shape))
    if domain == "positive":
        return rng.uniform(0.5, 2.0, shape)
    if domain == "nonzero":
        return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape)
    if domain == "unit":  # inside (-1, 1), away from its edges (asin, acos, atanh)
        return rng.uniform(-0.9, 0.9, shape)
    if domain == "above_one":  # acosh's
        return rng.uniform(1.1, 3.0, shape)
    if domain == "distinct":
        # distinct values at least 4/n apart, never 0 or +-0.5 (the kinks of relu, abs, clamp)
        grid = rng.permutation(n) * (4.0 / max(n, 1)) - 2.0 + 0.0123 + 0.0371 * k
        return grid.reshape(shape)
    return rng.standard_normal(shape)


def inputs_for(spec: OpSpec, seed: int = 0) -> list[np.ndarray]:
    """Seeded float64 inputs for ``spec``."""
    rng = np.random.default_rng(seed)
    return [sample(spec.domain, s, rng, k) for k, s in enumerate(spec.shapes)]


def _erfinv(y: float) -> float:
    # bisection on math.erf: the x in [-6, 6] with erf(x) = y
    lo, hi = -6.0, 6.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erf(mid) < y else (lo, mid)
    return (lo + hi) / 2


def _lerp(a: np.ndarray, b: np.ndarray, w: Any) -> np.ndarray:
    return a + w * (b - a)


def _diag_embed(x: np.ndarray, offset: int) -> np.ndarray:
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n))
    for i in range(x.shape[-1]):
        out[..., i + max(-offset, 0), i + max(offset, 0)] = x[..., i]
    return out


def _softmax(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


S23, S31, S14, S234 = (2, 3), (3, 1), (1, 4), (2, 3, 4)

# fmt: off
OPS: list[OpSpec] = [
    # --- binary, tensor with tensor (broadcasting) ----------------------------------------
    OpSpec("add", lambda L, a, b: a + b, np.add, (S31, S14), "AddBackward0", broadcasts=True),
    OpSpec("sub", lambda L, a, b: a - b, np.subtract, (S23, (3,)), "SubBackward0", broadcasts=True),
    OpSpec("mul", lambda L, a, b: a * b, np.multiply, (S31, S14), "MulBackward0", broadcasts=True),
    OpSpec(
        "div", lambda L, a, b: a / b, np.divide, (S23, S23), "DivBackward0", "nonzero", True
    ),
    OpSpec("pow", lambda L, a, b: a**b, np.power, ((), S23), "PowBackward1", "positive", True),
    OpSpec(
        "maximum", lambda L, a, b: L.maximum(a, b), np.maximum, (S31, S14),
        "MaximumBackward0", "distinct", True,
    ),
    OpSpec(
        "minimum", lambda L, a, b: L.minimum(a, b), np.minimum, (S23, S23),
        "MinimumBackward0", "distinct", True,
    ),
    OpSpec(
        "add_alpha", lambda L, a, b: L.add(a, b, alpha=2), lambda a, b: a + 2 * b, (S23, S23),
        "AddBackward0",
    ),
    # --- binary, tensor with Python number (and the reflected forms) ----------------------
    OpSpec("add_scalar", lambda L, x: x + 2, lambda x: x + 2, (S23,), "AddBackward0"),
    OpSpec("radd_scalar", lambda L, x: 2 + x, lambda x: 2 + x, (S23,), "AddBackward0"),
    OpSpec("sub_scalar", lambda L, x: x - 2, lambda x: x - 2, (S23,), "SubBackward0"),
    OpSpec("rsub_scalar", lambda L, x: 2 - x, lambda x: 2 - x, (S23,), "RsubBackward1"),
    OpSpec("mul_scalar", lambda L, x: x * 3, lambda x: x * 3, (S23,), "MulBackward0"),
    OpSpec("rmul_scalar", lambda L, x: 3 * x, lambda x: 3 * x, (S23,), "MulBackward0"),
    OpSpec("div_scalar", lambda L, x: x / 4, lambda x: x / 4, (S23,), "DivBackward0"),
    OpSpec(
        "rdiv_scalar", lambda L, x: 2 / x, lambda x: 2 / x, (S23,), "MulBackward0", "nonzero",
        next_functions=("ReciprocalBackward0", None),
    ),
    OpSpec("pow_2", lambda L, x: x**2, lambda x: x**2, (S23,), "PowBackward0"),
    OpSpec("pow_3", lambda L, x: x**3, lambda x: x**3, (S23,), "PowBackward0"),
    OpSpec("pow_half", lambda L, x: x**0.5, np.sqrt, (S23,), "PowBackward0", "positive"),
    OpSpec("pow_neg", lambda L, x: x**-1, lambda x: 1 / x, (S23,), "PowBackward0", "nonzero"),
    OpSpec("rpow_scalar", lambda L, x: 2**x, lambda x: 2.0**x, (S23,), "PowBackward2"),
    OpSpec("square", lambda L, x: x.square(), np.square, (S23,), "PowBackward0"),
    # --- unary ------------------------------------------------------------------------------
    OpSpec("neg", lambda L, x: -x, np.negative, (S23,), "NegBackward0"),
    OpSpec("exp", lambda L, x: L.exp(x), np.exp, (S23,), "ExpBackward0"),
    OpSpec("log", lambda L, x: L.log(x), np.log, (S23,), "LogBackward0", "positive"),
    OpSpec("log1p", lambda L, x: L.log1p(x), np.log1p, (S23,), "Log1PBackward0", "positive"),
    OpSpec("sqrt", lambda L, x: L.sqrt(x), np.sqrt, (S23,), "SqrtBackward0", "positive"),
    OpSpec("abs", lambda L, x: L.abs(x), np.abs, (S23,), "AbsBackward0", "distinct"),
    OpSpec("sin", lambda L, x: L.sin(x), np.sin, (S23,), "SinBackward0"),
    OpSpec("cos", lambda L, x: x.cos(), np.cos, (S23,), "CosBackward0"),
    OpSpec("sigmoid", lambda L, x: L.sigmoid(x), _sigmoid, (S23,), "SigmoidBackward0"),
    OpSpec("tan", lambda L, x: L.tan(x), np.tan, (S23,), "TanBackward0", "unit"),
    OpSpec("sinh", lambda L, x: L.sinh(x), np.sinh, (S23,), "SinhBackward0"),
    OpSpec("cosh", lambda L, x: x.cosh(), np.cosh, (S23,), "CoshBackward0"),
    OpSpec("asin", lambda L, x: L.asin(x), np.arcsin, (S23,), "AsinBackward0", "unit"),
    OpSpec("acos", lambda L, x: x.acos(), np.arccos, (S23,), "AcosBackward0", "unit"),
    OpSpec("atan", lambda L, x: L.arctan(x), np.arctan, (S23,), "AtanBackward0"),
    OpSpec("asinh", lambda L, x: L.asinh(x), np.arcsinh, (S23,), "AsinhBackward0"),
    OpSpec(
        "acosh", lambda L, x: L.acosh(x), np.arccosh, (S23,), "AcoshBackward0", "above_one"
    ),
    OpSpec("atanh", lambda L, x: x.atanh(), np.arctanh, (S23,), "AtanhBackward0", "unit"),
    OpSpec(
        "atan2", lambda L, a, b: L.atan2(a, b), np.arctan2, (S31, S14), "Atan2Backward0",
        "nonzero", True,
    ),
    OpSpec("tanh", lambda L, x: x.tanh(), np.tanh, (S23,), "TanhBackward0"),
    # the walk of PyTorch's namespaces (docs/api_walk.md): more pointwise functions
    OpSpec("deg2rad", lambda L, x: L.deg2rad(x), np.deg2rad, (S23,), "Deg2RadBackward0"),
    OpSpec("rad2deg", lambda L, x: x.rad2deg(), np.rad2deg, (S23,), "Rad2DegBackward0"),
    OpSpec(
        "hypot", lambda L, a, b: L.hypot(a, b), np.hypot, (S31, S14), "HypotBackward0",
        "nonzero", True,
    ),
    OpSpec(
        "logaddexp", lambda L, a, b: L.logaddexp(a, b), np.logaddexp, (S31, S14),
        "LogaddexpBackward0", "real", True,
    ),
    OpSpec(
        "logaddexp2", lambda L, a, b: a.logaddexp2(b), np.logaddexp2, (S23, S23),
        "Logaddexp2Backward0", "real", True,
    ),
    OpSpec(
        "copysign", lambda L, a, b: L.copysign(a, b), np.copysign, (S31, S14),
        "CopysignBackward0", "nonzero", True,
    ),
    OpSpec(
        "copysign_scalar", lambda L, x: x.copysign(-1.0), lambda x: np.copysign(x, -1.0),
        (S23,), "CopysignBackward1", "nonzero",
    ),
    OpSpec(
        "fmax", lambda L, a, b: L.fmax(a, b), np.fmax, (S31, S14), "FmaxBackward0",
        "distinct", True,
    ),
    OpSpec(
        "fmin", lambda L, a, b: a.fmin(b), np.fmin, (S23, S23), "FminBackward0", "distinct",
        True,
    ),
    OpSpec(
        "relu", lambda L, x: L.relu(x), lambda x: np.maximum(x, 0), (S23,), "ReluBackward0",
        "distinct",
    ),
    OpSpec(
        "reciprocal", lambda L, x: x.reciprocal(), lambda x: 1 / x, (S23,),
        "ReciprocalBackward0", "nonzero",
    ),
    OpSpec(
        "clamp_min", lambda L, x: L.clamp(x, min=-0.5), lambda x: np.maximum(x, -0.5), (S23,),
        "ClampBackward1", "distinct",
    ),
    OpSpec(
        "clamp_max", lambda L, x: x.clamp(max=0.5), lambda x: np.minimum(x, 0.5), (S23,),
        "ClampBackward1", "distinct",
    ),
    OpSpec(
        "clamp_both", lambda L, x: x.clamp(-0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), (S23,),
        "ClampBackward1", "distinct",
    ),
    # --- selection: where, masked_fill ---------------------------------------------------
    OpSpec(
        "where", lambda L, a, b: L.where(L.tensor(MASK_23), a, b),
        lambda a, b: np.where(MASK_23, a, b), (S23, S23), "WhereBackward0",
    ),
    OpSpec(
        "where_broadcast", lambda L, a, b: L.where(L.tensor(COND_31), a, b),
        lambda a, b: np.where(COND_31, a, b), (S14, (3, 4)), "WhereBackward0",
    ),
    OpSpec(
        "masked_fill", lambda L, x: x.masked_fill(L.tensor(MASK_23), 0.5),
        lambda x: np.where(MASK_23, 0.5, x), (S23,), "MaskedFillBackward0",
    ),
    OpSpec(
        "masked_fill_broadcast", lambda L, x: x.masked_fill(L.tensor(MASK_3), -1.0),
        lambda x: np.where(MASK_3, -1.0, x), (S23,), "MaskedFillBackward0",
    ),
    # --- reductions -----------------------------------------------------------------------
    OpSpec("sum", lambda L, x: x.sum(), np.sum, (S23,), "SumBackward0"),
    OpSpec("sum_dim", lambda L, x: x.sum(dim=1), lambda x: x.sum(1), (S234,), "SumBackward1"),
    OpSpec(
        "sum_dims_keepdim", lambda L, x: L.sum(x, dim=(0, 2), keepdim=True),
        lambda x: x.sum((0, 2), keepdims=True), (S234,), "SumBackward1",
    ),
    OpSpec(
        "sum_neg_dim", lambda L, x: x.sum(-1, keepdim=True), lambda x: x.sum(-1, keepdims=True),
        (S23,), "SumBackward1",
    ),
    OpSpec("mean", lambda L, x: x.mean(), np.mean, (S23,), "MeanBackward0"),
    OpSpec("mean_dim", lambda L, x: x.mean(dim=0), lambda x: x.mean(0), (S234,), "MeanBackward1"),
    OpSpec(
        "mean_dim_keepdim", lambda L, x: L.mean(x, 1, keepdim=True),
        lambda x: x.mean(1, keepdims=True), (S23,), "MeanBackward1",
    ),
    OpSpec("max", lambda L, x: x.max(), np.max, (S23,), "MaxBackward1", "distinct"),
    OpSpec("min", lambda L, x: L.min(x), np.min, (S23,), "MinBackward1", "distinct"),
    OpSpec(
        "max_dim", lambda L, x: x.max(dim=1).values, lambda x: x.max(1), (S234,),
        "MaxBackward0", "distinct",
    ),
    OpSpec(
        "max_dim_keepdim", lambda L, x: L.max(x, 0, keepdim=True)[0],
        lambda x: x.max(0, keepdims=True), (S23,), "MaxBackward0", "distinct",
    ),
    OpSpec(
        "min_dim", lambda L, x: x.min(dim=-1).values, lambda x: x.min(-1), (S23,),
        "MinBackward0", "distinct",
    ),
    OpSpec("amax", lambda L, x: L.amax(x), np.max, (S23,), "AmaxBackward0", "distinct"),
    OpSpec(
        "amax_dim", lambda L, x: x.amax(dim=1), lambda x: x.max(1), (S234,), "AmaxBackward0",
        "distinct",
    ),
    OpSpec(
        "amax_dims", lambda L, x: x.amax(dim=(0, 2)), lambda x: x.max((0, 2)), (S234,),
        "AmaxBackward0", "distinct",
    ),
    OpSpec(
        "amin_dim_keepdim", lambda L, x: L.amin(x, 0, keepdim=True),
        lambda x: x.min(0, keepdims=True), (S23,), "AminBackward0", "distinct",
    ),
    OpSpec("var", lambda L, x: x.var(), lambda x: x.var(ddof=1), (S23,), "VarBackward0"),
    OpSpec(
        "var_dim", lambda L, x: L.var(x, dim=1), lambda x: x.var(1, ddof=1), (S234,),
        "VarBackward0",
    ),
    OpSpec("std", lambda L, x: x.std(), lambda x: x.std(ddof=1), (S23,), "StdBackward0"),
    OpSpec(
        "std_dim_keepdim", lambda L, x: L.std(x, 0, keepdim=True),
        lambda x: x.std(0, ddof=1, keepdims=True), (S23,), "StdBackward0",
    ),
    OpSpec(
        "softmax", lambda L, x: L.softmax(x, dim=-1), lambda x: _softmax(x, -1), (S23,),
        "SoftmaxBackward0",
    ),
    OpSpec(
        "softmax_dim0", lambda L, x: x.softmax(0), lambda x: _softmax(x, 0), (S234,),
        "SoftmaxBackward0",
    ),
    OpSpec(
        "log_softmax", lambda L, x: L.log_softmax(x, dim=1), lambda x: np.log(_softmax(x, 1)),
        (S23,), "LogSoftmaxBackward0",
    ),
    OpSpec(
        "logsumexp", lambda L, x: L.logsumexp(x, dim=1),
        lambda x: np.log(np.exp(x).sum(1)), (S23,), "LogsumexpBackward0",
    ),
    # --- matrix products ---------------------------------------------------------------------
    OpSpec("matmul_1d_1d", lambda L, a, b: a @ b, np.matmul, ((4,), (4,)), "DotBackward0"),
    OpSpec("matmul_2d_1d", lambda L, a, b: a @ b, np.matmul, ((3, 4), (4,)), "MvBackward0"),
    OpSpec(
        "matmul_1d_2d", lambda L, a, b: L.matmul(a, b), np.matmul, ((3,), (3, 4)),
        "SqueezeBackward4", next_functions=("MmBackward0",),
    ),
    OpSpec("matmul_2d_2d", lambda L, a, b: a @ b, np.matmul, ((2, 3), (3, 4)), "MmBackward0"),
    OpSpec(
        "matmul_3d_3d", lambda L, a, b: a @ b, np.matmul, ((2, 3, 4), (2, 4, 2)),
        "UnsafeViewBackward0", next_functions=("BmmBackward0",),
    ),
    OpSpec(
        "matmul_3d_2d", lambda L, a, b: a @ b, np.matmul, ((2, 3, 4), (4, 2)),
        "UnsafeViewBackward0", next_functions=("MmBackward0",),
    ),
    OpSpec(
        "matmul_2d_3d", lambda L, a, b: a @ b, np.matmul, ((3, 4), (2, 4, 2)),
        "CloneBackward0", next_functions=("TransposeBackward0",),
    ),
    OpSpec(
        "matmul_3d_1d", lambda L, a, b: a @ b, np.matmul, ((2, 3, 4), (4,)),
        "UnsafeViewBackward0", next_functions=("MvBackward0",),
    ),
    OpSpec(
        "matmul_1d_3d", lambda L, a, b: a @ b, np.matmul, ((4,), (2, 4, 3)),
        "UnsafeViewBackward0", next_functions=("MvBackward0",),
    ),
    OpSpec(
        "matmul_batch_broadcast", lambda L, a, b: a @ b, np.matmul, ((2, 1, 3, 4), (3, 4, 2)),
        "UnsafeViewBackward0", next_functions=("BmmBackward0",),
    ),
    OpSpec("mm", lambda L, a, b: L.mm(a, b), np.matmul, ((2, 3), (3, 4)), "MmBackward0"),
    OpSpec("mv", lambda L, a, b: a.mv(b), np.matmul, ((3, 4), (4,)), "MvBackward0"),
    OpSpec("dot", lambda L, a, b: L.dot(a, b), np.dot, ((4,), (4,)), "DotBackward0"),
    OpSpec("bmm", lambda L, a, b: L.bmm(a, b), np.matmul, ((2, 3, 4), (2, 4, 2)), "BmmBackward0"),
    # --- views and reshapes -------------------------------------------------------------------
    OpSpec(
        "reshape", lambda L, x: x.reshape(4, 6), lambda x: x.reshape(4, 6), (S234,),
        "ViewBackward0",
    ),
    OpSpec(
        "reshape_copy", lambda L, x: x.t().reshape(-1), lambda x: x.T.reshape(-1), (S23,),
        "UnsafeViewBackward0", next_functions=("CloneBackward0",),
    ),
    OpSpec(
        "view", lambda L, x: x.view(3, -1), lambda x: x.reshape(3, -1), (S234,), "ViewBackward0"
    ),
    OpSpec("flatten", lambda L, x: x.flatten(), np.ravel, (S234,), "ViewBackward0"),
    OpSpec(
        "flatten_start", lambda L, x: L.flatten(x, start_dim=1), lambda x: x.reshape(2, 12),
        (S234,), "ViewBackward0",
    ),
    OpSpec("squeeze", lambda L, x: x.squeeze(), np.squeeze, ((1, 3, 1),), "SqueezeBackward0"),
    OpSpec(
        "squeeze_dim", lambda L, x: L.squeeze(x, 2), lambda x: x.squeeze(2), ((1, 3, 1),),
        "SqueezeBackward1",
    ),
    OpSpec(
        "unsqueeze", lambda L, x: x.unsqueeze(0), lambda x: x[None], (S23,),
        "UnsqueezeBackward0",
    ),
    OpSpec(
        "unsqueeze_neg", lambda L, x: L.unsqueeze(x, -1), lambda x: x[..., None], (S23,),
        "UnsqueezeBackward0",
    ),
    OpSpec(
        "expand", lambda L, x: x.expand(2, 3, 4), lambda x: np.broadcast_to(x, S234), (S31,),
        "ExpandBackward0",
    ),
    OpSpec(
        "expand_keep", lambda L, x: x.expand(-1, 4), lambda x: np.broadcast_to(x, (3, 4)),
        (S31,), "ExpandBackward0",
    ),
    OpSpec(
        "transpose", lambda L, x: x.transpose(0, 2), lambda x: x.swapaxes(0, 2), (S234,),
        "TransposeBackward0",
    ),
    OpSpec(
        "permute", lambda L, x: x.permute(2, 0, 1), lambda x: x.transpose(2, 0, 1), (S234,),
        "PermuteBackward0",
    ),
    OpSpec("t", lambda L, x: x.t(), np.transpose, (S23,), "TBackward0"),
    OpSpec("T", lambda L, x: x.T, np.transpose, (S23,), "PermuteBackward0"),
    OpSpec(
        "mT", lambda L, x: x.mT, lambda x: x.swapaxes(-1, -2), (S234,), "TransposeBackward0"
    ),
    OpSpec("clone", lambda L, x: x.clone(), np.copy, (S23,), "CloneBackward0"),
    OpSpec(
        "contiguous", lambda L, x: x.t().contiguous(), lambda x: x.T.copy(), (S23,),
        "CloneBackward0",
    ),
    # --- indexing -----------------------------------------------------------------------------
    OpSpec("index_int", lambda L, x: x[1], lambda x: x[1], (S23,), "SelectBackward0"),
    OpSpec("index_neg_int", lambda L, x: x[-1], lambda x: x[-1], (S234,), "SelectBackward0"),
    OpSpec("index_slice", lambda L, x: x[1:], lambda x: x[1:], (S234,), "SliceBackward0"),
    OpSpec("index_step", lambda L, x: x[:, ::2], lambda x: x[:, ::2], (S23,), "SliceBackward0"),
    OpSpec(
        "index_int_slice", lambda L, x: x[0, 1:], lambda x: x[0, 1:], (S23,), "SliceBackward0",
        next_functions=("SelectBackward0",),
    ),
    OpSpec(
        "index_col", lambda L, x: x[:, 1], lambda x: x[:, 1], (S234,), "SelectBackward0"
    ),
    OpSpec(
        "index_ellipsis", lambda L, x: x[..., 0], lambda x: x[..., 0], (S234,),
        "SelectBackward0",
    ),
    OpSpec("index_none", lambda L, x: x[None], lambda x: x[None], (S23,), "UnsqueezeBackward0"),
    OpSpec(
        "index_none_mid", lambda L, x: x[:, None], lambda x: x[:, None], (S23,),
        "UnsqueezeBackward0",
    ),
    OpSpec(
        "index_int_array", lambda L, x: x[L.tensor(IDX)], lambda x: x[IDX], ((4, 2),),
        "IndexBackward0",
    ),
    OpSpec(
        "index_list", lambda L, x: x[[0, 2, 0]], lambda x: x[[0, 2, 0]], ((3, 2),),
        "IndexBackward0",
    ),
    OpSpec(
        "index_bool_mask", lambda L, x: x[L.tensor(MASK_23)], lambda x: x[MASK_23], (S23,),
        "IndexBackward0",
    ),
    OpSpec(
        "index_bool_rows", lambda L, x: x[L.tensor(MASK_3)], lambda x: x[MASK_3], ((3, 2),),
        "IndexBackward0",
    ),
    OpSpec(
        "index_int_and_array", lambda L, x: x[1, L.tensor(IDX)], lambda x: x[1, IDX], (S234,),
        "IndexBackward0", next_functions=("SelectBackward0",),
    ),
    OpSpec(
        "index_slice_and_array", lambda L, x: x[:, [2, 0]], lambda x: x[:, [2, 0]], (S234,),
        "IndexBackward0",
    ),
    OpSpec(
        "index_ellipsis_array", lambda L, x: x[..., L.tensor(IDX)], lambda x: x[..., IDX],
        (S234,), "IndexBackward0",
    ),
    OpSpec(
        "index_two_arrays", lambda L, x: x[[0, 1, 1], [2, 0, 2]],
        lambda x: x[[0, 1, 1], [2, 0, 2]], (S23,), "IndexBackward0",
    ),
    # --- gather and scatter along a dimension ---------------------------------------------
    OpSpec(
        "gather", lambda L, x: x.gather(1, L.tensor(GATHER_IDX)),
        lambda x: _gather(x, GATHER_IDX), (S23,), "GatherBackward0",
    ),
    OpSpec(
        "scatter", lambda L, x, s: x.scatter(1, L.tensor(SCATTER_IDX), s),
        lambda x, s: _scatter(x, s, SCATTER_IDX, False), (S23, (2, 2)), "ScatterBackward0",
    ),
    OpSpec(
        "scatter_value", lambda L, x: L.scatter(x, 1, L.tensor(SCATTER_IDX), 0.5),
        lambda x: _scatter(x, np.full((2, 2), 0.5), SCATTER_IDX, False), (S23,),
        "ScatterBackward1",
    ),
    OpSpec(
        "scatter_add", lambda L, x, s: x.scatter_add(1, L.tensor(GATHER_IDX), s),
        lambda x, s: _scatter(x, s, GATHER_IDX, True), (S23, (2, 4)), "ScatterAddBackward0",
    ),
    OpSpec(
        "scatter_reduce_sum", lambda L, x, s: x.scatter_reduce(1, L.tensor(GATHER_IDX), s, "sum"),
        lambda x, s: _scatter(x, s, GATHER_IDX, True), (S23, (2, 4)), "ScatterReduceBackward0",
    ),
    # --- cross product, singular values, grids -----------------------------------------
    OpSpec(
        "cross", lambda L, a, b: L.cross(a, b, dim=1), lambda a, b: np.cross(a, b, axis=1),
        (S23, (1, 3)), "LinalgCrossBackward0", broadcasts=False,
    ),
    OpSpec(
        "meshgrid", lambda L, a, b: L.meshgrid(a, b, indexing="ij"),
        lambda a, b: tuple(np.meshgrid(a, b, indexing="ij")), ((3,), (2,)), "ExpandBackward0",
    ),
    # --- linear algebra (issue 24: lin) -------------------------------------------------
    OpSpec("det", lambda L, x: L.det(x), np.linalg.det, ((3, 3),), "LinalgDetBackward0"),
    OpSpec(
        "tensordot", lambda L, a, b: L.tensordot(a, b, dims=([0], [1])),
        lambda a, b: np.tensordot(a, b, axes=([0], [1])), (S23, (4, 2)), "ViewBackward0",
    ),
    OpSpec(
        "vecdot", lambda L, a, b: L.linalg.vecdot(a, b), lambda a, b: (a * b).sum(-1), (S23, (3,)),
        "SumBackward1",
    ),
    OpSpec(
        "multi_dot", lambda L, a, b, c: L.linalg.multi_dot([a, b, c]),
        lambda a, b, c: a @ b @ c, (S23, (3, 4), (4, 2)), "ViewBackward0",
    ),
    OpSpec(
        "matrix_power", lambda L, x: L.linalg.matrix_power(x, 4),
        lambda x: np.linalg.matrix_power(x, 4), ((3, 3),), "MmBackward0",
    ),
    OpSpec(
        "cartesian_prod", lambda L, a, b: L.cartesian_prod(a, b),
        lambda a, b: np.stack([np.repeat(a, len(b)), np.tile(b, len(a))], 1), ((3,), (2,)),
        "StackBackward0",
    ),
    # --- triangles, flips, rolls, repeats, selections (issue 24) -----------------------
    OpSpec("tril", lambda L, x: x.tril(), np.tril, (S234,), "TrilBackward0"),
    OpSpec("triu", lambda L, x: L.triu(x, 1), lambda x: np.triu(x, 1), (S23,), "TriuBackward0"),
    OpSpec(
        "flip", lambda L, x: x.flip(0, 2), lambda x: np.flip(x, (0, 2)), (S234,), "FlipBackward0"
    ),
    OpSpec(
        "roll", lambda L, x: L.roll(x, (1, -1), (0, 2)), lambda x: np.roll(x, (1, -1), (0, 2)),
        (S234,), "RollBackward0",
    ),
    OpSpec(
        "repeat", lambda L, x: x.repeat(2, 1, 3), lambda x: np.tile(x, (2, 1, 3)), (S23,),
        "RepeatBackward0",
    ),
    OpSpec(
        "index_select", lambda L, x: x.index_select(1, L.tensor(IDX)),
        lambda x: np.take(x, IDX, 1), (S23,), "IndexSelectBackward0",
    ),
    OpSpec(
        "masked_select", lambda L, x: x.masked_select(L.tensor(MASK_3)),
        lambda x: x[np.broadcast_to(MASK_3, x.shape)], (S23,), "MaskedSelectBackward0",
    ),
    OpSpec(
        "rsqrt", lambda L, x: x.rsqrt(), lambda x: 1 / np.sqrt(x), (S23,), "RsqrtBackward0",
        "positive",
    ),
    OpSpec("expm1", lambda L, x: L.expm1(x), np.expm1, (S23,), "Expm1Backward0"),
    OpSpec(
        "clamp_min_one_side", lambda L, x: x.clamp_min(-0.5), lambda x: np.maximum(x, -0.5),
        (S23,), "ClampMinBackward0", "distinct",
    ),
    OpSpec(
        "clamp_max_one_side", lambda L, x: L.clamp_max(x, 0.5), lambda x: np.minimum(x, 0.5),
        (S23,), "ClampMaxBackward0", "distinct",
    ),
    OpSpec("nan_to_num", lambda L, x: x.nan_to_num(), np.nan_to_num, (S23,), "NanToNumBackward0"),
    # --- the error function, blends, diagonals (issue 24) ------------------------------
    OpSpec("erf", lambda L, x: x.erf(), np.frompyfunc(math.erf, 1, 1), (S23,), "ErfBackward0"),
    OpSpec(
        "erfc", lambda L, x: L.erfc(x), np.frompyfunc(math.erfc, 1, 1), (S23,), "ErfcBackward0"
    ),
    OpSpec(
        "erfinv", lambda L, x: L.erfinv(x), np.vectorize(_erfinv), (S23,), "ErfinvBackward0",
        "unit",
    ),
    OpSpec(
        "lerp_scalar", lambda L, a, b: L.lerp(a, b, 0.3), lambda a, b: _lerp(a, b, 0.3),
        (S23, (1, 3)), "LerpBackward0", broadcasts=True,
    ),
    OpSpec(
        "lerp_tensor", lambda L, a, b, w: a.lerp(b, w), _lerp, (S23, (3,), (2, 1)),
        "LerpBackward1",
    ),
    OpSpec(
        "addcmul", lambda L, a, b, c: L.addcmul(a, b, c, value=0.5),
        lambda a, b, c: a + 0.5 * b * c, (S23, (3,), (2, 1)), "AddcmulBackward0",
    ),
    OpSpec(
        "addcdiv", lambda L, a, b, c: a.addcdiv(b, c, value=-2),
        lambda a, b, c: a - 2 * b / c, (S23, S23, (3,)), "AddcdivBackward0", "nonzero",
    ),
    OpSpec(
        "diagonal", lambda L, x: x.diagonal(1, 2, 0), lambda x: np.diagonal(x, 1, 2, 0).copy(),
        (S234,), "DiagonalBackward0",
    ),
    OpSpec("diag_matrix", lambda L, x: L.diag(x, -1), lambda x: np.diag(x, -1), ((3, 3),),
           "DiagonalBackward0_copy"),
    OpSpec("diag_vector", lambda L, x: x.diag(1), lambda x: np.diag(x, 1), ((3,),),
           "DiagEmbedBackward0"),
    OpSpec(
        "diag_embed", lambda L, x: L.diag_embed(x, 1), lambda x: _diag_embed(x, 1), (S23,),
        "DiagEmbedBackward0",
    ),
    OpSpec("trace", lambda L, x: x.trace(), np.trace, ((3, 4),), "TraceBackward0"),
    OpSpec("median", lambda L, x: x.median(), lambda x: np.sort(x, None)[(x.size - 1) // 2],
           ((3, 3),), "MedianBackward0", "distinct"),
    OpSpec("median_dim", lambda L, x: L.median(x, 1).values,
           lambda x: np.sort(x, 1)[:, (x.shape[1] - 1) // 2], ((3, 4),), "MedianBackward1",
           "distinct"),
    OpSpec("diff", lambda L, x: x.diff(), lambda x: np.diff(x), (S23,), "SubBackward0"),
    OpSpec("diff_twice_prepend", lambda L, x, p: L.diff(x, n=2, dim=0, prepend=p),
           lambda x, p: np.diff(np.concatenate([p, x]), 2, 0), ((3, 2), (1, 2)), "SubBackward0"),
    OpSpec("repeat_interleave", lambda L, x: x.repeat_interleave(2, dim=1),
           lambda x: np.repeat(x, 2, 1), (S23,), "ViewBackward0"),
    OpSpec("repeat_interleave_counts", lambda L, x: L.repeat_interleave(x, L.tensor([2, 0]), 0),
           lambda x: np.repeat(x, [2, 0], 0), (S23,), "IndexSelectBackward0"),
    # --- the rest of torch.* (issue 24, api7) --------------------------------------------
    OpSpec("frac", lambda L, x: x.frac(), lambda x: x - np.trunc(x), (S23,), "FracBackward0",
           "distinct"),
    OpSpec("nansum", lambda L, x: L.nansum(x), np.nansum, (S23,), "NansumBackward0"),
    OpSpec("nansum_dim", lambda L, x: x.nansum(1, keepdim=True),
           lambda x: np.nansum(x, 1, keepdims=True), (S234,), "NansumBackward0"),
    OpSpec("nanmean_dim", lambda L, x: L.nanmean(x, (0, 2)), lambda x: np.nanmean(x, (0, 2)),
           (S234,), "DivBackward0"),
    OpSpec("var_mean", lambda L, x: L.var_mean(x, 1),
           lambda x: (x.var(1, ddof=1), x.mean(1)), (S234,), "VarMeanBackward0"),
    OpSpec("std_mean", lambda L, x: L.std_mean(x, (0, 1), keepdim=True, correction=0),
           lambda x: (x.std((0, 1), keepdims=True), x.mean((0, 1), keepdims=True)), (S234,),
           "StdMeanBackward0"),
    OpSpec("std_mean_all", lambda L, x: L.std_mean(x), lambda x: (x.std(ddof=1), x.mean()),
           (S23,), "StdMeanBackward0"),
    OpSpec("kthvalue", lambda L, x: x.kthvalue(2, 0).values, lambda x: np.sort(x, 0)[1],
           ((4, 3),), "KthvalueBackward0", "distinct"),
    OpSpec("mode", lambda L, x: L.mode(x * 0 + 1, 1, keepdim=True).values,
           lambda x: np.ones((x.shape[0], 1)), (S23,), "ModeBackward0"),
    # --- joining and splitting ----------------------------------------------------------
    OpSpec(
        "cat", lambda L, a, b: L.cat([a, b]), lambda a, b: np.concatenate([a, b]),
        (S23, (1, 3)), "CatBackward0",
    ),
    OpSpec(
        "cat_dim1", lambda L, a, b, c: L.cat((a, b, c), dim=1),
        lambda a, b, c: np.concatenate([a, b, c], 1), (S23, (2, 1), S23), "CatBackward0",
    ),
    OpSpec(
        "stack", lambda L, a, b: L.stack([a, b]), lambda a, b: np.stack([a, b]), (S23, S23),
        "StackBackward0",
    ),
    OpSpec(
        "stack_last", lambda L, a, b: L.stack([a, b], dim=-1),
        lambda a, b: np.stack([a, b], -1), (S23, S23), "StackBackward0",
    ),
    OpSpec(
        "split", lambda L, x: x.split(2), lambda x: tuple(np.split(x, [2, 4])), ((5, 2),),
        "SplitBackward0",
    ),
    OpSpec(
        "split_sizes", lambda L, x: L.split(x, [1, 2], dim=1),
        lambda x: tuple(np.split(x, [1], 1)), (S23,), "SplitWithSizesBackward0",
    ),
    OpSpec(
        "chunk", lambda L, x: x.chunk(2, dim=-1), lambda x: tuple(np.split(x, [2], -1)),
        (S234,), "SplitBackward0",
    ),
    OpSpec(
        "unbind", lambda L, x: x.unbind(1), lambda x: tuple(np.moveaxis(x, 1, 0)), (S23,),
        "UnbindBackward0",
    ),
    OpSpec(
        "scaled_dot_product_attention",
        lambda L, q, k, v: L.nn.functional.scaled_dot_product_attention(q, k, v),
        lambda q, k, v: _softmax(q @ np.swapaxes(k, -1, -2) / 2.0, -1) @ v,
        ((2, 3, 4), (2, 5, 4), (2, 5, 3)), "UnsafeViewBackward0", next_functions=("BmmBackward0",),
    ),
]
# fmt: on

BINARY = [spec for spec in OPS if spec.broadcasts]
