"""The formulas of ``torch.special`` that microtorch's other ops do not already give: exp2,
logit, sinc, entr, xlogy and xlog1py.

One ``Function`` per op, forward and backward side by side. The public functions (dtypes,
keywords, numbers as operands) are in ``microtorch/special.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "Exp2", "Logit", "Sinc", "Entr", "Xlogy", "XlogyNumberSelf", "XlogyNumberOther",
    "Xlog1py", "Xlog1pyNumberSelf", "Xlog1pyNumberOther",
]  # fmt: skip


class Exp2(NumpyFunction):
    """z = 2**a, so dz/da = z * ln 2."""

    node_name = "Exp2Backward0"

    @staticmethod
    def forward(ctx, a):
        out = correctly_rounded(np.exp2, a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * out * np.asarray(np.log(2.0), out.dtype)


class Logit(NumpyFunction):
    """z = log(a / (1 - a)) (a first clamped to [eps, 1 - eps] if eps is given), so
    dz/da = 1 / (a * (1 - a)), and 0 where the clamp held a."""

    node_name = "LogitBackward0"

    @staticmethod
    def forward(ctx, a, eps):
        ctx.save_for_backward(a)
        ctx.eps = eps
        x = a if eps is None else np.clip(a, eps, 1 - eps).astype(a.dtype)
        return np.log(x / (1 - x))

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        grad = grad_output / (a * (1 - a))
        if ctx.eps is not None:
            grad = np.where((a < ctx.eps) | (a > 1 - ctx.eps), 0, grad).astype(a.dtype)
        return grad


class Sinc(NumpyFunction):
    """z = sin(pi a) / (pi a) (1 at a = 0), so dz/da = (pi a cos(pi a) - sin(pi a)) / (pi a**2),
    0 at a = 0."""

    node_name = "SincBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        pa = np.asarray(np.pi, a.dtype) * a  # (in a's dtype, as PyTorch: sinc(1) is not 0)
        safe = np.where(a == 0, 1, pa).astype(a.dtype)
        return np.where(a == 0, 1, np.sin(safe) / safe).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        pa = np.pi * a
        slope = (pa * np.cos(pa) - np.sin(pa)) / (pa * a)
        return grad_output * np.where(a == 0, 0, slope).astype(a.dtype)


class Entr(NumpyFunction):
    """z = -a log a (0 at a = 0, -inf for a < 0), so dz/da = -(1 + log a)."""

    node_name = "SpecialEntrBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        safe = np.where(a > 0, a, 1).astype(a.dtype)
        out = np.where(a > 0, -a * np.log(safe), np.where(a == 0, 0, -np.inf))
        return np.where(np.isnan(a), a, out).astype(a.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (a,) = ctx.saved_tensors
        return grad_output * -(1 + np.log(a))


def _xlog(a, b, log):
    # a * log(b), 0 where a is 0 (unless b is nan)
    out = a * log(b)
    return np.where((a == 0) & ~np.isnan(b), 0, out).astype(out.dtype)


class Xlogy(NumpyFunction):
    """z = a * log(b), 0 where a = 0; so dz/da = log(b) (0 where a = 0 and b <= 0) and
    dz/db = a / b."""

    node_name = "XlogyBackward0"
    log = staticmethod(np.log)

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(a, b)
        return _xlog(a, b, cls.log)

    @classmethod
    def backward(cls, ctx, grad_output):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad[0], ctx.needs_input_grad[-1]
        grad_a = grad_b = None
        if need_a:  # (0 where both a = 0 and log's argument <= 0)
            grad = _xlog(grad_output, b, cls.log)
            grad = np.where((a == 0) & (cls.slope_base(b) <= 0), 0, grad).astype(grad.dtype)
            grad_a = unbroadcast(grad, a.shape)
        if need_b:
            grad_b = unbroadcast(grad_output * a / cls.slope_base(b), b.shape)
        return grad_a, grad_b

    @staticmethod
    def slope_base(b):
        return b


class XlogyNumberSelf(Xlogy):
    """xlogy with a number for a: z = a * log(b)."""

    node_name = "XlogyBackward1"


class XlogyNumberOther(Xlogy):
    """xlogy with a number for b: z = a * log(b)."""

    node_name = "XlogyBackward2"


class Xlog1py(Xlogy):
    """z = a * log(1 + b), 0 where a = 0; so dz/da = log(1 + b) (0 where a = 0 and b <= -1) and
    dz/db = a / (1 + b)."""

    node_name = "SpecialXlog1PyBackward0"
    log = staticmethod(np.log1p)

    @staticmethod
    def slope_base(b):
        return b + 1


class Xlog1pyNumberSelf(Xlog1py):
    """xlog1py with a number for a."""

    node_name = "SpecialXlog1PyBackward1"


class Xlog1pyNumberOther(Xlog1py):
    """xlog1py with a number for b."""

    node_name = "SpecialXlog1PyBackward2"
