"""microtorch: PyTorch's tensors and autograd, rebuilt on numpy for teaching.

Write ``import microtorch as torch`` and beginner PyTorch code runs unchanged.
"""

import builtins
import importlib
import math
from typing import Any

from microtorch import _coverage, autograd
from microtorch._tensor_str import get_printoptions, set_printoptions
from microtorch.api import binary_functions as _binary_functions
from microtorch.api._checks import expect_tensor as _expect_tensor
from microtorch.api.bitwise import bitwise_not, positive
from microtorch.api.composites import (
    argwhere,
    broadcast_to,
    clamp_max,
    clamp_min,
    column_stack,
    count_nonzero,
    hstack,
    movedim,
    nan_to_num,
    narrow,
    outer,
    row_stack,
    vstack,
)
from microtorch.api.cross import cross
from microtorch.api.cumulative import cumprod, cumsum, prod
from microtorch.api.decomposition import svd
from microtorch.api.diagonal import diag, diag_embed, diagonal, trace
from microtorch.api.einsum import einsum
from microtorch.api.elementwise import logical_not, masked_fill
from microtorch.api.elementwise import where as _where
from microtorch.api.grids import meshgrid
from microtorch.api.histogram import histc, histogram, histogramdd
from microtorch.api.index_along import index_add, index_copy, index_fill
from microtorch.api.indexing import select
from microtorch.api.join import cat, chunk, split, stack, unbind
from microtorch.api.keywords import torch_keywords
from microtorch.api.legacy_types import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
from microtorch.api.linalg import bmm, dot, matmul, mm, mv, norm
from microtorch.api.linalg_compose import broadcast_tensors, cartesian_prod, tensordot
from microtorch.api.linalg_factor import cdist
from microtorch.api.linalg_square import inverse, slogdet
from microtorch.api.linalg_square import torch_det as det
from microtorch.api.logarithms import log2, log10
from microtorch.api.quantile import nanquantile, quantile
from microtorch.api.real_only import conj, imag, is_complex, is_conj, real, resolve_conj
from microtorch.api.rearrange import (
    expm1,
    finfo,
    flip,
    iinfo,
    index_select,
    is_floating_point,
    masked_select,
    roll,
    rsqrt,
    tile,
    tril,
    triu,
)
from microtorch.api.reduction import (
    amax,
    amin,
    argmax,
    argmin,
    log_softmax,
    logsumexp,
    max,
    mean,
    min,
    softmax,
    std,
    sum,
    var,
)
from microtorch.api.rounding import ceil, floor, frac, round, sign, trunc
from microtorch.api.sampling import bernoulli, normal
from microtorch.api.scatter import gather, scatter, scatter_add, scatter_reduce
from microtorch.api.sequences import diff, repeat_interleave
from microtorch.api.shape import clone, flatten, permute, squeeze, t, transpose, unsqueeze
from microtorch.api.shape import reshape_function as reshape
from microtorch.api.special import addcdiv, addcmul, erf, erfc, erfinv, lerp
from microtorch.api.special_functions import exp2, exp2_, logit, logit_, sinc, sinc_, xlogy, xlogy_
from microtorch.api.statistics import (
    bincount,
    kthvalue,
    median,
    mode,
    nanmean,
    nansum,
    std_mean,
    var_mean,
)
from microtorch.api.trigonometry import (
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atanh,
    cosh,
    sinh,
    tan,
)
from microtorch.api.truth import all, any, isfinite, isinf, isnan, isneginf, isposinf, signbit
from microtorch.api.twins import (
    abs_,
    acos_,
    acosh_,
    asin_,
    asinh_,
    atan_,
    atanh_,
    ceil_,
    clamp_,
    cos_,
    cosh_,
    exp_,
    floor_,
    log1p_,
    log2_,
    log10_,
    log_,
    neg_,
    reciprocal_,
    relu_,
    round_,
    sigmoid_,
    sin_,
    sinh_,
    sqrt_,
    square_,
    tan_,
    tanh_,
    trunc_,
)  # fmt: skip
from microtorch.api.unary import (
    abs,
    clamp,
    clip,
    cos,
    exp,
    log,
    log1p,
    neg,
    reciprocal,
    relu,
    sigmoid,
    sin,
    sqrt,
    tanh,
)
from microtorch.api.unique import unique
from microtorch.autograd import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from microtorch.creation import (
    Generator,
    arange,
    as_tensor,
    default_generator,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    manual_seed,
    multinomial,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    range,
    seed,
    tensor,
    zeros,
    zeros_like,
)  # fmt: skip
from microtorch.device import device, get_default_device, set_default_device
from microtorch.dtypes import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    layout,
    long,
    promote_types,
    result_type,
    set_default_dtype,
    short,
    strided,
    uint8,
)  # fmt: skip
from microtorch.runtime import (
    are_deterministic_algorithms_enabled,
    get_num_threads,
    is_deterministic_algorithms_warn_only_enabled,
    set_num_threads,
    use_deterministic_algorithms,
)
from microtorch.tensor import Size, Tensor

