"""microtorch: PyTorch's tensors and autograd, rebuilt on numpy for teaching.

Write ``import microtorch as torch`` and beginner PyTorch code runs unchanged.

``import microtorch`` loads the core only: tensors, autograd and the everyday ops, what a
first cell needs. ``torch.nn`` and ``torch.optim`` load on their first use (``import
microtorch.nn as nn``, or reading ``torch.nn``), as do rarely used areas (``torch.linalg``,
``torch.det``, ``x.det()``, ``torch.special``, ``nn.TransformerEncoderLayer``, ``optim.LBFGS``:
microtorch/_lazy.py). The
rule for a new rarely used area: do not import it here (nor from any module ``import
microtorch`` loads); put its names in the ``ON_FIRST_USE`` table below, or in nn's, nn.functional's,
optim's, autograd's (``**_lazy.names("microtorch.api.mine", "f g")``), its Tensor methods as
``f = Method("microtorch.api.mine:f")`` in api/tensor_methods.py, its names in ``__all__`` as
usual. tests/test_import_time.py checks that no module a table names is loaded at import.
"""

import builtins
import math
from typing import Any

from microtorch import _coverage, _lazy, autograd
from microtorch._tensor_str import get_printoptions, set_printoptions
from microtorch.api import binary_functions as _binary_functions
from microtorch.api._checks import expect_tensor as _expect_tensor
from microtorch.api.arguments import alias as _alias
from microtorch.api.bitwise import bitwise_not, positive
from microtorch.api.cumulative import cumprod, cumsum, prod
from microtorch.api.elementwise import logical_not, masked_fill
from microtorch.api.elementwise import where as _where
from microtorch.api.indexing import select
from microtorch.api.join import cat, chunk, split, stack, unbind
from microtorch.api.keywords import torch_keywords
from microtorch.api.linalg import bmm, dot, matmul, mm, mv, norm
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
from microtorch.api.shape import clone, flatten, permute, squeeze, t, transpose, unsqueeze
from microtorch.api.shape import reshape_function as reshape
from microtorch.api.tensor_options import tensor_options as _tensor_options
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
    clamp_,
    cos_,
    cosh_,
    exp_,
    log1p_,
    log_,
    neg_,
    reciprocal_,
    relu_,
    sigmoid_,
    sin_,
    sinh_,
    sqrt_,
    square_,
    tan_,
    tanh_,
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
    set_default_dtype,
    short,
    strided,
    uint8,
)  # fmt: skip
from microtorch.tensor import Size, Tensor

# PyTorch's other names for the same functions:
concat, concatenate = _alias(cat, "concat"), _alias(cat, "concatenate")  # (errors: their names)
absolute, negative = abs, neg  # (multiply, divide, subtract: below, with add, mul, ...)
swapdims = _alias(transpose, "swapdims")
swapaxes = _alias(transpose, "swapaxes", "Tensor input, int axis0, int axis1")  # (numpy's names)
square = torch_keywords("input", out=True)(Tensor.square)  # (torch.square(input=x))

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


rsqrt_, expm1_ = Tensor.rsqrt_, Tensor.expm1_


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
where = torch_keywords("condition", ("input", "self"), "other")(_where)
# PyTorch's other names for the same functions (its errors use them):
multiply, divide, subtract = (
    _binary_functions.function(n) for n in ("multiply", "divide", "subtract")
)


# issue 24's walk of PyTorch's namespaces (docs/api_walk.md): more of its other names
greater, greater_equal, less, less_equal, not_equal, true_divide = (
    _binary_functions.function(name)
    for name in ("greater", "greater_equal", "less", "less_equal", "not_equal", "true_divide")
)
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


from microtorch.api.elementwise import allclose, equal, isclose  # noqa: E402

__all__ += ["allclose", "cuda", "distributions", "equal", "isclose", "load", "nn", "optim", "save"]
__all__ += ["utils"]
__all__ += ["testing"]
__all__ += ["argsort", "nonzero", "sort", "topk"]

