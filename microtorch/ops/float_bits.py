"""Ops on a float's two parts, mantissa and exponent: ldexp (a * 2**b) and nextafter (the next
float from a towards b), with their backward formulas. (frexp and heaviside have no gradient:
their public functions in ``microtorch/api/float_bits.py`` compute them directly.)
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import follow_inputs

__all__ = ["Ldexp", "Nextafter"]


class Ldexp(NumpyFunction):
    """z = a * 2**b, so dz/da = 2**b and dz/db = z * log(2). As PyTorch's formula, for an
    integer exponent (``int_exponent``) dz/da takes 2**b in integers: 0 where b < 0."""

    node_name = "LdexpBackward0"

    @staticmethod
    def forward(ctx, a, b, int_exponent):
        z = follow_inputs(a * np.exp2(b).astype(a.dtype, copy=False), a, b)
        ctx.save_for_backward(a, b, z)
        ctx.int_exponent = int_exponent
        return z

    @staticmethod
    def backward(ctx, grad_output):
        a, b, z = ctx.saved_tensors
        scale = np.exp2(b)
        if ctx.int_exponent:
            scale = np.where(b < 0, 0 * scale, scale)
        grads = [grad_output * scale, grad_output * z * math.log(2)]
        return tuple(
            unbroadcast(g, ctx.input_shape(i)) if needed else None
            for i, (g, needed) in enumerate(zip(grads, ctx.needs_input_grad))
        )


class Nextafter(NumpyFunction):
    """z = the float after a in the direction of b. As in PyTorch, dz/da = 1 and dz/db = 0."""

    node_name = "NextafterBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return follow_inputs(np.nextafter(a, b), a, b)

    @staticmethod
    def backward(ctx, grad_output):
        grads = [grad_output, grad_output * 0]
        return tuple(
            unbroadcast(g, ctx.input_shape(i)) if needed else None
            for i, (g, needed) in enumerate(zip(grads, ctx.needs_input_grad))
        )