# PyTorch's other names for the same functions:
concat = concatenate = cat
absolute, negative = abs, neg  # (multiply, divide, subtract: below, with add, mul, ...)
swapaxes = swapdims = transpose
square = Tensor.square

__all__ = [
    "Generator", "Size", "Tensor", "abs", "add", "addmm", "amax", "amin", "arange", "argmax",
    "argmin", "as_tensor", "autograd", "bmm", "bool", "cat", "chunk", "clamp", "clip", "clone",
    "cos", "default_generator", "device", "div", "dot", "double", "dtype", "empty",
    "empty_like", "enable_grad", "eq", "exp", "eye", "flatten", "float", "float16", "float32",
    "float64", "from_numpy", "full", "full_like", "ge", "get_default_dtype",
    "get_printoptions", "gt", "half", "inference_mode", "int", "int8", "int16", "int32",
    "int64", "is_grad_enabled", "is_inference_mode_enabled", "le", "linspace", "log", "log1p",
    "log_softmax",
    "logical_and", "logical_not", "logical_or", "logsumexp", "long", "lt", "manual_seed",
    "masked_fill", "matmul", "max", "maximum", "mean", "min", "minimum", "mm", "mul",
    "multinomial", "mv",
    "ne", "neg", "no_grad", "ones", "ones_like", "permute", "pow", "promote_types", "rand",
    "rand_like", "randint", "randn", "randn_like", "randperm", "reciprocal", "relu", "reshape",
    "result_type", "seed", "set_default_dtype", "set_grad_enabled", "set_printoptions",
    "short", "sigmoid", "sin", "softmax", "split", "sqrt", "squeeze", "stack", "std", "sub",
    "sum", "t", "tanh", "tensor", "transpose", "uint8", "unbind", "unsqueeze", "var", "where",
    "zeros", "zeros_like",
]  # fmt: skip
__all__ += [
    "absolute", "concat", "concatenate", "divide", "multiply", "negative", "square", "subtract",
    "swapaxes", "swapdims",
]  # fmt: skip
# issue 13: operators and functions beginner code uses (api/division.py, api/bitwise.py ...)
__all__ += [
    "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "floor_divide", "fmod",
    "positive", "remainder", "round", "floor", "ceil", "trunc", "sign", "isnan", "isinf",
    "isfinite", "any", "all", "log10", "log2", "norm", "prod", "cumsum", "cumprod",
    "get_default_device", "set_default_device", "numel", "accelerator", "histc",
    "histogram",
]  # fmt: skip
# issue 24: legacy tensor types, trigonometry, the in-place twins (torch.sin_(x) ...)
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
atan2, arctan2 = _binary_functions.function("atan2"), _binary_functions.function("arctan2")
arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_ = (
    asin_,
    acos_,
    atan_,
    asinh_,
    acosh_,
    atanh_,
)
negative_, clip_ = neg_, clamp_
__all__ += [
    "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
    "IntTensor", "LongTensor", "ShortTensor",
    "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "tan",
    "abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
    "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clip_", "cos_",
    "cosh_", "exp_", "floor_", "log10_", "log1p_", "log2_", "log_", "neg_", "negative_",
    "reciprocal_", "relu_", "round_", "sigmoid_", "sin_", "sinh_", "sqrt_", "square_", "tan_",
    "tanh_", "trunc_",
]  # fmt: skip
__version__ = "0.1.0"


moveaxis = movedim
rsqrt_, expm1_ = Tensor.rsqrt_, Tensor.expm1_
erf_, erfc_ = Tensor.erf_, Tensor.erfc_


def is_tensor(obj: object) -> builtins.bool:
    """True if ``obj`` is a Tensor (``isinstance(obj, torch.Tensor)``)."""
    return isinstance(obj, Tensor)