__all__ += ["functional", "linalg", "profiler", "special"]
__all__ += ["backends", "random", "get_rng_state", "initial_seed", "set_rng_state"]


# --- walka: issue 24's shapes, joins, cuts, indexing and products (docs/api_walk.md); these and
# walkb's, walke's names load on first use (ON_FIRST_USE below)
__all__ += ["atleast_1d", "atleast_2d", "atleast_3d", "dstack", "tensor_split", "hsplit"]
__all__ += ["vsplit", "dsplit", "split_with_sizes", "fliplr", "flipud", "unflatten", "diagflat"]
__all__ += ["addmv", "addmv_", "addr", "addbmm", "baddbmm", "chain_matmul", "inner", "ger"]
__all__ += ["vdot", "kron", "rsub"]
fill_ = _method("fill_")
__all__ += ["rot90", "take", "take_along_dim", "put", "block_diag", "index_put", "index_put_"]
__all__ += ["masked_scatter", "fill", "fill_"]
__all__ += ["cummax", "cummin", "logcumsumexp", "aminmax", "bucketize", "searchsorted", "isin"]
__all__ += ["combinations", "unique_consecutive"]
# --- end walka
# --- walkb

nan_to_num_ = torch_keywords("input")(Tensor.nan_to_num_)


@_tensor_options(memory_format=True)  # (layout=, pin_memory=, memory_format=)
def randint_like(
    input: Tensor, low: builtins.int = 0, high: builtins.int | None = None, *,  # noqa: A002
    dtype: Any = None, device: Any = None, requires_grad: builtins.bool = False,
    generator: Any = None,
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
    from microtorch import nn  # (on first use, as torch.nn)

    return nn.functional.celu(input, alpha)


def celu_(input: Tensor, alpha: builtins.float = 1.0) -> Tensor:  # noqa: A002
    """``celu``, written into ``input``; returns it."""
    from microtorch import nn

    return nn.functional.celu(input, alpha, inplace=True)


def selu(input: Tensor) -> Tensor:  # noqa: A002
    """scale * elu(x, alpha) with PyTorch's fixed alpha and scale (``F.selu``)."""
    from microtorch import nn

    return nn.functional.selu(input)


def selu_(input: Tensor) -> Tensor:  # noqa: A002
    """``selu``, written into ``input``; returns it."""
    from microtorch import nn

    return nn.functional.selu(input, inplace=True)


__all__ += ["bitwise_left_shift", "bitwise_right_shift", "can_cast", "celu", "celu_", "dist"]
__all__ += ["float_power", "frexp", "hardshrink", "heaviside", "ldexp", "ldexp_", "nextafter"]
__all__ += ["prelu", "scalar_tensor", "selu", "selu_", "nan_to_num_", "randint_like"]
__all__ += ["igamma", "igammac", "cumulative_trapezoid", "trapezoid", "trapz"]

__all__ += ["digamma", "lgamma", "mvlgamma", "polygamma", "i0", "i0_"]
# --- walkd (issue 24): process settings, exception classes, deprecated and removed names
# --- walke
from microtorch.autograd.anomaly_mode import (  # noqa: E402
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)

__all__ += ["corrcoef", "cov", "nanmedian", "renorm"]

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


from microtorch.creation import asarray  # noqa: E402

__all__ += ["asarray", "empty_permuted", "empty_strided", "frombuffer"]

# (walkd) linear algebra: in ON_FIRST_USE below
__all__ += ["matrix_exp", "matrix_power", "cholesky", "cholesky_inverse", "cholesky_solve"]
__all__ += ["logdet", "pinverse", "qr", "triangular_solve", "lu_unpack", "lu_solve"]
__all__ += ["geqrf", "orgqr"]
__all__ += ["ormqr"]  # (walkh, in ON_FIRST_USE)
__all__ += ["lobpcg"]  # (walkj, in ON_FIRST_USE)
__all__ += ["binomial", "from_file", "gradient", "histogramdd", "index_reduce", "poisson"]


# --- walkf: the names here are loaded with the package anyway; the rest are in ON_FIRST_USE
from microtorch.api.memory_format import (  # noqa: E402
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
    typename,
)

zero_ = _method("zero_")
__all__ += [
    "channels_last", "channels_last_3d", "contiguous_format", "memory_format", "preserve_format",
    "typename", "resize_as_", "bartlett_window", "blackman_window", "hamming_window",
    "hann_window", "kaiser_window", "tril_indices", "triu_indices", "unravel_index", "vander",
    "adaptive_max_pool1d", "avg_pool1d", "batch_norm", "convolution", "embedding", "group_norm",
    "instance_norm", "layer_norm", "max_pool1d", "max_pool1d_with_indices", "max_pool2d",
    "max_pool3d", "alpha_dropout", "alpha_dropout_", "binary_cross_entropy_with_logits",
    "cosine_embedding_loss", "ctc_loss", "dropout", "dropout_", "feature_alpha_dropout",
    "feature_alpha_dropout_", "hinge_embedding_loss", "kl_div", "margin_ranking_loss",
    "poisson_nll_loss", "rrelu", "rrelu_", "threshold", "threshold_", "triplet_margin_loss",
    "adaptive_avg_pool1d",
    "bilinear", "channel_shuffle", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
    "conv_transpose2d", "conv_transpose3d", "cosine_similarity", "pairwise_distance", "pdist",
    "pixel_shuffle", "pixel_unshuffle", "rms_norm", "clamp_max_", "clamp_min_", "zero_",
]  # fmt: skip

# Rarely used areas, imported on first use (see the rule at the top of this file).
ON_FIRST_USE = {
    **_lazy.modules("microtorch", "accelerator backends distributions functional linalg"),
    # nn and optim: a first cell (tensors, autograd) needs neither (about a third of the import)
    **_lazy.modules("microtorch", "nn optim"),
    # small areas a first cell seldom reads: each module costs its load (~0.1 ms) even so
    **_lazy.modules("microtorch", "cuda random utils"),
    **_lazy.names("microtorch.random", "get_rng_state initial_seed set_rng_state"),
    **_lazy.names("microtorch.exceptions", "AcceleratorError FatalError OutOfMemoryError"),
    # rounding and the base-2 and base-10 logarithms, and their in-place twins (the Tensor's)
    **_lazy.names("microtorch.api.rounding", "ceil floor frac round sign trunc"),
    "fix": "microtorch.api.rounding:trunc",
    "round_": "microtorch.api.rounding:round_",
    **_lazy.names("microtorch.api.logarithms", "log2 log10"),
    **{
        name: f"microtorch.tensor:Tensor.{name}"
        for name in ("ceil_", "floor_", "trunc_", "frac_", "log2_", "log10_")
    },
    "fix_": "microtorch.tensor:Tensor.trunc_",
    # the legacy tensor types (issue 24), gathers and scatters, random draws, shifts
    **_lazy.names(
        "microtorch.api.legacy_types",
        "BoolTensor ByteTensor CharTensor DoubleTensor FloatTensor HalfTensor IntTensor "
        "LongTensor ShortTensor set_default_tensor_type",
    ),
    **_lazy.names("microtorch.api.scatter", "gather scatter scatter_add scatter_reduce"),
    **_lazy.names("microtorch.api.sampling", "bernoulli normal"),
    **_lazy.names("microtorch.api.shifts", "bitwise_left_shift bitwise_right_shift"),
    **_lazy.names("microtorch.api.reshape_inplace", "resize_as_"),
    # process settings (walkd): microtorch/runtime.py
    **_lazy.names(
        "microtorch.runtime",
        "are_deterministic_algorithms_enabled get_num_threads "
        "is_deterministic_algorithms_warn_only_enabled set_num_threads "
        "use_deterministic_algorithms get_float32_matmul_precision set_float32_matmul_precision "
        "get_num_interop_threads set_num_interop_threads set_flush_denormal "
        "get_deterministic_debug_mode set_deterministic_debug_mode is_warn_always_enabled "
        "set_warn_always",
    ),
    **_lazy.modules("microtorch", "profiler return_types special testing"),
    # save/load import zipfile, tempfile and json (~10 ms)
    **_lazy.names("microtorch.serialization", "save load"),
    **_lazy.names("microtorch.api.sorting", "argsort nonzero sort topk"),
    **_lazy.names(
        "microtorch.api.composites",
        "argwhere broadcast_to clamp_max clamp_min column_stack count_nonzero hstack movedim "
        "nan_to_num narrow outer row_stack vstack",
    ),
    "moveaxis": "microtorch.api.composites:moveaxis",
    **_lazy.names("microtorch.api.cross", "cross"),
    **_lazy.names("microtorch.api.decomposition", "svd"),
    **_lazy.names("microtorch.api.diagonal", "diag diag_embed diagonal trace"),
    **_lazy.names("microtorch.api.einsum", "einsum"),
    **_lazy.names("microtorch.api.grids", "meshgrid"),
    **_lazy.names("microtorch.api.histogram", "histc histogram histogramdd"),
    # walkg
    **_lazy.names("microtorch.api.counting_samples", "binomial poisson"),
    **_lazy.names("microtorch.api.file_tensors", "from_file"),
    **_lazy.names("microtorch.api.gradient", "gradient"),
    **_lazy.names("microtorch.api.index_reduce", "index_reduce"),
    **_lazy.names("microtorch.api.index_along", "index_add index_copy index_fill"),
    **_lazy.names("microtorch.api.linalg_compose", "broadcast_tensors cartesian_prod tensordot"),
    **_lazy.names("microtorch.api.linalg_factor", "cdist"),
    **_lazy.names("microtorch.api.linalg_square", "inverse matrix_exp slogdet"),
    "det": "microtorch.api.linalg_square:torch_det",
    "matrix_power": "microtorch.api.linalg_square:torch_matrix_power",
    # walka, walkb, walke
    **_lazy.names(
        "microtorch.api.splits",
        "atleast_1d atleast_2d atleast_3d combinations diagflat dsplit dstack fliplr flipud "
        "hsplit split_with_sizes tensor_split unflatten vsplit",
    ),
    **_lazy.names(
        "microtorch.api.products",
        "addbmm addmm addmv addmv_ addr baddbmm chain_matmul ger inner kron rsub vdot",
    ),
    **_lazy.names(
        "microtorch.api.take_put",
        "block_diag fill index_put index_put_ masked_scatter put rot90 take take_along_dim",
    ),
    **_lazy.names(
        "microtorch.api.scan", "aminmax bucketize cummax cummin isin logcumsumexp searchsorted"
    ),
    **_lazy.names("microtorch.api.unique", "unique_consecutive"),
    **_lazy.names("microtorch.api.bessel", "i0"),
    "i0_": "microtorch.tensor:Tensor.i0_",
    **_lazy.names("microtorch.api.gamma", "digamma lgamma mvlgamma polygamma"),
    **_lazy.names("microtorch.api.dist", "dist"),
    **_lazy.names("microtorch.api.float_bits", "float_power frexp heaviside ldexp nextafter"),
    "ldexp_": "microtorch.tensor:Tensor.ldexp_",
    **_lazy.names("microtorch.api.incomplete_gamma", "igamma igammac"),
    **_lazy.names("microtorch.api.scalars", "can_cast result_type scalar_tensor"),
    **_lazy.names("microtorch.api.shrink", "hardshrink"),
    **_lazy.names("microtorch.api.trapezoid", "cumulative_trapezoid trapezoid trapz"),
    **_lazy.names("microtorch.api.correlation", "corrcoef cov"),
    **_lazy.names("microtorch.api.nanmedian", "nanmedian"),
    **_lazy.names("microtorch.api.renorm", "renorm"),
    **_lazy.names("microtorch.api.memory_layout", "empty_permuted empty_strided frombuffer"),
    **_lazy.names(
        "microtorch.api.linalg_triangular",
        "cholesky cholesky_inverse cholesky_solve logdet pinverse qr triangular_solve",
    ),
    **_lazy.names("microtorch.api.linalg_lu", "lu_unpack"),
    "lu_solve": "microtorch.api.linalg_lu:torch_lu_solve",
    **_lazy.names("microtorch.api.householder", "geqrf orgqr ormqr"),
    **_lazy.names("microtorch.api.lobpcg", "lobpcg"),  # (walkj)
    **_lazy.names("microtorch.api.quantile", "nanquantile quantile"),
    **_lazy.names("microtorch.api.sequences", "diff repeat_interleave"),
    **_lazy.names("microtorch.api.special", "addcdiv addcmul erf erfc erfinv lerp"),
    "erf_": "microtorch.tensor:Tensor.erf_",
    "erfc_": "microtorch.tensor:Tensor.erfc_",
    **_lazy.names(
        "microtorch.api.special_functions", "exp2 exp2_ logit logit_ sinc sinc_ xlogy xlogy_"
    ),
    **_lazy.names(
        "microtorch.api.statistics",
        "bincount kthvalue median mode nanmean nansum std_mean var_mean",
    ),
    **_lazy.names("microtorch.api.unique", "unique"),
    # walkf: PyTorch's torch.* (aten) forms of the layers, losses and dropouts, the window
    # functions and index helpers; F's own names where F loads them on first use
    **_lazy.names(
        "microtorch.api.windows",
        "bartlett_window blackman_window hamming_window hann_window kaiser_window tril_indices "
        "triu_indices unravel_index vander",
    ),
    **_lazy.names(
        "microtorch.nn.aten_layers",
        "adaptive_max_pool1d avg_pool1d batch_norm convolution embedding group_norm "
        "instance_norm layer_norm max_pool1d max_pool1d_with_indices max_pool2d max_pool3d",
    ),
    **_lazy.names(
        "microtorch.nn.aten_losses",
        "alpha_dropout alpha_dropout_ binary_cross_entropy_with_logits cosine_embedding_loss "
        "ctc_loss dropout dropout_ feature_alpha_dropout feature_alpha_dropout_ "
        "hinge_embedding_loss kl_div margin_ranking_loss poisson_nll_loss rrelu rrelu_ threshold "
        "threshold_ triplet_margin_loss",
    ),
    # F's own functions (torch.conv2d is F.conv2d), where F has them or loads them in turn
    **_lazy.names(
        "microtorch.nn.functional",
        "adaptive_avg_pool1d conv1d conv2d conv3d cosine_similarity pairwise_distance prelu",
    ),
    **_lazy.names("microtorch.nn.bilinear", "bilinear"),
    **_lazy.names(
        "microtorch.nn.conv_transpose_functions",
        "conv_transpose1d conv_transpose2d conv_transpose3d",
    ),
    **_lazy.names("microtorch.nn.loss_more_functions", "pdist"),
    **_lazy.names(
        "microtorch.nn.shuffle_functions", "channel_shuffle pixel_shuffle pixel_unshuffle"
    ),
    **_lazy.names("microtorch.nn.norm_more_functions", "rms_norm"),
    "clamp_max_": "microtorch.api.composites:clamp_max_",
    "clamp_min_": "microtorch.api.composites:clamp_min_",
}


# (a name not in the table raises; for what PyTorch has and microtorch not, it says what to use)
__getattr__ = _lazy.module_getattr(
    globals(), ON_FIRST_USE, _coverage.module_getattr("torch", __name__)
)
__dir__ = _lazy.module_dir(globals(), ON_FIRST_USE)

# In IPython/JupyterLab, tracebacks show the student's lines and not microtorch's frames (as
# PyTorch's C++ errors do); outside IPython this does nothing. See microtorch/_traceback.py.
from microtorch._traceback import hide_frames_in_ipython  # noqa: E402

hide_frames_in_ipython()
