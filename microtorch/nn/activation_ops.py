"""The ``Function``s behind the activations that are not core ops: SiLU, ELU (also SELU and
CELU), softplus, hardtanh (also ReLU6), log-sigmoid, Mish, hardswish and hardsigmoid
(PReLU's is in ``microtorch/ops/prelu.py``, for ``Tensor.prelu``).

Each op's forward and backward take numpy arrays (``NumpyFunction``), computed in the
input's dtype.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = [
    "Silu", "Elu", "Elu_", "Celu", "Celu_", "Softplus", "Hardtanh", "LogSigmoid", "Mish",
    "Hardswish", "Hardsigmoid",
]  # fmt: skip


def _sigmoid(x: np.ndarray) -> np.ndarray:
    # 1 / (1 + exp(-x)) from exp(-|x|), which never overflows
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _softplus(x: np.ndarray) -> np.ndarray:
    # log(1 + exp(x)) without overflow
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


class Silu(NumpyFunction):
    """z = a * sigmoid(a), so dz/da = s (1 + a (1 - s)) with s = sigmoid(a)."""

    node_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * _sigmoid(a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        s = _sigmoid(a)
        return grad_output * s * (1 + a * (1 - s))


class Elu(NumpyFunction):
    """z = scale * a where a > 0, else scale * alpha * (exp(a * input_scale) - 1), so
    dz/da = scale there, else scale * alpha * input_scale * exp(a * input_scale).
    ``elu`` has scale = input_scale = 1; ``selu`` fixed alpha and scale."""

    node_name = "EluBackward0"
    double_backward_name = "EluBackwardBackward0"

    ctx_fields = ("alpha", "scale", "input_scale")

    @staticmethod
    def forward(ctx, a, alpha, scale, input_scale):
        ctx.save_for_backward(a)
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        negative = alpha * scale * np.expm1(a * input_scale)
        return np.where(a > 0, a * scale, negative).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        slope = ctx.alpha * ctx.scale * ctx.input_scale * np.exp(a * ctx.input_scale)
        return grad_output * np.where(a > 0, ctx.scale, slope).astype(a.dtype, copy=False)


class Elu_(Elu):  # noqa: N801 - PyTorch's trailing underscore for in place
    """The in-place form (``elu(x, inplace=True)``, ``selu``'s too): ``EluBackward1``."""

    node_name = "EluBackward1"


class Celu(Elu):
    """``elu`` with input_scale = 1 / alpha: z = max(0, a) + min(0, alpha (exp(a / alpha) - 1)).
    PyTorch's backward divides 1 by alpha rounded to float32 (``1.0 / alpha.toFloat()``):
    so does this one's, for the same gradient in float64."""

    node_name = "CeluBackward0"

    @staticmethod
    def forward(ctx, a, alpha, scale, input_scale):
        out = Elu.forward(ctx, a, alpha, scale, input_scale)
        ctx.input_scale = 1 / float(np.float32(alpha))
        return out


class Celu_(Elu):  # noqa: N801
    """The in-place form of ``celu``: a is overwritten, so the formula reads the result z,
    dz/da = 1 where z > 0, else (z + alpha) / alpha; as PyTorch's, 1 / alpha rounded to
    float32 there (not in the forward). So the second derivative is d(slope)/dz * dz/da."""

    node_name = "CeluBackward1"

    @staticmethod
    def forward(ctx, a, alpha, scale, input_scale):
        out = Elu.forward(ctx, a, alpha, scale, input_scale)
        ctx.save_for_backward(out)
        ctx.input_scale = 1 / float(np.float32(alpha))
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (z,) = ctx.saved_tensors
        slope = ctx.input_scale * (z + ctx.alpha * ctx.scale)
        return grad_output * np.where(z > 0, ctx.scale, slope).astype(z.dtype, copy=False)


class Softplus(NumpyFunction):
    """z = log(1 + exp(beta a)) / beta (z = a where beta a > threshold), so
    dz/da = sigmoid(beta a) (1 past the threshold)."""

    node_name = "SoftplusBackward0"
    double_backward_name = "SoftplusBackwardBackward0"

    ctx_fields = ("beta", "threshold")

    @staticmethod
    def forward(ctx, a, beta, threshold):
        ctx.save_for_backward(a)
        ctx.beta, ctx.threshold = beta, threshold
        scaled = a * beta
        return np.where(scaled > threshold, a, _softplus(scaled) / beta).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        scaled = a * ctx.beta
        slope = np.where(scaled > ctx.threshold, 1, _sigmoid(scaled)).astype(a.dtype)
        return grad_output * slope


class Hardtanh(NumpyFunction):
    """z = a clipped to [min_val, max_val], so dz/da = 1 strictly inside, else 0."""

    node_name = "HardtanhBackward0"
    double_backward_name = "HardtanhBackwardBackward0"

    ctx_fields = ("min_val", "max_val")

    @staticmethod
    def forward(ctx, a, min_val, max_val):
        ctx.save_for_backward(a)
        ctx.min_val, ctx.max_val = min_val, max_val
        low, high = np.asarray(min_val).astype(a.dtype), np.asarray(max_val).astype(a.dtype)
        return np.minimum(np.maximum(a, low), high)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        inside = (a > ctx.min_val) & (a < ctx.max_val)
        return np.where(inside, grad_output, np.zeros((), grad_output.dtype))


class LogSigmoid(NumpyFunction):
    """z = log(sigmoid(a)) = -softplus(-a), so dz/da = 1 - sigmoid(a) = sigmoid(-a)."""

    node_name = "LogSigmoidBackward0"
    double_backward_name = "LogSigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return -_softplus(-a)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * _sigmoid(-a)


class Mish(NumpyFunction):
    """z = a tanh(softplus(a)), so dz/da = t + a sigmoid(a) (1 - t**2), t = tanh(softplus(a))."""

    node_name = "MishBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * np.tanh(_softplus(a))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        t = np.tanh(_softplus(a))
        return grad_output * (t + a * _sigmoid(a) * (1 - t * t))


class Hardswish(NumpyFunction):
    """z = a * relu6(a + 3) / 6, so dz/da = 0 up to -3, a / 3 + 1 / 2 below 3, then 1 (at the
    kinks, PyTorch's sides: 0 at -3, 1 at 3)."""

    node_name = "HardswishBackward0"
    double_backward_name = "HardswishBackwardBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * np.clip(a + 3, 0, 6) / 6

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        slope = np.where(a <= -3, 0, np.where(a < 3, a / 3 + 0.5, 1)).astype(a.dtype)
        return grad_output * slope


class Hardsigmoid(NumpyFunction):
    """z = relu6(a + 3) / 6, so dz/da = 1 / 6 strictly between -3 and 3, else 0."""

    node_name = "HardsigmoidBackward0"
    # PyTorch has no second derivative of it: differentiating the gradient raises its error
    double_backward_name = "torch::autograd::NotImplemented"
    missing_derivative = "aten::hardsigmoid_backward"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.clip(a + 3, 0, 6) / 6

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        inside = (a > -3) & (a < 3)
        # PyTorch multiplies by 1 / 6 rounded to float32, in every dtype
        one_sixth = np.asarray(np.float32(1 / 6), grad_output.dtype)
        return np.where(inside, grad_output * one_sixth, np.zeros((), grad_output.dtype))