__all__ += ["cross", "meshgrid", "select", "svd", "unique"]
__all__ += ["expm1", "finfo", "flip", "iinfo", "index_select", "masked_select", "roll", "rsqrt"]
__all__ += ["tile", "tril", "triu", "rsqrt_", "expm1_", "is_floating_point"]
__all__ += ["argwhere", "broadcast_to", "clamp_max", "clamp_min", "column_stack", "count_nonzero"]
__all__ += ["conj", "imag", "is_complex", "is_conj", "real", "resolve_conj"]
__all__ += ["hstack", "movedim", "moveaxis", "nan_to_num", "narrow", "outer", "vstack"]
__all__ += ["is_tensor", "range", "gather", "scatter", "scatter_add", "scatter_reduce"]
__all__ += ["index_add", "index_copy", "index_fill", "nanquantile", "quantile"]
__all__ += ["exp2", "exp2_", "logit", "logit_", "sinc", "sinc_", "xlogy", "xlogy_"]
__all__ += ["addcdiv", "addcmul", "diag", "diag_embed", "diagonal", "erf", "erfc", "erfinv"]
__all__ += ["erf_", "erfc_", "lerp", "trace", "bincount", "diff", "median", "repeat_interleave"]
__all__ += ["bernoulli", "einsum", "normal"]
__all__ += ["broadcast_tensors", "cartesian_prod", "cdist", "det", "inverse", "slogdet"]
__all__ += ["tensordot"]
frac_ = Tensor.frac_
__all__ += ["frac", "frac_", "isneginf", "isposinf", "logspace", "nanmean", "nansum", "signbit"]
__all__ += ["std_mean", "var_mean", "get_num_threads", "set_num_threads", "kthvalue", "mode"]
__all__ += [
    "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
    "use_deterministic_algorithms",
]  # fmt: skip

# The binary functions, with PyTorch's keyword names (torch.add(input=x, other=y)), out= and
# its argument-parser errors (torch.gt(x, "a"): api/binary_functions.py)
add, sub, mul, div, pow, maximum, minimum, eq, ne, lt, le, gt, ge = (
    _binary_functions.function(name)
    for name in ("add", "sub", "mul", "div", "pow", "maximum", "minimum")
    + ("eq", "ne", "lt", "le", "gt", "ge")
)
floor_divide, remainder, fmod, bitwise_and, bitwise_or, bitwise_xor = (
    _binary_functions.function(name)
    for name in ("floor_divide", "remainder", "fmod", "bitwise_and", "bitwise_or", "bitwise_xor")
)
where = torch_keywords("condition", "input", "other")(_where)
# PyTorch's other names for the same functions (its errors use them):
multiply, divide, subtract = (
    _binary_functions.function(n) for n in ("multiply", "divide", "subtract")
)


# issue 24's walk of PyTorch's namespaces (docs/api_walk.md): more of its other names
greater, greater_equal, less, less_equal, not_equal, true_divide = (
    _binary_functions.function(name)
    for name in ("greater", "greater_equal", "less", "less_equal", "not_equal", "true_divide")
)
fix, fix_ = trunc, trunc_
logical_and, logical_or, logical_xor = (
    _binary_functions.function(n) for n in ("logical_and", "logical_or", "logical_xor")
)
pi, e, inf, nan, newaxis = math.pi, math.e, math.inf, math.nan, None


def _method(name: str) -> Any:
    """``torch.name(x, ...)``: the Tensor method ``x.name(...)``, with PyTorch's TypeError for an
    input that is not a tensor."""
    method = getattr(Tensor, name)

    def function(input: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        _expect_tensor(input, name)
        return method(input, *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = method.__doc__
    return function


adjoint, ravel, msort, isreal, is_signed, is_nonzero, is_same_size = (
    _method(name)
    for name in ("adjoint", "ravel", "msort", "isreal", "is_signed", "is_nonzero", "is_same_size")
)
detach, detach_ = _method("detach"), _method("detach_")
__all__ += ["greater", "greater_equal", "less", "less_equal", "not_equal", "true_divide", "fix"]
__all__ += ["fix_", "row_stack", "logical_xor", "pi", "e", "inf", "nan", "newaxis", "adjoint"]
__all__ += ["ravel", "msort", "isreal", "is_signed", "is_nonzero", "is_same_size", "detach"]
__all__ += ["detach_", "layout", "strided"]


from microtorch.api.pointwise import deg2rad, gcd, lcm, rad2deg, sgn  # noqa: E402
from microtorch.api.twins import deg2rad_, gcd_, lcm_, rad2deg_  # noqa: E402

hypot, logaddexp, logaddexp2, copysign, fmax, fmin = (
    _binary_functions.function(n)
    for n in ("hypot", "logaddexp", "logaddexp2", "copysign", "fmax", "fmin")
)
__all__ += ["copysign", "deg2rad", "fmax", "fmin", "gcd", "hypot", "lcm", "logaddexp"]
__all__ += ["logaddexp2", "rad2deg", "sgn", "deg2rad_", "gcd_", "lcm_", "rad2deg_"]


def numel(input: Tensor) -> builtins.int:  # noqa: A002 - PyTorch's name
    """The number of elements of ``input``."""

    _expect_tensor(input, "numel")
    return input.numel()


from microtorch import cuda, nn, optim, utils  # noqa: E402 - after the core
from microtorch.api.elementwise import allclose, equal, isclose  # noqa: E402

__all__ += ["allclose", "cuda", "distributions", "equal", "isclose", "load", "nn", "optim", "save"]
__all__ += ["utils"]
__all__ += ["testing"]
from microtorch.api.sorting import argsort, nonzero, sort, topk  # noqa: E402

__all__ += ["argsort", "nonzero", "sort", "topk"]
from microtorch import accelerator, backends, functional, linalg, random, special  # noqa: E402
from microtorch.random import get_rng_state, initial_seed, set_rng_state  # noqa: E402

__all__ += ["functional", "linalg", "profiler", "special"]
__all__ += ["backends", "random", "get_rng_state", "initial_seed", "set_rng_state"]


# --- walka: issue 24's shapes, joins, cuts, indexing and products (docs/api_walk.md)
from microtorch.api import splits as _splits  # noqa: E402

atleast_1d, atleast_2d, atleast_3d, dstack = (
    _splits.atleast_1d, _splits.atleast_2d, _splits.atleast_3d, _splits.dstack,
)  # fmt: skip
tensor_split, hsplit, vsplit, dsplit = (
    _splits.tensor_split, _splits.hsplit, _splits.vsplit, _splits.dsplit,
)  # fmt: skip
split_with_sizes, fliplr, flipud, unflatten, diagflat = (
    _splits.split_with_sizes, _splits.fliplr, _splits.flipud, _splits.unflatten,
    _splits.diagflat,
)  # fmt: skip
__all__ += ["atleast_1d", "atleast_2d", "atleast_3d", "dstack", "tensor_split", "hsplit"]
__all__ += ["vsplit", "dsplit", "split_with_sizes", "fliplr", "flipud", "unflatten", "diagflat"]
from microtorch.api import products as _products  # noqa: E402

addmv, addmv_, addr, addbmm, baddbmm = (
    _products.addmv, _products.addmv_, _products.addr, _products.addbmm, _products.baddbmm,
)  # fmt: skip
chain_matmul, inner, ger, vdot, kron, rsub = (
    _products.chain_matmul, _products.inner, _products.ger, _products.vdot, _products.kron,
    _products.rsub,
)  # fmt: skip
__all__ += ["addmv", "addmv_", "addr", "addbmm", "baddbmm", "chain_matmul", "inner", "ger"]
__all__ += ["vdot", "kron", "rsub"]
addmm = _products.addmm  # torch.addmm(c, a, b, beta=..., alpha=...): as x.addmm
from microtorch.api import take_put as _take_put  # noqa: E402

rot90, take, take_along_dim, put, block_diag = (
    _take_put.rot90, _take_put.take, _take_put.take_along_dim, _take_put.put,
    _take_put.block_diag,
)  # fmt: skip
index_put, index_put_, masked_scatter, fill = (
    _take_put.index_put, _take_put.index_put_, _take_put.masked_scatter, _take_put.fill,
)  # fmt: skip
fill_ = _method("fill_")
__all__ += ["rot90", "take", "take_along_dim", "put", "block_diag", "index_put", "index_put_"]
__all__ += ["masked_scatter", "fill", "fill_"]
from microtorch.api import scan as _scan  # noqa: E402

cummax, cummin, logcumsumexp, aminmax = (
    _scan.cummax, _scan.cummin, _scan.logcumsumexp, _scan.aminmax,
)  # fmt: skip
bucketize, searchsorted, isin = _scan.bucketize, _scan.searchsorted, _scan.isin
__all__ += ["cummax", "cummin", "logcumsumexp", "aminmax", "bucketize", "searchsorted", "isin"]
from microtorch.api.unique import unique_consecutive  # noqa: E402

combinations = _splits.combinations
__all__ += ["combinations", "unique_consecutive"]
# --- end walka
# --- walkb
from microtorch.api.bessel import i0  # noqa: E402
from microtorch.api.gamma import digamma, lgamma, mvlgamma, polygamma  # noqa: E402

i0_ = Tensor.i0_
from microtorch.api.dist import dist  # noqa: E402
from microtorch.api.float_bits import float_power, frexp, heaviside, ldexp, nextafter  # noqa: E402
from microtorch.api.incomplete_gamma import igamma, igammac  # noqa: E402
from microtorch.api.scalars import can_cast, scalar_tensor  # noqa: E402
from microtorch.api.shifts import bitwise_left_shift, bitwise_right_shift  # noqa: E402
from microtorch.api.shrink import hardshrink  # noqa: E402
from microtorch.api.trapezoid import cumulative_trapezoid, trapezoid, trapz  # noqa: E402
from microtorch.nn.functional import prelu  # noqa: E402

ldexp_, nan_to_num_ = Tensor.ldexp_, Tensor.nan_to_num_


def randint_like(
    input: Tensor, low: builtins.int = 0, high: builtins.int | None = None, *,  # noqa: A002
    dtype: Any = None, layout: Any = None, device: Any = None,
    requires_grad: builtins.bool = False, memory_format: Any = None, generator: Any = None,
) -> Tensor:  # fmt: skip
    """randint(low, high, input.shape) in input's dtype (``randint_like(x, high)`` starts at
    0), from microtorch's seeded generator (not PyTorch's numbers)."""
    _expect_tensor(input, "randint_like")
    if high is None:
        low, high = 0, low
    target = dtype or input.dtype
    if target is bool and not (low >= 0 and high <= 2):
        raise RuntimeError("to - 1 is out of bounds for bool")
    out = randint(low, high, tuple(input.shape), generator=generator, dtype=target,
                  device=device or input.device)  # fmt: skip
    return out.requires_grad_(requires_grad) if requires_grad else out


def celu(input: Tensor, alpha: builtins.float = 1.0) -> Tensor:  # noqa: A002 - PyTorch's name
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (``torch.nn.functional.celu``)."""
    return nn.functional.celu(input, alpha)


def celu_(input: Tensor, alpha: builtins.float = 1.0) -> Tensor:  # noqa: A002
    """``celu``, written into ``input``; returns it."""
    return nn.functional.celu(input, alpha, inplace=True)


def selu(input: Tensor) -> Tensor:  # noqa: A002
    """scale * elu(x, alpha) with PyTorch's fixed alpha and scale (``F.selu``)."""
    return nn.functional.selu(input)


def selu_(input: Tensor) -> Tensor:  # noqa: A002
    """``selu``, written into ``input``; returns it."""
    return nn.functional.selu(input, inplace=True)


__all__ += ["bitwise_left_shift", "bitwise_right_shift", "can_cast", "celu", "celu_", "dist"]
__all__ += ["float_power", "frexp", "hardshrink", "heaviside", "ldexp", "ldexp_", "nextafter"]
__all__ += ["prelu", "scalar_tensor", "selu", "selu_", "nan_to_num_", "randint_like"]
__all__ += ["igamma", "igammac", "cumulative_trapezoid", "trapezoid", "trapz"]

__all__ += ["digamma", "lgamma", "mvlgamma", "polygamma", "i0", "i0_"]
# --- walkd (issue 24): process settings, exception classes, deprecated and removed names
from microtorch import runtime as _runtime  # noqa: E402

# --- walke
from microtorch.api.correlation import corrcoef, cov  # noqa: E402
from microtorch.api.legacy_types import set_default_tensor_type  # noqa: E402
from microtorch.api.nanmedian import nanmedian  # noqa: E402
from microtorch.api.renorm import renorm  # noqa: E402
from microtorch.autograd.anomaly_mode import (  # noqa: E402
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from microtorch.exceptions import AcceleratorError, FatalError, OutOfMemoryError  # noqa: E402

__all__ += ["corrcoef", "cov", "nanmedian", "renorm"]

get_float32_matmul_precision = _runtime.get_float32_matmul_precision
set_float32_matmul_precision = _runtime.set_float32_matmul_precision
get_num_interop_threads = _runtime.get_num_interop_threads
set_num_interop_threads = _runtime.set_num_interop_threads
set_flush_denormal = _runtime.set_flush_denormal
get_deterministic_debug_mode = _runtime.get_deterministic_debug_mode
set_deterministic_debug_mode = _runtime.set_deterministic_debug_mode
is_warn_always_enabled, set_warn_always = _runtime.is_warn_always_enabled, _runtime.set_warn_always
# What the build has: numpy's LAPACK (linalg) and FFT; neither MKL nor OpenMP of PyTorch's own
has_lapack, has_spectral, has_mkl, has_openmp = True, True, False, False
get_device, is_inference = _method("get_device"), _method("is_inference")
__all__ += [
    "AcceleratorError", "FatalError", "OutOfMemoryError", "get_float32_matmul_precision",
    "set_float32_matmul_precision", "get_num_interop_threads", "set_num_interop_threads",
    "set_flush_denormal", "get_deterministic_debug_mode", "set_deterministic_debug_mode",
    "is_warn_always_enabled", "set_warn_always", "has_lapack", "has_spectral", "has_mkl",
    "has_openmp", "get_device", "is_inference", "is_anomaly_enabled", "set_anomaly_enabled",
    "is_anomaly_check_nan_enabled", "set_default_tensor_type",
]  # fmt: skip


from microtorch.api.memory_layout import empty_permuted, empty_strided, frombuffer  # noqa: E402
from microtorch.creation import asarray  # noqa: E402

__all__ += ["asarray", "empty_permuted", "empty_strided", "frombuffer"]

# (walkd) linear algebra: torch.matrix_exp/matrix_power; the rest imported on first call
from microtorch.api.linalg_square import matrix_exp  # noqa: E402


def matrix_power(input: Tensor, n: builtins.int) -> Tensor:  # noqa: A002
    """``torch.linalg.matrix_power``: A @ A @ ... (n times; n < 0 powers of the inverse)."""
    _expect_tensor(input, "matrix_power")
    if isinstance(n, builtins.bool) or not isinstance(n, builtins.int):
        raise TypeError(
            f"matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}"
        )
    return linalg.matrix_power(input, n)


def _on_first_call(name: str, module: str = "linalg_triangular", attr: str = "") -> Any:
    """``torch.name``: microtorch/api/<module>.py's function, imported on first call
    (``import microtorch`` does not pay for it)."""

    def function(*args: Any, **kwargs: Any) -> Any:
        found = importlib.import_module(f"microtorch.api.{module}")
        return getattr(found, attr or name)(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: see microtorch.api.{module}.{attr or name}."
    return function


cholesky, cholesky_inverse, cholesky_solve, logdet, pinverse, qr, triangular_solve = (
    _on_first_call(name)
    for name in ("cholesky", "cholesky_inverse", "cholesky_solve", "logdet", "pinverse")
    + ("qr", "triangular_solve")
)
__all__ += ["matrix_exp", "matrix_power", "cholesky", "cholesky_inverse", "cholesky_solve"]
lu_unpack = _on_first_call("lu_unpack", "linalg_lu")
geqrf, orgqr = _on_first_call("geqrf", "householder"), _on_first_call("orgqr", "householder")
lu_solve = _on_first_call("lu_solve", "linalg_lu", "torch_lu_solve")
__all__ += ["logdet", "pinverse", "qr", "triangular_solve", "lu_unpack", "lu_solve"]
__all__ += ["geqrf", "orgqr"]

# --- walkg
from microtorch.api.counting_samples import binomial, poisson  # noqa: E402
from microtorch.api.file_tensors import from_file  # noqa: E402
from microtorch.api.gradient import gradient  # noqa: E402
from microtorch.api.index_reduce import index_reduce  # noqa: E402

__all__ += ["binomial", "from_file", "gradient", "histogramdd", "index_reduce", "poisson"]

# Rarely used submodules, imported on first use (``torch.distributions.Normal`` works as
# always; ``import microtorch`` does not pay for them): PEP 562's module ``__getattr__``.
_ON_FIRST_USE = ("distributions", "profiler", "return_types", "testing")


def __getattr__(name: str) -> object:
    # save/load import zipfile, tempfile and json (~10 ms): load them on first use only.
    if name in ("save", "load"):
        from microtorch import serialization

        return getattr(serialization, name)
    if name in _ON_FIRST_USE:  # (the import sets the attribute: this runs once per name)
        return importlib.import_module(f"microtorch.{name}")
    return _not_found(name)  # raises; for what PyTorch has and microtorch not, says what to use


_not_found = _coverage.module_getattr("torch", __name__)

# In IPython/JupyterLab, tracebacks show the student's lines and not microtorch's frames (as
# PyTorch's C++ errors do); outside IPython this does nothing. See microtorch/_traceback.py.
from microtorch._traceback import hide_frames_in_ipython  # noqa: E402

hide_frames_in_ipython()
